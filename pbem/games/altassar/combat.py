"""Combat in Escape from Altassar: attacks (7.1-7.6), the Combat Results Table (7.7, 7.71, on
:mod:`pbem.combat`), retreats (8.0), evasion (9.0), Renewal (10.0), and the special cases of
dummies (15.2-15.4), Drystals (16.1, 16.2), Trackers (17.1, 17.2) and Recovery Wagons (18.5,
18.6).

Who learns what: the Spikus player sees the attack, the evasion declared, every die, and what
the result visibly does. The odds column and the Camouflage difference of an attack on a face
down counter depend on its hidden strength and Evasion Rating, so they go to the Confederation
only; the outcome of a Flight roll is never told to the Spikus player (9.2, "the Spikus player
must turn his head").
"""

from __future__ import annotations

from pbem.combat import shift_text
from pbem.engine.ruleset import PUBLIC, Event

from .losses import eliminate, renewal
from .movement import show, signal_posts
from .retreats import retreat, retreat_routes
from .state import CONFEDERATION, SPIKUS, State, prisoner


NO_TERRAIN_BENEFIT = ("drystal", "tracker", "wagon")
"""Units that never benefit from terrain (16.2, 17.1, 18.0): a left shift does not help them.
The 7.6 example still shifts right for a Tracker in Cascades, so a right shift always applies."""

ONLY_ELIMINATED = ("drystal", "wagon")
"""Units affected only by an "Eliminated" result (16.1, 18.5)."""


# -- stuns (7.7) ---------------------------------------------------------------------------
def stun_holds(s: State, side: str, rec: dict) -> bool:
    """True while a stunned unit of ``side`` (its record ``rec``) "must remain in place
    through the end of its following Movement Phase" (7.7), as seen from a Combat Phase: it
    may not attack then (7.14) nor trade places by Flight (9.2).

    Once that Movement Phase is over the unit "will be able to attack" (7.7): a unit is
    stunned only in the enemy's Combat Phase, so in its own next Combat Phase it attacks. A
    stunned Confederation counter stays stunned (face up, unable to move, open to Recovery,
    18.2) until the start of the Confederation Movement Phase of the next Game Turn (README),
    ``stun_end`` = that player turn; its following Movement Phase is two player turns before.
    A Spikus unit's ``stun_end`` is the player turn of its following Movement Phase, at the
    end of which the stun is lifted (movephase.end_of_movement)."""
    end = rec.get("stun_end")
    if end is None:
        return False
    following = end if side == SPIKUS else end - 2
    return s.pt < following


# -- who takes part ------------------------------------------------------------------------
def defenders(s: State, side: str, target: str) -> list:
    """The units attacked by ``side`` at ``target`` (a hex, or a Spikus unit id when the
    Confederation attacks): markers for the Spikus, Spikus ids for the Confederation. A
    hovering Drystal is attacked only when named or alone in its hex (6.4)."""
    if side == SPIKUS:
        return s.markers_at(target) if target in s.hexmap else []
    if target in s.spikus:
        r = s.spikus[target]
        return [target] if r["where"] == "map" and r["kind"] not in ("trip-net", "signal-post") else []
    units = s.spikus_at(target, kinds=("soldier", "tracker", "wagon", "drystal"))
    ground = [u for u in units if s.spikus[u]["kind"] != "drystal"]
    return ground or units


def target_hex(s: State, side: str, target: str) -> str | None:
    """The hex attacked by ``side`` at ``target`` (a hex, or a Spikus unit id on the map when
    the Confederation attacks), or None when it names neither."""
    if side == CONFEDERATION and target in s.spikus:
        return s.spikus[target]["hex"]
    return target if target in s.hexmap else None


def attacker_hex(s: State, side: str, unit: str) -> str | None:
    """The hex of attacking ``unit`` of ``side`` (a Confederation unit: its marker's hex)."""
    if side == SPIKUS:
        return s.spikus[unit]["hex"]
    return s.markers[s.units[unit]["marker"]]["hex"]


