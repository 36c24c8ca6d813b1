"""HOME/config.toml (docs/mail.md, "Limits that protect the judge, and the settings file"):
every bad file is refused with its path, the line and what was expected."""

import pytest

from pbem.engine.settings import IngestSettings, SettingsError, load_ingest_settings


def write(tmp_path, text):
    (tmp_path / "config.toml").write_text(text, encoding="utf-8")
    return tmp_path


def test_no_file_gives_the_documented_defaults(tmp_path):
    s = load_ingest_settings(tmp_path)
    assert (s.read_seconds, s.read_memory_mb, s.rejections_per_hour) == (10.0, 512, 5)


def test_the_documented_example_is_read(tmp_path):
    s = load_ingest_settings(write(tmp_path, "[ingest]\nread_seconds = 2.5\nread_memory_mb = 256\n"
                                             "rejections_per_hour = 0\n"))
    assert s == IngestSettings(2.5, 256, 0)


@pytest.mark.parametrize("text, expected", [
    ("[ingest]\nread_seconds = = 3\n", "line 2"),  # TOML's own message gives the line
    ("[ingest]\n\nfoo = 1\n", "line 3: [ingest] foo: no such setting"),
    ("[injest]\nread_seconds = 1\n", "line 1: no settings table [injest]"),
    ("[ingest]\nread_seconds = \"ten\"\n", 'line 2: [ingest] read_seconds = "ten": expected a '
                                           "number of seconds"),
    ("[ingest]\nrejections_per_hour = true\n", "line 2: [ingest] rejections_per_hour = true: "
                                               "expected a whole number from 0 to 1,000,000"),
    ("[ingest]\nread_memory_mb = 0\n", "expected a whole number from 1 to 1,000,000"),
])
def test_a_bad_file_names_the_file_the_line_and_what_was_expected(tmp_path, text, expected):
    home = write(tmp_path, text)
    with pytest.raises(SettingsError) as e:
        load_ingest_settings(home)
    assert str(e.value).startswith(str(home / "config.toml"))
    assert expected in str(e.value)
