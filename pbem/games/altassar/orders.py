"""Reading Altassar order lines (the syntax is docs/orders-altassar.md).

:func:`parse` turns an order body into :class:`~pbem.engine.ruleset.Order` values, one per line,
and :class:`~pbem.engine.ruleset.Problem` values for lines it cannot read. It checks only the
form of a line (verb, hex labels, directions, counts) and whether the verb is accepted in the
window; whether the order is legal in the position is :mod:`.rules`'s business.
"""

from __future__ import annotations

import re

from pbem.boards.hexgrid import DIRECTIONS, is_label
from pbem.engine.ruleset import Order, Problem, Window

from .data import CONFEDERATION_KINDS

RULE = "Altassar orders (docs/orders-altassar.md)"

VERBS = {
    "move": "move UNIT [from HEX] [to] HEX [HEX ...] [off]",
    "attack": "attack HEX-or-UNIT with UNIT [UNIT ...]",
    "combat": "combat later",
    "post": "post HEX",
    "launch": "launch NET DIRECTION [HEXES] [start|end]",
    "carry": "carry NET SOLDIER",
    "attrition": "attrition SOLDIER",
    "evade": "evade HEX-or-UNIT flight [HEX] | camouflage | none",
    "evasion": "evasion [UNIT] flight|camouflage|none|ask",
    "retreat": "retreat UNIT HEX HEX HEX",
    "renewal": "renewal SOLDIER [SOLDIER ...]",
    "losses": "losses UNIT [UNIT ...]",
    "escape": "escape always|never",
}
"""Every verb with its form, as quoted in problems and templates."""

VERB_RULE = {"move": "Altassar 5.0", "attack": "Altassar 7.0", "post": "Altassar 13.1",
             "launch": "Altassar 14.2", "carry": "Altassar 14.1", "attrition": "Altassar 11.1",
             "evade": "Altassar 9.0", "combat": "Altassar 4.2", "losses": "Altassar 21.1",
             "renewal": "Altassar 10.4", "retreat": "Altassar 8.0", "evasion": "Altassar 9.1",
             "escape": "Altassar 21.1"}
"""The rule each verb's problems cite."""

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


class _Bad(Exception):
    def __init__(self, why: str):
        self.why = why


def _unit(tok: str) -> str:
    name = unit_name(tok)
    if name is None:
        raise _Bad(f"{tok!r} is not a unit: expected a Spikus id such as S01, T1, D2, W3, N4 "
                   "or a Confederation name such as terran-1, dummy-3")
    return name


def _hex(tok: str) -> str:
    if not is_label(tok):
        raise _Bad(f"{tok!r} is not a hex: expected four digits, column then row, such as 0504")
    return tok


def _target(tok: str) -> str:
    if is_label(tok):
        return tok
    return _unit(tok)


