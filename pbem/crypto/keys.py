"""Ed25519 keys: the value types and the key file formats.

File formats (docs/signing.md, "Key files"):

- pbem public key ``NAME.pub``: one line ``pbem-ed25519 <base64 of the 32 raw bytes> NAME``;
- pbem private key ``NAME.key``: ``pbem-ed25519-private <base64 of the 32-byte seed> NAME``,
  optionally preceded or followed by comment lines starting with ``#``;
- OpenSSH public key lines ``ssh-ed25519 AAAA... [comment]`` (as in ``~/.ssh/id_ed25519.pub``)
  and unencrypted OpenSSH private keys (``-----BEGIN OPENSSH PRIVATE KEY-----``) are read too;
- the referee master key ``referee.key``: a ``#`` header line, then the base64 of 32 random bytes
  (written and read by :mod:`pbem.crypto.keyfiles`, whose functions are re-exported here).

Ed25519 is RFC 8032; the raw public key is the 32-byte encoding of RFC 8032 section 5.1.5 and
the seed the 32-byte private key of section 5.1.5 step 1. The SSH forms follow RFC 8709 (the
``ssh-ed25519`` wire blob) and OpenSSH PROTOCOL.key (the private key container).
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import re
import secrets
import unicodedata
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from pbem.crypto.fastverify import sodium_accepts, sodium_secret_key, sodium_sign
from pbem.crypto.errors import (
    EncryptedKeyError,
    KeyFormatError,
    KeyNameError,
    UnsupportedKeyTypeError,
)
from pbem.crypto.keyfiles import (  # re-exported: the key files API lives with the keys
    MASTER_KEY_FILE,
    create_master_key,
    load_master_key,
    write_public_file,
    write_secret_file,
)
from pbem.crypto.lines import quote, split_lines
from pbem.crypto.sshwire import WireReader, ssh_string

__all__ = [
    "PublicKey",
    "PrivateKey",
    "load_public_key",
    "load_private_key",
    "generate_keypair",
    "write_secret_file",
    "write_public_file",
    "MASTER_KEY_FILE",
    "create_master_key",
    "load_master_key",
    "PUBLIC_KEY_TAG",
    "PRIVATE_KEY_TAG",
    "SSH_ED25519",
]

PUBLIC_KEY_TAG = "pbem-ed25519"
"""First word of a pbem public key line."""

PRIVATE_KEY_TAG = "pbem-ed25519-private"
"""First word of a pbem private key line."""

SSH_ED25519 = "ssh-ed25519"
"""The SSH name of Ed25519 public keys and signatures (RFC 8709)."""

_SSH_ED25519_B = SSH_ED25519.encode("ascii")
_OPENSSH_PRIVATE_BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----"
_OPENSSH_PRIVATE_END = "-----END OPENSSH PRIVATE KEY-----"
_OPENSSH_MAGIC = b"openssh-key-v1\x00"

# Key types OpenSSH knows that pbem refuses with UnsupportedKeyTypeError (all but ssh-ed25519).
_OTHER_SSH_TYPES = (
    "ssh-rsa",
    "ssh-dss",
    "ecdsa-sha2-",
    "sk-ecdsa-sha2-",
    "sk-ssh-ed25519@openssh.com",
    "ssh-ed448",
    "rsa-sha2-",
    "ssh-ed25519-cert-",
)

_ONLY_ED25519 = (
    "pbem supports only Ed25519 keys; make one with `ssh-keygen -t ed25519` or `pbem keygen NAME`"
)

_EXPECTED_PUBLIC = (
    f"expected a public key line '{PUBLIC_KEY_TAG} <base64> NAME' "
    f"or '{SSH_ED25519} AAAA... [comment]'"
)
_EXPECTED_PRIVATE = (
    f"expected a pbem private key line '{PRIVATE_KEY_TAG} <base64 seed> NAME' "
    f"or an OpenSSH private key ('{_OPENSSH_PRIVATE_BEGIN}')"
)


@functools.lru_cache(maxsize=4096)
def _ed25519_public(raw: bytes) -> Ed25519PublicKey:
    """The cryptography object for a raw public key, cached (ingest verifies the same keys often)."""
    return Ed25519PublicKey.from_public_bytes(raw)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _b64decode(text: str) -> bytes:
    """Strict standard base64 (RFC 4648 section 4); raises ``binascii.Error``."""
    return base64.b64decode(text.encode("ascii", "strict"), validate=True)


def _check_name(name: str, what: str = "key name") -> str:
    """Return ``name`` if it can be written as the last field of a key line, else raise KeyNameError."""
    if not isinstance(name, str):
        raise KeyNameError(f"{what} {quote(name)} is a {type(name).__name__}; expected str")
    if not name:
        raise KeyNameError(f"{what} is empty; expected a name such as 'red' or an address")
    if name != name.strip():
        raise KeyNameError(f"{what} {quote(name)} has leading or trailing spaces; expected none")
    bad = [c for c in name if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]
    if bad:
        raise KeyNameError(
            f"{what} {quote(name)} contains control or line-break character {bad[0]!r}; "
            "expected printable characters on one line"
        )
    return name


@dataclass(frozen=True, repr=False)
class PublicKey:
    """An Ed25519 public key: ``raw`` (the 32-byte RFC 8032 encoding) and a ``comment`` (a name).

    A value type: two keys are equal (and hash equal) when their ``raw`` bytes are equal; the
    comment is a label and takes no part in comparisons. Raises :class:`KeyFormatError` if
    ``raw`` is not 32 bytes, :class:`KeyNameError` if ``comment`` holds a line break.
    """

    raw: bytes
    comment: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.raw, bytes) or len(self.raw) != 32:
            raise KeyFormatError(
                f"an Ed25519 public key is 32 bytes, got {quote(self.raw)} "
                f"({len(self.raw) if isinstance(self.raw, (bytes, bytearray)) else 'not bytes'})"
            )
        if self.comment:
            _check_name(self.comment, "key comment")

    @property
    def ssh_blob(self) -> bytes:
        """The SSH wire blob: ``string "ssh-ed25519" || string raw`` (RFC 8709 section 4), 51 bytes."""
        return ssh_string(_SSH_ED25519_B) + ssh_string(self.raw)

    @functools.cached_property
    def fingerprint(self) -> str:
        """``SHA256:`` + unpadded base64 of sha256(:attr:`ssh_blob`): what ``ssh-keygen -lf`` prints.
        Computed once per key object (the judge asks for it on every order set)."""
        digest = hashlib.sha256(self.ssh_blob).digest()
        return "SHA256:" + _b64(digest).rstrip("=")

    def openssh_line(self) -> str:
        """``ssh-ed25519 AAAA... comment`` (no newline), the form of ``~/.ssh/id_ed25519.pub``."""
        line = f"{SSH_ED25519} {_b64(self.ssh_blob)}"
        return f"{line} {self.comment}" if self.comment else line

    def pbem_line(self) -> str:
        """``pbem-ed25519 <base64 of raw> NAME`` (no newline), the line of a pbem ``NAME.pub``."""
        line = f"{PUBLIC_KEY_TAG} {_b64(self.raw)}"
        return f"{line} {self.comment}" if self.comment else line

    def verify(self, signature: bytes, data: bytes) -> bool:
        """True if ``signature`` (64 bytes) is a valid Ed25519 signature of ``data`` by this key.

        Pure Ed25519 of RFC 8032 section 5.1.7: OpenSSL's verdict (through ``cryptography``).
        libsodium looks first where PyNaCl is installed, and its "valid" is taken, being
        OpenSSL's too (:mod:`pbem.crypto.fastverify`); only what it refuses costs OpenSSL's
        check. A signature of the wrong length, or any invalid one, gives ``False``; nothing
        is raised.
        """
        if len(signature) != 64:
            return False
        if sodium_accepts(signature, data, self.raw):
            return True
        try:
            _ed25519_public(self.raw).verify(signature, data)
        except (InvalidSignature, ValueError):  # ValueError: a raw key that is not a curve point
            return False
        return True

    def __str__(self) -> str:
        return f"{self.fingerprint} {self.comment}".rstrip()

    def __repr__(self) -> str:
        return f"PublicKey({self.pbem_line()!r})"


class PrivateKey:
    """An Ed25519 private key: a 32-byte seed (RFC 8032 section 5.1.5) and a ``comment`` (a name).

    ``PrivateKey(seed, comment)`` raises :class:`KeyFormatError` if ``seed`` is not 32 bytes.
    The seed never appears in ``repr``; only :meth:`pbem_text` writes it out.
    """

    __slots__ = ("_seed", "_key", "_public", "comment", "_sodium")

    def __init__(self, seed: bytes, comment: str = "") -> None:
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise KeyFormatError("an Ed25519 private key seed is 32 bytes, got "
                                 f"{len(seed) if isinstance(seed, (bytes, bytearray)) else type(seed).__name__}")
        if comment:
            _check_name(comment, "key comment")
        self._seed = seed
        self._key = Ed25519PrivateKey.from_private_bytes(seed)
        self._sodium = False  # libsodium's form of the key, made at the first signature
        self.comment = comment
        self._public = PublicKey(self._key.public_key().public_bytes_raw(), comment)

    @classmethod
    def generate(cls, comment: str = "") -> "PrivateKey":
        """A new key from 32 bytes of the operating system's CSPRNG (``secrets.token_bytes``)."""
        return cls(secrets.token_bytes(32), comment)

    def public_key(self) -> PublicKey:
        """The matching :class:`PublicKey`, with the same comment."""
        return self._public

    def sign(self, data: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``data`` (RFC 8032 section 5.1.6, deterministic:
        libsodium's where PyNaCl is installed, the same bytes as OpenSSL's, in two thirds of
        the time; :mod:`pbem.crypto.fastverify`)."""
        if self._sodium is False:
            self._sodium = sodium_secret_key(self._seed)
        if self._sodium is not None:
            return sodium_sign(self._sodium, data)
        return self._key.sign(data)

    def pbem_text(self) -> str:
        """The text of a pbem private key file ``NAME.key``: a ``#`` comment line and the key line.

        Ends with a newline. Write it with :func:`write_secret_file` (mode 0600).
        """
        pub = self._public
        who = f" '{self.comment}'" if self.comment else ""
        line = f"{PRIVATE_KEY_TAG} {_b64(self._seed)}"
        if self.comment:
            line += f" {self.comment}"
        return (
            f"# pbem private key{who}, public key {pub.fingerprint}. Keep this file secret (mode 0600).\n"
            f"{line}\n"
        )

    def __repr__(self) -> str:
        return f"PrivateKey(comment={self.comment!r}, public={self._public.fingerprint})"


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


def generate_keypair(name: str) -> tuple[str, str]:
    """Make a new Ed25519 key named ``name``; return ``(private_text, public_text)``.

    ``private_text`` is the content of ``NAME.key`` (a ``#`` line and the
    ``pbem-ed25519-private`` line), ``public_text`` that of ``NAME.pub`` (one ``pbem-ed25519``
    line); both end with a newline. Write them with :func:`write_secret_file` and
    :func:`write_public_file`. Raises :class:`KeyNameError` if ``name`` is empty, has leading or
    trailing spaces, or holds a control or line-break character.
    """
    key = PrivateKey.generate(_check_name(name))
    return key.pbem_text(), key.public_key().pbem_line() + "\n"
