"""Olympica U.N. drops (5.3, 14.0-14.4, 19.1) and the Web's compulsions (14.2, 19.2, 19.3):
pbem/games/olympica/drops.py on positions of the stand-in map (pbem/games/olympica/map.toml).

Geometry worked by hand on the even-low map (even columns half a hex lower): a hex in an even
column C, row R touches (C, R-1), (C, R+1) and rows R and R+1 of columns C-1 and C+1; a hex in
an odd column touches rows R-1 and R of the columns beside it. Terrain from map.toml's lists
(a hex in neither list is clear).
"""

from __future__ import annotations

from olympica_helpers import position, run_for

from pbem.games.olympica import drops
from pbem.games.olympica.orders import VERBS
from pbem.games.olympica.state import from_view, view

KINDS = {"H": "un-heavy-infantry", "L": "un-light-infantry", "T": "un-laser-tank",
         "F": "un-lifter", "B": "un-boar"}


def reserve(s, *ids):
    """Add U.N. units in reserve (not dropped yet), their kind from the id's letter."""
    for u in ids:
        s.un[u] = {"kind": KINDS[u[0]], "status": "reserve", "hex": None, "level": None,
                   "dust": False, "dropped": None}
    return s


def order(text):
    return VERBS.read(text, 1)


def declare(s, *texts, role="un"):
    run = run_for(s, role, dry=True)
    drops.declare(run, [order(t) for t in texts])
    return run


def whys(run):
    return [p.why for p in run.problems]


# -- 14.1 placement ----------------------------------------------------------------------------

def test_14_1_a_drop_of_three_mutually_adjacent_hexes_is_recorded():
    # 0402 and 0403 share column 4; 0503 (odd column 5) touches rows 3 and 4 of column 4... and
    # 0402 (even column) touches rows 2 and 3 of column 5: all three are adjacent.
    s = reserve(position(), "H1", "H2", "T1")
    run = declare(s, "drop H1 0402 H2 0403 T1 0503")
    assert run.problems == []
    assert s.drops == [{"units": [["H1", "0402"], ["H2", "0403"], ["T1", "0503"]]}]
    assert s.un["H1"]["status"] == "reserve"  # not placed before the drops land


def test_14_1_a_line_of_three_is_refused():
    # 0402 and 0404 are two hexes apart in column 4: not adjacent.
    s = reserve(position(), "H1", "H2", "T1")
    run = declare(s, "drop H1 0402 H2 0403 T1 0404")
    assert len(run.problems) == 1 and "0402 and 0404 are not adjacent" in whys(run)[0]
    assert s.drops == []


def test_14_1_three_units_unless_fewer_are_left_in_reserve():
    s = reserve(position(), "H1", "H2", "H3", "H4")
    run = declare(s, "drop H1 0402 H2 0403")
    assert len(run.problems) == 1 and s.drops == []
    s = reserve(position(), "H1", "H2")
    run = declare(s, "drop H1 0402 H2 0403")
    assert run.problems == [] and len(s.drops) == 1


def test_14_1_under_a_tunnel_mouth_refused_on_top_allowed():
    # 1010 (even column) touches 1011 and 1111; 1011 touches rows 11 and 12 of column 11.
    s = reserve(position(tunnels={"1010": "mouth"}), "H1", "H2", "H3")
    run = declare(s, "drop H1 1010u H2 1011 H3 1111")
    assert len(run.problems) == 1 and "not under them" in whys(run)[0]
    assert s.drops == []
    run = declare(s, "drop H1 1010 H2 1011 H3 1111")
    assert run.problems == []
    assert s.drops[0]["units"][0] == ["H1", "1010"]


def test_14_1_on_top_of_web_units_allowed_not_onto_un_units():
    s = reserve(position(web={"W01": ("web-infantry", "0402")},
                         un={"T9": ("un-laser-tank", "0503")}), "H1", "H2", "H3")
    run = declare(s, "drop H1 0402 H2 0403 H3 0503")
    assert len(run.problems) == 1 and "0503 holds Laser Tank T9" in whys(run)[0]
    run = declare(s, "drop H1 0402 H2 0403 H3 0303")  # 0303 touches 0402 and 0403 (odd col 3)
    assert run.problems == [] and len(s.drops) == 1


def test_4_1_no_boar_in_the_introductory_scenario():
    s = reserve(position(scenario="introductory"), "B1", "H1", "H2")
    run = declare(s, "drop B1 0402 H1 0403 H2 0503")
    assert len(run.problems) == 1 and "advanced" in whys(run)[0]


# -- 14.2 drop compulsion ------------------------------------------------------------------------

