"""The odds-ratio combat results table (pbem/combat, docs/combat.md).

Rulebook values are from Escape from Altassar (seed 000): 7.6 ("drop any fractions"; seven
attacking two is "3-1"; in Cascades, one column right, "4-1"), the 7.71 table (rows 1-3, copied
below from the rulebook) and its footnote ("Treat odds of 1-2 or less as 1-2 and odds of 6-1
or greater as 6-1"), and 5.31 (Cascades: shift 1 column to the right; Hills: 1 to the left).
Olympica (seed 001) 10.1 gives three more worked odds: 30 to 10 is 3-1, 24 to 25 "rounds in
the defender's favor to 1-2", 25 to 8 is 3-1. Rows 4-6 of the Altassar table are missing from
the rulebook; the test table fills them with values of its own, marked as stand-ins.
"""

from __future__ import annotations

import re
from fractions import Fraction
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.combat import (Cell, CombatTable, CombatTableError, OddsError, TableLookupError,
                         format_table, ladder_label, ladder_position, odds_label,
                         odds_position, shift_text)

COLUMNS = ["1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"]

# 7.71 COMBAT RESULTS TABLE, rows 1-3 as printed (seed 000):
# | 1 | NE | NE | NE | NE | EX | EX | ST |
# | 2 | NE | NE | NE | EX | EX | ST | ST |
# | 3 | NE | NE | EX | EX | ST | ST | DE |
RULEBOOK_ROWS = {
    1: ["NE", "NE", "NE", "NE", "EX", "EX", "ST"],
    2: ["NE", "NE", "NE", "EX", "EX", "ST", "ST"],
    3: ["NE", "NE", "EX", "EX", "ST", "ST", "DE"],
}
STAND_IN = "stand-in: the test's own row"
ROW_4 = ["NE", "EX", "EX", "ST", "ST", "DE", "DE"]
ROW_5 = ["EX", "EX", "ST", "ST", "DE", "DE", "DE"]
ROW_6 = ["AE", "ST", "ST", "DE", "DE", "DE", "DE"]


def altassar_data() -> dict:
    rows = [{"die": die, "results": list(r), "source": "rulebook 7.71"}
            for die, r in RULEBOOK_ROWS.items()]
    rows.append({"die": 4, "results": list(ROW_4), "source": STAND_IN})
    rows.append({"die": 5, "results": list(ROW_5), "source": STAND_IN})
    rows.append({"die": 6, "results": list(ROW_6), "source": STAND_IN,
                 "sources": {"1-2": "stand-in: the only AE"}})
    return {
        "source": "rulebook 7.71",
        "columns": list(COLUMNS),
        "rows": rows,
        "results": {
            "NE": {"name": "No effect", "source": "rulebook 7.7"},
            "ST": {"name": "Stun", "source": "rulebook 7.7"},
            "EX": {"name": "Exposed", "source": "rulebook 7.7"},
            "AE": {"name": "Attacker eliminated", "source": "rulebook 7.7"},
            "DE": {"name": "Defender eliminated", "source": "rulebook 7.7"},
        },
    }


@pytest.fixture
def table() -> CombatTable:
    return CombatTable.from_data(altassar_data(), "altassar.toml")


# -- the odds ladder ---------------------------------------------------------------------------

@pytest.mark.parametrize("attack,defense,label", [
    (7, 2, "3-1"),      # Altassar 7.6 example: seven divided by two, fraction dropped
    (2, 3, "1-2"),      # 1.5 to 1 against: rounded in the defender's favour
    (1, 3, "1-3"),
    (13, 2, "6-1"),     # 6.5 dropped to 6
    (8, 1, "8-1"),      # off the Altassar table: no clamp in the label
    (1, 1, "1-1"),
    (5, 5, "1-1"),
    (30, 10, "3-1"),    # Olympica 10.1
    (24, 25, "1-2"),    # Olympica 10.1: "rounds in the defender's favor to 1-2"
    (25, 8, "3-1"),     # Olympica 10.1
    (3, 7, "1-3"),      # 7/3 = 2.33 against, rounded up to 3
])
def test_odds_label(attack, defense, label):
    assert odds_label(attack, defense) == label


