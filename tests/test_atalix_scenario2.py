"""Escape from Atalix, Scenario 2: Rover, Rover (pbem/games/atalix/scenario2.py), a stand-in
built from the rulebook's summary ("Scenarios": the rover's "vital pieces ... strewn about the
landscape. Mission control believes if you could find the parts, the high tech tools on the
ship would allow you to repair the rover"; "Card Setup": the Scanner cards under the Scanner
Array "If you are doing scenario 2"). One case per test, named by its section; the values are
worked by hand from data.toml (``[scenario2]``: 2 parts for 1-2 players, 3 for 3-4, 4 black
discs; the Rover Repair 4 scrap 2 carbon) and the stand-in map (the center 0505, 0504 next to
it, 0503 above 0504)."""

from __future__ import annotations

import hashlib

from pbem.dice import DiceStream
from pbem.engine.ruleset import Chance
from pbem.games.atalix import projects, scenario2, scenarios, turns
from pbem.games.atalix.board import Board
from pbem.games.atalix.orders import parse
from pbem.games.atalix.planning import plan_turn
from pbem.games.atalix.ruleset import ruleset as rs

ROLES = ("red", "green", "blue", "yellow")
RICH = {"scrap": 20, "carbon": 20, "minerals": 20}


def _chance(tag: str) -> Chance:
    seed = hashlib.sha256(tag.encode()).digest()
    return Chance(DiceStream(seed, tag, "t", {}),
                  DiceStream(seed[::-1], tag, "t", {}, hidden=True))


def game(players: int = 2, team=None, parts=()):
    """A Scenario 2 game after the setup window, Red first, no storm token, the alien in the
    cave; ``parts`` the discs' locations."""
    s, _ = rs.setup(list(ROLES[:players]), rs.validate_options({"scenario": 2}),
                    rs.load_data(None), rs.load_map(None, "stand-in"), _chance("setup"))
    turns.resolve(s, {}, _chance("choices"))
    s.first = 0
    s.world.update(storm={}, team=dict(team or {"scrap": 0, "carbon": 0, "minerals": 0}))
    s.equipment["parts"] = list(parts)
    return s, Board(s.board)


def orders(s, **bodies) -> dict:
    w = turns.window(s)
    out = {}
    for role, body in bodies.items():
        parsed, problems = parse(role, w, body, 1)
        assert problems == []
        out[role] = parsed
    return out


def end_round(s, board, by_role: dict) -> tuple[list, dict]:
    events, problems = [], {}
    turns.end_of_round(s, board, by_role, _chance(f"end {s.round}"), events, problems)
    return events, problems


def red_turn(s, board, at: str, deck: int = 3):
    """Red on ``at`` with its Oxygen card active and ``deck`` cards in its draw deck."""
    red = s.players["red"]
    red.deck.draw(len(red.deck))
    red.deck.put_top([f"action-{n}" for n in range(9, 9 + deck)])
    red.hand = []
    s.pawns["red"] = at
    plan = plan_turn(s.data["cards"], red, [], research_level=1,
                     active=scenarios.free_active(s, "red"))
    return scenarios.new_turn(s, "red", plan, _chance("a").public, _chance("a").hidden, board)


def test_scenario2_setup_the_rover_on_its_card_and_its_projects():
    # "Find the Project cards for your scenario ... Place the other project cards (any without
    # numbers)": the Scanner Array and the Rover Repair, with Atomic Recycler and Terraforming
    s, _ = game()
    assert s.equipment == {"parts": [], "carried": {}, "on": {}, "rover": "card"}
    assert projects.available(s.data, 2) == ["atomic-recycler", "terraforming", "scanner-array",
                                             "rover-repair"]


def test_scanner_card_a_disc_placed_is_a_part_to_carry():
    # the Scanner's disc on 0503 is part-1; Red on 0503 picks it up onto its Oxygen card, at
    # no action: the Oxygen card's +1 action is lost
    s, board = game(parts=["0503"])
    t = red_turn(s, board, "0503")
    assert t.actions_left == 1
    assert scenarios.transport(t, 1, "carry", {"item": "part-1", "card": None})
    assert s.equipment["parts"] == ["carried"] and s.equipment["carried"] == {"part-1": "red"}
    assert t.actions_left == 0 and scenarios.free_active(s, "red") == []


def test_transport_a_carrier_back_at_the_round_end_brings_the_part_to_the_ship():
    # "they can choose to leave the equipment where it was": in Scenario 2 the part goes back
    # with its carrier and is unloaded at the ship (the center 0505)
    s, board = game(parts=["carried"])
    s.equipment["carried"], s.equipment["on"] = {"part-1": "red"}, {"part-1": "oxygen-1"}
    s.pawns["red"] = "0503"
    events, _ = end_round(s, board, {})
    assert s.equipment["parts"] == ["0505"] and s.equipment["carried"] == {}
    assert "red brings part-1 back to the ship on 0505" in [e.text for e in events]


def test_taking_damage_a_carrier_sent_to_the_center_keeps_its_part():
    # 1 storm token on 0504, an empty deck and no played card: Red goes back to the center
    # with the part it carries
    s, board = game(parts=["0505"])
    s.world["storm"] = {"0504": 1}
    t = red_turn(s, board, "0505", deck=0)
    scenarios.transport(t, 1, "carry", {"item": "part-1", "card": None})
    t.actions_left = 1
    t.carry_out(2, "move", ["0504"])
    assert s.pawns["red"] == "0505" and s.equipment["carried"] == {"part-1": "red"}


