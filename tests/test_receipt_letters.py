"""Receipts and rejections are stored as what they print and rendered when mailed (issue 11,
"Fast where referees feel it"; pbem.engine.letters): ingest neither renders nor signs, the mail
the player gets is still a receipt signed with the game's referee key (docs/signing.md, section
6, "Receipts"), made with the referee's templates in force when the orders were judged.

Every receipt is read back from the mail the outbox writes: its Ed25519 signature is checked
here with ``cryptography`` over ``pbem-receipt/1<LF>`` and the body (docs/signing.md, section 6),
its orders-sha256 compared with hashlib's SHA-256 of the orders' canonical text."""

from __future__ import annotations

import base64
import email
import hashlib
import json
import zlib
from email import policy

import pytest
from conftest import incoming
from test_store_integrity import game, next_referee, peek  # noqa: F401  (the fixture)

from pbem.crypto.canonical import canonical_bytes

BEGIN, SIG, END = ("-----BEGIN PBEM RECEIPT-----", "-----BEGIN PBEM SIGNATURE-----",
                   "-----END PBEM SIGNATURE-----")


def delivered(referee, folder) -> list[tuple[str, str]]:
    """(Subject, plain-text body) of each mail the outbox writes into ``folder`` now."""
    from pbem.mail.transports import FolderTransport

    run = referee.send(transport=FolderTransport(folder))
    assert not run.problems, run.problems
    out = []
    for d in run.sent:
        msg = email.message_from_bytes(d.where.read_bytes(), policy=policy.default)
        out.append((" ".join(msg["Subject"].split()),
                    msg.get_body(("plain",)).get_content().replace("\r\n", "\n")))
    return out


def receipt_block(text: str) -> tuple[dict, bytes, bytes, str, str]:
    """(the body's ``key: value`` lines, public key, signature, the whole block, the body) of
    the one
    receipt in ``text``, read by the layout of docs/signing.md, section 6."""
    lines = text.split("\n")
    start, mid = lines.index(BEGIN), lines.index(SIG)
    body = lines[start + 1:mid]
    algo, key = lines[mid + 1].split(" ")
    assert algo == "ed25519" and lines[mid + 3] == END
    fields = dict(line.split(": ", 1) for line in body if ": " in line and line[:1] != "-")
    return (fields, base64.b64decode(key), base64.b64decode(lines[mid + 2]),
            "\n".join(lines[start:mid + 4]), "\n".join(body))


