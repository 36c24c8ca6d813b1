"""How a run of public log lines is stored: one compressed block per append (table ``log_block``,
DESIGN.md "Storage"; issue 11, "stored bytes per phase, all roles: at most 20 KB").

A phase logs a few dozen to a few hundred lines of canonical JSON (pbem.ledger), most of them
alike (the same keys, the same game and phase, the same time), and every line carries ``prev``:
64 hex digits that nothing compresses, yet that can be computed again from the line before
(DESIGN.md, "The public log": ``prev`` is the SHA-256 of the previous line's bytes). Stored one
row per line, the setup phase of a 4-player Atlantis game took 34 KB; its 136 lines as one zlib
block take 8 KB, and 2.2 KB with the recomputable ``prev`` values left out.

Encoding ``z1`` (the only one written): the zlib stream (RFC 1950, level 9) of the UTF-8 text of
the block's lines joined by ``\\n``, each preceded by one flag character:

- ``=``: the line's first ``"prev":"<hash>"``, where ``<hash>`` is the hash the line should
  point at (the SHA-256 of the line before it; for the block's first line, the block's own
  ``prev``), is stored as ``"prev":""``; reading puts the hash back at the first ``"prev":""``
  of the stored text (a line is only stored this way when that finds the same place);
- ``+``: the line is stored as it is (its ``prev`` points elsewhere: a line written by hand,
  or a broken chain, kept exactly as it was given).

A line holding a newline cannot be joined this way: a block with one is stored with encoding
``j1``, the zlib stream of the JSON array of its lines, nothing left out. Either way the lines
read back are exactly the lines stored, byte for byte.

This module only encodes and decodes (no SQL): pbem.store.repo.append_log writes blocks,
pbem.store.loglines reads them, migrations/versions/0007_log_blocks.py converts the old rows.
"""

from __future__ import annotations

import json
import zlib
from typing import Iterable, Sequence

from pbem.ledger import GENESIS, line_hash  # the chain's own: DESIGN.md, "The public log"

__all__ = ["GENESIS", "ENCODING", "ENCODINGS", "LogBlockError", "line_hash", "encode_block",
           "decode_block", "decode_text", "restore_block", "restore_lines", "needle_is_safe",
           "blocks_of"]

ENCODING = "z1"
"""The encoding :func:`encode_block` writes for lines without a newline."""

ENCODINGS = ("z1", "j1")
"""Every encoding :func:`decode_block` reads."""

_PREV = '"prev":"'
_EMPTY = '"prev":""'
_HEX = frozenset("0123456789abcdef")


class LogBlockError(ValueError):
    """A stored block that cannot be decoded (an unknown encoding, a damaged zlib stream, a
    line count that differs from the row's, a line that does not point at the one before it):
    the message says which; ``index`` is the block's line concerned (0: its first), or
    None."""

    def __init__(self, message: str, index: int | None = None):
        super().__init__(message)
        self.index = index


def _elide(line: str, prev: str) -> str:
    """The flagged form of ``line`` (module doc) when the hash it should point at is ``prev``."""
    token = f'{_PREV}{prev}"'
    k = line.find(token)
    if k >= 0:
        short = line[:k] + _EMPTY + line[k + len(token):]
        if short.find(_EMPTY) == k:
            return "=" + short
    return "+" + line


def encode_block(lines: Sequence[str], prev: str) -> tuple[str, bytes, str]:
    """Encode ``lines`` (str, in log order), the first of which should point at ``prev`` (64
    hex digits: the hash of the line before the block, :data:`GENESIS` at a log's start).
    Returns ``(encoding, blob, head)``: ``head`` is the hash of the last line. Raises
    ValueError for an empty ``lines`` or a ``prev`` that is not 64 lowercase hex digits."""
    if not lines:
        raise ValueError("a log block needs at least one line")
    if len(prev) != 64 or not set(prev) <= _HEX:
        raise ValueError(f"prev: expected 64 lowercase hex digits, got {prev!r}")
    if any("\n" in line for line in lines):
        head = line_hash(lines[-1])
        return "j1", zlib.compress(json.dumps(list(lines), ensure_ascii=False).encode(), 9), head
    parts = []
    for line in lines:
        parts.append(_elide(line, prev))
        prev = line_hash(line)
    return ENCODING, zlib.compress("\n".join(parts).encode("utf-8"), 9), prev


