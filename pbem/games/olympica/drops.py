"""U.N. drops (5.3, 14.0-14.4, 19.1) and the Web's compulsions (14.2, 19.2, 19.3).

A Drop Phase goes: the U.N. declares its drops (:func:`declare`: ``drop H1 1213 H2 1214 T1
1314``), recorded in ``s.drops`` as ``[{"units": [[id, hex], ...]}]`` and numbered from 1 in
the order written; the Web may then move one drop targeted within two hexes of the Generator
(:func:`compellable`, :func:`compel_drop`, 14.2); then the units land (:func:`land`: Lifters
and the BOAR destroyed in cliff or incline hexes, avalanches in cliff hexes, then a Close
Assault on the Web counters landed on, 14.3). In each Web Compulsion Phase the Web may move one
U.N. unit on the map up to three hexes (:func:`compel`, 19.2). Once a U.N. unit ends a turn
with the Generator, neither compulsion is possible again (:func:`break_web`, 19.3).

Readings (pbem's, where the rulebook is silent):

- a drop has exactly ``rules["drop_size"]`` (3) units; a smaller one only when it takes every
  unit left in reserve and fewer than three are left (the last drop may be smaller);
- "Web units" a drop or a compelled unit may not be sent onto are any Web counters on the
  surface of the hex (a dummy or the Generator too: landing there removes or captures it, 20.0,
  11.0), and "no other spaces" means no other translation of one to three hexes that keeps the
  drop on the map and off U.N. units and Web counters (14.2); for a compelled unit, no other
  legal step from where it is (19.2);
- a compelled unit may not step into a place holding another U.N. unit, even to pass through
  (19.2: "into a hex with a friendly unit"), and a step from underground to the surface of a
  cliff hex is entering that cliff hex (7.4.3), as in movement.py;
- once a drop has been compelled, :func:`compellable` is empty until the drops land (14.2: one
  drop per Drop Phase).
"""

from __future__ import annotations

from pbem.boards.hexgrid import axial_distance
from pbem.boards.levels import LEVELS, SURFACE, Place, step_rule

from . import assaults, losses
from .state import ON_MAP, UN, UN_PREFIX, WEB

FRAGILE = losses.UN_FRAGILE
"""The Lifters and the BOAR: only in the advanced scenarios (4.1's note), destroyed when they
land or are compelled into a cliff or incline hex (14.3, 17.1, 18.3)."""


_KIND_OF = {letter: kind for kind, letter in UN_PREFIX.items()}


def _unit(s, uid: str) -> dict:
    """The record of a dropping unit. A Web state does not hold the U.N. reserve (secret, state
    module docstring), but a declared drop is public and an id's letter names its kind, so the
    Web's dry run of its compel window makes the record from the id."""
    r = s.un.get(uid)
    if r is None:
        r = s.un[uid] = {"kind": _KIND_OF[uid[0]], "status": "reserve", "hex": None,
                         "level": None, "dust": False, "dropped": None}
    return r


# -- declaring drops (14.1) ----------------------------------------------------------------

def declare(run, orders) -> None:
    """The U.N. ``drop`` orders of one Drop Phase (``o.args["units"]``: ``[[id, place], ...]``).
    A valid drop is appended to ``s.drops`` (module docstring) with a public event; its units
    stay in reserve until :func:`land`. An invalid one is a problem (14.1, 9.0) and is not
    recorded."""
    s = run.s
    for o in orders:
        pairs = [[u, str(Place.parse(p))] for u, p in o.args["units"]]
        why = _drop_problem(s, pairs)
        if why:
            run.problem(o, why[0], why[1])
            continue
        s.drops.append({"units": pairs})
        n = len(s.drops)
        run.event("drop-target", f"Drop {n} is targeted at "
                  f"{', '.join(f'{s.name(UN, u)} {h}' for u, h in pairs)} (14.1).",
                  drop=n, units=[list(p) for p in pairs])


