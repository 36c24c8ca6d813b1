"""Escape from Atalix, Scenario 1: Cave Fever (rulebook, "SCENARIO 1: CAVE FEVER": Chapters 1
to 4, Mission Control's plans, the alternatives and the transport rules of Chapter 4).

State. ``state.chapter``: ``{"chapter": 1..4, "path": "plan"|"alternative", "locked": bool,
"cave_base": bool, "alien_hits_round": n, "damage_start": n}``; ``state.equipment``:
``{"solar": [4 locations], "ship": loc, "roof": loc, "carried": {item: role}, "on": {item:
active card}}``, a location being a hex, ``"card"`` (on its project card: Scenario 1's setup
puts the discs, the ship and the roof there) or ``"carried"``. The items are ``solar-1`` ..
``solar-4`` (the black discs, in the order built), ``ship`` and ``roof``.

Readings (the rulebook leaves them open; tests/test_atalix_scenario1.py cites each):

- The path. The team follows Mission Control's plan unless a ``path alternative`` order is
  given; ``path`` orders are read in every window, by the rule of the build proposals (the
  first player's, else the next player's round the table who sent one; that player's last
  line). Each chapter begins on the plan, except: Chapter 1's alternative ("Begin collecting
  weapons") sets no goal, so choosing it ends Chapter 1 and Chapter 2 begins on its
  alternative; Chapter 3's alternative is final ("there is no turning back") and puts the ship
  token on the center when it is not on the board ("Use the ship token to represent this Hab
  System": the one in the ship); Chapter 4 follows Chapter 3's path. In Chapter 2 either way
  defeats the alien (both are checked; the path records the team's intent).
- When. "This is the only time when projects may be completed" (Build Projects), and Chapter
  2's alien falls at the end "of a round of turns": every chapter is checked at the end of a
  round, when the team takes stock (the rulebook does not say when for the others): Chapters 2
  and 4 when the turns end (before the pawns go back to base and the events), Chapters 1 and 3
  then and again after Build Projects.
- Chapter 1: a disc on a space adjacent to the center. A disc built is placed by the ``place
  solar HEX`` lines of the round's last window (every player's, from the first player round
  the table, one line for each disc built, the space adjacent to the center: Chapter 1's rule,
  kept for every disc), by default on the first space adjacent to the center in label order
  holding no disc (all holding one: the first). The ship (Ship Phaser) and the roof (Hab
  System) go on the center when built ("in the middle of the map"; "on the center").
- Chapter 2: the plan's three conditions when the turns end (a disc adjacent to the ship, on
  a space with no storm token; the alien adjacent to the ship); the alternative's hits "within
  a single round": ``world["alien_damage"]`` less its value when the round began, 4 or more
  for 1-2 players, 6 for 3-4. Defeated, the alien leaves the board (``world["alien"] = None``).
- Chapter 3: the Hab System built (plan) or the ship token on a cave space (alternative); with
  three or more players at least two Solar Arrays built (Chapter 1's "and at least one
  additional"). After the alternative, "the cave will become your new base": the pawns return
  to the ship token's cave space (the first cave space when the ship is elsewhere). Damage
  still sends a pawn to the center (actions.py).
- Chapter 4 (the win: every player scores 1). The requisite number of discs is 1, 2 with three
  or more players (Chapter 3's count). Plan: the roof "within the cave itself" (any of its
  three spaces: "The cave begins on the dark gray board space with the number 3 and 4 bars"),
  every pawn in the cave, the requisite discs built and every disc outside the cave and
  adjacent to the roof's space. Alternative: the requisite discs adjacent to the ship's space
  ("All players return to the cave at the end of the round": no pawn condition).
- Transport: ``carry ITEM [CARD]``, ``drop ITEM``, ``give ITEM ROLE`` among the Action Phase
  lines, costing no action, from Chapter 3 on (its alternative and Chapter 4 need it); the
  ship token only on the alternative. The item goes on the active card named, else the first
  holding none, else the first; that card's abilities not yet used this turn are lost, and the
  card is left out of the Planning Phase while the item is on it. "They can choose to leave the
  equipment where it was" is the default, with no order to take it along: a carrier sent to
  the center by damage leaves it on the space where the damage was taken, and at the end of a
  round every carried item stays on its carrier's space.
- The same transport serves the stand-in Scenarios 2 and 3 (:mod:`.scenario2`'s ``part-N``,
  :mod:`.scenario3`'s ``beacon``): their setup begins ``equipment["carried"]``
  (:func:`carrying`), and :func:`where` reads ``part-N`` in ``equipment["parts"]`` as it reads
  ``solar-N`` in ``equipment["solar"]``; Scenario 1's chapter rules bind only Scenario 1.
"""

