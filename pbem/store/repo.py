"""Queries: every read and write of the tables goes through these functions.

Each takes an open :class:`pbem.store.base.Session` (from ``Database.read()``/``write()``), so a caller
composes several of them into one transaction. Rows are the models of :mod:`pbem.store.models`.
The delivery of queued mail (claims, sent and failed records, listings) has its own queries in
:mod:`pbem.store.outbox`.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Iterable, NamedTuple

from sqlalchemy import select

from pbem.store.base import built_once
from pbem.store.core import CoreSession, Record

from pbem.store.models import (Game, LogBlock, Message, OrderSet, Outbox, Phase, Player,
                               Report, Sealed, Setting)

if TYPE_CHECKING:
    from pbem.store.orm import Session


# ---------------------------------------------------------------- statements built once

def _lookups(game, player, phase, orders, columns) -> dict:
    """The row lookups of :data:`_ENTITY`, over ``game``, ``player``, ``phase`` and ``orders``:
    the tables (Core statements, ``columns`` = ``lambda t: t.c``) or the row classes (ORM
    statements, ``columns`` = ``lambda t: t``). One definition, so that both forms run the
    same SQL (the phases read by ``open_phase``: see there)."""
    from sqlalchemy import bindparam, or_

    g = bindparam("g")
    gc, pc, ph, oc = columns(game), columns(player), columns(phase), columns(orders)
    game_row = select(game).where(gc.id == g)
    open_or_latest = select(phase).join(game, gc.id == ph.game_id).where(
        or_(ph.status == "open", ph.seq == gc.phase_seq))
    return {
        "game": game_row, "game_wait": game_row.with_for_update(),
        "game_skip": game_row.with_for_update(skip_locked=True),
        "players": select(player).where(pc.game_id == g).order_by(pc.seat),
        "open_phase": open_or_latest.where(ph.game_id == g),
        "open_phases": open_or_latest.order_by(ph.deadline_at),
        "orders": select(orders).where(oc.game_id == g, oc.phase_seq == bindparam("seq"))
        .order_by(oc.role, oc.id),
    }


_ENTITY = {"game": Game, "game_wait": Game, "game_skip": Game, "players": Player,
           "open_phase": Phase, "open_phases": Phase, "orders": OrderSet}
"""The lookups of :func:`_lookups`, with the row class each selects."""


def _statements() -> dict:
    """The statements built once with bound parameters (``g``: the game id): building a
    statement and its cache key cost more than SQLite's own work on these indexed lookups
    (issue 11; the reports' lookups do the same: pbem.store.reports). Core statements, built
    without loading the ORM: the sealed values, the settings, the log block insert, and the
    row lookups (:func:`_lookups`), which a CoreSession runs (:func:`_rows`)."""
    from sqlalchemy import bindparam

    g = bindparam("g")
    setting, sealed = Setting.__table__, Sealed.__table__
    sealed_key = (sealed.c.game_id == g, sealed.c.owner == bindparam("o"),
                  sealed.c.purpose == bindparam("p"))
    return {
        **_lookups(Game.__table__, Player.__table__, Phase.__table__, OrderSet.__table__,
                   lambda t: t.c),
        "sealed": select(sealed).where(sealed.c.game_id == g, sealed.c.purpose.in_(
            bindparam("purposes", expanding=True))),
        "sealed_update": sealed.update().where(*sealed_key).values(
            version=bindparam("version"), blob=bindparam("blob")),
        "sealed_delete": sealed.delete().where(*sealed_key),
        "sealed_insert": sealed.insert(),
        "setting": select(setting.c.value).where(setting.c.key == bindparam("k")),
        "setting_insert": setting.insert(),
        "log_block_insert": LogBlock.__table__.insert(),  # Core: no ORM bulk-insert path
        "setting_update": setting.update().where(setting.c.key == bindparam("k"))
        .values(value=bindparam("v")),
    }


def _entity_statements() -> dict:
    """The row lookups of :func:`_lookups` over the row classes, selecting row objects (the
    statements an ORM session runs; building them loads the ORM)."""
    return _lookups(Game, Player, Phase, OrderSet, lambda t: t)


_MAX_ID: dict = {}
"""``{table name: SELECT max(id)}`` (:func:`new_ids`)."""

_q = built_once(_statements)
"""The statement of a name of :func:`_statements`."""
_entity_q = built_once(_entity_statements)


def _rows(s: Session, name: str, **params) -> list:
    """The rows the lookup ``name`` of :data:`_ENTITY` selects with ``params``: row objects
    in an ORM session; in a :class:`~pbem.store.core.CoreSession`,
    :class:`~pbem.store.core.Record` objects, each row's MAC checked as the ORM's load event
    checks it (pbem.store.integrity.check_loaded: RowTampered)."""
    if type(s) is not CoreSession:
        return s.execute(_entity_q(name), params).scalars().all()
    return _records(s, _ENTITY[name].__tablename__, _q(name), params)


def _records(s: Session, table: str, statement, params: dict | None = None) -> list[Record]:
    """The rows of the protected ``table`` a Core ``statement`` selects (every column), as
    Records, each MAC checked (pbem.store.integrity.check_loaded: RowTampered)."""
    from pbem.store.integrity import check_loaded

    out = []
    for row in s.execute(statement, params):
        values = row._mapping
        check_loaded(s, table, values)
        out.append(Record(table, values))
    return out


# ---------------------------------------------------------------- games and players

def get_game(s: Session, game_id: str, *, lock: bool = False) -> Game | None:
    """The game ``game_id`` or None. ``lock`` takes a row lock on PostgreSQL
    (``FOR UPDATE SKIP LOCKED``: a game another worker holds is skipped, DESIGN.md "Storage");
    SQLite's ``BEGIN IMMEDIATE`` already serialises writers."""
    name = "game_skip" if lock and s.get_bind().dialect.name == "postgresql" else "game"
    found = _rows(s, name, g=game_id)
    return found[0] if found else None


def claim_game(s: Session, game_id: str, *, wait: bool = False) -> Game | None:
    """The game ``game_id``, locked for this write transaction, or None when it does not exist
    or (PostgreSQL) another transaction holds it: ``SELECT ... FOR UPDATE SKIP LOCKED``, after
    the game's advisory lock taken without waiting (``Database.write(games=[ID],
    skip_busy=True)``), so several ``pbem process`` workers sharing a database each take a
    game nobody else is on (DESIGN.md "Storage"). ``wait``: wait for the lock instead (up to
    the lock timeout): a game whose worker died is taken over. On SQLite the write
    transaction (``BEGIN IMMEDIATE``) already holds the only write lock."""
    if game_id in s.info.get("pbem_busy_games", ()):
        return None
    name = "game"
    if s.get_bind().dialect.name == "postgresql":
        name = "game_wait" if wait else "game_skip"
    found = _rows(s, name, g=game_id)
    return found[0] if found else None


def game_exists(s: Session, game_id: str) -> bool:
    """Whether the game ``game_id`` exists (its row is not loaded: no MAC to check)."""
    t = Game.__table__
    return s.execute(select(t.c.id).where(t.c.id == game_id)).first() is not None


def setting_value(s: Session, key: str) -> str | None:
    """The value of the setting ``key``, or None when it is unset (a Core statement: no row
    object)."""
    return s.execute(_q("setting"), {"k": key}).scalar()


def swap_setting(s: Session, key: str, value: str) -> str | None:
    """Set the setting ``key`` to ``value`` and return what it held (None: unset), in two Core
    statements (a ``pbem process`` run records its time this way once per run)."""
    old = s.execute(_q("setting"), {"k": key}).scalar()
    if old is None:
        s.execute(_q("setting_insert"), {"key": key, "value": value})
    else:
        s.execute(_q("setting_update"), {"k": key, "v": value})
    return old


def list_games(s: Session, *, active_only: bool = False) -> list[Game]:
    """Every game (or every active one), oldest first; Records, MACs checked, for a
    CoreSession."""
    if type(s) is CoreSession:
        t = Game.__table__
        q = select(t).order_by(t.c.created_at, t.c.id)
        return _records(s, "game", q.where(t.c.status == "active") if active_only else q)
    q = select(Game).order_by(Game.created_at, Game.id)
    if active_only:
        q = q.where(Game.status == "active")
    return list(s.exec(q))


def players(s: Session, game_id: str) -> list[Player]:
    """The players of a game in seat order."""
    return _rows(s, "players", g=game_id)


def games_of_key(s: Session, fingerprint: str) -> list[Player]:
    """Every (game, role) a public key is registered for."""
    return list(s.exec(select(Player).where(Player.fingerprint == fingerprint)))


# ---------------------------------------------------------------- sealed values

_PRELOADED = "pbem_sealed"  # s.info: {(game, owner, purpose): row or None} (preload_sealed)
_PRELOADED_GAMES = "pbem_sealed_games"  # s.info: the games preload_sealed read


class StoredSealed(NamedTuple):
    """A sealed row as stored, read without the ORM (:func:`preload_sealed`): what
    :func:`get_sealed` gives for it. Read-only: :func:`put_sealed` and :func:`delete_sealed`
    change the stored row with one statement each."""

    game_id: str
    owner: str
    purpose: str
    version: int
    blob: bytes


def get_sealed(s: Session, game_id: str, owner: str, purpose: str) -> Sealed | StoredSealed | None:
    """The sealed value (game, owner, purpose) or None; without a query when
    :func:`preload_sealed` read it (or found it missing) earlier in the transaction (then a
    :class:`StoredSealed`, or the Sealed row added since)."""
    key = (game_id, owner, purpose)
    held = s.info.get(_PRELOADED)
    if held is not None and key in held:
        return held[key]
    return s.get(Sealed, key)


def preload_sealed(s: Session, game_id: str,
                   purposes: Iterable[str]) -> dict[tuple, StoredSealed]:
    """Read, in one query, every sealed value of ``game_id`` whose purpose is in ``purposes``
    (any owner): ``{(owner, purpose): StoredSealed}``. The session keeps them, so that
    :func:`get_sealed` of them, and of the referee's values of those purposes that were
    missing, needs no query of its own until the transaction ends (a phase reads about ten:
    every state part, the dice seeds, the setup salt). They are read as plain rows, not ORM
    objects: loading them and flushing their changes through the unit of work cost more than
    the statements themselves (issue 11)."""
    wanted = list(dict.fromkeys(purposes))
    rows = {(r.owner, r.purpose): StoredSealed(r.game_id, r.owner, r.purpose, r.version, r.blob)
            for r in s.execute(_q("sealed"), {"g": game_id, "purposes": wanted})}
    held = s.info.setdefault(_PRELOADED, {})
    s.info.setdefault(_PRELOADED_GAMES, set()).add(game_id)
    for purpose in wanted:
        held[(game_id, "referee", purpose)] = rows.get(("referee", purpose))
    for (owner, purpose), row in rows.items():
        held[(game_id, owner, purpose)] = row
    return rows


def _hold(s: Session, key: tuple, row: Sealed | None) -> None:
    """Once :func:`preload_sealed` has run in the session: remember ``row`` (a row just added,
    not yet flushed, which the ORM's ``get`` would not find) or None (deleted) for ``key``."""
    held = s.info.get(_PRELOADED)
    if held is not None:
        held[key] = row


def put_sealed(s: Session, game_id: str, owner: str, purpose: str, version: int,
               blob: bytes) -> None:
    """Insert or replace the sealed value (game, owner, purpose): a row read by
    :func:`preload_sealed` is updated at once (one UPDATE), any other through the session."""
    put_sealed_many(s, game_id, purpose, version, {owner: blob})


def put_sealed_many(s: Session, game_id: str, purpose: str, version: int,
                    blobs: dict[str, bytes]) -> None:
    """:func:`put_sealed` of the value of ``purpose`` of each owner in ``blobs`` (``{owner:
    blob}``, all under ``version``): a phase's state parts. The rows :func:`preload_sealed`
    read are updated by one statement for all."""
    stored = []
    for owner, blob in blobs.items():
        row = get_sealed(s, game_id, owner, purpose)
        if row is None:
            add_sealed(s, game_id, owner, purpose, version, blob)
        elif isinstance(row, StoredSealed):
            stored.append({"g": game_id, "o": owner, "p": purpose, "version": version,
                           "blob": blob})
            _hold(s, (game_id, owner, purpose), row._replace(version=version, blob=blob))
        else:
            row.version = version
            row.blob = blob
            s.add(row)
    if stored:
        s.execute(_q("sealed_update"), stored)


def add_sealed(s: Session, game_id: str, owner: str, purpose: str, version: int,
               blob: bytes) -> None:
    """Insert a sealed value that cannot exist yet (a purpose naming a new phase, such as the
    state before it: pbem.engine.rollback), without first reading whether it does: at once
    (one INSERT) for a game whose sealed values :func:`preload_sealed` read in this session
    (its game row is stored), else through the session (a game being created)."""
    if game_id in s.info.get(_PRELOADED_GAMES, ()):
        s.execute(_q("sealed_insert"), {"game_id": game_id, "owner": owner, "purpose": purpose,
                                        "version": version, "blob": blob})
        _hold(s, (game_id, owner, purpose),
              StoredSealed(game_id, owner, purpose, version, blob))
        return
    row = Sealed(game_id=game_id, owner=owner, purpose=purpose, version=version, blob=blob)
    s.add(row)
    _hold(s, (game_id, owner, purpose), row)


def delete_sealed(s: Session, game_id: str, owner: str, purpose: str) -> bool:
    """Remove the sealed value (game, owner, purpose); False if there was none (an undone
    phase's hidden setup: pbem.engine.rollback)."""
    row = get_sealed(s, game_id, owner, purpose)
    _hold(s, (game_id, owner, purpose), None)
    if row is None:
        return False
    if isinstance(row, StoredSealed):
        s.execute(_q("sealed_delete"), {"g": game_id, "o": owner, "p": purpose})
    else:
        s.delete(row)
    return True


# ---------------------------------------------------------------- phases

def open_phase(s: Session, game_id: str) -> Phase | None:
    """The game's open phase, if any. The phases marked open and the phase at the game's
    ``phase_seq`` (the open one, or the last once the game ended) are read, so that a phase
    whose status was changed outside pbem, either way, fails its MAC check
    (pbem.store.integrity) rather than being silently left out or taken."""
    return next((p for p in _rows(s, "open_phase", g=game_id) if p.status == "open"), None)


def phases(s: Session, game_id: str) -> list[Phase]:
    return list(s.exec(select(Phase).where(Phase.game_id == game_id).order_by(Phase.seq)))


def open_phases(s: Session) -> list[Phase]:
    """Every open phase of every game, oldest deadline first."""
    return [p for p in _rows(s, "open_phases") if p.status == "open"]


# ---------------------------------------------------------------- orders

def accepted_orders(s: Session, game_id: str, phase_seq: int) -> list[OrderSet]:
    """The order sets in force for a phase (one per role at most). Every order set of the phase
    is read (and its MAC checked), so that one whose status was changed outside pbem is not
    silently left out."""
    return [o for o in _rows(s, "orders", g=game_id, seq=phase_seq) if o.status == "accepted"]


def accepted_order_values(s: Session, game_id: str, phase_seq: int,
                          checked: set | None = None) -> list[dict]:
    """:func:`accepted_orders` as dicts of column values, without building ORM objects (the
    judge reads them once per batch): every order set of the phase is still read and its MAC
    checked (:func:`pbem.store.integrity.check_loaded`: RowTampered, which also stops the
    transaction's commit, as for a row the ORM loads). ``checked``: the rows (tuples of all
    their values, MAC included) whose MAC held in an earlier transaction of the caller; a row
    read again with exactly the same values is not checked again, and each row checked here
    is added to it."""
    from pbem.store.integrity import check_loaded

    t = OrderSet.__table__
    out = []
    status = list(t.c.keys()).index("status")
    for row in s.execute(select(t).where(t.c.game_id == game_id, t.c.phase_seq == phase_seq)
                         .order_by(t.c.role, t.c.id)):
        values = tuple(row)
        if checked is None or values not in checked:
            check_loaded(s, "order_set", row._mapping)
            if checked is not None:
                checked.add(values)
        if values[status] == "accepted":
            out.append(dict(row._mapping))
    return out


def nonces_used(s: Session, game_id: str) -> dict[str, set[str]]:
    """Every nonce an order set of the game carried, in any phase, accepted or superseded,
    with the roles that sent it: ``{nonce: {role, ...}}`` (a nonce is used once per game:
    docs/signing.md, section 10). One query per game and ingest batch."""
    used: dict[str, set[str]] = {}
    t = OrderSet.__table__
    for nonce, role in s.execute(select(t.c.nonce, t.c.role).where(t.c.game_id == game_id)):
        used.setdefault(nonce, set()).add(role)
    return used


# ---------------------------------------------------------------- messages

def pending_messages(s: Session, *, retry_errors: bool = False) -> list[int]:
    """Ids of the messages archived but not judged (a crash between the two steps); with
    ``retry_errors`` also of those the judge failed on or could not read within its budget
    (verdicts ``error`` and ``unreadable``). Only ids: a row
    whose archived copy is damaged must not stop the query."""
    states = ("pending", "error", "unreadable") if retry_errors else ("pending",)
    t = Message.__table__
    return list(s.execute(select(t.c.id).where(t.c.verdict.in_(states)).order_by(t.c.id))
                .scalars())


def archived_message(s: Session, message_id: int) -> tuple[Record, bytes]:
    """(the message's row without its archived copy, as a Record; the sealed archived copy).
    Raises whatever the database raises for a damaged copy (e.g. a blob stored as text that
    is not UTF-8), so the caller can report that one message and go on."""
    t = Message.__table__
    row = s.execute(select(*[c for c in t.c if c.name != "blob"])
                    .where(t.c.id == message_id)).one()
    row = Record("message", row._mapping)
    blob = s.execute(select(t.c.blob).where(t.c.id == message_id)).scalar_one()
    if not isinstance(blob, bytes):
        raise TypeError(f"the archived copy is stored as {type(blob).__name__}, not bytes")
    return row, blob


def messages(s: Session, *, game_id: str | None = None, limit: int = 100) -> list[Message]:
    q = select(Message).order_by(Message.id.desc()).limit(limit)
    if game_id:
        q = q.where(Message.game_id == game_id)
    return list(s.exec(q))


# ---------------------------------------------------------------- events, log, reports, mail

def append_log(s: Session, game: Game, lines: Iterable[str], head: str) -> None:
    """Store new log lines after the game's last one, as one block (pbem.store.logblock: the
    lines compressed, each recomputable ``prev`` left out), and move its head to ``head``.
    ValueError when ``head`` is not the hash of the last line (nor, without lines, the game's
    head): the stored log is checked against it whenever it is read whole."""
    from pbem.store import logblock

    lines = list(lines)
    block = logblock.encode_block(lines, game.log_head) if lines else None
    last = block[2] if block else game.log_head
    if head != last:
        raise ValueError(f"append_log: head {head!r} is not the hash of the game's last line "
                         f"({last}); nothing was stored")
    if block:
        s.execute(_q("log_block_insert"), [{
            "game_id": game.id, "first_seq": game.log_count + 1,
            "last_seq": game.log_count + len(lines), "encoding": block[0],
            "prev": game.log_head, "blob": block[1]}])
    if isinstance(game, Record):  # read by a CoreSession: one UPDATE, with the new MAC
        from pbem.store.integrity import update_row

        update_row(s, game, log_count=game.log_count + len(lines), log_head=head)
        return
    game.log_count += len(lines)
    game.log_head = head
    s.add(game)


def log_lines(s: Session, game_id: str) -> list[str]:
    """The game's whole public log, one string per line, checked against the game row
    (pbem.store.loglines.iter_lines; LogTampered)."""
    from pbem.store import loglines

    return list(loglines.iter_lines(s, game_id))


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

    t = Outbox.__table__
    q = select(func.count()).select_from(t).where(
        t.c.kind == kind, func.lower(t.c.to_addr) == address.lower(), t.c.created_at >= since)
    return int(s.execute(q).scalar_one())


# ---------------------------------------------------------------- protected bulk writes

def new_ids(s: Session, table, n: int) -> list[int] | None:
    """``n`` ids for rows about to be inserted into ``table`` (a Table whose integer ``id`` the
    database assigns) in this write transaction, so that a bulk insert needs no RETURNING
    (which SQLAlchemy runs one row at a time on SQLite when the ids must come back in order).
    SQLite: the ids after the largest in use, which is what SQLite would assign (the write
    transaction holds the only write lock; the tables have no AUTOINCREMENT). PostgreSQL: drawn
    from the column's sequence (``nextval``, safe beside other writers). None on another
    database: the caller inserts with RETURNING."""
    from sqlalchemy import func, text

    if n <= 0:
        return []
    dialect = s.get_bind().dialect.name
    if dialect == "sqlite":
        top_of = _MAX_ID.get(table.name)
        if top_of is None:
            top_of = _MAX_ID[table.name] = select(func.max(table.c.id))
        top = s.execute(top_of).scalar() or 0
        return list(range(top + 1, top + 1 + n))
    if dialect == "postgresql":
        return list(s.execute(text("SELECT nextval(pg_get_serial_sequence(:t, 'id')) "
                                   "FROM generate_series(1, :n)"),
                              {"t": table.name, "n": n}).scalars())
    return None


def archive_messages(s: Session, rows: list[dict]) -> list[int]:
    """Insert the archive rows of new messages (dicts of Message columns without ``id``);
    returns their ids in order (pbem.engine.judge: one bulk insert per chunk)."""
    from sqlalchemy import insert

    t = Message.__table__
    ids = new_ids(s, t, len(rows))
    if ids is None:
        return list(s.execute(insert(t).returning(t.c.id, sort_by_parameter_order=True),
                              rows).scalars())
    s.execute(insert(t), [dict(row, id=i) for row, i in zip(rows, ids)])
    return ids


def record_verdicts(s: Session, rows: list[dict]) -> None:
    """Write the judge's verdicts on archived messages: ``rows`` are dicts with the message
    ``id`` and the same other Message columns each (verdict, reason, game_id, role, sender,
    subject), one UPDATE for all (a Core statement: the ORM's bulk update costs about
    0.02 ms a row more)."""
    from sqlalchemy import bindparam, update

    if not rows:
        return
    t = Message.__table__
    names = [k for k in rows[0] if k != "id"]
    s.execute(update(t).where(t.c.id == bindparam("b_id"))
              .values({n: bindparam("b_" + n) for n in names}),
              [{"b_" + k: v for k, v in row.items()} for row in rows])


def insert_protected(s: Session, model, rows: list[dict], written: set | None = None) -> list[int]:
    """Bulk-insert ``rows`` (dicts of column values without ``id``/``mac``) into a protected
    table with an id the database assigns (OrderSet, Outbox), with their MACs; returns the new
    ids in order (pbem.store.integrity.insert_rows, which also explains ``written``;
    RowKeyMissing without a row key)."""
    from pbem.store.integrity import insert_rows

    return insert_rows(s, model, rows, written)


def supersede_orders(s: Session, ids: list[int]) -> None:
    """Mark the stored order sets ``ids`` superseded. In an ORM session they were loaded (the
    judge read them as the orders in force), so this reads nothing; the unit of work writes the
    status and the new MACs at the next flush. In a CoreSession each is read (its MAC
    checked) and updated with its new MAC."""
    if type(s) is CoreSession:
        from pbem.store.integrity import update_row

        for record in _order_records(s, ids):
            update_row(s, record, status="superseded")
        return
    for oid in ids:
        row = s.get(OrderSet, oid)
        row.status = "superseded"
        s.add(row)


def _order_records(s: Session, ids: list[int]) -> list[Record]:
    """The order sets ``ids`` as Records, their MACs checked (RowTampered)."""
    if not ids:
        return []
    t = OrderSet.__table__
    return _records(s, "order_set", select(t).where(t.c.id.in_(ids)).order_by(t.c.id))
