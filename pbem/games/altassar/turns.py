"""The sequence of play of Escape from Altassar by mail (4.0, 12.0, 19.0): setup, the windows,
and resolving each window: Breakout (12.0), Signal Posts (13.1), each Player Turn's Movement
Phase (5.0, with attrition 11.0 and the optional rules 21.1 at its start) and Combat Phase
(7.0, with the Confederation's evasion window, 9.0), the end of each Game Turn, and victory
(20.0). The Movement Phase itself is :mod:`.movephase`.

Windows (phase names in order headers): ``breakout`` and ``posts`` in turn 0; then in every
Game Turn ``spikus-movement``, optionally ``spikus-combat``, ``evasion`` (short, only when the
Spikus attack face-down counters and the Confederation has no standing evasion policy),
``confederation-movement``, optionally ``confederation-combat``. README.md explains the design.
"""

from __future__ import annotations

from pbem.engine.ruleset import PUBLIC, Event, Problem, Resolution, Window

from . import combat, movement, victory
from .data import CONFEDERATION_KINDS, Rules
from .movephase import (breakout, end_of_movement, movement_phase, posts,
                        start_of_movement)
from .orders import VERB_RULE as RULE
from .state import CONFEDERATION, ROLES, SPIKUS, SPIKUS_PREFIX, State

STANDING = {CONFEDERATION: ("evasion", "escape", "losses"),
            SPIKUS: ("retreat", "renewal", "losses")}
"""Standing orders each role may send in any window (kept until changed)."""
VERBS = {
    "breakout": {CONFEDERATION: ("move",) + STANDING[CONFEDERATION]},
    "posts": {SPIKUS: ("post",) + STANDING[SPIKUS]},
    "movement": {SPIKUS: ("move", "launch", "carry", "attack", "combat", "attrition")
                 + STANDING[SPIKUS],
                 CONFEDERATION: ("move", "attack", "combat") + STANDING[CONFEDERATION]},
    "combat": {SPIKUS: ("attack",) + STANDING[SPIKUS],
               CONFEDERATION: ("attack",) + STANDING[CONFEDERATION]},
    "evasion": {CONFEDERATION: ("evade",) + STANDING[CONFEDERATION]},
}


def other(role: str) -> str:
    """The other side."""
    return SPIKUS if role == CONFEDERATION else CONFEDERATION


# -- setup ---------------------------------------------------------------------------------
def setup(roles: list, options: dict, data: dict, hexmap, chance) -> tuple[State, list]:
    """The initial position (19.0): every Spikus unit off the map, ready to enter from the
    prison; every Confederation unit under a face-down marker in the prison, the markers
    dealt by a shuffle on the hidden stream. Opens the Breakout window."""
    rules = Rules.from_data(data)
    s = State(seats=list(roles), options=dict(options), data=data, hexmap=hexmap, rules=rules)
    for kind, prefix in SPIKUS_PREFIX.items():
        for i in range(1, rules.units[kind].count + 1):
            uid = f"{prefix}{i:02d}" if kind == "soldier" else f"{prefix}{i}"
            s.spikus[uid] = {"kind": kind, "hex": None, "where": "box", "stun_end": None,
                             "feed_end": None, "carrier": None, "escorting": None}
    names = [f"{kind}-{i}" for kind in CONFEDERATION_KINDS
             for i in range(1, rules.units[kind].count + 1)]
    dealt = chance.hidden.shuffle(names, "Confederation counters under face-down markers")
    width = max(2, len(str(len(names))))
    for i, name in enumerate(dealt, start=1):
        marker = f"u{i:0{width}d}"
        kind = name.rsplit("-", 1)[0]
        s.units[name] = {"kind": kind, "marker": marker, "unarmed": False}
        s.markers[marker] = {"hex": None, "where": "box", "exposed": {}, "stun_end": None,
                             "restrained": None, "netted": None, "carrier": None}
        s.dealt[marker] = name
    s.standing = {CONFEDERATION: {"evasion": "ask", "escape": "always"}, SPIKUS: {}}
    events = [Event("setup", f"Escape from Altassar: {len(names)} Confederation counters wait "
                    f"face down in the prison ({', '.join(hexmap.group('prison'))}); "
                    f"{len(s.spikus)} Spikus units are ready. The Confederation breaks out "
                    "first (12.0).", (PUBLIC,), {"markers": sorted(s.markers)})]
    return s, events


