"""The odds ladder of odds-ratio combat results tables, and how strengths are placed on it.

An odds-ratio table (Escape from Altassar 7.71, Olympica's CRT) has one column per simplified
odds ratio, from the attacker's worst to the best. pbem numbers these odds on one *ladder*::

    ...  "1-4" = -2, "1-3" = -1, "1-2" = 0, "1-1" = 1, "2-1" = 2, "3-1" = 3, ...

so that a column shift is adding to the position: one column right (better for the attacker)
is +1, one column left is -1, and "1-2" shifted one right is "1-1".

Strengths are placed on the ladder with fractions dropped and rounded in the defender's favour
(Altassar 7.6: "Players should drop any fractions", with its example "seven ... attacking ...
two" giving "3-1"; Olympica 10.1: "Round this ratio off in the defender's favor", with 24 to 25
giving "1-2"):

- attack >= defense: ``"n-1"`` with ``n = attack // defense`` (7 to 2 is 3-1);
- attack < defense: ``"1-n"`` with ``n = ceil(defense / attack)`` (2 to 3 is 1-2, 1 to 3 is
  1-3).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

__all__ = ["OddsError", "OddsLabelError", "ladder_label", "ladder_position", "odds_label",
           "odds_position", "shift_text"]

_LABEL = re.compile(r"^([1-9][0-9]*)-([1-9][0-9]*)$")


class OddsError(ValueError):
    """Strengths that cannot be compared as odds: not a number, or less than 1. The message
    quotes both strengths."""


class OddsLabelError(ValueError):
    """Text that is not an odds label ``"n-1"`` or ``"1-n"`` with n a whole number of at least
    1 written without leading zeros (``"3-1"``, ``"1-2"``, ``"1-1"``). The message quotes it."""


def ladder_position(label: str) -> int:
    """The ladder position of an odds label: ``"n-1"`` is n, ``"1-n"`` is 2 - n (so ``"1-1"``
    is 1, ``"1-2"`` 0, ``"1-3"`` -1). Raises :class:`OddsLabelError` quoting ``label`` for
    anything else (``"3-2"``, ``"0-1"``, ``"3:1"``, ``" 3-1"``)."""
    match = _LABEL.match(label) if isinstance(label, str) else None
    if match is None or "1" not in (match.group(1), match.group(2)):
        raise OddsLabelError(f"{label!r} is not an odds label: expected \"n-1\" or \"1-n\" with "
                             f"n a whole number from 1, such as \"3-1\", \"1-1\" or \"1-2\"")
    attack, defense = int(match.group(1)), int(match.group(2))
    return attack if defense == 1 else 2 - defense


def ladder_label(position: int) -> str:
    """The odds label at ladder ``position`` (a whole number): 3 -> ``"3-1"``, 1 ->
    ``"1-1"``, 0 -> ``"1-2"``, -1 -> ``"1-3"``. The inverse of :func:`ladder_position`."""
    if not isinstance(position, int) or isinstance(position, bool):
        raise TypeError(f"ladder position {position!r}: expected a whole number")
    return f"{position}-1" if position >= 1 else f"1-{2 - position}"


def _strength(attack, defense, name: str, value) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction, float)) or (
            isinstance(value, float) and not math.isfinite(value)):
        raise OddsError(f"odds of {attack!r} to {defense!r}: the {name} strength {value!r} is "
                        f"not a number: expected a whole number of strength points, 1 or more")
    if value < 1:
        raise OddsError(f"odds of {attack!r} to {defense!r}: the {name} strength {value!r} is "
                        f"below 1: expected 1 or more strength points (an attack needs "
                        f"strength on both sides)")
    return Fraction(value)


def odds_position(attack, defense) -> int:
    """The ladder position of ``attack`` against ``defense`` (strength points, numbers of at
    least 1), fractions dropped in the defender's favour (module docstring): 7 to 2 -> 3
    ("3-1"), 2 to 3 -> 0 ("1-2"), 1 to 3 -> -1 ("1-3"). No table limit is applied here.

    Raises :class:`OddsError` naming both values when either is not a number (bools are not)
    or is below 1."""
    a = _strength(attack, defense, "attack", attack)
    d = _strength(attack, defense, "defense", defense)
    if a >= d:
        return int(a // d)
    return 2 - int(-((-d) // a))  # 2 - ceil(d / a)


def odds_label(attack, defense) -> str:
    """The odds label of ``attack`` against ``defense`` (see :func:`odds_position`): 7 to 2
    -> ``"3-1"``, 13 to 2 -> ``"6-1"``, 8 to 1 -> ``"8-1"``, 2 to 3 -> ``"1-2"``. Raises
    :class:`OddsError` as :func:`odds_position` does."""
    return ladder_label(odds_position(attack, defense))


def shift_text(shift: int) -> str:
    """A column shift in words: 0 -> ``"none"``, 1 -> ``"1 column right"``, -2 -> ``"2
    columns left"`` (right is better for the attacker, Altassar 7.52 and 5.31)."""
    if not isinstance(shift, int) or isinstance(shift, bool):
        raise TypeError(f"column shift {shift!r}: expected a whole number of columns")
    if shift == 0:
        return "none"
    n = abs(shift)
    return f"{n} column{'s' if n != 1 else ''} {'right' if shift > 0 else 'left'}"
