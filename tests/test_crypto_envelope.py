"""The pbem envelope (brief section 3, docs/signing.md "The envelope").

The reference envelope is built in the test from the documented layout with ``cryptography``'s
Ed25519 directly and the RFC 8032 TEST 1 key; Ed25519 is deterministic, so ``sign_text`` must
reproduce it byte for byte.
"""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.crypto.envelope import (
    RECEIPT_DOMAIN,
    RECEIPT_WORD,
    find_envelopes,
    find_receipts,
    sign_receipt,
    sign_text,
)
from pbem.crypto.errors import EnvelopeError
from pbem.crypto.keys import PrivateKey, PublicKey

SEED1 = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
PUB1 = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
KEY = PrivateKey(SEED1, "red")

# What a player typed, with what mail clients add: CRLF, trailing blanks, a no-break space,
# a decomposed accent, blank lines around.
TYPED = (
    "\r\n\r\ngame: atl-7  \r\nturn: 3\r\nphase: movement\r\nrole: red\r\n"
    "nonce: 5b0f0c9e2d7a4c1e9f3b8a6d2e4f6a8c\r\nissued: 2026-11-29T20:15:00Z\r\n\r\n"
    "move 4 from 0507 to\u00a00607\t\r\nnote: cafe\u0301\r\nsink 0608\r\n\r\n"
)
# The same by hand after the six canonical steps.
CANONICAL = (
    "game: atl-7\nturn: 3\nphase: movement\nrole: red\n"
    "nonce: 5b0f0c9e2d7a4c1e9f3b8a6d2e4f6a8c\nissued: 2026-11-29T20:15:00Z\n\n"
    "move 4 from 0507 to 0607\nnote: caf\u00e9\nsink 0608"
)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def reference_envelope(body: str, domain: bytes = b"pbem-orders/1\n", word: str = "ORDERS") -> str:
    """The documented layout, built independently of pbem.crypto.envelope."""
    sk = Ed25519PrivateKey.from_private_bytes(SEED1)
    signature = sk.sign(domain + body.encode("utf-8"))
    return (
        f"-----BEGIN PBEM {word}-----\n{body}\n-----BEGIN PBEM SIGNATURE-----\n"
        f"ed25519 {b64(PUB1)}\n{b64(signature)}\n-----END PBEM SIGNATURE-----\n"
    )


def test_sign_text_matches_the_documented_layout_byte_for_byte():
    assert sign_text(TYPED, KEY) == reference_envelope(CANONICAL)


def test_receipt_uses_its_own_word_and_domain():
    assert sign_receipt(TYPED, KEY) == reference_envelope(CANONICAL, b"pbem-receipt/1\n", "RECEIPT")
    assert sign_text(TYPED, KEY, domain=RECEIPT_DOMAIN, word=RECEIPT_WORD) == sign_receipt(TYPED, KEY)


def test_find_in_a_mail_body_with_line_numbers():
    mail = "Hello referee,\n\nmy orders:\n\n" + reference_envelope(CANONICAL) + "\n-- \nRed\n"
    [env] = find_envelopes(mail)
    assert env.start_line == 5
    assert env.end_line == 5 + CANONICAL.count("\n") + 5
    assert env.body == CANONICAL
    assert env.public_key == PublicKey(PUB1)
    assert env.verify()
    assert env.signed_bytes() == b"pbem-orders/1\n" + CANONICAL.encode("utf-8")


def test_transport_damage_keeps_the_signature_valid():
    env_text = sign_text(TYPED, KEY)
    lines = env_text.split("\n")
    damaged = "\r\n".join(
        line.replace(" ", "\u00a0", 1) + "  " if line.startswith("move") else line + " \t"
        for line in lines
    )
    damaged = damaged.replace("caf\u00e9", "cafe\u0301")
    [env] = find_envelopes(damaged)
    assert env.verify()
    assert env.text == CANONICAL


def test_changed_text_or_signature_fails():
    good = sign_text(TYPED, KEY)
    [env] = find_envelopes(good.replace("sink 0608", "sink 0609"))
    assert not env.verify()
    sig_line = good.split("\n")[-3]
    flipped = sig_line[:10] + ("A" if sig_line[10] != "A" else "B") + sig_line[11:]
    [env] = find_envelopes(good.replace(sig_line, flipped))
    assert not env.verify()
    other = PrivateKey(bytes(32))
    forged = good.replace(b64(PUB1), b64(other.public_key().raw))
    [env] = find_envelopes(forged)
    assert not env.verify()


def test_orders_signature_is_not_a_receipt_signature():
    # Same body, same key, markers relabelled: the domain prefix makes it fail.
    relabelled = sign_text(TYPED, KEY).replace("BEGIN PBEM ORDERS", "BEGIN PBEM RECEIPT")
    [env] = find_receipts(relabelled)
    assert not env.verify()
    assert find_envelopes(sign_receipt(TYPED, KEY)) == []
    [receipt] = find_receipts(sign_receipt(TYPED, KEY))
    assert receipt.verify()


@pytest.mark.parametrize("prefix", ["> ", ">", "  > ", ">> "])
def test_quoted_envelopes_are_ignored(prefix):
    quoted = "\n".join(prefix + line for line in sign_text(TYPED, KEY).split("\n"))
    assert find_envelopes("On Monday Red wrote:\n" + quoted) == []


def test_reply_with_new_envelope_above_a_quoted_old_one():
    new = sign_text(CANONICAL.replace("turn: 3", "turn: 4"), KEY)
    old = "\n".join("> " + line for line in sign_text(TYPED, KEY).split("\n"))
    [env] = find_envelopes(new + "\nOn Monday you wrote:\n" + old)
    assert env.start_line == 1 and "turn: 4" in env.body and env.verify()


