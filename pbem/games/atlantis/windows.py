"""Setup, the order windows, and carrying them out: the player-turn and the short
creature window (README, "Windows (phases) and what each player sends").

Rulebook sections: *Preparing to Play* 1-4, *The Play*, *People and/or Ships move*, *Part of
the Island sinks*, *Dice*, *End of game*.
"""

from __future__ import annotations

import re

from pbem.engine.ruleset import Chance, Problem, Resolution, Window

from .data import SYMBOLS, Rules
from .maps import check_map
from .moves import (MOVES, R_DICE, R_SINK, Turn, creature_move, creature_problem, play,
                    problem, sink_problem)
from .state import STANDING_TILES, Person, State, piece_kind
from .table import GameOver, Table, is_are, names

R_PLAY = "Atlantis: The Play"
R_PREP = {"people": "Atlantis: Preparing to Play 2", "ship": "Atlantis: Preparing to Play 3",
          "monster": "Atlantis: Preparing to Play 4"}

PLACEMENT_VERBS = ("people", "ship", "monster")
TURN_VERBS = ("play", "walk", "swim", "board", "ashore", "sail", "sink", "if", "standing")
CREATURE_VERBS = ("creature", "standing")


class SetupError(ValueError):
    """A game that cannot be set up: wrong number or names of roles, or more pieces needed than
    the box holds (Contents). The message quotes the input and says what was expected."""


def pick(dice, items: list, why: str):
    """One of ``items`` chosen by ``dice`` (uniformly; no roll when there is one item; None when
    there is none). Up to 256 items: one die with that many sides; more: base-16 digits drawn
    with d16 rolls until the number is below the count (rejection, still uniform)."""
    n = len(items)
    if n == 0:
        return None
    if n == 1:
        return items[0]
    if n <= 256:
        return items[dice.roll(n, why) - 1]
    while True:
        value, span = 0, 1
        while span < n:
            value = value * 16 + dice.roll(16, why) - 1
            span *= 16
        if value < n:
            return items[value]


# -- setup ------------------------------------------------------------------------------------

def setup(roles: list, options: dict, data: dict, hexmap, chance: Chance):
    """The position before placement (Preparing to Play 1): the island's tiles laid out; the
    symbols under them and the values under the people are dealt later (:func:`deal_hidden`).

    Public draws (``chance.public``): which centre hex is the city, which outer hexes are sand
    and which forest. No hidden draws: ``chance.hidden`` is not used here. Returns ``(state, events)``. Raises
    :class:`SetupError` for 0-1 or 5+ roles, repeated or malformed role names, or more ships or
    sea monsters needed than the box holds; :class:`~pbem.boards.hexmap.MapError` for a map
    that does not fit (:func:`~pbem.games.atlantis.maps.check_map`).
    """
    rules = Rules.from_data(data)
    roles = list(roles)
    if not 2 <= len(roles) <= 4:
        raise SetupError(f"{len(roles)} roles {roles!r}: Escape from Atlantis is for 2 to 4 "
                         f"players (Contents: 48 people, 12 of each colour)")
    for r in roles:
        if not isinstance(r, str) or not re.match(r"^[a-z][a-z_]*$", r):
            raise SetupError(f"role name {r!r}: expected lower-case letters (people are named "
                             f"by role and number, such as red3)")
    if len(set(roles)) != len(roles):
        raise SetupError(f"roles {roles!r}: each role once")
    ships = options.get("ships", 1)
    if ships * len(roles) > rules.pieces["ship"]:
        raise SetupError(f"ships={ships} for {len(roles)} players needs {ships * len(roles)} "
                         f"ships: the box holds {rules.pieces['ship']} (Contents)")
    monsters = rules.monsters_per_player * len(roles)
    if monsters > rules.pieces["monster"]:
        raise SetupError(f"{len(roles)} players need {monsters} sea monsters: the box holds "
                         f"{rules.pieces['monster']} (Contents)")
    check_map(hexmap, data)
    s = State(seats=roles, options=dict(options), data=data, hexmap=hexmap, rules=rules)
    t = Table(s)
    centre = sorted(hexmap.group("centre"))
    outer = [h for h in hexmap.hexes("island") if h not in centre]
    city = pick(chance.public, centre, "island arrangement: which centre hex is the city")
    outer_kinds = [k for k in rules.sink_order if k != rules.centre_kind
                   for _ in range(rules.tiles_per_kind[k])]
    outer_kinds = chance.public.shuffle(outer_kinds, "island arrangement: the outer tiles")
    s.tiles = {}
    for h in hexmap.hexes("island"):
        s.tiles[h] = rules.centre_kind if h in centre else None
    for h, k in zip(outer, outer_kinds):
        s.tiles[h] = k
    s.city = city
    for role in roles:
        for i in range(1, rules.per_player + 1):
            pid = f"{role}{i}"
            s.people[pid] = Person(pid, role)
        s.kept[role] = []
        s.kept_count[role] = 0
        s.standing[role] = {tile: False for tile in STANDING_TILES}
        s.seen[role] = {}
        s.sank[role] = {}
    by_kind = {k: [h for h in s.tiles if s.tiles[h] == k] for k in rules.sink_order}
    t.say("setup", f"Seats in turn order: {', '.join(roles)}. Options: "
          f"{', '.join(f'{k}={v}' for k, v in sorted(options.items()))}.",
          seats=roles, options=dict(options))
    t.say("island", f"The island: the city stands at {city}; "
          + "; ".join(f"{k} tiles at {', '.join(v)}" for k, v in by_kind.items()) + ".",
          city=city, tiles=dict(s.tiles))
    t.say("hidden", "The symbols under the tiles will be dealt face down by the hidden dice "
          "when the placement orders are in (their nonces key the hidden dice, so nobody can "
          "steer the deal): nobody knows them. Each player places their own numbered people "
          "knowing the numbers (people HEX=VALUE; values not placed so are dealt by the hidden "
          "dice); after placement the values are hidden from everyone, their owners included, "
          "except while the owner moves that person (Preparing to Play 2).")
    return s, t.events


