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

from pbem.boards.drawing import remember_equal
from pbem.reports.svghex import draw_hex, num

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
            points = " ".join(f"{num(cx)},{num(cy)}" for cx, cy in hex_corners(hexmap, label, size))
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
            x0, y0, x1, y1 = num(x0), num(y0), num(x1), num(y1)
            points = f"{x0},{y0} {x1},{y0} {x1},{y1} {x0},{y1}"
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


_GEO: dict = {}
"""Per-space geometry shared by the entries of one layout (label and counter offsets)."""


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
    return " ".join(f"{num(x)},{num(y)}" for x, y in (tip, left, right))


FAN = 3
"""Counters of a stack drawn at their own offset; deeper ones share the last offset (the
stack's count, written on the top counter, tells how many there are)."""


def _inset(points: str, x: float, y: float, k: float) -> str:
    """The polygon ``points`` shrunk towards ``(x, y)`` by the factor ``k``."""
    out = []
    for pair in points.split():
        px, py = (float(v) for v in pair.split(","))
        out.append(f"{num(x + (px - x) * k)},{num(y + (py - y) * k)}")
    return " ".join(out)


def _counters(space, sides: dict, x: float, y: float, geo: dict) -> tuple:
    """``(key, class, face, values, left, top)`` of each counter of a space (pixels: the
    top-left corner of its square), the deepest first (drawn first) and the space's first
    piece last (on top), each deeper one shifted up and right (:data:`FAN`)."""
    n = len(space.pieces)
    if not n:
        return ()
    fan = geo["fan"]
    shift = fan[min(n - 1, FAN - 1)][0] / 2
    left0 = x - geo["half"] - shift
    top0 = y + geo["dy"] - geo["half"] + shift
    out = []
    for j in range(n - 1, -1, -1):
        p = space.pieces[j]
        dx, dy = fan[min(j, FAN - 1)]
        cls = " ".join(c for c in (f"k{sides[p.side]}" if p.side in sides else "",
                                   "dn" if p.face_down else "", p.role) if c)
        out.append((p.key, cls, p.face, "" if p.face_down else p.values,
                    round(left0 + dx, 1), round(top0 + dy, 1)))
    return tuple(out)


_ENTRIES: dict = {}
"""``{(geometry, sides' colours and template environment): {space's key: entry}}``."""
_ENTRIES_MAX = 50_000


def _space_entries(drawing, layout, geo: str, sides: dict, sides_key) -> list[dict]:
    """The ``{"svg", "counters"}`` entry of each space of ``layout`` (``[(label, points, x,
    y)]``, pixels). Remembered by what each is drawn from (the space as drawn, its place, the
    fill and special mark of its terrain, the geometry, the sides' colours and the template
    environment in use): most spaces look the same in every reader's map and every phase, so
    a phase draws only the spaces that changed."""
    from pbem.boards.drawing import UNKNOWN_FILL

    space_at, blank = drawing.spaces.get, drawing.space("")
    fills, specials = drawing.fills, drawing.specials
    memo = _ENTRIES.get((geo, sides_key))
    if memo is None or len(memo) >= _ENTRIES_MAX:
        if len(_ENTRIES) > 16:
            _ENTRIES.clear()
        memo = _ENTRIES[geo, sides_key] = {}
    # the spaces of the map drawn last with this layout, style and geometry, and their entries:
    # a space that is the very same object (most are: pbem.boards.drawing.plain_space) is
    # drawn as it was, without building and hashing its key
    last_key = (id(layout), id(fills), id(specials), geo, sides_key)
    last = _LAST.get(last_key)
    if last is None or last[0] is not layout or last[1] is not fills \
            or last[2] is not specials:
        last = (layout, fills, specials, [None] * len(layout), [None] * len(layout))
    seen, entries = last[3], last[4]
    out, drawn = [], []
    for i, (label, points, x, y) in enumerate(layout):
        space = space_at(label, blank)
        drawn.append(space)
        if space is seen[i]:
            out.append(entries[i])
            continue
        fill = fills.get(space.terrain, UNKNOWN_FILL)
        special = space.special if space.special in specials else ""
        key = (space, label, x, y, fill, special)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _make_entry(drawing, space, label, points, x, y, geo, sides,
                                            fill, special)
        out.append(found)
    if len(_LAST) > 16:
        _LAST.clear()
    _LAST[last_key] = (layout, fills, specials, drawn, out)
    return out


