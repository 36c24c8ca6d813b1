"""SSH signatures made by ``ssh-keygen -Y sign`` (OpenSSH PROTOCOL.sshsig), Ed25519 only.

``cryptography`` has no SSHSIG API, so the container is parsed here and the Ed25519 check is
done with ``cryptography``. The armored form (PROTOCOL.sshsig section 3)::

    -----BEGIN SSH SIGNATURE-----
    <base64 of the blob, wrapped at 70 columns by ssh-keygen>
    -----END SSH SIGNATURE-----

The blob (section 2), in SSH wire encoding (RFC 4251 section 5)::

    byte[6]  "SSHSIG"
    uint32   1                      (version)
    string   public key             (string "ssh-ed25519" || string 32 raw bytes, RFC 8709)
    string   namespace              ("pbem-orders" for orders)
    string   reserved               (empty)
    string   hash_algorithm         ("sha512", ssh-keygen's default, or "sha256")
    string   signature              (string "ssh-ed25519" || string 64-byte Ed25519 signature)

and the Ed25519 signature covers (section 2, "Signed Data")::

    byte[6] "SSHSIG" || string namespace || string reserved || string hash_algorithm
        || string H(message)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass, field
from typing import Iterable

from pbem.crypto.canonical import canonical_text
from pbem.crypto.errors import SshSigError, SshSigKeyTypeError, SshSigNamespaceError
from pbem.crypto.keys import SSH_ED25519, PublicKey
from pbem.crypto.lines import quote, split_lines
from pbem.crypto.sshwire import WireReader, ssh_string

__all__ = [
    "SshSignature",
    "SshSigBlock",
    "find_ssh_signatures",
    "parse_ssh_signature",
    "verify_ssh_signature",
    "match_message",
    "message_candidates",
    "SSHSIG_BEGIN",
    "SSHSIG_END",
    "ORDERS_NAMESPACE",
]

SSHSIG_BEGIN = "-----BEGIN SSH SIGNATURE-----"
SSHSIG_END = "-----END SSH SIGNATURE-----"
ORDERS_NAMESPACE = "pbem-orders"
"""The namespace players give to ``ssh-keygen -Y sign -n``."""

_MAGIC = b"SSHSIG"
_VERSION = 1
_HASHES = {"sha256": hashlib.sha256, "sha512": hashlib.sha512}
_SSH_ED25519_B = SSH_ED25519.encode("ascii")


@dataclass(frozen=True)
class SshSignature:
    """A parsed SSH signature: ``public_key``, ``namespace``, ``hash_algorithm`` ("sha256" or
    "sha512"), the raw 64-byte Ed25519 ``signature`` and the ``reserved`` field (normally empty).
    """

    public_key: PublicKey
    namespace: str
    hash_algorithm: str
    signature: bytes
    reserved: bytes = b""
    _prefix: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        prefix = (
            _MAGIC
            + ssh_string(self.namespace.encode("utf-8"))
            + ssh_string(self.reserved)
            + ssh_string(self.hash_algorithm.encode("ascii"))
        )
        object.__setattr__(self, "_prefix", prefix)

    def signed_data(self, message: bytes) -> bytes:
        """The bytes the Ed25519 signature covers for ``message`` (PROTOCOL.sshsig, "Signed Data")."""
        digest = _HASHES[self.hash_algorithm](message).digest()
        return self._prefix + ssh_string(digest)


@dataclass(frozen=True)
class SshSigBlock:
    """An unquoted armored SSH signature found in a text by :func:`find_ssh_signatures`.

    ``armored`` is the block from its BEGIN line to its END line (LF line ends, final LF);
    ``start_line`` / ``end_line`` are the 1-based lines of its markers in the text searched;
    ``preceding`` is the text between the previous block's END line (or the start of the text)
    and this block's BEGIN line, each line followed by LF -- what ``cat orders.txt
    orders.txt.sig`` puts before the block -- and ``preceding_start_line`` is the 1-based line
    number of its first line.
    """

    armored: str
    start_line: int
    end_line: int
    preceding: str
    preceding_start_line: int


def find_ssh_signatures(text: str) -> list[SshSigBlock]:
    """Every armored SSH signature in ``text`` whose markers are not quoted, in order.

    Markers must start in column 1 and are compared after stripping trailing whitespace; so a
    quoted copy (``> -----BEGIN SSH SIGNATURE-----``) is ignored. Lines may end in LF, CRLF or
    CR. The blocks are not parsed: call :func:`parse_ssh_signature` on ``armored``.
    Raises :class:`SshSigError` ("line N: ...") for a BEGIN line without an END line.
    """
    if SSHSIG_BEGIN not in text:
        return []
    lines = split_lines(text)
    blocks: list[SshSigBlock] = []
    after_prev = 0
    i = 0
    while i < len(lines):
        if lines[i].rstrip() != SSHSIG_BEGIN:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].rstrip() != SSHSIG_END:
            if lines[j].rstrip() == SSHSIG_BEGIN:
                break
            j += 1
        if j >= len(lines) or lines[j].rstrip() != SSHSIG_END:
            raise SshSigError(
                f"line {i + 1}: {SSHSIG_BEGIN!r} has no {SSHSIG_END!r} line after it; "
                "the SSH signature is cut short"
            )
        armored = "".join(line.strip() + "\n" for line in lines[i:j + 1])
        preceding = "".join(line + "\n" for line in lines[after_prev:i])
        blocks.append(SshSigBlock(armored, i + 1, j + 1, preceding, after_prev + 1))
        after_prev = j + 1
        i = j + 1
    return blocks


def parse_ssh_signature(armored: str | bytes) -> SshSignature:
    """Parse one armored SSH signature (the content of a ``.sig`` file, or a block's ``armored``).

    Blank lines around the block are allowed; any other text outside it is not. Raises
    :class:`SshSigKeyTypeError` if the signing key is not Ed25519 (RSA, ECDSA, security keys),
    and :class:`SshSigError` for missing or repeated armour, bad base64, wrong magic (not
    ``SSHSIG``), a version other than 1, an empty namespace, a hash other than sha256/sha512, a
    wrong length or trailing data. The namespace is checked by :func:`verify_ssh_signature`.
    """
    if isinstance(armored, bytes):
        try:
            armored = armored.decode("ascii")
        except UnicodeDecodeError:
            raise SshSigError(
                f"the SSH signature {quote(armored)} is not ASCII text; expected "
                f"{SSHSIG_BEGIN!r} ... {SSHSIG_END!r}"
            ) from None
    lines = [line.strip() for line in split_lines(armored)]
    try:
        begin = lines.index(SSHSIG_BEGIN)
    except ValueError:
        raise SshSigError(
            f"no {SSHSIG_BEGIN!r} line in {quote(armored)}; expected the output of ssh-keygen -Y sign"
        ) from None
    try:
        end = lines.index(SSHSIG_END, begin + 1)
    except ValueError:
        raise SshSigError(
            f"line {begin + 1}: {SSHSIG_BEGIN!r} has no {SSHSIG_END!r} after it; the SSH "
            "signature is cut short"
        ) from None
    for index, line in enumerate(lines):
        if line and (index < begin or index > end):
            raise SshSigError(
                f"line {index + 1}: {quote(line)} outside the armored block; expected only the "
                f"lines from {SSHSIG_BEGIN!r} to {SSHSIG_END!r}"
            )
    body = "".join(lines[begin + 1:end])
    try:
        blob = base64.b64decode(body.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise SshSigError(
            f"line {begin + 2}: the SSH signature {quote(body)} is not valid base64"
        ) from None
    return _parse_blob(blob)


def _parse_blob(blob: bytes) -> SshSignature:
    r = WireReader(blob, "SSH signature", SshSigError)
    magic = r.raw(len(_MAGIC), "magic")
    if magic != _MAGIC:
        raise r.fail(f"starts with {magic!r}; expected the magic b'SSHSIG' (PROTOCOL.sshsig)")
    version = r.uint32("version")
    if version != _VERSION:
        raise r.fail(f"version {version}; expected {_VERSION}")
    key = WireReader(r.string("public key"), "SSH signature public key", SshSigError)
    key_type = key.string("key type").decode("ascii", "replace")
    if key_type != SSH_ED25519:
        raise SshSigKeyTypeError(
            f"the SSH signature was made with an {key_type} key; pbem supports only Ed25519: "
            "make a key with `ssh-keygen -t ed25519` and register its .pub"
        )
    raw = key.string("Ed25519 key")
    key.expect_end()
    if len(raw) != 32:
        raise r.fail(f"the Ed25519 public key is {len(raw)} bytes; expected 32")
    namespace_b = r.string("namespace")
    try:
        namespace = namespace_b.decode("utf-8")
    except UnicodeDecodeError:
        raise r.fail(f"namespace {namespace_b!r} is not UTF-8") from None
    if not namespace:
        raise r.fail("empty namespace; expected e.g. 'pbem-orders' (ssh-keygen -Y sign -n)")
    reserved = r.string("reserved")
    hash_b = r.string("hash algorithm")
    hash_algorithm = hash_b.decode("ascii", "replace")
    if hash_algorithm not in _HASHES:
        raise r.fail(f"hash algorithm {hash_b!r}; expected 'sha512' or 'sha256'")
    sig = WireReader(r.string("signature"), "SSH signature", SshSigError)
    sig_type = sig.string("signature type").decode("ascii", "replace")
    if sig_type != SSH_ED25519:
        raise SshSigKeyTypeError(
            f"the SSH signature is of type {sig_type!r}; pbem supports only Ed25519 ('ssh-ed25519')"
        )
    signature = sig.string("Ed25519 signature")
    sig.expect_end()
    if len(signature) != 64:
        raise r.fail(f"the Ed25519 signature is {len(signature)} bytes; expected 64")
    r.expect_end()
    return SshSignature(PublicKey(raw), namespace, hash_algorithm, signature, reserved)


def verify_ssh_signature(
    sig: SshSignature, message: bytes, namespace: str = ORDERS_NAMESPACE
) -> bool:
    """True if ``sig`` is a valid signature of exactly ``message`` (bytes) by ``sig.public_key``.

    Raises :class:`SshSigNamespaceError` if ``sig.namespace`` is not ``namespace`` (the player
    signed with another ``-n``): that is a mistake to report, not a forgery. Returns ``False``
    for any other mismatch. Source: OpenSSH PROTOCOL.sshsig, "Signed Data".
    """
    if sig.namespace != namespace:
        raise SshSigNamespaceError(
            f"the SSH signature is for namespace {sig.namespace!r}; expected {namespace!r}: "
            f"sign with `ssh-keygen -Y sign -f KEY -n {namespace} FILE`"
        )
    return sig.public_key.verify(sig.signature, sig.signed_data(message))


def match_message(
    sig: SshSignature, messages: Iterable[bytes], namespace: str = ORDERS_NAMESPACE
) -> bytes | None:
    """The first of ``messages`` that ``sig`` verifies against, or ``None``.

    Raises :class:`SshSigNamespaceError` as :func:`verify_ssh_signature`, before trying any.
    """
    for message in messages:
        if verify_ssh_signature(sig, message, namespace):
            return message
    return None


def message_candidates(text: str) -> list[bytes]:
    """The bytes a player's signed file most likely held, given ``text`` as it arrived by mail.

    In this order, duplicates removed: the canonical text (see :mod:`pbem.crypto.canonical`)
    with a final LF (an editor's usual file); the canonical text with no final newline; the
    canonical text with CRLF line ends and a final CRLF (a Windows editor); ``text`` as given.
    All UTF-8. Raises ``UnicodeEncodeError`` for a text holding lone surrogates.
    """
    canon = canonical_text(text)
    out: list[bytes] = []
    for candidate in (
        canon + "\n",
        canon,
        canon.replace("\n", "\r\n") + "\r\n",
        text,
    ):
        data = candidate.encode("utf-8")
        if data not in out:
            out.append(data)
    return out
