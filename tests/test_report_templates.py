"""The referee's template folder (issue 10: "A referee's template folder (`--templates DIR` or
`[reports] templates` in the settings) overrides any template, per game or for all"): the lookup
order (per game, per ruleset, for all, then pbem's own), the option beating the setting, clear
errors for a missing folder and a broken template (the phase is not half processed), the page's
safety kept, and pbem's own output unchanged. docs/reports.md documents it."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.reports import render

ROOT = Path(__file__).resolve().parent.parent
NOW = "2026-11-29T20:00:00Z"


@pytest.fixture(autouse=True)
def _pbem_templates_after():
    yield
    render.use_templates(None)


@pytest.fixture
def home(tmp_path):
    return tmp_path / "home"


def pbem(home, *args, templates=None, ok=True):
    opts = ["--home", str(home), "--now", NOW]
    if templates is not None:
        opts += ["--templates", str(templates)]
    r = CliRunner().invoke(main, [*opts, *args], catch_exceptions=False)
    if ok:
        assert r.exit_code == 0, r.output
    return r


@pytest.fixture
def keys(home, tmp_path):
    pbem(home, "init")
    for name in ("red", "blue", "green"):
        pbem(home, "keygen", name, "--dir", str(tmp_path / "k"))
    return tmp_path / "k"


def new_game(home, keys, game_id, ruleset="hunt", templates=None, ok=True):
    roles = ("red", "blue") if ruleset == "hunt" else ("red", "blue", "green")
    players = [a for r in roles for a in ("--player", f"{r}={r}@x.example:{keys / (r + '.pub')}")]
    return pbem(home, "game", "new", ruleset, "--id", game_id, "--from", "referee@example.org",
                *players, "--deadline", "48h", templates=templates, ok=ok)


def report(home, game_id, fmt="text", role="*", phase=None):
    args = ["report", game_id, "--role", role, "--format", fmt]
    if phase:
        args += ["--phase", phase]
    return pbem(home, *args).output


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_for_all_per_ruleset_and_per_game_each_reach_their_games_only(home, keys, tmp_path):
    tpl = tmp_path / "tpl"
    write(tpl / "report.txt.j2", "ALL GAMES {{ game.id }}\n")
    write(tpl / "hunt" / "report.txt.j2", "EVERY HUNT {{ game.id }}\n")
    write(tpl / "games" / "h2" / "report.txt.j2", "ONLY H2 {{ game.id }}\n")
    write(tpl / "games" / "h3" / "forces.txt.j2", "FORCES OF H3\n")  # included by pbem's
    for gid in ("h1", "h2", "h3"):
        new_game(home, keys, gid, templates=tpl)
    new_game(home, keys, "a1", ruleset="atlantis", templates=tpl)
    new_game(home, keys, "plain")  # no --templates: pbem's own
    assert report(home, "a1") == "ALL GAMES a1\n"
    assert report(home, "h1") == "EVERY HUNT h1\n"
    assert report(home, "h2") == "ONLY H2 h2\n"
    # h3's own folder has no report.txt.j2: the ruleset's applies, with h3's forces nowhere
    # in it; the HTML reports, not overridden, are pbem's (with h3's forces.txt.j2 unused)
    assert report(home, "h3") == "EVERY HUNT h3\n"
    for gid in ("h1", "h2", "h3"):
        assert report(home, gid, "html").startswith("<!DOCTYPE html>")
        assert "ALL GAMES" not in report(home, gid, "html")
    assert "FORCES OF H3" not in report(home, "plain")


def test_an_include_is_looked_up_for_the_same_game(home, keys, tmp_path):
    tpl = tmp_path / "tpl"
    write(tpl / "games" / "h1" / "forces.txt.j2", "FORCES OF H1\n")
    write(tpl / "games" / "h1" / "forces.html.j2", "<p>forces of h1 &amp; co</p>\n")
    new_game(home, keys, "h1", templates=tpl)
    new_game(home, keys, "h2", templates=tpl)
    new_game(home, keys, "plain")
    text, html = report(home, "h1"), report(home, "h1", "html")
    assert "FORCES OF H1" in text and "<p>forces of h1 &amp; co</p>" in html
    assert "FORCES OF H1" not in report(home, "h2") + report(home, "h2", "html")
    # h2's reports are pbem's, laid out as those of a game without --templates
    for fmt in ("text", "html"):
        assert len(report(home, "h2", fmt).splitlines()) == \
            len(report(home, "plain", fmt).splitlines())


def test_the_option_beats_the_setting(home, keys, tmp_path):
    write(home / "setting-tpl" / "report.txt.j2", "FROM THE SETTING\n")
    write(tmp_path / "option-tpl" / "report.txt.j2", "FROM THE OPTION\n")
    write(home / "config.toml", '[reports]\ntemplates = "setting-tpl"\n')
    new_game(home, keys, "h1")
    new_game(home, keys, "h2", templates=tmp_path / "option-tpl")
    assert report(home, "h1") == "FROM THE SETTING\n"
    assert report(home, "h2") == "FROM THE OPTION\n"


def test_a_missing_folder_is_named(home, keys, tmp_path):
    r = new_game(home, keys, "h1", templates=tmp_path / "nowhere", ok=False)
    assert r.exit_code == 2 and "--templates" in r.output and "nowhere" in r.output
    write(home / "config.toml", '# the referee\'s settings\n[reports]\ntemplates = "nowhere"\n')
    r = new_game(home, keys, "h1", ok=False)
    assert r.exit_code == 1, r.output
    assert "config.toml, line 3: [reports] templates" in r.output
    assert str(home / "nowhere") in r.output and "no such folder" in r.output
    assert "h1" not in pbem(home, "status").output  # nothing half made
    r = pbem(home, "status")  # a command that renders nothing is not stopped
    assert r.exit_code == 0


@pytest.mark.parametrize("text,words", [
    ("{{ game.id }}\n{% if %}\n", "line 2: Expected an expression"),
    ("{{ game.id }}\n\n{{ no_such_name }}\n", "line 3: 'no_such_name' is undefined"),
    ("{% include 'nothing.txt.j2' %}\n", "line 1: no template nothing.txt.j2"),
    ("{{ 1 + game.id }}\n", "line 1: TypeError"),
])
def test_a_broken_template_stops_the_phase_cleanly(home, keys, tmp_path, text, words):
    tpl = tmp_path / "tpl"
    good = write(tpl / "games" / "h1" / "report.txt.j2", "GOOD {{ game.id }}\n")
    new_game(home, keys, "h1", templates=tpl)
    before = pbem(home, "status", "--json").output
    log_before = pbem(home, "log", "h1", "--json").output
    write(good, text)
    r = pbem(home, "process", "--game", "h1", "--force", templates=tpl, ok=False)
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    assert r.output.startswith(f"Error: {good}, ") and words in r.output, r.output
    # the transaction of the phase was rolled back: same window, same log, no report
    assert pbem(home, "status", "--json").output == before
    assert pbem(home, "log", "h1", "--json").output == log_before
    write(good, "FIXED {{ game.id }}\n")
    pbem(home, "process", "--game", "h1", "--force", templates=tpl)
    assert pbem(home, "status", "--json").output != before
    out = pbem(home, "report", "h1", "--role", "*").output
    assert out == "FIXED h1\n"


# --- through the API: safety, caching, pbem's own output ------------------------------------

def _context(game_id="g1", ruleset="hunt", title="A <b>bold</b> & game"):
    from pbem.reports.context import report_context

    return report_context(
        game={"id": game_id, "title": title, "ruleset": ruleset}, role="red", zone=None,
        view={}, board="", log={"lines": 3, "head": "ab" * 32}, events=[], rolls=[],
        reveal=None, problems=[], reported=None, next_window=None, template=None,
        outcome=None, setup=None, now=datetime(2026, 11, 29, 20, tzinfo=UTC))


def test_html_stays_escaped_and_strict(tmp_path):
    tpl = tmp_path / "tpl"
    write(tpl / "report.html.j2", "<h1>{{ game.title }}</h1>\n")
    render.use_templates(tpl)
    assert render.render_html("hunt", _context()) == \
        "<h1>A &lt;b&gt;bold&lt;/b&gt; &amp; game</h1>\n"
    write(tpl / "games" / "g2" / "report.html.j2", "{{ game.titel }}\n")
    with pytest.raises(render.ReportTemplateError, match="line 1: .*titel"):
        render.render_html("hunt", _context("g2"))


@pytest.mark.parametrize("text,words", [
    ("<h1>{{ game.title | safe }}</h1>\n", "the filter 'safe' is not allowed"),
    ("{% filter safe %}{{ game.title }}{% endfilter %}\n", "the filter 'safe'"),
    ("{% autoescape false %}{{ game.title }}{% endautoescape %}\n", "autoescape"),
    ("{% include 'pbem/report.txt.j2' %}\n", "only .html.j2 and .svg.j2"),
    ("{% extends 'mine.txt.j2' %}\n", "only .html.j2 and .svg.j2"),
])
def test_an_override_cannot_switch_off_escaping(tmp_path, text, words):
    tpl = tmp_path / "tpl"
    page = write(tpl / "report.html.j2", text)
    write(tpl / "mine.txt.j2", "{{ game.title }}\n")
    render.use_templates(tpl)
    with pytest.raises(render.ReportTemplateError, match=re.escape(words)) as e:
        render.render_html("hunt", _context())
    assert str(e.value).startswith(f"{page}, line 1: ")


def test_pbem_own_templates_are_reachable_as_pbem_slash(tmp_path):
    plain = render.render_text("hunt", _context())
    tpl = tmp_path / "tpl"
    write(tpl / "report.txt.j2", "Club header\n{% include 'pbem/report.txt.j2' %}")
    render.use_templates(tpl)
    assert render.render_text("hunt", _context()) == "Club header\n" + plain


def test_an_empty_folder_changes_nothing(tmp_path):
    default_env = render.environment()
    contexts = [_context(), _context("g2", "atlantis")]
    plain = [(render.render_text(c["game"]["ruleset"], c),
              render.render_html(c["game"]["ruleset"], dict(c, svg=""))) for c in contexts]
    (tmp_path / "empty").mkdir()
    render.use_templates(tmp_path / "empty")
    env = render.environment()
    assert env is not default_env and render.environment() is env  # one per folder, cached
    assert [(render.render_text(c["game"]["ruleset"], c),
             render.render_html(c["game"]["ruleset"], dict(c, svg=""))) for c in contexts] == plain
    render.use_templates(None)
    assert render.environment() is default_env


def test_receipts_and_rejections_are_overridden_too(tmp_path):
    tpl = tmp_path / "tpl"
    write(tpl / "games" / "g1" / "rejection.txt.j2", "NOT ACCEPTED in {{ game }}\n")
    render.use_templates(tpl)
    ctx = {"reasons": ["no"], "subject": "s", "received": "now", "warnings": []}
    assert render.render("rejection.txt.j2", dict(ctx, game="g1")) == "NOT ACCEPTED in g1\n"
    assert render.render("rejection.txt.j2", dict(ctx, game="g2")).startswith(
        render._default_environment().get_template("rejection.txt.j2").render(
            dict(ctx, game="g2"))[:20])


# --- the documentation ----------------------------------------------------------------------

DOC = ROOT / "docs" / "reports.md"


def test_the_docs_list_every_key_a_report_template_gets():
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## The variables", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^- `(\w+)`", section, re.MULTILINE))
    assert listed == set(_context()) | {"svg"}, listed ^ (set(_context()) | {"svg"})


def test_the_documented_header_example_works(tmp_path):
    """The example of docs/reports.md, as written: a header of the club's, then pbem's report
    unchanged."""
    text = DOC.read_text(encoding="utf-8")
    example = re.search(r"```jinja\n(\{#- TEMPLATES/report\.txt\.j2.*?)```", text, re.DOTALL).group(1)
    contexts = [_context(), _context("g2", "atlantis")]
    plain = [render.render_text(c["game"]["ruleset"], c) for c in contexts]
    write(tmp_path / "templates" / "report.txt.j2", example)
    render.use_templates(tmp_path / "templates")
    for c, default in zip(contexts, plain):
        out = render.render_text(c["game"]["ruleset"], c)
        assert out.startswith("Northern Wargamers' Club") and out.endswith(default)
        assert out.index(default) > 0 and c["game"]["id"] in out[:out.index(default)]


# --- the [reports] settings -------------------------------------------------------------------

def test_the_setting_is_a_folder_relative_to_home(tmp_path):
    from pbem.engine.settings import load_reports_settings

    home = tmp_path / "home"
    (home / "tpl").mkdir(parents=True)
    assert load_reports_settings(home).templates is None  # no file
    write(home / "config.toml", '[reports]\ntemplates = "tpl"\n')
    got = load_reports_settings(home)
    assert got.templates == home / "tpl" and "config.toml" in got.source
    (tmp_path / "abs").mkdir()
    write(home / "config.toml", f'[reports]\ntemplates = "{tmp_path / "abs"}"\n')
    assert load_reports_settings(home).templates == tmp_path / "abs"


@pytest.mark.parametrize("toml,words", [
    ('[reports]\ntemplate = "tpl"\n', "line 2: [reports] template: no such setting; expected templates"),
    ('[reports]\n\ntemplates = 3\n', "line 3: [reports] templates = 3: expected a folder in quotes"),
    ('[reports]\ntemplates = ""\n', "line 2: [reports] templates = \"\": expected a folder"),
    ('[report]\ntemplates = "tpl"\n', "line 1: no settings table [report]; expected one of"),
])
def test_a_bad_setting_names_the_file_and_line(tmp_path, toml, words):
    from pbem.engine.settings import SettingsError, load_reports_settings

    write(tmp_path / "config.toml", toml)
    with pytest.raises(SettingsError) as e:
        load_reports_settings(tmp_path)
    assert str(e.value).startswith(str(tmp_path / "config.toml")) and words in str(e.value)
