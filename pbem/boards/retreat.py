"""Retreats onto the ring of hexes at distance n (docs/maps.md).

Source: Olympica 12.3: "The hex retreated to must be any one of the ring formed at two hexes'
distance from the retreating unit's original hex. Thus, the requirement is NOT simply to move
two hexes. A unit may not be retreated off the map, may not be retreated onto a unit friendly
to it (though it may be retreated through a friendly unit), and may not be retreated onto an
enemy unit (creating a Close Assault) unless there is no other hex to which retreat is
possible. A Close Assault completes the retreat requirement even if it is only one hex from
the retreating unit's original position". 12.3.1 adds terrain limits ("No Web or U.N. unit may
be retreated from one cliff hex directly into another one"), which the caller passes as
``step_ok``.

pbem's reading: a retreat is a path of ``n`` steps, each into an adjacent hex one step further
from the start, so that it ends on :meth:`HexMap.ring(start, n)
<pbem.boards.hexmap.HexMap.ring>`; entering an enemy unit's hex ends the path there (a close
assault). The module knows no game: the caller says which hexes hold friendly and enemy units,
and chooses among the paths (12.3: the opposing player chooses, :func:`choose`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

__all__ = ["RetreatPath", "choose", "retreat_paths"]


@dataclass(frozen=True)
class RetreatPath:
    """One legal retreat: ``hexes`` entered in order (1 to n of them, the start excluded);
    ``assault`` True when the last hex holds an enemy unit, so that a close assault completes
    the retreat (Olympica 12.3), even one hex from the start."""

    hexes: tuple[str, ...]
    assault: bool = False

    @property
    def end(self) -> str:
        """The hex where the retreat ends."""
        return self.hexes[-1]


def retreat_paths(hexmap, start: str, n: int, *,
                  step_ok: Callable[[str, str], bool] = lambda a, b: True,
                  friendly: Callable[[str], bool],
                  enemy: Callable[[str], bool]) -> list[RetreatPath]:
    """The legal retreats of ``n`` hexes from ``start`` on ``hexmap`` (a
    :class:`~pbem.boards.hexmap.HexMap`), sorted by their hexes.

    Each step enters a hex of the map adjacent to the last and one step further from
    ``start``; ``step_ok(a, b)`` False forbids the step from ``a`` to ``b`` (Olympica 12.3.1:
    cliff to cliff). A hex where ``friendly(hex)`` is True may be passed through but not ended
    on; entering a hex where ``enemy(hex)`` is True ends the path there as an assault. Assault
    paths are returned only when there is no other path ("unless there is no other hex to which
    retreat is possible", 12.3). Distinct paths to the same end hex are all returned (the
    caller may care which hexes are crossed: 12.3.1 avalanches).

    Returns an empty list when no retreat is possible at all (what then is the game's
    business). Raises ``ValueError`` for ``n`` below 1 and ``KeyError`` for a ``start`` off
    the map (:class:`~pbem.boards.hexgrid.HexLabelError` for a malformed label).
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"retreat length {n!r}: expected a whole number of hexes from 1")
    hexmap.distance(start, start)   # KeyError / HexLabelError for a start off the map
    plain: list[RetreatPath] = []
    assaults: list[RetreatPath] = []

    def walk(path: tuple[str, ...]) -> None:
        here = path[-1] if path else start
        for nxt in hexmap.neighbours(here):
            if hexmap.distance(start, nxt) != len(path) + 1 or not step_ok(here, nxt):
                continue
            hexes = path + (nxt,)
            if enemy(nxt):
                assaults.append(RetreatPath(hexes, assault=True))
            elif len(hexes) < n:
                walk(hexes)
            elif not friendly(nxt):
                plain.append(RetreatPath(hexes))

    walk(())
    out = plain or assaults
    return sorted(out, key=lambda p: p.hexes)


def choose(paths: Iterable[RetreatPath], *, key: Callable[[RetreatPath], object]
           ) -> RetreatPath | None:
    """The path with the smallest ``key(path)``, ties broken by the hexes (label order), or
    None when there is none: a standing order's preference (Olympica 12.3: the opposing player
    chooses the hex), for example ``key=lambda p: hexmap.distance(p.end, generator)``."""
    return min(paths, key=lambda p: (key(p), p.hexes), default=None)
