"""Time the phase that ends a game whose public log has ``--lines`` lines (default 200,000): wall
time, CPU time and peak memory of the ``Referee.process`` call that resolves the last window.

The game is a seeded game of ruleset NAME (default Escape from Atlantis, its largest number of
players) played by the ruleset's random legal players, orders signed and ingested as bare order
files (bench_game.py's machinery). A first pass plays it to its end in a scratch home to learn
how many windows it has. The second pass creates the same game in a fresh home and, at once,
appends to its public log (through ``pbem.store.repo.append_log``, chained from the game's head)
enough lines to bring it to ``--lines`` by the end: phases of a long game, each a dice-commit, an
``orders`` line per role, 100 public d6 rolls, 5 hidden rolls and a dice-reveal with the real
seed and nonces, so that the log stays valid and the end's hidden-reveal re-derives every hidden
roll. Each phase is one ``append_log`` call, so it is stored as a real phase's lines are: one
compressed block (table ``log_block``, pbem.store.logblock), about 1,800 of them. It then
plays every window but the last, ingests the last window's orders, and runs the last
``process`` in a fresh process (``--child``), which times that call alone after opening the
database (``time.perf_counter``, ``time.process_time``) and reports its peak resident set
(``ru_maxrss``: the whole process, interpreter and imports included) and its resident set
before the call. At the end the log is verified with ``pbem.verify.verify_log`` (not timed).

Targets (issue 11): the phase that ends a game with a 200,000-line log in at most 1 s and
200 MB.

Run from the repository root with the project installed::

    python bench/bench_endgame.py [NAME] [--lines 200000] [--seed 1]

Prints ``endgame NAME, 200000-line log: wall X s, CPU Y s, peak RSS Z MB (before the call W
MB)`` and the log's size.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from bench_game import START
from bench_ingest import make_seats, order_text
from pbem.crypto.envelope import sign_text
from pbem.demo import Clock, SeededEntropy
from pbem.engine import registry
from pbem.engine.creation import GameSpec
from pbem.engine.home import Home
from pbem.engine.service import Referee
from pbem.mail.sources import Incoming

MAX_WINDOWS = 2000
ROLLS, HIDDEN = 100, 5
"""Public and hidden rolls of each bulk phase."""


class Game:
    """One seeded game of ruleset ``name`` in the home ``root/home``, played window by window
    as bench_game.py plays it."""

    def __init__(self, name: str, root: Path, seed: int):
        self.rs = registry.get(name)
        roles = list(self.rs.role_names[:self.rs.max_roles])
        self.seats = {s.role: s for s in make_seats(roles, root)}
        self.clock = Clock(START)
        self.referee = Referee(Home(root / "home"), clock=self.clock,
                               entropy=SeededEntropy(seed, "bench"))
        self.referee.init()
        self.game_id = f"{name[:3]}-{seed}"
        self.referee.new_game(GameSpec(ruleset=name, game_id=self.game_id,
                                       players=tuple(s.spec() for s in self.seats.values()),
                                       options={}, referee_address="referee@judge.example"))
        self.rng = random.Random(seed)
        self.nonces = SeededEntropy(seed, "nonces")
        self.fingerprint = self.referee.sealer.referee_signing_key(
            self.game_id).public_key().fingerprint
        self.sent = 0

    def window(self) -> dict | None:
        return self.referee.status(self.game_id)[0]["window"]

    def orders_in(self, window: dict) -> None:
        """Sign and ingest the bots' orders for the open ``window``."""
        items = []
        for role in window["owed"]:
            view, win = self.referee.view_and_window(self.game_id, role)
            body = self.rs.bot_orders(view, win, role, self.rng)
            text = order_text(self.game_id, win.turn, win.phase, role, self.nonces(16).hex(),
                              self.clock(), body, self.fingerprint)
            self.sent += 1
            items.append(Incoming(sign_text(text, self.seats[role].key).encode(),
                                  f"bench:{self.game_id}:{self.sent}", bare=True))
        self.clock.advance(2)
        for verdict in self.referee.ingest(items):
            if verdict.status != "accepted":
                raise RuntimeError(f"bot orders were not accepted: {verdict.summary()}")

    def step(self) -> bool:
        """Play the open window; False when the game has ended (no window)."""
        window = self.window()
        if window is None:
            return False
        self.orders_in(window)
        self.referee.process(self.game_id)
        self.clock.advance(1)
        return True


def windows_of(name: str, root: Path, seed: int) -> tuple[int, int]:
    """(windows, log lines at the end) of the seeded game of ``name``."""
    game = Game(name, root, seed)
    for n in range(MAX_WINDOWS):
        if not game.step():
            return n, len(game.referee.log_lines(game.game_id))
    raise RuntimeError(f"{name} game {seed} did not end within {MAX_WINDOWS} windows")


