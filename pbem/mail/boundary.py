"""The multipart boundary line of the standard :mod:`email` parser, matched without compiling a
regular expression per message (issue 11: batch ingest at 1,500 mails a second).

``email.feedparser`` compiles, for every multipart it parses, the pattern

    (?P<sep>SEPARATOR)(?P<end>--)?(?P<ws>[ \\t]*)(?P<linesep>\\r\\n|\\r|\\n)?$

where ``SEPARATOR`` is ``--`` and the boundary, escaped (``re.escape``). Boundaries are random
per message, so Python's pattern cache never helps, and compiling the pattern costs about
0.9 million instructions (0.1 ms) a message: about a tenth of reading a signed mail.
:func:`install` gives the feedparser module a view of :mod:`re` whose ``compile`` returns, for
exactly that pattern, a :class:`BoundaryLine` that answers ``match(line)`` as the compiled
pattern would (same groups, same span), by plain string comparison; every other pattern, and
every other attribute of the module, is :mod:`re`'s own. A pattern of another form (a future
Python writing it differently) is compiled by :mod:`re` as before.

``match`` follows the regular expression's semantics exactly, backtracking included (the
tests compare the two on every kind of line): the line starts with the separator, then
optionally ``--``, then spaces and tabs, then optionally one line end (``\\r\\n``, ``\\r`` or
``\\n``, in that order of preference), and then the string ends, or has one ``\\n`` left
(``$`` without MULTILINE).
"""

from __future__ import annotations

import re

__all__ = ["BoundaryLine", "install"]

_HEAD = "(?P<sep>"
_TAIL = r")(?P<end>--)?(?P<ws>[ \t]*)(?P<linesep>\r\n|\r|\n)?$"
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)


class _Match:
    """What ``re.Match`` gives the feedparser: ``group(name or 0, ...)``, ``start``, ``end``,
    ``span`` and truth."""

    __slots__ = ("_text", "_groups", "_end")

    def __init__(self, text: str, groups: dict, end: int):
        self._text, self._groups, self._end = text, groups, end

    def group(self, *names):
        if not names:
            names = (0,)
        values = [self._text[:self._end] if n == 0 else self._groups[n] for n in names]
        return values[0] if len(values) == 1 else tuple(values)

    def __getitem__(self, name):
        return self.group(name)

    def groupdict(self, default=None) -> dict:
        return {k: (default if v is None else v) for k, v in self._groups.items()}

    def start(self, group=0) -> int:
        if group == 0:
            return 0
        return self.span(group)[0]

    def end(self, group=0) -> int:
        if group == 0:
            return self._end
        return self.span(group)[1]

    def span(self, group=0) -> tuple[int, int]:
        if group == 0:
            return 0, self._end
        offset = 0
        for name in ("sep", "end", "ws", "linesep"):
            value = self._groups[name]
            if name == group:
                return (-1, -1) if value is None else (offset, offset + len(value))
            offset += len(value or "")
        raise IndexError("no such group")


class BoundaryLine:
    """The feedparser's boundary pattern for one ``separator``: :meth:`match` answers as
    ``re.compile(pattern).match`` (module doc); ``pattern`` is the pattern it stands for. Any
    other method of a compiled pattern is the real one's (compiled when first asked for)."""

    __slots__ = ("separator", "pattern", "_compiled")

    def __init__(self, separator: str, pattern: str):
        self.separator, self.pattern, self._compiled = separator, pattern, None

    def match(self, line: str, *args):
        if args or not isinstance(line, str):
            return self._real().match(line, *args)
        sep = self.separator
        if not line.startswith(sep):
            return None
        after = len(sep)
        if line.startswith("--", after):  # (?P<end>--)? is greedy: with it first
            found = _rest(line, after + 2)
            if found is not None:
                return _Match(line, {"sep": sep, "end": "--", "ws": found[0],
                                     "linesep": found[1]}, found[2])
        found = _rest(line, after)
        if found is None:
            return None
        return _Match(line, {"sep": sep, "end": None, "ws": found[0], "linesep": found[1]},
                      found[2])

    def _real(self):
        if self._compiled is None:
            self._compiled = re.compile(self.pattern)
        return self._compiled

    def __getattr__(self, name):
        return getattr(self._real(), name)


def _rest(line: str, at: int):
    """``(ws, linesep, end of the match)`` where ``[ \\t]*(\\r\\n|\\r|\\n)?$`` matches ``line``
    from ``at``, or None. Fewer spaces never help: the next character would be a space or a
    tab, which neither a line end nor ``$`` takes."""
    n = len(line)
    stop = at
    while stop < n and line[stop] in " \t":
        stop += 1
    for linesep in ("\r\n", "\r", "\n", None):
        if linesep is None:
            end = stop
        elif line.startswith(linesep, stop):
            end = stop + len(linesep)
        else:
            continue
        if end == n or (end == n - 1 and line[end] == "\n"):
            return line[at:stop], linesep, end
    return None


class _ReView:
    """:mod:`re` as the feedparser sees it after :func:`install`."""

    def compile(self, pattern, flags=0):
        if (flags == 0 and isinstance(pattern, str) and pattern.startswith(_HEAD)
                and pattern.endswith(_TAIL)):
            escaped = pattern[len(_HEAD):len(pattern) - len(_TAIL)]
            separator = _ESCAPED.sub(r"\1", escaped)
            if re.escape(separator) == escaped:
                return BoundaryLine(separator, pattern)
        return re.compile(pattern, flags)

    def __getattr__(self, name):
        return getattr(re, name)


def install() -> None:
    """Give ``email.feedparser`` the view of :mod:`re` above (idempotent)."""
    from email import feedparser

    if not isinstance(feedparser.re, _ReView):
        feedparser.re = _ReView()
