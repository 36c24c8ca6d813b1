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

from pbem.store.base import built_once
from pbem.store.models import Phase, Report

if TYPE_CHECKING:
    from pbem.store.orm import Session

__all__ = ["CONTEXT", "RENDERED", "find_report", "add_reports", "public_context", "public_contexts",
           "public_context_at", "game_reports", "uncompressed", "set_compressed"]

CONTEXT = "context"
"""The ``fmt`` of a row holding a report's context."""
RENDERED = ("text", "html")
"""The ``fmt`` of rows holding a rendered report."""
_T = Report.__table__


def _report_queries() -> dict:
    """The report lookups of a phase and of delivery, built once (Core statements with bound
    parameters: building a statement and loading ORM objects cost ten times SQLite's own
    work on these indexed lookups, schema 0006)."""
    from sqlalchemy import bindparam, func

    g, r, fmt = bindparam("g"), bindparam("r"), bindparam("fmt")
    base = select(_T).where(_T.c.game_id == g, _T.c.role == r,
                            _T.c.fmt.in_([fmt, bindparam("ctx")]))
    newest = (_T.c.phase_seq.desc(), _T.c.id.desc())
    public = (_T.c.game_id == g, _T.c.role == "*", _T.c.fmt == CONTEXT)
    return {
        "at": base.where(_T.c.phase_seq == bindparam("seq")).order_by(*newest).limit(1),
        "latest": base.where(_T.c.phase_seq.not_in(select(Phase.__table__.c.seq).where(
            Phase.__table__.c.game_id == g, Phase.__table__.c.status == "undone")
            .scalar_subquery())).order_by(*newest).limit(1),
        "public": select(_T).where(*public, _T.c.phase_seq == bindparam("seq"))
        .order_by(_T.c.id).limit(1),
        "count": select(func.count()).select_from(_T).where(*public),
        "nth": select(_T).where(*public).order_by(_T.c.phase_seq, _T.c.id)
        .offset(bindparam("n")).limit(1),
    }


_query = built_once(_report_queries)
"""The statement of a name of :func:`_report_queries`."""


def find_report(s: Session, game_id: str, role: str, phase_seq: int | None = None, *,
                fmt: str = "text"):
    """The row of ``role``'s report of phase ``phase_seq`` in the format ``fmt`` (``text`` or
    ``html``): its context row, or (stored before schema 0005) its rendered row of that
    format. With ``phase_seq`` None, the latest that is not of a phase the referee undid (pbem
    game undo: the report before it describes the position in force again). None if there is
    none. The row has the columns of Report as attributes (a read-only row, not an ORM
    object)."""
    args = {"g": game_id, "r": role, "fmt": fmt, "ctx": CONTEXT}
    if phase_seq is not None:
        return s.execute(_query("at"), dict(args, seq=phase_seq)).first()
    return s.execute(_query("latest"), args).first()


def public_context(s: Session, game_id: str, phase_seq: int):
    """The context row of the public report (role ``"*"``) of phase ``phase_seq``, or None
    (a read-only row, as :func:`find_report`'s)."""
    return s.execute(_query("public"), {"g": game_id, "seq": phase_seq}).first()


def public_contexts(s: Session, game_id: str) -> int:
    """How many context rows of the public report the game has."""
    return int(s.execute(_query("count"), {"g": game_id}).scalar_one())


def public_context_at(s: Session, game_id: str, position: int):
    """The game's context row of the public report at ``position`` (0: the earliest, the
    setup report's unless the game began before schema 0005) in the order of their phases, or
    None (a read-only row, as :func:`find_report`'s)."""
    return s.execute(_query("nth"), {"g": game_id, "n": position}).first()


def add_reports(s: Session, rows: list[dict]) -> None:
    """Insert report rows (dicts of Report columns without ``id``) in one statement (a
    phase's readers' contexts: pbem.engine.reportstore.store_contexts)."""
    from sqlalchemy import insert

    if rows:
        s.execute(insert(_T), rows)


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
