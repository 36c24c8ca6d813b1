"""The Ranged Combat Phase (10.0-10.4, 12.0-12.6, 13.5, 16.1-16.2, 17.2-17.3, 19.5, 20.0).

One ``fire TARGET [TARGET] by UNIT... [lose UNIT...]`` order (:func:`fire`) is one attack:
the attackers' strengths (:func:`strength`) are added and compared with the defender's on the
Combat Results Table (odds rounded in the defender's favour, 10.1), one public die is rolled
and the result applied (12.1-12.6). :func:`start_phase` opens each Ranged Combat Phase.

Readings (README.md, "Readings of the rules"):

- 12.1 C names Strongpoints attacking Laser Tanks seven hexes away; 16.1 spares Strongpoints
  AE and EX "when attacking at a seven-hex range": the wider 16.1 is applied (any defender at
  ``far_range`` hexes or more; against infantry and parenthesized units 12.1 A-B spare them
  anyway, so the two readings differ only in wording).
- Attackers spared by 12.1 A-C/16.1 are never among EX losses; the others lose as if they had
  attacked alone (12.6: "only the defending unit and the appropriate attackers (if any)").
  12.1 A applies when every defender has a parenthesized strength, 12.1 B when every defender
  is infantry.
- EX (12.6): ``lose`` names attackers that may suffer losses, with printed strengths adding up
  to at least the defenders' printed strengths and none to spare; otherwise (a problem) and by
  default: the smallest sum, then the fewest units, then the first ids.
- 13.5.3: a unit underground in a Tunnel Mouth with a unit above it may be attacked alone only
  by an enemy unit above it; from other hexes only together with a friendly unit above it
  (``fire W01 W02 by ...``). An infantry unit under a Mouth attacking such a pair is doubled
  (one of them is on the surface, 13.5.2).
- 16.2: Strongpoints and Laser Tanks are not themselves under an umbrella (two adjacent Laser
  Tanks would otherwise protect each other for ever); one underground in a Deep Tunnel or
  drilled Mouth, out of reach of Ranged Combat, protects nobody.
- 17.2: a Tunnel Mouth "adjacent to the BOAR" includes the one the BOAR stands on.
- 19.5: an attack on a face-down marker that proves to be the Generator does not take place:
  it is turned face up and the attackers may fire again. A dummy attacked is removed and the
  attackers have fired (20.0).

Dry runs (checking) make every check the attacker's knowledge allows and mark the attackers as
having fired; they roll nothing and turn nothing face up.
"""

from __future__ import annotations

from itertools import combinations

from pbem.boards.levels import MOUTH, SURFACE, Place

from . import assaults, losses
from .state import WEB

STRONGPOINT = "strongpoint"
PROTECTORS = (STRONGPOINT, "un-laser-tank")
"""The kinds that spread a defensive umbrella (16.2) and are exempt against infantry (12.1 B)."""


# -- strengths (10.4, 12.5, 13.5.2, 17.2) -------------------------------------------------------

def _next_to_boar(s, hex_: str) -> bool:
    """True when a U.N. BOAR on the map stands in ``hex_`` or next to it (17.2)."""
    return any(r["kind"] == "un-boar" and r["status"] == "map"
               and s.board.distance(r["hex"], hex_) <= 1 for r in s.un.values())


def strength(s, side: str, uid: str, *, vs_surface: bool = True,
             defending: bool = False) -> int:
    """The Combat Strength (whole strength points) of ``side``'s unit ``uid`` in Ranged
    Combat: its printed strength (3.1), halved once, fractions up, when it is on the surface
    of a cliff hex (10.4.2), has DUST (12.5) or is a Strongpoint next to the BOAR (17.2: "only
    halved, not quartered"); doubled when it is infantry underground in a Tunnel Mouth (not a
    drilled one, 17.3) engaging units on the surface (``vs_surface``; 10.4.3, 13.5.2), unless
    it is a Web unit next to the BOAR (17.2). Laser Tanks are never doubled (13.5.2).
    ``defending`` changes nothing: every modifier applies to attack and defense alike; it is
    accepted so that callers can say which they compute. Raises ``KeyError`` for a marker
    that is not a unit or whose kind this state does not know."""
    del defending
    ut = s.utype(side, uid)
    place = s.place(side, uid)
    boar = _next_to_boar(s, place.hex)
    value = ut.strength
    if (s.rules.terrain[s.terrain(place)]["halves"] or s.rec(side, uid).get("dust")
            or s.kind(side, uid) == STRONGPOINT and boar):
        value = (value + 1) // 2
    if (ut.infantry and place.underground and s.tunnel_map().kind(place.hex) == MOUTH
            and vs_surface and not (side == WEB and boar)):
        value *= 2
    return value


# -- the phase -------------------------------------------------------------------------------

