"""Reading an Atlantis order body into :class:`~pbem.engine.ruleset.Order` values.

The syntax is the README's ("Windows (phases) and what each player sends"). One order per
line; words are separated by white space (spaces, tabs, no-break spaces; commas are read as
spaces); case does not matter. Blank lines, ``#`` comments (whole lines or the rest of a line)
and lines quoted from a report (starting with ``>``) are ignored. This module checks the form
of each line only; whether an order is legal in the position is
:mod:`pbem.games.atlantis.windows`' business. Lines are read by the kit's reader
(:mod:`pbem.engine.orderlines`) through :data:`TABLE`, which the bots use too.

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
from pbem.engine.orderlines import OrderSyntaxError, Verb, VerbTable
from pbem.engine.ruleset import Order, Window

from .data import CREATURE_KINDS, DIVES, KILLS

TILE_ALIASES = {"shark-killed": "kill-shark", "kill-kraken": "kraken-killed",
                "sea-monster-dives": "monster-dives"}

_PERSON = re.compile(r"^[a-z][a-z_-]*[0-9]+$")
_SHIP = re.compile(r"^ship[0-9]+$")
_CREATURE = re.compile(r"^(" + "|".join(CREATURE_KINDS) + r")[0-9]+$")
_COND = re.compile(r"^(" + "|".join(CREATURE_KINDS) + r")(-or-(" + "|".join(CREATURE_KINDS)
                   + r"))*$")


def _hex(word: str) -> str:
    if not is_label(word):
        raise OrderSyntaxError(f"{word!r} is not a hex: expected four digits, column then row, "
                               f"such as '0607'")
    return word


def _hexes(words, at_least: int = 1) -> list:
    if len(words) < at_least:
        raise OrderSyntaxError()
    return [_hex(w) for w in words]


def _entry(word: str) -> tuple:
    """A ``people`` entry: ``HEX`` or ``HEX=VALUE`` (Preparing to Play 2: the owner places each
    numbered person knowing its number) -> ``(hex, value or None)``."""
    if "=" not in word:
        return _hex(word), None
    h, _, v = word.partition("=")
    if not v.isdigit() or not v.isascii():
        raise OrderSyntaxError(f"{word!r}: the value after '=' must be a whole number, such as "
                               f"'0707=6'")
    return _hex(h), int(v)


def _person(word: str) -> str:
    if not _PERSON.match(word):
        raise OrderSyntaxError(f"{word!r} is not a person: expected a role and a number, such "
                               f"as 'red3'")
    return word


def _ship(word: str) -> str:
    if not _SHIP.match(word):
        raise OrderSyntaxError(f"{word!r} is not a ship: expected 'ship' and a number, such as "
                               f"'ship2'")
    return word


def _creature(word: str, kind: str | None = None) -> str:
    m = _CREATURE.match(word)
    if not m:
        raise OrderSyntaxError(f"{word!r} is not a creature: expected a kind "
                               f"({', '.join(CREATURE_KINDS)}) and a number, such as 'shark2'")
    if kind and m.group(1) != kind:
        raise OrderSyntaxError(f"{word!r} is not a {kind}")
    return word


# -- one parser per verb: the words after the verb -> Order.args ----------------------------
def _people(words: tuple) -> dict:
    if not words:
        raise OrderSyntaxError()
    entries = [_entry(w) for w in words]
    return {"hexes": [h for h, _ in entries], "values": [v for _, v in entries]}


def _placed(words: tuple) -> dict:
    return {"hexes": _hexes(words)}


def _play(words: tuple) -> dict:
    if len(words) < 2:
        raise OrderSyntaxError()
    tile = TILE_ALIASES.get(words[0], words[0])
    if tile in DIVES:
        if len(words) != 3:
            raise OrderSyntaxError(f"{tile} names the creature and the empty sea space it dives "
                                   f"to")
        return {"tile": tile, "creature": _creature(words[1], DIVES[tile]),
                "hex": _hex(words[2])}
    if tile in KILLS:
        if len(words) != 2:
            raise OrderSyntaxError(f"{tile} names the {KILLS[tile]} it removes, and nothing else")
        return {"tile": tile, "creature": _creature(words[1], KILLS[tile]), "hex": None}
    raise OrderSyntaxError(f"{words[0]!r} is not a tile you can play: expected one of "
                           f"{', '.join(list(DIVES) + list(KILLS))}")


def _walk(words: tuple) -> dict:
    if len(words) < 2:
        raise OrderSyntaxError()
    return {"person": _person(words[0]), "path": _hexes(words[1:])}


def _swim(words: tuple) -> dict:
    dolphin = None
    if len(words) >= 2 and words[-2] == "with":
        dolphin = _creature(words[-1], "dolphin")
        words = words[:-2]
    if len(words) < 2:
        raise OrderSyntaxError()
    return {"person": _person(words[0]), "path": _hexes(words[1:]), "dolphin": dolphin}


def _board(words: tuple) -> dict:
    if len(words) != 2:
        raise OrderSyntaxError()
    return {"person": _person(words[0]), "hex": _hex(words[1])}


def _sail(words: tuple) -> dict:
    if len(words) < 2:
        raise OrderSyntaxError()
    return {"ship": _ship(words[0]), "path": _hexes(words[1:])}


def _sink(words: tuple) -> dict:
    if len(words) != 1:
        raise OrderSyntaxError()
    return {"hex": _hex(words[0])}


def _move(words: tuple) -> dict:
    """``CREATURE HEX...`` or ``stay`` (after ``creature``, or after ``if COND:``)."""
    if tuple(words) == ("stay",):
        return {"creature": None, "path": []}
    if len(words) < 2:
        raise OrderSyntaxError()
    return {"creature": _creature(words[0]), "path": _hexes(words[1:])}


def _if(words: tuple) -> dict:
    """``COND: CREATURE HEX...`` or ``COND: stay`` (the words after ``if``)."""
    rest = " ".join(words)
    if ":" not in rest:
        raise OrderSyntaxError("a colon must follow the condition")
    cond, _, move = rest.partition(":")
    cond = cond.strip()
    if not _COND.match(cond):
        raise OrderSyntaxError(f"{cond!r} is not a die face or creature kind: expected a kind "
                               f"({', '.join(CREATURE_KINDS)}) or a face such as "
                               f"'monster-or-shark'")
    return {"cond": cond, **_move(move.split())}


def _standing(words: tuple) -> dict:
    if len(words) != 2:
        raise OrderSyntaxError()
    tile = TILE_ALIASES.get(words[0], words[0])
    if tile not in KILLS:
        raise OrderSyntaxError(f"{words[0]!r}: standing orders are for kill-shark and "
                               f"kraken-killed")
    if words[1] not in ("on", "off"):
        raise OrderSyntaxError(f"{words[1]!r}: expected on or off")
    return {"tile": tile, "on": words[1] == "on"}


TABLE = VerbTable([
    Verb("people", "people HEX[=VALUE] [HEX[=VALUE]...]", "Atlantis: Preparing to Play 2",
         _people),
    Verb("ship", "ship HEX [HEX...]", "Atlantis: Preparing to Play 3", _placed,
         aliases=("ships",)),
    Verb("monster", "monster HEX [HEX...]", "Atlantis: Preparing to Play 4", _placed,
         aliases=("monsters",)),
    Verb("play", "play DIVES-TILE CREATURE HEX` or `play kill-shark SHARK` or "
                 "`play kraken-killed KRAKEN", "Atlantis: Part of the Island sinks", _play),
    Verb("walk", "walk PERSON HEX [HEX...]", "Atlantis: Land Movement", _walk),
    Verb("swim", "swim PERSON HEX [with DOLPHIN]", "Atlantis: Swimming people", _swim),
    Verb("board", "board PERSON HEX", "Atlantis: Ship Movement", _board),
    Verb("ashore", "ashore PERSON SAFE-ISLAND-HEX", "Atlantis: The Safe Islands", _board),
    Verb("sail", "sail SHIP HEX [HEX...]", "Atlantis: Ship Movement", _sail),
    Verb("sink", "sink HEX", "Atlantis: Part of the Island sinks", _sink),
    Verb("if", "if FACE-OR-KIND: CREATURE HEX [HEX...]` or `if FACE-OR-KIND: stay",
         "Atlantis: Dice", _if),
    Verb("creature", "creature CREATURE HEX [HEX...]` or `creature stay", "Atlantis: Dice",
         _move),
    Verb("standing", "standing kill-shark on|off` or `standing kraken-killed on|off",
         "Atlantis: Part of the Island sinks", _standing),
], rule="Atlantis: The Play")
"""Every Atlantis order: its syntax (quoted in problems as "expected `...`"), the rule it
carries out and its parser. The bots read the lines they write through it (:func:`read`)."""

SYNTAX = TABLE.syntax()
"""Each verb's form, quoted in problems as "expected `...`"."""

RULES = {v.name: v.rule for v in TABLE.verbs}
"""The rule each verb's problems cite."""


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
    return TABLE.parse(role, window, body, first_line)


def read(text: str) -> Order:
    """The order one line ``text`` gives, read as a player's line is (for the bots, which try
    each line they write on their own view); raises OrderSyntaxError when it does not fit."""
    return TABLE.read(text)
