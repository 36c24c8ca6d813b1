"""Plain text from an HTML mail body, for messages that carry no text/plain part at all.

Some clients (phones, webmail, Outlook set to HTML) send only ``text/html``. Players' orders
in such a mail are lines of text inside ``<div>``, ``<p>`` or ``<br>``-separated runs, so the
text is rebuilt the way a browser lays it out, line by line (HTML Living Standard, "Rendering":
block boxes start on a new line, white space collapses), using :mod:`html.parser` from the
standard library:

- a block element (``div``, ``p``, ``li``, ``tr``, ``h1``..., ``blockquote``, ``pre``, ...)
  starts and ends a line, without adding empty lines (``<p>a</p><p>b</p>`` gives ``a\\nb``,
  like Outlook's one-``<p>``-per-line mails are meant to read); ``<br>`` ends a line, so the
  empty line that Gmail and Apple Mail write as ``<div><br></div>`` stays an empty line;
- runs of ASCII white space (space, tab, CR, LF, FF) collapse to one space, and spaces at the
  start and end of a line are dropped, except inside ``<pre>``, where text is kept as is;
- character references are decoded: ``&amp;`` gives ``&``, and ``&nbsp;`` gives U+00A0 (a
  no-break space, which is not collapsed and not dropped, as in a browser);
- ``<blockquote>`` (how Gmail, Outlook and Apple Mail quote the mail being answered) prefixes
  each of its lines with ``>`` per level and a space, as a plain-text reply would, so that
  quoted text is recognisable as quoted;
- the content of ``script``, ``style``, ``title`` and ``template`` and all comments (including
  Outlook's conditional comments) are not text and are left out.

Hostile input is bounded: at most :data:`MAX_QUOTE_MARKS` (32) ``>`` are written before a line,
however deeply ``<blockquote>`` nests (a deeper line is still quoted, which is all that matters:
quoted lines never carry orders), so that a body of 120,000 nested blockquotes does not turn
into gigabytes of ``>``; and the text returned is at most :data:`MAX_OUTPUT_RATIO` times the
length of the HTML plus :data:`OUTPUT_SLACK` characters (a longer text is cut at a line end).
Time and memory are linear in the length of the HTML.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCKS = frozenset(
    "address article aside blockquote body caption center dd details dialog dir div dl dt "
    "fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html legend li "
    "main menu nav ol p pre section summary table tbody tfoot thead tr ul".split()
)
# A table row (tr) is one line; its cells are separated by one space.
_CELLS = frozenset(("td", "th"))
_HIDDEN = frozenset(("script", "style", "title", "template"))
_ASCII_WS = re.compile(r"[ \t\n\r\f]+")

MAX_QUOTE_MARKS = 32
"""Most ``>`` written before a line of quoted text, however deep the ``<blockquote>`` nesting."""
MAX_OUTPUT_RATIO = 4
"""The text returned is at most this many times ``len(html)`` characters, plus OUTPUT_SLACK."""
OUTPUT_SLACK = 4096


def html_to_text(html: str) -> str:
    """Return the text a reader sees in ``html``, one output line per rendered line.

    ``html``: an HTML document or fragment, already decoded to ``str`` with the part's charset.
    Returns LF-separated lines ending with a final LF (``""`` when there is no text at all).
    Never raises: :class:`html.parser.HTMLParser` is lenient and unknown markup is ignored.
    Layout rules and bounds (:data:`MAX_QUOTE_MARKS`, :data:`MAX_OUTPUT_RATIO`): see this
    module's docstring.
    """
    builder = _TextBuilder(MAX_OUTPUT_RATIO * len(html) + OUTPUT_SLACK)
    builder.feed(html)
    builder.close()
    return builder.text()


class _TextBuilder(HTMLParser):
    """Collects rendered lines while :class:`HTMLParser` walks the markup."""

    def __init__(self, budget: int) -> None:
        super().__init__(convert_charrefs=True)
        self._budget = budget  # characters still allowed in the output
        self._lines: list[str] = []
        self._current: list[str] = []  # pieces of the line being built (never starts with " ")
        self._quote_depth = 0
        self._hidden = 0
        self._pre = 0
        self._pre_fresh = False  # just after <pre>: a first LF there is not content (HTML spec)

    # -- building lines -------------------------------------------------------------------
    def _end_line(self) -> None:
        """End the current line, even if it is empty (``<br>``, LF inside ``<pre>``)."""
        line = "".join(self._current)
        if not self._pre:
            line = line.rstrip(" ")
        if self._quote_depth:
            marks = ">" * min(self._quote_depth, MAX_QUOTE_MARKS)
            line = f"{marks} {line}" if line else marks
        self._current = []
        self._budget -= len(line) + 1
        if self._budget >= 0:
            self._lines.append(line)

    def _break(self) -> None:
        """Make sure the next text starts on a new line (block boundary): no empty line added."""
        if self._current:
            self._end_line()

    def text(self) -> str:
        self._break()
        return "\n".join(self._lines) + "\n" if self._lines else ""

    # -- HTMLParser callbacks ---------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self._hidden += 1
        elif tag == "body":
            self._hidden = 0  # an unclosed <title> in the head must not hide the whole body
        elif tag == "br":
            self._end_line()
        elif tag in _CELLS:
            if self._current and self._current[-1] != " ":
                self._current.append(" ")
        elif tag in _BLOCKS:
            self._break()
            if tag == "blockquote":
                self._quote_depth += 1
            elif tag == "pre":
                self._pre += 1
                self._pre_fresh = True

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _CELLS:
            return
        elif tag in _BLOCKS:
            self._break()
            if tag == "blockquote":
                self._quote_depth = max(0, self._quote_depth - 1)
            elif tag == "pre":
                self._pre = max(0, self._pre - 1)

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        if self._pre:
            if self._pre_fresh and data.startswith("\n"):
                data = data[1:]
            self._pre_fresh = False
            first, *rest = data.replace("\r\n", "\n").split("\n")
            if first:
                self._current.append(first)
            for segment in rest:
                self._end_line()
                if segment:
                    self._current.append(segment)
            return
        data = _ASCII_WS.sub(" ", data)
        if data.startswith(" ") and (not self._current or self._current[-1].endswith(" ")):
            data = data[1:]
        if data:
            self._current.append(data)
