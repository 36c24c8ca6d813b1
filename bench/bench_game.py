"""Milliseconds to adjudicate one phase of any registered game and render all its reports:
whole games through ``Referee``, played by the ruleset's own bots.

Plays ``--games`` complete games of ruleset NAME (its largest number of players), each in its
own temporary referee home, with the ruleset's random legal players (``bot_orders`` on each
owed role's own view; for a ruleset that writes ``propose``, the kit's generic random bot).
Every window's orders are signed pbem envelopes (Ed25519) handed to ``Referee.ingest`` as bare
order files (no MIME: bench_ingest.py measures mail). Each ``Referee.process(game)`` call that
resolves exactly one phase is timed, wall and CPU (``time.process_time``: the whole judge runs
in this one process): decrypting the state and the orders, re-deriving the dice, resolving,
logging, sealing, opening the next window or ending the game, storing every reader's report
context and queueing the mail; then rendering every reader's report as text and HTML from its
stored context, as delivery does (:func:`render_reports`). Everything is seeded, so each game is played
``--repeat`` times and each phase counts its fastest time (as bench_phase.py does).

Run from the repository root with the project installed::

    python bench/bench_game.py attackforce [--games 3] [--seed 1] [--repeat 3]

Prints ``NAME phase: N phases, median X ms, p90 Y ms, worst Z ms (PHASE); CPU median A ms,
worst B ms`` and the number of windows per game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from bench_ingest import make_seats, order_text
from pbem.crypto.envelope import sign_text
from pbem.demo import Clock, SeededEntropy
from pbem.engine import registry
from pbem.engine.creation import GameSpec
from pbem.engine.home import Home
from pbem.engine.service import Referee
from pbem.mail.sources import Incoming

START = datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)
MAX_WINDOWS = 2000


def render_reports(referee: Referee, game_id: str) -> int:
    """Render the latest report of every reader of ``game_id`` (each role and the public one),
    text and HTML, as delivery does (``pbem send`` renders a report from its stored context:
    pbem.engine.reportstore.report_parts); returns how many were rendered. Timed with the
    phase, so a phase's figure stays "adjudicate + every report" (issue 11)."""
    from pbem.engine.reportstore import report_parts
    from pbem.store import repo
    from pbem.store.reports import find_report

    n, cache = 0, {}  # one cache for the phase's readers, as a delivery run keeps one
    with referee.db.read() as s:
        latest = find_report(s, game_id, "*")  # the phase just resolved (delivery: the outbox
        if latest is None:                     # row's report_seq)
            return 0
        for role in [p.role for p in repo.players(s, game_id)] + ["*"]:
            n += len(report_parts(s, referee.sealer, game_id, role, latest.phase_seq, cache))
    return n


def play(name: str, root: Path, seed: int,
         on_phase=None, options: dict | None = None) -> list[tuple[float, float, str]]:
    """Play one game of ruleset ``name``; return ``[(wall ms, CPU ms, phase id)]`` of the
    calls that resolved exactly one phase. ``on_phase(referee, game_id, window)``, if given, is
    called after each window is processed (``window``: the status dict of the window just
    resolved) and says whether that phase counts (bench_altassar.py fills the map after the
    Signal Posts and counts only the game turns). ``options``: the game's options (GameSpec;
    default none: the ruleset's defaults)."""
    rs = registry.get(name)
    roles = list(rs.role_names[:rs.max_roles])
    seats = make_seats(roles, root)
    by_role = {s.role: s for s in seats}
    clock = Clock(START)
    referee = Referee(Home(root / "home"), clock=clock, entropy=SeededEntropy(seed, "bench"))
    referee.init()
    game_id = f"{name[:3]}-{seed}"
    referee.new_game(GameSpec(ruleset=name, game_id=game_id,
                              players=tuple(s.spec() for s in seats), options=dict(options or {}),
                              referee_address="referee@judge.example"))
    rng = random.Random(seed)
    nonces = SeededEntropy(seed, "nonces")
    times, sent = [], 0
    fingerprint = referee.sealer.referee_signing_key(game_id).public_key().fingerprint
    for _ in range(MAX_WINDOWS):
        window = referee.status(game_id)[0]["window"]
        if window is None:
            break
        items = []
        for role in window["owed"]:
            view, win = referee.view_and_window(game_id, role)
            body = rs.bot_orders(view, win, role, rng)
            text = order_text(game_id, win.turn, win.phase, role, nonces(16).hex(), clock(),
                              body, fingerprint)
            sent += 1
            items.append(Incoming(sign_text(text, by_role[role].key).encode(),
                                  f"bench:{game_id}:{sent}", bare=True))
        clock.advance(2)
        for verdict in referee.ingest(items):
            if verdict.status != "accepted":
                raise RuntimeError(f"bot orders were not accepted: {verdict.summary()}")
        t0, c0 = time.perf_counter(), time.process_time()
        done = referee.process(game_id)
        if done:
            render_reports(referee, game_id)
        wall, cpu = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
        counts = on_phase(referee, game_id, window) if on_phase is not None else True
        if len(done) == 1 and counts:
            times.append((wall, cpu, window["phase_id"]))
        clock.advance(1)
    else:
        raise RuntimeError(f"{name} game {seed} did not end within {MAX_WINDOWS} windows")
    return times


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name", help="a registered ruleset (pbem games)")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3,
                    help="play each (seeded, identical) game this many times; each phase "
                         "counts its fastest time")
    args = ap.parse_args(argv)
    all_times, lengths = [], []
    for g in range(args.games):
        passes = []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory(prefix=f"pbem-bench-{args.name}-") as tmp:
                passes.append(play(args.name, Path(tmp), args.seed + g))
        if len({tuple(p for *_, p in run) for run in passes}) != 1:
            raise RuntimeError("the repeated games differ: the benchmark is not reproducible")
        for i in range(len(passes[0])):
            best = min(run[i] for run in passes)
            all_times.append((best[0], min(run[i][1] for run in passes), best[2]))
        lengths.append(len(passes[0]))
    wall = sorted(t for t, _, _ in all_times)
    cpu = sorted(c for _, c, _ in all_times)
    worst = max(all_times)
    p90 = wall[int(0.9 * (len(wall) - 1))]
    print(f"{args.name} phase: {len(wall)} phases, median {statistics.median(wall):.1f} ms, "
          f"p90 {p90:.1f} ms, worst {worst[0]:.1f} ms ({worst[2]}); CPU median "
          f"{statistics.median(cpu):.1f} ms, worst {cpu[-1]:.1f} ms")
    print(f"phases per game: {', '.join(map(str, lengths))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
