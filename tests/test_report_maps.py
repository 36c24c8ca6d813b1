"""The maps of the HTML reports (issue 10): every game's report, drawn from the reader's view
through the kit (pbem.boards.drawing, pbem.reports.svgmap, templates/map*.svg.j2), shows one
counter per piece of the Drawing at its space (the ``data-piece``/``data-space`` contract of
docs/rulesets.md, "draw"), the moves and attacks of the reader's own events as arrows and
attack marks, a legend of colour swatches, and no hidden fact of another reader; the text map
and the lines under it fit 78 columns; the example reports stay under 150 KB.

Random positions come from random games played at the ruleset level (as in
tests/test_conformance.py), each phase's events kept with the state they led to."""

from __future__ import annotations

import copy
import hashlib
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbem.boards.drawing import Drawing, DrawingError, Piece, Space, text_map, wrap_line
from pbem.engine import registry
from pbem.engine.ruleset import PUBLIC, Chance
from pbem.engine.values import Event
from pbem.reports.context import map_events, report_context
from pbem.reports.render import environment, render_html
from pbem.reports.svgmap import map_for, svg_context

ROOT = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
GAMES = ("atlantis", "altassar", "attackforce", "olympica")
LIMIT = 150_000
"""Bytes of an HTML report at most (issue 10)."""


# ---------------------------------------------------------------- random positions

def _seed(*words) -> bytes:
    return hashlib.sha256("/".join(map(str, words)).encode()).digest()


def _roles(rs) -> tuple:
    spec = getattr(rs, "role_spec", None)
    names = tuple(spec().names if spec is not None else rs.role_names)
    return names[:min(rs.max_roles, max(rs.min_roles, 3))]


_PLAYED: dict = {}


def positions(name: str, seed: int = 0, windows: int = 400) -> list:
    """``[(state, roles, events)]`` after each phase of a random game of ``name`` (the state
    dumped and loaded between phases, as the engine does), played once per test run."""
    from pbem.dice import DiceStream

    key = (name, seed)
    if key in _PLAYED:
        return _PLAYED[key]
    rs = registry.get(name)
    roles = _roles(rs)
    rng = random.Random(f"maps/{name}/{seed}")
    gid = f"maps-{name}-{seed}"
    hidden = _seed(gid, "hidden")
    options = rs.validate_options({})
    data = rs.load_data(None)
    hexmap = rs.load_map(None, "stand-in map")
    chance = Chance(DiceStream(_seed(gid, "0.create"), gid, "0.create", {}),
                    DiceStream(hidden, gid, "0.create", {}, hidden=True))
    state, events = rs.setup(list(roles), options, data, hexmap, chance)
    out = [(state, roles, list(events))]
    for i in range(windows):
        state = rs.load(copy.deepcopy(rs.dump(state)))
        w = rs.window(state)
        if w is None:
            break
        orders = {}
        for role in list(w.owed) + [r for r in w.optional if rng.random() < 0.3]:
            body = rs.bot_orders(rs.view(state, role), w, role, rng)
            orders[role], _ = rs.parse(role, w, body, 9)
        nonces = {r: f"{i:032x}" for r in orders}
        chance = Chance(DiceStream(_seed(gid, w.phase_id, i), gid, w.phase_id, nonces),
                        DiceStream(hidden, gid, w.phase_id, nonces, hidden=True))
        res = rs.resolve(state, orders, chance)
        out.append((state, roles, list(res.events)))
        state = rs.load(copy.deepcopy(rs.dump(state)))
        out[-1] = (state, roles, out[-1][2])
    _PLAYED[key] = out
    return out


def report(rs, state, role: str, events: list) -> tuple[str, dict, Drawing, list]:
    """The HTML report of ``role`` for ``state`` after a phase with ``events`` (the reader's
    own kept, as pbem.engine.publish does): ``(html, view, drawing, map events)``."""
    view = rs.view(state, role)
    seen = [e for e in events if e.visible_to(role)]
    ctx = report_context(
        game={"id": "maps", "title": rs.title, "ruleset": rs.name}, role=role, zone=None,
        view=view, board=rs.text_map(view), log={"lines": 1, "head": "0" * 64}, events=seen,
        rolls=[], reveal=None, problems=[], reported=None, next_window=None, template=None,
        outcome=None, setup=None, now=NOW)
    html = render_html(rs.name, dict(ctx, svg=map_for(rs, view)))
    return html, view, rs.draw(view), ctx["map_events"]


