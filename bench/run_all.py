"""Run every benchmark in bench/ and print one table of the results against the targets.

The targets, by the issue that set them:

- issue 11, "A thousand games a night": ``pbem process --due`` over 1,000 due games in at most
  20 s on SQLite, one command, progress shown, and at most 15 s on PostgreSQL with 2 workers
  (bench_due.py); one phase, adjudicated with every report, at most 20 ms of CPU at the median
  and 40 ms at worst, for Escape from Atlantis and Escape from Altassar (bench_phase.py,
  bench_altassar.py); batch ingest at least 1,500 mails/s (bench_ingest.py, the CPU of all its
  processes beside it); ``pbem ingest -`` with one mail, ``pbem status`` and ``pbem process
  --due`` with nothing due at most 0.4 s each (bench_start.py); at most 20 KB stored per phase,
  all roles together (bench_storage.py); ``pbem verify`` of a 1,000,000-roll log in at most 5 s
  and 200 MB (bench_verify.py); the phase that ends a game with a 200,000-line log in at most
  1 s and 200 MB (bench_endgame.py);
- issue 12, Olympica: the same phase targets (<= 20 ms of CPU at the median, 40 ms at worst,
  every report rendered) with every Advanced Scenario counter on the map (bench_olympica.py);
- earlier issues: one phase under 50 ms wall, median and worst (bench_phase.py,
  bench_altassar.py, bench_game.py attackforce); ``pbem --help`` under 0.3 s
  (bench_cold_start.py); ``verify_log`` under 1 s per 100,000 rolls (bench_verify.py).

Before and after, it times a reference workload of code pbem does not change (a new
interpreter importing SQLAlchemy: :func:`machine_reference`) and prints it in the summary's
heading: this machine's speed moves by a quarter or more within an hour, and two runs compare
only beside their references.

Each benchmark runs in its own process, one after the other (never two at once: they would
compete for the two cores), with this interpreter; its output is shown as it comes. Each line
of the table is read from the script's output by a pattern of its own, so a script whose output
changed loses only its own lines. The result column says PASS or MISS; ``not run: WHY`` for a
script that is missing or a measure it could not make (no PostgreSQL server); ``failed`` for a
script that exited with an error or printed no result; with ``--quick``, ``-`` for a target
that holds for the full workload only (the 1,000 games, the 1,000,000 rolls, the 200,000-line
log). Exit status: 0 if every judged line passes, 1 if one misses, 2 if a benchmark failed,
printed no result or was not run.

Run from the repository root with the project installed::

    python bench/run_all.py [--quick] [--profile] [--only bench_due bench_start ...]

``--quick`` runs smaller workloads (one ingest run, one game per player count, one pass, 24
due games, a 100,000-roll log, a 20,000-line log) to check that everything works; its numbers
are noisier. ``--profile`` passes ``--profile`` (and ``--detail``) on, so the output says where
the time goes. ``--only`` runs the named scripts alone.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent

Match = re.Match


@dataclass(frozen=True)
class Line:
    """One row of the table: its label; the regex that finds its result in the script's
    output (searched line by line); ``value(match)`` (a number, or for a row with ``ok`` the
    text judged); the unit; the target and how the value compares with it (``op``: ``<``,
    ``<=`` or ``>=``); ``note(match)``, shown after the value; ``sized``: the target holds for
    the full workload only (not judged with --quick); ``ok``: for a text row, the text that
    passes; ``skip``: a regex whose first group says why the measure was not made."""

    label: str
    pattern: str
    value: Callable[[Match], float | str]
    unit: str
    target: float = 0.0
    op: str = "<"
    note: Callable[[Match], str] | None = None
    sized: bool = False
    ok: str | None = None
    skip: str | None = None

    def judge(self, value: float | str) -> str:
        if self.ok is not None:
            return "PASS" if value == self.ok else "MISS"
        passed = {"<": value < self.target, "<=": value <= self.target,
                  ">=": value >= self.target}[self.op]
        return "PASS" if passed else "MISS"

    def target_text(self) -> str:
        if self.ok is not None:
            return self.unit
        return f"{self.op} {self.target:g} {self.unit}"

    def shown(self, value: float | str) -> str:
        if isinstance(value, str):
            return value
        if self.unit == "mails/s":
            return f"{value:.0f} {self.unit}"
        if self.unit == "s":
            digits = 3 if value < 1 else 2 if value < 10 else 1
            return f"{value:.{digits}f} s"
        return f"{value:.1f} {self.unit}" if value < 100 else f"{value:.0f} {self.unit}"


@dataclass(frozen=True)
class Bench:
    """A benchmark script, its arguments (normal, quick, profile) and its table rows."""

    script: str
    args: tuple
    quick: tuple
    profile: tuple
    lines: tuple


def g(n: int | str, scale: float = 1.0) -> Callable[[Match], float]:
    """The value of regex group ``n`` as a number (times ``scale``)."""
    return lambda m: float(m.group(n)) * scale


def text(fmt: str) -> Callable[[Match], str]:
    """A note: ``fmt`` formatted with the match's groups (a missing group shows as ``?``)."""
    return lambda m: fmt.format(*["?" if x is None else x for x in (m.group(0),) + m.groups()])