def bulk_log(referee: Referee, game_id: str, count: int, seed: int, at: datetime) -> int:
    """Append about ``count`` valid log lines to ``game_id`` (module doc); returns how many."""
    from pbem.dice import DiceStream, commitment
    from pbem.ledger import (Ledger, dice_commit_line, dice_reveal_line, orders_line, roll_line,
                             utc_stamp)
    from pbem.store import repo

    entropy = SeededEntropy(seed, "bulk")
    stamp = utc_stamp(at)
    per_phase = 3 + ROLLS + HIDDEN
    written = 0
    with referee.db.write() as s:
        game = repo.get_game(s, game_id)
        roles = sorted(p.role for p in repo.players(s, game_id))
        per_phase += len(roles) - 1
        ledger = Ledger(game.log_head)
        for p in range(max(1, -(-count // per_phase))):
            phase = f"long-{p + 1}"
            seed_bytes = entropy(32)
            nonces = {role: entropy(16).hex() for role in roles}
            objs = [dice_commit_line(game_id, phase, commitment(seed_bytes))]
            objs += [orders_line(game_id, phase, role, entropy(32).hex(), stamp)
                     for role in roles]
            dice = DiceStream(seed_bytes, game_id, phase, nonces)
            for i in range(ROLLS):
                dice.roll(6, f"attack {i} on 0708, 3-1")
            objs += [roll_line(game_id, phase, r) for r in dice.rolls]
            hidden = DiceStream(entropy(32), game_id, phase, nonces, hidden=True)
            for i in range(HIDDEN):
                hidden.roll(6, f"a face-down tile {i}")
            objs += [roll_line(game_id, phase, r, hidden=True) for r in hidden.rolls]
            objs.append(dice_reveal_line(game_id, phase, seed_bytes, nonces))
            lines = []
            for obj in objs:
                obj["at"] = stamp
                lines.append(ledger.append(obj))
            repo.append_log(s, game, lines, ledger.last)
            written += len(lines)
    return written


def child(home: str, game_id: str, now: str, seed: int) -> int:
    """Run the last ``process`` of ``game_id`` (the ``--child`` mode): print one JSON object
    ``{"wall", "cpu", "rss_before", "rss_peak", "ended"}`` (seconds, MB)."""
    from pbem.engine.headers import parse_issued

    when = parse_issued(now)
    referee = Referee(Home(Path(home)), clock=lambda: when,
                      entropy=SeededEntropy(seed, "end"))
    referee.status(game_id)  # opens the database: what a command does before its work
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t0, c0 = time.perf_counter(), time.process_time()
    done = referee.process(game_id)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"wall": wall, "cpu": cpu, "rss_before": before, "rss_peak": peak,
                      "ended": bool(done) and done[-1].ended}))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name", nargs="?", default="atlantis", help="a registered ruleset")
    ap.add_argument("--lines", type=int, default=200_000, help="log lines when the game ends")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--child", nargs=3, metavar=("HOME", "GAME", "NOW"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(*args.child, seed=args.seed)
    if args.lines < 1:
        ap.error("--lines: expected a whole number of at least 1")
    from pbem.engine.headers import format_time
    from pbem.verify import verify_log

    with tempfile.TemporaryDirectory(prefix="pbem-endgame-") as tmp:
        windows, own = windows_of(args.name, Path(tmp) / "first", args.seed)
        game = Game(args.name, Path(tmp) / "second", args.seed)
        start = time.perf_counter()
        added = bulk_log(game.referee, game.game_id, args.lines - own, args.seed, game.clock())
        built = time.perf_counter() - start
        for _ in range(windows - 1):
            if not game.step():
                raise RuntimeError("the game ended earlier than in the first pass")
        game.orders_in(game.window())
        out = subprocess.run(
            [sys.executable, __file__, args.name, "--seed", str(args.seed), "--child",
             str(game.referee.home.path), game.game_id, format_time(game.clock())],
            capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stdout + out.stderr, file=sys.stderr)
            return 1
        got = json.loads(out.stdout.strip().splitlines()[-1])
        if not got["ended"]:
            print("the timed phase did not end the game", file=sys.stderr)
            return 1
        lines = game.referee.log_lines(game.game_id)
        report = verify_log(lines, game.game_id)
        if not report.ok:
            print(report.summary(), file=sys.stderr)
            return 1
    print(f"endgame {args.name}, {len(lines)}-line log: wall {got['wall']:.2f} s, CPU "
          f"{got['cpu']:.2f} s, peak RSS {got['rss_peak']:.0f} MB (before the call "
          f"{got['rss_before']:.0f} MB)")
    print(f"  {windows} windows; {added} lines appended in {built:.1f} s; the log verifies: "
          f"{report.rolls_verified} rolls, {report.hidden_verified} hidden rolls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
