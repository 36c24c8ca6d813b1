"""A ruleset draws its board once (pbem.boards.drawing): the text map and the SVG map are both
drawn from that one Drawing by code that knows no game (issue 9, "Drawing")."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
from markupsafe import escape

from pbem.boards.drawing import (
    UNKNOWN_FILL,
    Drawing,
    DrawingError,
    Piece,
    Space,
    plain_space,
    remember_last,
    text_map,
)
from pbem.boards.hexmap import load_map
from pbem.reports.svgmap import map_for, svg_context

ROOT = Path(__file__).resolve().parent.parent

MAP = """[map]
name = "pond"
source = "tests/test_drawing.py"
columns = 3
rows = 2
offset = "even-low"
default = "water"

[terrain]
reeds = ["0101", "0202"]
"""


def pond():
    return load_map(MAP, "tests/test_drawing.py")


class PondRuleset:
    """A third-party game the reports have never heard of: frogs on lily pads."""

    name = "pond"

    def draw(self, view: dict) -> Drawing:
        spaces = {h: plain_space(t, "~" if t == "water" else "r", t)
                  for h, t in (("0101", "reeds"), ("0201", "water"), ("0301", "water"),
                               ("0102", "water"), ("0202", "reeds"), ("0302", "water"))}
        for frog, h in view["frogs"].items():
            old = spaces[h]
            spaces[h] = Space(old.terrain, old.text + "F", old.title,
                              old.pieces + (Piece(frog[0].upper(), frog, "frog"),))
        return Drawing(board=pond(), spaces=spaces,
                       fills={"water": "#3af", "reeds": "#7a5"},
                       legend=("~ water, r reeds, F frog",), notes=("Frogs: " + ", ".join(
                           f"{f} {h}" for f, h in sorted(view["frogs"].items())),),
                       text_width=2)


def test_pbem_reports_names_no_game():
    """pbem/reports/ (and the map templates) draw any ruleset's Drawing: no game by name."""
    sources = sorted((ROOT / "pbem" / "reports").rglob("*.py")) + sorted(
        (ROOT / "templates").glob("map*.j2"))
    assert sources
    for path in sources:
        text = path.read_text(encoding="utf-8").lower()
        for game in ("atlantis", "altassar"):
            assert game not in text, f"{path.relative_to(ROOT)} names {game}"


def test_a_third_party_ruleset_gets_an_svg_map_from_its_drawing():
    svg = map_for(PondRuleset(), {"frogs": {"kermit": "0201", "fred": "0201", "gus": "0201"}})
    assert svg["width"] > 0 and len(svg["hexes"]) == 6
    hexes = {re.search(r"<title>(\d{4})", str(h["svg"])).group(1): h for h in svg["hexes"]}
    busy = str(hexes["0201"]["svg"])
    assert 'fill="#3af"' in busy
    assert "<title>0201: water; kermit; fred; gus</title>" in busy
    # three pieces, three counters (the first on top: drawn last), each keeping its role
    assert re.findall(r'<g class="(c[^"]*)" data-piece="([^"]*)" data-space="0201">',
                      str(hexes["0201"]["counters"])) == [
        ("c frog", "G"), ("c frog", "F"), ("c frog", "K")]
    assert 'fill="#7a5"' in str(hexes["0101"]["svg"])
    assert "<title>0101: reeds</title>" in str(hexes["0101"]["svg"])
    assert not hexes["0101"]["counters"]


def test_the_text_map_comes_from_the_same_drawing():
    drawing = PondRuleset().draw({"frogs": {"kermit": "0302"}})
    text = text_map(drawing)
    # even columns sit half a hex lower: each map row is two text lines
    assert text == ("    01 02 03\n"
                    "01  r     ~\n"
                    "       ~\n"
                    "02  ~     ~F\n"
                    "       r\n"
                    "\n~ water, r reeds, F frog\nFrogs: kermit 0302\n")