def the_map(html: str) -> ET.Element:
    """The SVG map of an HTML report, parsed."""
    found = re.search(r'<svg class="map".*?</svg>', html, re.S)
    assert found, "the report has no SVG map"
    return ET.fromstring(found.group(0))


def sample(name: str) -> list:
    """About a dozen positions of a random game, evenly spread, with the last one."""
    played = positions(name)
    step = max(1, len(played) // 12)
    return played[::step] + [played[-1]]


def readers(roles) -> list:
    return list(roles) + [PUBLIC]


# ---------------------------------------------------------------- the contract

@pytest.mark.parametrize("name", GAMES)
def test_one_counter_per_piece_at_its_space(name):
    rs = registry.get(name)
    for state, roles, events in sample(name):
        for role in readers(roles):
            html, view, drawing, _ = report(rs, state, role, events)
            svg = the_map(html)
            labels = [board_label for board_label in _labels(drawing)]
            spaces = [g.get("data-space") for g in svg.iter(f"{NS}g")
                      if g.get("data-space") is not None and g.get("data-piece") is None]
            assert sorted(spaces) == sorted(labels)
            drawn = Counter((g.get("data-piece"), g.get("data-space"))
                            for g in svg.iter(f"{NS}g") if g.get("data-piece") is not None)
            wanted = Counter((p.key, label) for label, sp in drawing.spaces.items()
                             for p in sp.pieces)
            assert drawn == wanted, (name, role)
            for g in svg.iter(f"{NS}g"):
                if g.get("data-space") is not None and g.get("data-piece") is None:
                    title = g.find(f"{NS}title").text
                    assert title.startswith(g.get("data-space"))
                    for p in drawing.space(g.get("data-space")).pieces:
                        assert p.title in title


def _labels(drawing) -> list:
    board = drawing.board
    if hasattr(board, "labels"):
        return list(board.labels())
    return [board.label(s) for s in board.spaces()]


@pytest.mark.parametrize("name", GAMES)
def test_moves_are_arrows_and_attacks_are_marked(name):
    """Over a random game, every move and attack of a reader's events is drawn on its map,
    and the game draws some of each."""
    rs = registry.get(name)
    moves = attacks = 0
    for state, roles, events in positions(name)[:120]:
        for role in (roles[0], PUBLIC):
            html, _, drawing, marks = report(rs, state, role, events)
            svg = the_map(html)
            drawn_moves = [g.get("data-move") for g in svg.iter(f"{NS}g")
                           if g.get("data-move") is not None]
            drawn_attacks = [(g.get("data-attack"), g.get("data-result"))
                             for g in svg.iter(f"{NS}g") if g.get("data-attack") is not None]
            assert drawn_moves == [" ".join(m["path"]) for m in marks if m["kind"] == "move"]
            assert drawn_attacks == [(f"{m['from']} {m['to']}", m["result"]) for m in marks
                                     if m["kind"] == "attack"]
            for g in svg.iter(f"{NS}g"):
                if g.get("data-move") is not None:
                    assert g.find(f"{NS}polyline").get("marker-end") == "url(#mv-head)"
            moves += len(drawn_moves)
            attacks += len(drawn_attacks)
            # only the reader's events are drawn
            seen = {e.text for e in events if e.visible_to(role)}
            assert all(m["text"] in seen for m in marks)
    assert moves > 0 and attacks > 0, (name, moves, attacks)


@pytest.mark.parametrize("name", GAMES)
def test_legend_swatches_and_a_self_contained_page(name):
    rs = registry.get(name)
    state, roles, events = positions(name)[min(5, len(positions(name)) - 1)]
    html, _, drawing, _ = report(rs, state, roles[0], events)
    legend = re.search(r'<ul class="legend".*?</ul>', html, re.S).group(0)
    items = re.findall(r'<li data-legend="(\w+)"><svg [^>]*><rect [^>]*fill="(#[0-9a-f]+|none)"',
                       legend)
    kinds = Counter(k for k, _ in items)
    assert kinds["terrain"] == len(drawing.fills) and kinds["terrain"] > 1
    assert kinds["special"] == len(drawing.specials) > 0
    assert kinds["side"] == len(drawing.sides) > 0
    for colour in drawing.fills.values():
        assert f'fill="{colour}"' in legend
    # self-contained: nothing fetched, no script; scales to the page width, prints on A4
    assert "<script" not in html and "http://" not in html.replace(
        'xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html
    assert 'name="viewport"' in html and "svg.map { display: block; width: 100%" in html
    assert "@media print" in html and "size: A4" in html
    svg = the_map(html)
    assert svg.get("viewBox") == f"0 0 {svg.get('width')} {svg.get('height')}"


@pytest.mark.parametrize("name", GAMES)
def test_the_text_map_fits_78_columns(name):
    rs = registry.get(name)
    for state, roles, _ in sample(name):
        for role in readers(roles):
            for line in rs.text_map(rs.view(state, role)).splitlines():
                assert len(line) <= 78, (name, role, line)


@pytest.mark.parametrize("name", GAMES)
def test_reports_stay_small(name):
    rs = registry.get(name)
    for state, roles, events in sample(name)[-3:]:
        for role in readers(roles):
            assert len(report(rs, state, role, events)[0].encode()) < LIMIT


def test_every_example_html_report_is_under_150_kb():
    reports = sorted((ROOT / "examples").glob("*/reports/*/*.html"))
    assert len(reports) > 30
    for path in reports:
        assert path.stat().st_size < LIMIT, path
        html = path.read_text(encoding="utf-8")
        if "<svg" in html:
            assert 'class="legend"' in html and 'data-legend="terrain"' in html, path


# ---------------------------------------------------------------- no hidden fact

def test_the_empire_never_sees_the_explosion_before_it_is_turned_up():
    rs = registry.get("attackforce")
    shown_to_arcturan = 0
    for state, roles, events in positions("attackforce"):
        for role in readers(roles):
            html, view, drawing, _ = report(rs, state, role, events)
            svg = ET.tostring(the_map(html), encoding="unicode")
            if role == "arcturan":
                shown_to_arcturan += "H!" in svg
                continue
            assert "H!" not in svg and "your secret" not in svg, role
            for g in the_map(html).iter(f"{NS}g"):
                if (g.get("data-piece") or "").startswith("h") and "dn" in g.get("class"):
                    assert "explosion" not in g.find(f"{NS}title").text
    assert shown_to_arcturan  # the Arcturan Player does see it on its own map


def test_an_atlantis_value_is_drawn_only_for_a_reader_who_has_seen_it():
    rs = registry.get("atlantis")
    seen_values = 0
    for state, roles, events in positions("atlantis")[:40]:
        for role in readers(roles):
            html, view, drawing, _ = report(rs, state, role, events)
            known = view.get("known_values") or {}
            for g in the_map(html).iter(f"{NS}g"):
                pid = g.get("data-piece")
                if pid not in view["people"]:
                    continue
                values = [t.text for t in g.iter(f"{NS}text") if t.get("class") == "v"]
                if pid in known:
                    assert values == [str(known[pid])]
                    seen_values += 1
                    if not view.get("reveal"):
                        assert view["people"][pid]["owner"] == role
                else:
                    assert values == [] and "worth" not in g.find(f"{NS}title").text
    assert seen_values  # owners do see their people's values while placing


def test_an_altassar_face_down_counter_shows_only_its_marker():
    rs = registry.get("altassar")
    face_down = 0
    for state, roles, events in sample("altassar"):
        for role in readers(roles):
            if role == "confederation":
                continue
            html, view, drawing, _ = report(rs, state, role, events)
            for g in the_map(html).iter(f"{NS}g"):
                m = g.get("data-piece")
                if m not in view["markers"] or view["markers"][m].get("kind"):
                    continue
                face_down += 1
                assert "dn" in g.get("class").split()
                assert [t.text for t in g.iter(f"{NS}text")][:1] == [m]
                assert not [t for t in g.iter(f"{NS}text") if t.get("class") == "v"]
    assert face_down


# ---------------------------------------------------------------- the kit

def _pond():
    from test_drawing import pond
    return pond()


def test_map_events_reads_paths_and_attacks_and_ignores_other_data():
    events = [Event("move", "a frog hops", (PUBLIC,), {"path": ["0101", "0201", "0302"]}),
              Event("hop", "too short", (PUBLIC,), {"path": ["0101"]}),
              Event("bite", "kermit bites", (PUBLIC,),
                    {"attack": {"from": "0201", "to": "0302", "hit": True}}),
              Event("volley", "two shots", (PUBLIC,),
                    {"attack": [{"from": "0101", "to": "0102", "hit": False},
                                {"from": "0202", "to": "0202", "result": "DE"}]}),
              Event("odds", "odds", (PUBLIC,), {"attack": 7, "map_attack": {"from": "0301",
                                                                            "to": "0301"}}),
              Event("note", "nothing to draw", (PUBLIC,), {"hex": "0101"})]
    marks = map_events(events)
    assert [(m["kind"], m.get("path"), m.get("result")) for m in marks] == [
        ("move", ["0101", "0201", "0302"], None), ("attack", None, "hit"),
        ("attack", None, "miss"), ("attack", None, "DE"), ("attack", None, "")]
    drawing = Drawing(board=_pond(), spaces={"0201": Space("water", "F", "water", (
        Piece("F", "kermit", side="frogs", symbol="Frg", values="1-2"),))},
        fills={"water": "#3af"}, sides={"frogs": "#3a3"})
    marks.append({"kind": "move", "text": "off the map", "path": ["0101", "9999"]})
    svg = ET.fromstring(environment().get_template("map.svg.j2").render(
        svg=svg_context(drawing), map_events=marks))
    assert [g.get("data-move") for g in svg.iter(f"{NS}g") if g.get("data-move")] == [
        "0101 0201 0302"]
    attacks = [(g.get("data-attack"), g.get("data-result"), g.find(f"{NS}line") is not None)
               for g in svg.iter(f"{NS}g") if g.get("data-attack")]
    assert attacks == [("0201 0302", "hit", True), ("0101 0102", "miss", True),
                       ("0202 0202", "DE", False), ("0301 0301", "", False)]
    counter = next(g for g in svg.iter(f"{NS}g") if g.get("data-piece"))
    assert (counter.get("data-piece"), counter.get("data-space")) == ("F", "0201")
    assert [t.text for t in counter.iter(f"{NS}text")] == ["Frg", "1-2"]
    assert counter.get("class") == "c k0"


def test_a_piece_face_down_shows_its_id_only():
    p = Piece("u05C", "u05", side="conf", symbol="Ter", values="1-2-6", face_down=True,
              id="u05")
    assert (p.key, p.face) == ("u05", "u05")
    assert (Piece("B2").key, Piece("B2", symbol="Boat").face) == ("B2", "Boat")


def test_sides_specials_and_legend_items():
    drawing = Drawing(board=_pond(), fills={"water": "#3af", "deep-water": "#03a"},
                      sides={"frogs": "#3a3"}, specials={"home": ("#f00", "home pond")},
                      terrain_names={"water": "shallow water"})
    assert drawing.legend_items() == [("terrain", "#3af", "shallow water"),
                                      ("terrain", "#03a", "deep water"),
                                      ("special", "#f00", "home pond"),
                                      ("side", "#3a3", "frogs")]
    with pytest.raises(DrawingError, match="side 'frogs'"):
        Drawing(board=_pond(), sides={"frogs": "green"})
    with pytest.raises(DrawingError, match="special space"):
        Drawing(board=_pond(), specials={"home": ("red", "home")})


def test_a_special_space_is_outlined():
    drawing = Drawing(board=_pond(), spaces={"0101": Space("water", special="home")},
                      fills={"water": "#3af"}, specials={"home": ("#f00", "home pond")})
    text = environment().get_template("map.svg.j2").render(svg=svg_context(drawing))
    assert ".x-home{stroke:#f00}" in text
    space = next(g for g in ET.fromstring(text).iter(f"{NS}g") if g.get("data-space") == "0101")
    assert [p.get("class") for p in space.findall(f"{NS}polygon")] == [None, "x x-home"]


def test_long_legend_and_note_lines_wrap_with_a_hanging_indent():
    words = " ".join(f"word{i}" for i in range(40))
    drawing = Drawing(board=_pond(), legend=("Legend: " + words,), notes=("  " + words, "short"))
    lines = text_map(drawing).splitlines()
    under = lines[next(i for i, line in enumerate(lines) if line.startswith("Legend")):]
    assert all(len(line) <= 78 for line in under)
    assert under[0].startswith("Legend: word0") and under[1].startswith("  word")
    second = [line for line in under if line.startswith("  word0")]
    assert second and under[under.index(second[0]) + 1].startswith("    word")
    assert under[-1] == "short"
    assert " ".join(" ".join(under).split()) == " ".join(("Legend: " + words + " " + words
                                                          + " short").split())
    assert wrap_line("x" * 90) == ("x" * 90,)
