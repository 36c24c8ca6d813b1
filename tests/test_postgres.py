"""PostgreSQL, for real (issue 11): the same Alembic migrations reach the same schema as on
SQLite, with PostgreSQL's own types for times, flags and bytes; a row one process writes another
reads; and writers wait for one another as SQLite's ``BEGIN IMMEDIATE`` makes them
(pbem.store.db: a transaction-level advisory lock, global or per game).

Every test runs against a fresh database on a real server (conftest's ``pg_url``: the server of
``PBEM_TEST_PG``, or a private one started with Debian's ``initdb``/``pg_ctl``), in both modes of
the suite, and is skipped, saying why, when no server can run."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pg_server
import pytest
from conftest import raw_connect
from sqlalchemy import create_engine, inspect

from pbem.store.db import SCHEMA_HEAD, Database, sqlite_url

ROOT = Path(__file__).resolve().parent.parent


def pbem(*args: str, **kw) -> subprocess.CompletedProcess:
    """``python -m pbem.cli ARGS`` in a process of its own."""
    return subprocess.run([sys.executable, "-m", "pbem.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, **kw)


def schema(url: str) -> dict:
    """What SQLAlchemy's inspector finds in the database at ``url``: per table its columns
    (name -> (type name, nullable)), primary key, foreign keys, indexes and unique
    constraints, without the names a dialect makes up for unnamed constraints."""
    engine = create_engine(url)
    try:
        i = inspect(engine)
        out = {}
        for t in i.get_table_names():
            out[t] = {
                "columns": {c["name"]: (type(c["type"]).__name__, c["nullable"])
                            for c in i.get_columns(t)},
                "pk": i.get_pk_constraint(t)["constrained_columns"],
                "fks": sorted((tuple(f["constrained_columns"]), f["referred_table"],
                               tuple(f["referred_columns"])) for f in i.get_foreign_keys(t)),
                # PostgreSQL lists the index behind each unique constraint as well
                "indexes": sorted((x["name"], tuple(x["column_names"]), bool(x["unique"]))
                                  for x in i.get_indexes(t)
                                  if "duplicates_constraint" not in x),
                "unique": sorted(tuple(u["column_names"])
                                 for u in i.get_unique_constraints(t)),
            }
        return out
    finally:
        engine.dispose()


# The SQL types of SQLite (as SQLAlchemy reflects them) and the PostgreSQL types the same
# migration makes (PostgreSQL 15 documentation, chapter 8: "timestamp with time zone", "bytea").
SAME_TYPE = {"DATETIME": "TIMESTAMP", "BLOB": "BYTEA"}


def test_migrations_reach_the_same_schema_on_postgresql_as_on_sqlite(pg_url, tmp_path):
    lite_url = sqlite_url(tmp_path / "pbem.db")
    for url in (lite_url, pg_url):
        db = Database(url)
        assert db.migrate() == (None, SCHEMA_HEAD)
        db.dispose()
    lite, pg = schema(lite_url), schema(pg_url)
    assert set(pg) == set(lite)
    assert {"alembic_version", "setting", "game", "player", "sealed", "phase", "message",
            "order_set", "event", "report", "outbox", "log_block"} <= set(lite)
    for table, want in lite.items():
        got = pg[table]
        want_columns = {name: (SAME_TYPE.get(kind, kind), nullable)
                        for name, (kind, nullable) in want["columns"].items()}
        assert got["columns"] == want_columns, table
        for part in ("pk", "fks", "indexes", "unique"):
            assert got[part] == want[part], (table, part)


def test_times_flags_and_bytes_have_postgresql_types(pg_url):
    """Read from PostgreSQL's own catalogue (information_schema), not through SQLAlchemy."""
    db = Database(pg_url)
    db.migrate()
    db.dispose()
    with raw_connect(pg_url) as con:
        rows = con.execute("SELECT table_name, column_name, data_type, column_default "
                           "FROM information_schema.columns "
                           "WHERE table_schema = current_schema()").fetchall()
    kinds = {(t, c): kind for t, c, kind, _ in rows}
    defaults = {(t, c): d for t, c, _, d in rows}
    assert kinds[("message", "received_at")] == "timestamp with time zone"
    assert kinds[("outbox", "claimed_until")] == "timestamp with time zone"
    assert {k for (t, c), k in kinds.items() if c.endswith("_at")} == {
        "timestamp with time zone"}
    assert {kinds[(t, "blob")] for t in ("message", "order_set", "report", "sealed", "event",
                                         "outbox")} == {"bytea"}
    for col in (("game", "bind_referee"), ("message", "truncated"), ("order_set", "wait"),
                ("player", "encrypt_reports")):
        assert kinds[col] == "boolean"
        assert defaults[col] == "false"  # the migrations' server_default '0'


