"""Hex geometry shared by the hex games (Atlantis, Altassar, Olympica): labels, neighbours,
distances, straight lines, map files, cheapest paths, and text and pixel drawings.

- :mod:`pbem.boards.hexgrid`: four-digit labels and the geometry of an open hex grid,
  straight lines (:func:`line`, :func:`line_direction`).
- :mod:`pbem.boards.hexmap`: :class:`HexMap` and :func:`load_map` (the TOML format of
  docs/maps.md), :class:`MapError`.
- :mod:`pbem.boards.paths`: :func:`path_cost`, :func:`cheapest_path`, :func:`reachable`.
- :mod:`pbem.boards.textmap`: :func:`ascii_map` for plain-text mail.
- :mod:`pbem.boards.pixels`: :func:`hex_center`, :func:`hex_corners`, :func:`map_size` for SVG.
- :mod:`pbem.boards.counters`: :class:`CounterType`, :class:`Counter`, :class:`StackingRule`.
"""

from .counters import Counter, CounterError, CounterType, StackingDataError, StackingRule
from .hexgrid import (DIRECTIONS, OFFSETS, HexLabelError, distance, format_label, is_label,
                      label_key, line, line_direction, neighbours, parse_label)
from .hexmap import HexMap, MapError, load_map
from .paths import cheapest_path, path_cost, reachable
from .pixels import hex_center, hex_corners, map_size
from .textmap import ascii_map

__all__ = [
    "DIRECTIONS", "OFFSETS", "Counter", "CounterError", "CounterType", "HexLabelError",
    "HexMap", "MapError", "StackingDataError", "StackingRule", "ascii_map", "cheapest_path",
    "distance", "format_label", "hex_center", "hex_corners", "is_label", "label_key", "line",
    "line_direction", "load_map", "map_size", "neighbours", "parse_label", "path_cost",
    "reachable",
]
