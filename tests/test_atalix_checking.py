"""The receipt's dry run of Escape from Atalix (pbem.games.atalix.checking): it runs on the
player's own state, which holds no card of the Upgrade deck (the deck's order is the
referee's), so a scavenge is judged on what the player can know: an action left and a starred
space (Action Phase, Scavenge), not the card it will draw."""

from __future__ import annotations

import hashlib

from pbem.dice import DiceStream
from pbem.engine.ruleset import Chance, Parts
from pbem.games.atalix.board import Board
from pbem.games.atalix.ruleset import ruleset as rs


def _chance(tag: str) -> Chance:
    seed = hashlib.sha256(tag.encode()).digest()
    return Chance(DiceStream(seed, "atx", tag, {}), DiceStream(seed, "atx", tag, {}, hidden=True))


def players_state(on_star: bool):
    """Red's own state in round 1's first set of turns, red's pawn on a starred space (or on
    the center, which is not one), and an order set playing an Action card."""
    state, _ = rs.setup(["red", "blue"], rs.validate_options({}), rs.load_data(None),
                        rs.load_map(None, "stand-in"), _chance("setup"))
    rs.resolve(state, {}, _chance("0.setup"))
    board = Board.of(state.board)
    star = next(h for h in board.spaces() if board.info(h).shape == "star")
    state.pawns["red"] = star if on_star else board.center
    parts = rs.dump(state)
    mine = rs.load(Parts(parts.public, {"red": parts.secret["red"]}, {}))
    assert len(mine.market.deck) == 0 and parts.public["market"]["deck_size"] > 0
    card = next(c for c in mine.players["red"].hand if c.startswith(("action", "oxygen")))
    return mine, card


def problems(state, body: str) -> list:
    w = rs.window(state)
    orders, bad = rs.parse("red", w, body, 1)
    assert bad == []
    return [p.why for p in rs.check(state, "red", orders)]


def test_scavenge_with_the_deck_unknown_is_judged_on_the_space_and_the_action_only():
    state, card = players_state(on_star=True)
    assert problems(state, f"play {card}\nscavenge repair\n") == []


def test_scavenge_off_a_starred_space_is_refused_in_the_dry_run():
    state, card = players_state(on_star=False)
    (why,) = problems(state, f"play {card}\nscavenge repair\n")
    assert "not a starred space" in why


def test_scavenge_with_no_basic_action_left_is_refused_in_the_dry_run():
    # No card played: the one basic action is the active Oxygen's (data.toml's stand-in),
    # so the first scavenge spends it and the second has none left.
    state, _card = players_state(on_star=True)
    (why,) = problems(state, "scavenge repair\nscavenge salvage\n")
    assert "no basic action left" in why
