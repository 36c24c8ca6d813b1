"""Olympica tunnels (13.2, 13.6), the BOAR's drilling (17.3) and the Generator underground (19.4),
on the stand-in map (pbem/games/olympica/map.toml).

Terrain and adjacency used below, read off map.toml by hand (even-low: an even column sits half
a hex lower; column 14's hexes 1415-1418 touch their neighbours above and below):
1219 and 1418 are incline, 1717 cliff, 1213, 1318, 1317, 1413-1417 and 1713-1716 clear; 1318 is
the north-west neighbour of 1418 (even column: nw = (c-1, r)).
"""

from __future__ import annotations

from olympica_helpers import position, run_for

from pbem.boards.levels import Tunnels
from pbem.games.olympica import ranged, tunnels
from pbem.games.olympica.orders import VERBS

CHAIN = {"1418": "mouth", "1417": "deep", "1416": "deep"}


def order(text):
    return VERBS.read(text, 1)


def texts(run):
    return " ".join(e.text for e in run.events) + " " + repr([e.data for e in run.events])


def place(s, text, rolls=()):
    run = run_for(s, "web", rolls)
    tunnels.place_tunnel(run, order(text))
    return run


# -- 13.2 placement -------------------------------------------------------------------------------

def test_13_2_tunnel_mouth_on_clear_is_refused():
    s = position()
    s.tunnels_left = 4
    run = place(s, "tunnel mouth 1213")
    assert run.problems and run.problems[0].rule == "13.2"
    assert "cliff or incline" in run.problems[0].why
    assert s.tunnels == {} and s.tunnels_left == 4


def test_13_2_tunnel_mouth_on_incline_is_placed_and_counted():
    s = position()
    s.tunnels_left = 4
    run = place(s, "tunnel mouth 1219")
    assert run.problems == []
    assert s.tunnels == {"1219": "mouth"} and s.tunnels_left == 3
    assert run.events[0].public and run.events[0].data["hex"] == "1219"


def test_13_2_deep_tunnels_chain_from_a_mouth():
    # 1716 touches the mouth 1717; 1715 touches 1716; 1713 touches no tunnel (1714 is empty)
    s = position(tunnels={"1717": "mouth"})
    s.tunnels_left = 3
    assert place(s, "tunnel deep 1716").problems == []
    assert place(s, "tunnel deep 1715").problems == []
    run = place(s, "tunnel deep 1713")
    assert run.problems and "adjacent to a Tunnel Mouth" in run.problems[0].why
    assert s.tunnels == {"1717": "mouth", "1716": "deep", "1715": "deep"}
    assert s.tunnels_left == 1


def test_13_2_deep_tunnel_next_to_a_deep_tunnel_cut_off_is_refused():
    s = position(tunnels={"1713": "deep"})  # joined to no mouth
    s.tunnels_left = 1
    assert place(s, "tunnel deep 1712").problems


def test_13_2_no_marker_left_is_refused():
    s = position()
    s.tunnels_left = 0
    assert place(s, "tunnel mouth 1219").problems
    assert s.tunnels == {}


def test_13_2_not_in_a_strongpoint_hex():
    s = position(web={"W01": ("strongpoint", "1219")})
    s.tunnels_left = 4
    run = place(s, "tunnel mouth 1219")
    assert run.problems and "Strongpoint" in run.problems[0].why
    assert s.tunnels == {}


def test_13_2_web_unit_going_underground_loses_its_dust():
    s = position(web={"W01": ("web-infantry", "1219")})
    s.web["W01"]["dust"] = True
    s.tunnels_left = 4
    run = place(s, "tunnel mouth 1219 under W01")
    assert run.problems == []
    assert s.web["W01"]["level"] == "underground" and s.web["W01"]["dust"] is False
    assert "Web Infantry" not in texts(run)  # face down: named by its marker only


def test_9_0_two_units_may_not_go_under_one_tunnel():
    s = position(web={"W01": ("web-infantry", "1219"), "W02": ("web-infantry", "1219")})
    s.tunnels_left = 4
    assert place(s, "tunnel mouth 1219 under W01 W02").problems
    assert s.web["W01"]["level"] == "surface"


