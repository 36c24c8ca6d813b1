"""Time ``pbem.verify.verify_log`` on a log of 100,000 rolls.

Builds, in a temporary file, the log of one game with 1,000 phases of 100 d6 rolls each, with real
commitments and reveals (a dice-commit, two orders lines, 100 roll lines and a dice-reveal per phase,
with 32-byte seeds and two roles' nonces), then times ``verify_log`` over the open file, best of 3.

Run from the repository root with the project installed: ``python bench/bench_verify.py``.
Prints ``verify 100000 rolls: 0.xx s`` (and the build time and file size on other lines).
"""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
import time

from pbem.dice import DiceStream, commitment, new_seed
from pbem.ledger import (Ledger, dice_commit_line, dice_reveal_line, orders_line, roll_line,
                         utc_stamp)
from pbem.verify import verify_log

GAME = "bench-1"
PHASES = 1_000
ROLLS_PER_PHASE = 100
ROLES = ("blue", "red")


def build_log(path: str) -> int:
    """Write the benchmark log to ``path``; return the number of rolls written."""
    ledger = Ledger()
    at = utc_stamp()
    rolls = 0
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        def put(obj: dict) -> None:
            obj["at"] = at
            out.write(ledger.append(obj) + "\n")

        for p in range(PHASES):
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
            rolls += len(dice.rolls)
            put(dice_reveal_line(GAME, phase, seed, nonces))
    return rolls


def main() -> int:
    fd, path = tempfile.mkstemp(prefix="pbem-bench-", suffix=".log")
    os.close(fd)
    try:
        start = time.perf_counter()
        rolls = build_log(path)
        built = time.perf_counter() - start
        best = float("inf")
        report = None
        for _ in range(3):
            start = time.perf_counter()
            with open(path, "rb") as fh:
                report = verify_log(fh, path)
            best = min(best, time.perf_counter() - start)
        assert report is not None
        if not report.ok or report.rolls_verified != rolls:
            print(report.summary(), file=sys.stderr)
            return 1
        print(f"verify {rolls} rolls: {best:.2f} s")
        print(f"  log: {report.lines} lines, {os.path.getsize(path) / 1e6:.1f} MB, built in {built:.2f} s")
        print(f"  per line: {best / report.lines * 1e6:.2f} us")
        return 0
    finally:
        os.unlink(path)


if __name__ == "__main__":
    sys.exit(main())
