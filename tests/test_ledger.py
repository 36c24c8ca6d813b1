"""Tests of pbem.ledger, the hash-chained public log (DESIGN.md, "The public log"; docs/log.md).

Hashes are recomputed here with hashlib over the exact bytes; tampering is checked through
pbem.verify.verify_log, which must name the first line whose ``prev`` no longer fits.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta, timezone

import pytest

from pbem.dice import Roll
from pbem.ledger import (
    GENESIS,
    HashFormatError,
    Ledger,
    MissingTypeError,
    NotAnObjectError,
    NotJSONError,
    PrevPresentError,
    TimestampError,
    canonical_json,
    dice_commit_line,
    dice_reveal_line,
    hidden_reveal_line,
    line_hash,
    roll_line,
    setup_commitment,
    setup_reveal_line,
    utc_stamp,
)
from pbem.verify import verify_log

AT = "2026-11-29T20:15:00Z"


def make_log(count: int = 8) -> list[str]:
    ledger = Ledger()
    return [ledger.append({"type": "event", "game": "g", "n": i, "text": f"event {i}", "at": AT})
            for i in range(count)]


def chain_errors(lines: list[str]) -> list[str]:
    return [e for e in verify_log(lines).errors if "chain broken" in e]


# --- canonical JSON and hashes ------------------------------------------------------------------

def test_canonical_json_sorts_keys_without_spaces_and_keeps_unicode():
    assert canonical_json({"b": 1, "a": [1, 2, {"d": None, "c": "é"}]}) == '{"a":[1,2,{"c":"é","d":null}],"b":1}'
    # Control characters are escaped: a line never holds a newline.
    assert canonical_json({"t": "a\nb\r\u2028"}) == '{"t":"a\\nb\\r\u2028"}'


def test_canonical_json_refuses_nan():
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})


def test_line_hash_is_sha256_of_utf8_bytes():
    line = '{"type":"event","text":"Ärger"}'
    assert line_hash(line) == hashlib.sha256(line.encode("utf-8")).hexdigest()
    assert line_hash(line.encode("utf-8")) == line_hash(line)
    assert GENESIS == "0" * 64


def test_utc_stamp():
    when = datetime(2026, 11, 29, 21, 15, 0, 999, tzinfo=timezone(timedelta(hours=1)))
    assert utc_stamp(when) == "2026-11-29T20:15:00Z"
    with pytest.raises(TimestampError, match="naive"):
        utc_stamp(datetime(2026, 11, 29))
    assert len(utc_stamp()) == 20 and utc_stamp().endswith("Z")


def test_setup_commitment_is_sha256_of_salt_and_canonical_json():
    salt = bytes(range(16))
    hidden = {"tiles": {"0507": "whale", "0406": "shark"}, "people": [3, 1]}
    text = '{"people":[3,1],"tiles":{"0406":"shark","0507":"whale"}}'
    assert setup_commitment(salt, hidden) == hashlib.sha256(salt + text.encode()).hexdigest()


@pytest.mark.parametrize("hidden", [{9: "a", 10: "b"}, {"x": {1, 2}}, {"x": float("nan")}])
def test_setup_commitment_refuses_what_a_verifier_cannot_rebuild(hidden):
    with pytest.raises(NotJSONError):
        setup_commitment(b"salt", hidden)


# --- the chain ----------------------------------------------------------------------------------

def test_append_chains_lines():
    ledger = Ledger()
    first = {"type": "game-created", "game": "g", "at": AT}
    line1 = ledger.append(first)
    assert json.loads(line1) == {"type": "game-created", "game": "g", "at": AT, "prev": GENESIS}
    assert line1 == canonical_json(json.loads(line1))
    assert first["prev"] == GENESIS  # the dict is given its prev
    line2 = ledger.append({"type": "event", "at": AT})
    assert json.loads(line2)["prev"] == hashlib.sha256(line1.encode()).hexdigest()
    assert ledger.last == hashlib.sha256(line2.encode()).hexdigest()
    assert ledger.count == 2 and "\n" not in line1 + line2


def test_append_adds_at_when_missing():
    line = Ledger().append({"type": "event"})
    at = json.loads(line)["at"]
    parsed = datetime.strptime(at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    assert abs((datetime.now(timezone.utc) - parsed).total_seconds()) < 5


def test_ledger_continues_an_existing_log():
    lines = make_log(3)
    resumed = Ledger(line_hash(lines[-1]))
    more = resumed.append({"type": "event", "at": AT})
    assert verify_log(lines + [more]).ok
    assert Ledger.after(line + "\n" for line in lines).last == hashlib.sha256(lines[-1].encode()).hexdigest()
    assert Ledger.after([]).last == GENESIS


@pytest.mark.parametrize("obj, error, needle", [
    ([1, 2], NotAnObjectError, "expected a dict"),
    ("text", NotAnObjectError, "expected a dict"),
    ({"type": "event", "prev": GENESIS}, PrevPresentError, "already has 'prev'"),
    ({"game": "g"}, MissingTypeError, "no string 'type'"),
    ({"type": "event", "at": "2026-11-29 20:15"}, TimestampError, "ISO 8601 UTC"),
    ({"type": "event", "at": "2026-11-29T20:15:00+00:00"}, TimestampError, "ISO 8601 UTC"),
    ({"type": "event", "x": {1, 2}}, NotJSONError, "cannot be JSON"),
    ({"type": "event", "x": float("inf")}, NotJSONError, "cannot be JSON"),
])
def test_append_refuses(obj, error, needle):
    ledger = Ledger()
    with pytest.raises(error, match=needle):
        ledger.append(obj)
    assert ledger.last == GENESIS and ledger.count == 0
    if isinstance(obj, dict) and error is not PrevPresentError:
        assert "prev" not in obj


def test_appending_the_same_dict_twice_is_refused():
    ledger = Ledger()
    obj = {"type": "event", "at": AT}
    ledger.append(obj)
    with pytest.raises(PrevPresentError):
        ledger.append(obj)


@pytest.mark.parametrize("last", ["0" * 63, "A" * 64, "g" * 64, None])
def test_bad_last_hash(last):
    with pytest.raises(HashFormatError, match="64 lowercase hex"):
        Ledger(last)


# --- tampering, detected by the verifier -----------------------------------------------------------

def test_untouched_log_verifies():
    report = verify_log(make_log())
    assert report.ok and report.lines == 8
    assert report.head == hashlib.sha256(make_log()[-1].encode()).hexdigest()


@pytest.mark.parametrize("k", [1, 4, 7])  # 1-based line numbers; line 8 is the last
def test_changed_byte_is_caught_on_the_next_line(k):
    lines = make_log()
    lines[k - 1] = lines[k - 1].replace(f"event {k - 1}", f"event {k - 1}!")
    errors = chain_errors(lines)
    assert len(errors) == 1
    assert errors[0].startswith(f"log:{k + 1}: chain broken: expected prev = {line_hash(lines[k - 1])} "
                                f"(hash of line {k})")
    assert f"line {k} was changed" in errors[0]


def test_changed_last_line_changes_the_head():
    lines = make_log()
    good_head = verify_log(lines).head
    lines[-1] = lines[-1].replace("event 7", "event 8")
    report = verify_log(lines)
    assert report.ok  # no later line covers it ...
    assert report.head != good_head  # ... but the head hash published elsewhere does


@pytest.mark.parametrize("k", [1, 3, 7])
def test_dropped_line_is_caught_where_it_was(k):
    lines = make_log()
    del lines[k - 1]
    errors = chain_errors(lines)
    assert len(errors) == 1 and errors[0].startswith(f"log:{k}: chain broken")
    if k == 1:
        assert "on the first line" in errors[0] and "were removed" in errors[0]


def test_swapped_lines_are_caught_at_the_first_of_them():
    lines = make_log()
    lines[3], lines[4] = lines[4], lines[3]  # lines 4 and 5
    errors = chain_errors(lines)
    assert [e.split(": ")[0] for e in errors] == ["log:4", "log:5", "log:6"]
    # line 5 (old line 4) follows line 3; line 6 follows old line 5, now line 4.
    assert "that is the hash of line 3" in errors[1]
    assert "that is the hash of line 4" in errors[2]


def test_inserted_line_is_caught():
    lines = make_log()
    forged = json.loads(lines[2])
    forged["text"] = "forged"
    lines.insert(3, canonical_json(forged))  # same prev as line 3, now line 4
    errors = chain_errors(lines)
    assert [e.split(": ")[0] for e in errors] == ["log:4", "log:5"]
    assert "that is the hash of line 2" in errors[0]


def test_line_claiming_to_be_first_is_caught():
    lines = make_log()
    lines.insert(2, Ledger().append({"type": "event", "at": AT}))
    errors = chain_errors(lines)
    assert errors[0].startswith("log:3:") and "claims to be the first" in errors[0]


# --- line builders --------------------------------------------------------------------------------

def test_roll_lines_public_and_hidden():
    roll = Roll(3, 6, 4, "attack on 0708")
    assert roll_line("g", "1.x", roll) == {"type": "roll", "game": "g", "phase": "1.x", "index": 3,
                                           "sides": 6, "value": 4, "why": "attack on 0708"}
    hidden = roll_line("g", "0.setup", roll, hidden=True)
    assert hidden["stream"] == "hidden" and "value" not in hidden


def test_reveal_lines_carry_hex():
    assert dice_reveal_line("g", "1.x", b"\x00\xff", {"red": "n"})["seed"] == "00ff"
    assert hidden_reveal_line("g", b"\x01", [1, 2])["values"] == [1, 2]
    assert setup_reveal_line("g", b"\xab", {"a": 1})["salt"] == "ab"
    assert dice_commit_line("g", "1.x", "c" * 64)["type"] == "dice-commit"