def test_13_2_un_units_are_not_placed_underground():
    s = position(un={"H1": ("un-heavy-infantry", "1219")})
    s.tunnels_left = 4
    run = place(s, "tunnel mouth 1219 under H1")
    assert run.problems and "U.N." in run.problems[0].why
    assert s.un["H1"]["level"] == "surface" and s.tunnels == {}


# The Generator in the dotted area (1414), a chain of Deep Tunnels reaching it from the incline
# mouth 1418: 1417, 1416, 1415 given, 1414 placed (adjacent to 1415).
GEN_CHAIN = {"1418": "mouth", "1417": "deep", "1416": "deep", "1415": "deep"}


def test_19_4_generator_goes_underground_with_its_tunnel():
    s = position(web={"W01": ("generator", "1414")}, tunnels=GEN_CHAIN)
    s.tunnels_left = 1
    run = place(s, "tunnel deep 1414 under W01")
    assert run.problems == []
    assert s.web["W01"]["level"] == "underground" and s.tunnels["1414"] == "deep"
    assert "Generator" not in texts(run)


def test_19_4_generator_stacked_with_a_un_unit_stays_on_the_surface():
    s = position(web={"W01": ("generator", "1414")}, un={"H1": ("un-heavy-infantry", "1414")},
                 tunnels=GEN_CHAIN)
    s.tunnels_left = 1
    run = place(s, "tunnel deep 1414 under W01")
    assert run.problems and run.problems[0].why.endswith("(19.4)")
    assert s.web["W01"]["level"] == "surface" and "1414" not in s.tunnels


# -- 13.6 demolition (optional rule) --------------------------------------------------------------

def demolition(web=None, un=None, tunnels_=None):
    return position(web=web, un=un, tunnels=tunnels_ or {"1418": "mouth", "1417": "deep"},
                    options={"demolition": "yes"}, stage="web")


def demolish(s, text, rolls=(), role="web"):
    run = run_for(s, role, rolls)
    tunnels.demolish(run, order(text))
    return run


def test_13_6_roll_4_removes_the_tunnel_and_moves_the_unit():
    s = demolition(web={"W02": ("web-infantry", "1417u")})
    run = demolish(s, "demolish W02 1418u", [4])
    assert run.problems == []
    assert s.tunnels == {"1418": "mouth"}
    assert (s.web["W02"]["hex"], s.web["W02"]["level"]) == ("1418", "underground")
    assert "W02" in run.fired


def test_13_6_un_unit_under_a_mouth_comes_out_to_an_adjacent_surface_hex():
    s = demolition(un={"H1": ("un-heavy-infantry", "1418u")}, tunnels_={"1418": "mouth"})
    run = demolish(s, "demolish H1 1318", [6], role="un")
    assert run.problems == []
    assert s.tunnels == {}
    assert (s.un["H1"]["hex"], s.un["H1"]["level"]) == ("1318", "surface")


def test_13_6_roll_3_fails_and_the_unit_stays():
    s = demolition(web={"W02": ("web-infantry", "1417u")})
    run = demolish(s, "demolish W02 1418u", [3])
    assert run.problems == []
    assert s.tunnels == {"1418": "mouth", "1417": "deep"}
    assert (s.web["W02"]["hex"], s.web["W02"]["level"]) == ("1417", "underground")


def test_13_6_not_in_the_generators_hex():
    s = demolition(web={"W01": ("generator", "1417u"), "W02": ("web-infantry", "1417u")})
    run = demolish(s, "demolish W02 1418u")  # no die: it would fail the test by running out
    assert run.problems and "Generator" in run.problems[0].why
    assert s.tunnels == {"1418": "mouth", "1417": "deep"}


def test_13_6_may_not_strand_friendly_units_in_deep_tunnels():
    s = demolition(web={"W02": ("web-infantry", "1417u"), "W03": ("web-infantry", "1416u")},
                   tunnels_=CHAIN)
    run = demolish(s, "demolish W02 1418u")
    assert run.problems and "no connection to the surface" in run.problems[0].why
    assert s.tunnels == CHAIN


