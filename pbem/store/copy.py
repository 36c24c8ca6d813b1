"""Copying a whole pbem database into another (``pbem migrate-db FROM TO``; docs/operations.md).

Moving a home from SQLite to PostgreSQL (or back, or between servers) must keep everything a
player relies on: every row as it was, so the public logs stay byte for byte the same (their
hash chains and the heads quoted in mailed reports still hold), the sealed values open under the
same master key, and the row MACs (:mod:`pbem.store.integrity`) still verify. The MACs cover
column values and the table, not the database, so a row copied value for value keeps its MAC;
rows are copied with their ids, in dependency order (parents first), in one transaction on the
target. Times are moved as the same instants (SQLite keeps them without a zone, as UTC).

:func:`copy_database` refuses (:class:`CopyRefused`) a target that holds anything but settings,
a source and target whose schemas differ (revision, tables or columns), and a source whose rows
were not protected with the given key. Afterwards it checks, reading the target again: the rows
per table, every protected row's MAC, and every game's public log against the source's. The
public log's blocks (table ``log_block``, pbem.store.logblock) are copied as stored; the check
decodes every game's log on both sides, checks it against its game row (the hash of its last
line is the game's ``log_head``: pbem.store.loglines) and compares the lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

from sqlalchemy import MetaData, func, select, text

from pbem.store.db import SCHEMA_HEAD, Database

CHUNK_ROWS = 500
"""Rows read and inserted at a time (reports and archived mail can be large)."""


class CopyRefused(Exception):
    """The copy was not made (nothing was written to the target), or its checks failed (the
    target's transaction was rolled back): the message says why."""


@dataclass
class CopySummary:
    """What :func:`copy_database` did: ``tables`` maps each table, in the order copied, to its
    rows (the same in both databases); ``games``, ``log_lines`` (public log lines compared,
    all games) and ``macs`` (protected rows whose MAC was verified in the target);
    ``created`` says whether the target's schema was created by the copy."""

    source: str
    target: str
    tables: dict = field(default_factory=dict)
    games: int = 0
    log_lines: int = 0
    macs: int = 0
    created: bool = False


def _tables(conn) -> MetaData:
    meta = MetaData()
    meta.reflect(bind=conn)
    return meta


def _columns(meta: MetaData) -> dict[str, list[str]]:
    return {t.name: sorted(c.name for c in t.columns) for t in meta.sorted_tables
            if t.name != "alembic_version"}


def _check_schemas(src_meta: MetaData, dst_meta: MetaData, src_rev, dst_rev) -> None:
    if src_rev != SCHEMA_HEAD:
        raise CopyRefused(f"FROM is at schema {src_rev!r}, this pbem's is {SCHEMA_HEAD!r}: run "
                          "`pbem upgrade` on it first")
    if dst_rev != src_rev:
        raise CopyRefused(f"the schemas differ: FROM is at {src_rev!r}, TO at {dst_rev!r}")
    a, b = _columns(src_meta), _columns(dst_meta)
    if a != b:
        diff = sorted(set(a) ^ set(b)) or [t for t in a if a[t] != b.get(t)]
        raise CopyRefused(f"the schemas differ (tables or columns of {', '.join(diff)}): both "
                          "must be made by this pbem (`pbem upgrade`)")


def _refuse_non_empty(conn, meta: MetaData, where: str) -> None:
    for t in meta.sorted_tables:
        if t.name in ("alembic_version", "setting"):
            continue
        n = conn.execute(select(func.count()).select_from(t)).scalar_one()
        if n:
            what = f"{n} game(s)" if t.name == "game" else f"{n} row(s) in table {t.name}"
            raise CopyRefused(f"TO ({where}) is not empty: it holds {what}; migrate-db copies "
                              "into a new database only (create an empty one, or `pbem init` "
                              "one that has no game yet)")


def _check_key(conn, meta: MetaData, row_key: bytes, where: str) -> None:
    from pbem.store.integrity import ROW_MACS_SETTING, protected_marker

    t = meta.tables["setting"]
    value = conn.execute(select(t.c.value).where(t.c.key == ROW_MACS_SETTING)).scalar()
    if value != protected_marker(row_key):
        raise CopyRefused(f"FROM ({where}) was not protected with this home's master key (its "
                          "row_macs marker does not match): give the home whose referee.key "
                          "sealed it, with --home")


def _value(v, to_sqlite: bool):
    """A column value as the target takes it: times as UTC (aware for PostgreSQL; SQLite keeps
    them without a zone, as UTC)."""
    if isinstance(v, datetime):
        v = v.replace(tzinfo=timezone.utc) if v.tzinfo is None else v.astimezone(timezone.utc)
        return v.replace(tzinfo=None) if to_sqlite else v
    if isinstance(v, memoryview):
        return bytes(v)
    return v


def _copy_table(src, dst, s_table, d_table, to_sqlite: bool) -> int:
    names = [c.name for c in s_table.columns]
    order = list(s_table.primary_key.columns) or list(s_table.columns)
    result = src.execution_options(yield_per=CHUNK_ROWS).execute(
        select(*[s_table.c[n] for n in names]).order_by(*order))
    n = 0
    for chunk in result.partitions(CHUNK_ROWS):
        rows = [{k: _value(v, to_sqlite) for k, v in zip(names, row)} for row in chunk]
        dst.execute(d_table.insert(), rows)
        n += len(rows)
    return n


def _reset_sequences(dst, meta: MetaData) -> None:
    """PostgreSQL: move each id sequence past the ids copied, so that the next row inserted
    gets a new id."""
    for t in meta.sorted_tables:
        for c in t.primary_key.columns:
            seq = dst.execute(text("SELECT pg_get_serial_sequence(:t, :c)"),
                              {"t": t.name, "c": c.name}).scalar()
            if seq:
                dst.execute(text(f'SELECT setval(:s, coalesce((SELECT max("{c.name}") FROM '
                                 f'"{t.name}"), 0) + 1, false)'), {"s": seq})


def _log_digests(conn) -> dict[str, tuple[int, str]]:
    """Per game: (lines, sha256 of its public log lines in order, each ending in a newline),
    each log decoded from its blocks and checked against its game row
    (pbem.store.loglines.digests: LogTampered)."""
    from pbem.store import loglines

    return loglines.digests(conn)


def _counts(conn, meta: MetaData) -> dict[str, int]:
    return {t.name: conn.execute(select(func.count()).select_from(t)).scalar_one()
            for t in meta.sorted_tables if t.name != "alembic_version"}


def _check_macs(conn, meta: MetaData, row_key: bytes) -> int:
    """Verify every protected row's MAC as read back from the target; RowTampered otherwise."""
    from pbem.store.integrity import PROTECTED, check_row

    n = 0
    for name in PROTECTED:
        t = meta.tables[name]
        for row in conn.execute(select(t)).mappings():
            check_row(row_key, name, dict(row))
            n += 1
    return n


def copy_database(source: Database, target: Database, row_key: bytes) -> CopySummary:
    """Copy every row of ``source`` into ``target`` (see the module doc): the target's schema
    is created first when it has none. ``row_key``: the row-MAC key of the master key that
    sealed the source (``Sealer.mac_key("row-mac")``). Returns a :class:`CopySummary`; raises
    :class:`CopyRefused` (the target unchanged, but for a schema just created) or
    :class:`pbem.store.integrity.RowTampered` (a row of the source that fails its check)."""
    summary = CopySummary(source.url, target.url)
    if target.revision() is None:
        with target.engine.connect() as conn:
            existing = [t for t in _columns(_tables(conn))]
        if existing:
            raise CopyRefused(f"TO ({target.url}) holds tables that are not a pbem schema "
                              f"({', '.join(existing[:5])})")
        target.migrate()
        summary.created = True
    to_sqlite = target.is_sqlite
    with source.read() as s_session, target.write() as d_session:
        src, dst = s_session.connection(), d_session.connection()
        src_meta, dst_meta = _tables(src), _tables(dst)
        _check_schemas(src_meta, dst_meta, _revision(src), _revision(dst))
        _refuse_non_empty(dst, dst_meta, target.url)
        _check_key(src, src_meta, row_key, source.url)
        dst.execute(dst_meta.tables["setting"].delete())  # the source's settings replace them
        for s_table in src_meta.sorted_tables:
            if s_table.name == "alembic_version":
                continue
            summary.tables[s_table.name] = _copy_table(src, dst, s_table,
                                                       dst_meta.tables[s_table.name], to_sqlite)
        if not to_sqlite:
            _reset_sequences(dst, dst_meta)
        _verify(src, dst, src_meta, dst_meta, row_key, summary)
    return summary


def _revision(conn) -> str | None:
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _verify(src, dst, src_meta, dst_meta, row_key: bytes, summary: CopySummary) -> None:
    """The checks after the copy, in the target's transaction (a failure rolls it back)."""
    before, after = _counts(src, src_meta), _counts(dst, dst_meta)
    if before != after:
        bad = [f"{t}: {before[t]} -> {after.get(t)}" for t in before if before[t] != after.get(t)]
        raise CopyRefused(f"row counts differ after the copy ({'; '.join(bad)}); nothing was "
                          "written")
    logs_before, logs_after = _log_digests(src), _log_digests(dst)
    if logs_before != logs_after:
        bad = sorted(g for g in set(logs_before) | set(logs_after)
                     if logs_before.get(g) != logs_after.get(g))
        raise CopyRefused(f"the public log of {', '.join(bad[:5])} differs after the copy; "
                          "nothing was written")
    summary.macs = _check_macs(dst, dst_meta, row_key)
    summary.games = after.get("game", 0)
    summary.log_lines = sum(n for n, _ in logs_after.values())
