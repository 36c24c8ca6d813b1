"""``pbem process --due`` with one worker or several (DESIGN.md "Storage"; docs/operations.md).

A run records its time once and lists the games with an open window, in one transaction
(:func:`pbem.engine.adjudicate.start_run`), and hands each game to exactly one worker,
which handles it in one write transaction (:func:`~pbem.engine.adjudicate.process_game`): the
game row is claimed with ``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL, so separate
``pbem process`` commands sharing a database never work on the same game at once either (a game
another transaction holds is skipped: that one is on it). On SQLite the single writer
serialises the workers: correct, but no faster.

Several workers (``workers`` > 1) are child processes forked from this one (they inherit the
loaded rulesets, templates and keys, and open their own database connections); the parent
hands out games one at a time over a pipe, so a game is given once per run, and reports each
game's results as they arrive (``on_game``: the progress bar, a line per phase under cron). A
worker that dies in the middle of a game (killed, out of memory) loses nothing: its
transaction is rolled back by the database, and the parent gives the game to another worker,
which waits for the dead one's lock to go, then resolves it from the same sealed seed and
orders. The run then ends with :class:`WorkerFailed`, naming the worker and the game.

Long runs checkpoint the SQLite WAL every :data:`CHECKPOINT_EVERY` games per worker
(``Database.checkpoint``; pbem turns SQLite's automatic checkpoints off), so the WAL stays
small (DESIGN.md "Storage"; a PASSIVE checkpoint never waits).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from pbem.engine import adjudicate
from pbem.engine.errors import PbemError

CHECKPOINT_EVERY = 25
"""Games each worker handles between two WAL checkpoints (SQLite): a phase writes well under
1 MB, so the WAL stays far under 64 MB."""


class WorkerFailed(PbemError):
    """A worker failed on a game (the game's transaction was rolled back; the message says
    why), or died while on one; raised once every other game of the run is done."""


@dataclass
class WorkerDeath:
    """A worker process that ended without being asked to: its pid, its exit code (negative:
    killed by that signal), the game it was on (None: between games) and whether another
    worker then finished that game (``taken_over``)."""

    pid: int
    exitcode: int | None
    game: str | None
    taken_over: bool = False

    def describe(self) -> str:
        how = (f"was killed by signal {-self.exitcode}" if self.exitcode and self.exitcode < 0
               else f"exited with status {self.exitcode}")
        if self.game is None:
            return f"worker {self.pid} {how} between games"
        after = ("another worker then finished it" if self.taken_over
                 else "it was left for the next run")
        return f"worker {self.pid} {how} while on game {self.game}; {after}"


def process_due(db, sealer, *, now: datetime, entropy, game_id: str | None = None,
                force: bool = False, accept_late: bool = False, workers: int = 1,
                on_start: Callable[[int], None] | None = None,
                on_game: Callable[[str, list], None] | None = None,
                checkpoint_every: int = CHECKPOINT_EVERY) -> list:
    """Run ``pbem process`` (see the module doc and :func:`pbem.engine.adjudicate.process`):
    every game with an open window (``game_id``: only it) is handled once, by one of
    ``workers`` workers (1: in this process). ``on_start(n)`` is called with the number of
    games to look at, ``on_game(game_id, results)`` after each game (results: Resolved,
    Postponed and Reminded items, possibly none), in the order the games finish. Returns every
    result. Raises whatever the game raised (one worker) or :class:`WorkerFailed` (several),
    after the games in progress have finished; games not yet started then wait for the next
    run. Each worker gets a copy of ``entropy`` (forked): the operating system's randomness
    (``secrets.token_bytes``) stays random in each, while an entropy with state of its own (a
    counter) should offer ``for_phase`` (pbem.engine.adjudicate.process_game). ValueError for
    ``workers`` < 1."""
    if workers < 1:
        raise ValueError(f"workers: expected 1 or more, found {workers}")
    report = on_game or (lambda _gid, _results: None)
    if game_id is not None and db.is_sqlite:  # one write transaction records the run and
        results = adjudicate.process_named_game(  # handles the game
            db, sealer, game_id, now=now, entropy=entropy, force=force,
            accept_late=accept_late) or []
        if on_start is not None:
            on_start(1)
        report(game_id, results)
        return results
    last_run, gids = adjudicate.start_run(db, now, game_id)
    if on_start is not None:
        on_start(len(gids))
    job = {"now": now, "entropy": entropy, "force": force, "accept_late": accept_late,
           "last_run": last_run}
    if workers == 1 or len(gids) <= 2:
        return _run_here(db, sealer, gids, job, report, checkpoint_every)
    # the first game here: the rulesets, templates and statements it loads are then shared
    # by every worker forked after it, instead of loaded again in each
    first = _run_here(db, sealer, gids[:1], job, report, checkpoint_every)
    pool = _Pool(db, sealer, min(workers, len(gids) - 1), job, report, checkpoint_every)
    return first + pool.run(gids[1:])


def _run_here(db, sealer, gids: list, job: dict, report, checkpoint_every: int) -> list:
    """One worker, this process: each game in turn, a checkpoint every so many games."""
    done: list = []
    for n, gid in enumerate(gids, 1):
        results = adjudicate.process_game(db, sealer, gid, **job) or []
        done.extend(results)
        report(gid, results)
        if n % checkpoint_every == 0:
            db.checkpoint()
    return done


def _worker(conn, db, sealer, job: dict, checkpoint_every: int) -> None:
    """A forked worker: the parent's ``db`` (whose pool was emptied before the fork, so this
    process opens connections of its own); takes ``(game, wait)`` items from the parent until
    None, answering ``("done", game, results)`` (None: another transaction holds the game) or
    ``("error", game, text)``."""
    db.engine.dispose(close=False)  # never use a connection of the parent's (SQLAlchemy docs)
    handled = 0
    try:
        conn.send(("ready",))
        while True:
            item = conn.recv()
            if item is None:
                break
            gid, wait = item
            try:
                results = adjudicate.process_game(db, sealer, gid, wait_lock=wait, **job)
            except Exception as e:  # the transaction was rolled back; the parent stops the run
                conn.send(("error", gid, _error_text(e)))
                continue
            conn.send(("done", gid, results))
            handled += 1
            if handled % checkpoint_every == 0:
                db.checkpoint()
    except (EOFError, BrokenPipeError, KeyboardInterrupt):
        pass
    finally:
        db.dispose()


def _error_text(e: Exception) -> str:
    """What the referee is told of a worker's error: the message, and for a database error
    the driver's own words."""
    orig = getattr(e, "orig", None)
    return str(orig or e) or type(e).__name__


