"""Why a signature failed: what can be seen in the text that did not verify.

:func:`pbem.crypto.find.find_signed` adds the sentence :func:`signature_hint` returns to a
:class:`~pbem.crypto.find.BadSignature`'s ``reason``, so that a player learns more than "the
text was changed after it was signed": a mail client that re-wrapped long lines, a file saved
with a byte-order mark, with mixed line ends or with spaces at the ends of lines (which matter
to an SSH signature, made over the file's exact bytes), or a text whose characters were changed
by a wrong character set on the way. These are heuristics, used only on signatures that
already failed.
"""

from __future__ import annotations

import re

from pbem.crypto.lines import is_quoted, split_lines

__all__ = [
    "HINT_BOM",
    "HINT_CHARSET",
    "HINT_MIXED_LINE_ENDS",
    "HINT_REWRAPPED",
    "HINT_TRAILING_SPACE",
    "looks_rewrapped",
    "signature_hint",
]

_HEADER_LIKE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*[ \t]*:")
_TRAILING_SPACE = re.compile(rb"[ \t]\r?$", re.MULTILINE)

WRAP_MIN_LINE = 66
"""Shortest line (characters, trailing whitespace excluded) :func:`looks_rewrapped` considers cut."""
WRAP_MAX_LINE = 78
"""Longest such line: RFC 5322 section 2.1.1 recommends lines of at most 78 characters."""
WRAP_MIN_WIDTH = 72
"""Narrowest wrap width of common mail clients (Thunderbird ``mailnews.wraplength``, mutt, Outlook 76)."""


HINT_REWRAPPED = "your mail client seems to have re-wrapped the lines; send the orders as an attachment"
HINT_BOM = (
    "the file starts with a byte-order mark (what Windows Notepad saves as \"UTF-8 with BOM\"); "
    "save it as UTF-8 without a byte-order mark and sign it again"
)
HINT_MIXED_LINE_ENDS = (
    "the file mixes Windows (CR LF) and Unix (LF) line ends; save it with one kind throughout "
    "and sign it again"
)
HINT_TRAILING_SPACE = (
    "some lines end in spaces or tabs, which mail programs often remove; remove them and sign "
    "the file again, or attach it instead of pasting it"
)
HINT_CHARSET = (
    "some characters seem to have been changed by a wrong character set on the way (such as "
    "'\u00c3\u00a9' for '\u00e9', or '\ufffd'); send the orders as a UTF-8 attachment"
)
_MOJIBAKE = re.compile("[\u00c2\u00c3\u00e2][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013-\u203a\u20ac\u2122]|\ufffd")


def signature_hint(
    text: str, raw: bytes | None = None, *, exact_bytes: bool = False, rewrapped: bool | None = None
) -> str | None:
    """A sentence naming the likely cause of a failed signature, or ``None`` if none is seen.

    ``text``: the signed text as found (decoded); ``raw``: its bytes as received, when known.
    ``exact_bytes``: the signature covers the file's exact bytes (an SSH signature), so a
    byte-order mark, mixed line ends and trailing spaces matter (a pbem envelope's canonical
    form removes them: docs/signing.md section 5). ``rewrapped``: the caller already knows
    whether :func:`looks_rewrapped` holds (``None``: find out here); a known re-wrap gives no
    hint, since the caller words it (:attr:`BadSignature.rewrapped`).

    Checked in this order, the first that holds wins: re-wrapped lines
    (:data:`HINT_REWRAPPED`); then for exact bytes a leading UTF-8 or UTF-16 byte-order mark
    (:data:`HINT_BOM`), CR LF and lone LF (or CR) line ends together
    (:data:`HINT_MIXED_LINE_ENDS`), a line ending in a space or tab (:data:`HINT_TRAILING_SPACE`);
    then, for both, UTF-8 read as Latin-1/windows-1252 (``Ã©``, ``â€™``) or U+FFFD
    (:data:`HINT_CHARSET`). Never raises.
    """
    if rewrapped is None and looks_rewrapped(text):
        return HINT_REWRAPPED
    if exact_bytes:
        data = raw if raw is not None else text.encode("utf-8", "surrogatepass")
        if data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")) or text.startswith("\ufeff"):
            return HINT_BOM
        crlf = data.count(b"\r\n")
        if crlf and (data.count(b"\n") > crlf or data.count(b"\r") > crlf):
            return HINT_MIXED_LINE_ENDS
        if _TRAILING_SPACE.search(data):
            return HINT_TRAILING_SPACE
    if _MOJIBAKE.search(text):
        return HINT_CHARSET
    return None


def looks_rewrapped(text: str) -> bool:
    """True if ``text`` seems to have been re-wrapped by a mail client (hard line breaks added).

    Mail clients that send plain text without format=flowed break long lines at the last space
    before a width of 72 to 78 columns (Thunderbird 72, Outlook 76, RFC 5322's recommended 78).
    The heuristic flags a line L, not quoted, of 66 to 78 characters (trailing whitespace not
    counted), followed by a line N that is not blank, not quoted, not a comment (``#``), not an
    armour line (``-----``) and does not start like a header (``word:``), when N's first word
    would not have fitted after L within 72 columns: ``len(L) + 1 + len(first word of N) > 72``.
    Such an L is exactly where a client wrapping at some width in 72..78 would have cut. Order
    lines are short, so a legitimate line this long is rare; the hint is only given for
    signatures that already failed.
    """
    lines = split_lines(text)
    for current, following in zip(lines, lines[1:]):
        cur = current.rstrip()
        if not WRAP_MIN_LINE <= len(cur) <= WRAP_MAX_LINE or is_quoted(cur):
            continue
        nxt = following.strip()
        if not nxt or nxt.startswith((">", "#", "-----")) or _HEADER_LIKE.match(nxt):
            continue
        if len(cur) + 1 + len(nxt.split()[0]) > WRAP_MIN_WIDTH:
            return True
    return False
