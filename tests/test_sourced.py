"""The sourced-data kit (pbem/engine/sourced.py; issue 9 "The kit": one loader merging house
rules, marking their source, walking sources, declarative checks; GAMES.md "How to handle what
the rulebooks do not say")."""

from __future__ import annotations

import copy

import pytest

from pbem.engine import sourced
from pbem.engine.sourced import (HOUSE_SOURCE, DataError, MergeRules, Row, Table, Value,
                                 merge_house_rules, walk_sources)
from pbem.games.altassar import data as altassar_data
from pbem.games.atlantis import data as atlantis_data

BASE = {
    "people": {"land_capacity": {"value": 3, "source": "rulebook Contents"},
               "per_player": {"value": 10, "source": "rulebook Contents"}},
    "units": {"soldier": {"attack": 3, "defense": 3, "count": 16, "source": "stand-in: x",
                          "sources": {"defense": "rulebook 3.2"}}},
    "crt": {"source": "rulebook 7.71", "columns": ["1-1", "2-1"],
            "rows": [{"die": 1, "results": ["NE", "EX"], "source": "rulebook 7.71"},
                     {"die": 2, "results": ["EX", "DE"], "source": "rulebook 7.71"}],
            "results": {"NE": {"name": "No effect", "source": "rulebook 7.7"}}},
    "manifest": {"boat": {"sand": 3, "source": "rulebook Symbols Under Tiles"}},
}

SCHEMA = Table({
    "people": Table({"land_capacity": Value(sourced.whole(1)),
                     "per_player": Value(sourced.whole(1, 99))}),
    "units": Table({"soldier": Row({"attack": sourced.whole(0, 99),
                                    "defense": sourced.whole(0, 99),
                                    "count": sourced.whole(0, 99)},
                                   sources=("attack", "defense"))}, what="counter kind"),
    "crt": sourced.Delegate(lambda v, origin: None),
    "manifest": Table(rows=Row({}, other=sourced.whole(0)), names=("boat", "vortex"),
                      what="symbol"),
}, what="section")


def merged(house, rules=MergeRules()):
    data = copy.deepcopy(BASE)
    merge_house_rules(data, house, rules)
    return data


# -- merge ------------------------------------------------------------------------------------
def test_a_bare_value_replaces_value_and_is_marked_house_rules():
    data = merged({"people": {"land_capacity": 4}})
    assert data["people"]["land_capacity"] == {"value": 4, "source": HOUSE_SOURCE}
    assert data["people"]["per_player"]["source"] == "rulebook Contents"


def test_a_table_replaces_the_columns_it_names_keeping_a_given_source():
    data = merged({"units": {"soldier": {"count": 12, "source": "errata 1982"}}})
    assert data["units"]["soldier"]["count"] == 12
    assert data["units"]["soldier"]["source"] == "house rules: errata 1982"
    assert data["units"]["soldier"]["attack"] == 3
    data = merged({"people": {"land_capacity": {"value": 5}}})
    assert data["people"]["land_capacity"] == {"value": 5, "source": HOUSE_SOURCE}


def test_an_empty_table_changes_nothing_and_marks_nothing():
    assert merged({"crt": {}}) == BASE


def test_per_value_sources_mark_only_the_value_changed():
    rules = MergeRules(value_sources=("attack", "defense"))
    row = merged({"units": {"soldier": {"attack": 4}}}, rules)["units"]["soldier"]
    assert row["sources"] == {"defense": "rulebook 3.2", "attack": HOUSE_SOURCE}
    assert row["source"] == "stand-in: x"
    row = merged({"units": {"soldier": {"attack": 4, "sources": {"attack": "errata"}}}},
                 rules)["units"]["soldier"]
    assert row["sources"]["attack"] == "house rules: errata" and row["sources"]["defense"] == "rulebook 3.2"
    # a column without a per-value source (count) marks the row: never a silent change
    row = merged({"units": {"soldier": {"count": 10}}}, rules)["units"]["soldier"]
    assert row["source"] == HOUSE_SOURCE


def test_keyed_rows_replace_only_the_rows_they_name():
    rules = MergeRules(keyed_lists={"crt.rows": "die"})
    crt = merged({"crt": {"rows": [{"die": 2, "results": ["DE", "DE"]},
                                   {"die": 0, "results": ["NE", "NE"], "source": "mine"}]}},
                 rules)["crt"]
    assert [r["die"] for r in crt["rows"]] == [0, 1, 2]
    assert [r["source"] for r in crt["rows"]] == ["house rules: mine", "rulebook 7.71", HOUSE_SOURCE]
    assert crt["source"] == "rulebook 7.71"  # the rows carry their own sources
    with pytest.raises(DataError, match=r"^house rules: crt.rows = \[\{'results': \[\]\}\]: "
                                        r"expected a list of rows, each with its 'die'"):
        merged({"crt": {"rows": [{"results": []}]}}, rules)


