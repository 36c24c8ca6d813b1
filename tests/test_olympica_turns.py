"""Olympica's sequence of play by mail (5.0-5.4, 6.0, 12.3.3, 15.0, 19.3): whole windows
resolved through the ruleset, one rulebook case per test, named by its rule."""

from __future__ import annotations

import pytest
from olympica_helpers import Chance, position, run_for

from pbem.engine import registry
from pbem.games.olympica import losses
from pbem.games.olympica.orders import VERBS

RS = registry.get("olympica")


def new_game(**options):
    opts = RS.validate_options(options)
    data = RS.load_data(None)
    board = RS.load_map(None, "stand-in")
    return RS.setup(["web", "un"], opts, data, board, Chance([1] * 400))[0]


def orders(role, s, text):
    parsed, problems = RS.parse(role, RS.window(s), text, 1)
    assert problems == []
    return parsed


def test_5_4_web_substitution_two_infantry_for_a_strongpoint_and_a_dummy():
    s = new_game(scenario="advanced", substitutions="yes")
    assert RS.window(s).phase == "forces" and RS.window(s).simultaneous
    res = RS.resolve(s, {"web": orders("web", s, "substitute infantry"),
                         "un": orders("un", s, "substitute light 2")}, Chance([]))
    assert res.problems == {}
    kinds = sorted(s.kinds.values())
    # 4.2: 4 Strongpoints, 17 Infantry, 4 dummies; 5.4: -1 Strongpoint -1 dummy +2 Infantry
    assert (kinds.count("strongpoint"), kinds.count("web-infantry"), kinds.count("dummy")) \
        == (3, 19, 3)
    assert s.tunnels_left == 4 + 2
    # 5.4: "The U.N. will always have 23 infantry": 19 + 4 less 2 Heavy, plus 2 Light
    heavy = sum(1 for r in s.un.values() if r["kind"] == "un-heavy-infantry")
    light = sum(1 for r in s.un.values() if r["kind"] == "un-light-infantry")
    assert (heavy, light) == (17, 6)
    # secret: the U.N.'s view shows neither the Web's kinds nor its tunnels in hand
    view = RS.view(s, "un")
    assert "kinds" not in view["secret"] and all(r["kind"] is None
                                                 for r in view["web"].values())


def test_5_4_the_counter_mix_cannot_be_exceeded():
    s = new_game(scenario="advanced", substitutions="yes")
    res = RS.resolve(s, {"un": orders("un", s, "substitute light 3")}, Chance([]))
    # 4 Light Infantry + 3 = 7, more than the 6 Light Infantry counters (counter_mix)
    assert "counter mix" in res.problems["un"][0].why


def test_4_0_optional_rules_only_with_the_advanced_scenarios():
    with pytest.raises(ValueError, match="advanced"):
        RS.validate_options({"scenario": "introductory", "umbrellas": "yes"})


def test_5_2_the_short_advanced_scenario_sets_up_face_up():
    s = new_game(scenario="short-advanced")
    RS.resolve(s, {}, Chance(list(range(1, 7)) * 200))  # NMR: the judge places every marker
    assert all(r["face_up"] and r["kind"] for r in RS.view(s, "un")["web"].values())


def test_5_2_face_down_setup_shows_markers_not_kinds():
    s = new_game(scenario="introductory")
    RS.resolve(s, {}, Chance(list(range(1, 7)) * 200))
    view = RS.view(s, "un")
    assert len(view["web"]) == 16  # 4.1: 1 + 2 + 10 + 3 counters
    assert all(r["kind"] is None and r["status"] == "map" for r in view["web"].values())
    gen = next(m for m, k in s.kinds.items() if k == "generator")
    assert s.web[gen]["hex"] in s.board.group("dotted")


def _set_up(scenario="introductory"):
    s = new_game(scenario=scenario)
    RS.resolve(s, {}, Chance(list(range(1, 7)) * 200))
    return s


def test_5_3_initial_drops_then_the_web_may_compel_one_then_turn_1():
    s = _set_up()
    assert RS.window(s).phase == "drop"
    RS.resolve(s, {"un": orders("un", s, "drop H1 0905 H2 0906 T1 1005")}, Chance([]))
    w = RS.window(s)
    assert (w.phase, w.owed, w.short) == ("compel", ("web",), True)
    RS.resolve(s, {}, Chance([]))  # no compulsion
    assert s.un["H1"]["hex"] == "0905" and RS.window(s).phase == "web" and s.turn == 1


def test_6_0_the_un_orders_wait_for_the_compel_window_and_go_to_the_un():
    s = _set_up()
    RS.resolve(s, {"un": orders("un", s, "drop H1 0905 H2 0906 T1 1005")}, Chance([]))
    RS.resolve(s, {}, Chance([]))
    RS.resolve(s, {}, Chance([]))  # Web Player-Turn 1: nothing
    text = "drop H3 0908 H4 0909 T2 1008\nmove H1 0904 0903\nmove H9 0101"
    RS.resolve(s, {"un": orders("un", s, text)}, Chance([]))
    assert RS.window(s).phase == "compel"
    assert s.un["H1"]["hex"] == "0905"  # not yet moved: waits for the Web's answer
    assert "pending" not in RS.view(s, "web").get("secret", {}) or \
        RS.view(s, "web")["secret"].get("pending") is None
    res = RS.resolve(s, {}, Chance([]))
    assert s.un["H1"]["hex"] == "0903"
    # the problem of the line `move H9 0101` (H9 never dropped) goes to the U.N., not the Web
    assert [p.text for p in res.problems.get("un", [])] == ["move H9 0101"]
    assert "web" not in res.problems
    assert RS.window(s).phase == "web" and s.turn == 2


