"""Escape from Atalix, Build Projects and Scenario 1: Cave Fever (pbem/games/atalix/projects.py,
scenario1.py). One rulebook case per test, named by its section or chapter; the values are
worked by hand on the stand-in map (map.toml: the center 0505, its neighbours 0404 0405 0504
0506 0604 0605 in label order; the cave 0802 0902 0901, 0802 next to 0703 0702 0801 0803 0903
and 0902 outside the cave) and data.toml's project costs (Solar Array 2 scrap 1 minerals; Ship
Phaser 3 scrap 2 minerals; Hab System 2 of each; Terraforming 2 carbon 1 minerals)."""

from __future__ import annotations

import hashlib

import pytest

from pbem.dice import DiceStream
from pbem.engine.ruleset import Chance
from pbem.games.atalix import projects, scenario1, turns
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


def game(players: int = 2, *, chapter: int = 1, team=None):
    """A Scenario 1 game after the setup window (round 1, first set of turns dealt), Red the
    first player, the storm cleared; ``team`` the team's resources."""
    roles = list(ROLES[:players])
    s, _ = rs.setup(roles, rs.validate_options({"scenario": 1}), rs.load_data(None),
                    rs.load_map(None, "stand-in"), _chance("setup"))
    turns.resolve(s, {}, _chance("choices"))
    s.first = 0
    s.chapter["chapter"] = chapter
    s.world.update(storm={}, team=dict(team or {}))
    return s, Board(s.board)


def orders(s, **bodies) -> dict:
    """Parsed orders of the current window, role -> body text."""
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


# -- Build Projects ------------------------------------------------------------------------------
def test_chapter1_solar_array_built_at_end_of_round_its_disc_adjacent_to_the_center():
    # "Complete the Solar Array project, and place one of the black discs on any space adjacent
    # to the center board space": 2 scrap 1 minerals paid from 3 scrap 1 minerals
    s, board = game(team={"scrap": 3, "carbon": 0, "minerals": 1})
    end_round(s, board, orders(s, red="build solar-array\nplace solar 0604"))
    assert s.projects == ["solar-array"]
    assert s.equipment["solar"] == ["0604", "card", "card", "card"]
    assert s.world["team"] == {"scrap": 1, "carbon": 0, "minerals": 0}
    assert s.chapter["chapter"] == 2 and s.chapter["path"] == "plan"


def test_chapter1_disc_by_default_on_the_first_free_space_next_to_the_center():
    # no place line: 0404, the first of the center's neighbours in label order; the second
    # disc 0405 (0404 holds one); a place line not next to the center is refused (0603)
    s, board = game(team=RICH)
    _, problems = end_round(s, board, orders(s, red="build solar-array\nbuild solar-array\n"
                                                    "place solar 0603"))
    assert s.equipment["solar"][:2] == ["0404", "0405"]
    assert [p.line for p in problems["red"]] == [3]


def test_build_projects_solar_array_more_than_once_other_projects_once():
    # "This is the only project that may be completed more than once": two Solar Arrays and a
    # Ship Phaser for 2*(2 scrap, 1 minerals) + 3 scrap 2 minerals = 7 scrap, 4 minerals;
    # the second Ship Phaser is refused
    s, _ = game(team={"scrap": 10, "carbon": 5, "minerals": 10})
    by_role = orders(s, red="build solar-array\nbuild solar-array\nbuild ship-phaser\n"
                            "build ship-phaser")
    problems: dict = {}
    built, _ = projects.build_projects(s, by_role, problems)
    assert built == ["solar-array", "solar-array", "ship-phaser"]
    assert s.world["team"] == {"scrap": 3, "carbon": 5, "minerals": 6}
    assert [p.line for p in problems["red"]] == [4]
    assert "already built" in problems["red"][0].why
    s.projects = ["solar-array"] * 4  # "the four black discs": no fifth
    assert "no disc left" in projects.refusal(s, "solar-array")


