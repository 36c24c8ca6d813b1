"""Several `pbem process` workers over one database (issue 11; DESIGN.md "Storage";
docs/operations.md): each game handled once per run in one write transaction, the same
results as one worker, a worker killed in the middle of a phase losing nothing, `pbem ingest`
running beside the workers, and what `process` prints (a progress bar on a terminal, a line or
a JSON object per result otherwise).

The due games are treasure hunts (tests/toygame.py: two players, a d6 for the weather), made
once on SQLite with both players' orders in for the first window, then copied into a fresh
PostgreSQL database per test (`pbem migrate-db`'s copy). The referee's entropy gives each
game and phase its own reproducible bytes (:class:`PhaseEntropy`), so which worker takes a
game, and when, cannot change what it draws.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from conftest import START, CountingEntropy, MovableClock, Player, incoming, sqlite_only

from pbem.engine import registry
from pbem.engine.creation import GameSpec
from pbem.engine.home import Home
from pbem.engine.service import Referee
from pbem.store.db import sqlite_url

GAMES = 200
ROLES = ("red", "blue")
RUN_AT = START + timedelta(hours=1)  # orders are all in: every window closes early
HERE = Path(__file__).parent


class PhaseEntropy:
    """The referee's entropy for a run: for each game and phase its own counter-mode stream
    (``for_phase``, pbem.engine.adjudicate.process_game), so that one worker or four, in any
    order, draw the same bytes for the same game."""

    def __init__(self, label: str = "run"):
        self.label = label
        self.rest = CountingEntropy(f"{label}/other")

    def for_phase(self, game_id: str, seq: int):
        return CountingEntropy(f"{self.label}/{game_id}/{seq}")

    def __call__(self, n: int) -> bytes:
        return self.rest(n)


def hole(i: int, role: str) -> int:
    return (i * 7 + ROLES.index(role) * 3) % 20 + 1


def _new_home(folder: Path, url: str | None = None, clock=None, entropy=None) -> Referee:
    """A new referee home at ``folder``; its database ``url``, else the suite's (SQLite
    ``pbem.db``, or a PostgreSQL schema with PBEM_TEST_DB=postgresql)."""
    ref = Referee(Home(folder, url), clock=clock or MovableClock(),
                  entropy=entropy or CountingEntropy("create"))
    ref.init()
    (folder / "config.toml").write_text('[mail]\nfrom = "referee@judge.example"\n',
                                        encoding="utf-8")
    return ref


def _add_games(ref: Referee, ids: list[str], *, orders: bool, first: int = 0,
               schedule=None) -> None:
    """Hunts ``ids`` (red and blue), with ``schedule`` (None: the legacy one); with ``orders``
    both players' orders for the first window (game ``first + n`` digs :func:`hole`)."""
    players = {r: Player(r, referee=ref) for r in ROLES}
    for gid in ids:
        ref.new_game(GameSpec(ruleset="hunt", game_id=gid,
                              players=tuple(players[r].spec() for r in ROLES), options={},
                              schedule=schedule))
    if orders:
        ref.ingest([incoming(players[r].signed(gid, 1, "dig", f"dig {hole(i, r)}",
                                               issued=ref.clock()))
                    for i, gid in enumerate(ids, first) for r in ROLES])


def _register_hunt() -> None:
    import toygame

    registry._cache["hunt"] = toygame.ruleset  # module fixtures come before conftest's


SMALL = 40


@pytest.fixture(scope="module")
def small_template(tmp_path_factory):
    """A SQLite home with SMALL hunts whose first window has both players' orders in."""
    _register_hunt()
    home = tmp_path_factory.mktemp("workers") / "small"
    ref = _new_home(home, sqlite_url(home / "pbem.db"))
    _add_games(ref, [f"w{i:03d}" for i in range(SMALL)], orders=True)
    ref.db.make_durable()  # the whole database in pbem.db: it can be copied as a file
    ref.db.dispose()
    return home


@pytest.fixture(scope="module")
def template(small_template, tmp_path_factory):
    """The same with GAMES hunts (the first SMALL are small_template's)."""
    _register_hunt()
    home = tmp_path_factory.mktemp("workers") / "home"
    shutil.copytree(small_template, home)
    ref = Referee(Home(home, sqlite_url(home / "pbem.db")), clock=MovableClock(),
                  entropy=CountingEntropy("more"))
    _add_games(ref, [f"w{i:03d}" for i in range(SMALL, GAMES)], orders=True, first=SMALL)
    ref.db.make_durable()
    ref.db.dispose()
    return home