def decode_text(encoding: str, blob: bytes) -> str:
    """The block's stored text, decompressed: for ``z1`` the flagged lines joined by ``\\n``
    (module doc), for ``j1`` the JSON array. LogBlockError when it cannot be read."""
    if encoding not in ENCODINGS:
        raise LogBlockError(f"unknown log block encoding {encoding!r} (this pbem reads "
                            f"{', '.join(ENCODINGS)})")
    try:
        return zlib.decompress(bytes(blob)).decode("utf-8")
    except (zlib.error, UnicodeDecodeError) as e:
        raise LogBlockError(f"a log block that does not decompress ({e})") from None


def restore_lines(encoding: str, text: str, prev: str, *, chained: bool = False) -> list[str]:
    """The lines of a block from its stored ``text`` (:func:`decode_text`), the first of which
    should point at ``prev``. LogBlockError for a line without a flag or without the place
    its hash goes. ``chained``: also check that every line kept as it is (flag ``+``, or a
    ``j1`` block) points at the line before it (holds ``"prev":"<its hash>"``), as pbem's own
    lines all do: a line changed inside a block, with the next one kept as it was, is then
    found (LogBlockError naming it)."""
    if encoding == "j1":
        try:
            lines = json.loads(text)
        except ValueError as e:
            raise LogBlockError(f"a j1 log block that is not a JSON array ({e})") from None
        if not (isinstance(lines, list) and all(isinstance(x, str) for x in lines)):
            raise LogBlockError("a j1 log block that is not a JSON array of strings")
        if chained:
            for i, line in enumerate(lines):
                _check_points_at(line, prev, i)
                prev = line_hash(line)
        return lines
    out = []
    for i, part in enumerate(text.split("\n")):
        flag, body = part[:1], part[1:]
        if flag == "=":
            k = body.find(_EMPTY)
            if k < 0:
                raise LogBlockError('a log block line flagged "=" without "prev":""', i)
            body = body[:k + 8] + prev + body[k + 8:]
        elif flag != "+":
            raise LogBlockError(f"a log block line with the flag {flag!r} (expected = or +)", i)
        elif chained:
            _check_points_at(body, prev, i)
        out.append(body)
        prev = line_hash(body)
    return out


def _check_points_at(line: str, prev: str, index: int) -> None:
    if f'{_PREV}{prev}"' not in line:
        raise LogBlockError("a line that does not point at the line before it (its prev is "
                            "not that line's hash)", index)


def decode_block(encoding: str, blob: bytes, prev: str, count: int | None = None, *,
                 chained: bool = False) -> list[str]:
    """The lines stored by :func:`encode_block` (``encoding``, ``blob``) whose first line
    should point at ``prev``: :func:`restore_block` of its :func:`decode_text`."""
    return restore_block(encoding, decode_text(encoding, blob), prev, count, chained=chained)


def restore_block(encoding: str, text: str, prev: str, count: int | None = None, *,
                  chained: bool = False) -> list[str]:
    """The lines of a block from its stored ``text`` (:func:`decode_text`), whose first line
    should point at ``prev``; when ``count`` is given, LogBlockError unless there are that
    many; LogBlockError for a block of no line. ``chained``: as :func:`restore_lines`."""
    lines = restore_lines(encoding, text, prev, chained=chained)
    if count is not None and len(lines) != count:
        raise LogBlockError(f"a log block holding {len(lines)} line(s) where its row says "
                            f"{count}")
    if not lines:
        raise LogBlockError("a log block holding no line")
    return lines


def needle_is_safe(needle: str) -> bool:
    """Whether ``needle`` (plain text) is found in a ``z1`` block's stored text whenever it is
    in one of the block's lines: true unless an occurrence could overlap a left-out hash, that
    is unless the needle starts with a hex digit or holds a ``"`` followed by a hex digit (or
    by nothing) whose text before it could end ``"prev":"``. A block whose stored text holds
    no safe needle holds no line that does (pbem.store.loglines.matching skips it unread)."""
    if not needle or needle[0] in _HEX:
        return False
    for i, ch in enumerate(needle):
        if ch == '"' and (i + 1 == len(needle) or needle[i + 1] in _HEX):
            before = needle[:i + 1]
            if _PREV.endswith(before) or before.endswith(_PREV):
                return False
    return True


def blocks_of(lines: Iterable[str], limit: int = 1000) -> Iterable[list[str]]:
    """``lines`` cut into runs written at the same time (the same ``"at":"`` value, the first
    in each line; a run ends at ``limit`` lines): how migrations/versions/0007 groups the lines
    of a log stored a line per row, the lines of one append having been written together."""
    run: list[str] = []
    at = None
    for line in lines:
        k = line.find('"at":"')
        stamp = line[k:k + 26] if k >= 0 else None
        if run and (stamp != at or len(run) >= limit):
            yield run
            run = []
        run.append(line)
        at = stamp
    if run:
        yield run
