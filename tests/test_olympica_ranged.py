"""Olympica's Ranged Combat Phase (pbem/games/olympica/ranged.py): one rulebook case per test,
named by its rule (rulebook: shared/seeds/001_746aff674b41fe2c.txt).

Expected values are worked from the rulebook: the unit table of 3.1 (Heavy Infantry 10, Light
Infantry 6, Laser Tank 25 with range 6, Web Infantry 8 with range 2, the Strongpoint 30 from
10.1's example, with range 7 from 12.1 C), the odds rounded in the defender's favour (10.1) and
the printed rows 1-3 of the Combat Results Table. Positions are on the stand-in map; the hexes
chosen are clear unless a test says otherwise (1717, 2305 cliff), and attackers and targets
share a hex column where a range matters, so that the distance is the difference of rows.
"""

from __future__ import annotations

from olympica_helpers import position, run_for

from pbem.games.olympica import ranged
from pbem.games.olympica.orders import VERBS


def order(text: str):
    return VERBS.read(text, 1)


def fire(s, role: str, rolls, *lines):
    run = run_for(s, role, rolls)
    ranged.start_phase(run)
    for line in lines:
        ranged.fire(run, order(line))
    return run


def attacks(run) -> list:
    return [e for e in run.events if e.kind == "ranged" and "column" in e.data]


def status(s, side: str, uid: str) -> str:
    return (s.un if side == "un" else s.web)[uid]["status"]


def rules_of(run) -> list:
    return [p.rule for p in run.problems]


# -- 10.1: the three odds examples -------------------------------------------------------------

def test_10_1_strongpoint_30_against_heavy_infantry_10_is_3_to_1():
    s = position(web={"W01": ("strongpoint", "2008")}, un={"H1": ("un-heavy-infantry", "2010")},
                 face_up=("W01",))
    run = fire(s, "web", [1], "fire H1 by W01")
    [e] = attacks(run)
    assert e.data["strength"] == [30, 10]
    assert e.data["column"] == "3-1"
    assert e.data["result"] == "DUST"          # CRT row 1, 3-1
    assert s.un["H1"]["dust"] is True
    assert not run.problems


def test_10_1_three_web_infantry_24_against_laser_tank_25_is_1_to_2():
    s = position(web={"W01": ("web-infantry", "2008"), "W02": ("web-infantry", "2009"),
                      "W03": ("web-infantry", "2011")}, un={"T1": ("un-laser-tank", "2010")})
    run = fire(s, "web", [3], "fire T1 by W01 W02 W03")
    [e] = attacks(run)
    assert e.data["strength"] == [24, 25]
    assert e.data["column"] == "1-2"
    assert e.data["result"] == "EX"            # CRT row 3, 1-2
    # 12.6: 8 + 8 + 8 = 24 < 25, "all attacking and defending units are eliminated"
    assert status(s, "un", "T1") == "eliminated"
    assert [status(s, "web", w) for w in ("W01", "W02", "W03")] == ["eliminated"] * 3


def test_10_1_laser_tank_25_against_web_infantry_8_is_3_to_1():
    s = position(web={"W01": ("web-infantry", "2014")}, un={"T1": ("un-laser-tank", "2010")},
                 face_up=("W01",))
    run = fire(s, "un", [1], "fire W01 by T1")
    [e] = attacks(run)
    assert e.data["strength"] == [25, 8]
    assert e.data["column"] == "3-1"
    assert e.data["attack"] == [{"from": "2010", "to": "2014", "result": "DUST"}]


def test_10_1_parenthesized_strength_may_not_fire():
    s = position(web={"W01": ("web-infantry", "2011")}, un={"F1": ("un-lifter", "2010")},
                 face_up=("W01",))
    run = fire(s, "un", [], "fire W01 by F1")
    assert rules_of(run) == ["10.1"]
    assert "F1" not in run.fired


# -- 10.2, 10.3: range and firing once ---------------------------------------------------------

def test_10_2_target_beyond_range_is_refused_quoting_the_distance():
    s = position(web={"W03": ("web-infantry", "2017")}, un={"T1": ("un-laser-tank", "2010")})
    run = fire(s, "un", [], "fire W03 by T1")
    [p] = run.problems
    assert p.rule == "10.2"
    assert "T1 at 2010 is 7 hexes from W03 at 2017, beyond its range of 6" in p.why
    assert s.web["W03"]["face_up"] is False     # no attack: not turned face up