def why_cannot_attack(s: State, side: str, unit: str) -> str | None:
    """Why ``unit`` may not attack this Combat Phase, or None (7.13, 7.14, 10.1, 15.2, 18.0)."""
    if side == SPIKUS:
        rec = s.spikus.get(unit)
        if rec is None:
            return f"{unit} is not a Spikus unit"
        kind = rec["kind"]
    else:
        if unit not in s.units:
            return f"{unit} is not one of your units"
        kind = s.units[unit]["kind"]
        rec = s.markers[s.units[unit]["marker"]]
        if s.units[unit].get("unarmed"):
            return f"{unit} escaped unarmed and may not attack (21.1)"
    if rec["where"] != "map":
        return f"{unit} is not on the map"
    if s.value(kind, "attack") <= 0:
        return f"a {s.rules.units[kind].name} cannot attack (15.2, 18.0, 13.4, 14.5)"
    if s.public_id(unit) in s.fired:
        return f"{unit} has already attacked this Combat Phase (7.13)"
    if stun_holds(s, side, rec):
        return f"{unit} is stunned and may not attack (7.14)"
    if rec.get("feed_end") is not None:
        return f"{unit} is feeding in Renewal and may not attack (10.1)"
    if rec.get("escorting"):
        return f"{unit} is escorting a prisoner (21.1)"
    return None


def attack_problem(s: State, side: str, target: str, units: list) -> str | None:
    """Why ``attack target with units`` is illegal now, or None (7.1-7.4, 17.2)."""
    if side == SPIKUS and target not in s.hexmap:
        return f"{target}: the Spikus attack a hex (the counters there are face down)"
    th = target_hex(s, side, target)
    if th is None:
        if side == CONFEDERATION and target in s.spikus:
            return f"{target} is not on the map"
        return f"{target} is not a hex of the map or a Spikus unit"
    defending = defenders(s, side, target)
    if not defending:
        return f"there is no enemy unit to attack at {target} (7.1, 13.4, 14.5)"
    key = th if side == SPIKUS else None
    if key in s.attacked or any(d in s.attacked for d in defending):
        return f"{target} has already been attacked this Combat Phase (7.13)"
    for u in units:
        why = why_cannot_attack(s, side, u)
        if why:
            return why
        kind = s.spikus[u]["kind"] if side == SPIKUS else s.units[u]["kind"]
        d = s.hexmap.distance(attacker_hex(s, side, u), th)
        reach = s.value(kind, "range")
        if d > max(1, reach) or d == 0:
            return f"{u} is {d} hexes from {th}; its range is {reach} (7.31, 7.33)"
    for u in units:
        if side == SPIKUS and s.spikus[u]["kind"] == "tracker" \
                and s.hexmap.distance(s.spikus[u]["hex"], th) == 1:
            mates = [v for v in units if s.spikus[v]["kind"] == "soldier"
                     and s.spikus[v]["hex"] == s.spikus[u]["hex"]]
            if not mates:
                return (f"{u} may attack an adjacent unit only with a soldier stacked with it "
                        "attacking too (17.2)")
    return None


# -- strengths -----------------------------------------------------------------------------
def _kind(s: State, side: str, unit: str) -> str:
    if side == SPIKUS:
        return s.spikus[unit]["kind"]
    return s.units[unit]["kind"]


def _def_kind(s: State, side: str, d: str) -> str:
    """Kind of defending unit ``d`` of an attack by ``side`` (a marker when the Spikus attack)."""
    if side == SPIKUS:
        return s.units[s.unit_at_marker(d)]["kind"]
    return s.spikus[d]["kind"]


def terrain_shift(s: State, h: str, kinds: list) -> int:
    """Columns to shift for defenders of ``kinds`` in hex ``h`` (5.31, 7.52): a right shift
    always; a left shift only when a defender may benefit from terrain (16.2, 17.1, 18.0);
    dummies do benefit (15.3)."""
    shift = s.rules.shift(s.terrain(h))
    if shift < 0 and all(k in NO_TERRAIN_BENEFIT for k in kinds):
        return 0
    return shift


def evasion_rating(s: State, kind: str, h: str) -> int:
    """The Evasion Rating of a ``kind`` prisoner in hex ``h``: printed in Rain Forest, Hills and
    Quagmire, one less elsewhere (9.0)."""
    e = s.value(kind, "evasion")
    if s.rules.terrain[s.terrain(h)]["evasion_full"]:
        return e
    return e - s.rules["evasion_penalty"]


# -- the evasion step (9.0) -----------------------------------------------------------------
EVADE_WHILE = frozenset(("signal", "escape"))
"""Exposures that do not forbid evasion: 9.5 forbids it only to a counter exposed by combat
(EX, ST, its own fire: 7.36, 5.22) and 14.6 to one caught by a Trip Net this turn; a counter
face up by a Signal Post (13.2) or after escaping an escort (21.1) may evade."""


