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
same table (:meth:`VerbTable.parse` on a body, or :meth:`VerbTable.read` on one line they
write), so an order a bot writes is read the way a player's is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from pbem.engine.ruleset import Order, Problem

__all__ = ["Line", "OrderSyntaxError", "Verb", "VerbTable", "order_lines", "words_of"]


class OrderSyntaxError(ValueError):
    """An order line's arguments do not fit its verb; ``why`` says what is wrong (it may be
    empty: the verb's syntax is then the whole message)."""

    def __init__(self, why: str = ""):
        self.why = why
        super().__init__(why)


@dataclass(frozen=True)
class Line:
    """One order line: ``number`` (1-based, in the signed text), ``text`` (as written, without
    its comment, stripped), ``words`` (lower case, split at white space and commas) and ``raw``
    (the whole line as written, its comment included, stripped; not compared)."""

    number: int
    text: str
    words: tuple
    raw: str = field(default="", compare=False)


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
        raw, text = text, text.split("#", 1)[0].strip()
        words = words_of(text)
        if words:  # a line of commas only is blank
            yield Line(first_line + i, text, words, raw)


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
    single verb's rule covers (an unknown verb, orders from a role owing none). Orders and
    problems quote a line without its comment, or with it when ``quote_comments`` is true (so
    a player recognises the line by the note they wrote on it)."""

    verbs: list
    rule: str
    quote_comments: bool = False
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

    def read(self, text: str, line: int = 0) -> Order:
        """The order one line ``text`` gives (as a bot writes it, comment-free; no window is
        checked), numbered ``line``; raises OrderSyntaxError, whose ``why`` is the problem a
        player would be told, for an unknown verb or arguments that do not fit."""
        words = words_of(text)
        verb = self.verb(words[0]) if words else None
        if verb is None:
            raise OrderSyntaxError(f"unknown order {words[0] if words else ''!r}")
        return Order(line, text.strip(), verb.name, _arguments(verb, words[1:]))

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
            quoted = line.raw if self.quote_comments else line.text
            verb = self.verb(line.words[0])
            if verb is None:
                problems.append(Problem(line.number, quoted, self.rule,
                                        f"unknown order {line.words[0]!r}: expected one of "
                                        f"{expected}"))
                continue
            if verb.name not in allowed:
                problems.append(Problem(line.number, quoted, verb.rule,
                                        f"'{verb.name}' is not an order {role} may give in this "
                                        f"window ({where}); expected one of {expected}"))
                continue
            try:
                args = _arguments(verb, line.words[1:])
            except OrderSyntaxError as bad:
                problems.append(Problem(line.number, quoted, verb.rule, bad.why))
                continue
            orders.append(Order(line.number, quoted, verb.name, args))
        return orders, problems


def _arguments(verb: Verb, words: tuple) -> dict:
    """``verb``'s arguments from ``words``; raises OrderSyntaxError saying why (when the parser
    said) and then the verb's syntax."""
    try:
        return verb.parse(words)
    except OrderSyntaxError as bad:
        why = f"{bad.why}; " if bad.why else ""
        raise OrderSyntaxError(f"{why}expected `{verb.syntax}`") from None
