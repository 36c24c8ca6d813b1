"""A faster first look at an Ed25519 signature: libsodium (through PyNaCl's bundled library),
whose "valid" is taken as is and whose "invalid" is asked again of OpenSSL (issue 11: batch
ingest; an Ed25519 check costs OpenSSL 4 about 1.5 M instructions, libsodium 0.65 M).

Why the verdicts are exactly OpenSSL's (:meth:`pbem.crypto.keys.PublicKey.verify`): libsodium's
``crypto_sign_open`` (``crypto_sign_ed25519_verify_detached``, RFC 8032 section 5.1.7) accepts
a signature ``R || S`` of ``M`` under the key ``A`` only if ``S < L``, ``A`` is a canonical
encoding of a curve point of large order, ``R`` is not of small order, and the encoding of
``[S]B - [SHA-512(R || A || M) mod L]A`` equals ``R``. OpenSSL (``ossl_ed25519_verify``)
accepts when ``S < L``, ``A`` decodes to a curve point, and the encoding of that same point
equals ``R``. For a canonical ``A`` both libraries decode the same point and compute the same
hash and the same sum, so every signature libsodium accepts OpenSSL accepts too. The converse
does not hold (libsodium refuses small-order and non-canonical keys and small-order ``R``,
which OpenSSL takes): whatever libsodium refuses goes to OpenSSL, whose answer is final. Bad
signatures thus cost both checks; good ones, the cheaper one only.
tests/test_fastverify.py checks both directions on RFC 8032 vectors and on the malformed
signatures and keys where the libraries differ.

Signing (:func:`sodium_sign`) is libsodium's too where it is installed (0.31 M instructions
against OpenSSL's 0.48 M): Ed25519 signatures are deterministic (RFC 8032 section 5.1.6), so
both libraries give the same 64 bytes for the same seed and data (tests/test_fastverify.py).

Without PyNaCl installed, :func:`sodium_accepts` always answers False and
:func:`sodium_secret_key` None: OpenSSL does all the work.
"""

from __future__ import annotations

__all__ = ["sodium_accepts", "available", "sodium_secret_key", "sodium_sign"]

_lib = _ffi = None
_loaded = False


def _load() -> None:
    global _lib, _ffi, _loaded
    _loaded = True
    try:
        from nacl._sodium import ffi, lib  # the cffi module alone: PyNaCl's bindings cost 30 ms

        if lib.sodium_init() < 0 or not _strict(lib, ffi):
            return
    except Exception:  # not installed, or a build without the function: OpenSSL alone
        return
    _lib, _ffi = lib, ffi


# RFC 8032 section 7.1, TEST 1 (the empty message): the public key and the signature
_RFC8032_KEY = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
_RFC8032_SIG = bytes.fromhex("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
                             "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
_L = 2**252 + 27742317777372353535851937790883648493  # the order of the base point


def _strict(lib, ffi) -> bool:
    """True when this libsodium accepts RFC 8032's TEST 1 signature and refuses it with S + L
    in place of S, which OpenSSL refuses: a libsodium built with ``ED25519_COMPAT`` (or an old
    one) checks only S's top bits, would accept what OpenSSL refuses, and is not used."""
    def accepts(sig: bytes) -> bool:  # the message is empty: the signed message is sig
        out, out_len = ffi.new("unsigned char[]", 64), ffi.new("unsigned long long *")
        return lib.crypto_sign_open(out, out_len, sig, 64, _RFC8032_KEY) == 0

    s = int.from_bytes(_RFC8032_SIG[32:], "little")
    return accepts(_RFC8032_SIG) and not accepts(_RFC8032_SIG[:32]
                                                 + (s + _L).to_bytes(32, "little"))


def available() -> bool:
    """True if libsodium can be used (PyNaCl is installed and initialises)."""
    if not _loaded:
        _load()
    return _lib is not None


def sodium_accepts(signature: bytes, data: bytes, public_key: bytes) -> bool:
    """True if libsodium finds ``signature`` (64 bytes) a valid Ed25519 signature of ``data``
    under the raw 32-byte ``public_key``; False if it does not, or cannot tell (no libsodium,
    wrong lengths). True implies OpenSSL's verdict is valid too (module doc); False says
    nothing: ask OpenSSL."""
    if not _loaded:
        _load()
    if _lib is None or len(signature) != 64 or len(public_key) != 32:
        return False
    signed = bytes(signature) + bytes(data)
    out = _ffi.new("unsigned char[]", max(len(signed), 1))
    out_len = _ffi.new("unsigned long long *")
    return _lib.crypto_sign_open(out, out_len, signed, len(signed), public_key) == 0


def sodium_secret_key(seed: bytes):
    """libsodium's 64-byte secret key (seed and public key) for a 32-byte Ed25519 ``seed``, as
    an opaque value for :func:`sodium_sign`; None without libsodium."""
    if not _loaded:
        _load()
    if _lib is None or len(seed) != 32:
        return None
    pk, sk = _ffi.new("unsigned char[32]"), _ffi.new("unsigned char[64]")
    if _lib.crypto_sign_seed_keypair(pk, sk, seed) != 0:
        return None
    return sk


def sodium_sign(secret_key, data: bytes) -> bytes:
    """The 64-byte Ed25519 signature of ``data`` (RFC 8032 section 5.1.6) under a key from
    :func:`sodium_secret_key`. Raises RuntimeError if libsodium fails (it does not for
    valid input)."""
    data = bytes(data)
    out = _ffi.new("unsigned char[]", len(data) + 64)
    out_len = _ffi.new("unsigned long long *")
    if _lib.crypto_sign(out, out_len, data, len(data), secret_key) != 0:
        raise RuntimeError("libsodium could not sign")
    return bytes(_ffi.buffer(out, 64))