def may_evade(s: State, marker: str) -> bool:
    """True when the counter under ``marker`` may be offered evasion, judged only on public
    facts (so that offering it reveals nothing): on the map, exposed by nothing but
    :data:`EVADE_WHILE` (9.5), and not caught by a Trip Net this turn (14.6). Dummies never
    actually evade (15.2)."""
    rec = s.markers[marker]
    return (rec["where"] == "map" and rec.get("netted") != s.turn
            and set(rec["exposed"]) <= EVADE_WHILE)


def flight_dummies(s: State, marker: str) -> list:
    """The dummies a successful Flight by the prisoner under ``marker`` may trade places with:
    "any dummy unit within six hexes of it" (9.2), face up or face down, on the map.

    Not a dummy that "must remain in place" (7.7) because a stun holds it (see
    :func:`stun_holds`: one stunned in this same Spikus Combat Phase, whose following
    Movement Phase has not come yet), nor one held by a Trip Net (14.4). A dummy stunned in an
    earlier Game Turn, still face up, has had that Movement Phase and may trade.

    Order (the partner taken when the order names none): dummies seen as the prisoner is seen
    first (face down for a face-down prisoner, so that the swap stays unseen, "the Spikus
    player must turn his head"; face up for a face-up one, so that the trade does not show a
    face-down counter to be a dummy), then nearest, then by hex. A trade that involves a face
    up counter is seen by the Spikus player (:func:`evade`)."""
    h = s.markers[marker]["hex"]
    hidden = not s.markers[marker]["exposed"]
    out = []
    for m, rec in s.markers.items():
        if m == marker or rec["where"] != "map":
            continue
        if s.kind_of_marker(m) != "dummy":
            continue
        if stun_holds(s, CONFEDERATION, rec) or rec.get("restrained") is not None:
            continue  # it must remain in place (7.7, 14.4)
        d = s.hexmap.distance(h, rec["hex"])
        if d <= s.rules["flight_range"]:
            seen_alike = hidden == (not rec["exposed"])
            out.append((0 if seen_alike else 1, d, rec["hex"], m))
    return [m for *_, m in sorted(out)]


def evade(s: State, marker: str, how: str, to: str | None, chance, events: list) -> int:
    """Carry out the evasion ``how`` declared for the counter under ``marker``; return the
    Camouflage difference to add to the combat die (0 for none or Flight). Declarations and
    dice are public; results that depend on the hidden unit are told to the Confederation."""
    rec = s.markers[marker]
    h = rec["hex"]
    name = s.unit_at_marker(marker)
    kind = s.units[name]["kind"]
    if how == "none":
        events.append(Event("evasion", f"No evasion is declared for counter {marker} at {h}.",
                            (PUBLIC,), {"marker": marker, "hex": h, "how": "none"}))
        return 0
    events.append(Event("evasion", f"The Confederation declares {how.title()} for counter "
                        f"{marker} at {h} (9.1, 9.4).", (PUBLIC,),
                        {"marker": marker, "hex": h, "how": how}))
    die = chance.public.roll(6, f"{how.title()} roll for the counter at {h}")
    if not prisoner(kind):
        # A dummy cannot evade (15.2): the declaration and its die go ahead as for a prisoner,
        # so that the Spikus player learns nothing, and have no effect.
        events.append(Event("flight", f"{name} is a dummy and cannot evade (15.2): the "
                            f"{how.title()} die {die} has no effect.", (CONFEDERATION,),
                            {"unit": name, "die": die}))
        return 0
    rating = evasion_rating(s, kind, h)
    if how == "camouflage":
        diff = die - rating
        events.append(Event("camouflage", f"Camouflage for {name} at {h}: die {die} against "
                            f"Evasion Rating {rating}: {diff:+d} to the combat die (9.3).",
                            (CONFEDERATION,), {"unit": name, "die": die, "rating": rating,
                                               "modifier": diff}))
        return diff
    if die > rating:
        events.append(Event("flight", f"Flight for {name} at {h}: die {die} is above its Evasion "
                            f"Rating {rating}: it fails and combat follows (9.2, 9.4).",
                            (CONFEDERATION,), {"unit": name, "die": die, "rating": rating}))
        return 0
    choices = flight_dummies(s, marker)
    other = None
    if to is not None:
        wanted = [m for m in choices if s.markers[m]["hex"] == to or s.unit_at_marker(m) == to]
        other = wanted[0] if wanted else None
    if other is None and choices:
        other = choices[0]
    if other is None:
        events.append(Event("flight", f"Flight for {name} at {h}: die {die} is within its "
                            f"Evasion Rating {rating}, but no dummy it may trade with is within "
                            f"{s.rules['flight_range']} hexes: combat follows (9.2).",
                            (CONFEDERATION,), {"unit": name, "die": die, "rating": rating}))
        return 0
    dummy = s.unit_at_marker(other)
    there = s.markers[other]["hex"]
    if rec["exposed"] or s.markers[other]["exposed"]:
        # a face-up counter is seen to go: the two counters trade hexes in public (9.2), and
        # the Signal Posts see both where they now stand (13.2)
        rec["hex"], s.markers[other]["hex"] = there, h
        seen = (f"Counter {marker}, face up," if rec["exposed"] else f"Counter {marker}")
        partner = f"counter {other}" if rec["exposed"] else f"counter {other}, a face-up dummy,"
        events.append(Event("flight-seen", f"{seen} trades places with {partner} by Flight: "
                            f"{marker} is now at {there}, {other} at {h} (9.2).", (PUBLIC,),
                            {"marker": marker, "other": other, "from": h, "to": there}))
        signal_posts(s, marker, there, events)
        signal_posts(s, other, h, events)
    else:
        # a face-down one is not: only who is under which marker changes (README.md)
        s.units[name]["marker"], s.units[dummy]["marker"] = other, marker
    events.append(Event("flight", f"Flight for {name} at {h}: die {die} is within its Evasion "
                        f"Rating {rating}: it trades places with {dummy} at "
                        f"{there}; the attack falls on the dummy (9.2).",
                        (CONFEDERATION,), {"unit": name, "die": die, "rating": rating,
                                           "dummy": dummy, "to": there}))
    return 0