def test_a_space_the_ruleset_leaves_out_is_blank_and_an_unknown_terrain_grey():
    drawing = Drawing(board=pond(), spaces={"0101": Space("lava", "L", "lava")},
                      fills={"water": "#3af"}, text_width=2)
    assert drawing.space("0302") == Space()
    assert drawing.fill("0101") == UNKNOWN_FILL and drawing.fill("0302") == UNKNOWN_FILL
    svg = svg_context(drawing)
    assert "<title>0302</title>" in str(svg["hexes"][-1]["svg"])
    assert text_map(drawing).startswith("    01 02 03\n01  L\n\n02\n")


def test_space_tooltip_and_marks():
    s = Space("sea", ".", "sea", (Piece("B2", "ship1 (red1, red2)", "ship"), Piece("^", "shark1"),
                                  Piece("", "hidden-less title only"), Piece("K", "kraken1")))
    assert s.tooltip() == "sea; ship1 (red1, red2); shark1; hidden-less title only; kraken1"
    assert s.marks() == [("B2", "ship"), ("^ K", "")]
    assert Space("sea", title="").tooltip() == ""
    assert plain_space("sea", ".", "") is plain_space("sea", ".", "")


@pytest.mark.parametrize("make, words", [
    (lambda: Piece("x", role="Not A Class"), "not a CSS class"),
    (lambda: Drawing(board=pond(), fills={"water": "blue"}), "not a colour"),
    (lambda: Drawing(board=pond(), legend=("two\nlines",)), "line break"),
    (lambda: Drawing(board=pond(), text_width=0), "at least 1"),
])
def test_a_bad_drawing_is_refused_with_the_reason(make, words):
    with pytest.raises(DrawingError, match=words):
        make()


def test_a_text_cell_too_wide_names_the_space():
    drawing = Drawing(board=pond(), spaces={"0202": Space(text="abc")}, text_width=2)
    with pytest.raises(DrawingError, match="0202"):
        text_map(drawing)


class Spaces:
    """A board that is not a hex map (numbered spaces)."""

    name, digest, map_source, stand_in = "tunnels", "0" * 64, "test", False

    def spaces(self):
        return ("1", "2", "3")

    def label(self, space):
        return f"S{space}"


def test_a_board_of_numbered_spaces_gets_a_text_map_and_no_svg_map():
    drawing = Drawing(board=Spaces(), spaces={"S1": Space(text="B"), "S3": Space(text="F1")},
                      legend=("B battery, F fighter",))
    assert text_map(drawing) == "S1 B\nS3 F1\n\nB battery, F fighter\n"

    class Rs:
        def draw(self, view):
            return drawing

    assert map_for(Rs(), {}) is None
    assert map_for(object(), {}) is None


def test_remember_last_draws_one_view_once():
    calls = []

    @remember_last
    def draw(view):
        calls.append(view)
        return Drawing(board=pond())

    view = {"frogs": {}}
    first = draw(view)
    assert draw(view) is first and len(calls) == 1
    assert draw(copy.deepcopy(view)) is not first and len(calls) == 2


@pytest.mark.parametrize("game, role", [("atlantis", "red"), ("altassar", "confederation")])
def test_each_game_draws_both_maps_from_one_drawing(game, role):
    """The built-in games' text map is the plain-text drawing of their ``draw``, and the SVG map
    (reached by the registered name) shows the same hexes' tooltips."""
    from pbem.engine import registry

    rs = registry.get(game)
    if game == "atlantis":
        from test_atlantis_fuzz import table
        state = table()
    else:
        from altassar_helpers import Game
        state = Game().s
    view = rs.view(state, role)
    drawing = rs.draw(view)
    assert isinstance(drawing, Drawing)
    assert rs.text_map(view) == text_map(drawing)
    svg = map_for(game, view)
    titles = [re.search(r"<title>([^<]*)</title>", str(h["svg"])).group(1) for h in svg["hexes"]]
    assert len(titles) == len(drawing.board.labels())
    for title in titles:
        label = title.split(":")[0]
        tip = str(escape(drawing.space(label).tooltip()))
        assert title == (f"{label}: {tip}" if tip else label)
