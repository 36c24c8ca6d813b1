"""JSON for the values pbem stores for itself: a game's state parts, report contexts.

These blobs are read and written by pbem alone (sealed, compressed, or both), several times a
phase, so they go through orjson, which encodes a report context about six times faster
than the standard library and parses it three times faster (issue 11, "a phase in 20 ms";
bench/README.md). What other tools read byte for byte -- the public log's canonical lines
(pbem.ledger.canonical_json), the export -- keeps the standard library.

The bytes are those of ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``
(with ``sort_keys`` when asked) for the values pbem stores: strings, integers, booleans,
null, lists and dicts with string keys. They differ only for floats, written in their
shortest form (``1e16``, not ``1e+16``; the same number either way). A value orjson does not
take (an integer beyond 64 bits, a dict key that is not a string, a tuple key) falls back to
the standard library, which gives the value it always did (a key ``1`` becomes ``"1"``) or
its TypeError. NaN and the infinities, which JSON has no word for, are written as ``null``
(orjson's choice; the standard library would write ``NaN``, which is not JSON either): no
ruleset's state or view holds a float that is not finite.
"""

from __future__ import annotations

import json

import orjson

__all__ = ["dumps", "loads"]

_SORTED = orjson.OPT_SORT_KEYS


def dumps(value, *, sort_keys: bool = False) -> bytes:
    """``value`` (JSON values) as compact UTF-8 JSON bytes, keys in their own order or sorted.
    Raises TypeError for a value JSON cannot hold (an object that is not a JSON value); NaN
    and the infinities become ``null`` (module doc)."""
    try:
        return orjson.dumps(value, option=_SORTED if sort_keys else 0)
    except orjson.JSONEncodeError:  # a non-string key, a huge integer: the stdlib's way
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"),
                          sort_keys=sort_keys).encode("utf-8")


def loads(data: bytes | str):
    """The JSON value of ``data`` (UTF-8 bytes or text). Raises ValueError
    (json.JSONDecodeError) for text that is not JSON."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:  # what the stdlib accepts beyond RFC 8259 (NaN, huge
        return json.loads(data)     # integers), or its own error message
