"""Run every benchmark in bench/ and print one table of the results against the targets.

The targets (the issue "bench/ prints, on this 2-core machine ..."):

- ingest: at least 1,000 signed mails ingested and verified per second (bench_ingest.py);
- adjudicating one phase and rendering all its reports: under 50 ms, median and worst
  (bench_phase.py; bench_altassar.py and bench_game.py attackforce for the other games);
- ``pbem --help`` cold start: under 0.3 s, median and worst (bench_cold_start.py);
- verifying a 100,000-roll public log: under 1 s (bench_verify.py).

Each benchmark runs in its own process, one after the other (never two at once: they would
compete for the two cores), with this interpreter; its output is shown as it comes. The table
says PASS or MISS per line. Exit status: 0 if every line passes, 1 if one misses, 2 if a
benchmark failed or printed no result.

Run from the repository root with the project installed::

    python bench/run_all.py [--quick] [--profile]

``--quick`` runs smaller workloads (one ingest run, one game per player count, one pass) to
check that everything works; its numbers are noisier. ``--profile`` passes ``--profile`` (and
``--detail``) on, so the output says where the time goes.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Line:
    """One row of the table: what was measured, the regex group holding it in the script's
    output, its unit, the target, whether higher is better, and a note shown after the value
    (a format string over the regex groups, such as ``"CPU {4} mails/s"``)."""

    label: str
    group: int
    unit: str
    target: float
    higher_is_better: bool = False
    note: str = ""

    def judge(self, value: float) -> str:
        ok = value >= self.target if self.higher_is_better else value < self.target
        return "PASS" if ok else "MISS"

    def target_text(self) -> str:
        return (">= " if self.higher_is_better else "< ") + f"{self.target:g} {self.unit}"


@dataclass(frozen=True)
class Bench:
    """A benchmark script, its arguments (normal, quick, profile), the regex of its result
    line and the table rows read from it."""

    script: str
    args: tuple
    quick: tuple
    profile: tuple
    pattern: str
    lines: tuple


BENCHES = (
    Bench("bench_ingest.py", (), ("--runs", "1"), ("--profile",),
          r"ingest: (\d+) mails in ([\d.]+) s = (\d+) mails/s.*?CPU [\d.]+ s = (\d+) mails/s",
          (Line("ingest + verify, 1,000 signed mails", 3, "mails/s", 1000, True,
                "CPU {4} mails/s"),)),
    Bench("bench_phase.py", (), ("--games3", "1", "--games4", "1", "--repeat", "1"),
          ("--profile",),
          r"^phase: (\d+) phases, median ([\d.]+) ms, p90 ([\d.]+) ms, worst ([\d.]+) ms "
          r"\(([^)]*)\); CPU median ([\d.]+) ms, worst ([\d.]+) ms",
          (Line("one phase, adjudicate + reports: median", 2, "ms", 50, note="CPU {6} ms"),
           Line("one phase, adjudicate + reports: worst", 4, "ms", 50,
                note="{5}; CPU {7} ms"))),
    Bench("bench_altassar.py", (), ("--games", "1", "--repeat", "1"), (),
          r"^altassar phase: (\d+) phases, median ([\d.]+) ms, p90 ([\d.]+) ms, worst ([\d.]+) ms "
          r"\(([^)]*)\)",
          (Line("Altassar phase, all counters on the map: median", 2, "ms", 50),
           Line("Altassar phase, all counters on the map: worst", 4, "ms", 50, note="{5}"))),
    Bench("bench_game.py", ("attackforce",), ("--games", "1", "--repeat", "1"), (),
          r"^attackforce phase: (\d+) phases, median ([\d.]+) ms, p90 ([\d.]+) ms, worst "
          r"([\d.]+) ms \(([^)]*)\); CPU median ([\d.]+) ms, worst ([\d.]+) ms",
          (Line("Attack Force phase: median", 2, "ms", 50, note="CPU {6} ms"),
           Line("Attack Force phase: worst", 4, "ms", 50, note="{5}; CPU {7} ms"))),
    Bench("bench_cold_start.py", (), ("--runs", "5"), ("--detail",),
          r"cold start: pbem --help median ([\d.]+) s, worst ([\d.]+) s",
          (Line("pbem --help cold start: median", 1, "s", 0.3),
           Line("pbem --help cold start: worst", 2, "s", 0.3))),
    Bench("bench_verify.py", (), (), (),
          r"verify (\d+) rolls: ([\d.]+) s",
          (Line("verify a 100,000-roll log", 2, "s", 1.0),)),
)


def revision() -> str:
    """``pbem at commit abc1234`` (``+ changes`` when the checkout differs from it), read
    with ``git rev-parse`` and ``git status``; ``pbem (no git)`` outside a checkout."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE.parent,
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=HERE.parent, capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "pbem (no git)"
    return f"pbem at commit {head}" + (" + changes" if dirty else "")


def run(bench: Bench, extra: tuple) -> tuple[int, str, float]:
    """Run one script, echoing its output; returns (exit status, stdout, seconds)."""
    cmd = [sys.executable, str(HERE / bench.script), *bench.args, *extra]
    print(f"\n$ {' '.join(cmd)}", flush=True)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=HERE.parent)
    out = []
    assert proc.stdout is not None
    for line in proc.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        out.append(line)
    status = proc.wait()
    return status, "".join(out), time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller workloads, a smoke test")
    parser.add_argument("--profile", action="store_true", help="also print where time goes")
    args = parser.parse_args(argv)

    started = datetime.now(timezone.utc)
    load_before = os.getloadavg()
    print(f"pbem benchmarks, {started:%Y-%m-%d %H:%M} UTC; {revision()}; Python "
          f"{platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()}; load "
          f"average {load_before[0]:.2f}")
    rows, failed = [], []
    for bench in BENCHES:
        extra = (bench.quick if args.quick else ()) + (bench.profile if args.profile else ())
        status, out, seconds = run(bench, extra)
        print(f"[{bench.script}: exit {status}, {seconds:.0f} s]", flush=True)
        match = re.search(bench.pattern, out, re.MULTILINE)
        if status != 0 or match is None:
            failed.append(bench.script)
            for line in bench.lines:
                rows.append((line.label, "failed" if status else "no result", line.target_text(),
                             "FAIL"))
            continue
        groups = ("",) + match.groups()
        for line in bench.lines:
            value = float(match.group(line.group))
            if line.unit == "mails/s":
                shown = f"{value:.0f} {line.unit}"
            elif line.unit == "s":
                shown = f"{value:.3g} {line.unit}"
            else:
                shown = f"{value:.1f} {line.unit}"
            if line.note:
                shown += " (" + line.note.format(*groups) + ")"
            rows.append((line.label, shown, line.target_text(), line.judge(value)))

    load_after = os.getloadavg()
    width = max([len("benchmark")] + [len(r[0]) for r in rows])
    measured_width = max([len("measured")] + [len(r[1]) for r in rows])
    print(f"\nsummary ({'quick, ' if args.quick else ''}load average {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after; {os.cpu_count()} CPUs)")
    print(f"  {'benchmark':<{width}}  {'measured':<{measured_width}}  {'target':<16}  result")
    for label, measured, target, result in rows:
        print(f"  {label:<{width}}  {measured:<{measured_width}}  {target:<16}  {result}")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 2
    return 0 if all(r[3] == "PASS" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
