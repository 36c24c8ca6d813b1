"""The value types the engine and a ruleset exchange: orders and problems, events with their
audience, windows, outcomes, a state's parts, resolutions, chance, options and role names.

Moved out of :mod:`pbem.engine.ruleset` (DESIGN.md, "The ruleset interface"; the guide is
docs/rulesets.md), which re-exports every name here: games and docs import them from either
module. Each is a plain value (JSON round trips where stored); none knows mail, SQL or templates.

Every fact has an audience. A ruleset's state is dumped as :class:`Parts`: a public part, one
secret part per role and a referee-only part; the engine stores the secret and referee parts
sealed. Every :class:`Event` names its audience (:data:`PUBLIC` for everyone); a role's report
is built only from ``view(state, role)`` and the events whose audience includes that role.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence

PUBLIC = "*"
"""Audience marker: an event every role (and the public log) may see."""

REFEREE = "referee"
"""Owner name of the referee-only part of a state: what no player knows yet."""


def copy_values(value: Any) -> Any:
    """A deep copy of JSON-like values (dicts, lists, tuples, str, int, float, bool, None), as
    ``copy.deepcopy`` makes it, about six times faster: a pickle round trip in memory (pickle's
    C code walks the values once each way, deepcopy's Python code keeps a memo of every object).
    For a state's parts and views, which are built from such values only; an object that
    cannot be pickled raises ``pickle.PicklingError``."""
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


_INVISIBLE = {c: f"\\u{c:04x}" for c in list(range(0x00, 0x20)) + [0x7f]
              + list(range(0x200b, 0x2010)) + list(range(0x202a, 0x202f))
              + list(range(0x2066, 0x206a)) + [0xfeff] if c != 0x09}


def visible(text: str) -> str:
    """``text`` with control, zero-width and bidirectional-override characters written as
    ``\\uXXXX``, so a quoted order line cannot hide or reorder text in a reader's mail client."""
    return text.translate(_INVISIBLE)


@dataclass(frozen=True)
class Problem:
    """Something wrong with one order line, reported to its sender.

    ``line`` is the 1-based line number in the order text (the signed text, header included),
    or ``None`` for a problem with the order set as a whole. ``text`` quotes the offending line,
    ``rule`` names the rule broken ("Atlantis: Ship Movement"), ``why`` says what was expected.
    """

    line: int | None
    text: str
    rule: str
    why: str

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        quoted = f"'{visible(self.text)}': " if self.text else ""
        return f"{where}{quoted}{self.why} ({self.rule})"

    def to_json(self) -> dict:
        return {"line": self.line, "text": self.text, "rule": self.rule, "why": self.why}

    @classmethod
    def from_json(cls, d: dict) -> "Problem":
        return cls(d.get("line"), d.get("text", ""), d.get("rule", ""), d.get("why", ""))


@dataclass(frozen=True)
class Order:
    """One parsed order line: its verb, its arguments and where it came from.

    ``line`` is the 1-based line number in the order text; ``text`` is the line as written.
    ``args`` holds the verb's arguments as plain JSON values (the ruleset defines them).
    """

    line: int
    text: str
    verb: str
    args: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"line": self.line, "text": self.text, "verb": self.verb, "args": self.args}

    @classmethod
    def from_json(cls, d: dict) -> "Order":
        return cls(d["line"], d["text"], d["verb"], dict(d.get("args", {})))


@dataclass(frozen=True)
class Event:
    """Something that happened, with the roles allowed to know it.

    ``audience`` is a tuple of role names, or ``(PUBLIC,)`` for everyone. ``kind`` is a short
    machine name ("sink", "eaten"); ``text`` is the sentence a report shows; ``data`` holds the
    machine-readable facts (JSON values) and must hold nothing the audience may not know.
    """

    kind: str
    text: str
    audience: tuple[str, ...] = (PUBLIC,)
    data: dict = field(default_factory=dict)

    @property
    def public(self) -> bool:
        return PUBLIC in self.audience

    def visible_to(self, role: str) -> bool:
        audience = self.audience  # asked for every event and reader of a phase: no property
        return PUBLIC in audience or role in audience

    def to_json(self) -> dict:
        return {"kind": self.kind, "text": self.text, "audience": list(self.audience),
                "data": self.data}

    @classmethod
    def from_json(cls, d: dict) -> "Event":
        return cls(d["kind"], d["text"], tuple(d.get("audience", [PUBLIC])), dict(d.get("data", {})))


