"""Olympica orders: the verb table (README.md, "Orders") and ``parse``.

Units are named by id (``T1``, ``H12``, ``W07``: any case); places by hex label, ``1717`` on
the surface and ``1717u`` underground in a tunnel (:class:`pbem.boards.levels.Place`). Whether
a unit or a place exists is judged against the position later (checking.py, turns.py): parse
sees no state.
"""

from __future__ import annotations

from pbem.boards.levels import LevelError, Place
from pbem.engine.orderlines import OrderSyntaxError, Verb, VerbTable


def _id(word: str) -> str:
    if not word[:1].isalpha() or not word[1:].isdigit():
        raise OrderSyntaxError(f"{word!r} is not a unit id (expected a letter and a number: "
                               f"T1, H12, W07)")
    return word.upper()


def _place(word: str) -> str:
    try:
        return str(Place.parse(word))
    except LevelError as e:
        raise OrderSyntaxError(str(e)) from None


def _path(words: tuple, what: str = "the hexes it moves through") -> list:
    if not words:
        raise OrderSyntaxError(f"expected {what}")
    return [_place(w) for w in words]


def _substitute(words: tuple) -> dict:
    if words in (("infantry",), ("strongpoint",)):
        return {"what": words[0], "n": 1}
    if len(words) == 2 and words[0] in ("light", "heavy") and words[1].isdigit():
        return {"what": words[0], "n": int(words[1])}
    raise OrderSyntaxError("expected `infantry` or `strongpoint` (the Web), or `light N` or "
                           "`heavy N` (the U.N.: N infantry swapped to that type)")


def _placement(words: tuple) -> dict:
    if len(words) != 2:
        raise OrderSyntaxError("expected a marker and its hex")
    return {"unit": _id(words[0]), "to": _place(words[1])}


def _tunnel(words: tuple) -> dict:
    if len(words) < 2 or words[0] not in ("mouth", "deep"):
        raise OrderSyntaxError("expected mouth or deep, a hex, then optionally `under` and the "
                               "Web counters that go underground")
    under = []
    if len(words) > 2:
        if words[2] != "under" or len(words) == 3:
            raise OrderSyntaxError("after the hex: `under` and the Web counters that go "
                                   "underground")
        under = [_id(w) for w in words[3:]]
    return {"kind": words[0], "hex": _place(words[1]), "under": under}


def _move(words: tuple) -> dict:
    if len(words) < 2:
        raise OrderSyntaxError("expected a unit and the hexes it moves through")
    return {"unit": _id(words[0]), "path": _path(words[1:])}


def _compel_drop(words: tuple) -> dict:
    if len(words) != 2 or not words[0].isdigit():
        raise OrderSyntaxError("expected the drop's number and the hex its first unit lands "
                               "in instead")
    return {"drop": int(words[0]), "to": _place(words[1])}


def _drop(words: tuple) -> dict:
    if not words or len(words) % 2:
        raise OrderSyntaxError("expected unit and hex pairs: drop H1 1213 H2 1214 T1 1313")
    pairs = [[_id(words[i]), _place(words[i + 1])] for i in range(0, len(words), 2)]
    return {"units": pairs}


def _lift(words: tuple) -> dict:
    if len(words) < 2:
        raise OrderSyntaxError("expected a lifter, then its hexes, with +UNIT to pick a unit "
                               "up and -UNIT to set it down where the lifter is, and `off` "
                               "to leave the map")
    steps = []
    for w in words[1:]:
        if w == "off":
            steps.append(["off", ""])
        elif w[:1] in "+-":
            steps.append(["pick" if w[0] == "+" else "drop",
                          "GEN" if w[1:] in ("gen", "generator") else _id(w[1:])])
        else:
            steps.append(["hex", _place(w)])
    return {"unit": _id(words[0]), "steps": steps}


def _fire(words: tuple) -> dict:
    if "by" not in words:
        raise OrderSyntaxError("expected the target(s), `by` and the attacking units")
    i = words.index("by")
    targets, rest = list(words[:i]), list(words[i + 1:])
    lose = []
    if "lose" in rest:
        j = rest.index("lose")
        rest, lose = rest[:j], rest[j + 1:]
    if not 1 <= len(targets) <= 2 or not rest:
        raise OrderSyntaxError("expected one target (two only for both units of a Tunnel Mouth "
                               "hex, 13.5.3), `by` and one or more attacking units")
    return {"targets": [_id(w) for w in targets], "by": [_id(w) for w in rest],
            "lose": [_id(w) for w in lose]}


def _one(words: tuple) -> dict:
    if len(words) != 1:
        raise OrderSyntaxError("expected one unit")
    return {"unit": _id(words[0])}


def _demolish(words: tuple) -> dict:
    if len(words) != 2:
        raise OrderSyntaxError("expected the unit and the place it moves to if the tunnel "
                               "falls")
    return {"unit": _id(words[0]), "to": _place(words[1])}


def _retreat(words: tuple) -> dict:
    if len(words) != 2 or words[0] not in ("away", "toward"):
        raise OrderSyntaxError("expected `away HEX` or `toward HEX`")
    return {"how": words[0], "hex": _place(words[1])}


def _underground(words: tuple) -> dict:
    if words not in (("stay",), ("retreat",)):
        raise OrderSyntaxError("expected `stay` or `retreat`")
    return {"how": words[0]}


VERBS = VerbTable([
    Verb("substitute", "substitute infantry|strongpoint  /  substitute light|heavy N",
         "5.4", _substitute),
    Verb("place", "place MARKER HEX[u]", "5.2", _placement),
    Verb("tunnel", "tunnel mouth|deep HEX [under MARKER...]", "13.2", _tunnel),
    Verb("compel", "compel UNIT HEX... (up to three hexes)", "19.2", _move),
    Verb("compel-drop", "compel-drop N HEX", "14.2", _compel_drop),
    Verb("enter", "enter MARKER EDGEHEX HEX...", "21.0", _move),
    Verb("move", "move UNIT HEX[u]...", "7.0, 13.4", _move),
    Verb("reveal", "reveal MARKER", "16.2", _one),
    Verb("drop", "drop UNIT HEX UNIT HEX UNIT HEX", "14.1", _drop),
    Verb("lift", "lift LIFTER HEX... with +UNIT / -UNIT / +gen / off", "18.1-18.4", _lift),
    Verb("drill", "drill BOAR", "17.3", _one),
    Verb("fire", "fire TARGET [TARGET] by UNIT... [lose UNIT...]", "10.0, 12.6", _fire),
    Verb("demolish", "demolish UNIT HEX[u]", "13.6", _demolish),
    Verb("move2", "move2 LIGHTINFANTRY HEX[u]...", "15.0", _move),
    Verb("retreat", "retreat away|toward HEX", "12.3 (standing order)", _retreat),
    Verb("underground", "underground stay|retreat", "12.3.2 (standing order)", _underground),
], rule="6.0")
"""The orders of Olympica (README.md, "Orders")."""

ORDER_VERBS = tuple(VERBS.syntax())


def parse(role: str, window, body: str, first_line: int) -> tuple[list, list]:
    """``(orders, problems)`` from ``role``'s order ``body`` for ``window``; every unreadable
    line is a Problem quoting it with its line number (pbem.engine.orderlines)."""
    return VERBS.parse(role, window, body, first_line)
