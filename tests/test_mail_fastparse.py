"""pbem.mail.fastparse: for every message it builds, the tree is the one the standard
``email`` parser builds (same message class, header pairs, payloads, preambles, epilogues,
default types, no defects); anything else it leaves to the stdlib (answers None). Checked on
generated messages aimed at the edges of the shapes it takes (line ends, folding, boundary
lines with and without ``--`` and white space, preambles and epilogues, nesting, parts
missing their boundaries, ``message/*`` parts, digests, envelope lines), on the fuzz corpus's
generator and on the mail forms of real clients."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail import fastparse
from pbem.mail.clients import FORMS, order_mail
from pbem.mail.extract import _PARSER, _POLICY, extract

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "300"))


def same_tree(fast, slow, where="message") -> None:
    """Assert that two parsed messages are alike in everything the parser sets."""
    assert type(fast) is type(slow), where
    assert fast.policy is slow.policy, where
    assert fast._headers == slow._headers, where
    assert fast._unixfrom == slow._unixfrom, where
    assert fast._charset == slow._charset, where
    assert fast.preamble == slow.preamble, where
    assert fast.epilogue == slow.epilogue, where
    assert fast._default_type == slow._default_type, where
    assert [type(d) for d in fast.defects] == [type(d) for d in slow.defects] == [], where
    if isinstance(slow._payload, list):
        assert isinstance(fast._payload, list), where
        assert len(fast._payload) == len(slow._payload), where
        for i, (a, b) in enumerate(zip(fast._payload, slow._payload)):
            same_tree(a, b, f"{where}/{i}")
    else:
        assert fast._payload == slow._payload, where


def has_defects(msg) -> bool:
    if msg.defects:
        return True
    payload = msg._payload
    return isinstance(payload, list) and any(has_defects(p) for p in payload)


def check(raw: bytes) -> bool:
    """Compare on ``raw``; True when the fast path took it."""
    fast = fastparse.parse(raw, _POLICY)
    slow = _PARSER.parsebytes(raw)
    if fast is None:
        return False
    assert not has_defects(slow)
    same_tree(fast, slow)
    return True


NAMES = ["Subject", "From", "X-Thing", "MIME-Version", "a", "X:Y", "x-\x21~"]
BAD_NAMES = ["Bad Name", "", "From ", "--b", "Ü", "X\x7f", "Content-Transfer-Encoding"]
VALUES = ["hello", "", " lead", "trail  ", "a:b:c", "=?utf-8?q?a?=", "\udcff", "x\ty", "é",
          "7bit", "8bit", "base64", "quoted-printable"]
LEAF_TYPES = ["text/plain", "text/plain; charset=utf-8", "text/html", "application/octet-stream",
              None]
ODD_TYPES = ["multipart/mixed", "message/rfc822", "message/delivery-status", "text",
             "multipart/digest; boundary=b"]
MULTI_TYPES = ["multipart/mixed", "multipart/alternative", "multipart/signed"]
BOUNDARIES = ["b", "b1", "=_x", "===============1234=="]
ODD_BOUNDARIES = ["a:b", "b--", "a b", "(x)", "", "b\\c"]
LINE_TAILS = ["", " ", "\t", "  "]
ODD_TAILS = ["--", "  --", "-- ", "--x", "x", "--\t"]
BODY_LINES = ["text", "", "--", "-- ", "--other", "From me", "a=b", "  x",
              "-----BEGIN PBEM ORDERS-----", "\udcfe\udcff", "Content-Type: text/plain"]
ODD_LINES = ["--b", "--b--", "--=_x", "--b1 ", "--b1--", "--b0"]


class Maker:
    """Random messages aimed at the edges of the fast path: mostly well formed, each kind of
    oddity now and then (``odd`` is the chance of each)."""

    def __init__(self, seed: int, odd: float):
        self.rng, self.odd = random.Random(seed), odd

    def pick(self, usual: list, odd: list | None = None):
        if odd and self.rng.random() < self.odd:
            return self.rng.choice(odd)
        return self.rng.choice(usual)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def headers(self, ctype=None, boundary=None) -> list[str]:
        lines = []
        for _ in range(self.rng.randint(0, 4)):
            sep = self.pick([":", ": ", ":\t", ":  "], [" :"])
            line = self.pick(NAMES, BAD_NAMES) + sep + self.pick(VALUES)
            if self.chance(0.2):
                line += "\n" + self.pick([" ", "\t", "  "]) + self.pick(VALUES)
            lines.append(line)
        if ctype is not None:
            if boundary is not None:
                forms = ['; boundary="%s"', ';\n boundary="%s"', '; boundary="%s"; x=y']
                if boundary.isalnum():
                    forms += ["; boundary=%s", "; boundary=%s; charset=x"]
                ctype += self.pick(forms, ["; boundary=%s"]) % boundary
            lines.insert(self.rng.randint(0, len(lines)), "Content-Type: " + ctype)
        if self.chance(self.odd / 2):
            lines.insert(0, self.pick([" folded first", "From someone", ":novalue",
                                       "From x@y Mon Jan  1 00:00:00 2024"]))
        return lines

    def body(self) -> str:
        return "\n".join(self.pick(BODY_LINES, ODD_LINES) for _ in range(self.rng.randint(0, 5)))

    def part(self, depth: int = 0) -> str:
        if depth < 3 and self.chance(0.6 / (1 + depth)):
            return self.multipart(depth)
        head = self.headers(self.pick(LEAF_TYPES, ODD_TYPES))
        if self.chance(0.3):
            head.append("Content-Transfer-Encoding: " + self.pick(["7bit", "base64", "8bit"]))
        if self.chance(self.odd / 3):
            return "\n".join(head)  # no empty line after the headers
        return "\n".join(head) + "\n\n" + self.body()

    def multipart(self, depth: int) -> str:
        boundary = self.pick(BOUNDARIES, ODD_BOUNDARIES) + self.pick(["", str(depth)])
        head = self.headers(self.pick(MULTI_TYPES, ["multipart/digest"]),
                            None if self.chance(self.odd / 3) else boundary)
        if self.chance(self.odd / 3):
            head.append("Content-Transfer-Encoding: base64")
        out = "\n".join(head) + "\n\n"
        if self.chance(0.4):
            out += self.body() + "\n"  # preamble
        for _ in range(self.rng.randint(0 if self.chance(self.odd) else 1, 3)):
            out += "--" + boundary + self.pick(LINE_TAILS, ODD_TAILS) + "\n"
            if self.chance(self.odd / 3):
                out += "--" + boundary + "\n"  # a boundary twice
            out += self.part(depth + 1) + "\n"
        if not self.chance(self.odd / 2):
            out += "--" + boundary + "--" + self.pick(["", " ", "\t"], ["x", "--"])
            if self.chance(0.8):
                out += "\n"
                if self.chance(0.4):
                    out += self.body()  # epilogue
        return out

    def message(self) -> bytes:
        text = self.part()
        ends = self.pick(["lf", "crlf"], ["mixed", "cr"])
        if ends == "crlf":
            text = text.replace("\n", "\r\n")
        elif ends == "mixed":
            text = "".join(c + ("\r" if c == "\n" and self.chance(0.5) else "")
                           for c in text).replace("\n\r", "\r\n")
        elif ends == "cr" and "\n" in text:
            at = text.index("\n")
            text = text[:at] + "\r" + text[at + 1:]
        return text.encode("utf-8", "surrogateescape")


@st.composite
def messages(draw):
    seed = draw(st.integers(0, 2**64))
    return Maker(seed, draw(st.sampled_from([0.0, 0.05, 0.2]))).message()


@settings(max_examples=EXAMPLES * 10, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(messages())
def test_the_tree_is_the_stdlibs(raw):
    check(raw)


def test_the_generated_messages_take_the_fast_path_often():
    """The generator above reaches both sides: most well-formed shapes go fast."""
    taken = 0
    rng = random.Random(5)
    for _ in range(400):
        boundary = rng.choice(["b", "===_1==", "a:b"])
        inner = "Content-Type: text/plain\n\nhello\n--not\n"
        raw = (f'From: a@b\nContent-Type: multipart/mixed; boundary="{boundary}"\n\n'
               + rng.choice(["", "preamble\n"]) + f"--{boundary}\n{inner}\n"
               + f"--{boundary}{rng.choice(['', ' ', chr(9)])}\n{inner}"
               + f"--{boundary}--" + rng.choice(["", "\n", "\nepilogue\n"]))
        if rng.random() < 0.5:
            raw = raw.replace("\n", "\r\n")
        taken += check(raw.encode())
    assert taken == 400


def test_fuzz_corpus():
    """The shapes tests/test_mail_fuzz.py generates (encodings, junk headers, garbage)."""
    from tests.test_mail_fuzz import messages as fuzz_messages

    @settings(max_examples=EXAMPLES, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(fuzz_messages())
    def run(raw):
        check(raw)

    run()


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("sig", [None, b"-----BEGIN SSH SIGNATURE-----\nU1NI\n-----END SSH "
                                       b"SIGNATURE-----\n"])
def test_real_client_forms_go_fast_and_read_the_same(form, sig):
    from datetime import datetime, timezone

    signed = "game: g\nturn: 1\nphase: p\nrole: red\n\nhold\n-- \nme\n"
    raw = order_mail(form, signed=signed, sig=sig, sender="red@example.org",
                     to="ref@example.org", subject="orders",
                     date=datetime(2026, 12, 1, tzinfo=timezone.utc))
    assert check(raw)
    assert check(raw.replace(b"\r\n", b"\n"))
    assert extract(raw).texts


@pytest.mark.parametrize("raw", [
    b"Subject: x\n\nbody",                                   # LF
    b"Subject: x\r\n\r\nbody\r\n",                            # CRLF
    b'Content-Type: multipart/mixed; boundary="b"\n\n--b\n\nx\n--b--\n',  # a part, no headers
])
def test_simple_shapes_go_fast(raw):
    assert check(raw)


@pytest.mark.parametrize("raw", [
    b"Subject: x\rmore\n\nbody",                               # a lone CR
    b"From x@y Mon Jan  1 00:00:00 2024\nSubject: x\n\nbody",  # an envelope line
    b"Subject: x\nnot a header\n\nbody",                       # no separator before the body
    b" folded\nSubject: x\n\nbody",                            # a first line folded
    b'Content-Type: multipart/mixed; boundary="b"\n\nno parts\n',
    b'Content-Type: multipart/mixed; boundary="b"\n\n--b\n\nx\n',  # never closed
    b'Content-Type: multipart/mixed\n\n--b\n\nx\n--b--\n',     # no boundary
    b'Content-Type: multipart/digest; boundary="b"\n\n--b\n\nx\n--b--\n',
    b'Content-Type: message/rfc822\n\nSubject: inner\n\nx\n',
    b'Content-Type: multipart/mixed; boundary="b"\nContent-Transfer-Encoding: base64\n\n'
    b'--b\n\nx\n--b--\n',
    b"Subject: x",                                             # no body at all
])
def test_other_shapes_go_to_the_stdlib(raw):
    assert fastparse.parse(raw, _POLICY) is None
    check(raw)  # and the stdlib reads them as before
