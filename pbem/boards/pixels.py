"""Pixel geometry of a hex map, for drawing it as SVG (the report layer draws; this computes).

Flat-topped hexes of circumradius ``size`` (pixels): a hex is ``2 * size`` wide and
``sqrt(3) * size`` high; columns are ``1.5 * size`` apart; the lower-sitting columns (the map's
offset) are shifted down by half a hex height. The origin is the top-left corner of the map's
bounding box, x to the right, y down (SVG's convention), so hex 0101 of an ``even-low`` map has
its centre at ``(size, sqrt(3)/2 * size)``.
"""

from __future__ import annotations

import math

from . import hexgrid
from .hexmap import HexMap

SQRT3 = math.sqrt(3.0)


def hex_center(hexmap: HexMap, label: str, size: float) -> tuple[float, float]:
    """Centre ``(x, y)`` in pixels of hex ``label`` drawn with circumradius ``size``.

    Raises ``KeyError`` for a hex off the map and ``ValueError`` when ``size`` is not positive.
    """
    if not size > 0:
        raise ValueError(f"hex size {size!r}: expected a positive number of pixels")
    if label not in hexmap:
        hexmap.terrain(label)  # raises the map's own error for a bad or off-map label
    column, row = hexgrid.parse_label(label)
    x = size * (1.0 + 1.5 * (column - 1))
    y = SQRT3 * size * (row - 0.5 + (0.5 if hexgrid.is_low_column(column, hexmap.offset) else 0.0))
    return x, y


def hex_corners(hexmap: HexMap, label: str, size: float) -> list[tuple[float, float]]:
    """The six corners of hex ``label`` in pixels, clockwise (in SVG's y-down space) from the
    right-hand corner: east, south-east, south-west, west, north-west, north-east."""
    cx, cy = hex_center(hexmap, label, size)
    corners = []
    for i in range(6):
        angle = math.radians(60 * i)
        corners.append((cx + size * math.cos(angle), cy + size * math.sin(angle)))
    return corners


def map_size(hexmap: HexMap, size: float) -> tuple[float, float]:
    """Width and height in pixels of the box holding every hex of ``hexmap`` (for an SVG
    ``viewBox``)."""
    if not size > 0:
        raise ValueError(f"hex size {size!r}: expected a positive number of pixels")
    width = size * (2.0 + 1.5 * (hexmap.columns - 1))
    any_low = any(hexgrid.is_low_column(c, hexmap.offset) for c in range(1, hexmap.columns + 1))
    height = SQRT3 * size * (hexmap.rows + (0.5 if any_low else 0.0))
    return width, height
