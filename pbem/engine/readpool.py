"""Reading messages in worker processes, each message under a time and memory budget.

Parsing mail from outside is the step that hostile mail attacks (issue 7: a Content-Type with
100,000 parameters, 120,000 nested blockquotes). A :class:`ReadPool` forks worker processes
once per ingest run; the judge hands them the archived messages of each chunk
(:meth:`ReadPool.submit`) and they read them (:func:`pbem.engine.reader.read_message`) and send
the results back over a pipe, while the judge works on the chunks already read. Each worker:

- lowers its address-space limit (``RLIMIT_AS``) to what it uses at the start plus
  ``budget.memory_mb``, so an allocation past the budget raises ``MemoryError`` in the worker,
  never in the judge;
- arms a timer of ``budget.seconds`` per message (``SIGALRM``), so a slow message is given up
  at a bytecode boundary;
- runs at a lower scheduling priority than the judge (``nice`` +:data:`NICE`), so the judge,
  which goes through the messages in order, keeps a core;
- never collects the judge's objects (``gc.freeze``), and after reading a message may do
  judging work ahead of the judge (``prepare``, pbem.engine.prepare) under a time budget of its
  own;
- is replaced by a fresh one after :data:`RECYCLE_AFTER` messages, so that what a long run
  leaves in its heap never eats into the memory budget of later messages.

A worker is forked when the first message is handed to it (one message forks one worker), and
lives until the pool closes; what a worker does is :mod:`pbem.engine.readworker`. Messages go
to the worker with the fewest waiting, as frames over a pipe (a pipe of 1 MiB where Linux
allows); results come back in order on another.

The judge's side watches every worker: a worker that sends nothing for twice the time budget
while it has work (a parser stuck inside C code) is killed, and one that dies (a crash, the
kernel's OOM killer) is noticed at its pipe's end. In every case the message it was reading
gets a failure sentence of its own, and a new worker reads the rest. One message can
therefore never stop the others.

:class:`Reading` is one chunk's worth of work: ``Reading(items, budget).results()`` reads the
items in a pool of its own (docs/mail.md, "For developers"); ``pool.submit(items)`` gives the
same in a pool shared by a whole ingest run.

Platforms without ``fork`` (Windows) read in-process, without these budgets.
"""

from __future__ import annotations

import os
import pickle
import selectors
import signal
import time
from collections import deque

import pbem.crypto.find  # noqa: F401  (loaded once here, not again in every forked worker)
from pbem.crypto import fastverify
import pbem.mail.extract  # noqa: F401
from pbem.engine.reader import Arrival, ReadMessage, read_message, unread
from pbem.engine.readworker import (  # noqa: F401  (Budget and NICE: the names callers use)
    _LENGTH,
    NICE,
    PIPE_BYTES,
    Budget,
    _frame,
    _worker,
)

WORKERS = 2
"""Reader processes at most (the judge itself runs in the main process)."""
RECYCLE_AFTER = 1000
"""Messages a worker reads before it is replaced by a fresh fork."""
_SETPIPE_SZ = 1031  # fcntl.F_SETPIPE_SZ (Linux)


def _big_pipe() -> tuple[int, int]:
    read_fd, write_fd = os.pipe()
    try:
        import fcntl

        fcntl.fcntl(write_fd, _SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, OSError):  # not Linux, or over /proc/sys/fs/pipe-max-size
        pass
    return read_fd, write_fd


