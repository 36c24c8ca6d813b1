"""The hash chain of the log verifier (check 1 of :mod:`pbem.verify`; DESIGN.md "The public
log"): each line's ``prev`` against the hash of the line before it, and, when it is not, which
earlier line it names, so the error can say what happened (lines inserted, moved, removed or
changed).

Moved out of :mod:`pbem.verify` (issue 11: a log of a million lines is verified in a few
seconds and a few tens of megabytes). :class:`ChainChecks` is mixed into
:class:`pbem.verify._Verifier`, whose report ``r``, ``seen`` (a :class:`LineHashes`),
``last_line`` and ``error`` it uses.
"""

from __future__ import annotations

from array import array
from typing import Any

from pbem.ledger import GENESIS

__all__ = ["LineHashes", "ChainChecks"]

_HEX = frozenset("0123456789abcdef")


class LineHashes:
    """The hashes of the lines read so far, to name the line a broken ``prev`` points back to.

    Kept compact, since a log may have millions of lines: the first 8 bytes of each line's
    SHA-256 in one ``bytearray`` and its line number in an ``array`` (12 bytes a line, where a
    dict of hex digests took about 220). :meth:`first` searches them; after
    :data:`SCAN_LIMIT` searches (a badly broken log) a dict is built once and kept up to date,
    so a log broken on every line is not searched from the start on every line. Matching on
    8 bytes could name a wrong line with probability 2**-64 per line; only the wording of an
    error depends on it, never whether there is one."""

    SCAN_LIMIT = 64

    __slots__ = ("prefixes", "numbers", "index", "searches")

    def __init__(self) -> None:
        self.prefixes = bytearray()
        self.numbers = array("L")
        self.index: dict[bytes, int] | None = None
        self.searches = 0

    def add(self, raw: bytes, n: int) -> None:
        """Record line ``n``, whose SHA-256 digest (32 bytes) is ``raw``."""
        key = raw[:8]
        self.prefixes += key
        self.numbers.append(n)
        if self.index is not None:
            self.index.setdefault(key, n)

    def first(self, digest: str) -> int | None:
        """The first line whose hash is the hex ``digest``, or None."""
        if len(digest) != 64 or not _HEX.issuperset(digest):
            return None  # no line's hash: 64 lowercase hex digits
        key = bytes.fromhex(digest[:16])
        self.searches += 1
        if self.index is None and self.searches > self.SCAN_LIMIT:
            self.index = {}
            for i in range(len(self.numbers)):
                self.index.setdefault(bytes(self.prefixes[8 * i:8 * i + 8]), self.numbers[i])
        if self.index is not None:
            return self.index.get(key)
        at = self.prefixes.find(key)
        while at >= 0 and at % 8:
            at = self.prefixes.find(key, at + 1)
        return None if at < 0 else self.numbers[at // 8]


class ChainChecks:
    """The chain: :meth:`chain` once per line (the hot path), :meth:`advance` for a line that
    is in the chain but not checked (not JSON), :meth:`chain_error` for a broken link."""

    def chain(self, n: int, prev: Any, digest: bytes) -> None:
        """Line ``n`` says ``prev`` and hashes to ``digest`` (32 bytes): check the link, then
        make it the head (:meth:`advance`, inlined: this runs once per line)."""
        r = self.r
        if prev != r.head:
            self.chain_error(n, prev)
        r.head = digest.hex()
        seen = self.seen
        seen.prefixes += digest[:8]
        seen.numbers.append(n)
        if seen.index is not None:
            seen.index.setdefault(digest[:8], n)
        self.last_line = n

    def advance(self, n: int, raw: bytes) -> None:
        """Line ``n``, whose SHA-256 digest is ``raw`` (32 bytes), is the new head."""
        self.r.head = raw.hex()
        self.seen.add(raw, n)
        self.last_line = n

    def chain_error(self, n: int, prev: Any) -> None:
        if self.last_line == 0:
            expected = f"expected prev = GENESIS ({GENESIS}) on the first line"
        else:
            expected = f"expected prev = {self.r.head} (hash of line {self.last_line})"
        if not isinstance(prev, str):
            self.error(n, f"chain broken: {expected}, found {prev!r}")
            return
        earlier = self.seen.first(prev)
        if earlier is not None:
            why = (f"that is the hash of line {earlier}: lines after line {earlier} were inserted "
                   "or moved, or this line was moved")
        elif prev == GENESIS:
            why = "this line claims to be the first: lines before it were inserted"
        elif self.last_line == 0:
            why = "the lines before this one were removed"
        else:
            why = f"it matches no earlier line: line {self.last_line} was changed, or lines before this one were removed"
        self.error(n, f"chain broken: {expected}, found {prev}; {why}")