def test_times_flags_and_bytes_come_back_as_written(pg_url):
    from sqlalchemy import select

    from pbem.store.models import Message

    db = Database(pg_url)
    db.migrate()
    paris = timezone(timedelta(hours=1))
    when = datetime(2026, 12, 24, 20, 30, 15, 123456, tzinfo=paris)
    blob = bytes(range(256)) * 3  # every byte value, NUL included
    try:
        with db.write() as s:
            s.add(Message(message_key="<a@b>", raw_sha256="0" * 64, received_at=when,
                          origin="test", verdict="pending", blob=blob, size=768,
                          truncated=True))
        with db.read() as s:
            (row,) = s.execute(select(Message)).scalars().all()
    finally:
        db.dispose()
    assert row.blob == blob and isinstance(row.blob, bytes)
    assert row.received_at == datetime(2026, 12, 24, 19, 30, 15, 123456, tzinfo=timezone.utc)
    assert row.received_at.utcoffset() == timedelta(0)
    assert row.truncated is True


def test_a_row_written_by_one_process_is_read_by_another(pg_url, tmp_path):
    home = tmp_path / "home"
    base = ["--home", str(home), "--db", pg_url]
    assert pbem(*base, "init").returncode == 0
    for name in ("alice", "bob"):
        r = pbem("keygen", name, "--dir", str(tmp_path))
        assert r.returncode == 0, r.stderr
    r = pbem(*base, "game", "new", "atlantis", "--id", "atl-1", "--from", "referee@judge.example",
             "--player", f"red=alice@example.org:{tmp_path / 'alice.pub'}",
             "--player", f"green=bob@example.org:{tmp_path / 'bob.pub'}")
    assert r.returncode == 0, r.stdout + r.stderr
    assert not (home / "pbem.db").exists()  # the rows went to PostgreSQL
    r = pbem(*base, "status", "--json")  # another process
    assert r.returncode == 0, r.stderr
    (game,) = json.loads(r.stdout)
    assert game["game"] == "atl-1"
    with raw_connect(pg_url) as con:  # and what any PostgreSQL client sees
        assert con.execute("SELECT id, ruleset, status FROM game").fetchall() == [
            ("atl-1", "atlantis", "active")]
        assert con.execute("SELECT role, email FROM player ORDER BY seat").fetchall() == [
            ("red", "alice@example.org"), ("green", "bob@example.org")]


# ---------------------------------------------------------------- writers wait for each other

class Holder:
    """A process that opens ``Database(url).write(games=...)``, writes the setting ``holder``
    in it and keeps the transaction open until :meth:`release`."""

    def __init__(self, url: str, games=()):
        code = textwrap.dedent(f"""
            import sys
            from pbem.store.db import Database
            from pbem.store.models import Setting
            db = Database({url!r})
            with db.write(games={list(games)!r}) as s:
                s.add(Setting(key="holder", value="committed"))
                s.flush()
                print("locked", flush=True)
                sys.stdin.readline()
            print("done", flush=True)
        """)
        self.proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.proc.stdout.readline().strip() == "locked"

    def release(self):
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "done"
        assert self.proc.wait(timeout=60) == 0


def waiting_for_locks(url: str, n: int = 1) -> None:
    """Return once ``n`` transactions wait for an advisory lock on the server (pg_locks)."""
    deadline = time.monotonic() + 60
    with raw_connect(url) as con:
        while time.monotonic() < deadline:
            (waiting,) = con.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                                     "AND NOT granted").fetchone()
            if waiting >= n:
                return
            con.commit()
            time.sleep(0.02)
    raise AssertionError(f"no {n} transaction(s) waiting for a lock after 60 s")


