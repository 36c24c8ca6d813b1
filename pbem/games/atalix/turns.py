"""Setup, the windows of a round and their resolution (rulebook, "Turns and Rounds", "End of
Round"; README.md).

| stage | window | what it carries out |
|---|---|---|
| ``setup`` | ``0.setup``, every player at once | the 2 starting cards chosen, the Active Card |
| ``plan`` | ``R.setS``, every player holding cards, at once | one set of turns (below) |

A set of turns: each player's Planning Phase (its own cards), then the Action Phase in
first-player order; after the last set of a round, the End of Round.

Every player's hand of 4 is drawn (hidden dice: the deck's order) when the window opens, so
the report that opens it shows each player its own hand. A player whose hand is empty when a
set begins has run out of cards ("If a player runs out of cards before other players, they
are unable to continue taking actions") and owes nothing; the round ends when nobody holds a
card.
"""

from __future__ import annotations

from pbem.engine.ruleset import Event, Resolution, Window

from . import events as ev
from . import projects, scenarios
from .board import Board
from .data import Rules
from .planning import choose_actives, named_type, plan_turn
from .proposals import setup_problems
from .setup import choose, new_game
from .state import State

ACTION_VERBS = ("move", "climb", "collect", "scavenge", "use")
PLAN_VERBS = ("play", "active", *ACTION_VERBS, *scenarios.TRANSPORT_VERBS, "build", "alien",
              "place", "path")
HAND = 4
"""Planning Phase: "Every player should start this phase by drawing 4 cards"."""


def setup(roles: list, options: dict, data: dict, board, chance) -> tuple[State, list]:
    """``(state, events)``: the game before the players' choices (:func:`.setup.new_game`)."""
    s = new_game(roles, options, data, board, chance)
    texts = scenarios.start(s, chance)
    b = Board.of(board)
    return s, [Event("setup", f"Escape from Atalix, scenario {options['scenario']}, "
                              f"difficulty {options['difficulty']} star(s), "
                              f"{len(roles)} player(s); {s.first_player()} is the first player "
                              f"(the lowest roll). The pawns start on the center {b.center}, the "
                              f"alien in the cave at {b.alien_start}, the storm at "
                              f"{b.storm_origin}.")] + [Event("setup", f"{t}.") for t in texts]


def owed(s: State) -> tuple:
    """The players holding cards in this set of turns, in seat order."""
    return tuple(r for r in s.seats if s.players[r].hand)


def window(s: State) -> Window | None:
    """Who owes orders now (module docstring); None once the game is over."""
    if s.stage == "over":
        return None
    if s.stage == "setup":
        return Window(0, "setup", tuple(s.seats), verbs={r: ["choose", "active"] for r in s.seats},
                      simultaneous=True, title="Setup: the starting cards and the Active Card")
    who = owed(s)
    return Window(s.round, f"set{s.set}", who, verbs={r: list(PLAN_VERBS) for r in who},
                  simultaneous=True, title=f"Round {s.round}, set of turns {s.set}: planning "
                                           f"and actions")


def _deal(s: State) -> None:
    """Each player with a draw deck draws up to 4 (Planning Phase)."""
    for p in s.players.values():
        p.draw(HAND)


def _setup_choices(s: State, orders_by_role: dict, chance) -> dict:
    wishes, actives = {}, {}
    for role, orders in orders_by_role.items():
        for o in orders or []:
            if o.verb == "choose":
                wishes.setdefault(role, []).extend(o.args["types"])
            elif o.verb == "active":
                actives[role] = named_type(o.args["card"])
    problems = {}
    for role, why in choose(s, wishes, actives, chance):
        problems.setdefault(role, []).append(why)
    return problems


