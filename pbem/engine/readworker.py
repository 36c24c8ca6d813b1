"""A reader process's side of :mod:`pbem.engine.readpool`: what one forked worker does with
the messages the judge hands it, each under a time and memory budget (issue 7), and the frames
they exchange over their pipes (a length, 8 bytes big-endian, then a pickle).

The worker lowers its address-space limit (``RLIMIT_AS``) to what it uses once a message is
received plus ``budget.memory_mb`` (raised again to receive the next), arms a timer of ``budget.seconds`` per message (``SIGALRM``), runs at a
lower priority than the judge (``nice`` +:data:`NICE`), and never collects the judge's objects
(``gc.freeze``). See :mod:`pbem.engine.readpool` for the judge's side.
"""

from __future__ import annotations

import dataclasses
import gc
import os
import pickle
import signal
import struct
import sys
import time
from dataclasses import dataclass

from pbem.engine.reader import Arrival, ReadMessage, read_message, unread

NICE = 5
"""How much lower the workers' scheduling priority is than the judge's (``os.nice``). The judge
is the one process that must go through the messages in order: at equal priority, three
busy processes on two cores give it two thirds of a core while the readers work, and it then
judges the last chunks alone. At +5 the scheduler keeps a core for the judge and the readers
share the other (and take both whenever the judge waits for them): on the 2-core development
machine the time the judge spent runnable but waiting for a core fell from 0.16-0.38 s to
0.05-0.07 s a 1,000-mail run, and the wall time by about a tenth (issue 11). On a machine busy
with other work the readers yield to it too, which may make the judge wait for them."""
PIPE_BYTES = 1 << 20
"""The pipe buffer asked for in each direction (Linux ``F_SETPIPE_SZ``; the default is 64 KiB):
a chunk of typical mail fits, so a worker rarely waits for the judge to pass it work."""

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


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _vm_size() -> int | None:
    """This process's address-space size in bytes (Linux: the first field of
    ``/proc/self/statm``, in pages: the VmSize of ``/proc/self/status``, which the kernel
    writes out with some fifty other fields)."""
    try:
        fd = os.open("/proc/self/statm", os.O_RDONLY)
        try:
            data = os.read(fd, 256)
        finally:
            os.close(fd)
        return int(data.split(None, 1)[0]) * _PAGE
    except (OSError, ValueError, IndexError):
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


def _read_exactly(fd: int, n: int) -> bytes | None:
    """``n`` bytes from ``fd`` (blocking), or None at the end of the pipe."""
    parts, left = [], n
    while left:
        data = os.read(fd, min(left, PIPE_BYTES))
        if not data:
            return None
        parts.append(data)
        left -= len(data)
    return b"".join(parts)


def _frame(obj) -> bytes:
    data = pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(data)) + data


def _prepare(prepare, result: ReadMessage, budget: Budget) -> None:
    """Run ``prepare(result)`` under a time budget of its own; whatever goes wrong (over time,
    out of memory, a bug) only leaves ``result.prepared`` empty: the judge does the work."""
    if prepare is None or result.failure is not None or not result.found:
        return
    start = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, budget.seconds)
    try:
        prepare(result)
        if time.monotonic() - start > budget.seconds:
            raise _OverTime()
    except (_OverTime, MemoryError, RecursionError, Exception):
        result.prepared = {}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _slim(result: ReadMessage) -> ReadMessage:
    """``result`` without what only finding the signatures needed (the texts of the message,
    their other readings and bytes, its signature files): less to send to the judge."""
    ex = result.extracted
    if ex is not None and getattr(ex, "texts", None):
        try:
            result.extracted = dataclasses.replace(ex, texts=[], sig_files=[], alternates={},
                                                   raw_bytes={})
        except TypeError:  # not an Extracted
            pass
    return result


def _worker(tasks: int, results: int, budget: Budget, prepare, slim: bool = False) -> None:
    """A forked worker's whole life: read frames from ``tasks`` until the pipe ends: for
    ``("item", key, Arrival)`` send ``(key, ReadMessage or None)`` on ``results`` (None: the
    result itself did not fit in memory), with ``prepare`` run on it (:func:`_prepare`);
    ``("share", value)`` is given to ``prepare.update``."""
    code = 0
    try:
        sys.setprofile(None)  # a profiler running in the judge does not follow it here
        # The judge's objects are never collected here: the collector would walk them all on
        # each full collection (and copy every page it touches, which fork shares).
        gc.freeze()
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})  # whatever the parent did
        try:
            os.nice(NICE)
        except OSError:
            pass
        import resource

        unlimited = resource.getrlimit(resource.RLIMIT_AS)
        while True:
            # The budget is for reading a message, not for receiving it: the frame (a raw
            # message, bounded by the archive's size limit) comes in under the limit the
            # worker started with, then the budget is counted from what the worker holds.
            resource.setrlimit(resource.RLIMIT_AS, unlimited)
            head = _read_exactly(tasks, _LENGTH.size)
            if head is None:
                break
            body = _read_exactly(tasks, _LENGTH.unpack(head)[0])
            if body is None:
                break
            frame = pickle.loads(body)
            del body
            _limit_memory(budget)
            if frame[0] == "share":
                prepare.update(frame[1])
                continue
            _, key, item = frame
            try:
                result = _read_one(item, budget)
                _prepare(prepare, result, budget)
                data = _frame((key, _slim(result) if slim else result))
            except MemoryError:
                data = _frame((key, None))
            _write_all(results, data)
    except BaseException:
        code = 1
    finally:
        os._exit(code)  # never run the parent's atexit handlers or touch its connections