def test_rover_repair_needs_the_parts_at_the_ship():
    # 2 players need 2 parts on the center, not carried: one there and one on 0503 is not
    # enough; two there: the repair is paid (4 scrap 2 carbon), the parts installed, the
    # rover on the center
    s, board = game(team=RICH, parts=["0505", "0503"])
    _, problems = end_round(s, board, orders(s, red="build rover-repair"))
    assert "rover-repair" not in s.projects
    assert "needs 2 rover parts at the ship" in problems["red"][0].why
    assert "1 there (part-1)" in problems["red"][0].why
    s.equipment["parts"] = ["0505", "0505", "0404"]
    end_round(s, board, orders(s, red="build rover-repair"))
    assert s.projects == ["rover-repair"]
    assert s.equipment["parts"] == ["rover", "rover", "0404"] and s.equipment["rover"] == "0505"
    assert s.world["team"] == {"scrap": 16, "carbon": 18, "minerals": 20}


def test_rover_repair_three_parts_with_three_players():
    s, _ = game(3, team=RICH, parts=["0505", "0505"])
    assert "needs 3 rover parts" in projects.refusal(s, "rover-repair")
    s.equipment["parts"].append("0505")
    assert projects.refusal(s, "rover-repair") is None


def test_the_win_every_player_aboard_the_repaired_rover_when_the_turns_end():
    # "The rover could protect your crew as you traverse safely out of the area"
    s, board = game(parts=["rover", "rover"])
    s.projects, s.equipment["rover"] = ["rover-repair"], "0505"
    s.pawns = {"red": "0505", "green": "0504"}
    end_round(s, board, {})
    assert s.stage == "plan" and s.outcome is None  # Green is not aboard
    s.pawns = {"red": "0505", "green": "0505"}
    events, _ = end_round(s, board, {})
    assert s.stage == "over" and s.outcome["winners"] == ["red", "green"]
    assert events[-1].kind == "end" and turns.window(s) is None


def test_threats_the_alien_at_the_ship_still_loses():
    # "Alien Destroys Your Ship" holds in every scenario
    s, board = game()
    s.world.update(alien="0505", alien_at_center=True)
    end_round(s, board, {})
    assert s.stage == "over" and s.outcome["reason"].startswith("the alien reached the ship")


def test_rover_debris_a_part_found_on_the_players_space_is_picked_up():
    # the encounter puts a disc on Red's space (part-2) and Red takes it onto its free active
    # card; with every active card carrying, the part stays on the space (part-3)
    s, board = game(parts=["0404"])
    t = red_turn(s, board, "0503")
    scenario2.find_part(t, 1)
    assert s.equipment["parts"] == ["0404", "carried"]
    assert s.equipment["on"] == {"part-2": "oxygen-1"}
    scenario2.find_part(t, 1)
    assert s.equipment["parts"] == ["0404", "carried", "0503"]


def test_scanner_card_four_black_discs_at_most():
    # Scenario 1's setup counts "the four black discs": a fifth part is not placed
    s, _ = game(parts=["0101", "0102", "0103"])
    assert scenario2.place_part(s, "0104") and not scenario2.place_part(s, "0105")
    assert len(s.equipment["parts"]) == 4


def test_transport_only_the_parts_found():
    s, board = game(parts=["0503", "rover"])
    t = red_turn(s, board, "0503")
    assert not scenarios.transport(t, 1, "carry", {"item": "solar-1", "card": None})
    assert not scenarios.transport(t, 2, "carry", {"item": "part-3", "card": None})
    assert not scenarios.transport(t, 3, "carry", {"item": "part-2", "card": None})
    whys = [why for _, _, why in t.problems]
    assert "expected a rover part (part-1, part-2)" in whys[0]
    assert "'carry part-3'" in whys[1] and "installed in the rover" in whys[2]


def test_scenario1_orders_refused_in_scenario2():
    # place (Chapter 1's discs) and path (Scenario 1's alternatives) have no meaning here
    s, board = game(team=RICH)
    problems: dict = {}
    scenarios.choose_path(s, orders(s, red="path alternative"), problems)
    assert "outside Scenario 1" in problems["red"][0].why
    _, problems = end_round(s, board, orders(s, green="place solar 0504"))
    assert "no Solar Array disc to place in scenario 2" in problems["green"][0].why


def test_orders_a_rover_part_is_named_part_n():
    # the parts are numbered from 1 in the order their discs were placed
    s, _ = game(parts=["0503"])
    w = turns.window(s)
    parsed, problems = parse("red", w, "carry PART-1 oxygen-1\ndrop part-0\ngive part-x green", 1)
    assert [o.args for o in parsed] == [{"item": "part-1", "card": "oxygen-1"}]
    assert [p.line for p in problems] == [2, 3]
    assert "'part-0' is not equipment" in problems[0].why
    assert "a rover part part-1, part-2" in problems[1].why


def test_random_bot_walks_to_a_part_and_carries_it_then_boards_the_rover():
    # the bot's goals (README.md): from the center 0505 (0 bars) to the part on 0503 (1 bar):
    # a move to 0504 (0 bars), a climb to 0503, the carry; random steps left out
    s, board = game(parts=["0503"])
    assert scenarios.bot_goals(s, "red", board) == (["move 0504", "climb 0503", "carry part-1"],
                                                    False)
    # the rover repaired: back down to it in one Move of two flat-or-down spaces
    s.equipment.update(parts=["rover"], rover="0505")
    s.pawns["red"] = "0503"
    assert scenarios.bot_goals(s, "red", board) == (["move 0504 0505"], False)
    # an alien next to the ship, a Weapons card in the hand: its attack first, from the center
    s.pawns["red"], s.world["alien"] = "0505", "0504"
    s.players["red"].hand = ["weapons-1"]
    assert scenarios.bot_goals(s, "red", board)[0][0] == "use weapons-1 0"
