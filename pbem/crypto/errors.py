"""Exceptions of :mod:`pbem.crypto`, one class per cause.

Every class derives from :class:`CryptoError`, so a caller can catch the whole family, and from
the built-in exception that best describes it (``ValueError`` for malformed input,
``FileExistsError`` / ``PermissionError`` for file problems), so generic handlers keep working.
Messages quote the offending input, say what was expected and, where the input came from a
file or a message part, name it and the 1-based line.
"""

from __future__ import annotations


class CryptoError(Exception):
    """Base class of every error raised by :mod:`pbem.crypto`."""


class KeyFormatError(CryptoError, ValueError):
    """A key file or key line is not in a format pbem reads (see docs/signing.md, "Key files").

    Raised by :func:`pbem.crypto.keys.load_public_key`, :func:`~pbem.crypto.keys.load_private_key`
    and :func:`~pbem.crypto.keys.load_master_key`; the message names the source and line.
    """


class UnsupportedKeyTypeError(KeyFormatError):
    """A well-formed key of a type other than Ed25519 (ssh-rsa, ecdsa-sha2-*, ssh-dss, sk-*).

    pbem verifies only Ed25519 signatures (DESIGN.md "Signed orders"); the message says so and
    suggests ``ssh-keygen -t ed25519``.
    """


class EncryptedKeyError(KeyFormatError):
    """An OpenSSH private key protected by a passphrase: pbem does not ask for passphrases.

    The message suggests signing with ``ssh-keygen -Y sign`` instead, which asks for it.
    """


class KeyNameError(CryptoError, ValueError):
    """A key name (the comment field of a key line) that cannot be written on one key line."""


class KeyExistsError(CryptoError, FileExistsError):
    """A key file that would be written already exists; pbem never overwrites a key."""


class KeyPermissionError(CryptoError, PermissionError):
    """A secret key file is readable or writable by group or others (mode not 0600 or stricter)."""


class EnvelopeError(CryptoError, ValueError):
    """Malformed pbem armour: a missing marker, bad base64 or a wrong length (docs/signing.md).

    The message gives the 1-based line number within the text searched and what was expected.
    """


class SshSigError(CryptoError, ValueError):
    """A malformed SSH signature (OpenSSH PROTOCOL.sshsig): armour, magic, version, lengths."""


class SshSigKeyTypeError(SshSigError):
    """An SSH signature made with a key that is not Ed25519 (the message names the key type)."""


class SshSigNamespaceError(SshSigError):
    """An SSH signature made for another namespace than the one expected (``-n pbem-orders``)."""


class SealError(CryptoError):
    """Base class of the errors raised when opening a sealed blob (:mod:`pbem.crypto.seal`)."""


class SealFormatError(SealError, ValueError):
    """A sealed blob that is too short or starts with an unknown format byte."""


class SealAuthError(SealError):
    """A sealed blob that fails AES-GCM authentication.

    AES-GCM cannot tell the causes apart: the blob was altered, or it was opened with another
    game, owner, purpose, version or master key than it was sealed with.
    """


class BindingNameError(CryptoError, ValueError):
    """A game, owner, purpose or label that would make key derivation or binding ambiguous.

    Names are joined with ``\\n`` in HKDF ``info`` and AES-GCM additional data, so they must not
    contain a newline (or ``game="a\\nb", owner="c"`` and ``game="a", owner="b\\nc"`` would
    share a key).
    """
