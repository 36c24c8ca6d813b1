"""Olympica Lifters (18.1-18.4) as `lift` orders on the stand-in map
(pbem/games/olympica/map.toml).

Hexes are counted by hand on the even-low grid: an even column sits half a hex lower, so from an
odd column (c, r) the hexes ne/se are (c+1, r-1)/(c+1, r) and nw/sw (c-1, r-1)/(c-1, r); from an
even one ne/se are (c+1, r)/(c+1, r+1) and nw/sw (c-1, r)/(c-1, r+1). Terrain from map.toml:
1121 cliff, 1420 incline, 1321/1619 incline and 1618 cliff (passed over only); every hex where a
unit is picked up or set down below is clear.
"""

from __future__ import annotations

from olympica_helpers import position, run_for

from pbem.games.olympica import lifters
from pbem.games.olympica.orders import VERBS


def lift(s, text, rolls=()):
    run = run_for(s, "un", rolls)
    lifters.lift(run, VERBS.read(text, 1))
    return run


def hex_of(s, u):
    return s.un[u]["hex"]


# 18.2: "A Lifter starting in hex 1220 could pick up a Laser Tank in 1320, pick up the BOAR in
# 1522, drop off the BOAR in 1615, pick up a Light Infantry in 1812, disembark the Laser Tank in
# 1511, disembark the Light Infantry in 1412, and end its turn in 1315."
# Hex by hex: 1220 -> 1320 (ne): 1.  1320 -> 1321 (s), 1421 (se), 1522 (se): 3.
# 1522 -> 1621 (ne), 1620, 1619, 1618, 1617, 1616, 1615 (north): 7.
# 1615 -> 1715 (ne), 1814 (ne), 1813, 1812 (north): 4.  1812 -> 1712, 1611, 1511 (nw): 3.
# 1511 -> 1411 (sw), 1412 (s): 2.  1412 -> 1313 (sw), 1314, 1315 (south): 3.
# Total 1+3+7+4+3+2+3 = 23 hexes, within 25 (18.1). Aboard: 25 (T1), 25+21 = 46 (T1, B1),
# 25 after 1615, 25+6 = 31 (T1, L1) from 1812, 6 after 1511: never over 50 (18.2).
EXAMPLE = ("lift F1 1320 +T1 1321 1421 1522 +B1 1621 1620 1619 1618 1617 1616 1615 -B1 "
           "1715 1814 1813 1812 +L1 1712 1611 1511 -T1 1411 1412 -L1 1313 1314 1315")


def example_position():
    return position(un={"F1": ("un-lifter", "1220"), "T1": ("un-laser-tank", "1320"),
                        "B1": ("un-boar", "1522"), "L1": ("un-light-infantry", "1812")})


def test_18_2_the_worked_example_as_an_order():
    s = example_position()
    run = lift(s, EXAMPLE)
    assert run.problems == []
    assert {u: hex_of(s, u) for u in ("F1", "T1", "B1", "L1")} == {
        "F1": "1315", "T1": "1511", "B1": "1615", "L1": "1412"}
    assert all(s.un[u]["status"] == "map" for u in ("F1", "T1", "B1", "L1"))
    path = run.events[0].data["path"]
    assert path[0] == "1220" and path[-1] == "1315" and len(path) - 1 == 23
    assert run.moved["T1"] == ["lift"] and run.moved["F1"] == ["move"]


def test_18_2_more_than_50_through_one_hex_is_refused():
    # T1 (25) in 1320, T2 (25) in 1421, L1 (6) in 1522: 50 after 1421, 56 on picking up L1
    s = position(un={"F1": ("un-lifter", "1220"), "T1": ("un-laser-tank", "1320"),
                     "T2": ("un-laser-tank", "1421"), "L1": ("un-light-infantry", "1522")})
    run = lift(s, "lift F1 1320 +T1 1321 1421 +T2 1522 +L1 1621 -T1 -T2 -L1 1620")
    assert run.problems and run.problems[0].rule == "18.2"
    assert "56" in run.problems[0].why
    assert (hex_of(s, "F1"), hex_of(s, "T1"), hex_of(s, "T2")) == ("1220", "1320", "1421")


