"""Sealing hidden state (brief section 6; DESIGN.md "Every fact has an audience").

The independent checks derive keys with HKDF written out in the test from RFC 5869 (``hmac``
and ``hashlib`` only) using the parameters documented in pbem/crypto/seal.py and
docs/signing.md, and decrypt with ``cryptography``'s AESGCM and the documented additional data.
"""

from __future__ import annotations

import hashlib
import hmac

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from pbem.crypto.errors import BindingNameError, KeyFormatError, SealAuthError, SealFormatError
from pbem.crypto.seal import Sealer

MASTER = bytes(range(32))
SECRET = b'{"tiles": {"0607": "whale"}}'


def hkdf_sha256(ikm: bytes, info: bytes, length: int = 32) -> bytes:
    """RFC 5869 section 2.2-2.3 with salt absent (HashLen zero bytes)."""
    prk = hmac.new(b"\x00" * 32, ikm, hashlib.sha256).digest()
    okm, block, counter = b"", b"", 1
    while len(okm) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        okm += block
        counter += 1
    return okm[:length]


def test_hkdf_helper_matches_rfc5869_test_case_3():
    # RFC 5869 A.3: salt and info empty, L = 42.
    ikm = bytes([0x0B] * 22)
    prk = hmac.new(b"\x00" * 32, ikm, hashlib.sha256).digest()
    assert prk.hex() == "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04"
    assert hkdf_sha256(ikm, b"", 42).hex() == (
        "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
    )


@pytest.fixture
def sealer():
    return Sealer(MASTER)


def test_round_trip(sealer):
    blob = sealer.seal("atl-7", "red", "state", 3, SECRET)
    assert sealer.open("atl-7", "red", "state", 3, blob) == SECRET
    assert len(blob) == 1 + 12 + len(SECRET) + 16
    assert blob[0] == 0x01
    # A fresh sealer (e.g. after a restart) opens it too.
    assert Sealer(MASTER).open("atl-7", "red", "state", 3, blob) == SECRET


def test_random_nonce_each_time(sealer):
    a = sealer.seal("atl-7", "red", "state", 3, SECRET)
    b = sealer.seal("atl-7", "red", "state", 3, SECRET)
    assert a[1:13] != b[1:13] and a != b


def test_independent_key_and_aad(sealer):
    blob = sealer.seal("atl-7", "red", "state", 3, SECRET)
    key = hkdf_sha256(MASTER, b"pbem/seal/1\natl-7\nred")
    aad = b"pbem/1\natl-7\nred\nstate\n3"
    assert AESGCM(key).decrypt(blob[1:13], blob[13:], aad) == SECRET


@pytest.mark.parametrize(
    "binding",
    [
        ("atl-8", "red", "state", 3),
        ("atl-7", "blue", "state", 3),
        ("atl-7", "referee", "state", 3),
        ("atl-7", "red", "orders", 3),
        ("atl-7", "red", "state", 4),
    ],
)
def test_each_wrong_binding_fails(sealer, binding):
    blob = sealer.seal("atl-7", "red", "state", 3, SECRET)
    with pytest.raises(SealAuthError, match=r"authentication failed") as info:
        sealer.open(*binding, blob)
    assert repr(binding[0]) in str(info.value)


def test_wrong_master_key_fails(sealer):
    blob = sealer.seal("atl-7", "red", "state", 3, SECRET)
    with pytest.raises(SealAuthError):
        Sealer(bytes(32)).open("atl-7", "red", "state", 3, blob)


def test_every_flipped_bit_fails(sealer):
    blob = sealer.seal("atl-7", "red", "state", 3, b"short secret")
    for i in range(1, len(blob)):
        for bit in (0x01, 0x80):
            damaged = blob[:i] + bytes([blob[i] ^ bit]) + blob[i + 1:]
            with pytest.raises(SealAuthError):
                sealer.open("atl-7", "red", "state", 3, damaged)


def test_format_byte_and_length(sealer):
    blob = sealer.seal("atl-7", "red", "state", 3, SECRET)
    with pytest.raises(SealFormatError, match=r"format byte 0x02; expected 0x01"):
        sealer.open("atl-7", "red", "state", 3, b"\x02" + blob[1:])
    with pytest.raises(SealFormatError, match=r"is 28 bytes; expected at least 29"):
        sealer.open("atl-7", "red", "state", 3, blob[:28])
    # The empty plaintext is the shortest valid blob: 29 bytes.
    empty = sealer.seal("atl-7", "red", "state", 0, b"")
    assert len(empty) == 29 and sealer.open("atl-7", "red", "state", 0, empty) == b""


def test_derived_keys_differ_per_game_and_owner():
    keys = {
        hkdf_sha256(MASTER, b"pbem/seal/1\n" + g + b"\n" + o)
        for g in (b"atl-7", b"atl-8") for o in (b"red", b"blue")
    }
    assert len(keys) == 4
    sealer = Sealer(MASTER)
    blob = sealer.seal("atl-8", "red", "state", 3, SECRET)
    # Only the atl-8 key opens it, with the same additional data otherwise.
    aad = b"pbem/1\natl-8\nred\nstate\n3"
    assert AESGCM(hkdf_sha256(MASTER, b"pbem/seal/1\natl-8\nred")).decrypt(blob[1:13], blob[13:], aad) == SECRET
    with pytest.raises(InvalidTag):
        AESGCM(hkdf_sha256(MASTER, b"pbem/seal/1\natl-7\nred")).decrypt(blob[1:13], blob[13:], aad)


def test_newlines_in_names_are_refused(sealer):
    # "a\nb"/"c" and "a"/"b\nc" would share the info string "pbem/seal/1\na\nb\nc".
    with pytest.raises(BindingNameError, match=r"line break"):
        sealer.seal("a\nb", "c", "state", 1, SECRET)
    with pytest.raises(BindingNameError, match=r"line break"):
        sealer.seal("a", "b", "st\nate", 1, SECRET)
    with pytest.raises(BindingNameError, match=r"version -1"):
        sealer.seal("a", "b", "state", -1, SECRET)
    with pytest.raises(BindingNameError, match=r"version True"):
        sealer.seal("a", "b", "state", True, SECRET)


def test_master_key_length():
    with pytest.raises(KeyFormatError, match=r"32 bytes, got 31"):
        Sealer(bytes(31))
    assert "000102" not in repr(Sealer(MASTER))


def test_referee_signing_key_is_hkdf_derived(sealer):
    seed = hkdf_sha256(MASTER, b"pbem/referee-sign/1\natl-7")
    expected = Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes_raw()
    key = sealer.referee_signing_key("atl-7")
    assert key.public_key().raw == expected
    assert key is sealer.referee_signing_key("atl-7")  # cached
    assert Sealer(MASTER).referee_signing_key("atl-7").public_key() == key.public_key()
    assert sealer.referee_signing_key("atl-8").public_key() != key.public_key()


def test_derive_secret_is_hkdf_and_stable(sealer):
    assert sealer.derive_secret("dice/atl-7/3-movement") == hkdf_sha256(MASTER, b"pbem/secret/1\ndice/atl-7/3-movement")
    assert sealer.derive_secret("x") == Sealer(MASTER).derive_secret("x")
    assert sealer.derive_secret("x") != sealer.derive_secret("y")
    assert len(sealer.derive_secret("")) == 32