def test_a_nested_table_of_entries_is_merged_entry_by_entry():
    crt = merged({"crt": {"results": {"NE": {"name": "Nothing"}}}})["crt"]
    assert crt["results"]["NE"] == {"name": "Nothing", "source": HOUSE_SOURCE}
    assert crt["source"] == "rulebook 7.71"


def test_open_tables_take_new_rows_and_columns():
    rules = MergeRules(open_tables={"manifest": ("boat", "vortex")})
    data = merged({"manifest": {"vortex": {"sand": 1}, "boat": {"forest": 2}}}, rules)
    assert data["manifest"]["vortex"] == {"source": HOUSE_SOURCE, "sand": 1}
    assert data["manifest"]["boat"] == {"sand": 3, "source": HOUSE_SOURCE, "forest": 2}
    with pytest.raises(DataError, match="unknown key 'manifest.treasure': expected one of boat"):
        merged({"manifest": {"treasure": {"sand": 1}}}, rules)


@pytest.mark.parametrize("house,message", [
    ({"peeple": {}}, "house rules: unknown key 'peeple': expected one of crt, manifest, "
                     "people, units"),
    ({"units": {"soldier": {"speed": 2}}}, "house rules: unknown key 'units.soldier.speed': "
                                           "expected one of attack, count, defense, source"),
    ({"units": {"soldier": 3}}, "house rules: units.soldier = 3: expected a table of attack, "
                                "defense, count"),
    ({"people": 4}, "house rules: people = 4: expected a table"),
    (["x"], "house rules: the file = ['x']: expected a table"),
])
def test_merge_errors_name_the_key_and_what_was_expected(house, message):
    with pytest.raises(DataError) as err:
        merged(house)
    assert str(err.value) == message


# -- walk -------------------------------------------------------------------------------------
def test_walk_yields_every_sourced_entry_with_its_path_values_and_source():
    walked = list(walk_sources(BASE))
    paths = [e.path for e in walked]
    assert paths == ["people.land_capacity", "people.per_player", "units.soldier",
                     "units.soldier.defense", "crt", "crt.rows[0]", "crt.rows[1]",
                     "crt.results.NE", "manifest.boat"]
    soldier = walked[2]
    assert soldier.values == {"attack": 3, "count": 16} and soldier.source == "stand-in: x"
    assert walked[3].values == {"defense": 3} and walked[3].source == "rulebook 3.2"
    assert walked[4].values == {"columns": ["1-1", "2-1"]}
    assert sourced.show_values(walked[0].values) == "value = 3"


def test_show_entry_and_source_of():
    walked = list(walk_sources(BASE))
    assert sourced.show_entry(walked[0]) == "people.land_capacity: value = 3 (rulebook Contents)"
    assert sourced.show_entry(walked[2], lambda v: f"<{v}>") == (
        "units.soldier: attack = <3>, count = <16> (stand-in: x)")
    assert sourced.show_entry(sourced.Sourced("crt.rows[0].5", {}, "errata")) == (
        "crt.rows[0].5: errata")
    soldier = BASE["units"]["soldier"]
    assert sourced.source_of(soldier, "defense") == "rulebook 3.2"
    assert sourced.source_of(soldier, "attack") == "stand-in: x"
    assert sourced.source_of({"die": 1}, "1-1", "rulebook 7.71") == "rulebook 7.71"


def test_walk_finds_every_stand_in_of_both_games():
    """GAMES.md: the setup report lists every stand-in in force; the walk finds them."""
    for game in (atlantis_data, altassar_data):
        walked = list(walk_sources(game.load_data()))
        assert walked and all(isinstance(e.source, str) and e.source for e in walked)
        assert any(e.source.startswith("stand-in") for e in walked)
    crt_rows = [e for e in walk_sources(altassar_data.load_data()) if e.path.startswith("crt.rows")]
    assert len(crt_rows) == 6 + 2  # six die rows, two per-column sources (5 and 6 at 1-2)


# -- declarative checks -----------------------------------------------------------------------
def test_the_base_table_fits_its_schema():
    sourced.check(BASE, SCHEMA, "data.toml")


