"""Row MACs: whoever can write the database file but has no master key cannot change the rows
that decide results unnoticed (issue 7; docs/security.md, "Someone who can write the database").

Every row of the tables in :data:`PROTECTED` carries ``mac``: the hex HMAC-SHA256, under the
master key's ``row-mac`` secret (:meth:`pbem.crypto.seal.Sealer.mac_key`), of

    b"pbem/row-mac/1" || F(table) || for each column of PROTECTED[table]: F(name) || F(value)

where ``F(x)`` is a one-byte type tag, the length of the payload as 8 bytes big-endian and the
payload: ``n`` (NULL, empty), ``i`` (an integer or boolean, its decimal ASCII), ``s`` (text,
UTF-8), ``b`` (bytes) or ``t`` (a time, as ``YYYY-MM-DDTHH:MM:SS.ffffff`` in UTC; a time
without a zone is UTC). The primary key columns come first in each list, so a row copied to
another game, role or id fails its check. The encoding is unambiguous (every field carries
its length), and a column added to a protected table is not covered until it is added here
(with a data step that recomputes the MACs).

The key travels with the session: :class:`pbem.store.db.Database` copies its ``row_key`` into
``session.info["row_key"]``. The MAC is checked each time the ORM loads a protected row (an
ORM ``load`` event: :class:`RowTampered`; :func:`check_loaded` for a row read without the
ORM), computed when the unit of work inserts or updates one (``before_insert``/
``before_update``; a row whose id the database assigns gets it right after its INSERT; the
events are registered when the ORM is loaded: :func:`listen_orm_events`), by
:func:`insert_rows` for bulk inserts and by :func:`update_row` for an update without the
ORM. Without a key, protected rows can be neither read nor written (:class:`RowKeyMissing`).
A session that saw a tampered row cannot commit, even if the caller swallowed the error.

Not detected by per-row MACs: a deleted row, and a whole row (or database) put back as it was
at an earlier time.
"""

from __future__ import annotations

import hmac
from datetime import datetime, timezone
from typing import Mapping

from sqlalchemy import insert, select, update

from pbem.store.models import Game, OrderSet, Outbox, Phase, Player, Setting

__all__ = ["ROW_MAC_LABEL", "ROW_MACS_SETTING", "PROTECTED", "UNPROTECTED", "RowIntegrityError",
           "RowTampered", "RowKeyMissing", "row_mac", "check_row", "session_key", "insert_rows", "protect_rows",
           "rows_protected"]

ROW_MAC_LABEL = "row-mac"
"""The label of the row-MAC key: ``Sealer.mac_key(ROW_MAC_LABEL)``."""
ROW_MACS_SETTING = "row_macs"
"""The setting that records that every protected row has its MAC (value:
:func:`protected_marker`)."""

_PREFIX = b"pbem/row-mac/1"

PROTECTED_V1: dict[str, tuple[str, ...]] = {
    "game": ("id", "ruleset", "title", "status", "created_at", "options_json",
             "house_rules_text", "house_rules_sha256", "map_text", "map_sha256",
             "deadline_seconds", "short_deadline_seconds", "state_version", "public_state",
             "phase_seq", "log_head", "log_count", "referee_address", "bind_referee"),
    "player": ("game_id", "role", "seat", "email", "public_key", "fingerprint", "zone"),
    "phase": ("id", "game_id", "seq", "turn", "name", "phase_id", "window_json", "opened_at",
              "deadline_at", "commit", "status", "resolved_at", "nmr_json"),
    "order_set": ("id", "game_id", "phase_seq", "role", "issued", "nonce", "digest",
                  "received_at", "message_id", "status", "blob"),
    "outbox": ("id", "game_id", "owner", "kind", "to_addr", "subject", "created_at", "sent_at",
               "report_seq"),
}
"""The columns the MACs covered at schema 0002 (marker version 1): a database upgraded from
0002 has its MACs checked against these and recomputed over :data:`PROTECTED`."""

