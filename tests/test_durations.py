import pytest

from pbem.engine.durations import format_duration, parse_duration


@pytest.mark.parametrize("text,seconds", [("72h", 259200), ("3d", 259200), ("90m", 5400),
                                          ("1d12h", 129600), ("3600s", 3600), (" 2H ", 7200)])
def test_parse_duration(text, seconds):
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "72", "h", "-3h", "3 days", "0h", "3h x"])
def test_bad_durations_quote_the_input(text):
    with pytest.raises(ValueError) as e:
        parse_duration(text)
    assert repr(text) in str(e.value)


def test_format_duration_round_trips():
    for s in (60, 5400, 86400, 129600, 259200):
        assert parse_duration(format_duration(s)) == s
