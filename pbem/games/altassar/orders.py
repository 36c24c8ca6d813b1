"""Reading Altassar order lines (the syntax is docs/orders-altassar.md).

:func:`parse` turns an order body into :class:`~pbem.engine.ruleset.Order` values, one per line,
and :class:`~pbem.engine.ruleset.Problem` values for lines it cannot read. It checks only the
form of a line (verb, hex labels, directions, counts) and whether the verb is accepted in the
window; whether the order is legal in the position is :mod:`.checking`'s business.

Lines are read by the kit's reader (:mod:`pbem.engine.orderlines`) through :data:`TABLE`, as
every game's are: split at LF, CRLF and CR only (so a problem names the line the player sees),
blank lines, ``#`` comments and ``>``-quoted lines skipped, words split at white space and
commas. Problems quote a line with its comment, as the player wrote it.
"""

from __future__ import annotations

import re

from pbem.boards.hexgrid import DIRECTIONS, is_label
from pbem.engine.orderlines import OrderSyntaxError, Verb, VerbTable
from pbem.engine.ruleset import Window

from .data import CONFEDERATION_KINDS

RULE = "Altassar orders (docs/orders-altassar.md)"
"""The rule cited for an unknown verb or orders from a role that owes none."""

_SPIKUS_ID = re.compile(r"^([STDWNP])(\d{1,2})$", re.IGNORECASE)
_CONF_ID = re.compile(r"^(" + "|".join(CONFEDERATION_KINDS) + r")-(\d{1,2})$")
EVASIONS = ("flight", "camouflage", "none")
POLICIES = EVASIONS + ("ask",)


def spikus_id(token: str) -> str | None:
    """The canonical Spikus unit id of ``token`` (``s1`` -> ``S01`` for soldiers, ``n2`` ->
    ``N2``), or None when it is not one."""
    m = _SPIKUS_ID.match(token)
    if not m:
        return None
    letter, number = m.group(1).upper(), int(m.group(2))
    return f"S{number:02d}" if letter == "S" else f"{letter}{number}"


def unit_name(token: str) -> str | None:
    """A unit name as written in orders: a Spikus id (canonical) or a Confederation name
    (``terran-1``), else None."""
    sid = spikus_id(token)
    if sid:
        return sid
    low = token.lower()
    m = _CONF_ID.match(low)
    return f"{m.group(1)}-{int(m.group(2))}" if m else None


def _unit(tok: str) -> str:
    name = unit_name(tok)
    if name is None:
        raise OrderSyntaxError(f"{tok!r} is not a unit: expected a Spikus id such as S01, T1, "
                               "D2, W3, N4 or a Confederation name such as terran-1, dummy-3")
    return name


def _hex(tok: str) -> str:
    if not is_label(tok):
        raise OrderSyntaxError(f"{tok!r} is not a hex: expected four digits, column then row, "
                               "such as 0504")
    return tok


def _target(tok: str) -> str:
    if is_label(tok):
        return tok
    return _unit(tok)


# -- one parser per verb: the words after the verb -> Order.args ----------------------------
def _move(toks: tuple) -> dict:
    if len(toks) < 2:
        raise OrderSyntaxError()
    args = {"unit": _unit(toks[0]), "from": None, "path": [], "off": False}
    rest = list(toks[1:])
    if rest and rest[0] == "from":
        if len(rest) < 2:
            raise OrderSyntaxError("'from' needs a hex")
        args["from"] = _hex(rest[1])
        rest = rest[2:]
    if rest and rest[0] == "to":
        rest = rest[1:]
    if rest and rest[-1] == "off":
        args["off"] = True
        rest = rest[:-1]
    args["path"] = [_hex(t) for t in rest]
    if not args["path"] and not args["off"]:
        raise OrderSyntaxError("name the hexes to move to")
    return args


def _attack(toks: tuple) -> dict:
    if len(toks) < 3 or toks[1] != "with":
        raise OrderSyntaxError()
    units = [_unit(t) for t in toks[2:]]
    if len(set(units)) != len(units):
        raise OrderSyntaxError("a unit is named twice: each unit attacks once (7.13)")
    return {"target": _target(toks[0]), "units": units}


def _combat(toks: tuple) -> dict:
    if tuple(toks) != ("later",):
        raise OrderSyntaxError()
    return {}


def _post(toks: tuple) -> dict:
    if len(toks) != 1:
        raise OrderSyntaxError()
    return {"hex": _hex(toks[0])}