from __future__ import annotations

from pbem.engine.ruleset import Problem

from .actions import Turn
from .proposals import place_problem

SOLAR = tuple(f"solar-{n}" for n in range(1, 5))
ITEMS = (*SOLAR, "ship", "roof")
TRANSPORT_VERBS = ("carry", "drop", "give")
TRANSPORT, PLACE, PATH = ("Scenario 1, Chapter 4 (transport)", "Scenario 1, Chapter 1",
                          "Scenario 1 (alternatives)")
HITS = {1: 4, 2: 4, 3: 6, 4: 6}
"""Chapter 2's alternative: hits in one round by player count."""


class _No(Exception):
    """A transport line that cannot be carried out."""


def on(s) -> bool:
    """True when ``s`` plays Scenario 1 (its chapter state begun by :func:`start`)."""
    return s.options.get("scenario") == 1 and bool(s.chapter)


def start(s) -> None:
    """Scenario 1's setup: the discs, the ship and the roof on their project cards; Chapter 1
    on Mission Control's plan. Nothing for another scenario."""
    if s.options.get("scenario") != 1:
        return
    s.equipment.update(solar=["card"] * len(SOLAR), ship="card", roof="card", carried={}, on={})
    s.chapter = {"chapter": 1, "path": "plan", "locked": False, "cave_base": False,
                 "alien_hits_round": 0, "damage_start": 0}


def carrying(s) -> bool:
    """True when ``s`` has equipment to transport (any scenario whose setup began
    ``equipment["carried"]``: Scenario 1, and the stand-in Scenarios 2 and 3)."""
    return "carried" in s.equipment


_LISTS = {"solar": "solar", "part": "parts"}
"""Numbered items kept in a list of locations: ``solar-N`` (Scenario 1's discs), ``part-N``
(Scenario 2's rover parts, :mod:`.scenario2`)."""


def _slot(item: str) -> tuple:
    kind, _, n = item.rpartition("-")
    return (_LISTS[kind], int(n) - 1) if kind in _LISTS and n.isdigit() else (item, None)


def where(s, item: str) -> str:
    """The location of ``item`` (a hex, ``"card"`` or ``"carried"``)."""
    key, i = _slot(item)
    return s.equipment[key] if i is None else s.equipment[key][i]


def _put(s, item: str, loc: str) -> None:
    key, i = _slot(item)
    if i is None:
        s.equipment[key] = loc
    else:
        s.equipment[key][i] = loc


def discs(s) -> list:
    """The hexes of the discs on the board (one entry per disc)."""
    return [h for h in s.equipment.get("solar", []) if h not in ("card", "carried")]


def requisite(s) -> int:
    """Discs needed: Chapter 1's, and one more with three or more players (Chapter 3)."""
    return 2 if len(s.seats) >= 3 else 1


def base(s, board) -> str:
    """Where the pawns return at the end of a round: the center, or after Chapter 3's
    alternative the ship token's cave space (the first cave space when it is elsewhere)."""
    if on(s) and s.chapter.get("cave_base"):
        ship = s.equipment["ship"]
        return ship if ship in board.cave else board.cave[0]
    return board.center


def _cards_of(s, role: str) -> set:
    eq = s.equipment
    return {eq["on"][i] for i, r in eq.get("carried", {}).items() if r == role}


def free_active(s, role: str) -> list:
    """``role``'s active cards carrying no equipment (those resolved in the Planning Phase)."""
    held = _cards_of(s, role) if carrying(s) else set()
    return [c for c in s.players[role].active if c not in held]


def _block(turn: Turn, card: str) -> None:
    """The abilities of ``card`` not yet used this turn are lost (it carries equipment)."""
    for a in turn.plan.abilities:
        if a["card"] == card:
            key = (card, a["index"])
            turn.actions_left = max(0, turn.actions_left - turn.funds.get(key, 0))
            if key in turn.funds:
                turn.funds[key] = 0
            turn.used.add(key)


