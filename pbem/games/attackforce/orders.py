"""Attack Force orders: the verb table (README.md, "Orders") and ``parse``.

Every verb reads its words into plain JSON arguments; whether a piece, a space or a target
exists is judged later against the position (checking.py, turns.py), since parse sees no state.
Pieces and targets are words: an id (``r3``, ``c7``, ``vk``, ``laser1``) or a space (``54``,
``h1`` for Hull Space 1, ``l2`` for Launcher 2), see :func:`pbem.games.attackforce.moves.find`.
"""

from __future__ import annotations

from pbem.engine.orderlines import OrderSyntaxError, Verb, VerbTable

from .data import BATTERY_KINDS, FLIGHTS

EDGES = ("north", "east", "south", "west")
"""The map edges an ``enter`` order names: the board groups ``edge-north`` .. (How to Play 1)."""


def _place(words: tuple) -> dict:
    if len(words) < 2 or words[0] not in BATTERY_KINDS:
        raise OrderSyntaxError(f"expected a kind of Battery ({', '.join(BATTERY_KINDS)}) and "
                               f"one or more Battery Spaces")
    return {"kind": words[0], "spaces": list(words[1:])}


def _enter(words: tuple) -> dict:
    if len(words) < 3:
        raise OrderSyntaxError("expected a Flight, a map edge and its pieces' spaces")
    flight, edge = words[0], words[1].removeprefix("edge-")
    if flight not in FLIGHTS:
        raise OrderSyntaxError(f"{words[0]!r} is not a Flight: expected one of "
                               f"{', '.join(FLIGHTS)}")
    if edge not in EDGES:
        raise OrderSyntaxError(f"{words[1]!r} is not a map edge: expected one of "
                               f"{', '.join(EDGES)}")
    return {"flight": flight, "edge": f"edge-{edge}", "spaces": list(words[2:])}


def _move(words: tuple) -> dict:
    if len(words) < 2:
        raise OrderSyntaxError("expected a piece and the spaces it moves through")
    steps, rest = [], list(words[1:])
    while rest:
        w = rest.pop(0)
        if w == "attack":
            if not rest or rest[0] == "attack":
                raise OrderSyntaxError("'attack' must be followed by its target")
            steps.append(["attack", rest.pop(0)])
        else:
            steps.append(["space", w])
    return {"piece": words[0], "steps": steps}


def _attack(words: tuple) -> dict:
    if len(words) not in (2, 3):
        raise OrderSyntaxError("expected a piece and one target (two for Vaj Korsen)")
    return {"piece": words[0], "targets": list(words[1:])}


def _fire(words: tuple) -> dict:
    if len(words) != 2:
        raise OrderSyntaxError("expected a Battery and its target")
    return {"piece": words[0], "targets": [words[1]]}


def _tunnel(words: tuple) -> dict:
    if len(words) != 2:
        raise OrderSyntaxError("expected a Battery and the Battery Space it moves to")
    return {"piece": words[0], "space": words[1]}


def _look(words: tuple) -> dict:
    if not words:
        raise OrderSyntaxError("expected the Hull Spaces to look at")
    return {"hulls": list(words)}


def _launch(words: tuple) -> dict:
    bad = [w for w in words if w not in ("return-korsen", "wait")]
    if bad or len(set(words)) != len(words):
        raise OrderSyntaxError(f"unexpected {' '.join(bad or words)!r}")
    return {"return_korsen": "return-korsen" in words, "wait": "wait" in words}


def _torpedo(words: tuple) -> dict:
    if len(words) not in (1, 2) or (len(words) == 2
                                    and words[1] not in ("hull", "launcher", "sensor-pod")):
        raise OrderSyntaxError("expected a piece, then optionally hull, launcher or sensor-pod")
    return {"piece": words[0], "what": words[1] if len(words) == 2 else "hull"}


VERBS = VerbTable([
    Verb("place", "place KIND SPACE...", "How to Set Up 4", _place),
    Verb("enter", "enter FLIGHT EDGE SPACE...", "How to Play 1; Federation Flights", _enter),
    Verb("move", "move PIECE SPACE... [attack TARGET] [SPACE...]",
         "How to Move 1-4; How to Attack", _move),
    Verb("attack", "attack PIECE TARGET [TARGET]", "How to Attack; Vaj Korsen", _attack),
    Verb("fire", "fire BATTERY TARGET", "How to Attack (Batteries); How to Move 5b", _fire),
    Verb("tunnel", "tunnel BATTERY SPACE", "How to Move 5a-b", _tunnel),
    Verb("look", "look HULL HULL HULL", "How to Play 3a; Discovering Hull Markers", _look),
    Verb("launch", "launch [return-korsen] [wait]", "How to Play 3b; Vaj Korsen", _launch),
    Verb("torpedo", "torpedo PIECE [hull|launcher|sensor-pod]",
         "How to Win (step 5); Attacking Launchers; Attacking the Sensor Pod", _torpedo),
], rule="How to Play")
"""The orders of Attack Force (README.md, "Orders")."""

ORDER_VERBS = tuple(VERBS.syntax())


def parse(role: str, window, body: str, first_line: int) -> tuple[list, list]:
    """``(orders, problems)`` from ``role``'s order ``body`` for ``window``; every unreadable line
    is a Problem quoting it with its line number (pbem.engine.orderlines)."""
    return VERBS.parse(role, window, body, first_line)
