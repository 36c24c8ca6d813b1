"""Milliseconds to adjudicate one phase and render all its reports: whole games through ``Referee``.

Plays complete Escape from Atlantis games (ruleset ``atlantis``; by default two 3-player and
two 4-player games) with the ruleset's random legal players (``bot_orders`` on each role's
own view), each game in its own temporary referee home. Every window's orders are signed pbem
envelopes (Ed25519) handed to ``Referee.ingest`` as bare order files, which skips MIME (this
benchmark is about adjudication; bench_ingest.py measures mail); optional senders (standing
orders) join at random as in ``pbem demo``. Then each ``Referee.process(game)`` call is timed:
that is decrypting the state and the orders, re-deriving the dice, resolving, logging,
sealing the new state, opening the next window (or ending the game and revealing the hidden
draws), storing every reader's report context sealed, queueing the report mail and
committing; then, in the same timed span, rendering every player's and the public report as
text and HTML (with its SVG map) from its stored context, as delivery does (since issue 11 a
phase stores what its reports are made from and ``pbem send`` renders them:
bench_game.render_reports).

Everything is seeded (referee entropy, the bots' choices, keys and nonces): the same
``--seed`` plays the same games. Each game is played ``--repeat`` times (default 3) and each
phase counts its fastest time, which removes most of the noise of other processes on the
machine while keeping what the phase itself costs (a WAL checkpoint that falls in a phase falls
in it on every pass). ``--profile`` replays the games to find where the time goes.

The seats, the referee home, the order text, the stage timers and the profile printing come from
bench_ingest.py in this folder (Python puts the script's folder on ``sys.path``).

Run from the repository root with the project installed::

    python bench/bench_phase.py [--games3 2] [--games4 2] [--repeat 3] [--seed 1]
                                [--profile [--top 5]]

Prints ``phase: N phases, median X ms, p90 Y ms, worst Z ms (GAME PHASE, K players)`` (wall
time) with the CPU-time median and worst, the same per player count, the slowest phases, and
the median and worst of the single (not best-of) calls. Only calls that resolve exactly one
phase are counted (a call that resolves two windows in a row is reported on its own line).
With ``--profile`` it replays every game with wall-clock timers on the stages of
``process`` (per phase: ms, share, calls, us per call; and the slowest phases stage by stage
beside the median), then replays the games holding the ``--top`` slowest phases with cProfile
running during those phases only.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from bench_game import render_reports
from bench_ingest import (Seat, StageTimer, make_seats, new_referee, order_text, print_profile,
                          timed_stages)
from pbem.crypto.envelope import sign_text
from pbem.demo import Clock, SeededEntropy
from pbem.engine import registry
from pbem.mail.sources import Incoming

RULESET = "atlantis"
START = datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)
TARGET_MS = 50.0
OPTIONAL_SENDER_CHANCE = 0.15  # as pbem.demo: a role that may send standing orders does so
MAX_WINDOWS = 10_000


@dataclass
class Sample:
    """One timed ``Referee.process`` call: the game, its player count, the phases it resolved,
    wall and CPU milliseconds, (when a StageTimer ran) seconds per stage label, and the
    milliseconds of each full (generation 2) garbage collection that ran during the call."""

    game: str
    players: int
    phases: list
    wall_ms: float
    cpu_ms: float
    stages: dict = field(default_factory=dict)
    gc_pauses: list = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.game} {'+'.join(self.phases)}"


@dataclass
class GamePlay:
    """How one game is played: its id, seats and seed; ``watch`` holds the phase ids whose
    ``process`` call is to be profiled (by ``profiler``); ``timer``, a StageTimer, is enabled
    during every ``process`` call and disabled otherwise."""

    game_id: str
    roles: list
    seed: int
    watch: set = field(default_factory=set)
    profiler: cProfile.Profile | None = None
    timer: StageTimer | None = None


class FullCollections:
    """Milliseconds of every full (generation 2) garbage collection, through ``gc.callbacks``,
    while installed (``with FullCollections() as pauses: ...``; ``pauses.ms`` grows)."""

    def __init__(self) -> None:
        self.ms: list[float] = []
        self._start = 0.0

    def _callback(self, phase: str, info: dict) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.ms.append((time.perf_counter() - self._start) * 1e3)

    def __enter__(self) -> "FullCollections":
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc) -> None:
        gc.callbacks.remove(self._callback)


def play_game(root: Path, play: GamePlay) -> list[Sample]:
    """Play ``play``'s game to its end in a fresh home under ``root``; one Sample per
    ``Referee.process`` call. Raises RuntimeError if orders are refused or the game stalls."""
    rs = registry.get(RULESET)
    home = root / f"home-{play.game_id}"
    keys = root / f"keys-{play.game_id}"
    keys.mkdir(parents=True, exist_ok=True)
    seats: list[Seat] = make_seats(play.roles, keys)
    by_role = {s.role: s for s in seats}
    clock = Clock(START)
    if play.timer is not None:
        play.timer.enabled = False
    referee = new_referee(home, seats, clock, seed=play.seed, game_id=play.game_id)
    rng = random.Random(play.seed)
    nonces = SeededEntropy(play.seed, "bench-nonces")
    samples: list[Sample] = []
    sent = 0
    fingerprint = referee.sealer.referee_signing_key(play.game_id).public_key().fingerprint
    for _ in range(MAX_WINDOWS):
        window = referee.status(play.game_id)[0]["window"]
        if window is None:
            break
        senders = list(window["owed"])
        senders += [r for r in window["optional"] if rng.random() < OPTIONAL_SENDER_CHANCE]
        items = []
        for role in senders:
            view, win = referee.view_and_window(play.game_id, role)
            body = rs.bot_orders(view, win, role, rng)
            text = order_text(play.game_id, win.turn, win.phase, role, nonces(16).hex(),
                              clock(), body, fingerprint)
            sent += 1
            items.append(Incoming(sign_text(text, by_role[role].key).encode(),
                                  f"bench:{play.game_id}:{sent}", bare=True))
        clock.advance(2)
        for verdict in referee.ingest(items):
            if verdict.status != "accepted":
                raise RuntimeError(f"bot orders were not accepted: {verdict.summary()}")
        profiler = play.profiler if window["phase_id"] in play.watch else None
        if play.timer is not None:
            before = play.timer.snapshot()
            play.timer.enabled = True
        if profiler is not None:
            profiler.enable()
        with FullCollections() as collections:
            start, cpu_start = time.perf_counter(), time.process_time()
            done = referee.process(play.game_id)
            if done:  # every report rendered, as delivery renders it (bench_game.py)
                render_reports(referee, play.game_id)
            wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        if profiler is not None:
            profiler.disable()
        stages = {}
        if play.timer is not None:
            play.timer.enabled = False
            stages = {label: seconds - before.get(label, (0, 0.0))[1]
                      for label, (_calls, seconds) in play.timer.snapshot().items()}
        if not done:
            raise RuntimeError(f"game {play.game_id} stalled in window {window['phase_id']}")
        samples.append(Sample(play.game_id, len(play.roles), [d.phase for d in done],
                              wall * 1e3, cpu * 1e3, stages, collections.ms))
        clock.advance(1)
    else:
        raise RuntimeError(f"game {play.game_id} did not end within {MAX_WINDOWS} windows")
    referee.db.dispose()
    return samples


def best_of(passes: list[list[Sample]]) -> list[Sample]:
    """Per process call, the fastest of the passes (wall and CPU each at their minimum): the
    games are deterministic, so pass ``r`` call ``i`` is the same phase in every pass; what
    differs is the machine's noise (other processes, the scheduler). Raises RuntimeError if the
    passes did not play the same phases."""
    first = passes[0]
    for other in passes[1:]:
        if [s.label for s in other] != [s.label for s in first]:
            raise RuntimeError("the passes played different phases: the games are not "
                               "deterministic, so phases cannot be compared across passes")
    out = []
    for same in zip(*passes):
        out.append(Sample(same[0].game, same[0].players, same[0].phases,
                          min(s.wall_ms for s in same), min(s.cpu_ms for s in same)))
    return out


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, linear between closest ranks."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    pos = (len(ordered) - 1) * q
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def summary(name: str, samples: list[Sample]) -> str:
    """``NAME: N phases, median, p90, worst ms (where)`` over single-phase samples."""
    walls = [s.wall_ms for s in samples]
    worst = max(samples, key=lambda s: s.wall_ms)
    cpus = [s.cpu_ms for s in samples]
    return (f"{name}: {len(samples)} phases, median {statistics.median(walls):.1f} ms, "
            f"p90 {percentile(walls, 0.9):.1f} ms, worst {worst.wall_ms:.1f} ms "
            f"({worst.label}, {worst.players} players); CPU median "
            f"{statistics.median(cpus):.1f} ms, worst {max(cpus):.1f} ms")


PHASE_STAGES = [
    # (module or class path, attribute, label, indent); see bench_ingest.StageTimer
    ("pbem.engine.adjudicate", "_process_one", "process one phase (adjudicate._process_one)", 1),
    ("pbem.engine.gamestate:GameContext", "load", "load + unseal state (GameContext.load)", 2),
    ("pbem.engine.adjudicate", "_read_orders", "unseal + parse orders (_read_orders)", 2),
    ("pbem.games.atlantis.ruleset:AtlantisRuleset", "resolve", "ruleset.resolve", 2),
    ("pbem.engine.gamestate:GameContext", "log", "log lines (GameContext.log)", 2),
    ("pbem.engine.gamestate:GameContext", "store_events", "store events (store_events)", 2),
    ("pbem.engine.gamestate:GameContext", "save_state", "seal state (save_state)", 2),
    ("pbem.engine.gamestate:GameContext", "open_phase", "open next window (open_phase)", 2),
    ("pbem.engine.adjudicate", "_end_game", "end of game reveal (_end_game)", 2),
    ("pbem.engine.publish", "publish_phase", "reports for every reader (publish_phase)", 2),
    ("pbem.games.atlantis.ruleset:AtlantisRuleset", "view", "ruleset.view", 3),
    ("pbem.games.atlantis.ruleset:AtlantisRuleset", "text_map", "ruleset.text_map", 3),
    ("pbem.games.atlantis.ruleset:AtlantisRuleset", "template", "ruleset.template", 3),
    ("pbem.engine.publish", "report_context", "report_context", 3),
    ("pbem.reports.render", "render_text", "render text report (Jinja)", 3),
    ("pbem.reports.svgmap", "map_for", "SVG map (map_for)", 3),
    ("pbem.reports.render", "render_html", "render HTML report (Jinja)", 3),
    ("pbem.engine.publish", "_queue_report", "queue report mail (Outbox row)", 3),
    ("pbem.crypto.seal:Sealer", "seal", "AES-GCM seal (Sealer.seal, all callers)", 1),
    ("pbem.crypto.seal:Sealer", "open", "AES-GCM open (Sealer.open, all callers)", 1),
    ("sqlalchemy.orm.session:Session", "flush", "ORM flush (Session.flush, all callers)", 1),
    ("sqlalchemy.engine.default:DefaultDialect", "do_commit", "SQLite COMMIT", 1),
]


def plays(args) -> list[GamePlay]:
    """The games to play: ``--games3`` 3-player and ``--games4`` 4-player, seeded in turn."""
    rs = registry.get(RULESET)
    out = []
    for players, count in ((3, args.games3), (4, args.games4)):
        for n in range(count):
            seed = args.seed * 1000 + players * 100 + n
            out.append(GamePlay(f"atl-{players}p-{n + 1}", list(rs.role_names[:players]), seed))
    return out


def print_slowest_stages(replay: list[Sample], best: list[Sample], top: int) -> None:
    """Stage milliseconds, as replayed, of the ``top`` slowest phases of the timed pass
    (``best``: best-of-passes times, so the phases that are slow in themselves) beside the
    median phase."""
    replayed = {s.label: s for s in replay}
    slowest = [replayed[s.label] for s in sorted(best, key=lambda s: s.wall_ms, reverse=True)
               if s.label in replayed][:top]
    best_ms = {s.label: s.wall_ms for s in best}
    print(f"\nthe {len(slowest)} slowest phases of the timed pass, stage by stage as replayed "
          f"(ms; 'median' is the median over all {len(replay)} replayed calls of each stage)")
    heads = [s.label.split(" ", 1)[1] + f" ({s.game.split('-')[1]})" for s in slowest]
    print(f"  {'stage':<46} {'median':>8} " + " ".join(f"{h[:16]:>16}" for h in heads))
    print(f"  {'timed pass, best of all passes (wall)':<46} "
          f"{statistics.median(best_ms.values()):>8.1f} "
          + " ".join(f"{best_ms[s.label]:>16.1f}" for s in slowest))
    print(f"  {'replay (wall)':<46} {statistics.median(s.wall_ms for s in replay):>8.1f} "
          + " ".join(f"{s.wall_ms:>16.1f}" for s in slowest))
    print(f"  {'replay (CPU)':<46} {statistics.median(s.cpu_ms for s in replay):>8.1f} "
          + " ".join(f"{s.cpu_ms:>16.1f}" for s in slowest))
    for _target, _attr, label, indent in PHASE_STAGES:
        median = statistics.median(s.stages.get(label, 0.0) * 1e3 for s in replay)
        name = "  " * indent + label
        print(f"  {name[:46]:<46} {median:>8.1f} "
              + " ".join(f"{s.stages.get(label, 0.0) * 1e3:>16.1f}" for s in slowest))


def profile_phases(tmp: Path, games: list[GamePlay], samples: list[Sample],
                   single: list[Sample], top: int) -> None:
    """Replay every game with stage timers (wall clock, no profiler), then replay the games
    holding the ``top`` slowest phases of ``single`` with cProfile on those phases only."""
    timer = timed_stages(PHASE_STAGES)
    try:
        replay: list[Sample] = []
        for play in games:
            play.timer = timer
            replay += play_game(tmp / "replay", play)
            play.timer = None
    finally:
        timer.restore()
    if [s.label for s in replay] != [s.label for s in samples]:
        print("warning: the replay did not play the same phases as the timed pass",
              file=sys.stderr)
    wall = sum(s.wall_ms for s in replay) / 1e3
    print(f"\nwhere the time goes: the {len(replay)} process calls replayed, {wall:.2f} s wall "
          f"(wall-clock timers, no profiler)")
    timer.report(wall, len(replay), "phase",
                 [(label, indent) for _t, _a, label, indent in PHASE_STAGES])
    print_slowest_stages(replay, single, top)

    slowest = sorted(single, key=lambda s: s.wall_ms, reverse=True)[:top]
    watch: dict[str, set] = {}
    for s in slowest:
        watch.setdefault(s.game, set()).add(s.phases[0])
    profiler = cProfile.Profile()
    profiled: list[Sample] = []
    for play in games:
        if play.game_id not in watch:
            continue
        play.watch, play.profiler = watch[play.game_id], profiler
        profiled += [s for s in play_game(tmp / "profiled", play)
                     if s.phases[0] in watch[play.game_id]]
    print(f"\nprofiled: the {len(profiled)} slowest phases of the timed pass, replayed under "
          f"cProfile: " + ", ".join(f"{s.label} {s.wall_ms:.0f} ms" for s in profiled)
          + " (with profiler overhead)")
    print_profile(profiler, len(profiled), unit="phase", top=25)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games3", type=int, default=2, help="3-player games (default 2)")
    parser.add_argument("--games4", type=int, default=2, help="4-player games (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every game (default 1)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="play every game this many times; each phase counts its best time "
                             "(default 3)")
    parser.add_argument("--profile", action="store_true",
                        help="replay the games with a stage breakdown and profile the slowest")
    parser.add_argument("--top", type=int, default=5, help="slowest phases to profile (default 5)")
    args = parser.parse_args(argv)

    games = plays(args)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if not games:
        parser.error("no games to play: give --games3 or --games4 above 0")
    with tempfile.TemporaryDirectory(prefix="pbem-bench-phase-") as tmp:
        start = time.perf_counter()
        passes = [[s for play in games for s in play_game(Path(tmp) / f"pass{r}", play)]
                  for r in range(args.repeat)]
        total = time.perf_counter() - start
        samples = best_of(passes)
        single = [s for s in samples if len(s.phases) == 1]
        multi = [s for s in samples if len(s.phases) > 1]
        print(summary("phase", single) + f"  (target < {TARGET_MS:.0f} ms; each phase best of "
              f"{len(passes)})")
        for players in sorted({s.players for s in single}):
            group = [s for s in single if s.players == players]
            games_n = len({s.game for s in group})
            print("  " + summary(f"{players} players, {games_n} games", group))
        for s in multi:
            print(f"  one call resolved {len(s.phases)} phases ({s.label}) in {s.wall_ms:.1f} ms "
                  f"(not counted above)")
        slow = sorted(single, key=lambda s: s.wall_ms, reverse=True)[:max(args.top, 5)]
        print("  slowest: " + ", ".join(f"{s.label} {s.wall_ms:.1f} ms" for s in slow))
        raw = [s for p in passes for s in p if len(s.phases) == 1]
        noisy = max(raw, key=lambda s: s.wall_ms)
        print(f"  single calls over all {len(passes)} passes: median "
              f"{statistics.median(s.wall_ms for s in raw):.1f} ms, worst {noisy.wall_ms:.1f} ms "
              f"({noisy.label}); {len(games)} games x {len(passes)} passes in {total:.1f} s")
        pauses = [ms for s in raw for ms in s.gc_pauses]
        hit = [s for s in raw if s.gc_pauses]
        if pauses:
            print(f"  full garbage collections (gen 2) inside process calls: {len(pauses)} in "
                  f"{len(hit)} of {len(raw)} calls, pause median {statistics.median(pauses):.1f} "
                  f"ms, worst {max(pauses):.1f} ms; calls with one: median "
                  f"{statistics.median(s.wall_ms for s in hit):.1f} ms, worst "
                  f"{max(s.wall_ms for s in hit):.1f} ms (they fall on other phases in each pass, "
                  f"so the best-of times above leave them out)")
        else:
            print(f"  full garbage collections (gen 2) inside process calls: none")

        if args.profile:
            profile_phases(Path(tmp), games, samples, single, args.top)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as error:  # a failed run: say why, exit 1 (run_all reports it)
        print(f"bench_phase: {error}", file=sys.stderr)
        sys.exit(1)
