"""pbem.boards.levels: two levels in a hex (Olympica 9.0, 13.1-13.6, 17.3, 18.4).

Every expected value is worked by hand from the map below and the rulebook's text. The map is
6 x 6, ``even-low`` (docs/maps.md): a hex (c, r) of an odd (upper) column touches (c, r-1),
(c, r+1) and rows r-1 and r of columns c-1 and c+1; a hex of an even (lower) column touches
(c, r-1), (c, r+1) and rows r and r+1 of columns c-1 and c+1. Worked once, used throughout:

- 0303 (upper) touches 0302, 0304, 0202, 0203, 0402, 0403;
- 0403 (lower) touches 0402, 0404, 0303, 0304, 0503, 0504;
- 0504 (upper) touches 0503, 0505, 0403, 0404, 0603, 0604;
- 0505 (upper) touches 0504, 0506, 0404, 0405, 0604, 0605.

So CHAIN (mouth 0303 - deep 0403 - deep 0504 - mouth 0505) is a simple chain: 0303 does not
touch 0504 and 0403 does not touch 0505.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.boards.hexmap import load_map
from pbem.boards.levels import (DEEP, DRILLED, MOUTH, SURFACE, UNDERGROUND, LevelError, Place,
                                Tunnels, connected, stranded, step_rule, steps_from,
                                underground_path)

MAP = load_map("""
[map]
name = "levels test"
source = "stand-in: tests/test_levels.py"
columns = 6
rows = 6
offset = "even-low"
default = "clear"

[terrain]
cliff = ["0202", "0303"]
incline = ["0404", "0505"]
""", "test")

CHAIN = Tunnels({"0303": MOUTH, "0403": DEEP, "0504": DEEP, "0505": MOUTH})


def P(text):
    return Place.parse(text)


def enemy_on(*hexes):
    return lambda h: h in hexes


# -- the eight moves of 13.4 ------------------------------------------------------------------

def test_13_4_A_deep_underground_to_adjacent_tunnel():
    """13.4 A: "Underground in a Deep Tunnel to underground in an adjacent tunnel hex"."""
    # 0403 is deep, 0504 (deep) and 0303 (mouth) both touch it.
    assert step_rule(CHAIN, MAP, P("0403u"), P("0504u")) == "A"
    assert step_rule(CHAIN, MAP, P("0403u"), P("0303u")) == "A"


def test_13_4_B_mouth_underground_to_adjacent_tunnel():
    """13.4 B: "Underground in a Tunnel Mouth to underground in an adjacent tunnel hex"."""
    # 0303 is a mouth and touches deep 0403; 0505 is a mouth and touches deep 0504.
    assert step_rule(CHAIN, MAP, P("0303u"), P("0403u")) == "B"
    assert step_rule(CHAIN, MAP, P("0505u"), P("0504u")) == "B"


def test_13_4_C_under_mouth_to_surface_of_same_hex():
    """13.4 C: "Underground in a Tunnel Mouth to the surface portion of the same hex"."""
    assert step_rule(CHAIN, MAP, P("0303u"), P("0303")) == "C"


def test_13_4_D_under_mouth_to_adjacent_surface_blocked_by_enemy_above():
    """13.4 D: "Underground in a Tunnel Mouth to an adjacent surface hex", impossible "if an
    enemy unit is above the Tunnel Mouth"."""
    # 0302 touches 0303.
    assert step_rule(CHAIN, MAP, P("0303u"), P("0302")) == "D"
    assert step_rule(CHAIN, MAP, P("0303u"), P("0302"), enemy_above=enemy_on("0303")) is None
    # an enemy above some other hex does not block D
    assert step_rule(CHAIN, MAP, P("0303u"), P("0302"), enemy_above=enemy_on("0505")) == "D"


def test_13_4_E_above_mouth_to_adjacent_surface():
    """13.4 E: "Above a Tunnel Mouth to an adjacent surface hex"."""
    # 0304 touches 0303 and has no tunnel; 0403 touches 0303, its surface is over a deep tunnel.
    assert step_rule(CHAIN, MAP, P("0303"), P("0304")) == "E"
    assert step_rule(CHAIN, MAP, P("0303"), P("0403")) == "E"
    # 0202 touches 0303; with a mouth in both, the step is still E (from above a mouth)
    two = CHAIN.with_marker("0202", MOUTH)
    assert step_rule(two, MAP, P("0303"), P("0202")) == "E"


def test_13_4_F_above_mouth_to_under_same_mouth():
    """13.4 F: "Above a Tunnel Mouth to under the same Tunnel Mouth"."""
    assert step_rule(CHAIN, MAP, P("0303"), P("0303u")) == "F"
    assert step_rule(CHAIN, MAP, P("0505"), P("0505u")) == "F"


