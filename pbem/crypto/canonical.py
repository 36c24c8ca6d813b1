"""The canonical form of signed text: what a pbem signature covers.

DESIGN.md "Signed orders" fixes the signed form of an order file so that what mail transport does
to whitespace (CRLF, trailing spaces, blank lines around the text, Unicode normalisation) does not
break a signature. pbem adds one step of its own, step 4 (no-break spaces), because HTML mail
composers turn spaces into U+00A0. docs/signing.md, "The canonical form", is the player-facing
statement of the same rules.

Steps, in this order:

1. drop one leading U+FEFF (byte-order mark);
2. CRLF and lone CR become LF;
3. Unicode normalisation form C (NFC);
4. U+00A0 (no-break space) becomes U+0020 (pbem's extension);
5. each line loses its trailing U+0020 and U+0009 characters, and no others;
6. leading and trailing blank lines (empty after step 5) are removed; the result has no final
   newline.
"""

from __future__ import annotations

import hashlib
import unicodedata

__all__ = ["canonical_text", "canonical_bytes", "sha256_hex"]


_MEMO: dict[str, str] = {}
_MEMO_TEXT_CHARS = 8192
"""Texts up to this long have their canonical form remembered (the judge takes the digest, the
keyed digest and the log commitment of each order set: three times the same text)."""


def canonical_text(text: str) -> str:
    """Return ``text`` in pbem's canonical form (steps 1-6 of the module docstring).

    ``text`` is a ``str`` (already decoded from its charset); the result is a ``str`` with LF
    line ends, no trailing spaces or tabs on any line, no blank first or last line and no final
    newline. The empty string (or a text of blank lines only) gives ``""``. The function is
    idempotent (``canonical_text(canonical_text(t)) == canonical_text(t)``) except when the
    result starts with U+FEFF (a second BOM, or one after leading blank lines: step 1 only
    drops one at the very start); :func:`pbem.crypto.envelope.sign_text` refuses such texts.

    Source: DESIGN.md "Signed orders", plus step 4 (U+00A0 to U+0020), a pbem extension.
    Raises ``TypeError`` if ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise TypeError(f"canonical_text expects str, got {type(text).__name__}: {text!r:.60}")
    if len(text) > _MEMO_TEXT_CHARS or type(text) is not str:
        return _canonical(text)
    canon = _MEMO.get(text)
    if canon is None:
        if len(_MEMO) >= 256:
            _MEMO.clear()
        canon = _MEMO[text] = _canonical(text)
    return canon


def _canonical(text: str) -> str:
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.isascii():
        if not unicodedata.is_normalized("NFC", text):
            text = unicodedata.normalize("NFC", text)
        if "\xa0" in text:
            text = text.replace("\xa0", " ")
    lines = [line.rstrip(" \t") for line in text.split("\n")]
    start, end = 0, len(lines)
    while start < end and not lines[start]:
        start += 1
    while end > start and not lines[end - 1]:
        end -= 1
    return "\n".join(lines[start:end])


def canonical_bytes(text: str) -> bytes:
    """Return the UTF-8 encoding of :func:`canonical_text` of ``text``: the bytes a signature covers.

    Raises ``TypeError`` if ``text`` is not a ``str``; a lone surrogate (not encodable in UTF-8)
    raises ``UnicodeEncodeError``.
    """
    return canonical_text(text).encode("utf-8")


def sha256_hex(text: str) -> str:
    """Return the lower-case hex SHA-256 (64 characters) of :func:`canonical_bytes` of ``text``.

    This is "the digest of the orders" quoted in receipts and in the public log (DESIGN.md "The
    public log"): two texts that differ only by what the canonical form removes have the same
    digest. Raises as :func:`canonical_bytes`.
    """
    return hashlib.sha256(canonical_bytes(text)).hexdigest()
