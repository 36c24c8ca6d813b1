"""Carrying units along a carrier's path (pbem.boards.carry), with Olympica 18.1-18.3 as the
source: the worked example of 18.2 hex by hex, the capacity of 50 through any one hex, the 25
hexes of 18.1 and no pick-up or drop-off in cliff or incline hexes (18.3). Hex distances are
counted by hand in the comments, not taken from the code."""

from __future__ import annotations

import pytest

from pbem.boards import load_map
from pbem.boards.carry import CarryError, Stop, plan_trip


def board(extra=""):
    """A 30 x 24 even-low map, all clear unless ``extra`` lists other terrain."""
    return load_map('[map]\ncolumns = 30\nrows = 24\noffset = "even-low"\ndefault = "clear"\n'
                    + extra, "test.toml")


def route_through(hexmap, *waypoints):
    """A shortest route visiting ``waypoints`` in order: from each hex, the first neighbour one
    step nearer the next waypoint."""
    route = [waypoints[0]]
    for target in waypoints[1:]:
        while route[-1] != target:
            here = route[-1]
            route.append(next(n for n in hexmap.neighbours(here)
                              if hexmap.distance(n, target) == hexmap.distance(here, target) - 1))
    return route


# 18.2: "A Lifter starting in hex 1220 could pick up a Laser Tank in 1320, pick up the BOAR in
# 1522, drop off the BOAR in 1615, pick up a Light Infantry in 1812, disembark the Laser Tank in
# 1511, disembark the Light Infantry in 1412, and end its turn in 1315."
WAYPOINTS = ("1220", "1320", "1522", "1615", "1812", "1511", "1412", "1315")
# Moves between waypoints, by hand on an even-low map (even columns half a hex lower; from an
# odd column (c, r) the hexes ne/se are (c+1, r-1)/(c+1, r), from an even one (c+1, r)/(c+1, r+1)):
# 1220->1320: 1 (se of 1220 is 1321, ne is 1320);  1320->1522: 3 (1421, 1521, 1522);
# 1522->1615: 7 (ne 1621, then north six rows);    1615->1812: 4 (1715, 1814, 1813, 1812);
# 1812->1511: 3 (nw: 1712, 1611, 1511);            1511->1412: 2 (sw 1411, then 1412);
# 1412->1315: 3 (sw 1313, then 1314, 1315).        Total: 1+3+7+4+3+2+3 = 23 <= 25 (18.1).
HAND_MOVES = [1, 3, 7, 4, 3, 2, 3]
STRENGTH = {"tank": 25, "boar": 21, "light": 6, "tank2": 25}   # 3.1: (21) for the BOAR
LOCATED = {"tank": "1320", "boar": "1522", "light": "1812"}


def example_stops(route):
    at = {h: i for i, h in enumerate(route)}   # each waypoint is met once on this route
    return [Stop(at["1320"], "pick", "tank"), Stop(at["1522"], "pick", "boar"),
            Stop(at["1615"], "drop", "boar"), Stop(at["1812"], "pick", "light"),
            Stop(at["1511"], "drop", "tank"), Stop(at["1412"], "drop", "light")]


def lifter(hexmap, route, stops, **kw):
    args = dict(strength=STRENGTH, located=LOCATED, capacity=50, max_hexes=25)
    args.update(kw)
    return plan_trip(hexmap, route, stops, **args)


def test_18_2_the_worked_example_holds():
    m = board()
    route = route_through(m, *WAYPOINTS)
    assert len(route) - 1 == sum(HAND_MOVES) == 23
    # the hand-counted waypoints sit at the running sums of the moves
    assert [route.index(w) for w in WAYPOINTS] == [0, 1, 4, 11, 15, 18, 20, 23]
    trip = lifter(m, route, example_stops(route))
    assert trip.route == tuple(route)
    assert dict(trip.ends) == {"tank": "1511", "boar": "1615", "light": "1412"}
    assert list(trip.legs) == ["tank", "boar", "light"]   # pick-up order
    assert trip.legs["boar"] == tuple(route[4:12])
    assert trip.legs["tank"] == tuple(route[1:19])
    assert trip.legs["light"] == tuple(route[15:21])
    assert trip.legs["boar"][0] == "1522" and trip.legs["boar"][-1] == "1615"
    # most aboard: the Laser Tank (25) and the BOAR (21) from 1522 to 1615 = 46 <= 50
    assert trip.peak == 46


def test_18_2_more_than_50_through_one_hex_is_refused():
    # a second Laser Tank picked up in the hex after 1522: 25 + 21 + 25 = 71 > 50
    m = board()
    route = route_through(m, *WAYPOINTS)
    extra = route[5]
    stops = example_stops(route) + [Stop(5, "pick", "tank2"), Stop(15, "drop", "tank2")]
    with pytest.raises(CarryError) as err:
        lifter(m, route, stops, located={**LOCATED, "tank2": extra})
    assert str(err.value).startswith(f"hex {extra} (route index 5): picking up tank2 (25) "
                                     f"makes 71 aboard")
    assert "expected at most 50" in str(err.value)


def test_18_2_more_than_50_in_a_move_when_dropped_before_others_are_picked_up():
    # the BOAR is dropped in 1615 before a second Laser Tank is picked up in 1812 instead of
    # the Light Infantry: 25 + 21 + 25 = 71 carried in the move, never more than 50 at once
    m = board()
    route = route_through(m, *WAYPOINTS)
    stops = [s if s.unit != "light" else Stop(s.index, s.action, "tank2")
             for s in example_stops(route)]
    trip = lifter(m, route, stops, located={"tank": "1320", "boar": "1522", "tank2": "1812"})
    assert trip.peak == 50
    assert dict(trip.ends) == {"tank": "1511", "boar": "1615", "tank2": "1412"}


