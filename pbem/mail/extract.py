"""Decoding one incoming message into the texts that may hold signed orders.

:func:`extract` parses the raw bytes once with the standard :mod:`email` package
(``email.policy.default``, RFC 5322 / MIME, RFC 2045-2047 and 2231) and hands the signature
layer (``pbem.crypto.find``) what a player typed: the text/plain body parts (or, failing those,
the text of the HTML body), the text attachments, the texts of attached (forwarded) messages,
and the ``.sig`` attachments. See docs/mail.md for the forms of mail that are understood.

Hostile mail is bounded before the parser sees it: :func:`pbem.mail.prescan.prescan` drops a
header field longer than :data:`~pbem.mail.prescan.MAX_FIELD_BYTES` (16 KiB) or with more than
:data:`~pbem.mail.prescan.MAX_PARAMETERS` (64) parameters, in any header block, with a warning
(the rest of the message is read); the walk over the parts (:mod:`pbem.mail.parts`) stops at
:data:`~pbem.mail.parts.MAX_MIME_DEPTH` nested multiparts, :data:`~pbem.mail.parts.MAX_PARTS`
parts and :data:`~pbem.mail.parts.MAX_FORWARD_DEPTH` levels of attached messages. Charsets
follow the WHATWG Encoding Standard (:mod:`pbem.mail.charsets`), transfer encodings are read
from the header's first token (:func:`pbem.mail.parts.payload_bytes`).

Speed: ingest must reach 1,000 signed mails a second on 2 cores. ``email.policy.default``
builds a header object by running its RFC 5322 parser every time a header is read, and the
parser itself reads ``Content-Type`` several times per part. The policy used here is
``email.policy.default`` with one change: its header factory remembers the header objects it
built (they are immutable ``str`` subclasses), so each distinct header line is parsed once.
The registry also reuses the header class it builds per header name (the stdlib makes a new
class with ``type()`` for every header read). On the development machine this brings a typical
signed mail from about 1.1 ms to 0.4 ms. Mail of the usual shapes is then not fed through
``email.feedparser`` at all: :mod:`pbem.mail.fastparse` builds the very tree the stdlib parser
would (compared with it on generated mail by tests/test_mail_fastparse.py) and hands anything
unusual to the stdlib (issue 11: 1,500 mails a second). Each message is parsed once, its
header fields are looked up in one pass, and its parts are visited once.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email import policy as email_policy
from email.headerregistry import BaseHeader, HeaderRegistry
from email.message import Message
from email.parser import BytesParser
from email.utils import parsedate_to_datetime

from pbem.mail.boundary import install as _install_boundary_lines
from pbem.mail.charsets import decode_text
from pbem.mail.fastparse import parse as fast_parse
from pbem.mail.mimeparams import plain_mime_value
from pbem.mail.parts import (  # noqa: F401  (re-exported names kept for callers)
    MAX_FORWARD_DEPTH,
    MAX_MIME_DEPTH,
    MAX_PARTS,
    SSH_SIGNATURE_ARMOR,
    SSH_SIGNATURE_TYPE,
    TEXT_ATTACHMENT_SUFFIXES,
    PartText,
    normalise,
    read_parts,
)
from pbem.mail.prescan import MAX_FIELD_BYTES, MAX_PARAMETERS, prescan  # noqa: F401
from pbem.pickling import by_position

__all__ = ["Extracted", "extract"]

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


class _Policy(email_policy.EmailPolicy):
    """``email.policy.default`` whose ``header_fetch_parse`` remembers its answer per raw
    header line: each ``Message.get`` of a header (about thirty per message, most of them
    the parser's and the part walk's Content-Type) joins the folded value again before
    asking the header factory, which only then finds it remembered. Content-Type and
    Content-Disposition of the usual forms get their text without the parser
    (pbem.mail.mimeparams), which is all that is asked of them."""

    @functools.lru_cache(maxsize=_HEADER_CACHE_SIZE)  # noqa: B019  (one policy, module-wide)
    def _fetched(self, name: str, value: str):
        plain = plain_mime_value(name, value)  # the header's text, for the usual forms
        if plain is not None:
            return plain
        return super().header_fetch_parse(name, value)

    def header_fetch_parse(self, name, value):
        if hasattr(value, "name") or type(value) is not str:
            return super().header_fetch_parse(name, value)
        return self._fetched(name, value)


_POLICY = _Policy(header_factory=_header_factory)
_PARSER = BytesParser(policy=_POLICY)
_install_boundary_lines()  # no regular expression compiled per multipart (pbem.mail.boundary)


_ROBOTS = frozenset({"mailer-daemon", "postmaster", "noreply", "no-reply", "do-not-reply",
                     "donotreply", "listserv", "majordomo", "mailman"})
"""Local parts of addresses that are robots (RFC 3834 section 2): never answered."""


@by_position
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
      has no text/plain body part), then ``(file name, text)`` for each text attachment, and the
      texts of each attached (forwarded) message, named ``"forwarded/body"``,
      ``"forwarded/<file name>"`` (``"forwarded/forwarded/..."`` one level further down). Texts
      have LF line ends, no leading byte order mark, and format=flowed undone.
      For ``bare=True`` input the single pair is ``("file", text)``.
    - ``alternates``: ``{index into texts: [other readings of that text]}``, only for texts that
      have some: the format=flowed text with nothing unstuffed and as sent (for clients that
      declare format=flowed without space-stuffing), and the other charset reading (UTF-8 for
      bytes labelled Latin-1, windows-1252 for bytes labelled ASCII that are UTF-8). The
      signature check tries them only where ``texts`` fails (:func:`pbem.crypto.find.find_signed`).
    - ``raw_bytes``: ``{index into texts: bytes}``: each text's bytes after transfer decoding,
      before charset decoding and any normalising (not for a text laid out from HTML): what an
      ``ssh-keygen -Y sign`` signature of an attached file covers.
    - ``sig_files``: ``(file name, bytes)`` of each attached SSH signature (``*.sig``, type
      ``application/x-ssh-signature``, or content starting ``-----BEGIN SSH SIGNATURE-----``);
      inside a forwarded message the name starts with ``"forwarded/"``.
    - ``warnings``: what could not be read cleanly, each a plain sentence for the player (an
      unknown charset, an undecodable header, a broken MIME structure, a header dropped by the
      pre-scan, parts beyond the caps, an attached message that could not be read).
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
    alternates: dict[int, list[str]] = field(default_factory=dict)
    raw_bytes: dict[int, bytes] = field(default_factory=dict)


def _in_utc(when, header, warnings: list[str]):
    """``when`` (the datetime of the Date ``header``, which the warning quotes) in UTC: a naive
    one ("-0000": the time is UTC, the local zone unknown, RFC 5322 section 3.3) as UTC;
    None, with a warning, when UTC takes it past the year 9999 (``Fri, 31 Dec 9999 23:59:59
    -2359``), which a datetime cannot hold."""
    if when.tzinfo is None:
        return when.replace(tzinfo=timezone.utc)
    try:
        return when.astimezone(timezone.utc)
    except OverflowError:
        warnings.append(f"the Date header {str(header)!r} is out of range in UTC; ignored")
        return None


def extract(raw: bytes, *, bare: bool = False) -> Extracted:
    """Decode one message (RFC 5322 bytes as delivered) into :class:`Extracted`.

    ``raw``: the message bytes, LF or CRLF line ends, as kept in the archive.
    ``bare``: ``raw`` is not mail but a signed orders file (``Incoming.bare``); its bytes are
    decoded as UTF-8 (windows-1252 if they are not UTF-8, with a warning) into
    ``("file", text)``, with ``raw_bytes[0]`` the bytes as given.

    Never raises on bad input: a message the parser cannot make sense of yields whatever could
    be read, and ``warnings`` says what went wrong. Raises ``TypeError`` only if ``raw`` is not
    bytes (a programming error). Time and memory are linear in ``len(raw)``. Sources: RFC 5322,
    RFC 2045-2047, RFC 2231, RFC 3676 (via :func:`pbem.mail.flowed.unflow`), WHATWG Encoding
    Standard (via :mod:`pbem.mail.charsets`), brief section 2.
    """
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise TypeError(f"extract() needs the raw message as bytes, not {type(raw).__name__}")
    result = Extracted()
    if bare:
        data = bytes(raw)
        text, readings = decode_text(data, None, "the orders file", result.warnings)
        text = normalise(text)
        _add_texts(result, [PartText("file", text, [r for r in map(normalise, readings) if r != text], data)])
        return result
    msg = _parse(bytes(raw), result.warnings)
    if msg is None:
        return result
    _read_headers(msg, result)
    _read_parts(msg, result)
    return result


# -- headers ------------------------------------------------------------------------------


class _Fields:
    """The first field of each name in a message's header block, found in one pass: what
    ``Message.get`` and ``raw_items`` give for a name (their first match, the name compared
    with ``str.lower``), without going over every field again for each name asked."""

    __slots__ = ("msg", "first")

    def __init__(self, msg: Message):
        self.msg = msg
        first: dict[str, tuple] = {}
        for k, v in msg._headers:
            first.setdefault(k.lower(), (k, v))
        self.first = first

    def get(self, name: str, failobj=None):
        """``msg.get(name, failobj)``: the policy's header object (which may raise)."""
        field = self.first.get(name.lower())
        if field is None:
            return failobj
        return self.msg.policy.header_fetch_parse(*field)

    def raw(self, name: str):
        """The raw value of the first ``name`` field as the parser stored it (a str), or None."""
        field = self.first.get(name.lower())
        return field[1] if field is not None and type(field[1]) is str else None