PROTECTED_V2: dict[str, tuple[str, ...]] = {
    "game": PROTECTED_V1["game"] + ("schedule_json", "paused_at"),
    "player": PROTECTED_V1["player"],
    "phase": PROTECTED_V1["phase"] + ("reminded_json",),
    "order_set": PROTECTED_V1["order_set"] + ("wait",),
    "outbox": PROTECTED_V1["outbox"] + ("attempts", "failed_at", "error"),
}
"""The columns the MACs covered at schema 0003 (marker version 2): a database upgraded from
0003 has its MACs checked against these and recomputed over :data:`PROTECTED`."""

PROTECTED: dict[str, tuple[str, ...]] = dict(
    PROTECTED_V2, player=PROTECTED_V2["player"] + ("key_type", "encrypt_reports"))
"""Per protected table, the columns its MAC covers (primary key first): every column but
``mac``, and but those of :data:`UNPROTECTED`: ``outbox.blob``, a letter sealed for its reader
with AES-256-GCM under additional data naming its game, owner and kind (a damaged one is
reported for that message alone when the outbox is delivered, while the others still go), and
the outbox's delivery scheduling (``next_try_at``, ``claimed_by``, ``claimed_until``): changing
them can only make a queued message go sooner or later, never a sent one go again."""

MARKER_VERSION = 3
"""The version of the column lists the MACs cover: 1 = :data:`PROTECTED_V1` (schema 0002),
2 = :data:`PROTECTED_V2` (0003), 3 = PROTECTED (0004)."""

OLDER_COLUMNS = {1: PROTECTED_V1, 2: PROTECTED_V2}
"""The column lists of the older marker versions, for :func:`protect_rows`."""

UNPROTECTED = {"outbox": ("blob", "next_try_at", "claimed_by", "claimed_until")}
"""The columns of protected tables left out of the MAC (see :data:`PROTECTED`)."""

_MODELS = {"game": Game, "player": Player, "phase": Phase, "order_set": OrderSet,
           "outbox": Outbox}


class RowIntegrityError(Exception):
    """Base of the row-integrity errors (reported by the CLI as ``Error: ...``, exit 1)."""


class RowTampered(RowIntegrityError):
    """A protected row whose MAC does not match: changed outside pbem, or restored from another
    installation. ``table`` is the table name, ``key`` the primary key values (a tuple)."""

    def __init__(self, table: str, key: tuple, why: str = "fails its integrity check"):
        self.table, self.key = table, key
        shown = ", ".join(str(k) for k in key)
        super().__init__(
            f"the row {table} ({shown}) {why}: it was changed outside pbem, or the database was "
            "restored from another installation (docs/security.md); nothing was done")


class RowKeyMissing(RowIntegrityError):
    """A protected row read or written through a database opened without the row-MAC key."""

    def __init__(self, table: str, doing: str):
        self.table = table
        super().__init__(f"cannot {doing} a row of {table} without the referee's master key "
                         "(its integrity check needs it)")


# ---------------------------------------------------------------- the MAC

_TIMES: dict[datetime, bytes] = {}
"""F(t) of the UTC times seen lately (a batch's rows share their received and created times;
a row's times come back when it is read again)."""


