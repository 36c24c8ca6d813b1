"""The random bot (``bot_orders``): legal orders chosen from the player's own view.

Candidate lines (plays of the hand's cards, moves and climbs to neighbouring spaces, collect,
scavenge, the abilities of the cards played) are shuffled with ``rng`` and each is kept only
when the whole order set with it still meets no problem in :func:`~.checking.check`, so the
bot's orders raise no problem when sent. A proposal to build, at random, a project the team
can pay for now ends the order."""

from __future__ import annotations

from pbem.engine.randombot import keep_legal

from . import projects
from .board import Board
from .checking import check
from .orders import VERBS
from .setup import card_type
from .state import from_view

MAX_LINES = 12


def _ok(s, role, window, lines) -> bool:
    orders, problems = VERBS.parse(role, window, "\n".join(lines), 1)
    return not problems and not check(s, role, orders)


def bot_orders(view: dict, window, role: str, rng) -> str:
    """An order body for ``role`` in ``window``, from ``view`` and ``rng`` only."""
    s = from_view(view)
    if window.phase == "setup":
        pool = sorted({card_type(c) for c in s.players[role].hand})
        return f"choose {rng.choice(pool)} {rng.choice(pool)}\nactive oxygen\n"
    lines: list = []
    hand = list(s.players[role].hand)
    rng.shuffle(hand)
    for card in hand:
        if _ok(s, role, window, lines + [f"play {card}"]):
            lines.append(f"play {card}")
    board = Board.of(s.board)
    here = s.pawns[role]
    cands = [f"move {n}" for n in board.neighbours(here)]
    cands += [f"climb {n}" for n in board.neighbours(here)]
    cands += ["collect"] + [f"scavenge scrap {r}" for r in ("scrap", "carbon", "minerals")]
    played = [ln.split()[1] for ln in lines]
    cards = s.data["cards"]
    for c in played:
        for i, a in enumerate(cards[card_type(c)]["abilities"]):
            if a["phase"] == "action":
                extra = [f" {x}" for x in s.market.row][:2] if a["what"] == "buy" else [""]
                cands += [f"use {c} {i}{x}" for x in extra]
    lines = keep_legal(cands, lambda ls: _ok(s, role, window, ls), rng, written=lines,
                       most=MAX_LINES)
    affordable = [p for p in projects.available(s.data, s.options.get("scenario", 1))
                  if projects.refusal(s, p) is None]
    if affordable:  # a proposal for the end of the round (Build Projects)
        lines.append(f"build {rng.choice(affordable)}")
    return "\n".join(lines) + "\n"
