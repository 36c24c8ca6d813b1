"""The message tree of the standard :mod:`email` parser, built without it for mail of the
usual shapes (issue 11: batch ingest at 1,500 mails a second on 2 cores).

``email.parser.BytesParser`` feeds a message through ``email.feedparser``, which handles it
one line at a time (a generator, a line buffer checking every line against the boundaries of
the multiparts it is in, a regular expression per header line): about 0.65 million
instructions for a typical order mail of 1-2 KB, half of reading and verifying it.
:func:`parse` builds the very same tree (the same ``EmailMessage`` objects, holding the same
header pairs, payload strings, preambles and epilogues, no defects) with a few string
searches per part, for mail that is plainly well formed:

- the text decodes as the stdlib decodes it (ASCII, ``surrogateescape``) and every CR is
  part of a CRLF, so lines end exactly where the stdlib's line buffer ends them;
- every header block consists of ``Name: value`` lines (the name of the characters RFC 5322
  3.6.8 allows, ``!`` to ``~`` without ``:``, at least one) and their folded continuations,
  and ends with an empty line; no line of it starts with ``--`` or ``From ``;
- a multipart has a boundary, a transfer encoding of 7bit, 8bit or binary (or none), a start
  boundary and a close boundary, no boundary line directly after another, and is not a
  ``multipart/digest``; no part is of a ``message/*`` type.

For anything else :func:`parse` answers None and the caller parses with the stdlib, which
then reports whatever defect the mail has. The decisions the feedparser takes on a header
(content type, boundary) are taken here by asking the same ``EmailMessage`` methods, and
boundary lines are matched by the feedparser's own pattern (pbem.mail.boundary), so the rules
written out here are only those of the feedparser's line handling (Python 3.11
``email/feedparser.py``: ``_parsegen``, ``_parse_headers``, ``BufferedSubFile``).
tests/test_mail_fastparse.py compares the two trees on generated messages.
"""

from __future__ import annotations

import re
from email.message import EmailMessage

from pbem.mail.boundary import BoundaryLine

__all__ = ["parse"]

_FIELD = re.compile(r"([\041-\071\073-\176]+):([^\n]*\n(?:[ \t][^\n]*\n)*)")
"""One header field: a line starting as the feedparser's ``headerRE`` takes a field (a name of
the characters RFC 5322 3.6.8 allows, not empty: the stdlib records a defect for ``:value``,
then ``:``), with its continuation lines (starting with a space or a tab)."""
_BLOCK = re.compile(r"(?:[\041-\071\073-\176]+:[^\n]*\n(?:[ \t][^\n]*\n)*)+")
"""The header fields of a block, one after the other."""


class _Fallback(Exception):
    """The message is not of a shape :func:`parse` builds: the stdlib parses it."""


def parse(raw: bytes, policy) -> EmailMessage | None:
    """The message ``BytesParser(policy=policy).parsebytes(raw)`` gives, for mail of the shapes
    in the module doc, else None. ``policy`` must be an ``EmailPolicy`` whose message factory
    is ``EmailMessage`` (pbem.mail.extract's). Never raises (MemoryError aside): whatever goes
    wrong here, the stdlib parses the message."""
    text = raw.decode("ascii", "surrogateescape")
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return None  # a lone CR ends a line for the stdlib: not handled here
    try:
        msg, _ = _part(text, 0, (), policy)
    except MemoryError:  # the reader's memory budget: never swallowed
        raise
    except Exception:  # _Fallback; or a header the policy cannot read: the stdlib says why
        return None
    return msg


def _part(text: str, pos: int, matchers: tuple, policy) -> tuple[EmailMessage, tuple]:
    """Parse the part starting at ``pos`` (a line start) whose input ends at the first line
    that one of ``matchers`` (the boundaries of the multiparts it is in) matches; returns the
    part and where its input ends (:func:`_stop`)."""
    msg = policy.message_factory(policy=policy)
    pos = _headers(text, pos, msg)
    ctype = msg.get_content_type()
    maintype = ctype.partition("/")[0]
    if maintype == "message":
        raise _Fallback()
    if maintype != "multipart":
        stop = _stop(text, pos, matchers)
        msg._payload = text[pos:stop[0]]  # EmailMessage.set_payload(str) without a charset
        return msg, stop
    return msg, _multipart(text, pos, matchers, msg, ctype, policy)


