"""pbem.mail.extract reads the usual forms of Message-ID and Date without the policy's header
objects: what it finds must be what ``email.policy.default`` finds (the header object's
``str`` and ``datetime``, RFC 5322 3.3 and 3.6.4), and any other form goes to that parser."""

from __future__ import annotations

from datetime import timezone
from email import message_from_string, policy

import pytest

from pbem.mail import extract as E

MESSAGE_IDS = [
    "<abc@example.org>", "<20261129201455.GA12345@laptop.example.org>",
    "<a.b.c@d.e>", "<x+y=z/{}|~!#$%&'*^_`-@host-1.example>",
    " <lead@space.example>", "<trail@space.example> ", "<a b@example.org>",
    "<a..b@example.org>", "<.a@example.org>", "<a@[127.0.0.1]>", "<a@b> (comment)",
    "abc@example.org", "<abc@example.org", "<>", "", "<a@b><c@d>", "<\"quoted\"@example.org>",
    "<a@b\r\n c>", "<müller@example.org>",
]

DATES = [
    "Tue, 01 Dec 2026 18:01:03 +0000", "1 Dec 2026 18:01 +0130", "Wed, 31 Dec 2025 23:59:59 -0800",
    "Sun, 31 Feb 2026 10:00:00 +0000", "Tue, 01 Dec 2026 18:01:03 -0000",
    "Tue, 01 Dec 2026 18:01:03 +9999", "Tue, 01 Dec 2026 25:01:03 +0000",
    "Tue, 01 Dec 0000 18:01:03 +0000", "Tue,  1 Dec 2026 18:01:03 +0000",
    "Tue, 01 Dec 2026 18:01:03 GMT", "01 Dec 26 18:01:03 +0000", "yesterday", "",
    "Xyz, 01 Dec 2026 18:01:03 +0000", "Tue, 01 Dec 2026 18:01:03 +0000 (UTC)",
]


def mail(field: str, value: str) -> bytes:
    return (f"From: red@example.org\n{field}: {value}\nSubject: s\n\nbody\n").encode("utf-8")


def expected_id(value: str):
    """What the policy's parser says (extract's rule: the header's str, stripped, if any)."""
    got = message_from_string(f"Message-ID: {value}\n\n", policy=policy.default).get("Message-ID")
    return str(got).strip() or None if got is not None else None


def expected_date(value: str):
    got = message_from_string(f"Date: {value}\n\n", policy=policy.default).get("Date")
    when = getattr(got, "datetime", None)
    if when is None:
        return None
    if when.tzinfo is None:  # -0000: UTC, local zone unknown (RFC 5322 3.3)
        return when.replace(tzinfo=timezone.utc)
    return when.astimezone(timezone.utc)


@pytest.mark.parametrize("value", MESSAGE_IDS)
def test_message_id_is_what_the_policy_reads(value):
    try:
        want = expected_id(value)
    except Exception:  # the stdlib parser fails on it: extract warns and keeps none
        want = None
    assert E.extract(mail("Message-ID", value)).message_id == want


@pytest.mark.parametrize("value", DATES)
def test_date_is_what_the_policy_reads(value):
    got = E.extract(mail("Date", value))
    want = expected_date(value)
    assert got.date == want
    if want is not None:
        assert got.date.tzinfo is timezone.utc
    assert any("Date" in w for w in got.warnings) == (want is None)


def test_the_usual_forms_take_the_short_path():
    msg = E._PARSER.parsebytes(mail("Date", "Tue, 01 Dec 2026 18:01:03 +0000"))
    assert E._plain_date(E._Fields(msg)) is not None
    msg = E._PARSER.parsebytes(mail("Message-ID", "<a.b@c.d>"))
    assert E._plain_message_id(E._Fields(msg)) == "<a.b@c.d>"


@pytest.mark.parametrize("raw", [
    b"From: a@b\nSubject: one\nsubject: two\nSUBJECT: three\nX: y\n\nbody\n",
    b"Date: x\nFrom: a@b\nfrom: c@d\nReturn-Path: <>\nList-Id: l\n\nbody\n",
    b"From: a@b\n\nbody\n",
])
def test_fields_found_once_are_what_message_get_gives(raw):
    """_Fields answers each name as Message.get and raw_items do (the first field of the name,
    compared case-insensitively), for every name of the message and some it lacks."""
    msg = E._PARSER.parsebytes(raw)
    fields = E._Fields(msg)
    names = {k for k, _ in msg.raw_items()} | {"Missing", "list-id", "RETURN-PATH", "subject"}
    for name in names:
        assert fields.get(name) == msg.get(name)
        assert fields.get(name, "") == msg.get(name, "")
        raw_value = next((v for k, v in msg.raw_items() if k.lower() == name.lower()), None)
        assert fields.raw(name) == raw_value


def test_extracted_is_pickled_with_every_field():
    import dataclasses
    import pickle
    from datetime import datetime

    values = {"message_id": "<a@b>", "sender": "a@b", "subject": "s",
              "date": datetime(2026, 12, 1, tzinfo=timezone.utc), "in_reply_to": "<c@d>",
              "auto_submitted": True, "texts": [("body", "t")], "sig_files": [("x.sig", b"s")],
              "warnings": ["w"], "alternates": {0: ["u"]}, "raw_bytes": {0: b"t"}}
    assert {f.name for f in dataclasses.fields(E.Extracted)} == set(values)
    got = pickle.loads(pickle.dumps(E.Extracted(**values), pickle.HIGHEST_PROTOCOL))
    assert {name: getattr(got, name) for name in values} == values