def test_13_6_enemy_units_trapped_in_deep_tunnels_are_not_eliminated():
    s = demolition(web={"W02": ("web-infantry", "1417u")},
                   un={"H1": ("un-heavy-infantry", "1416u")}, tunnels_=CHAIN)
    run = demolish(s, "demolish W02 1418u", [5])
    assert run.problems == []
    assert s.tunnels == {"1418": "mouth", "1416": "deep"}
    assert s.un["H1"]["status"] == "map" and s.un["H1"]["level"] == "underground"


def test_13_6_a_unit_that_moved_may_not_demolish():
    s = demolition(web={"W02": ("web-infantry", "1417u")})
    run = run_for(s, "web", [])
    run.did("W02", "move")
    tunnels.demolish(run, order("demolish W02 1418u"))
    assert run.problems and "Movement Phase" in run.problems[0].why


def test_13_6_only_with_the_optional_rule():
    s = position(web={"W02": ("web-infantry", "1417u")}, tunnels={"1418": "mouth",
                                                                   "1417": "deep"})
    assert demolish(s, "demolish W02 1418u").problems


def test_13_6_no_ranged_attack_that_phase():
    # W02 under the mouth 1418 fails (3); H1 in 1317 is two hexes away (1318, then 1317)
    s = demolition(web={"W02": ("web-infantry", "1418u")},
                   un={"H1": ("un-heavy-infantry", "1317")}, tunnels_={"1418": "mouth"})
    run = demolish(s, "demolish W02 1318", [3])
    assert run.problems == [] and s.tunnels == {"1418": "mouth"}
    ranged.fire(run, order("fire H1 by W02"))
    assert run.problems and run.problems[0].rule == "10.3"
    assert s.un["H1"]["status"] == "map"


def test_13_6_a_unit_that_fired_may_not_demolish():
    s = demolition(web={"W02": ("web-infantry", "1417u")})
    run = run_for(s, "web", [])
    run.fired.add("W02")
    tunnels.demolish(run, order("demolish W02 1418u"))
    assert run.problems


# -- 17.3 drilling --------------------------------------------------------------------------

def boar(dropped=0, turn=2):
    s = position(un={"B1": ("un-boar", "1416")}, tunnels=CHAIN, turn=turn)
    s.un["B1"]["dropped"] = dropped
    return s


def test_17_3_roll_4_drills_a_tunnel_mouth():
    s = boar()
    run = run_for(s, "un", [4])
    tunnels.boar_arrives(run, "B1")
    assert s.tunnels["1416"] == "drilled"
    t = Tunnels(s.tunnels)
    assert t.is_mouth("1416")  # a mouth for movement (17.3)


def test_17_3_roll_3_fails():
    s = boar()
    tunnels.boar_arrives(run_for(s, "un", [3]), "B1")
    assert s.tunnels["1416"] == "deep"


def test_17_3_not_on_the_turn_it_dropped():
    s = boar(dropped=2, turn=2)
    tunnels.boar_arrives(run_for(s, "un", []), "B1")  # no die may be rolled
    assert s.tunnels["1416"] == "deep"


def test_17_3_drill_order_tries_again_without_moving():
    s = boar()
    run = run_for(s, "un", [6])
    tunnels.drill(run, order("drill B1"))
    assert run.problems == [] and s.tunnels["1416"] == "drilled"
    assert run.moved["B1"] == ["move"]  # it may not move now


def test_17_3_drill_order_after_moving_is_refused():
    s = boar()
    run = run_for(s, "un", [])
    run.did("B1", "move")
    tunnels.drill(run, order("drill B1"))
    assert run.problems and run.problems[0].rule == "17.3"


def test_17_3_drilled_mouths_are_shielded_from_ranged_combat():
    s = boar()
    tunnels.boar_arrives(run_for(s, "un", [5]), "B1")
    t = Tunnels(s.tunnels)
    assert t.shielded("1416") and not t.shielded("1418")
