"""Reading Ed25519 key files: public key lines (``pbem-ed25519`` and OpenSSH ``ssh-ed25519``)
and private keys (``pbem-ed25519-private`` and unencrypted OpenSSH private keys), with messages
naming the file and line and never the key material (docs/signing.md, "Key files").

Imported through :mod:`pbem.crypto.keys`, which re-exports :func:`load_public_key` and
:func:`load_private_key` with the key types they return (import them from there).
"""

from __future__ import annotations

import binascii
import re

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from pbem.crypto.errors import (EncryptedKeyError, KeyFormatError, KeyNameError,
                                UnsupportedKeyTypeError)
from pbem.crypto.keys import (PRIVATE_KEY_TAG, PUBLIC_KEY_TAG, SSH_ED25519, _EXPECTED_PRIVATE,
                              _EXPECTED_PUBLIC, _ONLY_ED25519, _OPENSSH_MAGIC,
                              _OPENSSH_PRIVATE_BEGIN, _OPENSSH_PRIVATE_END, _OTHER_SSH_TYPES,
                              PrivateKey, PublicKey, _b64decode, _check_name)
from pbem.crypto.lines import quote, split_lines
from pbem.crypto.sshwire import WireReader

__all__ = ["load_public_key", "load_private_key"]


# --- reading public keys ------------------------------------------------------------------------