def resolve(s: State, orders_by_role: dict, chance) -> Resolution:
    """Carry out the current window with ``chance`` and move the game on (module docstring).
    A role missing from ``orders_by_role`` sent nothing (NMR: no card played, no action)."""
    from pbem.engine.ruleset import Problem
    events: list = []
    problems: dict = {}
    if s.stage == "setup":
        for role, orders in orders_by_role.items():
            problems[role] = [Problem(line, _text(orders, line), rule, why) for line, rule, why
                              in setup_problems(s, role, orders or [])]
        for role, why in _setup_choices(s, orders_by_role, chance).items():
            problems.setdefault(role, []).extend(Problem(None, "", "Active Card", w)
                                                 for w in why)
        for role in s.seats:
            p = s.players[role]
            cards = sorted(p.cards())  # nothing played or discarded yet
            events.append(Event("setup", f"{role}'s starting cards: {', '.join(cards)}; "
                                         f"active card {', '.join(p.active)}"))
        s.set = 1
        _deal(s)
        events.append(Event("round", f"Round 1 begins; {s.first_player()} has the die."))
        return Resolution(events, problems)
    rules = Rules.from_data(s.data)
    board = Board.of(s.board)
    plans, lines = {}, {}
    events += [Event("chapter", t) for t in scenarios.choose_path(s, orders_by_role, problems)]
    for role in owed(s):
        orders = orders_by_role.get(role) or []
        events += [Event("active", f"{role}: {t}")
                   for t in choose_actives(s, role, orders, problems)]
        played = [(o.line, o.args["card"], o.args["abilities"]) for o in orders
                  if o.verb == "play"]
        plan = plan_turn(s.data["cards"], s.players[role], played,
                         research_level=rules.level_at(s.research),
                         active=scenarios.free_active(s, role))
        plans[role] = plan
        lines[role] = [o for o in orders
                       if o.verb in ACTION_VERBS + scenarios.TRANSPORT_VERBS]
        for line, rule, why in plan.problems:
            problems.setdefault(role, []).append(Problem(line, _text(orders, line), rule, why))
    for role in [r for r in s.order() if r in plans]:
        events.append(Event("plan", _planned(s, role, plans[role])))
    for role in [r for r in s.order() if r in plans]:
        turn = scenarios.new_turn(s, role, plans[role], chance.public, chance.hidden, board)
        for o in lines[role]:
            if o.verb in scenarios.TRANSPORT_VERBS:
                scenarios.transport(turn, o.line, o.verb, o.args)
            else:
                turn.carry_out(o.line, o.verb, _args(o))
        scenarios.end_of_turn(turn, chance.hidden)  # Scenarios 2 and 3: an encounter
        events += [Event("action", _by(role, t)) for t in turn.events]
        events += [Event("action", _by(role, t), (role,)) for t in turn.private]
        for line, rule, why in turn.problems:
            problems.setdefault(role, []).append(Problem(line, _text(orders_by_role[role], line),
                                                         rule, why))
    for p in s.players.values():
        for card in list(p.played):
            p.discard_played(card)
    if any(len(p.deck) for p in s.players.values()):
        s.set += 1
        _deal(s)
    else:
        end_of_round(s, board, orders_by_role, chance, events, problems)
    return Resolution(events, problems)


def _by(role: str, text: str) -> str:
    """An Action Phase text with its player named once in front."""
    return text if text.startswith(f"{role}:") else f"{role}: {text}"


def _planned(s: State, role: str, plan) -> str:
    """What the Action Phase reveals of ``role``'s Planning Phase: the cards played in order,
    the active cards and the basic actions they give."""
    played = ", ".join(plan.played) or "no card"
    return (f"{role} played {played} (active: {', '.join(s.players[role].active)}): "
            f"{plan.actions} basic action(s)")


def _args(o) -> list:
    if o.verb == "move":
        return list(o.args["path"])
    if o.verb == "climb":
        return [o.args["to"]]
    if o.verb == "scavenge":
        return [w for choice, resource in o.args["choices"] for w in (choice, resource) if w]
    if o.verb == "use":
        return [o.args["card"], str(o.args["index"]), *o.args["args"]]
    return []


def _text(orders: list, line) -> str:
    return next((o.text for o in orders or [] if o.line == line), "")


def end_of_round(s: State, board: Board, orders_by_role: dict, chance, events: list,
                 problems: dict | None = None) -> None:
    """End of Round, in the board's order: the scenario's checks as the turns end
    (:mod:`.scenarios`: Scenario 1's chapters, the stand-in Scenarios 2 and 3; a win ends the
    game here), pawns back to base, the event die and its events from the rolled number down,
    the round tracker, then the losses of Threats (the game ends there: no project is built
    after a loss), Build Projects (:mod:`.projects`, then the scenario's tokens and checks),
    the shuffle, the die passed left. Refused proposals go to ``problems`` (role ->
    Problems)."""
    events += [Event("chapter", t) for t in scenarios.end_of_turns(s, board)]
    if s.stage == "over":
        events.append(Event("end", f"The crew wins: {s.outcome['reason']}."))
        return
    for role in s.seats:
        s.pawns[role] = scenarios.base(s, board)
    world = ev.EndState.from_dict(s.world)
    rolled = chance.public.roll(6, f"round {s.round}: the event die")
    proposal = next((o.args["to"] for role in s.order() for o in orders_by_role.get(role) or []
                     if o.verb == "alien"), None)
    texts = ev.resolve_events(board, world, rolled, chance.public, alien_choice=proposal)
    events.append(Event("events", f"Round {s.round} ends: the event die shows {rolled}: "
                                  + "; ".join(texts) + "."))
    pos, tokens, lost = ev.advance_round(world.round_pos, s.data["round_track"], len(s.seats))
    world.round_pos = pos
    if tokens:
        events += [Event("storm", f"Advance Round Tracker (space {pos}): {t}")
                   for t in ev.place_on_origin(board, world, tokens)]
    world.distributed_this_round = False
    s.world = world.to_dict()
    why = ("the storm tokens ran out (Threats)" if world.storm_exhausted else
           "the alien reached the ship (Threats)" if world.alien_at_center else
           "time ran out: the round tracker reached the space of the player count (Threats)"
           if lost else None)
    if why:  # the game is lost at once: no project is built after it
        s.finish(False, why)
        events.append(Event("end", f"The crew fails: {why}."))
        return
    built, texts = projects.build_projects(s, orders_by_role, problems)
    texts += scenarios.after_projects(s, board, built, orders_by_role, problems)
    events += [Event("projects", t) for t in texts]
    for role in s.seats:
        s.players[role].refresh(chance.hidden, f"the draw deck of {role}")
    s.first = (s.first + 1) % len(s.seats)
    s.round += 1
    s.set = 1
    _deal(s)
    events.append(Event("round", f"Round {s.round} begins; {s.first_player()} has the die."))
