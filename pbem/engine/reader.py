"""Reading incoming messages: MIME decoding and signature checking, apart from the database.

Reading is pure (bytes in, :class:`ReadMessage` out) and is most of the CPU cost of ingest, so a
large batch is read by worker processes while the main process archives and judges the
previous chunk (the machine this runs on nightly has more than one core). Small batches, the
usual cron case, are read in-process.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Iterable, Iterator

PARALLEL_MIN = 64
"""Smallest chunk worth sending to worker processes (starting them costs about 10 ms)."""

WORKERS = 2
"""Reader processes at most (the judge itself runs in the main process)."""


@dataclass
class ReadMessage:
    """One incoming message, read: ``extracted`` (pbem.mail.extract.Extracted), ``found`` (the
    pbem.crypto.find results: Signed or BadSignature), the duplicate ``key`` and the sha256
    ``digest`` of the raw bytes; ``id`` is set once it is archived."""

    origin: str
    raw: bytes
    extracted: object
    found: list
    key: str
    digest: str
    id: int | None = None
    too_large: bool = False


MAX_MESSAGE_BYTES = 2 * 1024 * 1024
"""The largest message the judge reads (bytes); a larger one is archived and refused."""


def _body(raw: bytes) -> bytes:
    """The bytes after the header block, line ends made LF (a re-delivery adds headers only)."""
    data = raw.replace(b"\r\n", b"\n")
    cut = data.find(b"\n\n")
    return data[cut + 2:] if cut >= 0 else data


def message_key(extracted, raw: bytes) -> str:
    """The duplicate-detection key: the Message-ID with the sha256 of the body (so the same
    message delivered twice, with more Received headers, is one message, while a different or
    truncated message that reuses a Message-ID is not), else the sha256 of the raw bytes."""
    mid = (extracted.message_id or "").strip()
    if mid:
        return f"mid:{mid}:{hashlib.sha256(_body(raw)).hexdigest()[:32]}"
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def read_message(raw: bytes, origin: str, bare: bool) -> ReadMessage:
    """Decode a message (or a bare order file) and find and verify the signed orders in it.
    A message over :data:`MAX_MESSAGE_BYTES` is not decoded (``found`` stays empty and
    ``too_large`` is set) so that a huge mail cannot exhaust the judge."""
    from pbem.crypto.find import find_signed
    from pbem.mail.extract import extract

    if len(raw) > MAX_MESSAGE_BYTES:
        head = raw[:64 * 1024]
        ex = extract(head.split(b"\n\n", 1)[0] + b"\n\n", bare=False) if not bare else extract(b"", bare=True)
        item = ReadMessage(origin, raw, ex, [], "sha256:" + hashlib.sha256(raw).hexdigest(),
                           hashlib.sha256(raw).hexdigest())
        item.too_large = True
        return item
    ex = extract(raw, bare=bare)
    return ReadMessage(origin, raw, ex, find_signed(ex.texts, ex.sig_files),
                       message_key(ex, raw), hashlib.sha256(raw).hexdigest())


def _read_incoming(incoming) -> ReadMessage:
    return read_message(incoming.raw, incoming.origin, getattr(incoming, "bare", False))


def _read_remote(incoming) -> ReadMessage:
    """As _read_incoming, in a worker: the raw bytes are not sent back (the parent has them)."""
    item = _read_incoming(incoming)
    item.raw = b""
    return item


def _with_raw(items: list[ReadMessage], incomings: list) -> list[ReadMessage]:
    for item, incoming in zip(items, incomings):
        item.raw = incoming.raw
    return items


def _chunks(items: Iterable, size: int) -> Iterator[list]:
    chunk = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def read_chunks(incomings: Iterable, size: int) -> Iterator[list[ReadMessage]]:
    """Read ``incomings`` (pbem.mail.sources.Incoming) in chunks of ``size``, in order. While
    the caller works on one chunk, worker processes read the next (when chunks are large and
    there is more than one CPU)."""
    chunks = _chunks(incomings, size)
    first = next(chunks, None)
    if first is None:
        return
    import multiprocessing

    workers = min(WORKERS, os.cpu_count() or 1)
    if "fork" not in multiprocessing.get_all_start_methods():
        workers = 1  # no fork (Windows): read in-process
    if len(first) < PARALLEL_MIN or workers < 2:
        yield [_read_incoming(i) for i in first]
        for chunk in chunks:
            yield [_read_incoming(i) for i in chunk]
        return
    # fork: the workers inherit the loaded modules; they touch no database and leave with
    # os._exit, so the parent's open connections are never used or closed by them.
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        step = max(8, size // (4 * workers))
        pending, sent = pool.map_async(_read_remote, first, step), first
        for chunk in chunks:
            done = _with_raw(pending.get(), sent)
            pending, sent = pool.map_async(_read_remote, chunk, step), chunk
            yield done
        yield _with_raw(pending.get(), sent)
