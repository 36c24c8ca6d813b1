"""The reports in a real browser (issue 10): every registered game's reports, rendered by the
real report code from random positions, opened in headless Chromium (tests/browser.py).

Positions: for each game, a random game played with the bots at the ruleset level
(tests/test_conformance.py's ``simulate``: the engine's sequence of calls and dice, no
database), of which :data:`POSITIONS` states spread from the first window to the end are
reported for every reader (each role and the public ``*``), as ``publish_phase`` does: the
reader's own role state, its view, the text map and the SVG map (test_conformance's
``rendered``); and a few windows of a game played through the engine (tests/gameplay.py:
signed, ingested, processed), whose stored reports of the last phase carry the phase's moves
and attacks.

For every HTML report, in Chromium:

- it loads with no console error, no script error and no request (a report is self-contained:
  inline CSS and SVG, nothing fetched);
- it fits a phone screen: at a :data:`~browser.PHONE` px wide viewport the document does not
  scroll sideways (``document.documentElement.scrollWidth <= 375``);
- every piece of the reader's ``Drawing`` (the ruleset's ``draw(view)``,
  pbem.boards.drawing) is drawn at its space, and no other piece is. The contract of the SVG
  map: every space is an element ``data-space="LABEL"``, every piece mark an element
  ``data-piece="KEY" data-space="LABEL"`` (KEY: the Piece's ``key``, its id or text), one per
  Piece; the mark's centre lies in its space's outline.

For every text report (the mail body), shown as a ``<pre>`` page: it loads cleanly, its board
(the text map) has no line wider than 78 characters, and neither has any other line but the
referee's public key line of the setup report (a player copies it whole).

:func:`test_the_browser_checks_can_fail` shows that each check finds what it looks for.

Screenshots (:func:`test_screenshots`): one per game of a worked example's committed report
(``examples/<game>/reports/<role>/``: stable from run to run) at desktop width, at phone
width, and of its text report, into a temporary folder; ``pytest --update-screenshots``
(tests/conftest.py) or ``PBEM_UPDATE_SCREENSHOTS=1`` writes them to
``docs/screenshots/<game>-html.png``, ``<game>-phone.png`` and ``<game>-text.png`` (the
README's "What players get").
"""

from __future__ import annotations

import re

import os
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from browser import (
    DESKTOP,
    PHONE,
    browser_fixture,  # noqa: F401 (the fixture "browser")
    load,
    page_fixture,  # noqa: F401 (the fixture "page")
    text_page,
)

from pbem.engine import registry
from pbem.engine.ruleset import PUBLIC

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(registry.available())
"""Every registered game (the test toy ``hunt`` draws no map and is left out)."""
POSITIONS = 4
"""States of each random game reported: the first window, two between, and the end."""
ENGINE_PHASES = 5
"""Windows of the engine-level game played before its last reports are checked."""
WIDTH = 78
"""The widest line of a text report (a mail client's 80 columns, less quoting)."""
SHOT_MAX = 2600
"""The most of a report's page a screenshot keeps (CSS pixels from the top): it ends under
the map and its legend, or at this height."""


@dataclass
class Report:
    """One reader's report of one position, and the Drawing its map was drawn from."""

    where: str  # "seed 0, window 12 (3.red), reader blue"
    reader: str
    html: str
    text: str
    board: str  # the text map
    drawing: object  # the ruleset's draw(view), or None when it draws nothing


# ---------------------------------------------------------------- the reports

def _ruleset_reports(name: str, seed: int = 0, at=None) -> list[Report]:
    """Every reader's report of :data:`POSITIONS` states of a random game spread from its
    first window to its end (``at``: other fractions of the game, 0 to 1)."""
    from test_conformance import main_roles, rendered, simulate

    from pbem.engine.gamestate import role_state

    rs = registry.get(name)
    roles = main_roles(rs)
    sim = simulate(rs, roles, seed)
    n = len(sim.steps)
    at = at if at is not None else [i / (POSITIONS - 1) for i in range(POSITIONS)]
    picks = sorted({round(f * (n - 1)) for f in at})
    out = []
    for i in picks:
        step = sim.steps[i]
        phase = step.window.phase_id if step.window else "end"
        for reader in list(roles) + [PUBLIC]:
            known = role_state(rs, step.parts, reader)
            r = rendered(rs, known, reader)
            draw = getattr(rs, "draw", None)
            drawing = draw(rs.view(role_state(rs, step.parts, reader), reader)) if draw else None
            out.append(Report(f"seed {seed}, window {i} ({phase}), reader {reader}", reader,
                              r["html report"], r["text report"], r["text map"], drawing))
    return out