def test_18_3_no_pick_up_in_an_incline_hex():
    # 1320 -> 1420 (se), 1420 -> 1521 (se), 1521 -> 1522 (s)
    s = position(un={"F1": ("un-lifter", "1220"), "H1": ("un-heavy-infantry", "1420")})
    run = lift(s, "lift F1 1320 1420 +H1 1521 -H1 1522")
    assert run.problems and run.problems[0].rule == "18.3"
    assert hex_of(s, "H1") == "1420" and hex_of(s, "F1") == "1220"


def test_18_2_a_lifter_may_not_carry_another():
    s = position(un={"F1": ("un-lifter", "1220"), "F2": ("un-lifter", "1320")})
    run = lift(s, "lift F1 1320 +F2 1321 1421 -F2 1522")  # 1321 (s), 1421 (se), 1522 (se)
    assert run.problems and run.problems[0].rule == "18.2"
    assert hex_of(s, "F2") == "1320"


def test_14_4_a_unit_dropped_this_turn_may_not_be_carried():
    s = position(un={"F1": ("un-lifter", "1220"), "H1": ("un-heavy-infantry", "1320")}, turn=3)
    s.un["H1"]["dropped"] = 3
    run = lift(s, "lift F1 1320 +H1 1321 1421 -H1 1522")
    assert run.problems and run.problems[0].rule == "14.4"
    assert hex_of(s, "H1") == "1320"


def test_18_1_a_unit_may_not_move_both_after_and_before_being_carried():
    s = position(un={"F1": ("un-lifter", "1220"), "H1": ("un-heavy-infantry", "1320")})
    run = run_for(s, "un", [])
    run.did("H1", "lift")
    run.did("H1", "move")
    lifters.lift(run, VERBS.read("lift F1 1320 +H1 1321 1421 -H1 1522", 1))
    assert run.problems and run.problems[0].rule == "18.1"


def test_18_3_an_empty_lifter_ending_in_a_cliff_is_destroyed():
    # 1121 is the sw neighbour of 1220 (even column: sw = (c-1, r+1))
    s = position(un={"F1": ("un-lifter", "1220")})
    run = lift(s, "lift F1 1121")
    assert run.problems == []
    assert s.un["F1"]["status"] == "eliminated"


def test_18_3_units_aboard_may_not_be_set_down_in_a_cliff():
    s = position(un={"F1": ("un-lifter", "1220"), "H1": ("un-heavy-infantry", "1221")})
    # 1220 -> 1221 (s), 1221 -> 1121 (nw: even column, (c-1, r))
    run = lift(s, "lift F1 1221 +H1 1121 -H1")
    assert run.problems and run.problems[0].rule == "18.3"
    assert s.un["F1"]["status"] == "map"


def test_18_1_close_assault_by_an_empty_lifter():
    # 11.0 on the 4-1 column, the defender first: 1 passes the die (DUST ignored); the
    # Lifter's 5 is DE (11.0's example: 4, 5 or 6 eliminate)
    s = position(un={"F1": ("un-lifter", "1220")}, web={"W01": ("web-infantry", "1320")})
    run = lift(s, "lift F1 1320", [1, 5])
    assert run.problems == []
    assert s.web["W01"]["status"] == "eliminated"
    assert s.un["F1"]["status"] == "map" and hex_of(s, "F1") == "1320"


def test_18_3_close_assault_in_a_cliff_comes_before_the_lifter_is_destroyed():
    s = position(un={"F1": ("un-lifter", "1220")}, web={"W01": ("web-infantry", "1121")})
    run = lift(s, "lift F1 1121", [1, 5])
    assert run.problems == []
    assert s.web["W01"]["status"] == "eliminated"
    assert s.un["F1"]["status"] == "eliminated"
    kinds = [e.kind for e in run.events]
    assert kinds.index("assault") < max(i for i, k in enumerate(kinds) if k == "eliminated")


def test_7_3_a_lifter_stops_in_a_web_units_hex():
    s = position(un={"F1": ("un-lifter", "1220")}, web={"W01": ("web-infantry", "1320")})
    run = lift(s, "lift F1 1320 1321")
    assert run.problems and hex_of(s, "F1") == "1220"


