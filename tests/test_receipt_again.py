"""A player who sends the same orders again gets the receipt again (issue 8, "What a new user ran
into": a lost receipt, the same orders sent again, and no reply). The orders in force do not
change, the copy is a duplicate, and receipts sent again are rate-limited like rejections;
reading the same Maildir again from cron sends nothing.

Each receipt is read back from the mail the outbox writes, as the player gets it: its signature
is checked and its orders-sha256 compared with the SHA-256 of the orders computed here."""

from __future__ import annotations

import email
import hashlib
from email import policy

import pytest

from pbem.crypto.canonical import canonical_bytes
from pbem.engine.creation import GameSpec


@pytest.fixture
def game(referee, players):
    spec = GameSpec(ruleset="hunt", game_id="h1",
                    players=(players["red"].spec(), players["blue"].spec()), options={})
    referee.new_game(spec)
    referee.outbox(referee.home.path / "setup-mail")  # the setup reports are not counted here
    return "h1"


def mail(signed: str, mid: str, received: str = "") -> bytes:
    return (f"{received}From: Red Player <red@players.example>\nTo: ref@judge.example\n"
            f"Subject: my orders\nMessage-ID: {mid}\n"
            "Date: Sun, 29 Nov 2026 20:00:00 +0000\n\n" + signed).encode()


def put(box, name: str, data: bytes):
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True, exist_ok=True)
    (box / "new" / name).write_bytes(data)


def ingest_box(referee, box):
    from pbem.mail.sources import iter_messages

    return referee.ingest(iter_messages([str(box)]))


def send_out(referee, folder):
    """The mails the outbox writes now: [(To, In-Reply-To, subject, text)] of the receipts."""
    out = []
    for path in referee.outbox(folder):
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        if "receipt" in msg["Subject"]:
            out.append((msg["To"], msg["In-Reply-To"], " ".join(msg["Subject"].split()),
                        msg.get_content()))
    return out


def orders_in_force(referee, game):
    from conftest import raw_connect

    con = raw_connect(referee.home.url)
    try:
        return con.execute("SELECT role, status, nonce FROM order_set WHERE game_id = ? "
                           "ORDER BY id", (game,)).fetchall()
    finally:
        con.close()


def receipt_sha(text: str) -> str:
    from pbem.crypto.envelope import find_receipts

    (r,) = find_receipts(text)
    assert r.verify()
    return next(line.split(": ")[1] for line in r.body.splitlines()
                if line.startswith("orders-sha256: "))


def signed_block(text: str) -> str:
    """The receipt's envelope in ``text``: its first marker line to its last (docs/signing.md,
    section 6)."""
    start = text.index("-----BEGIN PBEM RECEIPT-----")
    end = text.index("-----END PBEM SIGNATURE-----", start)
    return text[start:end]


def test_the_same_orders_in_a_new_mail_get_the_receipt_again(referee, players, game, clock,
                                                              tmp_path):
    red = players["red"]
    text = red.text(game, 1, "dig", "dig 4", issued=clock())
    from pbem.crypto.envelope import sign_text

    signed = sign_text(text, red.key)
    box = tmp_path / "Maildir"
    put(box, "1764400000.M1P1.host", mail(signed, "<first@players.example>"))
    assert [v.status for v in ingest_box(referee, box)] == ["accepted"]
    (first,) = send_out(referee, tmp_path / "out1")  # the receipt the player says was lost
    before = orders_in_force(referee, game)
    # the player sends the very same signed orders in a new mail
    clock.advance(minutes=30)
    put(box, "1764401800.M2P1.host", mail(signed, "<again@players.example>"))
    verdicts = ingest_box(referee, box)
    assert [v.status for v in verdicts] == ["duplicate", "duplicate"]
    (v,) = [v for v in verdicts if "M2P1" in v.origin]
    assert v.resent and "the receipt is sent again to red@players.example" in v.reason
    assert orders_in_force(referee, game) == before  # nothing changed in force
    (again,) = send_out(referee, tmp_path / "out2")
    assert again[0] == "red@players.example" and again[1] == "<again@players.example>"
    assert again[2] == first[2] + " (sent again)"
    expected = hashlib.sha256(canonical_bytes(text)).hexdigest()
    assert receipt_sha(again[3]) == receipt_sha(first[3]) == expected
    # "the same signed receipt" (docs/signing.md, section 10), byte for byte
    assert signed_block(again[3]) == signed_block(first[3])
    # cron reads the Maildir again: nothing more is sent
    verdicts = ingest_box(referee, box)
    assert [v.status for v in verdicts] == ["duplicate", "duplicate"]
    assert not any(v.resent for v in verdicts)
    assert send_out(referee, tmp_path / "out3") == []