def _drop_problem(s, pairs: list) -> tuple[str, str] | None:
    """``(rule, why)`` when the drop ``pairs`` may not be made, else None."""
    size = s.rules["drop_size"]
    earlier = {u: n for n, d in enumerate(s.drops, 1) for u, _ in d["units"]}
    targeted = {h for d in s.drops for _, h in d["units"]}
    for uid, where in pairs:
        r = s.un.get(uid)
        if r is None:
            return "14.0", f"{uid!r} names none of your units"
        if r["status"] != "reserve":
            return "14.0", f"{uid} is not in reserve ({r['status']}): a unit drops once"
        if uid in earlier:
            return "14.1", f"{uid} is already in drop {earlier[uid]}"
        if r["kind"] in FRAGILE and not s.advanced:
            return "4.1", f"{s.name(UN, uid)}: Lifters and the BOAR are advanced-scenario units"
        place = Place.parse(where)
        if place.underground:
            return "14.1", (f"{where}: drops may land on top of Tunnel Mouths but not under "
                            f"them (14.1); write {place.hex}")
        if place.hex not in s.board:
            return "14.1", f"{place.hex} is not a hex of the map"
        here = s.counters_at(UN, place)
        if here:
            return "9.0", f"{place.hex} holds {s.name(UN, here[0])}: one unit per hex"
        if place.hex in targeted:
            return "9.0", f"{place.hex} is the target of an earlier drop: one unit per hex"
    ids, hexes = [u for u, _ in pairs], [h for _, h in pairs]
    if len(set(ids)) != len(ids):
        return "14.1", "a unit is named twice in the drop"
    if len(set(hexes)) != len(hexes):
        return "9.0", "two units of the drop target the same hex: one unit per hex"
    left = sorted(u for u, r in s.un.items() if r["status"] == "reserve" and u not in earlier)
    if len(ids) > size or len(ids) < size and not (len(left) < size and sorted(ids) == left):
        return "14.1", (f"a drop has {size} units (it has {len(ids)}); a smaller one only "
                        f"takes every unit left in reserve when fewer than {size} are left")
    for i, a in enumerate(hexes):
        for b in hexes[i + 1:]:
            if not s.board.adjacent(a, b):
                return "14.1", (f"{a} and {b} are not adjacent: each unit of a drop must be "
                                f"adjacent to the other two")
    return None


# -- drop compulsion (14.2, 19.1) -----------------------------------------------------------

def _generator_place(s) -> Place | None:
    """Where the Generator stands, when this reader knows its marker and it is on the map."""
    gen = s.generator()
    if gen is None or s.web[gen]["status"] != ON_MAP:
        return None
    return s.place(WEB, gen)


def compellable(s) -> list:
    """The numbers (from 1) of the drops in ``s.drops`` the Web may compel now: the Web is not
    broken (19.3), the Generator is on the map and a unit of the drop is targeted within
    ``rules["drop_compulsion_range"]`` (2) hexes of its hex (14.2, 19.1), and no drop has been
    compelled yet this Drop Phase (14.2). Needs the Generator's marker: the judge's or the
    Web's state (in a U.N. state it is empty while the Generator is face down)."""
    gen = _generator_place(s)
    if s.broken or gen is None or any("from" in d for d in s.drops):
        return []
    reach = s.rules["drop_compulsion_range"]
    return [n for n, d in enumerate(s.drops, 1)
            if any(s.board.distance(h, gen.hex) <= reach for _, h in d["units"])]


def _vectors(n: int):
    """Axial translations of 1 to ``n`` hexes, in a fixed order."""
    for dq in range(-n, n + 1):
        for dr in range(max(-n, -dq - n), min(n, -dq + n) + 1):
            if (dq, dr) != (0, 0):
                yield dq, dr


