"""Tests of pbem.mail.flowed.unflow against the rules of RFC 3676.

Each expected value is worked out by hand from the RFC section cited; the property tests at
the end encode text with a small RFC 3676 generator written here (section 4.2 and 4.4) and
check that unflow gives back exactly what was typed.
"""

from __future__ import annotations

import string

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pbem.mail.flowed import unflow


# -- RFC 3676 section 4.1: soft line breaks ------------------------------------------------


def test_line_ending_in_space_is_joined_with_the_next_and_the_space_kept():
    # 4.1: a line ending in SP is flowed; with DelSp=no the SP is part of the text.
    assert unflow("The quick \nbrown fox \njumps.\n") == "The quick brown fox jumps.\n"


def test_line_without_trailing_space_is_fixed():
    assert unflow("game: atl-7\nturn: 3\n") == "game: atl-7\nturn: 3\n"


def test_delsp_yes_deletes_the_space_of_each_soft_break():
    # 4.1/4.2: with DelSp=yes the generator added the SP, so the reader removes it. A word
    # space the writer typed therefore sits before the added one (two spaces).
    assert unflow("two words  \nthird\n", delsp=True) == "two words third\n"
    # ...and a break inside a long word (as DelSp=yes allows, for languages without spaces).
    assert unflow("Donaudampfschiff \nfahrt\n", delsp=True) == "Donaudampfschifffahrt\n"


def test_delsp_no_keeps_the_space_inside_a_word_break():
    assert unflow("Donaudampfschiff \nfahrt\n", delsp=False) == "Donaudampfschiff fahrt\n"


def test_flowed_last_line_ends_the_paragraph():
    # Nothing follows, so the paragraph ends there; with DelSp=yes its added SP goes.
    assert unflow("last words ") == "last words "
    assert unflow("last words ", delsp=True) == "last words"


def test_crlf_line_ends_are_accepted_and_become_lf():
    assert unflow("a \r\nb\r\nc\r\n") == "a b\nc\n"


def test_empty_text_and_no_final_newline():
    assert unflow("") == ""
    assert unflow("one \ntwo") == "one two"


# -- RFC 3676 section 4.4: space-stuffing ---------------------------------------------------


def test_space_stuffing_is_removed():
    # 4.4: the generator stuffs lines starting with SP, ">" or "From "; the reader deletes
    # exactly one leading SP.
    assert unflow(" From 0606 move yellow2\n") == "From 0606 move yellow2\n"
    assert unflow(" >>> not a quote <<<\n") == ">>> not a quote <<<\n"
    assert unflow("  indented by one\n") == " indented by one\n"


def test_stuffed_line_can_also_be_flowed():
    assert unflow(" From here \nto there\n") == "From here to there\n"


# -- RFC 3676 section 4.5: quoting --------------------------------------------------------


def test_quoted_flowed_lines_of_the_same_depth_are_joined():
    assert unflow("> Your orders were \n> accepted.\n") == "> Your orders were accepted.\n"
    assert unflow(">> deep one \n>> deep two\n") == ">> deep one deep two\n"
    assert unflow(">no stuffing \n>here\n") == ">no stuffing here\n"


def test_quote_depth_wins_over_a_soft_break():
    # 4.5: a flowed line followed by a line of another quote depth is treated as fixed.
    assert unflow("> a \n>> b\n") == "> a \n>> b\n"
    assert unflow("> a \n>> b\n", delsp=True) == "> a\n>> b\n"
    assert unflow("unquoted \n> quoted\n") == "unquoted \n> quoted\n"
    assert unflow(">> deep \nshallow\n") == ">> deep \nshallow\n"


def test_quote_marks_are_counted_before_unstuffing():
    # "> > x" is depth 1 with stuffed content "> x" (4.5: quote marks are only the leading ">").
    assert unflow("> > x \n> y\n") == "> > x y\n"


# -- RFC 3676 section 4.3: the Usenet signature separator ---------------------------------


def test_signature_separator_is_never_flowed_nor_joined():
    assert unflow("Bye \n-- \nYellow\n") == "Bye \n-- \nYellow\n"
    assert unflow("Bye  \n-- \nYellow\n", delsp=True) == "Bye \n-- \nYellow\n"


def test_quoted_signature_separator_is_not_flowed():
    assert unflow("> text \n> -- \n> sig\n") == "> text \n> -- \n> sig\n"


def test_stuffed_signature_separator():
    # " -- " unstuffs to "-- ": still the separator (sig-sep = [quote [stuffing]] "--" SP).
    assert unflow("x\n -- \ny\n") == "x\n-- \ny\n"


# -- round trips through a generator written from RFC 3676 sections 4.2 and 4.4 -------------


def _flow(paragraph: str, width: int, delsp: bool) -> list[str]:
    """Encode one paragraph (no LF) as format=flowed lines, as section 4.2 describes."""
    lines: list[str] = []
    if delsp:
        # Cut anywhere; the added SP is the soft-break marker.
        chunks = [paragraph[i : i + width] for i in range(0, len(paragraph), width)] or [""]
        lines = [c + " " for c in chunks[:-1]] + [chunks[-1]]
    else:
        # Cut only after a SP, which stays at the end of the line as the marker.
        rest = paragraph
        while len(rest) > width and " " in rest[1:width]:
            cut = rest.rindex(" ", 1, width) + 1
            if not rest[:cut].strip():
                break
            lines.append(rest[:cut])
            rest = rest[cut:]
        lines.append(rest)
    # The last line of a paragraph must be fixed: a trailing SP there would flow into the
    # next paragraph, so such a paragraph cannot be sent as typed (it is filtered out below).
    return [" " + line if line.startswith((" ", ">", "From ")) else line for line in lines]


_WORDS = st.text(alphabet=string.ascii_letters + string.digits + ">-:", min_size=1, max_size=12)
_PARAGRAPH = st.lists(_WORDS, min_size=0, max_size=12).map(" ".join) | st.sampled_from(
    ["From 0606 move yellow2", ">>> arrow <<<", " leading blank", "-- x"]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_PARAGRAPH, min_size=1, max_size=6), st.integers(5, 30), st.booleans())
def test_unflow_undoes_a_flowed_encoding(paragraphs, width, delsp):
    typed = [p for p in paragraphs if not p.endswith(" ") and p != "-- "]
    lines = [line for p in typed for line in _flow(p, width, delsp)]
    # 4.3: a generator never emits "-- " except as the signature separator.
    assume("-- " not in lines)
    encoded = "\n".join(lines) + "\n"
    assert unflow(encoded, delsp=delsp) == "\n".join(typed) + "\n"
