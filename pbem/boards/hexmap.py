"""Hex maps: the TOML map file (docs/maps.md) and the immutable :class:`HexMap` built from it.

A map file names the map's size, its column offset, a terrain type for every hex (a default
for the hexes not listed) and named groups of hexes. :func:`load_map` reads one and checks it
completely; every error is a :class:`MapError` naming the file, the line where the offending
value stands (found by searching the text) and what was expected.
"""

from __future__ import annotations

import hashlib
import re
from types import MappingProxyType
from typing import Iterable, Mapping

from . import hexgrid
from .hexgrid import DIRECTIONS, STEPS, HexLabelError

_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
_MAP_KEYS = {"name", "source", "columns", "rows", "offset", "default"}
_TABLES = {"map", "terrain", "groups"}


class MapError(ValueError):
    """A map file that cannot be used: ``source`` is the file name, ``line`` the 1-based line of
    the offending value when it could be found (else None), ``why`` what is wrong and expected.

    ``str(err)`` reads ``"map.toml:12: hex '1405' is off the map: ..."``.
    """

    def __init__(self, source: str, line: int | None, why: str):
        self.source = source
        self.line = line
        self.why = why
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {why}")


def _line_of(text: str, needle: str, occurrence: int = 1, start: int = 1) -> int | None:
    """1-based line holding the ``occurrence``-th appearance of ``needle`` at or after line
    ``start`` (None if there is no such appearance)."""
    seen = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if number < start:
            continue
        seen += line.count(needle)
        if seen >= occurrence:
            return number
    return None


def _line_of_value(text: str, value: object, occurrence: int = 1, start: int = 1) -> int | None:
    """Line of a quoted string value (``"0105"``) or a bare value, searched as written."""
    if isinstance(value, str):
        for quote in ('"', "'"):
            line = _line_of(text, f"{quote}{value}{quote}", occurrence, start)
            if line is not None:
                return line
        return None
    return _line_of(text, str(value), occurrence, start)


def _line_of_key(text: str, key: str) -> int | None:
    pattern = re.compile(r"^\s*[\"']?" + re.escape(key) + r"[\"']?\s*=")
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return None


def _line_of_table(text: str, table: str) -> int | None:
    pattern = re.compile(r"^\s*\[\s*" + re.escape(table) + r"\s*\]")
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return None


_CACHE: dict = {}
_CACHE_SIZE = 32