def _landing(s, drop: dict, vec) -> tuple[list | None, str | None, bool]:
    """The hexes of ``drop`` moved by axial ``vec``: ``(hexes or None when one is off the map,
    a hex holding a U.N. unit or None, True when one holds Web counters)``."""
    hexes = []
    for _, h in drop["units"]:
        q, r = s.board.axial(h)
        to = s.board.at_axial(q + vec[0], r + vec[1])
        if to is None:
            return None, None, False
        hexes.append(to)
    others = {h for d in s.drops if d is not drop for _, h in d["units"]}
    un = next((h for h in hexes if s.counters_at(UN, Place(h)) or h in others), None)
    return hexes, un, any(s.counters_at(WEB, Place(h)) for h in hexes)


def compel_drop(run, o) -> bool:
    """The Web's ``compel-drop N HEX`` (``o.args``: ``drop``, ``to``): drop N, which must be
    :func:`compellable`, lands with its first unit at HEX and every unit moved by the same
    translation (14.2: "kept in the same position relative to one another"), of at most
    ``rules["drop_compulsion_hexes"]`` (3) hexes, all on the map, none on a U.N. unit, none on
    Web counters unless every other translation is impossible. Records the new hexes in
    ``s.drops`` (the targets in ``from``) with a public event; True when done."""
    s = run.s
    n, to = o.args["drop"], Place.parse(o.args["to"])
    if s.broken:
        return _no(run, o, "19.3", "the Web of Compulsion is broken: no drop may be compelled")
    if not 1 <= n <= len(s.drops):
        return _no(run, o, "14.2", f"there is no drop {n} (this Drop Phase has "
                   f"{len(s.drops)})")
    done = next((k for k, d in enumerate(s.drops, 1) if "from" in d), None)
    if done is not None:
        return _no(run, o, "14.2", f"drop {done} has been compelled already: one drop per "
                   f"Drop Phase")
    if n not in compellable(s):
        return _no(run, o, "14.2", f"no unit of drop {n} is targeted within "
                   f"{s.rules['drop_compulsion_range']} hexes of the Web Generator")
    if to.underground or to.hex not in s.board:
        return _no(run, o, "14.2", f"{to}: expected a surface hex of the map (14.1)")
    drop = s.drops[n - 1]
    q0, r0 = s.board.axial(drop["units"][0][1])
    q1, r1 = s.board.axial(to.hex)
    vec = (q1 - q0, r1 - r0)
    far, most = axial_distance((0, 0), vec), s.rules["drop_compulsion_hexes"]
    if far == 0 or far > most:
        return _no(run, o, "14.2", f"{to.hex} is {far} hexes from {drop['units'][0][1]}: a "
                   f"drop is compelled 1 to {most} hexes")
    hexes, un, web = _landing(s, drop, vec)
    if hexes is None:
        return _no(run, o, "14.2", f"moved so its first unit lands at {to.hex}, drop {n} "
                   f"would leave the map")
    if un is not None:
        return _no(run, o, "9.0", f"{un} holds a U.N. unit: one unit per hex")
    if web:
        free = next((h[0] for h, u, w in (_landing(s, drop, v) for v in _vectors(most))
                     if h is not None and u is None and not w), None)
        if free is not None:
            return _no(run, o, "14.2", f"drop {n} would land on Web counters, and another "
                       f"landing is open (first unit at {free})")
    drop["from"] = [list(p) for p in drop["units"]]
    drop["units"] = [[u, h] for (u, _), h in zip(drop["from"], hexes)]
    for u, _ in drop["units"]:
        _unit(s, u)
    moves = ", ".join(f"{s.name(UN, u)} {a} -> {b}" for (u, a), (_, b)
                      in zip(drop["from"], drop["units"]))
    run.event("compel-drop", f"The Web compels drop {n} {far} hex{'es' * (far > 1)}: {moves} "
              f"(14.2).", drop=n, units=[list(p) for p in drop["units"]],
              targets=[list(p) for p in drop["from"]])
    return True


def _no(run, o, rule: str, why: str) -> bool:
    run.problem(o, rule, why)
    return False


# -- landing (14.3, 14.4) ------------------------------------------------------------------