@pytest.mark.parametrize("change,message", [
    (lambda d: d["people"]["land_capacity"].update(value=0),
     "house rules: people.land_capacity.value = 0: expected a whole number at least 1"),
    (lambda d: d["people"]["per_player"].update(value=True),
     "house rules: people.per_player.value = True: expected a whole number from 1 to 99"),
    (lambda d: d["people"]["per_player"].update(note="x"),
     "house rules: people.per_player = {'value': 10, 'source': 'rulebook Contents', "
     "'note': 'x'}: unknown keys ['note']: expected value and source"),
    (lambda d: d["people"]["per_player"].update(source=""),
     "house rules: people.per_player.source = '': expected a non-empty string"),
    (lambda d: d["people"].pop("per_player"),
     "house rules: people.per_player = None: expected a table { value = ..., source = \"...\" }"),
    (lambda d: d.update(extra={}),
     "house rules: extra = '...': unknown section: expected one of people, units, crt, manifest"),
    (lambda d: d["units"].update(ogre={"attack": 1}),
     "house rules: units.ogre = '...': unknown counter kind: expected one of soldier"),
    (lambda d: d["units"]["soldier"].update(speed=1),
     "house rules: units.soldier.speed = 1: unknown key: expected one of attack, defense, "
     "count, source, sources"),
    (lambda d: d["units"]["soldier"].update(attack=-1),
     "house rules: units.soldier.attack = -1: expected a whole number from 0 to 99"),
    (lambda d: d["units"]["soldier"].pop("count"),
     "house rules: units.soldier.count = None: expected a whole number from 0 to 99"),
    (lambda d: d["units"]["soldier"]["sources"].update(count="x"),
     "house rules: units.soldier.sources.count = 'x': expected one of attack, defense naming a "
     "non-empty source"),
    (lambda d: d["units"].update(soldier=3),
     "house rules: units.soldier = 3: expected a table { attack = ..., defense = ..., "
     "count = ..., source = ..., sources = ... }"),
    (lambda d: d["manifest"]["boat"].update(sand="3"),
     "house rules: manifest.boat.sand = '3': expected a whole number at least 0"),
    (lambda d: d["manifest"].update(treasure={"sand": 1, "source": "x"}),
     "house rules: manifest.treasure = '...': unknown symbol: expected one of boat, vortex"),
])
def test_check_errors_name_origin_path_value_and_expectation(change, message):
    data = copy.deepcopy(BASE)
    change(data)
    with pytest.raises(DataError) as err:
        sourced.check(data, SCHEMA, "house rules")
    assert str(err.value) == message


def test_table_missing_message_and_delegate_errors():
    schema = Table({"rules": Table({"turns": Value(sourced.whole(1))}, missing="missing")})
    with pytest.raises(DataError, match=r"^data.toml: rules.turns = None: missing$"):
        sourced.check({"rules": {}}, schema, "data.toml")

    def judge(value, origin):
        raise ValueError(f"{origin}: crt.columns = {value!r}: expected odds")

    with pytest.raises(DataError, match=r"^house rules: crt.columns = 3: expected odds$"):
        sourced.check({"crt": 3}, Table({"crt": sourced.Delegate(judge)}), "house rules")


@pytest.mark.parametrize("checker,good,bad,why", [
    (sourced.whole(-6, 6, "a column shift"), -6, 7, "expected a column shift from -6 to 6"),
    (sourced.whole(hi=6), -100, 7, "expected a whole number at most 6"),
    (sourced.text, "x", "", "expected a non-empty string"),
    (sourced.boolean, False, 0, "expected true or false"),
    (sourced.one_of(("ends", "none")), "none", "erupts", "expected one of ends, none"),
    (sourced.one_of((1, 2)), 1, True, "expected one of 1, 2"),
    (sourced.equals("spikus"), "spikus", "confederation", "expected 'spikus'"),
    (sourced.list_of(sourced.text, "distinct kinds", distinct=True), ["a", "b"], ["a", "a"],
     "expected distinct kinds"),
    (sourced.list_of(sourced.whole(0), "2 numbers", least=2, most=2), [0, 1], [0],
     "expected 2 numbers"),
    (sourced.described(sourced.one_of(("A", "B")), "an Attack Rating: A, B"), "B", "D",
     "expected an Attack Rating: A, B"),
    (sourced.described(sourced.equals(0), "0: a Battery has no Movement Rating"), 0, False,
     "expected 0: a Battery has no Movement Rating"),
])
def test_checkers(checker, good, bad, why):
    assert checker(good) is None
    assert checker(bad) == why


