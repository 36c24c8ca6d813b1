"""What a ruleset draws: the value a ruleset's ``draw(view)`` returns, and the plain-text map
made from it.

A ruleset says how a reader's view looks on its board once, as a :class:`Drawing`; the text map
of the mail reports (:func:`text_map`) and the SVG map of the HTML reports
(:func:`pbem.reports.svgmap.svg_context`) are both drawn from it, by code that knows no game.
Everything in a Drawing comes from the view it was drawn from, so the maps show exactly what
the view shows.

- :class:`Piece`: one counter in a space of the SVG map: a short text (``"B2"``, ``"M3"``), a
  tooltip fragment, an optional CSS class, and how the counter looks (its side's colour, a
  face-up symbol and printed values, or a face-down back with its public id).
- :class:`Space`: one space (hex, square): its terrain (a fill class, looked up in
  :attr:`Drawing.fills`), its cell in the text map, a tooltip, its pieces and an optional
  special mark (:attr:`Drawing.specials`).
- :class:`Drawing`: the board, the spaces by label, the fill of each terrain class, the
  colours of the sides, the special marks, the legend and the notes printed under the text map
  (wrapped at 78 characters).

A hex map is drawn as hexes; a board whose spaces have positions (:func:`positions`: a grid of
numbered squares) as a grid of cells in the text map (:func:`grid_text`) and of squares in the
SVG map, its links other than ``adjacent`` ones (tunnels) as lines; any other board (a pure
graph) as one ``label text`` line per space in the text map, and no SVG map.

The text map and the SVG map summarise a space differently (a text cell is a few ASCII
characters, an SVG hex or square holds a stack of counters and a tooltip), so a Space carries
both its text cell and its pieces; the ruleset decides both in one place.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = [
    "LINK_COLOUR",
    "UNKNOWN_FILL",
    "Drawing",
    "DrawingError",
    "Piece",
    "Space",
    "grid_text",
    "plain_space",
    "positions",
    "remember_equal",
    "remember_last",
    "text_map",
    "wrap_line",
]

UNKNOWN_FILL = "#ddd"
"""Fill of a space whose terrain class has no entry in :attr:`Drawing.fills`."""

LINK_COLOUR = "#333"
"""Colour of the SVG line of a link whose kind has no entry in :attr:`Drawing.link_colours`."""

_CLASS = re.compile(r"[a-z][a-z0-9-]*\Z")
_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})\Z")


class DrawingError(ValueError):
    """A Drawing that no map can show: a bad CSS class or colour, a text cell that is not
    short ASCII on one line, a space not on the board. The message names the space."""


def remember_equal(fn, size: int = 4):
    """Decorator for a function of a :class:`Drawing` (and further hashable arguments) that
    gives the same result for equal drawings (a text map, an SVG map): the last ``size``
    results are remembered and returned for a drawing equal to one already seen. Readers who
    may know the same things see equal drawings (in Escape from Altassar the Spikus player's
    map is the public one), so such a map is drawn once per phase for all of them. The result
    is shared: callers must not change it. Works for any value compared by ``==`` (a view's
    public part: pbem.games.atlantis.draw); ``cache_clear()`` forgets every result."""
    memo: list = []

    @functools.wraps(fn)
    def remembered(drawing, *args):
        for seen, seen_args, result in memo:
            if seen_args == args and (seen is drawing or seen == drawing):
                return result
        result = fn(drawing, *args)
        memo.insert(0, (drawing, args, result))
        del memo[size:]
        return result

    remembered.cache_clear = memo.clear  # as functools.lru_cache's
    return remembered


@dataclass(frozen=True)
class Piece:
    """One piece (a counter) drawn in a space of the SVG map.

    ``text`` is its short mark (a few characters: ``"B2"``, ``"r3"``, ``"^"``); ``title`` is
    this piece's part of the space's tooltip (``"ship2 (red1)"``); ``role`` is a CSS class for
    the counter (lower case letters, digits and ``-``; ``""`` for none), which a style sheet
    may colour. The counter's look, all optional (a Piece with only a text is drawn as a
    white counter showing that text):

    - ``side``: the side or owner whose colour the counter takes (a key of
      :attr:`Drawing.sides`; ``""``: a neutral white counter);
    - ``symbol``: what a face-up counter shows large (a type symbol or short name: ``"Sol"``,
      ``"B"``); ``""`` shows ``text``;
    - ``values``: the printed values a face-up counter shows under its symbol
      (``"3-3-6"``: attack-defense-movement; ``"A/B"``: rating letters); ``""`` for none;
    - ``face_down``: a face-down counter: a blank back showing only its public id;
    - ``id``: the piece's public id (a face-down counter's marker: ``"u05"``); ``""`` uses
      ``text``. The SVG counter carries it as ``data-piece`` (:attr:`key`).

    Only what the reader may know goes in a Piece: a ruleset fills these fields from the view.
    """

    text: str
    title: str = ""
    role: str = ""
    side: str = ""
    symbol: str = ""
    values: str = ""
    face_down: bool = False
    id: str = ""

    def __post_init__(self):
        if self.role and not _CLASS.match(self.role):
            raise DrawingError(f"piece {self.text!r}: role {self.role!r} is not a CSS class "
                               f"(lower case letters, digits and '-', starting with a letter)")

    @property
    def key(self) -> str:
        """The piece's ``data-piece`` in the SVG map: its ``id``, else its ``text``."""
        return self.id or self.text

    @property
    def face(self) -> str:
        """What the counter shows large: its id on a face-down counter, else its symbol (or
        its text)."""
        if self.face_down:
            return self.key
        return self.symbol or self.text


