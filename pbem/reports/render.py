"""Rendering reports with Jinja2 (DESIGN.md layout: ``templates/``).

Text reports (the mail body) are ``<game>/report.txt.j2`` if the game has one, else
``report.txt.j2``; HTML reports (the attachment, autoescaped) likewise ``report.html.j2``.
Undefined names are errors (``StrictUndefined``), so a template cannot silently print nothing
where a fact was expected. The environment is built once per process and caches compiled
templates.

The referee's template folder (``pbem --templates DIR`` or ``[reports] templates`` in
HOME/config.toml; docs/reports.md) overrides any template, most specific first::

    DIR/games/<game id>/NAME      this game only
    DIR/<ruleset>/NAME            every game of this ruleset
    DIR/NAME                      every game
    templates/<ruleset>/NAME      pbem's own (where a ruleset has one), then templates/NAME

A template of the folder reaches pbem's own as ``pbem/NAME`` (``{% include
"pbem/report.txt.j2" %}`` after a header of the referee's).

The command line sets the folder with :func:`use_templates`; without one, everything runs as
before through the one default environment. With one, an environment per folder (cached)
resolves *scoped* template names, ``"<ruleset>|<game>|NAME"``, so that what a template
includes is looked up for the same game. A template that does not parse, or fails while
rendering, raises :class:`ReportTemplateError` naming the file and the line.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from pbem.engine.errors import SetupError


class ReportTemplateError(SetupError):
    """A template (pbem's or the referee's) cannot be read, does not parse or fails while
    rendering; the message names the file and the line."""


_AUTOESCAPED = ("html", "html.j2", "svg.j2")


def default_environment():
    """pbem's own Jinja environment (its templates only), whatever folder is in force."""
    return _default_environment()


@lru_cache(maxsize=1)
def _default_environment():
    """The shared Jinja environment over the project's ``templates/`` folder."""
    from jinja2 import FileSystemLoader, TemplateNotFound

    from pbem.resources import templates_dir

    class _OwnLoader(FileSystemLoader):
        """pbem's own templates do not change while it runs: a name found missing (a
        ruleset's own ``RULESET/report.html.j2`` tried before the common one, twice a
        report) is not looked for on disk again (Jinja caches only the templates found)."""

        missing: set = set()

        def get_source(self, environment, template):
            if template in self.missing:
                raise TemplateNotFound(template)
            try:
                return super().get_source(environment, template)
            except TemplateNotFound:
                self.missing.add(template)
                raise

    # ... and no stat of the file on every render either (auto_reload off)
    return _configure(_environment_class()(loader=_OwnLoader(str(templates_dir())),
                                           auto_reload=False, **_options()))


def _options() -> dict:
    from jinja2 import StrictUndefined, select_autoescape

    return {
        "autoescape": select_autoescape(enabled_extensions=_AUTOESCAPED,
                                        default_for_string=False),
        "undefined": StrictUndefined,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "keep_trailing_newline": True,
    }


def _configure(env):
    from pbem.engine.ruleset import visible
    from pbem.reports.svghex import num  # every number of the SVG map, as svghex writes it

    env.filters["wrap"] = _wrap
    env.filters["wrap_comments"] = _wrap_comments
    env.filters["visible"] = visible
    env.filters["map_events_svg"] = _map_events_svg
    env.filters["num"] = num
    return env


def _map_events_svg(events: list, svg: dict):
    from pbem.reports.svgmap import events_svg

    return events_svg(events, svg)


@lru_cache(maxsize=2048)
def _wrap(text: str, width: int = 78, indent: str = "  ") -> str:
    """``text`` filled to ``width`` columns, later lines indented by ``indent``. Remembered:
    receipts and reports wrap the same sentences again and again (a tenth of a receipt's time
    went to textwrap)."""
    import textwrap

    return textwrap.fill(text, width=width, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False)


def _wrap_comments(text: str, width: int = 78) -> str:
    """An order template with each comment line (``#``) longer than ``width`` folded into
    comment lines of ``width`` (later ones ``#   ``); order lines are never folded (a player
    copies them as they are)."""
    out = []
    for line in text.split("\n"):
        if len(line) > width and line.lstrip().startswith("#"):
            out.append(_wrap(line, width, "#   "))
        else:
            out.append(line)
    return "\n".join(out)


