"""Escape from Atalix, End of Round (rulebook "End of Round", "Events", "Threats"): the event die
resolved from the rolled number down and the six events, on a small test map whose answers are
worked by hand below (docs/maps.md neighbours, offset even-low: odd columns sit higher).

The test map, 8 columns x 7 rows, center 0404. Neighbours used (by hand, docs/maps.md rules:
from an upper (odd) column ne/se/sw/nw go to (c+1,r-1)/(c+1,r)/(c-1,r)/(c-1,r-1), from a lower
(even) column to (c+1,r)/(c+1,r+1)/(c-1,r+1)/(c-1,r)):
0404 touches 0403 0504 0505 0405 0305 0304; 0403 s is 0404 (the center); 0704 n 0703, ne 0803,
sw 0604, se 0804; 0604 sw 0505, nw 0504; 0803 ne off the map (column 9); 0701 ne off (row 0);
0105 sw off (column 0); 0707 s off (row 8). Compass: 1 n, 2 ne, 3 se, 4 s, 5 sw, 6 nw.
"""

from __future__ import annotations

import json

import pytest

from pbem.boards.hexmap import load_map
from pbem.games.atalix.board import Board
from pbem.games.atalix.events import (
    EndState,
    advance_round,
    place_on_origin,
    resolve_events,
)

MAP = """
[map]
name = "events test map"
source = "stand-in: drawn for tests/test_atalix_events.py"
columns = 8
rows = 7
offset = "even-low"
default = "plain"

[terrain]
scrap = ["0101", "0202", "0405"]
carbon = ["0303", "0307", "0503", "0603"]
minerals = ["0106", "0206", "0305", "0306", "0502"]
cave = ["0701", "0702", "0801"]

[groups]
center = ["0404"]
cave = ["0801", "0701", "0702"]
alien-start = ["0702"]
storm-origin = ["0704"]
star = ["0704"]
circle = ["0101", "0106", "0202", "0206", "0303", "0305", "0306", "0307", "0405", "0502",
          "0503", "0603", "0801"]
elevation-1 = ["0303"]
elevation-4 = ["0701", "0702", "0801"]
number-1 = ["0101", "0303"]
number-2 = ["0202", "0206", "0305", "0603"]
number-3 = ["0801", "0503"]
number-4 = ["0405", "0502"]
number-5 = ["0106", "0307"]
number-6 = ["0202", "0306"]
"""


class FixedDice:
    """Queued d6 values; an unqueued roll fails the test naming its reason."""

    def __init__(self, *values: int):
        self.queue, self.log = list(values), []

    def roll(self, sides: int, why: str) -> int:
        assert sides == 6, why
        if not self.queue:
            raise AssertionError(f"unexpected roll: {why}")
        self.log.append(why)
        return self.queue.pop(0)


@pytest.fixture(scope="module")
def board():
    return Board(load_map(MAP, "events-test.toml"))


def state(**kw) -> EndState:
    base = {"storm": {}, "storm_supply": 10, "alien": None}
    base.update(kw)
    return EndState.from_dict(base)


def numbers(texts):
    return [int(t.split(" - ")[0]) for t in texts]


# -- Roll and Resolve Event Dice: "start with the highest and work their way down" ------------

def test_roll_and_resolve_event_die_4_resolves_4_3_2_1(board):
    s, dice = state(storm={"0704": 1}), FixedDice(1)
    assert numbers(resolve_events(board, s, 4, dice)) == [4, 3, 2, 1]
    # event 4 rolled 1 (n): 0704 -> 0703 added; event 3 moved both n; event 1 kept the 1
    assert s.storm == {"0702": 1, "0703": 1}
    assert s.resources == {"0101": "scrap", "0303": "carbon"} and len(dice.log) == 1


def test_roll_and_resolve_event_die_6_resolves_6_down_to_1(board):
    s, dice = state(storm={"0704": 1}), FixedDice(2, 6)
    assert numbers(resolve_events(board, s, 6, dice)) == [6, 5, 4, 3, 2, 1]
    # 6: 0704 x2; 5 rolled 2; 4 kept 2 (ne): 0803; 3 ne: 0803 at the edge stays, 0704 joins it
    assert s.storm == {"0803": 3} and s.storm_supply == 8
    assert s.resources == {"0202": "scrap", "0206": "minerals", "0305": "minerals",
                           "0603": "carbon", "0306": "minerals"}
    assert s.last_resource_roll == 6


def test_roll_and_resolve_event_die_1_resolves_only_1(board):
    s = state(storm={"0704": 1})
    assert numbers(resolve_events(board, s, 1, FixedDice())) == [1]
    assert s.storm == {"0704": 1}


