"""A real browser for the report tests: one headless Chromium per test session (per xdist
worker), Debian's ``/usr/bin/chromium`` driven by Playwright (PyPI), never a browser that
Playwright downloads itself (``playwright install`` is not used: its download fails on a closed
network, and CI installs Debian's ``chromium`` with apt-get, ``.ci/run``).

Fixtures (a test module imports them: ``from browser import browser_fixture, page_fixture``;
their names are ``browser`` and ``page``):

- ``browser``: the session's Chromium, launched with the flags that keep it quiet on a machine
  without a network (no background networking, component updates, sync, QUIC) and without a
  sandbox (tests may run as root); Playwright gives it a new, empty profile folder. When
  Chromium is not installed the tests that use it are skipped, saying so.
- ``page``: one page of that browser, reused by every test of the worker (a new page costs more
  than loading a report); :func:`load` resets its viewport and listeners for each report.

:func:`load` opens an HTML document in the page with nothing fetched (every request the page
makes is aborted and recorded as a failure: a report must be self-contained) and returns a
:class:`Loaded` with the console errors, page errors and requests seen.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field

import pytest

CHROMIUM = os.environ.get("PBEM_CHROMIUM", "/usr/bin/chromium")
"""The browser the tests drive: Debian's package ``chromium`` (``PBEM_CHROMIUM`` overrides)."""

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
"""Chromium's flags here (see the module docstring); the profile folder is Playwright's own
new temporary one (``--user-data-dir``)."""

PHONE = 375
"""The width of a phone screen in CSS pixels (an iPhone SE, 6, 7, 8, mini)."""

DESKTOP = 1280


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)) \
            and shutil.which(CHROMIUM) is None:
        return (f"Chromium is not installed at {CHROMIUM} (Debian: apt-get install chromium; "
                f".ci/run installs it)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="session", name="browser")
def browser_fixture():
    why = chromium_missing()
    if why:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS,
                               chromium_sandbox=False)
    except Exception:
        pw.stop()
        raise
    try:
        yield b
    finally:
        b.close()
        pw.stop()


@pytest.fixture(scope="session", name="page")
def page_fixture(browser):
    context = browser.new_context(viewport={"width": DESKTOP, "height": 800},
                                  java_script_enabled=True, offline=True)
    p = context.new_page()
    yield p
    context.close()


@dataclass
class Loaded:
    """What happened while a document loaded."""

    console_errors: list = field(default_factory=list)
    page_errors: list = field(default_factory=list)
    requests: list = field(default_factory=list)
    failed: list = field(default_factory=list)

    def problems(self) -> list:
        return ([f"console error: {m}" for m in self.console_errors]
                + [f"page error: {m}" for m in self.page_errors]
                + [f"request (a report fetches nothing): {u}" for u in self.requests]
                + [f"failed request: {u}" for u in self.failed])


def load(page, html: str, width: int = DESKTOP, height: int = 800) -> Loaded:
    """Open ``html`` in ``page`` at a viewport ``width`` x ``height`` CSS pixels, fetching
    nothing, and wait until it is laid out. Returns what went wrong while it loaded."""
    seen = Loaded()

    def on_console(msg):
        if msg.type == "error":
            seen.console_errors.append(msg.text)

    def on_request(req):
        if not req.url.startswith(("data:", "about:")):
            seen.requests.append(req.url)

    def on_route(route):
        route.abort()

    handlers = {"console": on_console, "request": on_request,
                "pageerror": lambda e: seen.page_errors.append(str(e)),
                "requestfailed": lambda r: seen.failed.append(r.url)}
    page.set_viewport_size({"width": width, "height": height})
    for event, handler in handlers.items():
        page.on(event, handler)
    page.route("**/*", on_route)
    try:
        page.set_content(html, wait_until="load")
    finally:
        page.unroute("**/*", on_route)
        for event, handler in handlers.items():
            page.remove_listener(event, handler)
    return seen


def text_page(text: str, title: str = "report") -> str:
    """A plain-text report as a mail client shows it: a ``<pre>`` page in a monospaced font."""
    import html as html_lib

    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html_lib.escape(title)}</title><style>body{{margin:12px;background:#fff}}"
            "pre{font:13px/1.35 monospace;margin:0;color:#111}</style></head><body><pre>"
            f"{html_lib.escape(text)}</pre></body></html>")