def test_18_1_no_close_assault_with_units_aboard():
    # 1220 -> 1221 (s) -> 1222 (s)
    s = position(un={"F1": ("un-lifter", "1220"), "H1": ("un-heavy-infantry", "1221")},
                 web={"W01": ("web-infantry", "1222")})
    run = lift(s, "lift F1 1221 +H1 1222")
    assert run.problems and run.problems[0].rule == "18.1"
    assert s.web["W01"]["status"] == "map" and hex_of(s, "H1") == "1221"


def test_18_3_web_units_under_a_mouth_do_not_stop_a_lifter():
    s = position(un={"F1": ("un-lifter", "1220")}, web={"W01": ("web-infantry", "1219u")},
                 tunnels={"1219": "mouth"})
    run = lift(s, "lift F1 1219 1218")  # 1219 (n, incline), then 1218 (n, clear)
    assert run.problems == [] and hex_of(s, "F1") == "1218"


# -- 18.4 evacuation ------------------------------------------------------------------------
# The Generator W01 in 1414 with H1; F1 in 1413 (its north neighbour). North from 1413: 1412,
# 1411, ..., 1401: 12 hexes, then off the top edge (1401 has 5 neighbours): 13 of the 25.
EVACUATE = "lift F1 +gen 1412 1411 1410 1409 1408 1407 1406 1405 1404 1403 1402 1401 off"


def evacuation_position(**web):
    return position(web={"W01": ("generator", "1414"), **web},
                    un={"H1": ("un-heavy-infantry", "1414"), "F1": ("un-lifter", "1413")})


def test_18_4_evacuation_with_a_clear_path():
    s = evacuation_position()
    s.evacuation = lifters.evacuation_ready(s)
    assert s.evacuation == ["F1"]
    run = lift(s, EVACUATE)
    assert run.problems == []
    assert s.web["W01"]["status"] == "evacuated"
    assert s.un["F1"]["status"] == "evacuated"
    assert any(e.kind == "evacuation" and e.public for e in run.events)


def test_18_4_a_web_counter_on_the_path_blocks_the_evacuation():
    s = evacuation_position(W02=("web-infantry", "1407"))
    s.evacuation = lifters.evacuation_ready(s)
    run = lift(s, EVACUATE)
    assert run.problems and run.problems[0].rule == "18.4"
    assert s.web["W01"]["status"] == "map" and s.un["F1"]["status"] == "map"


def test_18_4_only_a_lifter_ready_at_the_start_of_the_turn():
    s = evacuation_position()
    s.evacuation = []
    run = lift(s, EVACUATE)
    assert run.problems and s.web["W01"]["status"] == "map"


def test_18_4_no_un_unit_with_the_generator_no_evacuation():
    s = position(web={"W01": ("generator", "1414")}, un={"F1": ("un-lifter", "1413")})
    assert lifters.evacuation_ready(s) == []


def test_18_4_generator_underground_reached_from_a_tunnel_mouth():
    # W01 and H1 in 1416u; tunnels 1418 (mouth) - 1417 - 1416 (deep); F1 in 1518, next to 1418
    chain = {"1418": "mouth", "1417": "deep", "1416": "deep"}
    s = position(web={"W01": ("generator", "1416u")},
                 un={"H1": ("un-heavy-infantry", "1416u"), "F1": ("un-lifter", "1518")},
                 tunnels=chain)
    assert lifters.evacuation_ready(s) == ["F1"]
    s.web["W02"] = {"status": "map", "hex": "1417", "level": "underground", "dust": False,
                    "face_up": False, "kind": None}
    s.kinds["W02"] = "dummy"  # not a unit: no block
    assert lifters.evacuation_ready(s) == ["F1"]
    s.kinds["W02"] = "web-infantry"  # a Web unit on the only path
    assert lifters.evacuation_ready(s) == []


def test_7_1_a_lifter_may_leave_the_map_from_an_edge():
    s = position(un={"F1": ("un-lifter", "0102")})
    run = lift(s, "lift F1 off")
    assert run.problems == [] and s.un["F1"]["status"] == "off-map"
