"""Movement in Escape from Altassar: the Breakout (12.0), normal movement (5.0), stacking (6.0),
Signal Posts (13.0), Trip Nets (14.0), Drystals (16.3), Trackers' fuel (17.3), Recovery Wagons
picking up and unloading prisoners (18.0) and escorts (21.1, optional).

Each function takes the :class:`~.state.State` and either checks an order (returning the reason
it is illegal, a ``str``, or None) or carries it out, returning :class:`Event` values. Units move
one at a time in the order written (5.1); a move is checked against the position as it stands
when its turn comes.
"""

from __future__ import annotations

from pbem.boards.paths import cheapest_path
from pbem.engine.ruleset import PUBLIC, Event

from .state import CONFEDERATION, SPIKUS, State, prisoner

FLAT_COST = ("drystal", "trip-net")  # (state.State.costs)
"""Kinds paying one movement point per hex whatever the terrain (14.3, 16.3)."""


def step_cost(s: State, kind: str, h: str) -> int:
    """Movement points for a ``kind`` unit to enter hex ``h`` (5.31; 14.3, 16.3)."""
    return s.costs(kind)[h]


def allowance(s: State, kind: str) -> int:
    """Movement allowance in movement points this phase: the printed value, doubled in the
    Breakout (12.1)."""
    ma = s.value(kind, "movement")
    return ma * s.rules["breakout_factor"] if s.stage == "breakout" else ma


# -- who is moving -------------------------------------------------------------------------
def confed_record(s: State, name: str) -> dict:
    """The public marker record of Confederation unit ``name``."""
    return s.markers[s.units[name]["marker"]]


def mover(s: State, side: str, name: str):
    """``(kind, record)`` of the unit ``name`` of ``side``, or raise ``KeyError``."""
    if side == SPIKUS:
        rec = s.spikus[name]
        return rec["kind"], rec
    return s.units[name]["kind"], confed_record(s, name)


def why_cannot_move(s: State, side: str, name: str) -> str | None:
    """Why unit ``name`` may not move this phase, or None."""
    try:
        kind, rec = mover(s, side, name)
    except KeyError:
        return f"{name} is not one of your units"
    if s.public_id(name) in s.moved:
        return f"{name} has already moved this phase (5.1)"
    if kind in ("signal-post",):
        return "a Signal Post may never be moved (13.4)"
    if kind == "trip-net":
        return "a Trip Net moves only by 'launch' or carried by a soldier (14.1, 14.2)"
    if rec["where"] == "captive":
        return f"{name} is held captive and cannot move (18.3)"
    if rec["where"] not in ("map", "box"):
        return f"{name} is no longer on the map"
    if rec.get("stun_end") is not None:
        return f"{name} is stunned and may not move this Movement Phase (7.7)"
    if rec.get("feed_end") is not None:
        return f"{name} is feeding in Renewal and may not move (10.1)"
    if rec.get("restrained") is not None:
        return f"{name} is held by a Trip Net and may not move this phase (14.4)"
    if kind == "tracker" and s.turn >= s.rules["tracker_fuel_turn"]:
        return f"Trackers are out of fuel from turn {s.rules['tracker_fuel_turn']} (17.3)"
    return None


def _can_capture(s: State, unit: str, h: str) -> bool:
    """True when Spikus ``unit`` may end its move on ``h`` to take its stunned prisoner: a
    Recovery Wagon (18.3) or, with the escort option, a soldier (21.1), holding no prisoner
    yet (18.1: one prisoner each; 21.1: one soldier per prisoner)."""
    kind = s.spikus[unit]["kind"]
    if s.spikus[unit].get("escorting"):
        return False
    if kind == "wagon" or (kind == "soldier" and s.options.get("escort") == "yes"):
        ms = s.markers_at(h)
        return len(ms) == 1 and s.markers[ms[0]].get("stun_end") is not None \
            and prisoner(s.markers[ms[0]].get("kind"))
    return False


