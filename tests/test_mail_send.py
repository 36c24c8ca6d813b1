"""`pbem send` against a real SMTP server process on loopback (tests/smtp_server.py, aiosmtpd):
each security mode, certificate verification, login, 4xx then success, 5xx, a kill in the
middle of sending, two runs at once (issue 8, "Mail out"; docs/mail.md, "Sending"). smtplib is
never mocked: every message goes over a socket to the server, which stores it in a Maildir."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import START, Player, pbem_env
from smtp_fixtures import PASSWORD, PASSWORD_ENV, USER, certs, smtp  # noqa: F401

from pbem.cli import main
from pbem.engine.creation import GameSpec

FROM = "referee@judge.example"
ROOT = Path(__file__).resolve().parent.parent


def stamp(when) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def cli(referee, *args, at=START, env=None):
    """Run `pbem --home HOME --now AT ARGS` in this process."""
    return CliRunner().invoke(main, ["--home", str(referee.home.path), "--now", stamp(at),
                                     *args], env=env, catch_exceptions=False)


def configure(referee, smtp_table: str = "") -> None:
    (referee.home.path / "config.toml").write_text(
        f'[mail]\nfrom = "{FROM}"\n\n' + smtp_table, encoding="utf-8")


def new_game(referee, gid: str, roles=("red", "blue"), emails=None) -> dict:
    """A hunt game; its players' setup reports are queued (one mail per role)."""
    emails = emails or {}
    players = {r: Player(r, email=emails.get(r), seed=f"{gid}/{r}", referee=referee)
               for r in roles}
    referee.new_game(GameSpec(ruleset="hunt", game_id=gid,
                              players=tuple(p.spec() for p in players.values()), options={}))
    return players


def queued_ids(referee) -> list[int]:
    return [m["id"] for m in referee.mail(status="queued")["mail"]]


def message_ids(server) -> list[str]:
    return [str(m["Message-ID"]) for m in server.messages()]


# ---------------------------------------------------------------- the three security modes

@pytest.mark.parametrize("mode", ["plain", "starttls", "tls"])
def test_each_security_mode_delivers_every_queued_mail_and_marks_it_sent(referee, smtp, certs,
                                                                         mode):
    server = smtp(mode, auth=mode == "starttls")
    extra = {"user": USER, "password_env": PASSWORD_ENV} if mode == "starttls" else {}
    configure(referee, server.config(cafile=certs["ca"] if mode != "plain" else None, **extra))
    new_game(referee, "h1")
    r = cli(referee, "send", env={PASSWORD_ENV: PASSWORD})
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == "sent 2, retry later 0, failed 0"
    assert PASSWORD not in r.output
    got = server.messages()
    assert sorted(m["To"] for m in got) == ["blue@players.example", "red@players.example"]
    assert all(m["From"] == FROM and "setup report" in m["Subject"] for m in got)
    for entry in server.deliveries():
        assert entry["from"] == FROM and entry["tls"] == (mode != "plain")
        assert entry["login"] == (USER if mode == "starttls" else None)
    listed = referee.mail()["mail"]
    assert [m["status"] for m in listed] == ["sent", "sent"]
    assert all(m["sent"] == "2026-11-29T20:00:00Z" and m["attempts"] == 1 for m in listed)
    again = cli(referee, "send", env={PASSWORD_ENV: PASSWORD})
    assert again.output.splitlines()[0] == "sent 0, retry later 0, failed 0"
    assert len(server.raw()) == 2


@pytest.mark.parametrize("mode", ["starttls", "tls"])
def test_a_certificate_from_an_unknown_authority_is_refused_then_sent_with_the_cafile(
        referee, smtp, certs, mode):
    server = smtp(mode)
    configure(referee, server.config())  # the system's authorities only
    new_game(referee, "h1")
    r = cli(referee, "send")
    # a temporary failure, retried later; but nothing went, so the run fails for cron to see
    assert r.exit_code == 1, r.output
    lines = r.output.splitlines()
    assert lines[0] == "sent 0, retry later 1, failed 0"
    assert "certificate verify failed" in r.output and "cafile" in r.output
    assert "stopped:" in r.output  # the other message was not tried against the same wall
    assert server.raw() == []
    (first,) = [m for m in referee.mail()["mail"] if m["attempts"]]
    assert first["status"] == "queued" and first["next_try"] == "2026-11-29T20:05:00Z"
    assert "certificate verify failed" in first["answer"]
    configure(referee, server.config(cafile=certs["other_ca"]))  # the wrong authority
    assert "retry later 1" in cli(referee, "send").output
    configure(referee, server.config(cafile=certs["ca"]))
    r = cli(referee, "send", at=START + timedelta(minutes=30))
    assert r.output.splitlines()[0] == "sent 2, retry later 0, failed 0"
    assert len(server.raw()) == 2


