"""Start-up of the commands that touch the database: ``pbem status``, ``pbem ingest -`` with one
signed order mail, and ``pbem process --due`` with nothing due, each in a fresh process.

In a temporary referee home, creates a few games (three 3-player Escape from Atlantis games,
as ``bench_ingest.py`` does, with the real clock: their windows close days from now) and, for
each run, one real signed order mail for the first game's open window: the role red signs it
with a pbem envelope (Ed25519), ``issued`` one second later than the last one's, so that every
mail is accepted and supersedes the one before; the mail forms cycle through
:data:`pbem.mail.clients.FORMS`. Only red sends orders, so no window is complete and nothing is
due.

Then, ``--runs`` times (default 10), runs each of the three commands in a new process of the
installed console script (``pbem`` beside this interpreter, else ``python -m pbem.cli``),
round robin, after one untimed run of each (which fills the caches: the operating system's
and pbem's bytecode), and measures the wall time from starting the process to its exit and the
CPU time of that process and of the reader process ``ingest`` forks
(``resource.getrusage(RUSAGE_CHILDREN)`` before and after). The children run as an installed
pbem does, with its modules' bytecode cached: ``PYTHONDONTWRITEBYTECODE`` is dropped from their
environment unless ``--source`` is given. Checks what each prints: the games for ``status``,
``accepted 1`` for ``ingest``, ``nothing to process`` for ``process --due``; a run that fails or
prints otherwise stops the benchmark (exit 1).

Run from the repository root with the project installed::

    python bench/bench_start.py [--runs 10] [--games 3] [--instructions] [--detail] [--source]

Prints one line per command, ``start: pbem status median X.XXX s, worst Y.YYY s, CPU median
Z.ZZZ s, worst W.WWW s (10 runs; target < 0.4 s)``, then the command run and the median start of
the bare interpreter (``python -c pass``); with ``--instructions``, for each command the
instructions its process executed in one more run under valgrind's callgrind (``instructions:
pbem status 1,395.2 million ...``: the same from run to run, where times vary by a quarter with
the machine's load); with ``--detail``, for each command the heavy modules it imports
(``python -X importtime``) and its top imports by cumulative time.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from bench_cold_start import HEAVY, command, interpreter_command
from bench_ingest import FixedClock, make_seats, order_text

TARGET_S = 0.4
ROLES = ["red", "green", "blue"]
SENDER = "red"
REFEREE_ADDRESS = "referee@judge.example"


@dataclass
class Home:
    """The benchmark's referee home: its folder, the first game's id and one order mail (raw
    bytes) per run."""

    path: Path
    game_id: str
    mails: list[bytes]


def make_home(root: Path, games: int, mails: int) -> Home:
    """A referee home under ``root`` with ``games`` atlantis games created ten minutes ago
    (real clock) and ``mails`` signed order mails of red for the first game's open window,
    issued five minutes ago plus one second each. Raises RuntimeError if red owes no orders."""
    from pbem.crypto.envelope import sign_text
    from pbem.demo import SeededEntropy
    from pbem.engine import registry
    from pbem.engine.creation import GameSpec
    from pbem.engine.home import Home as RefereeHome
    from pbem.engine.service import Referee
    from pbem.mail.clients import FORMS, order_mail

    now = datetime.now(timezone.utc).replace(microsecond=0)
    seats = make_seats(ROLES, root)
    referee = Referee(RefereeHome(root / "home"), clock=FixedClock(now - timedelta(minutes=10)),
                      entropy=SeededEntropy(1, "bench-start"))
    referee.init()
    ids = [f"atl-start-{i + 1}" for i in range(games)]
    for game_id in ids:
        referee.new_game(GameSpec(ruleset="atlantis", game_id=game_id,
                                  players=tuple(s.spec() for s in seats), options={},
                                  referee_address=REFEREE_ADDRESS))
    seat = next(s for s in seats if s.role == SENDER)
    view, window = referee.view_and_window(ids[0], SENDER)
    if window is None or not window.accepts(SENDER):
        raise RuntimeError(f"role {SENDER} owes no orders in {ids[0]}'s open window")
    fingerprint = referee.sealer.referee_signing_key(ids[0]).public_key().fingerprint
    rs, rng, nonces = registry.get("atlantis"), random.Random(5), SeededEntropy(7, "nonces")
    raws = []
    for i in range(mails):
        issued = now - timedelta(minutes=5) + timedelta(seconds=i)
        text = order_text(ids[0], window.turn, window.phase, SENDER, nonces(16).hex(), issued,
                          rs.bot_orders(view, window, SENDER, rng), fingerprint)
        raws.append(order_mail(FORMS[i % len(FORMS)], sender=seat.email, to=REFEREE_ADDRESS,
                               subject=f"{ids[0]} orders", signed=sign_text(text, seat.key),
                               date=issued))
    referee.db.dispose()
    return Home(root / "home", ids[0], raws)


def _children_cpu() -> float:
    """CPU seconds (user + system) of every child process waited for so far."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return kids.ru_utime + kids.ru_stime