@dataclass(frozen=True)
class Window:
    """Who owes orders now, and for what (DESIGN.md, "The ruleset interface").

    ``turn`` and ``phase`` are the values an order file's header must carry. ``owed`` are the
    roles whose orders complete the window; ``optional`` roles may send orders (standing
    orders, say) but the phase does not wait for them. ``verbs`` lists, per role, the order
    verbs accepted. ``short`` marks a window that gets the game's short deadline (an answer
    to a die roll, say) instead of the normal one. ``simultaneous`` is True when every owed
    role orders at once without seeing the others' orders.
    """

    turn: int
    phase: str
    owed: tuple[str, ...]
    optional: tuple[str, ...] = ()
    verbs: dict = field(default_factory=dict)
    short: bool = False
    simultaneous: bool = False
    title: str = ""

    @property
    def phase_id(self) -> str:
        """The phase identifier used by the dice and the public log: ``"<turn>.<phase>"``."""
        return f"{self.turn}.{self.phase}"

    def accepts(self, role: str) -> bool:
        return role in self.owed or role in self.optional

    def to_json(self) -> dict:
        return {"turn": self.turn, "phase": self.phase, "owed": list(self.owed),
                "optional": list(self.optional), "verbs": self.verbs, "short": self.short,
                "simultaneous": self.simultaneous, "title": self.title}

    @classmethod
    def from_json(cls, d: dict) -> "Window":
        return cls(d["turn"], d["phase"], tuple(d["owed"]), tuple(d.get("optional", ())),
                   dict(d.get("verbs", {})), bool(d.get("short", False)),
                   bool(d.get("simultaneous", False)), d.get("title", ""))


@dataclass(frozen=True)
class Outcome:
    """The end of a game: ``scores`` per role, ``winners`` (ties share), and why it ended."""

    scores: dict
    winners: tuple[str, ...]
    reason: str

    @classmethod
    def from_json(cls, d: dict | None) -> "Outcome | None":
        """The outcome a ruleset keeps in its state as ``{"scores", "winners", "reason"}``
        (JSON values), or None while the game runs (``d`` None)."""
        if d is None:
            return None
        return cls(dict(d["scores"]), tuple(d["winners"]), d["reason"])


@dataclass
class Parts:
    """A state split by audience: ``public`` (everyone), ``secret[role]`` (that role only) and
    ``referee`` (no player yet). Each part is a JSON-serialisable dict."""

    public: dict
    secret: dict
    referee: dict


@dataclass
class Resolution:
    """What resolving a window produced: events in order, and problems per role found while
    carrying the orders out (an order legal when sent may be illegal when its turn comes)."""

    events: list
    problems: dict = field(default_factory=dict)


class Dice(Protocol):
    """A source of die rolls: the verifiable stream of ``pbem.dice``.

    ``roll(sides, why)`` returns 1..sides; ``why`` is the public reason logged with the roll and
    must name no hidden fact. ``shuffle(items, why)`` returns a new list (Fisher-Yates, DESIGN.md).
    """

    def roll(self, sides: int, why: str) -> int: ...

    def shuffle(self, items: Sequence, why: str) -> list: ...


@dataclass
class Chance:
    """The dice a ruleset may use: ``public`` (the phase's stream, every value logged) and
    ``hidden`` (the per-game hidden stream, values logged only at the end; DESIGN.md,
    "Hidden draws use a second stream")."""

    public: Dice
    hidden: Dice


@dataclass(frozen=True)
class OptionSpec:
    """A game option chosen at creation (``--option K=V``): its default, allowed values (or
    None for any), a one-line help, and the source (rule number, or ``stand-in: ...``)."""

    default: Any
    choices: tuple | None
    help: str
    source: str
    kind: type = str


ROLE_NAME = r"^[a-z][a-z0-9]{0,23}$"
"""What every role name must be: it is written in order headers (``role: red``), mail
subjects and file names."""


