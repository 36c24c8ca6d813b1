"""Sealing hidden state at rest: AES-256-GCM under keys derived from the referee's master key.

DESIGN.md "The ruleset interface" ("Every fact has an audience"): secret parts of the state and
private events are sealed before they reach the database, with a key per game and owner derived
from the referee master key (:func:`pbem.crypto.keys.load_master_key`) with HKDF, and additional
data binding game, owner, purpose and version. All derivations are HKDF-SHA256 (RFC 5869) with
no salt and 32 bytes of output; only ``info`` differs:

=====================  ==========================================================
derived key            HKDF ``info`` (UTF-8)
=====================  ==========================================================
sealing key            ``"pbem/seal/1\\n" + game + "\\n" + owner``
referee signing seed   ``"pbem/referee-sign/1\\n" + game``
secret                 ``"pbem/secret/1\\n" + label``
=====================  ==========================================================

The secrets in use (:meth:`Sealer.derive_secret`/:meth:`Sealer.mac_key` labels):

==================  =============================================================
label               use
==================  =============================================================
``key-check``       identifies the master key (setting ``master_key_check``)
``orders-salt``     HMAC key of the orders' salt (pbem.engine.accept.orders_commitment)
``order-digest``    HMAC key of ``order_set.digest`` (pbem.engine.accept.order_digest)
``row-mac``         HMAC key of the row MACs (``mac`` columns; pbem.store.integrity)
==================  =============================================================

A sealed blob (format 1) is ``b"\\x01" || nonce (12 random bytes) || AES-256-GCM ciphertext
and 16-byte tag`` (NIST SP 800-38D), with additional data
``"pbem/1\\n" + game + "\\n" + owner + "\\n" + purpose + "\\n" + str(version)`` (UTF-8).
Random 96-bit nonces keep the collision chance below 2**-32 up to 2**32 seals per key
(SP 800-38D section 8.3); a key is one game and one owner.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.crypto.errors import (
    BindingNameError,
    KeyFormatError,
    SealAuthError,
    SealFormatError,
)

if TYPE_CHECKING:  # imported when a signing key is made: not every command needs Ed25519
    from pbem.crypto.keys import PrivateKey

__all__ = ["Sealer", "SEAL_FORMAT", "NONCE_BYTES", "TAG_BYTES"]

SEAL_FORMAT = 1
"""The first byte of every sealed blob of this format."""
NONCE_BYTES = 12
TAG_BYTES = 16

_SEAL_INFO = b"pbem/seal/1\n"
_SIGN_INFO = b"pbem/referee-sign/1\n"
_SECRET_INFO = b"pbem/secret/1\n"
_AAD_PREFIX = b"pbem/1\n"
_FORMAT_BYTE = bytes([SEAL_FORMAT])


def _name(value: str, what: str) -> bytes:
    """UTF-8 of a binding name; raises BindingNameError if it is not a str or holds a newline."""
    if not isinstance(value, str):
        raise BindingNameError(f"{what} {value!r} is a {type(value).__name__}; expected str")
    if "\n" in value or "\r" in value:
        raise BindingNameError(
            f"{what} {value!r} contains a line break; names joined with newlines in key "
            "derivation must not contain one"
        )
    return value.encode("utf-8")


class Sealer:
    """Seals and opens hidden state for every game, from one 32-byte referee ``master_key``.

    ``Sealer(master_key)`` raises :class:`KeyFormatError` if ``master_key`` is not 32 bytes.
    Derived keys are cached per (game, owner) and per game, so sealing in a loop costs one
    HKDF per key, not per call. Safe to share between threads (the caches only ever gain
    entries; a race derives the same key twice).
    """

    __slots__ = ("_master", "_aead", "_signing", "_keys")

    def __init__(self, master_key: bytes) -> None:
        if not isinstance(master_key, bytes) or len(master_key) != 32:
            size = len(master_key) if isinstance(master_key, (bytes, bytearray)) else "not bytes"
            raise KeyFormatError(f"the referee master key must be 32 bytes, got {size}")
        self._master = master_key
        self._aead: dict[tuple[str, str], AESGCM] = {}
        self._signing: dict[str, PrivateKey] = {}
        self._keys: dict[str, bytes] = {}

    def __repr__(self) -> str:
        return f"Sealer(<master key hidden>, {len(self._aead)} sealing keys cached)"

    def _hkdf(self, info: bytes) -> bytes:
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(self._master)

    def _cipher(self, game: str, owner: str) -> AESGCM:
        cipher = self._aead.get((game, owner))
        if cipher is None:
            info = _SEAL_INFO + _name(game, "game") + b"\n" + _name(owner, "owner")
            cipher = AESGCM(self._hkdf(info))
            self._aead[(game, owner)] = cipher
        return cipher

    @staticmethod
    def _aad(game: str, owner: str, purpose: str, version: int) -> bytes:
        if not isinstance(version, int) or isinstance(version, bool) or version < 0:
            raise BindingNameError(f"version {version!r}: expected an int >= 0")
        return (
            _AAD_PREFIX
            + _name(game, "game") + b"\n"
            + _name(owner, "owner") + b"\n"
            + _name(purpose, "purpose") + b"\n"
            + str(version).encode("ascii")
        )

    def seal(self, game: str, owner: str, purpose: str, version: int, plaintext: bytes) -> bytes:
        """Encrypt ``plaintext`` for ``owner`` (a role name, "referee" or "archive") in ``game``.

        ``purpose`` says what the bytes are ("state", "orders", "events") and ``version`` which
        revision (an int >= 0, e.g. the phase number); all four must be given again to open.
        Returns ``b"\\x01" + nonce + ciphertext`` (1 + 12 + len(plaintext) + 16 bytes).
        Raises :class:`BindingNameError` for a name with a line break or a bad version.
        """
        aad = self._aad(game, owner, purpose, version)
        nonce = os.urandom(NONCE_BYTES)
        return _FORMAT_BYTE + nonce + self._cipher(game, owner).encrypt(nonce, plaintext, aad)

    def open(self, game: str, owner: str, purpose: str, version: int, blob: bytes) -> bytes:
        """Decrypt a blob made by :meth:`seal` with the same game, owner, purpose and version.

        Raises :class:`SealFormatError` for a blob shorter than 29 bytes or with a first byte
        other than ``0x01``; :class:`SealAuthError` when authentication fails (the blob was
        altered, or game, owner, purpose, version or master key differ from sealing);
        :class:`BindingNameError` as :meth:`seal`.
        """
        aad = self._aad(game, owner, purpose, version)
        if len(blob) < 1 + NONCE_BYTES + TAG_BYTES:
            raise SealFormatError(
                f"sealed blob for game {game!r}, owner {owner!r}, {purpose!r} v{version} is "
                f"{len(blob)} bytes; expected at least {1 + NONCE_BYTES + TAG_BYTES}"
            )
        if blob[0] != SEAL_FORMAT:
            raise SealFormatError(
                f"sealed blob for game {game!r}, owner {owner!r}, {purpose!r} v{version} starts "
                f"with format byte 0x{blob[0]:02x}; expected 0x{SEAL_FORMAT:02x}"
            )
        nonce = blob[1:1 + NONCE_BYTES]
        try:
            return self._cipher(game, owner).decrypt(nonce, blob[1 + NONCE_BYTES:], aad)
        except InvalidTag:
            raise SealAuthError(
                f"cannot open the sealed blob as game {game!r}, owner {owner!r}, purpose "
                f"{purpose!r}, version {version}: authentication failed (it was sealed for "
                "another game, owner, purpose or version, with another master key, or altered)"
            ) from None

    def referee_signing_key(self, game: str) -> PrivateKey:
        """The referee's Ed25519 key for ``game`` (receipts, reports), derived, never stored.

        The 32-byte seed is HKDF(master, info ``"pbem/referee-sign/1\\n" + game``); the key's
        comment is ``"referee@" + game``. Publish ``.public_key()`` at game setup.
        """
        key = self._signing.get(game)
        if key is None:
            from pbem.crypto.keys import PrivateKey

            seed = self._hkdf(_SIGN_INFO + _name(game, "game"))
            key = PrivateKey(seed, f"referee@{game}")
            self._signing[game] = key
        return key

    def derive_secret(self, label: str) -> bytes:
        """32 bytes from HKDF(master, info ``"pbem/secret/1\\n" + label``), e.g. a dice seed.

        The same label always gives the same bytes, so a crash and re-run draws the same seed.
        Not cached (labels are rarely repeated). ``label`` may hold any characters.
        """
        if not isinstance(label, str):
            raise BindingNameError(f"label {label!r} is a {type(label).__name__}; expected str")
        return self._hkdf(_SECRET_INFO + label.encode("utf-8"))

    def mac_key(self, label: str) -> bytes:
        """:meth:`derive_secret` of ``label``, remembered: for keys used on every message (the
        ``orders-salt`` key of pbem.engine.accept.orders_commitment)."""
        key = self._keys.get(label)
        if key is None:
            key = self._keys[label] = self.derive_secret(label)
        return key