# --- the referee's folder ---------------------------------------------------------------------

_pending: tuple | None = None
"""(folder given on the command line or None, HOME) still to be resolved, or None."""
_folder: Path | None = None
"""The referee's template folder in use (None: pbem's templates only)."""


def use_templates(folder: str | Path | None = None, *, home: str | Path | None = None) -> None:
    """Use the referee's template folder ``folder`` (``pbem --templates DIR``), else the
    ``[reports] templates`` setting of ``home``/config.toml; with neither, pbem's own
    templates only. The folder is looked up when the first template is needed (so a command
    that renders nothing never reads the settings); a missing folder is an error then."""
    global _pending, _folder
    _folder = None
    _pending = (folder, home) if folder is not None or home is not None else None


def template_folder() -> Path | None:
    """The referee's template folder in use, or None. Raises :class:`SettingsError` (naming
    the setting's file and line) or :class:`ReportTemplateError` when it does not exist."""
    global _pending, _folder
    if _pending is not None:
        folder, home = _pending
        if folder is not None:
            path = Path(folder).expanduser()
            if not path.is_dir():
                raise ReportTemplateError(f"--templates {folder}: no such folder "
                                          "(a folder of templates; docs/reports.md)")
        else:
            from pbem.engine.settings import load_reports_settings

            path = load_reports_settings(Path(home)).templates
        _folder, _pending = (path.resolve() if path is not None else None), None
    return _folder


@contextmanager
def templates_in(folder: str | Path | None):
    """Inside the block, render with the referee's folder ``folder`` (absolute, as
    :func:`template_folder` gave it; None: pbem's own templates), whatever the command chose;
    its choice is back after the block. A stored report is rendered with the folder in force
    when its phase was resolved (pbem.engine.reportstore). Raises ReportTemplateError when the
    folder is gone."""
    global _pending, _folder
    if folder is not None and not Path(folder).is_dir():
        raise ReportTemplateError(f"{folder}: no such folder; this mail (a report, receipt or "
                                  "rejection) is rendered with the templates of the folder in "
                                  "force when it was made (docs/reports.md): put the folder "
                                  "back there, or a copy of it")
    saved = _pending, _folder
    _pending, _folder = None, (Path(folder) if folder is not None else None)
    try:
        yield
    finally:
        _pending, _folder = saved


def environment():
    """The Jinja environment: pbem's own (shared, built once), or, with a referee's folder,
    that folder's over pbem's (templates asked for by plain name: the folder's top level,
    then pbem's)."""
    if _pending is None and _folder is None:
        return _default_environment()
    folder = template_folder()
    return _default_environment() if folder is None else _folder_environment(folder)


_NAME_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def _scope(folder: Path, ruleset: str | None, game: str | None) -> tuple[str, str]:
    """(ruleset, game) of the scoped names for a game: the game only when the folder has
    ``games/<game>/`` (so games without their own templates share compiled templates)."""
    ruleset = ruleset if ruleset and _NAME_PART.match(ruleset) else ""
    game = game if game and _NAME_PART.match(game) and (folder / "games" / game).is_dir() else ""
    return ruleset, game


def _scoped(scope: tuple[str, str], name: str) -> str:
    return f"{scope[0]}|{scope[1]}|{name}"


def _unscoped(name: str) -> tuple[str, str, str]:
    parts = name.split("|", 2)
    return (parts[0], parts[1], parts[2]) if len(parts) == 3 else ("", "", name)


@lru_cache(maxsize=1)
def _environment_class():
    """Environment that names the file and the line of any template error (and, for a
    referee's folder, keeps scoped names scoped through include, import and extends)."""
    from jinja2 import Environment

    class _Environment(Environment):
        def handle_exception(self, source=None):
            try:
                super().handle_exception(source)
            except Exception as e:
                failure = _as_failure(e)
                if failure is None:
                    raise
                raise failure from e

    return _Environment


