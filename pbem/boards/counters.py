"""Counters of hex-and-counter wargames: printed counter types, the counters on the map, and
stacking rules given per game as data (docs/combat.md, "Counters and stacking").

- :class:`CounterType`: what is printed on one kind of counter (attack, defense, movement,
  range, evasion ...), which side owns it, how many the game has, and where the values come
  from (rulebook rule, or ``stand-in: ...``).
- :class:`Counter`: one counter in play: its id, kind, owner, hex (or None off the map) and
  whether it lies face up; serialised with :meth:`Counter.to_json` / :meth:`Counter.from_json`.
- :class:`StackingRule`: which mixes of kinds may share a hex, as a list of allowed patterns
  and the kinds that never count (Escape from Altassar 6.0: "a maximum of four Trip Nets and
  one Spikus soldier, OR one Trip Net and one prisoner/dummy unit"; Signal Posts do not count,
  6.5). :meth:`StackingRule.check` quotes a stack that fits no pattern.

Nothing here knows a particular game: kinds, sides and value names are the game's own words.
"""

from __future__ import annotations

from collections import Counter as _Multiset
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from . import hexgrid

__all__ = ["Counter", "CounterError", "CounterType", "StackingDataError", "StackingRule"]


class CounterError(ValueError):
    """A counter or counter type whose fields cannot be used (an empty kind, a value that is
    not a whole number, a hex that is not a four-digit label, an unknown key in saved state).
    The message quotes the offending value and says what was expected."""


class StackingDataError(ValueError):
    """A stacking rule in a data file that cannot be used. The message names the file given to
    :meth:`StackingRule.from_data`, the key path (``stacking.patterns[1].soldier``, list
    indexes counted from 0 as in the TOML array), the value found and what was expected."""


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_name(v: Any) -> bool:
    return isinstance(v, str) and v.strip() == v and v != ""


@dataclass(frozen=True)
class CounterType:
    """One kind of counter as printed.

    - ``kind``: the game's name for it (``"soldier"``, ``"tracker"``, ``"dummy"``);
    - ``side``: the side (role) whose counters these are (``"spikus"``);
    - ``values``: the printed values by name, whole numbers (``{"attack": 3, "defense": 3,
      "movement": 6, "range": 3}``; range and movement in hexes and movement points);
    - ``count``: how many counters of this kind the game has (0 or more);
    - ``source``: where the values come from (``"rulebook 7.31"`` or ``"stand-in: ..."``);
    - ``name``: the name printed on the counter key (``"Spikus soldier"``); ``kind`` when
      not given.

    ``values`` is copied at construction; treat it as read-only. Raises :class:`CounterError`
    for an empty ``kind`` or ``side``, a value name that is not a non-empty string, a value
    that is not a whole number, a negative ``count`` or an empty ``source``.
    """

    kind: str
    side: str
    values: dict[str, int]
    count: int
    source: str
    name: str = ""

    def __post_init__(self):
        if not self.name:
            object.__setattr__(self, "name", self.kind)
        for name in ("kind", "side", "source"):
            value = getattr(self, name)
            if not _is_name(value):
                raise CounterError(f"counter type {name} {value!r}: expected a non-empty string "
                                   f"without surrounding spaces")
        if not isinstance(self.values, Mapping):
            raise CounterError(f"counter type {self.kind!r}: values {self.values!r}: expected a "
                               f"table of value name = whole number")
        values = dict(self.values)
        for name, value in values.items():
            if not _is_name(name):
                raise CounterError(f"counter type {self.kind!r}: value name {name!r}: expected "
                                   f"a non-empty string")
            if not _is_int(value):
                raise CounterError(f"counter type {self.kind!r}: {name} = {value!r}: expected a "
                                   f"whole number")
        object.__setattr__(self, "values", values)
        if not _is_int(self.count) or self.count < 0:
            raise CounterError(f"counter type {self.kind!r}: count {self.count!r}: expected a "
                               f"whole number, 0 or more")

    def value(self, name: str, default: int | None = None) -> int | None:
        """The printed value called ``name``, or ``default`` when this kind has none (a dummy
        has no attack)."""
        return self.values.get(name, default)

    def __hash__(self) -> int:
        return hash((self.kind, self.side, tuple(sorted(self.values.items())), self.count,
                     self.source, self.name))


_COUNTER_KEYS = ("kind", "owner", "hex", "face_up")


