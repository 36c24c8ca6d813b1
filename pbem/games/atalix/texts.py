"""Escape from Atalix texts: the order template of each window and the setup report's list of
stand-ins."""

from __future__ import annotations

from pbem.engine import sourced

from .orders import VERBS
from .proposals import starting_types
from .turns import window

_HELP = {
    "choose": "Starting Deck: the 2 more starting card types you want, in order",
    "active": "Active Card: resolved every turn (default: your Oxygen card)",
    "play": "Planning Phase: a card of your hand, in order; numbers: the abilities used",
    "move": "Action Phase: up to 2 spaces, never up (Movement Restrictions)",
    "climb": "Action Phase: 1 space, 1 level up",
    "collect": "Action Phase: the cube on your space",
    "scavenge": "Action Phase: on a star space, the top upgrade card",
    "use": "Action Phase: an ability of a card you played (its number)",
    "build": "Build Projects: your proposal for the end of the round",
    "alien": "Events (2): the space the alien enters when paths are equal",
    "carry": "Scenarios: pick up equipment on your space onto an active card",
    "drop": "Scenarios: leave carried equipment on your space",
    "give": "Scenarios: hand carried equipment to a player on your space",
    "place": "Scenario 1: the space next to the center for a Solar Array built",
    "path": "Scenario 1: Mission Control's plan or the alternative",
}


_PLAN_HELP = {
    "active": "Research Track: one more active card from your hand, for each level reached "
              "with the Active Card symbol",
}
"""The help of a verb in a set of turns, where it differs from setup's."""


def template(s, role: str) -> str:
    """The comment lines ``role`` edits into orders for the current window: the verbs with
    their syntax and rule, the player's hand, active cards and pawn."""
    w = window(s)
    if w is None or role not in w.owed:
        return "# no orders are owed from you now\n"
    syntax, p = VERBS.syntax(), s.players[role]
    out = [f"# Escape from Atalix: {w.title}"]
    if s.stage == "setup":
        for verb in w.verbs.get(role, ()):
            out.append(f"#   {syntax[verb]}    ({_HELP[verb]})")
        out.append(f"# your starting cards so far: {' '.join(sorted(p.hand))}")
        out.append(f"# the types you may choose: {' '.join(starting_types(s))}")
        return "\n".join(out) + "\n"
    out.append("# plays first (in order), then your actions in the order written")
    for verb in w.verbs.get(role, ()):
        out.append(f"#   {syntax[verb]}    ({_PLAN_HELP.get(verb, _HELP[verb])})")
    out.append(f"# your hand: {' '.join(p.hand) or 'empty'}; active: "
               f"{' '.join(p.active) or 'none'}")
    out.append(f"# your pawn: {s.pawns[role]}; market: {' '.join(s.market.available())}")
    return "\n".join(out) + "\n"


def in_play(path: str, data: dict, scenario: int) -> bool:
    """Whether the data entry at ``path`` is part of a game of ``scenario``: a project or an
    encounter card of another scenario, the encounters outside Scenarios 2 and 3, and another
    scenario's own table (``scenario2``, ``scenario3``) are not (Card Setup: "Find the Project
    cards for your scenario"; "If you are doing scenario 2 or 3, shuffle the encounter
    cards")."""
    top, _, rest = path.partition(".")
    key = rest.split(".")[0]
    if top in ("projects", "encounters") and key in data.get(top, {}):
        if top == "encounters" and scenario == 1:
            return False
        return data[top][key].get("scenario", 0) in (0, scenario)
    if top in ("scenario2", "scenario3"):
        return top == f"scenario{scenario}"
    return True


def stand_ins(data: dict, options: dict, board) -> list:
    """The stand-ins and house rules in force for the setup report (the kit's list,
    pbem.engine.ruleset.Ruleset.stand_ins), less the entries of the scenarios not played
    (:func:`in_play`)."""
    out = []
    if getattr(board, "stand_in", False):
        where = getattr(board, "map_source", "")
        out.append(f"Map: {board.name}: {where}" if where else f"Map: {board.name}")
    scenario = int(options.get("scenario", 1))
    out.extend(sourced.show_entry(e) for e in sourced.walk_sources(data)
               if sourced.in_force(e.source) and in_play(e.path, data, scenario))
    return out

