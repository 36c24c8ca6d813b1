"""Reading messages in worker processes, each message under a time and memory budget.

Parsing mail from outside is the step that hostile mail attacks (issue 7: a Content-Type with
100,000 parameters, 120,000 nested blockquotes). :class:`Reading` forks worker processes that
read the archived messages of one chunk (:func:`pbem.engine.reader.read_message`) and send the
results back over a pipe, while the judge works on the previous chunk. Each worker:

- lowers its address-space limit (``RLIMIT_AS``) to what it uses at the start plus
  ``budget.memory_mb``, so an allocation past the budget raises ``MemoryError`` in the worker,
  never in the judge;
- arms a timer of ``budget.seconds`` per message (``SIGALRM``), so a slow message is given up
  at a bytecode boundary.

The judge's side watches every worker: a worker that sends nothing for twice the time budget (a
parser stuck inside C code) is killed, and one that dies (a crash, the kernel's OOM killer) is
noticed at its pipe's end. In every case the message it was reading gets a failure sentence of
its own, and a new worker reads the rest. One message can therefore never stop the others.

Platforms without ``fork`` (Windows) read in-process, without these budgets.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import selectors
import signal
import struct
import time
from dataclasses import dataclass

import pbem.crypto.find  # noqa: F401  (loaded once here, not again in every forked worker)
import pbem.mail.extract  # noqa: F401
from pbem.engine.reader import Arrival, ReadMessage, read_message, unread

WORKERS = 2
"""Reader processes at most (the judge itself runs in the main process)."""

_LENGTH = struct.Struct(">Q")


@dataclass(frozen=True)
class Budget:
    """What reading one message may cost: ``seconds`` of wall-clock time and ``memory_mb``
    MiB of address space above what the worker holds when it starts (docs/mail.md, settings
    ``[ingest] read_seconds`` and ``read_memory_mb``)."""

    seconds: float = 10.0
    memory_mb: int = 512

    def over_time(self) -> str:
        return (f"reading it took longer than the judge allows for one message "
                f"({self.seconds:g} s); it was given up")

    def over_memory(self) -> str:
        return (f"reading it needed more memory than the judge allows for one message "
                f"({self.memory_mb} MiB); it was given up")


class _OverTime(BaseException):
    """Raised by the per-message timer; a BaseException, so that no ``except Exception`` in
    the mail layer can swallow it."""


def _on_alarm(_signum, _frame):
    raise _OverTime()


def _vm_size() -> int | None:
    """This process's address-space size in bytes (Linux ``/proc/self/status`` VmSize)."""
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _limit_memory(budget: Budget) -> None:
    import resource

    used = _vm_size()
    if used is None:
        return
    limit = used + budget.memory_mb * 1024 * 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _read_one(item: Arrival, budget: Budget) -> ReadMessage:
    start = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, budget.seconds)
    try:
        result = read_message(item)
        if time.monotonic() - start > budget.seconds:  # the timer's signal came too late
            raise _OverTime()
    except _OverTime:
        return unread(item, budget.over_time())
    except MemoryError:
        return unread(item, budget.over_memory())
    except RecursionError:
        return unread(item, "its structure is nested too deeply to read")
    except Exception as e:  # a reader bug: this message fails, the others go on
        return unread(item, f"the reader failed on it ({type(e).__name__})")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    result.raw = b""  # the judge has the bytes already
    return result


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _worker(items: list[Arrival], indices: list[int], fd: int, budget: Budget) -> None:
    """A forked worker's whole life: read ``items[i]`` for each i and send ``(i, result)``."""
    code = 0
    try:
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})  # whatever the parent did
        _limit_memory(budget)
        for i in indices:
            try:
                data = pickle.dumps((i, _read_one(items[i], budget)), pickle.HIGHEST_PROTOCOL)
            except MemoryError:
                data = pickle.dumps((i, None))
            _write_all(fd, _LENGTH.pack(len(data)) + data)
    except BaseException:
        code = 1
    finally:
        os._exit(code)  # never run the parent's atexit handlers or touch its connections


