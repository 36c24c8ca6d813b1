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

PostgreSQL (``postgresql+psycopg://USER@HOST/DB``, psycopg 3) gets the same guarantees by other
means. pbem's writers are written for SQLite's single writer: they read, then write what they
read decided (is this message known? which order set is in force? is the phase still open?),
and two of them at once must not both decide. PostgreSQL's default isolation (READ COMMITTED)
would let them, so every :meth:`Database.write` transaction first takes a transaction-level
advisory lock (``pg_advisory_xact_lock``, released at commit or rollback):

- ``write()``: the database's *global* lock, exclusively: writers follow one another exactly as
  under SQLite's ``BEGIN IMMEDIATE``, each seeing everything the one before committed (READ
  COMMITTED takes a new snapshot at every statement, after the lock is held);
- ``write(games=[ID, ...])``: the global lock *shared*, then each named game's lock exclusively
  (in sorted order, so two writers never wait on each other in a circle): writers of different
  games run at once (several ``pbem process`` workers), while a writer of the same game, or a
  global writer (ingest, creation, referee commands), waits. A caller passes ``games`` only when
  its transaction reads and writes nothing but those games' rows (and rows no other writer
  reads to decide anything, such as its own new outgoing mail).

Locks are keyed by the schema too (``current_schema()``), so referees sharing one database in
schemas of their own never wait on each other. A writer waits at most ``BUSY_TIMEOUT_MS`` for a
lock (``lock_timeout``), like SQLite's busy timeout, then fails with OperationalError. We chose
locks rather than SERIALIZABLE with retries because a phase's adjudication is long (tens of
milliseconds of rendering) and has effects outside the database (entropy drawn, reports
rendered) that a retry would have to redo; a lock makes the second writer wait, never redo.
:meth:`Database.read` runs in REPEATABLE READ, one snapshot for the whole block, as a SQLite
read transaction is. Every connection uses ``TimeZone=UTC``; times are ``timestamptz``, blobs
``bytea`` and flags ``boolean`` (migrations 0001-0004). Commits are durable at once
(``synchronous_commit`` left on), so :meth:`Database.make_durable` and
:meth:`Database.checkpoint` do nothing there.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError

from pbem.store.core import CoreSession

if TYPE_CHECKING:
    from pbem.store.orm import Session

SCHEMA_HEAD = "0007_log_blocks"
"""The Alembic revision this code expects; ``pbem init``/``pbem upgrade`` bring a database to it."""

BUSY_TIMEOUT_MS = 60_000
"""How long a SQLite writer waits for another writer's lock before giving up (milliseconds)."""

WAL_KEPT_BYTES = 1024 * 1024
"""SQLite's ``journal_size_limit``: the WAL file is cut to this size when it starts over."""

CHECKPOINT_MIN_WAL = 4 * 1024 * 1024
"""Bytes the WAL must hold before a command's closing :meth:`Database.checkpoint` copies it
back (SQLite): a phase writes tens of kilobytes, so one comes every hundred phases or so, and
the WAL stays far under issue 11's 64 MB."""


class DatabaseError(Exception):
    """The database is missing, of another schema version, or cannot be opened."""


