"""Instructions per phase (adjudicate, then render every report), counted by callgrind: a
measure of a phase's cost that does not move with the machine's speed.

This 2-core machine's speed moves by a quarter within minutes (bench/README.md, 2026-12-02), so
two CPU-time medians taken minutes apart cannot tell a 5% change. Valgrind's callgrind counts
the instructions the interpreter executes instead, which are the same from run to run for the
same seeded game. The script plays one seeded game (bench_game.play: Escape from Atlantis with
``--game atlantis``, Escape from Altassar with its map filled after the Signal Posts with
``--game altassar``) under ``valgrind --tool=callgrind --collect-atstart=no`` and switches
collection on only inside ``Referee.process`` and inside ``bench_game.render_reports`` (the
rendering of every reader's report as delivery does it), through callgrind's client request
``CALLGRIND_TOGGLE_COLLECT`` in a tiny C library it compiles with ``cc`` from
``<valgrind/callgrind.h>``. Forked children (ssh-keygen signing) are not counted.

Run from the repository root with the project installed (needs ``valgrind``, its headers and a C
compiler; Debian: ``apt-get install valgrind gcc``)::

    python bench/bench_instructions.py [--game atlantis|altassar] [--seed 1] [--which pr]

Prints ``instructions: GAME, N phases: P M/phase adjudicating, R M/phase rendering, T M/phase in
all``: millions of instructions per phase (per ``process`` call that resolved one, after which
the reports are rendered; the few calls that resolve nothing are counted with them).
``--which p`` or ``r`` counts one side only. Each side is one run of about three minutes
(callgrind runs the interpreter some fifty times slower).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_TOGGLE_C = """#include <valgrind/callgrind.h>
void pbem_cg_toggle(void) { CALLGRIND_TOGGLE_COLLECT; }
"""


def _build_toggle(folder: Path) -> Path:
    """The shared library holding ``pbem_cg_toggle`` (CALLGRIND_TOGGLE_COLLECT), compiled into
    ``folder``. Raises RuntimeError when the compiler or valgrind's header is missing."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise RuntimeError("no C compiler (cc): install gcc")
    src, lib = folder / "toggle.c", folder / "libtoggle.so"
    src.write_text(_TOGGLE_C)
    done = subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", str(lib), str(src)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"cannot compile the callgrind toggle (valgrind's headers are in "
                           f"Debian's valgrind package):\n{done.stderr.strip()}")
    return lib


def child(game: str, seed: int, which: str, lib: str) -> None:
    """Inside valgrind: play the game with collection on in the timed calls only."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench_game
    from pbem.engine.service import Referee

    toggle = ctypes.CDLL(lib).pbem_cg_toggle
    counted = {"p": 0, "r": 0}

    def counting(fn, side):
        def wrapper(*args, **kwargs):
            if side in which:
                toggle()
            try:
                return fn(*args, **kwargs)
            finally:
                if side in which:
                    toggle()
                counted[side] += 1
        return wrapper

    Referee.process = counting(Referee.process, "p")
    bench_game.render_reports = counting(bench_game.render_reports, "r")
    with tempfile.TemporaryDirectory(prefix="pbem-bench-instr-") as tmp:
        if game == "altassar":
            import bench_altassar
            bench_altassar.play(Path(tmp), seed)
        else:
            bench_game.play(game, Path(tmp), seed)
    print(f"calls: process {counted['p']}, render {counted['r']}")


def measure(game: str, seed: int, which: str) -> tuple[int, int]:
    """(instructions counted, render calls) of one run under callgrind."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise RuntimeError("valgrind is not installed (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="pbem-cg-") as tmp:
        lib = _build_toggle(Path(tmp))
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(
            [valgrind, "--tool=callgrind", "--collect-atstart=no",
             "--child-silent-after-fork=yes", f"--callgrind-out-file={out}",
             sys.executable, __file__, "--child", "--game", game, "--seed", str(seed),
             "--which", which, "--lib", str(lib)],
            capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"the run under callgrind failed (exit {done.returncode}):\n"
                               f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
        totals = re.search(r"^totals: (\d+)", out.read_text(errors="replace"), re.M)
        calls = re.search(r"calls: process (\d+), render (\d+)", done.stdout)
        if totals is None or calls is None:
            raise RuntimeError(f"no totals in callgrind's output:\n{done.stdout[-2000:]}")
        return int(totals.group(1)), int(calls.group(2))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("atlantis", "altassar"), default="atlantis")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--which", default="pr", choices=("p", "r", "pr"),
                        help="count adjudicating (p), rendering (r) or both (pr, two runs)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--lib", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.game, args.seed, args.which, args.lib)
        return 0
    try:
        counts = {side: measure(args.game, args.seed, side) for side in args.which}
    except RuntimeError as e:
        print(f"bench_instructions: {e}", file=sys.stderr)
        return 1
    phases = next(iter(counts.values()))[1]  # render_reports runs once per resolved phase
    per = {side: n / phases / 1e6 for side, (n, _) in counts.items()}
    parts = [f"{per[s]:.1f} M/phase {'adjudicating' if s == 'p' else 'rendering'}"
             for s in args.which]
    print(f"instructions: {args.game}, {phases} phases: {', '.join(parts)}"
          + (f", {sum(per.values()):.1f} M/phase in all" if len(per) > 1 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