def _leave(s, role: str, hex_: str, why: str) -> list:
    """Every item ``role`` carries left on ``hex_``; the texts."""
    eq, out = s.equipment, []
    for item in [i for i, r in eq.get("carried", {}).items() if r == role]:
        _put(s, item, hex_)
        del eq["carried"][item], eq["on"][item]
        out.append(f"{role} leaves {item} on {hex_} ({why})")
    return out


class EquipmentTurn(Turn):
    """An Action Phase :class:`~.actions.Turn` that keeps Scenario 1's carried equipment: the
    cards carrying it lose their abilities, and a carrier sent to the center by damage leaves
    it where the damage was taken (module docstring, Transport)."""

    def __init__(self, state, role, plan, dice, hidden, board, **kw):
        super().__init__(state, role, plan, dice, hidden, board, **kw)
        if carrying(state):
            for card in _cards_of(state, role):
                _block(self, card)

    def _hurt(self, n: int, where_: str) -> bool:
        sent = super()._hurt(n, where_)
        if sent and carrying(self.state):
            self.events += _leave(self.state, self.role, where_, "sent to the center by damage")
        return sent

    def _push(self, to: str) -> None:
        before = dict(self.state.pawns)
        super()._push(to)
        center, carried = self.board.center, carrying(self.state)
        for role, hex_ in self.state.pawns.items():
            if carried and role != self.role and hex_ == center != before.get(role):
                self.events += _leave(self.state, role, to, "sent to the center by damage")


def transport(turn: Turn, line, verb: str, args: dict) -> bool:
    """Carry out a transport line (``carry``, ``drop``, ``give``; parsed ``args``) in ``turn``:
    True when done (a text in ``turn.events``), else a problem in ``turn.problems``."""
    return move_equipment(turn, line, verb, args, TRANSPORT, None if on(turn.state) else
                          "there is no equipment to transport outside Scenario 1")


def move_equipment(turn: Turn, line, verb: str, args: dict, rule: str,
                   why: str | None = None) -> bool:
    """A transport line carried out for any scenario (its own item checks done by the
    caller: ``why`` refuses the line): True when done (a text in ``turn.events``), else a
    problem under ``rule`` in ``turn.problems`` quoting the line."""
    words = " ".join([verb, *(str(v) for v in args.values() if v)])
    try:
        if why:
            raise _No(why)
        turn.events.append(_TRANSPORT[verb](turn, args))
    except _No as no:
        turn.problems.append((line, rule, f"{words!r}: {no}"))
        return False
    return True


def _carry(turn: Turn, args: dict) -> str:
    s, role, item = turn.state, turn.role, args["item"]
    ch = s.chapter if on(s) else {"chapter": 4, "path": "plan"}  # Scenario 1's chapters
    if ch["chapter"] < 3:
        raise _No(f"equipment is transported from Chapter 3 on (now Chapter {ch['chapter']})")
    if item == "ship" and ch["path"] != "alternative":
        raise _No("the ship token is transported only on Chapter 3's alternative")
    loc, here = where(s, item), turn.here
    if loc == "card":
        raise _No(f"{item} is still on its project card: it is on the board once built")
    if loc != here:
        holder = s.equipment["carried"].get(item)
        raise _No(f"{item} is {'carried by ' + holder if holder else 'on ' + loc}, not on "
                  f"your space {here}: \"a player's pawn must be on the same board space\"")
    card = args.get("card") or _card_for(s, role)
    if card not in s.players[role].active:
        raise _No(f"{card} is not one of your active cards: expected one of "
                  f"{', '.join(s.players[role].active)}")
    _put(s, item, "carried")
    s.equipment["carried"][item], s.equipment["on"][item] = role, card
    _block(turn, card)
    return f"{role} picks up {item} on {here}, on {card} (its abilities unusable)"


def _card_for(s, role: str) -> str:
    active, held = s.players[role].active, _cards_of(s, role)
    return next((c for c in active if c not in held), active[0])


def _drop(turn: Turn, args: dict) -> str:
    s, item = turn.state, args["item"]
    if s.equipment["carried"].get(item) != turn.role:
        raise _No(f"you do not carry {item}")
    _leave_one(s, item, turn.here)
    return f"{turn.role} drops {item} on {turn.here}"


