"""Two levels in a hex: a surface and, where a tunnel marker lies, an underground portion.

The rules come from Olympica 9.0 and 13.0-13.6 ("Tunnels add a 'second level' to hexes"),
17.3 (drilled Tunnel Mouths) and 18.4 (a path to the Web Generator), but nothing here knows a
game: a game keeps a :class:`Tunnels` value (tunnel markers by hex), names where a piece stands
with a :class:`Place` (``"1717"`` on the surface, ``"1717u"`` underground), asks
:func:`step_rule` which move of 13.4 a one-hex step is, and checks placement (13.2) and
demolition (13.6) with :meth:`Tunnels.placement_problem` and :func:`stranded`.
Stacking, terrain costs, unit types (Lifters may not go underground) and combat are the game's.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Mapping

from .hexgrid import HexLabelError, parse_label
from .hexmap import HexMap

SURFACE = "surface"
UNDERGROUND = "underground"
LEVELS = (SURFACE, UNDERGROUND)

MOUTH = "mouth"      # connects with adjacent tunnels and with the surface (13.1)
DEEP = "deep"        # connects only with adjacent tunnels (13.1)
DRILLED = "drilled"  # a mouth for movement, but like a deep tunnel for ranged combat (17.3)
KINDS = (MOUTH, DEEP, DRILLED)

_EXPECTED_PLACE = "expected a hex label such as 1717, or 1717u for underground"


class LevelError(ValueError):
    """A place, a level or a tunnel marker that cannot be read; the message quotes the input
    and says what was expected."""


def _check_hex(label: object, what: str) -> str:
    try:
        parse_label(label)  # type: ignore[arg-type]
    except HexLabelError:
        raise LevelError(f"{what} {label!r}: expected a four-digit hex label such as 1717") \
            from None
    return label  # type: ignore[return-value]


def _check_kind(kind: object, label: object) -> str:
    if kind not in KINDS:
        raise LevelError(f"tunnel marker {kind!r} in hex {label!r}: expected one of "
                         f"{', '.join(KINDS)}")
    return kind  # type: ignore[return-value]


@dataclass(frozen=True, order=True)
class Place:
    """Where a piece stands: a hex (four-digit label) and a level, :data:`SURFACE` or
    :data:`UNDERGROUND` (Olympica 13.3: a tunnel "divides that hex into two hexes, one on top
    of the other"). Orders by (hex, level), surface first. Raises :class:`LevelError` for a
    bad label or level."""

    hex: str
    level: str = SURFACE

    def __post_init__(self) -> None:
        _check_hex(self.hex, "hex")
        if self.level not in LEVELS:
            raise LevelError(f"level {self.level!r}: expected {SURFACE!r} or {UNDERGROUND!r}")

    @classmethod
    def parse(cls, text: str) -> "Place":
        """``"1717"`` -> surface of 1717, ``"1717u"`` (or ``1717U``) -> its underground portion;
        surrounding blanks are ignored. Anything else raises :class:`LevelError` quoting
        ``text``."""
        raw = text.strip() if isinstance(text, str) else text
        if isinstance(raw, str) and raw[-1:] in ("u", "U"):
            label, level = raw[:-1], UNDERGROUND
        else:
            label, level = raw, SURFACE
        try:
            parse_label(label)  # type: ignore[arg-type]
        except HexLabelError:
            raise LevelError(f"{text!r}: {_EXPECTED_PLACE}") from None
        return cls(label, level)  # type: ignore[arg-type]

    def __str__(self) -> str:
        """``"1717"`` or ``"1717u"``, the form :meth:`parse` reads."""
        return self.hex + ("u" if self.underground else "")

    @property
    def underground(self) -> bool:
        """True when the place is the underground portion of its hex."""
        return self.level == UNDERGROUND


class Tunnels:
    """Tunnel markers by hex, ``{hex: MOUTH | DEEP | DRILLED}`` (Olympica 13.1, 17.3). An
    immutable value: :meth:`with_marker` and :meth:`without` return new values; equal when the
    markers are equal. ``to_json()`` / ``from_json(d)`` round trip (a JSON object hex -> kind).
    Raises :class:`LevelError` for a bad hex label or an unknown kind."""

    __slots__ = ("_markers",)

    def __init__(self, markers: Mapping[str, str] = ()):
        items = dict(markers)
        self._markers = MappingProxyType(
            {_check_hex(h, "tunnel hex"): _check_kind(k, h) for h, k in sorted(items.items())})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tunnels) and dict(self._markers) == dict(other._markers)

    def __hash__(self) -> int:
        return hash(tuple(self._markers.items()))

    def __repr__(self) -> str:
        return f"Tunnels({dict(self._markers)!r})"

    def __iter__(self):
        """The tunnel hexes, in label order."""
        return iter(self._markers)

    def __len__(self) -> int:
        return len(self._markers)

    def kind(self, hex: str) -> str | None:
        """The marker in ``hex`` (:data:`MOUTH`, :data:`DEEP` or :data:`DRILLED`), None if none."""
        return self._markers.get(hex)

    def has(self, hex: str) -> bool:
        """True when ``hex`` holds a tunnel marker of any kind (it has an underground level)."""
        return hex in self._markers

    def is_mouth(self, hex: str) -> bool:
        """True for a Tunnel Mouth, drilled or not: the levels connect there (13.4, 17.3)."""
        return self._markers.get(hex) in (MOUTH, DRILLED)

    def shielded(self, hex: str) -> bool:
        """True when units underground in ``hex`` may neither attack nor be attacked by Ranged
        Combat: a Deep Tunnel (13.5.1) or a drilled Tunnel Mouth (17.3)."""
        return self._markers.get(hex) in (DEEP, DRILLED)

    def with_marker(self, hex: str, kind: str) -> "Tunnels":
        """A new value with ``kind`` in ``hex``, replacing any marker there (17.3: the drilled
        mouth replaces the Deep Tunnel). Legality is :meth:`placement_problem`'s."""
        return Tunnels({**self._markers, hex: kind})

    def without(self, hex: str) -> "Tunnels":
        """A new value without the marker of ``hex`` (demolition, 13.6); unchanged if none."""
        return Tunnels({h: k for h, k in self._markers.items() if h != hex})

    def _component(self, hexmap: HexMap, starts, blocked=lambda h: False) -> set[str]:
        """Tunnel hexes joined to ``starts`` through adjacent tunnel hexes not ``blocked``."""
        table = hexmap.neighbour_table()
        seen = {h for h in starts if h in self._markers}
        todo = deque(seen)
        while todo:
            for n in table.get(todo.popleft(), ()):
                if n in self._markers and n not in seen and not blocked(n):
                    seen.add(n)
                    todo.append(n)
        return seen

    def reaches_mouth(self, hexmap: HexMap, hex: str) -> bool:
        """True when ``hex`` is a tunnel hex joined through adjacent tunnel hexes to a Tunnel
        Mouth (a mouth itself included): 13.2, "a Deep Tunnel that ultimately connects to a
        Tunnel Mouth", and 13.6, "connection to the surface"."""
        return any(self.is_mouth(h) for h in self._component(hexmap, [hex]))

    def placement_problem(self, hexmap: HexMap, hex: str, kind: str, *,
                          mouth_terrains=("cliff", "incline")) -> str | None:
        """Why ``kind`` may not be placed in ``hex`` (Olympica 13.2), None when it may:
        the hex is off the map or already holds a tunnel; a Tunnel Mouth not in one of
        ``mouth_terrains``; a Deep Tunnel not adjacent to a mouth or to a tunnel that reaches
        one. :data:`DRILLED` may only replace a Deep Tunnel (17.3). Strongpoints and the
        number of markers are the game's checks. Raises :class:`LevelError` for an unknown
        kind."""
        _check_kind(kind, hex)
        if hex not in hexmap:
            return f"hex {hex!r} is not on the map"
        if kind == DRILLED:
            if self.kind(hex) != DEEP:
                return f"hex {hex} holds no Deep Tunnel to drill (17.3)"
            return None
        if self.has(hex):
            return f"hex {hex} already holds a tunnel ({self.kind(hex)})"
        if kind == MOUTH:
            terrain = hexmap.terrain(hex)
            if terrain not in mouth_terrains:
                return (f"a Tunnel Mouth must be placed in {' or '.join(mouth_terrains)}, "
                        f"and hex {hex} is {terrain} (13.2)")
            return None
        if not any(self.has(n) and self.reaches_mouth(hexmap, n)
                   for n in hexmap.neighbours(hex)):
            return (f"a Deep Tunnel must be adjacent to a Tunnel Mouth or to a Deep Tunnel that "
                    f"connects to one, and hex {hex} is not (13.2)")
        return None

    def to_json(self) -> dict:
        """``{hex: kind}`` in label order, for the game state."""
        return dict(self._markers)

    @classmethod
    def from_json(cls, d: Mapping) -> "Tunnels":
        """The value :meth:`to_json` wrote. Raises :class:`LevelError` for anything but an
        object of hex -> kind."""
        if not isinstance(d, Mapping):
            raise LevelError(f"tunnels {d!r}: expected an object of hex -> tunnel kind")
        return cls(d)


def step_rule(tunnels: Tunnels, hexmap: HexMap, a: Place, b: Place, *,
              enemy_above: Callable[[str], bool] = lambda h: False) -> str | None:
    """The letter of Olympica 13.4 for a one-hex move from ``a`` to ``b``, None when the move
    is not legal. Each legal move counts as one hex of movement.

    - ``"A"`` underground in a Deep Tunnel to underground in an adjacent tunnel hex;
    - ``"B"`` underground in a mouth to underground in an adjacent tunnel hex;
    - ``"C"`` underground in a mouth to the surface of the same hex;
    - ``"D"`` underground in a mouth to an adjacent surface hex (None if ``enemy_above(a.hex)``);
    - ``"E"`` above a mouth to an adjacent surface hex (also when that hex has a mouth);
    - ``"F"`` above a mouth to under the same mouth;
    - ``"G"`` a surface hex adjacent to a mouth to under it (None if ``enemy_above(b.hex)``);
    - ``"H"`` a surface hex adjacent to a mouth to above it;
    - ``"S"`` a plain surface step between adjacent hexes, involving no tunnel rule.

    A drilled mouth is a mouth (17.3). Levels change only in a mouth's hex; a unit in a Deep
    Tunnel can only make move A. ``enemy_above(hex)`` says whether an enemy unit stands on the
    surface of ``hex``. Off-map hexes, an underground place with no tunnel and non-adjacent
    hexes give None. Terrain, stacking and unit types are the game's checks.
    """
    if a.hex not in hexmap or b.hex not in hexmap:
        return None
    if a.underground and not tunnels.has(a.hex) or b.underground and not tunnels.has(b.hex):
        return None
    if a.hex == b.hex:
        if a.level == b.level or not tunnels.is_mouth(a.hex):
            return None
        return "C" if a.underground else "F"
    if not hexmap.adjacent(a.hex, b.hex):
        return None
    if a.underground:
        if b.underground:
            return "B" if tunnels.is_mouth(a.hex) else "A"
        if not tunnels.is_mouth(a.hex) or enemy_above(a.hex):
            return None
        return "D"
    if b.underground:
        if not tunnels.is_mouth(b.hex) or enemy_above(b.hex):
            return None
        return "G"
    if tunnels.is_mouth(a.hex):
        return "E"
    return "H" if tunnels.is_mouth(b.hex) else "S"


def steps_from(tunnels: Tunnels, hexmap: HexMap, a: Place, *,
               enemy_above: Callable[[str], bool] = lambda h: False) -> list[tuple[Place, str]]:
    """Every place one legal step (13.4) from ``a``, with its letter (:func:`step_rule`),
    sorted by (hex label, level), surface first. Empty when ``a`` is off the map."""
    if a.hex not in hexmap:
        return []
    out = []
    for h in (a.hex, *hexmap.neighbours(a.hex)):
        for level in LEVELS:
            b = Place(h, level)
            letter = step_rule(tunnels, hexmap, a, b, enemy_above=enemy_above)
            if letter is not None:
                out.append((b, letter))
    return sorted(out)


def connected(tunnels: Tunnels, hexmap: HexMap, a: Place, b: Place) -> bool:
    """True when ``a`` and ``b`` are both underground and joined through adjacent tunnel hexes
    (Olympica 18.4: the Web Generator underground reached from a Tunnel Mouth)."""
    if not (a.underground and b.underground and tunnels.has(a.hex) and tunnels.has(b.hex)):
        return False
    return b.hex in tunnels._component(hexmap, [a.hex])


def underground_path(tunnels: Tunnels, hexmap: HexMap, start_hex: str, goal_hex: str, *,
                     blocked: Callable[[str], bool] = lambda h: False) -> list[str] | None:
    """A shortest path of hexes from ``start_hex`` to ``goal_hex`` through adjacent tunnel
    hexes, both ends included, entering no hex where ``blocked(hex)`` (the goal included, the
    start not: 18.4, "a Tunnel Mouth which can trace a path to the Web Generator unblocked by
    Web units"). Among equally short paths, the first found trying neighbours in direction
    order n, ne, se, s, sw, nw. ``[start_hex]`` when start and goal are the same tunnel hex;
    None when either is no tunnel hex or no path exists."""
    if not (tunnels.has(start_hex) and tunnels.has(goal_hex)):
        return None
    if start_hex == goal_hex:
        return [start_hex]
    table = hexmap.neighbour_table()
    came: dict[str, str | None] = {start_hex: None}
    todo = deque([start_hex])
    while todo:
        here = todo.popleft()
        for n in table.get(here, ()):
            if n in came or not tunnels.has(n) or blocked(n):
                continue
            came[n] = here
            if n == goal_hex:
                path = [n]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])  # type: ignore[arg-type]
                return path[::-1]
            todo.append(n)
    return None


def stranded(tunnels: Tunnels, hexmap: HexMap) -> set[str]:
    """The tunnel hexes joined to no Tunnel Mouth through adjacent tunnel hexes: the Deep
    Tunnels left "with no connection to the surface" (13.6) after a demolition."""
    mouths = [h for h in tunnels if tunnels.is_mouth(h)]
    return set(tunnels) - tunnels._component(hexmap, mouths)