# -- resolving one attack ------------------------------------------------------------------
def resolve_attack(s: State, side: str, target: str, units: list, chance, events: list,
                   evasion: tuple | None = None) -> None:
    """Resolve ``side``'s attack on ``target`` by ``units`` (7.6), evasion first when the
    Spikus attack a face-down counter (``evasion`` = (how, to))."""
    th = target_hex(s, side, target)
    defending = defenders(s, side, target)
    s.attacked.extend([th] if side == SPIKUS else defending)
    s.fired.extend(s.public_id(u) for u in units)
    foe = CONFEDERATION if side == SPIKUS else SPIKUS
    if side == CONFEDERATION:
        for u in units:
            show(s, s.units[u]["marker"], "fire", s.pt,
                 "took part in an attack (7.36, 5.22)", events)
    adjacent = [u for u in units if s.hexmap.distance(attacker_hex(s, side, u), th) == 1]
    ranged = [u for u in units if u not in adjacent]
    who = "Spikus" if side == SPIKUS else "Confederation"
    shown = units if side == SPIKUS else [s.units[u]["marker"] for u in units]
    names = ", ".join(shown)
    ranged = [shown[units.index(u)] for u in ranged]
    events.append(Event("attack", f"{who} attack on {target}" + (f" at {th}" if target != th else "")
                        + f" by {names}" + (f" (ranged fire: {', '.join(ranged)})" if ranged else "")
                        + ".", (PUBLIC,), {"side": side, "target": target, "hex": th,
                                          "units": shown, "ranged": ranged,
                                          "attack": [{"from": attacker_hex(s, side, u), "to": th}
                                                     for u in units]}))
    modifier = 0
    seen_flight = False
    if side == SPIKUS and evasion is not None:
        modifier = evade(s, defending[0], evasion[0], evasion[1], chance, events)
        before, defending = defending, defenders(s, side, target)
        seen_flight = before != defending  # a Flight seen (a face-up counter): a dummy is here
    attack = sum(s.value(_kind(s, side, u), "attack") for u in units)
    bonus = s.rules["adjacent_bonus"] if not ranged else 0
    kinds = [_def_kind(s, side, d) for d in defending]
    defense = sum(s.value(k, "defense") for k in kinds)
    shift = terrain_shift(s, th, kinds)
    die = chance.public.roll(6, f"{who} attack on {th}")
    look = s.rules.crt.lookup(attack + bonus, defense, die, shift=shift, modifier=modifier)
    detail = (f"attack {attack}" + (f" +{bonus} adjacent only (7.43)" if bonus else "")
              + f" against defense {defense}; terrain {s.terrain(th)}: {shift_text(shift)}; "
              + look.explain())
    # the odds on a face-down counter would tell its strength; on a face-up one they are public
    secret_defender = (side == SPIKUS and not s.markers[defending[0]]["exposed"]
                       and not seen_flight)
    result = look.result
    if secret_defender:
        events.append(Event("combat", f"Attack on {th} (odds for the Confederation only, "
                            f"the defender being face down): {detail}.", (CONFEDERATION,),
                            {"hex": th, "attack": attack + bonus, "defense": defense,
                             "column": look.column, "die": die, "modifier": modifier,
                             "row": look.row, "result": result, "source": look.source,
                             "map_attack": {"from": th, "to": th, "result": result}}))
        seen = _visible_result(s, defending[0], result)
        events.append(Event("combat-result", f"Attack on {th}: die {die}; result "
                            f"{seen}.", (SPIKUS,),
                            {"hex": th, "die": die,
                             "map_attack": {"from": th, "to": th, "result": seen}}))
    else:
        events.append(Event("combat", f"Attack on {target}: {detail}.", (PUBLIC,),
                            {"hex": th, "attack": attack + bonus, "defense": defense,
                             "column": look.column, "die": die, "row": look.row,
                             "result": result, "source": look.source,
                             "map_attack": {"from": th, "to": th, "result": result}}))
    apply_result(s, side, foe, th, defending, adjacent, result, chance, events)


