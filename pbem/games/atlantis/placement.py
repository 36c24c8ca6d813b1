"""Placement (*Preparing to Play* 2-4) by mail: ranked preference lists resolved in rounds in
seat order (README, "Placement ... as ranked preference lists").

Values under people (*Preparing to Play* 2: "after this initial placement players cannot look
at the numbers under their own people, except as they move them"): while placing, each player
knows the numbers and says which goes where (``people 0707=6``). The choices are the owner's
secret: they stand only in the owner's (sealed) orders and in a private line of the owner's
placement report. When placement is resolved every value goes to the referee part (the
initial hidden setup the engine commits to in the public log and reveals at the end); from
then on the owner sees a value only when moving that person (README, "Who sees what").
"""

from __future__ import annotations

from collections import deque

from pbem.engine.ruleset import Chance, Problem, Resolution

from .moves import problem
from .state import State
from .table import Table
from .windows import R_PLAY, R_PREP, _add, deal_hidden, pick

def _placement_checks(s: State):
    """``{kind: (bad(h) -> why or None, legal(h) -> bool)}`` for placement entries."""
    cap = s.rules.land_capacity
    dist = s.rules.monster_distance

    def off(h):
        return None if h in s.hexmap else (f"{h} is off the map (columns 01-"
                                           f"{s.hexmap.columns:02d}, rows 01-{s.hexmap.rows:02d})")

    def bad_person(h):
        return off(h) or (None if h in s.tiles else f"{h} is not an island tile")

    def bad_ship(h):
        if off(h):
            return off(h)
        if not s.is_sea(h):
            return f"{h} is not a sea space"
        if not any(n in s.tiles for n in s.hexmap.neighbours(h)):
            return f"{h} is not next to the island: ships are placed next to it"
        return None

    def bad_monster(h):
        return off(h) or (None if s.is_sea(h) else f"{h} is not a sea space")

    return {
        "people": (bad_person, lambda h: len(s.on_tile(h)) < cap),
        "ship": (bad_ship, lambda h: s.empty(h)),
        "monster": (bad_monster, lambda h: s.empty(h) and all(
            s.hexmap.distance(h, w) >= dist for w in s.ships.values())),
    }


def check_placement(s: State, role: str, orders: list) -> list:
    """Problems with ``role``'s placement lists, from the map alone: hexes of the wrong kind
    (once per order line and hex), a hex listed more often than a tile holds people, lists
    shorter than the pieces to place (the die places the rest)."""
    checks = _placement_checks(s)
    out = []
    counts: dict = {}
    told: set = set()
    values = sorted(set(s.rules.values))
    total = {"people": 0, "ship": 0, "monster": 0}
    cap = s.rules.land_capacity
    for o in orders:
        if o.verb not in checks:
            continue
        bad, _ = checks[o.verb]
        for i, h in enumerate(o.args["hexes"]):
            total[o.verb] += 1
            v = o.args["values"][i] if o.verb == "people" else None
            if v is not None and v not in values and (o.line, "=", v) not in told:
                told.add((o.line, "=", v))
                out.append(problem(o, R_PREP["people"],
                                   f"{h}={v}: no person of yours has the value {v} (your values "
                                   f"are {' '.join(str(x) for x in s.rules.values)}): the entry "
                                   f"is never used"))
                continue
            why = bad(h)
            if why:
                if (o.line, h) not in told:
                    told.add((o.line, h))
                    out.append(problem(o, R_PREP[o.verb], why))
                continue
            if o.verb == "people":
                counts[h] = counts.get(h, 0) + 1
                if counts[h] == cap + 1:
                    out.append(problem(o, "Atlantis: Land Movement",
                                       f"{h} is listed more than {cap} times: a land tile holds "
                                       f"{cap} people, so the extra entries are never used"))
    need = {"people": s.rules.per_player, "ship": s.options.get("ships", 1),
            "monster": s.rules.monsters_per_player}
    for kind, n in need.items():
        if total[kind] < n:
            out.append(Problem(None, "", R_PREP[kind],
                               f"{total[kind]} {kind} entr{'y' if total[kind] == 1 else 'ies'} "
                               f"for {n} piece{'s' if n != 1 else ''}: the die places the rest"))
    return out


def assign_values(s: State, role: str, chosen: dict) -> dict:
    """Give ``role``'s people their values (Preparing to Play 2): each person placed by an
    entry ``HEX=VALUE`` gets that value (``chosen``: person -> value); the values left go to
    the other people, in number order, in the order the hidden shuffle of
    :func:`~.windows.deal_hidden` dealt them (so they are as random as that shuffle, and with
    no choices at all the deal is the shuffle itself). Returns person -> value, also written
    to ``s.values`` (the referee part)."""
    pids = [f"{role}{i}" for i in range(1, s.rules.per_player + 1)]
    left = [s.values[pid] for pid in pids]          # the hidden shuffle's order
    for v in chosen.values():
        left.remove(v)
    out = {}
    for pid in pids:
        out[pid] = chosen[pid] if pid in chosen else left.pop(0)
    s.values.update(out)
    return out