@dataclass
class Counter:
    """One counter in play.

    - ``id``: its name in the game state and in orders; a game that hides counters chooses ids
      that tell nothing (no tell-tale numbering), which is the game's business;
    - ``kind``: its :class:`CounterType` kind;
    - ``owner``: the role that owns it;
    - ``hex``: the four-digit label of its hex, or None when it is off the map (in the box,
      eliminated, carried);
    - ``face_up``: True when both players may see what it is; False when it lies face down
      (Altassar 5.22: Confederation units move concealed).

    Raises :class:`CounterError` for an empty ``id``, ``kind`` or ``owner``, a ``hex`` that
    is not None or a four-digit label, or a ``face_up`` that is not a bool.
    """

    id: str
    kind: str
    owner: str
    hex: str | None
    face_up: bool = True

    def __post_init__(self):
        for name in ("id", "kind", "owner"):
            value = getattr(self, name)
            if not _is_name(value):
                raise CounterError(f"counter {name} {value!r}: expected a non-empty string "
                                   f"without surrounding spaces")
        if self.hex is not None and not hexgrid.is_label(self.hex):
            raise CounterError(f"counter {self.id!r}: hex {self.hex!r}: expected a four-digit "
                               f"label such as '0504', or None when off the map")
        if not isinstance(self.face_up, bool):
            raise CounterError(f"counter {self.id!r}: face_up {self.face_up!r}: expected true "
                               f"or false")

    def to_json(self) -> dict:
        """``{"kind": str, "owner": str, "hex": str | None, "face_up": bool}``: the counter
        without its id (state keeps counters in a table keyed by id)."""
        return {"kind": self.kind, "owner": self.owner, "hex": self.hex,
                "face_up": self.face_up}

    @classmethod
    def from_json(cls, id: str, d: Mapping) -> "Counter":
        """The counter ``id`` saved by :meth:`to_json` as ``d`` (``face_up`` defaults to True).

        Raises :class:`CounterError` for a missing ``kind``, ``owner`` or ``hex``, an unknown
        key, or a field the constructor refuses."""
        if not isinstance(d, Mapping):
            raise CounterError(f"counter {id!r}: {d!r}: expected a table of "
                               f"{', '.join(_COUNTER_KEYS)}")
        for key in d:
            if key not in _COUNTER_KEYS:
                raise CounterError(f"counter {id!r}: unknown key {key!r}: expected "
                                   f"{', '.join(_COUNTER_KEYS)}")
        for key in ("kind", "owner", "hex"):
            if key not in d:
                raise CounterError(f"counter {id!r}: no {key!r} in {dict(d)!r}: expected "
                                   f"{', '.join(_COUNTER_KEYS)}")
        return cls(id=id, kind=d["kind"], owner=d["owner"], hex=d["hex"],
                   face_up=d.get("face_up", True))


_STACKING_KEYS = ("patterns", "ignored", "source")


def _stack_text(counts: Mapping[str, int]) -> str:
    return " + ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))


@dataclass(frozen=True)
class StackingRule:
    """Which counters may share a hex, as data.

    - ``patterns``: the allowed stacks, each a table ``kind -> max count`` (``{"soldier": 1,
      "trip-net": 4}``). A stack is allowed when it fits at least one pattern: every kind in
      the stack is in the pattern with no more counters than its maximum. So a kind that may
      stand alone needs a pattern of its own (``{"tracker": 1}``), and a pattern allows any
      part of itself (three trip nets alone fit ``{"soldier": 1, "trip-net": 4}``).
    - ``ignored``: kinds that never count and may join any stack (Altassar 6.5, Signal Posts).
    - ``source``: the rule (``"rulebook 6.1-6.5"``), quoted in every refusal.

    Patterns are copied at construction. Raises :class:`StackingDataError` for a malformed
    pattern (see :meth:`from_data` for the checks), with ``stacking`` as the key path.
    """

    patterns: tuple[dict[str, int], ...]
    ignored: frozenset[str]
    source: str

    def __post_init__(self):
        patterns, ignored = _check_stacking(
            {"patterns": list(self.patterns) if isinstance(self.patterns, (list, tuple))
             else self.patterns,
             "ignored": sorted(self.ignored) if isinstance(self.ignored, (set, frozenset))
             else self.ignored,
             "source": self.source},
            "StackingRule", "stacking")
        object.__setattr__(self, "patterns", patterns)
        object.__setattr__(self, "ignored", ignored)

    @classmethod
    def from_data(cls, d: Mapping, where: str = "data.toml", *,
                  path: str = "stacking") -> "StackingRule":
        """The rule described by ``d`` as read from a game's TOML data file::

            {"patterns": [{"soldier": 1, "trip-net": 4}, {"prisoner": 1, "trip-net": 1}],
             "ignored": ["signal-post"],          # optional, default none
             "source": "rulebook 6.1-6.5"}

        ``where`` names the file and ``path`` the table's key in it, for messages. Raises
        :class:`StackingDataError` naming ``where``, the key path, the value and what was
        expected, for: ``d`` not a table; an unknown key; a missing or empty ``source``; no
        patterns; a pattern that is not a non-empty table; a kind that is not a non-empty
        string; a maximum that is not a whole number of at least 1; a pattern listed twice;
        ``ignored`` not a list of kinds, or naming a kind twice or a kind that a pattern
        counts.
        """
        patterns, ignored = _check_stacking(d, where, path)
        return cls(patterns=patterns, ignored=ignored, source=d["source"])

    def check(self, kinds: Iterable[str]) -> str | None:
        """None when the counters of ``kinds`` (one kind per counter, in any order; ignored
        kinds dropped) may share a hex: an empty hex always may, otherwise the multiset must
        fit at least one pattern. Else a sentence quoting the stack (kinds sorted, ignored ones
        left out) and the rule's source: ``"2 soldier + 1 tracker is not an allowed stack
        (rulebook 6.1-6.5)"``."""
        counts = _Multiset(k for k in kinds if k not in self.ignored)
        if not counts:
            return None
        for pattern in self.patterns:
            if all(n <= pattern.get(kind, 0) for kind, n in counts.items()):
                return None
        return f"{_stack_text(counts)} is not an allowed stack ({self.source})"

    def allows(self, kinds: Iterable[str]) -> bool:
        """True when :meth:`check` finds nothing wrong with ``kinds``."""
        return self.check(kinds) is None

    def describe(self) -> str:
        """The rule in one line for ``pbem rules``: ``"at most 1 soldier + 4 trip-net, or at
        most 1 prisoner + 1 trip-net; signal-post never counts (rulebook 6.1-6.5)"``."""
        text = ", or ".join(f"at most {_stack_text(p)}" for p in self.patterns)
        if self.ignored:
            names = ", ".join(sorted(self.ignored))
            text += f"; {names} never count{'s' if len(self.ignored) == 1 else ''}"
        return f"{text} ({self.source})"

    def __hash__(self) -> int:
        return hash((tuple(frozenset(p.items()) for p in self.patterns), self.ignored,
                     self.source))