def _as_failure(e: BaseException) -> ReportTemplateError | None:
    """``e``, raised by a template, as a ReportTemplateError naming the file and line; None
    for an error raised by Python code a template called (a bug: its traceback is kept)."""
    import traceback

    from jinja2 import TemplateError, TemplateNotFound, TemplateSyntaxError

    if isinstance(e, ReportTemplateError):
        return e
    if isinstance(e, TemplateSyntaxError):
        where = e.filename or _unscoped(e.name or "?")[2]
        return ReportTemplateError(f"{where}, line {e.lineno}: {e.message}")
    frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename.endswith(".j2")]
    last = traceback.extract_tb(e.__traceback__)[-1:] if e.__traceback__ else []
    if not isinstance(e, TemplateError) and not (frames and last and last[0] == frames[-1]):
        return None
    where = f"{frames[-1].filename}, line {frames[-1].lineno}" if frames else "a template"
    message = getattr(e, "message", None) or str(e)
    if isinstance(e, TemplateNotFound):
        message = f"no template {_unscoped(e.name or message)[2]}"
    if not isinstance(e, TemplateError):
        message = f"{type(e).__name__}: {message}"
    return ReportTemplateError(f"{where}: {message}")


@lru_cache(maxsize=8)
def _folder_environment(folder: Path):
    """The environment of a referee's template folder over pbem's own (one per folder)."""
    from pbem.resources import templates_dir

    base = _environment_class()

    class _FolderEnvironment(base):
        def join_path(self, template: str, parent: str) -> str:
            ruleset, game, name = _unscoped(parent)
            if (parent in loader.referees and _autoescaped(name)
                    and not _autoescaped(_unscoped(template)[2])):
                from jinja2 import TemplateRuntimeError

                raise TemplateRuntimeError(  # named with its file and line by _as_failure
                    "an HTML or SVG template may include, import "
                    f"or extend only .html.j2 and .svg.j2 templates, not {template} (its text "
                    "would reach the page unescaped)")
            return template if "|" in template else _scoped((ruleset, game), template)

    loader = _FolderLoader(folder, templates_dir())
    return _configure(_FolderEnvironment(loader=loader, cache_size=1000, **_options()))


def _autoescaped(name: str) -> bool:
    return name.lower().endswith(tuple("." + x for x in _AUTOESCAPED))


class _FolderLoader:
    """Finds a scoped name ``"<ruleset>|<game>|NAME"`` in the referee's folder (per game, per
    ruleset, for all), then in pbem's; a name ``<ruleset>/NAME`` (pbem's per-ruleset
    template) is looked up as NAME in the referee's folder, then as itself in pbem's."""

    has_source_access = True

    def __init__(self, folder: Path, own: Path):
        self.folder, self.own = folder, own
        self.referees: dict[str, str] = {}  # scoped name -> the referee's file it came from

    def candidates(self, template: str) -> list[tuple[Path, bool]]:
        from jinja2.loaders import split_template_path

        ruleset, game, name = _unscoped(template)
        pieces = split_template_path(name)  # TemplateNotFound for "..": nothing outside
        if len(pieces) > 1 and pieces[0] == "pbem":  # pbem's own, to include or extend
            return [(self.own.joinpath(*pieces[1:]), False)]
        rest = pieces[1:] if ruleset and len(pieces) > 1 and pieces[0] == ruleset else pieces
        found = []
        if game:
            found.append((self.folder.joinpath("games", game, *rest), True))
        if ruleset:
            found.append((self.folder.joinpath(ruleset, *rest), True))
        found.append((self.folder.joinpath(*rest), True))
        found.append((self.own.joinpath(*pieces), False))
        return found

    def get_source(self, environment, template: str):
        from jinja2 import TemplateNotFound

        candidates = self.candidates(template)
        for i, (path, referee) in enumerate(candidates):
            if not path.is_file():
                continue
            before = [p for p, _ in candidates[:i]]
            try:
                source = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                raise ReportTemplateError(f"{path}: cannot be read as a UTF-8 template ({e})") \
                    from None
            if referee:
                self.referees[template] = str(path)
                if _autoescaped(template):
                    _check_safety(environment, source, template, str(path))
            mtime = path.stat().st_mtime

            def uptodate(path=path, mtime=mtime, before=before):
                # the same file, unchanged, and no more specific one since
                return (path.is_file() and path.stat().st_mtime == mtime
                        and not any(p.is_file() for p in before))

            return source, str(path), uptodate
        raise TemplateNotFound(_unscoped(template)[2])

    def load(self, environment, name, globals=None):
        from jinja2.loaders import BaseLoader

        return BaseLoader.load(self, environment, name, globals)


