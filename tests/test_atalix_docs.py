"""``pbem rules atalix`` (issue 13: "`pbem rules atalix` ... as for the other games"): the cards
with their costs and abilities, the projects, the tracks and the events, each with its source;
the values checked here are the rulebook's own (the Swap Gear's cost symbols, the event names
and their order) or worked from the data file by hand (the rounds a team has)."""

from __future__ import annotations

import subprocess
import sys

from pbem.games.atalix.data import load_data
from pbem.games.atalix.tables import abilities_text, rules_tables


def rules_out() -> str:
    return subprocess.run([sys.executable, "-m", "pbem.cli", "rules", "atalix"], text=True,
                          capture_output=True, check=True).stdout


def test_pbem_rules_atalix_prints_the_tables_then_every_sourced_value():
    out = rules_out()
    tables, _, sourced = out.partition("Every value with its source")
    assert "Cards (Separate Cards" in tables and "Projects (Build Projects" in tables
    assert "Research Track" in tables and "Card Cost Meter" in tables
    assert "stand-in" in tables  # every value the rulebook does not print says so
    assert "scenario = 1" in sourced and "difficulty = 1" in sourced  # the options


def test_purchasing_cards_the_swap_gear_shows_scrap_and_carbon_plus_1():
    # Purchasing Cards: "pay 1 scrap and 2 carbon, one for the card cost meter and one due to
    # the +1 symbol": the card's symbols are scrap, and carbon with +1.
    assert "Swap Gear (swap-gear): upgrade, 3 copies, cost scrap, carbon +1" in rules_out()


def test_events_are_listed_with_the_boards_names_1_to_6():
    out = rules_tables(load_data())
    lines = out[out.index("Events (End of Round"):].splitlines()[1:7]
    assert lines == ["  1: Disperse resources according to d6", "  2: Alien moves toward ship",
                     "  3: Storm moves in d6 direction", "  4: Storm expands in d6 direction",
                     "  5: Disperse resources according to d6",
                     "  6: Storm token placed on origin space"]


def test_trackers_the_rounds_a_team_has_by_stars_and_players():
    # Trackers / Threats: the tracker starts on the difficulty's space and the team loses on
    # reaching the player count's space; data.toml's stand-in track: starts 0, 1, 2 and losses
    # 10, 10, 9, 9, so 1 star with 4 players has 9 rounds and 3 stars with 1 player 8.
    out = rules_tables(load_data())
    rows = out[out.index("stars  start"):].splitlines()[:4]
    assert rows[1].split() == ["1", "0", "10", "10", "9", "9"]
    assert rows[3].split() == ["3", "2", "8", "8", "7", "7"]


def test_planning_phase_or_joins_the_abilities_above_and_below_it():
    # Planning Phase: "An OR only applies to the abilities directly above and below it".
    text = abilities_text([
        {"phase": "planning", "what": "plays", "amount": 1},
        {"phase": "action", "what": "gain", "resource": "carbon", "or": 1},
        {"phase": "action", "what": "gain", "resource": "scrap", "or": 1},
        {"phase": "planning", "what": "draw", "amount": 1, "level": 3}])
    assert text == ("Planning: +1 play; Action: gain 1 carbon OR Action: gain 1 scrap; "
                    "III Planning: draw 1")


# -- docs/orders-atalix.md ------------------------------------------------------------------

def doc_text() -> str:
    from pathlib import Path
    return (Path(__file__).resolve().parent.parent / "docs" / "orders-atalix.md").read_text(
        encoding="utf-8")


def doc_orders() -> list:
    import re
    lines = []
    for block in re.findall(r"```\n(.*?)```", doc_text(), re.S):
        lines += [x.split("#")[0].strip() for x in block.splitlines() if x.split("#")[0].strip()]
    table = doc_text().split("## Every order")[1].split("## Worked")[0]
    for row in re.findall(r"^\| `([^`]+)`(?: / `([^`]+)`)?(?: / `([^`]+)`)?", table, re.M):
        lines += [x.replace("[", "").replace("]", "") for x in row if x]
    return lines


def test_every_order_of_the_doc_parses():
    from pbem.games.atalix.orders import VERBS
    lines = doc_orders()
    assert len(lines) >= 40
    for line in lines:
        VERBS.read(line, 1)  # raises OrderSyntaxError with the reason


def test_every_space_of_the_doc_is_on_the_stand_in_board_and_moves_step_to_neighbours():
    import re
    from pathlib import Path

    from pbem.boards.hexmap import load_map
    from pbem.games.atalix.board import Board
    path = Path(__file__).resolve().parent.parent / "pbem" / "games" / "atalix" / "map.toml"
    board = Board(load_map(path.read_text(encoding="utf-8"), "map.toml"))
    assert board.center == "0505"  # the doc's "0505 ... the center of the stand-in board"
    for line in doc_orders():
        hexes = re.findall(r"\b\d{4}\b", line)
        assert all(h in board.hexmap for h in hexes), line
        if line.startswith("move "):
            assert all(b in board.neighbours(a) for a, b in zip(hexes, hexes[1:])), line


def test_card_setup_the_stand_ins_listed_are_those_of_the_scenario_played():
    # Card Setup: "Find the Project cards for your scenario ... If you are doing scenario 2 or
    # 3, shuffle the encounter cards": the setup report lists no stand-in of another scenario.
    from pbem.games.atalix.texts import stand_ins
    data = load_data()
    one = "\n".join(stand_ins(data, {"scenario": 1}, None))
    three = "\n".join(stand_ins(data, {"scenario": 3}, None))
    assert "encounters." not in one and "scenario2" not in one and "scenario3" not in one
    assert "projects.rover-repair" not in one and "projects.solar-array" in one
    assert all(f"encounters.{k}" in three for k, e in data["encounters"].items()
               if e.get("scenario", 0) in (0, 3))
    assert "projects.rover-repair" not in three and "scenario3" in three
    assert "projects.signal-beacon" in three and "projects.solar-array" not in three
