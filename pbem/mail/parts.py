"""The body parts of one parsed message: which are read, and how each is decoded.

Used by :func:`pbem.mail.extract.extract`; see its docstring and docs/mail.md section 2. The
rules, with their sources:

- the MIME tree (RFC 2046 section 5.1) is walked in message order; at most
  :data:`MAX_MIME_DEPTH` nested multiparts deep and :data:`MAX_PARTS` leaf parts are read, the
  rest is skipped with a warning;
- the transfer encoding (RFC 2045 section 6) is read from the ``Content-Transfer-Encoding``
  value's first token, lower-cased, so that ``Base64``, ``base64 `` (trailing space) and
  ``base64 (comment)`` all mean base64 (RFC 2045 section 6.1: the value is case-insensitive,
  and comments and folding white space may surround it); ``quoted-printable`` (section 6.7) and
  ``base64`` (section 6.8) are undone, ``7bit``, ``8bit`` and ``binary`` are the bytes as they
  are, and an unknown encoding is read as it is, with a warning;
- the charset is applied by :func:`pbem.mail.charsets.decode_text` (WHATWG Encoding Standard);
- ``format=flowed`` (RFC 3676) is undone by :func:`pbem.mail.flowed.unflow`; as some programs
  say ``format=flowed`` without space-stuffing what the player typed, the text with soft line
  breaks joined but nothing unstuffed, and the text as sent, are kept as alternative readings;
- an attached message (``message/rfc822`` or ``message/global``, RFC 2046 section 5.2.1, RFC
  6532 section 3.5: a mail forwarded "as attachment") is read like the message itself, at most
  :data:`MAX_FORWARD_DEPTH` levels deep; its texts are named ``forwarded/body``,
  ``forwarded/<file name>``.
"""

from __future__ import annotations

import binascii
import email.utils
import quopri
import re
from dataclasses import dataclass, field
from email.message import Message
from typing import Callable

from pbem.mail.charsets import decode_text
from pbem.mail.flowed import unflow

__all__ = ["MAX_MIME_DEPTH", "MAX_PARTS", "MAX_FORWARD_DEPTH", "PartText", "read_parts", "normalise"]

TEXT_ATTACHMENT_SUFFIXES = (".txt", ".asc", ".orders")
SSH_SIGNATURE_ARMOR = b"-----BEGIN SSH SIGNATURE-----"
SSH_SIGNATURE_TYPE = "application/x-ssh-signature"

MAX_MIME_DEPTH = 16
"""Deepest nesting of multiparts read (mail programs nest 3 or 4 deep); deeper parts are skipped."""
MAX_PARTS = 100
"""Most leaf parts read in one message (attached messages included); the rest are skipped."""
MAX_FORWARD_DEPTH = 3
"""Most levels of attached messages read (a forward of a forward of a forward)."""

FORWARDED = "forwarded/"
"""The prefix of the names of texts read from an attached (forwarded) message."""

_CTE_TOKEN = re.compile(r"[\s(]*([A-Za-z0-9_.-]+)")
_B64_JUNK = re.compile(rb"[^A-Za-z0-9+/]+")
_STDLIB_DECODED = frozenset(("base64", "quoted-printable", "x-uuencode", "uuencode", "uue", "x-uue"))
_READABLE = frozenset(("7bit", "8bit", "binary"))

# MIME defects (email.errors) in words a player understands.
_DEFECTS = {
    "StartBoundaryNotFoundDefect": "it says it is made of parts, but the parts could not be found",
    "CloseBoundaryNotFoundDefect": "its last part is not closed; the mail may have been cut short",
    "NoBoundaryInMultipartDefect": "it says it is made of parts but does not say where they start",
    "MultipartInvariantViolationDefect": "it says it is made of parts but is not",
    "MissingHeaderBodySeparatorDefect": "a line among its headers is not a header; what follows was read as text",
    "FirstHeaderLineIsContinuationDefect": "its headers start with a continuation line",
    "MisplacedEnvelopeHeaderDefect": "it has a mailbox 'From ' line among its headers",
    "InvalidBase64PaddingDefect": "its base64 encoding is damaged (padding); it was decoded as far as possible",
    "InvalidBase64CharactersDefect": "its base64 encoding holds stray characters; they were skipped",
    "InvalidBase64LengthDefect": "its base64 encoding is cut short; it was decoded as far as possible",
    "InvalidMultipartContentTransferEncodingDefect": "a part made of parts has an encoding, which is not allowed",
}


