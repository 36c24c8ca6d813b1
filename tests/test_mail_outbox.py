"""Tests of pbem.mail.outbox.write_eml: names, content, atomic writing, errors."""

from __future__ import annotations

import hashlib
import os
import stat
from datetime import datetime, timedelta, timezone

import pytest

from pbem.mail import outbox
from pbem.mail.errors import OutboxWriteError
from pbem.mail.outbox import write_eml

WHEN = datetime(2026, 11, 29, 20, 15, 0, tzinfo=timezone.utc)
DATA = b"From: referee@example.net\r\nTo: red@example.org\r\nSubject: report\r\n\r\nhello\r\n"


def test_name_content_and_folder_creation(tmp_path):
    folder = tmp_path / "outbox" / "deep"
    path = write_eml(folder, "red-report", DATA, now=WHEN)
    digest = hashlib.sha256(DATA).hexdigest()[:12]
    assert path == folder / f"20261129T201500Z-red-report-{digest}.eml"
    assert path.read_bytes() == DATA
    assert os.listdir(folder) == [path.name]  # no temporary file left behind


def test_file_is_private_to_the_owner(tmp_path):
    path = write_eml(tmp_path, "x", DATA, now=WHEN)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_names_sort_in_queue_order(tmp_path):
    later = write_eml(tmp_path, "zzz", b"2", now=WHEN + timedelta(seconds=1))
    earlier = write_eml(tmp_path, "aaa", b"1", now=WHEN)
    assert sorted(os.listdir(tmp_path)) == [earlier.name, later.name]


def test_same_bytes_same_second_is_the_same_file(tmp_path):
    first = write_eml(tmp_path, "red-report", DATA, now=WHEN)
    again = write_eml(tmp_path, "red-report", DATA, now=WHEN)
    other = write_eml(tmp_path, "red-report", DATA + b"x", now=WHEN)
    assert first == again != other
    assert sorted(os.listdir(tmp_path)) == sorted([first.name, other.name])


def test_time_is_written_in_utc(tmp_path):
    cet = timezone(timedelta(hours=1))
    path = write_eml(tmp_path, "x", DATA, now=datetime(2026, 11, 29, 21, 15, tzinfo=cet))
    assert path.name.startswith("20261129T201500Z-")


@pytest.mark.parametrize(
    "hint, expected",
    [
        ("atl-7 red report", "atl-7-red-report"),
        ("../../etc/passwd", "etc-passwd"),
        ("Rôle: rouge!", "R-le-rouge"),
        ("", "mail"),
        ("...", "mail"),
        ("x" * 100, "x" * 40),
    ],
)
def test_hint_is_made_safe(tmp_path, hint, expected):
    path = write_eml(tmp_path, hint, DATA, now=WHEN)
    assert path.parent == tmp_path
    assert path.name == f"20261129T201500Z-{expected}-{hashlib.sha256(DATA).hexdigest()[:12]}.eml"


def test_folder_that_is_a_file_raises(tmp_path):
    blocker = tmp_path / "outbox"
    blocker.write_bytes(b"")
    with pytest.raises(OutboxWriteError) as caught:
        write_eml(blocker, "x", DATA)
    assert str(blocker) in str(caught.value)


def test_failed_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    def full_disk(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outbox.os, "replace", full_disk)
    with pytest.raises(OutboxWriteError, match="No space left on device"):
        write_eml(tmp_path, "x", DATA, now=WHEN)
    assert os.listdir(tmp_path) == []