# ------------------------------------------------------------------ the scripts and their rows

INGEST = (r"^ingest: (\d+) mails in ([\d.]+) s = (\d+) mails/s.*?CPU ([\d.]+) s = (\d+) mails/s"
          r"(?:.*?judge ([\d.]+) s, readers ([\d.]+) s)?")
PHASE = (r"^{name}: (\d+) phases, median ([\d.]+) ms, p90 ([\d.]+) ms, worst ([\d.]+) ms "
         r"\((.*)\); CPU median ([\d.]+) ms, worst ([\d.]+) ms")
PHASE_WALL = (r"^{name}: (\d+) phases, median ([\d.]+) ms, p90 ([\d.]+) ms, worst ([\d.]+) ms "
              r"\(([^;]*)\)")
DUE = (r"^due {kind}: (\d+) games, (\d+) phases(?: \(expected \d+\))? in ([\d.]+) s wall = "
       r"([\d.]+) phases/s; CPU (.*?); progress: (shown|NOT shown)[^(]*\((?:first line after "
       r"([\d.]+) s)?[^)]*\); (.*?)  \(target")
DUE_SKIP = r"^due {kind}: not run: (.*)$"
START = (r"^start: {label} median ([\d.]+) s, worst ([\d.]+) s, CPU median ([\d.]+) s, worst "
         r"([\d.]+) s")
STORAGE = r"^storage {name}: (\d+) phases, median ([\d.]+) KB, worst ([\d.]+) KB per phase"
VERIFY_CLI = (r"^pbem verify (\d+) rolls: wall ([\d.]+) s, CPU ([\d.]+) s, peak RSS ([\d.]+) "
              r"MB")
VERIFY_IN = r"^verify (\d+) rolls: ([\d.]+) s"
ENDGAME = (r"^endgame (\S+), (\d+)-line log: wall ([\d.]+) s, CPU ([\d.]+) s, peak RSS "
           r"([\d.]+) MB")


def phase_rows(name: str, title: str, cpu_targets: bool) -> tuple:
    """The wall rows of issue 10 (< 50 ms) and, for Atlantis, Altassar, Olympica and Atalix,
    the CPU rows of issues 11 to 13 (<= 20 ms median, <= 40 ms worst)."""
    full = PHASE.format(name=name)
    rows = (Line(f"{title}: median", PHASE_WALL.format(name=name), g(2), "ms", 50),
            Line(f"{title}: worst", PHASE_WALL.format(name=name), g(4), "ms", 50,
                 note=text("{5}")))
    if cpu_targets:
        rows += (Line(f"{title}: CPU median", full, g(6), "ms", 20, "<="),
                 Line(f"{title}: CPU worst", full, g(7), "ms", 40, "<="))
    return rows


def due_rows() -> tuple:
    sqlite, pg = DUE.format(kind="sqlite"), DUE.format(kind=r"postgresql \d+ \w+")
    note = text("{2} phases, {4} phases/s; CPU {5}; {8}")
    return (
        Line("process --due, 1,000 due games, SQLite, one command", sqlite, g(3), "s", 20, "<=",
             note=note, sized=True),
        Line("process --due, SQLite: progress shown as it goes", sqlite, lambda m: m.group(6),
             "shown", note=text("first line after {7} s of {3} s"), sized=True, ok="shown"),
        Line("process --due, 1,000 due games, PostgreSQL, 2 workers", pg, g(3), "s", 15, "<=",
             note=note, sized=True, skip=DUE_SKIP.format(kind=r"postgresql \d+ \w+")),
    )


def start_rows() -> tuple:
    rows = []
    for label, shown in (("pbem ingest - (one mail)", "one message piped into pbem ingest -"),
                         ("pbem status", "pbem status"),
                         ("pbem process --due (none due)", "pbem process --due, nothing due")):
        rows.append(Line(f"{shown}: median", START.format(label=re.escape(label)), g(1), "s",
                         0.4, "<=", note=text("worst {2} s; CPU median {3} s")))
    return tuple(rows)


