"""Counters and stacking rules (pbem/boards/counters.py).

The stacking cases are Escape from Altassar 6.0 (seed 000): "6.2 A maximum of four Trip Nets
and one Spikus soldier, OR one Trip Net and one prisoner/dummy unit, may end the Movement
Phase stacked together"; "6.3 During the Renewal process (10.0), a maximum of two Spikus
soldiers may end the Movement Phase in a hex containing one eliminated prisoner, or one
eliminated Spikus soldier"; "6.5 Signal Posts do not count against the stacking limit"; and
6.1, units otherwise may not stack.
"""

from __future__ import annotations

import copy
import json
import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.boards import Counter, CounterError, CounterType, StackingDataError, StackingRule

ALTASSAR = {
    "patterns": [
        {"soldier": 1, "trip-net": 4},                  # 6.2, first half
        {"prisoner": 1, "trip-net": 1},                 # 6.2, second half
        {"dummy": 1, "trip-net": 1},
        {"tracker": 1}, {"wagon": 1},                   # 6.1: alone
    ],
    "ignored": ["signal-post"],                          # 6.5
    "source": "rulebook 6.1-6.5",
}

# 6.3 allows two soldiers only where a dead unit lies. Patterns give maxima only ({"soldier": 2,
# "dead-prisoner": 1} would also allow two soldiers alone), so a game applies this second rule
# to the hexes that hold a dead unit (docs/combat.md, "Counters and stacking").
RENEWAL = {
    "patterns": [{"soldier": 2, "dead-prisoner": 1}, {"soldier": 2, "dead-soldier": 1}],
    "ignored": ["signal-post"],
    "source": "rulebook 6.3",
}


@pytest.fixture
def rule():
    return StackingRule.from_data(copy.deepcopy(ALTASSAR), "altassar.toml")


# -- counter types -------------------------------------------------------------------------

def test_counter_type_values():
    t = CounterType(kind="tracker", side="spikus", values={"defense": 2, "range": 4}, count=3,
                    source="rulebook 7.6, 7.31")
    assert t.value("range") == 4              # 7.31: Trackers have a range of four hexes
    assert t.value("defense") == 2            # 7.6 example: a Tracker defends with 2
    assert t.value("attack") is None and t.value("attack", 0) == 0
    assert hash(t) == hash(CounterType("tracker", "spikus", {"range": 4, "defense": 2}, 3,
                                       "rulebook 7.6, 7.31"))


def test_counter_type_copies_its_values():
    values = {"range": 3}
    t = CounterType("soldier", "spikus", values, 20, "stand-in: x")
    values["range"] = 9
    assert t.value("range") == 3


@pytest.mark.parametrize("kwargs,quoted", [
    ({"kind": ""}, "''"),
    ({"side": " spikus"}, "' spikus'"),
    ({"values": {"attack": "3"}}, "'3'"),
    ({"values": {"attack": True}}, "True"),
    ({"values": [1, 2]}, "[1, 2]"),
    ({"count": -1}, "-1"),
    ({"source": ""}, "''"),
])
def test_counter_type_refuses_bad_fields(kwargs, quoted):
    args = {"kind": "soldier", "side": "spikus", "values": {"attack": 3}, "count": 2,
            "source": "rulebook 7.31"} | kwargs
    with pytest.raises(CounterError) as err:
        CounterType(**args)
    assert quoted in str(err.value)


# -- counters ------------------------------------------------------------------------------

def test_counter_round_trips_through_json():
    c = Counter("c07", "prisoner", "confederation", "0504", face_up=False)
    d = json.loads(json.dumps(c.to_json()))
    assert d == {"kind": "prisoner", "owner": "confederation", "hex": "0504", "face_up": False}
    assert Counter.from_json("c07", d) == c
    off = Counter("s1", "soldier", "spikus", None)
    assert off.face_up is True
    assert Counter.from_json("s1", off.to_json()) == off
    assert Counter.from_json("s1", {"kind": "soldier", "owner": "spikus", "hex": None}) == off