def test_two_envelopes_in_order():
    text = sign_text("game: a\nsink 0101", KEY) + "\n" + sign_text("game: b\nsink 0202", KEY)
    envs = find_envelopes(text)
    assert [e.text for e in envs] == ["game: a\nsink 0101", "game: b\nsink 0202"]
    assert [e.start_line for e in envs] == [1, 9]
    assert all(e.verify() for e in envs)


def test_markers_with_trailing_whitespace_match_but_not_indented_ones():
    text = sign_text(TYPED, KEY)
    trailing = "\n".join(line + " \u00a0" if line.startswith("-----") else line for line in text.split("\n"))
    assert find_envelopes(trailing)[0].verify()
    indented = "\n".join(" " + line if line.startswith("-----") else line for line in text.split("\n"))
    assert find_envelopes(indented) == []


def test_signature_base64_wrapped_over_two_lines_is_accepted():
    text = sign_text(TYPED, KEY)
    lines = text.split("\n")
    sig = lines[-3]
    lines[-3:-2] = [sig[:60], "", sig[60:]]
    [env] = find_envelopes("\n".join(lines))
    assert env.verify()


def test_empty_text_round_trip():
    text = sign_text("\n \n", KEY)
    assert text.startswith("-----BEGIN PBEM ORDERS-----\n-----BEGIN PBEM SIGNATURE-----\n")
    [env] = find_envelopes(text)
    assert env.body == "" and env.verify()


def test_sign_text_refuses_marker_lines_and_a_surviving_bom():
    with pytest.raises(EnvelopeError, match=r"line 2 of the text to sign is the armour line"):
        sign_text("game: x\n-----BEGIN PBEM SIGNATURE-----  \nsink 0101", KEY)
    with pytest.raises(EnvelopeError, match=r"U\+FEFF"):
        sign_text("\n\ufeffgame: x", KEY)
    # A quoted or indented marker is harmless text.
    text = sign_text("game: x\n> -----END PBEM SIGNATURE-----", KEY)
    assert find_envelopes(text)[0].verify()


GOOD_KEY_LINE = f"ed25519 {b64(PUB1)}"
GOOD_SIG_LINE = b64(bytes(64))


@pytest.mark.parametrize(
    "text,pattern",
    [
        ("x\n-----BEGIN PBEM ORDERS-----\ngame: x\n", r"^line 2: .* has no '-----BEGIN PBEM SIGNATURE-----'"),
        (
            "-----BEGIN PBEM ORDERS-----\ngame: x\n-----BEGIN PBEM SIGNATURE-----\n" + GOOD_KEY_LINE,
            r"^line 3: .* has no '-----END PBEM SIGNATURE-----'",
        ),
        (
            "-----BEGIN PBEM ORDERS-----\na\n-----BEGIN PBEM ORDERS-----\n",
            r"^line 3: a second '-----BEGIN PBEM ORDERS-----' .* starts on line 1",
        ),
        (
            "-----BEGIN PBEM ORDERS-----\na\n-----END PBEM SIGNATURE-----\n",
            r"^line 3: '-----END PBEM SIGNATURE-----' before any",
        ),
        (
            "-----BEGIN PBEM ORDERS-----\na\n-----BEGIN PBEM SIGNATURE-----\n-----END PBEM SIGNATURE-----\n",
            r"^line 4: empty signature block",
        ),
        (
            f"-----BEGIN PBEM ORDERS-----\na\n-----BEGIN PBEM SIGNATURE-----\nrsa {b64(PUB1)}\n{GOOD_SIG_LINE}\n-----END PBEM SIGNATURE-----\n",
            r"^line 4: 'rsa .*expected 'ed25519 <base64",
        ),
        (
            f"-----BEGIN PBEM ORDERS-----\na\n-----BEGIN PBEM SIGNATURE-----\ned25519 {b64(PUB1[:31])}\n{GOOD_SIG_LINE}\n-----END PBEM SIGNATURE-----\n",
            r"^line 4: the public key decodes to 31 bytes; expected 32",
        ),
        (
            f"-----BEGIN PBEM ORDERS-----\na\n-----BEGIN PBEM SIGNATURE-----\n{GOOD_KEY_LINE}\n{b64(bytes(63))}\n-----END PBEM SIGNATURE-----\n",
            r"^line 5: the signature decodes to 63 bytes; expected 64",
        ),
        (
            f"-----BEGIN PBEM ORDERS-----\na\n-----BEGIN PBEM SIGNATURE-----\n{GOOD_KEY_LINE}\nnot*base64\n-----END PBEM SIGNATURE-----\n",
            r"^line 5: the signature 'not\*base64' is not valid base64",
        ),
        (
            f"-----BEGIN PBEM ORDERS-----\na\n-----BEGIN PBEM SIGNATURE-----\n{GOOD_KEY_LINE}\n-----END PBEM SIGNATURE-----\n",
            r"^line 5: .* right after the key line",
        ),
        (
            f"-----BEGIN PBEM ORDERS-----\na\n-----BEGIN PBEM SIGNATURE-----\n{GOOD_KEY_LINE}\n-----BEGIN PBEM ORDERS-----\n",
            r"^line 5: '-----BEGIN PBEM ORDERS-----' inside the signature block",
        ),
    ],
)
def test_malformed_armour(text, pattern):
    with pytest.raises(EnvelopeError, match=pattern):
        find_envelopes(text)


def test_no_envelope():
    assert find_envelopes("game: x\nsink 0101\n") == []
    assert find_envelopes("") == []


def test_bad_marker_word():
    with pytest.raises(ValueError):
        sign_text("x", KEY, word="orders")
    with pytest.raises(ValueError):
        find_envelopes("x", word="SIGNATURE")
