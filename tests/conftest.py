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

Keeping the README's test command fast (issue 11): the ``referee`` fixture copies a home made
once per process by the real ``Referee.init()`` (:class:`HomeTemplate`); the markers ``slow``,
``sweep``, ``database_free`` and ``own_database`` (pyproject.toml; see
:func:`pytest_collection_modifyitems`) skip the extra seeds of the random-game sweeps unless
``--slow``, and on the PostgreSQL pass what the SQLite pass already ran the same way.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
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


from raw_db import RawConnection, raw_connect  # noqa: E402,F401  (tests import them from here)


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


class HomeTemplate:
    """A referee home made once per test process by the real ``Referee.init()`` (a new master
    key, every Alembic migration): :meth:`copy` makes another home from it in a few
    milliseconds instead of running the migrations again (about 0.15 s on SQLite, 0.3 s on
    PostgreSQL, for each of some 300 tests). The copy is the home folder (mode 0700), the
    template's ``referee.key`` (mode 0600) and its database: the SQLite file, or on PostgreSQL
    a schema cloned from the template's (pg_server.clone_schema; a real migration for every
    home when pg_dump is missing). Every copy has the same master key: a test that needs a
    home of its own key, or that tests ``init``/``upgrade``/the migrations, makes that home
    itself with ``Referee.init()`` or ``pbem init`` (tests/test_cli.py, test_migrations.py,
    test_store_integrity.py...), which always take the real path."""

    def __init__(self, path: Path):
        from pbem.engine.home import Home
        from pbem.engine.service import Referee

        self.home = Home(path)
        Referee(self.home).init()
        self.clone = ON_POSTGRES

    def copy(self, path: Path):
        """A new home at ``path`` (which must not exist) holding a copy of the template."""
        import shutil

        from pbem.engine.home import DB_FILE, Home

        home = Home(path)
        home.path.mkdir(mode=0o700, parents=True)
        shutil.copy2(self.home.master_key_path, home.master_key_path)
        if not ON_POSTGRES:
            shutil.copy2(self.home.path / DB_FILE, home.path / DB_FILE)
        elif self.clone:
            try:
                url = pg_server.clone_schema(self.home.url, "home")
            except (RuntimeError, OSError, subprocess.SubprocessError):
                self.clone = False  # no pg_dump: each home is migrated by its Referee.init()
            else:
                _HOME_DATABASES[str(home.path.resolve())] = url
        return home


@pytest.fixture(scope="session")
def home_template(tmp_path_factory) -> HomeTemplate:
    """This test process's :class:`HomeTemplate`."""
    return HomeTemplate(tmp_path_factory.mktemp("template") / "home")


@pytest.fixture
def referee(tmp_path, clock, home_template):
    """A Referee on a new home at ``tmp_path / "home"``, a copy of :class:`HomeTemplate` on
    which ``init()`` has run again (the real code: the database is at the schema head, so it
    checks the key and migrates nothing), with a movable clock and reproducible entropy."""
    from pbem.engine.service import Referee

    r = Referee(home_template.copy(tmp_path / "home"), clock=clock,
                entropy=CountingEntropy())
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