def test_a_refused_login_stops_the_run_and_blames_no_message(referee, smtp, certs):
    server = smtp("starttls", auth=True)
    configure(referee, server.config(cafile=certs["ca"], user=USER, password_env=PASSWORD_ENV))
    new_game(referee, "h1")
    r = cli(referee, "send", env={PASSWORD_ENV: "wrong-password"})
    assert r.exit_code == 1
    assert "refused the login of 'referee': 535" in r.output and "password_env" in r.output
    assert "wrong-password" not in r.output
    assert [(m["status"], m["attempts"]) for m in referee.mail()["mail"]] == [("queued", 0)] * 2
    r = cli(referee, "send", env={PASSWORD_ENV: PASSWORD})
    assert r.output.splitlines()[0] == "sent 2, retry later 0, failed 0"


def test_a_password_variable_that_is_not_set_is_named(referee, smtp, certs):
    server = smtp("starttls", auth=True)
    configure(referee, server.config(cafile=certs["ca"], user=USER, password_env=PASSWORD_ENV))
    new_game(referee, "h1")
    r = cli(referee, "send", env={PASSWORD_ENV: None})
    assert r.exit_code == 1
    assert f"the environment variable {PASSWORD_ENV} (named by password_env) is not set" \
        in r.output
    assert server.raw() == [] and len(queued_ids(referee)) == 2


def test_the_command_line_overrides_the_settings(referee, smtp, certs):
    server = smtp("starttls", auth=True)
    configure(referee, '[smtp]\nhost = "mail.nowhere.invalid"\nsecurity = "tls"\n'
                       f'cafile = "{certs["ca"]}"\n')
    new_game(referee, "h1")
    r = cli(referee, "send", "--smtp-host", "127.0.0.1", "--smtp-port", str(server.port),
            "--smtp-security", "starttls", "--smtp-user", USER,
            "--smtp-password-env", PASSWORD_ENV, env={PASSWORD_ENV: PASSWORD})
    assert r.output.splitlines()[0] == "sent 2, retry later 0, failed 0", r.output


def test_with_nothing_configured_send_says_what_to_configure(referee):
    new_game(referee, "h1")
    r = cli(referee, "send")
    assert r.exit_code == 1
    for words in ("no way to send mail is configured", "config.toml", "[smtp]", "host =",
                  "password_env", "--smtp-host", "--sendmail", "pbem outbox DIR"):
        assert words in r.output, words
    assert len(queued_ids(referee)) == 2


# ---------------------------------------------------------------- failures and retries

def test_a_4xx_is_retried_after_the_delay_and_then_delivered(referee, smtp):
    server = smtp("plain", tempfail=["red@players.example"])
    configure(referee, server.config())
    new_game(referee, "h1")
    r = cli(referee, "send")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == "sent 1, retry later 1, failed 0"
    assert "retry later: #1 report to red@players.example (h1): 451 4.3.0 try later; next " \
           "try 2026-11-29T20:05:00Z" in r.output
    listing = cli(referee, "mail", "h1", "--status", "queued").output
    assert "attempts 1, next try 2026-11-29T20:05:00Z (last answer: 451 4.3.0 try later)" \
        in listing
    status = cli(referee, "status").output
    assert "mail: 1 queued, 0 failed" in status
    # not due before its time, whoever runs
    r = cli(referee, "send", at=START + timedelta(minutes=4))
    assert r.output.splitlines()[0] == "sent 0, retry later 0, failed 0"
    r = cli(referee, "send", at=START + timedelta(minutes=5))
    assert r.output.splitlines()[0] == "sent 1, retry later 0, failed 0"
    assert sorted(m["To"] for m in server.messages()) == ["blue@players.example",
                                                          "red@players.example"]
    (red,) = [m for m in referee.mail()["mail"] if m["to"] == "red@players.example"]
    assert (red["status"], red["attempts"], red["answer"]) == ("sent", 2, None)
    assert red["sent"] == "2026-11-29T20:05:00Z"