def _leave_one(s, item: str, hex_: str) -> None:
    _put(s, item, hex_)
    del s.equipment["carried"][item], s.equipment["on"][item]


def _give(turn: Turn, args: dict) -> str:
    s, item, to = turn.state, args["item"], args["role"]
    if s.equipment["carried"].get(item) != turn.role:
        raise _No(f"you do not carry {item}")
    if to not in s.players or to == turn.role:
        raise _No(f"{to!r} is not another player: expected one of "
                  f"{', '.join(r for r in s.seats if r != turn.role)}")
    if s.pawns[to] != turn.here:
        raise _No(f"{to} is on {s.pawns[to]}, not on your space {turn.here}")
    card = _card_for(s, to)
    s.equipment["carried"][item], s.equipment["on"][item] = to, card
    return f"{turn.role} gives {item} to {to} (on {card})"


_TRANSPORT = {"carry": _carry, "drop": _drop, "give": _give}


# -- the path ---------------------------------------------------------------------------------
def choose_path(s, orders_by_role: dict, problems: dict | None = None) -> list:
    """The team's ``path plan|alternative`` orders of this window (module docstring, The path):
    changes ``s.chapter``; returns the texts. A refused choice is a Problem in
    ``problems[role]``."""
    said = next(((r, [o for o in orders_by_role.get(r) or [] if o.verb == "path"])
                 for r in s.order() if any(o.verb == "path" for o in orders_by_role.get(r) or [])),
                None)
    if said is None:
        return []
    role, o = said[0], said[1][-1]
    want, ch = o.args["path"], s.chapter
    why = ("there is no path to choose outside Scenario 1" if not on(s) else
           "Chapter 4 follows Chapter 3's path" if ch["chapter"] == 4 else
           "Chapter 3's alternative was chosen: \"there is no turning back\""
           if ch["locked"] and want == "plan" else None)
    if why:
        if problems is not None:
            problems.setdefault(role, []).append(Problem(o.line, o.text, PATH, why))
        return []
    if want == ch["path"]:
        return []
    ch["path"] = want
    if ch["chapter"] == 1 and want == "alternative":
        ch["chapter"] = 2
        text = (f"{role}: the team takes Chapter 1's alternative (weapons): Chapter 2 begins, "
                "on its alternative")
        return [text]
    if ch["chapter"] == 3 and want == "alternative":
        ch["locked"] = True
        if s.equipment["ship"] == "card":
            s.equipment["ship"] = s.board.group("center")[0]
        text = (f"{role}: the team takes Chapter 3's alternative: the ship token (the ship's "
                f"Hab System) is on {s.equipment['ship']}, to be transported to the cave")
        return [text]
    return [f"{role}: the team follows the {want} in Chapter {ch['chapter']}"]


# -- the end of a round -------------------------------------------------------------------------
def end_of_turns(s, board) -> list:
    """The end of a round's turns, before the pawns return: carried equipment left where its
    carriers stand, the hits of the round counted, the chapters checked (Chapter 4 may win:
    ``s.outcome`` set, ``s.stage`` "over"). Returns the texts; nothing outside Scenario 1."""
    if not on(s):
        return []
    out = []
    for role in s.seats:
        out += _leave(s, role, s.pawns[role], "the round ends")
    s.chapter["alien_hits_round"] = (s.world.get("alien_damage", 0)
                                     - s.chapter.get("damage_start", 0))
    return out + _advance(s, board, True)


def after_projects(s, board, built: list, orders_by_role: dict,
                   problems: dict | None = None) -> list:
    """After Build Projects: the tokens of the projects just ``built`` placed (module
    docstring, Chapter 1), the alien's damage noted for the next round, the chapters checked.
    Returns the texts; nothing outside Scenario 1."""
    if not on(s):
        return []
    out = _place(s, board, built, orders_by_role, problems)
    s.chapter["damage_start"] = s.world.get("alien_damage", 0)
    return out + _advance(s, board, False)


