"""Tunnels (13.0-13.6), the BOAR's drilling (17.3) and the Generator going underground (19.4).

- :func:`place_tunnel`: the Web's ``tunnel mouth|deep HEX [under MARKER...]`` (13.2), in a Tunnel
  Phase of the Advanced Scenario or at setup in the Short Advanced one (the caller's timing);
- :func:`demolition_allowed` and :func:`demolish`: the optional rule 13.6, in the Ranged Combat
  Phase (``demolish UNIT PLACE``);
- :func:`boar_arrives` and :func:`drill`: 17.3, the BOAR above a Deep Tunnel.

Readings (the rulebook is silent; README, "Readings of the rules"):

- a unit attempting a demolition is turned face up (5.2: it acts in the Ranged Combat Phase in
  place of firing, and only a unit may demolish);
- demolition moves the unit to an *adjacent* hex (13.6), reachable as in 13.4 from its place
  before the marker goes: the surface of an adjacent hex (move D, from a mouth) or underground
  in an adjacent tunnel hex (moves A, B); not onto a friendly unit (9.0) nor onto enemy counters
  (a demolition is not a move that starts a Close Assault);
- "friendly units in Deep Tunnels" (13.6) includes the Web's own Generator (a demolition may not
  cut it off from every Tunnel Mouth, which would make 18.4 impossible); dummies do not count;
  other counters underground in the demolished hex (a dummy) come up to its surface;
- dry runs (checking) roll nothing and take a demolition or a drill to succeed, so the orders
  written after it are checked against the position the player is counting on.
"""

from __future__ import annotations

from pbem.boards.levels import (
    DEEP,
    DRILLED,
    MOUTH,
    SURFACE,
    UNDERGROUND,
    LevelError,
    Place,
    step_rule,
    stranded,
)

from . import losses
from .state import UN, WEB

TUNNEL_NAMES = {MOUTH: "Tunnel Mouth", DEEP: "Deep Tunnel", DRILLED: "drilled Tunnel Mouth"}


def _surface_hex(run, o, text: str, rule: str) -> str | None:
    try:
        p = Place.parse(text)
    except LevelError as e:
        run.problem(o, rule, str(e))
        return None
    if p.underground:
        run.problem(o, rule, f"{text!r}: a tunnel marker is placed on a hex, expected the hex "
                    f"label without `u` (such as {p.hex})")
        return None
    return p.hex


# -- placement (13.2, 19.4) -----------------------------------------------------------------------

def placement_problem(s, kind: str, h: str) -> str | None:
    """Why the Web may not place a tunnel marker of ``kind`` (``mouth`` or ``deep``) in hex
    ``h`` now, None when it may: no marker left (13.1, 5.4), a Strongpoint in the hex (13.2),
    or :meth:`~pbem.boards.levels.Tunnels.placement_problem` (mouths in cliff or incline, deep
    tunnels joined to a mouth, one marker per hex; markers never move)."""
    if not s.tunnels_left:
        return "no tunnel marker is left to place (13.1: the Web has 8, four of them fixed)"
    for m in s.counters_at(WEB, Place(h)) if h in s.board else ():
        if s.web_kind(m) == "strongpoint":
            return f"hex {h} holds a Strongpoint ({m}): no tunnel may be placed there (13.2)"
    return s.tunnel_map().placement_problem(s.board, h, kind)


def _under_problem(s, h: str, under: list) -> str | None:
    """Why the counters ``under`` may not go underground in ``h`` (13.2, 9.0, 19.4)."""
    if len(set(under)) != len(under):
        return "a counter is named twice after `under`: expected each once"
    units = []
    for m in under:
        if m in s.un:
            return (f"{m} is a U.N. unit: U.N. units may not be placed underground by the Web "
                    f"player (13.2)")
        r = s.web.get(m)
        if r is None or r["status"] != "map" or r["hex"] != h or r["level"] != SURFACE:
            return f"{m} is not a Web counter on the surface of hex {h}: expected one there"
        if s.web_kind(m) == "generator" and s.counters_at(UN, Place(h)):
            return (f"the Web Generator {m} is stacked with a U.N. unit: it may not be placed "
                    f"underground (19.4)")
        if s.is_unit(WEB, m):
            units.append(m)
    if len(units) > 1:
        return (f"{' and '.join(units)} are both units: one unit may be underground in a hex "
                f"(9.0, 13.3)")
    return None