def load_public_key(text: str, source: str) -> PublicKey:
    """Read one Ed25519 public key from ``text`` (the content of a key file or a pasted line).

    Accepted lines: ``pbem-ed25519 <base64 of 32 bytes> [NAME]`` and OpenSSH
    ``ssh-ed25519 AAAA... [comment]`` (parsed with ``cryptography``'s ``load_ssh_public_key``).
    Blank lines and lines starting with ``#`` are skipped; LF, CRLF and CR line ends are accepted.
    ``source`` (a file name, or "registration mail from x@y") names the input in messages.

    Raises :class:`UnsupportedKeyTypeError` for an RSA, ECDSA, DSA or security-key line;
    :class:`KeyFormatError` for any other line, bad base64, a wrong length, a key of small
    order (such as the identity point: signatures anyone can make verify under it), a private
    key given where the public one was expected, a second key line, or no key at all. Messages
    read
    ``SOURCE:LINE: what was found; what was expected``.
    """
    found: PublicKey | None = None
    found_line = 0
    for lineno, line in enumerate(split_lines(text), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        where = f"{source}:{lineno}"
        if found is not None:
            raise KeyFormatError(
                f"{where}: a second key line ({_shown(s)}); a key file holds one key "
                f"(the first is on line {found_line})"
            )
        found = _parse_public_line(s, where)
        found_line = lineno
    if found is None:
        raise KeyFormatError(f"{source}: no public key found; {_EXPECTED_PUBLIC}")
    return found


_SMALL_ORDER = frozenset(bytes.fromhex(h) for h in (
    "0000000000000000000000000000000000000000000000000000000000000000",  # 0: order 4
    "0100000000000000000000000000000000000000000000000000000000000000",  # 1: order 1
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  # order 8
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # p - 1: order 2
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # p (= 0): order 4
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # p + 1 (= 1): order 1
))
"""The encodings of the eight Ed25519 points of small order, and the two non-canonical ones
that name two of them, with the sign bit of x (the top bit) cleared: libsodium's blocklist
(``ge25519_has_small_order``)."""


def _not_small_order(raw: bytes, where: str) -> bytes:
    """``raw`` unless it encodes a point of small order (:data:`_SMALL_ORDER`, either sign of
    x); then KeyFormatError. Under such a key RFC 8032 verification, as OpenSSL does it,
    accepts signatures anyone can make (under the identity point, ``01 00 .. 00``:
    R = [r]B, S = r for any message), so it must not become a seat's key."""
    if raw[:31] + bytes([raw[31] & 0x7F]) in _SMALL_ORDER:
        raise KeyFormatError(
            f"{where}: this Ed25519 public key is a point of small order, under which anyone "
            f"can make signatures that verify; {_EXPECTED_PUBLIC}")
    return raw


def _parse_public_line(s: str, where: str) -> PublicKey:
    fields = s.split(None, 2)
    kind = fields[0]
    comment = fields[2].strip() if len(fields) > 2 else ""
    if kind == PUBLIC_KEY_TAG:
        if len(fields) < 2:
            raise KeyFormatError(f"{where}: '{kind}' with no key data; {_EXPECTED_PUBLIC}")
        try:
            raw = _b64decode(fields[1])
        except (binascii.Error, UnicodeEncodeError):
            raise KeyFormatError(
                f"{where}: the key data after '{kind}' ({len(fields[1])} characters, not shown: "
                f"it may be a secret) is not valid base64; {_EXPECTED_PUBLIC}"
            ) from None
        if len(raw) != 32:
            raise KeyFormatError(
                f"{where}: the key data after '{kind}' (not shown) decodes to {len(raw)} bytes; "
                "an Ed25519 public key is 32 bytes"
            )
        return PublicKey(_not_small_order(raw, where), _comment(comment, where))
    if kind == SSH_ED25519:
        try:
            key = serialization.load_ssh_public_key(s.encode("utf-8"))
        except (ValueError, UnsupportedAlgorithm):
            raise KeyFormatError(
                f"{where}: the '{SSH_ED25519}' line is not a valid OpenSSH ed25519 public key "
                f"(its key data is not shown: it may be a secret); {_EXPECTED_PUBLIC}"
            ) from None
        if not isinstance(key, Ed25519PublicKey):  # pragma: no cover - cryptography checks the type
            raise UnsupportedKeyTypeError(f"{where}: {quote(s)} is not an Ed25519 key; {_ONLY_ED25519}")
        return PublicKey(_not_small_order(key.public_bytes_raw(), where),
                         _comment(comment, where))
    if kind.startswith(_OTHER_SSH_TYPES):
        raise UnsupportedKeyTypeError(f"{where}: a line starting {quote(kind, 60)} is an "
                                      f"{kind} key; {_ONLY_ED25519}")
    if kind == PRIVATE_KEY_TAG or (s.startswith("-----BEGIN") and "PRIVATE KEY" in s):
        raise KeyFormatError(
            f"{where}: {_shown(s)} is a private key (not shown: it is secret); give the "
            "public key (NAME.pub or ~/.ssh/id_ed25519.pub) and keep the private key secret"
        )
    if f" {SSH_ED25519} " in f" {s} ":
        raise KeyFormatError(
            f"{where}: {quote(s)} has text before the key type (authorized_keys options?); "
            f"{_EXPECTED_PUBLIC}"
        )
    raise KeyFormatError(f"{where}: {_shown(s)}: {_EXPECTED_PUBLIC}")


_KIND_WORD = re.compile(r"[a-z][a-z0-9.@_-]{0,39}")
_PEM_MARKER = re.compile(r"-----(BEGIN|END) [A-Z0-9 ]{1,40}-----")


def _shown(s: str) -> str:
    """What an error message may say of a key file line that is not a public key line: it may
    be secret key material (a private key, the referee's master key), so never the line. Only
    its first word is quoted, and only when it reads like a key type (lower-case letters,
    digits and ``-.@_``, at most 40 characters: ``pbem-ed25519-private``; base64 key data
    never fits) or is a PEM marker line (``-----BEGIN OPENSSH PRIVATE KEY-----``); else the
    line's length."""
    word = s.split(None, 1)[0] if s.split() else ""
    marker = _PEM_MARKER.match(s)
    if marker:
        return f"the line {marker.group(0)!r}"
    if _KIND_WORD.fullmatch(word):
        return f"a line starting {word!r}"
    return f"a line of {len(s)} characters (not shown: it may be secret)"


def _comment(comment: str, where: str) -> str:
    try:
        return _check_name(comment, "key comment") if comment else ""
    except KeyNameError as exc:
        raise KeyFormatError(f"{where}: {exc}") from None


# --- reading private keys -----------------------------------------------------------------------


def load_private_key(text: str, source: str) -> PrivateKey:
    """Read an Ed25519 private key from ``text`` (the content of a key file named ``source``).

    Accepted: the pbem private key file (``pbem-ed25519-private <base64 seed> [NAME]``, with
    ``#`` comment and blank lines allowed) and an unencrypted OpenSSH private key
    (``-----BEGIN OPENSSH PRIVATE KEY-----``, OpenSSH PROTOCOL.key, e.g. ``~/.ssh/id_ed25519``).

    Raises :class:`EncryptedKeyError` for a passphrase-protected OpenSSH key (sign with
    ``ssh-keygen -Y sign`` instead), :class:`UnsupportedKeyTypeError` for a non-Ed25519 key,
    and :class:`KeyFormatError` (``SOURCE:LINE: ...``) for anything else that is not a key.
    """
    lines = split_lines(text)
    for lineno, line in enumerate(lines, 1):
        if line.strip() == _OPENSSH_PRIVATE_BEGIN:
            return _load_openssh_private(lines, lineno, source)
    found: PrivateKey | None = None
    found_line = 0
    for lineno, line in enumerate(lines, 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        where = f"{source}:{lineno}"
        fields = s.split(None, 2)
        kind = fields[0]
        # At most the first word of a line is quoted: the rest may be secret key material.
        shown = _shown(s)
        if found is not None:
            raise KeyFormatError(
                f"{where}: a second key line ({shown}); a key file holds one key "
                f"(the first is on line {found_line})"
            )
        if kind != PRIVATE_KEY_TAG:
            if kind in (PUBLIC_KEY_TAG, SSH_ED25519):
                raise KeyFormatError(f"{where}: {quote(s)} is a public key; {_EXPECTED_PRIVATE}")
            if s.startswith("-----BEGIN") and "PRIVATE KEY" in s:
                raise KeyFormatError(
                    f"{where}: {quote(s)} is a PEM private key; {_EXPECTED_PRIVATE} "
                    "(convert with `ssh-keygen -p -f FILE` or make a key with `pbem keygen`)"
                )
            raise KeyFormatError(f"{where}: {shown}: {_EXPECTED_PRIVATE}")
        if len(fields) < 2:
            raise KeyFormatError(f"{where}: {quote(s)} has no key data; {_EXPECTED_PRIVATE}")
        try:
            seed = _b64decode(fields[1])
        except (binascii.Error, UnicodeEncodeError):
            raise KeyFormatError(
                f"{where}: key data is not valid base64; {_EXPECTED_PRIVATE}"
            ) from None
        if len(seed) != 32:
            raise KeyFormatError(
                f"{where}: key data decodes to {len(seed)} bytes; an Ed25519 seed is 32 bytes"
            )
        comment = fields[2].strip() if len(fields) > 2 else ""
        found = PrivateKey(seed, _comment(comment, where))
        found_line = lineno
    if found is None:
        raise KeyFormatError(f"{source}: no private key found; {_EXPECTED_PRIVATE}")
    return found


def _load_openssh_private(lines: list[str], begin: int, source: str) -> PrivateKey:
    """Parse the OpenSSH private key whose BEGIN marker is on 1-based line ``begin``."""
    body: list[str] = []
    for lineno in range(begin, len(lines)):
        s = lines[lineno].strip()
        if s == _OPENSSH_PRIVATE_END:
            break
        body.append(s)
    else:
        raise KeyFormatError(
            f"{source}:{begin}: no '{_OPENSSH_PRIVATE_END}' line after the BEGIN line; "
            "the key file is cut short"
        )
    try:
        blob = _b64decode("".join(body))
    except (binascii.Error, UnicodeEncodeError):
        raise KeyFormatError(
            f"{source}:{begin + 1}: the OpenSSH private key is not valid base64"
        ) from None
    what = f"{source}:{begin}: OpenSSH private key"
    r = WireReader(blob, what, KeyFormatError)
    if r.raw(len(_OPENSSH_MAGIC), "magic") != _OPENSSH_MAGIC:
        raise r.fail("does not start with 'openssh-key-v1'; expected OpenSSH PROTOCOL.key format")
    cipher = r.string("cipher name")
    r.string("kdf name")
    r.string("kdf options")
    if cipher != b"none":
        raise EncryptedKeyError(
            f"{what} is encrypted with a passphrase ({cipher.decode('ascii', 'replace')}); pbem does "
            "not ask for passphrases: sign with `ssh-keygen -Y sign -f KEY -n pbem-orders FILE` "
            "instead, or give a pbem key (`pbem keygen NAME`)"
        )
    nkeys = r.uint32("number of keys")
    if nkeys != 1:
        raise r.fail(f"holds {nkeys} keys; expected exactly 1")
    pub = WireReader(r.string("public key"), what, KeyFormatError)
    key_type = pub.string("key type").decode("ascii", "replace")
    if key_type != SSH_ED25519:
        raise UnsupportedKeyTypeError(f"{what} is an {key_type} key; {_ONLY_ED25519}")
    private = WireReader(r.string("private section"), what, KeyFormatError)
    check1 = private.uint32("check integer 1")
    check2 = private.uint32("check integer 2")
    if check1 != check2:
        raise private.fail("check integers differ (the key is corrupt or encrypted)")
    private.string("key type")
    private.string("public key")
    private.string("private key")
    comment = private.string("comment").decode("utf-8", "replace").strip()
    try:
        key = serialization.load_ssh_private_key(
            "\n".join([_OPENSSH_PRIVATE_BEGIN, *body, _OPENSSH_PRIVATE_END, ""]).encode("ascii"),
            password=None,
        )
    except (ValueError, TypeError, UnsupportedAlgorithm) as exc:
        raise KeyFormatError(f"{what}: cannot be read ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):  # pragma: no cover - key type checked above
        raise UnsupportedKeyTypeError(f"{what} is not an Ed25519 key; {_ONLY_ED25519}")
    seed = key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    try:
        comment = _check_name(comment, "key comment") if comment else ""
    except KeyNameError:
        comment = ""
    return PrivateKey(seed, comment)


# --- making and writing keys --------------------------------------------------------------------
