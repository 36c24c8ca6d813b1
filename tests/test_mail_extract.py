"""Tests of pbem.mail.extract.extract on mail written the way real clients send it.

The samples in tests/data/mail/ were written by hand with the headers and encodings of each
client (see tests/data/mail/README.md). Every expected text below is what the player typed,
written out here; the decoding rules applied to get from the encoded sample to it are those
of RFC 2045 (quoted-printable, base64), RFC 2047 (headers) and RFC 3676 (format=flowed).
"""

from __future__ import annotations

import base64
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.extract import extract

DATA = Path(__file__).parent / "data" / "mail"
NBSP = "\u00a0"
UTC = timezone.utc

RED_ORDERS = (
    "game: atl-7\nturn: 3\nphase: movement\nrole: red\n"
    "nonce: 5b0f0c9e2d7a4c1e9f3b8a6d2e4f6a8c\nissued: 2026-11-29T20:15:00Z\n\n"
    "move 4 from 0507 to 0607\nsink 0608\n"
)


def sample(name: str) -> bytes:
    return (DATA / name).read_bytes()


# -- the client samples -------------------------------------------------------------------


def test_mutt_plain_7bit():
    got = extract(sample("mutt_plain_7bit.eml"))
    assert got.message_id == "<20261129201455.GA12345@laptop.example.org>"
    assert got.sender == "blue+pbem@example.org"  # Reply-To wins over From
    assert got.subject == "atl-7 turn 3 movement"
    # 21:14:55 +0100 is 20:14:55 UTC.
    assert got.date == datetime(2026, 11, 29, 20, 14, 55, tzinfo=UTC)
    assert got.date.tzinfo is UTC  # given in UTC, not merely an equal instant in +01:00
    assert got.in_reply_to is None
    assert got.texts == [
        (
            "body",
            "game: atl-7\nturn: 3\nphase: movement\nrole: blue\n"
            "nonce: 0f1e2d3c4b5a69788796a5b4c3d2e1f0\nissued: 2026-11-29T20:14:00Z\n\n"
            "move 2 from 0909 to 0908\nswim blue4 to 0807\n\n-- \nBlue\n",
        )
    ]
    assert got.sig_files == []
    assert got.warnings == []


def test_gmail_quoted_printable_soft_breaks_and_no_break_space():
    got = extract(sample("gmail_alternative_qp.eml"))
    # multipart/alternative: the text/plain alternative is the body; the HTML one is not read.
    assert got.texts == [
        (
            "body",
            "game: atl-7\nturn: 3\nphase: movement\nrole: green\n"
            "nonce: 9a8b7c6d5e4f30211203f4e5d6c7b8a9\nissued: 2026-11-29T20:15:03Z\n\n"
            f"move ship2 from 0211 to 0312 with{NBSP} red3\n"
            "note: if 0312 holds a shark when this is resolved, stop in 0211 and do not sail on\n",
        )
    ]
    assert got.sender == "green.player@gmail.com"
    assert got.in_reply_to == "<20261129T201500Z.0c5208b30e10ed5758c0@example.net>"
    assert got.date == datetime(2026, 11, 29, 20, 15, 3, tzinfo=UTC)  # 12:15:03 -0800
    assert got.warnings == []


def test_apple_mail_flowed_delsp_and_space_stuffing():
    got = extract(sample("apple_flowed_delsp.eml"))
    assert got.texts == [
        (
            "body",
            "Here are my orders. I had to think hard about the shark in 0608, so I am moving "
            "away from it and sinking a tile behind me.\n\n"
            "game: atl-7\nturn: 3\nphase: movement\nrole: yellow\n"
            "nonce: 77aa66bb55cc44dd33ee22ff11009988\nissued: 2026-11-29T20:16:00Z\n\n"
            "From 0606 move yellow2 to 0706\n"
            ">>> then swim yellow5 to 0605 <<<\n\n"
            "-- \nYellow\n\n"
            "On 29 Nov 2026, at 20:15, Referee <referee@example.net> wrote:\n\n"
            "> Your orders for turn 2 were accepted. The phase ends at 22:00 UTC.\n",
        )
    ]
    assert got.message_id == "<5C8E3B1A-2F4D-4E6B-9A7C-1D2E3F4A5B6C@icloud.com>"
    assert got.warnings == []