def _headers(text: str, pos: int, msg: EmailMessage) -> int:
    """Read the header block at ``pos`` into ``msg`` (``set_raw`` of the policy's
    ``header_source_parse``, as ``_parse_headers``); returns the offset after its empty line."""
    if text.startswith("\n", pos):
        return pos + 1
    if text.startswith("\r\n", pos):
        return pos + 2
    block = _BLOCK.match(text, pos)
    if block is None:
        raise _Fallback()  # a first line that is not a header field
    end = block.end()
    if text.startswith("\n", end):
        after = end + 1
    elif text.startswith("\r\n", end):
        after = end + 2
    else:
        raise _Fallback()  # a line that is not a header, or the end, before an empty line
    if text.startswith("--", pos) or text.find("\n--", pos, end) >= 0:
        raise _Fallback()  # a field named like a boundary line
    headers = msg._headers
    for name, value in _FIELD.findall(text, pos, end):
        # header_source_parse: the first line's value without its leading blanks, the
        # continuation lines as they are, no line end at the end
        headers.append((name, value.lstrip(" \t").rstrip("\r\n")))
    return after


def _stop(text: str, pos: int, matchers: tuple) -> tuple:
    """Where the input that starts at ``pos`` (a line start) ends for the feedparser: the first
    line that one of ``matchers`` matches (boundary lines start with ``--``). Returns
    ``(offset, line, index of the first of matchers that matches it, its match)``, or
    ``(len(text), "", -1, None)`` at the end of the text."""
    at = pos
    while matchers:
        if text.startswith("--", at):
            nl = text.find("\n", at)
            line = text[at:] if nl < 0 else text[at:nl + 1]
            for index, match in enumerate(matchers):
                found = match(line)
                if found:
                    return at, line, index, found
        nl = text.find("\n--", at)
        if nl < 0:
            break
        at = nl + 1
    return len(text), "", -1, None


def _after_eol(value: str) -> str:
    """``value`` without one final CRLF or LF (the feedparser's ``NLCRE_eol``; no lone CR is
    left by :func:`parse`)."""
    if value.endswith("\r\n"):
        return value[:-2]
    if value.endswith("\n"):
        return value[:-1]
    return value


def _multipart(text: str, pos: int, matchers: tuple, msg: EmailMessage, ctype: str,
               policy) -> int:
    """Read the body of the multipart ``msg`` from ``pos``: preamble, parts, epilogue (the
    feedparser's multipart branch); returns where its input ends."""
    boundary = msg.get_boundary()
    if boundary is None or ctype == "multipart/digest":
        raise _Fallback()
    if (str(msg.get("content-transfer-encoding", "8bit")).lower()
            not in ("7bit", "8bit", "binary")):
        raise _Fallback()
    separator = "--" + boundary
    # the feedparser's pattern, matched as pbem.mail.boundary's install() has it matched
    own = BoundaryLine(separator, "(?P<sep>" + re.escape(separator)
                       + r")(?P<end>--)?(?P<ws>[ \t]*)(?P<linesep>\r\n|\r|\n)?$").match
    inner = matchers + (own,)  # an outer boundary ends a part first (BufferedSubFile.readline)
    at, line, index, found = _stop(text, pos, inner)
    if index != len(matchers):
        raise _Fallback()  # no start boundary in this part's input
    if at > pos:
        msg.preamble = _after_eol(text[pos:at])
    while True:
        if found.group("end"):
            raise _Fallback()  # a close boundary first, or right after a part's start
        at += len(line)
        if at >= len(text) or text.startswith("--", at):
            raise _Fallback()  # a boundary line again (or the end) right after one
        sub, (at, line, index, found) = _part(text, at, inner, policy)
        msg.attach(sub)
        if isinstance(sub._payload, list):  # a multipart: its epilogue loses the line end
            epilogue = sub.epilogue
            sub.epilogue = None if epilogue == "" else (
                _after_eol(epilogue) if epilogue is not None else None)
        else:
            sub._payload = _after_eol(sub._payload)
        if index != len(matchers):
            raise _Fallback()  # the end, or an outer boundary, before this one closed
        if found.group("end"):
            at += len(line)
            stop = _stop(text, at, matchers)
            msg.epilogue = text[at:stop[0]]  # "" with or without a line end after it
            return stop
