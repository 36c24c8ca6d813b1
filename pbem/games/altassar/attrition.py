"""Losses that are not combat in Escape from Altassar: attrition from turn 8 (11.0), the
optional Alternate Attrition (21.1) and escorted prisoners trying to escape (21.1 Escorting
Prisoners). None of them counts for victory points (11.2, 21.1)."""

from __future__ import annotations

from pbem.engine.ruleset import PUBLIC, Event

from . import movement
from .state import CONFEDERATION, SPIKUS, State, prisoner


def _alive_markers(s: State) -> list:
    return [r["hex"] for r in s.markers.values() if r["where"] == "map"]


def lose_soldier(s: State, pick: str | None, why: str, events: list) -> None:
    """Remove one soldier (11.1, 21.1): ``pick``, else the first of the standing ``losses``
    list still in play, else the soldier farthest from every Confederation counter (then by
    id). No victory points and no Renewal (11.1, 11.2)."""
    soldiers = [u for u, r in sorted(s.spikus.items()) if r["kind"] == "soldier"
                and r["where"] in ("map", "box")]
    if not soldiers:
        return
    if pick not in soldiers:
        pick = next((u for u in s.standing.get(SPIKUS, {}).get("losses", []) if u in soldiers), None)
    if pick is None:
        foes = _alive_markers(s)

        def far(u):
            h = s.spikus[u]["hex"]
            if h is None or not foes:
                return 999
            return min(s.hexmap.distance(h, f) for f in foes)
        pick = max(soldiers, key=lambda u: (far(u), u))
    r = s.spikus[pick]
    held = r.get("escorting")
    r["where"], r["escorting"] = "lost", None
    for n, net in s.spikus.items():
        if net.get("carrier") == pick:
            net["carrier"] = None
    events.append(Event("attrition", f"{pick} is removed by {why}.", (PUBLIC,), {"unit": pick}))
    if held:
        m = s.markers[held]
        m["where"], m["carrier"] = "map", None
        m["exposed"].pop("captive", None)
        movement.show(s, held, "combat", s.pt + 1, "is left unguarded", events)


def lose_prisoner(s: State, chance, events: list) -> None:
    """The Confederation loses one prisoner (21.1 Alternate Attrition): the first of its
    standing ``losses`` list still on the map, else the first on the map in a shuffle of all
    the game's prisoners on the hidden dice stream. A default that depended on where the
    prisoners stand (say, the farthest from the exit) would tell the Spikus player that the
    face-down counters beyond the lost one are dummies; and the shuffle is made every time, of
    every prisoner, so that the number and size of its hidden draws (public in the log) tell
    nothing of how many are left. Checked at the end with the hidden seed. No victory points."""
    everyone = sorted((n for n, u in s.units.items() if prisoner(u["kind"])),
                      key=lambda n: s.units[n]["marker"])
    if len(everyone) > 1:
        everyone = chance.hidden.shuffle(everyone, "the prisoner lost to alternate attrition")
    alive = [n for n in everyone if s.markers[s.units[n]["marker"]]["where"] == "map"]
    if not alive:
        return
    pick = next((n for n in s.standing.get(CONFEDERATION, {}).get("losses", []) if n in alive),
                alive[0])
    m = s.units[pick]["marker"]
    rec = s.markers[m]
    rec["where"], rec["kind"], rec["exposed"] = "lost", s.units[pick]["kind"], {}
    events.append(Event("attrition", f"Counter {m} at {rec['hex']}, a prisoner, is lost to "
                        "alternate attrition (21.1).", (PUBLIC,), {"marker": m}))


def escape_rolls(s: State, chance, events: list) -> None:
    """Escorted prisoners may try to escape (21.1 Escorting Prisoners): 1 shot, 6 escapes and
    is unarmed for the rest of the game; not prisoners in Recovery Wagons."""
    if s.standing.get(CONFEDERATION, {}).get("escape", "always") != "always":
        return
    for u, r in sorted(s.spikus.items()):
        m = r.get("escorting")
        if not m or r["kind"] != "soldier":
            continue
        h = r["hex"]
        die = chance.public.roll(6, f"escape roll for the prisoner escorted at {h}")
        rec = s.markers[m]
        if die == s.rules["escort_shot"]:
            rec["where"], rec["carrier"], rec["exposed"] = "lost", None, {}
            r["escorting"] = None
            events.append(Event("escape", f"Prisoner {m} is shot trying to escape at {h} "
                                "(21.1).", (PUBLIC,), {"marker": m, "die": die}))
        elif die == s.rules["escort_escape"]:
            rec["where"], rec["carrier"] = "map", None
            rec["exposed"].pop("captive", None)
            rec["exposed"]["escape"] = None
            r["escorting"] = None
            s.units[s.unit_at_marker(m)]["unarmed"] = True
            events.append(Event("escape", f"Prisoner {m} escapes at {h}: it moves face up "
                                "until no soldier is next to it, and is unarmed (21.1).",
                                (PUBLIC,), {"marker": m, "die": die}))
