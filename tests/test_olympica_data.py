"""Olympica's first data (issue 12, started): the unit table (3.1) and the Combat Results
Table, read by the shared odds-ratio table (pbem.combat.crt). Each case cites its rule; the
values come from the rulebook's text, not from the data file."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pbem.combat.crt import CombatTable

DATA = Path(__file__).parents[1] / "pbem" / "games" / "olympica" / "data.toml"


@pytest.fixture(scope="module")
def data():
    return tomllib.loads(DATA.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def crt(data):
    return CombatTable.from_data(data["crt"], str(DATA))


@pytest.mark.parametrize("attack, defense, column", [
    (30, 10, "3-1"),   # 10.1: a Web Strongpoint attacking a U.N. Heavy Infantry
    (24, 25, "1-2"),   # 10.1: three Web Infantry (24) attacking a Laser Tank (25)
    (25, 8, "3-1"),    # 10.1: a Laser Tank attacking a Web Infantry
    (100, 1, "4-1"),   # CRT: odds greater than 4-1 are treated as 4-1
    (1, 10, "1-3"),    # CRT: "1-3 or less"
])
def test_10_1_odds_round_in_the_defenders_favour(crt, attack, defense, column):
    assert crt.column_for(attack, defense) == column


def test_11_0_close_assault_column(crt):
    # "A die roll of 4, 5, or 6 would result in the elimination of the infantry, a 2 would
    # result in retreat ..., a 3 ... the elimination of both ..., while a die roll of 1 would
    # allow the infantry to fire" (DUST, ignored in close assaults: 12.5)
    assert [crt.cell(die, "4-1").result for die in range(1, 7)] == [
        "DUST", "DR2", "EX", "DE", "DE", "DE"]


def test_printed_rows_and_the_unverified_transcription_are_marked(crt):
    printed = {1: ["AE", "AE", "EX", "AR2", "DUST", "DUST"],
               2: ["AE", "AE", "AR2", "DUST", "DUST", "DR2"],
               3: ["AE", "EX", "DUST", "DUST", "DR2", "EX"]}
    columns = ["1-3", "1-2", "1-1", "2-1", "3-1", "4-1"]
    for die, row in printed.items():
        assert [crt.cell(die, c).result for c in columns] == row
        assert all(crt.cell(die, c).source.startswith("rulebook") for c in columns)
    # row 4's first two cells are printed; rows 4-6 otherwise come from GAMES.md's fan
    # transcription, except the 4-1 column that 11.0 fixes
    assert [crt.cell(4, c).result for c in ("1-3", "1-2")] == ["AE", "AR2"]
    fan = {4: "AE AR2 DUST DR2 EX DE", 5: "AR2 DUST DR2 EX DE DE", 6: "DUST DR2 EX DE DE DE"}
    for die, row in fan.items():
        assert [crt.cell(die, c).result for c in columns] == row.split()
        for c in columns:
            source = crt.cell(die, c).source
            if c == "4-1":
                assert source.startswith("rulebook 11.0")
            elif die == 4 and c in ("1-3", "1-2"):
                assert source.startswith("rulebook")
            else:
                assert source.startswith("unverified transcription")


@pytest.mark.parametrize("unit, strength, movement, range_, ranged", [
    ("un-heavy-infantry", 10, 3, 2, True),
    ("un-light-infantry", 6, 3, 2, True),
    ("un-laser-tank", 25, 2, 6, True),
    ("un-lifter", 10, 25, 0, False),      # (10): no ranged combat
    ("un-boar", 21, 2, 0, False),         # (21)
    ("web-infantry", 8, 3, 2, True),
    ("web-strongpoint", 30, 0, 7, True),  # derived: 10.1, 12.1 C, 12.3.2
])
def test_3_1_unit_table(data, unit, strength, movement, range_, ranged):
    u = data["units"][unit]
    assert (u["strength"], u["movement"], u["range"], u["ranged"]) == (
        strength, movement, range_, ranged)
    assert u["source"]



@pytest.mark.parametrize("name, turns, web, un", [
    ("introductory", 4,                                    # 4.1
     {"generator": 1, "strongpoint": 2, "web-infantry": 10, "dummy": 3},
     {"un-laser-tank": 3, "un-heavy-infantry": 9, "un-light-infantry": 3}),
    ("advanced", 8,                                        # 4.2
     {"generator": 1, "strongpoint": 4, "web-infantry": 17, "dummy": 4},
     {"un-laser-tank": 6, "un-heavy-infantry": 19, "un-light-infantry": 4, "un-lifter": 3,
      "un-boar": 1}),
    ("short-advanced", 6,                                  # 4.3: U.N. as in 4.2
     {"generator": 1, "strongpoint": 4, "web-infantry": 17, "dummy": 0},
     {"un-laser-tank": 6, "un-heavy-infantry": 19, "un-light-infantry": 4, "un-lifter": 3,
      "un-boar": 1}),
])
def test_4_scenario_forces_and_lengths(data, name, turns, web, un):
    s = data["scenarios"][name]
    assert (s["turns"], s["web"], s["un"]) == (turns, web, un)
    assert s["source"].startswith("rulebook 4.")


def test_4_2_and_5_4_tunnels_and_the_23_infantry(data):
    for name in ("advanced", "short-advanced"):
        s = data["scenarios"][name]
        # 4.2, 13.2: four Tunnel Mouths in 1717, 1818, 1010 and 1011, four more markers later
        assert sorted(s["fixed_mouths"]) == ["1010", "1011", "1717", "1818"]
        assert s["free_tunnels"] == 4
        # 5.4: "The U.N. will always have 23 infantry"
        assert s["un"]["un-heavy-infantry"] + s["un"]["un-light-infantry"] == 23
    assert data["scenarios"]["advanced"]["free_tunnels_when"] == "tunnel-phase"  # 13.2
    assert data["scenarios"]["short-advanced"]["free_tunnels_when"] == "setup"   # 4.3
    assert data["scenarios"]["short-advanced"]["face_up"] is True                # 4.3
    assert data["scenarios"]["introductory"]["free_tunnels"] == 0                # 4.1
    assert all(kind in data["units"] for s in data["scenarios"].values() for kind in s["un"])
