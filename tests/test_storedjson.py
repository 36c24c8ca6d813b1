"""pbem.engine.storedjson: orjson for the JSON pbem stores for itself, checked against the
standard library's json (the bytes pbem wrote before it, and the values it reads back)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.engine import storedjson

SCALARS = (st.none() | st.booleans() | st.integers(min_value=-2**63, max_value=2**63 - 1)
           | st.text())
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.text(), inner, max_size=5), max_leaves=40)


def stdlib(value, sort_keys: bool = False) -> bytes:
    """The bytes pbem stored before orjson (reportstore._dump, GameContext.save_state)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"),
                      sort_keys=sort_keys).encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(VALUES, st.booleans())
def test_bytes_are_the_standard_librarys(value, sort_keys):
    assert storedjson.dumps(value, sort_keys=sort_keys) == stdlib(value, sort_keys)


@settings(max_examples=300, deadline=None)
@given(VALUES | st.floats(allow_nan=False, allow_infinity=False))
def test_values_read_back_as_written(value):
    assert storedjson.loads(storedjson.dumps(value)) == value
    assert storedjson.loads(storedjson.dumps(value).decode("utf-8")) == value
    assert storedjson.loads(stdlib(value)) == json.loads(stdlib(value))


def test_what_orjson_refuses_goes_the_standard_librarys_way():
    value = {1: "int key", "big": 2**70, "nested": [{2: None}]}
    assert storedjson.dumps(value) == stdlib(value)
    assert storedjson.loads(storedjson.dumps(value)) == {"1": "int key", "big": 2**70,
                                                        "nested": [{"2": None}]}
    with pytest.raises(TypeError):
        storedjson.dumps({"a": object()})


def test_old_ascii_escaped_json_and_nan_still_read():
    # what json.dumps wrote by default before: non-ASCII escaped, spaces after separators
    assert storedjson.loads(b'{"name": "caf\\u00e9", "n": [1, 2]}') == {"name": "café",
                                                                        "n": [1, 2]}
    assert storedjson.loads('{"x": NaN}')["x"] != storedjson.loads('{"x": NaN}')["x"]


def test_text_that_is_not_json_raises_value_error():
    with pytest.raises(ValueError):
        storedjson.loads(b'{"open": ')