def land(run) -> None:
    """Place every unit of ``s.drops`` on the surface of its hex (status ``map``, ``dropped``
    = this Game-Turn: 14.4), in drop order then unit order, then for each unit in that order: a
    Lifter or the BOAR in a cliff or incline hex is destroyed, another unit in a cliff hex rolls
    for an avalanche (14.3, 7.4.3), and a survivor on Web counters Close Assaults them (14.3,
    11.0: avalanche first). Clears ``s.drops``."""
    s = run.s
    landed = []
    for n, d in enumerate(s.drops, 1):
        for uid, h in d["units"]:
            _unit(s, uid).update(status=ON_MAP, hex=h, level=SURFACE, dropped=s.turn, dust=False)
            run.did(uid, "dropped")
            landed.append((uid, h))
        run.event("drop", f"Drop {n}: "
                  f"{', '.join(f'{s.name(UN, u)} at {h}' for u, h in d['units'])} (14.1).",
                  drop=n, units=[list(p) for p in d["units"]])
    for uid, h in landed:
        if not losses.enters_hex(run, UN, uid, h, "drop"):
            continue
        r = s.un[uid]
        if r["status"] == ON_MAP and s.counters_at(WEB, s.place(UN, uid)):
            assaults.enter_enemy(run, UN, uid)
    losses.note_generator(run)
    s.drops = []


# -- movement compulsion (19.2) ------------------------------------------------------------

def compel(run, o) -> None:
    """The Web's ``compel UNIT PLACE...`` (``o.args``: ``unit``, ``path``): one U.N. unit on the
    map (not the BOAR) moved up to ``rules["compulsion_hexes"]`` (3) steps, each a move of
    13.4 (:func:`~pbem.boards.levels.step_rule`), not off the map, not into a place with another
    U.N. unit, not onto Web counters unless no other step is open (the Close Assault then ends
    it), not from a cliff hex into another; terrain does not stop it, but a Lifter is destroyed
    entering a cliff or incline hex and other units roll for avalanches in cliff hexes (19.2).
    One a Compulsion Phase (``run.compelled``: the units compelled). Dry: the unit is moved
    without dice, so that the orders after it are checked against where it will be."""
    s = run.s
    done = getattr(run, "compelled", None)
    if done is None:
        done = run.compelled = set()
    uid = o.args["unit"]
    if s.broken:
        return run.problem(o, "19.3", "the Web of Compulsion is broken: no unit may be "
                           "compelled")
    if done:
        return run.problem(o, "19.2", f"{min(done)} has been compelled already: one "
                           f"U.N. unit each Compulsion Phase")
    if uid in s.web:
        return run.problem(o, "19.2", f"{uid} is a Web counter: Web units may not be compelled")
    if run.find(UN, uid, o, "19.2") is None:
        return None
    if s.un[uid]["kind"] == "un-boar":
        return run.problem(o, "19.2", f"{s.name(UN, uid)}: the BOAR may not be compelled once "
                           f"it is on the ground (17.1)")
    path = _compel_path(run, o, uid)
    if path is None:
        return None
    done.add(uid)
    _walk(run, uid, path)  # dry too: later orders are checked with the unit where it goes
    return None


def _open_above(s):
    """13.4: moves D and G are impossible when an enemy counter is above the Tunnel Mouth
    (as movement.py reads it)."""
    return lambda h: bool(s.counters_at(WEB, Place(h)))


def _step_problem(s, uid: str, a: Place, b: Place) -> str | None:
    """Why compelled ``uid`` may not step from ``a`` to ``b`` (None: it may)."""
    if b.hex not in s.board:
        return f"{b.hex} is not a hex of the map: a unit may not be compelled off it"
    if b.underground and s.un[uid]["kind"] == "un-lifter":
        return f"{s.name(UN, uid)} may not go underground (18.3)"
    if step_rule(s.tunnel_map(), s.board, a, b, enemy_above=_open_above(s)) is None:
        return f"{a} to {b} is not a move of one hex (7.1; tunnels: 13.4 A-H)"
    others = [u for u in s.counters_at(UN, b) if u != uid]
    if others:
        return f"{b} holds {s.name(UN, others[0])}: a unit is not compelled into a friendly unit"
    if s.terrain(a) == "cliff" and s.terrain(b) == "cliff":
        return f"{a} and {b} are both cliff hexes: no compulsion from one cliff hex to another"
    return None


