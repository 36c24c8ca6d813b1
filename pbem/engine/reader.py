"""Reading incoming messages: what is known of a message before it is parsed, and MIME decoding
with signature checking, apart from the database.

A message goes through two steps (docs/security.md, "A stranger sending mail"):

1. :func:`arrival` — before any MIME parsing, from the raw bytes alone: the bounded copy to
   archive, its size and SHA-256, and the duplicate key (:func:`raw_message_key`, from a bounded
   scan of the header block). The judge archives it and recognises a duplicate at this step, so a
   message that would exhaust the parser is already kept, and a message already archived is
   never parsed again.
2. :func:`read_message` — MIME decoding (pbem.mail.extract) and finding and verifying the signed
   orders (pbem.crypto.find). This is the step that hostile mail attacks; it runs in worker
   processes under a time and memory budget (:mod:`pbem.engine.readpool`).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from pbem.mail.sources import KEEP_BYTES
from pbem.pickling import by_position

MAX_MESSAGE_BYTES = KEEP_BYTES
"""The largest message the judge reads (bytes); a larger one is archived (cut to this size, the
cut recorded) and refused."""

HEADER_SCAN_BYTES = 64 * 1024
"""How much of a message's start is scanned for its Message-ID before parsing (bytes)."""

_HEADER_END = re.compile(rb"\r?\n\r?\n")
_MESSAGE_ID = re.compile(rb"^message-id[ \t]*:(.*(?:\r?\n[ \t].*)*)", re.IGNORECASE | re.MULTILINE)
_FOLD = re.compile(rb"\r?\n(?=[ \t])")


@dataclass
class Arrival:
    """A message as it arrived, before any parsing: ``raw`` the bytes kept (at most
    :data:`MAX_MESSAGE_BYTES`), ``size`` the bytes received, ``digest`` the hex SHA-256 of all
    of them, ``key`` the duplicate key, ``bare`` true for a signed orders file that is not mail;
    ``id`` is the archive row once archived."""

    origin: str
    raw: bytes
    size: int
    digest: str
    key: str
    bare: bool = False
    id: int | None = None

    @property
    def truncated(self) -> bool:
        return self.size > len(self.raw)

    @property
    def too_large(self) -> bool:
        return self.size > MAX_MESSAGE_BYTES


@by_position
@dataclass
class ReadMessage:
    """One incoming message, read: ``extracted`` (pbem.mail.extract.Extracted), ``found`` (the
    pbem.crypto.find results: Signed or BadSignature), the duplicate ``key`` and the sha256
    ``digest`` of the raw bytes; ``id`` is the archive row. ``failure`` is a sentence saying
    why the message could not be read (over the time or memory budget, or the reader crashed);
    then ``extracted`` holds only what a bounded look at the header block found.
    ``prepared`` maps an index of ``found`` to its pbem.engine.prepare.Prepared, where the
    reader did that work ahead of the judge."""

    origin: str
    raw: bytes
    extracted: object
    found: list
    key: str
    digest: str
    id: int | None = None
    too_large: bool = False
    size: int = 0
    failure: str | None = None
    prepared: dict = field(default_factory=dict)


def _header_block(raw: bytes) -> bytes:
    """The header block of ``raw`` (up to the first empty line), at most HEADER_SCAN_BYTES."""
    head = raw[:HEADER_SCAN_BYTES]
    end = _HEADER_END.search(head)
    return head[:end.start()] if end else head


def raw_message_key(raw: bytes, digest: str, truncated: bool = False) -> str:
    """The duplicate-detection key, from the raw bytes without MIME parsing: the Message-ID
    (RFC 5322 3.6.4; the first ``Message-ID:`` field of the header block, unfolded and
    stripped) with the SHA-256 of the body (so the same message delivered twice, with more
    Received headers, is one message, while a different or truncated message that reuses a
    Message-ID is not), else ``"sha256:" + digest`` of the whole message. ``truncated``: only
    the first bytes of the message are in ``raw``, so its whole digest decides."""
    if not truncated:
        match = _MESSAGE_ID.search(_header_block(raw))
        if match:
            mid = _FOLD.sub(b"", match.group(1)).strip()[:998].decode("utf-8", "replace")
            if mid:
                data = raw.replace(b"\r\n", b"\n")
                cut = data.find(b"\n\n")
                body = data[cut + 2:] if cut >= 0 else data
                return f"mid:{mid}:{hashlib.sha256(body).hexdigest()[:32]}"
    return "sha256:" + digest


