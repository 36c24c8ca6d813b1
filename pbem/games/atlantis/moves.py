"""The phasing player's orders, one handler per verb: kept tiles, movement, the sink, the
creature move.

Each handler checks its order against the position as it stands when the order's turn comes,
and either returns a :class:`~pbem.engine.ruleset.Problem` (the order is skipped; nothing
changes) or carries it out on the :class:`~pbem.games.atlantis.table.Table`. The same handlers
serve ``check`` (on a state holding only what the role knows, ``simulate=True``) and
``resolve``.

Rules (rulebook sections): *People and/or Ships move*, *Land Movement*, *Swimming people*,
*Ship Movement*, *The Safe Islands*, *Part of the Island sinks*, *Dice*, *Dolphins*.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.engine.ruleset import Order, Problem

from .data import DIVES, KILLS, SYMBOL_NAMES
from .state import Person, State, piece_kind
from .table import Table, path_text

R_MOVE = "Atlantis: People and/or Ships move"
R_LAND = "Atlantis: Land Movement"
R_SWIM = "Atlantis: Swimming people"
R_SHIP = "Atlantis: Ship Movement"
R_SAFE = "Atlantis: The Safe Islands"
R_SINK = "Atlantis: Part of the Island sinks"
R_DICE = "Atlantis: Dice"
R_DOLPHIN = "Atlantis: Dolphins"


@dataclass
class Turn:
    """What one player-turn remembers while its orders are carried out.

    ``points``: movement points left (People and/or Ships move: 'up to a total of three
    spaces'); ``swam``: people who made their one move as a swimmer; ``dolphins``: dolphins
    that already moved with a swimmer; ``start_sea`` and ``start_ships``: where swimmers and
    ships were at the beginning of the turn (Swimming people: a swimmer boards a ship 'if they
    are on the same space at the beginning of a turn'); ``looked``: people whose value the owner
    has been shown this turn.
    """

    role: str
    points: int
    swam: set = field(default_factory=set)
    dolphins: set = field(default_factory=set)
    start_sea: dict = field(default_factory=dict)
    start_ships: dict = field(default_factory=dict)
    looked: set = field(default_factory=set)

    @classmethod
    def begin(cls, s: State, role: str) -> "Turn":
        """The turn of ``role`` beginning now."""
        return cls(role=role, points=s.rules.points,
                   start_sea={p.id: p.hex for p in s.people.values() if p.where == "sea"},
                   start_ships=dict(s.ships))


def problem(order: Order, rule: str, why: str) -> Problem:
    """A Problem for ``order``'s line, quoting it."""
    return Problem(order.line, order.text, rule, why)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _look(t: Table, turn: Turn, p: Person) -> None:
    if p.id not in turn.looked:
        turn.looked.add(p.id)
        t.reveal_value(p)


def _own_person(s: State, turn: Turn, order: Order, pid: str, rule: str):
    """``(person, None)`` if ``turn.role`` may move ``pid`` now, else ``(None, Problem)``."""
    p = s.people.get(pid)
    if p is None:
        return None, problem(order, rule, f"there is no person {pid!r}: people are named by role "
                                          f"and number, such as {turn.role}1 to "
                                          f"{turn.role}{s.rules.per_player}")
    if p.owner != turn.role:
        return None, problem(order, R_LAND, f"{pid} is {p.owner}'s: you can only move your own "
                                            f"people")
    if p.where == "dead":
        return None, problem(order, rule, f"{pid} is dead")
    if p.where == "safe":
        return None, problem(order, R_SAFE, f"{pid} is already safe on {p.hex}")
    if p.where == "box":
        return None, problem(order, rule, f"{pid} is not on the board")
    return p, None


def _points(order: Order, turn: Turn, cost: int) -> Problem | None:
    if cost > turn.points:
        return problem(order, R_MOVE, f"this needs {_plural(cost, 'movement point')} and "
                                      f"{turn.points} {'is' if turn.points == 1 else 'are'} left "
                                      f"(three spaces a turn in all)")
    return None


def _on_map(s: State, order: Order, rule: str, hexes) -> Problem | None:
    for h in hexes:
        if h not in s.hexmap:
            return problem(order, rule, f"hex {h} is off the map (columns 01-"
                                        f"{s.hexmap.columns:02d}, rows 01-{s.hexmap.rows:02d})")
    return None


def _from(s: State, p: Person) -> str:
    if p.where == "land":
        return f"the tile at {p.hex}"
    if p.where == "ship":
        return f"{p.ship} in {s.ships[p.ship]}"
    return f"the water at {p.hex}"


def _where(s: State, p: Person) -> str:
    if p.where == "land":
        return f"on the tile at {p.hex}"
    if p.where == "ship":
        return f"aboard {p.ship} in {s.ships[p.ship]}"
    return f"swimming in {p.hex}"


# -- movement -----------------------------------------------------------------------------------

def _starts_here(order: Order, rule: str, who: str, here: str, path: list) -> Problem | None:
    """A path that repeats the starting hex: say how paths are written (the hexes entered)."""
    if path and path[0] == here:
        rest = " ".join(path[1:]) or "HEX"
        verb = order.text.split()[0] if order.text.split() else order.verb
        return problem(order, rule, f"{who} is at {here}: a path lists the hexes entered, not the "
                                    f"starting hex ({verb} {who} {rest})")
    return None


def walk(t: Table, turn: Turn, order: Order) -> Problem | None:
    """``walk PERSON HEX [HEX...]``: a person on land walks from tile to tile, one point per
    tile entered, never onto a tile already holding the land capacity, even in passing
    (Land Movement: 'The maximum number of people per land space is 3')."""
    s = t.s
    p, prob = _own_person(s, turn, order, order.args["person"], R_LAND)
    if prob:
        return prob
    if p.where != "land":
        return problem(order, R_LAND, f"{p.id} is {_where(s, p)}, not on land: boat to land "
                                      f"movement is not allowed and swimmers never return to "
                                      f"land (use board, swim or ashore)")
    path = order.args["path"]
    prob = _on_map(s, order, R_LAND, path)
    if prob:
        return prob
    here = p.hex
    cap = s.rules.land_capacity
    prob = _starts_here(order, R_LAND, p.id, here, path)
    if prob:
        return prob
    for h in path:
        if not s.hexmap.adjacent(here, h):
            return problem(order, R_LAND, f"{h} is not next to {here}: a walk enters one "
                                          f"neighbouring tile at a time")
        if h not in s.tiles:
            what = "a safe island" if s.is_safe(h) else "sea"
            return problem(order, R_LAND, f"{h} is {what}, not an island tile: walk moves from "
                                          f"tile to tile (swim dives into the sea; people reach "
                                          f"a safe island with ashore from a nearly safe space)")
        if len(s.on_tile(h)) >= cap:
            return problem(order, R_LAND, f"the tile at {h} already holds {cap} people: the "
                                          f"maximum number of people per land space is {cap}")
        here = h
    prob = _points(order, turn, len(path))  # after the path: an illegal path is the clearer news
    if prob:
        return prob
    start = p.hex
    p.hex = path[-1]
    turn.points -= len(path)
    t.say("walk", f"{p.id} walks from {start} to {path_text(path)}.", role=turn.role,
          person=p.id, path=[start] + list(path))
    _look(t, turn, p)
    return None


def swim(t: Table, turn: Turn, order: Order) -> Problem | None:
    """``swim PERSON HEX [with DOLPHIN]``: dive from a tile into an adjacent sea hex, jump from
    a ship into its own hex or an adjacent sea hex, or swim to an adjacent sea hex; one point per
    hex, and that person's one move as a swimmer this turn (Swimming people: 'Jumping off a boat
    or land into the sea counts as a move - that person's one move that turn as a swimmer').
    A swimmer may take along a dolphin in its hex (Dolphins: 'A dolphin + swimmer combination may
    move together one space a turn during the movement phase'); a dive or a jump may not."""
    s = t.s
    p, prob = _own_person(s, turn, order, order.args["person"], R_SWIM)
    if prob:
        return prob
    if p.id in turn.swam:
        return problem(order, R_SWIM, f"{p.id} has already made its one move as a swimmer this "
                                      f"turn")
    path = order.args["path"]
    limit = s.rules.swim_spaces
    if len(path) > limit:
        return problem(order, R_SWIM, f"swimmers move only {_plural(limit, 'space')} per turn")
    prob = _on_map(s, order, R_SWIM, path) or _points(order, turn, len(path))
    if prob:
        return prob
    here = s.hex_of(p)
    for i, h in enumerate(path):
        if not s.is_sea(h):
            what = "a safe island (use ashore)" if s.is_safe(h) else "an island tile"
            return problem(order, R_SWIM, f"{h} is {what}: swimmers may never return to land")
        in_place = i == 0 and p.where == "ship" and h == here
        if not in_place and not s.hexmap.adjacent(here, h):
            return problem(order, R_SWIM, f"{h} is not next to {here}")
        here = h
    dolphin = order.args.get("dolphin")
    if dolphin:
        if p.where != "sea":
            return problem(order, R_DOLPHIN, f"only a swimmer takes a dolphin along: {p.id} is "
                                             f"{_where(s, p)}")
        if s.creatures.get(dolphin) is None or piece_kind(dolphin) != "dolphin":
            return problem(order, R_DOLPHIN, f"there is no {dolphin} on the board")
        if s.creatures[dolphin] != p.hex:
            return problem(order, R_DOLPHIN, f"{dolphin} is in {s.creatures[dolphin]}, not with "
                                             f"{p.id} in {p.hex}")
        if dolphin in s.held:
            return held_problem(s, order, dolphin)
        if dolphin in turn.dolphins:
            return problem(order, R_DOLPHIN, f"{dolphin} has already moved with a swimmer this "
                                             f"turn (one space a turn)")
    how = p.where
    start = (f"the tile at {p.hex}" if how == "land" else p.ship if how == "ship" else p.hex)
    origin = s.hex_of(p)
    turn.swam.add(p.id)
    if dolphin:
        turn.dolphins.add(dolphin)
    mark = len(t.events)
    entered = []
    for h in path:
        p.where, p.hex, p.ship = "sea", h, None
        turn.points -= 1
        entered.append(h)
        if dolphin:
            s.creatures[dolphin] = h
        t.settle()
        if p.where == "dead" or (dolphin and dolphin not in s.creatures):
            break
    along = f" with {dolphin}" if dolphin else ""
    if how == "sea":
        text = f"{p.id} swims from {start} to {path_text(entered)}{along}."
    else:
        verb = "dives from" if how == "land" else "jumps off"
        text = f"{p.id} {verb} {start} into the sea at {path_text(entered)}."
    t.say_at(mark, "swim", text, role=turn.role, person=p.id, start=start,
             path=[origin] + list(entered),
             dolphin=dolphin)
    _look(t, turn, p)
    return None


def board(t: Table, turn: Turn, order: Order) -> Problem | None:
    """``board PERSON HEX``: onto the ship in HEX, one point: from a land tile next to it or
    from a ship in a neighbouring space (Ship Movement: 'if the ship is directly beside an island
    tile with the person'; 'People can move from ship to ship if they happen to be in
    neighboring spaces'), or, for a swimmer, the ship in its own space if both were there at the
    beginning of the turn and the swimmer has not swum (Swimming people). A ship holds 3."""
    s = t.s
    p, prob = _own_person(s, turn, order, order.args["person"], R_SHIP)
    if prob:
        return prob
    h = order.args["hex"]
    prob = _on_map(s, order, R_SHIP, [h]) or _points(order, turn, 1)
    if prob:
        return prob
    sid = s.ship_at(h)
    if sid is None:
        return problem(order, R_SHIP, f"there is no ship in {h}")
    if p.where == "ship" and p.ship == sid:
        return problem(order, R_SHIP, f"{p.id} is already aboard {sid}")
    cap = s.rules.ship_capacity
    if len(s.passengers(sid)) >= cap:
        return problem(order, R_SHIP, f"{sid} is full: each ship has only {cap} spaces for "
                                      f"people")
    if p.where == "land":
        if not s.hexmap.adjacent(p.hex, h):
            return problem(order, R_SHIP, f"{sid} in {h} is not directly beside {p.id}'s tile at "
                                          f"{p.hex}")
    elif p.where == "ship":
        if not s.hexmap.adjacent(s.ships[p.ship], h):
            return problem(order, R_SHIP, f"{p.ship} in {s.ships[p.ship]} and {sid} in {h} are "
                                          f"not in neighbouring spaces")
    else:
        if p.id in turn.swam:
            return problem(order, R_SWIM, f"{p.id} has already made its one move as a swimmer "
                                          f"this turn")
        if (p.hex != h or turn.start_sea.get(p.id) != h or turn.start_ships.get(sid) != h):
            return problem(order, R_SWIM, f"a swimmer boards only a ship that was in its space "
                                          f"at the beginning of the turn: {p.id} is in {p.hex}, "
                                          f"{sid} in {h}")
    start = _from(s, p)
    origin = s.hex_of(p)
    mark = len(t.events)
    p.where, p.hex, p.ship = "ship", None, sid
    turn.points -= 1
    t.settle()
    t.say_at(mark, "board", f"{p.id} boards {sid} in {h} from {start}.",
             role=turn.role, person=p.id, ship=sid, hex=h, path=[origin, h])
    _look(t, turn, p)
    return None


def held_problem(s: State, order: Order, cid: str) -> Problem:
    """The problem for moving dolphin ``cid`` while it is held on its nearly safe space (The Safe
    Islands: 'the dolphin remains on the "nearly safe space". It may be moved away only on the
    next turn')."""
    return problem(order, R_SAFE, f"{cid} stays on the nearly safe space {s.creatures[cid]} until "
                                  f"the next turn: a swimmer went ashore from there this turn")


def ashore(t: Table, turn: Turn, order: Order) -> Problem | None:
    """``ashore PERSON SAFE``: a swimmer or passenger in a nearly safe space next to safe island
    SAFE goes ashore and is safe, one point (The Safe Islands: 'one more move will get him to
    safety onto an island'). A swimmer that swam this turn may not (one space per turn).

    A dolphin in the space a swimmer goes ashore from stays there until the next player-turn
    (The Safe Islands: 'If one of your swimmers as well as a dolphin reaches the "nearly safe
    space" and goes ashore, the dolphin remains on the "nearly safe space". It may be moved away
    only on the next turn. (Yours or another player's).'): it is added to ``State.held``, which
    the next player-turn clears."""
    s = t.s
    p, prob = _own_person(s, turn, order, order.args["person"], R_SAFE)
    if prob:
        return prob
    safe = order.args["hex"]
    prob = _on_map(s, order, R_SAFE, [safe]) or _points(order, turn, 1)
    if prob:
        return prob
    if not s.is_safe(safe):
        return problem(order, R_SAFE, f"{safe} is not a safe island (the safe islands: "
                                      f"{', '.join(s.hexmap.hexes('safe'))})")
    if p.where == "land":
        return problem(order, R_SAFE, f"{p.id} is on the tile at {p.hex}: people reach a safe "
                                      f"island from a nearly safe sea space, by ship or swimming")
    here = s.hex_of(p)
    if not s.nearly_safe(here, safe):
        return problem(order, R_SAFE, f"{p.id} is in {here}, which is not a nearly safe space "
                                      f"next to {safe}")
    if p.where == "sea" and p.id in turn.swam:
        return problem(order, R_SWIM, f"{p.id} swam this turn: swimmers may move only one space "
                                      f"per turn")
    start = _from(s, p)
    swimmer = p.where == "sea"
    mark = len(t.events)
    p.where, p.hex, p.ship = "safe", safe, None
    turn.points -= 1
    t.settle()
    t.say_at(mark, "ashore", f"{p.id} goes ashore from {start} onto the safe island at {safe} "
             f"and is safe.", role=turn.role, person=p.id, hex=safe, path=[here, safe])
    if swimmer:
        for cid in s.creatures_at(here):
            if piece_kind(cid) == "dolphin" and cid not in s.held:
                s.held.append(cid)
                t.say("held", f"{cid} stays on the nearly safe space {here} until the next turn.",
                      creature=cid, hex=here)
    _look(t, turn, p)
    return None


def sail(t: Table, turn: Turn, order: Order) -> Problem | None:
    """``sail SHIP HEX [HEX...]``: a ship moves through sea spaces with no other ship, one point
    per space (Ship Movement: 'Ships may not move into sea spaces if there is already another
    ship there'). An unmanned ship may be moved by anyone; a manned one only by a player owning
    the most people aboard, equal highest included. The move stops where the ship is destroyed
    or sunk (a sea monster or a kraken in a space it enters)."""
    s = t.s
    sid = order.args["ship"]
    if sid not in s.ships:
        return problem(order, R_SHIP, f"there is no {sid} on the board")
    crew = s.passengers(sid)
    if crew:
        count: dict[str, int] = {}
        for p in crew:
            count[p.owner] = count.get(p.owner, 0) + 1
        if count.get(turn.role, 0) < max(count.values()):
            aboard = ", ".join(f"{r} {n}" for r, n in sorted(count.items()))
            return problem(order, R_SHIP, f"only the players who own the most people on a manned "
                                          f"ship may move it: {sid} carries {aboard}")
    path = order.args["path"]
    prob = _on_map(s, order, R_SHIP, path) or _points(order, turn, len(path))
    if prob:
        return prob
    here = s.ships[sid]
    prob = _starts_here(order, R_SHIP, sid, here, path)
    if prob:
        return prob
    for h in path:
        if not s.hexmap.adjacent(here, h):
            return problem(order, R_SHIP, f"{h} is not next to {here}")
        if not s.is_sea(h):
            return problem(order, R_SHIP, f"{h} is not a sea space")
        other = s.ship_at(h)
        if other is not None and other != sid:
            return problem(order, R_SHIP, f"{other} is already in {h}")
        here = h
    start = s.ships[sid]
    mark = len(t.events)
    entered = []
    for h in path:
        s.ships[sid] = h
        turn.points -= 1
        entered.append(h)
        t.settle()
        if sid not in s.ships:
            break
    lost = "" if len(entered) == len(path) else " The rest of its move is lost."
    t.say_at(mark, "sail", f"{turn.role} sails {sid} from {start} to {path_text(entered)}."
             + lost, role=turn.role, ship=sid, path=[start] + entered)
    return None


MOVES = {"walk": walk, "swim": swim, "board": board, "ashore": ashore, "sail": sail}
"""Movement verbs and their handlers, carried out in the order written."""


# -- kept tiles -------------------------------------------------------------------------------

def play(t: Table, turn: Turn, order: Order) -> Problem | None:
    """``play TILE CREATURE [HEX]``: a kept tile, at the start of the turn (Part of the Island
    sinks): a dives tile moves one creature of its kind to an empty sea space (no piece of any
    kind there); Kill a shark and Kraken killed remove one shark or kraken."""
    s = t.s
    tile, cid = order.args["tile"], order.args["creature"]
    if tile not in s.kept.get(turn.role, []):
        return problem(order, R_SINK, f"you hold no {SYMBOL_NAMES[tile]} tile")
    kind = DIVES.get(tile) or KILLS.get(tile)
    if cid not in s.creatures or piece_kind(cid) != kind:
        return problem(order, R_SINK, f"there is no {cid} on the board: {SYMBOL_NAMES[tile]} "
                                      f"acts on a {kind}")
    if tile in DIVES:
        h = order.args["hex"]
        prob = _on_map(s, order, R_SINK, [h])
        if prob:
            return prob
        if not s.is_sea(h):
            return problem(order, R_SINK, f"{h} is not a sea space")
        if not s.empty(h):
            return problem(order, R_SINK, f"{h} is not empty: a creature dives to an empty sea "
                                          f"space")
    s.kept[turn.role].remove(tile)
    s.kept_count[turn.role] = s.kept_count.get(turn.role, 0) - 1
    if tile in DIVES:
        start = s.creatures[cid]
        s.creatures[cid] = order.args["hex"]
        mark = len(t.events)
        t.settle()
        t.say_at(mark, "play", f"{turn.role} plays {SYMBOL_NAMES[tile]}: {cid} dives from "
                 f"{start} to {order.args['hex']}.", role=turn.role, tile=tile, creature=cid,
                 path=[start, order.args["hex"]])
    else:
        h = s.creatures.pop(cid)
        t.say("play", f"{turn.role} plays {SYMBOL_NAMES[tile]}: {cid} is removed from {h}.",
              role=turn.role, tile=tile, creature=cid, hex=h)
    return None


# -- the sink ---------------------------------------------------------------------------------

def sink_problem(s: State, order: Order, allowed: list | None = None) -> Problem | None:
    """Why ``sink HEX`` is not allowed now, or None (Part of the Island sinks: sand, then
    forest, then fortress; only a tile with at least one side next to the sea). ``allowed`` is
    ``s.sinkable()`` when the caller has it already (it is the same for every sink line of a
    turn until one sinks a tile)."""
    h = order.args["hex"]
    if h not in s.hexmap:
        return _on_map(s, order, R_SINK, [h])
    if h not in s.tiles:
        return problem(order, R_SINK, f"there is no island tile at {h}")
    if not s.touches_sea(h):
        return problem(order, R_SINK, f"the tile at {h} has no side next to the sea")
    if allowed is None:
        allowed = s.sinkable()
    if h not in allowed:
        kind = s.tiles[allowed[0]] if allowed else "none"
        return problem(order, R_SINK, f"the tile at {h} is {s.tiles[h]}, and a {kind} tile next "
                                      f"to the sea must sink first: {', '.join(allowed)}")
    return None


# -- the creature move ------------------------------------------------------------------------

def creature_problem(s: State, order: Order, allowed: tuple) -> Problem | None:
    """Why a creature move (``if COND: ...`` or ``creature ...``) may not be made, or None.
    ``allowed`` are the creature kinds the line may move (the face rolled, or the one kind its
    condition names). Dice: 'Move one of the indicated creatures'; each kind's max move in sea
    spaces; 'Sea creatures may move onto any sea spaces including those with other figures'; a
    dolphin held on a nearly safe space does not move this turn (The Safe Islands)."""
    cid = order.args.get("creature")
    if cid is None:
        return None
    kind = piece_kind(cid)
    if kind not in allowed:
        return problem(order, R_DICE, f"{cid} is a {kind}: this line moves a "
                                      f"{' or a '.join(allowed)}")
    if cid not in s.creatures:
        return problem(order, R_DICE, f"there is no {cid} on the board")
    if cid in s.held:
        return held_problem(s, order, cid)
    path = order.args["path"]
    limit = s.rules.max_move[kind]
    if len(path) > limit:
        return problem(order, R_DICE, f"a {kind} moves at most "
                                      f"{_plural(limit, 'sea space')}")
    prob = _on_map(s, order, R_DICE, path)
    if prob:
        return prob
    here = s.creatures[cid]
    for h in path:
        if not s.hexmap.adjacent(here, h):
            return problem(order, R_DICE, f"{h} is not next to {here}")
        if not s.is_sea(h):
            return problem(order, R_DICE, f"{h} is not a sea space: creatures move through sea "
                                          f"spaces only")
        here = h
    return None


def creature_move(t: Table, role: str, order: Order, how: str) -> None:
    """Carry out a creature move already found legal by :func:`creature_problem`."""
    cid = order.args.get("creature")
    if cid is None:
        t.stays(role)
    else:
        t.move_creature(role, cid, order.args["path"], how)
