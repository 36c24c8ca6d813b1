"""Bugs a rules audit of Olympica found, each a test built from the position that showed it
(one rulebook case per test, named by its rule). Most are hidden-information cases of 5.2: a
choice or a problem that depends on a face-down counter's secret kind tells the U.N. what it
is."""

from __future__ import annotations

from collections import Counter

from olympica_helpers import Chance, position, run_for

from pbem.engine.ruleset import Parts
from pbem.games.olympica import drops, lifters, losses, movement, ranged, setup, tunnels
from pbem.games.olympica.orders import VERBS
from pbem.games.olympica.run import Run
from pbem.games.olympica.state import UN, WEB, dump, load, view
from pbem.games.olympica.victory import evacuated


def o(text):
    return VERBS.read(text, 1)


def reserve(s, *ids):
    for u in ids:
        s.un[u] = {"kind": "un-heavy-infantry", "status": "reserve", "hex": None,
                   "level": "surface", "dust": False, "dropped": None}


def un_state(s):
    parts = dump(s)
    return load(Parts(parts.public, {UN: parts.secret[UN]}, {}))


def test_14_2_a_compelled_drop_may_not_land_on_another_drops_hexes():
    s = position(web={"W01": ("generator", "1516")}, stage="un", turn=2)
    reserve(s, *(f"H{i}" for i in range(1, 7)))
    r = run_for(s, UN, [])
    drops.declare(r, [o("drop H1 1412 H2 1413 H3 1513"), o("drop H4 1414 H5 1415 H6 1515")])
    w = run_for(s, WEB, [])
    assert not drops.compel_drop(w, o("compel-drop 2 1412"))  # onto drop 1's three hexes
    drops.land(w)
    places = Counter((r["hex"], r["level"]) for r in s.un.values() if r["status"] == "map")
    assert max(places.values()) == 1


def test_11_0_a_un_unit_left_with_the_face_down_generator_captures_it():
    # the Web Infantry W01 falls; H1 stays in 1414 with W02: the Generator is captured, face
    # up, so the public `stacked` never points at a face-down marker
    s = position(web={"W01": ("web-infantry", "1414"), "W02": ("generator", "1414")},
                 un={"H1": ("un-heavy-infantry", "1412")}, turn=2)
    r = run_for(s, UN, [1, 4])  # the defender's 1 passes the die; H1's 4 is DE
    movement.move(r, o("move H1 1413 1414"))
    assert s.stacked and view(s, "*")["web"]["W02"]["kind"] == "generator"


def test_11_0_a_dummy_left_in_the_hex_is_removed():
    s = position(web={"W01": ("web-infantry", "1414"), "W02": ("dummy", "1414")},
                 un={"H1": ("un-heavy-infantry", "1412")}, turn=2)
    r = run_for(s, UN, [1, 4])
    movement.move(r, o("move H1 1413 1414"))
    assert s.web["W02"]["status"] == "removed" and not s.stacked


def test_5_2_the_judges_setup_for_a_silent_web_tells_nothing():
    # the Generator's hex and the dummies' hexes come from the hidden stream, one counter a
    # hex while hexes are free: no fixed Generator hex, no stack of dummies
    gens, stacks = set(), 0
    for seed in range(1, 5):
        s = position(scenario="advanced", stage="web-setup", turn=0)
        s.kinds = {f"W{i:02d}": k for i, k in enumerate(
            ["generator"] + ["strongpoint"] * 4 + ["web-infantry"] * 17 + ["dummy"] * 4, 1)}
        s.web = {m: {"status": "box", "hex": None, "level": "surface", "dust": False,
                     "face_up": False, "kind": None} for m in s.kinds}
        ch = Chance([])
        ch.hidden.shuffle = lambda items, why, seed=seed: sorted(
            items, key=lambda h: hash((h, seed)) % 9973)
        setup.place_rest(Run(s, WEB, ch), sent=False)
        gens.add(next(r["hex"] for m, r in s.web.items() if s.kinds[m] == "generator"))
        stacks += sum(1 for n in Counter(r["hex"] for r in s.web.values()).values() if n > 1)
    assert len(gens) > 1 and stacks == 0


