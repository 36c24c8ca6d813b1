"""Checking a role's orders against what that role knows (README.md, "Checking orders"): the
orders are played on a partial state built from the public part and the role's own secret part,
so a check can never use, or reveal, the other side's secrets."""

from __future__ import annotations

from pbem.engine.ruleset import Problem

from . import combat
from .state import CONFEDERATION, SPIKUS, State
from .movephase import (breakout, end_of_movement, movement_phase, posts,
                        start_of_movement)
from .orders import VERB_RULE as RULE
from .turns import evasion_hex, standing_orders


def check(known: State, role: str, orders: list) -> list:
    """Problems with ``role``'s orders, found by playing them on ``known`` (a partial state
    built from what the role knows: README.md, "Checking orders")."""
    problems: list = []
    scratch: list = []
    standing_orders(known, role, orders, problems)
    if known.stage == "breakout" and role == CONFEDERATION:
        breakout(known, orders, scratch, problems)
    elif known.stage == "posts" and role == SPIKUS:
        posts(known, orders, scratch, problems)
    elif known.stage == "movement" and role == known.phasing:
        start_of_movement(known, orders, None, scratch, problems)
        if role == CONFEDERATION:
            _assume_escapes(known)
        movement_phase(known, role, orders, scratch, problems)
        end_of_movement(known)
        _check_attacks(known, role, orders, problems)
        if any(o.verb == "attack" for o in orders):
            problems.extend(Problem(o.line, o.text, RULE["combat"], "attacks are sent with the "
                                    "movement orders here, so no separate combat window opens: "
                                    "send either attacks or 'combat later'")
                            for o in orders if o.verb == "combat")
    elif known.stage == "combat" and role == known.phasing:
        _check_attacks(known, role, orders, problems)
    elif known.stage == "evasion" and role == CONFEDERATION:
        ask = (known.pending or {}).get("ask", [])
        for o in orders:
            if o.verb == "evade":
                t = o.args["target"]
                h = evasion_hex(known, t)
                if h not in ask:
                    problems.append(Problem(o.line, o.text, RULE["evade"],
                                            f"{t} is not a counter under attack that may evade: "
                                            f"expected one of {', '.join(ask)}"))
                elif o.args["to"] is not None:
                    why = _flight_partner_problem(known, h, o.args["to"])
                    if why:
                        problems.append(Problem(o.line, o.text, RULE["evade"], why))
    return problems


def _flight_partner_problem(known: State, h: str, to: str) -> str | None:
    """Why the Confederation may not name ``to`` (a hex or its unit) as the dummy to trade
    places with by Flight from ``h`` (9.2), or None."""
    from .combat import flight_dummies

    marker = known.markers_at(h)[0]
    if to in known.units:
        to_marker = known.units[to]["marker"]
    else:
        here = known.markers_at(to) if to in known.hexmap else []
        if not here:
            return f"{to} holds none of your counters: Flight trades places with a dummy (9.2)"
        to_marker = here[0]
    if to_marker not in flight_dummies(known, marker):
        name = known.unit_at_marker(to_marker)
        kind = known.units[name]["kind"] if name else "?"
        if kind != "dummy":
            return f"{to} is {name}, not a dummy: Flight trades places with a dummy (9.2)"
        return (f"{name} cannot take the place of the counter at {h}: Flight trades with a "
                f"dummy within {known.rules['flight_range']} hexes (9.2) that is not held in "
                "place by a stun this phase or by a Trip Net (7.7, 14.4)")
    return None


def _check_attacks(known: State, role: str, orders: list, problems: list) -> None:
    """Check the attack orders in turn, each unit and target used once (7.13)."""
    for o in orders:
        if o.verb != "attack":
            continue
        why = combat.attack_problem(known, role, o.args["target"], o.args["units"])
        if why:
            problems.append(Problem(o.line, o.text, RULE["attack"], why))
            continue
        th = combat.target_hex(known, role, o.args["target"])
        known.attacked.extend([th] if role == SPIKUS
                              else combat.defenders(known, role, o.args["target"]))
        known.fired.extend(known.public_id(u) for u in o.args["units"])


def _assume_escapes(known: State) -> None:
    """Orders for an escorted prisoner are checked as if its escape roll succeeds (21.1): the
    roll comes only when the window resolves, and a move for a prisoner still held then is
    refused and reported."""
    if known.options.get("escort") != "yes" \
            or known.standing.get(CONFEDERATION, {}).get("escape", "always") != "always":
        return
    for rec in known.markers.values():
        carrier = rec.get("carrier")
        if rec["where"] == "captive" and carrier and known.spikus[carrier]["kind"] == "soldier":
            rec["where"], rec["carrier"] = "map", None