def near_drop(web=None, **kw):
    """Drop 1 at 1213 1214 1314 (1314 is next to the Generator's 1414), Generator W01."""
    s = reserve(position(web={"W01": ("generator", "1414"), **(web or {})}, **kw),
                "H1", "H2", "H3", "T1", "T2", "T3")
    run = declare(s, "drop H1 1213 H2 1214 H3 1314")
    assert run.problems == []
    return s


def test_14_2_only_drops_within_two_hexes_of_the_generator():
    # Drop 2 at 1014 1114 1115: 1114 is three columns west of 1414 and one row down in axial
    # terms (q 13 -> 10, r 7 -> 8): 3 hexes; 1115 likewise 3; 1014 four columns away.
    s = near_drop()
    declare(s, "drop T1 1014 T2 1114 T3 1115")
    assert drops.compellable(s) == [1]
    run = run_for(s, "web", dry=True)
    assert drops.compel_drop(run, order("compel-drop 2 1015")) is False
    assert "within 2 hexes" in whys(run)[0]


def test_14_2_compulsion_keeps_the_shape():
    # First unit 1213 -> 1313: one step north-east. From an even column (lower) the north-east
    # neighbour is the same row of the next column; from an odd column, the row above:
    # 1213 -> 1313, 1214 -> 1314, 1314 -> 1413.
    s = near_drop()
    run = run_for(s, "web", dry=False)
    assert drops.compel_drop(run, order("compel-drop 1 1313")) is True
    assert s.drops[0]["units"] == [["H1", "1313"], ["H2", "1314"], ["H3", "1413"]]
    assert s.drops[0]["from"] == [["H1", "1213"], ["H2", "1214"], ["H3", "1314"]]
    assert [e.kind for e in run.events] == ["compel-drop"]


def test_14_2_compulsion_of_three_hexes_two_columns_west_and_two_rows_up():
    # Two columns keep a column's parity, so every unit moves (-2 columns, -2 rows):
    # 1213 -> 1011, 1214 -> 1012, 1314 -> 1112; axial (dq, dr) = (-2, -1): 3 hexes.
    s = near_drop()
    run = run_for(s, "web")
    assert drops.compel_drop(run, order("compel-drop 1 1011")) is True
    assert s.drops[0]["units"] == [["H1", "1011"], ["H2", "1012"], ["H3", "1112"]]


def test_14_2_compulsion_limited_to_three_hexes():
    s = near_drop()
    run = run_for(s, "web")
    assert drops.compel_drop(run, order("compel-drop 1 1209")) is False  # 4 rows north
    assert "1 to 3 hexes" in whys(run)[0]
    assert drops.compel_drop(run, order("compel-drop 1 1210")) is True  # 3 rows north
    assert s.drops[0]["units"] == [["H1", "1210"], ["H2", "1211"], ["H3", "1311"]]


def test_14_2_not_onto_web_units_when_another_landing_is_open():
    # The north-east step of test_14_2_compulsion_keeps_the_shape puts H1 on W02 at 1313.
    s = near_drop(web={"W02": ("web-infantry", "1313")})
    run = run_for(s, "web")
    assert drops.compel_drop(run, order("compel-drop 1 1313")) is False
    assert "another landing is open" in whys(run)[0]
    assert s.drops[0]["units"][0] == ["H1", "1213"]


CORNER = """[map]
name = "corner"
source = "test: three columns of two hexes"
columns = 3
rows = 2
offset = "even-low"
default = "clear"
"""


def test_14_2_onto_web_units_when_no_other_landing_exists():
    # On a 3 x 2 map, the drop 0101 0102 0201 (0201 is south-east of 0101, 0102 south of it)
    # has one other place that keeps it on the map: one step south-east, 0201 0202 0302
    # (0302 is south-east of the even-column 0201). Web counters hold 0202 and 0302.
    s = reserve(position(web={"W01": ("generator", "0202"), "W02": ("web-infantry", "0302")},
                         board_text=CORNER), "H1", "H2", "H3")
    assert declare(s, "drop H1 0101 H2 0102 H3 0201").problems == []
    run = run_for(s, "web")
    assert drops.compel_drop(run, order("compel-drop 1 0201")) is True, whys(run)
    assert s.drops[0]["units"] == [["H1", "0201"], ["H2", "0202"], ["H3", "0302"]]