def start_phase(run) -> None:
    """Start a Ranged Combat Phase: no unit has fired or been attacked yet (10.3, 16.2), and
    the Strongpoints face down now protect nobody this phase (16.2), even once turned face
    up."""
    run.fired.clear()
    run.attacked.clear()
    run.face_down_at_start = frozenset(m for m, r in run.s.web.items() if not r.get("face_up"))


def _public_kind(run, side: str, uid: str) -> str | None:
    """The kind of a counter as the attacking player may know it: a face-down enemy marker's
    is unknown (5.2)."""
    s = run.s
    if side == WEB and side != run.role and not s.web[uid].get("face_up"):
        return None
    return s.kind(side, uid)


# -- checks ----------------------------------------------------------------------------------

def _check_attackers(run, o, by: list) -> bool:
    s, side = run.s, run.role
    for i, a in enumerate(by):
        if a in by[:i]:
            run.problem(o, "10.3", f"{a} is named twice: each unit fires at most once")
            return False
        if run.find(side, a, o, "10.1") is None:
            return False
        kind = s.kind(side, a)
        if kind in ("generator", "dummy"):
            gen = kind == "generator"
            run.problem(o, "19.5" if gen else "20.0", f"{a} is "
                        f"{'the Web Generator' if gen else 'a dummy'}: it may not attack")
            return False
        ut = s.utype(side, a)
        if not ut.ranged or ut.range <= 0:
            run.problem(o, "10.1", f"{s.name(side, a)} has a parenthesized Combat Strength "
                        f"and no range: it may not attack by Ranged Combat")
            return False
        if a in run.fired:
            run.problem(o, "10.3", f"{s.name(side, a)} has already fired this phase")
            return False
        if _shielded(run, o, side, a, "attack"):
            return False
    return True


def _shielded(run, o, side: str, uid: str, what: str) -> bool:
    """True, with a problem, when ``uid`` is underground in a Deep Tunnel (10.4.4, 13.5.1) or
    a drilled Tunnel Mouth (17.3)."""
    s, p = run.s, run.s.place(side, uid)
    if not (p.underground and s.tunnel_map().shielded(p.hex)):
        return False
    drilled = s.tunnel_map().kind(p.hex) == "drilled"
    run.problem(o, "17.3" if drilled else "10.4.4, 13.5.1", f"{s.name(side, uid)} is "
                f"underground in {'a drilled Tunnel Mouth' if drilled else 'a Deep Tunnel'} at "
                f"{p}: it may not {what} by Ranged Combat")
    return True


def _check_targets(run, o, targets: list) -> bool:
    s, enemy = run.s, run.enemy
    for t in targets:
        if run.find(enemy, t, o, "10.1") is None:
            return False
        if _public_kind(run, enemy, t) == "generator":
            run.problem(o, "19.5", f"{s.name(enemy, t)} may not be attacked")
            return False
        if _shielded(run, o, enemy, t, "be attacked"):
            return False
    if len(targets) == 2:
        a, b = (s.place(enemy, t) for t in targets)
        if a.hex != b.hex or a.level == b.level or s.tunnel_map().kind(a.hex) != MOUTH:
            run.problem(o, "10.3, 13.5.3", f"{' and '.join(targets)} at {a} and {b}: one "
                        f"attack may have two defenders only when they are the units above "
                        f"and below one Tunnel Mouth")
            return False
    return True


def _check_range(run, o, by: list, targets: list) -> bool:
    s, side, enemy = run.s, run.role, run.enemy
    for a in by:
        reach = s.utype(side, a).range
        for t in targets:
            d = s.board.distance(s.place(side, a).hex, s.place(enemy, t).hex)
            if d > reach:
                run.problem(o, "10.2", f"{a} at {s.place(side, a)} is {d} hexes from "
                            f"{s.name(enemy, t)} at {s.place(enemy, t)}, beyond its range "
                            f"of {reach}")
                return False
    return True


def _seen_unit(s, side: str, uid: str) -> bool:
    """Whether the attacker must take ``side``'s counter ``uid`` for a unit, judged from what
    it can see (5.2): a U.N. unit, a face-up Web unit, or any face-down Web marker (it may be
    one; deciding otherwise from the marker's secret kind would tell the attacker what it is)."""
    if side != WEB:
        return True
    r = s.web[uid]
    return not r.get("face_up") or r.get("kind") not in ("generator", "dummy")