@dataclass(slots=True)
class PartText:
    """One text read from a message: ``name`` ("body", a file name, "forwarded/..."), ``text``
    (LF line ends, no leading BOM), ``alternates`` (other readings of the same bytes, to try when
    ``text`` does not verify) and ``raw`` (the bytes after transfer decoding, before charset
    decoding; ``None`` for a text made from HTML)."""

    name: str
    text: str
    alternates: list[str] = field(default_factory=list)
    raw: bytes | None = None


def normalise(text: str) -> str:
    """Drop a leading byte order mark (U+FEFF) and turn CRLF line ends into LF."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    return text


def read_parts(
    msg: Message,
    sig_files: list[tuple[str, bytes]],
    warnings: list[str],
    parse: Callable[[bytes, list[str]], Message | None],
    *,
    prefix: str = "",
    forward_depth: int = 0,
) -> list[PartText]:
    """The texts of ``msg`` in message order: its body (text/plain parts, or failing those the
    text of its text/html parts), then its text attachments and the texts of attached messages.

    SSH signature attachments are appended to ``sig_files`` as ``(name, bytes)``; problems to
    ``warnings`` as plain sentences. ``parse(bytes, warnings)`` parses an attached message that
    the parser left as bytes (a base64-encoded ``message/rfc822``). ``prefix`` is put before
    every name (``"forwarded/"`` inside an attached message). Never raises for bad mail.
    """
    where = "the forwarded message" if prefix else "the message"
    _note_defects(where, msg, warnings)
    bodies: list[PartText] = []
    html: list[PartText] = []
    rest: list[PartText] = []
    for number, part in enumerate(_leaves(msg, where, warnings), start=1):
        params = _Params(part)
        try:
            ctype = part.get_content_type()
            filename = params.filename()
            is_attachment = filename is not None or part.get_content_disposition() == "attachment"
        except MemoryError:  # the reader's memory budget: never swallowed
            raise
        except Exception:
            warnings.append(f"{where}, part {number}: its headers could not be read; it was skipped")
            continue
        label = f"{where}, part {number} ({filename or ctype})" if prefix else (
            f"part {number} ({filename})" if filename else f"part {number} ({ctype})")
        if part is not msg:
            _note_defects(label, part, warnings)
        maintype = ctype.partition("/")[0]
        if maintype == "message":
            rest.extend(_attached_message(part, ctype, label, sig_files, warnings, parse, prefix, forward_depth))
            continue
        if maintype == "multipart":  # a multipart whose boundary is missing: one opaque body
            warnings.append(f"{label}: it says it is made of parts but they could not be found; it was read as text")
            ctype = "text/plain"

        payload = payload_bytes(part, label, warnings)
        if not is_attachment and ctype == "text/plain":
            bodies.append(_text(params, prefix + "body", ctype, payload, label, warnings))
            continue
        if not is_attachment and ctype == "text/html":
            html.append(_text(params, prefix + "body", ctype, payload, label, warnings, True))
            continue

        name = prefix + (filename or f"attachment-{number}")
        lower = name.lower()
        if (
            lower.endswith(".sig")
            or ctype == SSH_SIGNATURE_TYPE
            or payload[:64].lstrip().startswith(SSH_SIGNATURE_ARMOR)
        ):
            sig_files.append((name, payload))
        elif ctype.startswith("text/") or (
            ctype == "application/octet-stream" and lower.endswith(TEXT_ATTACHMENT_SUFFIXES)
        ):
            rest.append(_text(params, name, ctype, payload, label, warnings))
    return (bodies or html) + rest


def _leaves(msg: Message, where: str, warnings: list[str]) -> list[Message]:
    """The leaf parts in order, at most MAX_MIME_DEPTH multiparts deep and MAX_PARTS many; an
    attached message is one leaf."""
    leaves: list[Message] = []
    stack = [(msg, 0)]
    too_deep = False
    while stack:
        part, depth = stack.pop()
        if part.is_multipart() and part.get_content_maintype() != "message":
            if depth >= MAX_MIME_DEPTH:
                too_deep = True
                continue
            stack.extend((child, depth + 1) for child in reversed(part.get_payload()))
        elif len(leaves) >= MAX_PARTS:
            warnings.append(f"{where} has more than {MAX_PARTS} parts; the rest were not read")
            break
        else:
            leaves.append(part)
    if too_deep:
        warnings.append(
            f"{where} has parts nested more than {MAX_MIME_DEPTH} levels deep; those were not read"
        )
    return leaves


def _attached_message(part, ctype, label, sig_files, warnings, parse, prefix, forward_depth):
    """The texts of an attached message (message/rfc822 or message/global), or [] with a warning."""
    if ctype not in ("message/rfc822", "message/global"):
        warnings.append(f"{label}: this kind of attached message is not read")
        return []
    if forward_depth >= MAX_FORWARD_DEPTH:
        warnings.append(
            f"{label}: a message forwarded more than {MAX_FORWARD_DEPTH} times over was not read; "
            "send the orders in the body or as a text attachment"
        )
        return []
    payload = part.get_payload()
    token = _cte(part)  # an encoded message is not allowed (RFC 2046 5.2.1), but is sent
    parsed = isinstance(payload, list) and payload and isinstance(payload[0], Message)
    if parsed and token not in ("base64", "quoted-printable"):
        inner = payload[0]
    else:  # the parser read the encoded text as a message, or kept it as bytes: decode, parse
        data = _undo_cte(token, _encoded_bytes(payload[0])) if parsed else payload_bytes(part, label, warnings)
        inner = parse(data, warnings)
        if inner is None:
            return []
    texts = read_parts(inner, sig_files, warnings, parse, prefix=prefix + FORWARDED,
                       forward_depth=forward_depth + 1)
    if not texts and not any(name.startswith(prefix + FORWARDED) for name, _ in sig_files):
        warnings.append(f"{label}: the forwarded message holds no text that could be read")
    return texts


def _note_defects(label: str, part: Message, warnings: list[str]) -> None:
    seen: set[str] = set()
    for defect in getattr(part, "defects", ()):
        name = type(defect).__name__
        if name in seen:
            continue
        seen.add(name)
        words = _DEFECTS.get(name, f"it is not well-formed ({name})")
        warnings.append(f"{label}: {words}")


def payload_bytes(part: Message, label: str, warnings: list[str]) -> bytes:
    """The part's body with its Content-Transfer-Encoding undone (RFC 2045 section 6).

    The encoding is the first token of the header's value, lower-cased (so ``Base64``,
    ``base64 `` and ``\\tbase64`` are all base64). Never raises; a part that cannot be decoded
    at all is read as empty, with a warning.
    """
    try:
        header = part.get("content-transfer-encoding")
        written = str(header).lower() if header is not None else ""
        data = part.get_payload(decode=True)
    except MemoryError:  # the reader's memory budget: never swallowed
        raise
    except Exception:
        warnings.append(f"{label}: its content could not be decoded; it was read as empty")
        return b""
    if not isinstance(data, bytes):
        return b""
    if written in _STDLIB_DECODED or not written:
        return data  # the email package decoded exactly this spelling already
    match = _CTE_TOKEN.match(written)
    token = match.group(1) if match else ""
    if token == "base64":
        return decode_base64(data)
    if token == "quoted-printable":
        return quopri.decodestring(data)
    if token not in _READABLE:
        warnings.append(f"{label}: unknown transfer encoding {written.strip()!r}; it was read as it is")
    return data


def _cte(part: Message) -> str:
    """The first token of the part's Content-Transfer-Encoding, lower-cased ("" if none)."""
    try:
        header = part.get("content-transfer-encoding")
    except MemoryError:  # the reader's memory budget: never swallowed
        raise
    except Exception:
        return ""
    match = _CTE_TOKEN.match(str(header).lower()) if header is not None else None
    return match.group(1) if match else ""


