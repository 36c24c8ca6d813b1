"""Reading a game's public log (table ``log_block``: the lines of each append, compressed,
pbem.store.logblock) without loading it whole (issue 11: "the phase that ends a game with a
200,000-line log: at most 1 s and 200 MB").

A long game's log has hundreds of thousands of lines (a few hundred bytes each); reading it as
one list of strings, or parsing every line, costs seconds and hundreds of megabytes. These
functions read it a batch of blocks at a time (:func:`iter_lines`), or keep only the lines
holding a given piece of text (:func:`matching`). Log lines are canonical JSON
(pbem.ledger.canonical_json: keys sorted, no spaces), so a top-level field always appears as
``"name":value`` with nothing between: ``'"type":"dice-reveal"'`` is in every dice-reveal line.
A needle may also match a line that holds it elsewhere (inside a nested object): callers parse
the lines found and check them, as they would have checked every line.

Whoever reads the whole log checks it against the game row, whose MAC pbem.store.integrity
checks: every block must start where the one before ended (its ``first_seq`` and its ``prev``,
the hash of the line before), every line must point at the line before it (a line kept as it
is holds that hash; a left-out one is that hash), a block must hold a line at least, and the
hash of the last line must be the game's ``log_head`` and the number of lines its
``log_count``. A block changed, removed or swapped outside pbem breaks one of these:
:class:`LogTampered`, naming the first line concerned.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING, Iterable, Iterator

from sqlalchemy import select

from pbem.store import logblock
from pbem.store.integrity import RowIntegrityError
from pbem.store.models import Game, LogBlock

if TYPE_CHECKING:
    from pbem.store.orm import Session

__all__ = ["BATCH", "REVEAL_NEEDLES", "LogTampered", "iter_lines", "matching", "digests"]

BATCH = 64
"""Blocks read per query by :func:`iter_lines` and :func:`matching` (a phase's lines are one
block: a few dozen to a few hundred lines)."""

REVEAL_NEEDLES = ('"type":"dice-commit"', '"type":"dice-reveal"', '"stream":"hidden"')
"""The lines the end-of-game hidden reveal reads (pbem.engine.adjudicate.reveal_hidden): every
dice-commit and dice-reveal, and the hidden rolls."""

_T = LogBlock.__table__
_G = Game.__table__
_COLS = (_T.c.first_seq, _T.c.last_seq, _T.c.encoding, _T.c.prev, _T.c.blob)


class LogTampered(RowIntegrityError):
    """A game's stored public log that does not read back as the log its game row describes
    (module doc): changed outside pbem. ``game_id``; ``seq``, the number of the first line
    concerned (or None)."""

    def __init__(self, game_id: str, seq: int | None, why: str):
        self.game_id, self.seq = game_id, seq
        where = f" at line {seq}" if seq is not None else ""
        super().__init__(f"the public log of game {game_id}{where} {why}: it was changed outside "
                         "pbem, or the database was restored from another installation")


def _blocks(s, game_id: str, batch: int) -> Iterator[tuple]:
    """The game's block rows ``(first_seq, last_seq, encoding, prev, blob)`` in order, read
    ``batch`` at a time. ``s``: a Session or a Connection."""
    last = 0
    while True:
        rows = s.execute(select(*_COLS).where(_T.c.game_id == game_id, _T.c.first_seq > last)
                         .order_by(_T.c.first_seq).limit(batch)).all()
        if not rows:
            return
        yield from rows
        last = rows[-1][0]


def _decode(game_id: str, row, chained: bool = False, text: str | None = None) -> list[str]:
    """The lines of the block ``row`` (its stored ``text`` when already decompressed);
    LogTampered naming the first line concerned when it cannot be read."""
    first, last, encoding, prev, blob = row
    try:
        if text is None:
            text = logblock.decode_text(encoding, blob)
        return logblock.restore_block(encoding, text, prev, last - first + 1, chained=chained)
    except logblock.LogBlockError as e:
        if e.index is not None:
            raise LogTampered(game_id, first + e.index, f"(in the block of lines {first}-"
                                                        f"{last}): {e}") from None
        raise LogTampered(game_id, first, f"cannot be read: {e} (in the block of lines "
                                          f"{first}-{last})") from None


def iter_lines(s: Session, game_id: str, batch: int = BATCH) -> Iterator[str]:
    """The game's log lines in order, ``batch`` blocks read per query (by ``first_seq``, so
    each query starts where the last ended). Keep ``s`` open while iterating. Checks the log
    against the game row as it goes (module doc): LogTampered, at the block concerned or, for
    the head and the count, once the last line has been given."""
    head, n = logblock.GENESIS, 0
    for row in _blocks(s, game_id, batch):
        first, _, _, prev, _ = row
        if first != n + 1:
            raise LogTampered(game_id, n + 1, f"is missing (the next block starts at line "
                                              f"{first})")
        if prev != head:
            raise LogTampered(game_id, first, "does not follow the line before it (its block's "
                                              "prev is not that line's hash)")
        lines = _decode(game_id, row, chained=True)  # a whole read checks every line
        yield from lines
        n += len(lines)
        head = logblock.line_hash(lines[-1])
    _check_head(s, game_id, head, n)


def _check_head(s, game_id: str, head: str, n: int) -> None:
    game = s.execute(select(_G.c.log_head, _G.c.log_count).where(_G.c.id == game_id)).first()
    if game is None:
        return
    if n != game[1]:
        raise LogTampered(game_id, None, f"holds {n} line(s) where the game row says {game[1]}")
    if head != game[0]:
        raise LogTampered(game_id, n or None, "does not end at the game's log head (the hash of "
                                              "its last line differs)")


def matching(s: Session, game_id: str, needles: Iterable[str],
             pending: Iterable[str] = (), *, exact: bool = True) -> list[str]:
    """The game's stored log lines that contain any of ``needles`` (plain text), in order, then
    those of ``pending`` (lines of this transaction not stored yet, in order) that do. Each
    block is decompressed and searched as stored (a block that cannot hold a needle is skipped:
    pbem.store.logblock.needle_is_safe), and its lines restored up to the last that may match.

    ``exact=False``: the same lines, but a ``prev`` the block left out may stay empty
    (``"prev":""``), so that no line's hash is computed: for callers that read the other fields
    only (the end-of-game reveal, the outcome). On the 200,000-line log of bench_endgame.py the
    reveal's needles take 0.14 s of CPU this way, 0.6 s exact. Needles that could overlap a
    left-out hash (or hold a newline) are matched on restored lines, given back exact, either
    way. LogTampered for a block that cannot be read."""
    needles = list(needles)
    if not needles:
        return []
    pattern = re.compile("|".join(re.escape(n) for n in needles))
    safe = all(logblock.needle_is_safe(n) for n in needles)
    newline = any("\n" in n for n in needles)  # never in a stored line: searched restored
    found = []
    for row in _blocks(s, game_id, BATCH):
        first, _, encoding, prev, blob = row
        try:
            text = logblock.decode_text(encoding, blob)
        except logblock.LogBlockError as e:
            raise LogTampered(game_id, first, f"cannot be read: {e}") from None
        if not (safe and encoding == "z1") or newline:
            found += [line for line in _decode(game_id, row, text=text) if pattern.search(line)]
        elif any(n in text for n in needles):
            found += _search_block(game_id, row, text, needles, exact)
    return found + [line for line in pending if pattern.search(line)]


def _search_block(game_id: str, row, text: str, needles: list[str], exact: bool) -> list[str]:
    """The lines of a ``z1`` block (``text`` as stored) holding one of ``needles``, all safe
    and without a newline: an occurrence in a line never overlaps its left-out hash, so it lies
    wholly before it or wholly after it in the stored form (the line's flag left out). Only
    the lines where a needle occurs are looked at (found with ``str.find``)."""
    found = set()
    for needle in needles:
        i = text.find(needle)
        while i >= 0:
            found.add(text.rfind("\n", 0, i) + 1)
            i = text.find(needle, text.find("\n", i) % (len(text) + 1))
    hits, n, counted = [], 0, 0
    for start in sorted(found):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        n += text.count("\n", counted, start)
        counted = start
        k = text.find('"prev":""', start, end) if text[start] == "=" else -1
        parts = (text[start + 1:end],) if k < 0 else (text[start + 1:k + 8], text[k + 8:end])
        if any(needle in part for part in parts for needle in needles):
            hits.append((n, start, end))
    if not hits or not exact:
        return [text[start + 1:end] for _, start, end in hits]
    first, _, _, prev, _ = row
    try:
        lines = logblock.restore_lines("z1", text[:hits[-1][2]], prev)
    except logblock.LogBlockError as e:
        raise LogTampered(game_id, first, f"cannot be read: {e}") from None
    return [lines[i] for i, _, _ in hits]


def digests(conn) -> dict[str, tuple[int, str]]:
    """Per game: ``(lines, hex SHA-256 of its public log lines in order, each followed by a
    newline)``, every log read whole and checked as :func:`iter_lines` does (pbem.store.copy
    compares these before and after a copy). ``conn``: a Connection or Session."""
    out = {}
    for (gid,) in conn.execute(select(_G.c.id).order_by(_G.c.id)).all():
        h, n = hashlib.sha256(), 0
        for line in iter_lines(conn, gid):
            h.update(line.encode("utf-8") + b"\n")
            n += 1
        if n:
            out[gid] = (n, h.hexdigest())
    return out