def _header(fields: _Fields, name: str, warnings: list[str]) -> BaseHeader | None:
    """The policy's header object for ``name`` (first occurrence), or None; never raises."""
    try:
        return fields.get(name)
    except MemoryError:  # the reader's memory budget: never swallowed
        raise
    except Exception as exc:  # e.g. IndexError from the stdlib address parser on "a@"
        field = fields.first.get(name.lower())
        raw_value = field[1] if field is not None else "?"
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
    except MemoryError:  # the reader's memory budget: never swallowed
        raise
    except Exception as exc:
        warnings.append(f"the {name} header {str(header)!r} could not be read ({exc!r})")
        return ""
    warnings.append(f"the {name} header {str(header)!r} holds no usable e-mail address")
    return ""


# The usual forms of Message-ID and Date, read without building the policy's header objects
# (each message has its own, so none is ever remembered: 0.1 ms a message, a fifth of reading
# it). Anything else takes the policy's parser as before.
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_PLAIN_MESSAGE_ID = re.compile(rf"<{_ATOM}(?:\.{_ATOM})*@{_ATOM}(?:\.{_ATOM})*>")
_PLAIN_DATE = re.compile(r"(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), )?\d{1,2} "
                         r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} "
                         r"\d{2}:\d{2}(?::\d{2})? [+-]\d{4}")