def _undo_cte(token: str, data: bytes) -> bytes:
    if token == "base64":
        return decode_base64(data)
    if token == "quoted-printable":
        return quopri.decodestring(data)
    return data


def _encoded_bytes(inner: Message) -> bytes:
    """The bytes of an encoded attached message that the parser mistook for a message."""
    try:
        return inner.as_bytes()
    except MemoryError:  # the reader's memory budget: never swallowed
        raise
    except Exception:
        return b""


def decode_base64(data: bytes) -> bytes:
    """Decode base64 leniently (RFC 2045 section 6.8: characters outside the alphabet are
    ignored): ``=`` and everything else outside ``A-Za-z0-9+/`` is dropped, a lone trailing
    character is dropped and the padding is restored. Never raises."""
    clean = _B64_JUNK.sub(b"", data)
    if len(clean) % 4 == 1:
        clean = clean[:-1]
    clean += b"=" * (-len(clean) % 4)
    try:
        return binascii.a2b_base64(clean)
    except binascii.Error:  # cannot happen after cleaning; kept for safety
        return b""


def _text(params: "_Params", name: str, ctype: str, payload: bytes, label: str,
          warnings: list[str], is_body: bool = False) -> PartText:
    """A text part's content: charset decoded, BOM dropped, LF, flowed undone, HTML laid out."""
    text, readings = decode_text(payload, _charset(params), label, warnings)
    text = normalise(text)
    readings = [normalise(r) for r in readings]
    if ctype == "text/html" and is_body:  # rare: html.parser is loaded only for these
        from pbem.mail.htmltext import html_to_text

        return PartText(name, html_to_text(text),
                        _unique([html_to_text(r) for r in readings], text), None)
    flowed, delsp = _flowed(params) if ctype == "text/plain" else (False, False)
    if not flowed:
        return PartText(name, text, _unique(readings, text), payload)
    main = unflow(text, delsp=delsp)
    forms = [unflow(text, delsp=delsp, unstuff=False), text]
    for reading in readings:
        forms += [unflow(reading, delsp=delsp), unflow(reading, delsp=delsp, unstuff=False), reading]
    return PartText(name, main, _unique(forms, main), payload)


