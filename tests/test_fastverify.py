"""pbem.crypto.fastverify: libsodium's "valid" is OpenSSL's too, and PublicKey.verify gives
OpenSSL's verdict on every signature, malformed ones included (RFC 8032 section 5.1.7; the
small-order and non-canonical encodings are those listed by Chalkias, Garillot and Nikolaenko,
"Taming the many EdDSAs", 2020)."""

from __future__ import annotations

import random

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from pbem.crypto import fastverify
from pbem.crypto.keys import PublicKey

L = 2**252 + 27742317777372353535851937790883648493  # RFC 8032 section 5.1, the group order
P = 2**255 - 19

# RFC 8032 section 7.1, TEST 1 and TEST 2: public key, message, signature (hex)
RFC8032 = [
    ("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
]

# Encodings of the eight points of small order (the identity among them) and non-canonical ones
SMALL_ORDER = [
    "0100000000000000000000000000000000000000000000000000000000000000",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0000000000000000000000000000000000000000000000000000000000000080",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # y = p + 1: non-canonical
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # y = p
    "0100000000000000000000000000000000000000000000000000000000000080",  # x = 0, sign bit set
]


def openssl(sig: bytes, data: bytes, pub: bytes) -> bool:
    """The verdict of OpenSSL alone, through cryptography."""
    try:
        Ed25519PublicKey.from_public_bytes(pub).verify(sig, data)
    except (InvalidSignature, ValueError):
        return False
    return True


def cases():
    """(signature, data, public key) triples: valid, tampered and malformed."""
    rng = random.Random(11)
    out = []
    for pub, msg, sig in RFC8032:
        out.append((bytes.fromhex(sig), bytes.fromhex(msg), bytes.fromhex(pub)))
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    pub = key.public_key().public_bytes_raw()
    for n in (0, 1, 100, 700):
        data = bytes(rng.randrange(256) for _ in range(n))
        sig = key.sign(data)
        out.append((sig, data, pub))
        s = int.from_bytes(sig[32:], "little")
        out.append((sig[:32] + (s + L).to_bytes(32, "little"), data, pub))  # S >= L
        for _ in range(4):  # one bit flipped in the signature, the data or the key
            i = rng.randrange(64)
            bad = bytearray(sig)
            bad[i] ^= 1 << rng.randrange(8)
            out.append((bytes(bad), data, pub))
            if data:
                d = bytearray(data)
                d[rng.randrange(len(d))] ^= 1
                out.append((sig, bytes(d), pub))
            k = bytearray(pub)
            k[rng.randrange(32)] ^= 1 << rng.randrange(8)
            out.append((sig, data, bytes(k)))
    zero = bytes(32)
    for a in SMALL_ORDER:
        for r in SMALL_ORDER:
            for s in (zero, (1).to_bytes(32, "little"), L.to_bytes(32, "little")):
                for data in (b"", b"orders"):
                    out.append((bytes.fromhex(r) + s, data, bytes.fromhex(a)))
    return out


CASES = cases()


def test_libsodium_is_installed_so_the_fast_path_is_tested():
    assert fastverify.available()


def test_what_libsodium_accepts_openssl_accepts():
    accepted = [c for c in CASES if fastverify.sodium_accepts(*c)]
    assert len(accepted) >= 6  # the RFC vectors and the good signatures at least
    assert all(openssl(*c) for c in accepted)


def test_the_libraries_differ_on_small_order_points_and_openssl_decides():
    # A = R = the identity, S = 0: [0]B - [h]identity is the identity, whose encoding is R,
    # so RFC 8032's equation holds and OpenSSL accepts; libsodium refuses small-order points.
    identity = bytes.fromhex(SMALL_ORDER[0])
    sig, data = identity + bytes(32), b"orders"
    assert openssl(sig, data, identity)
    assert not fastverify.sodium_accepts(sig, data, identity)
    assert PublicKey(identity).verify(sig, data)


@pytest.mark.parametrize("index", range(len(CASES)))
def test_verify_gives_openssls_verdict(index):
    sig, data, pub = CASES[index]
    try:
        key = PublicKey(pub)
    except Exception:  # a key PublicKey refuses to hold: nothing to verify with
        return
    assert key.verify(sig, data) == openssl(sig, data, pub)


@pytest.mark.parametrize("n", [0, 1, 64, 1000])
def test_signatures_are_openssls_bytes(n):
    from pbem.crypto.keys import PrivateKey

    rng = random.Random(n)
    for _ in range(5):
        seed = bytes(rng.randrange(256) for _ in range(32))
        data = bytes(rng.randrange(256) for _ in range(n))
        key = PrivateKey(seed)
        want = Ed25519PrivateKey.from_private_bytes(seed).sign(data)
        assert key.sign(data) == want
        assert key.sign(data) == want  # the libsodium key, made once, signs alike again
        assert key.public_key().verify(want, data)


def test_rfc8032_test1_signature():
    from pbem.crypto.keys import PrivateKey

    seed = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
    assert PrivateKey(seed).sign(b"").hex() == RFC8032[0][2]


def test_a_libsodium_that_accepts_s_plus_l_is_not_used():
    """A libsodium built with ED25519_COMPAT (or an old one) checks only the top bits of S and
    accepts S + L, which OpenSSL refuses: pbem must then leave every verdict to OpenSSL. No such
    build can be installed here, so the check runs against a stand-in that accepts every
    signature of the right length (the lenient build's verdict on RFC 8032 TEST 1 with S + L);
    the installed libsodium passes it."""
    from nacl._sodium import ffi, lib

    from pbem.crypto.fastverify import _strict

    class Lenient:
        @staticmethod
        def crypto_sign_open(out, out_len, signed, n, key):
            return 0 if n == 64 else -1

    assert _strict(lib, ffi)
    assert not _strict(Lenient, ffi)
