"""Checking a role's orders (the receipt's problems): the orders carried out *dry* on a copy of
the role's own state (pbem.engine.gamestate.role_state: the public part and its own secret
part), in the order :func:`~.turns.play` carries them out, with no die rolled. Every attack and
close assault is taken to change nothing, so later orders are judged with the position as it
stands (an order legal when sent may fail when its turn comes: Resolution problems). The U.N.'s
state holds no Web kinds, so no problem text can depend on what a face-down counter is.
"""

from __future__ import annotations

from .run import Run
from .state import copy_state
from .turns import play, window


def check(s, role: str, orders: list) -> list:
    """Problems with ``role``'s parsed ``orders`` against the position of ``s`` (not changed);
    ``[]`` when the role owes no orders now (parse reported that)."""
    w = window(s)
    if w is None or role not in w.owed:
        return []
    run = Run(copy_state(s), role, None)
    play(run, list(orders))
    return run.problems