def test_10_3_an_attacker_may_not_fire_twice_but_a_defender_may_be_attacked_twice():
    s = position(web={"W01": ("web-infantry", "2012"), "W02": ("web-infantry", "2013")},
                 un={"T1": ("un-laser-tank", "2010"), "T2": ("un-laser-tank", "2011")},
                 face_up="all")
    run = fire(s, "un", [1, 1], "fire W01 by T1", "fire W02 by T1", "fire W01 by T2")
    assert rules_of(run) == ["10.3"]
    assert "already fired" in run.problems[0].why
    assert [e.data["attackers"] for e in attacks(run)] == [["T1"], ["T2"]]


# -- 10.4 terrain, 12.5 DUST, 17.2 the BOAR: strengths -----------------------------------------

def test_10_4_2_laser_tank_in_cliff_has_13():
    s = position(un={"T1": ("un-laser-tank", "1717")})      # 1717: cliff
    assert ranged.strength(s, "un", "T1") == 13
    assert ranged.strength(s, "un", "T1", defending=True) == 13


def test_12_5_dust_halves_and_dust_in_cliff_halves_only_once():
    s = position(un={"H1": ("un-heavy-infantry", "2010"), "T1": ("un-laser-tank", "1717")})
    s.un["H1"]["dust"] = s.un["T1"]["dust"] = True
    assert ranged.strength(s, "un", "H1") == 5                 # 10 / 2
    assert ranged.strength(s, "un", "T1") == 13                # 25 / 2 up, not 7


def test_17_2_strongpoint_next_to_boar_halved_and_in_cliff_only_halved():
    s = position(web={"W01": ("strongpoint", "2010"), "W02": ("strongpoint", "1717")},
                 un={"B1": ("un-boar", "2011"), "B2": ("un-boar", "1716")}, face_up="all")
    assert s.board.distance("2010", "2011") == s.board.distance("1717", "1716") == 1
    assert ranged.strength(s, "web", "W01") == 15
    assert ranged.strength(s, "web", "W02") == 15              # cliff + BOAR: not 8


def test_13_5_2_infantry_under_a_mouth_doubled_against_the_surface_tank_not():
    s = position(web={"W01": ("web-infantry", "1717u")},
                 un={"H1": ("un-heavy-infantry", "1818u"), "T1": ("un-laser-tank", "1010u")},
                 tunnels={"1717": "mouth", "1818": "mouth", "1010": "mouth"})
    assert ranged.strength(s, "web", "W01") == 16              # 1717 is cliff: not halved
    assert ranged.strength(s, "web", "W01", vs_surface=False) == 8
    assert ranged.strength(s, "un", "H1") == 20
    assert ranged.strength(s, "un", "T1") == 25


def test_17_2_web_unit_under_a_mouth_next_to_the_boar_not_doubled():
    s = position(web={"W01": ("web-infantry", "1717u")}, un={"B1": ("un-boar", "1716")},
                 tunnels={"1717": "mouth"})
    assert ranged.strength(s, "web", "W01") == 8


def test_17_3_drilled_mouth_not_doubled_and_immune():
    s = position(web={"W01": ("web-infantry", "2012u")}, un={"T1": ("un-laser-tank", "2010")},
                 tunnels={"2012": "drilled"}, face_up="all")
    assert ranged.strength(s, "web", "W01") == 8
    run = fire(s, "un", [], "fire W01 by T1")
    assert rules_of(run) == ["17.3"]


def test_10_4_4_deep_tunnel_neither_attacks_nor_is_attacked():
    s = position(web={"W01": ("web-infantry", "2012u"), "W02": ("web-infantry", "2011u")},
                 un={"T1": ("un-laser-tank", "2010")},
                 tunnels={"2012": "deep", "2011": "deep"}, face_up="all")
    run = fire(s, "un", [], "fire W01 by T1")
    assert [p.rule for p in run.problems] == ["10.4.4, 13.5.1"]
    run = fire(s, "web", [], "fire T1 by W02")
    assert [p.rule for p in run.problems] == ["10.4.4, 13.5.1"]
    assert not run.fired


