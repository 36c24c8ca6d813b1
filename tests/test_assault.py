"""The die-passing close assault (pbem.combat.assault), on Olympica's real CRT: every case
cites the rule it comes from (Olympica 11.0, 12.3.2, 12.5, 12.6, 16.1); expected outcomes are
read from the rulebook's text, not from the code."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pbem.combat.assault import (ASSAULTING, DEFENDING, AssaultError, AssaultRoll,
                                 close_assault)
from pbem.combat.crt import CombatTable, TableLookupError

DATA = Path(__file__).parents[1] / "pbem" / "games" / "olympica" / "data.toml"


@pytest.fixture(scope="module")
def crt():
    data = tomllib.loads(DATA.read_text(encoding="utf-8"))
    return CombatTable.from_data(data["crt"], str(DATA))


def dice(*values):
    """A roll function giving ``values`` in order and recording each ``why``."""
    queue = list(values)
    asked = []

    def roll(why):
        asked.append(why)
        return queue.pop(0)

    roll.asked = asked
    roll.left = queue
    return roll


# 11.0's example: "If a U.N. Heavy Infantry enters a hex containing a Web Strongpoint ... The
# Strongpoint would fire first at the infantry at 4-1. A die roll of 4, 5, or 6 would result in
# the elimination of the infantry, a 2 would result in retreat for the infantry, a 3 would
# result in the elimination of both ..., while a die roll of 1 would allow the infantry to fire
# on the Strongpoint at 4-1." The Strongpoint ignores retreats (12.3.2, 16.1): may_stay.
STRONGPOINT = {DEFENDING: True}


@pytest.mark.parametrize("die", [4, 5, 6])
def test_11_0_a_4_5_or_6_eliminates_the_infantry(crt, die):
    roll = dice(die)
    out = close_assault(crt, "4-1", roll, may_stay=STRONGPOINT)
    assert out.rolls == (AssaultRoll(DEFENDING, die, "DE", "eliminated"),)
    assert out.eliminated == {ASSAULTING}
    assert out.retreats == frozenset()
    assert roll.asked == ["close assault: the defending unit rolls"]


def test_11_0_a_2_retreats_the_infantry(crt):
    out = close_assault(crt, "4-1", dice(2), may_stay=STRONGPOINT)
    assert out.rolls == (AssaultRoll(DEFENDING, 2, "DR2", "retreats"),)
    assert out.retreats == {ASSAULTING}
    assert out.eliminated == frozenset()
    assert out.removed == {ASSAULTING}


def test_11_0_and_12_6_a_3_eliminates_both(crt):
    # 12.6: "In Close Assaults, an EX always results in the elimination of both units"
    out = close_assault(crt, "4-1", dice(3), may_stay=STRONGPOINT)
    assert out.rolls == (AssaultRoll(DEFENDING, 3, "EX", "both-eliminated"),)
    assert out.eliminated == {ASSAULTING, DEFENDING}


def test_11_0_and_12_5_a_1_passes_the_die_to_the_infantry(crt):
    # the infantry then rolls a 4 at 4-1: the Strongpoint is eliminated (12.2: no exceptions)
    roll = dice(1, 4)
    out = close_assault(crt, "4-1", roll, may_stay=STRONGPOINT)
    assert out.rolls == (AssaultRoll(DEFENDING, 1, "DUST", "passes"),
                         AssaultRoll(ASSAULTING, 4, "DE", "eliminated"))
    assert out.eliminated == {DEFENDING}
    assert roll.asked == ["close assault: the defending unit rolls",
                          "close assault: the assaulting unit rolls"]


def test_11_0_the_interchange_continues_until_a_unit_is_removed(crt):
    # defender 1 (DUST, passes), infantry 1 (DUST, passes back), defender 4: the infantry is
    # eliminated; no die is rolled after that
    roll = dice(1, 1, 4, 6)
    out = close_assault(crt, "4-1", roll, may_stay=STRONGPOINT)
    assert [(r.roller, r.die, r.effect) for r in out.rolls] == [
        (DEFENDING, 1, "passes"), (ASSAULTING, 1, "passes"), (DEFENDING, 4, "eliminated")]
    assert out.eliminated == {ASSAULTING}
    assert roll.left == [6]


def test_12_3_2_a_strongpoint_ignores_the_infantrys_retreat_result_and_the_die_passes(crt):
    # defender 1 passes; infantry 2 (DR2 against the Strongpoint, which ignores retreats:
    # 12.3.2, 16.1) removes nobody, so the die passes back; defender 2: the infantry retreats
    out = close_assault(crt, "4-1", dice(1, 2, 2), may_stay=STRONGPOINT)
    assert [(r.roller, r.result, r.effect) for r in out.rolls] == [
        (DEFENDING, "DUST", "passes"), (ASSAULTING, "DR2", "ignored-retreat"),
        (DEFENDING, "DR2", "retreats")]
    assert out.retreats == {ASSAULTING}


def test_11_0_units_in_tunnels_on_both_sides_may_stay(crt):
    # "units in tunnels (both the assaulting and defending units) do not have to retreat":
    # 2 (ignored), 2 (ignored), 1, 1, 3: EX eliminates both
    out = close_assault(crt, "4-1", dice(2, 2, 1, 1, 3),
                        may_stay={ASSAULTING: True, DEFENDING: True})
    assert [r.effect for r in out.rolls] == [
        "ignored-retreat", "ignored-retreat", "passes", "passes", "both-eliminated"]
    assert [r.roller for r in out.rolls] == [DEFENDING, ASSAULTING, DEFENDING, ASSAULTING,
                                             DEFENDING]
    assert out.eliminated == {ASSAULTING, DEFENDING}


def test_a_side_that_must_retreat_retreats_when_the_other_may_stay(crt):
    # only the assaulting unit is in a tunnel: the defender's 2 is ignored, the infantry's 2
    # retreats the defender
    out = close_assault(crt, "4-1", dice(2, 2), may_stay={ASSAULTING: True})
    assert out.rolls[-1] == AssaultRoll(ASSAULTING, 2, "DR2", "retreats")
    assert out.retreats == {DEFENDING}


def test_the_roller_suffers_AE_and_AR2_in_other_columns(crt):
    # the 1-3 column, rows 1 and 5 as printed/transcribed: AE and AR2 hit the roller
    out = close_assault(crt, "1-3", dice(1))
    assert out.rolls == (AssaultRoll(DEFENDING, 1, "AE", "roller-eliminated"),)
    assert out.eliminated == {DEFENDING}
    out = close_assault(crt, "1-3", dice(5), first=ASSAULTING)
    assert out.rolls == (AssaultRoll(ASSAULTING, 5, "AR2", "roller-retreats"),)
    assert out.retreats == {ASSAULTING}
    out = close_assault(crt, "1-3", dice(5, 6, 4), may_stay={DEFENDING: True})
    assert [r.effect for r in out.rolls] == ["ignored-retreat", "passes", "roller-eliminated"]
    assert out.eliminated == {DEFENDING}


def all_dust_table():
    return CombatTable.from_data({
        "source": "test", "columns": ["1-1"],
        "rows": [{"die": d, "results": ["DUST"]} for d in range(1, 7)],
        "results": {"DUST": {"name": "DUST"}}})


def test_a_table_that_never_ends_raises_after_max_rolls():
    roll = dice(*([3] * 50))
    with pytest.raises(AssaultError, match="20 rolls without removing a unit"):
        close_assault(all_dust_table(), "1-1", roll, max_rolls=20)
    assert len(roll.asked) == 20


def test_bad_arguments_are_refused_with_what_was_expected(crt):
    with pytest.raises(AssaultError, match="column '5-1' is not on the table"):
        close_assault(crt, "5-1", dice(1))
    with pytest.raises(AssaultError, match="first = 'attacker'"):
        close_assault(crt, "4-1", dice(1), first="attacker")
    with pytest.raises(AssaultError, match="may_stay key 'web'"):
        close_assault(crt, "4-1", dice(1), may_stay={"web": True})
    with pytest.raises(AssaultError, match="max_rolls = 0"):
        close_assault(crt, "4-1", dice(1), max_rolls=0)
    with pytest.raises(TableLookupError, match="die 7 is not a row"):
        close_assault(crt, "4-1", dice(7))


def test_an_unknown_result_code_is_refused():
    table = CombatTable.from_data({
        "source": "test", "columns": ["1-1"],
        "rows": [{"die": 1, "results": ["NE"]}],
        "results": {"NE": {"name": "No effect"}}})
    with pytest.raises(AssaultError, match="result 'NE'.*expected one of AE, AR2, DE, DR2"):
        close_assault(table, "1-1", dice(1))
