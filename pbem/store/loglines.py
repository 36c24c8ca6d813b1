"""Reading a game's public log (table ``log_line``) without loading it whole (issue 11: "the
phase that ends a game with a 200,000-line log: at most 1 s and 200 MB").

A long game's log has hundreds of thousands of lines (a few hundred bytes each); reading it as
one list of strings, or parsing every line, costs seconds and hundreds of megabytes. These
queries read it in batches (:func:`iter_lines`), or only the lines holding a given piece of
text, found by the database (:func:`matching`). Log lines are canonical
JSON (pbem.ledger.canonical_json: keys sorted, no spaces), so a top-level field always appears
as ``"name":value`` with nothing between: ``'"type":"dice-reveal"'`` is in every dice-reveal
line. A needle may also match a line that holds it elsewhere (inside a nested object): callers
parse the lines found and check them, as they would have checked every line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator

from sqlalchemy import or_, select

from pbem.store.models import LogLine

if TYPE_CHECKING:
    from pbem.store.base import Session

__all__ = ["BATCH", "REVEAL_NEEDLES", "iter_lines", "matching"]

BATCH = 5000
"""Lines read per query by :func:`iter_lines`."""

REVEAL_NEEDLES = ('"type":"dice-commit"', '"type":"dice-reveal"', '"stream":"hidden"')
"""The lines the end-of-game hidden reveal reads (pbem.engine.adjudicate.reveal_hidden): every
dice-commit and dice-reveal, and the hidden rolls."""

_T = LogLine.__table__


def iter_lines(s: Session, game_id: str, batch: int = BATCH) -> Iterator[str]:
    """The game's log lines in order, read ``batch`` at a time (by ``seq``, so each query
    starts where the last ended). Keep ``s`` open while iterating."""
    last = 0
    while True:
        rows = s.execute(select(_T.c.seq, _T.c.line)
                         .where(_T.c.game_id == game_id, _T.c.seq > last)
                         .order_by(_T.c.seq).limit(batch)).all()
        if not rows:
            return
        for _, line in rows:
            yield line
        last = rows[-1][0]


def matching(s: Session, game_id: str, needles: Iterable[str],
             pending: Iterable[str] = ()) -> list[str]:
    """The game's stored log lines that contain any of ``needles`` (plain text; ``%`` and
    ``_`` mean themselves), in order, then those of ``pending`` (lines of this transaction
    not stored yet, in order) that do."""
    needles = list(needles)
    if not needles:
        return []
    found = list(s.execute(select(_T.c.line).where(
        _T.c.game_id == game_id,
        or_(*[_T.c.line.contains(n, autoescape=True) for n in needles]))
        .order_by(_T.c.seq)).scalars())
    return found + [line for line in pending if any(n in line for n in needles)]