@pytest.mark.parametrize("d,quoted", [
    ({"kind": "soldier", "owner": "spikus"}, "'hex'"),
    ({"kind": "soldier", "owner": "spikus", "hex": None, "colour": "red"}, "'colour'"),
    ({"kind": "soldier", "owner": "spikus", "hex": "504"}, "'504'"),
    ({"kind": "soldier", "owner": "spikus", "hex": "0504", "face_up": "yes"}, "'yes'"),
    (["soldier"], "['soldier']"),
])
def test_counter_from_json_refuses_bad_state(d, quoted):
    with pytest.raises(CounterError) as err:
        Counter.from_json("s1", d)
    assert quoted in str(err.value) and "'s1'" in str(err.value)


def test_counter_refuses_empty_id():
    with pytest.raises(CounterError, match="''"):
        Counter("", "soldier", "spikus", "0101")


# -- stacking: Altassar 6.0 ------------------------------------------------------------------

@pytest.mark.parametrize("kinds", [
    [],                                                      # an empty hex always fits
    ["soldier"],
    ["soldier", "trip-net", "trip-net", "trip-net", "trip-net"],   # 6.2: four nets + soldier
    ["trip-net", "trip-net", "trip-net"],                    # part of the 6.2 pattern
    ["prisoner", "trip-net"],                                # 6.2: one net + prisoner
    ["trip-net", "dummy"],                                   # order does not matter
    ["soldier", "signal-post"],                              # 6.5
    ["signal-post", "signal-post", "tracker"],
    ["signal-post"],
])
def test_allowed_stacks(rule, kinds):
    assert rule.check(kinds) is None
    assert rule.allows(iter(kinds))


@pytest.mark.parametrize("kinds,quoted", [
    (["soldier", "soldier", "tracker"], "2 soldier + 1 tracker"),
    (["soldier", "soldier"], "2 soldier"),                   # 6.1: no stacking outside 6.3
    (["soldier"] + ["trip-net"] * 5, "1 soldier + 5 trip-net"),   # 6.2: four at most
    (["prisoner", "trip-net", "trip-net"], "1 prisoner + 2 trip-net"),
    (["prisoner", "dummy"], "1 dummy + 1 prisoner"),
    (["soldier", "soldier", "soldier", "dead-soldier"], "1 dead-soldier + 3 soldier"),
    (["tracker", "signal-post", "wagon"], "1 tracker + 1 wagon"),   # signal post not quoted
    (["drystal"], "1 drystal"),                              # a kind no pattern names
])
def test_refused_stacks_are_quoted_with_the_source(rule, kinds, quoted):
    assert rule.check(kinds) == f"{quoted} is not an allowed stack (rulebook 6.1-6.5)"
    assert not rule.allows(kinds)


def test_renewal_rule_for_hexes_with_a_dead_unit(rule):
    renewal = StackingRule.from_data(RENEWAL, "altassar.toml")
    assert renewal.check(["soldier", "soldier", "dead-prisoner"]) is None      # 6.3
    assert renewal.check(["dead-soldier", "soldier", "signal-post"]) is None
    assert renewal.check(["soldier", "soldier", "soldier", "dead-soldier"]) == (
        "1 dead-soldier + 3 soldier is not an allowed stack (rulebook 6.3)")
    assert renewal.check(["soldier", "dead-soldier", "dead-prisoner"]) is not None
    # where no dead unit lies, the main rule refuses the pair
    assert rule.check(["soldier", "soldier"]) is not None


def test_describe(rule):
    small = StackingRule.from_data({"patterns": [{"soldier": 1, "trip-net": 4}],
                                    "ignored": ["signal-post"], "source": "rulebook 6.2"})
    assert small.describe() == ("at most 1 soldier + 4 trip-net; signal-post never counts "
                                "(rulebook 6.2)")
    assert rule.describe().count(", or at most") == len(ALTASSAR["patterns"]) - 1


def test_rule_is_hashable_and_built_directly():
    a = StackingRule(patterns=({"soldier": 1},), ignored=frozenset(), source="rulebook 6.1")
    b = StackingRule.from_data({"patterns": [{"soldier": 1}], "source": "rulebook 6.1"})
    assert a == b and hash(a) == hash(b)
    assert a.ignored == frozenset() and isinstance(a.patterns, tuple)


