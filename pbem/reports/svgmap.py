"""An SVG map for the HTML report, drawn from a ruleset's :class:`~pbem.boards.drawing.Drawing`
of the reader's view (so the map shows exactly what the view shows, nothing else). This module
knows no game: what stands in each space, its colour and its tooltip are the ruleset's
``draw(view)``.

Two boards are drawn: a hex map (:class:`pbem.boards.hexmap.HexMap`: flat-topped hexes, the
geometry of :mod:`pbem.boards.pixels`) and a board whose spaces have positions
(:func:`pbem.boards.drawing.positions`, such as a :class:`pbem.boards.graph.GraphBoard` with a
``[grid]``: squares of side :data:`SQUARE_SIZE`, its links other than the plain ``adjacent``
step drawn as lines between square centres). Any other board (a pure graph, no board) gets no
SVG map.
"""

from __future__ import annotations

HEX_SIZE = 22
"""Circumradius of a drawn hex, in pixels."""

SQUARE_SIZE = 40
"""Side of a drawn square (a space of a positioned board), in pixels."""

_ADJACENT = "adjacent"
"""The plain step between spaces (pbem.boards.graph.ADJACENT): drawn as a line only between
squares that do not touch."""


_geometry: dict = {}


def _layout(hexmap, size: float) -> tuple:
    """(width, height, [(label, points, x, y)]) of a map, computed once per map and size."""
    key = (hexmap.digest, size)
    if key not in _geometry:
        from pbem.boards.pixels import hex_center, hex_corners, map_size

        width, height = map_size(hexmap, size)
        hexes = []
        for label in hexmap.labels():
            x, y = hex_center(hexmap, label, size)
            points = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in hex_corners(hexmap, label, size))
            hexes.append((label, points, round(x, 1), round(y, 1)))
        _geometry[key] = (round(width, 1), round(height, 1), hexes)
    return _geometry[key]


def square_places(board) -> dict[str, tuple[int, int]] | None:
    """``{label: (column, row)}`` of every space of a positioned board as the SVG map places
    it (in squares, from 0 at the top-left): the spaces with a position at their place, the
    grid's top-left square at ``(0, 0)``; the spaces off the grid, in board order, in rows of
    the grid's width below it, after one empty row. None when no space has a position."""
    from pbem.boards.drawing import positions

    where = positions(board)
    if where is None:
        return None
    c0 = min(c for c, _ in where.values())
    r0 = min(r for _, r in where.values())
    places = {label: (c - c0, r - r0) for label, (c, r) in where.items()}
    columns = max(c for c, _ in places.values()) + 1
    below = max(r for _, r in places.values()) + 2
    off = [board.label(s) for s in board.spaces() if board.label(s) not in places]
    for i, label in enumerate(off):
        places[label] = (i % columns, below + i // columns)
    return places


def _square_layout(board, size: float) -> tuple:
    """(width, height, [(label, points, x, y)], [(a, b, kind, one_way, x1, y1, x2, y2)]) of a
    positioned board (pixels), computed once per board and size."""
    key = ("squares", board.digest, size)
    if key not in _geometry:
        places = square_places(board)
        centre = {label: (round((c + 0.5) * size, 1), round((r + 0.5) * size, 1))
                  for label, (c, r) in places.items()}
        squares = []
        for space in board.spaces():
            label = board.label(space)
            c, r = places[label]
            x0, y0, x1, y1 = c * size, r * size, (c + 1) * size, (r + 1) * size
            points = f"{x0:.1f},{y0:.1f} {x1:.1f},{y0:.1f} {x1:.1f},{y1:.1f} {x0:.1f},{y1:.1f}"
            squares.append((label, points) + centre[label])
        lines = []
        for a, b, kind, one_way in getattr(board, "links", lambda: ())():
            a, b = board.label(a), board.label(b)
            (ca, ra), (cb, rb) = places[a], places[b]
            if kind == _ADJACENT and max(abs(ca - cb), abs(ra - rb)) <= 1:
                continue  # the squares touch: the picture shows the step already
            lines.append((a, b, kind, bool(one_way)) + centre[a] + centre[b])
        width = (max(c for c, _ in places.values()) + 1) * size
        height = (max(r for _, r in places.values()) + 1) * size
        _geometry[key] = (round(width, 1), round(height, 1), squares, lines)
    return _geometry[key]


_drawn: dict = {}
_DRAWN_MAX = 50_000


def _draw_hex(h: dict):
    """One hex (or square: its polygon has four corners) drawn by the macro of
    templates/map_hex.svg.j2 (autoescaped markup), remembered: most hexes look the same in
    every reader's map and every phase (a 384-hex map drawn for three readers took a third of
    a phase's time before)."""
    key = (h["points"], h["fill"], h["title"], h["label"], h["ly"], tuple(h["marks"]))
    out = _drawn.get(key)
    if out is None:
        from markupsafe import Markup

        from pbem.reports.render import environment

        if len(_drawn) >= _DRAWN_MAX:
            _drawn.clear()
        draw = environment().get_template("map_hex.svg.j2").module.draw
        out = _drawn[key] = Markup(str(draw(h)))
    return out


def _draw_link(line: dict):
    """One link drawn by the macro of templates/map_link.svg.j2 (autoescaped markup)."""
    from markupsafe import Markup

    from pbem.reports.render import environment

    return Markup(str(environment().get_template("map_link.svg.j2").module.draw(line)))


def _arrow(x1: float, y1: float, x2: float, y2: float, size: float) -> str:
    """Points of the arrowhead a one-way line carries at its middle, pointing from its start
    to its end (pixels, a triangle of side about ``size / 4``)."""
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    a = size * 0.25
    tip = (mx + ux * a / 2, my + uy * a / 2)
    back = (mx - ux * a / 2, my - uy * a / 2)
    left = (back[0] - uy * a / 2, back[1] + ux * a / 2)
    right = (back[0] + uy * a / 2, back[1] - ux * a / 2)
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in (tip, left, right))


