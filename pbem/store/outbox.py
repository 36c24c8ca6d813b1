"""Queries of the outgoing mail queue (table ``outbox``): claiming due messages for one delivery
run, recording what became of each, and listing the queue (docs/mail.md, "Sending").

A message is *queued* while ``sent_at`` and ``failed_at`` are both NULL; it is *due* when it is
queued, its ``next_try_at`` (set after a temporary failure) has come, and no live run holds it:
``claimed_until`` is NULL or past. A delivery run claims due messages by writing its random
token into ``claimed_by`` and the end of its lease into ``claimed_until`` in one UPDATE, so two
runs never hold the same message; a run that is killed leaves claims that expire with their
lease. ``next_try_at``, ``claimed_by`` and ``claimed_until`` are outside the row MAC
(:data:`pbem.store.integrity.UNPROTECTED`) and are written with plain UPDATEs; ``sent_at``,
``failed_at``, ``attempts`` and ``error`` are covered and are written through the ORM's unit of
work, which recomputes the MAC. Every row read back is checked against its MAC; one that fails
is returned apart (:class:`~pbem.store.integrity.RowTampered`), never delivered.

All times are zone-aware UTC datetimes.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import and_, func, or_, select, update

from pbem.store.integrity import RowTampered, check_row, session_key
from pbem.store.models import Outbox

if TYPE_CHECKING:
    from pbem.store.orm import Session

__all__ = ["claim", "claimed", "renew", "release", "mark_sent", "mark_retry", "mark_failed",
           "listing", "by_game"]

_T = Outbox.__table__


def _queued():
    return and_(_T.c.sent_at.is_(None), _T.c.failed_at.is_(None))


def _due(now: datetime):
    return and_(_queued(),
                or_(_T.c.next_try_at.is_(None), _T.c.next_try_at <= now),
                or_(_T.c.claimed_until.is_(None), _T.c.claimed_until < now))


def claim(s: Session, token: str, now: datetime, until: datetime, limit: int) -> int:
    """Claim at most ``limit`` due messages (oldest first) for the run ``token`` until
    ``until``: their ids are picked (on PostgreSQL locked with ``FOR UPDATE SKIP LOCKED``, so
    that a concurrent run picks others; SQLite's write transaction serialises claimers), then
    claimed in one UPDATE. Two statements, because PostgreSQL may run a ``LIMIT`` subquery of
    an ``UPDATE ... WHERE id IN (...)`` more than once and claim more than ``limit``. Returns
    how many were claimed; read them with :func:`claimed`."""
    pick = select(_T.c.id).where(_due(now)).order_by(_T.c.id).limit(limit)
    if s.get_bind().dialect.name == "postgresql":
        pick = pick.with_for_update(skip_locked=True)
    ids = list(s.execute(pick).scalars())
    if not ids:
        return 0
    done = s.execute(update(_T).where(_T.c.id.in_(ids), _due(now))
                     .values(claimed_by=token, claimed_until=until)
                     .execution_options(synchronize_session=False))
    return done.rowcount or 0


def held_elsewhere(s: Session, token: str, now: datetime) -> tuple[int, datetime | None]:
    """``(how many queued messages another run's live claim holds, when the last of those
    claims expires)``: messages a running ``pbem send``, or one that was killed, keeps from
    this run until its lease runs out."""
    from sqlalchemy import func

    q = select(func.count(), func.max(_T.c.claimed_until)).where(
        _queued(), _T.c.claimed_by.is_not(None), _T.c.claimed_by != token,
        _T.c.claimed_until >= now)
    n, until = s.execute(q).one()
    return int(n or 0), until


def claimed(s: Session, token: str, *, skip: set[int] = frozenset()) -> tuple[list, list]:
    """The queued messages the run ``token`` holds, oldest first, but those whose ids are in
    ``skip``, as ``(rows, tampered)``: read-only rows (the Outbox columns as attributes) whose
    MAC holds, and a :class:`RowTampered` for each row that fails it."""
    q = select(_T).where(_T.c.claimed_by == token, _queued()).order_by(_T.c.id)
    return _checked(s, (row for row in s.execute(q) if row.id not in skip))


def _checked(s: Session, rows) -> tuple[list, list]:
    """``rows`` (outbox rows read with Core) split into ``(rows whose MAC holds, a
    RowTampered for each that fails)``: one bad row never holds up the others."""
    key = session_key(s, "outbox", "read")
    good, tampered = [], []
    for row in rows:
        try:
            check_row(key, "outbox", row._mapping)
        except RowTampered as e:
            tampered.append(e)
            continue
        good.append(row)
    return good, tampered


def renew(s: Session, token: str, ids: list[int], until: datetime) -> set[int]:
    """Extend the run ``token``'s claims on ``ids`` to ``until``; returns the ids it still
    holds (a claim that expired and was taken by another run is not renewed, and its message
    must not be delivered by this run)."""
    if not ids:
        return set()
    q = (update(_T).where(_T.c.claimed_by == token, _T.c.id.in_(ids), _queued())
         .values(claimed_until=until).returning(_T.c.id)
         .execution_options(synchronize_session=False))
    return set(s.execute(q).scalars())


def release(s: Session, token: str) -> int:
    """Drop every claim of the run ``token`` (at the end of the run, whatever happened), so
    that what it did not deliver is due for the next run at once. Returns how many."""
    done = s.execute(update(_T).where(_T.c.claimed_by == token)
                     .values(claimed_by=None, claimed_until=None)
                     .execution_options(synchronize_session=False))
    return done.rowcount or 0


def _load(s: Session, outbox_id: int) -> Outbox:
    row = s.get(Outbox, outbox_id)  # the ORM load checks the MAC (RowTampered)
    if row is None:
        raise LookupError(f"queued mail {outbox_id} is gone from the outbox table")
    return row


def mark_sent(s: Session, outbox_id: int, when: datetime) -> None:
    """Record the message ``outbox_id`` as delivered at ``when`` (``attempts`` + 1; the last
    temporary failure's answer and the claim are cleared). Written through the unit of work,
    which recomputes the row MAC."""
    row = _load(s, outbox_id)
    row.sent_at = when
    row.attempts = (row.attempts or 0) + 1
    row.error = None
    row.next_try_at = row.claimed_by = row.claimed_until = None
    s.add(row)


def mark_retry(s: Session, outbox_id: int, answer: str, next_try: datetime) -> None:
    """Record a temporary failure of ``outbox_id``: ``attempts`` + 1, ``error`` = the
    server's ``answer``, next try at ``next_try``; the claim is dropped."""
    row = _load(s, outbox_id)
    row.attempts = (row.attempts or 0) + 1
    row.error = answer
    row.next_try_at = next_try
    row.claimed_by = row.claimed_until = None
    s.add(row)


def mark_failed(s: Session, outbox_id: int, when: datetime, answer: str, *,
                attempted: bool = True) -> None:
    """Record that ``outbox_id`` will not be delivered: ``failed_at`` = ``when``, ``error`` =
    ``answer`` (the server's reply, or why it could not be composed); ``attempts`` + 1 when a
    delivery was tried. The claim is dropped."""
    row = _load(s, outbox_id)
    if attempted:
        row.attempts = (row.attempts or 0) + 1
    row.failed_at = when
    row.error = answer
    row.next_try_at = row.claimed_by = row.claimed_until = None
    s.add(row)


_LISTED = [c for c in _T.c if c.name != "blob"]


def listing(s: Session, *, game_id: str | None = None, status: str | None = None,
            limit: int | None = None) -> tuple[list, list]:
    """The outbox rows (without their sealed letters), oldest first, as ``(rows, tampered)``
    like :func:`claimed`; ``game_id`` keeps one game's mail, ``status`` one of ``queued``,
    ``sent``, ``failed``; ``limit`` keeps the newest rows only."""
    q = select(*_LISTED)
    if game_id is not None:
        q = q.where(_T.c.game_id == game_id)
    if status == "queued":
        q = q.where(_queued())
    elif status == "sent":
        q = q.where(_T.c.sent_at.is_not(None))
    elif status == "failed":
        q = q.where(_T.c.failed_at.is_not(None))
    elif status is not None:
        raise ValueError(f"status {status!r}: expected queued, sent or failed")
    q = q.order_by(_T.c.id.desc())
    if limit:
        q = q.limit(limit)
    return _checked(s, reversed(list(s.execute(q))))


def by_game(s: Session) -> tuple[dict, list]:
    """Per game id (None for mail that names no game): ``{"queued": n, "failed": [rows]}``
    where rows are the failed messages (MAC checked), and the tampered rows apart, as
    ``(counts, tampered)``."""
    out: dict = {}
    for gid, n in s.execute(select(_T.c.game_id, func.count()).where(_queued())
                            .group_by(_T.c.game_id)):
        out.setdefault(gid, {"queued": 0, "failed": []})["queued"] = n
    rows, tampered = listing(s, status="failed")
    for row in rows:
        out.setdefault(row.game_id, {"queued": 0, "failed": []})["failed"].append(row)
    return out, tampered
