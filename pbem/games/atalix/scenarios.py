"""Escape from Atalix, the scenario hooks: what :mod:`.turns` (and the dry run of
:mod:`.checking`, the bot of :mod:`.bots`, :mod:`.projects`) asks of the scenario played, sent
to :mod:`.scenario1` (Cave Fever), :mod:`.scenario2` (Rover, Rover: a stand-in) or
:mod:`.scenario3` (Mine for the Taking: a stand-in) by ``state.options["scenario"]``.

| hook | when (rulebook) | scenario 1 | scenarios 2 and 3 |
|---|---|---|---|
| :func:`start` | setup ("each scenario's own setup") | tokens on cards | + encounter deck |
| :func:`choose_path` | every set of turns | ``path`` orders | refused |
| :func:`free_active` | Planning Phase | active cards carrying nothing | the same |
| :func:`new_turn` | Action Phase | equipment turn | parts kept (2) |
| :func:`transport` | Action Phase lines | discs, ship, roof | ``part-N`` / ``beacon`` |
| :func:`end_of_turn` | a player's turn ends | nothing | an encounter may be met |
| :func:`end_of_turns` | a round's turns end | chapters; the win | unload; the win |
| :func:`base` | pawns to base | center or cave | center |
| :func:`after_projects` | Build Projects | tokens; chapters | rover / beacon |
| :func:`project_refusal` | Build Projects | none | parts / deliveries |
| :func:`bot_goals` | the random bot | none | lines and a target |
"""

from __future__ import annotations

from pbem.engine.ruleset import Problem

from . import encounters, scenario1, scenario2, scenario3
from .planning import card_type

TRANSPORT_VERBS = scenario1.TRANSPORT_VERBS
"""The scenario lines of the Action Phase (transport, no action): ``carry``, ``drop``,
``give``."""
_BY = {1: scenario1, 2: scenario2, 3: scenario3}


def number(s) -> int:
    """The scenario played, 1 to 3 (the ``scenario`` option; 1 when missing)."""
    return s.options.get("scenario", 1)


def start(s, chance) -> list:
    """The scenario's own setup on state ``s`` (Scenarios 2 and 3 shuffle the encounter deck on
    ``chance.hidden``); returns the texts for the setup report."""
    if number(s) == 1:
        scenario1.start(s)
        return []
    return _BY[number(s)].start(s, chance.hidden)


def choose_path(s, orders_by_role: dict, problems: dict | None = None) -> list:
    """The team's ``path`` orders (Scenario 1's alternatives; refused in another scenario)."""
    return scenario1.choose_path(s, orders_by_role, problems)


def free_active(s, role: str) -> list:
    """``role``'s active cards carrying no equipment (resolved in the Planning Phase)."""
    return scenario1.free_active(s, role)


def new_turn(s, role: str, plan, dice, hidden, board):
    """``role``'s Action Phase :class:`~.actions.Turn` for the scenario (the carrying rules),
    its ``began`` the pawn's space as it begins."""
    cls = scenario2.PartsTurn if number(s) == 2 else scenario1.EquipmentTurn
    turn = cls(s, role, plan, dice, hidden, board)
    turn.began = turn.here
    return turn


def transport(turn, line, verb: str, args: dict) -> bool:
    """A ``carry``/``drop``/``give`` line in ``turn``: True when done, else a problem in
    ``turn.problems`` quoting it."""
    return _BY[number(turn.state)].transport(turn, line, verb, args)


def end_of_turn(turn, hidden) -> list:
    """The end of a player's Action Phase turn: in Scenarios 2 and 3 the encounter the player
    may meet (:mod:`.encounters`, drawn from the deck ordered on the ``hidden`` stream). The
    texts are added to ``turn.events`` and returned."""
    if number(turn.state) == 1:
        return []
    find = scenario2.find_part if number(turn.state) == 2 else None
    return encounters.meet(turn, hidden, turn.board.center, find)


def end_of_turns(s, board) -> list:
    """The end of a round's turns, before the pawns return: the scenario's checks and its win
    (``s.stage`` "over"). Returns the texts."""
    return _BY[number(s)].end_of_turns(s, board)


def base(s, board) -> str:
    """Where the pawns return at the end of a round."""
    return scenario1.base(s, board) if number(s) == 1 else board.center


def after_projects(s, board, built: list, orders_by_role: dict,
                   problems: dict | None = None) -> list:
    """After Build Projects: the scenario's tokens and checks. ``place`` lines (Scenario 1's
    discs) are refused in another scenario. Returns the texts."""
    if number(s) != 1 and problems is not None:
        for role in s.order():
            for o in orders_by_role.get(role) or []:
                if o.verb == "place":
                    problems.setdefault(role, []).append(Problem(
                        o.line, o.text, "Scenario 1, Chapter 1",
                        f"there is no Solar Array disc to place in scenario {number(s)}"))
    return _BY[number(s)].after_projects(s, board, built, orders_by_role, problems)


