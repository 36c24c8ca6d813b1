"""Movement (7.0-7.4, 13.4, 15.0, 21.0): ``move``, ``move2``, ``enter`` and ``reveal``.

A unit moves hex by hex up to its Movement Factor, each step one hex of movement (13.4's
moves A-H through tunnels, :func:`pbem.boards.levels.step_rule`). It may pass through friendly
units but not end on one (7.2, 9.0); entering a place holding enemy counters stops it for a
Close Assault (7.3, 11.0: :func:`.assaults.enter_enemy`). A U.N. unit ends its movement when
it enters an incline or cliff hex, rolls for an avalanche in a cliff hex (7.4.2, 7.4.3), and
the BOAR is destroyed there (17.1); Web infantry ignore terrain (7.4.2). Underground, surface
terrain is disregarded (13.4). A DUSTed unit may not move (12.5); a U.N. unit may not move on
the turn it dropped (14.4), but Light Infantry may in the Second Movement Phase (15.0). A Web
counter that moves is turned face up (5.2).
"""

from __future__ import annotations

from pbem.boards.levels import Place, step_rule

from . import assaults, losses
from .state import UN, WEB

RULE = "7.1"


def _blocked_above(s, side: str):
    """13.4: moves D and G are impossible when an enemy unit is above the Tunnel Mouth."""
    enemy = s.other(side)
    return lambda h: bool(s.counters_at(enemy, Place(h)))


def may_move(run, o, side: str, uid: str, second: bool = False) -> tuple | None:
    """``(rule, why)`` ``uid`` may not move now, or None when it may."""
    s = run.s
    r = s.rec(side, uid)
    kind = s.kind(side, uid)
    if side == WEB and kind in ("generator", "dummy"):
        return "19.4, 20.0", f"{uid} may not move"
    if kind is not None and s.utype(side, uid).movement == 0:
        return "7.1", f"{s.name(side, uid)} has no Movement Factor: it may not move"
    if side == UN and kind == "un-lifter":
        return "18.1", f"{uid} is a Lifter: it moves with `lift`"
    if r.get("dust"):
        return "12.5", f"{s.name(side, uid)} has a DUST marker: it may not move this phase"
    if second:
        if kind != "un-light-infantry":
            return "15.0", f"{s.name(side, uid)} is not Light Infantry: only they move again"
    elif side == UN and r.get("dropped") == s.turn and s.turn > 0:
        return "14.4", f"{s.name(side, uid)} dropped this turn: it may not move"
    if "move" in run.moved.get(uid, []):
        # 18.1: "Units may move either before OR after being transported, but not both"
        return "7.1, 18.1", (f"{s.name(side, uid)} has already moved this phase: a unit "
                             f"moves once, before or after being carried")
    return None


def move(run, o, second: bool = False) -> None:
    """``move UNIT PLACE...`` (``move2`` with ``second``): the unit of ``run.role`` along the
    places named (module docstring). The path stops before a step it may not take."""
    side = run.role
    uid = run.find(side, o.args["unit"], o, RULE)
    if uid is None:
        return
    why = may_move(run, o, side, uid, second)
    if why:
        return run.problem(o, *why)
    walk(run, o, side, uid, [Place.parse(p) for p in o.args["path"]])


def walk(run, o, side: str, uid: str, path: list, allowance: int | None = None,
         start: Place | None = None) -> None:
    """Move ``uid`` along ``path`` (Places), checking each step; ``start`` is None for a unit
    on the map, or the off-map start of a reinforcement (its first place is then entered
    without a step from anywhere, 21.0)."""
    s = run.s
    r = s.rec(side, uid)
    kind = s.kind(side, uid)
    ut = s.utype(side, uid) if kind else None
    allowance = allowance if allowance is not None else (ut.movement if ut else 3)
    here = start if start is not None else s.place(side, uid)
    tunnels = s.tunnel_map()
    blocked = _blocked_above(s, side)
    went = [] if start is not None else [here]
    places = [here]
    steps = 0
    for i, place in enumerate(path):
        why = _step_problem(run, side, uid, here, place, steps, allowance, tunnels, blocked,
                            first=start is not None and steps == 0, last=i == len(path) - 1)
        if why:
            run.problem(o, why[0], why[1])
            _back_off(run, side, uid, places, went)
            break
        if steps == 0:  # a move refused at its first step leaves the unit free to move
            run.did(uid, "move")
            if side == WEB:
                losses.reveal(run, uid, "it moved")  # 5.2, by its first step
        steps += 1
        places.append(place)
        r.update(hex=place.hex, level=place.level, status="map")
        here = place
        went.append(place)
        if place.level == "surface" and not losses.enters_hex(run, side, uid, place.hex,
                                                              "move"):
            break
        if assaults.enemies_at(s, side, place):
            _flush(run, side, uid, went)
            went = []
            assaults.enter_enemy(run, side, uid)
            break
        if side == UN and place.level == "surface" and \
                s.rules.terrain[s.board.terrain(place.hex)]["stops_un"]:
            if steps < len(path):
                run.problem(o, "7.4.2", f"{s.name(side, uid)} entered the "
                            f"{s.board.terrain(place.hex)} hex {place.hex}: a U.N. unit ends "
                            f"its movement there")
            break
    _flush(run, side, uid, went)
    if s.rec(side, uid)["status"] == "map" and kind == "un-boar":
        from . import tunnels as tunnel_rules
        tunnel_rules.boar_arrives(run, uid)