def test_thunderbird_base64_attachment_and_sig_file():
    got = extract(sample("thunderbird_attachment_sig.eml"))
    assert got.texts == [
        # format=flowed (DelSp=no): the soft break after "the " is joined; 8bit UTF-8 body.
        (
            "body",
            "Hello referee, my orders are attached, signed with my SSH key as the rules page "
            "says.\n\nGr\u00fc\u00dfe, Red\n",
        ),
        ("orders.txt", RED_ORDERS),
    ]
    assert got.sig_files == [("orders.txt.sig", sample("red_orders.txt.sig"))]
    assert got.sender == "red@example.org"
    assert got.warnings == []


def test_html_only_outlook_message():
    got = extract(sample("outlook_html_only.eml"))
    # Windows-1252 quoted-printable: =E9 is e-acute, =94 a right double quotation mark.
    assert got.texts == [
        (
            "body",
            "game: atl-7\nturn: 3\nphase: movement\nrole: purple\n"
            "nonce: 0123456789abcdef0123456789abcdef\nissued: 2026-11-29T20:18:00Z\n"
            f"{NBSP}\n"
            f"move 1 from 0303 to{NBSP}{NBSP} 0304\n"
            "rename purple1 \u201cCaf\u00e9 & Co\u201d\n",
        )
    ]
    assert got.sender == "purple.player@outlook.com"
    assert got.warnings == []


def test_crlf_message_with_notepad_attachment_bom_and_octet_stream():
    raw = sample("outlook_notepad_crlf_bom.eml")
    assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")  # the sample is all CRLF
    got = extract(raw)
    assert got.texts == [
        ("body", "Orders attached (written in Notepad).\n\nOrange\n"),
        (
            "orders.txt",
            "game: atl-7\nturn: 3\nphase: movement\nrole: orange\n"
            "nonce: fedcba9876543210fedcba9876543210\nissued: 2026-11-29T20:19:00Z\n\n"
            "move 2 from 1006 to 1007\nsink 1008\n",
        ),
    ]
    assert got.warnings == []


def test_mbox_quoting_is_left_in_the_text():
    # The second message of three.mbox as mailbox.mbox hands it over (no envelope line).
    raw = (DATA / "three.mbox").read_bytes().split(b"\nFrom ")[1].split(b"\n", 1)[1]
    got = extract(raw)
    assert got.message_id == "<9d1c2b3a-4e5f-4061-8a7b-6c5d4e3f2a1b@example.org>"
    assert ">From 0507 the ship sails to 0607\n" in got.texts[0][1]


# -- bare orders files --------------------------------------------------------------------


def test_bare_file_is_one_text_named_file():
    got = extract(sample("red_orders.txt"), bare=True)
    assert got.texts == [("file", RED_ORDERS)]
    assert (got.message_id, got.sender, got.subject, got.date) == (None, "", "", None)


def test_bare_file_with_bom_and_crlf():
    raw = b"\xef\xbb\xbf" + RED_ORDERS.replace("\n", "\r\n").encode()
    assert extract(raw, bare=True).texts == [("file", RED_ORDERS)]


def test_bare_file_that_is_not_utf8_is_read_as_windows_1252_with_a_warning():
    # WHATWG index-windows-1252: byte 0xF6 is U+00F6.
    got = extract(b"role: r\xf6d\n", bare=True)
    assert got.texts == [("file", "role: r\u00f6d\n")]
    assert len(got.warnings) == 1 and "Windows-1252" in got.warnings[0]


# -- headers ------------------------------------------------------------------------------


def _message(headers: str, body: str = "hello\n") -> bytes:
    return (headers.strip("\n") + "\n\n" + body).encode("utf-8")


def test_sender_from_from_when_there_is_no_reply_to():
    got = extract(_message("From: =?utf-8?q?J=C3=B6rg?= <joerg@example.de>"))
    assert got.sender == "joerg@example.de"


def test_sender_skips_an_unusable_reply_to_and_says_so():
    got = extract(_message("Reply-To: undisclosed-recipients:;\nFrom: a@example.org"))
    assert got.sender == "a@example.org"
    assert any("Reply-To" in w for w in got.warnings)


def test_no_sender_at_all():
    assert extract(_message("Subject: x")).sender == ""


def test_subject_encoded_words_are_decoded():
    got = extract(_message("Subject: =?UTF-8?Q?Z=C3=BCge_f=C3=BCr?= turn 3"))
    assert got.subject == "Z\u00fcge f\u00fcr turn 3"


def test_subject_cannot_smuggle_a_line_break():
    # "=0D=0A" decodes to CR LF (RFC 2047 Q encoding): replying with "Re: <subject>" must not
    # be able to add a header line.
    got = extract(_message("Subject: =?utf-8?q?turn_3=0D=0ABcc:_all@example.org?="))
    assert got.subject == "turn 3 Bcc: all@example.org"