_LAST: dict = {}
"""``{(layout, fills, specials, geometry, sides' key): (layout, fills, specials, [space drawn
at each place], [its entry])}``: the map drawn last with them (:func:`_space_entries`)."""


def _make_entry(drawing, space, label, points, x, y, geo, sides, fill, special) -> dict:
    title = space.tooltip() if space.pieces else space.title
    h = {"label": label, "points": points, "x": x, "y": y, "geo": geo,
         "fill": fill,
         "special": special, "inset": _inset(points, x, y, 0.84) if special else "",
         "counters": _counters(space, sides, x, y, _GEO[geo]),
         "titles": tuple(f"{label}: {p.title or p.key}" for p in reversed(space.pieces)),
         "title": f"{label}: {title}" if title else label}
    space_svg, counters_svg = draw_hex(h, _GEO[h["geo"]])
    return {"svg": space_svg, "counters": counters_svg}


def _geometry_of(shape: str, size: float) -> str:
    """The key of the shared geometry of a space of ``shape`` and ``size`` in :data:`_GEO`:
    label offset, counter side and offsets (pixels, from the space's centre)."""
    key = f"{shape}{size}"
    if key not in _GEO:
        if shape == "hex":
            c, label_dy, counter_dy, step = size * 0.78, -size * 0.56, size * 0.16, size * 0.1
        else:
            c, label_dy, counter_dy, step = size * 0.56, -size * 0.31, size * 0.12, size * 0.07
        fan = [(round(i * step, 1), round(-i * step, 1)) for i in range(FAN)]
        _GEO[key] = {"c": round(c, 1), "half": round(c / 2, 1), "label_dy": round(label_dy, 1),
                     "dy": round(counter_dy, 1), "fan": fan,
                     "sym": round(c * 0.4, 1), "val": round(c * 0.3, 1),
                     "rx": round(c * 0.12, 1)}
    return key


def _style(drawing) -> tuple[dict, list]:
    """``({side: index}, [(index, fill, ink)])`` of the sides of a drawing: each side's
    counters take the CSS class ``k<index>``, filled with its colour and written in black or
    white, whichever reads better on it."""
    sides, rules = {}, []
    for i, (side, colour) in enumerate(drawing.sides.items()):
        sides[side] = i
        rules.append((i, colour, _ink(colour)))
    return sides, rules


def _ink(colour: str) -> str:
    """``"#fff"`` on a dark colour, ``"#000"`` on a light one."""
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(ch * 2 for ch in h)
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#fff"


def svg_context(drawing, size: float | None = None) -> dict:
    """:func:`_svg_context` of ``drawing`` (the template environment in force counts too), the
    same dict for equal drawings (:func:`pbem.boards.drawing.remember_equal`: readers who may
    know the same things share one map per phase); callers must not change it."""
    from pbem.reports.render import environment

    return _remembered_svg(drawing, size, id(environment()))


@remember_equal
def _remembered_svg(drawing, size, _env_id):
    return _svg_context(drawing, size)