BENCHES = (
    Bench("bench_ingest.py", (), ("--runs", "1"), ("--profile",), (
        Line("batch ingest + verify, 1,000 signed mails", INGEST, g(3), "mails/s", 1500, ">=",
             note=text("CPU of all processes {4} s = {5} mails/s: judge {6} s, readers {7} s")),
    )),
    Bench("bench_phase.py", (), ("--games3", "1", "--games4", "1", "--repeat", "1"),
          ("--profile",), phase_rows("phase", "Atlantis phase, adjudicate + reports", True)),
    Bench("bench_altassar.py", (), ("--games", "1", "--repeat", "1"), (),
          phase_rows("altassar phase", "Altassar phase, all counters on the map", True)),
    Bench("bench_olympica.py", (), ("--games", "1", "--repeat", "1"), ("--profile",),
          phase_rows("olympica phase", "Olympica phase, every Advanced Scenario counter on the "
                     "map", True)),
    Bench("bench_game.py", ("attackforce",), ("--games", "1", "--repeat", "1"), (),
          phase_rows("attackforce phase", "Attack Force phase", False)),
    Bench("bench_game.py", ("atalix",), ("--games", "1", "--repeat", "1"), (),
          phase_rows("atalix phase", "Escape from Atalix phase, 4 players", True)),
    Bench("bench_due.py", (), ("--quick",), (), due_rows()),
    Bench("bench_start.py", (), ("--runs", "3"), ("--detail",), start_rows()),
    Bench("bench_cold_start.py", (), ("--runs", "5"), ("--detail",), (
        Line("pbem --help cold start: median", r"cold start: pbem --help median ([\d.]+) s, "
             r"worst ([\d.]+) s", g(1), "s", 0.3),
        Line("pbem --help cold start: worst", r"cold start: pbem --help median ([\d.]+) s, "
             r"worst ([\d.]+) s", g(2), "s", 0.3),
    )),
    Bench("bench_storage.py", (), ("--games", "1"), (), tuple(
        Line(f"stored bytes per phase, all roles, {name}: worst", STORAGE.format(name=name),
             g(3), "KB", 20, "<=", note=text("median {2} KB over {1} phases"))
        for name in ("atlantis", "altassar"))),
    Bench("bench_verify.py", (), ("--rolls", "100000", "--repeat", "1"), (), (
        Line("pbem verify, 1,000,000-roll log: wall", VERIFY_CLI, g(2), "s", 5, "<=",
             note=text("{1} rolls; CPU {3} s"), sized=True),
        Line("pbem verify, 1,000,000-roll log: peak memory", VERIFY_CLI, g(4), "MB", 200, "<=",
             note=text("peak RSS, {1} rolls"), sized=True),
        Line("verify_log in process, per 100,000 rolls", VERIFY_IN,
             lambda m: float(m.group(2)) * 100_000 / float(m.group(1)), "s", 1.0,
             note=text("{2} s for {1} rolls")),
    )),
    Bench("bench_endgame.py", (), ("--lines", "20000"), (), (
        Line("phase that ends a game, 200,000-line log: wall", ENDGAME, g(3), "s", 1, "<=",
             note=text("{1}, {2} lines; CPU {4} s"), sized=True),
        Line("phase that ends a game, 200,000-line log: peak memory", ENDGAME, g(5), "MB", 200,
             "<=", note=text("peak RSS, {2} lines"), sized=True),
    )),
)


# ------------------------------------------------------------------ running


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
    """Run one script, echoing its output (its error output too, merged in); returns (exit
    status, output, seconds)."""
    cmd = [sys.executable, str(HERE / bench.script), *bench.args, *extra]
    print(f"\n$ {' '.join(cmd)}", flush=True)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=HERE.parent)
    out = []
    assert proc.stdout is not None
    for line in proc.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        out.append(line)
    status = proc.wait()
    return status, "".join(out), time.perf_counter() - start


def last_words(out: str) -> str:
    """The last non-empty line of a script's output (why it failed), shortened."""
    lines = [x.strip() for x in out.splitlines() if x.strip()]
    return (lines[-1][:100] + ("..." if len(lines[-1]) > 100 else "")) if lines else "no output"