def _compel_path(run, o, uid: str) -> list | None:
    """The checked places of ``o.args["path"]``, or None with a problem."""
    s = run.s
    path = [Place.parse(p) for p in o.args["path"]]
    most = s.rules["compulsion_hexes"]
    if len(path) > most:
        run.problem(o, "19.2", f"{len(path)} hexes: a unit is compelled up to {most} hexes")
        return None
    here = s.place(UN, uid)
    for i, b in enumerate(path):
        why = _step_problem(s, uid, here, b)
        if why:
            run.problem(o, "19.2", f"step {i + 1}: {why}")
            return None
        if s.counters_at(WEB, b):
            free = next((c for c in _steps(s, uid, here) if not s.counters_at(WEB, c)), None)
            if free is not None:
                run.problem(o, "19.2", f"step {i + 1}: {b} holds Web counters, and {free} is "
                            f"open: a unit is compelled onto enemy units only when no other "
                            f"hex is available")
                return None
            if i < len(path) - 1:
                run.problem(o, "19.2", f"step {i + 1}: entering {b} makes a Close Assault: a "
                            f"unit is not compelled on after it")
                return None
        here = b
    return path


def _steps(s, uid: str, a: Place) -> list:
    """The places one legal compelled step from ``a`` (:func:`_step_problem`), in order."""
    out = []
    for h in (a.hex, *s.board.neighbours(a.hex)):
        for level in LEVELS:
            b = Place(h, level)
            if b != a and _step_problem(s, uid, a, b) is None:
                out.append(b)
    return out


def _walk(run, uid: str, path: list) -> None:
    """Carry out a checked compulsion: the event (before the dice it causes), each step's
    terrain, then a Close Assault where it ends on Web counters."""
    s = run.s
    r = s.un[uid]
    start = s.place(UN, uid)
    mark = len(run.events)
    walked = [start]
    for b in path:
        r.update(hex=b.hex, level=b.level)
        walked.append(b)
        if b.level == SURFACE and not losses.enters_hex(run, UN, uid, b.hex, "compel"):
            break
    run.did(uid, "compelled")
    hexes = [p.hex for i, p in enumerate(walked) if i == 0 or p.hex != walked[i - 1].hex]
    run.event("compel", f"The Web compels {s.name(UN, uid)} "
              f"{' -> '.join(str(p) for p in walked)} (19.2).", unit=uid, path=hexes)
    run.events.insert(mark, run.events.pop())
    if r["status"] == ON_MAP and s.counters_at(WEB, s.place(UN, uid)):
        assaults.enter_enemy(run, UN, uid)
    losses.note_generator(run)


# -- breaking the Web (19.3) ---------------------------------------------------------------

def break_web(run) -> None:
    """At the end of a U.N. Player-Turn (and after setup): a U.N. unit on the Generator's place
    (same hex and level, 13.3) breaks the Web of Compulsion for good (19.3): ``s.broken`` and a
    public event; the Generator is turned face up (the U.N. unit stands on it)."""
    s = run.s
    gen = s.generator()
    if s.broken or gen is None or s.web[gen]["status"] != ON_MAP:
        return
    place = s.place(WEB, gen)
    here = s.counters_at(UN, place)
    if not here:
        return
    s.broken = True
    losses.reveal(run, gen, "a U.N. unit stands with it")
    run.event("broken", f"{s.name(UN, here[0])} ends its turn with the Web Generator at "
              f"{place}: the Web of Compulsion is broken for the rest of the game (19.3).",
              unit=here[0], hex=str(place))
    losses.note_generator(run)