def test_13_4_G_adjacent_to_under_mouth_blocked_by_enemy_above():
    """13.4 G: "Adjacent to a Tunnel Mouth to under the same Tunnel Mouth", impossible "if an
    enemy unit is above the Tunnel Mouth"."""
    # 0302 touches 0303.
    assert step_rule(CHAIN, MAP, P("0302"), P("0303u")) == "G"
    assert step_rule(CHAIN, MAP, P("0302"), P("0303u"), enemy_above=enemy_on("0303")) is None
    # an enemy above the starting hex does not matter
    assert step_rule(CHAIN, MAP, P("0302"), P("0303u"), enemy_above=enemy_on("0302")) == "G"


def test_13_4_H_adjacent_to_above_mouth():
    """13.4 H: "Adjacent to a Tunnel Mouth to above the Tunnel Mouth"."""
    assert step_rule(CHAIN, MAP, P("0302"), P("0303")) == "H"
    # from the surface over deep 0403 (which touches 0303): a surface step onto the mouth
    assert step_rule(CHAIN, MAP, P("0403"), P("0303")) == "H"
    # "Enemy units on the surface are also disregarded, except that D and G ..."
    assert step_rule(CHAIN, MAP, P("0302"), P("0303"), enemy_above=enemy_on("0303")) == "H"


def test_plain_surface_step_is_S():
    """A surface step between adjacent hexes with no mouth involved: no 13.4 letter."""
    # 0101 touches 0102; 0402 touches 0403 (whose surface lies over a deep tunnel, 13.3).
    assert step_rule(CHAIN, MAP, P("0101"), P("0102")) == "S"
    assert step_rule(CHAIN, MAP, P("0402"), P("0403")) == "S"


# -- what 13.4 does not allow ------------------------------------------------------------------

def test_13_1_deep_tunnel_units_cannot_surface():
    """13.1: "Deep Tunnels connect only with tunnels in adjacent hexes"; 13.4 lists only A for
    a unit in a Deep Tunnel: neither C nor D from a deep hex."""
    assert step_rule(CHAIN, MAP, P("0403u"), P("0403")) is None   # would be C
    assert step_rule(CHAIN, MAP, P("0403u"), P("0402")) is None   # would be D (0402 touches)
    assert step_rule(CHAIN, MAP, P("0403"), P("0403u")) is None   # would be F
    assert step_rule(CHAIN, MAP, P("0402"), P("0403u")) is None   # would be G


def test_level_change_in_a_hex_without_a_mouth_is_illegal():
    """Levels meet only at a Tunnel Mouth (13.1): no tunnel at 0101, a deep one at 0504."""
    assert step_rule(CHAIN, MAP, P("0101"), P("0101u")) is None
    assert step_rule(CHAIN, MAP, P("0101u"), P("0101")) is None   # no underground at 0101
    assert step_rule(CHAIN, MAP, P("0504"), P("0504u")) is None


def test_non_adjacent_and_non_tunnel_steps_are_illegal():
    """Each move of 13.4 is to the same or an adjacent hex; underground only into tunnels."""
    # 0303 and 0504 are joined underground through 0403 but do not touch
    assert step_rule(CHAIN, MAP, P("0303u"), P("0504u")) is None
    assert step_rule(CHAIN, MAP, P("0101"), P("0103")) is None
    # 0304 touches 0303 but holds no tunnel
    assert step_rule(CHAIN, MAP, P("0303u"), P("0304u")) is None
    # staying put is no move; a hex off the 6 x 6 map is no move
    assert step_rule(CHAIN, MAP, P("0303u"), P("0303u")) is None
    assert step_rule(CHAIN, MAP, P("0606"), P("0607")) is None


def test_17_3_drilled_mouth_is_a_mouth_for_movement():
    """17.3: "Drilled Tunnel Mouths are identical to other Tunnel Mouths for movement"."""
    drilled = CHAIN.with_marker("0403", DRILLED)
    assert step_rule(drilled, MAP, P("0403u"), P("0403")) == "C"
    assert step_rule(drilled, MAP, P("0403u"), P("0504u")) == "B"
    assert step_rule(drilled, MAP, P("0402"), P("0403u")) == "G"
    # ... "however, like units in Deep Tunnels, units underground in drilled Tunnel Mouths may
    # neither attack nor be attacked using Ranged Combat" (13.5.1 for deep ones)
    assert drilled.shielded("0403") and CHAIN.shielded("0504") and not CHAIN.shielded("0303")