class _Enough(Exception):
    pass


def engine_reports(referee, clock, name: str) -> list[Report]:
    """The stored reports of every reader after :data:`ENGINE_PHASES` windows of a random
    game played through the engine (or at its end, if it ends sooner)."""
    from gameplay import new_game, play
    from test_conformance import main_roles

    rs = registry.get(name)
    roles = main_roles(rs)
    gid = f"br-{name}"
    players = new_game(referee, name, roles, gid)
    count = [0]

    def after_phase(_done):
        count[0] += 1
        if count[0] >= ENGINE_PHASES:
            raise _Enough

    try:
        play(referee, clock, players, gid, random.Random(1), nmr_rate=0.1,
             after_phase=after_phase)
    except _Enough:
        pass
    reports = referee.all_reports(gid)
    last = max(r["seq"] for r in reports)
    bodies = {(r["role"], r["fmt"]): r["body"] for r in reports if r["seq"] == last}
    out = []
    for reader in list(roles) + [PUBLIC]:
        view, _window = referee.view_and_window(gid, reader)
        drawing = rs.draw(view) if getattr(rs, "draw", None) else None
        out.append(Report(f"engine game {gid}, phase seq {last}, reader {reader}", reader,
                          bodies[reader, "html"], bodies[reader, "text"], rs.text_map(view),
                          drawing))
    return out


# ---------------------------------------------------------------- what the browser sees

MEASURE = """() => {
  const doc = document.documentElement;
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height}; };
  const shape = (el) => {
    if (el.matches('polygon,rect,path,circle,ellipse')) return el;
    for (const s of el.querySelectorAll('polygon,rect,path,circle,ellipse'))
      if (!s.closest('[data-piece]')) return s;
    return el;
  };
  const spaces = [], pieces = [];
  for (const el of document.querySelectorAll('[data-space]:not([data-piece])'))
    spaces.push({label: el.getAttribute('data-space'), box: box(shape(el))});
  for (const el of document.querySelectorAll('[data-piece]'))
    pieces.push({key: el.getAttribute('data-piece'), space: el.getAttribute('data-space'),
                 box: box(el)});
  return {scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth,
          svgs: document.querySelectorAll('svg').length, spaces, pieces,
          widest: doc.scrollWidth <= innerWidth ? [] : [...document.body.querySelectorAll('*')]
            .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5 && !e.closest('pre'))
            .slice(0, 3).map(e => e.tagName.toLowerCase() + ' '
                             + Math.round(e.getBoundingClientRect().right) + 'px')};
}"""


@dataclass
class Seen:
    report: Report
    problems: list  # console and request problems
    scroll_width: int
    widest: list  # elements sticking out past the phone's width
    svgs: int
    spaces: list
    pieces: list


def see(page, report: Report) -> Seen:
    loaded = load(page, report.html, width=PHONE, height=740)
    m = page.evaluate(MEASURE)
    return Seen(report, loaded.problems(), m["scrollWidth"], m["widest"], m["svgs"],
                m["spaces"], m["pieces"])


def _labels(board) -> list[str]:
    return [board.label(s) for s in board.spaces()]


def _key(piece) -> str:
    return getattr(piece, "key", None) or piece.text


def piece_problems(s: Seen) -> list[str]:
    """Where the SVG map and the reader's Drawing disagree (module docstring)."""
    d = s.report.drawing
    if d is None:
        return []
    found = []
    drawn = {}
    for sp in s.spaces:
        if sp["label"] in drawn:
            found.append(f"space {sp['label']} drawn twice")
        drawn[sp["label"]] = sp["box"]
    labels = _labels(d.board)
    missing = [lb for lb in labels if lb not in drawn]
    if missing:
        found.append(f"spaces without an element data-space: {missing[:8]}")
    extra = sorted(set(drawn) - set(labels))
    if extra:
        found.append(f"data-space elements of no space of the board: {extra[:8]}")
    want = {lb: Counter(_key(p) for p in d.space(lb).pieces) for lb in labels}
    got: dict = {}
    for p in s.pieces:
        got.setdefault(p["space"], Counter())[p["key"]] += 1
        box = drawn.get(p["space"])
        if box is None:
            continue
        cx, cy = p["box"]["x"] + p["box"]["w"] / 2, p["box"]["y"] + p["box"]["h"] / 2
        mx, my = box["w"] * 0.15, box["h"] * 0.15
        if not (box["x"] - mx <= cx <= box["x"] + box["w"] + mx
                and box["y"] - my <= cy <= box["y"] + box["h"] + my):
            found.append(f"piece {p['key']} of {p['space']} is drawn outside its space")
    for lb in sorted(set(want) | set(got)):
        w, g = want.get(lb, Counter()), got.get(lb, Counter())
        if w != g:
            lack, more = w - g, g - w
            found.append(f"{lb}: " + ", ".join(
                ([f"not drawn {sorted(lack.elements())}"] if lack else [])
                + ([f"drawn but not in the view {sorted(more.elements())}"] if more else [])))
    return found


