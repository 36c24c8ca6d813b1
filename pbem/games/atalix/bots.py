"""The random bot (``bot_orders``): legal orders chosen from the player's own view.

Candidate lines (plays of the hand's cards, one of the Scanner's two abilities at random,
moves and climbs to neighbouring spaces, collect, scavenge, the abilities of the cards played,
the Terraform Tool's four on the spaces around, an additional active card from the hand) are
shuffled with ``rng`` and each is kept only when the whole order set with it still meets no
problem in :func:`~.checking.check`, so the bot's orders raise no problem when sent. In the
stand-in Scenarios 2 and 3 the lines of :func:`.scenarios.bot_goals` come first, in order (the
Weapons against an alien near the ship, a walk to a part or the beacon, ``carry``, a walk to
high ground or to the rover), and random steps only when it has none. A proposal to build, at
random, a project the team can pay for now (in Scenarios 2 and 3 the scenario's own first)
ends the order."""

from __future__ import annotations

from pbem.engine.randombot import keep_legal

from . import projects, scenarios
from .board import Board
from .checking import check
from .orders import VERBS
from .planning import card_type
from .state import from_view

MAX_LINES = 12


def _ok(s, role, window, lines) -> bool:
    orders, problems = VERBS.parse(role, window, "\n".join(lines), 1)
    return not problems and not check(s, role, orders)


def _alternative(card: dict, rng) -> str:
    """For a card whose abilities are all one OR (the Scanner), one of them at random (`` N``);
    else every allowed ability (``""``)."""
    abilities = card["abilities"]
    groups = {a.get("or") for a in abilities}
    if len(abilities) > 1 and len(groups) == 1 and None not in groups:
        return f" {rng.randrange(len(abilities))}"
    return ""


def _extra(s, board: Board, here: str, what: str) -> list:
    """The words after ``use CARD N`` tried for an ability ``what`` (a space to each side)."""
    if what == "buy":
        return [f" {x}" for x in [*s.market.row[:2], *s.market.extra]]
    if what == "terraform":
        near = board.neighbours(here)
        return ([f" clear {h}" for h in (here, *near) if s.world.get("storm", {}).get(h)]
                + [f" {m} {h}" for m in ("path", "carbon") for h in near] + [" lure"])
    if what == "look":
        return [" pick jet-pack exosuit any bottom weapons", " pick any"]
    return [""]


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
        line = f"play {card}{_alternative(s.data['cards'][card_type(card)], rng)}"
        if _ok(s, role, window, lines + [line]):
            lines.append(line)
    board = Board.of(s.board)
    here = s.pawns[role]
    cands = [f"move {n}" for n in board.neighbours(here)]
    cands += [f"climb {n}" for n in board.neighbours(here)]
    # scrap never pays, so the card drawn cannot undo what the dry run judged of later lines
    cands += ["collect", "scavenge scrap"]
    played = [ln.split()[1] for ln in lines]
    cands += [f"active {c}" for c in hand if c not in played]
    cards = s.data["cards"]
    for c in played:
        for i, a in enumerate(cards[card_type(c)]["abilities"]):
            if a["phase"] == "action":
                cands += [f"use {c} {i}{x}" for x in _extra(s, board, here, a["what"])]
    goal, free = scenarios.bot_goals(s, role, board)  # Scenarios 2 and 3: their tasks first
    for g in goal:
        if _ok(s, role, window, lines + [g]):
            lines.append(g)
    cands = [c for c in cands if free or c.split()[0] not in ("move", "climb")]
    lines = keep_legal(cands, lambda ls: _ok(s, role, window, ls), rng, written=lines,
                       most=MAX_LINES)
    affordable = [p for p in projects.available(s.data, s.options.get("scenario", 1))
                  if projects.refusal(s, p) is None]
    own = [p for p in affordable if s.data["projects"][p].get("scenario", 0) > 1]
    if affordable:  # a proposal for the end of the round (Build Projects)
        lines.append(f"build {rng.choice(own or affordable)}")  # Scenarios 2, 3: theirs first
    return "\n".join(lines) + "\n"