def test_12_3_the_default_retreat_does_not_depend_on_the_generators_hex():
    ends = set()
    for gen in ("1213", "1615"):
        s = position(web={"W01": ("web-infantry", "1411"), "W02": ("web-infantry", "1410"),
                          "W03": ("generator", gen)},
                     un={"H1": ("un-heavy-infantry", "1409")}, stage="web")
        r = run_for(s, WEB, [1] * 4)
        losses.retreat(r, UN, "H1")
        ends.add(s.un["H1"]["hex"])
    assert len(ends) == 1


def test_13_5_3_a_face_down_marker_above_counts_as_a_unit_for_the_attacker():
    # the same problem whatever the marker above is, as the U.N.'s receipt says
    whys = set()
    for top in ("web-infantry", "dummy"):
        s = position(web={"W01": ("web-infantry", "1717u"), "W02": (top, "1717")},
                     un={"T1": ("un-laser-tank", "1714")}, tunnels={"1717": "mouth"}, turn=2)
        dry = run_for(un_state(s), UN, dry=True)
        ranged.start_phase(dry)
        ranged.fire(dry, o("fire W01 by T1"))
        r = run_for(s, UN, [1, 1])
        ranged.start_phase(r)
        ranged.fire(r, o("fire W01 by T1"))
        assert [p.why for p in dry.problems] == [p.why for p in r.problems]
        whys.add(tuple(p.why for p in r.problems))
    assert len(whys) == 1


def test_13_6_the_generator_stopping_a_demolition_is_turned_face_up():
    s = position(web={"W01": ("generator", "1416u")},
                 un={"H1": ("un-heavy-infantry", "1416u")},
                 tunnels={"1416": "deep", "1417": "mouth"}, turn=2,
                 options={"demolition": "yes"})
    r = run_for(s, UN, [6])
    ranged.start_phase(r)
    tunnels.demolish(r, o("demolish H1 1417u"))
    assert r.problems and view(s, UN)["web"]["W01"]["kind"] == "generator"


def test_7_2_a_move_stopped_by_an_incline_never_ends_on_a_friend():
    s = position(un={"H1": ("un-heavy-infantry", "1318"), "H2": ("un-heavy-infantry", "1319")},
                 turn=2)
    r = run_for(s, UN, [])
    movement.move(r, o("move H1 1319 1320"))  # 1319 is incline and holds H2
    assert s.un["H1"]["hex"] == "1318"


def test_7_2_a_move_cut_short_by_a_refused_step_backs_off_a_friend():
    s = position(web={"W01": ("web-infantry", "1212"), "W02": ("web-infantry", "1215")},
                 stage="web")
    r = run_for(s, WEB, [])
    movement.move(r, o("move W01 1213 1214 1215 1216"))  # the 4th step is refused
    assert s.web["W01"]["hex"] == "1214"


def test_5_2_a_refused_first_step_does_not_turn_the_counter_face_up():
    s = position(web={"W01": ("web-infantry", "1212")}, stage="web")
    r = run_for(s, WEB, [])
    movement.move(r, o("move W01 1215"))
    assert not s.web["W01"]["face_up"] and view(s, UN)["web"]["W01"]["kind"] is None


def test_18_4_the_lifter_must_still_be_beside_the_generator():
    s = position(web={"W01": ("generator", "1414"), "W02": ("web-infantry", "1411")},
                 un={"H1": ("un-heavy-infantry", "1414"), "F1": ("un-lifter", "1413")},
                 face_up=("W01", "W02"), stage="web", turn=3)
    s.broken = True
    s.evacuation = lifters.evacuation_ready(s)
    assert s.evacuation == ["F1"]
    s.un["F1"]["hex"] = "1212"  # a DR2 in the Web's Ranged Combat Phase pushed it away
    r = run_for(s, UN, [])
    path = " ".join(f"12{row:02d}" for row in range(11, 0, -1))
    lifters.lift(r, o(f"lift F1 +gen {path} off"))
    assert not evacuated(s) and r.problems