def _check_stack(run, o, by: list, targets: list) -> bool:
    """13.5.3: the unit below a Tunnel Mouth with a unit above it."""
    s, side, enemy = run.s, run.role, run.enemy
    if len(targets) != 1:
        return True
    t = targets[0]
    p = s.place(enemy, t)
    if not p.underground:
        return True
    top = Place(p.hex, SURFACE)
    if any(_seen_unit(s, enemy, u) for u in s.counters_at(enemy, top)):
        run.problem(o, "13.5.3", f"{s.name(enemy, t)} at {p} has a friendly unit above it: "
                    f"from other hexes it may only be attacked together with that unit "
                    f"(fire {t} and the unit above it)")
        return False
    if any(s.is_unit(side, u) for u in s.counters_at(side, top)):
        far = [a for a in by if s.place(side, a).hex != p.hex]
        if far:
            run.problem(o, "13.5.3", f"{s.name(enemy, t)} at {p} has an enemy unit above it: "
                        f"only that unit may attack it, not {' '.join(far)}")
            return False
    return True


def _protectors(run, side: str, uid: str) -> list:
    """``side``'s face-up Strongpoints and Laser Tanks next to ``uid`` (16.2): those face down
    at the start of the phase, and those no Ranged Combat can reach, protect nobody."""
    s, here, out = run.s, run.s.place(side, uid), []
    off = getattr(run, "face_down_at_start", None)
    for u in s.on_map(side):
        if u == uid or _public_kind(run, side, u) not in PROTECTORS:
            continue
        if side == WEB and (not s.web[u].get("face_up") or off is not None and u in off):
            continue
        p = s.place(side, u)
        if not (p.underground and s.tunnel_map().shielded(p.hex)) \
                and s.board.distance(p.hex, here.hex) == 1:
            out.append(u)
    return out


def _check_umbrella(run, o, targets: list) -> bool:
    """16.2 (optional rule ``umbrellas``)."""
    s, enemy = run.s, run.enemy
    if not s.option("umbrellas"):
        return True
    for t in targets:
        if _public_kind(run, enemy, t) in PROTECTORS:
            continue
        open_ = [p for p in _protectors(run, enemy, t) if (enemy, p) not in run.attacked]
        if open_:
            run.problem(o, "16.2", f"{s.name(enemy, t)} is protected by "
                        f"{', '.join(s.name(enemy, p) for p in open_)}: attack "
                        f"{'it' if len(open_) == 1 else 'them'} first this phase")
            return False
    return True


def _check(run, o) -> tuple | None:
    """``(attackers, targets)`` of order ``o`` when every check passes, else None with a
    problem."""
    by, targets = list(o.args["by"]), list(o.args["targets"])
    if len(set(targets)) != len(targets):
        run.problem(o, "10.3", f"{' '.join(targets)}: a target is named twice")
        return None
    if not (_check_attackers(run, o, by) and _check_targets(run, o, targets)
            and _check_range(run, o, by, targets) and _check_stack(run, o, by, targets)
            and _check_umbrella(run, o, targets)):
        return None
    extra = [u for u in o.args.get("lose", []) if u not in by]
    if extra:
        run.problem(o, "12.6", f"lose {' '.join(extra)}: only attackers of this attack may be "
                    f"lost in an exchange; the default losses apply")
    return by, targets


# -- carrying out ----------------------------------------------------------------------------

def fire(run, o) -> None:
    """Carry out one ``fire`` order of ``run.role`` (``o.args``: ``targets``, ``by``, ``lose``;
    module docstring). Problems quote the order; an order with a problem is not carried out
    (a wrong ``lose`` only falls back to the default losses)."""
    checked = _check(run, o)
    if checked is None:
        return
    by, targets = checked
    s, side, enemy = run.s, run.role, run.enemy
    if run.dry:
        run.fired.update(by)
        run.attacked.update((enemy, t) for t in targets)
        return
    targets = _unmask(run, by, targets)
    if targets is None:
        return
    run.fired.update(by)
    if not targets:
        return
    run.attacked.update((enemy, t) for t in targets)
    if side == WEB:
        for a in by:
            losses.reveal(run, a, "it fires")
    on_top = any(s.place(enemy, t).level == SURFACE for t in targets)
    from_top = any(s.place(side, a).level == SURFACE for a in by)
    attack = sum(strength(s, side, a, vs_surface=on_top) for a in by)
    defense = sum(strength(s, enemy, t, vs_surface=from_top, defending=True) for t in targets)
    column = s.rules.crt.column_for(attack, defense)
    who = f"{', '.join(s.name(side, a) for a in by)} fire{'s' if len(by) == 1 else ''} at " \
        f"{' and '.join(s.name(enemy, t) for t in targets)}"
    die = run.roll(f"ranged combat: {who}, {attack} to {defense} ({column})")
    result = s.rules.crt.cell(die, column).result
    to = s.place(enemy, targets[0])
    run.event("ranged", f"{who} at {to}: {attack} to {defense} = {column}; die {die} -> "
              f"{result} (10.1).",
              attack=[{"from": s.place(side, a).hex, "to": to.hex, "result": result}
                      for a in by],
              column=column, die=die, result=result, strength=[attack, defense],
              attackers=list(by), targets=list(targets))
    _apply(run, o, by, targets, result)