def _field(value) -> bytes:
    kind = type(value)  # the common exact types first (a row MAC encodes a dozen values)
    if kind is str:
        data = value.encode("utf-8", "surrogatepass")
        return b"s" + len(data).to_bytes(8, "big") + data
    if kind is datetime and value.tzinfo is timezone.utc:
        encoded = _TIMES.get(value)
        if encoded is None and value.year >= 1000:
            text = value.isoformat(timespec="microseconds")[:-6]  # without "+00:00"
            if len(_TIMES) >= 4096:
                _TIMES.clear()
            encoded = _TIMES[value] = b"t" + len(text).to_bytes(8, "big") + text.encode("ascii")
        if encoded is not None:
            return encoded
    if value is None:
        tag, data = b"n", b""
    elif isinstance(value, int):  # bool too
        tag, data = b"i", str(int(value)).encode("ascii")
    elif isinstance(value, str):
        tag, data = b"s", value.encode("utf-8", "surrogatepass")
    elif isinstance(value, (bytes, bytearray, memoryview)):
        tag, data = b"b", bytes(value)
    elif isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(timezone.utc).replace(tzinfo=None)
        # isoformat is strftime's "%Y-%m-%dT%H:%M:%S.%f" (faster) from year 1000 on
        text = (value.isoformat(timespec="microseconds") if value.year >= 1000
                else value.strftime("%Y-%m-%dT%H:%M:%S.%f"))
        tag, data = b"t", text.encode("ascii")
    else:
        raise TypeError(f"no row-MAC encoding for a {type(value).__name__}")
    return tag + len(data).to_bytes(8, "big") + data


def row_mac(key: bytes, table: str, values: Mapping, columns: dict | None = None) -> str:
    """The hex HMAC-SHA256 of a row of ``table`` (a key of :data:`PROTECTED`) whose column
    values are ``values`` (a mapping of column name to value; see the module doc), over the
    columns of ``columns[table]`` (default :data:`PROTECTED`)."""
    names = (columns or PROTECTED)[table]
    head, pairs = _name_fields(table, names)
    data = head + b"".join([encoded + _field(values[name]) for name, encoded in pairs])
    return hmac.digest(key, data, "sha256").hex()


_NAME_FIELDS: dict[tuple[str, tuple[str, ...]], tuple] = {}


def _name_fields(table: str, names: tuple[str, ...]) -> tuple:
    """``(_PREFIX + F(table), ((name, F(name)) for each column))``, computed once per column
    list (a row MAC is computed for every protected row read or written)."""
    fields = _NAME_FIELDS.get((table, names))
    if fields is None:
        fields = _NAME_FIELDS[(table, names)] = (_PREFIX + _field(table),
                                                 tuple((n, _field(n)) for n in names))
    return fields


def _pk(table: str, values: Mapping) -> tuple:
    model = _MODELS[table]
    return tuple(values.get(c.name) for c in model.__table__.primary_key.columns)


def check_row(key: bytes, table: str, values: Mapping) -> None:
    """Raise :class:`RowTampered` unless ``values["mac"]`` is the MAC of the row."""
    stored = values.get("mac")
    if stored is None:
        raise RowTampered(table, _pk(table, values), "has no integrity check value")
    if not hmac.compare_digest(str(stored), row_mac(key, table, values)):
        raise RowTampered(table, _pk(table, values))


def update_row(s, record, **changes) -> None:
    """Change the columns ``changes`` of the protected row ``record`` (a
    :class:`pbem.store.core.Record` read and checked in the transaction of ``s``), in memory
    and in the database, with the row's new MAC, in one UPDATE by its primary key: what the
    ORM's unit of work does for a row object (:func:`_before_write`). RowKeyMissing without
    a row key. RuntimeError when the ORM session of ``s`` holds the same row as an object:
    one of the two would then write a MAC over values the other has changed, and the row
    would fail its next check."""
    table = record.table_name
    key = session_key(s, table, "write")
    t = _MODELS[table].__table__
    orm = getattr(s, "_orm", None)  # a CoreSession's joined ORM session, if it was made
    if orm is not None:
        from sqlalchemy.orm.util import identity_key

        ident = identity_key(_MODELS[table], tuple(getattr(record, c.name)
                                                   for c in t.primary_key.columns))
        if ident in orm.identity_map:
            raise RuntimeError(f"update_row: the row {table} {ident[1]} is also held as an ORM "
                               "object in this transaction; change it through one of them")
    for name, value in changes.items():
        setattr(record, name, value)
    values = record.values()
    record.mac = row_mac(key, table, values)
    s.execute(update(t).where(*[c == values[c.name] for c in t.primary_key.columns])
              .values(mac=record.mac, **changes))


