"""A plain-text drawing of a hex map for mail bodies (ASCII only, monospace-safe).

Layout (``width`` = 4, offset ``even-low``: even columns sit half a hex lower)::

         01   02   03   04
    01  aaaa      cccc
             bbbb      dddd
    02  aaaa      cccc
             bbbb      dddd

Column numbers run along the top; each map row takes two text lines, the first holding the
cells of the upper-sitting columns and the second those of the lower-sitting columns, so every
hex is drawn half a line below its upper neighbours, as on the printed map. The row number
stands at the left of the row's first line. Each cell is ``width`` characters, produced by
``cell(label)`` and left-justified; columns are ``width + 1`` characters apart.
"""

from __future__ import annotations

import functools
from itertools import repeat
from typing import Callable

from . import hexgrid
from .hexmap import HexMap


def ascii_map(hexmap: HexMap, cell: Callable[[str], str], width: int = 4) -> str:
    """Draw ``hexmap`` as text, each hex's cell given by ``cell(label)``.

    Returns the drawing as lines joined by ``"\\n"`` (with no trailing spaces and a final
    newline). A ``width`` of 1 (a wide map in a mail line) writes each column number on two
    header lines, its tens above its units. Raises ``ValueError`` when ``width`` is below 1 or
    when ``cell`` returns text that
    is not ASCII, holds a line break, or is longer than ``width`` (the message quotes the label
    and the text). The layout of a map (which hexes share a text line, where each cell starts)
    is made once per map shape and width (:func:`_layout`); a call only fills in the cells.
    """
    if width < 1:
        raise ValueError(f"cell width {width!r}: expected at least 1 character")
    header, rows = _layout(hexmap.columns, hexmap.rows, hexmap.offset, width)
    lines = [header]
    good = _GOOD.setdefault(width, set())  # cells already checked (a map uses a few dozen)
    if len(good) > 4096:
        good.clear()
    for lead, gap, labels in rows:
        texts = list(map(cell, labels))
        for label, text in zip(labels, texts):
            if text.__class__ is not str or text not in good:
                good.add(_checked(label, text, width))
        lines.append((lead + "".join(map(str.ljust, texts, repeat(gap)))).rstrip())
    return "\n".join(lines) + "\n"


_GOOD: dict[int, set] = {}
"""``{width: cell texts found good}`` (:func:`_checked`), so each is checked once."""


def _checked(label: str, text, width: int) -> str:
    """``text``, the cell of ``label``, if it is at most ``width`` ASCII characters on one line;
    else ValueError quoting both."""
    if not isinstance(text, str):
        raise ValueError(f"cell for {label}: {text!r} is not a string")
    if len(text) > width or not text.isascii() or "\n" in text or "\r" in text:
        raise ValueError(f"cell for {label}: {text!r} must be at most {width} ASCII "
                         f"characters on one line")
    return text


@functools.lru_cache(maxsize=64)
def _layout(columns: int, rows: int, offset: str, width: int) -> tuple:
    """``(header, [(lead, gap, labels)])`` of a map's text: the header line of column numbers;
    then per text line (two per map row: its upper-sitting hexes, then its lower-sitting ones)
    the text before its first cell (the row number or blanks, and the margin up to the first
    cell), the distance from one cell's start to the next (characters) and the labels of its
    hexes from left to right. Cells on one text line are every other column (the columns
    alternate between sitting high and low: hexgrid.is_low_column), two slots apart."""
    slot = width + 1
    margin = 4  # "01  "
    header = [" "] * (margin + slot * columns)
    units = [" "] * (margin + slot * columns)
    for c in range(1, columns + 1):
        start = margin + (c - 1) * slot + max(0, (width - 2) // 2)
        if width >= 2:
            header[start:start + 2] = f"{c:02d}"
        else:  # one character a column: the tens above the units
            header[start], units[start] = f"{c:02d}"
    if width < 2:
        header = list("".join(header).rstrip() + "\n" + "".join(units))
    low = {c: hexgrid.is_low_column(c, offset) for c in range(1, columns + 1)}
    out = []
    for r in range(1, rows + 1):
        for lower in (False, True):
            cols = [c for c in range(1, columns + 1) if low[c] == lower]
            row_no = f"{r:02d}" if not lower else "  "
            if not cols:  # a one-column map has no lower-sitting line's hexes
                out.append((row_no, 1, ()))
                continue
            lead = row_no.ljust(margin + (cols[0] - 1) * slot)
            labels = tuple(hexgrid.format_label(c, r) for c in cols)
            out.append((lead, 2 * slot, labels))
    return "".join(header).rstrip(), tuple(out)
