"""Line handling shared by the key, envelope and signature readers.

Texts reach :mod:`pbem.crypto` with any line ends (LF, CRLF, lone CR), so every reader splits
them the same way and numbers lines from 1, counting as the canonical form does (DESIGN.md
"Signed orders": CRLF and lone CR are each one line break).
"""

from __future__ import annotations

import re

__all__ = ["split_lines", "is_quoted", "quote"]

_QUOTED = re.compile(r" *>")


def split_lines(text: str) -> list[str]:
    """Split ``text`` at LF, CRLF and lone CR (not at the other breaks ``str.splitlines`` knows).

    A leading U+FEFF is dropped. Line ``i`` of the result is line ``i + 1`` for messages. A final
    line break does not produce a last empty line (``"a\\n"`` gives ``["a"]``).
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def is_quoted(line: str) -> bool:
    """True if ``line`` is a mail quote: after optional leading spaces it starts with ``>``.

    Quoted lines are replies' copies of earlier text; their markers never count (brief section 3).
    """
    return _QUOTED.match(line) is not None


def quote(value: str | bytes, limit: int = 72) -> str:
    """Return ``repr(value)`` cut to about ``limit`` characters, for quoting input in messages."""
    r = repr(value)
    return r if len(r) <= limit else r[: limit - 3] + "..."
