"""Mails ingested and verified per second: 1,000 real signed order mails through ``Referee.ingest``.

In a temporary referee home, creates a 3-player Escape from Atlantis game (ruleset ``atlantis``)
and builds 1,000 order mails for its open window (the setup window, which all three roles owe):

- each body is the ruleset's ``bot_orders`` for that role's own view, with a complete header
  (DESIGN.md "Signed orders"); ``issued`` grows by one second per mail, so every mail supersedes
  the previous one of the same role and all 1,000 are accepted;
- red and green sign with pbem envelopes (Ed25519), blue with a real OpenSSH key through
  ``ssh-keygen -Y sign -n pbem-orders`` when that program is installed (as ``pbem demo`` does),
  otherwise with a pbem envelope too;
- the mail forms cycle through :data:`pbem.mail.clients.FORMS` (plain, quoted-printable,
  format=flowed, attachment; the SSH role's detached ``.sig`` is attached to the others);
- the mails are written as files into a Maildir (``new/``), named so that Maildir delivery
  order is issuing order.

Then it times ``Referee.ingest(iter_messages([maildir]))`` end to end: reading the Maildir,
archiving every raw message (sealed), MIME extraction, signature search and verification,
header binding, parsing and checking the orders, sealing them, superseding the older set and
queueing a receipt per mail (its facts: it is rendered and signed when mailed). Each run uses a fresh home with the same game and keys
(``--runs``, default 3); the headline is the median run. Every verdict must be ``accepted``,
else the script prints the first few and exits with status 1.

Run from the repository root with the project installed::

    python bench/bench_ingest.py [--mails 1000] [--runs 3] [--profile] [--no-ssh]

Prints ``ingest: 1000 mails in X.XX s = N mails/s`` (the median run, with its CPU time), one line
per run, the mix of mails and the time spent building them. With ``--profile``: a table of
inclusive wall-clock time by stage (light timers around the functions named in
:data:`INGEST_STAGES`, no profiler: ms per mail, share, calls per mail, us per call) of one more
run, then a cProfile top-15 by cumulative time, top-15 by own time and own time by package of
another.

bench_phase.py imports the helpers defined here (seats, referee home, order text, StageTimer,
profile printing).
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import gc
import hashlib
import os
import pstats
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pbem.crypto.envelope import sign_text
from pbem.crypto.keys import PrivateKey
from pbem.demo import SeededEntropy, ssh_sign
from pbem.engine import registry
from pbem.engine.creation import GameSpec, PlayerSpec
from pbem.engine.headers import format_time
from pbem.engine.home import Home
from pbem.engine.service import Referee
from pbem.mail.clients import FORMS, order_mail
from pbem.mail.sources import iter_messages

RULESET = "atlantis"
GAME_ID = "atl-bench"
REFEREE_ADDRESS = "referee@judge.example"
START = datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)
"""When the benchmark game is created (UTC); mails are issued from one minute later."""
SSH_KEYGEN = "ssh-keygen"
TARGET_MAILS_PER_S = 1500.0


class FixedClock:
    """A UTC clock set by hand (the referee's ``clock``)."""

    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Seat:
    """One player: ``role``, ``kind`` ("pbem" or "ssh"), the signing key (a PrivateKey, or the
    path of an OpenSSH private key file for ``ssh``) and the public key line registered."""

    role: str
    kind: str
    key: object
    public: str

    @property
    def email(self) -> str:
        """The player's address, ``ROLE@players.example``."""
        return f"{self.role}@players.example"

    def spec(self) -> PlayerSpec:
        """The seat as ``pbem game new`` takes it."""
        return PlayerSpec(self.role, self.email, self.public, f"{self.role}.pub")


def _seed_bytes(label: str) -> bytes:
    return hashlib.sha256(f"pbem-bench/{label}".encode()).digest()


def make_seats(roles: list[str], key_dir: Path, *, ssh_role: str | None = None) -> list[Seat]:
    """Seats for ``roles`` with reproducible Ed25519 keys (seeded by role name). ``ssh_role``
    gets an OpenSSH key file in ``key_dir`` (mode 0600) instead of a pbem key."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    seats = []
    for role in roles:
        seed = _seed_bytes(f"key/{role}")
        if role == ssh_role:
            key = Ed25519PrivateKey.from_private_bytes(seed)
            path = key_dir / f"{role}_ed25519"
            path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                               serialization.PrivateFormat.OpenSSH,
                                               serialization.NoEncryption()))
            path.chmod(0o600)
            public = key.public_key().public_bytes(serialization.Encoding.OpenSSH,
                                                   serialization.PublicFormat.OpenSSH).decode()
            seats.append(Seat(role, "ssh", path, f"{public} {role}@bench\n"))
        else:
            key = PrivateKey(seed, role)
            seats.append(Seat(role, "pbem", key, key.public_key().pbem_line() + "\n"))
    return seats


def new_referee(home: Path, seats: list[Seat], clock, *, seed: int = 1,
                game_id: str = GAME_ID) -> Referee:
    """A fresh referee home at ``home`` (``init``) with one atlantis game for ``seats``; the
    referee's entropy is seeded, so the same ``seed`` gives the same game."""
    referee = Referee(Home(home), clock=clock, entropy=SeededEntropy(seed, "bench-referee"))
    referee.init()
    referee.new_game(GameSpec(ruleset=RULESET, game_id=game_id,
                              players=tuple(s.spec() for s in seats), options={},
                              referee_address=REFEREE_ADDRESS))
    return referee


def order_text(game_id: str, turn: int, phase: str, role: str, nonce: str, issued: datetime,
               body: str, referee: str) -> str:
    """A complete order file (DESIGN.md "Signed orders"; ``referee`` the fingerprint of the
    game's referee key, docs/signing.md section 10)."""
    return (f"game: {game_id}\nturn: {turn}\nphase: {phase}\nrole: {role}\n"
            f"referee: {referee}\nnonce: {nonce}\nissued: {format_time(issued)}\n\n{body}")


def build_maildir(referee: Referee, seats: list[Seat], maildir: Path, count: int,
                  workdir: Path, rng: random.Random) -> tuple[Counter, str]:
    """Write ``count`` signed order mails for the open window into ``maildir/new``; returns how
    many of each (signature kind, mail form) were written and the window (``1.setup``).
    Raises RuntimeError if a seat's role owes no orders in the open window."""
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True, exist_ok=True)
    rs = registry.get(RULESET)
    views = {s.role: referee.view_and_window(GAME_ID, s.role) for s in seats}
    nonces = SeededEntropy(7, "bench-nonces")
    fingerprint = referee.sealer.referee_signing_key(GAME_ID).public_key().fingerprint
    mix: Counter = Counter()
    for i in range(count):
        seat = seats[i % len(seats)]
        view, window = views[seat.role]
        if window is None or not window.accepts(seat.role):
            raise RuntimeError(f"role {seat.role} owes no orders in the open window")
        issued = START + timedelta(minutes=1, seconds=i)
        body = rs.bot_orders(view, window, seat.role, rng)
        text = order_text(GAME_ID, window.turn, window.phase, seat.role, nonces(16).hex(),
                          issued, body, fingerprint)
        form = FORMS[(i // len(seats)) % len(FORMS)]
        common = dict(sender=seat.email, to=REFEREE_ADDRESS,
                      subject=f"{GAME_ID} turn {window.turn} {window.phase}", date=issued)
        if seat.kind == "ssh":
            form = form if form != "attachment" else "plain"
            raw = order_mail(form, signed=text, sig=ssh_sign(text, seat.key, workdir), **common)
        else:
            raw = order_mail(form, signed=sign_text(text, seat.key), **common)
        mix[(seat.kind, form)] += 1
        # Maildir names start with the delivery time (maildir(5)); the reader sorts by it.
        name = f"{int(issued.timestamp())}.M{i:06d}P{os.getpid()}.bench.example"
        (maildir / "new" / name).write_bytes(raw)
    window = views[seats[0].role][1]
    return mix, window.phase_id


def _live_children_cpu() -> float:
    """CPU seconds of this process's children still running (Linux ``/proc``: utime + stime of
    each pid in ``/proc/self/task/*/children``); 0 where there is no ``/proc``."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return 0.0
    for tid in tasks:
        try:
            with open(f"/proc/self/task/{tid}/children") as f:
                pids = f.read().split()
        except OSError:
            continue
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
    return total / ticks


def _cpu_split() -> tuple[float, float]:
    """(CPU seconds of this process, CPU seconds of its children: those it has waited for,
    RUSAGE_CHILDREN, and those still running)."""
    import resource

    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time(), kids.ru_utime + kids.ru_stime + _live_children_cpu()


@dataclass
class Run:
    """One timed ingest: ``wall`` seconds, and the CPU seconds of the judge (this process)
    and of the readers (every child process: the reader workers)."""

    wall: float
    judge: float
    readers: float

    @property
    def cpu(self) -> float:
        return self.judge + self.readers


def run_once(root: Path, seats: list[Seat], maildir: Path, count: int,
             profiler: cProfile.Profile | None = None,
             timer: StageTimer | None = None) -> Run:
    """Ingest ``maildir`` into a fresh home under ``root``; returns its :class:`Run` (wall
    seconds; CPU seconds of this process, the judge, and of its children, the reader
    workers). ``profiler`` and ``timer`` run during the ingest call only, in this process.
    Raises RuntimeError unless all ``count`` verdicts are ``accepted``."""
    if timer is not None:
        timer.enabled = False
    home = root / "home"
    shutil.rmtree(home, ignore_errors=True)
    # the build home's master key: the same game's referee key, which the orders name
    home.mkdir(mode=0o700)
    shutil.copy2(root / "build-home" / "referee.key", home / "referee.key")
    clock = FixedClock(START)
    referee = new_referee(home, seats, clock)
    clock.now = START + timedelta(minutes=1, seconds=count, hours=1)
    # Open the database and the key before timing: ingest itself is what is measured.
    referee.db, referee.sealer  # noqa: B018
    # As `pbem ingest` does (pbem.cli, _loading_modules): what is loaded before the command's
    # work is frozen, out of the cyclic collector's reach; here that is also what the
    # benchmark built, which a full collection would otherwise walk in the middle of a run.
    gc.collect()
    gc.freeze()
    if timer is not None:
        timer.enabled = True
    if profiler is not None:
        profiler.enable()
    start, (judge_start, readers_start) = time.perf_counter(), _cpu_split()
    verdicts = referee.ingest(iter_messages([str(maildir)]))
    elapsed, (judge_end, readers_end) = time.perf_counter() - start, _cpu_split()
    if profiler is not None:
        profiler.disable()
    if timer is not None:
        timer.enabled = False
    gc.unfreeze()
    statuses = Counter(v.status for v in verdicts)
    if statuses.get("accepted", 0) != count or len(verdicts) != count:
        bad = [v.summary() for v in verdicts if v.status != "accepted"][:5]
        raise RuntimeError(f"expected {count} accepted verdicts, got {dict(statuses)}:\n  "
                           + "\n  ".join(bad))
    referee.db.dispose()
    return Run(elapsed, judge_end - judge_start, readers_end - readers_start)


class StageTimer:
    """Wall-clock time and call counts of chosen functions, without cProfile's overhead.

    :meth:`wrap` replaces ``owner.attr`` (a module function, or a class's method, classmethod
    or staticmethod) by a wrapper that adds the seconds spent inside (inclusive: callees count)
    to ``label`` while :attr:`enabled` is true; calls made while the same label is already
    running (recursion, a flush inside a flush) are not counted twice. :meth:`restore` puts
    every original back. Overhead is about 1 us per call.
    """

    def __init__(self, clock=time.perf_counter, what: str = "wall time") -> None:
        self.clock, self.what = clock, what
        self.stats: dict[str, list] = {}
        self.enabled = True
        self.missing: list[str] = []
        self._undo: list[tuple[object, str, object]] = []

    def wrap(self, owner: object, attr: str, label: str) -> None:
        """Time ``owner.attr`` under ``label`` from now on. Raises KeyError or AttributeError
        if ``owner`` has no such attribute."""
        raw = owner.__dict__[attr] if isinstance(owner, type) else getattr(owner, attr)
        kind = type(raw) if isinstance(raw, (classmethod, staticmethod)) else None
        original = raw.__func__ if kind else raw
        stats = self.stats.setdefault(label, [0, 0.0])
        running = [False]
        clock = self.clock

        @functools.wraps(original)
        def timed(*args, **kwargs):
            if running[0] or not self.enabled:
                return original(*args, **kwargs)
            running[0] = True
            start = clock()
            try:
                return original(*args, **kwargs)
            finally:
                stats[1] += clock() - start
                stats[0] += 1
                running[0] = False

        setattr(owner, attr, kind(timed) if kind else timed)
        self._undo.append((owner, attr, raw))

    def snapshot(self) -> dict[str, tuple[int, float]]:
        """The counts and seconds so far, per label (to difference around one call)."""
        return {label: (calls, seconds) for label, (calls, seconds) in self.stats.items()}

    def restore(self) -> None:
        """Put every wrapped function back."""
        for owner, attr, original in reversed(self._undo):
            setattr(owner, attr, original)
        self._undo.clear()

    def report(self, total: float, units: int, unit: str, stages: list[tuple[str, int]]) -> None:
        """Print ``stages`` [(label, indent)] as ms per ``unit``, share of ``total`` seconds and
        calls per ``unit`` (inclusive times: an indented stage is part of the one above)."""
        print(f"  {'stage (inclusive ' + self.what + ')':<48} {'ms/' + unit:>9} {'share':>6} "
              f"{'calls/' + unit:>11} {'us/call':>8}")
        print(f"  {'total':<48} {total / units * 1e3:>9.3f} {100:>5.0f}%")
        for label, indent in stages:
            if label not in self.stats:
                print(f"  {'  ' * indent + label:<48} (not found in the code)")
                continue
            calls, seconds = self.stats[label]
            per_call = seconds / calls * 1e6 if calls else 0.0
            name = "  " * indent + label
            print(f"  {name:<48} {seconds / units * 1e3:>9.3f} {seconds / total * 100:>5.0f}% "
                  f"{calls / units:>11.2f} {per_call:>8.0f}")


INGEST_STAGES = [
    # (module or class path, attribute, label, indent): in the judge's process (the readers'
    # work is profiled apart: reader_profile)
    ("pbem.engine.judge", "_archive", "archive, sealed (judge._archive)", 1),
    ("pbem.engine.readpool:Reading", "results", "wait for the readers (Reading.results)", 1),
    ("pbem.engine.judge", "_judge", "judge, one transaction per batch (judge._judge)", 1),
    ("pbem.engine.judge:_Batch", "game", "open the game (_Batch.game)", 2),
    ("pbem.engine.judge", "accept_orders", "accept one order set (accept_orders)", 2),
    ("pbem.engine.headers", "parse_header", "order header, where not prepared", 3),
    ("pbem.games.atlantis.ruleset:AtlantisRuleset", "parse", "ruleset.parse, not prepared", 3),
    ("pbem.games.atlantis.ruleset:AtlantisRuleset", "check", "ruleset.check, not prepared", 3),
    ("pbem.engine.gamestate:GameContext", "log", "public log line (GameContext.log)", 3),
    # the receipt's facts: rendered and signed when mailed (pbem.engine.letters), not here
    ("pbem.engine.accept", "receipt_mail", "receipt (accept.receipt_mail)", 3),
    ("pbem.engine.accept", "letter_row", "letter: compress, seal (letter_row)", 4),
    ("pbem.engine.judge:_Batch", "flush", "bulk inserts (_Batch.flush)", 2),
    ("pbem.store.integrity", "row_mac", "row MACs (integrity.row_mac, all callers)", 1),
    ("pbem.crypto.seal:Sealer", "seal", "AES-GCM seal (Sealer.seal, all callers)", 1),
    ("sqlalchemy.orm.session:Session", "flush", "ORM flush (Session.flush, all callers)", 1),
    ("sqlalchemy.engine.default:DefaultDialect", "do_commit", "COMMIT", 1),
]


def resolve_target(path: str) -> object:
    """``"pkg.module"`` or ``"pkg.module:Class"`` to the object."""
    import importlib

    module, _, cls = path.partition(":")
    obj = importlib.import_module(module)
    return getattr(obj, cls) if cls else obj


def timed_stages(stages: list[tuple[str, str, str, int]], *, cpu: bool = False) -> StageTimer:
    """A StageTimer wrapping every (target, attribute, label, indent) of ``stages``, timing
    wall-clock time or (``cpu``) the CPU time of the calling thread. A target that the code no
    longer has (a function renamed or moved) is skipped and named in
    :attr:`StageTimer.missing`, so the breakdown still runs after a refactoring."""
    timer = StageTimer(time.thread_time, "CPU time") if cpu else StageTimer()
    for target, attr, label, _indent in stages:
        try:
            owner = resolve_target(target)
            timer.wrap(owner, attr, label)
        except (ImportError, AttributeError, KeyError):
            timer.missing.append(f"{target}.{attr}")
    return timer


def _short(file: str) -> str:
    """A profiled file's path from its package root (``sqlalchemy/orm/session.py``)."""
    for marker in ("site-packages/", "/lib/python3.11/", "/lib/python3/"):
        if marker in file:
            return file.split(marker, 1)[1]
    if "/pbem/" in file:
        return "pbem/" + file.rsplit("/pbem/", 1)[1]
    return file


def _package(file: str, func: str) -> str:
    """Where a profiled function lives: a site-packages distribution, a ``pbem`` subpackage,
    a standard-library module, or ``C: name`` for built-in functions and methods."""
    if "site-packages/" in file:
        return file.split("site-packages/", 1)[1].split("/", 1)[0]
    if "/pbem/" in file:
        parts = file.rsplit("/pbem/", 1)[1].split("/")
        return "pbem/" + parts[0] if len(parts) > 1 else "pbem/" + parts[0].removesuffix(".py")
    if "/lib/python3" in file:
        rest = file.split("/lib/python3", 1)[1].split("/", 1)[1]
        return "stdlib/" + rest.split("/", 1)[0].removesuffix(".py")
    if file == "~":
        name = func.split("'")[1] if "'" in func else func.strip("<>").split()[-1]
        return f"C: {name}"
    return file


def print_profile(profiler: cProfile.Profile, count: int, unit: str = "mail",
                  top: int = 15) -> None:
    """Top ``top`` functions by cumulative and by own time with per-``unit`` figures (``count``
    units), then own time summed by package (where the CPU goes, callees excluded)."""
    stats = pstats.Stats(profiler)
    for index, title in ((3, "cumulative"), (2, "own (tottime)")):
        print(f"\nprofile: top {top} by {title} time over {count} {unit}s")
        rows = sorted(stats.stats.items(), key=lambda kv: kv[1][index], reverse=True)[:top]
        print(f"  {'calls':>8} {'per ' + unit:>10} {'own s':>8} {'cum s':>8} "
              f"{'cum ms/' + unit:>12}  function")
        for (file, line, func), (_cc, nc, tt, ct, _callers) in rows:
            where = f"{_short(file)}:{line}" if file != "~" else "built-in"
            print(f"  {nc:>8} {nc / count:>10.1f} {tt:>8.3f} {ct:>8.3f} "
                  f"{ct / count * 1e3:>12.3f}  {func} ({where})")
    by_package: Counter = Counter()
    for (file, _line, func), (_cc, _nc, tt, _ct, _callers) in stats.stats.items():
        by_package[_package(file, func)] += tt
    total = sum(by_package.values()) or 1.0
    print("\nprofile: own time by package (profiler overhead inflates many-small-call code)")
    for name, seconds in by_package.most_common(top):
        print(f"  {seconds:>8.3f} s {seconds / total * 100:>5.1f}% "
              f"{seconds / count * 1e3:>8.3f} ms/{unit}  {name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=1000, help="mails to ingest (default 1000)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs, fresh home each "
                        "(default 3; the median is reported)")
    parser.add_argument("--profile", action="store_true",
                        help="also print a cProfile of one extra run")
    parser.add_argument("--no-ssh", action="store_true",
                        help="sign every mail with pbem envelopes (no ssh-keygen)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the bots' choices")
    args = parser.parse_args(argv)

    use_ssh = not args.no_ssh and shutil.which(SSH_KEYGEN) is not None
    rs = registry.get(RULESET)
    roles = list(rs.role_names[:3])
    with tempfile.TemporaryDirectory(prefix="pbem-bench-ingest-") as tmp:
        root = Path(tmp)
        (root / "keys").mkdir()
        (root / "work").mkdir()
        seats = make_seats(roles, root / "keys", ssh_role=roles[-1] if use_ssh else None)
        maildir = root / "Maildir"
        start = time.perf_counter()
        referee = new_referee(root / "build-home", seats, FixedClock(START))
        mix, phase_id = build_maildir(referee, seats, maildir, args.mails, root / "work",
                                      random.Random(args.seed))
        referee.db.dispose()
        built = time.perf_counter() - start
        size = sum(p.stat().st_size for p in (maildir / "new").iterdir())

        runs = [run_once(root, seats, maildir, args.mails) for _ in range(args.runs)]
        median = statistics.median(r.wall for r in runs)
        cpu = statistics.median(r.cpu for r in runs)
        judge = statistics.median(r.judge for r in runs)
        readers = statistics.median(r.readers for r in runs)
        print(f"ingest: {args.mails} mails in {median:.2f} s = {args.mails / median:.0f} mails/s"
              f"  (median of {len(runs)} runs; CPU {cpu:.2f} s = {args.mails / cpu:.0f} mails/s,"
              f" all processes: judge {judge:.2f} s, readers {readers:.2f} s;"
              f" target >= {TARGET_MAILS_PER_S:.0f} mails/s)")
        for n, r in enumerate(runs, 1):
            print(f"  run {n}: {r.wall:.2f} s = {args.mails / r.wall:.0f} mails/s, "
                  f"{r.wall / args.mails * 1e3:.2f} ms/mail; CPU {r.cpu:.2f} s = "
                  f"{args.mails / r.cpu:.0f} mails/s (judge {r.judge / args.mails * 1e3:.2f}, "
                  f"readers {r.readers / args.mails * 1e3:.2f} ms/mail)")
        forms = ", ".join(f"{kind}/{form} {n}" for (kind, form), n in sorted(mix.items()))
        print(f"  mails for window {phase_id} of {GAME_ID} ({', '.join(roles)} owe): {forms}; "
              f"{size / 1e6:.2f} MB; built in {built:.1f} s")

        if args.profile:
            profile(root, seats, maildir, args.mails)
    return 0


def profile(root: Path, seats: list[Seat], maildir: Path, count: int) -> None:
    """``--profile``: where the judge's CPU time goes (stage table, then cProfile) in one more
    run each, and where a reader's goes (cProfile of reading and preparing every mail in this
    process, as a reader does)."""
    timer = timed_stages(INGEST_STAGES, cpu=True)
    try:
        r = run_once(root, seats, maildir, count, timer=timer)
    finally:
        timer.restore()
    print(f"\nwhere the judge's time goes (one more run: {r.wall:.2f} s wall; CPU judge "
          f"{r.judge:.2f} s, readers {r.readers:.2f} s; CPU-time timers in the judge, no "
          "profiler):")
    timer.report(r.judge, count, "mail",
                 [(label, indent) for _t, _a, label, indent in INGEST_STAGES])
    profiler = cProfile.Profile()
    r = run_once(root, seats, maildir, count, profiler)
    print(f"\nprofiled run of the judge: {r.wall:.2f} s (with profiler overhead)")
    print_profile(profiler, count)
    profiler, read = reader_profile(root, seats, maildir)
    print(f"\nprofiled reading ({read} mails read and prepared in this process, as each reader "
          "does):")
    print_profile(profiler, read)


def reader_profile(root: Path, seats: list[Seat], maildir: Path):
    """cProfile of what the readers do (pbem.engine.reader.read_message, then the judge's
    pbem.engine.prepare.Preparer against the game's position) for every mail of
    ``maildir``, in this process; returns (the profile, mails)."""
    from pbem.engine.judge import MAX_SIGNED_PER_MESSAGE, _Batch
    from pbem.engine.prepare import Preparer, snapshot_of
    from pbem.engine.reader import arrival, read_message
    from pbem.engine.settings import IngestSettings

    home = root / "home"  # the last run's: its game is at the position the mails are for
    referee = Referee(Home(home), clock=FixedClock(START))
    preparer = Preparer(referee.sealer, MAX_SIGNED_PER_MESSAGE)
    with referee.db.read() as s:
        g = _Batch(s, referee.sealer, IngestSettings()).game(GAME_ID)
        preparer.update((GAME_ID, snapshot_of(g.ctx, g.window, g.token)))
    items = [arrival(i) for i in iter_messages([str(maildir)])]
    profiler = cProfile.Profile()
    profiler.enable()
    for item in items:
        preparer(read_message(item))
    profiler.disable()
    referee.db.dispose()
    return profiler, len(items)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as error:  # a failed run: say why, exit 1 (run_all reports it)
        print(f"bench_ingest: {error}", file=sys.stderr)
        sys.exit(1)
