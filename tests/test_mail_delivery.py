"""The delivery loop apart from SMTP (docs/mail.md, "Sending"): a sendmail-compatible program,
the outbox folder under the same claims, the retry schedule and giving up, and the Message-ID
of a queued mail composed twice."""

from __future__ import annotations

import email
import json
import stat
import sys
from datetime import timedelta
from email import policy

import pytest
from click.testing import CliRunner
from conftest import START, Player

from pbem.cli import main
from pbem.engine.creation import GameSpec
from pbem.engine.delivery import (FIRST_RETRY_SECONDS, GIVE_UP_SECONDS, LEASE_SECONDS,
                                  MAX_RETRY_SECONDS, compose_queued, retry_delay)

FROM = "referee@judge.example"


def stamp(when) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def cli(referee, *args, at=START):
    return CliRunner().invoke(main, ["--home", str(referee.home.path), "--now", stamp(at),
                                     *args], catch_exceptions=False)


def new_game(referee, gid="h1", roles=("red", "blue")):
    players = {r: Player(r, seed=f"{gid}/{r}", referee=referee) for r in roles}
    referee.new_game(GameSpec(ruleset="hunt", game_id=gid,
                              players=tuple(p.spec() for p in players.values()), options={}))
    return players


@pytest.fixture
def fake_sendmail(tmp_path):
    """A sendmail stand-in that records its arguments and standard input (one JSON line per
    call in ``calls.jsonl``) and exits with the status in the file ``exit`` (0 when absent),
    writing the file ``stderr`` to its standard error."""
    folder = tmp_path / "sendmail"
    folder.mkdir()
    script = folder / "sendmail"
    script.write_text(f"""#!{sys.executable}
import json, pathlib, sys
here = pathlib.Path({str(folder)!r})
with open(here / "calls.jsonl", "a") as f:
    f.write(json.dumps({{"argv": sys.argv, "stdin": sys.stdin.buffer.read().decode()}}) + "\\n")
err = here / "stderr"
if err.exists():
    sys.stderr.write(err.read_text())
code = here / "exit"
sys.exit(int(code.read_text()) if code.exists() else 0)
""")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)

    class Fake:
        path = script

        @staticmethod
        def calls():
            f = folder / "calls.jsonl"
            return [json.loads(x) for x in f.read_text().splitlines()] if f.exists() else []

        @staticmethod
        def fail(status: int, stderr: str = ""):
            (folder / "exit").write_text(str(status))
            (folder / "stderr").write_text(stderr)

    return Fake


# ---------------------------------------------------------------- sendmail

def test_sendmail_gets_the_message_on_stdin_and_the_envelope_as_arguments(referee,
                                                                          fake_sendmail):
    new_game(referee)
    r = cli(referee, "send", "--sendmail", str(fake_sendmail.path))
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == "sent 2, retry later 0, failed 0"
    calls = fake_sendmail.calls()
    assert [c["argv"][1:] for c in calls] == [
        ["-i", "-f", FROM, "--", "red@players.example"],
        ["-i", "-f", FROM, "--", "blue@players.example"]]
    for call in calls:
        assert "\r\n" not in call["stdin"]  # local submission: LF line ends
        msg = email.message_from_string(call["stdin"], policy=policy.default)
        assert msg["From"] == FROM and msg["To"] in call["argv"]
        assert "setup report" in msg["Subject"]
    assert [m["status"] for m in referee.mail()["mail"]] == ["sent", "sent"]


def test_sendmail_exit_75_is_retried_and_another_status_fails_with_its_stderr(referee,
                                                                            fake_sendmail):
    new_game(referee)
    fake_sendmail.fail(75, "queue directory full\n")
    r = cli(referee, "send", "--sendmail", str(fake_sendmail.path))
    assert r.exit_code == 0
    assert r.output.splitlines()[0] == "sent 0, retry later 2, failed 0"
    assert "exited with status 75 (EX_TEMPFAIL): queue directory full" in r.output
    fake_sendmail.fail(67, "sendmail: red@players.example... User unknown\n")
    r = cli(referee, "send", "--sendmail", str(fake_sendmail.path),
            at=START + timedelta(minutes=5))
    assert r.exit_code == 1
    assert r.output.splitlines()[0] == "sent 0, retry later 0, failed 2"
    assert "exited with status 67: sendmail: red@players.example... User unknown" in r.output
    failed = referee.mail(status="failed")["mail"]
    assert [m["attempts"] for m in failed] == [2, 2]
    assert "User unknown" in failed[0]["answer"]


def test_sendmail_that_is_not_there_is_named(referee, tmp_path):
    new_game(referee)
    r = cli(referee, "send", "--sendmail", str(tmp_path / "no-such-sendmail"))
    assert r.exit_code == 1 and "no-such-sendmail" in r.output and "no such program" in r.output
    r = cli(referee, "send", "--sendmail", "/bin/true", "--smtp-host", "localhost")
    assert r.exit_code == 1 and "not both" in r.output


def test_sendmail_over_its_time_budget_is_stopped_and_retried(referee, tmp_path):
    from pbem.mail.transports import SendmailTransport

    new_game(referee)
    slow = tmp_path / "slow-sendmail"
    slow.write_text("#!/bin/sh\nsleep 30\n")
    slow.chmod(0o755)
    run = referee.send(transport=SendmailTransport(str(slow), timeout=0.5), limit=1)
    assert [(x.status, x.attempts) for x in run.results] == [("retry", 1)]
    assert "did not finish within 0.5 s" in run.results[0].answer


# ---------------------------------------------------------------- retries

