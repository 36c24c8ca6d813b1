"""U.N. Lifters (18.0-18.4): ``lift LIFTER STEP...`` and the evacuation of the Web Generator.

A lift order names the hexes the Lifter enters, one by one from its own hex, with ``+UNIT``
(pick up where the Lifter is), ``-UNIT`` (set down where it is), ``+gen`` (the Generator, 18.4)
and ``off`` (leave the map from an edge hex). The trip is checked by
:func:`pbem.boards.carry.plan_trip`: up to 25 hexes (18.1), 50 Combat Strength aboard through any
one hex (18.2), no pick-up or set-down in cliff or incline hexes (18.3).

Readings (the rulebook is silent; README, "Readings of the rules"):

- a Lifter entering a hex with Web counters on the surface stops there and Close Assaults
  (7.3, 18.1; Web counters under tunnel markers do not stop it, 13.4, 18.3) only with nothing
  aboard: it may not set units down in an enemy hex, and nothing may stay aboard (18.1);
- stacking (9.0) is judged when a unit is set down: not where another U.N. unit stands; the
  Lifter may not end its move with a friendly unit (7.2), so every unit is set down before
  the last hex;
- a Lifter ending its move in a cliff or incline hex is destroyed (18.3), after its Close
  Assault if it entered a Web unit's hex; it may end there only empty, since no unit can be
  set down there;
- a Lifter leaving the map (``off``, 7.1) counts the step off as one of its 25 hexes, carries
  nothing but the Generator off, and may not come back: status ``off-map``; with the Generator
  its status and the Generator's are ``evacuated`` (the victory check reads the Generator's);
- ``+gen`` is the first step of the order (the Lifter takes the Generator from where it stands,
  beside it or above a Tunnel Mouth joined to it, 18.4), only for a Lifter that
  :func:`evacuation_ready` listed at the start of the Game-Turn (``s.evacuation``); its path to
  the edge must be clear: no Web counter on the surface of any hex it enters.
"""

from __future__ import annotations

import re

from pbem.boards.carry import DROP, PICK, CarryError, Stop, plan_trip
from pbem.boards.levels import SURFACE, UNDERGROUND, LevelError, Place, underground_path

from . import assaults, losses
from .state import UN, WEB

GEN = "GEN"
NO_STOP = ("cliff", "incline")


def is_edge(board, h: str) -> bool:
    """True for a hex on any edge of the map (fewer than six neighbours on it)."""
    return len(board.neighbours(h)) < 6


# -- evacuation (18.4) ----------------------------------------------------------------------------

def evacuation_ready(s) -> list:
    """The Lifters that may evacuate the Generator this Game-Turn (18.4), in id order; the
    caller stores them in ``s.evacuation`` at the start of each Game-Turn. Needs a U.N. unit on
    the Generator's place (same hex and level, 13.3), and a Lifter on the surface of an adjacent
    hex; when the Generator is underground, a Lifter on or next to a Tunnel Mouth from which a
    path through adjacent tunnel hexes reaches the Generator's hex, entering no hex with a Web
    unit underground (:func:`pbem.boards.levels.underground_path`). ``s`` must know the
    Generator (the full state)."""
    gen = s.generator()
    if gen is None or s.web[gen]["status"] != "map":
        return []
    gp = s.place(WEB, gen)
    if not s.counters_at(UN, gp):
        return []
    lifters = [u for u in s.on_map(UN) if s.un[u]["kind"] == "un-lifter"
               and s.un[u]["level"] == SURFACE]
    if not gp.underground:
        return [u for u in lifters if s.board.adjacent(s.un[u]["hex"], gp.hex)]
    t = s.tunnel_map()

    def blocked(h: str) -> bool:
        return any(s.is_unit(WEB, m) for m in s.counters_at(WEB, Place(h, UNDERGROUND)))

    def reaches(mouth: str) -> bool:
        return not blocked(mouth) and underground_path(
            t, s.board, mouth, gp.hex, blocked=blocked) is not None

    def near(u: str) -> tuple:
        return (s.un[u]["hex"], *s.board.neighbours(s.un[u]["hex"]))

    return [u for u in lifters if any(t.is_mouth(m) and reaches(m) for m in near(u))]


# -- the order ------------------------------------------------------------------------------------

def _lifter_problem(run, uid: str) -> str | None:
    s = run.s
    r = s.un[uid]
    if r["kind"] != "un-lifter":
        return f"{s.name(UN, uid)} is not a Lifter: expected F1, F2..."
    if r.get("dust"):
        return f"{s.name(UN, uid)} has a DUST marker and may not move this Movement Phase (12.5)"
    if r.get("dropped") == s.turn:
        return f"{s.name(UN, uid)} dropped this Game-Turn and may not move (14.4)"
    if uid in run.moved:
        return f"{s.name(UN, uid)} has moved already this phase (7.1)"
    if r["level"] != SURFACE:
        return f"{s.name(UN, uid)} is underground, where Lifters may not go (18.3)"
    return None


