"""Cold start of the command line: ``pbem --help`` in a fresh process, 10 times.

Runs the installed console script ``pbem`` found next to ``sys.executable`` (or, if there is
none, ``python -m pbem.cli``) with ``--help``, each time in a new process, and measures the
wall time from starting the process to its exit. Checks that every run exits 0 and prints the
usage text. Then runs it once more under ``python -X importtime`` and names the heavy modules
(SQLAlchemy, SQLModel, Alembic, Jinja2, cryptography, pydantic) imported at start, if any: the
CLI must import them inside its commands (HELPER_PREAMBLE "Keep imports at module top light").

Run from the repository root with the project installed::

    python bench/bench_cold_start.py [--runs 10] [--detail]

Prints ``cold start: pbem --help median X.XXX s, worst Y.YYY s (10 runs)``; with ``--detail``
also the top importers by cumulative and by own import time (``-X importtime``).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGET_S = 0.3
HEAVY = ("sqlalchemy", "sqlmodel", "alembic", "jinja2", "cryptography", "pydantic", "mako")


def command() -> list[str]:
    """The command that starts the CLI: the console script beside the interpreter, else
    ``python -m pbem.cli``."""
    script = Path(sys.executable).parent / "pbem"
    if script.exists():
        return [str(script)]
    found = shutil.which("pbem", path=str(Path(sys.executable).parent))
    if found:
        return [found]
    return [sys.executable, "-m", "pbem.cli"]


def interpreter_command(cmd: list[str]) -> list[str]:
    """``cmd`` as arguments to this interpreter (so ``-X importtime`` can be put first)."""
    if cmd[0] == sys.executable:
        return cmd[1:]
    return cmd  # the console script is a Python file: ``python SCRIPT`` runs it


def time_once(cmd: list[str]) -> float:
    """Seconds from starting ``cmd --help`` to its exit. Raises RuntimeError if it fails."""
    start = time.perf_counter()
    done = subprocess.run(cmd + ["--help"], capture_output=True, env=os.environ.copy())
    elapsed = time.perf_counter() - start
    if done.returncode != 0 or b"Usage:" not in done.stdout:
        raise RuntimeError(f"{' '.join(cmd)} --help failed (exit {done.returncode}):\n"
                           + done.stderr.decode(errors="replace"))
    return elapsed


def import_times(cmd: list[str]) -> list[tuple[int, int, int, str]]:
    """``-X importtime`` of one start: (own us, cumulative us, nesting depth, module) per
    import, in the order Python reports them."""
    done = subprocess.run([sys.executable, "-X", "importtime"] + interpreter_command(cmd)
                          + ["--help"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"-X importtime run failed (exit {done.returncode}):\n{done.stderr}")
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, cumulative, name = line[len("import time:"):].split("|")
        depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
        rows.append((int(own), int(cumulative), depth, name.strip()))
    return rows


def bytecode_note() -> str | None:
    """A note when pbem's CLI module has no cached bytecode (it is then compiled from source
    at every start, as happens with PYTHONDONTWRITEBYTECODE set and an editable install)."""
    spec = importlib.util.find_spec("pbem.cli")
    if spec is None or not spec.origin:
        return None
    cached = importlib.util.cache_from_source(spec.origin)
    if os.path.exists(cached):
        return None
    why = " (PYTHONDONTWRITEBYTECODE is set)" if os.environ.get("PYTHONDONTWRITEBYTECODE") else ""
    return (f"note: no cached bytecode for {spec.origin}{why}: pbem's modules are compiled "
            f"from source at every start")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="fresh processes (default 10)")
    parser.add_argument("--detail", action="store_true",
                        help="print the top importers of one run (python -X importtime)")
    parser.add_argument("--top", type=int, default=15, help="importers shown with --detail")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    cmd = command()
    times = [time_once(cmd) for _ in range(args.runs)]
    print(f"cold start: pbem --help median {statistics.median(times):.3f} s, worst "
          f"{max(times):.3f} s ({len(times)} runs; target < {TARGET_S} s)")
    print(f"  command: {' '.join(cmd)} --help; runs: "
          + " ".join(f"{t * 1e3:.0f}" for t in times) + " ms")

    rows = import_times(cmd)
    total = sum(own for own, _c, _d, _n in rows)
    heavy = sorted({name.split(".")[0] for _o, _c, _d, name in rows
                    if name.split(".")[0] in HEAVY})
    print(f"  imports at start: {len(rows)} modules, {total / 1e3:.1f} ms of import time; "
          f"heavy modules imported: {', '.join(heavy) if heavy else 'none'}")
    note = bytecode_note()
    if note:
        print("  " + note)

    if args.detail:
        print(f"\ntop {args.top} imports by cumulative time (ms; the module and what it imports)")
        for own, cumulative, depth, name in sorted(rows, key=lambda r: r[1],
                                                   reverse=True)[:args.top]:
            print(f"  {cumulative / 1e3:>8.1f} {own / 1e3:>8.1f}  {'  ' * depth}{name}")
        print(f"\ntop {args.top} imports by own time (ms; the module's own code only)")
        for own, cumulative, depth, name in sorted(rows, key=lambda r: r[0],
                                                   reverse=True)[:args.top]:
            print(f"  {own / 1e3:>8.1f} {cumulative / 1e3:>8.1f}  {name}")
        by_package: dict[str, int] = {}
        for own, _c, _d, name in rows:
            by_package[name.split(".")[0]] = by_package.get(name.split(".")[0], 0) + own
        print(f"\nimport time by top-level package (ms, own time summed)")
        for name, own in sorted(by_package.items(), key=lambda kv: kv[1],
                                reverse=True)[:args.top]:
            print(f"  {own / 1e3:>8.1f}  {name}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as error:  # a failed run: say why, exit 1 (run_all reports it)
        print(f"bench_cold_start: {error}", file=sys.stderr)
        sys.exit(1)