def _check_stacking(d: Any, where: str, path: str) -> tuple[tuple[dict[str, int], ...],
                                                            frozenset[str]]:
    """Check the stacking data ``d`` (shape of :meth:`StackingRule.from_data`); return the
    patterns (copied) and the ignored kinds. Raises :class:`StackingDataError`."""

    def fail(key: str, value: Any, why: str):
        raise StackingDataError(f"{where}: {key} = {value!r}: {why}")

    if not isinstance(d, Mapping):
        fail(path, d, "expected a table with patterns, ignored and source")
    for key in d:
        if key not in _STACKING_KEYS:
            fail(f"{path}.{key}", d[key],
                 f"unknown key: a stacking rule has the keys {', '.join(_STACKING_KEYS)}")
    source = d.get("source")
    if not isinstance(source, str) or not source.strip():
        fail(f"{path}.source", source,
             "expected the rule's source as text, such as \"rulebook 6.1-6.5\"")
    raw = d.get("patterns")
    if not isinstance(raw, (list, tuple)) or not raw:
        fail(f"{path}.patterns", raw, "expected a non-empty list of tables of kind = "
             "max count, such as [{soldier = 1, trip-net = 4}]")
    patterns: list[dict[str, int]] = []
    for i, pattern in enumerate(raw):
        key = f"{path}.patterns[{i}]"
        if not isinstance(pattern, Mapping) or not pattern:
            fail(key, pattern, "expected a non-empty table of kind = max count")
        for kind, most in pattern.items():
            if not _is_name(kind):
                fail(key, kind, "expected kinds named by non-empty strings")
            if not _is_int(most) or most < 1:
                fail(f"{key}.{kind}", most, "expected a whole number of counters, at least 1")
        copy = dict(pattern)
        if copy in patterns:
            fail(key, pattern, f"the same pattern as {path}.patterns[{patterns.index(copy)}]: "
                 f"expected each pattern once")
        patterns.append(copy)
    raw_ignored = d.get("ignored", [])
    if not isinstance(raw_ignored, (list, tuple)):
        fail(f"{path}.ignored", raw_ignored, "expected a list of kinds, such as "
             "[\"signal-post\"]")
    ignored: set[str] = set()
    for i, kind in enumerate(raw_ignored):
        key = f"{path}.ignored[{i}]"
        if not _is_name(kind):
            fail(key, kind, "expected a kind named by a non-empty string")
        if kind in ignored:
            fail(key, kind, "listed twice: expected each kind once")
        for j, pattern in enumerate(patterns):
            if kind in pattern:
                fail(key, kind, f"also counted by {path}.patterns[{j}]: a kind is either "
                     f"ignored or counted, not both")
        ignored.add(kind)
    return tuple(patterns), frozenset(ignored)