def _launch(toks: tuple) -> dict:
    if not 2 <= len(toks) <= 4:
        raise OrderSyntaxError()
    net = _unit(toks[0])
    if not net.startswith("N"):
        raise OrderSyntaxError(f"{toks[0]!r} is not a Trip Net (N1 to N4)")
    if toks[1] not in DIRECTIONS:
        raise OrderSyntaxError(f"{toks[1]!r} is not a direction: expected one of "
                               f"{', '.join(DIRECTIONS)}")
    hexes, when = None, "end"
    for t in toks[2:]:
        if t.isdigit():
            hexes = int(t)
        elif t in ("start", "end"):
            when = t
        else:
            raise OrderSyntaxError(f"{t!r}: expected a number of hexes or start/end")
    return {"net": net, "direction": toks[1], "hexes": hexes, "when": when}


def _carry(toks: tuple) -> dict:
    if len(toks) != 2:
        raise OrderSyntaxError()
    return {"net": _unit(toks[0]), "soldier": _unit(toks[1])}


def _attrition(toks: tuple) -> dict:
    if len(toks) != 1:
        raise OrderSyntaxError()
    return {"unit": _unit(toks[0])}


def _evade(toks: tuple) -> dict:
    n = len(toks)
    if n < 2 or toks[1] not in EVASIONS:
        raise OrderSyntaxError()
    args = {"target": _target(toks[0]), "how": toks[1], "to": None}
    if n == 3 and toks[1] == "flight":
        args["to"] = _target(toks[2])
    elif n != 2:
        raise OrderSyntaxError()
    return args


def _evasion(toks: tuple) -> dict:
    if len(toks) == 1 and toks[0] in POLICIES:
        return {"unit": None, "how": toks[0]}
    if len(toks) == 2 and toks[1] in POLICIES:
        return {"unit": _unit(toks[0]), "how": toks[1]}
    raise OrderSyntaxError()


def _retreat(toks: tuple) -> dict:
    if len(toks) < 2:
        raise OrderSyntaxError()
    return {"unit": _unit(toks[0]), "path": [_hex(t) for t in toks[1:]]}


def _units(toks: tuple) -> dict:
    if not toks:
        raise OrderSyntaxError()
    return {"units": [_unit(t) for t in toks]}


def _escape(toks: tuple) -> dict:
    if len(toks) == 1 and toks[0] in ("always", "never"):
        return {"policy": toks[0]}
    raise OrderSyntaxError("a standing order for every escorted prisoner (21.1)")


TABLE = VerbTable([
    Verb("move", "move UNIT [from HEX] [to] HEX [HEX ...] [off]", "Altassar 5.0", _move),
    Verb("attack", "attack HEX-or-UNIT with UNIT [UNIT ...]", "Altassar 7.0", _attack),
    Verb("combat", "combat later", "Altassar 4.2", _combat),
    Verb("post", "post HEX", "Altassar 13.1", _post),
    Verb("launch", "launch NET DIRECTION [HEXES] [start|end]", "Altassar 14.2", _launch),
    Verb("carry", "carry NET SOLDIER", "Altassar 14.1", _carry),
    Verb("attrition", "attrition SOLDIER", "Altassar 11.1", _attrition),
    Verb("evade", "evade HEX-or-UNIT flight [HEX] | camouflage | none", "Altassar 9.0", _evade),
    Verb("evasion", "evasion [UNIT] flight|camouflage|none|ask", "Altassar 9.1", _evasion),
    Verb("retreat", "retreat UNIT HEX HEX HEX", "Altassar 8.0", _retreat),
    Verb("renewal", "renewal SOLDIER [SOLDIER ...]", "Altassar 10.4", _units),
    Verb("losses", "losses UNIT [UNIT ...]", "Altassar 21.1", _units),
    Verb("escape", "escape always|never", "Altassar 21.1", _escape),
], rule=RULE, quote_comments=True)
"""Every Altassar order: its syntax (quoted in problems and templates), the rule it carries out
and its parser. The bots check the lines they write with it (through :func:`parse`)."""

VERBS = TABLE.syntax()
"""Every verb with its form, as quoted in problems and templates."""

VERB_RULE = {v.name: v.rule for v in TABLE.verbs}
"""The rule each verb's problems cite."""


def parse(role: str, window: Window, body: str, first_line: int) -> tuple[list, list]:
    """``(orders, problems)`` for ``role``'s order ``body`` in ``window``, lines counted from
    ``first_line`` at LF, CRLF and CR only (issue 9: never at U+2028 or the other breaks
    ``str.splitlines`` knows). Blank lines, ``#`` comments and ``>``-quoted lines are skipped;
    words are case-insensitive (unit ids are normalised). Never raises."""
    return TABLE.parse(role, window, body, first_line)
