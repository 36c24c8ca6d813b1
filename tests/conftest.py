"""Shared fixtures: a referee home in a temporary folder with a movable clock, players with
keys, and the test-only ruleset "hunt" (tests/toygame.py) registered beside the real ones.

The database the suite runs on (issue 11): ``PBEM_TEST_DB=sqlite`` (the default) gives every
referee home its SQLite file ``pbem.db``; ``PBEM_TEST_DB=postgresql`` gives every home a fresh
PostgreSQL schema of its own on a real server (tests/pg_server.py: the one named by
``PBEM_TEST_PG``, else a private one), made when pbem first asks for the home's database URL
(``Home.url``), so that a test's in-process checks (``Home``, ``Referee``) and its CLI runs
(``CliRunner``) see the same database. A ``pbem`` child process learns it from ``PBEM_DB``:
start it with ``env=pbem_env(home)``. A test that cannot run on one of the two says why with
``@sqlite_only("...")`` / ``@postgres_only("...")`` or ``pytest.skip``; ``ON_POSTGRES`` tells
which one runs. ``raw_connect(url)`` reads and writes the database behind pbem's back (no key,
no MAC: the attacks of tests/test_store_integrity.py) on either.
"""

from __future__ import annotations

import hashlib
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

import pg_server
from pbem.engine import registry

START = datetime(2026, 11, 29, 20, 0, tzinfo=timezone.utc)

TEST_DB = os.environ.get("PBEM_TEST_DB", "").strip().lower() or "sqlite"
ON_POSTGRES = TEST_DB in ("postgresql", "postgres")
"""True when the suite runs on PostgreSQL (``PBEM_TEST_DB=postgresql``)."""


def sqlite_only(why: str):
    """Mark a test that cannot run on PostgreSQL; ``why`` names the SQLite feature it needs."""
    return pytest.mark.skipif(ON_POSTGRES, reason=f"SQLite only: {why}")


def postgres_only(why: str):
    """Mark a test that runs only in the suite's PostgreSQL mode; ``why`` says why."""
    return pytest.mark.skipif(not ON_POSTGRES, reason=f"PostgreSQL only: {why}")


_HOME_DATABASES: dict[str, str] = {}


def home_database(path) -> str:
    """PostgreSQL mode: the URL of the schema of the referee home at ``path``, made on first
    use (one per home folder, for the test process's life)."""
    key = str(Path(path).expanduser().resolve())
    if key not in _HOME_DATABASES:
        _HOME_DATABASES[key] = pg_server.fresh_schema("home")
    return _HOME_DATABASES[key]


def pbem_env(home=None, env: dict | None = None) -> dict:
    """The environment of a ``pbem`` child process: ``env`` (default ``os.environ``); in
    PostgreSQL mode with ``PBEM_DB`` naming the database of the home at ``home`` (unless
    ``env`` sets it)."""
    out = dict(os.environ if env is None else env)
    if ON_POSTGRES and home is not None and "PBEM_DB" not in (env or {}):
        out["PBEM_DB"] = home_database(home)
    return out


class RawConnection:
    """A plain DB-API connection to the database at a pbem URL, as someone with the database
    but not the master key has it: the sqlite3 module on a SQLite file, psycopg on
    PostgreSQL (the URL's ``search_path`` kept). ``execute(sql, params)`` takes ``?``
    placeholders on both and returns the cursor; ``commit()``, ``close()``; as a context
    manager it commits on leaving the block and closes."""

    def __init__(self, url: str):
        from sqlalchemy.engine import make_url

        u = make_url(url)
        self.postgres = u.get_backend_name() == "postgresql"
        if self.postgres:
            import psycopg

            kw = {"host": u.query.get("host") or u.host, "port": u.query.get("port") or u.port,
                  "user": u.username, "password": u.password, "dbname": u.database,
                  "options": u.query.get("options")}
            self.con = psycopg.connect(**{k: v for k, v in kw.items() if v})
        else:
            import sqlite3

            self.con = sqlite3.connect(u.database)

    def execute(self, sql: str, params=()):
        if self.postgres:
            sql = sql.replace("%", "%%").replace("?", "%s")
        return self.con.execute(sql, tuple(params))

    def tables(self) -> list[str]:
        """The names of the database's tables (those of the URL's schema on PostgreSQL)."""
        sql = ("SELECT table_name FROM information_schema.tables WHERE table_schema = "
               "current_schema() AND table_type = 'BASE TABLE' ORDER BY 1" if self.postgres
               else "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")
        return [name for (name,) in self.execute(sql)]

    def commit(self):
        self.con.commit()

    def close(self):
        self.con.close()

    def __enter__(self):
        return self

    def __exit__(self, kind, *_):
        try:
            if kind is None:
                self.commit()
        finally:
            self.close()