def test_ladder_positions_from_the_brief():
    assert [ladder_position(x) for x in ("1-3", "1-2", "1-1", "2-1", "3-1")] == [-1, 0, 1, 2, 3]
    assert [ladder_label(p) for p in (-1, 0, 1, 2, 3)] == ["1-3", "1-2", "1-1", "2-1", "3-1"]
    assert odds_position(7, 2) == 3 and odds_position(2, 3) == 0


@pytest.mark.parametrize("attack,defense,bad", [
    (0, 3, "0"), (3, 0, "0"), (-2, 3, "-2"), (True, 3, "True"), ("7", 2, "'7'"),
    (0.5, 2, "0.5"), (float("nan"), 2, "nan"),
])
def test_odds_refuse_strengths_below_one(attack, defense, bad):
    with pytest.raises(OddsError) as err:
        odds_label(attack, defense)
    assert isinstance(err.value, ValueError)
    assert f"odds of {attack!r} to {defense!r}" in str(err.value) and bad in str(err.value)


@pytest.mark.parametrize("text", ["3-2", "0-1", "1-0", "3:1", " 3-1", "03-1", "", "one"])
def test_ladder_position_refuses_non_labels(text):
    with pytest.raises(ValueError, match=re.escape(repr(text))):
        ladder_position(text)


def test_shift_text():
    assert shift_text(0) == "none"
    assert shift_text(1) == "1 column right"
    assert shift_text(-1) == "1 column left"
    assert shift_text(-2) == "2 columns left"
    assert shift_text(3) == "3 columns right"


# -- the rulebook's cases ------------------------------------------------------------------------

def test_seven_against_two_is_three_to_one(table):
    got = table.lookup(7, 2, 3)
    assert (got.odds, got.column, got.result) == ("3-1", "3-1", "EX")   # 7.71 row 3, 3-1


def test_cascades_shift_one_right_gives_four_to_one(table):
    # 7.6: "If the Spikus Tracker was in a Cascades terrain type hex, the Phasing Player would
    # shift one column to the right and roll on the '4-1' column"
    got = table.lookup(7, 2, 3, shift=1)
    assert (got.odds, got.shifted, got.column) == ("3-1", "4-1", "4-1")
    assert got.result == "ST"                                            # 7.71 row 3, 4-1
    assert got.explain() == "7 to 2 = 3-1, shifted 1 right: 4-1; die 3 -> ST (rulebook 7.71)"


def test_one_against_three_uses_one_to_two(table):
    got = table.lookup(1, 3, 2)
    assert (got.odds, got.column, got.result) == ("1-3", "1-2", "NE")
    assert got.column_clamped
    assert table.column_for(1, 3) == "1-2"


def test_thirteen_against_two_is_six_to_one(table):
    got = table.lookup(13, 2, 3)
    assert (got.odds, got.column, got.result) == ("6-1", "6-1", "DE")
    got = table.lookup(14, 2, 3)                       # 7-1, "6-1 or greater as 6-1"
    assert (got.odds, got.column) == ("7-1", "6-1") and got.column_clamped


def test_shift_comes_before_the_clamp(table):
    # 8-1 shifted one left is 7-1, which the footnote treats as 6-1
    got = table.lookup(8, 1, 1, shift=-1)
    assert (got.odds, got.shifted, got.column, got.result) == ("8-1", "7-1", "6-1", "ST")
    assert got.explain() == ("8 to 1 = 8-1, shifted 1 left: 7-1, treated as 6-1 (the last "
                             "column); die 1 -> ST (rulebook 7.71)")
    # 1-3 shifted one right is 1-2, not the clamped 1-2 shifted to 1-1
    assert table.lookup(1, 3, 3, shift=1).column == "1-2"
    # a shift beyond the table's left end is clamped too
    assert table.lookup(2, 1, 3, shift=-4).column == "1-2"


def test_two_against_three_is_one_to_two(table):
    got = table.lookup(2, 3, 1)
    assert (got.odds, got.column) == ("1-2", "1-2") and not got.column_clamped