# -- 12.6 exchanges ----------------------------------------------------------------------------

def test_12_6_three_web_infantry_against_heavy_infantry_lose_two():
    # H1 in the cliff hex 1717 defends with 5: 24 to 5 is 4-1, row 3 EX; printed 8 + 8 >= 10
    s = position(web={"W01": ("web-infantry", "1715"), "W02": ("web-infantry", "1716"),
                      "W03": ("web-infantry", "1718")}, un={"H1": ("un-heavy-infantry", "1717")})
    run = fire(s, "web", [3], "fire H1 by W01 W02 W03")
    assert attacks(run)[0].data["column"] == "4-1"
    assert status(s, "un", "H1") == "eliminated"
    assert [status(s, "web", w) for w in ("W01", "W02", "W03")] == [
        "eliminated", "eliminated", "map"]


def test_12_6_the_attacker_chooses_its_losses_and_a_short_choice_falls_back():
    s = position(web={"W01": ("web-infantry", "1715"), "W02": ("web-infantry", "1716"),
                      "W03": ("web-infantry", "1718")}, un={"H1": ("un-heavy-infantry", "1717")})
    run = fire(s, "web", [3], "fire H1 by W01 W02 W03 lose W02 W03")
    assert not run.problems
    assert [status(s, "web", w) for w in ("W01", "W02", "W03")] == [
        "map", "eliminated", "eliminated"]
    s = position(web={"W01": ("web-infantry", "1715"), "W02": ("web-infantry", "1716"),
                      "W03": ("web-infantry", "1718")}, un={"H1": ("un-heavy-infantry", "1717")})
    run = fire(s, "web", [3], "fire H1 by W01 W02 W03 lose W03")    # 8 < 10
    assert rules_of(run) == ["12.6"]
    assert [status(s, "web", w) for w in ("W01", "W02", "W03")] == [
        "eliminated", "eliminated", "map"]


def test_12_6_heavy_infantry_against_web_infantry_both_destroyed():
    s = position(web={"W01": ("web-infantry", "2012")}, un={"H1": ("un-heavy-infantry", "2010")},
                 face_up="all")
    run = fire(s, "un", [1], "fire W01 by H1")        # 10 to 8 = 1-1, row 1 EX
    assert attacks(run)[0].data["column"] == "1-1"
    assert status(s, "web", "W01") == status(s, "un", "H1") == "eliminated"


# -- 12.1 A-C, 16.1: no adverse results -------------------------------------------------------

def test_12_1_A_attacking_a_parenthesized_strength_no_attacker_eliminated():
    s = position(web={"W01": ("web-infantry", "2008")}, un={"F1": ("un-lifter", "2010")})
    run = fire(s, "web", [1], "fire F1 by W01")       # 8 to 10 = 1-2, row 1 AE
    assert attacks(run)[0].data["result"] == "AE"
    assert status(s, "web", "W01") == "map"
    assert any("12.1 A" in e.text for e in run.events)


def test_12_1_B_laser_tank_attacking_infantry_ignores_AE():
    # T1 in the cliff hex 1719: 13; W01 under the mouth 1717: 16 -> 1-2, row 1 AE
    s = position(web={"W01": ("web-infantry", "1717u")}, un={"T1": ("un-laser-tank", "1719")},
                 tunnels={"1717": "mouth"}, face_up="all")
    run = fire(s, "un", [1], "fire W01 by T1")
    assert attacks(run)[0].data["strength"] == [13, 16]
    assert attacks(run)[0].data["result"] == "AE"
    assert status(s, "un", "T1") == "map"


def test_16_1_strongpoint_attacking_infantry_not_lost_in_an_exchange():
    # H1 under the mouth 1818: 20; 30 to 20 = 1-1, row 1 EX: only the defender is eliminated
    s = position(web={"W01": ("strongpoint", "1814")}, un={"H1": ("un-heavy-infantry", "1818u")},
                 tunnels={"1818": "mouth"}, face_up="all")
    run = fire(s, "web", [1], "fire H1 by W01")
    assert attacks(run)[0].data["column"] == "1-1"
    assert status(s, "un", "H1") == "eliminated"
    assert status(s, "web", "W01") == "map"


