"""Ingest (DESIGN.md "Data flow", issue 2 "Parts that must be real: Signatures, Mail"): every
cause of rejection has its own message, the raw message is always archived, duplicates are
judged once, and every accepted order set gets a receipt signed with the game's referee key."""

import hashlib
import json
import re
from datetime import timedelta

import pytest
from conftest import Player, incoming

from pbem.engine.creation import GameSpec


@pytest.fixture
def game(referee, players):
    spec = GameSpec(ruleset="hunt", game_id="h1",
                    players=(players["red"].spec(), players["blue"].spec()), options={})
    referee.new_game(spec)
    return "h1"


def judge(referee, data, origin="test"):
    return referee.ingest([incoming(data, origin)])


def one(verdicts):
    assert len(verdicts) == 1, verdicts
    return verdicts[0]


def test_accepted_orders_get_a_receipt_signed_with_the_games_referee_key(referee, players, game, clock, tmp_path):
    from pbem.crypto.canonical import canonical_bytes, sha256_hex
    from pbem.crypto.envelope import find_receipts

    text = players["red"].text(game, 1, "dig", "dig 4", issued=clock())
    from pbem.crypto.envelope import sign_text

    v = one(judge(referee, sign_text(text, players["red"].key)))
    assert v.status == "accepted"
    assert v.sha256 == sha256_hex(text)
    files = referee.outbox(tmp_path / "out")
    receipts = [f for f in files if "receipt" in f.name]
    assert len(receipts) == 1
    import email
    from email import policy

    msg = email.message_from_bytes(receipts[0].read_bytes(), policy=policy.default)
    assert msg["To"] == "red@players.example"
    body = msg.get_content()
    found = find_receipts(body)
    assert len(found) == 1 and found[0].verify()
    referee_key = json.loads(referee.log_lines(game)[0])["referee_key"]
    assert found[0].public_key.openssh_line().split()[1] == referee_key.split()[1]
    assert f"orders-sha256: {sha256_hex(text)}" in found[0].body
    # the log holds the salted commitment of docs/log.md, never the text nor its plain digest
    log = "\n".join(referee.log_lines(game))
    salt = re.search(r"orders-salt: ([0-9a-f]{32})", found[0].body).group(1)
    commit = hashlib.sha256(bytes.fromhex(salt) + canonical_bytes(text)).hexdigest()
    assert f"orders-commit: {commit}" in found[0].body
    assert f'"commit":"{commit}"' in log
    assert sha256_hex(text) not in log and "dig 4" not in log


def test_problems_found_at_once_are_listed_in_the_receipt(referee, players, game, clock):
    v = one(judge(referee, players["red"].signed(game, 1, "dig", "dig 40\nshovel", issued=clock())))
    assert v.status == "accepted"
    # listed in the order of the lines (a reader goes down the order file), whichever check
    # found them: line 9's is found by the position check, line 10's by the parser (a header
    # of 7 lines, game to issued with referee, then a blank line)
    assert [p.line for p in v.problems] == [9, 10]
    assert "holes are numbered 1 to 20" in str(v.problems[0])


def test_no_signed_orders(referee, game):
    v = one(judge(referee, "From: a@b.example\nSubject: hi\nMessage-ID: <1@b>\n\nhello"))
    assert (v.status, v.cause) == ("rejected", "no-orders")


def test_bad_signature(referee, players, game, clock):
    signed = players["red"].signed(game, 1, "dig", "dig 4", issued=clock())
    v = one(judge(referee, signed.replace("dig 4", "dig 5")))
    assert (v.status, v.cause) == ("rejected", "bad-signature")


def test_unknown_key(referee, players, game, clock):
    stranger = Player("red", seed="stranger")
    v = one(judge(referee, stranger.signed(game, 1, "dig", "dig 4", issued=clock())))
    assert v.cause == "unknown-key" and "not registered" in v.reason


def test_wrong_key_for_the_role(referee, players, game, clock):
    v = one(judge(referee, players["red"].signed(game, 1, "dig", "dig 4", issued=clock(), role="blue")))
    assert v.cause == "wrong-key"
    assert "registered for role red" in v.reason and "for role blue" in v.reason


def test_orders_for_another_game(referee, players, game, clock):
    v = one(judge(referee, players["red"].signed("h2", 1, "dig", "dig 4", issued=clock())))
    assert v.cause == "unknown-game" and "'h2'" in v.reason


def test_orders_for_a_game_where_the_key_is_not_registered(referee, players, game, clock):
    referee.new_game(GameSpec(ruleset="hunt", game_id="h2",
                              players=(players["green"].spec(), players["white"].spec()), options={}))
    v = one(judge(referee, players["red"].signed("h2", 1, "dig", "dig 4", issued=clock(), role="green")))
    assert v.cause == "unknown-key" and "check the 'game:' line" in v.reason
    # the reply goes to whatever address sent the message: it must not say where else the key
    # plays (a new user's trial, issue 8)
    assert "h1" not in v.reason and "(red)" not in v.reason