# -- loading ----------------------------------------------------------------------------------
def test_load_sourced_checks_the_file_then_the_merge_with_their_origins():
    text = '[goal]\nvalue = 20\nsource = "stand-in: x"\n'
    schema = Table({"goal": Value(sourced.whole(1))})

    def judge(data, origin):
        sourced.check(data, schema, origin)

    assert sourced.load_sourced(text, None, judge) == {"goal": {"value": 20,
                                                                "source": "stand-in: x"}}
    assert sourced.load_sourced(text, {"goal": 30}, judge)["goal"]["source"] == HOUSE_SOURCE
    with pytest.raises(DataError, match=r"^house rules: goal.value = 0: "):
        sourced.load_sourced(text, {"goal": 0}, judge)
    with pytest.raises(DataError, match=r"^data.toml: goal.value = 0: "):
        sourced.load_sourced(text.replace("20", "0"), {"goal": 5}, judge)


def test_the_games_and_the_ruleset_base_share_one_error_class():
    from pbem.engine import ruleset

    assert atlantis_data.DataError is altassar_data.DataError is ruleset.DataError is DataError
    assert atlantis_data.HOUSE_SOURCE == altassar_data.HOUSE_SOURCE == ruleset.HOUSE_SOURCE


def test_a_ruleset_with_a_schema_checks_its_data_by_default():
    """The Ruleset defaults delegate to the kit: ``data_schema`` and ``data_merge``."""
    from pbem.engine.ruleset import Ruleset

    class Tiny(Ruleset):
        name, title, min_roles, max_roles, role_names = "tiny", "Tiny", 1, 1, ("a",)
        data_file = None
        map_file = None
        data_schema = Table({})
        setup = window = parse = check = resolve = view = outcome = dump = load = None
        template = None

    Tiny.__abstractmethods__ = frozenset()
    tiny = Tiny()
    assert tiny.load_data(None) == {}
    with pytest.raises(DataError, match="unknown key 'x': expected one of nothing"):
        tiny.load_data({"x": 1})
    with pytest.raises(DataError, match=r"^data.toml: x = 1: unknown key: expected one of nothing$"):
        tiny.check_data({"x": 1}, "data.toml")


def test_a_house_rule_with_its_own_source_is_still_marked_as_a_house_rule():
    """A bug found by a referee's trial: `[pieces.laser] range = 5, source = "club rule"` was
    missing from the setup report's list of house rules in force, which keeps only sources
    marked stand-in or house rules. The merge now keeps the referee's words after the mark."""
    data = {"pieces": {"laser": {"range": 6, "source": "stand-in: a guess"}},
            "rules": {"limit": {"value": 20, "source": "rulebook"}}}
    sourced.merge_house_rules(data, {"pieces": {"laser": {"range": 5, "source": "club rule"}},
                                     "rules": {"limit": 3}})
    assert data["pieces"]["laser"]["source"] == "house rules: club rule"
    assert data["rules"]["limit"]["source"] == "house rules"
    assert all(sourced.in_force(e.source) for e in sourced.walk_sources(data))
    assert not sourced.in_force("rulebook How to Attack")


def test_booleans_are_shown_as_the_data_file_writes_them():
    assert sourced.show_values({"default": False, "on": True, "n": 3}) == \
        "default = false, on = true, n = 3"


def test_a_table_memo_builds_once_per_table_object_and_per_content():
    """sourced.TableMemo (the games' typed Rules): the same object, or the same content read
    back from JSON, gives the value built before; other content builds anew."""
    import json

    built = []
    memo = sourced.TableMemo(lambda d: built.append(d) or len(built))
    table = {"rules": {"limit": {"value": 20, "source": "rulebook"}}}
    assert memo(table) == memo(table) == memo(json.loads(json.dumps(table))) == 1
    assert memo({"rules": {"limit": {"value": 3, "source": "house rules"}}}) == 2
    assert len(built) == 2


def test_a_table_memo_builds_once_per_content_and_keeps_at_most_its_size():
    """TableMemo: the same table object, or an equal one read back from JSON, gives the value
    built the first time; another content is built anew; only ``size`` contents are kept."""
    import json

    from pbem.engine.sourced import TableMemo

    built = []
    memo = TableMemo(lambda d: built.append(json.dumps(d, sort_keys=True)) or len(built), size=2)
    a = {"units": {"soldier": {"attack": 3, "source": "7.1"}}}
    assert memo(a) == 1 and memo(a) == 1
    assert memo(json.loads(json.dumps(a))) == 1  # equal content, another object
    b = {"units": {"soldier": {"attack": 4, "source": "7.1"}}}
    assert memo(b) == 2 and memo(json.loads(json.dumps(a))) == 1
    c = {"units": {}}
    assert memo(c) == 3  # a and b were kept; c pushes out b (used least lately)
    assert memo(a) == 1 and memo(b) == 4
    assert built == [json.dumps(x, sort_keys=True) for x in (a, b, c, b)]
