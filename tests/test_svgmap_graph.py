"""The SVG map of a board of positioned spaces (pbem.reports.svgmap): one square per space at
its grid place, its fill, label, marks and tooltip as for hexes, and the links other than the
plain step (tunnels) as lines between square centres; a pure graph gets no SVG map, and the hex
map's markup stays as pinned here, byte for byte."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from pbem.boards.drawing import (
    LINK_COLOUR,
    UNKNOWN_FILL,
    Drawing,
    DrawingError,
    Piece,
    Space,
)
from pbem.boards.graph import GraphBoard, load_graph
from pbem.reports.render import environment
from pbem.reports.svgmap import SQUARE_SIZE, map_for, square_places, svg_context

NS = "{http://www.w3.org/2000/svg}"
S = SQUARE_SIZE

# 4 x 3 squares numbered from 1; tunnels 2-7-9; a plain step 12-dock to a space off the grid,
# and a one-way chute dock -> 1.
YARD = """[board]
name = "yard"
source = "tests/test_svgmap_graph.py"
default = "floor"
spaces = ["dock"]

[grid]
columns = 4
rows = 3

[kinds]
battery = [2, 7, 9]
pit = [5]

[links]
adjacent = [[12, "dock"]]
tunnel = [[2, 7, 9]]

[one-way]
chute = [["dock", 1]]
"""


def yard() -> GraphBoard:
    return load_graph(YARD, "yard.toml")


def drawing(board=None, **kw) -> Drawing:
    board = board or yard()
    spaces = {s: Space(board.kind(s), title=board.kind(s)) for s in board.spaces()}
    spaces["5"] = Space("pit", "P", "pit <deep>", (Piece("F1", "flight1", "red"),
                                                   Piece("F2", "flight2", "red"),
                                                   Piece("X", "ghost & co", "red")))
    spaces["7"] = Space("battery", "B", "battery", (Piece("B3", "battery3", "blue"),))
    kw.setdefault("link_colours", {"tunnel": "#fc0"})
    return Drawing(board=board, spaces=spaces,
                   fills={"floor": "#eee", "battery": "#c33", "pit": "#000"}, **kw)


class Rs:
    def __init__(self, made: Drawing | None):
        self.made = made

    def draw(self, view):
        return self.made


def render(ctx: dict) -> str:
    return environment().get_template("map.svg.j2").render(svg=ctx)


def parsed(ctx: dict) -> ET.Element:
    return ET.fromstring(render(ctx))


def squares(root: ET.Element) -> dict:
    """{label: (points, fill, title, [(counter class, face)], label x)} of each space's group
    (the counters, drawn in a layer of their own, found by their data-space)."""
    out = {}
    for g in root.findall(f"{NS}g[@data-space]"):
        if g.get("data-piece") is not None:
            continue
        polygon, texts = g.find(f"{NS}polygon"), g.findall(f"{NS}text")
        label = texts[0].text
        assert texts[0].get("class") == "l" and label not in out and label == g.get("data-space")
        counters = [(c.get("class"), c.find(f"{NS}text").text)
                    for c in root.findall(f"{NS}g[@data-piece]") if c.get("data-space") == label]
        out[label] = (polygon.get("points"), polygon.get("fill"), g.find(f"{NS}title").text,
                      counters[::-1], float(texts[0].get("x")))
    return out


def box(c: int, r: int) -> str:
    """The polygon points of the square at column c, row r (from 0), side S (an int: whole
    pixels, written without a ".0")."""
    x0, y0, x1, y1 = c * S, r * S, (c + 1) * S, (r + 1) * S
    return f"{x0},{y0} {x1},{y0} {x1},{y1} {x0},{y1}"


def test_one_square_per_space_at_its_place():
    ctx = map_for(Rs(drawing()), {})
    assert ctx["shape"] == "square" and len(ctx["hexes"]) == 13
    root = parsed(ctx)
    # 4 columns; 3 rows of the grid, an empty row, the row of the spaces off the grid
    # (whole pixels: S is an int, and the map writes no ".0")
    assert (root.get("width"), root.get("height")) == (f"{4 * S}", f"{5 * S}")
    drawn = squares(root)
    assert set(drawn) == {str(n) for n in range(1, 13)} | {"dock"}
    for n in range(1, 13):
        c, r = (n - 1) % 4, (n - 1) // 4
        points, _, _, _, x = drawn[str(n)]
        assert points == box(c, r) and x == (c + 0.5) * S
    assert drawn["dock"][0] == box(0, 4)


def test_fill_label_marks_and_tooltip_of_a_square():
    drawn = squares(parsed(svg_context(drawing())))
    _, fill, title, marks, _ = drawn["5"]
    assert fill == "#000"
    # the title keeps the "<" and "&" the ruleset wrote (escaped in the markup, see below)
    assert title == "5: pit <deep>; flight1; flight2; ghost & co"
    # one counter per piece, the first on top (drawn last), each with its role as a class
    assert marks == [("c red", "F1"), ("c red", "F2"), ("c red", "X")]
    assert drawn["7"][1:4] == ("#c33", "7: battery; battery3", [("c blue", "B3")])
    assert drawn["1"][1:4] == ("#eee", "1: floor", [])
    assert drawn["dock"][1] == "#eee"


def test_tooltips_are_escaped_in_the_markup():
    text = render(svg_context(drawing()))
    assert "<title>5: pit &lt;deep&gt;; flight1; flight2; ghost &amp; co</title>" in text
    assert "<deep>" not in text


def test_an_unknown_terrain_is_grey():
    board = yard()
    made = Drawing(board=board, spaces={"3": Space("lava", title="lava")})
    drawn = squares(parsed(svg_context(made)))
    assert drawn["3"][1] == UNKNOWN_FILL and drawn["4"][1:3] == (UNKNOWN_FILL, "4")


def centre(label: str) -> tuple[float, float]:
    n = int(label)
    return ((n - 1) % 4 + 0.5) * S, ((n - 1) // 4 + 0.5) * S


def lines(root: ET.Element) -> dict:
    """{title: (class, (x1, y1, x2, y2), stroke, dashed, arrow)} of each link drawn."""
    out = {}
    for g in root.findall(f"{NS}g"):
        if not g.get("class", "").startswith("link"):
            continue
        line = g.find(f"{NS}line")
        out[g.find(f"{NS}title").text] = (
            g.get("class"), tuple(float(line.get(k)) for k in ("x1", "y1", "x2", "y2")),
            line.get("stroke"), line.get("stroke-dasharray") is not None,
            g.find(f"{NS}polygon") is not None)
    return out


def test_tunnels_and_far_links_are_lines_between_square_centres():
    drawn = lines(parsed(svg_context(drawing())))
    dock = (0.5 * S, 4.5 * S)
    assert drawn == {
        "tunnel: 2 - 7": ("link tunnel", centre("2") + centre("7"), "#fc0", False, False),
        "tunnel: 7 - 9": ("link tunnel", centre("7") + centre("9"), "#fc0", False, False),
        # a plain step the grid does not show (the squares do not touch)
        "adjacent: 12 - dock": ("link adjacent", centre("12") + dock, LINK_COLOUR, False,
                                False),
        # a one-way link: dashed, with an arrowhead, its colour the default one
        "chute: dock -> 1": ("link chute", dock + centre("1"), LINK_COLOUR, True, True),
    }


def test_lines_come_after_the_squares():
    root = parsed(svg_context(drawing()))
    kinds = ["piece" if g.get("data-piece") else "link" if g.get("class") else "space"
             for g in root.findall(f"{NS}g")]
    # the counters come last, above the lines
    assert kinds == ["space"] * 13 + ["link"] * 4 + ["piece"] * 4


def test_a_bad_link_colour_is_refused():
    with pytest.raises(DrawingError, match="link kind 'tunnel'"):
        drawing(link_colours={"tunnel": "yellow"})


def test_square_places_of_a_board_starting_elsewhere():
    board = GraphBoard(name="off", spaces=["a", "b", "c", "d", "e"],
                       positions={"a": (3, 2), "b": (5, 4)})
    # the grid's top-left is (0, 0); c, d, e wrap in rows of 3 after an empty row
    assert square_places(board) == {"a": (0, 0), "b": (2, 2), "c": (0, 4), "d": (1, 4),
                                    "e": (2, 4)}


def test_a_pure_graph_or_no_drawing_gets_no_svg_map():
    ring = GraphBoard(name="ring", spaces=["1", "2", "3"], links=[("1", "2"), ("2", "3")])
    made = Drawing(board=ring, spaces={"1": Space(text="B")})
    assert map_for(Rs(made), {}) is None
    assert map_for(Rs(None), {}) is None
    with pytest.raises(ValueError, match="no SVG map"):
        svg_context(made)


HEX_SVG = """<svg class="map" xmlns="http://www.w3.org/2000/svg" width="110" height="95.3" viewBox="0 0 110 95.3" role="img" aria-label="map">
<style>polygon{stroke:#555;stroke-width:.6}text{font-family:sans-serif;text-anchor:middle}.l{font-size:6.6px;fill:#222;font-weight:bold;paint-order:stroke;stroke:#fff;stroke-width:1.6px;stroke-opacity:.7}.x{fill:none;stroke-width:2.2}.c rect{fill:#fff;stroke:#222;stroke-width:.7}.c text{fill:#000}.f{font-size:6.9px;font-weight:bold}.v{font-size:5.1px}.n{font-size:5.1px;font-weight:bold;text-anchor:end;fill:#000!important;paint-order:stroke;stroke:#fff;stroke-width:1.5px}.dn rect{fill-opacity:.55;stroke-dasharray:2 1}.dn .f{font-size:5.1px;font-style:italic}.mv{fill:none;stroke:#111;stroke-width:2.2;stroke-opacity:.8;stroke-linejoin:round}.at{stroke:#d00;stroke-width:2.2;stroke-dasharray:6.6 3.3;fill:none}.r{font-size:6.6px;font-weight:bold;fill:#d00;paint-order:stroke;stroke:#fff;stroke-width:2px}</style>
<defs><marker id="mv-head" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" markerHeight="4" orient="auto"><path d="M0,0L10,5L0,10z" fill="#111"/></marker><marker id="at-head" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" markerHeight="4" orient="auto"><path d="M0,0L10,5L0,10z" fill="#d00"/></marker></defs>
<g data-space="0101"><title>0101: reeds</title><polygon points="44,19.1 33,38.1 11,38.1 0,19.1 11,0 33,0" fill="#7a5"/><text class="l" x="22" y="6.8">0101</text></g>
<g data-space="0102"><title>0102: water</title><polygon points="44,57.2 33,76.2 11,76.2 0,57.2 11,38.1 33,38.1" fill="#3af"/><text class="l" x="22" y="44.9">0102</text></g>
<g data-space="0201"><title>0201: water; kermit; gus&lt;</title><polygon points="77,38.1 66,57.2 44,57.2 33,38.1 44,19.1 66,19.1" fill="#3af"/><text class="l" x="55" y="25.8">0201</text></g>
<g data-space="0202"><title>0202: reeds</title><polygon points="77,76.2 66,95.3 44,95.3 33,76.2 44,57.2 66,57.2" fill="#7a5"/><text class="l" x="55" y="63.9">0202</text></g>
<g data-space="0301"><title>0301: water</title><polygon points="110,19.1 99,38.1 77,38.1 66,19.1 77,0 99,0" fill="#3af"/><text class="l" x="88" y="6.8">0301</text></g>
<g data-space="0302"><title>0302: water; fred</title><polygon points="110,57.2 99,76.2 77,76.2 66,57.2 77,38.1 99,38.1" fill="#3af"/><text class="l" x="88" y="44.9">0302</text></g>
<g class="c frog" data-piece="G" data-space="0201"><title>0201: gus&lt;</title><rect x="47.5" y="31.9" width="17.2" height="17.2" rx="2.1"/><text class="f" x="56.1" y="43">G</text></g><g class="c frog" data-piece="K" data-space="0201"><title>0201: kermit</title><rect x="45.3" y="34.1" width="17.2" height="17.2" rx="2.1"/><text class="f" x="53.9" y="45.2">K</text><text class="n" x="61.7" y="50.3">2</text></g>
<g class="c frog" data-piece="F" data-space="0302"><title>0302: fred</title><rect x="79.4" y="52.1" width="17.2" height="17.2" rx="2.1"/><text class="f" x="88" y="63.2">F</text></g>
</svg>
"""


def test_the_hex_map_markup_is_stable():
    """The hex path, byte for byte (the examples/ reports check the same on real games)."""
    from test_drawing import PondRuleset

    ctx = map_for(PondRuleset(), {"frogs": {"kermit": "0201", "gus<": "0201", "fred": "0302"}})
    assert ctx["shape"] == "hex" and ctx["links"] == []
    assert render(ctx) == HEX_SVG