class _Pool:
    """The parent's side of several workers (see the module doc)."""

    def __init__(self, db, sealer, size: int, job: dict, report, checkpoint_every: int):
        self.db, self.sealer, self.size, self.job = db, sealer, size, job
        self.report, self.checkpoint_every = report, checkpoint_every
        self.busy: dict = {}  # connection -> (process, (game, wait) or None)
        self.idle: list = []
        self.queue: deque = deque()
        self.results: list = []
        self.errors: list[str] = []
        self.deaths: list[WorkerDeath] = []
        self.stopping = False

    def run(self, gids: list) -> list:
        from multiprocessing.connection import wait

        self.queue.extend((g, False) for g in gids)
        self.db.engine.dispose()  # no pooled connection may cross the fork
        for _ in range(self.size):
            self._spawn()
        try:
            while self.busy:
                for conn in wait(list(self.busy)):
                    self._receive(conn)
                self._dispatch()
        finally:
            for proc, _item in self.busy.values():  # interrupted: leave no worker behind
                proc.kill()
        problems = self.errors + [d.describe() for d in self.deaths]
        if problems:
            raise WorkerFailed("; ".join(problems))
        return self.results

    def _spawn(self) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(target=_worker, daemon=True,
                           args=(theirs, self.db, self.sealer, self.job, self.checkpoint_every))
        proc.start()
        theirs.close()
        self.busy[mine] = (proc, None)

    def _receive(self, conn) -> None:
        proc, item = self.busy[conn]
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            self._ended(conn, proc, item)
            return
        if msg[0] == "done":
            results = msg[2] or []  # None: another transaction held it, so it is on it
            self.results.extend(results)
            self.report(msg[1], results)
            for d in self.deaths:
                if d.game == msg[1] and msg[2] is not None:
                    d.taken_over = True
        elif msg[0] == "error":
            self.errors.append(f"game {msg[1]}: {msg[2]}")
            self.stopping = True
        self.busy[conn] = (proc, None)
        self.idle.append(conn)

    def _ended(self, conn, proc, item) -> None:
        """A worker's pipe closed: it ended as asked, or died (on a game: that game goes to
        another worker, which waits for the dead one's lock; once only)."""
        del self.busy[conn]
        if conn in self.idle:
            self.idle.remove(conn)
        conn.close()
        proc.join()
        if item is None and proc.exitcode == 0:
            return
        self.deaths.append(WorkerDeath(proc.pid, proc.exitcode, item[0] if item else None))
        if item is not None and not item[1] and not self.stopping:
            self.queue.appendleft((item[0], True))
            self._spawn()

    def _dispatch(self) -> None:
        while self.idle and self.queue and not self.stopping:
            conn = self.idle.pop()
            item = self.queue.popleft()
            conn.send(item)
            self.busy[conn] = (self.busy[conn][0], item)
        if self.stopping or not self.queue:
            for conn in self.idle:
                try:
                    conn.send(None)
                except OSError:  # it died meanwhile: its pipe's end is seen by _receive
                    pass
            self.idle = []