class HexMap:
    """An immutable hex map (docs/maps.md).

    Attributes (read-only): ``name``, ``source`` (the file name or ``stand-in: ...`` text given
    to :func:`load_map`), ``columns`` and ``rows`` (hexes), ``offset`` (``"even-low"`` or
    ``"odd-low"``), ``default`` (terrain of unlisted hexes, or None), ``digest`` (hex sha256 of
    the map file's UTF-8 text). Hex arguments are four-digit labels; methods raise
    :class:`~pbem.boards.hexgrid.HexLabelError` for a malformed label and ``KeyError`` for a
    well-formed label that is off this map.
    """

    __slots__ = ("_name", "_source", "_columns", "_rows", "_offset", "_default", "_terrain",
                 "_groups", "_digest", "_labels", "_axial", "_at", "_neighbours", "_by_terrain",
                 "_map_source", "_as_dict")

    def __init__(self, *, name: str, source: str, columns: int, rows: int, offset: str,
                 default: str | None, terrain: Mapping[str, str],
                 groups: Mapping[str, Iterable[str]], digest: str, map_source: str = ""):
        hexgrid.check_offset(offset)
        self._as_dict = None
        self._name = name
        self._source = source
        self._map_source = map_source
        self._columns = columns
        self._rows = rows
        self._offset = offset
        self._default = default
        labels = tuple(f"{c:02d}{r:02d}"
                       for c in range(1, columns + 1) for r in range(1, rows + 1))
        self._labels = labels
        full = {}
        for label in labels:
            t = terrain.get(label, default)
            if t is None:
                raise ValueError(f"hex {label} has no terrain and the map has no default")
            full[label] = t
        self._terrain = MappingProxyType(full)
        self._groups = MappingProxyType({g: tuple(hexes) for g, hexes in groups.items()})
        self._digest = digest
        low_even = offset == "even-low"
        axial = {}
        for c in range(1, columns + 1):
            q = c - 1
            shift = (q - (q & 1)) // 2 if low_even else (q + (q & 1)) // 2
            for r in range(1, rows + 1):
                axial[f"{c:02d}{r:02d}"] = (q, r - 1 - shift)
        self._axial = axial
        self._at = {v: k for k, v in self._axial.items()}
        neighbours = {}
        for label, (q, r) in self._axial.items():
            out = []
            for d in DIRECTIONS:
                dq, dr = STEPS[d]
                other = self._at.get((q + dq, r + dr))
                if other is not None:
                    out.append(other)
            neighbours[label] = tuple(out)
        self._neighbours = neighbours
        by_terrain: dict[str, list[str]] = {}
        for label in labels:
            by_terrain.setdefault(full[label], []).append(label)
        self._by_terrain = {t: tuple(v) for t, v in by_terrain.items()}

    # -- read-only attributes -------------------------------------------------------------
    name = property(lambda self: self._name, doc="The map's name ([map] name).")
    source = property(lambda self: self._source,
                      doc="Where the map came from: the file name given to load_map.")
    map_source = property(lambda self: self._map_source,
                          doc="The [map] source text: where the drawing comes from "
                              "(rulebook, transcription, or 'stand-in: ...').")
    columns = property(lambda self: self._columns, doc="Number of columns (hexes).")
    rows = property(lambda self: self._rows, doc="Number of rows (hexes).")
    offset = property(lambda self: self._offset, doc="'even-low' or 'odd-low'.")
    default = property(lambda self: self._default, doc="Terrain of unlisted hexes, or None.")
    digest = property(lambda self: self._digest, doc="Hex sha256 of the map file's text.")

    @property
    def stand_in(self) -> bool:
        """True when the map says it is a stand-in (its ``source`` starts with ``stand-in``)."""
        return self._map_source.strip().lower().startswith("stand-in")

    # -- hexes ------------------------------------------------------------------------------
    def _key(self, label: str) -> str:
        if label in self._terrain:
            return label
        hexgrid.parse_label(label)  # raises HexLabelError for a malformed label
        raise KeyError(f"hex {label!r} is off the map ({self._columns:02d} columns, "
                       f"{self._rows:02d} rows)")

    def __contains__(self, label: object) -> bool:
        return label in self._terrain

    def labels(self) -> tuple[str, ...]:
        """Every hex of the map in label order (column by column, top to bottom)."""
        return self._labels

    def spaces(self) -> tuple[str, ...]:
        """The hexes of the map, as :meth:`labels` (the :class:`~pbem.boards.board.Board`
        protocol's name for them)."""
        return self._labels

    def label(self, space: str) -> str:
        """The text that names ``space`` in reports and orders: its four-digit label itself
        (:class:`~pbem.boards.board.Board`). Raises ``KeyError`` off the map."""
        return self._key(space)

    def terrain(self, label: str) -> str:
        """The terrain type of ``label``."""
        return self._terrain[self._key(label)]

    def hexes(self, terrain: str) -> tuple[str, ...]:
        """The hexes of one terrain type, in label order (empty when none)."""
        return self._by_terrain.get(terrain, ())

    def terrains(self) -> tuple[str, ...]:
        """The terrain types used on the map, sorted."""
        return tuple(sorted(self._by_terrain))

    def group(self, name: str) -> tuple[str, ...]:
        """The hexes of the named group, in the order the file lists them.

        Raises ``KeyError`` naming the group and the groups the map has."""
        try:
            return self._groups[name]
        except KeyError:
            raise KeyError(f"the map has no group {name!r} (it has: "
                           f"{', '.join(sorted(self._groups)) or 'none'})") from None

    def has_group(self, name: str) -> bool:
        """True when the map defines the named group."""
        return name in self._groups

    def groups(self) -> tuple[str, ...]:
        """The names of the map's groups, sorted."""
        return tuple(sorted(self._groups))

    # -- geometry ---------------------------------------------------------------------------
    def axial(self, label: str) -> tuple[int, int]:
        """Axial ``(q, r)`` of ``label`` (see :mod:`pbem.boards.hexgrid`)."""
        return self._axial[self._key(label)]

    def at_axial(self, q: int, r: int) -> str | None:
        """The label at axial ``(q, r)``, or None when that is off the map."""
        return self._at.get((q, r))

    def neighbours(self, label: str) -> tuple[str, ...]:
        """The hexes of this map next to ``label`` (2 to 6), in direction order n, ne, se, s,
        sw, nw."""
        return self._neighbours[self._key(label)]

    def neighbour_table(self) -> dict[str, tuple[str, ...]]:
        """``{label: neighbours(label)}`` for every hex of the map, for loops that ask for the
        neighbours of many hexes already known to be on the map (a path search); read-only."""
        return self._neighbours

    def adjacent(self, a: str, b: str) -> bool:
        """True when ``a`` and ``b`` are next to each other."""
        return b in self._neighbours[self._key(a)]

    def distance(self, a: str, b: str) -> int:
        """Hex steps from ``a`` to ``b`` on an open grid (the map edge does not lengthen it);
        0 when ``a == b``.

        This is range as Escape from Altassar 7.33 counts it: "by including the target unit's
        hex, but not the firing unit's hex", so an adjacent target is at range 1 and a unit of
        range 3 (7.31) reaches every hex with ``distance <= 3`` (:meth:`within`). Olympica 10.2
        counts the same way ("the hex adjacent to the attacker ... is counted as the first
        hex"). See docs/maps.md, "Straight lines and range"."""
        return hexgrid.axial_distance(self._axial[self._key(a)], self._axial[self._key(b)])

    def step(self, label: str, direction: str) -> str | None:
        """The hex one step from ``label`` in ``direction``, or None when that is off the map."""
        if direction not in STEPS:
            raise ValueError(
                f"unknown direction {direction!r}: expected one of {', '.join(DIRECTIONS)}")
        q, r = self._axial[self._key(label)]
        dq, dr = STEPS[direction]
        return self._at.get((q + dq, r + dr))

    def line(self, start: str, direction: str, n: int) -> tuple[str, ...]:
        """The hexes met going ``n`` steps from ``start`` in ``direction``, ``start`` excluded,
        in order; the line stops early at the map edge (so it may hold fewer than ``n``).
        The six directions are the straight lines of Altassar 14.2 (a Trip Net moves "up to
        eight hexes in a straight line in any one direction"); see
        :func:`pbem.boards.hexgrid.line` for the same line on an open grid."""
        if n < 0:
            raise ValueError(f"line length {n!r}: expected 0 or more hexes")
        out = []
        here = self._key(start)
        for _ in range(n):
            here = self.step(here, direction)
            if here is None:
                break
            out.append(here)
        return tuple(out)

    def within(self, label: str, n: int) -> tuple[str, ...]:
        """The hexes of this map at most ``n`` steps from ``label`` (itself included), in label
        order: the hexes a unit of range ``n`` in ``label`` can fire at (Altassar 7.33, see
        :meth:`distance`), or that a Signal Post exposes within two hexes (13.0)."""
        if n < 0:
            raise ValueError(f"radius {n!r}: expected 0 or more hexes")
        q0, r0 = self._axial[self._key(label)]
        out = []
        for dq in range(-n, n + 1):
            for dr in range(max(-n, -dq - n), min(n, -dq + n) + 1):
                other = self._at.get((q0 + dq, r0 + dr))
                if other is not None:
                    out.append(other)
        out.sort(key=hexgrid.label_key)
        return tuple(out)

    def ring(self, label: str, n: int) -> tuple[str, ...]:
        """The hexes of this map exactly ``n`` steps from ``label``, in label order: the ring a
        unit retreating two hexes must end on (Olympica 12.3: "any one of the ring formed at
        two hexes' distance from the retreating unit's original hex"); ``n`` = 0 gives
        ``label`` itself. At most ``6 * n`` hexes, fewer at the map's edges. Raises
        ``ValueError`` for a negative ``n`` and ``KeyError`` for a hex off the map."""
        return tuple(h for h in self.within(label, n) if self.distance(label, h) == n)

    def line_direction(self, a: str, b: str) -> str | None:
        """The direction of the straight line from ``a`` through ``b`` (so that ``b`` is the
        last hex of ``line(a, direction, distance(a, b))``), or None when ``a == b`` or no
        straight line joins them (Altassar 14.2: a Trip Net moves "in a straight line in any
        one direction"). Raises ``KeyError`` for a hex off the map."""
        return hexgrid.axial_line_direction(self._axial[self._key(a)], self._axial[self._key(b)])

    def is_low(self, label: str) -> bool:
        """True when ``label``'s column sits half a hex lower."""
        column, _ = hexgrid.parse_label(self._key(label))
        return hexgrid.is_low_column(column, self._offset)

    # -- serialisation ----------------------------------------------------------------------
    def to_dict(self) -> dict:
        """A JSON-able description that :meth:`from_dict` turns back into an equal map:
        ``{"name", "source", "map_source", "columns", "rows", "offset", "default", "digest",
        "terrain": {type: [labels]}, "groups": {name: [labels]}}`` (hexes of the default
        terrain are not listed). Built once and shared: treat it as read-only (game states dump
        it in every phase)."""
        if self._as_dict is not None:
            return self._as_dict
        terrain: dict[str, list[str]] = {}
        for label in self._labels:
            t = self._terrain[label]
            if t != self._default:
                terrain.setdefault(t, []).append(label)
        self._as_dict = {"name": self._name, "source": self._source,
                         "map_source": self._map_source, "columns": self._columns,
                         "rows": self._rows, "offset": self._offset, "default": self._default,
                         "digest": self._digest, "terrain": terrain,
                         "groups": {g: list(v) for g, v in self._groups.items()}}
        return self._as_dict

    @classmethod
    def from_dict(cls, d: Mapping) -> "HexMap":
        """The map described by :meth:`to_dict`'s output (trusted input: no file checks).

        Maps are immutable, so an equal map built before is returned again (a small cache keyed
        by the description), which keeps loading a saved game state cheap; the map's own
        :meth:`to_dict` output is recognised at once."""
        for m in _CACHE.values():
            if m._as_dict is d:
                return m
        key = (d["digest"], d["name"], d["source"], d.get("map_source", ""), d["columns"],
               d["rows"], d["offset"], d["default"],
               tuple((t, tuple(v)) for t, v in d["terrain"].items()),
               tuple((g, tuple(v)) for g, v in d["groups"].items()))
        cached = _CACHE.get(key)
        if cached is not None:
            return cached
        terrain = {label: t for t, labels in d["terrain"].items() for label in labels}
        made = cls(name=d["name"], source=d["source"], columns=d["columns"], rows=d["rows"],
                   offset=d["offset"], default=d["default"], terrain=terrain,
                   groups=d["groups"], digest=d["digest"], map_source=d.get("map_source", ""))
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = made
        return made

    def __copy__(self) -> "HexMap":
        return self

    def __deepcopy__(self, memo) -> "HexMap":
        return self  # immutable: a copy may share it

    def __reduce__(self):
        return (HexMap.from_dict, (self.to_dict(),))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HexMap):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash((self._digest, self._columns, self._rows, self._offset))

    def __repr__(self) -> str:
        return (f"HexMap(name={self._name!r}, columns={self._columns}, rows={self._rows}, "
                f"offset={self._offset!r}, digest={self._digest[:12]}...)")


