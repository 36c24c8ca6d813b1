"""`pbem process --due` over 1,000 due games, as a referee's cron runs it: one command on SQLite,
then PostgreSQL with two worker processes (issue 11, "A thousand games a night").

Builds once, untimed, a SQLite home with ``--games`` games (Escape from Atlantis and Escape from
Altassar in turn, made through :class:`pbem.engine.service.Referee`), every one due: its owed
roles' orders (the rulesets' bots, signed pbem envelopes) are in for its open window, which is
the k-th game's first, second or third window (``k % (advance + 1)``). All seeded; the command
runs at ``--now``, days before any deadline. Then, on a copy of the home, times
``pbem --home H --now T process --due`` in a child process, output to a pipe (the cron form);
and on PostgreSQL (``--pg-url``, else a private server started as tests/pg_server.py does, with
fsync on), the home copied in with ``pbem migrate-db`` as the template of a fresh database per
run, ``pbem --home H --db URL --now T process --due --workers 2`` (without ``--workers``: two
commands at once). Measured: wall time; CPU of every process (``RUSAGE_CHILDREN``, plus the
PostgreSQL server's processes from ``/proc``); phases resolved (one per game) and phases/s; when
the first ``resolved`` line came (progress is shown if within the first quarter of the run);
database size and growth; the WAL (SQLite: after, and the most it reached; PostgreSQL: written).
bench/README.md describes it in full. Targets: SQLite <= 20 s wall with progress shown;
PostgreSQL with 2 workers <= 15 s wall.

Run from the repository root with the project installed (psycopg for PostgreSQL)::

    python bench/bench_due.py [--games 1000] [--quick] [--advance 2] [--runs 1]
        [--rulesets atlantis altassar] [--pg-workers 2] [--pg-url URL] [--no-pg] [--cache DIR]

Prints one line per configuration (the median run's), ``due sqlite: 1000 games, 1000 phases
in X s wall = R phases/s; CPU C s (...); progress: shown (first line after F s); database
...`` and ``due postgresql 2 workers: ...``, or ``due postgresql 2 workers: not run: WHY``.
Exit status 0, or 1 when a run failed or did not resolve one phase per game.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bench_cold_start import command  # noqa: E402  (bench/ on the path first)

START = datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)
"""The referee's clock when the first game is created (UTC)."""
TARGET_SQLITE_S = 20.0
TARGET_PG_S = 15.0
QUICK_GAMES = 24
INGEST_CHUNK = 400
"""Order files per ``Referee.ingest`` call while building."""
REFEREE_ADDRESS = "referee@judge.example"
RESOLVED = re.compile(r"\S+ \S+ resolved\b")
"""A line ``pbem process`` prints for a resolved phase (``GAME PHASE resolved...``; a postponed
one says ``NOT resolved``)."""


# ---------------------------------------------------------------- building the home


@dataclass
class Built:
    """The prepared home: its folder, the time the command runs at (``--now``), how many games
    and the due windows by ruleset and phase (``atlantis 0.setup``: count)."""

    home: Path
    now: datetime
    games: int
    windows: Counter = field(default_factory=Counter)


def _orders(ref, game_id: str, rs, seats: dict, rng: random.Random, nonces, at: datetime):
    """The owed roles' signed order files for ``game_id``'s open window (bare Incoming)."""
    from bench_ingest import order_text

    from pbem.crypto.envelope import sign_text
    from pbem.mail.sources import Incoming

    window = ref.status(game_id)[0]["window"]
    fingerprint = ref.sealer.referee_signing_key(game_id).public_key().fingerprint
    items = []
    for role in window["owed"]:
        view, win = ref.view_and_window(game_id, role)
        text = order_text(game_id, win.turn, win.phase, role, nonces(16).hex(), at,
                          rs.bot_orders(view, win, role, rng), fingerprint)
        items.append(Incoming(sign_text(text, seats[role].key).encode(),
                              f"bench-due:{game_id}:{window['phase_id']}:{role}", bare=True))
    return items, window["phase_id"]


def _ingest_all(ref, items: list) -> None:
    """Ingest ``items`` in chunks; RuntimeError if one is not accepted."""
    for i in range(0, len(items), INGEST_CHUNK):
        bad = [v.summary() for v in ref.ingest(items[i:i + INGEST_CHUNK])
               if v.status != "accepted"]
        if bad:
            raise RuntimeError(f"bot orders were refused: {bad[:3]}")


