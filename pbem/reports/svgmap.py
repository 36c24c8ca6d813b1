"""An SVG hex map for the HTML report, drawn from a ruleset's :class:`~pbem.boards.drawing.Drawing`
of the reader's view (so the map shows exactly what the view shows, nothing else). Geometry
comes from :mod:`pbem.boards.pixels`; this module knows no game: what stands in each hex, its
colour and its tooltip are the ruleset's ``draw(view)``.
"""

from __future__ import annotations

HEX_SIZE = 22
"""Circumradius of a drawn hex, in pixels."""


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


_drawn: dict = {}
_DRAWN_MAX = 50_000


def _draw_hex(h: dict):
    """One hex drawn by the macro of templates/map_hex.svg.j2 (autoescaped markup), remembered: most hexes
    look the same in every reader's map and every phase (a 384-hex map drawn for three readers
    took a third of a phase's time before)."""
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


def svg_context(drawing, size: float = HEX_SIZE) -> dict:
    """The ``svg`` context of templates/map.svg.j2 for a Drawing on a hex map: width, height,
    font sizes and one entry per hex ``{"svg"}``: the hex drawn by templates/map_hex.svg.j2
    from ``{"label", "points", "x", "ly" (label baseline), "fill", "marks": [(y, text,
    role)], "title"}`` (pixels). Each hex shows its label, its terrain's fill, at most two
    lines of marks (:meth:`~pbem.boards.drawing.Space.marks`) and its tooltip."""
    from pbem.boards.drawing import UNKNOWN_FILL

    width, height, layout = _layout(drawing.board, size)
    hexes = []
    space_at, fills, blank = drawing.spaces.get, drawing.fills, drawing.space("")
    for label, points, x, y in layout:
        space = space_at(label, blank)
        if space.pieces:
            title = space.tooltip()
            marks = [(round(y + size * (0.05 + 0.32 * i), 1), text, role)
                     for i, (text, role) in enumerate(space.marks())]
        else:
            title, marks = space.title, []
        h = {"label": label, "points": points, "x": x, "ly": round(y - size * 0.5, 1),
             "fill": fills.get(space.terrain, UNKNOWN_FILL), "marks": marks,
             "title": f"{label}: {title}" if title else label}
        hexes.append({"svg": _draw_hex(h)})
    return {"width": width, "height": height, "size": size, "hexes": hexes,
            "label_size": round(size * 0.28, 1), "mark_size": round(size * 0.3, 1)}


def map_for(ruleset, view: dict) -> dict | None:
    """The ``svg`` context for a reader's view: the ruleset's ``draw(view)`` on its hex map.
    ``ruleset`` is a ruleset object or its registered name. None when the ruleset draws
    nothing for this view or its board is not a hex map (a graph board, no board)."""
    from pbem.boards.hexmap import HexMap

    if isinstance(ruleset, str):
        from pbem.engine import registry

        ruleset = registry.get(ruleset)
    draw = getattr(ruleset, "draw", None)
    drawing = draw(view) if draw is not None else None
    if drawing is None or not isinstance(drawing.board, HexMap):
        return None
    return svg_context(drawing)
