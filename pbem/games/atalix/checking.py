"""Checking a player's orders (the receipt's problems): the orders carried out *dry* on a copy
of the player's own state (its hand and deck contents; no deck order, no other hand), with
dice that roll nothing, so no problem text can depend on another player's secret or the order
of a deck (the Upgrade deck holds cards of no type, as many as it has): a card drawn in the
dry run (Swap Gear, the Oxygen's III) is taken from the deck's
contents in sorted order, the same from the player's state as from the whole one, so a play of
a card still to be drawn may be judged otherwise when the turn is carried out. Moves and
abilities are judged against the board as it stands; an order legal when
sent may fail when its turn comes (an earlier player moved the alien): Resolution problems."""

from __future__ import annotations

import copy

from pbem.cards import Pile
from pbem.engine.ruleset import Problem

from . import scenarios
from .board import Board
from .data import Rules
from .planning import choose_actives, plan_turn
from .proposals import plan_problems, setup_problems
from .turns import ACTION_VERBS, _args, window


UNSEEN = "unseen"
"""The dry run's stand-in for a card of the Upgrade deck (its order is the referee's): a
duplicate replaced in the row takes one, the Scanner's look sees only these."""


class _NoDice:
    """Dice of a dry run: the faces 1, 2, 3... in turn (a reroll "until it differs" ends),
    shuffles keep the order."""

    def __init__(self):
        self.rolled = 0

    def roll(self, sides, why):
        self.rolled += 1
        return 1 + (self.rolled - 1) % sides

    def shuffle(self, items, why):
        return list(items)


def check(s, role: str, orders: list) -> list:
    """Problems with ``role``'s parsed ``orders`` against the position of ``s`` (not changed);
    ``[]`` when the role owes no orders now (parse reported that)."""
    w = window(s)
    if w is None or role not in w.owed:
        return []
    text = {o.line: o.text for o in orders}
    if s.stage == "setup":
        return [Problem(line, text.get(line, ""), rule, why)
                for line, rule, why in setup_problems(s, role, orders)]
    s = copy.deepcopy(s)
    mine = s.players[role]
    mine.deck = Pile(sorted(mine.deck))  # a draw takes the same card from either state
    if s.market is not None:  # cards of no type, as many as the Upgrade deck holds
        size = s.unseen.get("*market", len(s.market.deck))
        s.market.deck = Pile([f"{UNSEEN}-{i}" for i in range(1, size + 1)])
    refused: dict = {}
    choose_actives(s, role, orders, refused)
    played = [(o.line, o.args["card"], o.args["abilities"]) for o in orders if o.verb == "play"]
    plan = plan_turn(s.data["cards"], s.players[role], played,
                     research_level=Rules.from_data(s.data).level_at(s.research),
                     active=scenarios.free_active(s, role))
    out = refused.get(role, [])
    out += [Problem(line, text.get(line, ""), rule, why)
            for line, rule, why in plan_problems(s, orders)]
    out += [Problem(line, text.get(line, ""), rule, why) for line, rule, why in plan.problems]
    turn = scenarios.new_turn(s, role, plan, _NoDice(), _NoDice(), Board.of(s.board))
    for o in orders:
        if o.verb == "scavenge":
            _dry_scavenge(turn, o)
        elif o.verb in ACTION_VERBS:
            turn.carry_out(o.line, o.verb, _args(o))
        elif o.verb in scenarios.TRANSPORT_VERBS:
            scenarios.transport(turn, o.line, o.verb, o.args)
    out += [Problem(line, text.get(line, ""), rule, why) for line, rule, why in turn.problems]
    return out


def _dry_scavenge(turn, o) -> None:
    """A scavenge in a dry run: the action and the starred space are judged, the card drawn
    and the choices are not (the judge reports them when the turn is carried out). The
    Upgrade deck's order is the referee's: a player's own state holds none of its cards, and
    the check must say the same from the player's state as from the whole one."""
    from .actions import Refused
    turn._line = o.line
    try:
        turn.may_scavenge()
    except Refused as r:
        turn._problem(r.section, r.why, "scavenge", _args(o))
        return
    turn._spend()