def plan_path(s: State, side: str, name: str, start: str, path: list, off: bool,
              budget: int) -> tuple[list, int] | str:
    """The hexes entered and the movement points spent for a move order, or why it is illegal.

    ``path`` is either the whole route (each hex adjacent to the one before) or a single
    destination, reached by the cheapest route (ties broken by hex label). Enemy hexes may not
    be entered (5.2), except the hex of a stunned prisoner by a unit that takes it (18.3).
    """
    kind = mover(s, side, name)[0]
    enemy = s.enemy_hexes(side)
    hm = s.hexmap
    if path and path[0] == start:  # the route written from the unit's own hex
        path = path[1:]
        if not path and not off:
            return f"{name} is at {start} already: name the hexes it enters"
    for h in path:
        if h not in hm:
            return f"hex {h} is off the map (5.21)"
    if path and path[-1] in enemy and not (side == SPIKUS and _can_capture(s, name, path[-1])):
        return f"{path[-1]} holds enemy units and may not be entered (5.2)"

    table = s.costs(kind)
    last = path[-1] if path else None

    def cost(a, b):
        if b in enemy and not (b == last and side == SPIKUS and _can_capture(s, name, b)):
            return None
        return table[b]

    if len(path) == 1 and path[0] != start and not hm.adjacent(start, path[0]):
        found = cheapest_path(hm, start, path[0], cost, budget)
        if found is None:
            return (f"{path[0]} cannot be reached from {start} with {budget} movement points "
                    f"(5.1, 5.31)")
        route = found[1][1:]
    else:
        route = list(path)
    spent, here = 0, start
    for h in route:
        if not hm.adjacent(here, h):
            return f"{h} is not next to {here}: list every hex entered, or one destination"
        c = cost(here, h)
        if c is None:
            return f"{h} holds enemy units and may not be entered (5.2)"
        spent += c
        here = h
    if off:
        if side != CONFEDERATION:
            return "only the Confederation may leave the map, by the exit edge (5.21, 20.0)"
        if here not in hm.group("exit"):
            return f"units leave the map only from the exit edge opposite the prison, not {here} (5.21, 20.0)"
        spent += s.rules["exit_cost"]
    if spent > budget:
        return f"the move costs {spent} movement points; {name} has {budget} (5.0, 5.31)"
    return route, spent


def stacking_problem(s: State, side: str, name: str, h: str) -> str | None:
    """Why unit ``name`` may not end its move in ``h`` given the units there now (6.0)."""
    if s.stage == "breakout":
        return None  # checked at the end of the Breakout (12.2)
    kind = mover(s, side, name)[0]
    if side == CONFEDERATION:
        others = [m for m in s.markers_at(h) if m != s.units[name]["marker"]]
        if others:
            return f"{h} already holds a Confederation counter: units may not stack (6.1)"
        nets = ["trip-net" for u in s.spikus_at(h, kinds=("trip-net",))
                if not s.spikus[u].get("carrier")]
        why = s.rules.stacking.check(["confederation"] + nets) if nets else None
        return f"ending in {h}: {why}" if why else None
    here = [u for u in s.spikus_at(h) if u != name]
    if kind == "drystal":
        if any(s.spikus[u]["kind"] == "drystal" for u in here):
            return f"{h} already holds a Drystal (6.1, 6.4)"
        return None
    kinds = [s.spikus[u]["kind"] for u in here] + [kind]
    kinds += ["trip-net" for n, r in s.spikus.items() if r.get("carrier") == name]
    if s.markers_at(h):
        return None  # a capture (18.3): the prisoner is under the wagon
    why = s.rules.stacking.check(kinds)
    return f"ending in {h}: {why}" if why else None


# -- carrying a move out -------------------------------------------------------------------
def signal_posts(s: State, marker: str, h: str, events: list) -> None:
    """Expose or hide a moving Confederation counter at ``h`` by the Signal Posts (13.2, 13.3)."""
    posts = s.posts()
    if not posts:
        return
    rec = s.markers[marker]
    near = min(s.hexmap.distance(h, p) for p in posts)
    if near <= s.rules["signal_expose"] and "signal" not in rec["exposed"]:
        was_up = bool(rec["exposed"])
        rec["exposed"]["signal"] = None
        if not was_up:
            _show(s, marker, h, "is within two hexes of a Signal Post (13.2)", events)
    elif near >= s.rules["signal_hide"] and "signal" in rec["exposed"]:
        del rec["exposed"]["signal"]
        if not rec["exposed"]:
            _hide(s, marker, h, "is four or more hexes from every Signal Post (13.2)", events)


def _show(s: State, marker: str, h: str, why: str, events: list) -> None:
    """Turn ``marker`` face up: its kind becomes public."""
    name = s.unit_at_marker(marker)
    kind = s.units[name]["kind"] if name else s.markers[marker].get("kind")
    s.markers[marker]["kind"] = kind
    what = s.rules.units[kind].name if kind else "counter not yet known to this state"
    events.append(Event("exposed", f"Counter {marker} at {h} {why}: it is face up, "
                        f"a {what}.", (PUBLIC,),
                        {"marker": marker, "hex": h, "kind": kind}))