def in_thread(fn):
    """Run ``fn`` in a thread; returns (thread, result list)."""
    out: list = []
    t = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    t.start()
    return t, out


@pytest.fixture
def db(pg_url):
    d = Database(pg_url)
    d.migrate()
    yield d
    d.dispose()


def _read_holder(db, **kw):
    from pbem.store.models import Setting

    with db.write(**kw) as s:
        row = s.get(Setting, "holder")
        return row.value if row else None


def test_a_writer_waits_for_another_and_then_sees_what_it_committed(db, pg_url):
    """SQLite's BEGIN IMMEDIATE: the second writer waits, and reads what the first wrote (under
    READ COMMITTED without the lock it would read nothing and go on)."""
    holder = Holder(pg_url)
    t, seen = in_thread(lambda: _read_holder(db))
    waiting_for_locks(pg_url)
    assert seen == []
    holder.release()
    t.join(60)
    assert seen == ["committed"]


def test_writers_of_different_games_go_at_once_and_a_global_writer_waits_for_them(db, pg_url):
    holder = Holder(pg_url, games=["a"])
    assert _read_holder(db, games=["b"]) is None  # game b: not held, and a is not committed
    t_same, same = in_thread(lambda: _read_holder(db, games=["a"]))
    t_all, everything = in_thread(lambda: _read_holder(db))
    waiting_for_locks(pg_url, 2)
    assert same == [] and everything == []
    holder.release()
    t_same.join(60)
    t_all.join(60)
    assert same == ["committed"] and everything == ["committed"]


def test_two_ingests_of_the_same_mail_at_once_archive_it_once(pg_url, tmp_path):
    """The read-then-insert of the archive (is this Message-ID known?) under two processes
    that start together: one archives the mail, the other finds it there."""
    home = tmp_path / "home"
    base = ["--home", str(home), "--db", pg_url]
    assert pbem(*base, "init").returncode == 0
    box = tmp_path / "mail.eml"
    box.write_text("From: stranger@example.org\nTo: referee@judge.example\n"
                   "Message-ID: <once@example.org>\nSubject: hello\n\nno orders here\n")
    holder = Holder(pg_url)  # both ingests queue up behind it
    procs = [subprocess.Popen([sys.executable, "-m", "pbem.cli", *base, "ingest", str(box)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    waiting_for_locks(pg_url, 2)
    holder.release()
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    summaries = sorted(out.splitlines()[0] for out, _ in outs)
    assert summaries[0].endswith("duplicate 1") and "duplicate 0" in summaries[1], summaries
    with raw_connect(pg_url) as con:
        assert con.execute("SELECT count(*) FROM message").fetchone() == (1,)


def test_upgrade_of_an_empty_database_refuses_and_creates_nothing(pg_url, tmp_path):
    """As on SQLite, where a missing file is not created: `pbem upgrade` names the database
    (without its password) and asks for `pbem init`."""
    from sqlalchemy.engine import make_url

    home = tmp_path / "home"
    assert pbem("--home", str(home), "--db", pg_url, "init").returncode == 0  # the key
    empty = pg_url.replace(make_url(pg_url).database, make_url(pg_url).database + "_e", 1)
    empty_url = make_url(empty).set(password="s3cret").render_as_string(hide_password=False)
    with raw_connect(pg_url) as con:
        con.con.autocommit = True
        con.execute(f'CREATE DATABASE "{make_url(empty).database}" TEMPLATE template0')
    try:
        r = pbem("--home", str(home), "--db", empty_url, "upgrade")
        assert r.returncode == 1
        assert "no pbem database at postgresql+psycopg://" in r.stderr + r.stdout
        assert "pbem init" in r.stderr + r.stdout and "s3cret" not in r.stderr + r.stdout
        with raw_connect(empty) as con:
            assert con.tables() == []
    finally:
        pg_server.drop_database(empty)
