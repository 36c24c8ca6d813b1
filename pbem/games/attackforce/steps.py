"""The steps of a turn other than movement: the deployment of the Batteries (How to Set Up 4),
a Flight's entry (How to Play 1, Federation Flights), the Empire's step 3 (look or launch) and
the Arcturan step 5 (attacks on Hull Markers, Launchers, the Sensor Pod). Each works on a
:class:`~.moves.Run` (dry when checking: no die, no draw from the cup).
"""

from __future__ import annotations

from .attacks import resolve_roll
from .moves import find, space_of
from .state import ARCTURAN, EMPIRE

# -- How to Set Up 4 ---------------------------------------------------------------------------


def place(run, o) -> None:
    """``place KIND SPACE...``: the next drawn Batteries of ``KIND`` (id order), one to each
    empty Battery Space named (How to Set Up 4)."""
    s = run.s
    for word in o.args["spaces"]:
        left = [b for b, k in s.drawn.items() if k == o.args["kind"]]
        sp = space_of(s, word)
        if not left:
            run.problem(o, "How to Set Up 4", f"no {o.args['kind']} Battery drawn is left to "
                        f"place at {word!r}")
            return
        if sp is None or s.board.kind(sp) != "battery":
            run.problem(o, "How to Set Up 4", f"{word!r} is not a Battery Space")
            return
        if s.at(sp, EMPIRE) is not None:
            run.problem(o, "How to Set Up 4", f"{sp} already holds {s.at(sp, EMPIRE)}: one "
                        f"Battery in each Battery Space")
            return
        put_battery(run, left[0], sp)


def put_battery(run, battery: str, space: str) -> None:
    """Move a drawn Battery from the Empire's secret part onto the map (public from now)."""
    s = run.s
    kind = s.drawn.pop(battery)
    s.pieces[battery] = {"kind": kind, "side": EMPIRE, "space": space, "status": "map"}
    run.event("place", f"{s.name(battery)} ({s.rules.pieces[kind].name}) is placed at "
              f"{space}.", piece=battery, space=space)


def place_rest(run, sent: bool = True) -> None:
    """Place the drawn Batteries no order placed, in the board order of the empty Battery
    Spaces (README "NMR"; How to Set Up 4: every drawn Battery is placed)."""
    s = run.s
    if not s.drawn:
        return
    if not run.dry and sent:
        run.problem(None, "How to Set Up 4", f"{len(s.drawn)} Batteries drawn were not placed: "
                    f"they go to the empty Battery Spaces in board order")
    elif run.dry:
        run.problem(None, "How to Set Up 4", f"{len(s.drawn)} Batteries drawn are not placed "
                    f"({', '.join(s.drawn)}): every drawn Battery must be placed")
        return
    free = [sp for sp in s.board.group("battery") if s.at(sp, EMPIRE) is None]
    for battery, sp in zip(list(s.drawn), free):
        put_battery(run, battery, sp)


# -- How to Play 1 -------------------------------------------------------------------------------


def free_edge(s, edge: str) -> list:
    """The spaces of map edge ``edge`` without an Arcturan piece (Federation Flights)."""
    taken = s.occupied(ARCTURAN)
    return [sp for sp in s.board.group(edge) if sp not in taken]


def enter(run, o) -> None:
    """``enter FLIGHT EDGE SPACE...``: a Flight's pieces (id order) onto free spaces of one map
    edge, one per space (How to Play 1; Federation Flights; README reading 11)."""
    s = run.s
    flight, edge = o.args["flight"], o.args["edge"]
    pieces = [p for p, r in s.pieces.items() if r.get("flight") == flight and r["status"] == "off"]
    new = flight not in s.flights_in()
    rule = "How to Play 1; Federation Flights"
    if not pieces:
        return run.problem(o, rule, f"the {flight} Flight is already in the game")
    if new and not s.flight_due():
        return run.problem(o, rule, "no new Flight may enter this turn: one Flight a Turn, "
                           "four in all")
    if not s.board.has_group(edge):
        return run.problem(o, rule, f"the map has no {edge[5:]} edge")
    free = free_edge(s, edge)
    need = min(len(pieces), len(free))
    spaces = [space_of(s, w) for w in o.args["spaces"]]
    bad = [w for w, sp in zip(o.args["spaces"], spaces) if sp not in free]
    if bad:
        return run.problem(o, rule, f"{', '.join(bad)}: not a space of the {edge[5:]} edge "
                           f"without an Arcturan Starfighter")
    if len(set(spaces)) != len(spaces) or len(spaces) != need:
        return run.problem(o, rule, f"expected {need} different spaces for the {need} pieces "
                           f"of the {flight} Flight ({' '.join(pieces[:need])}), one per space")
    for p, sp in zip(pieces, spaces):
        s.pieces[p].update(space=sp, status="map")
    run.event("enter", f"The {flight} Flight enters on the {edge[5:]} edge: "
              + ", ".join(f"{p} at {sp}" for p, sp in zip(pieces, spaces)) + ".",
              flight=flight, spaces=spaces)