# ---------------------------------------------------------------- ORM events

def session_key(session, table: str, doing: str) -> bytes:
    """The row-MAC key of ``session`` (``session.info["row_key"]``); RowKeyMissing without
    one (a database opened without the master key)."""
    key = session.info.get("row_key") if session is not None else None
    if key is None:
        raise RowKeyMissing(table, doing)
    return key


def _on_load(target, context) -> None:
    table = target.__tablename__
    session = context.session
    key = session_key(session, table, "read")
    try:
        check_row(key, table, target.__dict__)
    except RowTampered as e:
        session.info.setdefault("pbem_tampered", []).append(e)
        raise


def check_loaded(session, table: str, values: Mapping) -> None:
    """Check the MAC of a row of ``table`` that ``session`` read without the ORM (a Core
    select: ``values`` its column values) as the ORM's load event does: RowKeyMissing without
    a key; RowTampered, recorded in the session so that it cannot commit."""
    key = session_key(session, table, "read")
    try:
        check_row(key, table, values)
    except RowTampered as e:
        session.info.setdefault("pbem_tampered", []).append(e)
        raise


def _before_write(mapper, connection, target) -> None:
    from sqlalchemy.orm import attributes, object_session

    table = target.__tablename__
    values = target.__dict__
    if any(values.get(c.name) is None for c in mapper.local_table.primary_key.columns):
        target.mac = None  # the database assigns the id: see _after_insert
        return
    key = session_key(object_session(target), table, "write")
    if any(n not in values for n in PROTECTED[table]):
        if attributes.instance_state(target).key is not None:  # stored: load what expired
            values = {n: getattr(target, n) for n in PROTECTED[table]}
        else:
            values = _with_defaults(table, values)
    target.mac = row_mac(key, table, values)


def _after_insert(mapper, connection, target) -> None:
    from sqlalchemy.orm import attributes, object_session

    if target.__dict__.get("mac") is not None:
        return
    table = target.__tablename__
    key = session_key(object_session(target), table, "write")
    mac = row_mac(key, table, _with_defaults(table, target.__dict__))
    pk = mapper.local_table.primary_key.columns
    stmt = _SET_MAC.get(table)
    if stmt is None:  # built once per table: the new phase of every phase comes here
        from sqlalchemy import bindparam

        stmt = _SET_MAC[table] = update(mapper.local_table).where(
            *[c == bindparam("pk_" + c.name) for c in pk]).values(mac=bindparam("new_mac"))
    connection.execute(stmt, {"new_mac": mac, **{"pk_" + c.name: target.__dict__[c.name]
                                                  for c in pk}})
    attributes.set_committed_value(target, "mac", mac)


_SET_MAC: dict = {}
"""``{table: UPDATE setting the MAC of one row by its primary key}`` (:func:`_after_insert`)."""


def _with_defaults(table: str, values: Mapping) -> Mapping:
    """``values`` with the model's scalar default for each protected column not given (what
    the INSERT will store)."""
    missing = [n for n in PROTECTED[table] if n not in values]
    if not missing:
        return values
    cols = _MODELS[table].__table__.columns
    out = dict(values)
    for name in missing:
        default = cols[name].default
        out[name] = default.arg if default is not None and default.is_scalar else None
    return out


def _before_commit(session) -> None:
    tampered = session.info.get("pbem_tampered")
    if tampered:
        raise tampered[0]


def _after_rollback(session) -> None:
    session.info.pop("pbem_tampered", None)