def _svg_context(drawing, size: float | None = None) -> dict:
    """The ``svg`` context of templates/map.svg.j2 for a Drawing on a hex map or a positioned
    board (pixels throughout): ``{"shape": "hex" | "square", "width", "height", "size",
    "label_size", "hexes": [{"svg"}], "links": [{"svg"}], "centres": {label: (x, y)},
    "sides": [(index, fill, ink)], "specials": [(class, colour, name)], "legend": [(kind,
    colour, name)], "stroke", "spaces_svg", "links_svg", "counters_svg"}`` (the last three:
    the layers of ``hexes`` and ``links`` joined, :func:`_joined`).

    Each entry of ``hexes`` is one space (a hex, or a square on a positioned board) drawn by
    templates/map_hex.svg.j2: ``svg``, a group ``data-space="LABEL"`` holding its tooltip (the
    space's title and what stands there), its polygon in its terrain's fill, the outline of
    its special mark (:attr:`~pbem.boards.drawing.Space.special`) and its label; and
    ``counters``, drawn above the spaces and the links: one counter per
    :class:`~pbem.boards.drawing.Piece` (a group ``data-piece="KEY" data-space="LABEL"`` with
    its own tooltip: a rounded square in its side's colour showing its symbol and values, or a
    face-down back showing its id), the stack fanned (:data:`FAN`) with its count on the top
    counter. Each
    entry of ``links`` (a positioned board only) is a line between two square centres drawn by
    templates/map_link.svg.j2: every link whose kind is not ``adjacent`` (a tunnel), and an
    ``adjacent`` link between squares that do not touch, in
    :attr:`~pbem.boards.drawing.Drawing.link_colours` (dashed, with an arrowhead, when
    one-way). ``centres`` places the moves and attacks of the report's events
    (templates/map.svg.j2, ``map_events``).

    ``size`` is the hex circumradius (default :data:`HEX_SIZE`) or the square side (default
    :data:`SQUARE_SIZE`). Raises ValueError for a board that is neither."""
    from pbem.boards.drawing import LINK_COLOUR
    from pbem.boards.hexmap import HexMap
    from pbem.reports.render import environment

    sides, side_rules = _style(drawing)
    common = {"sides": side_rules,
              "specials": [(k, colour, name) for k, (colour, name) in drawing.specials.items()],
              "legend": drawing.legend_items()}
    if isinstance(drawing.board, HexMap):
        size = HEX_SIZE if size is None else size
        width, height, layout = _layout(drawing.board, size)
        geo = _geometry_of("hex", size)
        sides_key = (tuple(sides.items()), id(environment()))
        hexes = _space_entries(drawing, layout, geo, sides, sides_key)
        return dict(common, shape="hex", width=width, height=height, size=size, hexes=hexes,
                    links=[], label_size=round(size * 0.3, 1), stroke=round(size * 0.1, 1),
                    centres=_centres(layout), geo=_GEO[geo], **_joined(hexes, []))
    if square_places(drawing.board) is None:
        raise ValueError(f"board {getattr(drawing.board, 'name', drawing.board)!r}: neither a "
                         f"hex map nor a board whose spaces have positions: no SVG map")
    size = float(SQUARE_SIZE if size is None else size)
    width, height, layout, lines = _square_layout(drawing.board, size)
    geo = _geometry_of("square", size)
    sides_key = (tuple(sides.items()), id(environment()))
    squares = _space_entries(drawing, layout, geo, sides, sides_key)
    links = []
    for a, b, kind, one_way, x1, y1, x2, y2 in lines:
        links.append({"svg": _draw_link({
            "kind": kind, "x1": x1, "y1": y1, "x2": x2, "y2": y2,
            "colour": drawing.link_colours.get(kind, LINK_COLOUR),
            "width": round(size * 0.08, 1), "one_way": one_way,
            "arrow": _arrow(x1, y1, x2, y2, size) if one_way else "",
            "title": f"{kind}: {a} {'->' if one_way else '-'} {b}"})})
    return dict(common, shape="square", width=width, height=height, size=size, hexes=squares,
                links=links, label_size=round(size * 0.2, 1), stroke=round(size * 0.06, 1),
                centres=_centres(layout), geo=_GEO[geo], **_joined(squares, links))


def _joined(spaces: list, links: list) -> dict:
    """The map's three layers as one markup each (``spaces_svg``, ``links_svg``,
    ``counters_svg``: every entry followed by a line break), joined here rather than by a
    template loop (a quarter of a report's rendering time went to the loops over 384 hexes);
    ``hexes`` and ``links`` stay in the context for a referee's own template."""
    from markupsafe import Markup

    return {"spaces_svg": Markup(_lines([h["svg"] for h in spaces])),
            "links_svg": Markup(_lines([x["svg"] for x in links])),
            "counters_svg": Markup(_lines([h["counters"] for h in spaces if h["counters"]]))}


