"""`pbem` with the test-only ruleset "hunt" (tests/toygame.py) registered, for tests that run
pbem in a child process of its own: ``python tests/hunt_pbem.py --home H process --due``.

``PBEM_TEST_PAUSE_FILE=PATH``: the first worker process (forked by ``process --workers N``) to
reach the reports of a phase, inside the game's write transaction, creates PATH, writes
``GAME PID`` into it and sleeps there (for a test to kill it mid-phase); every other process,
the command's own included, goes on as usual.

``PBEM_TEST_PHASE_SECONDS=S``: every phase's transaction lasts S seconds longer (a sleep before
its reports), so that a test can have other commands run while the workers are at it.
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import toygame  # noqa: E402

from pbem.engine import registry  # noqa: E402

registry._cache["hunt"] = toygame.ruleset


def _pause_once() -> None:
    path = os.environ.get("PBEM_TEST_PAUSE_FILE")
    slow = float(os.environ.get("PBEM_TEST_PHASE_SECONDS", "0"))
    if not path and not slow:
        return
    import pbem.engine.publish as publish

    real = publish.publish_phase
    command = os.getpid()

    def publish_phase(ctx, **kw):
        time.sleep(slow)
        if not path or os.getpid() == command:
            return real(ctx, **kw)
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return real(ctx, **kw)
        os.write(fd, f"{ctx.game.id} {os.getpid()}\n".encode())
        os.close(fd)
        time.sleep(120)  # killed here, inside the transaction
        return real(ctx, **kw)

    publish.publish_phase = publish_phase


if __name__ == "__main__":
    _pause_once()
    from pbem.cli import run

    sys.argv[0] = "pbem"
    run()