# -- windows -------------------------------------------------------------------------------
def window(s: State) -> Window | None:
    """Who owes orders now (module docstring); None once the game is over."""
    if s.over:
        return None
    if s.stage == "breakout":
        return Window(0, "breakout", (CONFEDERATION,), (), _verbs("breakout", CONFEDERATION),
                      title="Breakout (12.0)")
    if s.stage == "posts":
        return Window(0, "posts", (SPIKUS,), (CONFEDERATION,), _verbs("posts", SPIKUS),
                      title="Signal Posts (13.1)")
    if s.stage == "evasion":
        return Window(s.turn, "evasion", (CONFEDERATION,), (), _verbs("evasion", CONFEDERATION),
                      short=True, title="Evasion before the Spikus attacks (9.0)")
    p = s.phasing
    phase = f"{p}-{s.stage}"
    title = f"{'Spikus' if p == SPIKUS else 'Confederation'} {s.stage.title()} Phase"
    return Window(s.turn, phase, (p,), (other(p),), _verbs(s.stage, p), title=title)


def _verbs(stage: str, owed: str) -> dict:
    out = {owed: list(VERBS[stage][owed])}
    o = other(owed)
    out.setdefault(o, list(STANDING[o]))
    return out


# -- standing orders -----------------------------------------------------------------------
def standing_orders(s: State, role: str, orders: list, problems: list, *,
                    pending: dict | None = None) -> None:
    """Keep ``role``'s standing orders (README.md, "Standing orders"); a line naming a unit
    that is not the role's own (or not of the kind the order is about) is refused whole."""
    st = s.standing.setdefault(role, {})
    for o in orders:
        a = o.args
        why = _standing_problem(s, role, o)
        if why:
            problems.append(Problem(o.line, o.text, RULE.get(o.verb, "Altassar orders"), why))
            continue
        if o.verb == "evasion":
            if a["unit"] is not None:
                problems.append(Problem(o.line, o.text, "Altassar 9.1", "a standing evasion policy "
                                        "is for every counter (per-counter choices go in the "
                                        "evasion window with 'evade'), so that whether the "
                                        "window opens reveals nothing"))
                continue
            st["evasion"] = a["how"]
        elif o.verb == "escape":
            st["escape"] = a["policy"]
        elif o.verb == "losses":
            st["losses"] = list(a["units"])
        elif o.verb == "renewal":
            st["renewal"] = list(a["units"])
        elif o.verb == "retreat":
            st.setdefault("retreat", {})[a["unit"]] = list(a["path"])


def _standing_problem(s: State, role: str, o) -> str | None:
    """Why the standing order ``o`` names a unit it may not, or None."""
    if o.verb not in ("losses", "renewal", "retreat"):
        return None
    names = o.args["units"] if o.verb != "retreat" else [o.args["unit"]]
    for u in names:
        if role == CONFEDERATION:
            if u not in s.units:
                return f"{u} is not one of your units"
            if o.verb != "losses":
                return f"'{o.verb}' is a Spikus order"
            continue
        r = s.spikus.get(u)
        if r is None:
            return f"{u} is not a Spikus unit"
        if o.verb in ("losses", "renewal") and r["kind"] != "soldier":
            return f"{u} is a {r['kind']}: only soldiers are {'lost to attrition (21.1)' if o.verb == 'losses' else 'fed in Renewal (10.1)'}"
        if o.verb == "retreat" and r["kind"] not in ("soldier", "tracker"):
            return f"{u} is a {r['kind']}: only soldiers and Trackers retreat (7.7, 16.1, 18.5)"
    if o.verb == "retreat" and len(o.args["path"]) != s.rules["retreat_hexes"]:
        return f"a retreat route lists {s.rules['retreat_hexes']} hexes (8.0)"
    return None


