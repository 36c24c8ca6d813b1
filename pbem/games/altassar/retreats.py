"""Retreats in Escape from Altassar (8.0): a Spikus unit with an EX result goes three hexes
toward the prison, or is eliminated where it cannot (7.7, 8.2)."""

from __future__ import annotations

from pbem.engine.ruleset import PUBLIC, Event

from .losses import eliminate
from .state import SPIKUS, State


def _prison_distance(s: State, h: str) -> int:
    return min(s.hexmap.distance(h, p) for p in s.prison())


def retreat_routes(s: State, unit: str) -> tuple[list, list]:
    """``(full, partial)``: the legal retreat routes of ``unit`` (8.0): each step enters a hex
    no farther from the prison (toward it, 7.7), never an enemy hex, never a hex twice (8.4),
    each step farther from the starting hex; ``full`` routes reach the full distance (8.2) and
    end where the unit may stack (8.1); ``partial`` is the longest shorter route."""
    start = s.spikus[unit]["hex"]
    n = s.rules["retreat_hexes"]
    enemy = s.enemy_hexes(SPIKUS)
    hm = s.hexmap
    full, best_partial = [], []

    def walk(route):
        nonlocal best_partial
        here = route[-1] if route else start
        if len(route) > len(best_partial):
            best_partial = list(route)
        if len(route) == n:
            full.append(list(route))
            return
        for nb in hm.neighbours(here):
            if nb in enemy or nb in route or nb == start:
                continue
            if hm.distance(start, nb) != len(route) + 1:
                continue
            if _prison_distance(s, nb) > _prison_distance(s, here):
                continue
            walk(route + [nb])

    walk([])
    ok = []
    for r in full:
        kinds = [s.spikus[u]["kind"] for u in s.spikus_at(r[-1]) if u != unit
                 and s.spikus[u].get("carrier") != unit]
        kinds.append(s.spikus[unit]["kind"])
        kinds += ["trip-net" for r2 in s.spikus.values() if r2.get("carrier") == unit]
        if s.spikus[unit]["kind"] == "drystal" or not s.rules.stacking.check(kinds):
            ok.append(r)
    return ok, best_partial


def retreat(s: State, unit: str, chance, events: list) -> None:
    """Retreat Spikus ``unit`` three hexes toward the prison (EX, 7.7, 8.0). Only the routes
    through the fewest occupied hexes count (8.1: through empty hexes wherever possible;
    Signal Posts do not count, 13.4); among them the Spikus player's standing ``retreat``
    route, else the one ending nearest the prison, ties by hex label. No full route:
    eliminated in the last hex reached (8.2)."""
    full, partial = retreat_routes(s, unit)
    start = s.spikus[unit]["hex"]
    if not full:
        last = partial[-1] if partial else start
        if partial:
            _place(s, unit, last)
        eliminate(s, SPIKUS, unit, f"unable to retreat {s.rules['retreat_hexes']} hexes "
                  f"and is eliminated at {last} (8.2)", chance, events, hex_=last)
        return
    def occupied(r):
        return sum(1 for h in r if any(s.spikus[u]["kind"] != "signal-post"
                                       for u in s.spikus_at(h) if u != unit
                                       and s.spikus[u].get("carrier") != unit))

    fewest = min(occupied(r) for r in full)
    full = [r for r in full if occupied(r) == fewest]
    wanted = s.standing.get(SPIKUS, {}).get("retreat", {}).get(unit)
    if wanted in full:
        route = wanted
    else:
        route = min(full, key=lambda r: (_prison_distance(s, r[-1]), r))
    _place(s, unit, route[-1])
    events.append(Event("retreat", f"{unit} retreats {start} -> {' -> '.join(route)} (EX, 8.0).",
                        (PUBLIC,), {"unit": unit, "from": start, "path": route}))


def _place(s: State, unit: str, h: str) -> None:
    """Put ``unit`` at ``h`` with what it carries: Trip Nets (14.1) and a held prisoner."""
    s.spikus[unit]["hex"] = h
    for n, r in s.spikus.items():
        if r.get("carrier") == unit:
            r["hex"] = h
    held = s.spikus[unit].get("escorting")
    if held:
        s.markers[held]["hex"] = h
