"""Character sets of incoming text, decoded the way browsers and mail programs do.

Mail programs label Windows text wrongly all the time: Outlook and many web mailers send text
typed on Windows (curly quotes U+201C/U+201D, the euro sign, dashes) as ``charset=iso-8859-1``
or ``us-ascii``, or with no charset at all. Those bytes are windows-1252, and every browser and
mail reader decodes them so: the WHATWG Encoding Standard (section 4.2, "Names and labels")
makes ``iso-8859-1``, ``latin1``, ``us-ascii``, ``ascii`` and the other labels below mere
labels of windows-1252. :func:`decode_text` follows it:

- a label is looked up after removing leading and trailing ASCII white space and lower-casing
  it (WHATWG "get an encoding");
- windows-1252 is decoded with the WHATWG index (``index-windows-1252.txt``): bytes 0x00-0x7F
  and 0xA0-0xFF are the code points of the same value, 0x80-0x9F the table's characters, and
  the five bytes that Python's ``cp1252`` leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) map to
  the code point of the same value (U+0081...), as the WHATWG index says. Decoding never fails;
- other labels are decoded with Python's codec of that name;
- when the declared charset does not fit the bytes, or is unknown, or missing: UTF-8 if the
  bytes are valid UTF-8, else windows-1252 (which cannot fail), with a warning.

One exception to WHATWG, kept because it is far more common in mail than real ASCII text with
Windows punctuation: bytes labelled ``us-ascii`` / ``ascii`` that are valid UTF-8 (and not
ASCII) are read as UTF-8 (a mail program that wrote UTF-8 but labelled it with the default),
with windows-1252 offered as an alternative reading; ``iso-8859-1`` and the other Latin-1 labels
on bytes that are valid UTF-8 are read as windows-1252, with UTF-8 offered as the alternative.
The signature check (:func:`pbem.crypto.find.find_signed`) tries the alternative when the
main reading fails to verify.
"""

from __future__ import annotations

import codecs
import functools

__all__ = ["WINDOWS_1252_LABELS", "decode_text", "decode_windows_1252", "normalise_label"]

WINDOWS_1252_LABELS = frozenset(
    """ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1
    iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252""".split()
)
"""The labels of windows-1252 in the WHATWG Encoding Standard, section 4.2 (lower case)."""

_ASCII_LABELS = frozenset(("ansi_x3.4-1968", "ascii", "us-ascii"))
_ASCII_WS = " \t\n\f\r"

# WHATWG index-windows-1252, pointers 0-31 (bytes 0x80-0x9F). The five undefined in Python's
# cp1252 are the code points U+0081, U+008D, U+008F, U+0090 and U+009D in the WHATWG index.
_HIGH = (
    "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f"
    "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178"
)
_TABLE = {0x80 + i: ch for i, ch in enumerate(_HIGH)}


def normalise_label(label: str) -> str:
    """``label`` without leading/trailing ASCII white space, lower-cased (WHATWG "get an encoding")."""
    return label.strip(_ASCII_WS).lower()


def decode_windows_1252(data: bytes) -> str:
    """Decode ``data`` as windows-1252 with the WHATWG index (Encoding Standard section 9.1).

    Never raises: every byte has a code point. ``b"\\x93hi\\x94"`` gives ``"\\u201chi\\u201d"``,
    ``b"\\x81"`` gives ``"\\u0081"``.
    """
    text = data.decode("latin-1")
    if text.isascii():
        return text
    return text.translate(_TABLE)


_ASCII_COMPATIBLE = frozenset((
    "utf-8", "ascii", "latin-1", "iso8859-2", "iso8859-3", "iso8859-4", "iso8859-5", "iso8859-6",
    "iso8859-7", "iso8859-8", "iso8859-9", "iso8859-10", "iso8859-13", "iso8859-14", "iso8859-15",
    "iso8859-16", "cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257",
    "cp1258", "koi8-r", "koi8-u", "mac-roman", "gb2312", "gbk", "gb18030", "big5", "shift_jis",
    "euc_jp", "euc_kr", "cp932", "cp949", "cp950",
))
"""Python codecs that decode ASCII bytes as ASCII: for those, ASCII text skips the codec."""


@functools.lru_cache(maxsize=256)
def _lookup(name: str) -> codecs.CodecInfo | None:
    try:
        return codecs.lookup(name)
    except (LookupError, ValueError):  # ValueError: a NUL in the name
        return None


def _utf8(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def decode_text(data: bytes, charset: str | None, label: str, warnings: list[str]) -> tuple[str, list[str]]:
    """Decode a text part's bytes: ``(text, alternatives)``.

    ``data``: the part's bytes after transfer decoding. ``charset``: the declared ``charset``
    parameter, or ``None``. ``label``: how warnings name the part (``"part 2 (orders.txt)"``).
    ``warnings``: appended to (plain sentences) when the bytes do not fit the declared charset,
    the charset is unknown, or there is none and the bytes are not UTF-8.

    ``alternatives`` are other plausible readings of the same bytes (at most one today: UTF-8
    for a Latin-1 label, windows-1252 for an ASCII label), for the signature check to try when
    ``text`` does not verify. Never raises. Sources: WHATWG Encoding Standard sections 4.2 and
    9.1; RFC 2046 section 4.1.2 (the charset parameter).
    """
    name = normalise_label(charset) if charset else ""
    codec = None
    if name and name not in WINDOWS_1252_LABELS:
        codec = _lookup(name)
        if codec is None:
            warnings.append(f"{label}: the character set {charset!r} is unknown; the text was read as UTF-8")
    if data.isascii() and (codec is None or codec.name in _ASCII_COMPATIBLE):
        return data.decode("ascii"), []
    if name in WINDOWS_1252_LABELS:
        as_utf8 = _utf8(data)
        if name in _ASCII_LABELS and as_utf8 is not None:
            warnings.append(
                f"{label}: the text says it is plain ASCII but holds other characters; "
                f"it was read as UTF-8 (charset {charset!r} declared)"
            )
            return as_utf8, [decode_windows_1252(data)]
        return decode_windows_1252(data), [as_utf8] if as_utf8 is not None else []
    if codec is not None:
        try:
            return data.decode(codec.name), []
        except (ValueError, LookupError):  # UnicodeDecodeError, or a codec's own complaint
            if codec.name != "utf-8":
                warnings.append(
                    f"{label}: the text is not valid {charset!r} as it says; it was read as UTF-8"
                )
    as_utf8 = _utf8(data)
    if as_utf8 is not None:
        return as_utf8, []
    what = "declares no character set and " if not name else ""
    warnings.append(
        f"{label}: the text {what}is not valid UTF-8; it was read as Windows-1252 (Western European)"
    )
    return decode_windows_1252(data), []
