"""Olympica movement and close assaults (7.0-7.4, 9.0, 11.0, 12.3, 15.0, 21.0, 5.2): one
rulebook case per test, named by its rule. Positions on the stand-in map (map.toml: 1717 and
1011 are cliff, 1818 and 1010 incline, the hexes within 2 of 1414 clear)."""

from __future__ import annotations

from olympica_helpers import position, run_for

from pbem.games.olympica import movement, setup, victory
from pbem.games.olympica.orders import VERBS


def order(text):
    return VERBS.read(text, 1)


def test_7_1_web_infantry_moves_three_hexes():
    # 7.1: "a Web Infantry (Movement Factor of 3) may move 3 hexes per turn"
    s = position(web={"W01": ("web-infantry", "1212")}, stage="web")
    r = run_for(s, "web")
    movement.move(r, order("move W01 1213 1214 1215"))
    assert r.problems == [] and s.web["W01"]["hex"] == "1215"


def test_7_1_laser_tank_may_not_move_three_hexes():
    # 7.1: "a U.N. Laser Tank (Movement Factor of 2) may move 2 hexes per turn"
    s = position(un={"T1": ("un-laser-tank", "1212")})
    r = run_for(s, "un")
    movement.move(r, order("move T1 1213 1214 1215"))
    assert s.un["T1"]["hex"] == "1214"
    assert [p.rule for p in r.problems] == ["7.1"]


def test_7_1_strongpoint_has_no_movement_factor():
    s = position(web={"W01": ("strongpoint", "1212")}, stage="web")
    r = run_for(s, "web")
    movement.move(r, order("move W01 1213"))
    assert s.web["W01"]["hex"] == "1212" and "Movement Factor" in r.problems[0].why


def test_7_2_may_pass_through_but_not_end_on_a_friendly_unit():
    s = position(un={"H1": ("un-heavy-infantry", "1212"), "H2": ("un-heavy-infantry", "1213")})
    r = run_for(s, "un")
    movement.move(r, order("move H1 1213 1214"))  # through H2: legal
    assert r.problems == [] and s.un["H1"]["hex"] == "1214"
    movement.move(r, order("move H2 1214"))  # ends on H1: refused
    assert s.un["H2"]["hex"] == "1213" and r.problems[0].rule == "7.2"


def test_7_4_2_un_unit_stops_on_entering_an_incline_hex():
    # 1818 is an incline hex of the stand-in map (1817 clear): 1817-1818 would go on to 1819
    s = position(un={"H1": ("un-heavy-infantry", "1817")})
    r = run_for(s, "un")
    movement.move(r, order("move H1 1818 1819"))
    assert s.un["H1"]["hex"] == "1818"
    assert r.problems[0].rule == "7.4.2"


def test_7_4_2_web_infantry_unaffected_by_incline():
    s = position(web={"W01": ("web-infantry", "1816")}, stage="web")
    r = run_for(s, "web")
    movement.move(r, order("move W01 1817 1818 1819"))
    assert r.problems == [] and s.web["W01"]["hex"] == "1819"


def test_7_4_3_avalanche_on_a_6_eliminates_the_unit():
    s = position(un={"H1": ("un-heavy-infantry", "1716")})
    r = run_for(s, "un", [6])
    movement.move(r, order("move H1 1717"))  # 1717 is a cliff hex
    assert s.un["H1"]["status"] == "eliminated"
    assert "avalanche" in r.chance.public.why[0]


def test_7_4_3_no_avalanche_on_a_5():
    s = position(un={"H1": ("un-heavy-infantry", "1716")})
    r = run_for(s, "un", [5])
    movement.move(r, order("move H1 1717"))
    assert s.un["H1"]["status"] == "map" and s.un["H1"]["hex"] == "1717"


def test_7_4_3_avalanche_before_close_assault():
    # "Avalanches occur before Close Assaults": the first die is the avalanche's
    s = position(un={"H1": ("un-heavy-infantry", "1716")},
                 web={"W01": ("web-infantry", "1717")})
    r = run_for(s, "un", [2, 4])  # no avalanche; the defender rolls 4: DE on the assaulter
    movement.move(r, order("move H1 1717"))
    assert r.chance.public.why[0].startswith("avalanche")
    assert s.un["H1"]["status"] == "eliminated"


def test_7_3_entering_an_enemy_unit_stops_for_a_close_assault():
    s = position(un={"H1": ("un-heavy-infantry", "1212")},
                 web={"W01": ("web-infantry", "1213")})
    r = run_for(s, "un", [1, 5])  # defender 1 passes the die; H1 rolls 5: DE
    movement.move(r, order("move H1 1213 1214"))
    assert s.web["W01"]["status"] == "eliminated"
    assert s.un["H1"]["hex"] == "1213"  # stopped in the assaulted hex


