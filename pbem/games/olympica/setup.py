"""Setup for play (5.0): the forces (5.1, 5.4's secret substitutions), the Web setup (5.2) and
the counters dealt to the markers.

The Web's counters are dealt to markers ``W01``.. by a shuffle on the hidden dice stream
(README.md, "Who sees what"): the U.N. player sees markers, not kinds, until the rules turn a
counter face up. In the Short Advanced Scenario the Web sets up face up (4.3).
"""

from __future__ import annotations

from pbem.boards.levels import MOUTH, Place
from pbem.engine.ruleset import Event

from . import losses
from .data import check_options
from .state import UN, UN_PREFIX, WEB, WEB_NAMES, State, _rules, normalise

WEB_ORDER = ("generator", "strongpoint", "web-infantry", "dummy")


def new_state(roles: list, options: dict, data: dict, board, chance) -> tuple[State, list]:
    """``(state, events)``: the scenario's forces (4.1-4.3), the Web's counters dealt to
    markers on the hidden stream, the fixed Tunnel Mouths (4.2, 13.2), the U.N. units in
    reserve. Raises ``ValueError`` for options that do not go together (4.0)."""
    check_options(options)
    rules = _rules(data)
    s = State(seats=list(roles), options=dict(options), data=data, board=board, rules=rules)
    sc = s.scenario
    s.stage = "forces" if s.option("substitutions") else "web-setup"
    kinds = [k for k in WEB_ORDER for _ in range(sc["web"].get(k, 0))]
    kinds = chance.hidden.shuffle(kinds, "the Web counters dealt to their markers")
    for i, kind in enumerate(kinds, 1):
        m = f"W{i:02d}"
        s.kinds[m] = kind
        s.web[m] = {"status": "box", "hex": None, "level": "surface", "dust": False,
                    "face_up": False, "kind": None}
    _un_forces(s, sc["un"])
    s.tunnels = {h: MOUTH for h in sc.get("fixed_mouths", [])}
    s.tunnels_left = sc.get("free_tunnels", 0)
    counts = ", ".join(f"{n} {WEB_NAMES[k]}" for k, n in sc["web"].items() if n)
    events = [Event("setup", f"Olympica, the {s.options['scenario']} scenario: "
                    f"{sc['turns']} Game-Turns (4.0). The Web has {len(kinds)} counters "
                    f"({'face up' if sc['face_up'] else 'face down'}, 5.2): "
                    f"{'' if s.option('substitutions') else counts}."
                    + (f" Tunnel Mouths at {', '.join(s.tunnels)} (4.2, 13.2)." if s.tunnels
                       else ""),
                    data={"scenario": s.options["scenario"]})]
    return normalise(s), events


def _un_forces(s: State, counts: dict) -> None:
    """The U.N. units in reserve, ids by kind (state.py)."""
    for u in [u for u, r in s.un.items() if r["status"] == "reserve"]:
        del s.un[u]
    for kind, n in counts.items():
        for i in range(1, n + 1):
            s.un[f"{UN_PREFIX[kind]}{i}"] = {"kind": kind, "status": "reserve", "hex": None,
                                             "level": "surface", "dust": False,
                                             "dropped": None}


def substitute(run, orders: list) -> None:
    """5.4: the role's substitution, secret. The Web: ``infantry`` (one Strongpoint and one
    dummy become two Infantry, and two more tunnels) or ``strongpoint`` (two Infantry and two
    tunnels become one Strongpoint and one dummy). The U.N.: ``light N`` / ``heavy N``, N
    infantry of the other type swapped, 23 infantry in all, within the counter mix."""
    made = False
    for o in (o for o in orders if o.verb == "substitute"):
        if made:
            run.problem(o, "5.4", "one substitution per player: an earlier line made it")
        else:
            made = _substitute(run, o)


def _substitute(run, o) -> bool:
    """One ``substitute`` order (:func:`substitute`); True when it was made."""
    s, role = run.s, run.role
    what, n = o.args["what"], o.args["n"]
    mix = s.rules.counter_mix
    if role == WEB:
        if what not in ("infantry", "strongpoint"):
            return _no(run, o, "5.4", f"{what!r}: the Web substitutes `infantry` or "
                       f"`strongpoint`")
        have = {k: [m for m, v in s.kinds.items() if v == k] for k in WEB_ORDER}
        if what == "infantry":
            out, into, tunnels = ["strongpoint", "dummy"], ["web-infantry"] * 2, 2
        else:
            out, into, tunnels = ["web-infantry", "web-infantry"], ["strongpoint", "dummy"], -2
        need = {k: out.count(k) for k in out}
        short = [k for k, c in need.items() if len(have[k]) < c]
        if short:
            return _no(run, o, "5.4", f"the Web has {len(have[short[0]])} {WEB_NAMES[short[0]]} "
                       f"counters, and this substitution gives up {need[short[0]]}")
        after = {k: len(have[k]) - need.get(k, 0) + into.count(k) for k in WEB_ORDER}
        limit = {"web-infantry": mix["web-infantry"], "strongpoint": mix["strongpoint"],
                 "dummy": mix["dummy"]}
        if any(after[k] > v for k, v in limit.items()) or \
                s.tunnels_left + tunnels + len(s.tunnels) > mix["tunnels"]:
            return _no(run, o, "5.4", "the counter mix cannot be exceeded")
        if s.tunnels_left + tunnels < 0:
            return _no(run, o, "5.4", "too few tunnels to give up two")
        freed = [have[k].pop(0) for k in out]
        for m, k in zip(freed, into):
            s.kinds[m] = k
        s.tunnels_left += tunnels
        s.substitution[WEB] = what
    else:
        if what not in ("light", "heavy"):
            return _no(run, o, "5.4", f"{what!r}: the U.N. substitutes `light N` or "
                       f"`heavy N`")
        counts = {k: sum(1 for r in s.un.values() if r["kind"] == k)
                  for k in UN_PREFIX}
        src, dst = (("un-heavy-infantry", "un-light-infantry") if what == "light"
                    else ("un-light-infantry", "un-heavy-infantry"))
        if n > counts[src] or counts[dst] + n > mix[dst]:
            return _no(run, o, "5.4", f"{n} {src} cannot become {dst}: {counts[src]} to "
                       f"give, and the counter mix has {mix[dst]} {dst} counters")
        counts[src] -= n
        counts[dst] += n
        _un_forces(s, {k: v for k, v in counts.items() if v})
        s.substitution[UN] = f"{what} {n}"
    run.event("substitution", "Your substitution is made (5.4).", (role,))
    return True


