"""pbem.mail.mimeparams: the text it gives a Content-Type or Content-Disposition value is the
text of ``email.policy.default``'s header object for it (RFC 2045 5.1, RFC 2183, RFC 2231),
on generated values of every shape; the others are left to the stdlib."""

from __future__ import annotations

import random
from email import policy

import pytest

from pbem.mail.extract import extract
from pbem.mail.mimeparams import plain_mime_value

TOKEN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+.^_`|~-"
QUOTED = [chr(c) for c in range(0x20, 0x7F) if chr(c) not in '"\\'] + ["=?", "\\", '"', "\t",
                                                                        "é"]


def generated(seed: int, count: int):
    rng = random.Random(seed)

    def tok():
        return "".join(rng.choice(TOKEN + " =;/\"é") if rng.random() < 0.02
                       else rng.choice(TOKEN) for _ in range(rng.randint(1, 12)))

    def quoted():
        return '"' + "".join(rng.choice(QUOTED) for _ in range(rng.randint(0, 40))) + '"'

    for _ in range(count):
        is_type = rng.random() < 0.5
        value = f"{tok()}/{tok()}" if is_type else tok()
        for _ in range(rng.randint(0, 4)):
            name = "".join(rng.choice("abcAB-09*") for _ in range(rng.randint(0, 6)))
            value += (";" + rng.choice(["", " ", " ", "  "]) + name + "="
                      + (quoted() if rng.random() < 0.6 else tok()))
        if rng.random() < 0.05:
            value += rng.choice([";", " ", "; ", "\r", "(c)"])
        yield ("Content-Type" if is_type else "Content-Disposition"), value


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_text_is_the_policys(seed):
    fast = 0
    for name, value in generated(seed, 20000):
        got = plain_mime_value(name, value)
        if got is None:
            continue
        fast += 1
        assert got == str(policy.default.header_factory(name, value)), value
    assert fast > 3000  # the simple shapes are common among the generated values


@pytest.mark.parametrize("value, text", [
    ('multipart/mixed; boundary="===============1234=="',
     'multipart/mixed; boundary="===============1234=="'),
    ("text/plain;charset=utf-8;format=flowed", 'text/plain; charset="utf-8"; format="flowed"'),
    ("text/plain", "text/plain"),
])
def test_usual_forms(value, text):
    assert plain_mime_value("Content-Type", value) == text


@pytest.mark.parametrize("value", [
    "text/plain; charset*=utf-8''%e2%82%ac", 'text/plain; name="=?utf-8?q?a?="',
    "text/plain; a=1; A=2", 'text/plain; a=""', "text/plain (comment)", "text/plain;\r\n a=1",
    'text/plain; a="x\\"y"', "text / plain",
])
def test_other_forms_go_to_the_stdlib(value):
    assert plain_mime_value("Content-Type", value) is None


def test_other_headers_are_not_touched():
    assert plain_mime_value("Subject", "text/plain") is None


def test_a_multipart_mail_is_read_through_the_short_path():
    raw = (b'From: a@example.org\nMIME-Version: 1.0\n'
           b'Content-Type: multipart/mixed; boundary="b1"\n\n'
           b'--b1\nContent-Type: text/plain; charset="utf-8"\n\nhello\n'
           b'--b1\nContent-Type: text/plain; name="orders.txt"\n'
           b'Content-Disposition: attachment; filename="orders.txt"\n\norders\n--b1--\n')
    got = extract(raw)
    # the line end before a boundary line belongs to the boundary (RFC 2046 5.1.1)
    assert got.texts == [("body", "hello"), ("orders.txt", "orders")]