def test_14_2_one_drop_per_drop_phase():
    # Drop 2 at 1614 1615 1715 is next to 1414's neighbour: 1614 is two columns east (2 hexes).
    s = near_drop()
    declare(s, "drop T1 1614 T2 1615 T3 1715")
    assert drops.compellable(s) == [1, 2]
    run = run_for(s, "web")
    assert drops.compel_drop(run, order("compel-drop 1 1313")) is True
    assert drops.compel_drop(run, order("compel-drop 2 1714")) is False
    assert "drop 1 has been compelled already" in whys(run)[0]
    assert drops.compellable(s) == []


# -- 14.3 avalanches and close assaults, 14.4 ----------------------------------------------------

def landing(drop_text, web=None, rolls=(), turn=1, ids=("H1", "H2", "H3")):
    s = reserve(position(web=web, turn=turn), *ids)
    assert declare(s, drop_text).problems == []
    run = run_for(s, "un", rolls)
    drops.land(run)
    return s, run


def test_14_3_boar_dropped_on_a_cliff_is_destroyed():
    # 1021 cliff; 1020 and 0921 clear, each touching the others.
    s, _ = landing("drop B1 1021 H1 1020 H2 0921", ids=("B1", "H1", "H2"))
    assert s.un["B1"]["status"] == "eliminated"
    assert s.un["H1"]["status"] == "map" and s.drops == []


def test_14_3_lifter_dropped_on_an_incline_is_destroyed():
    # 1120 incline; 1119 and 1019 clear, each touching the others.
    s, _ = landing("drop F1 1120 H1 1119 H2 1019", ids=("F1", "H1", "H2"))
    assert s.un["F1"]["status"] == "eliminated"


def test_14_3_infantry_on_a_cliff_rolls_6_eliminated():
    s, _ = landing("drop H1 1021 H2 1020 H3 0921", rolls=[6])
    assert s.un["H1"]["status"] == "eliminated"


def test_14_3_infantry_on_a_cliff_rolls_5_survives():
    s, run = landing("drop H1 1021 H2 1020 H3 0921", rolls=[5])
    assert s.un["H1"]["status"] == "map" and s.un["H1"]["hex"] == "1021"
    assert run.chance.public.values == []


def test_14_3_landing_on_a_web_dummy_removes_it():
    s, _ = landing("drop H1 0402 H2 0403 H3 0503", web={"W01": ("dummy", "0503")})
    assert s.web["W01"]["status"] == "removed"
    assert s.un["H3"]["status"] == "map" and s.un["H3"]["hex"] == "0503"


def test_14_3_avalanche_before_the_close_assault():
    # H1 lands on W01 in the cliff hex 1021: avalanche die 5 (no avalanche), then the Web
    # Infantry rolls first on the 4-1 column (11.0): 4 eliminates the assaulting infantry.
    s, run = landing("drop H1 1021 H2 1020 H3 0921", web={"W01": ("web-infantry", "1021")},
                     rolls=[5, 4])
    why = run.chance.public.why
    assert len(why) == 2 and "avalanche" in why[0] and "close assault" in why[1]
    assert s.un["H1"]["status"] == "eliminated"
    assert s.web["W01"]["status"] == "map" and s.web["W01"]["face_up"]


def test_14_4_dropped_units_record_the_turn():
    s, run = landing("drop H1 0402 H2 0403 H3 0503", turn=3)
    for u, h in (("H1", "0402"), ("H2", "0403"), ("H3", "0503")):
        r = s.un[u]
        assert (r["status"], r["hex"], r["level"], r["dropped"]) == ("map", h, "surface", 3)
        assert run.moved[u] == ["dropped"]


# -- 19.2 movement compulsion --------------------------------------------------------------------

def compel(s, text, rolls=(), run=None):
    run = run or run_for(s, "web", rolls)
    drops.compel(run, order(text))
    return run


def test_19_2_compulsion_up_to_three_hexes_terrain_does_not_stop_it():
    # 0402 -> 0403 (clear) -> 0404 (incline) -> 0405 (incline): no stop, no die.
    s = position(un={"H1": ("un-heavy-infantry", "0402")})
    run = compel(s, "compel H1 0403 0404 0405")
    assert run.problems == [] and s.un["H1"]["hex"] == "0405"
    assert run.events[0].data["path"] == ["0402", "0403", "0404", "0405"]
    s = position(un={"H1": ("un-heavy-infantry", "0802")})
    run = compel(s, "compel H1 0803 0804 0805 0806")
    assert "up to 3 hexes" in whys(run)[0] and s.un["H1"]["hex"] == "0802"


def test_19_2_not_the_boar():
    s = position(un={"B1": ("un-boar", "0802")})
    run = compel(s, "compel B1 0803")
    assert "BOAR" in whys(run)[0] and s.un["B1"]["hex"] == "0802"


