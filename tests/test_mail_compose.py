"""Tests of pbem.mail.compose.compose, checked by parsing the bytes back with the email package.

Expected values come from RFC 5322 (Date form, Message-ID, In-Reply-To/References, CRLF and
line length), RFC 2045/2046 (MIME structure, transfer encodings), RFC 3834 (Auto-Submitted)
and from the arguments given.
"""

from __future__ import annotations

import calendar
import re
from datetime import datetime, timedelta, timezone
from email import message_from_bytes
from email.policy import default

import pytest

from pbem.mail.compose import compose
from pbem.mail.errors import ComposeAddressError, ComposeAttachmentError, ComposeHeaderError
from pbem.mail.extract import extract

UTC = timezone.utc
WHEN = datetime(2026, 11, 29, 20, 15, 0, tzinfo=UTC)
TEXT = "Turn 3 of atl-7 is resolved.\n\nYour orders for turn 4:\n\ngame: atl-7\nturn: 4\n"


def base(**overrides):
    args = dict(
        sender="Referee <referee@example.net>",
        to="Red Player <red@example.org>",
        subject="atl-7 turn 3 report",
        text=TEXT,
        date=WHEN,
        message_id_domain="example.net",
    )
    args.update(overrides)
    return args


def parse(data: bytes):
    return message_from_bytes(data, policy=default)


def content(part) -> str:
    """A text part's content with the wire's CRLF line ends (RFC 5322 2.1) read as LF."""
    return part.get_content().replace("\r\n", "\n")


def test_plain_message_headers_and_body():
    data = compose(**base())
    msg = parse(data)
    assert msg["From"] == "Referee <referee@example.net>"
    assert msg["To"] == "Red Player <red@example.org>"
    assert msg["Subject"] == "atl-7 turn 3 report"
    # RFC 5322 3.3 date-time; 2026-11-29 is a Sunday:
    assert calendar.day_abbr[WHEN.weekday()] == "Sun"
    assert msg["Date"] == "Sun, 29 Nov 2026 20:15:00 +0000"
    assert msg.get_content_type() == "text/plain"
    assert msg.get_content_charset() == "utf-8"
    assert msg["Content-Transfer-Encoding"] == "7bit"  # ASCII, short lines
    assert content(msg) == TEXT
    assert msg["MIME-Version"] == "1.0"
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["In-Reply-To"] is None and msg["References"] is None


def test_crlf_line_ends_ascii_only_and_short_lines():
    data = compose(**base(text="caf\u00e9 " * 40 + "\n", subject="Z\u00fcge \u2013 turn 3"))
    assert b"\n" not in data.replace(b"\r\n", b"")  # RFC 5322 2.1: lines end in CRLF
    assert data.isascii()  # no 8bit: quoted-printable body, RFC 2047 encoded subject
    assert max(len(line) for line in data.split(b"\r\n")) <= 78  # RFC 5322 2.1.1


def test_non_ascii_or_long_lines_use_quoted_printable_and_round_trip():
    text = "Z\u00fcge f\u00fcr Runde 3\u00a0ok\n" + "x" * 100 + "\nkeep trailing blank \n"
    msg = parse(compose(**base(text=text)))
    assert msg["Content-Transfer-Encoding"] == "quoted-printable"
    assert content(msg) == text


def test_aware_non_utc_date_is_converted_and_naive_is_taken_as_utc():
    cet = timezone(timedelta(hours=1))
    assert parse(compose(**base(date=datetime(2026, 11, 29, 21, 15, tzinfo=cet))))["Date"] == (
        "Sun, 29 Nov 2026 20:15:00 +0000"
    )
    assert parse(compose(**base(date=datetime(2026, 11, 29, 20, 15))))["Date"] == (
        "Sun, 29 Nov 2026 20:15:00 +0000"
    )


def test_default_date_is_now():
    before = datetime.now(UTC).replace(microsecond=0)
    date = parse(compose(**base(date=None)))["Date"].datetime
    assert before <= date <= datetime.now(UTC)


def test_message_id_form_and_determinism():
    first = compose(**base())
    assert first == compose(**base())  # same mail, same bytes (a re-run queues no duplicate)
    mid = parse(first)["Message-ID"]
    assert re.fullmatch(r"<20261129T201500Z\.[0-9a-f]{20}@example\.net>", mid)
    assert parse(compose(**base(text=TEXT + "x\n")))["Message-ID"] != mid