def _plain_message_id(fields: _Fields) -> str | None:
    """The Message-ID when it is written ``<dot-atom@dot-atom>`` (RFC 5322 3.6.4, no comment or
    space), which is what the policy's header would hold too; else None."""
    raw = fields.raw("Message-ID")
    if raw is not None and _PLAIN_MESSAGE_ID.fullmatch(raw):
        return raw
    return None


def _plain_date(fields: _Fields) -> datetime | None:
    """The Date when it is written in the usual RFC 5322 3.3 form: what the policy's
    ``DateHeader.datetime`` holds (both are ``email.utils.parsedate_to_datetime`` of the
    value); None when the field is missing, in another form, or not a real date."""
    raw = fields.raw("Date")
    if raw is None or not _PLAIN_DATE.fullmatch(raw):
        return None
    try:
        return parsedate_to_datetime(raw)
    except MemoryError:  # the reader's memory budget: never swallowed
        raise
    except Exception:  # e.g. 31 Feb: the policy's parser says why
        return None


def _read_headers(msg: Message, result: Extracted) -> None:
    warnings = result.warnings
    msg = _Fields(msg)  # each name looked up once, as Message.get finds it
    plain_id = _plain_message_id(msg)
    if plain_id is not None:
        result.message_id = plain_id
    else:
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

    plain_date = _plain_date(msg)
    date = _header(msg, "Date", warnings) if plain_date is None else None
    if plain_date is not None:
        result.date = _in_utc(plain_date, msg.raw("Date"), warnings)
    elif date is not None:
        when = getattr(date, "datetime", None)
        if when is None:
            warnings.append(f"the Date header {str(date)!r} is not an RFC 5322 date; ignored")
        else:
            result.date = _in_utc(when, date, warnings)

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


# -- body parts: pbem.mail.parts ---------------------------------------------------------


def _parse(raw: bytes, warnings: list[str]) -> Message | None:
    """Pre-scan (:func:`pbem.mail.prescan.prescan`) and parse ``raw``; None if it cannot be."""
    raw, dropped = prescan(raw)
    warnings.extend(dropped)
    msg = fast_parse(raw, _POLICY)  # the stdlib's tree, for mail of the usual shapes
    if msg is not None:
        return msg
    try:
        return _PARSER.parsebytes(raw)
    except MemoryError:  # the reader's memory budget: never swallowed
        raise
    except Exception:  # the stdlib parser is lenient; this guards against its rare bugs
        pass
    try:  # at least the headers: who to answer
        msg = _PARSER.parsebytes(raw, headersonly=True)
        msg.set_payload("")
    except MemoryError:  # the reader's memory budget: never swallowed
        raise
    except Exception:
        msg = None
    warnings.append("the mail's content could not be read (it is not in a form mail programs write)")
    return msg


def _read_parts(msg: Message, result: Extracted) -> None:
    try:
        texts = read_parts(msg, result.sig_files, result.warnings, _parse)
    except RecursionError:  # a structure deeper than the caps let through; never expected
        result.warnings.append("the mail is nested too deeply to be read")
        return
    _add_texts(result, texts)


def _add_texts(result: Extracted, texts: list[PartText]) -> None:
    for item in texts:
        index = len(result.texts)
        result.texts.append((item.name, item.text))
        if item.alternates:
            result.alternates[index] = item.alternates
        if item.raw is not None:
            result.raw_bytes[index] = item.raw