def test_orders_for_another_turn_or_phase(referee, players, game, clock):
    v = one(judge(referee, players["red"].signed(game, 2, "dig", "dig 4", issued=clock())))
    assert v.cause == "wrong-window" and "turn 2" in v.reason and "turn 1" in v.reason
    v = one(judge(referee, players["red"].signed(game, 1, "move", "dig 4", issued=clock())))
    assert v.cause == "wrong-window"


def test_orders_for_an_unknown_role(referee, players, game, clock):
    v = one(judge(referee, players["red"].signed(game, 1, "dig", "dig 4", issued=clock(), role="black")))
    assert v.cause == "unknown-role"


def test_older_issued_than_held_is_stale_and_newer_replaces(referee, players, game, clock):
    p = players["red"]
    assert one(judge(referee, p.signed(game, 1, "dig", "dig 4", issued=clock()))).status == "accepted"
    v = one(judge(referee, p.signed(game, 1, "dig", "dig 5", issued=clock() - timedelta(minutes=1))))
    assert v.cause == "stale"
    v = one(judge(referee, p.signed(game, 1, "dig", "dig 6", issued=clock() + timedelta(minutes=1))))
    assert v.status == "accepted"
    assert referee.status(game)[0]["window"]["orders_in"] == ["red"]


def test_same_message_twice_is_judged_once(referee, players, game, clock, tmp_path):
    signed = players["red"].signed(game, 1, "dig", "dig 4", issued=clock())
    mail = ("From: red@players.example\nTo: ref@x.example\nSubject: orders\n"
            "Message-ID: <abc@players.example>\n\n" + signed)
    assert one(judge(referee, mail)).status == "accepted"
    # delivered again, with an extra Received header: same Message-ID
    v = one(judge(referee, "Received: from mx2 by mx1; Sun, 29 Nov 2026 20:00:00 +0000\n" + mail))
    assert v.status == "duplicate"
    # the same signed text in a new message is recognised as the orders already in force
    v = one(judge(referee, mail.replace("<abc@", "<def@")))
    assert (v.status, v.cause) == ("duplicate", "duplicate")
    receipts = [f for f in referee.outbox(tmp_path / "o") if "receipt" in f.name]
    assert len(receipts) == 1


def test_every_message_is_archived_whatever_happens(referee, players, game, clock):
    judge(referee, "From: a@b.example\nMessage-ID: <1@b>\n\nnothing here")
    judge(referee, players["red"].signed(game, 1, "dig", "dig 4", issued=clock()))
    msgs = referee.messages()
    assert sorted(m["verdict"] for m in msgs) == ["accepted", "rejected"]


def test_rejections_are_mailed_to_the_sender_but_not_to_robots(referee, game, tmp_path):
    judge(referee, "From: a@b.example\nSubject: hi\nMessage-ID: <1@b>\n\nhello")
    judge(referee, "From: vacation@b.example\nAuto-Submitted: auto-replied\nSubject: away\n"
                   "Message-ID: <2@b>\n\nI am away")
    out = referee.outbox(tmp_path / "o")
    assert len([f for f in out if "rejection" in f.name]) == 1
    assert "a@b.example" in out[-1].read_text()


def test_quoted_old_orders_in_a_reply_are_not_judged(referee, players, game, clock):
    old = players["red"].signed(game, 1, "dig", "dig 4", issued=clock())
    quoted = "\n".join("> " + line for line in old.split("\n"))
    v = one(judge(referee, "From: red@players.example\nMessage-ID: <q@p>\n\nSee below\n" + quoted))
    assert v.cause == "no-orders"


def test_a_crash_between_archive_and_judgment_leaves_the_message_for_the_next_run(referee, players, game, clock, monkeypatch):
    import pbem.engine.judge as judge_mod

    def boom(*a, **k):
        raise KeyboardInterrupt("killed")

    monkeypatch.setattr(judge_mod, "_judge", boom)
    with pytest.raises(KeyboardInterrupt):
        judge(referee, players["red"].signed(game, 1, "dig", "dig 4", issued=clock()))
    monkeypatch.undo()
    assert [m["verdict"] for m in referee.messages()] == ["pending"]
    v = referee.ingest([])
    assert [x.status for x in v] == ["accepted"]