def _read_steps(s, uid: str, steps: list):
    """``(route, stops, gen, off)`` from the order's steps, or a problem string."""
    route, stops, gen, off = [s.un[uid]["hex"]], [], False, False
    for what, arg in steps:
        if off:
            return "`off` must be the last step: a Lifter leaving the map does not come back (7.1)"
        if what == "hex":
            try:
                p = Place.parse(arg)
            except LevelError as e:
                return str(e)
            if p.underground:
                return f"{arg!r}: Lifters may not move underground (18.3); expected a hex label"
            route.append(p.hex)
        elif what == "off":
            off = True
        elif arg == GEN:
            if what == DROP:
                return "the Generator leaves the map with the Lifter (18.4): it is never set down"
            if gen or len(route) != 1:
                return "`+gen` must come before the first hex: the Lifter takes the Generator " \
                       "where it stands (18.4)"
            gen = True
        else:
            stops.append(Stop(len(route) - 1, what, arg))
    return route, stops, gen, off


def _may_carry(run, u: str) -> str | None:
    s = run.s
    r = s.un[u]
    if r["kind"] == "un-lifter":
        return "one Lifter can NOT carry another (18.2)"
    if r.get("dropped") == s.turn:
        return "it dropped this Game-Turn: units may not be transported then (14.4)"
    if r["level"] != SURFACE:
        return "it is underground: Lifters may not pick up units under tunnel markers (18.3)"
    done = run.moved.get(u, [])
    if "lift" in done and "move" in done[done.index("lift"):]:
        return "it moved after being carried: units move before OR after being " \
               "transported, not both (18.1)"
    return None


def _no_stop(s, h: str) -> str | None:
    t = s.board.terrain(h)
    return (f"hex {h} is {t}: Lifters may not pick up or disembark units in cliff or incline "
            f"hexes (18.3)") if t in NO_STOP else None


def _rule_of(why: str) -> str:
    found = re.findall(r"\((\d+\.\d+)", why)
    if found:
        return found[-1]
    return "18.2" if "through any one hex" in why else "18.1"


def _web_hexes(s, route: list, gen: str | None) -> list:
    """Route indexes (after the start) whose surface holds Web counters (the Generator aboard
    excepted)."""
    return [i for i in range(1, len(route))
            if any(m != gen for m in s.counters_at(WEB, Place(route[i])))]


def _path_problem(run, uid, route, stops, gen, off, gen_marker) -> str | None:
    """The Web counters on the route, the evacuation's conditions and the edge (7.1, 7.3, 18.4)."""
    s = run.s
    last = len(route) - 1
    webs = _web_hexes(s, route, gen_marker)
    if webs and gen:
        return (f"hex {route[webs[0]]} holds Web counters: the Lifter evacuating the Generator "
                f"must find a clear path off the map (18.4)")
    if webs and off:
        return (f"hex {route[webs[0]]} holds Web counters: the Lifter would have to stop there "
                f"and Close Assault (7.3), not leave the map")
    if webs and webs[0] != last:
        return (f"hex {route[webs[0]]} holds Web counters: the Lifter must stop there and Close "
                f"Assault (7.3, 18.1)")
    if webs and any(st.index == last for st in stops):
        return f"the Lifter enters the Web counters' hex {route[last]}: nothing may be picked " \
               f"up or set down there (18.1)"
    if webs and any((WEB, f) in run.assaulted for f in s.counters_at(WEB, Place(route[last]))):
        return f"the Web counters of {route[last]} were Close Assaulted this phase already (11.0)"
    if off and not is_edge(s.board, route[-1]):
        return f"hex {route[-1]} is not on an edge of the map: `off` leaves from an edge hex (7.1)"
    if gen and not off:
        return "a Lifter carrying the Generator must leave the map: end the order with `off` " \
               "(18.4)"
    if gen and uid not in s.evacuation:
        return (f"{s.name(UN, uid)} did not begin this Game-Turn beside the Generator "
                f"with a U.N. unit stacked with it (18.4)")
    if gen and uid not in evacuation_ready(s):
        return (f"{s.name(UN, uid)} is no longer beside the Generator with a U.N. unit "
                f"stacked with it: it picks the Generator up from where it began the turn")
    return None


def _stacking_problem(s, uid: str, route: list, stops: list, off: bool) -> str | None:
    """Set-downs onto another U.N. unit (9.0), units still aboard at the end, and the Lifter
    ending its move with a friendly unit (7.2)."""
    where = {u: r["hex"] for u, r in s.un.items() if r["status"] == "map"
             and r["level"] == SURFACE and u != uid}
    dropped = set()
    for st in sorted(stops, key=lambda st: (st.index, st.action == PICK)):
        if st.action == PICK:
            where.pop(st.unit, None)
            continue
        others = [v for v, h in where.items() if h == route[st.index]]
        if others:
            return f"{st.unit} set down in {route[st.index]}, where {others[0]} stands (9.0)"
        where[st.unit] = route[st.index]
        dropped.add(st.unit)
    aboard = [st.unit for st in stops if st.action == PICK and st.unit not in dropped]
    if aboard:
        return (f"{aboard[0]} is still aboard at the end of the move: set it down in an earlier "
                f"hex of the route (18.1; 7.2: the Lifter may not end its move with a friendly "
                f"unit)")
    others = [v for v, h in where.items() if h == route[-1]]
    if others and not off:
        return f"the Lifter may not end its move in {route[-1]} with {others[0]} (7.2)"
    return None


