"""`pbem demo` writes an index.html linking every report by role and phase, and prints its path
(issue 8, "What a new user ran into": the demo ended by naming a folder).

What the index must link is read from the folder itself (every report file the demo wrote), and
what a link points at is checked by opening the file: the text report of phase 2.green for red
says "Report for red" and "Turn 2, phase green"."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse


class Table(HTMLParser):
    """The index's table as {(row header, column header): [hrefs]}, and every href."""

    def __init__(self):
        super().__init__()
        self.cols, self.cells, self.hrefs = [], {}, []
        self.row, self.col, self.in_th, self.text = None, -1, False, ""
        self.in_table = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.in_table = True
        elif tag == "tr":
            self.row, self.col = None, -1
        elif tag in ("th", "td"):
            self.col += 1
            self.in_th, self.text = tag == "th", ""
        elif tag == "a":
            href = dict(attrs)["href"]
            self.hrefs.append(href)
            if self.in_table and self.row is not None:
                self.cells.setdefault((self.row, self.cols[self.col]), []).append(href)

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_table = False
        if tag == "th" and self.in_table:
            if self.row is None and self.col == 0 and not self.cols:
                self.cols.append(self.text)
            elif self.col == 0:
                self.row = self.text
            elif not self.cells and self.row is None:
                self.cols.append(self.text)

    def handle_data(self, data):
        self.text += data


def parse(path: Path) -> Table:
    t = Table()
    t.feed(path.read_text(encoding="utf-8"))
    return t


def test_demo_prints_the_index_path(demo_game):
    index = Path(demo_game["out"]) / "index.html"
    assert demo_game["output"].splitlines()[-1] == f"index of every report: {index}"
    assert index.is_file()


def test_the_index_links_every_report_by_relative_links(demo_game):
    out = Path(demo_game["out"])
    t = parse(out / "index.html")
    files = sorted(p for p in (out / "reports").rglob("*") if p.is_file())
    assert len(files) > 100
    targets = []
    for href in t.hrefs:
        u = urlparse(href)
        assert not u.scheme and not u.netloc and not href.startswith("/"), href
        targets.append((out / unquote(u.path)).resolve())
    assert all(p.exists() for p in targets)
    assert sorted(p for p in targets if p.is_file() and "reports" in p.parts) == \
        [p.resolve() for p in files]


def test_each_cell_holds_the_report_of_its_phase_and_role(demo_game):
    out = Path(demo_game["out"])
    t = parse(out / "index.html")
    assert t.cols == ["phase", "red", "green", "blue", "public"]
    red = t.cells[("2.green", "red")]
    assert sorted(Path(h).suffix for h in red) == [".html", ".txt"]
    text = (out / unquote(next(h for h in red if h.endswith(".txt")))).read_text()
    assert "Report for red" in text and "Turn 2, phase green" in text
    public = (out / unquote(next(h for h in t.cells[("setup", "public")]
                                 if h.endswith(".txt")))).read_text()
    assert "Public report" in public and "The game has been set up." in public
    # the rows in the order the phases were played: setup, then 0.setup, 1.red...
    rows = list(dict.fromkeys(r for r, _ in t.cells))
    assert rows[:4] == ["setup", "0.setup", "1.red", "1.green"]
    # the public log, as `pbem verify` takes it
    assert f"{demo_game['game']}.jsonl" in t.hrefs


def test_names_are_escaped_and_links_encoded(tmp_path):
    """write_index on names a browser must not read as markup: the title, a phase and a file
    name with <, &, quotes, a space and #."""
    from pbem.demo import write_index

    folder = tmp_path / "reports" / "red"
    folder.mkdir(parents=True)
    phase = '1.<b>"x"&y'
    path = folder / "001-a b#c.txt"
    path.write_text("report")
    log = tmp_path / "g.jsonl"
    log.write_text("")
    index = write_index(tmp_path, "<script>alert(1)</script>", ["red"],
                        [({"seq": 1, "phase": phase, "role": "red", "fmt": "text"}, path)], log,
                        ["<i>red</i>"])
    raw = index.read_text()
    assert "<script>" not in raw and "<b>" not in raw and "<i>red" not in raw
    t = parse(index)
    assert t.cells[(phase, "red")] == ["reports/red/001-a%20b%23c.txt"]
    assert (tmp_path / unquote(t.cells[(phase, "red")][0])).read_text() == "report"