def _play_demo(out: Path) -> dict:
    from click.testing import CliRunner

    from pbem.cli import main

    r = CliRunner().invoke(main, ["demo", "atlantis", "--players", "3", "--seed", "8", "--out",
                                  str(out), "--quiet"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    (log,) = out.glob("*.jsonl")
    return {"out": str(out), "game": log.stem, "output": r.output}


@pytest.fixture(scope="session")
def demo_game(tmp_path_factory):
    """One reproducible `pbem demo atlantis --players 3 --seed 8`, played once per test run
    through the command line: ``{"out": its folder, "game": the game id, "output": what the
    command printed}``. A finished game with a long log and every kind of report, its referee
    home in ``out/home``; tests must not change it. The pytest-xdist workers share one: the
    first to ask plays it, under a file lock, in the run's common temporary folder; on
    PostgreSQL its database is a schema in the run's shared database
    (pg_server.shared_database, ``PBEM_TEST_PG_SHARED``), which outlives the workers."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    shared = os.environ.get("PBEM_TEST_PG_SHARED")
    if not worker or (ON_POSTGRES and not shared):
        return _play_demo(tmp_path_factory.mktemp("demo"))
    import fcntl
    import json

    root = tmp_path_factory.getbasetemp().parent
    with open(root / "demo.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done, out = root / "demo.json", root / "demo"
        if not done.exists():
            if out.exists():
                pytest.fail("the demo failed in another worker (see its error)", pytrace=False)
            out.mkdir()
            db = pg_server.schema_in(shared, "demo") if ON_POSTGRES else None
            if db:
                _HOME_DATABASES[str((out / "home").resolve())] = db
            done.write_text(json.dumps({**_play_demo(out), "db": db}), encoding="utf-8")
        result = json.loads(done.read_text(encoding="utf-8"))
    db = result.pop("db")
    if db:
        _HOME_DATABASES[str((out / "home").resolve())] = db
    return result


def pytest_addoption(parser):
    parser.addoption("--conformance-seeds", type=int, default=None,
                     help="random games per ruleset in tests/test_conformance.py (default 3)")
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the tests marked slow: the extra seeds of the random-game "
                          "sweeps (also: PBEM_SLOW_TESTS=1)")
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
        if not os.environ.get("PYTEST_XDIST_WORKER"):  # the controller, or the only process
            os.environ["PBEM_TEST_PG_SHARED"] = pg_server.shared_database()
        _postgres_homes()


DATABASE_FREE = frozenset("""
    test_altassar_rules test_atlantis_creatures test_atlantis_fuzz test_atlantis_games
    test_atlantis_helpers test_atlantis_moves test_atlantis_orders test_atlantis_setup
    test_atlantis_sinking test_atlantis_texts test_attackforce_docs test_attackforce_secrets
    test_cards test_check_leaves_the_state test_combat_crt test_counters test_crypto_canonical
    test_crypto_docs test_crypto_keys test_crypto_sshsig test_dice test_dice_properties
    test_drawing test_drawing_graph test_fastverify test_headers test_hexlines test_hexmap
    test_ledger test_mail_boundary test_mail_flowed test_mail_fuzz test_mail_htmltext
    test_mail_mimeparams test_mail_plain_headers test_mail_real_clients test_mail_sources
    test_modular test_order_readers test_orderlines test_randombot test_report_maps
    test_settings test_svgmap_graph
    test_levels test_assault test_carry test_retreat test_olympica_data test_olympica_moves
    test_olympica_drops test_olympica_ranged test_olympica_tunnels test_olympica_lifters
    test_olympica_turns test_olympica_audit test_olympica_games test_olympica_docs
    test_atalix_data test_atalix_board test_atalix_events test_atalix_planning
    test_atalix_state test_atalix_damage test_atalix_setup test_atalix_datapy
    test_atalix_actions test_atalix_games test_atalix_scenario1
    test_atalix_encounters test_atalix_scenario2 test_atalix_scenario3 test_atalix_docs
    test_atalix_checking test_atalix_turns
    test_atalix_tools test_atalix_abilities
""".split())
"""Test modules that never open a database (pure rules, parsing, dice, crypto, drawing):
each of their tests gets the marker ``database_free``, as does any test marked so by hand.
The PostgreSQL pass skips those tests, which ran the same on the SQLite pass (CI runs both:
.ci/run) and would only add minutes to the second; the SQLite pass checks the claim, failing
a ``database_free`` test that opens a database connection in its process (_no_database)."""

OWN_DATABASE = frozenset({"test_postgres"})
"""Test modules whose every test uses only databases it names itself (conftest's ``pg_url``,
a SQLite URL of its own), never the suite's (``PBEM_TEST_DB``): they run the same on both
passes, so their tests get the marker ``own_database`` (as does any test marked so by hand,
tests/test_workers.py) and the PostgreSQL pass skips them too."""

LONG_FIRST = ("test_workers", "test_random_games", "test_altassar_random_games", "test_e2e_mail",
              "test_migrate_db", "test_conformance", "test_atlantis_placement_values",
              "test_undo", "test_atalix_demo")
"""Modules with the longest tests, run first (in this order, each module's tests kept
together and in order) so that pytest-xdist's workers do not end on one long test while the
other has nothing left to do."""


def _slow_wanted(config) -> bool:
    return bool(config.getoption("--slow") or os.environ.get("PBEM_SLOW_TESTS", "") not in
                ("", "0"))


def pytest_collection_modifyitems(config, items):
    """``slow`` tests are skipped unless ``--slow`` (or ``PBEM_SLOW_TESTS=1``); tests of
    :data:`DATABASE_FREE` modules are marked ``database_free``, and skipped on the PostgreSQL
    pass, as are ``own_database`` tests (:data:`OWN_DATABASE`) and the ``sweep`` seeds of a
    random-game sweep but one (the rules, whose secrecy they check, do not depend on the
    database; one game of each sweep exercises the storage). Skipped, never deselected: the count of tests stays the same in every mode. The
    modules of :data:`LONG_FIRST` go first."""
    slow = None if _slow_wanted(config) else pytest.mark.skip(
        reason="slow: an extra seed of a sweep; run with --slow or PBEM_SLOW_TESTS=1")
    free = pytest.mark.skip(reason="database-free: it ran on the SQLite pass")
    same = pytest.mark.skip(reason="own database: it ran the same on the SQLite pass")
    sweep = pytest.mark.skip(reason="sweep: the PostgreSQL pass plays one seed of the sweep "
                                    "(all with --slow), the SQLite pass all")
    rank = {name: i for i, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(Path(str(item.fspath)).stem, len(rank)))
    for item in items:
        module = Path(str(item.fspath)).stem
        if module in DATABASE_FREE:
            item.add_marker("database_free")
        if module in OWN_DATABASE:
            item.add_marker("own_database")
        if slow is not None and item.get_closest_marker("slow"):
            item.add_marker(slow)
        if ON_POSTGRES and item.get_closest_marker("database_free"):
            item.add_marker(free)
        elif ON_POSTGRES and item.get_closest_marker("own_database"):
            item.add_marker(same)
        elif ON_POSTGRES and slow is not None and item.get_closest_marker("sweep"):
            item.add_marker(sweep)


@pytest.fixture(autouse=True)
def _no_database(request):
    """SQLite pass: a ``database_free`` test (skipped on the PostgreSQL pass) fails if it
    opens a database connection through SQLAlchemy in its process."""
    if ON_POSTGRES or request.node.get_closest_marker("database_free") is None:
        yield
        return
    from sqlalchemy import event
    from sqlalchemy.pool import Pool

    opened: list = []

    def seen(_dbapi_conn, record):
        opened.append(record)

    event.listen(Pool, "connect", seen)
    try:
        yield
    finally:
        event.remove(Pool, "connect", seen)
    if opened:
        pytest.fail(f"{request.node.nodeid} is marked database_free (skipped on the PostgreSQL "
                    "pass) but opened a database: take its module out of conftest's "
                    "DATABASE_FREE, or its marker off", pytrace=False)


def pytest_report_header(config):
    return f"database: {TEST_DB}" + (f" ({os.environ.get('PBEM_TEST_PG')})" if ON_POSTGRES
                                     else "")