@dataclass(frozen=True)
class Space:
    """One space of a Drawing.

    ``terrain`` is its fill class (a key of :attr:`Drawing.fills`); ``text`` its cell in the
    text map (ASCII, on one line, at most :attr:`Drawing.text_width` characters; ``""`` leaves
    it blank); ``title`` the start of its tooltip (``"forest"``), which the pieces' titles
    follow; ``pieces`` what stands there, in drawing order (the first one on top of the
    stack); ``special`` marks a special space (a key of :attr:`Drawing.specials`: a safe
    island, a prison, an exit edge; ``""`` for none), outlined in its colour in the SVG map.
    """

    terrain: str = ""
    text: str = ""
    title: str = ""
    pieces: tuple[Piece, ...] = ()
    special: str = ""

    def __hash__(self) -> int:
        # Hashed once: the SVG map looks each space up by what it is drawn from
        # (pbem.reports.svgmap), hundreds of times a phase.
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.terrain, self.text, self.title, self.pieces, self.special))
            object.__setattr__(self, "_hash", h)
        return h

    def tooltip(self) -> str:
        """The space's title and its pieces' titles, joined by ``"; "`` (empty parts left
        out)."""
        parts = [self.title] + [p.title for p in self.pieces]
        return "; ".join(p for p in parts if p)

    def marks(self) -> list[tuple[str, str]]:
        """``(text, role)`` of the space's pieces as at most two lines of text (the SVG map drew
        them so before it drew counters; kept for rulesets that use it): one per piece with a
        text, the second line holding every piece after the first (its role kept only when
        those pieces share one)."""
        shown = [(p.text, p.role) for p in self.pieces if p.text]
        if len(shown) > 2:
            rest = shown[1:]
            roles = {r for _, r in rest}
            shown = [shown[0], (" ".join(t for t, _ in rest), roles.pop() if len(roles) == 1
                                else "")]
        return shown


_BLANK = Space()


@functools.lru_cache(maxsize=4096)
def plain_space(terrain: str, text: str = "", title: str = "", special: str = "") -> Space:
    """The :class:`Space` with no pieces of that terrain, text, title and special mark, built
    once: most spaces of a board are plain, and look the same in every view."""
    return Space(terrain, text, title, (), special)