def test_the_retry_schedule_doubles_from_5_minutes_up_to_6_hours():
    assert [retry_delay(n) for n in range(1, 10)] == [
        300, 600, 1200, 2400, 4800, 9600, 19200, 21600, 21600]
    assert FIRST_RETRY_SECONDS == 300 and MAX_RETRY_SECONDS == 6 * 3600
    assert GIVE_UP_SECONDS == 3 * 86400 and LEASE_SECONDS == 600


def test_temporary_failures_back_off_then_give_up_after_three_days(referee, clock,
                                                                   fake_sendmail):
    from pbem.mail.transports import SendmailTransport

    new_game(referee, roles=("red", "blue"))
    fake_sendmail.fail(75, "try later\n")
    transport = SendmailTransport(str(fake_sendmail.path))
    waits = []
    for _ in range(4):
        run = referee.send(transport=transport, limit=1)
        (res,) = run.results
        assert res.status == "retry" and res.id == 1
        waits.append((res.next_try - clock()).total_seconds())
        # blue, never tried, is due: limit 1 takes it next time; jump to red's next try
        run = referee.send(transport=transport)
        assert {x.id for x in run.results} <= {2}
        clock.now = res.next_try
    assert waits == [300, 600, 1200, 2400]
    clock.now = START + timedelta(days=3)
    run = referee.send(transport=transport)
    assert [x.status for x in run.results] == ["failed", "failed"]
    red = referee.mail(status="failed")["mail"][0]
    assert red["answer"].startswith("gave up after 5 attempts in 3.0 days since it was queued; "
                                    "last answer: ")
    assert "try later" in red["answer"] and red["failed"] == "2026-12-02T20:00:00Z"


# ---------------------------------------------------------------- the outbox folder

def test_outbox_writes_the_real_file_names_and_respects_live_claims(referee, clock, tmp_path):
    from pbem.store import outbox as store

    new_game(referee, roles=("red", "blue", "green"))
    with referee.db.write() as s:  # a `pbem send` running elsewhere holds two messages
        assert store.claim(s, "other-run", clock(), clock() + timedelta(minutes=10), 2) == 2
    written = referee.outbox(tmp_path / "out")
    assert [p.name.split("-")[0:4] for p in written] == [["20261129T200000Z", "h1", "report",
                                                          "green"]]
    assert written[0].name.endswith(".eml") and len(written[0].name.split("-")[-1]) == 16
    clock.advance(minutes=9)
    assert referee.outbox(tmp_path / "out") == []  # still held
    clock.advance(minutes=2)  # the other run died: its claims expired
    later = referee.outbox(tmp_path / "out")
    assert sorted(p.name.split("-")[3] for p in later) == ["blue", "red"]
    assert referee.mail(status="queued")["mail"] == []


def test_outbox_into_a_file_is_an_error_and_keeps_the_mail_queued(referee, tmp_path):
    new_game(referee)
    blocker = tmp_path / "out"
    blocker.write_text("")
    r = cli(referee, "outbox", str(blocker / "sub"))
    assert r.exit_code == 1 and "cannot write to outbox folder" in r.output
    assert r.output.startswith("0 messages written")
    assert len(referee.mail(status="queued")["mail"]) == 2


def test_a_mail_that_cannot_be_composed_is_failed_not_dropped(referee, tmp_path):
    from pbem.engine.notices import queue_notices
    from pbem.store import repo
    from pbem.store.models import Outbox

    new_game(referee)
    referee.outbox(tmp_path / "setup")
    with referee.db.write() as s:
        game = repo.get_game(s, "h1")
        queue_notices(s, referee.sealer, game, repo.players(s, "h1"), kind="notice",
                      subject="hello", text="hello", now=referee.clock())
    with referee.db.write() as s:  # one address that is none (written as pbem writes rows)
        from sqlalchemy import select

        (row,) = s.exec(select(Outbox).where(Outbox.kind == "notice", Outbox.owner == "red"))
        row.to_addr = "not an address"
        s.add(row)
        nid = row.id
    written = referee.outbox(tmp_path / "out")
    assert len(written) == 1
    ((what, why),) = referee.undeliverable
    assert what == "notice to not an address (h1)" and "cannot be composed" in why
    (failed,) = referee.mail(status="failed")["mail"]
    assert failed["id"] == nid and failed["attempts"] == 0


# ---------------------------------------------------------------- Message-ID

def test_a_queued_mail_composed_twice_is_the_same_bytes_and_ids_differ_per_row(referee):
    from pbem.engine.notices import queue_notices
    from pbem.store import repo
    from pbem.store import outbox as store

    new_game(referee)
    with referee.db.write() as s:  # the same notice queued twice: two mails
        game = repo.get_game(s, "h1")
        players = [p for p in repo.players(s, "h1") if p.role == "red"]
        for _ in range(2):
            queue_notices(s, referee.sealer, game, players, kind="notice", subject="paused",
                          text="The game is paused.", now=referee.clock())
    with referee.db.write() as s:
        store.claim(s, "t", referee.clock(), referee.clock() + timedelta(minutes=1), 10)
    with referee.db.read() as s:
        rows, tampered = store.claimed(s, "t")
        assert not tampered
        notices = [r for r in rows if r.kind == "notice"]
        first = [compose_queued(s, referee.sealer, r) for r in notices]
        again = [compose_queued(s, referee.sealer, r) for r in notices]
    assert first == again  # a re-run after a crash sends the very same mail
    ids = [email.message_from_bytes(data)["Message-ID"] for _, data in first]
    assert ids[0] != ids[1] and all(i.endswith("@judge.example>") for i in ids)
    assert first[0][0] == "referee@judge.example"
