"""Opening the database: SQLite (WAL, ``BEGIN IMMEDIATE`` for writes) or PostgreSQL by URL.

Nothing outside ``pbem.store`` touches SQL. A :class:`Database` hands out sessions through two
context managers: :meth:`Database.read` (a deferred transaction) and :meth:`Database.write`
(a transaction that starts as a write transaction, so that a second process waits for the lock
instead of failing half way with "database is locked"; DESIGN.md, "Storage"). The schema is
created and upgraded only by the Alembic migrations in ``migrations/``.

A database carries the row-MAC key (``Database.row_key``, see :mod:`pbem.store.integrity`):
every session gets it in ``session.info["row_key"]``; without it protected rows can be neither
read nor written. SQLite runs with ``synchronous=NORMAL`` (a commit is not synced to disk at
once) and :meth:`Database.make_durable` checkpoints the WAL into the main file, syncing both,
before any mail leaves ("A phase's commit is durable before any mail it produced can leave").
So a power cut can forget only what was never mailed: a phase resolved but not yet reported
is resolved again, from the same sealed seed and orders where they were kept. ``FULL`` (a sync
at every commit) would cost about a quarter of a phase's time for no promise more.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine
from sqlmodel import Session

import pbem.store.integrity  # noqa: F401  (the row-MAC events on the protected models)

SCHEMA_HEAD = "0004_encrypted_reports"
"""The Alembic revision this code expects; ``pbem init``/``pbem upgrade`` bring a database to it."""

BUSY_TIMEOUT_MS = 60_000
"""How long a SQLite writer waits for another writer's lock before giving up (milliseconds)."""


class DatabaseError(Exception):
    """The database is missing, of another schema version, or cannot be opened."""


def sqlite_url(path: Path) -> str:
    """The SQLAlchemy URL of a SQLite file."""
    return f"sqlite:///{Path(path).resolve()}"


def _sqlite_engine(url: str, *, foreign_keys: bool = True) -> Engine:
    """A SQLite engine; ``foreign_keys=False`` for migrations (see Database.migrate)."""
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):  # pragma: no cover - exercised by every test
        # Let SQLAlchemy's "begin" event emit BEGIN itself, in the mode we choose.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        # FULL: a commit is on disk (in the WAL) when it returns, even after a power loss;
        # NORMAL could forget a phase whose reports had already been mailed.
        cur.execute("PRAGMA synchronous=NORMAL")  # durable before mail leaves: make_durable()
        # No checkpoint inside a transaction that adjudicates: Database.checkpoint() runs one
        # after each command instead (a 10 ms pause in one phase out of ten otherwise).
        cur.execute("PRAGMA wal_autocheckpoint=0")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        mode = conn.get_execution_options().get("pbem_begin", "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")

    return engine


