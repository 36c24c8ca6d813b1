"""Composing the referee's outgoing mail (turn reports, receipts, rejections) as RFC 5322 bytes.

The message is built with :class:`email.message.EmailMessage` and written with
``email.policy.SMTP`` (CRLF line ends, headers folded at 78 characters, RFC 2047 encoded words
for non-ASCII header text), ready for SMTP or for an .eml file in the outbox folder.

Layout: a ``text/plain; charset=utf-8`` body (7bit when it is short-lined ASCII, otherwise
quoted-printable, so the mail needs no 8BITMIME), then, when given, the HTML report as an
attachment named ``report.html`` (not multipart/alternative: players keep the plain text as
the mail and open the report with its map on purpose), then any further attachments.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from email import policy as email_policy
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Sequence

from pbem.mail.errors import ComposeAddressError, ComposeAttachmentError, ComposeHeaderError

__all__ = ["compose", "safe_header_text", "REPORT_FILENAME"]

REPORT_FILENAME = "report.html"
_MAX_7BIT_LINE = 78  # RFC 5322 section 2.1.1: lines SHOULD be at most 78 characters


_UNSAFE_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))


def safe_header_text(text: str, limit: int) -> str:
    """``text`` from outside (an incoming Subject, a Message-ID) made safe to put in a header
    or a report: every control, format, surrogate, private-use, unassigned, line- or
    paragraph-separator character (Unicode general categories Cc, Cf, Cs, Co, Cn, Zl, Zp: CR,
    LF, U+202E RIGHT-TO-LEFT OVERRIDE and the other bidirectional controls of Unicode UAX #9,
    zero-width characters) becomes a space, runs of white space become one space, and the
    result is cut to at most ``limit`` characters (ending with "..." when cut)."""
    out = text[:limit * 4]
    if not (out.isascii() and out.isprintable()):  # printable ASCII (U+0020-U+007E) is safe
        import unicodedata

        out = "".join(" " if unicodedata.category(c) in _UNSAFE_CATEGORIES else c
                      for c in out)
    out = " ".join(out.split())
    return out if len(out) <= limit else out[:max(0, limit - 3)].rstrip() + "..."


def compose(
    *,
    sender: str,
    to: str,
    subject: str,
    text: str,
    html: str | None = None,
    attachments: Sequence[tuple[str, str, bytes]] = (),
    in_reply_to: str | None = None,
    message_id_domain: str = "pbem.invalid",
    date: datetime | None = None,
    message_key: str = "",
    identity: tuple | None = None,
) -> bytes:
    """Return one complete message as bytes with CRLF line ends (``email.policy.SMTP``).

    - ``sender``: the From address, ``"ref@example.org"`` or ``"Referee <ref@example.org>"``;
      ``to``: one or more recipients in the same forms, comma-separated.
    - ``subject``: any Unicode text on one line; ``text``: the body, LF line ends.
    - ``html``: the HTML report, attached as ``report.html`` (text/html; charset=utf-8).
    - ``attachments``: ``(file name, MIME type "type/subtype", content bytes)``, attached in
      order after the report, base64-encoded; text/* content that is valid UTF-8 is labelled
      ``charset=utf-8``.
    - ``in_reply_to``: the Message-ID being answered (with or without angle brackets); sets
      In-Reply-To and References (RFC 5322 section 3.6.4).
    - ``message_id_domain``: the right-hand side of the generated Message-ID; use the
      referee's own mail domain.
    - ``date``: the Date header, a UTC datetime (aware datetimes are converted to UTC, naive
      ones are taken as UTC); default: now. Written in RFC 5322 section 3.3 form,
      ``Sun, 29 Nov 2026 20:15:00 +0000``.
    - ``message_key``: what makes this mail one of its own beside another with the same
      content (pbem passes the outbox row id, ``outbox/42``); it goes into the hash below, so
      two mails queued with equal content get different Message-IDs, while composing the same
      queued mail again gives the same bytes.
    - ``identity``: for a mail whose attachments differ each time it is composed (a report
      encrypted with age, pbem.engine.encryption), what the hash below covers instead of
      ``html`` and ``attachments`` (nothing secret: the Message-ID is in the clear), so that
      composing it again keeps its Message-ID.

    The Message-ID is ``<YYYYMMDDTHHMMSSZ.HASH@domain>`` (the Date in UTC; HASH: the first 20
    hex digits of a SHA-256 over sender, to, subject, text, html, attachments, in_reply_to and
    ``message_key`` when given),
    and the multipart boundary is derived from the same hash: the same arguments give the same
    bytes, so a mail composed again after a crash is recognised as the same mail.
    ``Auto-Submitted: auto-replied`` (when answering) or ``auto-generated`` marks the mail as
    a robot's (RFC 3834 section 5), so that vacation responders do not answer it.

    Raises :class:`ComposeHeaderError` for a header value with a line break (or an empty or
    malformed domain), :class:`ComposeAddressError` for a sender or recipient that is not a
    plain ASCII address, :class:`ComposeAttachmentError` for a MIME type not of the form
    ``type/subtype``.
    """
    when = _utc(date)
    for field, value in (("Subject", subject), ("In-Reply-To", in_reply_to or "")):
        _single_line(field, value)
    _check_domain(message_id_domain)

    msg = EmailMessage()
    _set_address(msg, "From", sender)
    _set_address(msg, "To", to)
    msg["Subject"] = safe_header_text(subject, 998)
    msg["Date"] = format_datetime(when)
    digest = _digest(sender, to, subject, text,
                     *((html, attachments) if identity is None else (identity,)), in_reply_to,
                     *((message_key,) if message_key else ()))
    msg["Message-ID"] = f"<{when:%Y%m%dT%H%M%SZ}.{digest[:20]}@{message_id_domain}>"
    if in_reply_to:
        reference = _angle(in_reply_to)
        msg["In-Reply-To"] = reference
        msg["References"] = reference
    msg["Auto-Submitted"] = "auto-replied" if in_reply_to else "auto-generated"

    msg.set_content(text, subtype="plain", charset="utf-8", cte=_text_cte(text))
    if html is not None:
        msg.add_attachment(
            html, subtype="html", charset="utf-8", cte=_text_cte(html), filename=REPORT_FILENAME
        )
    for filename, mime_type, content in attachments:
        maintype, slash, subtype = mime_type.strip().lower().partition("/")
        if not slash or not maintype or not subtype or "/" in subtype or ";" in mime_type:
            raise ComposeAttachmentError(filename, mime_type)
        _single_line("attachment file name", filename)
        params = {}
        if maintype == "text" and _is_utf8(content):
            params["charset"] = "utf-8"
        msg.add_attachment(
            bytes(content), maintype=maintype, subtype=subtype, filename=filename, params=params
        )
    if msg.is_multipart():
        # A fixed boundary makes the bytes a function of the arguments (re-runs give the same
        # file in the outbox). It cannot occur in the parts: quoted-printable writes "=" only
        # before two hex digits, base64 has no "_", and 7bit text would have to contain the
        # digest of itself.
        msg.set_boundary(f"=_pbem_{digest[:32]}")
        for part in msg.iter_parts():
            del part["MIME-Version"]  # add_attachment copies it into every part; RFC 2045 4
    return msg.as_bytes(policy=email_policy.SMTP)


def _utc(date: datetime | None) -> datetime:
    if date is None:
        return datetime.now(timezone.utc).replace(microsecond=0)
    if date.tzinfo is None:
        return date.replace(tzinfo=timezone.utc)
    return date.astimezone(timezone.utc)


def _single_line(field: str, value: str) -> None:
    if "\r" in value or "\n" in value:
        raise ComposeHeaderError(field, value, "a single line without CR or LF")


def _check_domain(domain: str) -> None:
    _single_line("message_id_domain", domain)
    if not domain or any(c in domain for c in " \t<>@()[]\\,;:\"") or not domain.isascii():
        raise ComposeHeaderError(
            "message_id_domain", domain, "an ASCII domain name such as 'example.org'"
        )


def _set_address(msg: EmailMessage, field: str, value: str) -> None:
    """Set an address header, refusing anything but well-formed ASCII addresses."""
    _single_line(field, value)
    try:
        msg[field] = value
        header = msg[field]
        addresses = header.addresses
        defects = header.defects
    except Exception as exc:  # the stdlib address parser can raise on malformed input
        raise ComposeAddressError(field, value, f"the address parser failed: {exc!r}") from None
    if not addresses:
        raise ComposeAddressError(field, value, "no address found")
    if defects:
        raise ComposeAddressError(field, value, "; ".join(str(d) for d in defects))
    for address in addresses:
        if not address.username or not address.domain:
            raise ComposeAddressError(field, value, "an address needs a local part and a domain")
        if not address.addr_spec.isascii():
            raise ComposeAddressError(field, value, "non-ASCII addresses need SMTPUTF8")


def _angle(message_id: str) -> str:
    message_id = message_id.strip()
    return message_id if message_id.startswith("<") else f"<{message_id}>"


def _digest(*parts: object) -> str:
    """Hex SHA-256 over the arguments of one mail (their reprs, NUL-separated)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(repr(part).encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    return digest.hexdigest()


def _text_cte(text: str) -> str:
    """7bit for short-lined ASCII with no trailing blanks, else quoted-printable (RFC 2045 6.7).

    Trailing blanks are protected by quoted-printable because mail transport may strip them.
    """
    if text.isascii():
        lines = text.splitlines()
        if all(len(line) <= _MAX_7BIT_LINE and line == line.rstrip(" \t") for line in lines):
            return "7bit"
    return "quoted-printable"


def _is_utf8(content: bytes) -> bool:
    try:
        bytes(content).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