def sqlite_copy(template: Path, folder: Path, *, entropy=None) -> Referee:
    """A copy of the template home on SQLite (the file copied), run at RUN_AT."""
    shutil.copytree(template, folder)
    return Referee(Home(folder, sqlite_url(folder / "pbem.db")), clock=lambda: RUN_AT,
                   entropy=entropy or PhaseEntropy())


def pg_copy(template: Path, folder: Path, url: str, *, entropy=None) -> Referee:
    """A copy of the template home whose database is the PostgreSQL database ``url`` (copied
    with `pbem migrate-db`'s copy), run at RUN_AT."""
    from pbem.engine.dbmove import migrate_db

    folder.mkdir()
    for name in ("referee.key", "config.toml"):
        shutil.copy2(template / name, folder / name)
    migrate_db(Home(template), str(template / "pbem.db"), url)
    return Referee(Home(folder, url), clock=lambda: RUN_AT, entropy=entropy or PhaseEntropy())


def logs(ref: Referee, ids) -> dict[str, list[dict]]:
    return {g: [json.loads(x) for x in ref.log_lines(g)] for g in ids}


def counts(ref: Referee, table: str, where: str = "") -> Counter:
    """Rows of ``table`` per game (read as anyone with the database can)."""
    from sqlalchemy import text

    with ref.db.engine.connect() as conn:
        return Counter(dict(conn.execute(text(f"SELECT game_id, count(*) FROM {table} {where} "
                                              "GROUP BY game_id")).all()))


def resolved_once(lines: list[dict], phase: str) -> bool:
    """The public log resolved ``phase`` exactly once: one dice reveal, one phase-resolved,
    and each role's orders used once."""
    kinds = Counter((o["type"], o.get("role")) for o in lines if o.get("phase") == phase)
    return (kinds[("dice-reveal", None)] == 1 and kinds[("phase-resolved", None)] == 1
            and all(kinds[("orders-used", r)] == 1 for r in ROLES))


def pbem_child(home: Path, url: str, *args, env=None, **kw) -> subprocess.Popen:
    """`pbem --home HOME --db URL --now RUN_AT ARGS` in a child process of its own, with the
    hunt ruleset (tests/hunt_pbem.py)."""
    return subprocess.Popen([sys.executable, str(HERE / "hunt_pbem.py"), "--home", str(home),
                             "--db", url, "--now", RUN_AT.strftime("%Y-%m-%dT%H:%M:%SZ"),
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})}, **kw)


# ---------------------------------------------------------------- PostgreSQL, several workers

@pytest.mark.own_database  # pg_url and a SQLite template: skipped on the PostgreSQL pass
def test_four_workers_resolve_each_phase_once_as_one_worker_does(template, tmp_path, pg_url):
    ids = [f"w{i:03d}" for i in range(GAMES)]
    one = sqlite_copy(template, tmp_path / "one")
    four = pg_copy(template, tmp_path / "four", pg_url)
    seen: list[str] = []
    done_one = one.process()
    done_four = four.process(workers=4, on_game=lambda gid, results: seen.append(gid))
    # every game handed out once, and each resolved its first window, both players' orders in
    assert sorted(seen) == ids
    for done in (done_one, done_four):
        assert sorted(d.game for d in done) == ids
        assert {(d.phase, tuple(d.nmr)) for d in done} == {("1.dig", ())}
        assert all(d.next_phase == (None if d.ended else "2.dig") for d in done)
    by_one, by_four = logs(one, ids), logs(four, ids)
    for gid in ids:
        assert resolved_once(by_four[gid], "1.dig"), gid
        assert by_four[gid] == by_one[gid], gid  # the same rolls, events, seeds, chain
    # nothing stored twice: the same reports and mail per game as the single worker's
    assert counts(four, "report") == counts(one, "report")
    assert counts(four, "outbox") == counts(one, "outbox")
    # a second run finds nothing ready (the second windows wait for orders)
    assert four.process(workers=4) == []


