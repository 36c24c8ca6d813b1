"""The order header (DESIGN.md, "Signed orders")."""

from datetime import datetime, timezone

import pytest

from pbem.engine.headers import HeaderError, fill_header, format_time, parse_header

GOOD = """game: atl-7
turn: 3
phase: red
role: red
nonce: 5b0f0c9e2d7a4c1e9f3b8a6d2e4f6a8c
issued: 2026-11-29T20:15:00Z

walk red3 0607 0608
sink 0608"""


def test_parse_header_reads_every_field_and_the_body_line():
    h = parse_header(GOOD)
    assert (h.game, h.turn, h.phase, h.role) == ("atl-7", 3, "red", "red")
    assert h.nonce == "5b0f0c9e2d7a4c1e9f3b8a6d2e4f6a8c"
    assert h.issued == datetime(2026, 11, 29, 20, 15, tzinfo=timezone.utc)
    assert GOOD.split("\n")[h.body_line - 1] == "walk red3 0607 0608"


def test_issued_with_offset_is_converted_to_utc():
    h = parse_header(GOOD.replace("2026-11-29T20:15:00Z", "2026-11-29T21:15:00+01:00"))
    assert h.issued == datetime(2026, 11, 29, 20, 15, tzinfo=timezone.utc)


@pytest.mark.parametrize("old,new,line,words", [
    ("turn: 3", "turn: three", 2, "turn: NUMBER"),
    ("nonce: 5b0f0c9e2d7a4c1e9f3b8a6d2e4f6a8c", "nonce: 1234", 5, "16 to 128"),
    ("2026-11-29T20:15:00Z", "2026-11-29T20:15:00", 6, "with a zone"),
    ("2026-11-29T20:15:00Z", "yesterday", 6, "ISO 8601"),
])
def test_bad_values_name_the_line_and_the_expected_form(old, new, line, words):
    with pytest.raises(HeaderError) as e:
        parse_header(GOOD.replace(old, new))
    assert e.value.line == line
    assert words in str(e.value)


def test_missing_fields_are_listed():
    text = "game: atl-7\nturn: 3\nphase: red\nrole: red\n\nsink 0608"
    with pytest.raises(HeaderError) as e:
        parse_header(text)
    assert "'nonce:'" in str(e.value) and "'issued:'" in str(e.value)
    assert "pbem sign" in str(e.value)


def test_repeated_key_is_an_error():
    with pytest.raises(HeaderError) as e:
        parse_header("game: a\ngame: b\n")
    assert e.value.line == 2


def test_fill_header_fills_empty_and_absent_fields_only():
    now = datetime(2026, 11, 29, 20, 15, 7, tzinfo=timezone.utc)
    text = "game: g1\nturn: 1\nphase: setup\nrole: red\nnonce:\n\npeople 0707"
    filled = fill_header(text, now)
    h = parse_header(filled)
    assert h.issued == now.replace(microsecond=0)
    assert len(h.nonce) == 32 and int(h.nonce, 16) >= 0
    assert filled.endswith("\n\npeople 0707")
    # an existing value is kept
    again = fill_header(filled, datetime(2030, 1, 1, tzinfo=timezone.utc))
    assert again == filled


def test_format_time_is_utc_with_z():
    assert format_time(datetime(2026, 1, 2, 3, 4, 5, 999, tzinfo=timezone.utc)) == "2026-01-02T03:04:05Z"


def test_empty_fields_are_named_as_empty_with_the_ssh_hint():
    text = "game: g\nturn: 1\nphase: red\nrole: red\nnonce:\nissued:\n\nsink 0608"
    with pytest.raises(HeaderError) as e:
        parse_header(text)
    assert e.value.line == 5
    assert "'nonce:', 'issued:' are empty" in str(e.value)
    assert "openssl rand -hex 16" in str(e.value)


def test_quoted_order_lines_cannot_hide_or_reorder_text():
    """A problem quotes the order line; control and bidi-override characters are shown as
    escapes (a U+202E would reverse the rest of the line in the reader's mail client)."""
    from pbem.engine.ruleset import Problem, visible

    assert visible("kill\u202eshark\u200b\x07") == "kill\\u202eshark\\u200b\\u0007"
    assert visible("tab\tand é stay") == "tab\tand é stay"
    assert "\u202e" not in str(Problem(9, "standing kill-shark on \u202e", "R", "bad"))