def auto_enter(run, why_problem: bool) -> None:
    """Step 1 when no order brought the Flight due: the next Flight in Flight order enters on
    an edge and spaces drawn on the public stream (README "NMR"). Dry: only the problem."""
    s = run.s
    if not s.flight_due():
        return
    flight = next(f for f in s.rules.flights if f not in s.flights_in())
    if why_problem:
        run.problem(None, "How to Play 1; Federation Flights", f"no `enter` order: a Flight must "
                    f"enter each turn{'' if run.dry else f'; the {flight} Flight enters'}")
    if run.dry:
        return
    n = len([p for p, r in s.pieces.items() if r.get("flight") == flight])
    edges = s.board.edges()
    room = {e: len(free_edge(s, e)) for e in edges}
    best = [e for e in edges if room[e] >= n] or [max(edges, key=room.get)]
    edge = best[0] if len(best) == 1 else best[run.chance.public.roll(
        len(best), f"the edge where the {flight} Flight enters") - 1]
    free = run.chance.public.shuffle(free_edge(s, edge), f"the spaces of the {flight} Flight")
    chosen = sorted(free[:n], key=s.board.spaces().index)
    from pbem.engine.ruleset import Order
    enter(run, Order(0, "", "enter", {"flight": flight, "edge": edge, "spaces": chosen}))


# -- How to Play 3 -------------------------------------------------------------------------------


def look(run, o) -> None:
    """``look HULL...``: turn over the Hull Markers named, face down ones only, as many as
    ``rules.hull_looks`` (3) or all those left (How to Play 3a; Discovering Hull Markers;
    README readings 7-8). Dry: the markers stay face down (the checker cannot know them)."""
    s = run.s
    rule = "How to Play 3a; Discovering Hull Markers"
    want = min(s.rules["hull_looks"], len(s.face_down()))
    spaces = [space_of(s, w) for w in o.args["hulls"]]
    bad = [w for w, sp in zip(o.args["hulls"], spaces) if sp not in s.face_down()]
    if bad:
        run.problem(o, rule, f"{', '.join(bad)}: not a face-down Hull Marker")
    elif len(set(spaces)) != len(spaces) or len(spaces) != want:
        run.problem(o, rule, f"expected {want} different face-down Hull Markers")
    else:
        if not run.dry:
            turn_up(run, spaces)
        return
    if not run.dry:
        turn_up(run, s.face_down()[:want])


def turn_up(run, spaces: list) -> None:
    """The Empire looks at the markers in ``spaces``: face up for both players."""
    s = run.s
    for sp in spaces:
        face = "explosion" if sp == s.explosion else "blank"
        s.hull[sp] = face
        run.event("look", f"The Empire turns over the Hull Marker of Hull Space "
                  f"{s.hull_number(sp)} ({sp}): {face}.", space=sp, face=face)


