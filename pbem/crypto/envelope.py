"""The pbem envelope: armored Ed25519 signatures over canonical text (docs/signing.md, "The envelope").

Layout (every line ends with LF; the body is the canonical form of the signed text)::

    -----BEGIN PBEM ORDERS-----
    game: atl-7
    ...
    walk red3 0607 0608
    -----BEGIN PBEM SIGNATURE-----
    ed25519 <base64 of the 32-byte public key>
    <base64 of the 64-byte signature>
    -----END PBEM SIGNATURE-----

The signature is Ed25519 (RFC 8032) over ``domain + canonical_bytes(body)``, where ``body`` is
the text between the ``BEGIN PBEM ORDERS`` line and the ``BEGIN PBEM SIGNATURE`` line and
``domain`` is ``b"pbem-orders/1\\n"``. The domain prefix keeps an orders signature from being
valid as anything else. The referee's receipts use the same layout with the word ``RECEIPT``
in the first marker and the domain ``b"pbem-receipt/1\\n"``.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
from dataclasses import dataclass

from pbem.crypto.canonical import canonical_bytes, canonical_text
from pbem.crypto.errors import EnvelopeError
from pbem.crypto.keys import PrivateKey, PublicKey
from pbem.crypto.lines import quote, split_lines

__all__ = [
    "Envelope",
    "sign_text",
    "find_envelopes",
    "sign_receipt",
    "find_receipts",
    "begin_marker",
    "ORDERS_DOMAIN",
    "RECEIPT_DOMAIN",
    "ORDERS_WORD",
    "RECEIPT_WORD",
    "SIGNATURE_BEGIN",
    "SIGNATURE_END",
]

ORDERS_DOMAIN = b"pbem-orders/1\n"
"""Domain prefix of order signatures."""

RECEIPT_DOMAIN = b"pbem-receipt/1\n"
"""Domain prefix of the referee's receipt signatures."""

ORDERS_WORD = "ORDERS"
"""Marker word of signed orders: ``-----BEGIN PBEM ORDERS-----``."""

RECEIPT_WORD = "RECEIPT"
"""Marker word of signed receipts: ``-----BEGIN PBEM RECEIPT-----``."""

SIGNATURE_BEGIN = "-----BEGIN PBEM SIGNATURE-----"
SIGNATURE_END = "-----END PBEM SIGNATURE-----"
KEY_WORD = "ed25519"
"""First word of the key line inside the signature block."""

_WORD = re.compile(r"[A-Z][A-Z0-9-]*\Z")


@functools.lru_cache(maxsize=16)
def begin_marker(word: str) -> str:
    """The first marker line for ``word``: ``-----BEGIN PBEM <word>-----``.

    ``word`` is upper-case ASCII letters, digits and hyphens, starting with a letter, and not
    ``SIGNATURE``; anything else raises ``ValueError`` (a programming error, not bad input).
    """
    if not _WORD.match(word) or word == "SIGNATURE":
        raise ValueError(f"envelope marker word {word!r}: expected upper-case letters such as 'ORDERS'")
    return f"-----BEGIN PBEM {word}-----"