def listen_orm_events() -> None:
    """Register the row-MAC events on the protected row classes and the ORM session (once,
    when :mod:`pbem.store.orm` maps the classes): the MAC checked at each load, computed at
    each insert and update, and a session that saw a tampered row unable to commit."""
    from sqlalchemy import event
    from sqlalchemy.orm import Session as OrmSession

    if _LISTENING:
        return
    for model in _MODELS.values():
        event.listen(model, "load", _on_load)
        event.listen(model, "before_insert", _before_write)
        event.listen(model, "before_update", _before_write)
        event.listen(model, "after_insert", _after_insert)
    event.listen(OrmSession, "before_commit", _before_commit)
    event.listen(OrmSession, "after_soft_rollback", lambda session, _tx: _after_rollback(session))
    _LISTENING.append(True)


_LISTENING: list = []
"""Not empty once :func:`listen_orm_events` has run."""


# ---------------------------------------------------------------- bulk writes and the data step

def insert_rows(s, model, rows: list[dict], written: set | None = None) -> list[int]:
    """Insert ``rows`` (dicts of column values, without ``id`` and ``mac``) into the protected
    table of ``model`` (OrderSet, Outbox): with the ids drawn first
    (:func:`pbem.store.repo.new_ids`) and the MACs, which cover them, in one INSERT; on a
    database where ids cannot be drawn first, in two statements (the INSERT, then the MACs).
    Returns the ids in the order of ``rows``. Raises :class:`RowKeyMissing` when the session
    has no row key. ``written``: a set that gets each inserted row as the tuple of its values
    in the table's column order, MAC included (the ``checked`` rows of
    :func:`pbem.store.repo.accepted_order_values`: a row read back with exactly these values
    carries the MAC computed here over them, so checking it again could only succeed)."""
    if not rows:
        return []
    from sqlalchemy import bindparam

    from pbem.store.repo import new_ids

    table = model.__tablename__
    key = session_key(s, table, "write")
    t = model.__table__  # Core statements: the ORM's bulk paths cost ~0.02 ms a row more
    ids = new_ids(s, t, len(rows))
    if ids is not None:  # one INSERT of the rows with their ids and MACs
        full = []
        filled: dict = {}  # the defaults of the columns a row leaves out, per set of keys
        for row, rid in zip(rows, ids):
            keys = frozenset(row)
            fill = filled.get(keys)
            if fill is None:
                fill = filled[keys] = {n: v for n, v in _with_defaults(table, {}).items()
                                       if n not in keys and n != "id"}
            values = {**row, **fill, "id": rid}
            values["mac"] = row_mac(key, table, values)
            full.append(values)
        s.execute(insert(t), full)
        if written is not None:
            names = t.c.keys()
            written.update(tuple(values.get(n) for n in names) for values in full)
        return ids
    ids = s.execute(insert(t).returning(t.c.id, sort_by_parameter_order=True),
                    rows).scalars().all()
    macs = [{"b_id": rid,
             "b_mac": row_mac(key, table, _with_defaults(table, dict(row, id=rid)))}
            for row, rid in zip(rows, ids)]
    s.execute(update(t).where(t.c.id == bindparam("b_id")).values(mac=bindparam("b_mac")),
              macs)
    return list(ids)


def protected_marker(key: bytes, version: int = MARKER_VERSION) -> str:
    """The value of the ``row_macs`` setting once the data step has run: hex HMAC-SHA256 under
    the row-MAC ``key`` of ``pbem/row-macs-done/VERSION`` (the version of the column lists the
    MACs cover, :data:`MARKER_VERSION`), so that nobody without the master key can write it,
    and a database whose marker is missing or altered is known to be tampered with."""
    return hmac.new(key, f"pbem/row-macs-done/{version}".encode(), "sha256").hexdigest()


def _marker_version(s, key: bytes) -> int | None:
    """The version whose marker the ``row_macs`` setting holds, or None (none, or altered)."""
    from pbem.store.repo import setting_value

    value = setting_value(s, ROW_MACS_SETTING)
    if value is None:
        return None
    for version in range(MARKER_VERSION, 0, -1):
        if hmac.compare_digest(value, protected_marker(key, version)):
            return version
    return None


