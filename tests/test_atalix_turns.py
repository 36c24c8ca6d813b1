"""Escape from Atalix's End of Round as pbem carries it out (pbem.games.atalix.turns): the
Threats end the game where they happen, so nothing of the End of Round follows a loss."""

from __future__ import annotations

import hashlib

from pbem.dice import DiceStream
from pbem.engine.ruleset import Chance
from pbem.games.atalix.board import Board
from pbem.games.atalix.ruleset import ruleset as rs
from pbem.games.atalix.turns import end_of_round


def _chance(tag: str) -> Chance:
    seed = hashlib.sha256(tag.encode()).digest()
    return Chance(DiceStream(seed, "atx", tag, {}), DiceStream(seed, "atx", tag, {}, hidden=True))


def test_threats_time_runs_out_and_no_project_is_built_after_it():
    # Threats: "You lose when the tracker reaches the space with your player count"; the
    # Build Projects that follow on the board's list are not reached. The stand-in track loses
    # 2 players on space 10: the tracker on 9 moves onto it at this End of Round.
    state, _ = rs.setup(["red", "blue"], rs.validate_options({}), rs.load_data(None),
                        rs.load_map(None, "stand-in"), _chance("setup"))
    rs.resolve(state, {}, _chance("0.setup"))
    state.world["round_pos"] = 9
    state.world["team"] = {"scrap": 9, "carbon": 9, "minerals": 9}
    w = rs.window(state)
    orders = {state.first_player(): rs.parse(state.first_player(), w, "build terraforming\n",
                                             1)[0]}
    events: list = []
    end_of_round(state, Board.of(state.board), orders, _chance("end"), events)
    assert state.stage == "over" and "time ran out" in state.outcome["reason"]
    assert state.projects == [] and state.world["team"]["carbon"] == 9
    assert not any(e.kind == "projects" for e in events)