def test_6_0_web_dust_is_removed_at_the_end_of_the_web_player_turn():
    s = position(web={"W01": ("web-infantry", "1212")}, stage="web")
    s.web["W01"]["dust"] = True
    s.evacuation = []
    RS.resolve(s, {}, Chance([]))
    assert s.web["W01"]["dust"] is False and RS.window(s).phase == "un"


def test_6_0_and_15_0_un_dust_removed_before_the_second_movement():
    s = position(un={"L1": ("un-light-infantry", "1212")}, web={"W01": ("generator", "1414")})
    s.un["L1"]["dust"] = True
    res = RS.resolve(s, {"un": orders("un", s, "move L1 1213\nmove2 L1 1213")}, Chance([]))
    # the first move is refused (12.5: DUST), the second movement (15.0) is allowed
    assert s.un["L1"]["hex"] == "1213"
    assert [p.text for p in res.problems["un"]] == ["move L1 1213"]


def test_12_3_3_dust_then_retreat_removes_the_dust():
    s = position(un={"H1": ("un-heavy-infantry", "1212")})
    s.un["H1"]["dust"] = True
    r = run_for(s, "web", [1] * 10)
    losses.retreat(r, "un", "H1")
    assert s.un["H1"]["dust"] is False and s.board.distance(s.un["H1"]["hex"], "1212") == 2


def test_12_5_strongpoints_and_units_under_a_mouth_ignore_dust():
    s = position(web={"W01": ("strongpoint", "1212"), "W02": ("web-infantry", "1717u")},
                 tunnels={"1717": "mouth"}, face_up="all")
    r = run_for(s, "un")
    losses.dust(r, "web", "W01")
    losses.dust(r, "web", "W02")
    assert not s.web["W01"]["dust"] and not s.web["W02"]["dust"]


def test_19_3_no_compel_window_once_the_web_is_broken():
    s = _set_up()
    s.broken = True
    RS.resolve(s, {"un": orders("un", s, "drop H1 0905 H2 0906 T1 1005")}, Chance([]))
    assert RS.window(s).phase == "web"


def test_4_1_the_game_ends_after_game_turn_4_with_the_reveal():
    s = _set_up()
    for _ in range(20):
        w = RS.window(s)
        if w is None:
            break
        RS.resolve(s, {}, Chance([]))
    assert s.turn == 4 and RS.outcome(s).winners == ("web",)
    assert RS.view(s, "un")["reveal"] == s.kinds  # every marker's kind made public


def test_orders_parse_quotes_a_bad_line():
    s = new_game()
    RS.resolve(s, {}, Chance(list(range(1, 7)) * 200))  # to the U.N.'s drop window
    o, problems = VERBS.parse("un", RS.window(s), "drop H1 1213 H2", 7)
    assert problems and problems[0].line == 7 and "unit and hex pairs" in problems[0].why


def test_19_2_the_first_compulsion_that_can_be_carried_out_counts():
    # a first line naming the BOAR (17.1) does not use up the Compulsion Phase
    s = position(un={"B1": ("un-boar", "1212"), "H1": ("un-heavy-infantry", "0505")},
                 web={"W01": ("generator", "1414")}, stage="web")
    s.evacuation = []
    res = RS.resolve(s, {"web": orders("web", s, "compel B1 1213\ncompel H1 0504")},
                     Chance([1] * 5))
    assert s.un["H1"]["hex"] == "0504" and [p.text for p in res.problems["web"]] == [
        "compel B1 1213"]


def test_7_1_a_move_refused_at_its_first_step_leaves_the_unit_free():
    s = position(un={"H1": ("un-heavy-infantry", "1212")}, web={"W01": ("generator", "1414")})
    res = RS.resolve(s, {"un": orders("un", s, "move H1 1215\nmove H1 1213")}, Chance([]))
    assert s.un["H1"]["hex"] == "1213" and [p.text for p in res.problems["un"]] == [
        "move H1 1215"]


def test_12_4_dr2_never_moves_a_defender_underground_even_with_underground_retreat():
    # 12.4: "unless the defending unit is ... underground in a Tunnel Mouth or Deep Tunnel";
    # the owner's standing order `underground retreat` (12.3.2) does not apply to a DR2
    s = position(un={"H1": ("un-heavy-infantry", "1717u")}, tunnels={"1717": "mouth"})
    s.standing["un"] = {"underground": "retreat"}
    r = run_for(s, "web", [1] * 4)
    assert losses.retreat(r, "un", "H1", defender=True) == "stayed"
    assert losses.retreat(r, "un", "H1") in ("retreated", "eliminated")  # an AR2: it may go


def test_16_1_a_laser_tank_under_a_tunnel_mouth_ignores_retreats():
    s = position(un={"T1": ("un-laser-tank", "1717u")}, tunnels={"1717": "mouth"})
    s.standing["un"] = {"underground": "retreat"}
    r = run_for(s, "web", [1] * 4)
    assert losses.retreat(r, "un", "T1") == "stayed" and s.un["T1"]["hex"] == "1717"
