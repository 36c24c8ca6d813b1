"""The generic random-legal bot (issue 9, "The kit"): boardgame.io's ``ai.enumerate`` and its
random bot, for order sets written line by line.

A ruleset that writes :meth:`pbem.engine.ruleset.Ruleset.propose` gets ``bot_orders`` for free:
:func:`random_orders` asks ``propose(view, window, role, written)`` for the lines the role may
write next, given the lines ``written`` so far, picks one at random, and goes on until the
ruleset offers nothing more or the bot chooses to stop where stopping is allowed. The bot sees
the role's view only (the engine makes it from the role state), so it knows only what the role
may know; the lines it writes must meet no problem in ``parse`` nor ``check`` (the conformance
test, tests/test_conformance.py, check 2).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

__all__ = ["STOP_CHANCE", "MAX_LINES", "BotStuck", "Choices", "random_orders"]

STOP_CHANCE = 0.12
"""The chance that the bot stops where the ruleset allows it to (so random games also try
order sets that leave pieces unmoved)."""

MAX_LINES = 500
"""More lines than this in one order set means a ruleset offers lines forever
(:class:`BotStuck`)."""


class BotStuck(RuntimeError):
    """A ruleset's ``propose`` offered no line while saying the order set may not end there,
    or kept offering lines past :data:`MAX_LINES`: a bug of the ruleset, named in the message."""


@dataclass(frozen=True)
class Choices:
    """What ``propose`` returns: ``lines``, the order lines (without line break) the role may
    write next, each legal after the lines already written; ``may_stop``, whether the order set
    may end here (False while a rule says the role must still order something: a whole Flight
    must enter, every drawn Battery must be placed). ``Choices()`` means "nothing more"."""

    lines: tuple[str, ...] = ()
    may_stop: bool = True

    def __post_init__(self):
        object.__setattr__(self, "lines", tuple(self.lines))


Propose = Callable[[dict, object, str, tuple], Choices]


def random_orders(propose: Propose, view: dict, window, role: str, rng: random.Random, *,
                  stop: float = STOP_CHANCE, max_lines: int = MAX_LINES) -> str:
    """An order body (lines ending in ``"\\n"``, "" for none) for ``role`` in ``window``: one
    line at a time chosen with ``rng`` among ``propose(view, window, role, written)``'s lines,
    stopping with chance ``stop`` wherever ``may_stop`` allows and always when no line is
    offered. Raises :class:`BotStuck` when ``propose`` offers no line but forbids stopping, or
    more than ``max_lines`` lines."""
    written: list[str] = []
    while True:
        choices = propose(view, window, role, tuple(written))
        if not choices.lines:
            if not choices.may_stop:
                raise BotStuck(f"{role} in {window.phase_id}: propose offers no line after "
                               f"{len(written)} lines but says the orders may not end there")
            break
        if choices.may_stop and rng.random() < stop:
            break
        written.append(rng.choice(choices.lines))
        if len(written) > max_lines:
            raise BotStuck(f"{role} in {window.phase_id}: propose still offers lines after "
                           f"{max_lines} lines")
    return "".join(line + "\n" for line in written)


def keep_legal(candidates: list, legal, rng: random.Random, *, written=(), most: int = 24) -> list:
    """Order lines for a bot that enumerates whole lines and checks order sets, not single
    lines (Olympica, Escape from Atalix): ``candidates`` shuffled with ``rng``, each kept when
    ``legal(lines)`` (the role's dry-run checker on the whole order set so far, with it) says
    True, until ``most`` lines are kept. ``written``: lines kept already (they come first).
    Returns the lines kept, in order; ``candidates`` is shuffled in place."""
    lines = list(written)
    rng.shuffle(candidates)
    for c in candidates:
        if len(lines) >= most:
            break
        if legal(lines + [c]):
            lines.append(c)
    return lines