def test_date_minus_0000_is_utc_and_a_bad_date_is_a_warning():
    got = extract(_message("Date: Sun, 29 Nov 2026 20:15:00 -0000"))
    assert got.date == datetime(2026, 11, 29, 20, 15, tzinfo=UTC)
    got = extract(_message("Date: next Tuesday"))
    assert got.date is None
    assert any("next Tuesday" in w for w in got.warnings)


def test_auto_submitted():
    assert extract(_message("Auto-Submitted: auto-replied")).auto_submitted is True
    assert extract(_message("Auto-Submitted: auto-generated; owner=x")).auto_submitted is True
    assert extract(_message("Auto-Submitted: no")).auto_submitted is False
    assert extract(_message("From: a@example.org")).auto_submitted is False


def test_header_that_crashes_the_stdlib_address_parser_is_a_warning():
    # "From: a@" makes email.headerregistry raise IndexError (Python 3.11).
    got = extract(_message("From: a@\nSubject: still read"))
    assert got.subject == "still read"
    assert got.sender == ""
    assert any("'a@'" in w for w in got.warnings)


# -- parts --------------------------------------------------------------------------------


def _multipart(*parts: str) -> bytes:
    # RFC 2046 5.1.1: the line break before each boundary line belongs to the boundary, so a
    # part's content ends with a line break only if the part text below ends with one.
    body = "".join(f"--BOUNDARY\n{p}\n" for p in parts) + "--BOUNDARY--\n"
    return _message('From: a@example.org\nMIME-Version: 1.0\n'
                    'Content-Type: multipart/mixed; boundary="BOUNDARY"', body)


def test_apple_mail_inline_text_with_a_file_name_is_an_attachment():
    raw = _multipart(
        "Content-Type: text/plain; charset=us-ascii\n\nSee attached.\n",
        'Content-Disposition: inline; filename=orders.txt\n'
        'Content-Type: text/plain; name="orders.txt"; charset=utf-8\n\n' + RED_ORDERS,
    )
    assert extract(raw).texts == [("body", "See attached.\n"), ("orders.txt", RED_ORDERS)]


def test_octet_stream_attachments_read_as_text_only_for_text_names():
    b64 = base64.b64encode(b"game: atl-7\n").decode()
    raw = _multipart(
        "Content-Type: text/plain\n\nbody\n",
        f'Content-Type: application/octet-stream; name="turn3.orders"\n'
        f"Content-Transfer-Encoding: base64\nContent-Disposition: attachment\n\n{b64}",
        f'Content-Type: application/octet-stream; name="armored.asc"\n'
        f"Content-Transfer-Encoding: base64\n\n{b64}",
        f'Content-Type: application/octet-stream; name="game.bin"\n'
        f"Content-Transfer-Encoding: base64\n\n{b64}",
        "Content-Type: image/png; name=map.png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=",
    )
    assert extract(raw).texts == [
        ("body", "body\n"),
        ("turn3.orders", "game: atl-7\n"),
        ("armored.asc", "game: atl-7\n"),
    ]


def test_ssh_signature_found_by_type_and_by_content():
    armored = sample("red_orders.txt.sig")
    b64 = base64.b64encode(armored).decode()
    raw = _multipart(
        "Content-Type: text/plain\n\nbody\n",
        f'Content-Type: application/x-ssh-signature; name="sig"\n'
        f"Content-Transfer-Encoding: base64\n\n{b64}",
        "Content-Type: text/plain; name=signature.txt\n"
        "Content-Disposition: attachment; filename=signature.txt\n\n" + armored.decode(),
        "Content-Type: application/octet-stream\nContent-Disposition: attachment\n"
        f"Content-Transfer-Encoding: base64\n\n{b64}",
    )
    got = extract(raw)
    assert got.sig_files == [
        ("sig", armored),
        ("signature.txt", armored),
        ("attachment-4", armored),
    ]
    assert got.texts == [("body", "body\n")]


def test_html_is_used_only_when_there_is_no_text_plain_body():
    alternative = (
        'Content-Type: multipart/alternative; boundary="ALT"\n\n'
        "--ALT\nContent-Type: text/plain\n\nplain\n\n"
        "--ALT\nContent-Type: text/html\n\n<p>html</p>\n--ALT--"
    )
    assert extract(_multipart(alternative)).texts == [("body", "plain\n")]
    html_only = _message("Content-Type: text/html; charset=utf-8", "<div>a</div><div>b</div>")
    assert extract(html_only).texts == [("body", "a\nb\n")]