def test_12_1_C_strongpoint_seven_hexes_from_a_laser_tank_not_lost_in_an_exchange():
    # 30 to 25 = 1-1, row 1 EX; at six hexes the Strongpoint (printed 30 >= 25) is lost too
    for sp_hex, survives in (("2003", True), ("2004", False)):
        s = position(web={"W01": ("strongpoint", sp_hex)}, un={"T1": ("un-laser-tank", "2010")},
                     face_up="all")
        run = fire(s, "web", [1], "fire T1 by W01")
        assert attacks(run)[0].data["column"] == "1-1"
        assert status(s, "un", "T1") == "eliminated"
        assert status(s, "web", "W01") == ("map" if survives else "eliminated")


# -- 12.3, 12.4 retreats -----------------------------------------------------------------------

def test_12_3_AR2_attacker_retreats_onto_the_ring_at_distance_2():
    s = position(web={"W01": ("web-infantry", "2012")}, un={"H1": ("un-heavy-infantry", "2010")},
                 face_up="all")
    run = fire(s, "un", [2], "fire W01 by H1")        # 10 to 8 = 1-1, row 2 AR2
    assert attacks(run)[0].data["result"] == "AR2"
    assert s.un["H1"]["status"] == "map"
    assert s.board.distance(s.un["H1"]["hex"], "2010") == 2
    assert s.un["H1"]["hex"] != "2012"


def test_12_4_DR2_strongpoint_does_not_retreat():
    # W01 in the cliff hex 2305: 15; 25 + 25 to 15 = 3-1, row 3 DR2
    s = position(web={"W01": ("strongpoint", "2305")},
                 un={"T1": ("un-laser-tank", "2307"), "T2": ("un-laser-tank", "2308")},
                 face_up="all")
    run = fire(s, "un", [3], "fire W01 by T1 T2")
    assert attacks(run)[0].data["column"] == "3-1"
    assert attacks(run)[0].data["result"] == "DR2"
    assert (s.web["W01"]["status"], s.web["W01"]["hex"]) == ("map", "2305")


# -- 20.0 dummies, 19.5 the Generator, 5.2 face-down targets ----------------------------------

def test_20_0_dummy_attacked_is_removed_and_attackers_used():
    s = position(web={"W05": ("dummy", "2012")}, un={"H1": ("un-heavy-infantry", "2010")})
    run = fire(s, "un", [], "fire W05 by H1")         # no die: nothing to resolve
    assert status(s, "web", "W05") == "removed"
    assert "H1" in run.fired


def test_19_5_generator_not_attacked_turned_face_up_attackers_unused():
    s = position(web={"W09": ("generator", "1414")}, un={"H1": ("un-heavy-infantry", "1412")})
    run = fire(s, "un", [], "fire W09 by H1")
    assert s.web["W09"]["face_up"] is True and s.web["W09"]["status"] == "map"
    assert "H1" not in run.fired and not attacks(run)
    run2 = fire(s, "un", [], "fire W09 by H1")        # now known: refused
    assert rules_of(run2) == ["19.5"]


def test_5_2_face_down_target_turned_face_up_before_the_odds():
    s = position(web={"W03": ("web-infantry", "2012")}, un={"T1": ("un-laser-tank", "2010")})
    run = fire(s, "un", [1], "fire W03 by T1")
    kinds = [e.kind for e in run.events]
    first_reveal = kinds.index("reveal")
    assert first_reveal < kinds.index("ranged")
    assert all("Infantry" not in e.text for e in run.events[:first_reveal])
    assert attacks(run)[0].data["strength"] == [25, 8]
    assert s.web["W03"]["face_up"] is True


def test_5_2_web_attacker_turned_face_up_when_it_fires():
    s = position(web={"W02": ("web-infantry", "2012")}, un={"H1": ("un-heavy-infantry", "2010")})
    run = fire(s, "web", [1], "fire H1 by W02")       # 8 to 10 = 1-2, row 1 AE
    assert s.web["W02"]["face_up"] is True
    assert run.events[0].kind == "reveal"