def raw_connect(url: str) -> RawConnection:
    """:class:`RawConnection` to the database at ``url`` (a home's ``home.url``)."""
    return RawConnection(url)


def _postgres_homes() -> None:
    """PostgreSQL mode: ``Home.url`` of a home without ``--db`` is the home's schema."""
    from pbem.engine.home import Home

    def url(self) -> str:
        return self.db_url or home_database(self.path)

    Home.url = property(url, doc=Home.url.__doc__)


@pytest.fixture(autouse=True)
def _dispose_engines():
    """PostgreSQL mode: close the connections the test's engines keep in their pools when it
    ends, so that a long run does not hold hundreds of idle server processes."""
    if not ON_POSTGRES:
        yield
        return
    import weakref

    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    engines: weakref.WeakSet = weakref.WeakSet()

    def seen(conn):
        engines.add(conn.engine)

    event.listen(Engine, "engine_connect", seen)
    try:
        yield
    finally:
        event.remove(Engine, "engine_connect", seen)
        for engine in list(engines):
            engine.dispose()


@pytest.fixture
def pg_url():
    """A fresh, empty PostgreSQL database on the real server (its SQLAlchemy URL,
    ``postgresql+psycopg://...``), dropped after the test; skips when no server can run
    (pg_server.why_not()). In either mode of the suite."""
    if pg_server.server_url() is None:
        pytest.skip(pg_server.why_not())
    url = pg_server.fresh_database("pgurl")
    yield url
    try:
        pg_server.drop_database(url)
    except Exception:  # a test that left a connection open in a child: the server goes anyway
        pass


class MovableClock:
    """A UTC clock a test moves by hand."""

    def __init__(self, start=START):
        self.now = start

    def __call__(self):
        return self.now

    def advance(self, **kw):
        self.now += timedelta(**kw)


class CountingEntropy:
    """Reproducible 'random' bytes for tests (sha256 in counter mode)."""

    def __init__(self, label="test"):
        self.label, self.n = label, 0

    def __call__(self, k):
        out = b""
        while len(out) < k:
            out += hashlib.sha256(f"{self.label}/{self.n}".encode()).digest()
            self.n += 1
        return out[:k]


@pytest.fixture(autouse=True)
def _hunt_registered():
    import toygame

    registry._cache["hunt"] = toygame.ruleset
    yield
    registry._cache.pop("hunt", None)


@pytest.fixture
def clock():
    return MovableClock()


@pytest.fixture
def referee(tmp_path, clock):
    from pbem.engine.home import Home
    from pbem.engine.service import Referee

    r = Referee(Home(tmp_path / "home"), clock=clock, entropy=CountingEntropy())
    r.init()
    # the From address of games created without one (docs/mail.md, "The settings file")
    (r.home.path / "config.toml").write_text('[mail]\nfrom = "referee@judge.example"\n',
                                             encoding="utf-8")
    return r