@dataclass(frozen=True)
class Envelope:
    """One armored block found in a text by :func:`find_envelopes`.

    ``body`` is the text between the markers as found (lines joined with LF, not yet canonical);
    ``public_key`` and ``signature`` (64 bytes) are those of the signature block; ``start_line``
    and ``end_line`` are the 1-based lines of the BEGIN and END markers within the text searched;
    ``domain`` and ``word`` are those the block was searched with.
    """

    body: str
    public_key: PublicKey
    signature: bytes
    start_line: int
    end_line: int
    domain: bytes = ORDERS_DOMAIN
    word: str = ORDERS_WORD

    @property
    def text(self) -> str:
        """The canonical form of :attr:`body`: the text the signature covers (without the domain)."""
        return canonical_text(self.body)

    def signed_bytes(self) -> bytes:
        """``domain + canonical_bytes(body)``: the exact bytes the Ed25519 signature covers."""
        return self.domain + canonical_bytes(self.body)

    def verify(self) -> bool:
        """True if :attr:`signature` is ``public_key``'s Ed25519 signature of :meth:`signed_bytes`.

        Says nothing about whether the key belongs to the sender: the caller compares
        ``public_key`` with the registered key.
        """
        return self.public_key.verify(self.signature, self.signed_bytes())


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def sign_text(
    text: str, key: PrivateKey, *, domain: bytes = ORDERS_DOMAIN, word: str = ORDERS_WORD
) -> str:
    """Sign ``text`` with ``key`` and return the armored envelope (ending with a newline).

    The body written is ``canonical_text(text)``; the signature is
    ``key.sign(domain + canonical_bytes(text))``. For receipts pass ``domain=RECEIPT_DOMAIN,
    word=RECEIPT_WORD`` (or call :func:`sign_receipt`).

    Raises :class:`EnvelopeError` if a line of the canonical text is itself one of the three
    marker lines (it would end the block early) or the canonical text starts with U+FEFF (it
    would not survive canonicalisation again), ``ValueError`` for a bad ``word``, and
    ``TypeError`` if ``text`` is not a ``str``.
    """
    begin = begin_marker(word)
    canon = canonical_text(text)
    if canon.startswith("\ufeff"):
        # canonical_text would drop it when the verifier canonicalises the body again.
        raise EnvelopeError(
            "the text to sign starts with a second byte-order mark (U+FEFF) or one after blank "
            "lines; remove it: the canonical form drops only one, at the very start"
        )
    markers = (begin, SIGNATURE_BEGIN, SIGNATURE_END)
    if "-----" in canon:
        for lineno, line in enumerate(canon.split("\n"), 1):
            if line.rstrip() in markers:
                raise EnvelopeError(
                    f"line {lineno} of the text to sign is the armour line {quote(line)}; "
                    "a signed text must not contain pbem marker lines"
                )
    signature = key.sign(domain + canon.encode("utf-8"))
    parts = [begin]
    if canon:
        parts.append(canon)
    parts += [
        SIGNATURE_BEGIN,
        f"{KEY_WORD} {_b64(key.public_key().raw)}",
        _b64(signature),
        SIGNATURE_END,
        "",
    ]
    return "\n".join(parts)


def find_envelopes(
    text: str, *, domain: bytes = ORDERS_DOMAIN, word: str = ORDERS_WORD
) -> list[Envelope]:
    """Every envelope in ``text`` whose marker lines are not quoted, in order of appearance.

    Marker lines are compared after stripping trailing whitespace and must start in column 1,
    so a quoted line (``> -----BEGIN PBEM ORDERS-----``, after optional spaces a ``>``) is never
    a marker: a reply quoting an old signed block yields nothing. Lines may end in LF, CRLF or
    CR. Inside the signature block blank lines are skipped and the signature's base64 may be
    split over several lines (some mail clients hard-wrap an 88-character line).

    ``domain`` and ``word`` select the kind (orders by default; receipts with
    ``RECEIPT_DOMAIN`` / ``RECEIPT_WORD``). The signatures are not verified here: call
    :meth:`Envelope.verify`.

    Raises :class:`EnvelopeError` ("line N: ...; expected ...") for a BEGIN without a signature
    block, a second BEGIN inside a block, a signature block without END, a key line that is not
    ``ed25519 <base64>``, bad base64, a key that is not 32 bytes or a signature that is not 64.
    """
    begin = begin_marker(word)
    if begin not in text:
        return []
    lines = split_lines(text)
    n = len(lines)
    found: list[Envelope] = []
    i = 0
    while i < n:
        if lines[i].rstrip() != begin:
            i += 1
            continue
        start = i
        j = i + 1
        while True:
            if j >= n:
                raise EnvelopeError(
                    f"line {start + 1}: {begin!r} has no {SIGNATURE_BEGIN!r} line after it; "
                    "the signed block is cut short"
                )
            s = lines[j].rstrip()
            if s == SIGNATURE_BEGIN:
                break
            if s == begin:
                raise EnvelopeError(
                    f"line {j + 1}: a second {begin!r} before the {SIGNATURE_BEGIN!r} of the "
                    f"block that starts on line {start + 1}"
                )
            if s == SIGNATURE_END:
                raise EnvelopeError(
                    f"line {j + 1}: {SIGNATURE_END!r} before any {SIGNATURE_BEGIN!r} in the "
                    f"block that starts on line {start + 1}"
                )
            j += 1
        body = "\n".join(lines[start + 1:j])
        public_key, signature, end = _read_signature_block(lines, j)
        found.append(Envelope(body, public_key, signature, start + 1, end + 1, domain, word))
        i = end + 1
    return found


