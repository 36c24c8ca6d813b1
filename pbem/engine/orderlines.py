"""The kit's one order-line reader: how every game reads the body of an order set.

A body is split into lines at LF, CRLF and lone CR only, as the signed text's header is
(pbem.engine.headers), never at the other breaks ``str.splitlines`` knows (form feed, U+2028,
U+0085...), so that a problem names the line number the player sees in the mail they sent.
Blank lines, ``#`` comments (whole lines or the rest of a line) and lines quoted with ``>`` (a
reply's quotation of an earlier order set) are skipped. Words are separated by any white space
(spaces, tabs, no-break spaces) and commas, and are compared in lower case.

A game declares its orders as a :class:`VerbTable` of :class:`Verb` entries: the verb, the
syntax shown to players, the rule it implements, and a parser from the line's words to the
order's arguments that raises :class:`OrderSyntaxError` (the one syntax error type) saying
what is wrong. :meth:`VerbTable.parse` turns a body into ``(orders, problems)``
(pbem.engine.ruleset.Order and Problem) for one role in one window; the game's bots use the
same table, so an order a bot writes is read the way a player's is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

from pbem.engine.ruleset import Order, Problem

__all__ = ["OrderSyntaxError", "Line", "Verb", "VerbTable", "order_lines", "words_of"]


class OrderSyntaxError(ValueError):
    """An order line's arguments do not fit its verb; ``why`` says what is wrong (it may be
    empty: the verb's syntax is then the whole message)."""

    def __init__(self, why: str = ""):
        self.why = why
        super().__init__(why)


@dataclass(frozen=True)
class Line:
    """One order line: ``number`` (1-based, in the signed text), ``text`` (as written, without
    its comment, stripped) and ``words`` (lower case, split at white space and commas)."""

    number: int
    text: str
    words: tuple


def words_of(text: str) -> tuple:
    """The words of an order line: lower case, split at any white space and at commas."""
    return tuple(text.lower().replace(",", " ").split())


def order_lines(body: str, first_line: int = 1) -> Iterator[Line]:
    """The order lines of ``body`` whose first line is line ``first_line`` of the signed text:
    split at LF, CRLF and CR only; blank lines, ``#`` comments and ``>``-quoted lines skipped.
    Never raises, whatever ``body`` holds."""
    for i, raw in enumerate(body.replace("\r\n", "\n").replace("\r", "\n").split("\n")):
        text = raw.strip()
        if not text or text.startswith(("#", ">")):
            continue
        text = text.split("#", 1)[0].strip()
        words = words_of(text)
        if words:  # a line of commas only is blank
            yield Line(first_line + i, text, words)


@dataclass(frozen=True)
class Verb:
    """One kind of order: ``name`` (the first word), ``syntax`` (as shown to players, e.g.
    ``move UNIT HEX...``), ``rule`` (the rule it carries out, e.g. "Altassar 5.2"), ``parse``
    (the words after the verb -> the order's arguments as JSON values; raises
    OrderSyntaxError), and ``aliases`` (other first words meaning the same verb)."""

    name: str
    syntax: str
    rule: str
    parse: Callable[[tuple], dict]
    aliases: tuple = ()


@dataclass
class VerbTable:
    """A game's orders (see the module docstring). ``rule`` is cited for problems that no
    single verb's rule covers (an unknown verb, orders from a role owing none)."""

    verbs: list
    rule: str
    _by_word: dict = field(init=False, repr=False)

    def __post_init__(self):
        self._by_word = {}
        for v in self.verbs:
            for word in (v.name, *v.aliases):
                if word in self._by_word:
                    raise ValueError(f"order word {word!r} is declared twice")
                self._by_word[word] = v

    def verb(self, word: str) -> Verb | None:
        """The verb a first word names (aliases included), or None."""
        return self._by_word.get(word.lower())

    def syntax(self) -> dict:
        """``{verb name: syntax}`` in declaration order (for templates and ``pbem rules``)."""
        return {v.name: v.syntax for v in self.verbs}

    def parse(self, role: str, window, body: str, first_line: int) -> tuple[list, list]:
        """``(orders, problems)`` for ``role``'s order ``body`` in ``window`` (a
        pbem.engine.ruleset.Window; its ``verbs[role]`` are the verbs allowed): one Problem per
        line with an unknown verb, a verb not allowed in this window, or arguments that do not
        fit (quoting the line, the rule and the expected syntax), and one for a body from a
        role that owes no orders. Never raises."""
        orders: list[Order] = []
        problems: list[Problem] = []
        where = window.title or window.phase
        allowed = tuple(window.verbs.get(role, ()))
        if not window.accepts(role):
            problems.append(Problem(None, "", self.rule,
                                    f"{role} sends no orders in this window ({where})"))
            return orders, problems
        expected = ", ".join(allowed) or "no orders in this window"
        for line in order_lines(body, first_line):
            verb = self.verb(line.words[0])
            if verb is None:
                problems.append(Problem(line.number, line.text, self.rule,
                                        f"unknown order {line.words[0]!r}: expected one of "
                                        f"{expected}"))
                continue
            if verb.name not in allowed:
                problems.append(Problem(line.number, line.text, verb.rule,
                                        f"'{verb.name}' is not an order {role} may give in this "
                                        f"window ({where}); expected one of {expected}"))
                continue
            try:
                args = verb.parse(line.words[1:])
            except OrderSyntaxError as bad:
                why = f"{bad.why}; " if bad.why else ""
                problems.append(Problem(line.number, line.text, verb.rule,
                                        f"{why}expected `{verb.syntax}`"))
                continue
            orders.append(Order(line.number, line.text, verb.name, args))
        return orders, problems