class _Worker:
    """One forked reader, seen from the judge: its pipes, the keys it was given and has not
    answered yet (in order: the first is the one it is reading), what is still to be written to
    it, and when it last showed progress."""

    def __init__(self, budget: Budget, others: list["_Worker"], prepare=None,
                 slim: bool = False):
        task_read, self.task_fd = _big_pipe()
        self.fd, result_write = _big_pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child; its results are what the tests check
            try:  # the other workers' pipe ends: the judge's alone (their ends must close)
                open_fds = [self.task_fd, self.fd] + [w.fd for w in others]
                for fd in open_fds + [w.task_fd for w in others if w.task_open]:
                    os.close(fd)
                _worker(task_read, result_write, budget, prepare, slim)  # ends the process
            finally:
                os._exit(1)
        os.close(task_read)
        os.close(result_write)
        self.pid = pid
        os.set_blocking(self.fd, False)
        os.set_blocking(self.task_fd, False)
        self.pending: deque = deque()  # keys given and not answered, in order
        self.outgoing = bytearray()  # frames not yet written to the task pipe
        self.buffer = bytearray()  # result bytes not yet decoded
        self.given = 0
        self.last = time.monotonic()
        self.closed = False  # given all its work: the task pipe closes once it is written
        self.task_open = True

    def give(self, key, item: Arrival) -> None:
        if not self.pending:
            self.last = time.monotonic()  # the watchdog's clock starts with the work
        self.pending.append(key)
        self.outgoing += _frame(("item", key, item))
        self.given += 1

    def send(self, frame: bytes) -> None:
        """Queue a frame that asks for no answer (``("share", value)``)."""
        if not self.closed:
            self.outgoing += frame

    def push(self) -> None:
        """Write what the task pipe takes now; close it once all is written after
        :meth:`finish`."""
        while self.outgoing and self.task_open:
            try:
                n = os.write(self.task_fd, self.outgoing)
            except (BlockingIOError, InterruptedError):
                return
            except BrokenPipeError:  # it died: the result pipe's end will say so
                self.outgoing.clear()
                break
            del self.outgoing[:n]
        if self.closed and self.task_open and not self.outgoing:
            self.task_open = False
            os.close(self.task_fd)

    def take(self) -> list[tuple[object, ReadMessage | None]]:
        """Decode the whole results in the buffer (read in place; the buffer is shortened
        once, not after each result)."""
        out = []
        buffer, pos = self.buffer, 0
        with memoryview(buffer) as view:
            while len(buffer) - pos >= _LENGTH.size:
                (n,) = _LENGTH.unpack_from(buffer, pos)
                start = pos + _LENGTH.size
                if len(buffer) - start < n:
                    break
                with view[start:start + n] as frame:
                    out.append(pickle.loads(frame))
                pos = start + n
        if pos:
            del buffer[:pos]
        return out

    def finish(self) -> None:
        """No more work: the task pipe is closed once what is queued is written, so the
        worker ends when it has answered."""
        self.closed = True
        self.push()

    def end(self, kill: bool) -> str:
        """Close the pipes and reap the process; returns how it ended, in words."""
        if kill:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.closed = True
        self.outgoing.clear()
        self.push()  # closes the task pipe
        os.close(self.fd)
        _, status = os.waitpid(self.pid, 0)
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            return "it was stopped" if kill else f"the reader crashed on it (signal {sig})"
        return f"the reader stopped on it (exit status {os.WEXITSTATUS(status)})"