# -- resolving -----------------------------------------------------------------------------
def resolve(s: State, orders_by_role: dict, chance) -> Resolution:
    """Carry out the current window (mutates ``s``)."""
    events: list = []
    problems: dict = {r: [] for r in ROLES}
    for role in ROLES:
        standing_orders(s, role, orders_by_role.get(role, []), problems[role])
    stage = s.stage
    if stage == "breakout":
        breakout(s, orders_by_role.get(CONFEDERATION, []), events, problems[CONFEDERATION])
    elif stage == "posts":
        posts(s, orders_by_role.get(SPIKUS, []), events, problems[SPIKUS])
        s.stage, s.turn, s.phasing = "movement", 1, SPIKUS
    elif stage == "movement":
        mine = orders_by_role.get(s.phasing, [])
        start_of_movement(s, mine, chance, events, problems[s.phasing])
        movement_phase(s, s.phasing, mine, events, problems[s.phasing])
        end_of_movement(s)
        attacks = [o for o in mine if o.verb == "attack"]
        later = [o for o in mine if o.verb == "combat"]
        if later and attacks:
            problems[s.phasing].extend(Problem(o.line, o.text, RULE["combat"], "attacks were "
                                               "sent with the movement orders, so they are "
                                               "resolved now and no separate combat window "
                                               "opens") for o in later)
        if later and not attacks:
            s.stage = "combat"
        else:
            combat_phase(s, attacks, chance, events, problems[s.phasing])
    elif stage == "combat":
        attacks = [o for o in orders_by_role.get(s.phasing, []) if o.verb == "attack"]
        combat_phase(s, attacks, chance, events, problems[s.phasing])
    elif stage == "evasion":
        answer = {}
        for o in orders_by_role.get(CONFEDERATION, []):
            if o.verb == "evade":
                answer[o.args["target"]] = (o.args["how"], o.args["to"], o)
        resolve_pending(s, answer, chance, events, problems)
    return Resolution(events, {r: p for r, p in problems.items() if p})


def combat_phase(s: State, attacks: list, chance, events: list, problems: list) -> None:
    """The phasing player's attacks, in the order written (7.1, 7.6). For the Spikus, the
    Confederation's evasion choice comes first (9.1): from its standing policy, or from the
    short evasion window opened here."""
    checked = []
    for o in attacks:
        why = combat.attack_problem(s, s.phasing, o.args["target"], o.args["units"])
        if why:
            problems.append(Problem(o.line, o.text, RULE["attack"], why))
            continue
        checked.append(o)
    if s.phasing == SPIKUS:
        asks = [o for o in checked if s.markers_at(o.args["target"])
                and combat.may_evade(s, s.markers_at(o.args["target"])[0])]
        policy = s.standing.get(CONFEDERATION, {}).get("evasion", "ask")
        if asks and policy == "ask":
            s.pending = {"attacks": [o.to_json() for o in checked],
                         "ask": [o.args["target"] for o in asks]}
            s.stage = "evasion"
            events.append(Event("evasion-window", "The Spikus declare attacks on "
                                + ", ".join(o.args["target"] for o in checked)
                                + "; the Confederation may declare evasion for the "
                                "counters at " + ", ".join(o.args["target"] for o in asks)
                                + " before the dice are rolled (9.1, 9.4).", (PUBLIC,),
                                {"attacks": [o.args["target"] for o in checked]}))
            return
        run_attacks(s, [o.to_json() for o in checked], {}, chance, events, problems)
    else:
        run_attacks(s, [o.to_json() for o in checked], {}, chance, events, problems)
    end_player_turn(s, events)


def evasion_hex(s: State, target: str) -> str | None:
    """The hex an ``evade`` order names: a hex as written, or the hex of the Confederation
    unit named (None when it names neither)."""
    if target in s.hexmap:
        return target
    if target in s.units:
        return s.markers[s.units[target]["marker"]]["hex"]
    return None