def test_reply_sets_in_reply_to_references_and_auto_replied():
    for given in ("<CAF3x9@mail.gmail.com>", "CAF3x9@mail.gmail.com"):
        msg = parse(compose(**base(in_reply_to=given)))
        assert msg["In-Reply-To"] == "<CAF3x9@mail.gmail.com>"
        assert msg["References"] == "<CAF3x9@mail.gmail.com>"
        assert msg["Auto-Submitted"] == "auto-replied"


def test_html_report_is_an_attachment_not_an_alternative():
    html = "<html><body><h1>Turn 3</h1><p>Caf\u00e9</p><svg></svg></body></html>"
    msg = parse(compose(**base(html=html)))
    assert msg.get_content_type() == "multipart/mixed"
    parts = list(msg.iter_parts())
    assert [p.get_content_type() for p in parts] == ["text/plain", "text/html"]
    assert parts[0].get_content_disposition() is None
    assert content(parts[0]) == TEXT
    assert parts[1].get_content_disposition() == "attachment"
    assert parts[1].get_filename() == "report.html"
    assert parts[1].get_content_charset() == "utf-8"
    assert content(parts[1]) == html + "\n"  # text parts end with a line break
    assert all(p["MIME-Version"] is None for p in parts)  # only the message has it (RFC 2045 4)


def test_further_attachments_in_order_with_their_bytes():
    png = bytes(range(256))
    orders = "game: atl-7\nturn: 4\nrole: red\n".encode()
    msg = parse(
        compose(
            **base(
                html="<p>r</p>",
                attachments=[("map.png", "image/png", png), ("orders.txt", "text/plain", orders)],
            )
        )
    )
    parts = list(msg.iter_parts())
    assert [(p.get_filename(), p.get_content_type()) for p in parts[1:]] == [
        ("report.html", "text/html"),
        ("map.png", "image/png"),
        ("orders.txt", "text/plain"),
    ]
    assert parts[2].get_payload(decode=True) == png
    assert parts[2]["Content-Transfer-Encoding"] == "base64"
    assert parts[3].get_payload(decode=True) == orders
    assert parts[3].get_content_charset() == "utf-8"


def test_composed_mail_reads_back_through_extract():
    text = "game: atl-7\nturn: 4\n\nmove 1 from 0303 to\u00a00304\n" + "long " * 30 + "\n"
    data = compose(**base(text=text, html="<p>x</p>", in_reply_to="<a@b>"))
    got = extract(data)
    assert got.texts == [("body", text), ("report.html", "<p>x</p>\n")]
    assert got.sender == "referee@example.net"
    assert got.date == WHEN
    assert got.in_reply_to == "<a@b>"
    assert got.auto_submitted is True
    assert got.warnings == []


# -- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "field, value",
    [("subject", "turn 3\nBcc: everyone@example.org"), ("in_reply_to", "<a@b>\r\nX: y")],
)
def test_line_breaks_in_header_values_are_refused(field, value):
    with pytest.raises(ComposeHeaderError) as caught:
        compose(**base(**{field: value}))
    assert repr(value) in str(caught.value)


@pytest.mark.parametrize("domain", ["", "exa mple.net", "a@b", "b\u00fccher.de", "x\ny"])
def test_bad_message_id_domain_is_refused(domain):
    with pytest.raises(ComposeHeaderError):
        compose(**base(message_id_domain=domain))


@pytest.mark.parametrize(
    "field, value",
    [
        ("sender", "not an address"),
        ("sender", "referee@"),  # crashes the stdlib parser: still a clear error
        ("to", ""),
        ("to", "red@example.org\nBcc: x@example.org"),
        ("to", "r\u00f6d@example.org"),
        ("to", "<>"),
    ],
)
def test_bad_addresses_are_refused(field, value):
    with pytest.raises((ComposeAddressError, ComposeHeaderError)) as caught:
        compose(**base(**{field: value}))
    assert repr(value) in str(caught.value)


def test_several_recipients_are_allowed():
    msg = parse(compose(**base(to="red@example.org, Blue <blue@example.org>")))
    assert [a.addr_spec for a in msg["To"].addresses] == ["red@example.org", "blue@example.org"]


@pytest.mark.parametrize(
    "mime_type", ["png", "image/", "/png", "text/plain; charset=utf-8", "a/b/c"]
)
def test_bad_attachment_type_is_refused(mime_type):
    with pytest.raises(ComposeAttachmentError) as caught:
        compose(**base(attachments=[("x.bin", mime_type, b"x")]))
    assert repr(mime_type) in str(caught.value)