def launch(run, o) -> None:
    """``launch``: one piece drawn from the cup (hidden stream) for each free Launcher, in
    Launcher order; Vaj Korsen drawn goes back for a Cobra with ``return-korsen`` while Cobras
    remain (How to Play 3b; Vaj Korsen; README reading 10). Dry: placeholders that may be
    either (named by their Launcher space)."""
    s = run.s
    keep_back = bool(o is not None and o.args.get("return_korsen"))
    for sp in s.free_launchers():
        n = s.cup["cobra"] + s.cup["korsen"]
        if n == 0:
            break
        if run.dry:
            kind = "korsen" if s.cup["korsen"] else "cobra"
            s.pieces[f"launch-{sp}"] = {"kind": kind, "side": EMPIRE, "space": sp, "status": "map"}
            continue
        number = s.board.group("launcher").index(sp) + 1
        k = 1 if n == 1 else run.chance.hidden.roll(n, f"a draw from the fighter cup for "
                                                       f"Launcher {number}")
        korsen = k > s.cup["cobra"]
        if korsen and keep_back and s.cup["cobra"] > 0:
            run.event("return", "Vaj Korsen is drawn and put back into the cup; a Cobra is "
                      "taken instead.")
            korsen = False
        if korsen:
            pid, s.cup["korsen"] = "vk", s.cup["korsen"] - 1
        else:
            pid = f"c{s.rules.pieces['cobra'].count - s.cup['cobra'] + 1}"
            s.cup["cobra"] -= 1
        s.pieces[pid] = {"kind": "korsen" if korsen else "cobra", "side": EMPIRE, "space": sp,
                         "status": "map"}
        run.event("launch", f"{s.name(pid)} is placed on Launcher {number} ({sp}).", piece=pid,
                  space=sp)


# -- step 5 --------------------------------------------------------------------------------------


def torpedo_target(s, piece: str, what: str):
    """``(target rating, description)`` of what ``piece`` may attack in step 5 in its own
    space (``what``: ``hull``, ``launcher``, ``sensor-pod``), or ``(None, why not)``."""
    sp = s.pieces[piece]["space"]
    if what == "hull":
        if s.hull.get(sp) in ("down", "explosion"):
            return s.rules.hull_target, f"the Hull Marker of Hull Space {s.hull_number(sp)} ({sp})"
        return None, f"{sp} holds no Hull Marker that may be attacked (a face-up blank may not)"
    option = "launchers" if what == "launcher" else "sensor_pod"
    if not s.option(option):
        return None, f"the optional rule {option}=yes is not in force"
    if s.board.kind(sp) != what or sp in s.wrecks:
        return None, f"{sp} is not an unwrecked {what.replace('-', ' ')}"
    label = "Launcher" if what == "launcher" else "Sensor Pod"
    return s.rules.optional[option]["target"], f"the {label} at {sp}"


TORPEDO_RULE = {"hull": "How to Win", "launcher": "Attacking Launchers (optional)",
                "sensor-pod": "Attacking the Sensor Pod (optional)"}
"""The rule cited for a step 5 attack on each kind of target."""


def torpedo(run, o, done: set) -> None:
    """``torpedo PIECE [WHAT]``: step 5, once per piece (How to Win; README reading 14).
    A hit on the explosion ends the game (the caller sees ``s.outcome``)."""
    s = run.s
    p = find(s, o.args["piece"], ARCTURAN)
    if p is None:
        return run.problem(o, "How to Win", f"{o.args['piece']!r} names none of your pieces "
                           f"on the map")
    if p in done:
        return run.problem(o, "How to Win", f"{p} has already attacked in step 5: each piece "
                           f"may attack once")
    rating, said = torpedo_target(s, p, o.args["what"])
    rule = TORPEDO_RULE[o.args["what"]]
    if rating is None:  # no attack took place: the piece keeps its one attack (How to Win)
        return run.problem(o, rule, said)
    done.add(p)
    if run.dry:
        return
    hit, rolled = resolve_roll(s, run.chance, s.ptype(p).attack, rating,
                               f"{s.name(p)} attacks {said}")
    sp = s.pieces[p]["space"]
    if not hit:
        return run.event("torpedo", f"{s.name(p)} attacks {said}: {rolled}: no effect.")
    if o.args["what"] != "hull":
        s.wrecks.append(sp)
        return run.event("wreck", f"{s.name(p)} attacks {said}: {rolled}: wrecked.", space=sp)
    face = "explosion" if sp == s.explosion else "blank"
    s.hull[sp] = face
    run.event("torpedo", f"{s.name(p)} attacks {said}: {rolled}: hit; the marker is turned "
              f"over: {face}.", space=sp, face=face)
    if face == "explosion":
        s.outcome = {"scores": {ARCTURAN: 1, EMPIRE: 0}, "winners": [ARCTURAN],
                     "reason": "the Arcturan Player hit the Novaship's intake tube (How to Win)"}