def verified(text: str) -> dict:
    """The fields of the receipt in ``text``, after checking its signature (raises
    cryptography's InvalidSignature when it does not verify)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    fields, key, signature, _block, body = receipt_block(text)
    Ed25519PublicKey.from_public_bytes(key).verify(signature,
                                                   b"pbem-receipt/1\n" + body.encode())
    fields["key"] = key
    return fields


def letters(referee, kind: str) -> list[dict]:
    """The sealed letters of the queued ``kind`` rows, opened (zlib JSON)."""
    out = []
    for game_id, owner, blob in peek(referee, "SELECT game_id, owner, blob FROM outbox "
                                     "WHERE kind=? AND sent_at IS NULL ORDER BY id", (kind,)):
        raw = referee.sealer.open(game_id or "-", owner, f"mail:{kind}", 0, blob)
        out.append(json.loads(zlib.decompress(raw)))
    return out


def test_the_stored_receipt_is_its_facts_and_the_mail_is_signed_by_the_referee_key(
        game, players, clock, tmp_path):
    red = players["red"]
    (letter,) = letters(game, "receipt")
    assert letter["template"] == "receipt.txt.j2" and "text" not in letter
    assert "PBEM RECEIPT" not in json.dumps(letter)  # nothing signed at ingest
    (subject, text), = [m for m in delivered(game, tmp_path / "out") if "receipt" in m[0]]
    fields = verified(text)
    # the orders game fixture's red sent: "dig 13" for turn 1, phase dig of h1
    red.n = 0  # the same nonce as the one sent
    orders = red.text("h1", 1, "dig", "dig 13", issued=clock())
    assert (fields["game"], fields["turn"], fields["phase"], fields["role"]) == \
        ("h1", "1", "dig", "red")
    assert fields["orders-sha256"] == hashlib.sha256(canonical_bytes(orders)).hexdigest()
    referee_key = game.sealer.referee_signing_key("h1").public_key()
    assert fields["key"] == base64.b64decode(referee_key.pbem_line().split()[1])
    assert referee_key.fingerprint in text  # the mail names the key that signed it
    assert subject == "[h1] receipt: turn 1 dig orders of red"


def test_a_receipt_is_made_with_the_templates_in_force_when_the_orders_came(
        game, players, clock, tmp_path):
    from pbem.reports.render import use_templates

    tpl = tmp_path / "tpl"
    tpl.mkdir()
    (tpl / "receipt_mail.txt.j2").write_text("CLUB RECEIPT {{ game }}\n\n{{ receipt }}\n")
    use_templates(tpl)
    try:
        v = game.ingest([incoming(players["blue"].signed("h1", 1, "dig", "dig 7",
                                                         issued=clock()))])
    finally:
        use_templates(None)
    assert [x.status for x in v] == ["accepted"]
    moved = tpl.rename(tmp_path / "tpl-moved")  # gone: the receipt waits for it
    from pbem.mail.transports import FolderTransport

    run = next_referee(game, clock).send(transport=FolderTransport(tmp_path / "out1"))
    assert [what for what, why in run.problems if "its receipt cannot be rendered" in why] \
        == [f"receipt to {players['blue'].email} (h1)"]
    # red's receipt, queued before the folder was used, went out with pbem's own mail
    (red,) = [d for d in run.sent if d.kind == "receipt"]
    other = email.message_from_bytes(red.where.read_bytes(), policy=policy.default)
    other = other.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert not other.startswith("CLUB") and verified(other)["role"] == "red"
    moved.rename(tpl)
    mails = delivered(next_referee(game, clock), tmp_path / "out2")
    (text,) = [t for s, t in mails if "orders of blue" in s]
    assert text.startswith("CLUB RECEIPT h1\n\n" + BEGIN + "\n")
    assert verified(text)["role"] == "blue"


def test_a_rejection_is_stored_as_its_reasons_and_mailed_with_them(game, players, clock,
                                                                   tmp_path):
    mail = (b"From: Blue Player <blue@players.example>\nTo: ref@judge.example\n"
            b"Subject: my orders\nMessage-ID: <x1@players.example>\n\nno signature here\n")
    (v,) = game.ingest([incoming(mail)])
    assert v.status == "rejected" and v.cause == "no-orders"
    (letter,) = letters(game, "rejection")
    assert letter["template"] == "rejection.txt.j2" and "text" not in letter
    (subject, text), = [m for m in delivered(game, tmp_path / "out") if "not accepted" in m[0]]
    assert subject == "Re: my orders [not accepted]"
    assert "no signed orders were found in this message" in " ".join(text.split())


@pytest.mark.parametrize("broken", ["template", "context"])
def test_a_letter_that_cannot_be_made_stays_queued_and_is_reported(game, clock, tmp_path,
                                                                   broken):
    from test_store_integrity import attack

    (row_id, blob), = peek(game, "SELECT id, blob FROM outbox WHERE kind='receipt'")
    letter = json.loads(zlib.decompress(game.sealer.open("h1", "red", "mail:receipt", 0, blob)))
    if broken == "template":
        letter["template"] = "report.txt.j2"  # not one a letter is made from
    else:
        del letter["context"]["sha256"]  # the receipt template prints it
    attack(game, "UPDATE outbox SET blob=? WHERE id=?",
           (game.sealer.seal("h1", "red", "mail:receipt", 0,
                             zlib.compress(json.dumps(letter).encode())), row_id))
    from pbem.mail.transports import FolderTransport

    run = next_referee(game, clock).send(transport=FolderTransport(tmp_path / "out"))
    assert [d.id for d in run.sent if d.id == row_id] == []
    (why,) = [why for what, why in run.problems if f"queued mail {row_id}" in why]
    assert "stays queued" in why
    assert peek(game, "SELECT sent_at, failed_at FROM outbox WHERE id=?", (row_id,)) == \
        [(None, None)]