def _wait_for(path: Path, proc: subprocess.Popen, seconds: float = 60) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if path.exists() and path.read_text().endswith("\n"):
            return path.read_text()
        if proc.poll() is not None:
            raise AssertionError(f"pbem ended first: {proc.communicate()}")
        time.sleep(0.02)
    proc.kill()
    raise AssertionError("no worker paused")


@pytest.mark.own_database  # pg_url and a SQLite template: skipped on the PostgreSQL pass
def test_a_worker_killed_mid_phase_loses_nothing_and_doubles_nothing(small_template, tmp_path,
                                                                     pg_url):
    ids = [f"w{i:03d}" for i in range(SMALL)]
    ref = pg_copy(small_template, tmp_path / "home", pg_url)
    pause = tmp_path / "paused"
    proc = pbem_child(ref.home.path, pg_url, "process", "--due", "--workers", "2", "--json",
                      env={"PBEM_TEST_PAUSE_FILE": str(pause)})
    victim, pid = _wait_for(pause, proc).split()
    os.kill(int(pid), signal.SIGKILL)  # inside the game's transaction, reports half made
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, (out, err)
    assert (f"worker {pid} was killed by signal 9 while on game {victim}; another worker then "
            "finished it") in err
    records = [json.loads(line) for line in out.splitlines()]
    assert sorted(r["game"] for r in records) == ids  # each game once, the victim too
    assert {(r["phase"], r["outcome"]) for r in records} == {("1.dig", "resolved")}
    from pbem.verify import verify_log

    for gid, lines in logs(ref, ids).items():
        assert resolved_once(lines, "1.dig"), gid
    assert verify_log(ref.log_lines(victim)).ok
    reports, mail = counts(ref, "report"), counts(ref, "outbox")
    ended = {r["game"]: r["ended"] for r in records}  # a game that ended mails more
    other = next(g for g in ids if g != victim and ended[g] == ended[victim])
    assert reports[victim] == reports[other] and mail[victim] == mail[other]


