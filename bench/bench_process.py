"""`pbem process --due` over many due games: one command on SQLite, and workers on PostgreSQL.

Builds once (and keeps in ``--cache``) a SQLite referee home with ``--games`` games of
``--ruleset`` (default Escape from Atlantis, 3 players), each with every owed role's orders
in for its first window (the ruleset's bots on each role's own view, signed pbem envelopes,
ingested as bare order files), so that every game is due. Then, for each configuration, a
fresh copy of that home is processed by the real command in a child process,
``pbem --home H --now T process --due [--workers N]`` with its output to a pipe (the cron form:
a line per resolved phase), and the script prints its wall time and the CPU time of every
process involved: the command and its worker processes (``RUSAGE_CHILDREN``), and for
PostgreSQL the server's processes too (the postmaster, its background processes and the
backends that served the run, read from ``/proc``). On SQLite it also prints the largest size
the WAL file reached during the run (sampled every 10 ms).

Configurations: ``sqlite``: SQLite, one worker; ``sqlite:N``: SQLite, N workers;
``pg:N``: PostgreSQL (a private server started with Debian's binaries as
tests/pg_server.py does, the home copied into it with ``pbem migrate-db``), N workers.

Run from the repository root with the project installed (and psycopg for PostgreSQL)::

    python bench/bench_process.py [--games 1000] [--configs sqlite pg:1 pg:2] [--cache DIR]

Prints one line per configuration::

    process sqlite: 1000 games, 1000 phases in 41.2 s wall (24.3 phases/s); CPU 40.1 s (pbem 40.1 s); WAL max 12.1 MB
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))


def build(folder: Path, ruleset: str, players: int, games: int, seed: int) -> Path:
    """The home with ``games`` due games (made once per folder)."""
    from bench_ingest import make_seats, order_text

    from pbem.crypto.envelope import sign_text
    from pbem.demo import Clock, SeededEntropy
    from pbem.engine import registry
    from pbem.engine.creation import GameSpec
    from pbem.engine.home import Home
    from pbem.engine.service import Referee
    from pbem.mail.sources import Incoming

    home = folder / "home"
    if (folder / "done").exists():
        return home
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    rs = registry.get(ruleset)
    seats = make_seats(list(rs.role_names[:players]), folder)
    by_role = {s.role: s for s in seats}
    clock = Clock(START)
    ref = Referee(Home(home), clock=clock, entropy=SeededEntropy(seed, "bench-process"))
    ref.init()
    rng, nonces = random.Random(seed), SeededEntropy(seed, "nonces")
    t0 = time.perf_counter()
    for n in range(games):
        gid = f"p{n:05d}"
        ref.new_game(GameSpec(ruleset=ruleset, game_id=gid, players=tuple(s.spec() for s in seats),
                              options={}, referee_address="referee@judge.example"))
        fp = ref.sealer.referee_signing_key(gid).public_key().fingerprint
        window = ref.status(gid)[0]["window"]
        items = []
        for role in window["owed"]:
            view, win = ref.view_and_window(gid, role)
            text = order_text(gid, win.turn, win.phase, role, nonces(16).hex(), clock(),
                              rs.bot_orders(view, win, role, rng), fp)
            items.append(Incoming(sign_text(text, by_role[role].key).encode(), f"b:{gid}:{role}",
                                  bare=True))
        bad = [v.summary() for v in ref.ingest(items) if v.status != "accepted"]
        if bad:
            raise RuntimeError(f"bot orders refused: {bad}")
        if (n + 1) % 100 == 0:
            print(f"  built {n + 1} games ({time.perf_counter() - t0:.0f} s)", flush=True)
    ref.db.make_durable()
    ref.db.dispose()
    (folder / "done").write_text("")
    return home


START = None  # set in main (pbem.demo is imported lazily)


def _proc_cpu(pid: int) -> float:
    """utime + stime (+ reaped children's) of ``pid`` in seconds, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / ticks


def server_cpu(data_dir: Path) -> float:
    """CPU seconds of a PostgreSQL server: its postmaster (with its reaped backends) and the
    processes it runs now."""
    pm = int((data_dir / "postmaster.pid").read_text().split()[0])
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


def run_config(config: str, template: Path, work: Path, when: str, pg) -> str:
    kind, _, n = config.partition(":")
    workers = int(n or 1)
    home = work / config.replace(":", "-")
    shutil.rmtree(home, ignore_errors=True)
    env = dict(os.environ)
    wal_max = [0]
    if kind == "sqlite":
        shutil.copytree(template, home)
        wal = home / "pbem.db-wal"
        stop = threading.Event()

        def sample():
            while not stop.is_set():
                try:
                    wal_max[0] = max(wal_max[0], wal.stat().st_size)
                except OSError:
                    pass
                time.sleep(0.01)

        sampler = threading.Thread(target=sample, daemon=True)
    else:
        url = pg["fresh"]()
        home.mkdir(parents=True)
        for name in ("referee.key",):
            shutil.copy2(template / name, home / name)
        subprocess.run([sys.executable, "-m", "pbem.cli", "--home", str(template), "migrate-db",
                        str(template / "pbem.db"), url], check=True, capture_output=True)
        env["PBEM_DB"] = url
        sampler = None
    cmd = [sys.executable, "-m", "pbem.cli", "--home", str(home), "--now", when, "process",
           "--due", "--workers", str(workers)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    server0 = server_cpu(pg["data"]) if kind == "pg" else 0.0
    if sampler:
        sampler.start()
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if sampler:
        stop.set()
        sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise RuntimeError(f"{config}: pbem failed: {out.stderr[-2000:]}")
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    cpu = user + system
    phases = sum(1 for line in out.stdout.splitlines() if " resolved" in line)
    games = len(list((template / "games").iterdir())) if (template / "games").exists() else 0
    line = (f"process {config}: {games} games, {phases} phases in {wall:.1f} s wall "
            f"({phases / wall:.1f} phases/s); CPU {cpu:.1f} s (pbem and its workers: user "
            f"{user:.1f} s, system {system:.1f} s)")
    if kind == "pg":
        server = server_cpu(pg["data"]) - server0
        line += f" + {server:.1f} s (PostgreSQL server) = {cpu + server:.1f} s"
    else:
        line += f"; WAL max {wal_max[0] / 1e6:.1f} MB"
    return line


def main(argv=None) -> int:
    global START
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--ruleset", default="atlantis")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--configs", nargs="+", default=["sqlite", "pg:1", "pg:2"])
    ap.add_argument("--cache", type=Path,
                    default=Path(tempfile.gettempdir()) / "pbem-bench-process")
    args = ap.parse_args(argv)
    from datetime import datetime, timezone

    START = datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)
    when = (START + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
    folder = args.cache / f"{args.ruleset}-{args.players}-{args.games}-{args.seed}"
    t0 = time.perf_counter()
    template = build(folder, args.ruleset, args.players, args.games, args.seed)
    print(f"home with {args.games} due games: {template} ({time.perf_counter() - t0:.0f} s)",
          flush=True)
    pg = None
    if any(c.startswith("pg") for c in args.configs):
        sys.path.insert(0, str(ROOT / "tests"))
        os.environ.pop("PBEM_TEST_PG", None)
        import pg_server

        base = pg_server.server_url()
        if base is None:
            print(f"PostgreSQL configurations skipped: {pg_server.why_not()}")
            args.configs = [c for c in args.configs if not c.startswith("pg")]
        else:
            from sqlalchemy.engine import make_url

            sock = Path(make_url(base).query["host"])
            pg = {"fresh": lambda: pg_server.fresh_database("bench"), "data": sock / "data"}
    with tempfile.TemporaryDirectory(prefix="pbem-bench-process-") as tmp:
        for config in args.configs:
            print(run_config(config, template, Path(tmp), when, pg), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
