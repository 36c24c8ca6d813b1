"""Escape from Atalix, Build Projects at the End of Round (rulebook, "Build Projects"; "Card
Setup: Project Cards"; "Terraform Tool Card"; Scenario 1, Chapter 1's note on the Solar Array).

"As a team decide whether you would like to spend your resources to complete any of the
projects at the bottom of the board ... This is the only time when projects may be completed."
By mail the team decides through its orders: the proposals are the ``build PROJECT`` lines of
the last window of the round (the set of turns that ended it).

The proposal rule (a team speaks with one voice; the rulebook gives no procedure):

- the first player's proposals count, in the order written; when the first player proposed
  nothing, the proposals of the next player round the table (left) who proposed any, and only
  that player's: two players proposing the same Solar Array do not build two;
- each proposal is built, in order, when the project is on the board (its scenario's number,
  or none: "Find the Project cards for your scenario ... Place the other project cards (any
  without numbers)"), not already built (the Solar Array is "the only project that may be
  completed more than once", at most 4 times: Scenario 1 puts "the four black discs on the
  Project Card called Solar Array") and the team can pay its fixed cost from ``world["team"]``
  ("The price of projects is not affected by the Card Cost Meter"); spent resources go back to
  the piles. A proposal that is not built is a problem of the line that proposed it.
- "Upon completing a project, immediately resolve the card's benefits": a project that
  ``gives`` a card (Terraforming: the Terraform Tool, "given to players after they complete the
  Terraforming project"; Scanner Array likewise) gives one of its cards to each player, in
  table order from the first player, onto the discard pile, while its cards last (4). Placing a
  Scenario 1 token (a Solar Array disc, the ship, the roof) is :mod:`.scenario1`'s; a scenario
  may forbid a project for its own reason (:func:`.scenarios.project_refusal`: the stand-in
  Rover Repair without its parts, Mining Deliveries past the target). A long-term
  project (the Atomic Recycler) is recorded: its effect is not transcribed (a stand-in: none).

Built projects are listed in ``state.projects`` in the order built (the Solar Array once for
each time).
"""

from __future__ import annotations

from pbem.engine.ruleset import Problem

from . import scenarios
from .abilities import listed

RULE = "Build Projects"
REPEATS = {"solar-array": 4}
"""The most times a ``repeatable`` project may be completed (Scenario 1 setup: four discs)."""


def available(data: dict, scenario: int) -> list:
    """The project ids on the board for ``scenario`` (1-3): those of that number and those of
    none (``scenario = 0`` in data.toml), in data order."""
    return [pid for pid, p in data["projects"].items() if p.get("scenario", 0) in (0, scenario)]


def proposals(orders_by_role: dict, order: list, s=None) -> tuple:
    """``(role, orders)``: the ``build`` orders that count (module docstring), from the first
    role of ``order`` (the Action Phase order, first player first) who sent any naming a
    project of the board (with ``s`` given: a misspelt or another scenario's project is no
    proposal, so it cannot silence the next player's); ``(None, [])`` when nobody
    proposed."""
    from .proposals import unknown_project
    for role in order:
        mine = [o for o in orders_by_role.get(role) or [] if o.verb == "build"
                and (s is None or unknown_project(s, o.args["project"]) is None)]
        if mine:
            return role, mine
    return None, []


def refusal(s, pid: str) -> str | None:
    """Why project ``pid`` cannot be completed now in state ``s``, or None when it can."""
    data = s.data["projects"]
    here = available(s.data, s.options.get("scenario", 1))
    if pid not in data:
        return f"no project {pid!r}: expected one of {', '.join(here)}"
    if pid not in here:
        return (f"{pid} is a project of scenario {data[pid]['scenario']}, not on the board in "
                f"scenario {s.options.get('scenario', 1)}: expected one of {', '.join(here)}")
    p, done = data[pid], s.projects.count(pid)
    if done and not p.get("repeatable"):
        return f"{pid} is already built: only the Solar Array may be completed more than once"
    if done >= REPEATS.get(pid, done + 1):
        return f"{pid} is built {done} times: no disc left on its card"
    why = scenarios.project_refusal(s, pid)  # Scenario 2's parts, Scenario 3's deliveries
    if why:
        return why
    team = s.world.get("team", {})
    short = {k: n - team.get(k, 0) for k, n in p["cost"].items() if team.get(k, 0) < n}
    if short:
        return (f"the team cannot pay {pid}'s {listed(p['cost'])}: it has "
                f"{listed(team) or 'nothing'} (short: {listed(short)})")
    return None


def build(s, pid: str) -> list:
    """Complete ``pid`` (checked with :func:`refusal` first): pay its cost, record it, give its
    cards. Returns the texts of what happened."""
    p = s.data["projects"][pid]
    team = s.world.setdefault("team", {})
    for k, n in p["cost"].items():
        team[k] = team.get(k, 0) - n
    s.projects.append(pid)
    texts = [f"the team completes {p['name']} for {listed(p['cost']) or 'nothing'}"]
    if p.get("gives"):
        texts.append(_give(s, p["gives"]))
    if p.get("long_term"):
        texts.append(f"{p['name']} is placed face up by the team's resources (its effect is "
                     f"not transcribed: none)")
    return texts


def _give(s, ctype: str) -> str:
    """One card of type ``ctype`` to each player from the first, while the cards last."""
    owned = {c for p in s.players.values() for c in p.cards()}
    left = [f"{ctype}-{n}" for n in range(1, s.data["cards"][ctype]["count"] + 1)
            if f"{ctype}-{n}" not in owned]
    given = []
    for role in s.order():
        if not left:
            break
        card = left.pop(0)
        s.players[role].gain(card)
        given.append(f"{card} to {role}")
    return f"{ctype} cards given: {', '.join(given) or 'none left'}"


def build_projects(s, orders_by_role: dict, problems: dict | None = None) -> tuple:
    """Build Projects (module docstring) over state ``s``: ``(built, texts)``, the project ids
    completed in order (``solar-array`` once for each) and the texts of what happened. A
    proposal not built adds a :class:`pbem.engine.ruleset.Problem` to ``problems[role]``."""
    from .proposals import unknown_project
    for r in s.order():
        for o in orders_by_role.get(r) or []:
            why = unknown_project(s, o.args["project"]) if o.verb == "build" else None
            if why and problems is not None:
                problems.setdefault(r, []).append(Problem(o.line, o.text, RULE, why))
    role, lines = proposals(orders_by_role, s.order(), s)
    if role is None:
        return [], []
    named = ", ".join(o.args["project"] for o in lines)
    built, texts = [], [f"the proposals of {role} count ({named})"]
    for o in lines:
        pid = o.args["project"]
        why = refusal(s, pid)
        if why:
            if problems is not None:
                problems.setdefault(role, []).append(Problem(o.line, o.text, RULE, why))
            texts.append(f"{pid} not built: {why}")
            continue
        texts += build(s, pid)
        built.append(pid)
    return built, texts