class _Worker:
    def __init__(self, items, indices, budget):
        self.indices = list(indices)
        self.buffer = bytearray()
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child; its results are what the tests check
            os.close(read_fd)
            _worker(items, self.indices, write_fd, budget)
        os.close(write_fd)
        self.pid, self.fd = pid, read_fd
        os.set_blocking(read_fd, False)
        self.last = time.monotonic()

    def take(self) -> list[tuple[int, ReadMessage | None]]:
        """Decode the whole results in the buffer."""
        out = []
        while len(self.buffer) >= _LENGTH.size:
            (n,) = _LENGTH.unpack_from(self.buffer)
            if len(self.buffer) < _LENGTH.size + n:
                break
            out.append(pickle.loads(bytes(self.buffer[_LENGTH.size:_LENGTH.size + n])))
            del self.buffer[:_LENGTH.size + n]
        return out

    def end(self, kill: bool) -> str:
        """Close the pipe and reap the process; returns how it ended, in words."""
        if kill:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        os.close(self.fd)
        _, status = os.waitpid(self.pid, 0)
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            return "it was stopped" if kill else f"the reader crashed on it (signal {sig})"
        return f"the reader stopped on it (exit status {os.WEXITSTATUS(status)})"


class Reading:
    """The messages of one chunk, being read by worker processes; :meth:`results` waits.

    ``items`` are archived :class:`~pbem.engine.reader.Arrival` values. Results come back in
    the same order, one :class:`~pbem.engine.reader.ReadMessage` each, with the ``raw`` bytes
    of the item and ``failure`` set for a message that could not be read within ``budget``.
    """

    def __init__(self, items: list[Arrival], budget: Budget, workers: int = WORKERS):
        self.items, self.budget = items, budget
        self.results_by_index: dict[int, ReadMessage] = {}
        self.workers: list[_Worker] = []
        if not items:
            return
        if "fork" not in multiprocessing.get_all_start_methods():  # pragma: no cover
            for i, item in enumerate(items):
                self.results_by_index[i] = read_message(item)
            return
        n = max(1, min(workers, os.cpu_count() or 1, len(items)))
        step = -(-len(items) // n)
        for start in range(0, len(items), step):
            self.workers.append(_Worker(items, range(start, min(start + step, len(items))),
                                        budget))

    def _give_up(self, worker: _Worker, kill: bool) -> None:
        """End ``worker``; its current message fails; a new worker reads the rest."""
        how = worker.end(kill)
        self.workers.remove(worker)
        left = [i for i in worker.indices if i not in self.results_by_index]
        if not left:
            return
        current = left[0]
        why = self.budget.over_time() if kill else how
        self.results_by_index[current] = unread(self.items[current], why)
        if left[1:]:
            self.workers.append(_Worker(self.items, left[1:], self.budget))

    def results(self) -> list[ReadMessage]:
        """Wait for every message to be read (or given up); results in the items' order."""
        stuck_after = 2 * self.budget.seconds + 1
        now = time.monotonic()
        for w in self.workers:
            w.last = now  # the judge may have been busy: the clock starts when it listens
        with selectors.DefaultSelector() as sel:
            while self.workers:
                self._watch(sel)
                ready = sel.select(timeout=0.5)
                self._step(ready, stuck_after)
        out = []
        for i, item in enumerate(self.items):
            result = self.results_by_index[i]
            result.raw, result.id = item.raw, item.id
            out.append(result)
        return out

    def _watch(self, sel) -> None:
        """Make ``sel`` watch exactly the live workers' pipes."""
        live = {w.fd: w for w in self.workers}
        for fd, key in list(sel.get_map().items()):
            if live.get(fd) is not key.data:  # ended (its fd may be reused by a new worker)
                sel.unregister(fd)
        for fd, w in live.items():
            if fd not in sel.get_map():
                sel.register(fd, selectors.EVENT_READ, w)

    def _step(self, ready, stuck_after: float) -> None:
        """Take what the ready workers sent; end those that finished or are stuck."""
        now = time.monotonic()
        for key, _ in ready:
            w = key.data
            try:
                data = os.read(w.fd, 1 << 20)
            except BlockingIOError:
                continue
            if not data:  # the worker has ended
                self._collect(w)
                self._give_up(w, kill=False)
                continue
            w.buffer += data
            w.last = now
            self._collect(w)
        for w in list(self.workers):
            if now - w.last > stuck_after:
                self._give_up(w, kill=True)

    def _collect(self, worker: _Worker) -> None:
        for i, result in worker.take():
            if result is None:
                result = unread(self.items[i], self.budget.over_memory())
            self.results_by_index[i] = result
