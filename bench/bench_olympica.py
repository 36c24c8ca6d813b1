"""Milliseconds to adjudicate one Olympica phase and render all its reports, with every counter
of the Advanced Scenario on the map (issue 12: "bench/ reports the phase time with every
Advanced Scenario counter on the map, against the same targets as the other games": CPU median
<= 20 ms and worst <= 40 ms, every report rendered).

Each game is created through ``Referee`` with the option ``scenario=advanced`` (4.2: 26 Web
counters, 33 U.N. units). After the Web setup (5.2, every Web counter on the map) and the U.N.
initial drops (5.3, and the Web's compulsion window if one opened), the benchmark puts every
counter on the map, each on the surface of a free clear hex (no counter of either side, no
tunnel), the nearest to the dotted area's centre first: a Web counter the drops' close
assaults removed goes back face down; every U.N. unit still in reserve (or lost in the drops)
goes on a hex at least :data:`MIN_DISTANCE` hexes from the centre, status ``map``,
``dropped`` = 0 (as if dropped in 5.3). Then the ruleset's random players play every window to
the end, orders signed (Ed25519) and ingested as bare order files, and each
``Referee.process`` call of a Game-Turn is timed (the bots' orders are not): decrypting,
resolving (drops, compulsion, movement with close assaults and avalanches, ranged combat with
retreats, tunnels, lifters), logging, sealing, and rendering every report as text and HTML
with its SVG map. Everything is seeded, so each game is played ``--repeat`` times and each
phase counts its fastest time (as bench_altassar.py does).

Run from the repository root with the project installed::

    python bench/bench_olympica.py [--games 3] [--seed 1] [--repeat 3] [--profile]

Prints ``olympica phase: N phases, median X ms, p90 Y ms, worst Z ms (PHASE); CPU median A
ms, worst B ms`` (CPU: ``time.process_time`` of each call, the fastest of the passes per
phase) and the counters on the map when the timed phases began (of 59: 26 Web, 33 U.N.).
``--profile`` then replays the first game under cProfile, the timed calls only, and prints the
top functions, the own time by package and the Olympica functions by cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import tempfile
from pathlib import Path

import bench_game
from bench_ingest import print_profile
from pbem.engine.gamestate import GameContext
from pbem.engine.service import Referee
from pbem.store import repo

OPTIONS = {"scenario": "advanced"}
CENTRE = "1414"
"""The centre of the stand-in map's dotted area (the Generator is set up within it, 5.2)."""
MIN_DISTANCE = 3
"""The U.N. units put on the map stand at least this far from :data:`CENTRE`: near the Web,
so that the game is fought, but not on top of it."""


def fill_map(referee: Referee, game_id: str) -> tuple[int, int]:
    """Put every counter of the scenario on the map (module docstring); return the counters on
    the map, ``(web, un)``."""
    with referee.db.write() as session:
        ctx = GameContext.load(session, referee.sealer, repo.get_game(session, game_id))
        s = ctx.state
        used = {r["hex"] for r in list(s.un.values()) + list(s.web.values())
                if r["status"] == "map"}
        free = sorted((h for h in s.board.labels() if h not in used and h not in s.tunnels
                       and s.board.terrain(h) == "clear"),
                      key=lambda h: (s.board.distance(h, CENTRE), h))
        for _, r in sorted(s.web.items()):  # lost in the initial drops: back, face down
            if r["status"] != "map":
                r.update(status="map", hex=free.pop(0), level="surface", dust=False,
                         face_up=False, kind=None)
        far = [h for h in free if s.board.distance(h, CENTRE) >= MIN_DISTANCE]
        for _, r in sorted(s.un.items()):
            if r["status"] != "map":
                r.update(status="map", hex=far.pop(0), level="surface", dust=False, dropped=0)
        ctx.save_state()
        return (sum(1 for r in s.web.values() if r["status"] == "map"),
                sum(1 for r in s.un.values() if r["status"] == "map"))