def test_build_projects_the_first_players_proposals_else_the_next_round_the_table():
    # Red (first) proposes nothing: Green's proposals count, Blue's are not built
    s, _ = game(3, team=RICH)
    built, _ = projects.build_projects(s, orders(s, red="collect", green="build hab-system",
                                                 blue="build ship-phaser"))
    assert built == ["hab-system"]
    # Red proposes: only Red's count, in its order
    s, _ = game(3, team=RICH)
    built, _ = projects.build_projects(s, orders(s, red="build ship-phaser\nbuild solar-array",
                                                 green="build hab-system"))
    assert built == ["ship-phaser", "solar-array"]


def test_build_projects_fixed_cost_not_the_meter_and_a_short_team_builds_nothing():
    # Ship Phaser 3 scrap 2 minerals with 3 scrap 1 minerals: refused, nothing paid
    s, _ = game(team={"scrap": 3, "carbon": 0, "minerals": 1})
    s.meter["left"] = 2  # "The price of projects is not affected by the Card Cost Meter"
    problems: dict = {}
    built, _ = projects.build_projects(s, orders(s, red="build ship-phaser"), problems)
    assert built == [] and s.world["team"] == {"scrap": 3, "carbon": 0, "minerals": 1}
    assert "1 minerals" in problems["red"][0].why
    s.world["team"] = {"scrap": 3, "carbon": 0, "minerals": 2}
    assert projects.build_projects(s, orders(s, red="build ship-phaser"))[0] == ["ship-phaser"]
    assert s.world["team"] == {"scrap": 0, "carbon": 0, "minerals": 0}


def test_terraform_tool_given_to_players_after_terraforming():
    # "The Terraform Tool card is given to players after they complete the Terraforming
    # project": one each onto the discard pile, from the first player; the Scanner Array is a
    # scenario 2 project, not on the board in scenario 1
    s, _ = game(2, team=RICH)
    s.first = 1
    problems: dict = {}
    projects.build_projects(s, orders(s, green="build terraforming\nbuild scanner-array"),
                            problems)
    assert s.players["green"].discard.peek(1) == ["terraform-tool-1"]
    assert s.players["red"].discard.peek(1) == ["terraform-tool-2"]
    assert "scenario 2" in problems["green"][0].why


# -- Chapter 2 -----------------------------------------------------------------------------------
def chapter2(players=2, **change):
    """Chapter 2 with the Ship Phaser's conditions met: the ship on the center 0505, a disc on
    0604 (next to it, no storm), the alien on 0504 (next to it)."""
    s, board = game(players, chapter=2)
    s.projects = ["solar-array", "ship-phaser"]
    s.equipment.update(solar=["0604", "card", "card", "card"], ship="0505")
    s.world.update(alien="0504", alien_damage=0)
    s.world.update(change)
    return s, board


def test_chapter2_ship_phaser_defeats_the_alien_when_the_round_ends_with_all_conditions():
    s, board = chapter2()
    events, _ = end_round(s, board, {})
    assert s.world["alien"] is None and s.chapter["chapter"] == 3
    assert s.stage == "plan"  # the alien never reaches the ship: the game goes on
    assert any("defeated" in e.text for e in events)


@pytest.mark.parametrize("missing", ["storm on the solar array", "alien not adjacent",
                                     "solar array not adjacent"])
def test_chapter2_ship_phaser_one_condition_missing_no_defeat(missing):
    s, board = chapter2()
    if missing == "storm on the solar array":
        s.world["storm"] = {"0604": 1}
    elif missing == "alien not adjacent":
        s.world["alien"] = "0503"  # two spaces above the center
    else:
        s.equipment["solar"][0] = "0603"  # next to 0604, not to the center
    assert scenario1.end_of_turns(s, board) == []
    assert s.world["alien"] == {"alien not adjacent": "0503"}.get(missing, "0504")
    assert s.chapter["chapter"] == 2