def _unmask(run, by: list, targets: list) -> list | None:
    """Turn face-down targets face up (5.2, before the odds). None when one proves to be the
    Generator (19.5: the attack does not take place); dummies are removed (20.0). The units
    left to attack."""
    s, enemy = run.s, run.enemy
    if enemy == WEB:
        for t in targets:
            losses.reveal(run, t, "attacked by Ranged Combat")
        if any(s.web_kind(t) == "generator" for t in targets):
            run.event("ranged", f"The Web Generator may not be attacked: the attack of "
                      f"{', '.join(s.name(run.role, a) for a in by)} does not take place "
                      f"(19.5).")
            return None
        for t in targets:
            if s.web_kind(t) == "dummy":
                run.attacked.add((enemy, t))
                losses.eliminate(run, WEB, t, "a dummy, removed when attacked (20.0)",
                                 "removed")
    return [t for t in targets if s.is_unit(enemy, t)]


def exempt(s, side: str, uid: str, enemy: str, targets: list) -> str | None:
    """The rule that spares attacker ``uid`` from adverse results (AE, AR2, EX) in this
    Ranged Combat, None when none does: 12.1 A (every defender has a parenthesized strength),
    12.1 B and 16.1 (a Laser Tank or Strongpoint attacking infantry), 12.1 C and 16.1 (a
    Strongpoint at ``far_range`` hexes or more; module docstring)."""
    types = [s.utype(enemy, t) for t in targets]
    kind = s.kind(side, uid)
    if all(not ut.ranged for ut in types):
        return "12.1 A"
    if kind in PROTECTORS and all(ut.infantry for ut in types):
        return "12.1 B, 16.1"
    here = s.place(side, uid).hex
    if kind == STRONGPOINT and any(s.board.distance(here, s.place(enemy, t).hex)
                                   >= s.rules["far_range"] for t in targets):
        return "12.1 C, 16.1"
    return None


def _apply(run, o, by: list, targets: list, result: str) -> None:
    """The result of the CRT (12.1-12.6)."""
    s, side, enemy = run.s, run.role, run.enemy
    spared = {a: exempt(s, side, a, enemy, targets) for a in by}
    liable = [a for a in by if spared[a] is None]
    if result in ("AE", "AR2", "EX"):
        for a in by:
            if spared[a]:
                run.event("ranged", f"{s.name(side, a)} ignores the {result} ({spared[a]}).")
    if result == "AE":
        for a in liable:
            losses.eliminate(run, side, a, "AE, attacker eliminated (12.1)")
    elif result == "AR2":
        for a in liable:
            _retreat(run, side, a)
    elif result == "DR2":
        for t in targets:
            _retreat(run, enemy, t, defender=True)
    elif result == "DUST":
        for t in targets:
            losses.dust(run, enemy, t)
    elif result in ("DE", "EX"):
        lost = _exchange_losses(run, o, liable, targets) if result == "EX" else []
        for t in targets:
            losses.eliminate(run, enemy, t, "DE, defender eliminated (12.2)"
                             if result == "DE" else "EX, exchange (12.6)")
        for a in lost:
            losses.eliminate(run, side, a, "EX, exchange (12.6)")
    losses.note_generator(run)


def _retreat(run, side: str, uid: str, defender: bool = False) -> None:
    """Two hexes, chosen by the other player (12.3, 12.4: ``defender``); a retreat onto an
    enemy is a Close Assault (12.3)."""
    if run.s.rec(side, uid)["status"] != "map":
        return
    if losses.retreat(run, side, uid, defender=defender) == "assault":
        assaults.enter_enemy(run, side, uid)


def _exchange_losses(run, o, liable: list, targets: list) -> list:
    """The attackers lost in an exchange (12.6; module docstring)."""
    s, side, enemy = run.s, run.role, run.enemy
    need = sum(s.utype(enemy, t).strength for t in targets)

    def printed(units) -> int:
        return sum(s.utype(side, u).strength for u in units)

    if printed(liable) < need:
        return list(liable)
    named = list(o.args.get("lose") or [])
    if named:
        ok = (set(named) <= set(liable) and len(set(named)) == len(named)
              and printed(named) >= need
              and all(printed(named) - s.utype(side, u).strength < need for u in named))
        if ok:
            return named
        run.problem(o, "12.6", f"lose {' '.join(named)}: expected attackers that may suffer "
                    f"losses ({' '.join(liable) or 'none'}) with printed strengths adding up to "
                    f"at least {need} and none to spare; the default losses apply")
    best = None
    for n in range(1, len(liable) + 1):
        for combo in combinations(liable, n):
            key = (printed(combo), n, sorted(combo))
            if printed(combo) >= need and (best is None or key < best[0]):
                best = (key, list(combo))
    return best[1] if best else []