def play(root: Path, seed: int,
         profiler: cProfile.Profile | None = None) -> tuple[list, tuple[int, int]]:
    """Play one game (bench_game.play, the map filled once Game-Turn 1 opens); return
    ([(wall ms, phase id, CPU ms)] of the Game-Turns' phases, (Web, U.N.) counters on the map
    when timing began). ``profiler``, if given, runs during the timed calls only (each
    ``Referee.process`` of a Game-Turn and its reports), not the bots nor the filling."""
    counters = [(0, 0)]

    def on_phase(referee, game_id, window) -> bool:
        if window["turn"] == 0 and counters[0] == (0, 0):
            status = referee.status(game_id)[0]["window"]
            if status is not None and status["turn"] >= 1:  # the initial drops are resolved
                counters[0] = fill_map(referee, game_id)
        return window["turn"] >= 1

    if profiler is None:
        times = bench_game.play("olympica", root, seed, on_phase=on_phase, options=OPTIONS)
    else:
        with profiled(profiler, lambda: counters[0] != (0, 0)):
            times = bench_game.play("olympica", root, seed, on_phase=on_phase, options=OPTIONS)
    return [(wall, phase, cpu) for wall, cpu, phase in times], counters[0]


class profiled:
    """A context in which ``Referee.process`` and ``bench_game.render_reports`` run under
    ``profiler`` whenever ``on()`` is true (the patches are undone on leaving)."""

    def __init__(self, profiler: cProfile.Profile, on):
        self.profiler, self.on = profiler, on

    def wrap(self, fn):
        def run(*args, **kwargs):
            if not self.on():
                return fn(*args, **kwargs)
            self.profiler.enable()
            try:
                return fn(*args, **kwargs)
            finally:
                self.profiler.disable()
        return run

    def __enter__(self):
        self.saved = Referee.process, bench_game.render_reports
        Referee.process = self.wrap(Referee.process)
        bench_game.render_reports = self.wrap(bench_game.render_reports)
        return self

    def __exit__(self, *exc):
        Referee.process, bench_game.render_reports = self.saved


def print_olympica(profiler: cProfile.Profile, count: int, top: int = 20) -> None:
    """The functions of pbem/games/olympica by cumulative time, per phase (``count`` phases):
    which of the game's own steps the phase's time goes to."""
    stats = pstats.Stats(profiler).stats
    rows = sorted(((k, v) for k, v in stats.items() if "/pbem/games/olympica/" in k[0]),
                  key=lambda kv: kv[1][3], reverse=True)[:top]
    print(f"\nprofile: pbem/games/olympica functions by cumulative time, over {count} phases")
    print(f"  {'calls':>8} {'own ms/phase':>13} {'cum ms/phase':>13}  function")
    for (file, line, func), (_cc, nc, tt, ct, _callers) in rows:
        where = file.rsplit("/pbem/", 1)[1]
        print(f"  {nc:>8} {tt / count * 1e3:>13.3f} {ct / count * 1e3:>13.3f}  {func} "
              f"({where}:{line})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3,
                    help="play each (seeded, identical) game this many times; each phase "
                         "counts its fastest time, which removes most of the noise of other "
                         "processes")
    ap.add_argument("--profile", action="store_true",
                    help="then replay the first game under cProfile (the timed calls only) "
                         "and print where the time goes")
    args = ap.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        ap.error(f"--games and --repeat must be at least 1, not {args.games} and {args.repeat}")
    all_times, counters, cpus = [], [], []
    for g in range(args.games):
        passes = []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory(prefix="pbem-bench-oly-") as tmp:
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
    print(f"olympica phase: {len(ms)} phases, median {statistics.median(ms):.1f} ms, "
          f"p90 {p90:.1f} ms, worst {worst[0]:.1f} ms ({worst[1]}); CPU median "
          f"{statistics.median(cpus):.1f} ms, worst {max(cpus):.1f} ms")
    print("counters on the map when timing began: "
          + ", ".join(f"{w + u} ({w} Web, {u} U.N.)" for w, u in counters)
          + " (of 59: 26 Web counters, 33 U.N. units)")
    if args.profile:
        profiler = cProfile.Profile()
        with tempfile.TemporaryDirectory(prefix="pbem-bench-oly-") as tmp:
            times, _ = play(Path(tmp), args.seed, profiler)
        print(f"\nprofiled: game {args.seed} replayed, its {len(times)} timed phases under "
              "cProfile (with profiler overhead; the bots are not profiled)")
        print_profile(profiler, len(times), unit="phase", top=25)
        print_olympica(profiler, len(times))
    return 0


if __name__ == "__main__":
    sys.exit(main())