def deal_hidden(s: State, chance: Chance) -> None:
    """Deal the hidden facts: the symbols under each kind of tile (Preparing to Play 1: the
    tiles are laid "without looking at the symbols underneath"), then a random order of each
    role's values, by shuffles of ``chance.hidden``. Done when the placement window resolves,
    so the hidden stream is keyed with the players' nonces (docs/dice.md). The values dealt
    here are only the default: a player who says which value goes where (``people HEX=VALUE``,
    Preparing to Play 2) overrides them (:func:`~.placement.assign_values`)."""
    rules = s.rules
    for kind in rules.sink_order:
        hexes = [h for h in s.tiles if s.tiles[h] == kind]
        symbols = [sym for sym in SYMBOLS for _ in range(rules.manifest.get(sym, {}).get(kind, 0))]
        if (kind == rules.centre_kind and rules.volcano_under_city and "volcano" in symbols):
            symbols.remove("volcano")
            hexes.remove(s.city)
            s.symbols[s.city] = "volcano"
        symbols = chance.hidden.shuffle(symbols, f"symbols under the {kind} tiles")
        for h, sym in zip(hexes, symbols):
            s.symbols[h] = sym
    for role in s.seats:
        values = chance.hidden.shuffle(list(rules.values), f"values under {role}'s people")
        for i, v in enumerate(values, start=1):
            s.values[f"{role}{i}"] = v


# -- windows ----------------------------------------------------------------------------------

def window(s: State) -> Window | None:
    """Who owes orders now (README, "Windows"); None once the game is over."""
    if s.stage == "over":
        return None
    if s.stage == "placement":
        return Window(0, "setup", tuple(s.seats), (),
                      {r: list(PLACEMENT_VERBS) for r in s.seats}, False, True,
                      "Placement (Preparing to Play 2-4)")
    others = tuple(r for r in s.seats if r != s.phasing)
    if s.stage == "turn":
        verbs = {s.phasing: list(TURN_VERBS)}
        verbs.update({r: ["standing"] for r in others})
        return Window(s.turn, s.phasing, (s.phasing,), others, verbs, False, False,
                      f"Turn {s.turn}: {s.phasing}'s player-turn")
    verbs = {s.phasing: list(CREATURE_VERBS)}
    verbs.update({r: ["standing"] for r in others})
    face = s.pending["face"] if s.pending else "?"
    return Window(s.turn, f"{s.phasing}-creature", (s.phasing,), others, verbs, True, False,
                  f"Turn {s.turn}: {s.phasing}'s creature move (the die shows {face})")


def cond_kinds(rules: Rules, cond: str) -> tuple | None:
    """The creature kinds an ``if`` condition allows: a face's kinds for a face name (its kinds
    in any order, each once or more: ``shark-or-monster`` is the face ``monster-or-shark``,
    ``shark-or-shark`` the face ``shark``), the kind itself for a kind shown on some face, None
    for neither."""
    wanted = set(cond.split("-or-"))
    for face in rules.faces:
        if set(face) == wanted:
            return face
    if len(wanted) == 1 and any(cond in face for face in rules.faces):
        return (cond,)
    return None


