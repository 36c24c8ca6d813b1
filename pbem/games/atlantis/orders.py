"""Reading an Atlantis order body into :class:`~pbem.engine.ruleset.Order` values.

The syntax is the README's ("Windows (phases) and what each player sends"). One order per
line; words are separated by white space (spaces, tabs, no-break spaces; commas are read as
spaces); case does not matter. Blank lines, ``#`` comments (whole lines or the rest of a line)
and lines quoted from a report (starting with ``>``) are ignored. This module checks the form
of each line only; whether an order is legal in the position is
:mod:`pbem.games.atlantis.windows`' business.

Order arguments (``Order.args``):

========== ==================================================================
verb       args
========== ==================================================================
people     ``{"hexes": [HEX, ...], "values": [VALUE or None, ...]}`` (one value per hex)
ship       ``{"hexes": [HEX, ...]}`` (also ``monster``)
play       ``{"tile": TILE, "creature": ID, "hex": HEX or None}``
walk       ``{"person": ID, "path": [HEX, ...]}``
swim       ``{"person": ID, "path": [HEX, ...], "dolphin": ID or None}``
board      ``{"person": ID, "hex": HEX}`` (also ``ashore``)
sail       ``{"ship": ID, "path": [HEX, ...]}``
sink       ``{"hex": HEX}``
if         ``{"cond": FACE-OR-KIND, "creature": ID or None, "path": [HEX, ...]}``
creature   ``{"creature": ID or None, "path": [HEX, ...]}`` (None: ``stay``)
standing   ``{"tile": "kill-shark" or "kraken-killed", "on": bool}``
========== ==================================================================
"""

from __future__ import annotations

import re

from pbem.boards.hexgrid import is_label
from pbem.engine.ruleset import Order, Problem, Window

from .data import CREATURE_KINDS, DIVES, KILLS

SYNTAX = {
    "people": "people HEX[=VALUE] [HEX[=VALUE]...]",
    "ship": "ship HEX [HEX...]",
    "monster": "monster HEX [HEX...]",
    "play": "play DIVES-TILE CREATURE HEX` or `play kill-shark SHARK` or "
            "`play kraken-killed KRAKEN",
    "walk": "walk PERSON HEX [HEX...]",
    "swim": "swim PERSON HEX [with DOLPHIN]",
    "board": "board PERSON HEX",
    "ashore": "ashore PERSON SAFE-ISLAND-HEX",
    "sail": "sail SHIP HEX [HEX...]",
    "sink": "sink HEX",
    "if": "if FACE-OR-KIND: CREATURE HEX [HEX...]` or `if FACE-OR-KIND: stay",
    "creature": "creature CREATURE HEX [HEX...]` or `creature stay",
    "standing": "standing kill-shark on|off` or `standing kraken-killed on|off",
}
"""Each verb's form, quoted in problems as "expected `...`"."""

RULES = {
    "people": "Atlantis: Preparing to Play 2", "ship": "Atlantis: Preparing to Play 3",
    "monster": "Atlantis: Preparing to Play 4", "play": "Atlantis: Part of the Island sinks",
    "walk": "Atlantis: Land Movement", "swim": "Atlantis: Swimming people",
    "board": "Atlantis: Ship Movement", "ashore": "Atlantis: The Safe Islands",
    "sail": "Atlantis: Ship Movement", "sink": "Atlantis: Part of the Island sinks",
    "if": "Atlantis: Dice", "creature": "Atlantis: Dice",
    "standing": "Atlantis: Part of the Island sinks",
}

ALIASES = {"ships": "ship", "monsters": "monster"}
TILE_ALIASES = {"shark-killed": "kill-shark", "kill-kraken": "kraken-killed",
                "sea-monster-dives": "monster-dives"}