def arrival(incoming) -> Arrival:
    """The :class:`Arrival` of a pbem.mail.sources.Incoming (its bytes are already bounded)."""
    raw = incoming.raw
    size = getattr(incoming, "size", -1)
    size = len(raw) if size is None or size < 0 else size
    digest = getattr(incoming, "digest", "") or hashlib.sha256(raw).hexdigest()
    bare = getattr(incoming, "bare", False)
    raw = raw[:MAX_MESSAGE_BYTES]
    return Arrival(incoming.origin, raw, size, digest,
                   raw_message_key(raw, digest, size > len(raw)), bare)


def read_message(item: Arrival) -> ReadMessage:
    """Decode an archived message (or a bare order file) and find and verify the signed orders
    in it. A message over :data:`MAX_MESSAGE_BYTES` is not decoded: only its header block is
    read (``found`` stays empty and ``too_large`` is set)."""
    from pbem.crypto.find import find_signed_in
    from pbem.mail.extract import extract

    if item.too_large:
        ex = extract(b"", bare=True) if item.bare else header_only(item.raw)
        return ReadMessage(item.origin, item.raw, ex, [], item.key, item.digest, item.id,
                           too_large=True, size=item.size)
    ex = extract(item.raw, bare=item.bare)
    return ReadMessage(item.origin, item.raw, ex, find_signed_in(ex), item.key, item.digest,
                       item.id, size=item.size)


_ANSWER_FIELDS = frozenset(b"from reply-to subject message-id in-reply-to date auto-submitted "
                           b"precedence list-id return-path".split())
_FIELD_CAP = 2000
"""Bytes kept of each header field read by :func:`header_only` (RFC 5322 2.1.1's 998-character
line limit, twice, for a folded field)."""


def header_only(raw: bytes):
    """pbem.mail.extract.Extracted of the few header fields needed to answer a message that
    cannot be read whole (From, Reply-To, Subject, Message-ID, and those that mark automatic
    mail, RFC 3834): the header block (at most HEADER_SCAN_BYTES) is cut into fields without
    MIME parsing, each kept field cut to 2,000 bytes, so this costs the same for any input."""
    from pbem.mail.extract import extract

    fields: list[bytes] = []
    for line in _header_block(raw).split(b"\n"):
        if line[:1] in (b" ", b"\t"):
            if fields and fields[-1] is not None and len(fields[-1]) < _FIELD_CAP:
                fields[-1] = (fields[-1] + b"\n" + line)[:_FIELD_CAP]
            continue
        name = line.split(b":", 1)[0].strip().lower()
        fields.append(line[:_FIELD_CAP] if name in _ANSWER_FIELDS and len(fields) < 64 else None)
    kept = b"\n".join(f.rstrip(b"\r") for f in fields if f is not None)
    return extract(kept + b"\n\n", bare=False)


def unread(item: Arrival, failure: str) -> ReadMessage:
    """The ReadMessage of a message that could not be read: ``failure`` says why; the sender
    and subject come from a bounded look at the header block when that much can be read."""
    try:
        ex = header_only(item.raw) if not item.bare else None
    except Exception:  # noqa: BLE001  the header that failed the reader may fail here too:
        ex = None      # the message still gets its verdict, and the batch goes on
    if ex is None:
        from pbem.mail.extract import Extracted

        ex = Extracted()
    return ReadMessage(item.origin, item.raw, ex, [], item.key, item.digest, item.id,
                       size=item.size, failure=failure)