def _lines(parts: list) -> str:
    """``parts`` (markup) each followed by a line break, as one string."""
    return "\n".join(parts) + "\n" if parts else ""


_CENTRES: dict = {}


def _centres(layout: list) -> dict:
    """``{label: (x, y)}`` of a layout's spaces, made once per layout (read-only)."""
    key = id(layout)
    found = _CENTRES.get(key)
    if found is None or found[0] is not layout:
        found = _CENTRES[key] = (layout, {label: (x, y) for label, _, x, y in layout})
    return found[1]


def events_svg(events: list, svg: dict):
    """The ``map_events`` (pbem.reports.context.map_events: moves and attacks) drawn on the
    SVG map ``svg`` (:func:`svg_context`), as one markup (the template filter
    ``map_events_svg``, used by templates/map.svg.j2): a move whose every space is on the
    map is a polyline ``data-move="A B ..."`` with an arrowhead through the spaces' centres;
    an attack whose both spaces are on the map is a line ``data-attack="FROM TO"`` (a ring
    when they are the same space) with ``data-result`` and its result written beside the
    target; each a group titled with the event's text, followed by a line break. Drawn here
    rather than by a template loop (a movement phase's arrows were a fifth of its report's
    rendering)."""
    from markupsafe import Markup, escape

    centres, size = svg["centres"], svg["size"]
    out = []
    for e in events:
        if e["kind"] == "move" and all(s in centres for s in e["path"]):
            points = " ".join(f"{num(centres[s][0])},{num(centres[s][1])}" for s in e["path"])
            out.append(f'<g data-move="{escape(" ".join(e["path"]))}"><title>'
                       f'{escape(e["text"])}</title><polyline class="mv" '
                       f'marker-end="url(#mv-head)" points="{points}"/></g>\n')
        elif e["kind"] == "attack" and e["from"] in centres and e["to"] in centres:
            (ax, ay), (bx, by) = centres[e["from"]], centres[e["to"]]
            a, b = (num(ax), num(ay)), (num(bx), num(by))
            mark = (f'<line class="at" marker-end="url(#at-head)" x1="{a[0]}" y1="{a[1]}" '
                    f'x2="{b[0]}" y2="{b[1]}"/>' if e["from"] != e["to"] else
                    f'<circle class="at" cx="{b[0]}" cy="{b[1]}" r="{num(size * 0.55)}"/>')
            result = (f'<text class="r" x="{b[0]}" y="{num(by + size * 0.45)}">'
                      f'{escape(e["result"])}</text>' if e["result"] else "")
            out.append(f'<g data-attack="{escape(e["from"])} {escape(e["to"])}" '
                       f'data-result="{escape(e["result"])}"><title>{escape(e["text"])}'
                       f'</title>{mark}{result}</g>\n')
    return Markup("".join(out))


def map_for(ruleset, view: dict) -> dict | None:
    """The ``svg`` context (:func:`svg_context`) for a reader's view: the ruleset's
    ``draw(view)`` on its hex map or positioned board. ``ruleset`` is a ruleset object or its
    registered name. None when the ruleset draws nothing for this view or its board is
    neither (a pure graph without positions, no board)."""
    if isinstance(ruleset, str):
        from pbem.engine import registry

        ruleset = registry.get(ruleset)
    draw = getattr(ruleset, "draw", None)
    return drawing_svg(draw(view) if draw is not None else None)


def drawing_svg(drawing) -> dict | None:
    """The ``svg`` context (:func:`svg_context`) of a :class:`pbem.boards.drawing.Drawing`
    already drawn (a report draws its reader's view once for its text map and its SVG map);
    None for no drawing or a board that is neither a hex map nor a positioned board."""
    from pbem.boards.drawing import positions
    from pbem.boards.hexmap import HexMap

    if drawing is None:
        return None
    if not isinstance(drawing.board, HexMap) and positions(drawing.board) is None:
        return None
    return svg_context(drawing)