def test_a_5xx_marks_the_mail_failed_with_the_answer_shown_by_mail_and_status(referee, smtp):
    server = smtp("plain", reject=["blue@players.example"])
    configure(referee, server.config())
    new_game(referee, "h1")
    r = cli(referee, "send")
    assert r.exit_code == 1
    assert r.output.splitlines()[0] == "sent 1, retry later 0, failed 1"
    answer = "550 5.1.1 <blue@players.example>: no such user here"
    assert f"Error: failed: #2 report to blue@players.example (h1): {answer}" in r.output
    listed = cli(referee, "mail", "--status", "failed").output
    assert "report    blue@players.example  failed" in listed
    assert f"failed 2026-11-29T20:00:00Z: {answer}" in listed
    status = cli(referee, "status").output
    assert "mail: 0 queued, 1 failed" in status
    assert f"mail failed: #2 report to blue@players.example at 2026-11-29T20:00:00Z: {answer}" \
        in status
    import json

    item = json.loads(cli(referee, "status", "h1", "--json").output)[0]
    assert item["mail"]["failed"][0]["answer"] == answer
    # a failed mail is never tried again
    r = cli(referee, "send", at=START + timedelta(days=1))
    assert r.output.splitlines()[0] == "sent 0, retry later 0, failed 0" and r.exit_code == 0
    assert len(server.raw()) == 1