def test_attached_message_is_read_as_forwarded():
    raw = _multipart(
        "Content-Type: text/plain\n\nForwarding my orders.\n",
        "Content-Type: message/rfc822\n\nFrom: b@example.org\nSubject: old\n\ninner body",
    )
    got = extract(raw)
    assert got.texts == [("body", "Forwarding my orders.\n"), ("forwarded/body", "inner body")]
    assert got.warnings == []


def test_other_attached_messages_are_not_read_and_are_reported():
    raw = _multipart(
        "Content-Type: text/plain\n\nhello\n",
        "Content-Type: message/partial; id=x; number=1\n\nFrom: b@example.org\n\nbody",
    )
    got = extract(raw)
    assert got.texts == [("body", "hello\n")]
    assert any("attached message is not read" in w for w in got.warnings)


def test_unknown_and_wrong_charsets_fall_back_with_a_warning():
    got = extract(_message("Content-Type: text/plain; charset=x-klingon", "caf\u00e9\n"))
    assert got.texts == [("body", "caf\u00e9\n")]
    assert any("x-klingon" in w for w in got.warnings)
    # Declared us-ascii but typed UTF-8 (a common mislabel): read as UTF-8.
    got = extract(_message("Content-Type: text/plain; charset=us-ascii", "caf\u00e9\n"))
    assert got.texts == [("body", "caf\u00e9\n")]
    assert any("us-ascii" in w for w in got.warnings)
    # Declared UTF-8 but latin-1 bytes.
    raw = b"Content-Type: text/plain; charset=utf-8\n\ncaf\xe9\n"
    assert extract(raw).texts == [("body", "caf\u00e9\n")]


def test_declared_charset_is_used():
    raw = b"Content-Type: text/plain; charset=iso-8859-15\n\n\xa4 5\n"  # 0xA4 is the euro sign
    assert extract(raw).texts == [("body", "\u20ac 5\n")]


def test_flowed_attachment_is_unflowed_and_bom_dropped_in_body():
    raw = _message(
        "Content-Type: text/plain; charset=utf-8; format=flowed",
        "\ufeffa long \nline\n",
    )
    assert extract(raw).texts == [("body", "a long line\n")]


def test_multipart_without_boundary_is_read_as_text_with_a_warning():
    got = extract(_message("Content-Type: multipart/mixed", "game: atl-7\n"))
    assert got.texts == [("body", "game: atl-7\n")]
    assert got.warnings


# -- never raises -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\x00\xff\xfe garbage",
        b"Content-Type: multipart/mixed; boundary=\n\n--\n--",
        b"Content-Transfer-Encoding: base64\n\n!!!not base64@@@",
        b"Content-Type: text/plain; charset=\"\n\nx",
        b"From: \"unterminated\nTo: <<<@>>>\nDate: Mon, 99 Foo 99999 99:99:99 +9999\n\nx",
        b"Content-Type: message/rfc822\n\nnot really a message",
    ],
)
def test_malformed_messages_do_not_raise(raw):
    got = extract(raw)
    assert isinstance(got.warnings, list)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_do_not_raise(raw):
    extract(raw)
    extract(raw, bare=True)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                b"From: a@example.org\n", b"Content-Type: multipart/mixed; boundary=b\n",
                b"Content-Type: text/plain; format=flowed; delsp=yes\n", b"\n", b"--b\n",
                b"--b--\n", b"Content-Transfer-Encoding: quoted-printable\n", b"=C3=A9 =\n",
                b"Content-Disposition: attachment; filename*=utf-8''x%FF.sig\n",
                b"Content-Type: text/html\n", b"<div>x</div>\n", b"> quoted \n",
                b"Content-Transfer-Encoding: base64\n", b"Zm9v\n", b"Date: x\n",
            ]
        ),
        max_size=40,
    )
)
def test_mime_shaped_noise_does_not_raise(chunks):
    extract(b"".join(chunks))


def test_extract_needs_bytes():
    with pytest.raises(TypeError, match="bytes"):
        extract("a string")  # type: ignore[arg-type]


@pytest.mark.parametrize("headers", [
    "From: MAILER-DAEMON@mx.example.org\n",
    "From: list@example.org\nPrecedence: bulk\n",
    "From: list@example.org\nList-Id: <games.example.org>\n",
    "From: someone@example.org\nReturn-Path: <>\n",
    "From: noreply@example.org\n",
])
def test_bulk_list_and_robot_mail_is_not_to_be_answered(headers):
    """RFC 3834 section 2: no automatic reply to bulk or list mail or to robots' addresses."""
    raw = (headers + "Subject: x\nMessage-ID: <r@example.org>\n\nhello\n").encode()
    assert extract(raw).auto_submitted