def _parse_line(verb: str, toks: list) -> dict:
    n = len(toks)
    if verb == "move":
        if n < 2:
            raise _Bad("expected: " + VERBS["move"])
        args = {"unit": _unit(toks[0]), "from": None, "path": [], "off": False}
        rest = toks[1:]
        if rest and rest[0] == "from":
            if len(rest) < 2:
                raise _Bad("'from' needs a hex")
            args["from"] = _hex(rest[1])
            rest = rest[2:]
        if rest and rest[0] == "to":
            rest = rest[1:]
        if rest and rest[-1] == "off":
            args["off"] = True
            rest = rest[:-1]
        args["path"] = [_hex(t) for t in rest]
        if not args["path"] and not args["off"]:
            raise _Bad("expected the hexes to move to: " + VERBS["move"])
        return args
    if verb == "attack":
        if n < 3 or toks[1] != "with":
            raise _Bad("expected: " + VERBS["attack"])
        units = [_unit(t) for t in toks[2:]]
        if len(set(units)) != len(units):
            raise _Bad("a unit is named twice: each unit attacks once (7.13)")
        return {"target": _target(toks[0]), "units": units}
    if verb == "combat":
        if toks != ["later"]:
            raise _Bad("expected: combat later")
        return {}
    if verb == "post":
        if n != 1:
            raise _Bad("expected: " + VERBS["post"])
        return {"hex": _hex(toks[0])}
    if verb == "launch":
        if not 2 <= n <= 4:
            raise _Bad("expected: " + VERBS["launch"])
        net = _unit(toks[0])
        if not net.startswith("N"):
            raise _Bad(f"{toks[0]!r} is not a Trip Net (N1 to N4)")
        if toks[1] not in DIRECTIONS:
            raise _Bad(f"{toks[1]!r} is not a direction: expected one of {', '.join(DIRECTIONS)}")
        hexes, when = None, "end"
        for t in toks[2:]:
            if t.isdigit():
                hexes = int(t)
            elif t in ("start", "end"):
                when = t
            else:
                raise _Bad(f"{t!r}: expected a number of hexes or start/end")
        return {"net": net, "direction": toks[1], "hexes": hexes, "when": when}
    if verb == "carry":
        if n != 2:
            raise _Bad("expected: " + VERBS["carry"])
        return {"net": _unit(toks[0]), "soldier": _unit(toks[1])}
    if verb == "attrition":
        if n != 1:
            raise _Bad("expected: " + VERBS["attrition"])
        return {"unit": _unit(toks[0])}
    if verb == "evade":
        if n < 2 or toks[1] not in EVASIONS:
            raise _Bad("expected: " + VERBS["evade"])
        args = {"target": _target(toks[0]), "how": toks[1], "to": None}
        if n == 3 and toks[1] == "flight":
            args["to"] = _target(toks[2])
        elif n != 2:
            raise _Bad("expected: " + VERBS["evade"])
        return args
    if verb == "evasion":
        if n == 1 and toks[0] in POLICIES:
            return {"unit": None, "how": toks[0]}
        if n == 2 and toks[1] in POLICIES:
            return {"unit": _unit(toks[0]), "how": toks[1]}
        raise _Bad("expected: " + VERBS["evasion"])
    if verb == "retreat":
        if n < 2:
            raise _Bad("expected: " + VERBS["retreat"])
        return {"unit": _unit(toks[0]), "path": [_hex(t) for t in toks[1:]]}
    if verb in ("renewal", "losses"):
        if n < 1:
            raise _Bad("expected: " + VERBS[verb])
        return {"units": [_unit(t) for t in toks]}
    if verb == "escape":
        if n == 1 and toks[0] in ("always", "never"):
            return {"policy": toks[0]}
        raise _Bad("expected: " + VERBS["escape"] + " (a standing order for every escorted "
                   "prisoner, 21.1)")
    raise _Bad("unknown verb")


def parse(role: str, window: Window, body: str, first_line: int) -> tuple[list, list]:
    """``(orders, problems)`` for ``role``'s order ``body`` in ``window`` (lines counted from
    ``first_line``). Blank lines and ``#`` comments are skipped; words are case-insensitive
    except nothing (unit ids are normalised)."""
    allowed = set(window.verbs.get(role, ()))
    orders, problems = [], []
    for offset, raw in enumerate(body.splitlines()):
        line_no = first_line + offset
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        toks = text.lower().split()
        verb = toks[0]
        if verb not in VERBS:
            problems.append(Problem(line_no, raw.strip(), RULE,
                                    f"unknown order {toks[0]!r}: expected one of "
                                    f"{', '.join(sorted(allowed)) or 'none in this window'}"))
            continue
        if verb not in allowed:
            problems.append(Problem(line_no, raw.strip(), RULE,
                                    f"'{verb}' is not an order of this window ({window.title}): "
                                    f"expected one of {', '.join(sorted(allowed))}"))
            continue
        try:
            args = _parse_line(verb, toks[1:])
        except _Bad as bad:
            problems.append(Problem(line_no, raw.strip(), RULE, bad.why))
            continue
        orders.append(Order(line_no, raw.strip(), verb, args))
    return orders, problems