@dataclass(frozen=True)
class RoleSpec:
    """Which role names a game of a ruleset may be created with (``pbem game new --player
    ROLE=...``): what a ruleset's
    :meth:`pbem.engine.ruleset.Ruleset.role_spec` returns.

    ``names`` are the role names in seat order. With ``fixed`` they are the only names the
    game knows (its windows owe orders from them: Altassar's ``confederation`` and ``spikus``),
    and a game of ``n`` players uses ``n`` different ones of them, all of them when the game
    has a fixed number of players. Without ``fixed`` they are suggestions and any name matching
    ``pattern`` (described by ``pattern_help``) is taken. A name must also match
    :data:`ROLE_NAME`."""

    names: tuple[str, ...]
    fixed: bool = False
    pattern: str = ROLE_NAME
    pattern_help: str = "lower-case letters and digits, starting with a letter"

    def describe(self, min_roles: int, max_roles: int) -> str:
        """One line for help texts: how many players and which role names."""
        count = (f"{min_roles} players" if min_roles == max_roles
                 else f"{min_roles} to {max_roles} players")
        if self.fixed:
            which = ("each of the roles" if len(self.names) == min_roles == max_roles
                     else "each a different one of the roles")
            return f"{count}, {which} {', '.join(self.names)}"
        return (f"{count}, role names of your choice ({self.pattern_help}), such as "
                f"{', '.join(self.names)}")

    def check(self, roles: Sequence[str], title: str, min_roles: int, max_roles: int) -> None:
        """Raise ``ValueError`` unless ``roles`` (in seat order) can be the roles of a game:
        ``min_roles`` to ``max_roles`` different names, each matching ``pattern`` and
        :data:`ROLE_NAME`, and with ``fixed``, each one of ``names`` and none missing. The
        message names the unknown or missing roles and the roles expected."""
        import re

        expected = self.describe(min_roles, max_roles)
        seen = set()
        for r in roles:
            if r in seen:
                raise ValueError(f"role {r!r} is given twice; {title} takes {expected}")
            seen.add(r)
        if self.fixed:
            unknown = [r for r in roles if r not in self.names]
            missing = [r for r in self.names if r not in seen]
            if unknown or len(roles) < min_roles:
                words = []
                if unknown:
                    words.append(f"no role {', '.join(map(repr, unknown))}")
                if len(roles) - len(unknown) < min_roles:
                    words.append(f"missing {', '.join(missing)}" if min_roles == len(self.names)
                                 else f"{len(roles) - len(unknown)} known roles given")
                raise ValueError(f"{title}: {'; '.join(words)}: the game takes {expected} "
                                 f"(--player {self.names[0]}=EMAIL:PUBKEYFILE ...)")
        for r in roles:
            if not re.match(ROLE_NAME, r) or not re.match(self.pattern, r):
                raise ValueError(f"role {r!r}: expected {self.pattern_help} (such as "
                                 f"{self.names[0]}); {title} takes {expected}")
        if not min_roles <= len(roles) <= max_roles:
            raise ValueError(f"{title} takes {expected}; {len(roles)} given")


def check_options(specs: dict, raw: dict | None, game: str) -> dict:
    """Typed option values for ``game`` from ``raw`` (``--option K=V`` strings or typed
    values), defaults filled in from ``specs`` (name -> :class:`OptionSpec`). Raises
    ``ValueError`` quoting an unknown key or a value that is not one of the choices."""
    out = {}
    for key, value in (raw or {}).items():
        if key not in specs:
            raise ValueError(f"unknown option {key!r} for {game}: expected one of "
                             f"{', '.join(specs)}")
        spec = specs[key]
        if isinstance(value, str):
            value = value.strip()
        expected = f"option {key}={value!r}: expected one of " + ", ".join(
            str(c) for c in (spec.choices or ()))
        try:
            typed = spec.kind(value)
        except (TypeError, ValueError):
            raise ValueError(expected) from None
        if isinstance(value, bool) or (spec.kind is int and isinstance(value, float)):
            raise ValueError(expected)
        if spec.choices is not None and typed not in spec.choices:
            raise ValueError(expected)
        out[key] = typed
    for key, spec in specs.items():
        out.setdefault(key, spec.default)
    return out