def _back_off(run, side: str, uid: str, places: list, went: list) -> None:
    """A move stopped short by a refused step may not end on a friendly unit (7.2, 9.0): the
    unit stops at the last place of its path without one."""
    s = run.s
    r = s.rec(side, uid)
    while len(places) > 1 and r["status"] == "map" and any(
            u != uid and s.is_unit(side, u) for u in s.counters_at(side, places[-1])):
        places.pop()
        if went:
            went.pop()
        r.update(hex=places[-1].hex, level=places[-1].level)


def _step_problem(run, side, uid, here, place, steps, allowance, tunnels, blocked, first,
                  last):
    s = run.s
    if place.hex not in s.board:
        return "7.1", f"{place.hex} is not a hex of the map: a unit that leaves may not return"
    if steps >= allowance:
        return "7.1", (f"{s.name(side, uid)} has a Movement Factor of {allowance}: it cannot "
                       f"go on to {place}")
    kind = s.kind(side, uid)
    if place.level != "surface" and kind in ("un-boar", "un-lifter"):
        return "13.4", f"{s.name(side, uid)} may not go underground (13.4, 18.3)"
    if not first and step_rule(tunnels, s.board, here, place, enemy_above=blocked) is None:
        return "13.4", f"{here} to {place} is not a move of one hex (7.1; tunnels: 13.4 A-H)"
    if first and place.level != "surface":
        return "21.0", f"{place}: a reinforcement enters on the surface of an edge hex"
    mine = s.unit_at(side, place)
    stops = side == UN and place.level == "surface" and \
        s.rules.terrain[s.board.terrain(place.hex)]["stops_un"]
    if mine is not None and mine != uid and (last or stops) and s.is_unit(side, uid):
        return "7.2", (f"{place} holds your {mine}: a unit may pass through friendly units but "
                       f"not end its movement with one")
    enemy = s.other(side)
    for f in s.counters_at(enemy, place):
        if (enemy, f) in run.assaulted and s.is_unit(enemy, f) is not False:
            return "11.0", (f"{s.name(enemy, f)} at {place} has already been close assaulted "
                            f"this Movement Phase")
    return None


def _flush(run, side: str, uid: str, went: list) -> None:
    """The move event of the places ``went`` through: the text names the levels (``1717u``),
    the map's path the hexes (a change of level in a hex is no step on the map)."""
    if len(went) > 1:
        s = run.s
        hexes = [p.hex for i, p in enumerate(went) if i == 0 or p.hex != went[i - 1].hex]
        run.event("move", f"{s.name(side, uid)} moves {'-'.join(map(str, went))}.", unit=uid,
                  path=hexes)


def end_check(run, o, side: str, uid: str) -> None:
    """After a move: a unit may not end its movement on a friendly unit (7.2, 9.0)."""
    s = run.s
    table = s.un if side == UN else s.web
    if uid not in table or table[uid]["status"] != "map":
        return
    place = s.place(side, uid)
    others = [u for u in s.counters_at(side, place) if u != uid and s.is_unit(side, u)]
    if others and s.is_unit(side, uid):
        run.problem(o, "7.2", f"{s.name(side, uid)} ends its movement at {place} with "
                    f"{others[0]}: one unit per hex (9.0)")


# -- Web reinforcements (21.0) -------------------------------------------------------------

def entry_edge(s) -> str:
    """The map edge Web reinforcements enter by this Game-Turn: ``east`` on odd turns,
    ``west`` on even ones (21.0)."""
    return "east" if s.turn % 2 else "west"


def enter(run, o, entered: list) -> None:
    """``enter MARKER HEX...``: an eliminated Web Infantry re-enters from this turn's edge,
    the edge hex counted as its first hex of movement (21.0); at most
    ``rules.reinforcements`` (4) a phase (``entered`` lists those already in)."""
    s = run.s
    uid = o.args["unit"]
    r = s.web.get(uid)
    rule = "21.0"
    if r is None or r["status"] != "eliminated" or s.web_kind(uid) != "web-infantry":
        return run.problem(o, rule, f"{uid!r} is not an eliminated Web Infantry: only they "
                           f"return (21.0)")
    if len(entered) >= s.rules["reinforcements"]:
        return run.problem(o, rule, f"at most {s.rules['reinforcements']} reinforcements enter "
                           f"each Reinforcement Phase; {uid} waits")
    path = [Place.parse(p) for p in o.args["path"]]
    edge = entry_edge(s)
    if path[0].hex not in s.board.group(edge):
        return run.problem(o, rule, f"{path[0]} is not a hex of the {edge} edge, where "
                           f"reinforcements enter on Game-Turn {s.turn} (21.0)")
    entered.append(uid)
    r.update(dust=False)
    run.event("enter", f"{s.name(WEB, uid)} enters from the {edge} edge at {path[0].hex} "
              f"(21.0).", unit=uid)
    walk(run, o, WEB, uid, path, start=Place(path[0].hex))


def reveal_order(run, o) -> None:
    """``reveal MARKER``: the Web turns a Strongpoint face up in its Movement Phase, so that
    it protects adjacent units in the Ranged Combat Phase (16.2)."""
    s = run.s
    uid = run.find(WEB, o.args["unit"], o, "16.2")
    if uid is None:
        return
    if s.web_kind(uid) != "strongpoint":
        return run.problem(o, "16.2", f"{uid} is not a Strongpoint: only Strongpoints are "
                           f"turned face up at will")
    losses.reveal(run, uid, "the Web player turns it face up (16.2)")