def test_rows_one_to_three_are_the_rulebooks(table):
    attack_defense = {"1-2": (1, 2), "1-1": (1, 1), "2-1": (2, 1), "3-1": (3, 1),
                      "4-1": (4, 1), "5-1": (5, 1), "6-1": (6, 1)}
    for die, printed in RULEBOOK_ROWS.items():
        for column, code in zip(COLUMNS, printed):
            assert table.cell(die, column) == Cell(code, "rulebook 7.71")
            got = table.lookup(*attack_defense[column], die)
            assert (got.column, got.row, got.result, got.source) == (
                column, die, code, "rulebook 7.71")


def test_cell_sources(table):
    assert table.cell(4, "3-1") == Cell("ST", STAND_IN)
    assert table.cell(6, "1-2") == Cell("AE", "stand-in: the only AE")   # per-cell override
    assert table.cell(6, "1-1") == Cell("ST", STAND_IN)
    assert table.sources() == ("rulebook 7.71", STAND_IN, "stand-in: the only AE")
    assert table.results["AE"] == "Attacker eliminated"
    assert table.result_sources["DE"] == "rulebook 7.7"
    assert table.columns == tuple(COLUMNS) and table.dice == (1, 2, 3, 4, 5, 6)


def test_row_and_result_sources_default_to_the_tables():
    d = altassar_data()
    del d["rows"][0]["source"]
    del d["results"]["NE"]["source"]
    t = CombatTable.from_data(d)
    assert t.cell(1, "1-2").source == "rulebook 7.71"
    assert t.result_sources["NE"] == "rulebook 7.71"


# -- die modifiers (Altassar 9.3) ------------------------------------------------------------------

def test_modifier_below_the_table_uses_the_first_row(table):
    got = table.lookup(3, 1, 2, modifier=-3)         # 2 - 3 = -1 -> row 1
    assert got.row == 1 and got.result == RULEBOOK_ROWS[1][COLUMNS.index("3-1")]
    assert got.row_clamped
    assert got.explain() == ("3 to 1 = 3-1; die 2 - 3 = -1, treated as 1 (the first row) -> "
                             "NE (rulebook 7.71)")


def test_modifier_above_the_table_uses_the_last_row(table):
    got = table.lookup(3, 1, 5, modifier=4)          # 5 + 4 = 9 -> row 6
    assert got.row == 6 and got.result == ROW_6[COLUMNS.index("3-1")]
    assert got.explain() == ("3 to 1 = 3-1; die 5 + 4 = 9, treated as 6 (the last row) -> DE "
                             f"({STAND_IN})")


def test_modifier_within_the_table(table):
    got = table.lookup(3, 1, 2, modifier=1)
    assert got.row == 3 and got.result == RULEBOOK_ROWS[3][3] and not got.row_clamped
    assert got.explain() == "3 to 1 = 3-1; die 2 + 1 = 3 -> EX (rulebook 7.71)"


def test_unmodified_die_off_the_table_is_refused(table):
    with pytest.raises(TableLookupError, match="die 7 is not a row"):
        table.lookup(3, 1, 7)
    with pytest.raises(TableLookupError, match="die 0 is not a row"):
        table.lookup(3, 1, 0, modifier=1)
    with pytest.raises(TableLookupError, match="modifier 0.5"):
        table.lookup(3, 1, 3, modifier=0.5)
    with pytest.raises(TableLookupError, match="shift '1'"):
        table.lookup(3, 1, 3, shift="1")
    with pytest.raises(TableLookupError, match="'7-1'"):
        table.cell(1, "7-1")
    with pytest.raises(TableLookupError, match="die 9"):
        table.cell(9, "1-1")
    with pytest.raises(OddsError):
        table.lookup(0, 1, 3)