def _matching(conds: list, face: tuple) -> list:
    """The conditional lines for a roll showing ``face``: lines naming that face first, then
    lines naming one kind it shows, each group in the order written (README)."""
    whole = [o for o in conds if set(o.args["cond"].split("-or-")) == set(face)]
    taken = {id(o) for o in whole}        # by identity: linear in the number of lines
    kinds = [o for o in conds if id(o) not in taken and o.args["cond"] in face]
    return whole + kinds


def _add(problems: dict, role: str, p: Problem | None) -> None:
    if p is not None:
        problems.setdefault(role, []).append(p)


def _apply_standing(t: Table, orders_by_role: dict) -> None:
    s = t.s
    for role in s.seats:
        for o in orders_by_role.get(role) or []:
            if o.verb == "standing":
                s.standing.setdefault(role, {})[o.args["tile"]] = o.args["on"]
                state = "on" if o.args["on"] else "off"
                t.say("standing", f"Your standing order for {o.args['tile']} is now {state}.",
                      (role,), tile=o.args["tile"], on=o.args["on"])


def _advance(t: Table) -> None:
    s = t.s
    i = s.seats.index(s.phasing)
    nxt = (i + 1) % len(s.seats)
    if nxt == 0:
        s.turn += 1
    s.phasing = s.seats[nxt]
    s.stage = "turn"
    s.pending = None
    s.held = []
    t.say("next", f"Turn {s.turn}: {s.phasing}'s player-turn.", turn=s.turn, role=s.phasing)


# -- the player-turn --------------------------------------------------------------------------

def _random_sink(t: Table, role: str, chance: Chance, why: str) -> None:
    s = t.s
    allowed = s.sinkable()
    if not allowed:
        t.say("no-sink", f"No tile can sink: {role} sinks nothing.", role=role)
        return
    h = pick(chance.public, allowed, f"{role}: tile to sink chosen at random ({why})")
    t.sink(role, h, f" (chosen by the die: {why})")
    t.check_end()


def _creature_step(t: Table, role: str, conds: list, chance: Chance, problems: dict) -> None:
    """The creature die (Dice) and the conditional creature orders (README)."""
    s = t.s
    rules = s.rules
    roll = chance.public.roll(len(rules.faces), f"{role}'s creature die, turn {s.turn}")
    face, name = rules.faces[roll - 1], rules.face_names[roll - 1]
    s.die = {"role": role, "turn": s.turn, "roll": roll, "face": name}
    t.say("die", f"{role} rolls {roll} on the creature die: {name.replace('-', ' ')}.",
          role=role, roll=roll, face=name)
    if not any(piece_kind(c) in face for c in s.creatures):
        t.say("no-creature", f"No {' or '.join(face)} is on the board: no creature moves.")
        return
    matched = _matching(conds, face)
    held = [c for c in s.creatures if piece_kind(c) in face and c in s.held]
    if not matched and len(held) == sum(1 for c in s.creatures if piece_kind(c) in face):
        t.say("no-creature", f"{names(held)} {is_are(len(held))} held on a nearly safe space "
              f"until the next turn (The Safe Islands): no creature moves.", role=role)
        return
    if not matched:
        s.stage = "creature"
        s.pending = {"face": name, "roll": roll}
        t.say("creature-window", f"{role} gave no creature order for {name}: {role} sends one "
              f"in a short window of its own (creature ... or creature stay).", role=role,
              face=name)
        return
    for o in matched:
        prob = creature_problem(s, o, cond_kinds(rules, o.args["cond"]) or face)
        if prob:
            _add(problems, role, prob)
            continue
        creature_move(t, role, o, "")
        t.check_end()
        return
    t.say("no-creature", f"None of {role}'s creature orders for {name} can be carried out: no "
          f"creature moves.", role=role)


