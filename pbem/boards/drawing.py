"""What a ruleset draws: the value a ruleset's ``draw(view)`` returns, and the plain-text map
made from it.

A ruleset says how a reader's view looks on its board once, as a :class:`Drawing`; the text map
of the mail reports (:func:`text_map`) and the SVG map of the HTML reports
(:func:`pbem.reports.svgmap.svg_context`) are both drawn from it, by code that knows no game.
Everything in a Drawing comes from the view it was drawn from, so the maps show exactly what
the view shows.

- :class:`Piece`: one mark in a space of the SVG map: a short text (``"B2"``, ``"M3"``), a
  tooltip fragment and an optional CSS class (a colour role).
- :class:`Space`: one space (hex): its terrain (a fill class, looked up in
  :attr:`Drawing.fills`), its cell in the text map, a tooltip, and its pieces.
- :class:`Drawing`: the board, the spaces by label, the fill of each terrain class, the legend
  and the notes printed under the text map.

The text map and the SVG map summarise a space differently (a text cell is a few ASCII
characters, an SVG hex holds two lines of marks and a tooltip), so a Space carries both its
text cell and its pieces; the ruleset decides both in one place.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = [
    "UNKNOWN_FILL",
    "Drawing",
    "DrawingError",
    "Piece",
    "Space",
    "plain_space",
    "remember_last",
    "text_map",
]

UNKNOWN_FILL = "#ddd"
"""Fill of a space whose terrain class has no entry in :attr:`Drawing.fills`."""

_CLASS = re.compile(r"[a-z][a-z0-9-]*\Z")
_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})\Z")


class DrawingError(ValueError):
    """A Drawing that no map can show: a bad CSS class or colour, a text cell that is not
    short ASCII on one line, a space not on the board. The message names the space."""


@dataclass(frozen=True)
class Piece:
    """One mark drawn in a space of the SVG map.

    ``text`` is what the map writes (a few characters: ``"B2"``, ``"r2 g1"``, ``"^"``);
    ``title`` is this piece's part of the space's tooltip (``"ship2 (red1)"``); ``role`` is a
    CSS class for the mark (lower case letters, digits and ``-``; ``""`` for none), which a
    style sheet may colour.
    """

    text: str
    title: str = ""
    role: str = ""

    def __post_init__(self):
        if self.role and not _CLASS.match(self.role):
            raise DrawingError(f"piece {self.text!r}: role {self.role!r} is not a CSS class "
                               f"(lower case letters, digits and '-', starting with a letter)")


@dataclass(frozen=True)
class Space:
    """One space of a Drawing.

    ``terrain`` is its fill class (a key of :attr:`Drawing.fills`); ``text`` its cell in the
    text map (ASCII, on one line, at most :attr:`Drawing.text_width` characters; ``""`` leaves
    it blank); ``title`` the start of its tooltip (``"forest"``), which the pieces' titles
    follow; ``pieces`` what stands there, in drawing order.
    """

    terrain: str = ""
    text: str = ""
    title: str = ""
    pieces: tuple[Piece, ...] = ()

    def tooltip(self) -> str:
        """The space's title and its pieces' titles, joined by ``"; "`` (empty parts left
        out)."""
        parts = [self.title] + [p.title for p in self.pieces]
        return "; ".join(p for p in parts if p)

    def marks(self) -> list[tuple[str, str]]:
        """``(text, role)`` of each line the SVG map writes in the space: one per piece with a
        text, but at most two lines, the second holding every piece after the first (its role
        kept only when those pieces share one)."""
        shown = [(p.text, p.role) for p in self.pieces if p.text]
        if len(shown) > 2:
            rest = shown[1:]
            roles = {r for _, r in rest}
            shown = [shown[0], (" ".join(t for t, _ in rest), roles.pop() if len(roles) == 1
                                else "")]
        return shown


_BLANK = Space()


@functools.lru_cache(maxsize=4096)
def plain_space(terrain: str, text: str = "", title: str = "") -> Space:
    """The :class:`Space` with no pieces of that terrain, text and title, built once: most
    spaces of a board are plain, and look the same in every view."""
    return Space(terrain, text, title)


@dataclass(frozen=True)
class Drawing:
    """How one reader's view looks on the game's board: what a ruleset's ``draw(view)`` returns.

    - ``board``: the board drawn on (a :class:`pbem.boards.hexmap.HexMap` for the SVG map;
      any :class:`pbem.boards.board.Board` for the text map).
    - ``spaces``: a :class:`Space` by board label; a label without one is drawn blank
      (terrain ``""``, no text, no pieces).
    - ``fills``: the SVG colour (``#rgb`` or ``#rrggbb``) of each terrain class; a class
      without one is drawn :data:`UNKNOWN_FILL`.
    - ``legend``: lines of text explaining the cells and marks, printed under the text map.
    - ``notes``: further lines printed after the legend (the pieces by space, the hands...),
      already laid out by the ruleset (no line break inside a line).
    - ``text_width``: the characters of one cell of the text map (at least 2).
    """

    board: Any
    spaces: Mapping[str, Space] = field(default_factory=dict)
    fills: Mapping[str, str] = field(default_factory=dict)
    legend: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    text_width: int = 4

    def __post_init__(self):
        object.__setattr__(self, "spaces", MappingProxyType(dict(self.spaces)))
        object.__setattr__(self, "fills", MappingProxyType(dict(self.fills)))
        object.__setattr__(self, "legend", tuple(self.legend))
        object.__setattr__(self, "notes", tuple(self.notes))
        for terrain, colour in self.fills.items():
            if not isinstance(colour, str) or not _COLOUR.match(colour):
                raise DrawingError(f"fill of terrain {terrain!r}: {colour!r} is not a colour "
                                   f"#rgb or #rrggbb")
        for line in self.legend + self.notes:
            if "\n" in line or "\r" in line:
                raise DrawingError(f"legend or note line {line!r} holds a line break: give "
                                   f"one line per entry")
        if self.text_width < 2:
            raise DrawingError(f"text width {self.text_width!r}: expected at least 2")

    def space(self, label: str) -> Space:
        """The :class:`Space` drawn at ``label`` (a blank one when the ruleset gave none)."""
        return self.spaces.get(label, _BLANK)

    def fill(self, label: str) -> str:
        """The SVG colour of the space at ``label``, from its terrain class."""
        return self.fills.get(self.space(label).terrain, UNKNOWN_FILL)

    def cell(self, label: str) -> str:
        """The text-map cell of ``label`` (checked by :func:`text_map`, not here)."""
        return self.spaces.get(label, _BLANK).text


def text_map(drawing: Drawing) -> str:
    """The plain-text map of ``drawing`` for mail bodies: the board (a hex map drawn by
    :func:`pbem.boards.textmap.ascii_map`, any other board as one ``label text`` line per space
    with a text), a blank line, the legend, then the notes. Every line ends with ``"\\n"``.
    Raises DrawingError for a bad cell."""
    from .hexmap import HexMap
    from .textmap import ascii_map

    board = drawing.board
    if isinstance(board, HexMap):
        try:
            top = ascii_map(board, drawing.cell, width=drawing.text_width)
        except ValueError as e:
            raise DrawingError(str(e)) from None
    else:
        rows = []
        for space in board.spaces():
            label = board.label(space)
            text = drawing.cell(label)
            if not text:
                continue
            if not text.isascii() or "\n" in text or "\r" in text \
                    or len(text) > drawing.text_width:
                raise DrawingError(f"cell for {label}: {text!r} must be at most "
                                   f"{drawing.text_width} ASCII characters on one line")
            rows.append(f"{label} {text}\n")
        top = "".join(rows)
    return top + "\n" + "\n".join(drawing.legend + drawing.notes) + "\n"


def remember_last(draw):
    """Decorator for a ruleset's ``draw(view)``: the last view drawn and its Drawing are
    remembered, so the text map and the SVG map of one reader's report (drawn from the same
    view object, one after the other) cost one drawing. A view is a value: it must not be
    changed after it is drawn (a changed copy is a new object and is drawn afresh)."""
    last: list = [None]

    @functools.wraps(draw)
    def remembered(view):
        memo = last[0]
        if memo is not None and memo[0] is view:
            return memo[1]
        drawing = draw(view)
        last[0] = (view, drawing)
        return drawing

    return remembered