_PERSON = re.compile(r"^[a-z][a-z_-]*[0-9]+$")
_SHIP = re.compile(r"^ship[0-9]+$")
_CREATURE = re.compile(r"^(" + "|".join(CREATURE_KINDS) + r")[0-9]+$")
_COND = re.compile(r"^(" + "|".join(CREATURE_KINDS) + r")(-or-(" + "|".join(CREATURE_KINDS)
                   + r"))*$")


class _Bad(Exception):
    def __init__(self, why: str):
        self.why = why


def _hex(word: str) -> str:
    if not is_label(word):
        raise _Bad(f"{word!r} is not a hex: expected four digits, column then row, such as "
                   f"'0607'")
    return word


def _hexes(words: list, at_least: int = 1) -> list:
    if len(words) < at_least:
        raise _Bad("")
    return [_hex(w) for w in words]


def _entry(word: str) -> tuple:
    """A ``people`` entry: ``HEX`` or ``HEX=VALUE`` (Preparing to Play 2: the owner places each
    numbered person knowing its number) -> ``(hex, value or None)``."""
    if "=" not in word:
        return _hex(word), None
    h, _, v = word.partition("=")
    if not v.isdigit() or not v.isascii():
        raise _Bad(f"{word!r}: the value after '=' must be a whole number, such as '0707=6'")
    return _hex(h), int(v)


def _person(word: str) -> str:
    if not _PERSON.match(word):
        raise _Bad(f"{word!r} is not a person: expected a role and a number, such as 'red3'")
    return word


def _ship(word: str) -> str:
    if not _SHIP.match(word):
        raise _Bad(f"{word!r} is not a ship: expected 'ship' and a number, such as 'ship2'")
    return word


def _creature(word: str, kind: str | None = None) -> str:
    m = _CREATURE.match(word)
    if not m:
        raise _Bad(f"{word!r} is not a creature: expected a kind ({', '.join(CREATURE_KINDS)}) "
                   f"and a number, such as 'shark2'")
    if kind and m.group(1) != kind:
        raise _Bad(f"{word!r} is not a {kind}")
    return word


def _parse_line(verb: str, words: list) -> dict:
    """The args of one order line (``words`` after the verb); raises :class:`_Bad`."""
    if verb == "people":
        if not words:
            raise _Bad("")
        entries = [_entry(w) for w in words]
        return {"hexes": [h for h, _ in entries], "values": [v for _, v in entries]}
    if verb in ("ship", "monster"):
        return {"hexes": _hexes(words)}
    if verb == "play":
        if len(words) < 2:
            raise _Bad("")
        tile = TILE_ALIASES.get(words[0], words[0])
        if tile in DIVES:
            if len(words) != 3:
                raise _Bad(f"{tile} names the creature and the empty sea space it dives to")
            return {"tile": tile, "creature": _creature(words[1], DIVES[tile]),
                    "hex": _hex(words[2])}
        if tile in KILLS:
            if len(words) != 2:
                raise _Bad(f"{tile} names the {KILLS[tile]} it removes, and nothing else")
            return {"tile": tile, "creature": _creature(words[1], KILLS[tile]), "hex": None}
        raise _Bad(f"{words[0]!r} is not a tile you can play: expected one of "
                   f"{', '.join(list(DIVES) + list(KILLS))}")
    if verb == "walk":
        if len(words) < 2:
            raise _Bad("")
        return {"person": _person(words[0]), "path": _hexes(words[1:])}
    if verb == "swim":
        dolphin = None
        if len(words) >= 2 and words[-2] == "with":
            dolphin = _creature(words[-1], "dolphin")
            words = words[:-2]
        if len(words) < 2:
            raise _Bad("")
        return {"person": _person(words[0]), "path": _hexes(words[1:]), "dolphin": dolphin}
    if verb in ("board", "ashore"):
        if len(words) != 2:
            raise _Bad("")
        return {"person": _person(words[0]), "hex": _hex(words[1])}
    if verb == "sail":
        if len(words) < 2:
            raise _Bad("")
        return {"ship": _ship(words[0]), "path": _hexes(words[1:])}
    if verb == "sink":
        if len(words) != 1:
            raise _Bad("")
        return {"hex": _hex(words[0])}
    if verb == "creature":
        if words == ["stay"]:
            return {"creature": None, "path": []}
        if len(words) < 2:
            raise _Bad("")
        return {"creature": _creature(words[0]), "path": _hexes(words[1:])}
    if verb == "standing":
        if len(words) != 2:
            raise _Bad("")
        tile = TILE_ALIASES.get(words[0], words[0])
        if tile not in KILLS:
            raise _Bad(f"{words[0]!r}: standing orders are for kill-shark and kraken-killed")
        if words[1] not in ("on", "off"):
            raise _Bad(f"{words[1]!r}: expected on or off")
        return {"tile": tile, "on": words[1] == "on"}
    raise _Bad("")