class Database:
    """A pbem database at ``url`` (``sqlite:///path`` or ``postgresql+psycopg://...``).

    Raises :class:`DatabaseError` from :meth:`check` when the schema is not at
    :data:`SCHEMA_HEAD`.
    """

    def __init__(self, url: str):
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.engine = _sqlite_engine(url) if self.is_sqlite else create_engine(url)
        self._writer = self.engine.execution_options(pbem_begin="IMMEDIATE")
        self.row_key: bytes | None = None
        """The row-MAC key (``Sealer.mac_key("row-mac")``), or None: then protected rows can
        be neither read nor written (pbem.store.integrity.RowKeyMissing)."""

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session in a read (deferred) transaction. Rows stay readable after the block."""
        with Session(self.engine, expire_on_commit=False,
                     info={"row_key": self.row_key}) as session:
            with session.begin():
                yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A session in one write transaction (SQLite: ``BEGIN IMMEDIATE``), committed on
        leaving the block and rolled back if it raises."""
        with Session(self._writer, expire_on_commit=False,
                     info={"row_key": self.row_key}) as session:
            with session.begin():
                yield session

    def revision(self) -> str | None:
        """The Alembic revision of the database, or None when it has none."""
        with self.engine.connect() as conn:
            try:
                row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
            except Exception:
                return None
            finally:
                conn.rollback()
        return row[0] if row else None

    def check(self) -> None:
        """Raise :class:`DatabaseError` unless the schema is at :data:`SCHEMA_HEAD`. A missing
        SQLite file is reported, not created."""
        if self.is_sqlite:
            path = self.engine.url.database
            if path and path != ":memory:" and not Path(path).exists():
                raise DatabaseError(f"no pbem database at {path}: run `pbem init` first")
        try:
            rev = self.revision()
        except Exception as e:
            raise DatabaseError(f"cannot open the database at {self.url}: {e}") from None
        if rev is None:
            raise DatabaseError(f"no pbem database at {self.url}: run `pbem init` first")
        if rev != SCHEMA_HEAD:
            raise DatabaseError(
                f"the database at {self.url} is at schema {rev!r}, this pbem expects "
                f"{SCHEMA_HEAD!r}: run `pbem upgrade`")

    def migrate(self, after=None) -> tuple[str | None, str]:
        """Create or upgrade the schema through Alembic; returns (revision before, after).
        SQLite files are switched to WAL mode (persistent in the file). When the schema was
        not at :data:`SCHEMA_HEAD`, ``after(session)`` runs in the same transaction once the
        migrations are done (the data steps that need the master key), so that both happen
        or neither does."""
        from alembic import command
        from alembic.config import Config

        from pbem.resources import migrations_dir

        before = self.revision()
        if self.is_sqlite:
            raw = self.engine.raw_connection()  # outside any transaction, as SQLite requires
            try:
                raw.cursor().execute("PRAGMA journal_mode=WAL")
            finally:
                raw.close()
        cfg = Config()
        cfg.set_main_option("script_location", str(migrations_dir()))
        engine = self._migration_engine()
        try:
            with engine.begin() as conn:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
                if after is not None and before != SCHEMA_HEAD:
                    with Session(bind=conn, info={"row_key": self.row_key}) as session:
                        after(session)
                        session.flush()
                self._check_foreign_keys(conn)
        finally:
            if engine is not self._writer:
                engine.dispose()
        return before, self.revision() or ""

    def _migration_engine(self):
        """The engine migrations run on. On SQLite, a connection with foreign-key enforcement
        off (it can only be switched outside a transaction, so at connect time): a
        ``batch_alter_table`` recreates a table by copying it, dropping the old one and
        renaming the copy, and with enforcement on, dropping a parent table (game, message)
        would delete or refuse its child rows. :meth:`_check_foreign_keys` checks them all
        before the migration commits."""
        if not self.is_sqlite:
            return self._writer
        return _sqlite_engine(self.url, foreign_keys=False).execution_options(
            pbem_begin="IMMEDIATE")

    @staticmethod
    def _check_foreign_keys(conn) -> None:
        """SQLite: ``PRAGMA foreign_key_check`` inside the migration's transaction; a row
        whose parent is missing raises DatabaseError, which rolls the migration back."""
        if conn.dialect.name != "sqlite":
            return
        bad = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if bad:
            rows = ", ".join(f"{t} row {rowid} -> {parent}" for t, rowid, parent, _ in bad[:5])
            raise DatabaseError(f"the migration would leave {len(bad)} row(s) without the row "
                                f"they refer to ({rows}); nothing was changed")

    def checkpoint(self) -> None:
        """Copy the WAL back into the database file (SQLite; PASSIVE: never waits for
        readers or writers). Called after each command that wrote."""
        if not self.is_sqlite:
            return
        raw = self.engine.raw_connection()
        try:
            raw.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            raw.close()

    def make_durable(self) -> None:
        """Make every committed transaction durable in the database file itself before mail it
        produced leaves (DESIGN.md "Storage"): SQLite runs ``PRAGMA wal_checkpoint(FULL)``,
        which waits (busy timeout) for writers and readers, copies the whole WAL into the main
        file and syncs it, so that losing pbem.db-wal loses nothing committed. Raises
        :class:`DatabaseError` when the checkpoint could not complete. No-op on PostgreSQL,
        whose commits are durable."""
        if not self.is_sqlite:
            return
        raw = self.engine.raw_connection()
        try:
            busy, _log, _done = raw.cursor().execute("PRAGMA wal_checkpoint(FULL)").fetchone()
        finally:
            raw.close()
        if busy:
            raise DatabaseError(
                f"cannot make the database at {self.url} durable before mail leaves: another "
                "process held it for longer than the busy timeout; nothing was sent, try again")

    def dispose(self) -> None:
        self.engine.dispose()
