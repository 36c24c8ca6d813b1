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

from typing import Callable

from . import hexgrid
from .hexmap import HexMap


def ascii_map(hexmap: HexMap, cell: Callable[[str], str], width: int = 4) -> str:
    """Draw ``hexmap`` as text, each hex's cell given by ``cell(label)``.

    Returns the drawing as lines joined by ``"\\n"`` (with no trailing spaces and a final
    newline). Raises ``ValueError`` when ``width`` is below 2 or when ``cell`` returns text that
    is not ASCII, holds a line break, or is longer than ``width`` (the message quotes the label
    and the text).
    """
    if width < 2:
        raise ValueError(f"cell width {width!r}: expected at least 2 characters (a column "
                         f"number needs two)")
    slot = width + 1
    margin = 4  # "01  "
    header = [" "] * (margin + slot * hexmap.columns)
    for c in range(1, hexmap.columns + 1):
        text = f"{c:02d}"
        start = margin + (c - 1) * slot + (width - 2) // 2
        header[start:start + 2] = text
    lines = ["".join(header).rstrip()]
    low = {c: hexgrid.is_low_column(c, hexmap.offset) for c in range(1, hexmap.columns + 1)}
    for r in range(1, hexmap.rows + 1):
        for lower in (False, True):
            row = [" "] * (margin + slot * hexmap.columns)
            if not lower:
                row[0:2] = f"{r:02d}"
            for c in range(1, hexmap.columns + 1):
                if low[c] != lower:
                    continue
                label = hexgrid.format_label(c, r)
                text = cell(label)
                if not isinstance(text, str):
                    raise ValueError(f"cell for {label}: {text!r} is not a string")
                if not text.isascii() or "\n" in text or "\r" in text or len(text) > width:
                    raise ValueError(f"cell for {label}: {text!r} must be at most {width} ASCII "
                                     f"characters on one line")
                start = margin + (c - 1) * slot
                row[start:start + len(text)] = text
            line = "".join(row).rstrip()
            lines.append(line)
    return "\n".join(lines) + "\n"