def resolve_turn(s: State, orders_by_role: dict, chance: Chance) -> Resolution:
    """One player-turn (The Play): kept tiles played, movement, the sink, the creature die;
    standing orders of every role first. NMR: the die sinks a tile, nothing else happens."""
    t = Table(s)
    problems: dict = {}
    role = s.phasing
    _apply_standing(t, orders_by_role)
    for other, orders in orders_by_role.items():
        if other != role:
            for o in orders or []:
                if o.verb != "standing":
                    _add(problems, other, problem(o, R_PLAY, f"it is {role}'s turn: only standing "
                                                             f"orders count now"))
    try:
        orders = orders_by_role.get(role)
        if orders is None:
            t.say("nmr", f"{role} sent no orders: no tile is played, nothing moves, the die "
                  f"chooses the tile to sink, and no creature moves.", role=role)
            _random_sink(t, role, chance, "no orders")
            _advance(t)
            return Resolution(t.events, problems)
        turn = Turn.begin(s, role)
        for o in orders:
            if o.verb == "play":
                _add(problems, role, play(t, turn, o))
                t.check_end()
        for o in orders:
            if o.verb in MOVES:
                _add(problems, role, MOVES[o.verb](t, turn, o))
                t.check_end()
        sinks = [o for o in orders if o.verb == "sink"]
        done = False
        allowed = s.sinkable() if sinks else []
        for o in sinks:
            if done:
                _add(problems, role, problem(o, R_SINK, "only one tile sinks per turn: this "
                                                        "order is ignored"))
                continue
            prob = sink_problem(s, o, allowed)
            if prob:
                _add(problems, role, prob)
                continue
            done = True
            t.sink(role, o.args["hex"])
            t.check_end()
        if not done:
            _random_sink(t, role, chance, "no legal sink order")
        _creature_step(t, role, [o for o in orders if o.verb == "if"], chance, problems)
        if s.stage == "turn":
            _advance(t)
    except GameOver:
        pass
    return Resolution(t.events, problems)


def resolve_creature(s: State, orders_by_role: dict, chance: Chance) -> Resolution:
    """The short creature window: the phasing player's ``creature`` orders are tried in order,
    the first legal one is carried out; none (or no orders): no creature moves."""
    t = Table(s)
    problems: dict = {}
    role = s.phasing
    _apply_standing(t, orders_by_role)
    rules = s.rules
    name = s.pending["face"]
    face = rules.faces[rules.face_names.index(name)]
    try:
        orders = orders_by_role.get(role)
        lines = [o for o in orders or [] if o.verb == "creature"]
        if not lines:
            t.say("nmr", f"{role} sent no creature order: no creature moves.", role=role)
        else:
            for o in lines:
                prob = creature_problem(s, o, face)
                if prob:
                    _add(problems, role, prob)
                    continue
                s.pending = None
                creature_move(t, role, o, "")
                t.check_end()
                break
            else:
                t.say("no-creature", f"None of {role}'s creature orders can be carried out: no "
                      f"creature moves.", role=role)
        _advance(t)
    except GameOver:
        pass
    return Resolution(t.events, problems)


# -- checking orders when they arrive ---------------------------------------------------------

def check_turn(s: State, role: str, orders: list) -> list:
    """Problems with the phasing player's turn orders, found by carrying them out on ``s`` (a
    state holding only what ``role`` knows: see :func:`~pbem.games.atlantis.state.partial`) as
    far as public information allows: tiles played, moves, whether the sink is legal after
    them, and each conditional creature order's kind, path and distance after the sink (the
    symbol under it unknown)."""
    out: list = []
    if role != s.phasing:
        return out
    t = Table(s, simulate=True)
    turn = Turn.begin(s, role)
    rules = s.rules
    try:
        for o in orders:
            if o.verb == "play":
                _add_list(out, play(t, turn, o))
        for o in orders:
            if o.verb in MOVES:
                _add_list(out, MOVES[o.verb](t, turn, o))
                t.check_end()
        sinks = [o for o in orders if o.verb == "sink"]
        if not sinks:
            out.append(Problem(None, "", R_SINK, "no sink order: the die will choose the tile "
                                                 "to sink"))
        done = False
        allowed = s.sinkable() if sinks else []
        for o in sinks:
            if done:
                out.append(problem(o, R_SINK, "only one tile sinks per turn: this order is "
                                              "ignored"))
                continue
            prob = sink_problem(s, o, allowed)
            if prob:
                out.append(prob)
                continue
            done = True
            t.sink(role, o.args["hex"])
    except GameOver:
        return out
    for o in orders:
        if o.verb != "if":
            continue
        kinds = cond_kinds(rules, o.args["cond"])
        if kinds is None:
            out.append(problem(o, R_DICE, f"no face of the creature die shows "
                                          f"{o.args['cond']}: the faces are "
                                          f"{', '.join(rules.face_names)}"))
            continue
        _add_list(out, creature_problem(s, o, kinds))
    return out


def _add_list(out: list, p: Problem | None) -> None:
    if p is not None:
        out.append(p)


def check_creature(s: State, role: str, orders: list) -> list:
    """Problems with ``creature`` orders against the current position and the face rolled."""
    if role != s.phasing or not s.pending:
        return []
    rules = s.rules
    face = rules.faces[rules.face_names.index(s.pending["face"])]
    out = []
    for o in orders:
        if o.verb == "creature":
            _add_list(out, creature_problem(s, o, face))
    return out
