"""The Movement Phase of Escape from Altassar carried out from orders: the Breakout (12.0), the
Signal Posts (13.1), what happens at the start of a Movement Phase (stun, escape rolls,
attrition: 7.7, 21.1, 11.0), the moves and Trip Net launches in order (5.1, 14.2) and the end of
the phase. The rules of a single move are in :mod:`.movement`."""

from __future__ import annotations

from pbem.engine.ruleset import PUBLIC, Event, Problem

from . import attrition, movement
from .orders import VERB_RULE as RULE
from .state import CONFEDERATION, SPIKUS, State


def breakout(s: State, orders: list, events: list, problems: list) -> None:
    """Breakout (12.0, 19.0): each unit starts on the prison hex its order names and moves up
    to double its Movement Allowance; a unit whose move is refused stays on the prison hex its
    order named; units without an order are set up on the prison hexes in turn (marker order)
    and stay; then the stacking limit is enforced (12.2)."""
    prison = s.prison()
    moved = []
    named: dict = {}
    outer, events = events, []
    for o in orders:
        if o.verb != "move":
            continue
        name = o.args["unit"]
        if name not in s.units:
            problems.append(Problem(o.line, o.text, RULE["move"], f"{name} is not one of your units"))
            continue
        if name in moved:
            problems.append(Problem(o.line, o.text, RULE["move"], f"{name} has already moved (5.1)"))
            continue
        start = o.args["from"]
        if start not in prison:
            problems.append(Problem(o.line, o.text, "Altassar 12.1", "a Breakout move starts "
                                    f"'from' a prison hex ({', '.join(prison)})"))
            continue
        plan = movement.plan_path(s, CONFEDERATION, name, start, o.args["path"], o.args["off"],
                                  movement.allowance(s, s.units[name]["kind"]))
        if isinstance(plan, str):
            problems.append(Problem(o.line, o.text, RULE["move"], plan + f"; {name} stays at "
                                    f"{start}"))
            named[name] = start
            continue
        movement.move_confederation(s, name, start, plan[0], o.args["off"], events)
        moved.append(name)
    # by marker, never by name: the order must not tell which marker is which race (README)
    rest = sorted((n for n in s.units if n not in moved), key=lambda n: s.units[n]["marker"])
    unnamed = [n for n in rest if n not in named]
    for name in rest:
        rec = s.markers[s.units[name]["marker"]]
        rec["where"] = "map"
        rec["hex"] = named.get(name) or prison[unnamed.index(name) % len(prison)]
    if rest:
        events.append(Event("breakout", f"{len(rest)} counter(s) stay in the prison: "
                            + ", ".join(f"{s.units[n]['marker']} at "
                                        f"{s.markers[s.units[n]['marker']]['hex']}"
                                        for n in sorted(rest, key=lambda n: s.units[n]['marker']))
                            + ".", (PUBLIC,), {}))
    outer.extend(by_marker(events))
    movement.breakout_stacking(s, outer)
    s.stage, s.phasing = "posts", SPIKUS


def posts(s: State, orders: list, events: list, problems: list) -> None:
    """Place the Signal Posts, one per hex, anywhere on the map (13.1)."""
    free = [u for u, r in sorted(s.spikus.items()) if r["kind"] == "signal-post"]
    used = set()
    for o in orders:
        if o.verb != "post":
            continue
        h = o.args["hex"]
        if h not in s.hexmap:
            problems.append(Problem(o.line, o.text, RULE["post"], f"hex {h} is off the map"))
        elif h in used:
            problems.append(Problem(o.line, o.text, RULE["post"], f"{h} already has a Signal Post "
                                    "(13.1: at most one per hex)"))
        elif not free:
            problems.append(Problem(o.line, o.text, RULE["post"], "all four Signal Posts are placed"))
        else:
            pid = free.pop(0)
            s.spikus[pid]["hex"], s.spikus[pid]["where"] = h, "map"
            used.add(h)
            events.append(Event("post", f"Signal Post {pid} placed at {h} (13.1).", (PUBLIC,),
                                {"unit": pid, "hex": h}))


def start_of_movement(s: State, orders: list, chance, events: list, problems: list) -> None:
    """What happens at the start of a Movement Phase: a Confederation unit's stun ends (7.7),
    escorted prisoners may try to escape (21.1), attrition (11.0) and the alternate attrition
    roll (21.1). ``chance`` None (order checking) skips the dice."""
    p = s.phasing
    if p == CONFEDERATION:
        for m, rec in s.markers.items():
            if rec.get("stun_end") is not None and rec["stun_end"] <= s.pt:
                rec["stun_end"] = None
                movement.expire(s, m, ("stun",), events)
        if s.options.get("escort") == "yes" and chance is not None:
            attrition.escape_rolls(s, chance, events)
    attrition_mode = s.options.get("attrition", "standard")
    named = [o for o in orders if o.verb == "attrition"]
    due = p == SPIKUS and attrition_mode in ("standard", "both") \
        and s.turn >= s.rules["attrition_from"]
    if not due:
        why = (f"attrition removes a soldier from turn {s.rules['attrition_from']} (11.1); this "
               f"is turn {s.turn}" if attrition_mode != "alternate" else
               "this game plays the Alternate Attrition Rules instead (21.1): no soldier is "
               "named")
        problems.extend(Problem(o.line, o.text, RULE["attrition"], why) for o in named)
    if due:
        pick = None
        for o in named:
            u = o.args["unit"]
            r = s.spikus.get(u)
            if r is None or r["kind"] != "soldier" or r["where"] not in ("map", "box"):
                problems.append(Problem(o.line, o.text, RULE["attrition"],
                                        f"{u} is not a Spikus soldier in play"))
            elif pick is None:
                pick = u
        attrition.lose_soldier(s, pick, "attrition (11.1)", events)
    if attrition_mode in ("alternate", "both") and chance is not None:
        a = chance.public.roll(6, f"alternate attrition for the {p}, first die")
        b = chance.public.roll(6, f"alternate attrition for the {p}, second die")
        if a + b == s.rules["alternate_attrition_roll"]:
            if p == SPIKUS:
                attrition.lose_soldier(s, None, "alternate attrition (21.1)", events)
            else:
                attrition.lose_prisoner(s, chance, events)