@given(st.lists(st.sampled_from(["soldier", "trip-net", "prisoner", "dummy", "signal-post",
                                 "tracker"]), max_size=8))
def test_check_agrees_with_counting_by_hand(kinds):
    rule = StackingRule.from_data(copy.deepcopy(ALTASSAR))
    counted = [k for k in kinds if k != "signal-post"]
    n = {k: counted.count(k) for k in set(counted)}
    nets = n.get("trip-net", 0)
    others = {k: v for k, v in n.items() if k != "trip-net"}
    fits = (not others and nets <= 4) or (
        others == {"soldier": 1} and nets <= 4) or (
        len(others) == 1 and list(others.values()) == [1]
        and next(iter(others)) in ("prisoner", "dummy") and nets <= 1) or (
        others == {"tracker": 1} and nets == 0)
    assert (rule.check(kinds) is None) == fits


# -- stacking data errors --------------------------------------------------------------------

def bad(**changes):
    d = copy.deepcopy(ALTASSAR)
    for key, value in changes.items():
        if value is None:
            del d[key]
        else:
            d[key] = value
    with pytest.raises(StackingDataError) as err:
        StackingRule.from_data(d, "altassar.toml")
    return str(err.value)


def test_error_not_a_table():
    with pytest.raises(StackingDataError) as err:
        StackingRule.from_data(["soldier"], "altassar.toml")
    assert str(err.value).startswith("altassar.toml: stacking = ['soldier']: expected a table")


def test_error_unknown_key():
    assert bad(limit=2) == ("altassar.toml: stacking.limit = 2: unknown key: a stacking rule "
                            "has the keys patterns, ignored, source")


def test_error_source():
    assert "stacking.source = None: expected the rule's source" in bad(source=None)
    assert "stacking.source = '  '" in bad(source="  ")


def test_error_patterns():
    assert "stacking.patterns = []: expected a non-empty list" in bad(patterns=[])
    assert "stacking.patterns = None" in bad(patterns=None)
    assert "stacking.patterns[1] = {}: expected a non-empty table" in bad(
        patterns=[{"soldier": 1}, {}])
    assert "stacking.patterns[0] = 'soldier'" in bad(patterns=["soldier"])
    assert "stacking.patterns[0].trip-net = 0: expected a whole number of counters, at " \
           "least 1" in bad(patterns=[{"soldier": 1, "trip-net": 0}])
    assert "stacking.patterns[0].soldier = 1.5" in bad(patterns=[{"soldier": 1.5}])
    assert "stacking.patterns[0].soldier = True" in bad(patterns=[{"soldier": True}])
    assert "stacking.patterns[0] = ''" in bad(patterns=[{"": 1}])
    msg = bad(patterns=[{"soldier": 1}, {"tracker": 1}, {"soldier": 1}])
    assert "stacking.patterns[2] = {'soldier': 1}: the same pattern as stacking.patterns[0]" \
           in msg


def test_error_ignored():
    assert "stacking.ignored = 'signal-post': expected a list of kinds" in bad(
        ignored="signal-post")
    assert "stacking.ignored[1] = 'signal-post': listed twice" in bad(
        ignored=["signal-post", "signal-post"])
    assert "stacking.ignored[0] = 3" in bad(ignored=[3])
    msg = bad(ignored=["trip-net"])
    assert "stacking.ignored[0] = 'trip-net': also counted by stacking.patterns[0]" in msg


def test_error_names_the_given_path():
    with pytest.raises(StackingDataError, match=r"^house rules: rules\.stack\.source = None"):
        StackingRule.from_data({"patterns": [{"a": 1}]}, "house rules", path="rules.stack")


def test_docs_example_loads():
    text = (Path(__file__).parent.parent / "docs" / "combat.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```toml\n(.*?)```", text, re.S) if "[stacking]" in b)
    rule = StackingRule.from_data(tomllib.loads(block)["stacking"], "docs/combat.md")
    assert rule.check(["soldier"] + ["trip-net"] * 4 + ["signal-post"]) is None
    assert rule.check(["soldier", "soldier", "tracker"]) == (
        "2 soldier + 1 tracker is not an allowed stack (rulebook 6.1-6.5)")