def test_19_2_not_into_a_hex_with_a_un_unit():
    s = position(un={"H1": ("un-heavy-infantry", "0802"), "H2": ("un-heavy-infantry", "0803")})
    run = compel(s, "compel H1 0803")
    assert "0803 holds Heavy Infantry H2" in whys(run)[0]


def test_19_2_not_from_a_cliff_hex_into_another():
    # 1419 (cliff, even column 14) touches 1519 (cliff).
    s = position(un={"H1": ("un-heavy-infantry", "1419")})
    run = compel(s, "compel H1 1519")
    assert "both cliff hexes" in whys(run)[0] and s.un["H1"]["hex"] == "1419"


def test_19_2_lifter_compelled_into_an_incline_is_destroyed():
    # 1320 clear -> 1319 incline (same column): no die.
    s = position(un={"F1": ("un-lifter", "1320")})
    run = compel(s, "compel F1 1319")
    assert run.problems == [] and s.un["F1"]["status"] == "eliminated"


def test_19_2_into_a_tunnel():
    # 0910 (odd column 9) touches 1010, a Tunnel Mouth: move G, under the mouth.
    s = position(un={"H1": ("un-heavy-infantry", "0910")}, tunnels={"1010": "mouth"})
    run = compel(s, "compel H1 1010u")
    assert run.problems == [] and (s.un["H1"]["hex"], s.un["H1"]["level"]) == \
        ("1010", "underground")


def test_19_2_onto_web_only_when_no_other_hex_and_the_close_assault_ends_it():
    # 0101 touches only 0102 (south) and 0201 (south-east) on the map.
    web = {"W01": ("web-infantry", "0201")}
    s = position(web=web, un={"H1": ("un-heavy-infantry", "0101")})
    run = compel(s, "compel H1 0201")
    assert "0102 is open" in whys(run)[0]
    s = position(web=web, un={"H1": ("un-heavy-infantry", "0101"),
                              "H2": ("un-heavy-infantry", "0102")})
    run = compel(s, "compel H1 0201 0202")
    assert "not compelled on after it" in whys(run)[0]
    run = compel(s, "compel H1 0201", rolls=[4])  # the defender rolls 4 on 4-1: DE
    assert run.problems == []
    kinds = [e.kind for e in run.events]
    assert kinds[0] == "compel" and "assault" in kinds
    assert s.un["H1"]["status"] == "eliminated" and s.web["W01"]["face_up"]


def test_19_2_one_unit_each_compulsion_phase():
    s = position(un={"H1": ("un-heavy-infantry", "0802"), "H2": ("un-heavy-infantry", "0902")})
    run = compel(s, "compel H1 0803")
    compel(s, "compel H2 0903", run=run)
    assert len(run.problems) == 1 and "compelled already" in whys(run)[0]
    assert s.un["H2"]["hex"] == "0902"


def test_19_2_web_units_may_not_be_compelled():
    s = position(web={"W01": ("web-infantry", "0802")})
    run = compel(s, "compel W01 0803")
    assert "Web units may not be compelled" in whys(run)[0]


# -- 19.3 breaking the Web -----------------------------------------------------------------------

def test_19_3_broken_when_a_un_unit_ends_its_turn_with_the_generator():
    s = near_drop(un={"H9": ("un-heavy-infantry", "1414")})
    assert drops.compellable(s) == [1]
    run = run_for(s, "un")
    drops.break_web(run)
    assert s.broken and s.web["W01"]["face_up"]
    assert "broken" in [e.kind for e in run.events]
    assert drops.compellable(s) == []
    run = compel(s, "compel H9 1413")
    assert "broken" in whys(run)[0]


def test_13_3_a_un_unit_above_the_generator_underground_does_not_break_the_web():
    s = position(web={"W01": ("generator", "1717u")}, un={"H1": ("un-heavy-infantry", "1717")},
                 tunnels={"1717": "mouth"})
    drops.break_web(run_for(s, "un"))
    assert not s.broken


def test_14_2_the_web_checks_its_compel_window_on_its_own_state():
    # The Web's state holds no U.N. reserve (secret): its dry run still compels and lands the
    # publicly declared drop, the kinds read from the ids' letters.
    s = near_drop()
    mine = from_view(view(s, "web"))
    assert "H1" not in mine.un and mine.drops == s.drops
    run = run_for(mine, "web", dry=True)
    assert drops.compel_drop(run, order("compel-drop 1 1313")) is True
    drops.land(run)
    assert run.problems == []
    assert (mine.un["H3"]["kind"], mine.un["H3"]["hex"]) == ("un-heavy-infantry", "1413")