def test_steps_from_under_a_mouth():
    """All one-hex moves from under mouth 0303: C to its own surface, D to the surface of each
    of its six neighbours (0202, 0203, 0302, 0304, 0402, 0403), B to 0403u (the only tunnel
    neighbour); sorted by hex, surface first."""
    expected = [(P("0202"), "D"), (P("0203"), "D"), (P("0302"), "D"), (P("0303"), "C"),
                (P("0304"), "D"), (P("0402"), "D"), (P("0403"), "D"), (P("0403u"), "B")]
    assert steps_from(CHAIN, MAP, P("0303u")) == expected
    # with an enemy above 0303, D is impossible: only C and B remain
    assert steps_from(CHAIN, MAP, P("0303u"), enemy_above=enemy_on("0303")) == [
        (P("0303"), "C"), (P("0403u"), "B")]


# -- Place ---------------------------------------------------------------------------------------

def test_place_parse_and_str():
    assert P("1717") == Place("1717", SURFACE) and not P("1717").underground
    assert P("1717u") == Place("1717", UNDERGROUND) and P("1717u").underground
    assert P(" 1010U ") == Place("1010", UNDERGROUND)
    assert str(Place("1717")) == "1717" and str(Place("1717", UNDERGROUND)) == "1717u"
    assert sorted([P("0102"), P("0101u"), P("0101")]) == [P("0101"), P("0101u"), P("0102")]


@pytest.mark.parametrize("bad", ["17x7", "1717d", "171", "", "u", "0017", "1717uu", "17170"])
def test_place_parse_errors_quote_the_input(bad):
    with pytest.raises(LevelError) as err:
        Place.parse(bad)
    assert repr(bad) in str(err.value)
    assert "expected a hex label such as 1717, or 1717u for underground" in str(err.value)


def test_place_refuses_bad_level_and_label():
    with pytest.raises(LevelError, match="'attic'"):
        Place("1717", "attic")
    with pytest.raises(LevelError, match="'17x7'"):
        Place("17x7")


@given(st.integers(1, 99), st.integers(1, 99), st.sampled_from([SURFACE, UNDERGROUND]))
def test_place_round_trip(column, row, level):
    place = Place(f"{column:02d}{row:02d}", level)
    assert Place.parse(str(place)) == place


# -- Tunnels: placement (13.2), demolition (13.6), JSON ---------------------------------------

def test_13_2_mouths_only_in_cliff_or_incline():
    """13.2: "Tunnel Mouths must be placed in cliff or incline hexes"."""
    problem = Tunnels().placement_problem(MAP, "0101", MOUTH)   # 0101 is clear
    assert problem is not None and "clear" in problem
    assert Tunnels().placement_problem(MAP, "0202", MOUTH) is None   # cliff
    assert Tunnels().placement_problem(MAP, "0404", MOUTH) is None   # incline
    assert Tunnels().placement_problem(MAP, "0101", MOUTH, mouth_terrains=("clear",)) is None


def test_13_2_deep_tunnels_must_connect_to_a_mouth():
    """13.2: "Deep Tunnels must be placed either adjacent to a Tunnel Mouth or adjacent to
    another Deep Tunnel that ultimately connects to a Tunnel Mouth"."""
    one = Tunnels({"0303": MOUTH})
    assert Tunnels().placement_problem(MAP, "0403", DEEP) is not None   # no mouth at all
    assert one.placement_problem(MAP, "0403", DEEP) is None             # 0403 touches 0303
    assert one.placement_problem(MAP, "0504", DEEP) is not None         # 0504 does not
    two = one.with_marker("0403", DEEP)
    assert two.placement_problem(MAP, "0504", DEEP) is None             # chained via 0403
    # a deep tunnel next to a deep one that reaches no mouth is refused
    assert Tunnels({"0403": DEEP}).placement_problem(MAP, "0504", DEEP) is not None


def test_13_2_one_tunnel_per_hex_and_on_the_map():
    assert "already" in CHAIN.placement_problem(MAP, "0303", MOUTH)
    assert "already" in CHAIN.placement_problem(MAP, "0403", DEEP)
    assert "not on the map" in CHAIN.placement_problem(MAP, "0707", MOUTH)
    with pytest.raises(LevelError, match="'hole'"):
        CHAIN.placement_problem(MAP, "0101", "hole")


def test_17_3_drilling_replaces_a_deep_tunnel():
    """17.3: "the Deep Tunnel marker is immediately replaced with a Tunnel Mouth marker"."""
    assert CHAIN.placement_problem(MAP, "0403", DRILLED) is None
    assert CHAIN.placement_problem(MAP, "0303", DRILLED) is not None   # a mouth already
    assert CHAIN.placement_problem(MAP, "0101", DRILLED) is not None   # no tunnel
    assert CHAIN.with_marker("0403", DRILLED).kind("0403") == DRILLED