def _visible_result(s: State, marker: str, result: str) -> str:
    """What the Spikus player sees of ``result`` on the face-down counter ``marker``: the
    result itself, except that no effect and an Eliminated dummy (shown as Exposed, 15.4) look
    as they look on the board."""
    kind = s.kind_of_marker(marker)
    if result == "DE" and kind == "dummy":
        return "EX (the counter is a dummy: 15.4)"
    return result


def apply_result(s: State, side: str, foe: str, th: str, defending: list, adjacent: list,
                 result: str, chance, events: list) -> None:
    """Apply a CRT result (7.7) to the defenders (and, for AE, to the adjacent attackers:
    ranged fire never suffers, 7.35, 7.42)."""
    if result == "NE":
        events.append(Event("no-effect", f"No effect at {th} (7.7).", (PUBLIC,), {"hex": th}))
        return
    if result == "AE":
        corpses = [eliminate(s, side, u, "eliminated as an attacker (AE, 7.7)", chance,
                             events, renew=False) for u in adjacent]
        for h in corpses:
            if h is not None:
                renewal(s, h, None, events)
        if not adjacent:
            events.append(Event("no-effect", f"AE at {th}: only ranged fire took part, which "
                                "suffers no result (7.35).", (PUBLIC,), {"hex": th}))
        return
    for d in defending:
        kind = _def_kind(s, side, d)
        if foe == CONFEDERATION:
            _confederation_result(s, d, kind, result, chance, events)
        elif kind in ONLY_ELIMINATED and result != "DE":
            events.append(Event("no-effect", f"{d} ({kind}) is affected only by Eliminated "
                                "(16.1, 18.5).", (PUBLIC,), {"unit": d}))
        elif result == "DE":
            eliminate(s, foe, d, "eliminated (DE, 7.7)", chance, events)
        elif result == "EX":
            retreat(s, d, chance, events)
        elif result == "ST":
            s.spikus[d]["stun_end"] = s.pt + 1
            events.append(Event("stunned", f"{d} is stunned: it may not move in its next "
                                "Movement Phase (7.7).", (PUBLIC,), {"unit": d}))


def _confederation_result(s: State, marker: str, kind: str, result: str, chance,
                          events: list) -> None:
    rec = s.markers[marker]
    conf_pt = s.pt + 1 if s.phasing == SPIKUS else s.pt
    why = "is exposed by combat (EX, 7.7)"
    if result == "DE" and kind == "dummy":
        result = "EX"
        why = "is exposed (DE counts as EX against a counter never removed, 15.4)"
    if result == "EX":
        show(s, marker, "combat", conf_pt, why, events)
    elif result == "ST":
        rec["stun_end"] = s.pt + 3 if s.phasing == SPIKUS else s.pt + 2
        show(s, marker, "stun", None, "is stunned (ST, 7.7)", events)
        events.append(Event("stunned", f"Counter {marker} at {rec['hex']} is stunned: it may "
                            "not move in its next Movement Phase and may be recovered (7.7, "
                            "18.2).", (PUBLIC,), {"marker": marker}))
    elif result == "DE":
        name = s.unit_at_marker(marker)
        eliminate(s, CONFEDERATION, name, "eliminated (DE, 7.7)", chance, events)


__all__ = ["attack_problem", "resolve_attack", "retreat", "retreat_routes", "renewal",
           "eliminate", "evade", "may_evade", "flight_dummies", "evasion_rating",
           "terrain_shift", "stun_holds"]