@dataclass(frozen=True)
class Drawing:
    """How one reader's view looks on the game's board: what a ruleset's ``draw(view)`` returns.

    - ``board``: the board drawn on: any :class:`pbem.boards.board.Board` for the text map;
      for the SVG map a :class:`pbem.boards.hexmap.HexMap` (hexes) or a board whose spaces
      have positions (:func:`positions`, such as a :class:`pbem.boards.graph.GraphBoard`
      with a ``[grid]``: squares).
    - ``spaces``: a :class:`Space` by board label; a label without one is drawn blank
      (terrain ``""``, no text, no pieces).
    - ``fills``: the SVG colour (``#rgb`` or ``#rrggbb``) of each terrain class; a class
      without one is drawn :data:`UNKNOWN_FILL`.
    - ``legend``: lines of text explaining the cells and marks, printed under the text map.
    - ``notes``: further lines printed after the legend (the pieces by space, the hands...),
      already laid out by the ruleset (no line break inside a line).
    - ``text_width``: the characters of one cell of the text map (at least 1; 1 writes the
      column numbers of a hex map on two lines, tens above units).
    - ``link_colours``: the SVG colour (``#rgb`` or ``#rrggbb``) of the lines the SVG map of a
      board of squares draws for each link kind (``"tunnel"``); a kind without one is drawn
      :data:`LINK_COLOUR`.
    - ``sides``: the counter colour (``#rgb`` or ``#rrggbb``) of each side or owner a
      :attr:`Piece.side` names (``{"red": "#c33"}``); the HTML legend shows each with its
      name. A side without one is drawn white.
    - ``specials``: ``{class: (colour, name)}`` of the special spaces (:attr:`Space.special`):
      the SVG map outlines such a space in that colour and the legend names it.
    - ``terrain_names``: the name the HTML legend gives a terrain class (default: the class,
      its ``-`` read as blanks); the legend lists the terrains of :attr:`fills` in order.
    """

    board: Any
    spaces: Mapping[str, Space] = field(default_factory=dict)
    fills: Mapping[str, str] = field(default_factory=dict)
    legend: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    text_width: int = 4
    link_colours: Mapping[str, str] = field(default_factory=dict)
    sides: Mapping[str, str] = field(default_factory=dict)
    specials: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    terrain_names: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "sides", MappingProxyType(dict(self.sides)))
        object.__setattr__(self, "specials", MappingProxyType(
            {k: tuple(v) for k, v in self.specials.items()}))
        object.__setattr__(self, "terrain_names", MappingProxyType(dict(self.terrain_names)))
        for side, colour in self.sides.items():
            if not isinstance(colour, str) or not _COLOUR.match(colour):
                raise DrawingError(f"colour of side {side!r}: {colour!r} is not a colour "
                                   f"#rgb or #rrggbb")
        for special, entry in self.specials.items():
            if not _CLASS.match(special) or len(entry) != 2 or not _COLOUR.match(str(entry[0])):
                raise DrawingError(f"special space {special!r}: expected a CSS class and "
                                   f"(colour #rgb or #rrggbb, name), not {entry!r}")
        object.__setattr__(self, "spaces", MappingProxyType(dict(self.spaces)))
        object.__setattr__(self, "fills", MappingProxyType(dict(self.fills)))
        object.__setattr__(self, "link_colours", MappingProxyType(dict(self.link_colours)))
        for kind, colour in self.link_colours.items():
            if not isinstance(colour, str) or not _COLOUR.match(colour):
                raise DrawingError(f"colour of link kind {kind!r}: {colour!r} is not a colour "
                                   f"#rgb or #rrggbb")
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
        if self.text_width < 1:
            raise DrawingError(f"text width {self.text_width!r}: expected at least 1")

    def space(self, label: str) -> Space:
        """The :class:`Space` drawn at ``label`` (a blank one when the ruleset gave none)."""
        return self.spaces.get(label, _BLANK)

    def fill(self, label: str) -> str:
        """The SVG colour of the space at ``label``, from its terrain class."""
        return self.fills.get(self.space(label).terrain, UNKNOWN_FILL)

    def legend_items(self) -> list[tuple[str, str, str]]:
        """``(kind, colour, name)`` of each entry of the HTML legend: the terrains of
        :attr:`fills` (kind ``"terrain"``), the special spaces (``"special"``) and the sides
        (``"side"``), each in its mapping's order."""
        items = [("terrain", colour, self.terrain_names.get(t, t.replace("-", " ")))
                 for t, colour in self.fills.items()]
        items += [("special", colour, name) for colour, name in self.specials.values()]
        items += [("side", colour, side) for side, colour in self.sides.items()]
        return items

    def cell(self, label: str) -> str:
        """The text-map cell of ``label`` (checked by :func:`text_map`, not here)."""
        return self.spaces.get(label, _BLANK).text


def positions(board) -> dict[str, tuple[int, int]] | None:
    """``{label: (column, row)}`` of the spaces of ``board`` that have a place on a grid
    (the board's ``position(space)``, column and row counted from 1 at the top-left, in
    squares), or None when the board has no ``position`` method or no space has one (a pure
    graph, no board). A hex map is not asked (it is drawn as hexes). Spaces off the grid are
    left out of the dict. A board with a ``digest`` (an immutable board) is read once: the
    dict is shared between calls, so treat it as read-only."""
    from .hexmap import HexMap

    where = getattr(board, "position", None)
    if where is None or isinstance(board, HexMap):
        return None
    key = getattr(board, "digest", None)
    if key is not None and key in _POSITIONS:
        return _POSITIONS[key]
    found = {}
    for space in board.spaces():
        at = where(space)
        if at is not None:
            found[board.label(space)] = (int(at[0]), int(at[1]))
    if key is not None:
        if len(_POSITIONS) >= 16:
            _POSITIONS.clear()
        _POSITIONS[key] = found or None
    return found or None


_POSITIONS: dict = {}
""":func:`positions` by board digest."""


def _checked(drawing: Drawing, label: str) -> str:
    """The text cell of ``label``, or DrawingError naming the space when it cannot be shown."""
    text = drawing.cell(label)
    if not isinstance(text, str) or not text.isascii() or "\n" in text or "\r" in text \
            or len(text) > drawing.text_width:
        raise DrawingError(f"cell for {label}: {text!r} must be at most "
                           f"{drawing.text_width} ASCII characters on one line")
    return text


