"""pbem.mail.boundary: the multipart boundary line of ``email.feedparser`` matched as the
regular expression it compiles would match it: the regular expression itself is the reference,
on every kind of line (hypothesis), and whole messages parse the same."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.boundary import BoundaryLine, _ReView


def pattern(separator: str) -> str:
    """The pattern as Python 3.11's email.feedparser writes it."""
    return ('(?P<sep>' + re.escape(separator) +
            r')(?P<end>--)?(?P<ws>[ \t]*)(?P<linesep>\r\n|\r|\n)?$')


def same(separator: str, line: str) -> None:
    real = re.compile(pattern(separator)).match(line)
    ours = _ReView().compile(pattern(separator))
    assert isinstance(ours, BoundaryLine)
    mine = ours.match(line)
    assert (real is None) == (mine is None), (separator, line)
    if real is not None:
        for group in (0, "sep", "end", "ws", "linesep"):
            assert mine.group(group) == real.group(group), (separator, line, group)
            assert mine.span(group) == real.span(group), (separator, line, group)
        assert mine.groupdict() == real.groupdict()


PIECES = st.sampled_from(["", "--", " ", "\t", "  \t", "\r\n", "\r", "\n", "x", "-", "\n\n",
                          "\r\n\n", "\r\r", "\n\r", " \n", "--\n", "-- \r\n"])


@settings(max_examples=3000, deadline=None)
@given(separator=st.text(min_size=1, max_size=12).map(lambda b: "--" + b),
       pieces=st.lists(PIECES, max_size=5), extra=st.text(max_size=3))
def test_a_boundary_line_matches_as_the_regular_expression(separator, pieces, extra):
    same(separator, separator + "".join(pieces) + extra)
    same(separator, separator[:-1] + "".join(pieces))
    same(separator, "".join(pieces) + separator)


def test_boundaries_with_characters_regular_expressions_treat_apart():
    for boundary in ["===============8724624055269765629==", "a.b*c+d?(e)[f]{g}|h^$\\", "x\ny",
                     "'()+_,-./:=?", " leading and trailing "]:
        separator = "--" + boundary
        for tail in ["", "--", "--\n", "\r\n", "  \t\r\n", "--  \n\n", "\r\r\n", "x", "-- x"]:
            same(separator, separator + tail)


def test_other_patterns_are_compiled_by_re():
    view = _ReView()
    assert isinstance(view.compile(r"(\r\n|\r|\n)"), re.Pattern)
    assert isinstance(view.compile(pattern("--b"), re.IGNORECASE), re.Pattern)
    assert view.escape("a.b") == re.escape("a.b")


def test_messages_parse_the_same_with_the_boundary_lines():
    """Multipart mail, nested and with a missing close boundary, parsed with the stdlib's own
    compiled patterns and with pbem's: the same structure and payloads."""
    import email
    from email import feedparser, policy

    from pbem.mail.boundary import install

    raw = (b"From: a@b.example\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"o.+ut\"\n"
           b"\npreamble\n--o.+ut\nContent-Type: text/plain\n\nfirst\n--o.+ut  \r\n"
           b"Content-Type: multipart/alternative; boundary=in\n\n--in\nContent-Type: text/plain\n\n"
           b"a--in\n--in--\n--o.+ut\nContent-Type: text/plain\n\nlast, unclosed\n")

    def shape(msg):
        return [(p.get_content_type(), p.get_payload() if not p.is_multipart() else None,
                 [type(d).__name__ for d in p.defects]) for p in msg.walk()]

    install()
    ours = shape(email.message_from_bytes(raw, policy=policy.default))
    saved = feedparser.re
    feedparser.re = re
    try:
        theirs = shape(email.message_from_bytes(raw, policy=policy.default))
    finally:
        feedparser.re = saved
    assert ours == theirs and len(ours) == 5