class Player:
    """A player with a pbem key pair; ``text(...)`` writes an order file, ``signed(...)`` signs
    it. With ``referee`` (a Referee) the header carries the game's ``referee:`` line, the
    fingerprint of the game's referee key as the report's order template gives it."""

    def __init__(self, role, email=None, seed=None, referee=None):
        from pbem.crypto.keys import PrivateKey

        self.role = role
        self.referee = referee
        self.email = email or f"{role}@players.example"
        self.key = PrivateKey(hashlib.sha256(f"key/{seed or role}".encode()).digest(), role)
        self.public_text = self.key.public_key().pbem_line() + "\n"
        self.n = 0

    def spec(self):
        from pbem.engine.creation import PlayerSpec

        return PlayerSpec(self.role, self.email, self.public_text, f"{self.role}.pub")

    def referee_line(self, game):
        """``referee: SHA256:...`` of ``game`` on this player's referee, or "" without one."""
        if self.referee is None:
            return ""
        key = self.referee.sealer.referee_signing_key(game).public_key()
        return f"referee: {key.fingerprint}\n"

    def text(self, game, turn, phase, body, *, issued, role=None, nonce=None, referee=None):
        """An order file; ``referee``: None for the line of this player's referee (if any),
        False for none, or the fingerprint to write."""
        self.n += 1
        nonce = nonce or hashlib.sha256(f"nonce/{self.role}/{self.n}".encode()).hexdigest()[:32]
        stamp = issued.strftime("%Y-%m-%dT%H:%M:%SZ")
        ref = (self.referee_line(game) if referee is None
               else f"referee: {referee}\n" if referee else "")
        return (f"game: {game}\nturn: {turn}\nphase: {phase}\nrole: {role or self.role}\n"
                f"{ref}nonce: {nonce}\nissued: {stamp}\n\n{body}")

    def signed(self, *args, **kw):
        from pbem.crypto.envelope import sign_text

        return sign_text(self.text(*args, **kw), self.key)


@pytest.fixture
def players(request):
    """Four players; in a test that uses the ``referee`` fixture they write its referee line."""
    ref = request.getfixturevalue("referee") if "referee" in request.fixturenames else None
    return {r: Player(r, referee=ref) for r in ("red", "blue", "green", "white")}


def incoming(data, origin="test", bare=None):
    """An Incoming item for ingest from text or bytes (bare orders unless it looks like mail)."""
    from pbem.mail.sources import Incoming, looks_like_message

    raw = data.encode() if isinstance(data, str) else data
    return Incoming(raw, origin, (not looks_like_message(raw)) if bare is None else bare)


@pytest.fixture(scope="session")
def demo_game(tmp_path_factory):
    """One reproducible `pbem demo atlantis --players 3 --seed 8`, played once per test run
    through the command line: ``{"out": its folder, "game": the game id, "output": what the
    command printed}``. A finished game with a long log and every kind of report, its referee
    home in ``out/home``; tests must not change it."""
    from click.testing import CliRunner

    from pbem.cli import main

    out = tmp_path_factory.mktemp("demo")
    r = CliRunner().invoke(main, ["demo", "atlantis", "--players", "3", "--seed", "8", "--out",
                                  str(out), "--quiet"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    (log,) = out.glob("*.jsonl")
    return {"out": str(out), "game": log.stem, "output": r.output}


def pytest_addoption(parser):
    parser.addoption("--conformance-seeds", type=int, default=None,
                     help="random games per ruleset in tests/test_conformance.py (default 3)")
    parser.addoption("--update-screenshots", action="store_true", default=False,
                     help="write the report screenshots of tests/test_reports_browser.py to "
                          "docs/screenshots/ (also: PBEM_UPDATE_SCREENSHOTS=1)")


def pytest_configure(config):
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    if TEST_DB not in ("sqlite", "postgresql", "postgres"):
        raise pytest.UsageError(f"PBEM_TEST_DB={TEST_DB!r}: expected sqlite or postgresql")
    if ON_POSTGRES:
        # the controller of pytest-xdist starts the server (when PBEM_TEST_PG names none)
        # before its workers start, and they inherit PBEM_TEST_PG: one server for the run
        url = pg_server.server_url()
        if url is None:
            raise pytest.UsageError(f"PBEM_TEST_DB=postgresql, but {pg_server.why_not()}")
        os.environ["PBEM_TEST_PG"] = url
        _postgres_homes()


def pytest_report_header(config):
    return f"database: {TEST_DB}" + (f" ({os.environ.get('PBEM_TEST_PG')})" if ON_POSTGRES
                                     else "")
