"""Decoding one incoming message into the texts that may hold signed orders.

:func:`extract` parses the raw bytes once with the standard :mod:`email` package
(``email.policy.default``, RFC 5322 / MIME, RFC 2045-2047 and 2231) and hands the signature
layer (``pbem.crypto.find``) what a player typed: the text/plain body parts (or, failing those,
the text of the HTML body), the text attachments, and the ``.sig`` attachments, each decoded
with its declared charset. See docs/mail.md for the forms of mail that are understood.

Speed: ingest must reach 1,000 signed mails a second on 2 cores. ``email.policy.default``
builds a header object by running its RFC 5322 parser every time a header is read, and the
parser itself reads ``Content-Type`` several times per part. The policy used here is
``email.policy.default`` with one change: its header factory remembers the header objects it
built (they are immutable ``str`` subclasses), so each distinct header line is parsed once.
The registry also reuses the header class it builds per header name (the stdlib makes a new
class with ``type()`` for every header read). On the development machine this brings a typical
signed mail from about 1.1 ms to 0.4 ms, with no parsing of our own. Each message is parsed
once and its parts are visited once.
"""

from __future__ import annotations

import codecs
import functools
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email import policy as email_policy
from email.headerregistry import BaseHeader, HeaderRegistry
from email.message import Message
from email.parser import BytesParser

from pbem.mail.flowed import unflow
from pbem.mail.htmltext import html_to_text

__all__ = ["Extracted", "extract"]

# File name endings of application/octet-stream attachments that are read as text.
TEXT_ATTACHMENT_SUFFIXES = (".txt", ".asc", ".orders")
SSH_SIGNATURE_ARMOR = b"-----BEGIN SSH SIGNATURE-----"
SSH_SIGNATURE_TYPE = "application/x-ssh-signature"

# An RFC 2047 encoded word can decode to CR, LF or other controls ("=?utf-8?q?a=0Ab?=");
# they become spaces so that a subject quoted in a reply cannot start a header of its own.
_CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f]+")
_HEADER_CACHE_SIZE = 4096


class _HeaderRegistry(HeaderRegistry):
    """The stdlib header registry, building each header class once instead of on every header.

    ``HeaderRegistry.__getitem__`` creates a new class with ``type()`` for every header read;
    the classes for one header name are all alike, so the first is kept and reused.
    """

    def __init__(self) -> None:
        super().__init__()
        self._classes: dict[str, type] = {}

    def __getitem__(self, name: str) -> type:
        key = name.lower()
        cls = self._classes.get(key)
        if cls is None:
            cls = self._classes[key] = super().__getitem__(name)
        return cls


_header_factory = functools.lru_cache(maxsize=_HEADER_CACHE_SIZE)(_HeaderRegistry().__call__)
_POLICY = email_policy.default.clone(header_factory=_header_factory)
_PARSER = BytesParser(policy=_POLICY)


_ROBOTS = frozenset({"mailer-daemon", "postmaster", "noreply", "no-reply", "do-not-reply",
                     "donotreply", "listserv", "majordomo", "mailman"})
"""Local parts of addresses that are robots (RFC 3834 section 2): never answered."""