def load_map(text: str, source: str) -> HexMap:
    """Read a TOML map file (docs/maps.md) and return its :class:`HexMap`.

    ``text`` is the file's text, ``source`` its name for messages (and ``HexMap.source``).
    Raises :class:`MapError` (naming ``source``, the line, and what was expected) for: TOML
    syntax errors, unknown tables or ``[map]`` keys, missing or non-integer ``columns``/``rows``
    (1 to 99), an unknown ``offset``, a bad terrain or group name, a malformed label, a hex off
    the map, a hex given two terrains (or listed twice), a hex listed twice in one group, and a
    hex left without terrain when there is no ``default``.
    """
    import tomllib  # only when a map file is read (keeps importing pbem.boards light)

    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        match = re.search(r"line (\d+)", str(err))
        line = int(match.group(1)) if match else None
        raise MapError(source, line, f"not valid TOML: {err}") from None

    def fail(why: str, line: int | None = None):
        raise MapError(source, line, why)

    for table in doc:
        if table not in _TABLES:
            fail(f"unknown table [{table}]: a map file has the tables [map], [terrain] and "
                 f"[groups]", _line_of_table(text, table) or _line_of_key(text, table))
    head = doc.get("map")
    if not isinstance(head, dict):
        fail("no [map] table: expected [map] with columns, rows, offset and default")
    for key in head:
        if key not in _MAP_KEYS:
            fail(f"unknown key {key!r} in [map]: expected {', '.join(sorted(_MAP_KEYS))}",
                 _line_of_key(text, key))
    size = {}
    for key in ("columns", "rows"):
        if key not in head:
            fail(f"[map] has no {key}: expected {key} = a whole number from 1 to "
                 f"{hexgrid.MAX_INDEX}", _line_of_table(text, "map"))
        value = head[key]
        if not isinstance(value, int) or isinstance(value, bool) or not (
                1 <= value <= hexgrid.MAX_INDEX):
            fail(f"[map] {key} = {value!r}: expected a whole number from 1 to "
                 f"{hexgrid.MAX_INDEX}", _line_of_key(text, key))
        size[key] = value
    offset = head.get("offset", hexgrid.DEFAULT_OFFSET)
    if offset not in hexgrid.OFFSETS:
        fail(f"unknown offset {offset!r}: expected \"even-low\" (even columns half a hex lower) "
             f"or \"odd-low\"", _line_of_key(text, "offset"))
    for key in ("name", "source"):
        if key in head and not isinstance(head[key], str):
            fail(f"[map] {key} = {head[key]!r}: expected a quoted string", _line_of_key(text, key))
    default = head.get("default")
    if default is not None and (not isinstance(default, str) or not _NAME.match(default)):
        fail(f"[map] default = {default!r}: expected a terrain name such as \"sea\" (lower-case "
             f"letters, digits, '-' or '_')", _line_of_key(text, "default"))
    columns, rows = size["columns"], size["rows"]

    def check_label(value: object, where: str) -> str:
        if not isinstance(value, str):
            fail(f"{where}: {value!r} is not a hex label: expected a quoted four-digit label such "
                 f"as \"0504\"", _line_of_value(text, value))
        try:
            column, row = hexgrid.parse_label(value)
        except HexLabelError as err:
            fail(f"{where}: {err}", _line_of_value(text, value))
        if column > columns or row > rows:
            fail(f"{where}: hex {value!r} is off the map: expected columns 01-{columns:02d} and "
                 f"rows 01-{rows:02d}", _line_of_value(text, value))
        return value

    terrain: dict[str, str] = {}
    counts: dict[str, int] = {}
    table = doc.get("terrain", {})
    if not isinstance(table, dict):
        fail("[terrain] must be a table of terrain type = [hex labels]",
             _line_of_key(text, "terrain"))
    for kind, labels in table.items():
        if not _NAME.match(kind):
            fail(f"[terrain] bad terrain name {kind!r}: expected lower-case letters, digits, '-' "
                 f"or '_', starting with a letter", _line_of_key(text, kind))
        if not isinstance(labels, list):
            fail(f"[terrain] {kind} = {labels!r}: expected a list of hex labels such as "
                 f"[\"0101\", \"0102\"]", _line_of_key(text, kind))
        for value in labels:
            label = check_label(value, f"[terrain] {kind}")
            counts[label] = counts.get(label, 0) + 1
            if label in terrain:
                line = _line_of_value(text, label, counts[label],
                                      _line_of_table(text, "terrain") or 1)
                if terrain[label] == kind:
                    fail(f"[terrain] hex {label!r} is listed twice as {kind}: expected each hex "
                         f"once", line)
                fail(f"[terrain] hex {label!r} is given two terrains, {terrain[label]} and "
                     f"{kind}: expected one terrain per hex", line)
            terrain[label] = kind
    if default is None:
        for c in range(1, columns + 1):
            for r in range(1, rows + 1):
                label = hexgrid.format_label(c, r)
                if label not in terrain:
                    fail(f"hex {label!r} has no terrain and [map] has no default: list it under "
                         f"[terrain] or set default = \"sea\" (say)", _line_of_table(text, "map"))
    groups: dict[str, list[str]] = {}
    table = doc.get("groups", {})
    if not isinstance(table, dict):
        fail("[groups] must be a table of group name = [hex labels]",
             _line_of_key(text, "groups"))
    for name, labels in table.items():
        if not _NAME.match(name):
            fail(f"[groups] bad group name {name!r}: expected lower-case letters, digits, '-' or "
                 f"'_', starting with a letter", _line_of_key(text, name))
        if not isinstance(labels, list):
            fail(f"[groups] {name} = {labels!r}: expected a list of hex labels",
                 _line_of_key(text, name))
        seen: set[str] = set()
        for value in labels:
            label = check_label(value, f"[groups] {name}")
            if label in seen:
                fail(f"[groups] {name}: hex {label!r} is listed twice: expected each hex once",
                     _line_of_value(text, label, 2, _line_of_key(text, name) or 1))
            seen.add(label)
        groups[name] = list(labels)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return HexMap(name=head.get("name", source), source=source, columns=columns, rows=rows,
                  offset=offset, default=default, terrain=terrain, groups=groups,
                  digest=digest, map_source=head.get("source", ""))