# -- monotony (hypothesis) -----------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.integers(1, 200), st.integers(1, 200), st.integers(1, 50), st.integers(-3, 3))
def test_column_never_decreases_with_attack_nor_increases_with_defense(a, d, more, shift):
    table = CombatTable.from_data(altassar_data())
    here = ladder_position(table.lookup(a, d, 1, shift=shift).column)
    assert ladder_position(table.lookup(a + more, d, 1, shift=shift).column) >= here
    assert ladder_position(table.lookup(a, d + more, 1, shift=shift).column) <= here


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 100), st.integers(1, 100))
def test_odds_are_the_best_label_not_above_the_true_ratio(a, d):
    # Fractions dropped in the defender's favour: the label's ratio is never better for the
    # attacker than the true ratio a/d, and the next label up the ladder would be.
    def ratio(position):
        return Fraction(position) if position >= 1 else Fraction(1, 2 - position)

    p = odds_position(a, d)
    assert ratio(p) <= Fraction(a, d) < ratio(p + 1)


# -- from_data errors ---------------------------------------------------------------------------

def error_of(d, path="crt") -> str:
    with pytest.raises(CombatTableError) as err:
        CombatTable.from_data(d, "altassar.toml", path=path)
    assert isinstance(err.value, ValueError)
    return str(err.value)


def changed(fn) -> dict:
    d = altassar_data()
    fn(d)
    return d


def test_error_not_a_table():
    assert error_of([1, 2]) == ("altassar.toml: crt = [1, 2]: expected a table with source, "
                                "columns, rows and results")


def test_error_unknown_key():
    assert error_of(changed(lambda d: d.update(footnote="x"))) == (
        "altassar.toml: crt.footnote = 'x': unknown key: a combat results table has the keys "
        "source, columns, rows, results, title, note")
    msg = error_of(changed(lambda d: d["rows"][2].update(sorce="x")))
    assert msg.startswith("altassar.toml: crt.rows[2].sorce = 'x': unknown key: a row has "
                          "the keys die, results, source, sources")
    msg = error_of(changed(lambda d: d["results"]["NE"].update(text="x")))
    assert msg.startswith("altassar.toml: crt.results.NE.text = 'x': unknown key")


def test_error_source():
    assert error_of(changed(lambda d: d.pop("source"))).startswith(
        "altassar.toml: crt.source = None: expected the table's source as text")
    assert "crt.source = ''" in error_of(changed(lambda d: d.update(source="")))
    assert "crt.title = 3: expected text" in error_of(changed(lambda d: d.update(title=3)))
    assert "crt.rows[4].source = 7: expected text" in error_of(
        changed(lambda d: d["rows"][4].update(source=7)))


def test_error_columns_missing_or_empty():
    assert "crt.columns = None: expected a non-empty list of odds labels" in error_of(
        changed(lambda d: d.pop("columns")))
    assert "crt.columns = []" in error_of(changed(lambda d: d.update(columns=[])))


def test_error_column_not_an_odds_label():
    msg = error_of(changed(lambda d: d["columns"].__setitem__(3, "3:1")))
    assert msg == ("altassar.toml: crt.columns[3] = '3:1': not an odds label: expected \"n-1\" "
                   "or \"1-n\" with n a whole number from 1, such as \"3-1\", \"1-1\" or "
                   "\"1-2\"")
    assert "crt.columns[0] = '0-1'" in error_of(
        changed(lambda d: d["columns"].__setitem__(0, "0-1")))
    assert "crt.columns[2] = 2" in error_of(changed(lambda d: d["columns"].__setitem__(2, 2)))


def test_error_column_twice():
    msg = error_of(changed(lambda d: d.update(columns=["1-1", "2-1", "1-1"])))
    assert msg.startswith("altassar.toml: crt.columns[2] = '1-1': listed twice (also "
                          "crt.columns[0])")


def test_error_columns_not_consecutive():
    msg = error_of(changed(lambda d: d["columns"].remove("4-1")))
    assert msg.startswith("altassar.toml: crt.columns[4] = '5-1': expected '4-1' after '3-1'")
    msg = error_of(changed(lambda d: d.update(columns=list(reversed(COLUMNS)))))
    assert "crt.columns[1] = '5-1': expected '7-1' after '6-1'" in msg


