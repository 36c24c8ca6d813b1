"""Hex labels and hex geometry in the wargame convention, independent of any one map.

Hexes are named by four-digit column-row labels: ``"0504"`` is column 5, row 4, both counted
from 1 at the top-left corner of the map. Hexes are flat-topped and stand in vertical columns;
every other column sits half a hex lower than its neighbours. Which columns sit lower is the
map's *offset* (docs/maps.md):

- ``"even-low"`` (the default): even-numbered columns (02, 04, ...) sit half a hex lower;
- ``"odd-low"``: odd-numbered columns (01, 03, ...) sit half a hex lower.

Inside, labels are converted to axial coordinates ``(q, r)`` (q = column - 1; r chosen so that
the six neighbours of ``(q, r)`` are ``(q, r) + d`` for the six steps in :data:`STEPS`), and the
distance between two hexes is the cube distance ``(|dq| + |dr| + |dq + dr|) / 2``. The
conversion is the "offset coordinates" one of Amit Patel's *Hexagonal Grids* (Red Blob Games):
with 1-based columns, ``even-low`` is his "odd-q" layout and ``odd-low`` his "even-q".

Functions here know nothing of a map's size: they accept any column and row from 1 to 99
(what four digits can name). :class:`pbem.boards.hexmap.HexMap` limits them to its own hexes.
"""

from __future__ import annotations

import re

OFFSETS = ("even-low", "odd-low")
"""The two column offsets a map may use (docs/maps.md, ``offset``)."""

DEFAULT_OFFSET = "even-low"

DIRECTIONS = ("n", "ne", "se", "s", "sw", "nw")
"""The six directions out of a flat-topped hex, clockwise from north (up the page)."""

STEPS = {
    "n": (0, -1),
    "ne": (1, -1),
    "se": (1, 0),
    "s": (0, 1),
    "sw": (-1, 1),
    "nw": (-1, 0),
}
"""Axial ``(dq, dr)`` of one step in each direction."""

MAX_INDEX = 99
"""The largest column or row number a four-digit label can name."""

_LABEL = re.compile(r"^[0-9]{4}$")


class HexLabelError(ValueError):
    """A hex label that is not four digits naming column and row from 01 to 99 (``"0504"``),
    or an offset that is not one of :data:`OFFSETS`. The message quotes the input."""


def parse_label(label: str) -> tuple[int, int]:
    """Return ``(column, row)`` (both 1-based) of a four-digit label such as ``"0504"`` -> (5, 4).

    Raises :class:`HexLabelError` quoting the input when it is not a string of exactly four
    digits, or when its column or row is 00.
    """
    if not isinstance(label, str) or not _LABEL.match(label):
        raise HexLabelError(
            f"bad hex label {label!r}: expected four digits, column then row, such as '0504'")
    column, row = int(label[:2]), int(label[2:])
    if column < 1 or row < 1:
        raise HexLabelError(
            f"bad hex label {label!r}: columns and rows are numbered from 01, so '00' names no hex")
    return column, row


def format_label(column: int, row: int) -> str:
    """Return the four-digit label of 1-based ``column`` and ``row``: (5, 4) -> ``"0504"``.

    Raises :class:`HexLabelError` when either is outside 1..99.
    """
    if not (1 <= column <= MAX_INDEX and 1 <= row <= MAX_INDEX):
        raise HexLabelError(
            f"column {column!r}, row {row!r} cannot be labelled: both must be 1 to {MAX_INDEX}")
    return f"{column:02d}{row:02d}"


def is_label(text: str) -> bool:
    """True when ``text`` is a valid four-digit hex label (see :func:`parse_label`)."""
    try:
        parse_label(text)
    except HexLabelError:
        return False
    return True


def check_offset(offset: str) -> str:
    """Return ``offset`` if it is one of :data:`OFFSETS`; else raise :class:`HexLabelError`."""
    if offset not in OFFSETS:
        raise HexLabelError(f"unknown offset {offset!r}: expected one of {', '.join(OFFSETS)}")
    return offset


def is_low_column(column: int, offset: str = DEFAULT_OFFSET) -> bool:
    """True when 1-based ``column`` sits half a hex lower under ``offset``."""
    if offset == "even-low":
        return column % 2 == 0
    check_offset(offset)
    return column % 2 == 1


def to_axial(label: str, offset: str = DEFAULT_OFFSET) -> tuple[int, int]:
    """Axial coordinates ``(q, r)`` of ``label`` under ``offset`` (see the module docstring).

    Raises :class:`HexLabelError` for a bad label or offset.
    """
    column, row = parse_label(label)
    q, row0 = column - 1, row - 1
    if offset == "even-low":
        return q, row0 - (q - (q & 1)) // 2
    check_offset(offset)
    return q, row0 - (q + (q & 1)) // 2


def from_axial(q: int, r: int, offset: str = DEFAULT_OFFSET) -> str | None:
    """The label of axial ``(q, r)`` under ``offset``, or None when its column or row falls
    outside 1..99 (no four-digit label names it)."""
    if offset == "even-low":
        row0 = r + (q - (q & 1)) // 2
    else:
        check_offset(offset)
        row0 = r + (q + (q & 1)) // 2
    column, row = q + 1, row0 + 1
    if 1 <= column <= MAX_INDEX and 1 <= row <= MAX_INDEX:
        return f"{column:02d}{row:02d}"
    return None


