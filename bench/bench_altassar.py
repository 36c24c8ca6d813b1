"""Milliseconds to adjudicate one Escape from Altassar phase and render all its reports, with all
54 counters on the map (issue 3: "bench/ reports the phase time for Altassar with all 54
counters on the map; same targets as before": median and worst under 50 ms).

Each game is created through ``Referee``; after the Signal Posts window the benchmark puts every
counter on the map (the 35 Spikus units on free hexes near the prison, Trip Nets carried by
soldiers, every Confederation counter that the Breakout lost back on a free hex), so each phase
works on the full counter mix (the 54th counter, the Game Turn marker, is not a unit: 4.2).
Then the ruleset's random players play every window to the end, orders signed (Ed25519) and
ingested as bare order files, and each ``Referee.process`` call is timed: decrypting, resolving
(moves, Signal Posts, nets, attacks with evasion, retreats, Renewal), logging, sealing, and
rendering every report as text and HTML with its SVG map. Everything is seeded, so each game
is played ``--repeat`` times and each phase counts its fastest time (as bench_phase.py does).

Run from the repository root with the project installed::

    python bench/bench_altassar.py [--games 3] [--seed 1] [--repeat 3]

Prints ``altassar phase: N phases, median X ms, p90 Y ms, worst Z ms (PHASE); CPU median A ms,
worst B ms`` (CPU: ``time.process_time`` of each call, the fastest of the passes per phase, as
bench_game.py does) and the number of counters on the map when the timed phases began.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import bench_game
from pbem.engine.gamestate import GameContext
from pbem.engine.service import Referee
from pbem.store import repo



def fill_map(referee: Referee, game_id: str) -> int:
    """Put every counter on the map (module docstring); return how many are on it."""
    with referee.db.write() as s:
        ctx = GameContext.load(s, referee.sealer, repo.get_game(s, game_id))
        st = ctx.state
        used = {r["hex"] for r in st.markers.values() if r["where"] == "map"}
        used |= {r["hex"] for r in st.spikus.values() if r["where"] == "map"}
        free = [h for h in st.hexmap.labels() if h not in used
                and st.hexmap.terrain(h) != "prison" and 3 <= int(h[:2]) <= 12]
        soldiers = []
        for u, r in sorted(st.spikus.items()):
            if r["where"] == "box" and r["kind"] != "trip-net":
                r["hex"], r["where"] = free.pop(0), "map"
                if r["kind"] == "soldier":
                    soldiers.append(u)
        for i, (u, r) in enumerate(sorted((u, r) for u, r in st.spikus.items()
                                          if r["kind"] == "trip-net")):
            r["carrier"] = soldiers[i]
            r["hex"], r["where"] = st.spikus[soldiers[i]]["hex"], "map"
        far = [h for h in st.hexmap.labels() if h not in used and int(h[:2]) >= 14]
        for m, r in sorted(st.markers.items()):
            if r["where"] != "map":
                r["where"], r["hex"] = "map", far.pop(0)
        ctx.save_state()
        on = sum(1 for r in st.spikus.values() if r["where"] == "map")
        return on + sum(1 for r in st.markers.values() if r["where"] == "map")


def play(root: Path, seed: int) -> tuple[list, int]:
    """Play one game (bench_game.play, the map filled after the Signal Posts); return
    ([(wall ms, phase id, CPU ms)] of the game turns' phases, counters on the map when timing
    began)."""
    counters = [0]

    def on_phase(referee, game_id, window) -> bool:
        if window["phase_id"] == "0.posts":
            counters[0] = fill_map(referee, game_id)
        return window["turn"] >= 1

    times = bench_game.play("altassar", root, seed, on_phase=on_phase)
    return [(wall, phase, cpu) for wall, cpu, phase in times], counters[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3,
                    help="play each (seeded, identical) game this many times; each phase "
                         "counts its fastest time, which removes most of the noise of other "
                         "processes")
    args = ap.parse_args(argv)
    all_times, counters, cpus = [], [], []
    for g in range(args.games):
        passes = []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory(prefix="pbem-bench-alt-") as tmp:
                times, n = play(Path(tmp), args.seed + g)
                passes.append(times)
        if len({tuple(p for _, p, _ in times) for times in passes}) != 1:
            raise RuntimeError("the repeated games differ: the benchmark is not reproducible")
        all_times += [min(run[i] for run in passes) for i in range(len(passes[0]))]
        cpus += [min(run[i][2] for run in passes) for i in range(len(passes[0]))]
        counters.append(n)
    ms = sorted(t for t, *_ in all_times)
    worst = max(all_times)
    p90 = ms[int(0.9 * (len(ms) - 1))]
    print(f"altassar phase: {len(ms)} phases, median {statistics.median(ms):.1f} ms, "
          f"p90 {p90:.1f} ms, worst {worst[0]:.1f} ms ({worst[1]}); CPU median "
          f"{statistics.median(cpus):.1f} ms, worst {max(cpus):.1f} ms")
    print(f"counters on the map when timing began: {', '.join(map(str, counters))} "
          "(of 53 units; the 54th counter is the Game Turn marker)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