def _unique(forms: list[str], main: str) -> list[str]:
    out: list[str] = []
    for form in forms:
        if form != main and form not in out:
            out.append(form)
    return out


_MISSING = object()


class _Params:
    """The parameters of one part's Content-Type and Content-Disposition, each header parsed
    once (the stdlib's ``get_param`` parses the whole header again for every parameter it is
    asked for, five times a part here). The answers are those of ``Message.get_filename``,
    ``get_content_charset`` and ``get_param`` (Python 3.11 ``email.message``), which this
    replays on ``get_params``; an error the stdlib would raise is raised again each time."""

    def __init__(self, part: Message):
        self.part = part
        self._read: dict[str, object] = {}

    def of(self, header: str) -> list | None:
        """``part.get_params(header=header)`` (unquoted), remembered; None without the header."""
        got = self._read.get(header, _MISSING)
        if got is _MISSING:
            try:
                got = ("ok", self.part.get_params(header=header))
            except MemoryError:  # the reader's memory budget: never swallowed
                raise
            except Exception as exc:
                got = ("error", exc)
            self._read[header] = got
        kind, value = got
        if kind == "error":
            raise value
        return value

    def get(self, name: str, header: str = "content-type"):
        """``part.get_param(name, _MISSING, header)``: the first parameter of that name."""
        params = self.of(header)
        if params is None:
            return _MISSING
        name = name.lower()
        for key, value in params:
            if key.lower() == name:
                return value
        return _MISSING

    def filename(self) -> str | None:
        """``part.get_filename()``."""
        value = self.get("filename", "content-disposition")
        if value is _MISSING:
            value = self.get("name")
        if value is _MISSING:
            return None
        return email.utils.collapse_rfc2231_value(value).strip()

    def charset(self) -> str | None:
        """``part.get_content_charset()``."""
        charset = self.get("charset")
        if charset is _MISSING:
            return None
        if isinstance(charset, tuple):
            pcharset = charset[0] or "us-ascii"
            try:
                charset = str(charset[2].encode("raw-unicode-escape"), pcharset)
            except (LookupError, UnicodeError):
                charset = charset[2]
        try:
            charset.encode("us-ascii")
        except UnicodeError:
            return None
        return charset.lower()


def _charset(params: _Params) -> str | None:
    try:
        return params.charset()
    except MemoryError:  # the reader's memory budget: never swallowed
        raise
    except Exception:
        return None


def _flowed(params: _Params) -> tuple[bool, bool]:
    """(format=flowed, DelSp=yes) of a text/plain part (RFC 3676 section 4); case-insensitive."""
    try:
        fmt = params.get("format")
        delsp = params.get("delsp")
    except MemoryError:  # the reader's memory budget: never swallowed
        raise
    except Exception:
        return False, False
    flowed = isinstance(fmt, str) and fmt.strip().lower() == "flowed"
    return flowed, isinstance(delsp, str) and delsp.strip().lower() == "yes"