def test_chapter2_alternative_four_hits_in_a_round_with_two_players():
    # "attack the alien a total of 4 times for 1-2 players and 6 times for 3-4 players within
    # a single round": the alien far from the ship, so only the hits count
    s, board = chapter2(alien="0802", alien_damage=4)
    scenario1.end_of_turns(s, board)
    assert s.world["alien"] is None and s.chapter["chapter"] == 3
    s, board = chapter2(alien="0802", alien_damage=4)
    s.chapter["damage_start"] = 1  # one of the four was last round's
    scenario1.end_of_turns(s, board)
    assert s.world["alien"] == "0802" and s.chapter["alien_hits_round"] == 3
    s, board = chapter2(3, alien="0802", alien_damage=5)  # 3 players need 6
    scenario1.end_of_turns(s, board)
    assert s.world["alien"] == "0802"


# -- Chapter 3 -----------------------------------------------------------------------------------
def test_chapter3_hab_roof_on_the_center_and_one_more_solar_array_with_three_players():
    s, board = game(3, chapter=3, team=RICH)
    s.projects = ["solar-array", "ship-phaser"]
    s.equipment.update(solar=["0604", "card", "card", "card"], ship="0505")
    end_round(s, board, orders(s, red="build hab-system"))
    assert s.equipment["roof"] == "0505" and s.chapter["chapter"] == 3  # one array: not yet
    end_round(s, board, orders(s, blue="build solar-array"))
    assert s.projects.count("solar-array") == 2 and s.chapter["chapter"] == 4
    s, board = game(2, chapter=3, team=RICH)  # two players: the Hab System is enough
    s.projects = ["solar-array"]
    end_round(s, board, orders(s, red="build hab-system"))
    assert s.chapter["chapter"] == 4 and s.chapter["path"] == "plan"


def test_chapter3_alternative_no_turning_back_and_the_cave_becomes_the_base():
    # "Transport the existing Hab System to the cave ... Use the ship token"; "there is no
    # turning back"; "the cave will become your new base"
    s, board = game(2, chapter=3)
    s.projects = ["solar-array"]
    turns.resolve(s, orders(s, red="path alternative"), _chance("path"))
    assert s.chapter["path"] == "alternative" and s.equipment["ship"] == "0505"
    problems: dict = {}
    scenario1.choose_path(s, orders(s, red="path plan"), problems)
    assert s.chapter["path"] == "alternative" and "no turning back" in problems["red"][0].why
    s.equipment["ship"] = "0902"  # carried there
    end_round(s, board, {})
    assert s.chapter["chapter"] == 4 and s.chapter["path"] == "alternative"
    assert s.pawns == {"red": "0902", "green": "0902"}


# -- Chapter 4: transport and the win ------------------------------------------------------------
def carrying(at="0505", played=("action-1",)):
    """Red in Chapter 4 on ``at`` with the roof there, its Oxygen card active, ``played`` in
    its play area: the state and the Action Phase turn."""
    s, board = game(2, chapter=4)
    s.projects = ["solar-array", "hab-system"]
    s.equipment.update(solar=["0604", "card", "card", "card"], roof=at)
    s.pawns["red"] = at
    red = s.players["red"]
    red.deck.draw(len(red.deck))
    red.hand = list(played)
    plan = plan_turn(s.data["cards"], red, [(1, c, []) for c in played], research_level=1,
                     active=scenario1.free_active(s, "red"))
    return s, scenario1.EquipmentTurn(s, "red", plan, _chance("a").public,
                                      _chance("a").hidden, board)