def _hide(s: State, marker: str, h: str, why: str, events: list) -> None:
    s.markers[marker].pop("kind", None)
    events.append(Event("concealed", f"Counter {marker} at {h} {why}: it is face down again.",
                        (PUBLIC,), {"marker": marker, "hex": h}))


def show(s: State, marker: str, reason: str, until: int | None, why: str, events: list) -> None:
    """Add exposure ``reason`` lasting through player turn ``until`` (None: until a rule
    removes it) and turn the counter face up if it was not (7.7, 7.36, 14.4)."""
    rec = s.markers[marker]
    was_up = bool(rec["exposed"])
    old = rec["exposed"].get(reason, -1)
    rec["exposed"][reason] = until if until is None or old is None else max(until, old or -1)
    if not was_up:
        _show(s, marker, rec["hex"], why, events)


def expire(s: State, marker: str, reasons: tuple, events: list) -> None:
    """Remove exposure ``reasons`` from ``marker``; turn it face down when none is left."""
    rec = s.markers[marker]
    if not rec["exposed"]:
        return
    for r in reasons:
        rec["exposed"].pop(r, None)
    if not rec["exposed"] and rec["where"] == "map":
        _hide(s, marker, rec["hex"], "is no longer exposed", events)


def move_confederation(s: State, name: str, start: str, route: list, off: bool,
                       events: list) -> None:
    """Move Confederation unit ``name`` along ``route`` (hexes entered), Signal Posts checked
    at every hex entered (13.2); ``off`` takes it off the exit edge (20.0)."""
    marker = s.units[name]["marker"]
    rec = s.markers[marker]
    rec["where"], rec["hex"] = "map", start
    for h in route:
        rec["hex"] = h
        signal_posts(s, marker, h, events)
    end = rec["hex"]
    text = f"Counter {marker} moved {start} -> {end}" if route else f"Counter {marker} stays at {start}"
    if off:
        rec["where"] = "exited"
        text += " and left the map over the exit edge (20.0)"
    events.append(Event("moved", text + ".", (PUBLIC,),
                        {"marker": marker, "from": start, "path": route, "off": off}))
    escape_over(s, marker, events)


def escape_over(s: State, marker: str, events: list) -> None:
    """An escaped prisoner stays face up until it is not next to a Spikus soldier (21.1)."""
    rec = s.markers[marker]
    if "escape" in rec["exposed"] and rec["where"] == "map":
        near = [u for u in s.spikus.values() if u["kind"] == "soldier" and u["where"] == "map"
                and s.hexmap.distance(u["hex"], rec["hex"]) <= 1]
        if not near:
            expire(s, marker, ("escape",), events)


def move_spikus(s: State, name: str, start: str, route: list, events: list) -> None:
    """Move Spikus unit ``name`` along ``route``; carried Trip Nets go with a soldier (14.1);
    a Recovery Wagon (or an escorting soldier, 21.1) that enters a stunned prisoner's hex
    takes it (18.3), and one that ends in a prison hex unloads its prisoner (18.4)."""
    rec = s.spikus[name]
    rec["where"], rec["hex"] = "map", start
    end = route[-1] if route else start
    rec["hex"] = end
    for n, r in s.spikus.items():
        if r.get("carrier") == name:
            r["hex"], r["where"] = end, "map"
    events.append(Event("moved", f"{name} moved {start} -> {end}." if route
                        else f"{name} entered at {start}.", (PUBLIC,),
                        {"unit": name, "from": start, "path": route}))
    ms = s.markers_at(end)
    if ms and _can_capture(s, name, end):
        m = ms[0]
        s.markers[m]["where"], s.markers[m]["carrier"] = "captive", name
        s.markers[m]["exposed"].pop("stun", None)  # held now, no longer stunned (18.3)
        s.markers[m]["exposed"]["captive"] = None
        s.markers[m]["stun_end"] = None
        rec["escorting"] = m
        events.append(Event("captured", f"{name} took the stunned prisoner {m} at {end} "
                            f"({'18.3' if rec['kind'] == 'wagon' else '21.1'}).", (PUBLIC,),
                            {"unit": name, "marker": m, "hex": end}))
    carried = rec.get("escorting")
    if carried:
        s.markers[carried]["hex"] = end
        if end in s.prison():
            m = s.markers[carried]
            m["where"], m["carrier"] = "returned", None
            rec["escorting"] = None
            events.append(Event("returned", f"{name} unloaded prisoner {carried} in the prison "
                                f"at {end}: it takes no further part (18.4, 18.7).", (PUBLIC,),
                                {"unit": name, "marker": carried, "hex": end}))