def test_orders_signed_with_the_real_ssh_keygen_inline_and_attached(referee, game, clock, tmp_path):
    """Issue 2: SSH signatures made by the real `ssh-keygen -Y sign -n pbem-orders`, inline or
    as a .sig attachment, registered as an ssh-ed25519 public key line."""
    import shutil
    import subprocess

    from pbem.mail.clients import order_mail

    if shutil.which("ssh-keygen") is None:
        pytest.skip("ssh-keygen is not installed")
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "white@laptop",
                    "-f", str(key)], check=True)
    from conftest import Player as P

    white = P("white", referee=referee)
    white.public_text = (tmp_path / "id_ed25519.pub").read_text()
    referee.new_game(GameSpec(ruleset="hunt", game_id="h3",
                              players=(white.spec(), P("green", seed="g3").spec()), options={}))

    def ssh_signed(body, minute):
        text = white.text("h3", 1, "dig", body, issued=clock() + timedelta(minutes=minute))
        f = tmp_path / f"orders{minute}.txt"
        f.write_text(text + "\n")
        subprocess.run(["ssh-keygen", "-q", "-Y", "sign", "-f", str(key), "-n", "pbem-orders", str(f)],
                       check=True)
        return text, (tmp_path / f"orders{minute}.txt.sig").read_bytes()

    text, sig = ssh_signed("dig 2", 0)
    inline = "From: white@laptop.example\nMessage-ID: <s1@l>\n\n" + text + "\n" + sig.decode()
    assert one(judge(referee, inline)).status == "accepted"
    text, sig = ssh_signed("dig 3", 1)
    mail = order_mail("quoted-printable", sender="white@laptop.example", to="ref@x.example",
                      subject="h3", signed=text, sig=sig, date=clock())
    v = one(judge(referee, mail))
    assert v.status == "accepted" and v.role == "white"
    text, sig = ssh_signed("dig 4", 2)
    v = one(judge(referee, "From: white@laptop.example\nMessage-ID: <s3@l>\n\n"
                  + text.replace("dig 4", "dig 5") + "\n" + sig.decode()))
    assert v.cause == "bad-signature"


def test_a_rewrapped_signed_body_gets_the_advice_to_attach(referee, players, game, clock):
    long = "# " + " ".join(["a comment that goes on and on"] * 4)
    signed = players["red"].signed(game, 1, "dig", long + "\ndig 4", issued=clock())
    lines = []
    for line in signed.split("\n"):  # a client wrapping at 72 columns, as Outlook does
        while len(line) > 72 and line.rfind(" ", 0, 72) > 0:  # long words are left whole
            cut = line.rfind(" ", 0, 72)
            lines.append(line[:cut])
            line = line[cut + 1:]
        lines.append(line)
    v = one(judge(referee, "From: red@players.example\nMessage-ID: <w@p>\n\n" + "\n".join(lines)))
    assert v.cause == "rewrapped"
    assert "attachment" in v.reason


def test_orders_dated_far_ahead_are_refused(referee, players, game, clock):
    """An 'issued' in the future would lock its sender out of correcting the orders."""
    v = one(judge(referee, players["red"].signed(game, 1, "dig", "dig 4",
                                                 issued=clock() + timedelta(days=2))))
    assert v.cause == "future" and "clock" in v.reason
    v = one(judge(referee, players["red"].signed(game, 1, "dig", "dig 4",
                                                 issued=clock() + timedelta(hours=3))))
    assert v.cause == "future"  # 'issued' carries its zone: a zone is no excuse (issue 7)
    v = one(judge(referee, players["red"].signed(game, 1, "dig", "dig 4",
                                                 issued=clock() + timedelta(minutes=10))))
    assert v.status == "accepted"  # clocks drift by seconds or minutes


def test_oversized_messages_and_orders_are_archived_and_refused(referee, players, game, clock):
    from pbem.engine.accept import MAX_ORDERS_CHARS
    from pbem.engine.reader import MAX_MESSAGE_BYTES

    huge = "From: red@players.example\nMessage-ID: <big@p>\n\n" + "x" * (MAX_MESSAGE_BYTES + 1)
    v = one(judge(referee, huge))
    assert v.cause == "too-large"
    body = "# " + "y" * MAX_ORDERS_CHARS + "\ndig 4"
    v = one(judge(referee, players["red"].signed(game, 1, "dig", body, issued=clock())))
    assert v.cause == "too-large"
    assert sorted(m["verdict"] for m in referee.messages()) == ["rejected", "rejected"]


def test_a_truncated_copy_does_not_shadow_the_whole_message(referee, players, game, clock):
    """Duplicates are the same Message-ID with the same body: a re-delivery with more headers
    is judged once, but a different body under a reused Message-ID is judged on its own."""
    signed = players["red"].signed(game, 1, "dig", "dig 4", issued=clock())
    mail = "From: red@players.example\nMessage-ID: <m1@p>\n\n" + signed
    cut = mail[:mail.index("-----BEGIN PBEM SIGNATURE")]
    assert one(judge(referee, cut)).status == "rejected"
    assert one(judge(referee, mail)).status == "accepted"
    assert one(judge(referee, "Received: by mx2\n" + mail)).status == "duplicate"