def resolve_placement(s: State, orders_by_role: dict, chance: Chance) -> Resolution:
    """Deal the hidden facts (:func:`~.windows.deal_hidden`), then placement (Preparing to
    Play 2-4) from ranked lists, in rounds in seat order: each
    person, then each ship, then each sea monster goes to the first entry left in its owner's
    list that is legal now; entries found illegal are dropped; when a list runs out the public
    die picks among the legal hexes. A hex of the wrong kind is one problem per order line,
    however often the line repeats it.

    Values: a ``people`` entry ``HEX=VALUE`` is used only while its owner still holds a person
    with that value (else it is dropped, like a full tile); the person it places gets that
    value. People placed by plain entries or by the die get the values left, dealt by the
    hidden shuffle (:func:`assign_values`). Each owner's placement report has a private line
    listing their people and values; nothing public names a value."""
    deal_hidden(s, chance)
    t = Table(s)
    problems: dict = {}
    checks = _placement_checks(s)
    lists = {}
    told: set = set()
    for role in s.seats:
        orders = orders_by_role.get(role)
        lists[role] = {"people": deque(), "ship": deque(), "monster": deque()}
        if orders is None:
            t.say("nmr", f"{role} sent no placement orders: the die places all of {role}'s "
                  f"pieces.", role=role)
            continue
        for o in orders:
            if o.verb == "people":
                lists[role]["people"].extend(zip(o.args["hexes"], [o] * len(o.args["hexes"]),
                                                 o.args["values"]))
            elif o.verb in lists[role]:
                lists[role][o.verb].extend((h, o, None) for h in o.args["hexes"])
            elif o.verb != "standing":
                _add(problems, role, problem(o, R_PLAY, "only people, ship and monster orders "
                                                        "are carried out at placement"))

    hand = {role: list(s.rules.values) for role in s.seats}   # values not yet placed
    chosen: dict = {role: {} for role in s.seats}

    def choose(role: str, kind: str, what: str) -> tuple:
        """``(hex or None, value or None)``: the first entry left that is legal now."""
        bad, legal = checks[kind]
        entries = lists[role][kind]           # a deque: each entry is looked at once
        while entries:
            h, o, v = entries.popleft()
            if v is not None and v not in hand[role]:
                continue                      # no such value (reported on arrival) or placed
            why = bad(h)
            if why:
                if (role, o.line, h) not in told:
                    told.add((role, o.line, h))
                    _add(problems, role, problem(o, R_PREP[kind], why))
                continue
            if legal(h):
                return h, v
        options = [h for h in s.hexmap.labels() if not bad(h) and legal(h)]
        h = pick(chance.public, options, f"{role}: hex for {what} chosen at random (placement "
                                         f"list ran out)")
        if h is not None:
            t.say("random-place", f"{role}'s {kind} list ran out: the die chooses {h} for "
                  f"{what}.", role=role, hex=h)
        return h, None

    for k in range(1, s.rules.per_player + 1):
        for role in s.seats:
            pid = f"{role}{k}"
            h, v = choose(role, "people", pid)
            p = s.people[pid]
            if h is not None and v is not None:
                hand[role].remove(v)
                chosen[role][pid] = v
            if h is None:
                t.say("placed", f"No tile has room for {pid}, who stays out of the game.")
                p.where = "dead"
                continue
            p.where, p.hex = "land", h
            t.say("placed", f"{role} places {pid} on {h}.", role=role, piece=pid, hex=h)
    for _ in range(s.options.get("ships", 1)):
        for role in s.seats:
            sid = s.next_id("ship")
            h, _ = choose(role, "ship", f"{role}'s ship")
            if h is None:
                t.say("placed", f"No sea hex next to the island is empty: {role} places no ship.")
                continue
            t.place_piece("ship", h)
            t.say("placed", f"{role} places {sid} at {h}.", role=role, piece=sid, hex=h)
    for _ in range(s.rules.monsters_per_player):
        for role in s.seats:
            mid = s.next_id("monster")
            h, _ = choose(role, "monster", f"{role}'s sea monster")
            if h is None:
                t.say("placed", f"No empty sea hex is far enough from every ship: {role} places "
                      f"no sea monster.")
                continue
            t.place_piece("monster", h)
            t.say("placed", f"{role} places {mid} at {h}.", role=role, piece=mid, hex=h)
    for role in s.seats:
        values = assign_values(s, role, chosen[role])
        shown = []
        for pid, v in values.items():
            p = s.people[pid]
            where = f"on {p.hex}" if p.where == "land" else "out of the game"
            how = "" if pid in chosen[role] else " (dealt by the hidden dice)"
            shown.append(f"{pid} {where} value {v}{how}")
        t.say("values", f"Your people as placed (you know the numbers while placing; after "
              f"this placement you see a value only when you move that person, Preparing to "
              f"Play 2): {'; '.join(shown)}.", (role,), values=values,
              chosen=sorted(chosen[role]))
    s.stage = "turn"
    s.turn = 1
    s.phasing = s.seats[0]
    t.say("next", f"Placement is complete. Turn 1: {s.phasing}'s player-turn.", turn=1,
          role=s.phasing)
    return Resolution(t.events, problems)