def test_chapter4_transport_blocks_the_active_cards_abilities():
    # Action +1 and the Oxygen card's +1: two actions; picking up the roof costs none, but
    # "While that equipment is on their card, they cannot use any of the abilities on that
    # card": the Oxygen's +1 is lost, one move is left
    s, t = carrying()
    assert t.actions_left == 2
    assert scenario1.transport(t, 1, "carry", {"item": "roof", "card": None})
    assert t.actions_left == 1 and s.equipment["roof"] == "carried"
    assert s.equipment["carried"] == {"roof": "red"} and s.equipment["on"]["roof"] == "oxygen-1"
    assert t.carry_out(2, "move", ["0504"]) and not t.carry_out(3, "move", ["0404"])
    assert scenario1.free_active(s, "red") == []  # left out of the next Planning Phase
    assert scenario1.transport(t, 4, "drop", {"item": "roof"})
    assert s.equipment["roof"] == "0504" and scenario1.free_active(s, "red") == ["oxygen-1"]


def test_chapter4_transport_needs_the_same_space_and_gives_to_a_player_there():
    s, t = carrying()
    s.equipment["roof"] = "0604"
    assert not scenario1.transport(t, 1, "carry", {"item": "roof", "card": None})
    assert "same board space" in t.problems[0][2]
    s.equipment["roof"] = "0505"  # Green is on the center too
    assert scenario1.transport(t, 2, "carry", {"item": "roof", "card": None})
    assert scenario1.transport(t, 3, "give", {"item": "roof", "role": "green"})
    assert s.equipment["carried"] == {"roof": "green"}
    assert scenario1.free_active(s, "green") == []


def test_chapter4_damage_sends_the_carrier_back_and_the_equipment_stays():
    # no card left to discard: the pawn goes to the center; "they can choose to leave the
    # equipment where it was": the roof stays on the storm space 0504
    s, t = carrying()
    s.world["storm"] = {"0504": 1}
    scenario1.transport(t, 1, "carry", {"item": "roof", "card": None})
    t.carry_out(2, "move", ["0504"])
    assert s.pawns["red"] == "0505" and s.equipment["roof"] == "0504"
    assert s.equipment["carried"] == {}


def win(path="plan", **where):
    """Chapter 4 with two players and one Solar Array: the roof on 0802 (the cave), the disc
    on 0703 (outside, next to 0802), the pawns on 0802 and 0902 (both in the cave)."""
    s, board = game(2, chapter=4)
    s.chapter["path"] = path
    s.projects = ["solar-array", "hab-system"]
    s.equipment.update(solar=[where.get("disc", "0703"), "card", "card", "card"],
                       roof=where.get("roof", "0802"), ship=where.get("ship", "0505"))
    s.pawns = {"red": where.get("red", "0802"), "green": "0902"}
    return s, board


def test_chapter4_win_the_hab_in_the_cave_the_arrays_next_to_it_outside_all_players_inside():
    s, board = win()
    events, _ = end_round(s, board, {})
    assert s.stage == "over" and s.outcome["winners"] == ["red", "green"]
    assert s.outcome["scores"] == {"red": 1, "green": 1}
    assert turns.window(s) is None and events[-1].kind == "end"


@pytest.mark.parametrize("where", [{"disc": "0902"}, {"disc": "0604"}, {"red": "0703"},
                                   {"roof": "0703", "disc": "0702"}])
def test_chapter4_no_win_when_a_condition_fails(where):
    # a disc in the cave (0902) or not next to the roof (0604); Red outside the cave (0703);
    # the roof outside the cave (0703, its disc on 0702 next to it)
    s, board = win(**where)
    end_round(s, board, {})
    assert s.stage == "plan" and s.outcome is None and s.chapter["chapter"] == 4


def test_chapter4_alternative_the_arrays_next_to_the_ship_in_the_cave():
    # "Transport the requisite number of solar arrays to a space adjacent to the space with
    # the ship token. All players return to the cave": Red may stand anywhere
    s, board = win("alternative", ship="0902", disc="0903", red="0505", roof="card")
    end_round(s, board, {})
    assert s.stage == "over" and s.outcome["winners"] == ["red", "green"]
