"""pbem.mail.compose.safe_header_text: the printable-ASCII shortcut gives what the character
by character rule gives (Unicode general categories, docstring), on generated texts."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.compose import _UNSAFE_CATEGORIES, safe_header_text


def by_category(text: str, limit: int) -> str:
    """The rule written out: each unsafe character a space, white space runs one space, cut."""
    out = "".join(" " if unicodedata.category(c) in _UNSAFE_CATEGORIES else c
                  for c in text[:limit * 4])
    out = " ".join(out.split())
    return out if len(out) <= limit else out[:max(0, limit - 3)].rstrip() + "..."


TEXTS = st.one_of(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x7F)),
                  st.text(), st.text(alphabet=" \t\r\n\x0b\x0c\x1f\x7f\x85\u2028\u202eaZ~"))


@settings(max_examples=2000)
@given(TEXTS, st.integers(0, 40))
def test_same_as_the_rule(text, limit):
    assert safe_header_text(text, limit) == by_category(text, limit)


def test_examples():
    assert safe_header_text("atl-bench turn 0 setup", 300) == "atl-bench turn 0 setup"
    assert safe_header_text("a\r\nBcc: x@y", 300) == "a Bcc: x@y"
    assert safe_header_text("x\u202ey", 300) == "x y"
    assert safe_header_text("abcdefgh", 5) == "ab..."