def test_in_one_hex_the_drop_off_comes_before_the_pick_up():
    # 1812 is the 4th waypoint: drop the Laser Tank and the BOAR there (46), pick up the second
    # Laser Tank (25) there, given in the wrong order: never more than 46 aboard
    m = board()
    route = route_through(m, *WAYPOINTS)
    i = route.index("1812")
    stops = [Stop(1, "pick", "tank"), Stop(4, "pick", "boar"), Stop(i, "pick", "tank2"),
             Stop(i, "drop", "boar"), Stop(i, "drop", "tank")]
    trip = lifter(m, route, stops, located={**LOCATED, "tank2": "1812"})
    assert trip.peak == 46
    assert dict(trip.ends) == {"tank": "1812", "boar": "1812", "tank2": "1315"}
    assert trip.legs["tank2"] == tuple(route[i:])


INCLINE = '[terrain]\nincline = ["1812"]\ncliff = ["1315"]\n'
STEEP = board(INCLINE)


def steep(h):
    t = STEEP.terrain(h)
    return f"{t} hex" if t in ("cliff", "incline") else None


def test_18_3_no_pick_up_in_an_incline_hex():
    m = board(INCLINE)
    route = route_through(m, *WAYPOINTS)
    with pytest.raises(CarryError, match=r"hex 1812 \(route index 15\): cannot pick up light: "
                                         r"incline hex"):
        lifter(m, route, example_stops(route), no_stop=steep)


def test_18_3_no_drop_off_in_a_cliff_hex_even_at_the_end():
    # the Light Infantry stays aboard to the end, which is the cliff hex 1315
    m = board(INCLINE)
    route = route_through(m, *WAYPOINTS)
    stops = [s for s in example_stops(route) if s.unit != "light"]
    trip = lifter(m, route, stops, no_stop=steep, located={**LOCATED, "light": "0101"})
    # nothing aboard at the end: the trip is legal (a lifter ending in a cliff hex is destroyed,
    # 18.3, but that is the game's business)
    assert "light" not in trip.ends
    # the Light Infantry picked up after 1615 (index 12) and never dropped off: 25 + 6 aboard
    stops.append(Stop(12, "pick", "light"))
    with pytest.raises(CarryError, match=r"hex 1315 \(route index 23\): cannot drop off light "
                                         r"at the end of the move: cliff hex"):
        lifter(m, route, stops, no_stop=steep, located={**LOCATED, "light": route[12]})
    # flying through the incline hex 1812 without stopping there is free (18.3)
    assert "1812" in route


def test_18_1_at_most_25_hexes_and_adjacent_steps():
    m = board()
    straight = [f"01{r:02d}" for r in range(1, 24)] + ["0224", "0324", "0424"]
    # 0101 down to 0123 is 22 moves; 0224, 0324, 0424: 25. Hand check: 0123 (odd column)
    # se is 0223; 0224 is two steps away
    with pytest.raises(CarryError, match=r"route index 23: hex 0224 is not next to 0123"):
        lifter(m, straight, [])
    route = [f"01{r:02d}" for r in range(1, 25)] + ["0224", "0324", "0423"]   # 26 moves
    with pytest.raises(CarryError, match="enters 26 hexes .*expected at most 25"):
        lifter(m, route, [])
    assert lifter(m, route[:-1], []).peak == 0   # 25 moves
    with pytest.raises(CarryError, match="hex '3101' is not on the map"):
        lifter(m, ["3001", "3101"], [])
    with pytest.raises(CarryError, match="empty route"):
        lifter(m, [], [])


def test_pick_ups_and_drop_offs_are_checked():
    m = board()
    route = route_through(m, "1220", "1320", "1522")
    pick = Stop(1, "pick", "tank")
    with pytest.raises(CarryError, match="cannot pick up boar: it stands in 1522, expected 1320"):
        lifter(m, route, [Stop(1, "pick", "boar")])
    with pytest.raises(CarryError, match="cannot drop off boar: it is not aboard"):
        lifter(m, route, [Stop(2, "drop", "boar")])
    with pytest.raises(CarryError, match="cannot pick up tank: it is aboard already"):
        lifter(m, route, [pick, Stop(1, "pick", "tank")])
    with pytest.raises(CarryError, match="cannot pick up tank: it is carried already"):
        lifter(m, route, [pick, Stop(2, "drop", "tank"), Stop(3, "pick", "tank")],
               located={"tank": route[1]})
    with pytest.raises(CarryError, match="tank: it is not aboard .* drop-offs come first"):
        lifter(m, route, [pick, Stop(1, "drop", "tank")])
    with pytest.raises(CarryError, match="cannot pick up tank: a lifter may not carry"):
        lifter(m, route, [pick], may_carry=lambda u: "a lifter may not carry a lifter")
    with pytest.raises(CarryError, match="no combat strength given for it"):
        lifter(m, route, [pick], strength={})
    with pytest.raises(CarryError, match="index 9 is not on the route: expected 0 to 4"):
        lifter(m, route, [Stop(9, "pick", "tank")])
    with pytest.raises(CarryError, match="expected Stop.index, 'pick' or 'drop', unit."):
        lifter(m, route, [Stop(1, "lift", "tank")])
    with pytest.raises(CarryError, match="tank is picked up in the last hex"):
        lifter(m, route, [Stop(4, "pick", "tank")], located={"tank": "1522"})