def place_tunnel(run, o) -> None:
    """The Web's ``tunnel mouth|deep HEX [under MARKER...]`` (``o.args``: ``kind``, ``hex``,
    ``under``). Checks :func:`placement_problem` and the counters going underground (13.2: Web
    counters of the hex; one unit per level, 9.0; the Generator unless stacked with a U.N.
    unit, 19.4; never a U.N. unit), then places the marker, takes one from ``s.tunnels_left``,
    puts the named counters underground (their DUST removed, 13.2) and records a public event.
    Problems are recorded on ``run`` (rules 13.2, 9.0, 19.4); nothing changes then."""
    s = run.s
    kind, under = o.args["kind"], list(o.args.get("under", []))
    h = _surface_hex(run, o, o.args["hex"], "13.2")
    if h is None:
        return
    why = placement_problem(s, kind, h) or _under_problem(s, h, under)
    if why:
        run.problem(o, "13.2", why)
        return
    s.tunnels = s.tunnel_map().with_marker(h, kind).to_json()
    s.tunnels_left -= 1
    for m in under:
        r = s.web[m]
        r["level"] = UNDERGROUND
        if s.is_unit(WEB, m):
            r["dust"] = False
    names = ", ".join(s.name(WEB, m) for m in under)
    run.event("tunnel", f"The Web places a {TUNNEL_NAMES[kind]} in {h} (13.2)"
              + (f"; underground: {names}." if under else "."),
              hex=h, tunnel=kind, under=list(under))


# -- demolition (13.6, optional) ------------------------------------------------------------------

def _strands_friends(s, side: str, uid: str, h: str) -> list:
    """``side``'s counters (units and the Generator, not dummies) left in tunnels joined to no
    Tunnel Mouth once the marker of ``h`` is gone (13.6)."""
    lost = stranded(s.tunnel_map().without(h), s.board)
    return [u for u in s.on_map(side) if u != uid and s.rec(side, u)["level"] == UNDERGROUND
            and s.rec(side, u)["hex"] in lost and s.kind(side, u) != "dummy"]


def demolition_allowed(s, side: str, uid: str) -> str | None:
    """Why ``side``'s counter ``uid`` may not attempt to demolish its tunnel (13.6), None when it
    may: the optional rule is not in force; not a unit; not underground in a tunnel hex; the
    hex holds the Web Generator (either level); the demolition would leave friendly counters in
    Deep Tunnels with no connection to the surface. The phase's conditions (it did not move,
    does not fire) are :func:`demolish`'s."""
    if not s.option("demolition"):
        return "demolition is the optional rule 13.6, not in force in this game (option " \
               "demolition=yes)"
    if not s.is_unit(side, uid):
        return f"{uid} is not a combat unit: only a unit may attempt demolition"
    r = s.rec(side, uid)
    if r["level"] != UNDERGROUND or not s.tunnel_map().has(r["hex"]):
        return f"{s.name(side, uid)} is not underground in a tunnel hex"
    gen = s.generator()
    if gen is not None and s.web[gen]["status"] == "map" and s.web[gen]["hex"] == r["hex"]:
        return f"hex {r['hex']} holds the Web Generator: its tunnel may not be demolished"
    cut = _strands_friends(s, side, uid, r["hex"])
    if cut:
        return (f"removing the tunnel of {r['hex']} would leave "
                f"{', '.join(s.name(side, u) for u in cut)} in Deep Tunnels with no connection "
                f"to the surface")
    return None


def _destination_problem(run, side: str, uid: str, text: str) -> tuple[Place | None, str]:
    s = run.s
    try:
        dest = Place.parse(text)
    except LevelError as e:
        return None, str(e)
    here = s.place(side, uid)
    enemy = s.other(side)

    def enemy_above(h: str) -> bool:
        # any enemy counter, face down or not: as movement.py judges 13.4 D and G (5.2)
        return bool(s.counters_at(enemy, Place(h)))

    letter = step_rule(s.tunnel_map(), s.board, here, dest, enemy_above=enemy_above)
    if dest.hex == here.hex or letter not in ("A", "B", "D"):
        return None, (f"{text!r}: expected a place next to {here} reachable as in 13.4: the "
                      f"surface of an adjacent hex (from a Tunnel Mouth with no enemy unit "
                      f"above it), or underground in an adjacent tunnel hex")
    if dest.underground and dest.hex in stranded(s.tunnel_map().without(here.hex), s.board):
        return None, (f"{dest} would have no connection to the surface once the tunnel of "
                      f"{here.hex} is gone")
    if s.unit_at(side, dest) is not None:
        return None, f"{dest} holds a friendly unit ({s.unit_at(side, dest)}): 9.0"
    if s.counters_at(enemy, dest):
        return None, f"{dest} holds enemy counters: a demolition does not end in a Close Assault"
    return dest, ""