def _parse_if(rest: str) -> dict:
    """``COND: CREATURE HEX...`` or ``COND: stay`` (the text after ``if``)."""
    if ":" not in rest:
        raise _Bad("a colon must follow the condition")
    cond, _, move = rest.partition(":")
    cond = cond.strip()
    if not _COND.match(cond):
        raise _Bad(f"{cond!r} is not a die face or creature kind: expected a kind "
                   f"({', '.join(CREATURE_KINDS)}) or a face such as 'monster-or-shark'")
    words = move.split()
    if words == ["stay"]:
        return {"cond": cond, "creature": None, "path": []}
    if len(words) < 2:
        raise _Bad("")
    return {"cond": cond, "creature": _creature(words[0]), "path": _hexes(words[1:])}


def parse(role: str, window: Window, body: str, first_line: int) -> tuple[list, list]:
    """Read ``role``'s order ``body`` for ``window``.

    ``first_line`` is the line number of the body's first line in the signed text, so problems
    name the line the player sees: lines are split at LF, CRLF and lone CR only, as the signed
    text's header is (pbem.engine.headers), never at the other breaks ``str.splitlines`` knows
    (form feed, U+2028, ...). Words are separated by any white space (spaces, tabs, no-break
    spaces) and commas. Never raises, whatever ``body`` holds.

    Returns ``(orders, problems)``: one Problem per unknown verb, verb not allowed in this window
    for this role, or line with bad arguments (quoting the line and the expected form).
    """
    orders: list[Order] = []
    problems: list[Problem] = []
    allowed = tuple(window.verbs.get(role, ()))
    if not window.accepts(role):
        where = window.title or window.phase
        problems.append(Problem(None, "", "Atlantis: The Play",
                                f"{role} sends no orders in this window ({where})"))
        return orders, problems
    for i, raw in enumerate(body.replace("\r\n", "\n").replace("\r", "\n").split("\n")):
        number = first_line + i
        text = raw.strip()
        if not text or text.startswith("#") or text.startswith(">"):
            continue
        text = text.split("#", 1)[0].strip()
        if not text:
            continue
        words = text.lower().replace(",", " ").split(None, 1)
        if not words:                     # only commas
            continue
        verb = words[0]
        rest = words[1] if len(words) > 1 else ""
        verb = ALIASES.get(verb, verb)
        if verb not in SYNTAX:
            problems.append(Problem(number, text, "Atlantis: The Play",
                                    f"unknown order {verb!r}: expected one of "
                                    f"{', '.join(allowed) or 'no orders in this window'}"))
            continue
        if verb not in allowed:
            problems.append(Problem(number, text, RULES[verb],
                                    f"'{verb}' is not an order {role} may give in this window "
                                    f"({window.title or window.phase}); expected one of "
                                    f"{', '.join(allowed)}"))
            continue
        try:
            args = _parse_if(rest) if verb == "if" else _parse_line(verb, rest.split())
        except _Bad as bad:
            why = f"{bad.why}; " if bad.why else ""
            problems.append(Problem(number, text, RULES[verb],
                                    f"{why}expected `{SYNTAX[verb]}`"))
            continue
        orders.append(Order(number, text, verb, args))
    return orders, problems