def by_marker(events: list) -> list:
    """The Confederation's movement events grouped by marker, markers in order: the order in
    which the player wrote the moves (say, the template's order, by unit name) must not show
    which marker is which unit (README.md, "Who sees what")."""
    groups: dict = {}
    rest = []
    for e in events:
        m = e.data.get("marker")
        (groups.setdefault(m, []) if m else rest).append(e)
    return [e for m in sorted(groups) for e in groups[m]] + rest


def movement_phase(s: State, side: str, orders: list, events: list, problems: list) -> None:
    """Carry out ``side``'s movement orders in order (5.1): ``carry`` first, then launches
    ``start``, then the moves, then launches ``end`` (14.2). The Confederation's events are
    reported by marker (:func:`by_marker`)."""
    if side == CONFEDERATION:
        mine: list = []
        _movement_phase(s, side, orders, mine, problems)
        events.extend(by_marker(mine))
    else:
        _movement_phase(s, side, orders, events, problems)


def _movement_phase(s: State, side: str, orders: list, events: list, problems: list) -> None:
    for o in orders:
        if o.verb == "carry":
            why = _carry(s, o.args["net"], o.args["soldier"])
            if why:
                problems.append(Problem(o.line, o.text, RULE["carry"], why))
    for when in ("start", None, "end"):
        for o in orders:
            if when is None and o.verb == "move":
                why = do_move(s, side, o, events)
            elif o.verb == "launch" and when == o.args["when"]:
                a = o.args
                why = movement.net_problem(s, a["net"], a["direction"], a["hexes"])
                if not why:
                    movement.launch_net(s, a["net"], a["direction"],
                                        a["hexes"] or s.rules["net_range"], events)
                    s.moved.append(a["net"])
            else:
                continue
            if why:
                problems.append(Problem(o.line, o.text, RULE[o.verb], why))


def _carry(s: State, net: str, soldier: str) -> str | None:
    n, so = s.spikus.get(net), s.spikus.get(soldier)
    if n is None or n["kind"] != "trip-net" or n["where"] not in ("map", "box"):
        return f"{net} is not a Trip Net in play"
    if so is None or so["kind"] != "soldier" or so["where"] not in ("map", "box"):
        return f"{soldier} is not a Spikus soldier in play"
    if n["where"] != so["where"] or n["hex"] != so["hex"]:
        return f"{net} and {soldier} must be in the same hex (14.1)"
    if sum(1 for r in s.spikus.values() if r.get("carrier") == soldier) >= 4:
        return f"{soldier} already carries four Trip Nets (14.1, 6.2)"
    n["carrier"] = soldier
    return None


def do_move(s: State, side: str, o, events: list) -> str | None:
    """Check and carry out one move order; return why it was refused, or None."""
    name = o.args["unit"]
    why = movement.why_cannot_move(s, side, name)
    if why:
        return why
    kind, rec = movement.mover(s, side, name)
    start = rec["hex"]
    if rec["where"] == "box":
        start = o.args["from"]
        if start not in s.prison():
            return f"{name} enters the map 'from' a prison hex ({', '.join(s.prison())}) (19.0)"
        if start in s.enemy_hexes(side):
            return f"{start} holds enemy units (5.2)"
    elif o.args["from"] not in (None, start):
        return f"{name} is at {start}, not {o.args['from']}"
    budget = movement.allowance(s, kind)
    if side == SPIKUS and rec.get("escorting"):
        held = s.markers[rec["escorting"]].get("kind")
        budget = min(budget, s.value(held, "movement")) if held else budget
    plan = movement.plan_path(s, side, name, start, o.args["path"], o.args["off"], budget)
    if isinstance(plan, str):
        return plan
    route = plan[0]
    end = route[-1] if route else start
    if not o.args["off"]:
        why = movement.stacking_problem(s, side, name, end)
        if why:
            return why
    if side == SPIKUS:
        movement.move_spikus(s, name, start, route, events)
    else:
        movement.move_confederation(s, name, start, route, o.args["off"], events)
    s.moved.append(s.public_id(name))
    return None


def end_of_movement(s: State) -> None:
    """A Spikus unit's stun ends with the Movement Phase it could not move in; a netted unit
    is free after the Confederation Movement Phase it was held in (7.7, 14.4)."""
    if s.phasing == SPIKUS:
        for r in s.spikus.values():
            if r.get("stun_end") is not None and r["stun_end"] <= s.pt:
                r["stun_end"] = None
    else:
        for r in s.markers.values():
            if r.get("restrained") is not None and r["restrained"] <= s.pt:
                r["restrained"] = None
