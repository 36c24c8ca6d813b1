"""Queries: every read and write of the tables goes through these functions.

Each takes an open :class:`sqlmodel.Session` (from ``Database.read()``/``write()``), so a caller
composes several of them into one transaction. Rows are the models of :mod:`pbem.store.models`.
The delivery of queued mail (claims, sent and failed records, listings) has its own queries in
:mod:`pbem.store.outbox`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Iterable

from sqlmodel import Session, select

from pbem.store.models import (EventRow, Game, LogLine, Message, OrderSet, Outbox, Phase, Player,
                               Report, Sealed)


# ---------------------------------------------------------------- games and players

def get_game(s: Session, game_id: str, *, lock: bool = False) -> Game | None:
    """The game ``game_id`` or None. ``lock`` takes a row lock on PostgreSQL
    (``FOR UPDATE SKIP LOCKED``: a game another worker holds is skipped, DESIGN.md "Storage");
    SQLite's ``BEGIN IMMEDIATE`` already serialises writers."""
    q = select(Game).where(Game.id == game_id)
    if lock and s.get_bind().dialect.name == "postgresql":
        q = q.with_for_update(skip_locked=True)
    return s.exec(q).first()


def list_games(s: Session, *, active_only: bool = False) -> list[Game]:
    q = select(Game).order_by(Game.created_at, Game.id)
    if active_only:
        q = q.where(Game.status == "active")
    return list(s.exec(q))


def players(s: Session, game_id: str) -> list[Player]:
    """The players of a game in seat order."""
    return list(s.exec(select(Player).where(Player.game_id == game_id).order_by(Player.seat)))


def games_of_key(s: Session, fingerprint: str) -> list[Player]:
    """Every (game, role) a public key is registered for."""
    return list(s.exec(select(Player).where(Player.fingerprint == fingerprint)))


# ---------------------------------------------------------------- sealed values

def get_sealed(s: Session, game_id: str, owner: str, purpose: str) -> Sealed | None:
    return s.get(Sealed, (game_id, owner, purpose))


def put_sealed(s: Session, game_id: str, owner: str, purpose: str, version: int,
               blob: bytes) -> None:
    """Insert or replace the sealed value (game, owner, purpose)."""
    row = s.get(Sealed, (game_id, owner, purpose))
    if row is None:
        s.add(Sealed(game_id=game_id, owner=owner, purpose=purpose, version=version, blob=blob))
    else:
        row.version = version
        row.blob = blob
        s.add(row)


def add_sealed(s: Session, game_id: str, owner: str, purpose: str, version: int,
               blob: bytes) -> None:
    """Insert a sealed value that cannot exist yet (a purpose naming a new phase, such as the
    state before it: pbem.engine.rollback), without first reading whether it does."""
    s.add(Sealed(game_id=game_id, owner=owner, purpose=purpose, version=version, blob=blob))


def delete_sealed(s: Session, game_id: str, owner: str, purpose: str) -> bool:
    """Remove the sealed value (game, owner, purpose); False if there was none (an undone
    phase's hidden setup: pbem.engine.rollback)."""
    row = s.get(Sealed, (game_id, owner, purpose))
    if row is None:
        return False
    s.delete(row)
    return True


# ---------------------------------------------------------------- phases

def _open_or_latest_phases():
    """The phases marked open and the phase at each game's ``phase_seq`` (the open one, or the
    last once the game ended): so that a phase whose status was changed outside pbem, either
    way, is read and fails its MAC check (pbem.store.integrity) rather than being silently
    left out or taken."""
    from sqlalchemy import or_

    return select(Phase).join(Game, Game.id == Phase.game_id).where(
        or_(Phase.status == "open", Phase.seq == Game.phase_seq))


def open_phase(s: Session, game_id: str) -> Phase | None:
    """The game's open phase, if any."""
    rows = list(s.exec(_open_or_latest_phases().where(Phase.game_id == game_id)))
    return next((p for p in rows if p.status == "open"), None)


def phases(s: Session, game_id: str) -> list[Phase]:
    return list(s.exec(select(Phase).where(Phase.game_id == game_id).order_by(Phase.seq)))


def open_phases(s: Session) -> list[Phase]:
    """Every open phase of every game, oldest deadline first."""
    return [p for p in s.exec(_open_or_latest_phases().order_by(Phase.deadline_at))
            if p.status == "open"]


# ---------------------------------------------------------------- orders

def accepted_orders(s: Session, game_id: str, phase_seq: int) -> list[OrderSet]:
    """The order sets in force for a phase (one per role at most). Every order set of the phase
    is read (and its MAC checked), so that one whose status was changed outside pbem is not
    silently left out."""
    return [o for o in s.exec(select(OrderSet).where(
        OrderSet.game_id == game_id, OrderSet.phase_seq == phase_seq).order_by(OrderSet.role,
                                                                              OrderSet.id))
            if o.status == "accepted"]