def test_11_0_strongpoint_example_4_5_6_eliminate_the_infantry():
    # 11.0: "A die roll of 4, 5, or 6 would result in the elimination of the infantry"
    for die in (4, 5, 6):
        s = position(un={"H1": ("un-heavy-infantry", "1212")},
                     web={"W01": ("strongpoint", "1213")})
        r = run_for(s, "un", [die])
        movement.move(r, order("move H1 1213"))
        assert s.un["H1"]["status"] == "eliminated"
        assert s.web["W01"]["status"] == "map"


def test_11_0_strongpoint_example_3_eliminates_both():
    s = position(un={"H1": ("un-heavy-infantry", "1212")}, web={"W01": ("strongpoint", "1213")})
    r = run_for(s, "un", [3])
    movement.move(r, order("move H1 1213"))
    assert s.un["H1"]["status"] == s.web["W01"]["status"] == "eliminated"


def test_11_0_strongpoint_example_2_retreats_the_infantry_two_hexes():
    s = position(un={"H1": ("un-heavy-infantry", "1412")}, web={"W01": ("strongpoint", "1413")})
    r = run_for(s, "un", [2])
    movement.move(r, order("move H1 1413"))
    assert s.un["H1"]["status"] == "map"
    assert s.board.distance(s.un["H1"]["hex"], "1413") == 2  # 12.3: the ring at two hexes


def test_11_0_strongpoint_example_1_passes_the_die():
    s = position(un={"H1": ("un-heavy-infantry", "1212")}, web={"W01": ("strongpoint", "1213")})
    r = run_for(s, "un", [1, 4])  # the infantry fires at 4-1: 4 eliminates the Strongpoint
    movement.move(r, order("move H1 1213"))
    assert s.web["W01"]["status"] == "eliminated" and s.un["H1"]["status"] == "map"


def test_11_0_dummy_removed_and_the_move_ends():
    s = position(un={"H1": ("un-heavy-infantry", "1212")}, web={"W01": ("dummy", "1213")})
    r = run_for(s, "un", [])
    movement.move(r, order("move H1 1213 1214"))
    assert s.web["W01"]["status"] == "removed" and s.un["H1"]["hex"] == "1213"


def test_11_0_generator_alone_is_captured():
    s = position(un={"H1": ("un-heavy-infantry", "1413")}, web={"W01": ("generator", "1414")})
    r = run_for(s, "un", [])
    movement.move(r, order("move H1 1414"))
    assert s.web["W01"]["face_up"] and s.stacked
    assert victory.held(s)


def test_11_0_no_unit_close_assaulted_twice_in_a_phase():
    s = position(un={"H1": ("un-heavy-infantry", "1212"), "H2": ("un-heavy-infantry", "1214")},
                 web={"W01": ("strongpoint", "1213")})
    r = run_for(s, "un", [1, 1, 2])  # pass, pass, 2 on the strongpoint's roll: H1 retreats
    movement.move(r, order("move H1 1213"))
    movement.move(r, order("move H2 1213"))
    assert s.un["H2"]["hex"] == "1214" and r.problems[-1].rule == "11.0"


def test_11_0_underground_units_do_not_assault_surface_units():
    # 13.3: "Close Assaults do not occur between units on different levels"
    s = position(web={"W01": ("web-infantry", "1716")},
                 un={"H1": ("un-heavy-infantry", "1717u")}, tunnels={"1717": "mouth"},
                 stage="web")
    r = run_for(s, "web", [])
    movement.move(r, order("move W01 1717 1718"))  # over the unit under the mouth (13.4)
    assert s.web["W01"]["hex"] == "1718" and r.problems == []


def test_5_2_a_web_counter_that_moves_is_turned_face_up():
    s = position(web={"W01": ("web-infantry", "1212")}, stage="web")
    r = run_for(s, "web")
    movement.move(r, order("move W01 1213"))
    assert s.web["W01"]["face_up"] and s.web["W01"]["kind"] == "web-infantry"


def test_12_5_a_dusted_unit_may_not_move():
    s = position(un={"H1": ("un-heavy-infantry", "1212")})
    s.un["H1"]["dust"] = True
    r = run_for(s, "un")
    movement.move(r, order("move H1 1213"))
    assert s.un["H1"]["hex"] == "1212" and "DUST" in r.problems[0].why


def test_14_4_a_unit_may_not_move_the_turn_it_dropped_but_light_infantry_may_in_15_0():
    s = position(un={"H1": ("un-heavy-infantry", "1212"), "L1": ("un-light-infantry", "1214")},
                 turn=2)
    s.un["H1"]["dropped"] = s.un["L1"]["dropped"] = 2
    r = run_for(s, "un")
    movement.move(r, order("move H1 1213"))
    assert r.problems[0].rule == "14.4"
    r.phase_reset()
    movement.move(r, order("move2 L1 1215"), second=True)
    assert s.un["L1"]["hex"] == "1215"


