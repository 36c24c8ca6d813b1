"""Units eliminated as a result of combat in Escape from Altassar (it counts for victory, 20.0),
and Renewal (10.0), which follows the death of a prisoner or a soldier."""

from __future__ import annotations

from pbem.engine.ruleset import PUBLIC, Event

from .movement import show
from .state import CONFEDERATION, SPIKUS, State


def eliminate(s: State, side: str, unit: str, why: str, chance, events: list,
              hex_: str | None = None, renew: bool = True) -> str | None:
    """Eliminate ``unit`` of ``side`` as a result of combat (it counts for victory, 20.0) and
    check Renewal (10.1) for a prisoner or a soldier. ``hex_`` overrides where it died (the
    last hex of a failed retreat, 8.2). Returns the hex of a corpse due for Renewal (None for
    other units); with ``renew`` False the caller runs :func:`renewal` itself (after an AE
    has eliminated every attacker, so that none of them is drawn to a corpse)."""
    if side == CONFEDERATION:
        marker = s.units[unit]["marker"]
        rec = s.markers[marker]
        h = rec["hex"]
        rec["where"] = "eliminated"
        rec["kind"] = s.units[unit]["kind"]
        rec["exposed"] = {}
        rec["stun_end"] = None
        events.append(Event("eliminated", f"Counter {marker} at {h}, a "
                            f"{s.rules.units[rec['kind']].name}, is {why}.", (PUBLIC,),
                            {"marker": marker, "hex": h, "kind": rec["kind"]}))
        if renew:
            renewal(s, h, None, events)
        return h
    rec = s.spikus[unit]
    h = hex_ or rec["hex"]
    rec["where"], rec["hex"] = "eliminated", h
    rec["stun_end"] = rec["feed_end"] = None
    events.append(Event("eliminated", f"{unit} at {h} is {why}.", (PUBLIC,),
                        {"unit": unit, "hex": h, "kind": rec["kind"]}))
    for n, r in s.spikus.items():
        if r.get("carrier") == unit:
            r["carrier"], r["hex"] = None, h
    held = rec.get("escorting")
    if held:
        m = s.markers[held]
        m["where"], m["carrier"] = "map", None
        m["exposed"].pop("captive", None)
        show(s, held, "combat", s.pt + 1 if s.phasing == SPIKUS else s.pt,
             "is freed (18.6)", events)
        rec["escorting"] = None
        events.append(Event("freed", f"Prisoner {held} at {h} is freed and returns to normal "
                            "play (18.6).", (PUBLIC,), {"marker": held, "hex": h}))
    if rec["kind"] != "soldier":
        return None
    if renew:
        renewal(s, h, unit, events)
    return h


def renewal(s: State, h: str, dead: str | None, events: list) -> None:
    """Renewal (10.0): up to two soldiers within three hexes of the corpse at ``h`` are placed
    on it; they may not move or attack in the following Spikus Player Turn (10.1). The Spikus
    player's standing ``renewal`` list says which when more are in range (10.4); by default
    the nearest, then by id. Not drawn: soldiers already feeding, soldiers escorting a
    prisoner (21.1), and stunned soldiers, which "must remain in place" (7.7)."""
    if s.markers_at(h):
        # a living Confederation counter holds the hex (a prisoner freed from its dead escort,
        # 18.6): soldiers may not enter it (5.2), and Renewal's exception is to stacking only
        # (10.2), so there is no Renewal
        return
    reach = s.rules["renewal_range"]
    cands = []
    for u, r in s.spikus.items():
        if u == dead or r["kind"] != "soldier" or r["where"] != "map" or r.get("feed_end"):
            continue
        if r.get("escorting") or r.get("stun_end") is not None:
            continue
        d = s.hexmap.distance(r["hex"], h)
        if d <= reach:
            cands.append((d, u))
    if not cands:
        return
    prefer = s.standing.get(SPIKUS, {}).get("renewal", [])
    rank = {u: i for i, u in enumerate(prefer)}
    cands.sort(key=lambda du: (rank.get(du[1], len(rank)), du[0], du[1]))
    chosen = [u for _, u in cands[:s.rules["renewal_soldiers"]]]
    nxt = s.pt + 2 if s.phasing == SPIKUS else s.pt + 1
    for u in chosen:
        r = s.spikus[u]
        r["hex"], r["feed_end"] = h, nxt
        for n, net in s.spikus.items():
            if net.get("carrier") == u:
                net["hex"] = h
    s.corpses.append({"hex": h, "until": nxt})
    events.append(Event("renewal", f"Renewal at {h}: {', '.join(chosen)} "
                        f"{'is' if len(chosen) == 1 else 'are'} placed on the corpse and may not "
                        "move or attack in the next Spikus Player Turn (10.1).", (PUBLIC,),
                        {"hex": h, "soldiers": chosen}))