def grid_text(drawing: Drawing, where: Mapping[str, tuple[int, int]]) -> list[str]:
    """The lines (no line ends, no trailing blanks) of the text grid of the spaces placed by
    ``where`` (``{label: (column, row)}``, as :func:`positions` gives).

    Layout, all in characters: a header line of column numbers, then one line per row from
    the top row to the bottom one. A line starts with the row's label (the label of the space
    furthest left in that row, right-aligned to the widest such label) and two blanks; then
    each column's cell, left-aligned in a slot of ``text_width`` characters (widened to the
    digits of the largest column number if those are more), slots one blank apart; a space
    without text, or a square the board does not have, stays blank. Each column number of the
    header stands left-aligned over its cells. A line is ``label width + 2 + columns *
    (slot + 1) - 1`` characters at most: 64 for a 12-column board of 3-digit labels and
    4-character cells, under the 78 a mail client shows in a monospaced font.

    Raises DrawingError naming the space for a bad cell, or two spaces at one place."""
    at: dict[tuple[int, int], str] = {}
    for label, place in where.items():
        if place in at:
            raise DrawingError(f"spaces {at[place]} and {label} stand at the same place "
                               f"(column {place[0]}, row {place[1]})")
        at[place] = label
    columns = range(min(c for c, _ in at), max(c for c, _ in at) + 1)
    rows = range(min(r for _, r in at), max(r for _, r in at) + 1)
    slot = max(drawing.text_width, len(str(columns[-1])), len(str(columns[0])))
    first = {}
    for (c, r), label in sorted(at.items()):
        first.setdefault(r, label)
    lead = max(len(label) for label in first.values()) + 2

    def line(row_label: str, cells) -> str:
        return (row_label.rjust(lead - 2) + "  "
                + " ".join(text.ljust(slot) for text in cells)).rstrip()

    lines = [line("", (str(c) for c in columns))]
    for r in rows:
        lines.append(line(first.get(r, ""),
                          (_checked(drawing, at[c, r]) if (c, r) in at else ""
                           for c in columns)))
    return lines


@remember_equal
def text_map(drawing: Drawing) -> str:
    """The plain-text map of ``drawing`` for mail bodies: the board, a blank line, the legend,
    then the notes, each legend or note line longer than :data:`TEXT_COLUMNS` wrapped at blanks
    with a two-blank hanging indent (:func:`wrap_line`). Every line ends with ``"\\n"``.

    The board is drawn as: a hex map by :func:`pbem.boards.textmap.ascii_map`; a board whose
    spaces have positions (:func:`positions`: a grid of squares) as a grid of cells
    (:func:`grid_text`: a header of column numbers, each row led by the label of its first
    space), followed by one ``label text`` line per space off the grid that has a text; any
    other board (a pure graph) as one ``label text`` line per space with a text. Raises
    DrawingError naming the space for a bad cell."""
    from .hexmap import HexMap
    from .textmap import ascii_map

    board = drawing.board
    if isinstance(board, HexMap):
        try:
            top = ascii_map(board, drawing.cell, width=drawing.text_width)
        except ValueError as e:
            raise DrawingError(str(e)) from None
    else:
        where = positions(board) or {}
        rows = [f"{line}\n" for line in grid_text(drawing, where)] if where else []
        for space in board.spaces():
            label = board.label(space)
            if label in where:
                continue
            text = _checked(drawing, label)
            if text:
                rows.append(f"{label} {text}\n")
        top = "".join(rows)
    under = [part for line in drawing.legend + drawing.notes for part in wrap_line(line)]
    return top + "\n" + "\n".join(under) + "\n"


TEXT_COLUMNS = 78
"""Width of a mail body's line: the legend and notes under the text map are wrapped to it."""


@functools.lru_cache(maxsize=4096)
def wrap_line(line: str, width: int = TEXT_COLUMNS) -> tuple[str, ...]:
    """``line`` as lines of at most ``width`` characters, broken at blanks: the later ones
    indented two blanks more than ``line`` (a hanging indent). A line that fits is kept as it
    is; a word longer than the width stays whole."""
    import textwrap

    if len(line) <= width:
        return (line,)
    lead = line[:len(line) - len(line.lstrip(" "))]
    return tuple(textwrap.wrap(line, width=width, initial_indent="", subsequent_indent=lead + "  ",
                               break_long_words=False, break_on_hyphens=False,
                               drop_whitespace=True) or [line])


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

    remembered.cache_clear = lambda: last.__setitem__(0, None)  # as functools.lru_cache's
    return remembered
