"""Time verifying a public log of ``--rolls`` rolls (default 1,000,000): ``verify_log`` in this
process, and ``pbem verify FILE`` as the referee runs it, with its peak memory.

Builds, in a temporary file, the log of one game with ``rolls / 100`` phases of 100 d6 rolls each,
with real commitments and reveals (a dice-commit, two orders lines, 100 roll lines and a
dice-reveal per phase, with 32-byte seeds and two roles' nonces). Then:

- times ``pbem.verify.verify_log`` over the open file in this process, best of ``--repeat``;
- runs ``pbem verify FILE`` (the console script beside this interpreter, else ``python -m
  pbem.cli``) ``--repeat`` times, each in a fresh process, and prints the best wall time, that
  run's CPU time (user + system) and the largest peak resident set of the runs (the child's
  ``ru_maxrss`` from ``os.wait4``: the whole process, interpreter and imports included).

Targets (issue 11): ``pbem verify`` of a 1,000,000-roll log in at most 5 s and 200 MB.

Run from the repository root with the project installed::

    python bench/bench_verify.py [--rolls 1000000] [--repeat 3]

Prints ``verify N rolls: X s`` (in process), then ``pbem verify N rolls: wall X s, CPU Y s, peak
RSS Z MB``, and the build time and the file size.
"""

from __future__ import annotations

import argparse
import os
import resource
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pbem.dice import DiceStream, commitment, new_seed
from pbem.ledger import (Ledger, dice_commit_line, dice_reveal_line, orders_line, roll_line,
                         utc_stamp)
from pbem.verify import verify_log

GAME = "bench-1"
ROLLS_PER_PHASE = 100
ROLES = ("blue", "red")


def build_log(path: str, rolls: int = 100_000) -> int:
    """Write the benchmark log of ``rolls`` rolls (rounded up to a whole phase of
    :data:`ROLLS_PER_PHASE`) to ``path``; return the number of rolls written."""
    ledger = Ledger()
    at = utc_stamp()
    written = 0
    phases = -(-rolls // ROLLS_PER_PHASE)
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        def put(obj: dict) -> None:
            obj["at"] = at
            out.write(ledger.append(obj) + "\n")

        for p in range(phases):
            phase = f"{p // 2 + 1}.{ROLES[p % 2]}"
            seed = new_seed()
            put(dice_commit_line(GAME, phase, commitment(seed)))
            nonces = {role: secrets.token_hex(16) for role in ROLES}
            for role in ROLES:
                put(orders_line(GAME, phase, role, secrets.token_hex(32), at))
            dice = DiceStream(seed, GAME, phase, nonces)
            for i in range(ROLLS_PER_PHASE):
                dice.roll(6, f"attack {i} on 0708, 3-1")
            for roll in dice.rolls:
                put(roll_line(GAME, phase, roll))
            written += len(dice.rolls)
            put(dice_reveal_line(GAME, phase, seed, nonces))
    return written


def pbem_command() -> list[str]:
    """The ``pbem`` console script beside this interpreter, or ``python -m pbem.cli``."""
    script = Path(sys.executable).with_name("pbem")
    if script.exists():
        return [str(script)]
    found = shutil.which("pbem")
    return [found] if found else [sys.executable, "-m", "pbem.cli"]


def run_cli(path: str) -> tuple[float, float, float, str]:
    """Run ``pbem verify path`` once in a fresh process: ``(wall s, CPU s, peak RSS MB,
    output)``. Raises RuntimeError if it fails."""
    start = time.perf_counter()
    proc = subprocess.Popen(pbem_command() + ["verify", path], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    out = proc.stdout.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"pbem verify failed (exit {proc.returncode}):\n{out}")
    rss_mb = usage.ru_maxrss / 1024  # Linux: kilobytes
    return wall, usage.ru_utime + usage.ru_stime, rss_mb, out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=1_000_000,
                    help="rolls in the log (100 per phase; default 1,000,000)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each measure; the best counts")
    args = ap.parse_args(argv)
    if args.rolls < 1 or args.repeat < 1:
        ap.error("--rolls and --repeat: expected whole numbers of at least 1")
    fd, path = tempfile.mkstemp(prefix="pbem-bench-", suffix=".jsonl")
    os.close(fd)
    try:
        start = time.perf_counter()
        rolls = build_log(path, args.rolls)
        built = time.perf_counter() - start
        best, report = float("inf"), None
        for _ in range(args.repeat):
            start = time.perf_counter()
            with open(path, "rb") as fh:
                report = verify_log(fh, path)
            best = min(best, time.perf_counter() - start)
        assert report is not None
        if not report.ok or report.rolls_verified != rolls:
            print(report.summary(), file=sys.stderr)
            return 1
        print(f"verify {rolls} rolls: {best:.2f} s")
        runs = [run_cli(path) for _ in range(args.repeat)]
        wall, cpu, _, out = min(runs)
        if f"{rolls} rolls verified" not in out:
            print(out, file=sys.stderr)
            return 1
        peak = max(r[2] for r in runs)
        print(f"pbem verify {rolls} rolls: wall {wall:.2f} s, CPU {cpu:.2f} s, "
              f"peak RSS {peak:.0f} MB")
        print(f"  log: {report.lines} lines, {os.path.getsize(path) / 1e6:.1f} MB, built in "
              f"{built:.2f} s")
        print(f"  per line (in process): {best / report.lines * 1e6:.2f} us; this process's "
              f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
        return 0
    finally:
        os.unlink(path)


if __name__ == "__main__":
    sys.exit(main())