def _create(ref, folder: Path, rulesets: list[str], games: int) -> tuple[list, dict]:
    """Create the games: ``([(n, ruleset, game id)], {ruleset: (ruleset object, seats by
    role, player specs)})``."""
    from bench_ingest import make_seats

    from pbem.engine import registry
    from pbem.engine.creation import GameSpec

    kinds = {}
    for name in rulesets:
        rs = registry.get(name)
        seats = make_seats(list(rs.role_names[:rs.max_roles]), folder)
        kinds[name] = (rs, {s.role: s for s in seats}, tuple(s.spec() for s in seats))
    ids, t0 = [], time.perf_counter()
    for n in range(games):
        name = rulesets[n % len(rulesets)]
        game_id = f"{name[:3]}-{n:05d}"
        ref.new_game(GameSpec(ruleset=name, game_id=game_id, players=kinds[name][2],
                              options={}, referee_address=REFEREE_ADDRESS))
        ids.append((n, name, game_id))
        if (n + 1) % 200 == 0 or n + 1 == games:
            print(f"  created {n + 1} games ({time.perf_counter() - t0:.0f} s)", flush=True)
    return ids, kinds


def build(folder: Path, rulesets: list[str], games: int, advance: int, seed: int) -> Built:
    """Make the home in ``folder/home`` (bench/README.md, `process --due`); reuse the one a
    previous call left there (``folder/built.json``). RuntimeError if bot orders are refused."""
    meta = folder / "built.json"
    if meta.exists():
        got = json.loads(meta.read_text())
        return Built(folder / "home", datetime.fromisoformat(got["now"]), got["games"],
                     Counter(got["windows"]))
    from pbem.demo import Clock, SeededEntropy
    from pbem.engine.home import Home
    from pbem.engine.service import Referee

    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    clock = Clock(START)
    ref = Referee(Home(folder / "home"), clock=clock, entropy=SeededEntropy(seed, "bench-due"))
    ref.init()
    rng, nonces = random.Random(seed), SeededEntropy(seed, "bench-due-nonces")
    ids, kinds = _create(ref, folder, rulesets, games)
    windows, t0 = Counter(), time.perf_counter()
    for rnd in range(advance + 1):  # the last round's orders are the ones left due
        clock.advance(1 / 60)
        last = rnd == advance
        items = []
        for n, name, game_id in ids:
            if last or (n // len(rulesets)) % (advance + 1) > rnd:
                rs, seats, _ = kinds[name]
                got, phase_id = _orders(ref, game_id, rs, seats, rng, nonces, clock())
                items += got
                if last:
                    windows[f"{name} {phase_id}"] += 1
        _ingest_all(ref, items)
        if not last:
            clock.advance(1 / 60)
            ref.process()
        print(f"  round {rnd + 1} of {advance + 1}: {len(items)} orders in "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
    ref.db.make_durable()
    ref.close()
    now = clock.now + timedelta(minutes=5)
    meta.write_text(json.dumps({"now": now.isoformat(), "games": games,
                                "windows": dict(windows)}))
    return Built(folder / "home", now, games, windows)


def cache_key(args) -> str:
    """A folder name for the options and the migrations (a schema change makes a new home)."""
    h = hashlib.sha256()
    for p in sorted((ROOT / "migrations" / "versions").glob("*.py")):
        h.update(p.name.encode() + p.read_bytes())
    opts = f"{'-'.join(args.rulesets)}-{args.games}-a{args.advance}-s{args.seed}"
    return f"{opts}-{h.hexdigest()[:10]}"


# ---------------------------------------------------------------- running the command


@dataclass
class Run:
    """One timed run: ``wall`` and ``cpu`` seconds (every child process), phases ``resolved``,
    seconds to the ``first`` resolved line (None: none came), the exit statuses and the end of
    the error output of a failed command."""

    wall: float
    cpu: float
    resolved: int
    first: float | None
    statuses: list[int]
    errors: str = ""
    wal_max: int = 0

    @property
    def ok(self) -> bool:
        return not any(self.statuses)

    def progress(self) -> str:
        """``shown (first line after X s)`` when the first resolved line came within the first
        quarter of the run, else ``NOT shown as it went (...)``."""
        if self.first is None:
            return "NOT shown (no resolved line)"
        word = "shown" if self.first <= 0.25 * self.wall else "NOT shown as it went"
        return f"{word} (first line after {self.first:.1f} s)"


def child_env() -> dict:
    """The environment of the command: this one without pbem's own variables (the command
    gets --home, --db and --now explicitly) and without PYTHONDONTWRITEBYTECODE (an installed
    pbem runs from cached bytecode)."""
    env = dict(os.environ)
    for name in ("PBEM_DB", "PBEM_HOME", "PBEM_NOW", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    return env


def run_commands(cmds: list[list[str]], games: int, wal: Path | None = None) -> Run:
    """Start ``cmds`` at once, read their output as it comes (printing the progress every
    tenth of ``games``), wait for all; sample ``wal``'s size every 20 ms if given."""
    lock, done = threading.Lock(), threading.Event()
    state = {"resolved": 0, "first": None, "wal": 0, "errors": []}
    step = max(1, games // 10)

    def read_out(stream, t0):
        for line in stream:
            if RESOLVED.match(line):
                with lock:
                    state["resolved"] += 1
                    n = state["resolved"]
                    if state["first"] is None:
                        state["first"] = time.perf_counter() - t0
                if n % step == 0:
                    print(f"    {n}/{games} phases resolved after "
                          f"{time.perf_counter() - t0:.1f} s", flush=True)

    def read_err(stream):
        state["errors"].append(stream.read())

    def sample():
        while not done.wait(0.02):
            try:
                state["wal"] = max(state["wal"], wal.stat().st_size)
            except OSError:
                pass

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    procs = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=child_env(), cwd=ROOT) for c in cmds]
    threads = [threading.Thread(target=read_out, args=(p.stdout, t0)) for p in procs]
    threads += [threading.Thread(target=read_err, args=(p.stderr,)) for p in procs]
    if wal is not None:
        threads.append(threading.Thread(target=sample))
    for t in threads:
        t.start()
    statuses = [p.wait() for p in procs]
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    done.set()
    for t in threads:
        t.join()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    errors = "".join(state["errors"]).strip()
    return Run(wall, cpu, state["resolved"], state["first"], statuses, errors[-1500:],
               state["wal"])


def _mb(n: float) -> str:
    return f"{n / 1e6:.1f} MB"


def describe(label: str, games: int, run: Run, cpu: str, sizes: str, target: float) -> str:
    """The result line of one run (module docstring): ``cpu`` and ``sizes`` are its CPU and
    storage parts."""
    if not run.ok:
        why = " | ".join(run.errors[-600:].splitlines())
        status = next(s for s in run.statuses if s)
        return f"due {label}: failed (exit {status}): {why}"
    missing = f" (expected {games})" if run.resolved != games else ""
    return (f"due {label}: {games} games, {run.resolved} phases{missing} in {run.wall:.1f} s "
            f"wall = {run.resolved / run.wall:.1f} phases/s; CPU {cpu}; progress: "
            f"{run.progress()}; {sizes}  (target <= {target:g} s wall)")


def run_sqlite(built: Built, work: Path, pbem: list[str]) -> tuple[str, Run]:
    """Copy the home and time ``pbem process --due`` on it (SQLite)."""
    home = work / "sqlite"
    shutil.rmtree(home, ignore_errors=True)
    shutil.copytree(built.home, home)
    db, wal = home / "pbem.db", home / "pbem.db-wal"
    size0 = db.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
    cmd = pbem + ["--home", str(home), "--now", _iso(built.now), "process", "--due"]
    run = run_commands([cmd], built.games, wal=wal)
    size1 = db.stat().st_size
    wal1 = wal.stat().st_size if wal.exists() else 0
    sizes = (f"database {_mb(size1)} (+{_mb(size1 - size0)}), WAL {_mb(wal1)} after, "
             f"{_mb(run.wal_max)} at most")
    return describe("sqlite", built.games, run, f"{run.cpu:.1f} s (pbem and its workers)",
                    sizes, TARGET_SQLITE_S), run


def _iso(t: datetime) -> str:
    return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------- PostgreSQL


class Postgres:
    """The PostgreSQL server of the runs: ``base`` (a URL whose user may create databases),
    ``data`` (its data folder when it is the private server, for its CPU time; else None) and
    the template database made from the SQLite home (:meth:`load`)."""

    def __init__(self, pg_server, base: str, data: Path | None):
        self.pg_server, self.base, self.data = pg_server, base, data
        self.template: str | None = None

    def sql(self, query: str, dbname: str | None = None):
        """The first row of ``query`` (autocommit; None for a statement without rows)."""
        with self.pg_server._connect(self.base, dbname) as conn:
            cur = conn.execute(query)
            return cur.fetchone() if cur.description is not None else None

    def settings(self) -> str:
        return ", ".join(f"{k} {self.sql(f'SHOW {k}')[0]}"
                         for k in ("server_version", "fsync", "synchronous_commit"))

    def load(self, built: Built, pbem: list[str]) -> float:
        """Copy the SQLite home into a new database with ``pbem migrate-db`` (the template of
        each run's database); returns the seconds it took. RuntimeError if it failed."""
        from sqlalchemy.engine import make_url

        url = self.pg_server.fresh_database("pbem_bench_due")
        t0 = time.perf_counter()
        done = subprocess.run(pbem + ["--home", str(built.home), "migrate-db",
                                      str(built.home / "pbem.db"), url],
                              capture_output=True, text=True, env=child_env(), check=False)
        if done.returncode != 0:
            raise RuntimeError(f"pbem migrate-db failed: {done.stderr[-1000:]}")
        self.template = make_url(url).database
        return time.perf_counter() - t0

    def fresh_copy(self) -> tuple[str, str]:
        """(URL, name) of a new database copied from the template."""
        from sqlalchemy.engine import make_url

        name = f"pbem_bench_due_{os.getpid()}_{time.monotonic_ns()}"
        self.sql(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"')
        url = make_url(self.base).set(database=name).render_as_string(hide_password=False)
        return url, name

    def drop(self, name: str) -> None:
        self.sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def server_cpu(self) -> float | None:
        """CPU seconds of the server's processes so far: the postmaster (with the backends it
        has reaped) and its live children, from ``/proc``; None when not known."""
        if self.data is None:
            return None
        try:
            pm = int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
        total = _proc_cpu(pm)
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    status = (entry / "status").read_text()
                except OSError:
                    continue
                if f"\nPPid:\t{pm}\n" in status:
                    total += _proc_cpu(int(entry.name))
        return total


def _proc_cpu(pid: int) -> float:
    """utime + stime + cutime + cstime of ``pid`` in seconds (``/proc/PID/stat``), 0 if gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / os.sysconf("SC_CLK_TCK")


def start_postgres(url: str | None) -> Postgres | str:
    """The server of the runs (``url``, else a private one with the default durability), or
    why there is none."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        import pg_server
    except ImportError as e:
        return f"tests/pg_server.py cannot be imported ({e})"
    if url:
        os.environ["PBEM_TEST_PG"] = url
    else:
        os.environ.pop("PBEM_TEST_PG", None)
        pg_server.SERVER_OPTIONS = "-c max_connections=100"  # durable: fsync on, as installed
    base = pg_server.server_url()
    if base is None:
        return pg_server.why_not()
    from sqlalchemy.engine import make_url

    host = make_url(base).query.get("host")
    data = None if url or not host else Path(host) / "data"
    return Postgres(pg_server, base, data)


def has_workers_flag(pbem: list[str]) -> bool:
    """Whether this pbem's ``process`` takes ``--workers``."""
    done = subprocess.run(pbem + ["process", "--help"], capture_output=True, text=True,
                          env=child_env(), check=False)
    return "--workers" in done.stdout


def run_postgres(built: Built, work: Path, pbem: list[str], pg: Postgres, workers: int,
                 flag: bool) -> tuple[str, Run]:
    """Time ``pbem process --due --workers N`` (or N commands at once without the flag) on a
    fresh copy of the template database."""
    url, name = pg.fresh_copy()
    home = work / "pg"
    shutil.rmtree(home, ignore_errors=True)
    shutil.copytree(built.home, home, ignore=shutil.ignore_patterns("pbem.db*"))
    try:
        size0 = pg.sql(f"SELECT pg_database_size('{name}')")[0]
        lsn0 = pg.sql("SELECT pg_current_wal_lsn()")[0]
        server0 = pg.server_cpu()
        cmd = pbem + ["--home", str(home), "--db", url, "--now", _iso(built.now), "process",
                      "--due"]
        cmds = [cmd + ["--workers", str(workers)]] if flag else [cmd] * workers
        run = run_commands(cmds, built.games)
        server1 = pg.server_cpu()
        size1 = pg.sql(f"SELECT pg_database_size('{name}')")[0]
        wal = pg.sql(f"SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '{lsn0}')")[0]
    finally:
        pg.drop(name)
    cpu = f"{run.cpu:.1f} s (pbem and its workers)"
    if server0 is not None and server1 is not None:
        cpu += f" + {server1 - server0:.1f} s (PostgreSQL server) = " \
               f"{run.cpu + server1 - server0:.1f} s"
    else:
        cpu += " (the server's not counted)"
    sizes = f"database {_mb(size1)} (+{_mb(size1 - size0)}), WAL written {_mb(float(wal))}"
    label = f"postgresql {workers} {'workers' if flag else 'processes'}"
    return describe(label, built.games, run, cpu, sizes, TARGET_PG_S), run


# ---------------------------------------------------------------- main


def report(results: list[tuple[str, Run]], games: int) -> bool:
    """Print the line of the median run by wall time (every run's line first when there are
    several); True if every run succeeded and resolved one phase per game."""
    if len(results) > 1:
        for i, (line, _) in enumerate(results, 1):
            print(f"  run {i}: {line}")
    print(sorted(results, key=lambda r: r[1].wall)[len(results) // 2][0], flush=True)
    return all(run.ok and run.resolved == games for _, run in results)


def measure(args, built: Built, work: Path, pbem: list[str]) -> bool:
    """The SQLite runs, then the PostgreSQL ones; prints each result line; True if all went
    well (every run resolved one phase per game)."""
    good = report([run_sqlite(built, work, pbem) for _ in range(args.runs)], built.games)
    if args.no_pg:
        return good
    pg = start_postgres(args.pg_url)
    flag = has_workers_flag(pbem)
    label = f"due postgresql {args.pg_workers} {'workers' if flag else 'processes'}"
    if isinstance(pg, str):
        print(f"{label}: not run: {pg}", flush=True)
        return good
    try:
        loaded = pg.load(built, pbem)
    except RuntimeError as e:
        print(f"{label}: failed: {e}", flush=True)
        return False
    print(f"  PostgreSQL: {pg.settings()}; the home copied in with pbem migrate-db in "
          f"{loaded:.0f} s (not timed){'' if flag else '; no --workers: commands at once'}",
          flush=True)
    try:
        runs = [run_postgres(built, work, pbem, pg, args.pg_workers, flag)
                for _ in range(args.runs)]
    finally:
        pg.drop(pg.template)
    return report(runs, built.games) and good


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--games", type=int, help=f"due games (default 1000; --quick {QUICK_GAMES})")
    ap.add_argument("--quick", action="store_true", help="a smoke test: few games")
    ap.add_argument("--rulesets", nargs="+", default=["atlantis", "altassar"],
                    help="rulesets of the games, in turn (default: atlantis altassar)")
    ap.add_argument("--advance", type=int, default=2,
                    help="the k-th game of each ruleset is first played through k %% (advance + 1) "
                         "windows (default 2)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=1, help="timed runs per configuration; the "
                    "median counts (default 1)")
    ap.add_argument("--pg-workers", type=int, default=2, help="PostgreSQL workers (default 2)")
    ap.add_argument("--pg-url", help="a PostgreSQL server URL whose user may create databases "
                    "(default: a private server, as tests/pg_server.py starts)")
    ap.add_argument("--no-pg", action="store_true", help="SQLite only")
    ap.add_argument("--cache", type=Path, help="keep the built home in this folder and reuse it")
    args = ap.parse_args(argv)
    args.games = args.games or (QUICK_GAMES if args.quick else 1000)
    if args.games < 1 or args.runs < 1 or args.advance < 0 or args.pg_workers < 1:
        ap.error("--games, --runs and --pg-workers: expected at least 1; --advance at least 0")
    from pbem.engine import registry

    for name in args.rulesets:
        try:
            registry.get(name)
        except registry.UnknownRuleset as e:
            ap.error(f"--rulesets: {e}")
    with tempfile.TemporaryDirectory(prefix="pbem-bench-due-") as tmp:
        folder = (args.cache / cache_key(args)) if args.cache else Path(tmp) / "template"
        print(f"building a home with {args.games} due games ({', '.join(args.rulesets)}; "
              f"advance {args.advance}) in {folder}", flush=True)
        t0 = time.perf_counter()
        built = build(folder, args.rulesets, args.games, args.advance, args.seed)
        mix = ", ".join(f"{k} {n}" for k, n in sorted(built.windows.items()))
        pbem = command()
        print(f"  due windows: {mix}; ready in {time.perf_counter() - t0:.0f} s (not timed)\n"
              f"  command: {' '.join(pbem)} --home H --now {_iso(built.now)} process --due",
              flush=True)
        return 0 if measure(args, built, Path(tmp), pbem) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as error:  # a failed run: say why, exit 1 (run_all reports it)
        print(f"bench_due: {error}", file=sys.stderr)
        sys.exit(1)