def test_an_unreachable_server_is_a_temporary_failure(referee):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    configure(referee, f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\n')
    new_game(referee, "h1")
    r = cli(referee, "send")
    assert r.exit_code == 1  # an outage: nothing could be sent (docs/mail.md)
    assert r.output.splitlines()[0] == "sent 0, retry later 1, failed 0"
    assert f"cannot connect to 127.0.0.1:{port}: connection refused" in r.output


def test_a_server_that_does_not_answer_in_time_is_retried_and_the_run_reconnects(referee,
                                                                                smtp):
    server = smtp("plain", stall=["red@players.example"])
    configure(referee, server.config().replace("timeout = 10", "timeout = 1"))
    new_game(referee, "h1")
    r = cli(referee, "send")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == "sent 1, retry later 1, failed 0"
    assert "the connection to 127.0.0.1" in r.output and "timed out" in r.output
    # blue's mail went over a new connection after red's timed out
    assert [d["to"] for d in server.deliveries()] == [["red@players.example"],
                                                      ["blue@players.example"]]


# ---------------------------------------------------------------- kill -9, two runs at once

def pbem_process(referee, *args, at=START, env=None) -> subprocess.Popen:
    """`pbem --home HOME --now AT ARGS` as its own process, with the test ruleset "hunt"
    (tests/hunt_pbem.py): `pbem send` renders the hunt games' reports."""
    return subprocess.Popen([sys.executable, str(ROOT / "tests" / "hunt_pbem.py"), "--home",
                             str(referee.home.path), "--now", stamp(at), *args], cwd=ROOT,
                            stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env=pbem_env(referee.home.path, {**os.environ, **(env or {})}))


def test_a_run_killed_while_sending_loses_nothing_and_sends_at_most_twice(referee, smtp):
    server = smtp("plain", stall=["c1@players.example"])
    configure(referee, server.config())
    for n, gid in enumerate(("g1", "g2", "g3")):
        new_game(referee, gid, roles=("red", "blue"),
                 emails={"red": f"r{n}@players.example", "blue": f"c{n}@players.example"})
    total = len(queued_ids(referee))
    proc = pbem_process(referee, "send")
    deadline = time.monotonic() + 60
    while not any(d["stalled"] for d in server.deliveries()):  # the 4th message hangs in DATA
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stdout.close()
    sent_before = len(referee.mail(status="sent")["mail"])
    assert sent_before == 3  # marked one by one, right after each delivery
    # the killed run's claims hold until their lease ends: a run now sends nothing twice
    r = cli(referee, "send", at=START + timedelta(minutes=1))
    assert r.output.splitlines()[0] == "sent 0, retry later 0, failed 0"
    # and says why (a new referee's trial: the mail waited unexplained)
    assert f"held by another run: {total - sent_before} queued message" in r.output
    r = cli(referee, "send", at=START + timedelta(minutes=11))
    assert r.output.splitlines()[0] == f"sent {total - sent_before}, retry later 0, failed 0"
    assert queued_ids(referee) == []
    counts = Counter(message_ids(server))
    assert len(counts) == total  # every message arrived ...
    assert max(counts.values()) == 2 and list(counts.values()).count(2) == 1  # ... one twice
    (twice,) = [mid for mid, n in counts.items() if n == 2]
    copies = [raw for raw, m in zip(server.raw(), server.messages())
              if str(m["Message-ID"]) == twice]
    assert copies[0] == copies[1]  # the same bytes, the same Message-ID


def test_two_send_runs_at_once_deliver_each_message_once(referee, smtp):
    server = smtp("plain", delay=0.05)
    configure(referee, server.config())
    for n in range(15):
        new_game(referee, f"g{n}", roles=("red", "blue", "green", "white"),
                 emails={r: f"{r}{n}@players.example" for r in ("red", "blue", "green", "white")})
    assert len(queued_ids(referee)) == 60
    procs = [pbem_process(referee, "send") for _ in range(2)]
    outputs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    sent = [int(o.splitlines()[0].split(",")[0].split()[1]) for o in outputs]
    assert sum(sent) == 60 and min(sent) > 0, outputs  # both worked, neither twice
    counts = Counter(message_ids(server))
    assert len(counts) == 60 and set(counts.values()) == {1}
    assert queued_ids(referee) == []


# ---------------------------------------------------------------- integrity, listing

def test_a_tampered_row_is_reported_by_send_and_not_sent(referee, smtp):
    from conftest import raw_connect

    server = smtp("plain")
    configure(referee, server.config())
    new_game(referee, "h1")
    assert cli(referee, "send").exit_code == 0
    con = raw_connect(referee.home.url)
    con.execute("UPDATE outbox SET sent_at = NULL WHERE id = 1")
    con.commit()
    con.close()
    r = cli(referee, "send", at=START + timedelta(hours=1))
    assert r.exit_code == 1
    assert r.output.splitlines()[0] == "sent 0, retry later 0, failed 0"
    assert "Error: not sent: queued mail 1: the row fails its integrity check" in r.output
    assert len(server.raw()) == 2
    r = cli(referee, "mail")
    assert r.exit_code == 1 and "queued mail 1 fails its integrity check" in r.output


def test_mail_lists_per_game_and_as_json(referee, smtp):
    import json

    server = smtp("plain")
    configure(referee, server.config())
    new_game(referee, "h1")
    new_game(referee, "h2")
    assert "sent 2," in cli(referee, "send", "--limit", "2").output
    listed = json.loads(cli(referee, "mail", "--json").output)
    assert [(m["game"], m["status"]) for m in listed["mail"]] == [
        ("h1", "sent"), ("h1", "sent"), ("h2", "queued"), ("h2", "queued")]
    assert set(listed["mail"][0]) == {"id", "game", "kind", "to", "subject", "status", "queued",
                                      "attempts", "next_try", "sent", "failed", "answer"}
    text = cli(referee, "mail", "h2").output
    assert "h1" not in text and text.count("queued 2026-11-29T20:00:00Z, attempts 0") == 2
    assert cli(referee, "mail", "nope").exit_code == 1
    assert cli(referee, "mail", "--status", "failed").output.strip() == "no mail failed"


def test_send_and_mail_have_help():
    for cmd in ("send", "mail", "outbox"):
        r = CliRunner().invoke(main, [cmd, "--help"])
        assert r.exit_code == 0 and len(r.output) > 200, cmd
    text = CliRunner().invoke(main, ["send", "--help"]).output
    for words in ("--sendmail", "--smtp-host", "--smtp-security", "--smtp-password-env",
                  "--limit", "retry", "3 days"):
        assert words in text, words