def nonces_used(s: Session, game_id: str) -> dict[str, set[str]]:
    """Every nonce an order set of the game carried, in any phase, accepted or superseded,
    with the roles that sent it: ``{nonce: {role, ...}}`` (a nonce is used once per game:
    docs/signing.md, section 10). One query per game and ingest batch."""
    used: dict[str, set[str]] = {}
    for nonce, role in s.exec(select(OrderSet.nonce, OrderSet.role)
                              .where(OrderSet.game_id == game_id)):
        used.setdefault(nonce, set()).add(role)
    return used


# ---------------------------------------------------------------- messages

def pending_messages(s: Session, *, retry_errors: bool = False) -> list[int]:
    """Ids of the messages archived but not judged (a crash between the two steps); with
    ``retry_errors`` also of those the judge failed on or could not read within its budget
    (verdicts ``error`` and ``unreadable``). Only ids: a row
    whose archived copy is damaged must not stop the query."""
    states = ("pending", "error", "unreadable") if retry_errors else ("pending",)
    return list(s.exec(select(Message.id).where(Message.verdict.in_(states))
                       .order_by(Message.id)))


def archived_message(s: Session, message_id: int) -> tuple[Message, bytes]:
    """(the message's row without its archived copy, the sealed archived copy). Raises
    whatever the database raises for a damaged copy (e.g. a blob stored as text that is not
    UTF-8), so the caller can report that one message and go on."""
    from sqlalchemy.orm import defer

    row = s.exec(select(Message).options(defer(Message.blob))
                 .where(Message.id == message_id)).one()
    blob = s.exec(select(Message.blob).where(Message.id == message_id)).one()
    if not isinstance(blob, bytes):
        raise TypeError(f"the archived copy is stored as {type(blob).__name__}, not bytes")
    return row, blob


def messages(s: Session, *, game_id: str | None = None, limit: int = 100) -> list[Message]:
    q = select(Message).order_by(Message.id.desc()).limit(limit)
    if game_id:
        q = q.where(Message.game_id == game_id)
    return list(s.exec(q))


# ---------------------------------------------------------------- events, log, reports, mail

def events(s: Session, game_id: str, phase_seq: int) -> list[EventRow]:
    return list(s.exec(select(EventRow).where(
        EventRow.game_id == game_id, EventRow.phase_seq == phase_seq).order_by(EventRow.idx)))


def append_log(s: Session, game: Game, lines: Iterable[str], head: str) -> None:
    """Store new log lines after the game's last one and move its head to ``head``."""
    from sqlalchemy import insert

    rows = [{"game_id": game.id, "seq": game.log_count + i, "line": line}
            for i, line in enumerate(lines, start=1)]
    if rows:
        s.execute(insert(LogLine), rows)
    game.log_count += len(rows)
    game.log_head = head
    s.add(game)


def log_lines(s: Session, game_id: str) -> list[str]:
    return [r for r in s.exec(select(LogLine.line).where(LogLine.game_id == game_id)
                              .order_by(LogLine.seq))]


def get_report(s: Session, game_id: str, role: str, fmt: str,
               phase_seq: int | None = None) -> Report | None:
    """The role's report for ``phase_seq`` (the phase it reports on; 0 is the setup report),
    or the latest one that is not of a phase the referee undid (pbem game undo: the report
    before it describes the position in force again)."""
    q = select(Report).where(Report.game_id == game_id, Report.role == role, Report.fmt == fmt)
    if phase_seq is not None:
        q = q.where(Report.phase_seq == phase_seq)
    else:
        q = q.where(Report.phase_seq.not_in(select(Phase.seq).where(
            Phase.game_id == game_id, Phase.status == "undone")))
    return s.exec(q.order_by(Report.phase_seq.desc(), Report.id.desc())).first()


def reports(s: Session, game_id: str) -> list[Report]:
    return list(s.exec(select(Report).where(Report.game_id == game_id)
                       .order_by(Report.phase_seq, Report.role, Report.fmt)))


def count_mail_to(s: Session, kind: str, address: str, *, since: datetime) -> int:
    """How many mails of ``kind`` were queued to ``address`` (compared without case) since
    ``since``: the rate limit of rejections (docs/mail.md, ``rejections_per_hour``)."""
    from sqlalchemy import func

    q = select(func.count()).select_from(Outbox).where(
        Outbox.kind == kind, func.lower(Outbox.to_addr) == address.lower(),
        Outbox.created_at >= since)
    return int(s.exec(q).one())


# ---------------------------------------------------------------- protected bulk writes

def insert_protected(s: Session, model, rows: list[dict]) -> list[int]:
    """Bulk-insert ``rows`` (dicts of column values without ``id``/``mac``) into a protected
    table with an id the database assigns (OrderSet, Outbox), with their MACs; returns the new
    ids in order (pbem.store.integrity.insert_rows; RowKeyMissing without a row key)."""
    from pbem.store.integrity import insert_rows

    return insert_rows(s, model, rows)


def supersede_orders(s: Session, ids: list[int]) -> None:
    """Mark the stored order sets ``ids`` superseded. They were loaded in this session (the
    judge read them as the orders in force), so this reads nothing; the unit of work writes the
    status and the new MACs at the next flush."""
    for oid in ids:
        row = s.get(OrderSet, oid)
        row.status = "superseded"
        s.add(row)