class ReadPool:
    """Worker processes reading archived messages for one ingest run; a context manager (the
    workers end when it closes). :meth:`submit` hands over a chunk and returns its
    :class:`Reading`; results come back in each chunk's order.

    ``budget`` is what one message may cost; ``workers`` the most reader processes alive at
    once (at most the machine's cores). The workers are forked when the first chunk comes.
    ``prepare`` (optional; pbem.engine.prepare.Preparer) is called on each message read, in
    the worker, under a time budget of its own; :meth:`share` sends it values. ``slim``: the
    results come without the message's texts (``extracted.texts``, ``alternates``,
    ``raw_bytes``, ``sig_files``), which only finding the signatures needs.
    """

    def __init__(self, budget: Budget = Budget(), workers: int = WORKERS, prepare=None,
                 slim: bool = False):
        self.budget, self.prepare, self.slim = budget, prepare, slim
        self.size = max(1, min(workers, os.cpu_count() or 1))
        self.forks = hasattr(os, "fork")  # not multiprocessing: its import costs every ingest
        self.workers: list[_Worker] = []
        self.waiting: dict[int, Arrival] = {}  # key -> item given to a worker, not answered
        self.done: dict[int, ReadMessage] = {}
        self._next = 0
        self._polled = time.monotonic()
        self._sel: selectors.BaseSelector | None = None
        self._scratch = bytearray(PIPE_BYTES)
        fastverify.available()  # libsodium loaded once here, not in every forked worker

    def __enter__(self) -> "ReadPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def submit(self, items: list[Arrival]) -> "Reading":
        """Start reading ``items`` (archived arrivals); returns their :class:`Reading`."""
        return Reading(items, self.budget, pool=self)

    def share(self, value) -> None:
        """Give ``value`` to ``prepare.update`` in every worker, before the messages submitted
        after this call (and in this process, which later workers are forked from)."""
        if self.prepare is None:
            return
        self.prepare.update(value)
        frame = _frame(("share", value))
        for w in self.workers:
            w.send(frame)
            w.push()

    def close(self) -> None:
        """End every worker: an idle one when it has read the end of its task pipe, one still
        reading is killed. Results not collected are dropped."""
        for w in self.workers:
            w.finish()
        for w in self.workers:
            w.end(kill=bool(w.pending))
        self.workers = []
        if self._sel is not None:
            self._sel.close()
            self._sel = None
        self.waiting.clear()
        self.done.clear()

    # ------------------------------------------------------------ the judge's side

    def _submit(self, items: list[Arrival]) -> list[int]:
        keys = list(range(self._next, self._next + len(items)))
        self._next += len(items)
        for key, item in zip(keys, items):
            if self.forks:
                self.waiting[key] = item
                self._assign(key, item)
            else:  # pragma: no cover - no fork (Windows): in-process, without the budgets
                self.done[key] = result = read_message(item)
                if self.prepare is not None and result.found:
                    self.prepare(result)
        for w in self.workers:
            w.push()
        return keys

    def _assign(self, key: int, item: Arrival) -> None:
        """Give ``item`` to the live worker with the least work, forking one if fewer than
        :attr:`size` are alive; a worker that has been given :data:`RECYCLE_AFTER` messages
        gets no more (it ends once it has answered them)."""
        for w in self.workers:
            if not w.closed and w.given >= RECYCLE_AFTER:
                w.finish()
        live = [w for w in self.workers if not w.closed]
        if len(live) < self.size:
            worker = _Worker(self.budget, self.workers, self.prepare, self.slim)
            self.workers.append(worker)
        else:
            worker = min(live, key=lambda w: len(w.pending))
        worker.give(key, item)

    def _collected(self, keys: list[int], items: list[Arrival], wait: bool) -> bool:
        """Poll the workers until every key of ``keys`` is answered (``wait``) or once (not
        ``wait``); True when all are."""
        stuck_after = 2 * self.budget.seconds + 1
        if not wait:
            self._poll(stuck_after, 0.0)
        while not all(k in self.done for k in keys):  # checked first: all may be in already
            if not wait:
                return False
            self._poll(stuck_after, 0.5)
        return True

    def _poll(self, stuck_after: float, timeout: float) -> None:
        now = time.monotonic()
        if now - self._polled > stuck_after / 2:  # the judge was busy: clocks start now
            for w in self.workers:
                w.last = now
        ready = self._watch().select(timeout=timeout) if self.workers else []
        now = self._polled = time.monotonic()
        for key, events in ready:
            w = key.data
            if w not in self.workers:
                continue
            if events & selectors.EVENT_WRITE:
                w.push()
                continue
            try:  # into one buffer of the pool's: os.read would allocate PIPE_BYTES each time
                got = os.readv(w.fd, [self._scratch])
            except BlockingIOError:
                continue
            if not got:  # the worker has ended
                self._collect(w)
                self._give_up(w, kill=False)
                continue
            with memoryview(self._scratch) as data:
                w.buffer += data[:got]
            w.last = now
            self._collect(w)
        for w in list(self.workers):
            if w.pending and now - w.last > stuck_after:
                self._give_up(w, kill=True)

    def _watch(self) -> selectors.BaseSelector:
        """The pool's selector, watching exactly the live workers' result pipes and the task
        pipes that have something to write (an ended worker's numbers may be reused)."""
        if self._sel is None:
            self._sel = selectors.DefaultSelector()
        want = {}
        for w in self.workers:
            want[w.fd] = (selectors.EVENT_READ, w)
            if w.outgoing and w.task_open:
                want[w.task_fd] = (selectors.EVENT_WRITE, w)
        for fd, key in list(self._sel.get_map().items()):
            if want.get(fd) != (key.events, key.data):
                self._sel.unregister(fd)
        for fd, (events, w) in want.items():
            if fd not in self._sel.get_map():
                self._sel.register(fd, events, w)
        return self._sel

    def _collect(self, worker: _Worker) -> None:
        for key, result in worker.take():
            if worker.pending and worker.pending[0] == key:
                worker.pending.popleft()
            item = self.waiting.pop(key, None)
            if item is None:
                continue
            self.done[key] = result if result is not None else unread(item,
                                                                       self.budget.over_memory())

    def _give_up(self, worker: _Worker, kill: bool) -> None:
        """End ``worker``; the message it was reading fails; the rest go to other workers."""
        how = worker.end(kill)
        self.workers.remove(worker)
        left = [k for k in worker.pending if k in self.waiting]
        worker.pending.clear()
        if not left:
            return
        current = left[0]
        why = self.budget.over_time() if kill else how
        self.done[current] = unread(self.waiting.pop(current), why)
        for key in left[1:]:
            self._assign(key, self.waiting[key])
        for w in self.workers:
            w.push()

    def _results(self, keys: list[int], items: list[Arrival]) -> list[ReadMessage]:
        self._collected(keys, items, wait=True)
        out = []
        for key, item in zip(keys, items):
            result = self.done.pop(key)
            result.raw, result.id = item.raw, item.id
            out.append(result)
        return out


class Reading:
    """The messages of one chunk, being read by worker processes; :meth:`results` waits.

    ``items`` are archived :class:`~pbem.engine.reader.Arrival` values. Results come back in
    the same order, one :class:`~pbem.engine.reader.ReadMessage` each, with the ``raw`` bytes
    of the item and ``failure`` set for a message that could not be read within ``budget``.
    Without ``pool`` the chunk gets a :class:`ReadPool` of its own (``workers`` processes),
    closed once the results are in.
    """

    def __init__(self, items: list[Arrival], budget: Budget = Budget(), workers: int = WORKERS,
                 *, pool: ReadPool | None = None):
        self.items = list(items)
        self._own = pool is None
        self.pool = ReadPool(budget, workers) if pool is None else pool
        self.keys = self.pool._submit(self.items)

    def ready(self) -> bool:
        """Whether every message is read (or given up), without waiting."""
        return self.pool._collected(self.keys, self.items, wait=False)

    def results(self) -> list[ReadMessage]:
        """Wait for every message to be read (or given up); results in the items' order."""
        try:
            return self.pool._results(self.keys, self.items)
        finally:
            if self._own:
                self.pool.close()
