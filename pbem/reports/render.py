"""Rendering reports with Jinja2 (DESIGN.md layout: ``templates/``).

Text reports (the mail body) are ``<game>/report.txt.j2`` if the game has one, else
``report.txt.j2``; HTML reports (the attachment, autoescaped) likewise ``report.html.j2``.
Undefined names are errors (``StrictUndefined``), so a template cannot silently print nothing
where a fact was expected. The environment is built once per process and caches compiled
templates.
"""

from __future__ import annotations

from functools import lru_cache

from pbem.engine.ruleset import visible


@lru_cache(maxsize=1)
def environment():
    """The shared Jinja environment over the project's ``templates/`` folder."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    from pbem.resources import templates_dir

    env = Environment(
        loader=FileSystemLoader(str(templates_dir())),
        autoescape=select_autoescape(enabled_extensions=("html", "html.j2", "svg.j2"),
                                     default_for_string=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["wrap"] = _wrap
    env.filters["visible"] = visible
    return env


@lru_cache(maxsize=2048)
def _wrap(text: str, width: int = 78, indent: str = "  ") -> str:
    """``text`` filled to ``width`` columns, later lines indented by ``indent``. Remembered:
    receipts and reports wrap the same sentences again and again (a tenth of a receipt's time
    went to textwrap)."""
    import textwrap

    return textwrap.fill(text, width=width, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False)


def _template(ruleset: str, kind: str):
    env = environment()
    return env.select_template([f"{ruleset}/report.{kind}.j2", f"report.{kind}.j2"])


def render_text(ruleset: str, context: dict) -> str:
    """The plain-text report for ``context`` (see pbem.reports.context.report_context)."""
    return _template(ruleset, "txt").render(context)


def render_html(ruleset: str, context: dict) -> str:
    """The HTML report (with an SVG map where the game provides one)."""
    return _template(ruleset, "html").render(context)


def render(name: str, context: dict) -> str:
    """Render any template by name (receipts, rejections, the setup page)."""
    return environment().get_template(name).render(context)