def _check_safety(environment, source: str, name: str, filename: str) -> None:
    """Refuse a referee's HTML or SVG template that would print unescaped text: the ``safe``
    filter, or an ``{% autoescape %}`` block (players' words reach the page)."""
    from jinja2 import TemplateSyntaxError, nodes

    try:
        tree = environment.parse(source, name, filename)
    except TemplateSyntaxError as e:
        raise ReportTemplateError(f"{filename}, line {e.lineno}: {e.message}") from None
    for node in tree.find_all((nodes.Filter, nodes.ScopedEvalContextModifier,
                               nodes.EvalContextModifier)):
        if isinstance(node, nodes.Filter) and node.name != "safe":
            continue
        what = ("the filter 'safe'" if isinstance(node, nodes.Filter)
                else "an {% autoescape %} block")
        raise ReportTemplateError(
            f"{filename}, line {node.lineno}: {what} is not allowed in an HTML or SVG template "
            "of the referee's folder: everything printed there is escaped (players' words "
            "reach the page)")


# --- rendering --------------------------------------------------------------------------------


def _game_of(context: dict) -> tuple[str | None, str | None]:
    """(ruleset, game id) named by a template context: ``game`` is a report's ``{"id",
    "ruleset", ...}`` or a receipt's game id."""
    game = context.get("game")
    if isinstance(game, dict):
        return game.get("ruleset"), game.get("id")
    return None, game if isinstance(game, str) else None


def _template(ruleset: str, kind: str, game: str | None = None):
    if _pending is None and _folder is None:  # pbem's templates only: as it always was
        env = _default_environment()
        key = (id(env), ruleset, kind)
        found = _DEFAULT_PICKED.get(key)
        if found is None or found[0] is not env:
            found = _DEFAULT_PICKED[key] = (env, env.select_template(
                [f"{ruleset}/report.{kind}.j2", f"report.{kind}.j2"]))
        return found[1]
    return _select([f"{ruleset}/report.{kind}.j2", f"report.{kind}.j2"], ruleset, game)


_DEFAULT_PICKED: dict = {}
"""``{(environment id, ruleset, kind): (environment, template)}``: the report template pbem's
own environment picked for a ruleset (its templates are the package's files and never
reload, so the pick holds; a referee's folder is looked up each time, its files may
change)."""


def _select(names: list[str], ruleset: str | None, game: str | None):
    folder = template_folder()
    if folder is None:
        return _default_environment().select_template(names)
    env = _folder_environment(folder)
    scope = _scope(folder, ruleset, game)
    return env.select_template([_scoped(scope, n) for n in names])


def render_text(ruleset: str, context: dict) -> str:
    """The plain-text report for ``context`` (see pbem.reports.context.report_context)."""
    return _render(_template, ruleset, "txt", context)


def render_html(ruleset: str, context: dict) -> str:
    """The HTML report (with an SVG map where the game provides one)."""
    return _render(_template, ruleset, "html", context)


def _render(pick, ruleset: str, kind: str, context: dict) -> str:
    if _pending is None and _folder is None:
        return pick(ruleset, kind).render(context)
    try:
        return pick(ruleset, kind, _game_of(context)[1]).render(context)
    except Exception as e:
        failure = _as_failure(e)
        if failure is None or failure is e:
            raise
        raise failure from e


def render(name: str, context: dict, *, ruleset: str | None = None,
           game: str | None = None) -> str:
    """Render any template by name (receipts, rejections, the setup page). With a referee's
    folder, the game's overrides apply: ``game`` and ``ruleset`` as given, else as the
    context's ``game`` names them (a receipt's context names the game, not its ruleset)."""
    if _pending is None and _folder is None:
        return _default_environment().get_template(name).render(context)
    named_ruleset, named_game = _game_of(context)
    try:
        return _select([name], ruleset or named_ruleset, game or named_game).render(context)
    except Exception as e:
        failure = _as_failure(e)
        if failure is None or failure is e:
            raise
        raise failure from e
