"""A game of Escape from Atlantis played through real mail (issue 8, "Mail out"): every report
and receipt goes out with `pbem send` over SMTP (STARTTLS, a login, a private CA) to a real
server process that stores it in a Maildir; the players read their reports from that Maildir,
fill in the order template, sign it with `pbem sign`, and mail it back into the referee's
Maildir, which `pbem ingest` reads. Only the referee's command line is used."""

from __future__ import annotations

import email
import mailbox
import random
import re
from datetime import datetime, timedelta, timezone
from email import policy

from click.testing import CliRunner
from smtp_fixtures import PASSWORD, PASSWORD_ENV, USER, certs, smtp  # noqa: F401

from pbem.cli import main
from pbem.mail.clients import order_mail

GAME = "atl-mail"
ROLES = ("red", "green")
REFEREE = "referee@judge.example"


def body_of(msg) -> str:
    """The plain-text body as a mail program shows it (local line ends)."""
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def test_a_game_goes_out_by_smtp_and_comes_back_by_maildir(tmp_path, smtp, certs):
    from pbem.engine import registry
    from pbem.engine.home import Home
    from pbem.engine.service import Referee

    server = smtp("starttls", auth=True)
    home, keys = tmp_path / "home", tmp_path / "keys"
    clock = [datetime(2026, 11, 29, 20, 0, tzinfo=timezone.utc)]
    env = {PASSWORD_ENV: PASSWORD, "PBEM_FROM": None}

    def pbem(*args, ok=True):
        r = CliRunner().invoke(main, ["--home", str(home), "--now",
                                      clock[0].strftime("%Y-%m-%dT%H:%M:%SZ"), *args], env=env,
                               catch_exceptions=False)
        if ok:
            assert r.exit_code == 0, (args, r.output)
        return r

    # the referee: a home, the settings (From address and SMTP), a game
    pbem("init")
    (home / "config.toml").write_text(
        f'[mail]\nfrom = "{REFEREE}"\n\n'
        + server.config(cafile=certs["ca"], user=USER, password_env=PASSWORD_ENV))
    for role in ROLES:
        pbem("keygen", role, "--dir", str(keys))
    pbem("game", "new", "atlantis", "--id", GAME,
         *[x for role in ROLES for x in ("--player", f"{role}={role}@players.example:"
                                         f"{keys / (role + '.pub')}")])
    inbox = mailbox.Maildir(tmp_path / "referee-Maildir", create=True)

    # the players' side: what arrived for each of them, read once
    read: set[str] = set()

    def new_mail() -> list:
        out = []
        box = mailbox.Maildir(server.maildir, create=False)
        for key in sorted(box.iterkeys()):
            if key not in read:
                read.add(key)
                out.append(email.message_from_bytes(box.get_bytes(key), policy=policy.default))
        return out

    rs = registry.get("atlantis")
    rng = random.Random(8)
    bot = Referee(Home(home))  # the random player's eyes: the same view the report shows
    phases, receipts, last_report = [], 0, {}
    while len(phases) < 3:
        r = pbem("send")
        assert re.match(r"sent [1-9]\d*, retry later 0, failed 0$", r.output.splitlines()[0])
        mails = new_mail()
        assert all(m["From"] == REFEREE for m in mails)
        receipts += sum("-----BEGIN PBEM RECEIPT-----" in body_of(m) for m in mails)
        reports = [m for m in mails if "report for" in str(m["Subject"])]
        for m in reports:
            last_report[str(m["To"])] = m
            assert [p.get_filename() for p in m.iter_attachments()] == ["report.html"]
        sent = 0
        for role in ROLES:
            report = last_report[f"{role}@players.example"]
            text = body_of(report)
            if "You owe orders for this window" not in text:
                continue
            # the player fills in the template of the report they received
            header = re.search(r"^game: .*?^issued:\n", text, re.M | re.S).group(0)
            assert f"game: {GAME}\n" in header and f"role: {role}\n" in header
            view, window = bot.view_and_window(GAME, role)
            orders = tmp_path / f"{role}-orders.txt"
            orders.write_text(header + "\n" + rs.bot_orders(view, window, role, rng))
            signed = pbem("sign", str(orders), "--key", str(keys / f"{role}.key")).output
            inbox.add(order_mail("plain", sender=f"{role}@players.example", to=REFEREE,
                                 subject=f"Re: {report['Subject']}", signed=signed,
                                 date=clock[0]))
            sent += 1
        if not sent:
            break  # the game is over
        clock[0] += timedelta(minutes=30)
        pbem("ingest", str(tmp_path / "referee-Maildir"))
        clock[0] += timedelta(minutes=1)
        assert pbem("send").output.startswith(f"sent {sent}, ")  # the receipts
        for m in new_mail():
            assert "receipt" in str(m["Subject"])
            saved = tmp_path / "receipt.eml"
            saved.write_bytes(m.as_bytes())
            assert "that key is the referee key of the game" in pbem(
                "check-receipt", str(saved), GAME).output
            receipts += 1
        clock[0] += timedelta(minutes=1)
        done = [line for line in pbem("process").output.splitlines() if " resolved" in line]
        assert done, "every owed order set was in: the window closes"
        phases += done
        clock[0] += timedelta(minutes=1)

    assert len(phases) >= 2 and receipts >= len(phases)
    pbem("send")
    assert pbem("mail", "--status", "queued").output.strip() == "no mail queued"
    for m in new_mail():
        if "report for" in str(m["Subject"]):
            last_report[str(m["To"])] = m
    # what the players read is what the judge stored
    for role in ROLES:
        stored = pbem("report", GAME, "--role", role).output
        assert body_of(last_report[f"{role}@players.example"]) == stored
    # every delivery logged in, over TLS, from the game's address
    log = server.deliveries()
    assert log and all(d["login"] == USER and d["tls"] and d["from"] == REFEREE for d in log)
