"""Queries: every read and write of the tables goes through these functions.

Each takes an open :class:`sqlmodel.Session` (from ``Database.read()``/``write()``), so a caller
composes several of them into one transaction. Rows are the models of :mod:`pbem.store.models`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Iterable

from sqlalchemy import update
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


# ---------------------------------------------------------------- phases

def open_phase(s: Session, game_id: str) -> Phase | None:
    """The game's open phase, if any."""
    return s.exec(select(Phase).where(Phase.game_id == game_id, Phase.status == "open")).first()


def phases(s: Session, game_id: str) -> list[Phase]:
    return list(s.exec(select(Phase).where(Phase.game_id == game_id).order_by(Phase.seq)))


def open_phases(s: Session) -> list[Phase]:
    """Every open phase of every game, oldest deadline first."""
    return list(s.exec(select(Phase).where(Phase.status == "open").order_by(Phase.deadline_at)))


# ---------------------------------------------------------------- orders

def accepted_orders(s: Session, game_id: str, phase_seq: int) -> list[OrderSet]:
    """The order sets in force for a phase (one per role at most)."""
    return list(s.exec(select(OrderSet).where(
        OrderSet.game_id == game_id, OrderSet.phase_seq == phase_seq,
        OrderSet.status == "accepted").order_by(OrderSet.role)))


# ---------------------------------------------------------------- messages

def pending_messages(s: Session) -> list[Message]:
    """Messages archived but not judged (a crash between the two steps)."""
    return list(s.exec(select(Message).where(Message.verdict == "pending").order_by(Message.id)))


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
    or the latest one."""
    q = select(Report).where(Report.game_id == game_id, Report.role == role, Report.fmt == fmt)
    if phase_seq is not None:
        q = q.where(Report.phase_seq == phase_seq)
    return s.exec(q.order_by(Report.phase_seq.desc(), Report.id.desc())).first()


def reports(s: Session, game_id: str) -> list[Report]:
    return list(s.exec(select(Report).where(Report.game_id == game_id)
                       .order_by(Report.phase_seq, Report.role, Report.fmt)))


def unsent_mail(s: Session) -> list[Outbox]:
    return list(s.exec(select(Outbox).where(Outbox.sent_at.is_(None)).order_by(Outbox.id)))


def mark_sent(s: Session, ids: list[int], when: datetime) -> None:
    if ids:
        s.exec(update(Outbox).where(Outbox.id.in_(ids)).values(sent_at=when))