def test_a_player_is_answered():
    raw = b"From: red@example.org\nSubject: x\nMessage-ID: <p@example.org>\n\nhello\n"
    assert not extract(raw).auto_submitted


# -- hostile mail (issue 7) ----------------------------------------------------------------

SIGNED_MAIL = (
    b"From: red@example.org\nSubject: orders\nContent-Type: text/plain; charset=utf-8\n\n"
    + RED_ORDERS.encode()
)


def _peak(fn):
    import tracemalloc

    tracemalloc.start()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_content_type_with_100000_parameters_is_dropped_before_parsing():
    from pbem.mail.prescan import MAX_PARAMETERS

    header = "Content-Type: text/plain; charset=utf-8" + "".join(f"; p{i}=v" for i in range(100_000))
    hostile = ("From: red@example.org\nSubject: x\n" + header + "\n\nhello\n").encode()
    assert len(hostile) > 900_000
    got, peak = _peak(lambda: extract(hostile))
    # 140 s and 627 MB before; now one linear pass: well under 10 times the input's size.
    assert peak < 10 * len(hostile)
    assert got.sender == "red@example.org" and got.texts == [("body", "hello\n")]
    [warning] = got.warnings
    assert "Content-Type header" in warning and "ignored" in warning
    assert MAX_PARAMETERS == 64
    # The signed mail next to it in the same folder is read as usual.
    assert extract(SIGNED_MAIL).texts == [("body", RED_ORDERS)]


def test_too_many_parameters_in_a_part_header_drop_only_that_header():
    params = "".join(f"; p{i}=v" for i in range(65))  # MAX_PARAMETERS + 1
    raw = _multipart(
        "Content-Type: text/plain" + params + "\n\nfirst\n",
        "Content-Type: text/plain\nContent-Disposition: attachment; filename=orders.txt\n\n" + RED_ORDERS,
    )
    got = extract(raw)
    assert got.texts == [("body", "first\n"), ("orders.txt", RED_ORDERS)]
    assert len(got.warnings) == 1 and "65 parameters" in got.warnings[0]


def test_a_header_field_over_16_kib_is_dropped():
    from pbem.mail.prescan import MAX_FIELD_BYTES

    assert MAX_FIELD_BYTES == 16 * 1024
    raw = ("From: red@example.org\nX-Junk: " + "x" * (16 * 1024) + "\n\nbody\n").encode()
    got = extract(raw)
    assert got.texts == [("body", "body\n")] and "X-Junk header" in got.warnings[0]
    fits = ("From: red@example.org\nX-Junk: " + "x" * 1000 + "\n\nbody\n").encode()
    assert extract(fits).warnings == []


def test_mime_nesting_and_part_counts_are_capped_with_a_warning():
    from pbem.mail.parts import MAX_MIME_DEPTH, MAX_PARTS

    depth = 2000  # the stdlib parser recurses once per level: this used to fail outright
    body = "".join(f"--b{i}\nContent-Type: multipart/mixed; boundary=b{i + 1}\n\n" for i in range(depth))
    raw = ("From: red@example.org\nContent-Type: multipart/mixed; boundary=b0\n\n" + body).encode()
    got = extract(raw)
    assert got.sender == "red@example.org"
    assert any(f"more than {MAX_MIME_DEPTH} levels" in w or "more than 64" in w for w in got.warnings)

    parts = "".join(
        f"--b\nContent-Type: text/plain\nContent-Disposition: attachment; filename=f{i}.txt\n\nx\n"
        for i in range(MAX_PARTS + 50)
    )
    got = extract(("Content-Type: multipart/mixed; boundary=b\n\n" + parts + "--b--\n").encode())
    assert len(got.texts) == MAX_PARTS
    assert any(f"more than {MAX_PARTS} parts" in w for w in got.warnings)


def test_raw_bytes_are_kept_for_plain_texts_and_not_for_html():
    raw = _multipart(
        "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
        + base64.b64encode("\ufeffgame: x\r\n".encode()).decode() + "\n",
    )
    got = extract(raw)
    assert got.texts == [("body", "game: x\n")]
    assert got.raw_bytes == {0: b"\xef\xbb\xbfgame: x\r\n"}
    html = extract(_message("Content-Type: text/html", "<p>a</p>"))
    assert html.raw_bytes == {}