# -- 3 - Storm moves: "A storm token cannot enter the center board space" ----------------------

def test_storm_moves_token_against_the_center_stays_and_the_one_behind_joins_it(board):
    s = state(storm={"0402": 1, "0403": 1, "0602": 1})
    texts = resolve_events(board, s, 3, FixedDice(4))   # s: toward the center
    assert numbers(texts) == [3, 2, 1]
    assert s.storm == {"0403": 2, "0603": 1}


def test_storm_moves_a_line_whose_front_can_move_shifts_without_stacking(board):
    s = state(storm={"0402": 1, "0403": 1})
    resolve_events(board, s, 3, FixedDice(1))          # n
    assert s.storm == {"0401": 1, "0402": 1}


def test_storm_moves_edge_tokens_stay(board):
    s = state(storm={"0401": 1, "0402": 1})
    resolve_events(board, s, 3, FixedDice(1))          # n: 0401 at the edge, 0402 joins it
    assert s.storm == {"0401": 2}
    s = state(storm={"0701": 1})
    resolve_events(board, s, 3, FixedDice(2))          # ne: off the map above column 8
    assert s.storm == {"0701": 1}
    s = state(storm={"0105": 2})
    resolve_events(board, s, 3, FixedDice(5))          # sw: off the map left of column 1
    assert s.storm == {"0105": 2}


# -- 4 - Storm expands ----------------------------------------------------------------------

def test_storm_expands_next_to_the_furthest_token_in_the_direction(board):
    s = state(storm={"0602": 1, "0603": 1, "0604": 1}, storm_supply=3)
    resolve_events(board, s, 4, FixedDice(4))   # s: next to 0604 is 0605, then all move
    # after 4: 0602 0603 0604 0605; after 3 (s): 0603 0604 0605 0606
    assert s.storm == {"0603": 1, "0604": 1, "0605": 1, "0606": 1} and s.storm_supply == 2


def _expand_only(board, storm, d6):
    """Resolve 4..1 with ``d6`` for events 4 and 3; the expected storms count both."""
    s = state(storm=storm)
    texts = resolve_events(board, s, 4, FixedDice(d6))
    return s, texts


def test_storm_expands_at_the_edge_onto_the_furthest_token_itself(board):
    s, texts = _expand_only(board, {"0706": 1, "0707": 1}, 4)   # s: 0707 is at the bottom edge
    assert "a storm token on 0707" in texts[0]
    assert s.storm == {"0707": 3}                               # then 3 moved 0706 onto it


def test_storm_expands_toward_the_center_onto_the_furthest_token_itself(board):
    s, texts = _expand_only(board, {"0402": 1, "0403": 1}, 4)   # s: 0404 is the center
    assert "a storm token on 0403" in texts[0]
    assert s.storm == {"0403": 3}                               # 0403 stays, 0402 joins


def test_storm_expands_when_eliminated_onto_the_original_storm_space(board):
    s, texts = _expand_only(board, {}, 3)
    assert "a storm token on 0704" in texts[0]
    assert s.storm == {"0804": 1} and s.storm_supply == 9       # then 3 (se) moved it


def test_storm_direction_one_d6_for_events_4_and_3_not_the_event_roll(board):
    # "If the die has already been rolled for a previous event, maintain the same number":
    # event 4 rolls (the event roll 4 is not for an event), event 3 keeps it
    s, dice = state(storm={"0602": 1}), FixedDice(3)
    resolve_events(board, s, 4, dice)     # 4 se: 0703 added; 3 se: 0703->0803, 0602->0703
    assert s.storm == {"0703": 1, "0803": 1} and len(dice.log) == 1
    # event 5 rolled the die: events 4 and 3 keep its number (after its reroll)
    s, dice = state(storm={"0704": 1}, last_resource_roll=3), FixedDice(3, 5, 5, 6)
    resolve_events(board, s, 5, dice)
    assert s.storm == {"0505": 1, "0604": 1}    # 4 sw: 0604 added; 3 sw: 0604->0505, 0704->0604
    assert s.resources == {"0106": "minerals", "0307": "carbon",            # 5: rerolled to 5
                           "0202": "scrap", "0306": "minerals"}             # 1: 5 again -> 6
    assert s.last_resource_roll == 6 and len(dice.log) == 4


# -- 2 - Alien moves toward ship ------------------------------------------------------------

def test_alien_moves_one_step_on_a_shortest_path_and_damage_resets(board):
    s = state(alien="0402", alien_damage=3)
    resolve_events(board, s, 2, FixedDice())
    assert (s.alien, s.alien_damage, s.alien_at_center) == ("0403", 0, False)