def _read_signature_block(lines: list[str], sig_begin: int) -> tuple[PublicKey, bytes, int]:
    """Parse the block whose ``BEGIN PBEM SIGNATURE`` is at 0-based ``sig_begin``.

    Returns (public key, signature, 0-based index of the END line).
    """
    data: list[tuple[int, str]] = []
    k = sig_begin + 1
    while True:
        if k >= len(lines):
            raise EnvelopeError(
                f"line {sig_begin + 1}: {SIGNATURE_BEGIN!r} has no {SIGNATURE_END!r} line after "
                "it; the signature block is cut short"
            )
        s = lines[k].strip()
        if s == SIGNATURE_END:
            break
        if s.startswith("-----"):
            raise EnvelopeError(
                f"line {k + 1}: {quote(s)} inside the signature block; expected {SIGNATURE_END!r}"
            )
        if s:
            data.append((k + 1, s))
        k += 1
    if not data:
        raise EnvelopeError(
            f"line {sig_begin + 2}: empty signature block; expected '{KEY_WORD} <base64 public "
            "key>' and the base64 signature"
        )
    key_lineno, key_line = data[0]
    fields = key_line.split()
    if len(fields) != 2 or fields[0] != KEY_WORD:
        raise EnvelopeError(
            f"line {key_lineno}: {quote(key_line)}; expected '{KEY_WORD} <base64 of the 32-byte "
            "public key>'"
        )
    raw = _decode(fields[1], key_lineno, "public key")
    if len(raw) != 32:
        raise EnvelopeError(
            f"line {key_lineno}: the public key decodes to {len(raw)} bytes; expected 32 (Ed25519)"
        )
    if len(data) < 2:
        raise EnvelopeError(
            f"line {k + 1}: {SIGNATURE_END!r} right after the key line; expected the base64 "
            "signature (64 bytes) before it"
        )
    sig_lineno = data[1][0]
    signature = _decode("".join(s for _, s in data[1:]), sig_lineno, "signature")
    if len(signature) != 64:
        raise EnvelopeError(
            f"line {sig_lineno}: the signature decodes to {len(signature)} bytes; "
            "expected 64 (Ed25519)"
        )
    return PublicKey(raw), signature, k


def _decode(value: str, lineno: int, what: str) -> bytes:
    try:
        return base64.b64decode(value.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise EnvelopeError(
            f"line {lineno}: the {what} {quote(value)} is not valid base64 (RFC 4648 section 4)"
        ) from None


def sign_receipt(text: str, key: PrivateKey) -> str:
    """:func:`sign_text` with the receipt marker word and domain (``pbem-receipt/1``)."""
    return sign_text(text, key, domain=RECEIPT_DOMAIN, word=RECEIPT_WORD)


def find_receipts(text: str) -> list[Envelope]:
    """:func:`find_envelopes` for receipts (``-----BEGIN PBEM RECEIPT-----``, ``pbem-receipt/1``)."""
    return find_envelopes(text, domain=RECEIPT_DOMAIN, word=RECEIPT_WORD)
