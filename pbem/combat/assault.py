"""A close assault resolved by passing the die between the two units (docs/combat.md).

Source: Olympica 11.0. The defender of the hex rolls first, "consults the 4-1 column on the
CRT (regardless of the Combat Strengths of the units involved), and applies the result to the
assaulting unit. If a 1 is rolled, ignore the DUST result and give the die to the assaulting
player, who in turn rolls, consults the 4-1 column, and applies the result to the defender.
The interchange continues until at least one unit has been removed from the hex."

Each roll is read from the roller's point of view: the roller is the attacker of that roll and
its opponent the defender, so ``DE`` eliminates the opponent and ``AR2`` retreats the roller.

- ``DE``: the opponent is eliminated (12.2);
- ``EX``: both are eliminated (12.6: "In Close Assaults, an EX always results in the
  elimination of both units");
- ``DR2`` / ``AR2``: the opponent / the roller retreats (12.4, 12.3) -- the retreat itself
  (which hex) is the game's business (:mod:`pbem.boards.retreat`);
- ``AE``: the roller is eliminated (12.1);
- ``DUST``: ignored (12.5: "DUST results are always ignored when they occur in Close
  Assaults"), and the die passes to the other side.

A side that may stay (``may_stay``: a unit in a tunnel, 11.0 and 13.5.4; a Strongpoint, which
ignores all retreat results, 12.3.2 and 16.1) ignores a retreat result. pbem's reading: since
"the interchange continues until at least one unit has been removed from the hex", an ignored
retreat removes nobody and, like DUST, passes the die to the other side.

The module knows no game: the caller gives the table, the column and the dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

from .crt import CombatTable

__all__ = ["ASSAULTING", "DEFENDING", "AssaultError", "AssaultRoll", "Exchange",
           "close_assault"]

ASSAULTING = "assaulting"
"""The side whose unit entered the hex (Olympica 7.3, 11.0)."""
DEFENDING = "defending"
"""The side whose unit held the hex; it rolls first (Olympica 11.0)."""

SIDES = (ASSAULTING, DEFENDING)

# result code -> (what happens, to whom): "opponent", "roller" or "both"
_EFFECTS = {
    "DE": ("eliminated", "opponent"),
    "EX": ("eliminated", "both"),
    "DR2": ("retreats", "opponent"),
    "AE": ("eliminated", "roller"),
    "AR2": ("retreats", "roller"),
    "DUST": ("passes", ""),
}


class AssaultError(ValueError):
    """A close assault that cannot be resolved: a bad ``first`` side, ``may_stay`` key or
    ``max_rolls``; a column that is not on the table; a result code the close assault does not
    know (expected one of AE, AR2, DE, DR2, DUST, EX); or an interchange still going after
    ``max_rolls`` rolls (a table where no result removes a unit)."""


@dataclass(frozen=True)
class AssaultRoll:
    """One roll of the interchange.

    - ``roller``: :data:`ASSAULTING` or :data:`DEFENDING`;
    - ``die``: the value rolled; ``result``: the CRT code read in the column (``"DUST"``);
    - ``effect``: ``"passes"`` (DUST: the die goes to the other side), ``"eliminated"`` (the
      opponent), ``"both-eliminated"`` (EX), ``"retreats"`` (the opponent),
      ``"roller-eliminated"``, ``"roller-retreats"`` or ``"ignored-retreat"`` (the side to
      retreat may stay: the die passes).
    """

    roller: str
    die: int
    result: str
    effect: str


@dataclass(frozen=True)
class Exchange:
    """A resolved close assault: ``rolls`` in order; ``eliminated`` and ``retreats``, the sides
    (:data:`ASSAULTING`, :data:`DEFENDING`) removed from the hex by elimination or by a
    retreat still to be made (the game performs it). The last roll ends the interchange, so
    exactly one of the two is non-empty: one side or both eliminated, or one side retreating."""

    rolls: tuple[AssaultRoll, ...]
    eliminated: frozenset[str]
    retreats: frozenset[str]

    @property
    def removed(self) -> frozenset[str]:
        """Every side removed from the hex (eliminated or retreating)."""
        return self.eliminated | self.retreats


def _other(side: str) -> str:
    return DEFENDING if side == ASSAULTING else ASSAULTING


def _check(table: CombatTable, column: str, first: str, may_stay: Mapping[str, bool],
           max_rolls: int) -> None:
    if first not in SIDES:
        raise AssaultError(f"first = {first!r}: expected {DEFENDING!r} (the defender "
                           f"rolls first) or {ASSAULTING!r}")
    for side in may_stay:
        if side not in SIDES:
            raise AssaultError(f"may_stay key {side!r}: expected {ASSAULTING!r} or "
                               f"{DEFENDING!r}")
    if column not in table.columns:
        raise AssaultError(f"column {column!r} is not on the table: expected one of "
                           f"{', '.join(table.columns)}")
    if not isinstance(max_rolls, int) or isinstance(max_rolls, bool) or max_rolls < 1:
        raise AssaultError(f"max_rolls = {max_rolls!r}: expected a whole number from 1")


def close_assault(table: CombatTable, column: str, roll: Callable[[str], int], *,
                  first: str = DEFENDING, may_stay: Mapping[str, bool] = {},
                  max_rolls: int = 1000) -> Exchange:
    """Resolve one close assault on ``table``'s ``column`` (Olympica 11.0: ``"4-1"``).

    ``roll(why)`` returns one die value; ``why`` says who rolls without naming units
    (``"close assault: the defending unit rolls"``), for the public dice stream. ``first`` is
    the side that rolls first (the defender, 11.0). ``may_stay[side]`` True lets that side
    ignore retreat results (a unit in a tunnel, 11.0; a Strongpoint, 12.3.2 and 16.1): the
    roll is ``"ignored-retreat"`` and the die passes, as after DUST (12.5). The interchange
    stops at the first roll that eliminates or retreats a side.

    Returns an :class:`Exchange`. Raises :class:`AssaultError` for bad arguments, an unknown
    result code, or when ``max_rolls`` rolls have removed nobody; a die value that is not a
    row of the table raises :class:`~pbem.combat.crt.TableLookupError` from
    :meth:`CombatTable.cell`.
    """
    _check(table, column, first, may_stay, max_rolls)
    rolls: list[AssaultRoll] = []
    roller = first
    for _ in range(max_rolls):
        die = roll(f"close assault: the {roller} unit rolls")
        code = table.cell(die, column).result
        if code not in _EFFECTS:
            known = ", ".join(sorted(_EFFECTS))
            raise AssaultError(f"result {code!r} (die {die}, column {column}) has no meaning "
                               f"in a close assault: expected one of {known}")
        what, whom = _EFFECTS[code]
        opponent = _other(roller)
        target = {"opponent": opponent, "roller": roller}.get(whom)
        if what == "retreats" and may_stay.get(target, False):
            what = "ignored"
        if what in ("passes", "ignored"):
            effect = "passes" if what == "passes" else "ignored-retreat"
            rolls.append(AssaultRoll(roller, die, code, effect))
            roller = opponent
            continue
        if whom == "both":
            effect, sides = "both-eliminated", frozenset(SIDES)
        else:
            effect = what if whom == "opponent" else f"roller-{what}"
            sides = frozenset({target})
        rolls.append(AssaultRoll(roller, die, code, effect))
        eliminated = sides if what == "eliminated" else frozenset()
        retreats = sides if what == "retreats" else frozenset()
        return Exchange(tuple(rolls), eliminated, retreats)
    raise AssaultError(f"close assault on column {column}: {max_rolls} rolls without removing "
                       f"a unit from the hex (the interchange continues until one is "
                       f"removed): expected a table whose column can end it")
