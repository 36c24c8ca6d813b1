"""Queries of the stored reports (table ``report``; DESIGN.md "Storage").

A row holds one reader's report of one phase (``phase_seq``; 0 is the setup report), sealed for
that reader (``role``; ``"*"`` is the public report, sealed for the owner ``public``). What the
sealed blob holds is told by ``fmt`` and ``encoding`` (schema 0005, issue 11; the engine side is
:mod:`pbem.engine.reportstore`):

- ``fmt`` ``text`` or ``html``: the report as rendered, UTF-8 (``encoding`` ``identity``: stored
  by a pbem before schema 0005) or zlib-compressed (``zlib``: compressed by the 0005 upgrade);
- ``fmt`` ``context``: what the report is made from (its context, zlib-compressed: ``encoding``
  ``zlib``, which its sealed purpose names whatever the column says), from which both the text
  and the HTML are rendered when the report is mailed or shown.

A phase's reader has either one ``context`` row or ``text`` and ``html`` rows, never both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from sqlalchemy import select, update

from pbem.store.models import Phase, Report

if TYPE_CHECKING:
    from pbem.store.base import Session

__all__ = ["CONTEXT", "RENDERED", "find_report", "public_context", "public_contexts",
           "public_context_at", "game_reports", "uncompressed", "set_compressed"]

CONTEXT = "context"
"""The ``fmt`` of a row holding a report's context."""
RENDERED = ("text", "html")
"""The ``fmt`` of rows holding a rendered report."""
_T = Report.__table__


def find_report(s: Session, game_id: str, role: str, phase_seq: int | None = None, *,
                fmt: str = "text") -> Report | None:
    """The row of ``role``'s report of phase ``phase_seq`` in the format ``fmt`` (``text`` or
    ``html``): its context row, or (stored before schema 0005) its rendered row of that
    format. With ``phase_seq`` None, the latest that is not of a phase the referee undid (pbem
    game undo: the report before it describes the position in force again). None if there is
    none."""
    q = select(Report).where(Report.game_id == game_id, Report.role == role,
                             Report.fmt.in_((fmt, CONTEXT)))
    if phase_seq is not None:
        q = q.where(Report.phase_seq == phase_seq)
    else:
        q = q.where(Report.phase_seq.not_in(select(Phase.seq).where(
            Phase.game_id == game_id, Phase.status == "undone")))
    return s.exec(q.order_by(Report.phase_seq.desc(), Report.id.desc())).first()


def public_context(s: Session, game_id: str, phase_seq: int) -> Report | None:
    """The context row of the public report (role ``"*"``) of phase ``phase_seq``, or None."""
    return s.exec(select(Report).where(
        Report.game_id == game_id, Report.role == "*", Report.fmt == CONTEXT,
        Report.phase_seq == phase_seq).order_by(Report.id)).first()


def public_contexts(s: Session, game_id: str) -> int:
    """How many context rows of the public report the game has."""
    from sqlalchemy import func

    return int(s.execute(select(func.count()).select_from(_T).where(
        _T.c.game_id == game_id, _T.c.role == "*", _T.c.fmt == CONTEXT)).scalar_one())


def public_context_at(s: Session, game_id: str, position: int) -> Report | None:
    """The game's context row of the public report at ``position`` (0: the earliest, the
    setup report's unless the game began before schema 0005) in the order of their phases, or
    None."""
    return s.exec(select(Report).where(
        Report.game_id == game_id, Report.role == "*", Report.fmt == CONTEXT)
        .order_by(Report.phase_seq, Report.id).offset(position).limit(1)).first()


def game_reports(s: Session, game_id: str) -> list[Report]:
    """Every report row of a game, by phase, role, format."""
    return list(s.exec(select(Report).where(Report.game_id == game_id)
                       .order_by(Report.phase_seq, Report.role, Report.fmt)))


def uncompressed(s: Session, batch: int = 500) -> Iterator[list]:
    """The rendered rows stored as plain UTF-8 (``encoding`` ``identity``), as lists of at most
    ``batch`` rows ``(id, game_id, phase_seq, role, fmt, blob)``, by id: the work of the 0005
    data step (:func:`pbem.engine.reportstore.compress_stored_reports`). Rows changed between
    batches are not seen again (each batch starts after the last id)."""
    last = 0
    while True:
        rows = s.execute(select(_T.c.id, _T.c.game_id, _T.c.phase_seq, _T.c.role, _T.c.fmt,
                                _T.c.blob)
                         .where(_T.c.encoding == "identity", _T.c.fmt.in_(RENDERED),
                                _T.c.id > last)
                         .order_by(_T.c.id).limit(batch)).all()
        if not rows:
            return
        yield rows
        last = rows[-1].id


def set_compressed(s: Session, changes: list[dict]) -> None:
    """Store ``changes`` (``{"id", "blob"}`` each): those rows' blobs, now zlib-compressed and
    sealed again, with ``encoding`` ``zlib``."""
    from sqlalchemy import bindparam

    if changes:
        s.connection().execute(
            update(_T).where(_T.c.id == bindparam("b_id"))
            .values(blob=bindparam("b_blob"), encoding="zlib"),
            [{"b_id": c["id"], "b_blob": c["blob"]} for c in changes])