def test_dry_run_accepts_a_face_down_target_it_cannot_know():
    s = position(web={"W05": ("dummy", "2012")}, un={"H1": ("un-heavy-infantry", "2010")})
    s.kinds = {}                                     # the U.N. role state
    run = run_for(s, "un", dry=True)
    ranged.start_phase(run)
    ranged.fire(run, order("fire W05 by H1"))
    assert not run.problems and "H1" in run.fired
    assert s.web["W05"]["status"] == "map" and not run.events


# -- 13.5.3 Tunnel Mouth stacks ----------------------------------------------------------------

def test_13_5_3_unit_below_a_friendly_unit_only_attacked_with_it():
    # W01 on 1717 (cliff): 4; W02 under the mouth against the surface: 16; 25 to 20 = 1-1
    s = position(web={"W01": ("web-infantry", "1717"), "W02": ("web-infantry", "1717u")},
                 un={"T1": ("un-laser-tank", "1714")}, tunnels={"1717": "mouth"},
                 face_up="all")
    run = fire(s, "un", [3], "fire W02 by T1", "fire W01 W02 by T1")
    assert rules_of(run) == ["13.5.3"]
    [e] = attacks(run)
    assert e.data["strength"] == [25, 20] and e.data["column"] == "1-1"
    assert e.data["result"] == "DUST"                 # row 3, 1-1: applies to both
    assert s.web["W01"]["dust"] is True
    assert s.web["W02"]["dust"] is False              # under a mouth: ignored (12.5)


def test_13_5_3_unit_below_an_enemy_only_attacked_by_it():
    s = position(web={"W01": ("web-infantry", "1717"), "W02": ("web-infantry", "1715")},
                 un={"H1": ("un-heavy-infantry", "1717u")}, tunnels={"1717": "mouth"},
                 face_up="all")
    run = run_for(s, "web", dry=True)
    ranged.start_phase(run)
    ranged.fire(run, order("fire H1 by W02"))
    ranged.fire(run, order("fire H1 by W01"))
    assert rules_of(run) == ["13.5.3"]
    assert run.fired == {"W01"}


# -- 16.2 defensive umbrellas ------------------------------------------------------------------

def test_16_2_web_infantry_attack_the_laser_tank_so_the_strongpoint_may_attack():
    s = position(web={"W01": ("strongpoint", "2006"), "W02": ("web-infantry", "2012")},
                 un={"T1": ("un-laser-tank", "2010"), "L1": ("un-light-infantry", "2009")},
                 face_up=("W01",), options={"umbrellas": "yes"})
    # W02 against T1: 8 to 25 = 1-3, row 1 AE; W01 against L1: 30 to 6 = 4-1, row 1 DUST
    run = fire(s, "web", [1, 1], "fire L1 by W01", "fire T1 by W02", "fire L1 by W01")
    assert rules_of(run) == ["16.2"]
    assert "Laser Tank T1" in run.problems[0].why
    assert [e.data["targets"] for e in attacks(run)] == [["T1"], ["L1"]]
    assert s.un["L1"]["dust"] is True


def test_16_2_strongpoint_face_down_at_the_start_of_the_phase_protects_nobody():
    s = position(web={"W01": ("strongpoint", "2012"), "W02": ("web-infantry", "2013")},
                 un={"T1": ("un-laser-tank", "2010"), "T2": ("un-laser-tank", "2011")},
                 face_up=("W02",), options={"umbrellas": "yes"})
    # T1 against W01 turns it face up: 25 to 30 = 1-2, row 1 AE (T1 lost); then W02 next to
    # W01 may be attacked: 25 to 8 = 3-1, row 1 DUST
    run = fire(s, "un", [1, 1], "fire W01 by T1", "fire W02 by T2")
    assert s.web["W01"]["face_up"] is True
    assert not run.problems and len(attacks(run)) == 2
    s = position(web={"W01": ("strongpoint", "2012"), "W02": ("web-infantry", "2013")},
                 un={"T2": ("un-laser-tank", "2011")}, face_up="all",
                 options={"umbrellas": "yes"})
    run = fire(s, "un", [], "fire W02 by T2")
    assert rules_of(run) == ["16.2"]
