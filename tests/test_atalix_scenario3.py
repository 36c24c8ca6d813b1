"""Escape from Atalix, Scenario 3: Mine for the Taking (pbem/games/atalix/scenario3.py), a
stand-in built from the rulebook's summary ("Scenarios": "Collect resources for the mining
company and prepare a signal beacon for their arrival, while surviving the planet"). One case
per test, named by its section; the values are worked by hand from data.toml (``[scenario3]``:
3 Mining Deliveries for 1-2 players, 4 for 3-4, the beacon signalling from 3 bars or more; the
Mining Delivery 1 scrap 2 carbon, the Signal Beacon 2 scrap 1 carbon) and the stand-in map
(the center 0505; 0504 (0 bars) next to it, 0503 (1 bar), 0502 (2 bars), 0501 (3 bars) up
the same column)."""

from __future__ import annotations

import hashlib

from pbem.dice import DiceStream
from pbem.engine.ruleset import Chance
from pbem.games.atalix import projects, scenario3, scenarios, turns
from pbem.games.atalix.board import Board
from pbem.games.atalix.orders import parse
from pbem.games.atalix.planning import plan_turn
from pbem.games.atalix.ruleset import ruleset as rs

ROLES = ("red", "green", "blue", "yellow")


def _chance(tag: str) -> Chance:
    seed = hashlib.sha256(tag.encode()).digest()
    return Chance(DiceStream(seed, tag, "t", {}),
                  DiceStream(seed[::-1], tag, "t", {}, hidden=True))


def game(players: int = 2, team=None, beacon="card"):
    """A Scenario 3 game after the setup window, Red first, no storm token."""
    s, _ = rs.setup(list(ROLES[:players]), rs.validate_options({"scenario": 3}),
                    rs.load_data(None), rs.load_map(None, "stand-in"), _chance("setup"))
    turns.resolve(s, {}, _chance("choices"))
    s.first = 0
    s.world.update(storm={}, team=dict(team or {"scrap": 0, "carbon": 0, "minerals": 0}))
    s.equipment["beacon"] = beacon
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
    red = s.players["red"]
    red.deck.draw(len(red.deck))
    red.deck.put_top([f"action-{n}" for n in range(9, 9 + deck)])
    red.hand = []
    s.pawns["red"] = at
    plan = plan_turn(s.data["cards"], red, [], research_level=1,
                     active=scenarios.free_active(s, "red"))
    return scenarios.new_turn(s, "red", plan, _chance("a").public, _chance("a").hidden, board)


def test_scenario3_setup_the_beacon_on_its_card_and_its_projects():
    s, _ = game()
    assert s.equipment == {"beacon": "card", "carried": {}, "on": {}}
    assert projects.available(s.data, 3) == ["atomic-recycler", "terraforming",
                                             "mining-delivery", "signal-beacon"]
    assert len(s.encounters["deck"]) == 14


def test_build_projects_mining_deliveries_up_to_the_target():
    # "Collect resources for the mining company": 2 players, 3 deliveries of 1 scrap 2 carbon
    # (3 scrap 6 carbon from 4 scrap 8 carbon); the fourth is refused, nothing paid
    s, _ = game(team={"scrap": 4, "carbon": 8, "minerals": 0})
    problems: dict = {}
    built, _ = projects.build_projects(s, orders(s, red="build mining-delivery\n" * 4),
                                       problems)
    assert built == ["mining-delivery"] * 3 and scenario3.delivered(s) == 3
    assert s.world["team"] == {"scrap": 1, "carbon": 2, "minerals": 0}
    assert "has its 3 Mining Deliveries" in problems["red"][0].why
    s4, _ = game(4)
    assert scenario3.target(s4) == 4


def test_build_projects_the_signal_beacon_goes_on_the_center():
    # "prepare a signal beacon": built for 2 scrap 1 carbon, its token on the center 0505
    s, board = game(team={"scrap": 2, "carbon": 1, "minerals": 0})
    end_round(s, board, orders(s, red="build signal-beacon"))
    assert s.equipment["beacon"] == "0505" and s.world["team"]["scrap"] == 0


def test_transport_the_beacon_carried_and_left_where_the_round_ends():
    # Red picks the beacon up on the center, walks to 0503; the round ends: it stays there
    s, board = game(beacon="0505")
    t = red_turn(s, board, "0505")
    assert not scenarios.transport(t, 1, "carry", {"item": "part-1", "card": None})
    assert "expected beacon" in t.problems[0][2]
    assert scenarios.transport(t, 2, "carry", {"item": "beacon", "card": None})
    s.pawns["red"] = "0503"
    end_round(s, board, {})
    assert s.equipment["beacon"] == "0503" and s.equipment["carried"] == {}


def test_transport_a_beacon_not_yet_built_cannot_be_carried():
    s, board = game()
    t = red_turn(s, board, "0505")
    assert not scenarios.transport(t, 1, "carry", {"item": "beacon", "card": None})
    assert "still on its project card" in t.problems[0][2]


def test_taking_damage_the_carrier_sent_back_leaves_the_beacon():
    # 1 storm token on 0504, nothing to discard: Red goes back to the center, the beacon
    # stays on 0504 where the damage was taken
    s, board = game(beacon="0505")
    s.world["storm"] = {"0504": 1}
    t = red_turn(s, board, "0505", deck=0)
    scenarios.transport(t, 1, "carry", {"item": "beacon", "card": None})
    t.actions_left = 1
    t.carry_out(2, "move", ["0504"])
    assert s.pawns["red"] == "0505" and s.equipment["beacon"] == "0504"


def test_the_beacon_signals_from_three_bars_clear_of_storm():
    s, board = game(beacon="0501")
    assert scenario3.signalling(s, board) == "0501"  # 3 bars
    s.world["storm"] = {"0501": 1}
    assert scenario3.signalling(s, board) is None
    s.world["storm"] = {}
    s.equipment["beacon"] = "0502"  # 2 bars
    assert scenario3.signalling(s, board) is None


def test_the_win_deliveries_made_and_the_beacon_signalling_when_the_turns_end():
    # 3 deliveries and the beacon carried by Red on 0501 (3 bars): left there as the turns
    # end, it signals, and the mining company lands
    s, board = game(beacon="carried")
    s.equipment["carried"], s.equipment["on"] = {"beacon": "red"}, {"beacon": "oxygen-1"}
    s.projects = ["signal-beacon"] + ["mining-delivery"] * 2
    s.pawns["red"] = "0501"
    end_round(s, board, {})
    assert s.stage == "plan" and s.equipment["beacon"] == "0501"  # 2 of 3 deliveries
    s.projects.append("mining-delivery")
    events, _ = end_round(s, board, {})
    assert s.stage == "over" and s.outcome["winners"] == ["red", "green"]
    assert "3 Mining Deliveries" in s.outcome["reason"] and events[-1].kind == "end"


def test_threats_time_still_runs_out():
    # "You lose when the tracker reaches the space with your player count": one space before
    # the loss space of 2 players (data.toml: 10)
    s, board = game()
    s.world["round_pos"] = 9
    end_round(s, board, {})
    assert s.stage == "over" and s.outcome["reason"].startswith("time ran out")
