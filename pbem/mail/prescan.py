"""A cheap linear pass over a raw message, before the standard e-mail parser sees it.

The standard library's header parser is slow on pathological headers: a ``Content-Type`` with
100,000 parameters takes minutes and hundreds of megabytes to parse. No mail program writes
such headers, so :func:`prescan` finds them first, in one pass over the header blocks, and
drops them (the rest of the message is still read, and a warning says what was dropped):

- a header field longer than :data:`MAX_FIELD_BYTES` once unfolded (its continuation lines
  joined, RFC 5322 section 2.2.3);
- a ``Content-*`` field with more than :data:`MAX_PARAMETERS` parameters (``;``-separated,
  RFC 2045 section 5.1, RFC 2183 section 2);
- the ``Content-Type`` of a multipart or attached message beyond the first
  :data:`MAX_CONTAINERS` (such a part is then read as plain text).

The header blocks checked are the message's own, each MIME part's (the lines after a line
``--boundary`` for a boundary declared by an earlier ``Content-Type``, RFC 2046 section 5.1.1),
and the header block of each attached message (after a part of type ``message/...``). The
body is only searched for boundary lines, with one regular expression, so the cost is linear
in the size of the message and negligible for ordinary mail.
"""

from __future__ import annotations

import re

__all__ = ["MAX_CONTAINERS", "MAX_FIELD_BYTES", "MAX_PARAMETERS", "prescan"]

MAX_FIELD_BYTES = 16 * 1024
"""Longest header field read (bytes, unfolded, name included); a longer one is dropped."""

MAX_PARAMETERS = 64
"""Most parameters in a ``Content-*`` field (count of ``;``); a field with more is dropped."""

MAX_CONTAINERS = 64
"""Most containers in one message: multiparts declaring a boundary and attached messages
(``message/...``). The ``Content-Type`` of each further one is dropped, so that the part is read
as plain text: this bounds the nesting the parser has to follow (it recurses once per level)."""

_BOUNDARY = re.compile(rb'boundary\s*=\s*(?:"([^"\r\n]*)"|([^\s;"]+))', re.IGNORECASE)
_DASH_LINE = re.compile(rb"^--([^\r\n]*)", re.MULTILINE)
_MESSAGE_TYPE = re.compile(rb"^content-type\s*:\s*message/", re.IGNORECASE)


def prescan(raw: bytes) -> tuple[bytes, list[str]]:
    """Return ``(raw, warnings)``: the message with oversized header fields removed.

    ``raw``: the message bytes (LF or CRLF line ends). The result is ``raw`` itself (the same
    object) when nothing is dropped, which is the case for every mail a mail program writes.
    Each dropped field gives one warning sentence naming the header and where it was. Never
    raises. Limits: :data:`MAX_FIELD_BYTES`, :data:`MAX_PARAMETERS`.
    """
    drops: list[tuple[int, int]] = []
    warnings: list[str] = []
    boundaries: set[bytes] = set()
    containers = [0]
    end, message_follows = _scan_block(raw, 0, "the message", drops, warnings, boundaries, containers)
    pos = end
    while (boundaries or message_follows) and pos < len(raw):
        if message_follows:
            pos, message_follows = _scan_block(
                raw, pos, "an attached message", drops, warnings, boundaries, containers
            )
            continue
        match = _DASH_LINE.search(raw, pos)
        if match is None:
            break
        nl = raw.find(b"\n", match.end())
        pos = len(raw) if nl < 0 else nl + 1
        name = match.group(1).rstrip(b" \t\r")
        if name in boundaries:
            pos, message_follows = _scan_block(
                raw, pos, "a part of the message", drops, warnings, boundaries, containers
            )
    if not drops:
        return raw, warnings
    out = bytearray()
    last = 0
    for start, stop in drops:
        out += raw[last:start]
        last = stop
    out += raw[last:]
    return bytes(out), warnings


def _scan_block(
    raw: bytes,
    pos: int,
    where: str,
    drops: list[tuple[int, int]],
    warnings: list[str],
    boundaries: set[bytes],
    containers: list[int],
) -> tuple[int, bool]:
    """Check the header block starting at ``pos``; return (offset after it, a message/* type)."""
    n = len(raw)
    field_start = -1
    message_type = False
    while pos < n:
        nl = raw.find(b"\n", pos)
        line_end = n if nl < 0 else nl + 1
        line = raw[pos:line_end]
        if line in (b"\n", b"\r\n"):
            if field_start >= 0:
                message_type |= _check_field(raw, field_start, pos, where, drops, warnings, boundaries, containers)
            return line_end, message_type
        if line[:1] in (b" ", b"\t") and field_start >= 0:
            pos = line_end
            continue
        if field_start >= 0:
            message_type |= _check_field(raw, field_start, pos, where, drops, warnings, boundaries, containers)
        field_start = pos
        pos = line_end
    if field_start >= 0:
        message_type |= _check_field(raw, field_start, n, where, drops, warnings, boundaries, containers)
    return n, message_type


def _check_field(
    raw: bytes,
    start: int,
    stop: int,
    where: str,
    drops: list[tuple[int, int]],
    warnings: list[str],
    boundaries: set[bytes],
    containers: list[int],
) -> bool:
    """Drop the field ``raw[start:stop]`` if it is too large; note its boundary; True for message/*."""
    size = stop - start
    is_content = raw[start:start + 8].lower() == b"content-"
    if size <= MAX_FIELD_BYTES and not is_content:
        return False  # the usual field: nothing to drop, no boundary (the name only says where)
    head = raw[start:start + 80]
    name = head.split(b":", 1)[0].strip().decode("ascii", "replace")[:40] or "unnamed"
    if size > MAX_FIELD_BYTES:
        drops.append((start, stop))
        warnings.append(
            f"{where}: the {name} header is {size:,} bytes long, more than a mail program ever "
            f"writes ({MAX_FIELD_BYTES:,} at most are read); it was ignored"
        )
        return False
    if is_content:
        count = raw.count(b";", start, stop)
        if count > MAX_PARAMETERS:
            drops.append((start, stop))
            warnings.append(
                f"{where}: the {name} header has {count:,} parameters, more than a mail program "
                f"ever writes ({MAX_PARAMETERS} at most are read); it was ignored"
            )
            return False
        if head[:12].lower() == b"content-type":
            match = _BOUNDARY.search(raw, start, stop)
            message = _MESSAGE_TYPE.match(raw, start, stop) is not None
            if match is None and not message:
                return False
            containers[0] += 1
            if containers[0] > MAX_CONTAINERS:
                drops.append((start, stop))
                if containers[0] == MAX_CONTAINERS + 1:
                    warnings.append(
                        f"{where}: the mail has more than {MAX_CONTAINERS} parts made of parts "
                        "or attached messages; the rest were read as plain text"
                    )
                return False
            value = match.group(1) if match and match.group(1) is not None else match and match.group(2)
            if value:
                boundaries.add(value.rstrip(b" \t"))
            return message
    return False