def _check(run, o, uid: str):
    """The trip of ``lift`` (:class:`pbem.boards.carry.Trip`, gen, off) or None after a
    problem."""
    s = run.s
    read = _read_steps(s, uid, o.args["steps"])
    if isinstance(read, str):
        run.problem(o, _rule_of(read), read)
        return None
    route, stops, gen, off = read
    for st in stops:
        if st.unit in s.web:
            run.problem(o, "18.1", f"{st.unit} is a Web counter: Lifters may not transport Web "
                        f"units (18.1)")
            return None
        if run.find(UN, st.unit, o, "18.1") is None:
            return None
    gen_marker = s.generator() if gen else None
    if gen_marker is not None and s.web[gen_marker]["status"] != "map":
        run.problem(o, "18.4", "the Web Generator is no longer on the map")
        return None
    why = _path_problem(run, uid, route, stops, gen, off, gen_marker)
    if why is None:
        try:
            trip = plan_trip(
                s.board, route, stops,
                strength={u: s.utype(UN, u).strength for u in s.on_map(UN)},
                located={u: s.un[u]["hex"] for u in s.on_map(UN)},
                capacity=s.rules["lifter_capacity"],
                max_hexes=s.rules["lifter_hexes"] - (1 if off else 0),
                no_stop=lambda h: _no_stop(s, h), may_carry=lambda u: _may_carry(run, u))
        except CarryError as e:
            why = str(e) + (" (counting the step off the map as one hex, 18.4)"
                            if off and "expected at most" in str(e) else "")
    if why is None:
        why = _stacking_problem(s, uid, route, stops, off)
    if why:
        run.problem(o, _rule_of(why), why)
        return None
    return trip, gen_marker if gen else None, gen, off


def lift(run, o) -> None:
    """The U.N. order ``lift LIFTER STEP...`` (``o.args``: ``unit``, ``steps``: ``["hex",
    PLACE]``, ``["pick", ID or "GEN"]``, ``["drop", ID]``, ``["off", ""]``; module docstring).
    The Lifter must not be DUSTed (12.5), dropped this Game-Turn (14.4) or moved this phase;
    carried units must not be Lifters (18.2), dropped this Game-Turn (14.4), underground (18.3)
    or moved since being carried (18.1). Carried units end at their set-down hexes
    (``run.did(u, "lift")``); the Lifter at its last hex (Close Assault there if it holds Web
    counters, then destroyed in a cliff or incline hex, 18.3) or off the map. Problems
    (rules 7.1-7.3, 9.0, 14.4, 18.1-18.4) are recorded on ``run``; nothing changes then."""
    if run.role != UN:
        run.problem(o, "18.1", "`lift` is a U.N. order: Lifters are U.N. units")
        return
    uid = run.find(UN, o.args["unit"], o, "18.1")
    if uid is None:
        return
    why = _lifter_problem(run, uid)
    if why:
        run.problem(o, _rule_of(why), why)
        return
    checked = _check(run, o, uid)
    if checked is None:
        return
    trip, gen_marker, gen, off = checked
    _carry_out(run, uid, trip, gen_marker, gen, off)


def _carry_out(run, uid: str, trip, gen_marker, gen: bool, off: bool) -> None:
    s = run.s
    r = s.un[uid]
    route = list(trip.route)
    run.did(uid, "move")
    for u, h in trip.ends.items():
        s.un[u]["hex"] = h
        run.did(u, "lift")
    carried = "; ".join(f"{s.name(UN, u)} {trip.legs[u][0]} -> {h}"
                        for u, h in trip.ends.items())
    away = " and off the map" if off else ""
    run.event("lift", f"{s.name(UN, uid)} flies {' '.join(route)}{away}"
              + (f", carrying {carried}" if carried else "") + " (18.1).", unit=uid, path=route,
              carried={u: [trip.legs[u][0], h] for u, h in trip.ends.items()}, off=off)
    if off:
        r["status"] = "evacuated" if gen else "off-map"
        r["hex"] = route[-1]
        if gen_marker is not None:
            losses.reveal(run, gen_marker, "evacuated")
            s.web[gen_marker]["status"] = "evacuated"
        if gen:
            run.event("evacuation", f"{s.name(UN, uid)} evacuates the Web Generator off the map "
                      f"from {route[-1]} (18.4).", unit=uid, hex=route[-1])
        return
    r["hex"] = route[-1]
    if len(route) > 1 and s.counters_at(WEB, Place(route[-1])):
        assaults.enter_enemy(run, UN, uid)
    terrain = s.board.terrain(r["hex"])
    if r["status"] == "map" and terrain in NO_STOP:
        losses.eliminate(run, UN, uid, f"a Lifter ending its move in a {terrain} hex (18.3)")
