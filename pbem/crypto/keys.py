"""Ed25519 keys: the value types and the key file formats.

File formats (docs/signing.md, "Key files"):

- pbem public key ``NAME.pub``: one line ``pbem-ed25519 <base64 of the 32 raw bytes> NAME``;
- pbem private key ``NAME.key``: ``pbem-ed25519-private <base64 of the 32-byte seed> NAME``,
  optionally preceded or followed by comment lines starting with ``#``;
- OpenSSH public key lines ``ssh-ed25519 AAAA... [comment]`` (as in ``~/.ssh/id_ed25519.pub``)
  and unencrypted OpenSSH private keys (``-----BEGIN OPENSSH PRIVATE KEY-----``) are read too;
- the referee master key ``referee.key``: a ``#`` header line, then the base64 of 32 random bytes
  (written and read by :mod:`pbem.crypto.keyfiles`, whose functions are re-exported here).

The public and private key files are read by :mod:`pbem.crypto.keyread`, whose
:func:`load_public_key` and :func:`load_private_key` are served from here.

Ed25519 is RFC 8032; the raw public key is the 32-byte encoding of RFC 8032 section 5.1.5 and
the seed the 32-byte private key of section 5.1.5 step 1. The SSH forms follow RFC 8709 (the
``ssh-ed25519`` wire blob) and OpenSSH PROTOCOL.key (the private key container).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import secrets
import unicodedata
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from pbem.crypto.fastverify import sodium_accepts, sodium_secret_key, sodium_sign
from pbem.crypto.errors import (
    KeyFormatError,
    KeyNameError,
)
from pbem.crypto.keyfiles import (  # re-exported: the key files API lives with the keys
    MASTER_KEY_FILE,
    create_master_key,
    load_master_key,
    write_public_file,
    write_secret_file,
)
from pbem.crypto.lines import quote
from pbem.crypto.sshwire import ssh_string

__all__ = [
    "PublicKey",
    "PrivateKey",
    "load_public_key",  # noqa: F822  (served by __getattr__ from keyread)
    "load_private_key",  # noqa: F822
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


def __getattr__(name: str):
    """``load_public_key`` and ``load_private_key`` live in :mod:`pbem.crypto.keyread` (they
    need the key types above) and are served from here, loaded on first use (PEP 562)."""
    if name in ("load_public_key", "load_private_key"):
        from pbem.crypto import keyread

        return getattr(keyread, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