def shown_url(url: str) -> str:
    """``url`` as messages show it: a password in it replaced by ``***``."""
    if "@" not in url:
        return url
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy can read: say nothing of what it holds
        return url.split("://", 1)[0] + "://..."


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
        # The WAL file shrinks to 1 MB when it starts over after a checkpoint, so its size
        # tells how much awaits the next one (Database.checkpoint_after_command).
        cur.execute(f"PRAGMA journal_size_limit={WAL_KEPT_BYTES}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        mode = conn.get_execution_options().get("pbem_begin", "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")

    return engine


def _postgres_engine(url: str) -> Engine:
    """A PostgreSQL engine whose connections use UTC and wait at most :data:`BUSY_TIMEOUT_MS`
    for a lock; ``options`` given in the URL (``-csearch_path=...``) are kept."""
    from sqlalchemy.engine import make_url

    given = make_url(url).query.get("options") or ""
    if isinstance(given, tuple):
        given = " ".join(given)
    options = f"{given} -c TimeZone=UTC -c lock_timeout={BUSY_TIMEOUT_MS}".strip()
    return create_engine(url, connect_args={"options": options})


_GLOBAL_LOCK = "hashtextextended(coalesce(current_schema(), '') || '/pbem', 0)"
_GAME_LOCK = "hashtextextended(coalesce(current_schema(), '') || '/pbem/game/' || :game, 0)"


def _lock_for_write(session, games: Iterable[str], skip_busy: bool = False) -> None:
    """PostgreSQL: take the advisory locks of a write transaction (see the module's
    docstring): the global lock exclusively, or shared with each of ``games`` exclusively.
    ``skip_busy``: a game whose lock another transaction holds is not waited for but named in
    ``session.info["pbem_busy_games"]`` (``pbem process`` workers: SKIP LOCKED)."""
    games = sorted(set(games))
    if not games:
        session.execute(text(f"SELECT pg_advisory_xact_lock({_GLOBAL_LOCK})"))
        return
    session.execute(text(f"SELECT pg_advisory_xact_lock_shared({_GLOBAL_LOCK})"))
    for game in games:
        if not skip_busy:
            session.execute(text(f"SELECT pg_advisory_xact_lock({_GAME_LOCK})"), {"game": game})
        elif not session.execute(text(f"SELECT pg_try_advisory_xact_lock({_GAME_LOCK})"),
                                 {"game": game}).scalar():
            session.info.setdefault("pbem_busy_games", set()).add(game)


class Database:
    """A pbem database at ``url`` (``sqlite:///path`` or ``postgresql+psycopg://...``).

    Raises :class:`DatabaseError` from :meth:`check` when the schema is not at
    :data:`SCHEMA_HEAD`.
    """

    def __init__(self, url: str):
        self.url = url
        self.shown = shown_url(url)
        """The URL without its password, for messages."""
        self.is_sqlite = url.startswith("sqlite")
        try:
            if self.is_sqlite:
                self.engine = _sqlite_engine(url)
                self._reader = self.engine
                self._writer = self.engine.execution_options(pbem_begin="IMMEDIATE")
            else:
                self.engine = _postgres_engine(url)
                self._reader = self.engine.execution_options(isolation_level="REPEATABLE READ")
                self._writer = self.engine
        except (ImportError, ArgumentError) as e:  # no such driver, a URL that is not one
            raise DatabaseError(
                f"cannot use the database URL {self.shown}: {e}; expected sqlite:///PATH or "
                "postgresql+psycopg://USER@HOST/DBNAME (PostgreSQL needs "
                "`pip install 'pbem[postgres]'`)") from None
        self.row_key: bytes | None = None
        """The row-MAC key (``Sealer.mac_key("row-mac")``), or None: then protected rows can
        be neither read nor written (pbem.store.integrity.RowKeyMissing)."""

    @contextmanager
    def read(self, *, orm: bool = True) -> Iterator["Session"]:
        """A session in a read transaction (SQLite: deferred; PostgreSQL: REPEATABLE READ),
        which sees one snapshot throughout. Rows stay readable after the block. ``orm=False``:
        a :class:`pbem.store.core.CoreSession` (see :meth:`write`)."""
        if not orm:
            with self._core(self._reader) as session:
                yield session
            return
        from pbem.store.orm import Session

        with Session(self._reader, expire_on_commit=False,
                     info={"row_key": self.row_key}) as session:
            with session.begin():
                yield session

    @contextmanager
    def write(self, *, games: Iterable[str] = (), skip_busy: bool = False,
              orm: bool = True) -> Iterator["Session"]:
        """A session in one write transaction, committed on leaving the block and rolled back
        if it raises. SQLite: ``BEGIN IMMEDIATE`` (one writer at a time; ``games`` changes
        nothing). PostgreSQL: the advisory locks of the module's docstring, the global one
        exclusively, or with ``games`` (game ids) shared and each game's exclusively. A
        writer that waits longer than :data:`BUSY_TIMEOUT_MS` raises
        ``sqlalchemy.exc.OperationalError``. ``skip_busy`` (with ``games``): the games whose
        lock another writer holds are not waited for but listed in
        ``session.info["pbem_busy_games"]`` (pbem.store.repo.claim_game). ``orm=False``: a
        :class:`pbem.store.core.CoreSession`, which loads the ORM only if it is used (the
        judge)."""
        if not orm:
            with self._core(self._writer, games, skip_busy, lock=not self.is_sqlite) as session:
                yield session
            return
        from pbem.store.orm import Session

        with Session(self._writer, expire_on_commit=False,
                     info={"row_key": self.row_key}) as session:
            with session.begin():
                if not self.is_sqlite:
                    _lock_for_write(session, games, skip_busy)
                yield session

    @contextmanager
    def _core(self, engine, games: Iterable[str] = (), skip_busy: bool = False,
              lock: bool = False) -> Iterator[CoreSession]:
        """A CoreSession in a transaction of ``engine`` (the reader's or the writer's), with
        the write locks when ``lock`` (PostgreSQL); committed at the end of the block, rolled
        back if it raises."""
        conn = engine.connect()
        session = CoreSession(conn, {"row_key": self.row_key})
        try:
            conn.begin()
            if lock:
                _lock_for_write(session, games, skip_busy)
            yield session
            session.commit()
        finally:
            session.close()  # rolls back what was not committed

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

    def exists(self) -> bool:
        """Whether a pbem database is there: the SQLite file exists, or the PostgreSQL
        database (schema) has Alembic's version table. False too when it cannot be opened."""
        if self.is_sqlite:
            path = self.engine.url.database
            return bool(path) and (path == ":memory:" or Path(path).exists())
        try:
            return self.revision() is not None
        except Exception:
            return False

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
            raise DatabaseError(f"cannot open the database at {self.shown}: {e}") from None
        if rev is None:
            raise DatabaseError(f"no pbem database at {self.shown}: run `pbem init` first")
        if rev != SCHEMA_HEAD:
            raise DatabaseError(
                f"the database at {self.shown} is at schema {rev!r}, this pbem expects "
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
                if not self.is_sqlite:  # two `pbem init` at once: the second waits
                    conn.execute(text(f"SELECT pg_advisory_xact_lock({_GLOBAL_LOCK})"))
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
                if after is not None and before != SCHEMA_HEAD:
                    from pbem.store.orm import Session

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

    def checkpoint(self, min_wal_bytes: int = 0) -> None:
        """Copy the WAL back into the database file (SQLite; PASSIVE: never waits for
        readers or writers) when it holds ``min_wal_bytes`` or more (0: whatever it holds).
        Called every so many games in a long run, and after each command that wrote with
        :data:`CHECKPOINT_MIN_WAL` (a PASSIVE checkpoint cost a tenth of a one-game
        ``process`` call, and most commands write a few kilobytes)."""
        if not self.is_sqlite:
            return
        if min_wal_bytes > 0 and self.wal_bytes() < min_wal_bytes:
            return
        raw = self.engine.raw_connection()
        try:
            raw.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            raw.close()

    def checkpoint_after_command(self) -> None:
        """The checkpoint that ends a command that wrote: :meth:`checkpoint` once the WAL holds
        :data:`CHECKPOINT_MIN_WAL`."""
        self.checkpoint(CHECKPOINT_MIN_WAL)

    def wal_bytes(self) -> int:
        """Size in bytes of the SQLite database's WAL file (0: none, an in-memory database,
        or PostgreSQL)."""
        name = self.engine.url.database if self.is_sqlite else None
        if not name or name == ":memory:":
            return 0
        try:
            return os.stat(name + "-wal").st_size
        except OSError:
            return 0

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
                f"cannot make the database at {self.shown} durable before mail leaves: another "
                "process held it for longer than the busy timeout; nothing was sent, try again")

    def dispose(self) -> None:
        self.engine.dispose()