def _no(run, o, rule: str, why: str) -> bool:
    run.problem(o, rule, why)
    return False


def place(run, o) -> None:
    """``place MARKER HEX[u]`` (5.2): the Generator within the dotted area; a Strongpoint not
    with the Generator nor on a fixed Tunnel Mouth hex; one unit per place (9.0); underground
    only in a tunnel hex."""
    s = run.s
    m = o.args["unit"]
    if m not in s.web or s.web[m]["status"] != "box":
        return run.problem(o, "5.2", f"{m!r} is not one of your markers still to place")
    p = Place.parse(o.args["to"])
    why = placement_problem(s, m, p)
    if why:
        return run.problem(o, "5.2", why)
    s.web[m].update(status="map", hex=p.hex, level=p.level)


def placement_problem(s: State, m: str, p: Place) -> str | None:
    """Why Web counter ``m`` may not be set up at ``p`` (5.2, 9.0, 13.2, 19.4)."""
    kind = s.kinds[m]
    if p.hex not in s.board:
        return f"{p.hex} is not a hex of the map"
    if p.level != "surface" and p.hex not in s.tunnels:
        return f"{p}: no tunnel in {p.hex} to be underground in"
    if kind == "generator" and p.hex not in s.board.group("dotted"):
        return (f"{m} is the Web Generator: it must be set up within the dotted area (5.2): "
                f"{' '.join(s.board.group('dotted'))}")
    here = [x for x, r in s.web.items() if r["status"] == "map" and r["hex"] == p.hex]
    if kind == "strongpoint":
        if p.hex in s.scenario.get("fixed_mouths", []) or p.hex in s.tunnels:
            return f"{p.hex} is a Tunnel Mouth hex: no Strongpoint there (5.2, 13.2)"
        if any(s.kinds[x] == "generator" for x in here):
            return f"{p.hex} holds the Web Generator: no Strongpoint with it (5.2)"
    if kind == "generator" and any(s.kinds[x] == "strongpoint" for x in here):
        return f"{p.hex} holds a Strongpoint: the Generator may not be set up with it (5.2)"
    if kind in ("strongpoint", "web-infantry") and any(
            s.kinds[x] in ("strongpoint", "web-infantry") and s.web[x]["level"] == p.level
            for x in here):
        return f"{p} already holds a Web unit: one unit per place (9.0)"
    return None


def place_rest(run, sent: bool) -> None:
    """5.2 for the counters no order placed: each in turn on the first legal hex, holding no
    Web counter yet, of a shuffle of the hexes near the dotted area (the Generator: of the
    dotted area's hexes). The shuffles are on the hidden dice stream: where the judge puts a
    counter must not tell its kind (README, "When a player sends nothing")."""
    s = run.s
    left = [m for m, r in s.web.items() if r["status"] == "box"]
    if not left:
        return
    if sent or run.dry:
        run.problem(None, "5.2", f"{len(left)} Web counters are not placed "
                    f"({', '.join(left)}): every counter is set up"
                    + ("" if run.dry else "; the judge places them"))
    if run.dry:
        return
    dotted = list(s.board.group("dotted"))
    near = sorted({h for d in dotted for h in s.board.within(d, 3)})
    hexes = run.chance.hidden.shuffle(near, "hexes for the Web counters not placed")
    inside = run.chance.hidden.shuffle(dotted, "the dotted hexes, for the Generator")
    for m in left:
        pool = inside if s.kinds[m] == "generator" else hexes
        taken = {r["hex"] for r in s.web.values() if r["status"] == "map"}
        for h in sorted(pool, key=lambda h: h in taken):  # empty hexes first, shuffled
            if placement_problem(s, m, Place(h)) is None:
                s.web[m].update(status="map", hex=h, level="surface")
                break


def setup_done(run) -> None:
    """The public event of the Web setup: every marker's place (never its kind, unless the
    scenario sets up face up, 4.3: then every counter is turned face up now, after the
    substitutions of 5.4)."""
    s = run.s
    if s.scenario["face_up"]:
        for m, r in s.web.items():
            r.update(face_up=True, kind=s.kinds[m])
    where = ", ".join(f"{m} {Place(r['hex'], r['level'])}" for m, r in s.web.items()
                      if r["status"] == "map")
    run.event("web-setup", f"The Web sets up (5.2): {where}.")
    losses.note_generator(run)