def test_error_results_table():
    assert "crt.results = {}: expected a table of result code" in error_of(
        changed(lambda d: d.update(results={})))
    assert "crt.results = 'N E': not a result code" in error_of(
        changed(lambda d: d["results"].update({"N E": {"name": "x"}})))
    assert "crt.results = 'ABCDEFGHIJK': not a result code: expected a code of 1 to 10" in \
        error_of(changed(lambda d: d["results"].update({"ABCDEFGHIJK": {"name": "x"}})))
    assert "crt.results.NE = 'No effect': expected { name" in error_of(
        changed(lambda d: d["results"].update(NE="No effect")))
    assert "crt.results.ST.name = None: expected the result's name" in error_of(
        changed(lambda d: d["results"]["ST"].pop("name")))
    assert "crt.results.ST.source = ''" in error_of(
        changed(lambda d: d["results"]["ST"].update(source="")))


def test_error_rows_missing_or_empty():
    assert "crt.rows = []: expected a non-empty list of rows" in error_of(
        changed(lambda d: d.update(rows=[])))
    assert "crt.rows[1] = 'NE NE': expected a table" in error_of(
        changed(lambda d: d["rows"].__setitem__(1, "NE NE")))


def test_error_die_not_whole():
    assert "crt.rows[0].die = None: expected the row's die value as a whole number" in \
        error_of(changed(lambda d: d["rows"][0].pop("die")))
    assert "crt.rows[0].die = 1.0" in error_of(changed(lambda d: d["rows"][0].update(die=1.0)))
    assert "crt.rows[0].die = True" in error_of(changed(lambda d: d["rows"][0].update(die=True)))


def test_error_die_twice():
    msg = error_of(changed(lambda d: d["rows"][3].update(die=2)))
    assert msg == ("altassar.toml: crt.rows[3].die = 2: given twice (also crt.rows[1]): "
                   "expected each die value once")


def test_error_dice_not_consecutive():
    msg = error_of(changed(lambda d: d["rows"].pop(3)))      # no die 4
    assert msg == ("altassar.toml: crt.rows = [1, 2, 3, 5, 6]: die values jump from 3 to 5: "
                   "expected consecutive die values (missing 4)")


def test_rows_in_any_order():
    d = changed(lambda d: d["rows"].reverse())
    t = CombatTable.from_data(d)
    assert t.dice == (1, 2, 3, 4, 5, 6) and t.cell(1, "6-1").result == "ST"


def test_error_row_length():
    msg = error_of(changed(lambda d: d["rows"][1]["results"].pop()))
    assert msg == ("altassar.toml: crt.rows[1].results = ['NE', 'NE', 'NE', 'EX', 'EX', 'ST']: "
                   "expected a list of 7 result codes, one per column (1-2, 1-1, 2-1, 3-1, "
                   "4-1, 5-1, 6-1)")
    assert "crt.rows[1].results = None" in error_of(
        changed(lambda d: d["rows"][1].pop("results")))


def test_error_unknown_result_code():
    msg = error_of(changed(lambda d: d["rows"][3]["results"].__setitem__(2, "XX")))
    assert msg == ("altassar.toml: crt.rows[3].results[2] = 'XX': not a result code: expected "
                   "one of AE, DE, EX, NE, ST (the codes of crt.results)")
    assert "crt.rows[0].results[6] = ['ST']: not a result code" in error_of(
        changed(lambda d: d["rows"][0]["results"].__setitem__(6, ["ST"])))


def test_error_cell_sources():
    msg = error_of(changed(lambda d: d["rows"][5]["sources"].update({"7-1": "x"})))
    assert msg.startswith("altassar.toml: crt.rows[5].sources = '7-1': not a column of the "
                          "table: expected one of 1-2, 1-1")
    assert "crt.rows[5].sources.1-2 = ''" in error_of(
        changed(lambda d: d["rows"][5]["sources"].update({"1-2": ""})))
    assert "crt.rows[5].sources = ['1-2']" in error_of(
        changed(lambda d: d["rows"][5].update(sources=["1-2"])))