def run_once(cmd: list[str], args: list[str], expect: str, stdin: bytes | None = None,
             env: dict | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of ``cmd args``, in a fresh process. Raises
    RuntimeError when it exits non-zero or its output lacks ``expect``."""
    cpu0, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(cmd + args, input=stdin if stdin is not None else b"",
                          capture_output=True, env=env)
    wall, cpu = time.perf_counter() - start, _children_cpu() - cpu0
    if done.returncode != 0 or expect.encode() not in done.stdout:
        raise RuntimeError(f"{' '.join(args)} failed (exit {done.returncode}, expected "
                           f"{expect!r}):\n{done.stdout.decode(errors='replace')}"
                           f"{done.stderr.decode(errors='replace')}")
    return wall, cpu


def commands(home: Home) -> list[tuple[str, list[str], str, bool]]:
    """(label, arguments after ``pbem``, text the output must hold, reads a mail on stdin)."""
    base = ["--home", str(home.path)]
    return [("pbem status", base + ["status"], home.game_id, False),
            ("pbem ingest - (one mail)", base + ["ingest", "-"], "accepted 1", True),
            ("pbem process --due (none due)", base + ["process", "--due"], "nothing to process",
             False)]


def import_times(cmd: list[str], args: list[str], stdin: bytes | None,
                 env: dict) -> list[tuple[int, int, int, str]]:
    """``-X importtime`` of one run of ``cmd args``: (own us, cumulative us, nesting depth,
    module) per import, in the order Python reports them."""
    done = subprocess.run([sys.executable, "-X", "importtime"] + interpreter_command(cmd) + args,
                          input=stdin or b"", capture_output=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"-X importtime run of {' '.join(args)} failed (exit "
                           f"{done.returncode}):\n{done.stderr.decode(errors='replace')[-2000:]}")
    rows = []
    for line in done.stderr.decode(errors="replace").splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, cumulative, name = line[len("import time:"):].split("|")
        depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
        rows.append((int(own), int(cumulative), depth, name.strip()))
    return rows


def detail(cmd: list[str], home: Home, top: int, env: dict) -> None:
    """For each command, one more run under ``python -X importtime``: the heavy modules it
    imported and its top imports by cumulative time (ingest reads the last, unused mail)."""
    for label, args, _expect, reads_mail in commands(home):
        rows = import_times(cmd, args, home.mails[-1] if reads_mail else None, env)
        heavy = sorted({n.split(".")[0] for _o, _c, _d, n in rows if n.split(".")[0] in HEAVY})
        total = sum(own for own, _c, _d, _n in rows)
        print(f"\n{label}: {len(rows)} modules imported, {total / 1e3:.1f} ms of import time; "
              f"heavy: {', '.join(heavy) or 'none'}")
        for own, cumulative, depth, name in sorted(rows, key=lambda r: r[1], reverse=True)[:top]:
            print(f"  {cumulative / 1e3:>8.1f} {own / 1e3:>8.1f}  {'  ' * depth}{name}")


def instructions(cmd: list[str], home: Home, env: dict) -> None:
    """For each command, one more run under valgrind's callgrind (``valgrind --tool=callgrind``),
    which counts the instructions the process executed: unlike its time, the count is the same
    from one run to the next whatever else the machine does, so two versions of pbem compare to
    within a tenth of a percent. Prints the count of the command's own process (ingest reads
    the next unused mail; the count of its forked reader, which callgrind starts from what the
    parent had counted at the fork, is not shown). Raises RuntimeError when valgrind is missing
    or a run fails."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise RuntimeError("--instructions needs valgrind (apt-get install valgrind)")
    print()
    for label, args, expect, reads_mail in commands(home):
        with tempfile.TemporaryDirectory(prefix="pbem-bench-cg-") as out:
            done = subprocess.run(
                [valgrind, "--tool=callgrind", f"--callgrind-out-file={out}/cg.%p"] + cmd + args,
                input=home.mails[-2] if reads_mail else b"", capture_output=True, env=env,
                check=False)
            if done.returncode != 0 or expect.encode() not in done.stdout:
                why = done.stderr.decode(errors="replace")[-2000:]
                raise RuntimeError(f"{' '.join(args)} under callgrind failed (exit "
                                   f"{done.returncode}):\n{why}")
            counts = {}
            for f in Path(out).glob("cg.*"):
                found = re.search(r"^(?:totals|summary): (\d+)", f.read_text(errors="replace"),
                                  re.MULTILINE)
                if found:
                    counts[int(f.name.split(".")[1])] = int(found.group(1))
        first = min(counts)  # the command's process started first: its pid is the lowest
        print(f"instructions: {label} {counts[first] / 1e6:,.1f} million (callgrind Ir of the "
              f"command's process)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="fresh processes per command")
    parser.add_argument("--games", type=int, default=3, help="games in the home (default 3)")
    parser.add_argument("--detail", action="store_true",
                        help="per command, the imports of one more run (python -X importtime)")
    parser.add_argument("--top", type=int, default=12, help="imports shown with --detail")
    parser.add_argument("--instructions", action="store_true",
                        help="per command, the instructions of one more run under valgrind's "
                             "callgrind (the same from run to run, unlike times)")
    parser.add_argument("--source", action="store_true",
                        help="keep PYTHONDONTWRITEBYTECODE as set: pbem's modules may then be "
                             "compiled from source at every start (an editable install)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.games < 1:
        parser.error("--runs and --games must be at least 1")

    cmd = command()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    if not args.source:  # as an installed pbem runs: its modules' bytecode cached
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-start-") as tmp:
        home = make_home(Path(tmp), args.games, args.runs + 3)  # + untimed, callgrind, detail
        todo = commands(home)
        for label, cmd_args, expect, reads_mail in todo:  # untimed: caches filled
            run_once(cmd, cmd_args, expect, home.mails[0] if reads_mail else None, env)
        samples: dict[str, list[tuple[float, float]]] = {label: [] for label, *_ in todo}
        for i in range(args.runs):  # round robin: a slow moment of the machine hits all three
            for label, cmd_args, expect, reads_mail in todo:
                samples[label].append(run_once(cmd, cmd_args, expect,
                                               home.mails[i + 1] if reads_mail else None, env))
        floor = [run_once([sys.executable, "-c", "pass"], [], "", None, env)[0]
                 for _ in range(args.runs)]
        for label, runs in samples.items():
            walls, cpus = [w for w, _ in runs], [c for _, c in runs]
            print(f"start: {label} median {statistics.median(walls):.3f} s, worst "
                  f"{max(walls):.3f} s, CPU median {statistics.median(cpus):.3f} s, worst "
                  f"{max(cpus):.3f} s ({len(runs)} runs; target < {TARGET_S} s)")
        print(f"  command: {' '.join(cmd)}; home with {args.games} atlantis games; the "
              f"interpreter alone (python -c pass): median {statistics.median(floor):.3f} s")
        if args.instructions:
            instructions(cmd, home, env)
        if args.detail:
            detail(cmd, home, args.top, env)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as error:  # a failed run: say why, exit 1 (run_all reports it)
        print(f"bench_start: {error}", file=sys.stderr)
        sys.exit(1)