def _where(s: Seen, what) -> str:
    return f"{s.report.where}: {what}"


def check_loads(seen):
    bad = [_where(s, p) for s in seen for p in s.problems]
    assert not bad, bad[:10]


def check_phone(seen) -> None:
    """Every page fits a phone: no sideways scrolling at :data:`~browser.PHONE` px."""
    bad = [_where(s, f"scrollWidth {s.scroll_width} > {PHONE} ({', '.join(s.widest)})")
           for s in seen if s.scroll_width > PHONE]
    assert not bad, bad[:10]


def check_pieces(seen) -> None:
    """The map contract (module docstring): every space and every piece of the Drawing drawn,
    each piece at its space."""
    drawn = [s for s in seen if s.report.drawing is not None]
    if not drawn:
        return
    assert all(s.svgs for s in drawn), [s.report.where for s in drawn if not s.svgs][:5]
    assert all(s.spaces for s in drawn), "the SVG map carries no data-space attribute"
    bad = [_where(s, p) for s in drawn for p in piece_problems(s)]
    assert not bad, bad[:10]


def check_text(page, reports) -> None:
    """Each text report loads as a ``<pre>`` page; its map and every other line but the
    referee's key line (:data:`_KEY_LINE`) fit :data:`WIDTH` columns."""
    bad = []
    for r in reports:
        loaded = load(page, text_page(r.text, r.where), width=DESKTOP)
        bad += [f"{r.where}: {p}" for p in loaded.problems()]
        bad += [f"{r.where}: text map line {len(x)} wide: {x!r}" for x in r.board.splitlines()
                if len(x) > WIDTH]
    assert not bad, bad[:10]
    wide = [f"{r.where}: {len(x)}: {x[:90]!r}" for r in reports for x in r.text.splitlines()
            if len(x) > WIDTH and not _KEY_LINE.match(x)]
    assert not wide, (f"{len(wide)} lines of the text reports are wider than {WIDTH} "
                      f"characters: {wide[:5]}")


_KEY_LINE = re.compile(r"^\s*ssh-ed25519 [A-Za-z0-9+/=]{68} \S+$")
"""The one kind of line allowed past 78 columns: the referee's public key line of the setup
report, which a player copies whole (breaking it would break the key)."""


def check_all(page, seen: list[Seen]):
    """The HTML checks: the page loads cleanly, fits a phone, and draws the map contract."""
    check_loads(seen)
    check_phone(seen)
    check_pieces(seen)


_REPORTS: dict = {}


def random_reports(name: str) -> list[Report]:
    """:func:`_ruleset_reports` of ``name``, made once per worker."""
    if name not in _REPORTS:
        _REPORTS[name] = _ruleset_reports(name)
    return _REPORTS[name]


# ---------------------------------------------------------------- random positions

@pytest.mark.parametrize("name", GAMES)
def test_reports_of_random_positions_in_chromium(name, page):
    """A random game's HTML reports at :data:`POSITIONS` positions, every reader: the page
    loads cleanly, fits a phone, draws every piece of the view at its space and no other."""
    seen = [see(page, r) for r in random_reports(name)]
    assert any(s.pieces for s in seen), "no piece was drawn in any of these positions"
    check_all(page, seen)


@pytest.mark.parametrize("name", GAMES)
def test_text_reports_in_a_pre_page(name, page):
    """The same positions' text reports (the mail body) shown as a ``<pre>`` page: each loads
    cleanly, its map fits 78 columns, and so does every other line but the referee's key."""
    check_text(page, random_reports(name))


# ---------------------------------------------------------------- through the engine

@pytest.mark.parametrize("name", GAMES)
def test_stored_reports_in_chromium(name, page, referee, clock):
    """The reports the engine stored after a few windows (with the phase's moves and attacks
    drawn): the same checks."""
    reports = engine_reports(referee, clock, name)
    check_all(page, [see(page, r) for r in reports])
    for r in reports:
        assert all(len(x) <= WIDTH for x in r.board.splitlines()), f"{r.where}: text map"