def demolish(run, o) -> None:
    """``demolish UNIT PLACE`` (``o.args``: ``unit``, ``to``) in ``run.role``'s Ranged Combat
    Phase (13.6): the unit spent the Movement Phase in the hex (no entry in ``run.moved``, which
    the caller carries over from that phase), has not fired and may not fire now (it joins
    ``run.fired``), and :func:`demolition_allowed`. A die (``run.roll``) of
    ``rules["demolition_roll"]`` (4) or more removes the marker and moves the unit to PLACE (a
    U.N. unit reaching a cliff hex's surface rolls for an avalanche, 7.4.3); enemy units left in
    Deep Tunnels stay. Problems are recorded on ``run``."""
    s, side = run.s, run.role
    uid = run.find(side, o.args["unit"], o, "13.6")
    if uid is None:
        return
    why = demolition_allowed(s, side, uid)
    gen = s.generator()
    if why and gen is not None and side == UN and "Generator" in why:
        # the Web player stops the attempt by showing the Generator (5.2, 13.6): it is turned
        # face up, so that the problem tells the U.N. nothing the board does not show
        losses.reveal(run, gen, "it stops a demolition (13.6)")
    if why is None and uid in run.moved:
        why = (f"{s.name(side, uid)} moved this turn: a unit must spend its entire Movement "
               f"Phase in the tunnel hex")
    if why is None and uid in run.fired:
        why = f"{s.name(side, uid)} has already attacked in this Ranged Combat Phase"
    if why is None:
        dest, why = _destination_problem(run, side, uid, o.args["to"])
    if why:
        run.problem(o, "13.6", why)
        return
    run.fired.add(uid)
    if side == WEB:
        losses.reveal(run, uid, "it attempts a demolition")
    h = s.rec(side, uid)["hex"]
    die = run.roll(f"demolition: {s.name(side, uid)} in the tunnel of {h}")
    if die is not None and die < s.rules["demolition_roll"]:
        run.event("demolition", f"{s.name(side, uid)} tries to demolish the tunnel of {h}: "
                  f"rolled {die}, the tunnel holds (13.6).", unit=uid, hex=h, die=die)
        return
    kind = s.tunnels[h]
    s.tunnels = s.tunnel_map().without(h).to_json()
    for who in (UN, WEB):
        for u in s.counters_at(who, Place(h, UNDERGROUND)):
            if u != uid:
                s.rec(who, u)["level"] = SURFACE
    s.rec(side, uid).update(hex=dest.hex, level=dest.level)
    rolled = f"rolled {die}: " if die is not None else ""
    run.event("demolition", f"{s.name(side, uid)} demolishes the {TUNNEL_NAMES[kind]} of {h}: "
              f"{rolled}the marker is removed and it moves to {dest} (13.6).",
              unit=uid, hex=h, to=str(dest), die=die)
    if not dest.underground:
        losses.enters_hex(run, side, uid, dest.hex, "demolition")


# -- the BOAR (17.3) ------------------------------------------------------------------------------

def _drill_problem(s, uid: str) -> str | None:
    r = s.un[uid]
    if r["kind"] != "un-boar":
        return f"{s.name(UN, uid)} is not the BOAR: only the BOAR drills"
    if r.get("dropped") == s.turn:
        return f"{s.name(UN, uid)} dropped this Game-Turn: the BOAR may not drill then"
    if r["level"] != SURFACE or s.tunnels.get(r["hex"]) != DEEP:
        return f"{s.name(UN, uid)} is not above a Deep Tunnel (hex {r['hex']})"
    return None


def _roll_drill(run, uid: str) -> None:
    s = run.s
    h = s.un[uid]["hex"]
    die = run.roll(f"drill: {s.name(UN, uid)} above the Deep Tunnel of {h}")
    if die is not None and die < s.rules["drill_roll"]:
        run.event("drill", f"{s.name(UN, uid)} drills in {h}: rolled {die}, the Deep Tunnel "
                  f"holds; it may try again next Movement Phase (17.3).", unit=uid, hex=h,
                  die=die)
        return
    s.tunnels = s.tunnel_map().with_marker(h, DRILLED).to_json()
    rolled = f"rolled {die}: " if die is not None else ""
    run.event("drill", f"{s.name(UN, uid)} drills in {h}: {rolled}the Deep Tunnel becomes a "
              f"drilled Tunnel Mouth (17.3).", unit=uid, hex=h, die=die)


def boar_arrives(run, uid: str) -> None:
    """The BOAR ``uid`` has ended its movement (17.3): above a Deep Tunnel, and not on the
    Game-Turn it dropped, it rolls a die at once; ``rules["drill_roll"]`` (4) or more turns the
    marker into a drilled Tunnel Mouth (:data:`~pbem.boards.levels.DRILLED`: a mouth for
    movement, shielded from Ranged Combat). Anything else: nothing happens."""
    s = run.s
    r = s.un.get(uid)
    if r is None or r["status"] != "map" or _drill_problem(s, uid):
        return
    _roll_drill(run, uid)


def drill(run, o) -> None:
    """``drill B1`` (``o.args["unit"]``): the BOAR, which started this Movement Phase above a
    Deep Tunnel and has not moved, tries again without moving (17.3: "the BOAR must wait until
    the next U.N. Movement Phase and try again"); it may not move for the rest of the phase
    (``run.did(uid, "move")``). Problems (17.3) are recorded on ``run``."""
    s = run.s
    uid = run.find(UN, o.args["unit"], o, "17.3")
    if uid is None:
        return
    why = _drill_problem(s, uid)
    if why is None and uid in run.moved:
        why = f"{s.name(UN, uid)} moved this phase: its drill roll was made when it arrived"
    if why:
        run.problem(o, "17.3", why)
        return
    run.did(uid, "move")
    _roll_drill(run, uid)