def test_13_6_reaches_mouth_and_stranded_after_demolition():
    """13.6: no demolition "if this would leave friendly units in Deep Tunnels with no
    connection to the surface"."""
    # both mouths of CHAIN reach the surface; every deep hex reaches one of them
    assert all(CHAIN.reaches_mouth(MAP, h) for h in ("0303", "0403", "0504", "0505"))
    assert stranded(CHAIN, MAP) == set()
    assert not CHAIN.reaches_mouth(MAP, "0101")                  # no tunnel there
    # without mouth 0505, 0504 still reaches 0303 through 0403
    assert stranded(CHAIN.without("0505"), MAP) == set()
    # without 0403, 0504 still reaches mouth 0505
    assert stranded(CHAIN.without("0403"), MAP) == set()
    # without 0403 and 0505, deep 0504 touches no tunnel at all
    cut = CHAIN.without("0403").without("0505")
    assert not cut.reaches_mouth(MAP, "0504") and stranded(cut, MAP) == {"0504"}
    # a single mouth with two deep hexes behind it: demolish the mouth, both are stranded
    short = CHAIN.without("0505")
    assert stranded(short.without("0303"), MAP) == {"0403", "0504"}
    assert CHAIN.without("0101") == CHAIN                        # nothing to remove


def test_tunnels_json_round_trip_and_errors():
    assert CHAIN.to_json() == {"0303": "mouth", "0403": "deep", "0504": "deep", "0505": "mouth"}
    assert Tunnels.from_json(CHAIN.to_json()) == CHAIN
    assert CHAIN.kind("0403") == DEEP and CHAIN.kind("0101") is None
    assert CHAIN.has("0504") and not CHAIN.has("0101")
    assert CHAIN.is_mouth("0505") and not CHAIN.is_mouth("0504")
    with pytest.raises(LevelError, match="'hole'"):
        Tunnels({"0101": "hole"})
    with pytest.raises(LevelError, match="'17x7'"):
        Tunnels({"17x7": MOUTH})
    with pytest.raises(LevelError, match="expected an object"):
        Tunnels.from_json(["0101"])


# -- paths underground (18.4) ---------------------------------------------------------------------

def test_connected_underground():
    """18.4: the Web Generator underground, reached from a Tunnel Mouth through tunnels."""
    assert connected(CHAIN, MAP, P("0303u"), P("0505u"))
    assert not connected(CHAIN, MAP, P("0303"), P("0505u"))              # one on the surface
    assert not connected(CHAIN.without("0403").without("0504"), MAP, P("0303u"), P("0505u"))


# Path tunnels, away from CHAIN: column 1 rows 1-5 and column 2 rows 2-4. By hand:
# 0101 touches 0102, 0201; 0102: 0101, 0103, 0201, 0202; 0103: 0102, 0104, 0202, 0203;
# 0104: 0103, 0105, 0203, 0204; 0105: 0104, 0106, 0204, 0205; 0202: 0201, 0203, 0102, 0103,
# 0302, 0303; 0203: 0202, 0204, 0103, 0104, 0303, 0304; 0204: 0203, 0205, 0104, 0105, 0304,
# 0305. 0101 to 0105 is 4 steps down column 1; any way through 0202, 0203 or 0204 is 5
# (0202 is 2 from 0101 and 3 from 0105; 0203 is 3 and 2; 0204 is 4 and 1).
PATHS = Tunnels({"0101": MOUTH, "0102": DEEP, "0103": DEEP, "0104": DEEP, "0105": DEEP,
                 "0202": DEEP, "0203": DEEP, "0204": DEEP})


def test_18_4_underground_path_with_blocking():
    """18.4: "a Tunnel Mouth which can trace a path to the Web Generator unblocked by Web
    units"."""
    assert underground_path(PATHS, MAP, "0101", "0105") == ["0101", "0102", "0103", "0104",
                                                            "0105"]
    # 0103 and 0204 blocked: 0102 -> 0202 -> 0203 -> 0104 is the only way round
    # (0202 touches 0102 and 0203; 0203 touches 0104; 0204 and 0103 are closed)
    blocked = {"0103", "0204"}
    assert underground_path(PATHS, MAP, "0101", "0105", blocked=blocked.__contains__) == [
        "0101", "0102", "0202", "0203", "0104", "0105"]
    # 0101's only tunnel neighbour is 0102 (0201 has no tunnel): blocking it cuts the mouth off
    assert underground_path(PATHS, MAP, "0101", "0105", blocked={"0102"}.__contains__) is None
    # a blocked goal cannot be reached; a blocked start does not matter
    assert underground_path(PATHS, MAP, "0101", "0105", blocked={"0105"}.__contains__) is None
    assert underground_path(PATHS, MAP, "0101", "0103", blocked={"0101"}.__contains__) == [
        "0101", "0102", "0103"]
    assert underground_path(PATHS, MAP, "0104", "0104") == ["0104"]
    assert underground_path(PATHS, MAP, "0101", "0106") is None          # 0106: no tunnel
