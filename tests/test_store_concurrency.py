"""cron must be safe to run twice at once (DESIGN.md, "Who uses it"): a writer waits for
another writer's lock (BEGIN IMMEDIATE and a busy timeout) instead of failing with "database is
locked", and two processes resolving the same phase resolve it once."""

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from conftest import incoming, sqlite_only

from pbem.engine.creation import GameSpec


def _hold_lock(db_path: Path, seconds: float) -> subprocess.Popen:
    code = textwrap.dedent(f"""
        import sqlite3, time, sys
        c = sqlite3.connect({str(db_path)!r}, isolation_level=None)
        c.execute("BEGIN IMMEDIATE")
        c.execute("UPDATE game SET title = title")
        print("locked", flush=True)
        time.sleep({seconds})
        c.execute("COMMIT")
    """)
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "locked"
    return p


@sqlite_only("it holds SQLite's write lock with the sqlite3 module (tests/test_postgres.py "
             "holds PostgreSQL's)")
def test_a_second_writer_waits_for_the_lock(referee, players, clock):
    referee.new_game(GameSpec(ruleset="hunt", game_id="h1",
                              players=(players["red"].spec(), players["blue"].spec()), options={}))
    holder = _hold_lock(Path(referee.home.path) / "pbem.db", 1.5)
    t0 = time.monotonic()
    v = referee.ingest([incoming(players["red"].signed("h1", 1, "dig", "dig 3", issued=clock()))])
    waited = time.monotonic() - t0
    holder.wait(timeout=30)
    assert holder.returncode == 0
    assert [x.status for x in v] == ["accepted"]
    assert waited >= 1.0  # it really waited for the other writer rather than failing


def test_two_processes_resolve_a_phase_once(referee, players, clock, tmp_path):
    referee.new_game(GameSpec(ruleset="hunt", game_id="h1",
                              players=(players["red"].spec(), players["blue"].spec()), options={}))
    for r in ("red", "blue"):
        referee.ingest([incoming(players[r].signed("h1", 1, "dig", "dig 3", issued=clock()))])
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        import toygame
        from pbem.engine import registry
        registry._cache["hunt"] = toygame.ruleset
        from pbem.engine.home import Home
        from pbem.engine.service import Referee
        r = Referee(Home({str(referee.home.path)!r}, {referee.home.url!r}))
        print(len(r.process("h1")))
    """)
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
             for _ in range(2)]
    counts = [int(p.communicate(timeout=60)[0].strip()) for p in procs]
    assert sorted(counts) == [0, 1]
    reveals = [json.loads(x) for x in referee.log_lines("h1")
               if json.loads(x)["type"] == "dice-reveal" and json.loads(x)["phase"] == "1.dig"]
    assert len(reveals) == 1
