"""Escape from Atalix: what a player's team proposals and setup choices say that can be judged
when the orders arrive (the receipt), before the window resolves. Rulebook sections "Starting
Deck", "Active Card", "Build Projects", "Events" (2) and Scenario 1, Chapter 1; the proposal
rule is the package README's ("Team decisions").

Each function returns ``[(line, section, why)]`` (the Problem made of it quotes the line). A
proposal judged here can still be refused when the round ends (the team short of resources,
another player's proposal counting first): those are the resolution's problems.
"""

from __future__ import annotations

from .board import Board
from .planning import named_type

START, ACTIVE = "Starting Deck", "Active Card"
PLACE, ALIEN = "Scenario 1, Chapter 1", "Events (2)"


def unknown_project(s, pid: str) -> str | None:
    """Why ``pid`` is no project of this game's board (not in data.toml, or another
    scenario's), or None (Card Setup: "Find the Project cards for your scenario")."""
    from .projects import available
    here = available(s.data, s.options.get("scenario", 1))
    if pid not in s.data["projects"]:
        return f"no project {pid!r}: expected one of {', '.join(here)}"
    if pid not in here:
        return (f"{pid} is a project of scenario {s.data['projects'][pid]['scenario']}, not on "
                f"the board in scenario {s.options.get('scenario', 1)}: expected one of "
                f"{', '.join(here)}")
    return None


def alien_step_problem(s, hex_: str) -> str | None:
    """Why ``alien HEX`` is not a first step of the alien's shortest paths to the center from
    where it stands now, or None (Event 2: "If multiple paths of equal length exist, players
    may choose")."""
    board, alien = Board.of(s.board), s.world.get("alien")
    if alien is None or alien == board.center:
        return "the alien is not on its way to the center: nothing to choose"
    firsts = sorted({p[0] for p in board.shortest_paths(alien, board.center)})
    if hex_ not in firsts:
        return (f"{hex_} is not a first step of the alien's shortest paths from {alien} now: "
                f"expected one of {', '.join(firsts)}")
    return None


def place_problem(s, hex_: str, item: str) -> str | None:
    """Why ``place solar HEX`` cannot place a Solar Array disc there, or None (Chapter 1: a
    disc "on a board space adjacent to the center")."""
    if s.options.get("scenario", 1) != 1:
        return "there is no Solar Array disc to place outside Scenario 1"
    board = Board.of(s.board)
    if not item.startswith("solar"):
        return f"{item} is not a disc: the ship and the roof go on the center"
    ring = sorted(board.neighbours(board.center))
    if hex_ not in ring:
        return (f"{hex_} is not adjacent to the center {board.center}: expected one of "
                f"{', '.join(ring)}")
    return None


def plan_problems(s, orders: list) -> list:
    """The ``build``, ``alien`` and ``place`` lines of a set of turns judged now."""
    out = []
    for o in orders:
        if o.verb == "build":
            why, rule = unknown_project(s, o.args["project"]), "Build Projects"
        elif o.verb == "alien":
            why, rule = alien_step_problem(s, o.args["to"]), ALIEN
        elif o.verb == "place":
            why, rule = place_problem(s, o.args["hex"], o.args["item"]), PLACE
        else:
            continue
        if why:
            out.append((o.line, rule, why))
    return out


def starting_types(s) -> list:
    """The card types a player may choose from (Starting Deck: "the remaining starting
    cards")."""
    return sorted(k for k, c in s.data["cards"].items() if c["kind"] == "starting")


def setup_problems(s, role: str, orders: list) -> list:
    """The ``choose`` and ``active`` lines of the setup window judged now: a type that is not
    a starting card, an active card id that is not one of ``role``'s own cards, an active
    type that is no starting card."""
    types, out = starting_types(s), []
    own = set(s.players[role].hand)
    for o in orders:
        if o.verb == "choose":
            bad = [t for t in o.args["types"] if t not in types]
            if bad:
                out.append((o.line, START, f"{', '.join(bad)} is no starting card "
                                           f"type: expected {', '.join(types)}"))
        elif o.verb == "active":
            card = o.args["card"]
            kind = named_type(card)
            if kind not in types:
                out.append((o.line, ACTIVE, f"{kind} is no starting card type: "
                                            f"expected one of {', '.join(types)}"))
            elif kind != card and card not in own:
                out.append((o.line, ACTIVE, f"{card} is not one of your cards "
                                            f"({', '.join(sorted(own))}): name the type "
                                            f"({kind}) or your own card"))
    return out