def resolve_pending(s: State, answer: dict, chance, events: list, problems: dict) -> None:
    """The evasion window closed: resolve the pending Spikus attacks with the answers.
    ``problems`` is per role: an evasion order that answers nothing is the Confederation's
    problem, a pending attack made illegal by an earlier one the Spikus player's, whose order
    it is (issue 9: the conformance test found it reported to the Confederation)."""
    pending = s.pending or {"attacks": [], "ask": []}
    s.pending = None
    by_hex = {}
    for target, (how, to, o) in answer.items():
        h = evasion_hex(s, target)
        if h in pending["ask"]:
            by_hex[h] = (how, to)
        else:
            problems[CONFEDERATION].append(Problem(
                o.line, o.text, RULE["evade"], f"{target} is not a counter under attack that "
                f"may evade: expected one of {', '.join(pending['ask'])}"))
    s.stage = "combat"
    run_attacks(s, pending["attacks"], by_hex, chance, events, problems[SPIKUS])
    end_player_turn(s, events)


def run_attacks(s: State, attacks: list, evasions: dict, chance, events: list,
                problems: list) -> None:
    """Resolve checked attacks (as JSON orders) in order; an attack that became illegal after
    an earlier one (a target retreated or died) is reported and skipped."""
    from pbem.engine.ruleset import Order

    policy = s.standing.get(CONFEDERATION, {}).get("evasion", "ask")
    for d in attacks:
        o = Order.from_json(d)
        target, units = o.args["target"], o.args["units"]
        why = combat.attack_problem(s, s.phasing, target, units)
        if why:
            problems.append(Problem(o.line, o.text, RULE["attack"], why))
            continue
        ev = None
        if s.phasing == SPIKUS:
            m = s.markers_at(target)[0]
            if combat.may_evade(s, m):
                ev = evasions.get(target) or ((policy, None) if policy != "ask" else ("none", None))
        combat.resolve_attack(s, s.phasing, target, units, chance, events, evasion=ev)


def end_player_turn(s: State, events: list) -> None:
    """The end of a Player Turn: Renewal ends for the soldiers fed (10.3); at the end of the
    Confederation Player Turn exposures by combat, fire and nets end (7.7, 7.36, 14.4), the
    Game Turn marker advances, and after turn twelve the game ends (4.2, 20.0)."""
    pt = s.pt
    s.attacked, s.fired, s.moved = [], [], []
    s.stage = "movement"
    for r in s.spikus.values():
        if r.get("feed_end") is not None and r["feed_end"] <= pt:
            r["feed_end"] = None
    gone = [c for c in s.corpses if c["until"] <= pt]
    s.corpses = [c for c in s.corpses if c["until"] > pt]
    for c in gone:
        events.append(Event("renewal-over", f"Renewal at {c['hex']} is over (10.3).", (PUBLIC,),
                            {"hex": c["hex"]}))
    if s.phasing == SPIKUS:
        s.phasing = CONFEDERATION
        return
    for m, r in sorted(s.markers.items()):
        if r["where"] != "map":
            continue
        expired = tuple(k for k, until in r["exposed"].items()
                        if until is not None and until <= pt)
        if expired:
            movement.expire(s, m, expired, events)
        if r.get("netted") is not None and r["netted"] <= s.turn:
            r["netted"] = None
    on_map = [m for m, r in s.markers.items() if r["where"] in ("map", "captive")]
    if s.turn >= s.rules["turns"] or not on_map:
        victory.finish(s, events, "twelve Game Turns are over (2.1, 20.0)" if on_map
               else "no Confederation counter is left on the map")
        return
    s.turn += 1
    s.phasing = SPIKUS
    events.append(Event("turn", f"Game Turn {s.turn} begins; the Game Turn marker moves to "
                        f"{_track(s)} (4.2).", (PUBLIC,), {"turn": s.turn}))


def _track(s: State) -> str:
    track = s.hexmap.group("turn-track") if s.hexmap.has_group("turn-track") else ()
    return track[min(s.turn, len(track)) - 1] if track else "0101"


__all__ = ["setup", "window", "resolve"]
