"""The Escape from Atalix board: its spaces read from a hex map, and the movement rules.

The map (``map.toml``, a stand-in drawn to the rulebook's description, or a referee's
transcription given with ``--map``) is a :class:`~pbem.boards.hexmap.HexMap` (docs/maps.md)
whose terrain types are ``scrap``, ``carbon``, ``minerals`` (the orange, green and gray spaces
of the rulebook's Resources section), ``plain`` and ``cave``, and whose groups are:

- ``center`` (one hex: "the center space (A), marked by a light hexagon", Board Setup);
- ``cave`` (the three darkened spaces, the one "with the number 3 and 4 bars of elevation"
  first, Chapter 4); ``alien-start`` (one cave hex "adjacent to the space numbered 3");
- ``storm-origin`` (one star hex: "the starred space 3 tiles to the right of the center");
- ``star`` and ``circle`` (the shapes, Board Space Anatomy B); ``number-1`` .. ``number-6``
  (C; a space with two numbers is in two groups); ``elevation-1`` .. ``elevation-4`` (D: the
  bars; a space in none has elevation 0).

Directions are the d6 compass (Events 3 and 4, "the compass on the bottom left of the map"):
the compass image is not in the text, so :data:`COMPASS` is a stand-in, clockwise from 1 = up
("if a 1 is rolled, move all storm tokens one space up towards the top of the board").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Collection, Iterable, Sequence

from pbem.boards.hexmap import HexMap, MapError

COMPASS = {1: "n", 2: "ne", 3: "se", 4: "s", 5: "sw", 6: "nw"}
"""d6 roll -> hex direction (stand-in for the board's compass: 1 up, then clockwise)."""

TERRAINS = ("scrap", "carbon", "minerals", "plain", "cave")
RESOURCE = {"scrap": "scrap", "carbon": "carbon", "minerals": "minerals", "plain": None,
            "cave": "minerals"}
"""Terrain -> the resource cube placed on its numbers (Resources: orange scrap, green carbon,
gray minerals). The cave is read as gray ("the dark gray board space with the number 3")."""

GROUPS = ("center", "cave", "alien-start", "storm-origin", "star", "circle",
          *(f"number-{n}" for n in range(1, 7)), *(f"elevation-{n}" for n in range(1, 5)))

# Cube coordinates (x, y, z) of one step in each direction, for `furthest`.
_CUBE = {"n": (0, 1, -1), "ne": (1, 0, -1), "se": (1, -1, 0), "s": (0, -1, 1),
         "sw": (-1, 0, 1), "nw": (-1, 1, 0)}


@dataclass(frozen=True)
class SpaceInfo:
    """One board space (Board Space Anatomy): ``hex`` its label, ``terrain`` one of
    :data:`TERRAINS`, ``resource`` the cube it takes (``"scrap"``, ``"carbon"``, ``"minerals"``
    or None for plain), ``shape`` ``"star"``, ``"circle"`` or ``""``, ``numbers`` the printed
    numbers (ascending, often empty), ``elevation`` its bars, 0 to 4."""

    hex: str
    terrain: str
    resource: str | None
    shape: str
    numbers: tuple[int, ...]
    elevation: int


_BOARDS: dict = {}
_BOARDS_KEPT = 32


class Board:
    """A read-only view of an Atalix map (module docstring for the groups it needs).

    Raises :class:`MapError` (naming the map file and what was expected) when a group is
    missing or malformed, a group or terrain is unknown, a space has two shapes or two
    elevations, the storm origin is not a star, or the cave does not begin on a space numbered 3
    with 4 bars next to the alien's start.
    """

    def __init__(self, hexmap: HexMap):
        self.hexmap = hexmap
        fail = self._fail
        for t in hexmap.terrains():
            if t not in TERRAINS:
                fail(f"unknown terrain {t!r}: expected {', '.join(TERRAINS)}")
        for g in hexmap.groups():
            if g not in GROUPS:
                fail(f"unknown group {g!r}: expected {', '.join(GROUPS)}")
        one = {}
        for g in ("center", "storm-origin", "alien-start"):
            hexes = hexmap.group(g) if hexmap.has_group(g) else ()
            if len(hexes) != 1:
                fail(f"[groups] {g} holds {len(hexes)} hexes: expected exactly one")
            one[g] = hexes[0]
        self.center, self.storm_origin, self.alien_start = (
            one["center"], one["storm-origin"], one["alien-start"])
        self.cave = hexmap.group("cave") if hexmap.has_group("cave") else ()
        if len(self.cave) != 3:
            fail(f"[groups] cave holds {len(self.cave)} hexes: expected the three darkened "
                 f"spaces (The Alien and the Storm), the one numbered 3 first")
        self._groups = {g: frozenset(hexmap.group(g)) for g in hexmap.groups()}
        self._info = {h: self._read(h) for h in hexmap.labels()}
        self._check_features()

    @classmethod
    def of(cls, hexmap: HexMap) -> "Board":
        """The Board of ``hexmap``, built once per map object (maps are immutable and
        :meth:`HexMap.from_dict` returns the same object for an equal map): a small cache of
        :data:`_BOARDS_KEPT` boards. Raises :class:`MapError` as the constructor does."""
        hit = _BOARDS.get(id(hexmap))
        if hit is not None and hit.hexmap is hexmap:
            return hit
        board = cls(hexmap)
        if len(_BOARDS) >= _BOARDS_KEPT:
            _BOARDS.pop(next(iter(_BOARDS)))
        _BOARDS[id(hexmap)] = board
        return board

    def _fail(self, why: str):
        raise MapError(self.hexmap.source, None, why)

    def _in(self, group: str) -> frozenset:
        return self._groups.get(group, frozenset())

    def _read(self, h: str) -> SpaceInfo:
        shapes = [s for s in ("star", "circle") if h in self._in(s)]
        if len(shapes) > 1:
            self._fail(f"hex {h} is both a star and a circle: expected one shape per space")
        bars = [n for n in range(1, 5) if h in self._in(f"elevation-{n}")]
        if len(bars) > 1:
            self._fail(f"hex {h} is in elevation-{bars[0]} and elevation-{bars[1]}: expected "
                       f"one elevation per space")
        terrain = self.hexmap.terrain(h)
        return SpaceInfo(h, terrain, RESOURCE[terrain], shapes[0] if shapes else "",
                         tuple(n for n in range(1, 7) if h in self._in(f"number-{n}")),
                         bars[0] if bars else 0)

    def _check_features(self) -> None:
        first = self._info[self.cave[0]]
        if 3 not in first.numbers or first.elevation != 4:
            self._fail(f"cave hex {first.hex} has numbers {list(first.numbers)} and elevation "
                       f"{first.elevation}: expected the cave to begin on the space \"with the "
                       f"number 3 and 4 bars of elevation\" (Chapter 4), listed first")
        for h in self.cave:
            if self._info[h].terrain != "cave":
                self._fail(f"cave hex {h} has terrain {self._info[h].terrain!r}: expected 'cave'")
        if (self.alien_start not in self.cave[1:]
                or not self.hexmap.adjacent(self.alien_start, self.cave[0])):
            self._fail(f"alien-start {self.alien_start} must be a cave hex other than "
                       f"{self.cave[0]} and next to it: \"Place the alien in the cave, adjacent "
                       f"to the space numbered 3\"")
        if self._info[self.storm_origin].shape != "star":
            self._fail(f"storm-origin {self.storm_origin} is not in [groups] star: expected "
                       f"\"the starred space 3 tiles to the right of the center\"")
        if self.center in self.cave:
            self._fail(f"the center {self.center} is in the cave: expected it outside")

    # -- spaces -----------------------------------------------------------------------------
    def info(self, hex: str) -> SpaceInfo:
        """The :class:`SpaceInfo` of ``hex``; ``KeyError`` off the map (HexLabelError, a
        ValueError, for a malformed label)."""
        return self._info[self.hexmap.label(hex)]

    def spaces(self) -> tuple[str, ...]:
        """Every space, in label order."""
        return self.hexmap.labels()

    def neighbours(self, hex: str) -> tuple[str, ...]:
        """The 2 to 6 spaces next to ``hex``, in direction order n, ne, se, s, sw, nw."""
        return self.hexmap.neighbours(hex)

    def numbered(self, n: int) -> tuple[str, ...]:
        """The spaces printed with number ``n`` (1-6), in the map file's order (Event 1: cubes
        go "on each board space with a number that matches the dice roll"). ValueError for
        another ``n``."""
        group = f"number-{_d6(n)}"
        return self.hexmap.group(group) if self.hexmap.has_group(group) else ()

    # -- directions -------------------------------------------------------------------------
    def step(self, hex: str, d6: int) -> str | None:
        """The space one step from ``hex`` in the compass direction of a d6 roll (Event 3), or
        None off the map. ValueError for a roll outside 1-6."""
        return self.hexmap.step(hex, COMPASS[_d6(d6)])

    def furthest(self, d6: int, among: Iterable[str] | None = None) -> str:
        """The space furthest in the compass direction of ``d6`` ("furthest in that direction
        ... from the center", Scanner; "the furthest in the indicated compass direction",
        Event 4), among the hexes ``among`` (the storm tokens' spaces) or the whole map.

        Measured as on the board: the distance of the space's centre from the center along the
        compass direction's line (its projection on the line: cube coordinates are the board's
        plane, so their dot product with the direction is that projection), so a space of a
        neighbouring column, offset by half a space, counts its half. Ties go to the space
        nearest that line, then to the first label. ValueError for a roll outside 1-6 or an empty
        ``among``; KeyError for a hex off the map."""
        d = _CUBE[COMPASS[_d6(d6)]]
        plus, minus = d.index(1), d.index(-1)
        across = [-2] * 3
        across[plus] = across[minus] = 1  # perpendicular to d in the board's plane
        cq, cr = self.hexmap.axial(self.center)
        hexes = self.spaces() if among is None else tuple(among)
        if not hexes:
            raise ValueError("furthest(): no spaces given: expected at least one hex")

        def key(h: str):
            q, r = self.hexmap.axial(h)
            v = (q - cq, -(q - cq) - (r - cr), r - cr)
            out = sum(a * b for a, b in zip(v, d))
            return (-out, abs(sum(a * b for a, b in zip(v, across))), h)
        return min(hexes, key=key)

    def shortest_paths(self, start: str, goal: str,
                       passable: Callable[[str], bool] = lambda h: True) -> list[list[str]]:
        """Every shortest path from ``start`` to ``goal`` (Event 2: "the shortest path to the
        center board space. If multiple paths of equal length exist, players may choose"), each
        the spaces entered in order (``start`` excluded, ``goal`` included), the list in label
        order. Spaces between must satisfy ``passable``; ``start`` and ``goal`` need not.
        ``[[]]`` when ``start == goal``, ``[]`` when no path exists; KeyError off the map."""
        table = self.hexmap.neighbour_table()
        start, goal = self.hexmap.label(start), self.hexmap.label(goal)
        far = {goal: 0}
        frontier = [goal]
        while frontier and start not in far:
            nxt = []
            for h in frontier:
                for n in table[h]:
                    if n not in far and (n == start or passable(n)):
                        far[n] = far[h] + 1
                        nxt.append(n)
            frontier = nxt
        if start not in far:
            return []
        out: list[list[str]] = []

        def walk(here: str, trail: list[str]) -> None:
            if here == goal:
                out.append(list(trail))
                return
            for n in sorted(table[here]):
                if far.get(n) == far[here] - 1:
                    trail.append(n)
                    walk(n, trail)
                    trail.pop()
        walk(start, [])
        return out


def _d6(n: int) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 6:
        raise ValueError(f"die roll {n!r}: expected a whole number from 1 to 6")
    return n


# -- movement (Action Phase; Movement Restrictions; Terraform Tool) ----------------------------
def _where(board: Board, *hexes: str) -> str | None:
    for h in hexes:
        if not isinstance(h, str) or h not in board.hexmap:
            return (f"{h!r} is not a space of the board: expected a four-digit hex label from "
                    f"0101 to {board.hexmap.columns:02d}{board.hexmap.rows:02d}")
    return None


def _level(board: Board, h: str) -> str:
    return f"{h} (elevation {board.info(h).elevation})"


def move_problem(board: Board, paths: Collection[frozenset], start: str,
                 route: Sequence[str]) -> str | None:
    """Why a Move action from ``start`` along ``route`` (the 1 or 2 spaces entered, in order)
    is illegal, or None when it is legal. ``paths`` holds ``frozenset({a, b})`` for each path a
    Terraform Tool built.

    Action Phase: "Move their player pawn up to 2 board spaces with flat terrain"; Movement
    Restrictions: "A player pawn cannot move from a lower space to a higher space without using
    a climb action": each step must enter a space no higher than the one left, or cross a path
    ("move freely between those board spaces as if they were at the same level"). Moving down
    is allowed: the rulebook forbids only lower to higher."""
    if isinstance(route, str) or not 1 <= len(route) <= 2:
        return (f"a Move enters 1 or 2 board spaces (\"up to 2 board spaces\"), got {route!r}: "
                f"expected a list such as ['0504'] or ['0504', '0503']")
    bad = _where(board, start, *route)
    if bad:
        return bad
    here = start
    for there in route:
        if not board.hexmap.adjacent(here, there):
            return f"{there} is not next to {here}: expected each space entered to be adjacent"
        if (board.info(there).elevation > board.info(here).elevation
                and frozenset((here, there)) not in paths):
            return (f"Move from {_level(board, here)} up to {_level(board, there)}: a pawn "
                    f"cannot move from a lower space to a higher space without a climb "
                    f"(Movement Restrictions); expected a space at elevation "
                    f"{board.info(here).elevation} or lower, a path, or a Climb action")
        here = there
    return None


def climb_problem(board: Board, paths: Collection[frozenset], start: str,
                  to: str) -> str | None:
    """Why a Climb action from ``start`` into ``to`` is illegal, or None when it is legal.

    Action Phase: "Climb: Move 1 board space, while increasing their elevation by 1": ``to``
    must be adjacent and exactly one level higher. Two spaces joined by a path are "as if they
    were at the same level" (Terraform Tool), so that step is flat: a Move, not a Climb."""
    bad = _where(board, start, to)
    if bad:
        return bad
    if not board.hexmap.adjacent(start, to):
        return f"{to} is not next to {start}: a Climb moves 1 board space, to an adjacent one"
    if frozenset((start, to)) in paths:
        return (f"a path joins {start} and {to}, so they count as the same level (Terraform "
                f"Tool): expected a Move there, not a Climb")
    rise = board.info(to).elevation - board.info(start).elevation
    if rise != 1:
        return (f"Climb from {_level(board, start)} to {_level(board, to)} changes the "
                f"elevation by {rise}: expected exactly +1 (\"increasing their elevation by 1\")")
    return None


def path_problem(board: Board, a: str, b: str) -> str | None:
    """Why a Terraform Tool path may not be built between ``a`` (the builder's space) and
    ``b``, or None when it may: "between your current board spaces and an adjacent board space
    up to 2 elevation apart" (Terraform Tool, ability 2)."""
    bad = _where(board, a, b)
    if bad:
        return bad
    if not board.hexmap.adjacent(a, b):
        return f"{b} is not next to {a}: a path joins your space and an adjacent board space"
    gap = abs(board.info(a).elevation - board.info(b).elevation)
    if gap > 2:
        return (f"{_level(board, a)} and {_level(board, b)} are {gap} elevation apart: "
                f"expected spaces \"up to 2 elevation apart\" (Terraform Tool)")
    return None