def rows_of(bench: Bench, status: int, out: str, quick: bool) -> list[tuple[str, ...]]:
    """(label, measured, target, result, note) of each of the script's rows (module
    docstring)."""
    rows = []
    for line in bench.lines:
        match = re.search(line.pattern, out, re.MULTILINE)
        skipped = re.search(line.skip, out, re.MULTILINE) if line.skip else None
        if match is None and skipped is not None:
            rows.append((line.label, "not run", line.target_text(), "SKIP",
                         skipped.group(1)[:100]))
        elif match is None:
            why = f"exit {status}: {last_words(out)}" if status else "no line matching the pattern"
            rows.append((line.label, "failed" if status else "no result", line.target_text(),
                         "FAIL", why))
        else:
            try:
                value = line.value(match)
                shown = line.shown(value)
                note = line.note(match) if line.note is not None else ""
                result = "-" if quick and line.sized else line.judge(value)
            except (TypeError, ValueError, IndexError) as e:  # an output format changed
                shown, result, note = "unreadable", "FAIL", str(e)
            rows.append((line.label, shown, line.target_text(), result, note))
    return rows


REFERENCE = [sys.executable, "-c", "import sqlalchemy"]
"""The machine's speed reference: a new interpreter importing SQLAlchemy (bytecode cached),
code pbem does not change and most of what a short pbem command costs."""


def machine_reference(runs: int = 9) -> float:
    """Median wall seconds of :data:`REFERENCE` over ``runs`` new processes (after one untimed
    run). Printed before and after the benchmarks: this machine's speed moves by a quarter or
    more from one hour to the next (bench/README.md), and two runs of run_all.py compare only
    beside their references."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(REFERENCE, check=True, env=env)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(REFERENCE, check=True, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def print_table(rows: list, quick: bool, load: tuple[float, float],
                reference: tuple[float, float]) -> None:
    """The summary: one row per line, the notes last."""
    heads = ("benchmark", "measured", "target", "result")
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(heads)]
    print(f"\nsummary ({'quick: - marks a target for the full workload only; ' if quick else ''}"
          f"load average {load[0]:.2f} before, {load[1]:.2f} after; {os.cpu_count()} CPUs; "
          f"machine reference, `python -c 'import sqlalchemy'`: {reference[0]:.3f} s before, "
          f"{reference[1]:.3f} s after)")
    for row in [heads + ("note",)] + rows:
        cells = [f"{c:<{w}}" for c, w in zip(row[:4], widths, strict=True)]
        print(("  " + "  ".join(cells) + "  " + row[4]).rstrip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller workloads, a smoke test")
    parser.add_argument("--profile", action="store_true", help="also print where time goes")
    parser.add_argument("--only", nargs="+", metavar="SCRIPT",
                        help="run only these scripts (bench_due or bench_due.py, ...)")
    args = parser.parse_args(argv)
    benches = BENCHES
    if args.only:
        wanted = {n if n.endswith(".py") else f"{n}.py" for n in args.only}
        unknown = wanted - {b.script for b in BENCHES}
        if unknown:
            parser.error(f"--only: unknown {', '.join(sorted(unknown))}; expected some of "
                         f"{', '.join(b.script for b in BENCHES)}")
        benches = tuple(b for b in BENCHES if b.script in wanted)

    started = datetime.now(timezone.utc)
    load_before = os.getloadavg()
    reference_before = machine_reference()
    print(f"pbem benchmarks, {started:%Y-%m-%d %H:%M} UTC; {revision()}; Python "
          f"{platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()}; load "
          f"average {load_before[0]:.2f}; machine reference {reference_before:.3f} s")
    rows = []
    for bench in benches:
        if not (HERE / bench.script).exists():
            rows += [(line.label, "not run", line.target_text(), "SKIP",
                      f"bench/{bench.script} does not exist") for line in bench.lines]
            continue
        extra = (bench.quick if args.quick else ()) + (bench.profile if args.profile else ())
        status, out, seconds = run(bench, extra)
        print(f"[{bench.script}: exit {status}, {seconds:.0f} s]", flush=True)
        rows += rows_of(bench, status, out, args.quick)

    print_table(rows, args.quick, (load_before[0], os.getloadavg()[0]),
                (reference_before, machine_reference()))
    results = {r[3] for r in rows}
    if results & {"FAIL", "SKIP"}:
        print("not complete: " + ", ".join(sorted({r[0] for r in rows
                                                     if r[3] in ("FAIL", "SKIP")})),
              file=sys.stderr)
        return 2
    return 1 if "MISS" in results else 0


if __name__ == "__main__":
    sys.exit(main())
