"""A reader that goes away is not an error (issue 8, "What a new user ran into": `pbem log GAME |
head` ended with "Error: [Errno 32] Broken pipe" and status 1).

The commands run as the console script does (``python -m pbem.cli``, which calls
``pbem.cli.run``) in a child process writing into a real pipe."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import pbem_env

PIPE_BUFFER = 65536  # Linux's default pipe capacity (pipe(7)): more than this cannot be written
# before the reader reads, so a longer output is still being written when the reader leaves


def pbem(*args):
    return [sys.executable, "-m", "pbem.cli", *args]


def env(home=None):
    """The child's environment: no PBEM_HOME; on PostgreSQL, PBEM_DB naming ``home``'s
    database (conftest.pbem_env)."""
    e = pbem_env(home)
    e.pop("PBEM_HOME", None)
    return e


def test_log_into_head_ends_quietly_with_status_0(demo_game):
    home = os.path.join(demo_game["out"], "home")
    args = pbem("--home", home, "log", demo_game["game"])
    # the whole log, into a file: the output is longer than a pipe holds
    whole = subprocess.run(args, capture_output=True, env=env(home), check=True).stdout
    assert len(whole) > PIPE_BUFFER and whole.count(b"\n") > 100
    # `pbem log GAME | head -1`: read one line, then close the pipe
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=env(home))
    first = child.stdout.readline()
    child.stdout.close()
    stderr = child.stderr.read()
    assert child.wait(timeout=60) == 0, stderr
    assert first == whole.splitlines(keepends=True)[0]
    assert stderr == b""


def run_into_closed_pipe(args):
    """Run ``args`` with standard output a pipe whose reader has already gone: every write
    fails with EPIPE. Returns (status, stderr)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        home = args[args.index("--home") + 1] if "--home" in args else None
        p = subprocess.run(args, stdout=write_end, stderr=subprocess.PIPE, env=env(home),
                           timeout=120)
    finally:
        os.close(write_end)
    return p.returncode, p.stderr.decode()


@pytest.mark.parametrize("command", [
    ["log", "{game}"],
    ["log", "{game}", "--json"],
    ["status"],
    ["status", "--json"],
    ["report", "{game}", "--role", "red"],
    ["verify", "{game}"],
    ["rules", "atlantis"],
    ["--help"],
    ["game", "new", "--help"],
])
def test_every_command_writing_output_ends_quietly_when_its_reader_is_gone(demo_game, command):
    home = os.path.join(demo_game["out"], "home")
    args = [a.format(game=demo_game["game"]) for a in command]
    status, stderr = run_into_closed_pipe(pbem("--home", home, *args))
    assert (status, stderr) == (0, "")


def test_a_real_error_still_fails_when_the_reader_is_gone(demo_game):
    """Only the closed output is forgiven: an unknown game is still an error (status 1), with
    its message on standard error."""
    home = os.path.join(demo_game["out"], "home")
    status, stderr = run_into_closed_pipe(pbem("--home", home, "log", "no-such-game"))
    assert status == 1 and "no game 'no-such-game'" in stderr


def test_a_broken_pipe_that_is_not_standard_output_stays_an_error():
    """A broken pipe of the command's own (to a sendmail process, say) while standard output
    is fine is reported as an error, not swallowed."""
    from click.testing import CliRunner

    from pbem.cli import _fail_on_errors, main

    @main.command("pipe-test-command", hidden=True)
    @_fail_on_errors
    def broken():
        raise BrokenPipeError(32, "Broken pipe")

    try:
        r = CliRunner().invoke(main, ["pipe-test-command"])
        assert r.exit_code == 1 and "Broken pipe" in r.output
        assert isinstance(r.exception, SystemExit)
    finally:
        main.commands.pop("pipe-test-command")