def axial_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex distance (steps) between axial coordinates ``a`` and ``b``."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def distance(a: str, b: str, offset: str = DEFAULT_OFFSET) -> int:
    """The number of hex steps from ``a`` to ``b`` (0 when equal), ignoring any map edge.

    Raises :class:`HexLabelError` for a bad label or offset.
    """
    return axial_distance(to_axial(a, offset), to_axial(b, offset))


def step(label: str, direction: str, offset: str = DEFAULT_OFFSET) -> str | None:
    """The hex one step from ``label`` in ``direction`` (one of :data:`DIRECTIONS`), or None
    when that hex has no four-digit label. Raises :class:`HexLabelError` for a bad label or
    offset and ``ValueError`` for an unknown direction."""
    if direction not in STEPS:
        raise ValueError(
            f"unknown direction {direction!r}: expected one of {', '.join(DIRECTIONS)}")
    q, r = to_axial(label, offset)
    dq, dr = STEPS[direction]
    return from_axial(q + dq, r + dr, offset)


def neighbours(label: str, offset: str = DEFAULT_OFFSET) -> list[str]:
    """The labelled hexes next to ``label``, in :data:`DIRECTIONS` order (n, ne, se, s, sw, nw),
    skipping those with column or row outside 1..99. No map edge is applied here."""
    q, r = to_axial(label, offset)
    out = []
    for d in DIRECTIONS:
        dq, dr = STEPS[d]
        other = from_axial(q + dq, r + dr, offset)
        if other is not None:
            out.append(other)
    return out


def direction_between(a: str, b: str, offset: str = DEFAULT_OFFSET) -> str | None:
    """The direction of the step from ``a`` to the adjacent hex ``b``, or None when they are
    not adjacent."""
    qa, ra = to_axial(a, offset)
    qb, rb = to_axial(b, offset)
    for d, (dq, dr) in STEPS.items():
        if (qa + dq, ra + dr) == (qb, rb):
            return d
    return None


def label_key(label: str) -> tuple[int, int]:
    """Sort key giving "label order": by column, then by row (the order of the labels as
    numbers, ``0101 < 0102 < ... < 0201``)."""
    return parse_label(label)


def line(label: str, direction: str, length: int, offset: str = DEFAULT_OFFSET) -> list[str]:
    """The hexes entered going ``length`` steps from ``label`` in ``direction`` (one of
    :data:`DIRECTIONS`), in the order entered, the starting hex excluded; the line stops early
    where a step would leave the four-digit labels (column or row outside 1..99), so it may
    hold fewer than ``length`` hexes. No map edge is applied here (see
    :meth:`pbem.boards.hexmap.HexMap.line` for that).

    This is the straight line of Escape from Altassar 14.2 (Trip Nets are launched "up to eight
    hexes in a straight line in any one direction"): on a flat-topped grid the six directions
    are the only straight lines through hex centres. Going ``"s"`` (or ``"n"``) stays in one
    column; the four diagonal directions change column at every step and change row every
    other step, as the columns' half-hex offset dictates (docs/maps.md, "Straight lines and
    range").

    Raises :class:`HexLabelError` for a bad label or offset and ``ValueError`` for an unknown
    direction or a negative (or non-integer) ``length``.
    """
    if direction not in STEPS:
        raise ValueError(
            f"unknown direction {direction!r}: expected one of {', '.join(DIRECTIONS)}")
    if not isinstance(length, int) or isinstance(length, bool) or length < 0:
        raise ValueError(f"line length {length!r}: expected a whole number of hexes, 0 or more")
    q, r = to_axial(label, offset)
    dq, dr = STEPS[direction]
    out: list[str] = []
    for k in range(1, length + 1):
        other = from_axial(q + k * dq, r + k * dr, offset)
        if other is None:
            break
        out.append(other)
    return out


def axial_line_direction(a: tuple[int, int], b: tuple[int, int]) -> str | None:
    """The direction in which axial ``b`` lies on a straight line from axial ``a`` (``b`` is
    ``k`` steps of that direction away, ``k >= 1``), or None when ``a == b`` or ``b`` is on
    none of the six lines through ``a``."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    if dq == 0 and dr == 0:
        return None
    k = axial_distance(a, b)
    for d in DIRECTIONS:
        sq, sr = STEPS[d]
        if (dq, dr) == (k * sq, k * sr):
            return d
    return None


def line_direction(a: str, b: str, offset: str = DEFAULT_OFFSET) -> str | None:
    """The direction (one of :data:`DIRECTIONS`) of the straight line from ``a`` that passes
    through ``b``, or None when ``a == b`` or no straight line joins them. When it is not
    None, ``b`` is the last hex of ``line(a, direction, distance(a, b), offset)``; an order
    such as "launch the trip net from 0504 to 0508" (Altassar 14.2) can be checked with it.

    Raises :class:`HexLabelError` for a bad label or offset.
    """
    return axial_line_direction(to_axial(a, offset), to_axial(b, offset))