def test_the_very_same_mail_delivered_again_gets_the_receipt_again_once(referee, players, game,
                                                                        clock, tmp_path):
    signed = players["red"].signed(game, 1, "dig", "dig 4", issued=clock())
    box = tmp_path / "Maildir"
    put(box, "1764400000.M1P1.host", mail(signed, "<m1@players.example>"))
    ingest_box(referee, box)
    (first,) = send_out(referee, tmp_path / "out1")
    # cron reads it again: the same message from the same place is no new delivery
    (v,) = ingest_box(referee, box)
    assert v.status == "duplicate" and not v.resent
    assert send_out(referee, tmp_path / "out2") == []
    # the player's mail client sends the same message again: a second file, more headers
    clock.advance(minutes=10)
    put(box, "1764400600.M9P1.host",
        mail(signed, "<m1@players.example>", received="Received: by mx2.example\n"))
    verdicts = ingest_box(referee, box)
    (v,) = [v for v in verdicts if "M9P1" in v.origin]
    assert v.status == "duplicate" and v.resent
    assert "its orders for h1 1.dig red are in force" in v.reason
    (again,) = send_out(referee, tmp_path / "out3")
    assert again[1] == "<m1@players.example>" and receipt_sha(again[3]) == receipt_sha(first[3])
    # and the next cron runs send nothing more for either file
    for n in range(2):
        assert not any(v.resent for v in ingest_box(referee, box))
    assert send_out(referee, tmp_path / "out4") == []
    assert [r[1] for r in orders_in_force(referee, game)] == ["accepted"]


def test_a_receipt_still_queued_is_not_queued_twice(referee, players, game, clock, tmp_path):
    from conftest import incoming

    signed = players["red"].signed(game, 1, "dig", "dig 4", issued=clock())
    referee.ingest([incoming(mail(signed, "<a@p>"), "stdin")])
    (v,) = referee.ingest([incoming(mail(signed, "<b@p>"), "stdin")])
    assert v.status == "duplicate" and not v.resent and "still queued" in v.reason
    assert len(send_out(referee, tmp_path / "out")) == 1


def test_receipts_sent_again_are_rate_limited_per_address(referee, players, game, clock,
                                                          tmp_path):
    from conftest import incoming

    (referee.home.path / "config.toml").write_text("[ingest]\nrejections_per_hour = 2\n")
    signed = players["red"].signed(game, 1, "dig", "dig 4", issued=clock())
    referee.ingest([incoming(mail(signed, "<0@p>"), "stdin")])
    send_out(referee, tmp_path / "out0")
    resent = []
    for n in range(1, 5):
        clock.advance(minutes=1)
        (v,) = referee.ingest([incoming(mail(signed, f"<{n}@p>"), "stdin")])
        resent.append(v.resent)
        assert v.status == "duplicate"
    assert resent == [True, True, False, False]
    assert "red@players.example has had 2 receipts sent again in the last hour" in v.reason
    assert len(send_out(referee, tmp_path / "out1")) == 2
    clock.advance(minutes=61)
    (v,) = referee.ingest([incoming(mail(signed, "<9@p>"), "stdin")])
    assert v.resent
    assert [r[1] for r in orders_in_force(referee, game)] == ["accepted"]


def test_orders_of_a_closed_window_get_no_receipt_again(referee, players, game, clock,
                                                        tmp_path):
    from conftest import incoming

    signed = players["red"].signed(game, 1, "dig", "dig 4", issued=clock())
    referee.ingest([incoming(mail(signed, "<x@p>"), "stdin")])
    referee.ingest([incoming(players["blue"].signed(game, 1, "dig", "dig 5", issued=clock()))])
    assert referee.process(game)  # both in: 1.dig resolved
    send_out(referee, tmp_path / "out0")
    (v,) = referee.ingest([incoming(mail(signed, "<x@p>", received="Received: by b\n"),
                                    "stdin")])
    assert v.status == "duplicate" and not v.resent
    assert send_out(referee, tmp_path / "out1") == []
