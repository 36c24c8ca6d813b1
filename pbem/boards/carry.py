"""Carrying units along a carrier's path, with a capacity through any one hex (docs/maps.md).

Source: Olympica 18.1-18.3. A lifter moves up to 25 hexes; "the Lifter is moved over the unit's
hex (the unit is then considered to have been picked up ...) and the Lifter continues its
movement, disembarking the unit at any point along its path" (18.1); "A lifter may transport
several units with a combined Combat Strength of up to 50 through any one hex. More than this
can be transported during a Movement Phase if some units are dropped off before others are
picked up" (18.2); "Lifters may not pick up or disembark units in cliff or incline hexes" (18.3).

pbem's reading of the capacity: in one hex the drop-offs are made before the pick-ups (the
carrier lands, unloads, loads), so the load checked in a hex is the one that leaves it; the
load that enters it was checked in the hex before. :func:`plan_trip` checks a whole trip and
knows no game: the caller says which hexes refuse a stop and which units may not be carried.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Mapping, Sequence

__all__ = ["PICK", "DROP", "CarryError", "Stop", "Trip", "plan_trip"]

PICK = "pick"
DROP = "drop"


class CarryError(ValueError):
    """A trip that breaks a carrying rule; the message names the hex (and its place on the
    route), the unit and what was expected, for example ``hex 1812 (route index 12): picking
    up L2 (25) makes 71 aboard (L1 25, B 21, L2 25): expected at most 50 through any one
    hex``."""


@dataclass(frozen=True)
class Stop:
    """One pick-up or drop-off: ``index`` into the route (0 = the carrier's start hex),
    ``action`` (``"pick"`` or ``"drop"``) and the ``unit``'s identifier."""

    index: int
    action: str
    unit: str


@dataclass(frozen=True)
class Trip:
    """A checked trip.

    - ``route``: the hexes of the carrier's move, its start first;
    - ``legs``: unit -> the hexes it rode through, from its pick-up hex to its drop-off hex
      inclusive (in pick-up order);
    - ``ends``: unit -> its drop-off hex (units still aboard at the end: the last hex);
    - ``peak``: the largest combined strength aboard when leaving any hex.
    """

    route: tuple[str, ...]
    legs: Mapping[str, tuple[str, ...]]
    ends: Mapping[str, str]
    peak: int


def _check_route(hexmap, route: Sequence[str], max_hexes: int) -> tuple[str, ...]:
    route = tuple(route)
    if not route:
        raise CarryError("empty route: expected the carrier's start hex and the hexes it "
                         "enters, in order")
    for i, label in enumerate(route):
        if label not in hexmap:
            raise CarryError(f"route index {i}: hex {label!r} is not on the map: expected a "
                             f"hex of {hexmap.columns:02d} columns and {hexmap.rows:02d} rows")
        if i and not hexmap.adjacent(route[i - 1], label):
            raise CarryError(f"route index {i}: hex {label} is not next to {route[i - 1]}: "
                             f"expected each hex of the route adjacent to the one before")
    if len(route) - 1 > max_hexes:
        raise CarryError(f"the route enters {len(route) - 1} hexes ({route[0]} to "
                         f"{route[-1]}): expected at most {max_hexes}")
    return route


def _order(stops: Sequence[Stop], route: tuple[str, ...]) -> list[Stop]:
    for stop in stops:
        if not isinstance(stop, Stop) or stop.action not in (PICK, DROP):
            raise CarryError(f"stop {stop!r}: expected Stop(index, 'pick' or 'drop', unit)")
        if (not isinstance(stop.index, int) or isinstance(stop.index, bool)
                or not 0 <= stop.index < len(route)):
            raise CarryError(f"stop {stop.action} {stop.unit}: index {stop.index!r} is not on "
                             f"the route: expected 0 to {len(route) - 1}")
    # hex by hex along the route; in one hex, drop-offs before pick-ups (18.2)
    return sorted(stops, key=lambda s: (s.index, s.action == PICK))


def plan_trip(hexmap, route: Sequence[str], stops: Sequence[Stop], *,
              strength: Mapping[str, int], located: Mapping[str, str], capacity: int,
              max_hexes: int, no_stop: Callable[[str], str | None] = lambda h: None,
              may_carry: Callable[[str], str | None] = lambda u: None) -> Trip:
    """Check a carrier's trip and return it as a :class:`Trip`.

    ``hexmap``: a :class:`~pbem.boards.hexmap.HexMap`; ``route``: the carrier's start hex then
    each hex it enters; ``stops``: the pick-ups and drop-offs (any order: they are taken hex by
    hex, drop-offs before pick-ups in one hex, pick-ups in the order given); ``strength``:
    unit -> combat strength; ``located``: unit -> the hex it stands in; ``capacity``: the most
    strength aboard through any one hex (50, 18.2); ``max_hexes``: the most hexes entered (25,
    18.1); ``no_stop(hex)``: a reason why no unit may be picked up or dropped off there (cliff
    or incline, 18.3), or None; ``may_carry(unit)``: a reason why the unit may not be carried
    (another lifter, 18.2; a unit that dropped this turn, 14.4: the caller decides), or None.

    Raises :class:`CarryError` on the first failure: an empty route, a hex off the map, two
    consecutive hexes not adjacent, more than ``max_hexes`` entered; a stop off the route or
    with an unknown action; a pick-up of a unit without a strength, not standing in that hex,
    already aboard or already carried on this trip (a unit rides a carrier once), refused by
    ``may_carry``, or in the last hex of the route; a drop-off of a unit not aboard (one
    picked up in the same hex is not yet aboard); a stop where ``no_stop`` refuses, including
    the last hex when units are still aboard there (they are dropped off at the end); more
    than ``capacity`` aboard on leaving a hex.
    """
    route = _check_route(hexmap, route, max_hexes)
    aboard: dict[str, int] = {}   # unit -> route index of its pick-up
    legs: dict[str, tuple[str, ...]] = {}
    picked: list[str] = []
    ends: dict[str, str] = {}
    load = peak = 0

    def fail(i: int, why: str):
        raise CarryError(f"hex {route[i]} (route index {i}): {why}")

    def stop_here(i: int, what: str):
        reason = no_stop(route[i])
        if reason:
            fail(i, f"cannot {what}: {reason}")

    def drop(i: int, unit: str):
        start = aboard.pop(unit)
        legs[unit], ends[unit] = route[start:i + 1], route[i]

    for stop in _order(stops, route):
        i, unit = stop.index, stop.unit
        if stop.action == DROP:
            if unit not in aboard:
                fail(i, f"cannot drop off {unit}: it is not aboard (expected a unit picked up "
                        f"in an earlier hex of the route; in one hex, drop-offs come first)")
            stop_here(i, f"drop off {unit}")
            load -= strength[unit]
            drop(i, unit)
            continue
        if unit in aboard or unit in legs:
            fail(i, f"cannot pick up {unit}: it is {'aboard' if unit in aboard else 'carried'}"
                    f" already (expected each unit picked up once per trip)")
        if unit not in strength:
            fail(i, f"cannot pick up {unit}: no combat strength given for it")
        if located.get(unit) != route[i]:
            fail(i, f"cannot pick up {unit}: it stands in {located.get(unit, 'no hex')}, "
                    f"expected {route[i]}")
        reason = may_carry(unit)
        if reason:
            fail(i, f"cannot pick up {unit}: {reason}")
        stop_here(i, f"pick up {unit}")
        load += strength[unit]
        aboard[unit] = i
        picked.append(unit)
        if load > capacity:
            fail(i, f"picking up {unit} ({strength[unit]}) makes {load} aboard ("
                    + ", ".join(f"{u} {strength[u]}" for u in aboard)
                    + f"): expected at most {capacity} through any one hex")
        peak = max(peak, load)
    last = len(route) - 1
    for unit in list(aboard):
        if aboard[unit] == last:
            fail(last, f"{unit} is picked up in the last hex of the route and never carried")
        stop_here(last, f"drop off {unit} at the end of the move")
        drop(last, unit)
    legs = {unit: legs[unit] for unit in picked}
    return Trip(route=route, legs=MappingProxyType(legs), ends=MappingProxyType(ends),
                peak=peak)