@dataclass(slots=True)
class Extracted:
    """What :func:`extract` found in one message.

    - ``message_id``: the Message-ID header as written, angle brackets included
      (``"<abc@example.org>"``), or ``None`` if the message has none.
    - ``sender``: the bare address to reply to (``"red@example.org"``): the first usable
      address of Reply-To, else of From (RFC 5322 section 3.6.2); ``""`` if there is none.
    - ``subject``: the Subject with RFC 2047 encoded words decoded, on one line (control
      characters, such as a CR or LF hidden in an encoded word, become spaces); ``""`` if none.
    - ``date``: the Date header as an aware UTC datetime (a ``-0000`` zone is taken as UTC),
      or ``None`` if it is missing or not an RFC 5322 date.
    - ``in_reply_to``: the In-Reply-To header as written, or ``None``.
    - ``auto_submitted``: the message is automatic or bulk mail, not to be answered: it carries
      ``Auto-Submitted`` with a value other than ``no`` (a vacation reply, a bounce: RFC 3834
      section 5), ``Precedence: bulk/list/junk``, a ``List-Id``, an empty ``Return-Path``, or
      comes from a robot's address (MAILER-DAEMON, postmaster, noreply...; RFC 3834 section 2).
      The caller should not answer it, so that two robots never answer each other forever.
    - ``texts``: ``(name, text)`` pairs in message order: ``("body", text)`` for each
      text/plain body part (or for each text/html body part, turned into text, when the message
      has no text/plain body part), then ``(file name, text)`` for each text attachment. Texts
      have LF line ends, no leading byte order mark, and format=flowed undone.
      For ``bare=True`` input the single pair is ``("file", text)``.
    - ``sig_files``: ``(file name, bytes)`` of each attached SSH signature (``*.sig``, type
      ``application/x-ssh-signature``, or content starting ``-----BEGIN SSH SIGNATURE-----``).
    - ``warnings``: what could not be read cleanly, in plain sentences (unknown charset,
      undecodable header, MIME structure defects, an attached message that was not read).
    """

    message_id: str | None = None
    sender: str = ""
    subject: str = ""
    date: datetime | None = None
    in_reply_to: str | None = None
    auto_submitted: bool = False
    texts: list[tuple[str, str]] = field(default_factory=list)
    sig_files: list[tuple[str, bytes]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def extract(raw: bytes, *, bare: bool = False) -> Extracted:
    """Decode one message (RFC 5322 bytes as delivered) into :class:`Extracted`.

    ``raw``: the message bytes, LF or CRLF line ends, as kept in the archive.
    ``bare``: ``raw`` is not mail but a signed orders file (``Incoming.bare``); its bytes are
    decoded as UTF-8 (latin-1 if they are not UTF-8, with a warning) into ``("file", text)``.

    Never raises on bad input: a message the parser cannot make sense of yields whatever could
    be read, and ``warnings`` says what went wrong. Raises ``TypeError`` only if ``raw`` is not
    bytes (a programming error). Sources: RFC 5322, RFC 2045-2047, RFC 2231, RFC 3676 (via
    :func:`pbem.mail.flowed.unflow`), brief section 2.
    """
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise TypeError(f"extract() needs the raw message as bytes, not {type(raw).__name__}")
    result = Extracted()
    if bare:
        text = _decode_bytes(bytes(raw), None, "the orders file", result.warnings)
        result.texts.append(("file", _normalise(text)))
        return result
    try:
        msg = _PARSER.parsebytes(bytes(raw))
    except Exception as exc:  # the stdlib parser is lenient; this guards against its rare bugs
        result.warnings.append(f"the message could not be parsed at all ({exc!r}); nothing read")
        return result
    _read_headers(msg, result)
    _read_parts(msg, result)
    return result


# -- headers ------------------------------------------------------------------------------


def _header(msg: Message, name: str, warnings: list[str]) -> BaseHeader | None:
    """The policy's header object for ``name`` (first occurrence), or None; never raises."""
    try:
        return msg.get(name)
    except Exception as exc:  # e.g. IndexError from the stdlib address parser on "a@"
        try:
            raw_value = next(v for k, v in msg.raw_items() if k.lower() == name.lower())
        except Exception:
            raw_value = "?"
        warnings.append(
            f"the {name} header {raw_value!r} could not be parsed ({type(exc).__name__}); ignored"
        )
        return None


def _first_address(header, name: str, warnings: list[str]) -> str:
    """The addr-spec of the first address in an address header that has a local part and domain."""
    if header is None:
        return ""
    try:
        for address in header.addresses:
            if address.username and address.domain:
                return address.addr_spec
    except Exception as exc:
        warnings.append(f"the {name} header {str(header)!r} could not be read ({exc!r})")
        return ""
    warnings.append(f"the {name} header {str(header)!r} holds no usable e-mail address")
    return ""


def _read_headers(msg: Message, result: Extracted) -> None:
    warnings = result.warnings
    message_id = _header(msg, "Message-ID", warnings)
    if message_id is not None and str(message_id).strip():
        result.message_id = str(message_id).strip()
    in_reply_to = _header(msg, "In-Reply-To", warnings)
    if in_reply_to is not None and str(in_reply_to).strip():
        result.in_reply_to = str(in_reply_to).strip()
    subject = _header(msg, "Subject", warnings)
    if subject is not None:
        result.subject = _CONTROL_CHARS.sub(" ", str(subject))

    result.sender = _first_address(_header(msg, "Reply-To", warnings), "Reply-To", warnings)
    if not result.sender:
        result.sender = _first_address(_header(msg, "From", warnings), "From", warnings)

    date = _header(msg, "Date", warnings)
    if date is not None:
        when = getattr(date, "datetime", None)
        if when is None:
            warnings.append(f"the Date header {str(date)!r} is not an RFC 5322 date; ignored")
        elif when.tzinfo is None:  # "-0000": time given in UTC, local zone unknown (RFC 5322 3.3)
            result.date = when.replace(tzinfo=timezone.utc)
        else:
            result.date = when.astimezone(timezone.utc)

    auto = _header(msg, "Auto-Submitted", warnings)
    if auto is not None:
        result.auto_submitted = str(auto).split(";", 1)[0].strip().lower() not in ("", "no")
    # RFC 3834 section 2: do not answer bulk or list mail, nor mail from robots' addresses.
    precedence = str(_header(msg, "Precedence", warnings) or "").strip().lower()
    local = result.sender.rpartition("@")[0].lower()
    if (precedence in ("bulk", "list", "junk") or msg.get("List-Id") is not None
            or str(msg.get("Return-Path", "")).strip() == "<>" or local in _ROBOTS
            or local.startswith(("owner-", "bounce"))):
        result.auto_submitted = True


# -- body parts ---------------------------------------------------------------------------


def _leaves(msg: Message) -> list[Message]:
    """The message's leaf parts in order; an attached message counts as one (unread) leaf."""
    leaves: list[Message] = []
    stack = [msg]
    while stack:
        part = stack.pop()
        if part.is_multipart() and part.get_content_maintype() != "message":
            stack.extend(reversed(part.get_payload()))
        else:
            leaves.append(part)
    return leaves


def _read_parts(msg: Message, result: Extracted) -> None:
    warnings = result.warnings
    _note_defects("the message", msg, warnings)
    plain_bodies: list[str] = []
    html_bodies: list[str] = []
    attachments: list[tuple[str, str]] = []

    for number, part in enumerate(_leaves(msg), start=1):
        try:
            ctype = part.get_content_type()
            filename = part.get_filename()
            is_attachment = filename is not None or part.get_content_disposition() == "attachment"
        except Exception as exc:
            warnings.append(f"part {number}: its MIME headers could not be read ({exc!r}); skipped")
            continue
        label = f"part {number} ({filename})" if filename else f"part {number} ({ctype})"
        if part is not msg:
            _note_defects(label, part, warnings)
        maintype = ctype.partition("/")[0]
        if maintype == "message":
            warnings.append(
                f"{label}: an attached message is not read; send the orders in the body "
                f"or as a text attachment"
            )
            continue
        if maintype == "multipart":  # a multipart whose boundary is missing: one opaque body
            warnings.append(f"{label}: multipart part without a usable boundary; read as text")
            ctype = "text/plain"

        payload = _payload_bytes(part, label, warnings)
        if not is_attachment and ctype == "text/plain":
            plain_bodies.append(_text(part, ctype, payload, label, warnings))
            continue
        if not is_attachment and ctype == "text/html":
            html_bodies.append(_text(part, ctype, payload, label, warnings))
            continue

        name = filename or f"attachment-{number}"
        lower = name.lower()
        if (
            lower.endswith(".sig")
            or ctype == SSH_SIGNATURE_TYPE
            or payload[:64].lstrip().startswith(SSH_SIGNATURE_ARMOR)
        ):
            result.sig_files.append((name, payload))
        elif ctype.startswith("text/") or (
            ctype == "application/octet-stream" and lower.endswith(TEXT_ATTACHMENT_SUFFIXES)
        ):
            attachments.append((name, _text(part, ctype, payload, label, warnings)))

    if plain_bodies:
        result.texts.extend(("body", text) for text in plain_bodies)
    else:
        result.texts.extend(("body", html_to_text(text)) for text in html_bodies)
    result.texts.extend(attachments)


def _note_defects(label: str, part: Message, warnings: list[str]) -> None:
    for defect in getattr(part, "defects", ()):
        detail = str(defect)
        name = type(defect).__name__
        warnings.append(f"{label}: MIME defect {name}" + (f": {detail}" if detail else ""))


def _payload_bytes(part: Message, label: str, warnings: list[str]) -> bytes:
    """The part's body with its Content-Transfer-Encoding undone (base64, quoted-printable)."""
    try:
        payload = part.get_payload(decode=True)
    except Exception as exc:
        warnings.append(f"{label}: its content could not be decoded ({exc!r}); read as empty")
        return b""
    return payload if isinstance(payload, bytes) else b""


def _charset(part: Message) -> str | None:
    try:
        return part.get_content_charset()
    except Exception:
        return None


def _text(part: Message, ctype: str, payload: bytes, label: str, warnings: list[str]) -> str:
    """A text part's content as ``str``: charset decoded, BOM dropped, LF, flowed undone."""
    text = _normalise(_decode_bytes(payload, _charset(part), label, warnings))
    return _maybe_unflow(part, text) if ctype == "text/plain" else text


def _maybe_unflow(part: Message, text: str) -> str:
    """Undo format=flowed when the part declares it (RFC 3676 section 4)."""
    try:
        fmt = part.get_param("format")
        delsp = part.get_param("delsp")
    except Exception:
        return text
    if isinstance(fmt, str) and fmt.strip().lower() == "flowed":
        return unflow(text, delsp=isinstance(delsp, str) and delsp.strip().lower() == "yes")
    return text


def _decode_bytes(data: bytes, charset: str | None, label: str, warnings: list[str]) -> str:
    """Decode with the declared charset, else UTF-8, else latin-1 (which cannot fail)."""
    if charset:
        try:
            return data.decode(charset)
        except LookupError:
            warnings.append(f"{label}: unknown charset {charset!r}; decoded as UTF-8")
        except ValueError:  # UnicodeDecodeError, or another codec's complaint about the bytes
            if codecs.lookup(charset).name == "utf-8":
                warnings.append(f"{label}: the bytes are not valid UTF-8; decoded as latin-1")
                return data.decode("latin-1")
            warnings.append(
                f"{label}: the bytes are not valid {charset!r} as declared; decoded as UTF-8"
            )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        warnings.append(f"{label}: the bytes are not valid UTF-8; decoded as latin-1")
        return data.decode("latin-1")


def _normalise(text: str) -> str:
    """Drop a leading byte order mark (U+FEFF) and turn CRLF line ends into LF."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    return text