def project_refusal(s, pid: str) -> str | None:
    """Why the scenario forbids completing project ``pid`` now (Scenario 2's Rover Repair
    without its parts, Scenario 3's deliveries once enough), or None."""
    mod = _BY[number(s)]
    return mod.project_refusal(s, pid) if hasattr(mod, "project_refusal") else None


# -- the random bot -------------------------------------------------------------------------------
def bot_goals(s, role: str, board) -> tuple:
    """``(lines, free)`` for the random bot (:mod:`.bots`) in Scenarios 2 and 3: the scenario's
    lines to try in order (each kept only when legal: a walk to a part and ``carry`` it, the
    beacon carried to high ground, every pawn to the rover), and whether the bot may still add
    random steps (False while it follows them). Scenario 1: ``([], True)``."""
    lines, free = _tasks(s, role, board)
    return _defend(s, role, board) + lines, free


def _defend(s, role: str, board) -> list:
    """Weapons against an alien two spaces or less from the ship: a walk to a space next to it
    on the ship's side (so that a second hit pushes it away from the ship), then the attacks of
    the Weapons cards in the hand (kept only when played). Nothing in Scenario 1."""
    alien, center = s.world.get("alien"), board.center
    weapons = [f"use {c} {i}" for c in s.players[role].hand
               for i, a in enumerate(s.data["cards"][card_type(c)]["abilities"])
               if a["what"] == "attack"]
    if number(s) == 1 or not weapons or alien is None or board.hexmap.distance(alien,
                                                                               center) > 2:
        return []
    far = board.hexmap.distance(alien, center)
    near = {n for n in board.neighbours(alien) if board.hexmap.distance(n, center) < far}
    walk, end = _walk(s, board, s.pawns[role], near)
    return walk + weapons if end else []


def _tasks(s, role: str, board) -> tuple:
    """The scenario's own lines and the freedom of random steps (:func:`bot_goals`)."""
    here, eq = s.pawns[role], s.equipment
    if number(s) == 2:
        if eq.get("rover", "card") != "card":
            return _walk(s, board, here, {eq["rover"]})[0], False  # board the rover
        loose = {h: f"part-{i + 1}" for i, h in enumerate(eq.get("parts", []))
                 if h in board.hexmap and h != board.center}
        lines = [f"carry {loose.pop(here)}"] if here in loose else []
        walk, end = _walk(s, board, here, set(loose))
        return (lines + walk + [f"carry {loose[end]}"], False) if end else (lines, not lines)
    if number(s) == 3:
        at = eq.get("beacon", "card")
        mine = eq["carried"].get("beacon") == role
        if at == "card" or scenario3.signalling(s, board) or (at == "carried" and not mine):
            return [], True
        lines, start = [], here
        if at != "carried":
            lines, end = _walk(s, board, here, {at})
            lines, start = lines + ["carry beacon"], at
        high = {h for h in board.spaces() if scenario3.high_ground(s, board, h)}
        return lines + _walk(s, board, start, high)[0] + ["drop beacon"], False
    return [], True


def _walk(s, board, start: str, goals: set) -> tuple:
    """``(lines, goal)``: the Move and Climb lines of a shortest walk from ``start`` to the
    nearest of ``goals`` (each step flat or down, or one level up; never into a storm token or
    the alien but at the goal), two flat steps a line; ``([], None)`` when none is reachable
    (``([], start)`` at a goal)."""
    info, storm = board.info, s.world.get("storm", {})
    paths = {frozenset(p) for p in s.paths}
    came = {start: None}
    frontier, end = [start], start if start in goals else None
    while frontier and end is None:
        nxt = []
        for h in frontier:
            for n in sorted(board.neighbours(h)):
                rise = info(n).elevation - info(h).elevation
                if n in came or (rise > 1 and frozenset((h, n)) not in paths):
                    continue
                if n not in goals and (storm.get(n) or n == s.world.get("alien")):
                    continue
                came[n] = h
                nxt.append(n)
                if n in goals and end is None:
                    end = n
        frontier = nxt
    if end is None:
        return [], None
    route = []
    while came[end] is not None:
        route.insert(0, (came[end], end))
        end = came[end]
    lines: list = []
    for a, b in route:
        up = info(b).elevation > info(a).elevation and frozenset((a, b)) not in paths
        if up:
            lines.append(f"climb {b}")
        elif lines and lines[-1].startswith("move ") and len(lines[-1].split()) == 2:
            lines[-1] += f" {b}"
        else:
            lines.append(f"move {b}")
    return lines, (route[-1][1] if route else start)
