"""Finding signed orders in a decoded message (brief section 5).

Signed material is made with ``sign_text`` (checked byte for byte against the documented layout
in test_crypto_envelope.py) and with the real ``ssh-keygen -Y sign``. The re-wrapped samples are
orders as Thunderbird (72 columns) and Outlook (76 columns) send them when they hard-wrap plain
text: each long line cut at the last space before the width.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from pbem.crypto.envelope import sign_text
from pbem.crypto.find import BadSignature, Signed, find_signed, looks_rewrapped, unquote_mbox_from
from pbem.crypto.keys import PrivateKey, load_public_key

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = pytest.mark.skipif(SSH_KEYGEN is None, reason="ssh-keygen (OpenSSH) is not installed")

KEY = PrivateKey(bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"), "red")

ORDERS = (
    "game: atl-7\nturn: 3\nphase: movement\nrole: red\n"
    "nonce: 5b0f0c9e2d7a4c1e9f3b8a6d2e4f6a8c\nissued: 2026-11-29T20:15:00Z\n\n"
    "move 4 from 0507 to 0607\nsink 0608\n"
)
CANON = ORDERS.rstrip("\n")

LONG_ORDERS = (
    "game: alt-2\nturn: 5\nphase: movement\nrole: confederation\n"
    "nonce: 0c9e2d7a4c1e9f3b8a6d2e4f6a8c5b0f\nissued: 2026-11-30T08:00:00Z\n\n"
    "move C12 0405 0406 0407 0507 0508 0608 0609 0709 0710 0810 0811 0911 0912 1012 1013\n"
    "note: the boat at 0608 carries two of my people, so please move it before the sea serpent does\n"
)
# LONG_ORDERS as Thunderbird sends it (mailnews.wraplength = 72, no format=flowed).
THUNDERBIRD_72 = (
    "game: alt-2\nturn: 5\nphase: movement\nrole: confederation\n"
    "nonce: 0c9e2d7a4c1e9f3b8a6d2e4f6a8c5b0f\nissued: 2026-11-30T08:00:00Z\n\n"
    "move C12 0405 0406 0407 0507 0508 0608 0609 0709 0710 0810 0811 0911\n"
    "0912 1012 1013\n"
    "note: the boat at 0608 carries two of my people, so please move it\n"
    "before the sea serpent does\n"
)
# LONG_ORDERS as Outlook sends it (wrap at 76 characters).
OUTLOOK_76 = (
    "game: alt-2\r\nturn: 5\r\nphase: movement\r\nrole: confederation\r\n"
    "nonce: 0c9e2d7a4c1e9f3b8a6d2e4f6a8c5b0f\r\nissued: 2026-11-30T08:00:00Z\r\n\r\n"
    "move C12 0405 0406 0407 0507 0508 0608 0609 0709 0710 0810 0811 0911 0912\r\n"
    "1012 1013\r\n"
    "note: the boat at 0608 carries two of my people, so please move it before\r\n"
    "the sea serpent does\r\n"
)


def quote_reply(text: str) -> str:
    return "".join("> " + line + "\n" for line in text.rstrip("\n").split("\n"))


@pytest.fixture
def ssh(tmp_path):
    """ssh-keygen with an ed25519 key; ``sign(data, namespace)`` returns the armored signature."""
    if SSH_KEYGEN is None:
        pytest.skip("ssh-keygen (OpenSSH) is not installed")
    key = tmp_path / "id_ed25519"
    subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", "red@example.org", "-f", str(key)],
                   check=True, capture_output=True)

    class Ssh:
        public = load_public_key(key.with_suffix(".pub").read_text(), "id_ed25519.pub")

        @staticmethod
        def sign(data: bytes, namespace: str = "pbem-orders", key_path: Path = key) -> str:
            done = subprocess.run([SSH_KEYGEN, "-Y", "sign", "-f", str(key_path), "-n", namespace],
                                  input=data, capture_output=True, check=True)
            return done.stdout.decode("ascii")

        @staticmethod
        def keygen(name: str, *args: str) -> Path:
            path = tmp_path / name
            subprocess.run([SSH_KEYGEN, "-q", "-N", "", "-f", str(path), *args], check=True, capture_output=True)
            return path

    return Ssh()


# --- pbem envelopes -------------------------------------------------------------------------------


def test_nothing_signed():
    assert find_signed([("body", ORDERS)], []) == []
    assert find_signed([], []) == []


def test_envelope_in_body_and_in_attachment():
    env = sign_text(ORDERS, KEY)
    found = find_signed([("body", "Hi,\n\n" + env + "\n-- \nRed\n"), ("orders.txt", env)], [])
    assert found == [
        Signed(CANON, KEY.public_key(), "pbem", "body"),
        Signed(CANON, KEY.public_key(), "pbem", "orders.txt"),
    ]
    assert found[0].digest == hashlib.sha256(CANON.encode()).hexdigest()


def test_quoted_old_envelope_is_not_counted():
    body = "Thanks!\n\nOn Monday you wrote:\n" + quote_reply(sign_text(ORDERS, KEY))
    assert find_signed([("body", body)], []) == []


def test_tampered_envelope():
    body = sign_text(ORDERS, KEY).replace("sink 0608", "sink 0609")
    [bad] = find_signed([("body", body)], [])
    assert isinstance(bad, BadSignature)
    assert (bad.source, bad.method, bad.public_key, bad.rewrapped) == ("body", "pbem", KEY.public_key(), False)
    assert "line 1" in bad.reason and "does not match" in bad.reason


def test_malformed_envelope_is_a_bad_signature_not_an_exception():
    body = sign_text(ORDERS, KEY).replace("-----END PBEM SIGNATURE-----", "")
    [bad] = find_signed([("body", body)], [])
    assert isinstance(bad, BadSignature) and bad.public_key is None
    assert "has no '-----END PBEM SIGNATURE-----'" in bad.reason


def test_mbox_from_quoting_is_undone():
    orders = ORDERS.replace("sink 0608", "From 0608 the ship sails\n>From here on\nsink 0608")
    env = sign_text(orders, KEY)
    # An mboxrd writer quotes every line matching ^>*From with one more '>'.
    in_mbox = env.replace("\nFrom 0608", "\n>From 0608").replace("\n>From here", "\n>>From here")
    assert in_mbox != env
    [found] = find_signed([("body", in_mbox)], [])
    assert found == Signed(orders.rstrip("\n"), KEY.public_key(), "pbem", "body")
    assert unquote_mbox_from(">From a\n>>From b\n> From c\n") == "From a\n>From b\n> From c\n"


def test_rewrapped_envelope_is_flagged():
    env = sign_text(LONG_ORDERS, KEY)
    wrapped = env.replace(LONG_ORDERS.rstrip("\n"), THUNDERBIRD_72.rstrip("\n"))
    [bad] = find_signed([("body", wrapped)], [])
    assert isinstance(bad, BadSignature) and bad.rewrapped


# --- inline SSH signatures ------------------------------------------------------------------------


@needs_ssh_keygen
def test_inline_ssh_block_after_a_greeting(ssh):
    armored = ssh.sign(ORDERS.encode())
    # Sent from a Windows client: CRLF, trailing spaces, a greeting and a sign-off.
    body = ("Hello referee, my orders:\n\n" + ORDERS + armored + "\n-- \nRed\n")
    body = "\r\n".join(line + " " if line.startswith("move") else line for line in body.split("\n"))
    [found] = find_signed([("body", body)], [])
    assert found == Signed(CANON, ssh.public, "ssh", "body")


@needs_ssh_keygen
def test_inline_ssh_block_of_a_file_without_final_newline(ssh):
    armored = ssh.sign(CANON.encode())
    [found] = find_signed([("body", CANON + "\n" + armored)], [])
    assert found == Signed(CANON, ssh.public, "ssh", "body")


@needs_ssh_keygen
def test_inline_ssh_tampered_and_quoted(ssh):
    armored = ssh.sign(ORDERS.encode())
    body = ORDERS.replace("0608", "0609") + armored
    [bad] = find_signed([("body", body)], [])
    assert isinstance(bad, BadSignature) and bad.method == "ssh" and bad.public_key == ssh.public
    assert "does not match the text before it" in bad.reason
    assert find_signed([("body", "You wrote:\n" + quote_reply(ORDERS + armored))], []) == []


@needs_ssh_keygen
def test_inline_ssh_wrong_namespace_and_rsa(ssh):
    [bad] = find_signed([("body", ORDERS + ssh.sign(ORDERS.encode(), "other"))], [])
    assert isinstance(bad, BadSignature) and "namespace 'other'" in bad.reason
    rsa = ssh.keygen("id_rsa", "-t", "rsa", "-b", "2048")
    [bad] = find_signed([("body", ORDERS + ssh.sign(ORDERS.encode(), key_path=rsa))], [])
    assert isinstance(bad, BadSignature) and "only Ed25519" in bad.reason and bad.public_key is None


@needs_ssh_keygen
def test_inline_ssh_rewrapped_is_flagged(ssh):
    armored = ssh.sign(LONG_ORDERS.encode())
    [bad] = find_signed([("body", OUTLOOK_76 + armored)], [])
    assert isinstance(bad, BadSignature) and bad.rewrapped


# --- detached .sig attachments --------------------------------------------------------------------


@needs_ssh_keygen
def test_sig_attachment_with_orders_attachment(ssh):
    sig = ssh.sign(ORDERS.encode()).encode()
    texts = [("body", "Orders attached.\n"), ("notes.txt", "unrelated\n"), ("orders.txt", ORDERS)]
    [found] = find_signed(texts, [("orders.txt.sig", sig)])
    assert found == Signed(CANON, ssh.public, "ssh", "orders.txt", sig_file="orders.txt.sig")


@needs_ssh_keygen
def test_sig_attachment_with_orders_in_body_above_signature_and_quote(ssh):
    sig = ssh.sign(ORDERS.encode()).encode()
    body = "Hi!\n\n" + ORDERS + "\n-- \nRed player\n"
    [found] = find_signed([("body", body)], [("orders.sig", sig)])
    assert found == Signed(CANON, ssh.public, "ssh", "body", sig_file="orders.sig")
    # A top-posted reply: orders, the attribution line, then the quote.
    body = ORDERS + "\nOn Mon, 30 Nov 2026, Referee wrote:\n" + quote_reply("Phase 3 opens.")
    [found] = find_signed([("body", body)], [("orders.sig", sig)])
    assert found == Signed(CANON, ssh.public, "ssh", "body", sig_file="orders.sig")


@needs_ssh_keygen
def test_sig_attachment_failures(ssh):
    sig = ssh.sign(ORDERS.encode()).encode()
    [bad] = find_signed([("body", "see attached"), ("orders.txt", ORDERS.replace("0608", "0609"))],
                        [("orders.txt.sig", sig)])
    assert isinstance(bad, BadSignature)
    assert (bad.source, bad.sig_file, bad.public_key) == ("orders.txt.sig", "orders.txt.sig", ssh.public)
    assert "matches none of the message's texts (orders.txt)" in bad.reason
    [bad] = find_signed([("body", "no orders here")], [("orders.txt.sig", sig)])
    assert "no text for this signature" in bad.reason
    [bad] = find_signed([("orders.txt", ORDERS)], [("x.sig", b"garbage")])
    assert isinstance(bad, BadSignature) and bad.public_key is None and bad.reason.startswith("x.sig: ")
    other = ssh.sign(ORDERS.encode(), "file").encode()
    [bad] = find_signed([("orders.txt", ORDERS)], [("x.sig", other)])
    assert "namespace 'file'" in bad.reason


@needs_ssh_keygen
def test_sig_attachment_against_rewrapped_body(ssh):
    sig = ssh.sign(LONG_ORDERS.encode()).encode()
    [bad] = find_signed([("body", THUNDERBIRD_72)], [("orders.sig", sig)])
    assert isinstance(bad, BadSignature) and bad.rewrapped


@needs_ssh_keygen
def test_sig_file_also_handed_over_as_text_is_not_orders(ssh):
    sig = ssh.sign(ORDERS.encode())
    texts = [("body", "attached"), ("orders.txt", ORDERS), ("orders.txt.sig", sig)]
    [found] = find_signed(texts, [("orders.txt.sig", sig.encode())])
    assert found == Signed(CANON, ssh.public, "ssh", "orders.txt", sig_file="orders.txt.sig")


@needs_ssh_keygen
def test_signature_only_text_part_acts_as_detached(ssh):
    sig = ssh.sign(ORDERS.encode())
    [found] = find_signed([("orders.txt", ORDERS), ("signature.asc", sig)], [])
    assert found == Signed(CANON, ssh.public, "ssh", "orders.txt", sig_file="signature.asc")


# --- looks_rewrapped ------------------------------------------------------------------------------


def test_looks_rewrapped_on_real_samples():
    assert looks_rewrapped(THUNDERBIRD_72)
    assert looks_rewrapped(OUTLOOK_76)
    assert not looks_rewrapped(LONG_ORDERS)
    assert not looks_rewrapped(ORDERS)


def test_looks_rewrapped_boundaries():
    line70 = "move C12 0405 0406 0407 0507 0508 0608 0609 0709 0710 0810 0811 0911"[:66] + "0912"
    assert len(line70) == 70
    assert looks_rewrapped(line70 + "\n1012\n")  # 70 + 1 + 4 > 72
    assert not looks_rewrapped(line70 + "\n\n1012\n")  # blank line: a paragraph, not a cut
    assert not looks_rewrapped(line70 + "\nturn: 3\n")  # a header starts a new line
    assert not looks_rewrapped(line70 + "\n> 1012\n")  # a quote
    assert not looks_rewrapped(line70 + "\n# comment\n")
    line65 = line70[:65]
    assert not looks_rewrapped(line65 + "\n1012 1013\n")  # too short to be a cut
    line79 = line70 + "123456789"
    assert not looks_rewrapped(line79 + "\n1012\n")  # longer than any wrap width
    line67 = line70[:67]
    assert not looks_rewrapped(line67 + "\nab\n")  # 67 + 1 + 2 = 70: "ab" would have fitted
    assert not looks_rewrapped(line67 + "\nabcd\n")  # 67 + 1 + 4 = 72: fits in 72 columns
    assert looks_rewrapped(line67 + "\nabcde\n")  # 67 + 1 + 5 = 73 > 72


def test_detached_ssh_signature_with_words_after_the_orders_in_the_body(tmp_path):
    """A player pastes the signed file into the body and writes on after it (issue 2: orders in
    the text body, with a .sig attachment): the judge finds where the signed file ended."""
    import shutil
    import subprocess

    import pytest

    if shutil.which("ssh-keygen") is None:
        pytest.skip("ssh-keygen is not installed")
    key = tmp_path / "id"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    orders = ("game: atl-7\nturn: 3\nphase: red\nrole: red\nnonce: 00112233445566778899\n"
              "issued: 2026-11-29T20:15:00Z\n\nwalk red3 0607 0608\n\nsink 0608\n")
    (tmp_path / "o.txt").write_text(orders)
    subprocess.run(["ssh-keygen", "-q", "-Y", "sign", "-f", str(key), "-n", "pbem-orders",
                    str(tmp_path / "o.txt")], check=True)
    sig = (tmp_path / "o.txt.sig").read_bytes()
    body = "Hi ref,\n\n" + orders + "\nThanks, and good luck to all!\n\nAnna\n"
    found = find_signed([("body", body)], [("o.txt.sig", sig)])
    assert len(found) == 1 and isinstance(found[0], Signed)
    assert found[0].text == orders.rstrip("\n")
    # and words changed inside the orders still fail
    found = find_signed([("body", body.replace("0608\n\nsink", "0609\n\nsink"))], [("o.txt.sig", sig)])
    assert not isinstance(found[0], Signed)


def test_an_envelope_whose_every_space_became_a_no_break_space_is_found():
    """HTML composers may turn every space into U+00A0, marker lines included (canonical form
    step 4 maps them back)."""
    key = PrivateKey(hashlib.sha256(b"nbsp").digest(), "red")
    signed = sign_text("game: g\nturn: 1\nphase: red\nrole: red\nnonce: 0123456789abcdef\n"
                       "issued: 2026-11-29T20:15:00Z\n\nwalk red3 0607 0608", key)
    found = find_signed([("body", signed.replace(" ", "\u00a0"))], [])
    assert len(found) == 1 and isinstance(found[0], Signed)


# --- likely causes of a failed signature (issue 7, item 8) ------------------------------------

from pbem.crypto.find import (  # noqa: E402
    HINT_BOM,
    HINT_CHARSET,
    HINT_MIXED_LINE_ENDS,
    HINT_REWRAPPED,
    HINT_TRAILING_SPACE,
    signature_hint,
)


@pytest.mark.parametrize(
    "text, raw, expected",
    [
        (ORDERS, b"\xef\xbb\xbf" + ORDERS.encode(), HINT_BOM),  # Notepad's "UTF-8 with BOM"
        (ORDERS, b"\xff\xfe" + ORDERS.encode("utf-16-le"), HINT_BOM),
        (ORDERS, ORDERS.replace("\n", "\r\n", 2).encode(), HINT_MIXED_LINE_ENDS),
        (ORDERS, ORDERS.replace("sink", "sink ").replace("\n", "\r\n").encode().replace(b"0608\r\n", b"0608 \r\n"),
         HINT_TRAILING_SPACE),
        ("game: x\nmove 1 \n", None, HINT_TRAILING_SPACE),
        (ORDERS, ORDERS.encode(), None),
        (ORDERS.replace("\n", "\r\n"), ORDERS.replace("\n", "\r\n").encode(), None),  # CRLF throughout is fine
    ],
)
def test_hints_for_exact_bytes(text, raw, expected):
    assert signature_hint(text, raw, exact_bytes=True) == expected


def test_hints_for_any_signature():
    assert signature_hint(THUNDERBIRD_72) == HINT_REWRAPPED
    assert signature_hint(THUNDERBIRD_72, rewrapped=True) is None  # known: the caller words it
    assert signature_hint("note: caf\u00c3\u00a9\n") == HINT_CHARSET  # UTF-8 of U+00E9 read as Latin-1
    assert signature_hint("note: \u00e2\u20ac\u0153x\u00e2\u20ac\u009d\n") == HINT_CHARSET  # U+201C via cp1252
    assert signature_hint("note: caf\ufffd\n") == HINT_CHARSET
    assert signature_hint("note: caf\u00e9 \u00c9t\u00e9\n") is None  # real accents are no hint
    # A pbem envelope's canonical form removes these, so they are no cause there.
    assert signature_hint("a \r\nb\n", b"\xef\xbb\xbfa \r\nb\n") is None


def test_a_failed_envelope_names_the_likely_cause():
    envelope = sign_text(ORDERS.replace("sink 0608", "note: caf\u00e9"), KEY)
    mangled = envelope.replace("caf\u00e9", "caf\u00c3\u00a9")
    [bad] = find_signed([("body", mangled)], [])
    assert isinstance(bad, BadSignature)
    assert "changed after it was signed" in bad.reason and HINT_CHARSET in bad.reason


def test_a_rewrapped_failure_is_flagged_and_not_worded_twice():
    envelope = sign_text(LONG_ORDERS, KEY)
    wrapped = envelope.replace(LONG_ORDERS.rstrip("\n"), THUNDERBIRD_72.rstrip("\n"))
    [bad] = find_signed([("body", wrapped)], [])
    assert bad.rewrapped and HINT_REWRAPPED not in bad.reason


# --- alternate readings and raw bytes (issue 7, items 5 and 7) --------------------------------


def test_an_alternate_reading_is_tried_only_when_the_main_one_fails():
    envelope = sign_text(ORDERS, KEY)
    broken = envelope.replace("sink 0608", "sink 0609")
    # Main fails, the alternate verifies: one Signed, nothing reported twice.
    [found] = find_signed([("body", broken)], [], alternates={0: [envelope]})
    assert isinstance(found, Signed) and found.text == CANON
    # Main verifies: the (broken) alternate is never looked at.
    [found] = find_signed([("body", envelope)], [], alternates={0: [broken]})
    assert isinstance(found, Signed)
    # Both fail: one BadSignature.
    [found] = find_signed([("body", broken)], [], alternates={0: [broken.replace("0507", "0508")]})
    assert isinstance(found, BadSignature)
    # An alternate holding another envelope (another key) does not count for this one.
    other = sign_text(ORDERS, PrivateKey(bytes(range(32)), "x"))
    [found] = find_signed([("body", broken)], [], alternates={0: [other]})
    assert isinstance(found, BadSignature)


def test_armour_broken_in_the_main_reading_is_read_from_an_alternate():
    envelope = sign_text(ORDERS, KEY)
    cut = envelope.split("-----BEGIN PBEM SIGNATURE-----")[0]
    [found] = find_signed([("body", cut)], [], alternates={0: [envelope]})
    assert isinstance(found, Signed)


@needs_ssh_keygen
def test_detached_signature_checks_the_raw_bytes_first(tmp_path):
    key = tmp_path / "id"
    subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    data = b"\xef\xbb\xbf" + ORDERS.replace("\n", " \r\n", 4).encode()
    (tmp_path / "o.txt").write_bytes(data)
    subprocess.run([SSH_KEYGEN, "-Y", "sign", "-f", str(key), "-n", "pbem-orders", str(tmp_path / "o.txt")],
                   check=True, capture_output=True)
    sig = (tmp_path / "o.txt.sig").read_bytes()
    decoded = data.decode("utf-8-sig").replace("\r\n", "\n")
    [bad] = find_signed([("o.txt", decoded)], [("o.txt.sig", sig)])
    assert isinstance(bad, BadSignature)
    [good] = find_signed([("o.txt", decoded)], [("o.txt.sig", sig)], raw_bytes={0: data})
    assert isinstance(good, Signed) and good.text == CANON