# ---------------------------------------------------------------- screenshots

def showcase(name: str) -> tuple[Path, Path]:
    """The worked example's report shown in the README: the last report of the first role
    (alphabetically) that is not the public one; its HTML and text files."""
    folder = ROOT / "examples" / name / "reports"
    roles = sorted(p for p in folder.iterdir() if p.is_dir() and p.name != "public")
    html = max(roles[0].glob("*.html"))
    return html, html.with_suffix(".txt")


def _updating(config) -> bool:
    return bool(config.getoption("--update-screenshots", default=False)
                or os.environ.get("PBEM_UPDATE_SCREENSHOTS", "") not in ("", "0"))


BOTTOM = """() => {
  const full = document.documentElement.scrollHeight;
  let best = null, area = 0;
  for (const svg of document.querySelectorAll('svg')) {
    const r = svg.getBoundingClientRect();
    if (r.width * r.height > area) { area = r.width * r.height; best = r; }
  }
  if (!best || area < 10000) return full;
  let bottom = best.bottom + scrollY;
  for (const el of document.querySelectorAll('[data-legend]'))
    bottom = Math.max(bottom, el.getBoundingClientRect().bottom + scrollY);
  return Math.min(full, Math.ceil(bottom + 16));
}"""
"""Where a report's screenshot ends: under its map (the largest SVG) and its legend, or at
the end of the page when it has no map."""


def _shot(page, html: str, width: int, height: int, path: Path) -> Path:
    loaded = load(page, html, width=width, height=height)
    assert not loaded.problems(), loaded.problems()
    bottom = min(page.evaluate(BOTTOM), SHOT_MAX)
    page.screenshot(path=str(path), clip={"x": 0, "y": 0, "width": width, "height": bottom},
                    full_page=True)
    return path


@pytest.mark.parametrize("name", GAMES)
def test_screenshots(name, page, tmp_path_factory, request):
    html_file, text_file = showcase(name)
    out = (ROOT / "docs" / "screenshots") if _updating(request.config) \
        else tmp_path_factory.mktemp(f"screenshots-{name}")
    out.mkdir(parents=True, exist_ok=True)
    html = html_file.read_text(encoding="utf-8")
    text = text_file.read_text(encoding="utf-8")
    made = [
        _shot(page, html, DESKTOP, 900, out / f"{name}-html.png"),
        _shot(page, html, PHONE, 740, out / f"{name}-phone.png"),
        _shot(page, text_page(text, text_file.name), 700, 900, out / f"{name}-text.png"),
    ]
    for p in made:
        assert p.stat().st_size > 2000 and p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", p


# ---------------------------------------------------------------- the checks can fail

def test_the_browser_checks_can_fail(page):
    """Each check above finds what it looks for: a console error, a request, a page wider
    than a phone, a piece missing, moved out of its space, or added."""
    good = next(r for r in _ruleset_reports("atlantis", at=[0.5]) if r.drawing is not None
                and any(sp.pieces for sp in r.drawing.spaces.values()))
    html = good.html.replace("</body>", "<script>console.error('boom')</script>"
                             "<img src='http://example.invalid/x.png' alt=''>"
                             "<div style='width:600px'>wide</div></body>")
    bad = see(page, Report(good.where, good.reader, html, good.text, good.board, good.drawing))
    assert any("boom" in p for p in bad.problems), bad.problems
    assert any("example.invalid" in p for p in bad.problems), bad.problems
    assert bad.scroll_width > PHONE
    with pytest.raises(AssertionError):
        check_loads([bad])

    base = see(page, good)
    if not base.spaces:
        pytest.skip("the map has no data-space / data-piece attributes yet")
    assert piece_problems(base) == []
    first = base.pieces[0]
    others = [sp["label"] for sp in base.spaces if sp["label"] != first["space"]]
    dropped = dict(vars(base), pieces=base.pieces[1:])
    assert any("not drawn" in p for p in piece_problems(Seen(**dropped)))
    moved = dict(vars(base), pieces=[dict(first, space=others[0])] + base.pieces[1:])
    assert any("not in the view" in p for p in piece_problems(Seen(**moved)))
    # in the page: the first counter shifted far from its space
    load(page, good.html, width=PHONE, height=740)
    page.evaluate("""() => { const el = document.querySelector('[data-piece]');
                             el.setAttribute('transform', 'translate(400,400)'); }""")
    m = page.evaluate(MEASURE)
    shifted = dict(vars(base), pieces=m["pieces"])
    assert any("outside its space" in p for p in piece_problems(Seen(**shifted)))