def _space_entry(drawing, space, label, points, x, y, size, ly, mark_y) -> dict:
    """The ``{"svg"}`` entry of one hex or square: ``mark_y(i)`` is the baseline of the
    ``i``-th line of marks (pixels)."""
    from pbem.boards.drawing import UNKNOWN_FILL

    if space.pieces:
        title = space.tooltip()
        marks = [(mark_y(i), text, role) for i, (text, role) in enumerate(space.marks())]
    else:
        title, marks = space.title, []
    h = {"label": label, "points": points, "x": x, "ly": ly,
         "fill": drawing.fills.get(space.terrain, UNKNOWN_FILL), "marks": marks,
         "title": f"{label}: {title}" if title else label}
    return {"svg": _draw_hex(h)}


def svg_context(drawing, size: float | None = None) -> dict:
    """The ``svg`` context of templates/map.svg.j2 for a Drawing on a hex map or a positioned
    board (pixels throughout): ``{"shape": "hex" | "square", "width", "height", "size",
    "label_size", "mark_size", "hexes": [{"svg"}], "links": [{"svg"}]}``.

    Each entry of ``hexes`` is one space (a hex, or a square on a positioned board) drawn by
    templates/map_hex.svg.j2 from ``{"label", "points", "x", "ly" (label baseline), "fill",
    "marks": [(y, text, role)], "title"}``: its label, its terrain's fill, at most two lines of
    marks (:meth:`~pbem.boards.drawing.Space.marks`) with their role as CSS class, and its
    tooltip. Each entry of ``links`` (a positioned board only; empty for a hex map) is a line
    between two square centres drawn by templates/map_link.svg.j2: every link whose kind is not
    ``adjacent`` (a tunnel), and an ``adjacent`` link between squares that do not touch, in
    :attr:`~pbem.boards.drawing.Drawing.link_colours` (dashed, with an arrowhead, when one-way).

    ``size`` is the hex circumradius (default :data:`HEX_SIZE`) or the square side (default
    :data:`SQUARE_SIZE`). Raises ValueError for a board that is neither."""
    from pbem.boards.drawing import LINK_COLOUR
    from pbem.boards.hexmap import HexMap

    space_at, blank = drawing.spaces.get, drawing.space("")
    if isinstance(drawing.board, HexMap):
        size = HEX_SIZE if size is None else size
        width, height, layout = _layout(drawing.board, size)
        hexes = []
        for label, points, x, y in layout:
            hexes.append(_space_entry(
                drawing, space_at(label, blank), label, points, x, y, size,
                round(y - size * 0.5, 1),
                lambda i, y=y: round(y + size * (0.05 + 0.32 * i), 1)))
        return {"shape": "hex", "width": width, "height": height, "size": size, "hexes": hexes,
                "links": [], "label_size": round(size * 0.28, 1),
                "mark_size": round(size * 0.3, 1)}
    if square_places(drawing.board) is None:
        raise ValueError(f"board {getattr(drawing.board, 'name', drawing.board)!r}: neither a "
                         f"hex map nor a board whose spaces have positions: no SVG map")
    size = float(SQUARE_SIZE if size is None else size)
    width, height, layout, lines = _square_layout(drawing.board, size)
    squares = []
    for label, points, x, y in layout:
        squares.append(_space_entry(
            drawing, space_at(label, blank), label, points, x, y, size,
            round(y - size * 0.27, 1),
            lambda i, y=y: round(y + size * (0.08 + 0.28 * i), 1)))
    links = []
    for a, b, kind, one_way, x1, y1, x2, y2 in lines:
        links.append({"svg": _draw_link({
            "kind": kind, "x1": x1, "y1": y1, "x2": x2, "y2": y2,
            "colour": drawing.link_colours.get(kind, LINK_COLOUR),
            "width": round(size * 0.08, 1), "one_way": one_way,
            "arrow": _arrow(x1, y1, x2, y2, size) if one_way else "",
            "title": f"{kind}: {a} {'->' if one_way else '-'} {b}"})})
    return {"shape": "square", "width": width, "height": height, "size": size,
            "hexes": squares, "links": links, "label_size": round(size * 0.2, 1),
            "mark_size": round(size * 0.22, 1)}


def map_for(ruleset, view: dict) -> dict | None:
    """The ``svg`` context (:func:`svg_context`) for a reader's view: the ruleset's
    ``draw(view)`` on its hex map or positioned board. ``ruleset`` is a ruleset object or its
    registered name. None when the ruleset draws nothing for this view or its board is
    neither (a pure graph without positions, no board)."""
    from pbem.boards.drawing import positions
    from pbem.boards.hexmap import HexMap

    if isinstance(ruleset, str):
        from pbem.engine import registry

        ruleset = registry.get(ruleset)
    draw = getattr(ruleset, "draw", None)
    drawing = draw(view) if draw is not None else None
    if drawing is None:
        return None
    if not isinstance(drawing.board, HexMap) and positions(drawing.board) is None:
        return None
    return svg_context(drawing)