def rows_protected(s, key: bytes) -> bool:
    """True once the data step (:func:`protect_rows`) has run on this database for this
    schema: the setting ``row_macs`` holds :func:`protected_marker` of ``key``."""
    return _marker_version(s, key) == MARKER_VERSION


def remac_rows(s, key: bytes, old: dict) -> dict[str, int]:
    """Recompute the MAC of every protected row over :data:`PROTECTED` after checking it over
    the older column lists ``old`` (e.g. :data:`PROTECTED_V1`): the data step of a migration
    that adds columns to protected tables. Raises :class:`RowTampered` for a row whose old
    MAC does not hold (the migration then rolls back: nothing tampered is blessed with a new
    MAC). Returns the rows per table."""
    from sqlalchemy import bindparam

    done: dict[str, int] = {}
    for table, model in _MODELS.items():
        t = model.__table__
        changes = []
        for row in s.execute(select(t)).mappings():
            values = dict(row)
            stored = values.get("mac")
            if stored is None or not hmac.compare_digest(str(stored),
                                                         row_mac(key, table, values, old)):
                raise RowTampered(table, _pk(table, values))
            change = {f"b_{c.name}": values[c.name] for c in t.primary_key.columns}
            change["b_mac"] = row_mac(key, table, values)
            changes.append(change)
        if changes:
            where = [c == bindparam(f"b_{c.name}") for c in t.primary_key.columns]
            s.connection().execute(update(t).where(*where).values(mac=bindparam("b_mac")),
                                   changes)
        done[table] = len(changes)
    return done


def protect_rows(s, key: bytes, fix_order_set=None) -> dict[str, int]:
    """The data step after the Alembic migration to 0002 (run in the write session ``s``):
    compute the MAC of every protected row that has none, then record it done (setting
    ``row_macs=1``); afterwards a protected row without a MAC is a tamper error. Before each
    order set's MAC, ``fix_order_set(values)`` (a dict of its columns) may change its
    ``digest`` and ``blob`` in place and return True (an order set stored by an older pbem).
    Idempotent: once done, returns ``{}`` without reading anything. Returns the rows MACed
    per table. A database whose MACs cover an older column list (marker version 1, schema
    0002; 2, schema 0003) has them checked over it and recomputed instead
    (:func:`remac_rows`), returning ``{}``: its rows had their integrity checks already."""
    version = _marker_version(s, key)
    if version == MARKER_VERSION:
        return {}
    if version in OLDER_COLUMNS:
        remac_rows(s, key, OLDER_COLUMNS[version])
        s.merge(Setting(key=ROW_MACS_SETTING, value=protected_marker(key)))
        s.flush()
        return {}
    done: dict[str, int] = {}
    for table, model in _MODELS.items():
        t = model.__table__
        changes = []
        for row in s.execute(select(t).where(t.c.mac.is_(None))).mappings():
            values = dict(row)
            change = {}
            if table == "order_set" and fix_order_set is not None and fix_order_set(values):
                change.update(b_digest=values["digest"], b_blob=values["blob"])
            change.update({f"b_{c.name}": values[c.name] for c in t.primary_key.columns})
            change["b_mac"] = row_mac(key, table, values)
            changes.append(change)
        if changes:
            from sqlalchemy import bindparam

            where = [c == bindparam(f"b_{c.name}") for c in t.primary_key.columns]
            plain = [c for c in changes if "b_digest" not in c]
            fixed = [c for c in changes if "b_digest" in c]
            if plain:
                s.connection().execute(update(t).where(*where).values(mac=bindparam("b_mac")),
                                       plain)
            if fixed:
                s.connection().execute(
                    update(t).where(*where).values(mac=bindparam("b_mac"),
                                                   digest=bindparam("b_digest"),
                                                   blob=bindparam("b_blob")), fixed)
        done[table] = len(changes)
    s.merge(Setting(key=ROW_MACS_SETTING, value=protected_marker(key)))
    s.flush()
    return done