def test_error_path_is_the_callers():
    msg = error_of(changed(lambda d: d["rows"][3]["results"].__setitem__(2, "XX")),
                   path="combat.table")
    assert msg.startswith("altassar.toml: combat.table.rows[3].results[2] = 'XX'")


# -- TOML and the documented example -----------------------------------------------------------

def docs_example() -> str:
    text = (Path(__file__).parent.parent / "docs" / "combat.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```toml\n(.*?)```", text, re.S) if "[crt]" in b]
    assert blocks, "docs/combat.md has no toml example of a [crt] table"
    return blocks[0]


def test_docs_example_loads_and_has_the_rulebook_rows():
    doc = tomllib.loads(docs_example())
    t = CombatTable.from_data(doc["crt"], "docs/combat.md")
    assert t.columns == tuple(COLUMNS) and t.dice == (1, 2, 3, 4, 5, 6)
    for die, printed in RULEBOOK_ROWS.items():
        assert [t.cell(die, c).result for c in COLUMNS] == printed
        assert all(t.cell(die, c).source == "rulebook 7.71" for c in COLUMNS)
    assert all(t.cell(die, c).source.startswith("stand-in")
               for die in (4, 5, 6) for c in COLUMNS)
    assert set(t.results) == {"NE", "ST", "EX", "AE", "DE"}


# -- format_table --------------------------------------------------------------------------------

def test_format_table_shows_every_cell_with_its_mark(table):
    text = format_table(table)
    lines = text.splitlines()
    assert all(len(line) <= 78 for line in lines)
    assert text.endswith("\n")
    header = next(i for i, line in enumerate(lines) if line.split()[:1] == ["Die"])
    assert lines[header].split() == ["Die", *COLUMNS]
    # marks worked out here: rulebook rows unmarked; the stand-in rows [a]; the one
    # overridden cell [b]
    expected = {die: list(r) for die, r in RULEBOOK_ROWS.items()}
    expected[4] = [c + "[a]" for c in ROW_4]
    expected[5] = [c + "[a]" for c in ROW_5]
    expected[6] = ["AE[b]"] + [c + "[a]" for c in ROW_6[1:]]
    for k, die in enumerate(range(1, 7), start=header + 1):
        assert lines[k].split() == [str(die), *expected[die]]
    assert "Sources: unmarked cells: rulebook 7.71" in lines
    assert f"  [a] {STAND_IN}" in lines
    assert "  [b] stand-in: the only AE" in lines
    assert "  NE  No effect (rulebook 7.7)" in lines
    assert "  AE  Attacker eliminated (rulebook 7.7)" in lines
    assert "Odds below 1-2 are treated as 1-2 and odds above 6-1 as 6-1" in text


def test_format_table_without_stand_ins_names_the_one_source():
    d = altassar_data()
    d["rows"] = d["rows"][:3]
    text = format_table(CombatTable.from_data(d))
    assert "[a]" not in text
    assert "Source of every cell: rulebook 7.71" in text.splitlines()


def test_format_table_splits_a_wide_table():
    columns = [ladder_label(p) for p in range(-8, 12)]            # 20 columns, 1-10 .. 11-1
    d = {"source": "test", "title": "A wide table", "note": "A note.", "columns": columns,
         "rows": [{"die": 1, "results": ["NE"] * 20,
                   "sources": {c: f"stand-in: {c}" for c in columns}}],
         "results": {"NE": {"name": "No effect"}}}
    text = format_table(CombatTable.from_data(d))
    lines = text.splitlines()
    assert all(len(line) <= 78 for line in lines)
    assert lines[0] == "A wide table" and lines[-1] == "A note."
    headers = [line.split()[1:] for line in lines if line.startswith("Die")]
    assert len(headers) >= 2 and sum(headers, []) == columns
    assert "  [t] stand-in: 11-1" in lines                       # the 20th source


def test_format_table_wraps_long_sources_within_78_columns():
    d = altassar_data()
    d["rows"][3]["source"] = "stand-in: " + "a long reason " * 12
    lines = format_table(CombatTable.from_data(d)).splitlines()
    assert all(len(line) <= 78 for line in lines)