@pytest.mark.own_database  # pg_url and a SQLite template: skipped on the PostgreSQL pass
def test_two_commands_at_once_share_the_games(small_template, tmp_path, pg_url):
    """Two `pbem process --due` commands (cron on two machines) claim games with SKIP LOCKED:
    each game is resolved by one of them, once, and neither fails."""
    ids = [f"w{i:03d}" for i in range(SMALL)]
    ref = pg_copy(small_template, tmp_path / "home", pg_url)
    procs = [pbem_child(ref.home.path, pg_url, "process", "--due", "--workers", "2", "--json")
             for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    records = [json.loads(line) for out, _ in outs for line in out.splitlines()]
    assert sorted(r["game"] for r in records) == ids
    for gid, lines in logs(ref, ids).items():
        assert resolved_once(lines, "1.dig"), gid


@pytest.mark.own_database  # pg_url and a SQLite template: skipped on the PostgreSQL pass
def test_ingest_beside_the_workers_loses_no_mail(small_template, tmp_path, pg_url):
    """`pbem ingest` of orders for 24 more games while two workers resolve 40 (each phase
    made 0.1 s longer, so that they are still at it): every message archived, accepted and
    given a receipt, and the orders that stand are the latest each player sent, used when
    their windows close. The 24 games do not close their windows early: else a worker could
    resolve one on the first orders in while the later ones were still coming (a slow ingest
    on a loaded machine), and those would be refused as late, as they should be."""
    from dataclasses import replace

    from pbem.engine.schedule import Schedule

    due = [f"w{i:03d}" for i in range(SMALL)]
    ref = pg_copy(small_template, tmp_path / "home", pg_url)
    ref.clock = lambda: START
    waiting = [f"x{i:02d}" for i in range(24)]
    _add_games(ref, waiting, orders=False,
               schedule=replace(Schedule.legacy(72 * 3600, 24 * 3600), close_early=False))
    players = {r: Player(r, referee=ref) for r in ROLES}
    mails = tmp_path / "mail"
    mails.mkdir()
    final = {}
    for version in range(3):  # each sends three versions; the last one stands
        for i, gid in enumerate(waiting):
            for r in ROLES:
                dig = (hole(i, r) + version * 5 - 1) % 20 + 1
                final[gid, r] = dig
                text = players[r].signed(gid, 1, "dig", f"dig {dig}",
                                         issued=START + timedelta(minutes=version))
                (mails / f"{version}-{gid}-{r}.txt").write_text(text)
    sent = 3 * len(waiting) * len(ROLES)
    workers = pbem_child(ref.home.path, pg_url, "process", "--due", "--workers", "2", "--json",
                         env={"PBEM_TEST_PHASE_SECONDS": "0.1"})
    first = workers.stdout.readline()  # the workers are at it
    assert json.loads(first)["outcome"] == "resolved"
    ingest = pbem_child(ref.home.path, pg_url, "ingest", str(mails))
    i_out, i_err = ingest.communicate(timeout=120)
    w_out, w_err = workers.communicate(timeout=120)
    assert ingest.returncode == 0, i_err
    assert i_out.strip() == f"accepted {sent}, rejected 0, duplicate 0"
    assert workers.returncode == 0, w_err
    done = [json.loads(x) for x in [first, *w_out.splitlines()]]
    assert Counter(r["game"] for r in done if r["game"].startswith("w")) == Counter(due)
    messages = [m for m in ref.messages(limit=10_000) if m["game"] in waiting]
    assert len(messages) == sent and {m["verdict"] for m in messages} == {"accepted"}
    receipts = counts(ref, "outbox", "WHERE kind = 'receipt'")
    assert sum(receipts[g] for g in waiting) == sent
    assert counts(ref, "order_set") == Counter({**{g: 2 for g in due}, **{g: 6 for g in waiting}})
    ref.clock = lambda: START + timedelta(hours=73)  # past their deadline: every one closes
    assert sorted(r.game for r in ref.process() if r.game in waiting) == waiting
    for gid, lines in logs(ref, waiting).items():
        assert resolved_once(lines, "1.dig"), gid
        kinds = [o.get("kind") for o in lines if o["type"] == "event"]
        digs = [o["text"] for o in lines if o["type"] == "event" and o.get("kind") == "dig"]
        expected = [f"{r} digs hole {final[gid, r]}." for r in ROLES]
        assert digs == ([] if "rain" in kinds else expected), gid


# ---------------------------------------------------------------- either database

def _twin_homes(tmp_path, n: int) -> tuple[Referee, Referee]:
    """Two homes made alike (same keys, entropy, clock): ``n`` hunts, orders in."""
    from pbem.crypto.keys import create_master_key

    out = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        create_master_key(tmp_path / name / "referee.key", b"k" * 32)
        ref = _new_home(tmp_path / name)
        _add_games(ref, [f"g{i:02d}" for i in range(n)], orders=True)
        ref.clock, ref.entropy = (lambda: RUN_AT), PhaseEntropy()
        out.append(ref)
    return out[0], out[1]


def test_workers_on_the_suites_database_match_one_worker(tmp_path):
    """On SQLite the workers take turns at the one writer; on PostgreSQL (PBEM_TEST_DB) they
    run at once. Either way: the same logs as one worker's, each phase resolved once."""
    a, b = _twin_homes(tmp_path, 12)
    ids = [f"g{i:02d}" for i in range(12)]
    assert sorted(d.game for d in a.process()) == ids
    assert sorted(d.game for d in b.process(workers=3)) == ids
    la, lb = logs(a, ids), logs(b, ids)
    assert la == lb and all(resolved_once(lb[g], "1.dig") for g in ids)


def test_one_write_transaction_per_game_and_no_second_look(tmp_path):
    """A run records its time (one write), then handles each game in one write transaction:
    the window its resolution opens is checked in that same transaction."""
    ref = _new_home(tmp_path / "h")
    ids = [f"g{i:02d}" for i in range(5)]
    _add_games(ref, ids, orders=True)
    ref.clock = lambda: RUN_AT
    db = ref.db
    real, opened = db.write, []

    def counting_write(**kw):
        opened.append(kw.get("games"))
        return real(**kw)

    db.write = counting_write
    done = ref.process()
    assert sorted(d.game for d in done) == ids
    assert opened == [None] + [[g] for g in ids]  # start_run, then one per game


@sqlite_only("the WAL file")
def test_long_runs_checkpoint_the_wal(small_template, tmp_path):
    """pbem turns SQLite's automatic checkpoints off; a run checkpoints every so many games,
    so the WAL file stops growing at about that many games' writes."""
    from pbem.engine.workers import process_due

    sizes = {}
    for every in (5, 10_000):
        ref = sqlite_copy(small_template, tmp_path / f"every{every}")
        process_due(ref.db, ref.sealer, now=RUN_AT, entropy=ref.entropy, checkpoint_every=every)
        sizes[every] = (ref.home.path / "pbem.db-wal").stat().st_size
        ref.db.dispose()
    # 40 games: 8 checkpoints, each letting the next writes start the WAL file over
    assert sizes[5] * 3 < sizes[10_000]


# ---------------------------------------------------------------- what `pbem process` prints

@pytest.fixture
def cli_home(tmp_path):
    ref = _new_home(tmp_path / "home")
    _add_games(ref, ["g0", "g1", "g2"], orders=True)
    _add_games(ref, ["g3"], orders=False)  # not ready: nothing printed for it
    return ref


def _cli(ref, *args):
    from click.testing import CliRunner

    from pbem.cli import main

    return CliRunner().invoke(main, ["--home", str(ref.home.path), "--now",
                                     RUN_AT.strftime("%Y-%m-%dT%H:%M:%SZ"), *args],
                              catch_exceptions=False)


def test_process_json_prints_an_object_per_result(cli_home):
    r = _cli(cli_home, "process", "--due", "--json", "--workers", "2")
    assert r.exit_code == 0, r.output
    records = [json.loads(line) for line in r.output.splitlines()]
    assert sorted(x["game"] for x in records) == ["g0", "g1", "g2"]
    for x in records:
        ended = x["ended"]
        assert x == {"game": x["game"], "phase": "1.dig", "outcome": "resolved", "nmr": [],
                     "ended": ended, "next": None if ended else "2.dig"}
    assert _cli(cli_home, "process", "--due", "--json").output == ""  # nothing: no line


def test_process_prints_a_line_per_result_when_not_on_a_terminal(cli_home):
    r = _cli(cli_home, "process", "--due")
    assert r.exit_code == 0, r.output
    lines = sorted(r.output.splitlines())
    assert len(lines) == 3 and all(
        line in (f"g{i} 1.dig resolved; next 2.dig", f"g{i} 1.dig resolved; game over")
        for i, line in enumerate(lines))
    assert _cli(cli_home, "process").output == "nothing to process\n"


def test_process_shows_a_progress_bar_on_a_terminal(cli_home):
    """Run in a pseudo-terminal, as a referee at the keyboard does."""
    import pty

    ref = cli_home
    env = {**os.environ, "PBEM_DB": ref.home.url, "COLUMNS": "100"}
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, str(HERE / "hunt_pbem.py"), "--home",
                             str(ref.home.path), "--now", RUN_AT.strftime("%Y-%m-%dT%H:%M:%SZ"),
                             "process", "--due"], stdout=slave, stderr=slave, env=env)
    os.close(slave)
    chunks = []
    while True:  # until pbem ended and its terminal is drained
        ready, _, _ = select.select([master], [], [], 0.2)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO: the terminal's other end closed and all is read
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert proc.wait(timeout=60) == 0
    out = b"".join(chunks).decode()
    assert "processing" in out and "4/4" in out, out  # the bar over the 4 games with a window
    assert out.count(" 1.dig resolved") == 3, out  # then the results


def test_a_game_that_fails_in_a_worker_stops_the_run_cleanly(cli_home, tmp_path):
    """A broken template for one game (docs/reports.md): its transaction is rolled back, the
    worker says why, the command ends with exit status 1 once the games in progress are done,
    and the next run resolves it once the template is fixed."""
    tpl = tmp_path / "tpl" / "games" / "g1" / "report.txt.j2"
    tpl.parent.mkdir(parents=True)
    tpl.write_text("{{ game.id }}\n{% if %}\n")
    before = cli_home.log_lines("g1")
    r = _cli(cli_home, "--templates", str(tmp_path / "tpl"), "process", "--due", "--workers", "2")
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    assert f"Error: game g1: {tpl}, line 2: " in r.output, r.output
    assert cli_home.log_lines("g1") == before  # nothing of the phase stored
    tpl.write_text("FIXED {{ game.id }}\n")
    r = _cli(cli_home, "--templates", str(tmp_path / "tpl"), "process", "--due", "--workers", "2")
    assert r.exit_code == 0, r.output
    assert "g1 1.dig resolved" in r.output
    for gid in ("g0", "g1", "g2"):
        assert resolved_once([json.loads(x) for x in cli_home.log_lines(gid)], "1.dig"), gid
