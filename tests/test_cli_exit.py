"""The console script ends the process itself once a command is done (``pbem.cli.run``: standard
output and error flushed, then ``os._exit`` with the command's status, skipping the
interpreter's shutdown; issue 11, "Start-up"). What the command printed and its exit status
must be exactly what they would be otherwise.

The commands run as cron and procmail run them: ``python -m pbem.cli`` (which calls
``pbem.cli.run``) in a child process, with standard output a file, so fully buffered until the
end."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import pbem_env


def pbem(*args):
    return [sys.executable, "-m", "pbem.cli", *args]


def test_a_long_output_into_a_file_is_whole_at_exit(demo_game, tmp_path):
    """`pbem log GAME --json > FILE` holds the very lines `pbem log GAME --output FILE2` writes
    itself (a file the command closes): nothing was left in the buffer when the process
    ended."""
    home = os.path.join(demo_game["out"], "home")
    redirected, written = tmp_path / "redirected.jsonl", tmp_path / "written.jsonl"
    with open(redirected, "wb") as out:
        done = subprocess.run(pbem("--home", home, "log", demo_game["game"], "--json"),
                              stdout=out, stderr=subprocess.PIPE, env=pbem_env(home),
                              timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode()
    subprocess.run(pbem("--home", home, "log", demo_game["game"], "--output", str(written)),
                   check=True, capture_output=True, env=pbem_env(home), timeout=120)
    data = redirected.read_bytes()
    assert len(data) > 65536  # more than a pipe or a small buffer holds
    assert data.decode().splitlines() == written.read_text(encoding="utf-8").splitlines()
    assert all(json.loads(line) for line in data.decode().splitlines())  # whole lines


def test_an_error_keeps_its_message_and_status_1(tmp_path):
    """A home without a database: "Error: ..." on standard error, exit status 1 (click's
    ClickException), nothing on standard output."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    done = subprocess.run(pbem("--home", str(tmp_path / "none"), "status"),
                          capture_output=True, env=env, timeout=120, check=False)
    assert done.returncode == 1
    assert done.stdout == b""
    err = done.stderr.decode()
    assert err.startswith("Error: no pbem database at ") and "run `pbem init` first" in err


def test_a_usage_error_keeps_status_2(tmp_path):
    """A command line click cannot parse: its usage message, exit status 2 (click's
    UsageError)."""
    done = subprocess.run(pbem("process", "--no-such-option"), capture_output=True,
                          env=pbem_env(tmp_path), timeout=120, check=False)
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.startswith(b"Usage: ")
    assert b"Error: No such option '--no-such-option'" in done.stderr