def test_alien_equal_paths_label_order_or_the_players_proposal(board):
    # 0604 is 2 from 0404 through 0504 or 0505
    s = state(alien="0604")
    resolve_events(board, s, 2, FixedDice())
    assert s.alien == "0504"
    s = state(alien="0604")
    resolve_events(board, s, 2, FixedDice(), alien_choice="0505")
    assert s.alien == "0505"
    s = state(alien="0604")
    resolve_events(board, s, 2, FixedDice(), alien_choice="0603")   # not on a shortest path
    assert s.alien == "0504"


def test_alien_reaching_the_center_is_signalled(board):
    s = state(alien="0505")
    texts = resolve_events(board, s, 2, FixedDice())
    assert s.alien == "0404" and s.alien_at_center and "reaches the center" in texts[0]


# -- 1 and 5 - Disperse resources -----------------------------------------------------------

def test_disperse_resources_skips_spaces_holding_a_cube(board):
    s = state(resources={"0305": "carbon"})
    resolve_events(board, s, 2, FixedDice())      # 1 keeps the event roll 2
    assert s.resources == {"0305": "carbon", "0202": "scrap", "0206": "minerals",
                           "0603": "carbon"}


def test_disperse_resources_event_1_keeps_the_previous_roll(board):
    s = state(last_resource_roll=3)
    resolve_events(board, s, 1, FixedDice())
    assert s.resources == {"0101": "scrap", "0303": "carbon"} and s.last_resource_roll == 1


def test_disperse_resources_same_as_previous_resource_roll_rerolls(board):
    s, dice = state(last_resource_roll=1), FixedDice(1, 5)
    resolve_events(board, s, 1, dice)
    assert s.resources == {"0106": "minerals", "0307": "carbon"} and len(dice.log) == 2


def test_disperse_resources_already_distributed_this_round_rolls_again(board):
    s, dice = state(last_resource_roll=4, distributed_this_round=True), FixedDice(4, 2)
    resolve_events(board, s, 1, dice)
    assert s.last_resource_roll == 2 and len(dice.log) == 2
    assert set(s.resources) == {"0202", "0206", "0305", "0603"}


# -- Threats: "If you run out of storm tokens you lose" --------------------------------------

def test_storm_supply_empty_when_a_token_must_be_placed_loses(board):
    s, dice = state(storm={"0704": 1}, storm_supply=0), FixedDice()
    texts = resolve_events(board, s, 6, dice)
    assert numbers(texts) == [6] and s.storm_exhausted and s.storm == {"0704": 1}
    s, dice = state(storm={"0704": 1}, storm_supply=1), FixedDice(2)
    texts = resolve_events(board, s, 6, dice)      # 6 takes the last token, 4 finds none
    assert numbers(texts) == [6, 5, 4] and s.storm_exhausted
    assert s.storm == {"0704": 2} and s.storm_supply == 0


def test_storm_supply_round_tracker_tokens_stop_at_the_last(board):
    s = state(storm_supply=1)
    texts = place_on_origin(board, s, 2)
    assert len(texts) == 2 and s.storm == {"0704": 1} and s.storm_exhausted


# -- Advance Round Tracker ------------------------------------------------------------------

TRACK = {"green_circle": 4, "turquoise_from": 7, "loss": {"1": 10, "2": 10, "3": 9, "4": 9}}


def test_advance_round_tracker_green_circle_turquoise_and_loss():
    assert advance_round(2, TRACK, 1) == (3, 0, False)
    assert advance_round(3, TRACK, 1) == (4, 1, False)       # into the green circle
    assert advance_round(5, TRACK, 1) == (6, 0, False)
    assert advance_round(6, TRACK, 1) == (7, 1, False)       # entering the turquoise part
    assert advance_round(7, TRACK, 2) == (8, 1, False)       # and each round after
    assert advance_round(8, TRACK, 3) == (9, 1, True)        # the 3-player space: lost
    assert advance_round(8, TRACK, 1) == (9, 1, False)


def test_advance_round_tracker_bad_input_names_what_was_expected():
    with pytest.raises(ValueError, match="players 5"):
        advance_round(0, TRACK, 5)
    with pytest.raises(ValueError, match="turquoise_from"):
        advance_round(0, {"green_circle": 4, "loss": {}}, 1)


def test_end_state_is_json_and_bad_input_is_refused(board):
    s = state(storm={"0704": 2}, resources={"0101": "scrap"}, team={"scrap": 1})
    assert EndState.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    with pytest.raises(ValueError, match="expected one of"):
        state(resources={"0101": "gold"})
    with pytest.raises(ValueError, match="event die 7"):
        resolve_events(board, state(), 7, FixedDice())
    with pytest.raises(ValueError, match="off the board"):
        resolve_events(board, state(storm={"0909": 1}), 6, FixedDice())
