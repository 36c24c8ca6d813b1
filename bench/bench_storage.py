"""Bytes a phase adds to the database, by table, all roles together: whole games played through
``Referee`` by the rulesets' own bots (bench_game.py's machinery).

For each ruleset (default Escape from Atlantis with 4 players and Escape from Altassar with 2:
each ruleset's largest number of players), ``--games`` seeded games are played to their end,
each in a fresh referee home (SQLite). After the game is created and after each window is
processed, the payload of every table is summed: the bytes of each column value as SQLite
stores it (text and blobs by their length in bytes, numbers and times by the length of their
text; row headers, page slack and indexes not counted). A phase's stored size is the growth
between two of these sums: everything the window added, the orders ingested for it (the
archived message, the order set, the receipt queued, the ``orders`` log lines) and its
resolution (the reports, sealed state and undo snapshot, events, log lines, outbox rows). The
reports of a phase are every reader's, the public report's included.

Run from the repository root with the project installed::

    python bench/bench_storage.py [RULESET ...] [--games 2] [--seed 1]

Prints, per ruleset, a table of the bytes per phase by table (median and worst over every
phase of every game), the total per phase (median, worst: the target of issue 11 is at most
20 KB), the worst phase's bytes by table (those of 50 bytes or more), what creating the game
stored, and the database and WAL file sizes when the last
game ended; then one line per ruleset::

    storage atlantis: 76 phases, median 14.2 KB, worst 18.9 KB per phase; database 1.6 MB, WAL 0.4 MB
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
from pathlib import Path

import bench_game

DEFAULT = ("atlantis", "altassar")


def payload(db_path: Path) -> dict[str, int]:
    """Bytes of every column value of every table of the SQLite database at ``db_path`` (see
    the module doc), per table; ``alembic_version`` left out. Read-only."""
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        out = {}
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
            "AND name != 'alembic_version' ORDER BY name")]
        for table in tables:
            cols = [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]
            expr = " + ".join(f'COALESCE(LENGTH(CAST("{c}" AS BLOB)), 0)' for c in cols)
            out[table] = con.execute(f'SELECT COALESCE(SUM({expr}), 0) FROM "{table}"').fetchone()[0]
        return out
    finally:
        con.close()


def play(name: str, root: Path, seed: int) -> tuple[dict, list[dict], int, int]:
    """Play one game of ``name`` in ``root``: ``(bytes stored by the creation per table, [bytes
    added per table] per window, database file size, WAL size)``."""
    db_path = root / "home" / "pbem.db"
    sums: list[dict] = []

    def measure(referee, game_id, window) -> bool:
        if not sums:  # the first window: what the creation stored is the state before it
            raise RuntimeError("no measure before the first window")
        sums.append(payload(db_path))
        return True

    original = bench_game.Referee.new_game

    def new_game(self, spec):
        result = original(self, spec)
        sums.append(payload(db_path))
        return result

    bench_game.Referee.new_game = new_game
    try:
        bench_game.play(name, root, seed, on_phase=measure)
    finally:
        bench_game.Referee.new_game = original
    per_phase = [{t: after.get(t, 0) - before.get(t, 0) for t in after}
                 for before, after in zip(sums, sums[1:])]
    wal = root / "home" / "pbem.db-wal"
    return sums[0], per_phase, db_path.stat().st_size, wal.stat().st_size if wal.exists() else 0


def kb(n: float) -> str:
    return f"{n / 1000:.1f}"


def report(name: str, games: int, seed: int) -> str:
    """Play ``games`` games of ``name``, print its table and return its summary line."""
    created, phases, sizes = [], [], []
    for g in range(games):
        with tempfile.TemporaryDirectory(prefix=f"pbem-storage-{name}-") as tmp:
            first, per_phase, db_size, wal_size = play(name, Path(tmp), seed + g)
        created.append(first)
        phases.extend(per_phase)
        sizes.append((db_size, wal_size, len(per_phase)))
    tables = sorted({t for p in phases for t in p}, key=lambda t: -sum(p.get(t, 0) for p in phases))
    totals = [sum(p.values()) for p in phases]
    print(f"\n{name}: {games} game(s), {len(phases)} phases (phases per game: "
          f"{', '.join(str(n) for *_, n in sizes)}); bytes per phase, all roles together")
    print(f"  {'table':<12} {'median KB':>10} {'worst KB':>10} {'share':>7}")
    whole = sum(totals) or 1
    for t in tables:
        values = [p.get(t, 0) for p in phases]
        print(f"  {t:<12} {kb(statistics.median(values)):>10} {kb(max(values)):>10} "
              f"{sum(values) / whole:>7.0%}")
    print(f"  {'all':<12} {kb(statistics.median(totals)):>10} {kb(max(totals)):>10}")
    worst = phases[totals.index(max(totals))]
    print("  the worst phase: " + ", ".join(f"{t} {kb(worst[t])}" for t in tables
                                             if worst.get(t, 0) >= 50))
    setup = [sum(c.values()) for c in created]
    print(f"  creating the game stored {kb(statistics.median(setup))} KB (median)")
    db_size, wal_size, _ = sizes[-1]
    print(f"  files after the last game: database {db_size / 1e6:.2f} MB, WAL "
          f"{wal_size / 1e6:.2f} MB")
    return (f"storage {name}: {len(phases)} phases, median {kb(statistics.median(totals))} KB, "
            f"worst {kb(max(totals))} KB per phase; database {db_size / 1e6:.1f} MB, "
            f"WAL {wal_size / 1e6:.1f} MB")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*", default=list(DEFAULT),
                    help="registered rulesets (default: atlantis altassar)")
    ap.add_argument("--games", type=int, default=2, help="games per ruleset")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games: expected a whole number of at least 1")
    lines = [report(name, args.games, args.seed) for name in args.rulesets]
    print()
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
