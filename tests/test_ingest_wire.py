"""What a reader process sends the judge comes back whole: ReadMessage and Prepared are pickled
by the values of their fields in order (pbem.pickling.by_position); these tests check that
every field, one added later too, comes back."""

from __future__ import annotations

import dataclasses
import pickle
from datetime import datetime, timezone

import pytest

from pbem.engine.headers import OrderHeader
from pbem.engine.prepare import Prepared
from pbem.engine.reader import ReadMessage
from pbem.engine.values import Problem
from pbem.mail.extract import Extracted


def distinct(cls):
    """An instance of the dataclass ``cls`` with a different, non-default value in each field."""
    values = {}
    for n, f in enumerate(dataclasses.fields(cls)):
        values[f.name] = f"value {n}" if f.type in ("str", "str | None") else (n, f.name)
    return cls(**values)


@pytest.mark.parametrize("cls", [ReadMessage, Prepared], ids=lambda c: c.__name__)
def test_every_field_comes_back(cls):
    sent = distinct(cls)
    back = pickle.loads(pickle.dumps(sent, pickle.HIGHEST_PROTOCOL))
    assert type(back) is cls
    for f in dataclasses.fields(cls):
        assert getattr(back, f.name) == getattr(sent, f.name), f.name


def test_a_real_result_comes_back_equal():
    issued = datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)
    header = OrderHeader("g", 1, "dig", "red", "ab" * 16, issued, 9, "SHA256:x", False)
    pre = Prepared(header, "p" * 64, "d" * 64, "s" * 32, "c" * 64, ("hunt", 1, 2, "{}"),
                   [Problem(9, "dig 30", "holes", "holes are numbered 1 to 20")], b"\x01sealed")
    msg = ReadMessage("mail 1", b"", Extracted(sender="red@example.org"), [], "key", "digest",
                      7, False, 120, None, {0: pre})
    assert pickle.loads(pickle.dumps(msg, pickle.HIGHEST_PROTOCOL)) == msg