def launch_net(s: State, net: str, direction: str, hexes: int, events: list) -> None:
    """Launch Trip Net ``net``: up to ``hexes`` hexes in a straight line, stopping at the
    first Confederation counter, which is turned face up, held, and may not evade this turn;
    the net is then used up (14.2-14.6)."""
    rec = s.spikus[net]
    start = rec["hex"]
    rec["carrier"] = None
    line = s.hexmap.line(start, direction, hexes)
    end = start
    caught = None
    for h in line:
        end = h
        ms = s.markers_at(h)
        if ms:
            caught = ms[0]
            break
    rec["hex"] = end
    text = f"{net} was launched {direction} from {start} to {end}"
    if caught is None:
        events.append(Event("net", text + ".", (PUBLIC,),
                            {"net": net, "from": start, "to": end, "direction": direction}))
        return
    m = s.markers[caught]
    m["netted"] = s.turn
    if s.rules["net_restrains"]:
        m["restrained"] = s.pt + 1
    rec["where"] = "lost"
    events.append(Event("net", text + f" and caught counter {caught}; the net is used up (14.4, 14.5).",
                        (PUBLIC,), {"net": net, "from": start, "to": end, "marker": caught,
                                    "direction": direction}))
    show(s, caught, "net", s.pt + 1, "was caught by a Trip Net (14.4)", events)


def net_problem(s: State, net: str, direction: str, hexes: int | None) -> str | None:
    """Why ``launch`` of ``net`` is illegal now, or None (14.2-14.5)."""
    rec = s.spikus.get(net)
    if rec is None or rec["kind"] != "trip-net":
        return f"{net} is not a Trip Net"
    if rec["where"] != "map":
        return f"{net} is not on the map (carry it onto the map with a soldier first, 14.1)"
    limit = s.rules["net_range"]
    if hexes is not None and not 1 <= hexes <= limit:
        return f"a Trip Net flies 1 to {limit} hexes (14.2)"
    if net in s.moved:
        return f"{net} has already been launched this phase (14.2)"
    line = s.hexmap.line(rec["hex"], direction, hexes or limit)
    if not line:
        return f"{net} at {rec['hex']} cannot fly {direction}: the map edge (5.21)"
    end = line[-1]
    for h in line:
        if s.markers_at(h):
            return None
        end = h
    kinds = [s.spikus[u]["kind"] for u in s.spikus_at(end) if u != net] + ["trip-net"]
    why = s.rules.stacking.check(kinds)
    return f"{net} would end in {end}: {why}" if why else None


def breakout_stacking(s: State, events: list) -> None:
    """Eliminate the Confederation units that break the stacking limit at the end of the
    Breakout (12.2): in each overstacked hex one unit stays and the others are lost. Which one
    stays must not depend on anything the Spikus player could tie to a race: the Confederation
    player's standing ``losses`` list is eliminated first (in its order), then the counters by
    marker, highest first; so the lowest marker not in the list stays (markers are dealt at
    random, 12.1)."""
    losses = [n for n in s.standing.get(CONFEDERATION, {}).get("losses", []) if n in s.units]
    by_hex: dict = {}
    for name in s.units:
        rec = confed_record(s, name)
        if rec["where"] == "map":
            by_hex.setdefault(rec["hex"], []).append(name)
    for h, names in sorted(by_hex.items()):
        if len(names) < 2:
            continue
        keep = sorted(names, key=lambda n: (losses.index(n) if n in losses else -1,
                                            s.units[n]["marker"]))[0]
        if keep in losses:  # every one is listed: the last listed stays
            keep = max(names, key=losses.index)
        for name in sorted(names, key=lambda n: s.units[n]["marker"]):
            if name == keep:
                continue
            m = s.units[name]["marker"]
            s.markers[m]["where"] = "lost"
            events.append(Event("breakout-loss", f"Counter {m} at {h} broke the stacking limit "
                                "at the end of the Breakout and is eliminated (12.2).", (PUBLIC,),
                                {"marker": m, "hex": h}))