def _place(s, board, built: list, orders_by_role: dict, problems) -> list:
    lines = [(r, o) for r in s.order() for o in orders_by_role.get(r) or [] if o.verb == "place"]
    ring = sorted(board.neighbours(board.center))
    out = []
    for pid in built:
        if pid in ("ship-phaser", "hab-system"):
            item = "ship" if pid == "ship-phaser" else "roof"
            if where(s, item) == "card":
                _put(s, item, board.center)
                out.append(f"the {item} token is placed on the center {board.center}")
        if pid != "solar-array" or "card" not in s.equipment["solar"]:
            continue
        item = SOLAR[s.equipment["solar"].index("card")]
        hex_ = None
        while lines and hex_ is None:
            role, o = lines.pop(0)
            why = place_problem(s, o.args["hex"], o.args["item"])
            if why is None:
                hex_ = o.args["hex"]
            elif problems is not None:
                problems.setdefault(role, []).append(Problem(o.line, o.text, PLACE, why))
        if hex_ is None:
            hex_ = next((h for h in ring if h not in discs(s)), ring[0])
        _put(s, item, hex_)
        out.append(f"Solar Array disc {item} placed on {hex_}")
    for role, o in lines:
        if problems is not None:
            problems.setdefault(role, []).append(Problem(
                o.line, o.text, PLACE, "not used: no Solar Array built at this End of Round "
                "was left to place (each disc built takes the first good line, from the "
                "first player round the table)"))
    return out


def _advance(s, board, turns_ended: bool) -> list:
    """Check the current chapter, then the next, while one is completed."""
    out = []
    while s.stage != "over":
        ch = s.chapter
        done = _DONE[ch["chapter"]](s, board, turns_ended)
        if not done:
            break
        out.append(f"Chapter {ch['chapter']} completed: {done}")
        if ch["chapter"] == 4:
            s.finish(True, f"Scenario 1 completed: {done}")
            break
        if ch["chapter"] == 3 and ch["path"] == "alternative":
            ch["cave_base"] = True
        ch["chapter"] += 1
        if ch["chapter"] != 4:
            ch["path"] = "plan"
    return out


def _chapter1(s, board, _turns_ended) -> str | None:
    near = [h for h in discs(s) if board.hexmap.adjacent(h, board.center)]
    return f"a Solar Array on {near[0]}, adjacent to the center" if near else None


def _chapter2(s, board, turns_ended) -> str | None:
    if not turns_ended or s.world.get("alien") is None:
        return None
    alien, ship, hits = s.world["alien"], s.equipment["ship"], s.chapter["alien_hits_round"]
    adj = board.hexmap.adjacent
    powered = [h for h in discs(s) if ship in board.hexmap and adj(h, ship)
               and not s.world.get("storm", {}).get(h)]
    if powered and adj(alien, ship):
        why = (f"the Ship Phaser on {ship} fires: a solar array on {powered[0]} clear of storm, "
               f"the alien on {alien}")
    elif hits >= HITS[len(s.seats)]:
        why = f"{hits} Weapons hits this round (the alternative)"
    else:
        return None
    s.world.update(alien=None, alien_damage=0, alien_at_center=False)
    return why + ": the alien is defeated"


def _chapter3(s, board, _turns_ended) -> str | None:
    if len(s.seats) >= 3 and s.projects.count("solar-array") < 2:
        return None
    if s.chapter["path"] == "alternative":
        ship = s.equipment["ship"]
        return f"the ship's Hab System on {ship}, in the cave" if ship in board.cave else None
    return "the Hab System built, its roof on the center" if "hab-system" in s.projects else None


def _chapter4(s, board, turns_ended) -> str | None:
    if not turns_ended or s.projects.count("solar-array") < requisite(s):
        return None
    cave, adj = board.cave, board.hexmap.adjacent
    if s.chapter["path"] == "alternative":
        ship = s.equipment["ship"]
        near = [h for h in discs(s) if ship in cave and adj(h, ship)]
        return (f"{len(near)} solar arrays next to the Hab System (the ship token) on {ship}"
                if len(near) >= requisite(s) else None)
    roof, arrays = s.equipment["roof"], discs(s)
    if (roof in cave and all(s.pawns[r] in cave for r in s.seats)
            and len(arrays) == s.projects.count("solar-array")
            and all(h not in cave and adj(h, roof) for h in arrays)):
        return (f"the Hab System on {roof} in the cave, every solar array next to it, every "
                f"player in the cave: the crew escapes Atalix")
    return None


_DONE = {1: _chapter1, 2: _chapter2, 3: _chapter3, 4: _chapter4}