def test_15_0_light_infantry_enters_a_cliff_hex_in_each_movement_phase():
    s = position(un={"L1": ("un-light-infantry", "1716")})
    r = run_for(s, "un", [1, 1])
    movement.move(r, order("move L1 1717"))       # cliff, first Movement Phase
    r.phase_reset()
    movement.move(r, order("move2 L1 1718 1719"), second=True)  # incline stops it at 1718
    assert s.un["L1"]["hex"] == "1718"


def test_21_0_reinforcements_enter_from_the_east_edge_on_odd_turns():
    s = position(web={"W01": ("web-infantry", "1212")}, stage="web", turn=3)
    s.web["W01"].update(status="eliminated", face_up=True, kind="web-infantry")
    r = run_for(s, "web")
    movement.enter(r, order("enter W01 2612 2512 2412"), [])
    # the edge hex 2612 is the first of the three hexes of movement
    assert s.web["W01"]["status"] == "map" and s.web["W01"]["hex"] == "2412"


def test_21_0_reinforcements_refused_on_the_wrong_edge():
    s = position(web={"W01": ("web-infantry", "1212")}, stage="web", turn=2)
    s.web["W01"].update(status="eliminated", face_up=True, kind="web-infantry")
    r = run_for(s, "web")
    movement.enter(r, order("enter W01 2612"), [])
    assert s.web["W01"]["status"] == "eliminated" and "west" in r.problems[0].why


def test_21_0_only_eliminated_web_infantry_return():
    s = position(web={"W01": ("strongpoint", "1212")}, stage="web", turn=3)
    s.web["W01"].update(status="eliminated", face_up=True, kind="strongpoint")
    r = run_for(s, "web")
    movement.enter(r, order("enter W01 2612"), [])
    assert s.web["W01"]["status"] == "eliminated"


def test_5_2_generator_set_up_within_the_dotted_area_only():
    s = position(web={"W01": ("generator", "1414")})
    assert setup.placement_problem(s, "W01", setup.Place("0101")) is not None
    assert setup.placement_problem(s, "W01", setup.Place("1415")) is None


def test_5_2_strongpoint_not_with_the_generator_nor_on_a_fixed_mouth():
    s = position(web={"W01": ("generator", "1414"), "W02": ("strongpoint", "1212")},
                 tunnels={"1717": "mouth"})
    assert "Generator" in setup.placement_problem(s, "W02", setup.Place("1414"))
    assert "Tunnel Mouth" in setup.placement_problem(s, "W02", setup.Place("1717"))


def test_4_1_victory_levels():
    s = position(web={"W01": ("generator", "1414")}, un={"H1": ("un-heavy-infantry", "1212")},
                 scenario="introductory", turn=4)
    assert victory.outcome(s)["winners"] == ["web"]  # never stacked: Web Victory
    s.stacked = True
    assert victory.outcome(s)["winners"] == []  # stacked once, not at the end: Draw
    s.un["H1"]["hex"] = "1414"
    assert victory.outcome(s)["winners"] == ["un"]  # there at the end: U.N. Victory


def test_4_2_victory_levels():
    s = position(web={"W01": ("generator", "1414")}, un={"H1": ("un-heavy-infantry", "1212")},
                 turn=8)
    assert victory.outcome(s)["scores"] == {"web": 2, "un": 0}  # Web Major
    s.stacked = True
    assert victory.outcome(s)["scores"] == {"web": 1, "un": 0}  # Web Minor
    s.un["H1"]["hex"] = "1414"
    assert victory.outcome(s)["scores"] == {"un": 1, "web": 0}  # U.N. Minor
    s.web["W01"]["status"] = "evacuated"
    assert victory.outcome(s)["scores"] == {"un": 2, "web": 0}  # U.N. Major (18.4)


def test_13_3_stacked_only_on_the_same_level():
    s = position(web={"W01": ("generator", "1717u")}, un={"H1": ("un-heavy-infantry", "1717")},
                 tunnels={"1717": "mouth"})
    assert not victory.held(s)


def test_18_1_a_unit_may_move_after_being_carried_but_not_before_and_after():
    # 18.1: "Units may move either before OR after being transported, but not both"
    from pbem.games.olympica import lifters
    s = position(un={"F1": ("un-lifter", "1212"), "L2": ("un-light-infantry", "1213"),
                     "H3": ("un-heavy-infantry", "1412"), "F2": ("un-lifter", "1414")})
    r = run_for(s, "un")
    lifters.lift(r, order("lift F1 1213 +L2 1214 -L2 1215"))
    assert r.problems == [] and s.un["L2"]["hex"] == "1214"
    movement.move(r, order("move L2 1114"))  # after being carried: allowed
    assert r.problems == [] and s.un["L2"]["hex"] == "1114"
    movement.move(r, order("move H3 1413"))  # H3 moves, is carried, may not move again
    lifters.lift(r, order("lift F2 1413 +H3 1313 -H3 1312"))
    assert r.problems == [] and s.un["H3"]["hex"] == "1313"
    movement.move(r, order("move H3 1213"))
    assert s.un["H3"]["hex"] == "1313" and r.problems[-1].rule == "7.1, 18.1"
