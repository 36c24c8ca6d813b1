"""Sourced data: the kit every ruleset's data file is read with (issue 9, "The kit"; GAMES.md,
"How to handle what the rulebooks do not say").

A game's ``data.toml`` holds every table and counter value with a ``source`` (``rulebook 7.71``,
``derived from ...``, ``stand-in: ...``, ``house rules``). This module gives, once for every game:

- :class:`DataError` and :data:`HOUSE_SOURCE`;
- :func:`merge_house_rules`: a referee's ``--house-rules`` table deep-merged over the data, every
  entry it changes marked ``house rules`` (followed by its own source when it gives one,
  :func:`house_source`; :func:`in_force` finds them for the setup report); :class:`MergeRules`
  declares what a game's data allows beyond that (rows a house rule may add, lists of rows
  merged by a key column, per-value ``sources``);
- :func:`walk_sources`: every sourced entry as ``(path, values, source)``, for ``pbem rules``
  and the stand-ins of the setup report (:func:`show_entry` writes one on a line;
  :func:`source_of` gives one column's source);
- declarative checks: a schema (:class:`Table`, :class:`Row`, :class:`Value`,
  :class:`Delegate`) of checkers (:func:`whole`, :func:`text`, :func:`boolean`,
  :func:`list_of`, :func:`one_of`, :func:`equals`, and :func:`described` to word a checker's
  expectation in the game's terms) run by :func:`check`, whose errors name the
  origin (``data.toml`` or ``house rules``), the key path, the value found and what was
  expected: ``house rules: people.land_capacity.value = 0: expected a whole number at least 1``;
- :func:`load_sourced`: read, check, merge, check again.

Shapes: an *entry* is a table with a string ``source``: either ``{ value = ..., source = "..." }``
or a row of named columns with a ``source`` (and, optionally, ``sources``: column -> its own
source). Tables without a ``source`` group entries (sections, rows by name).
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Iterator, Mapping, NamedTuple, Sequence, Union

__all__ = [
    "HOUSE_SOURCE", "DataError", "data_error", "house_source", "in_force", "is_whole",
    "MergeRules", "merge_house_rules", "load_sourced", "TableMemo",
    "Sourced", "walk_sources", "show_value", "show_values", "show_entry", "source_of",
    "Check", "whole", "text", "boolean", "one_of", "equals", "list_of", "described",
    "Value", "Row", "Table", "Delegate", "Schema", "check",
]

HOUSE_SOURCE = "house rules"
"""The source an entry changed by a house rule gets when the house rule gives none."""


class DataError(ValueError):
    """A data file or house-rules table that does not fit the game: an unknown key, a missing
    key, or a value of the wrong type or range. The message names where it came from
    (``data.toml`` or ``house rules``), the key path (``people.land_capacity``), the value
    found and what was expected."""


def data_error(origin: str, path: str, value: Any, why: str) -> DataError:
    """The :class:`DataError` ``"{origin}: {path} = {value!r}: {why}"`` (``why`` says what was
    expected), for a game's cross-checks to raise."""
    return DataError(f"{origin}: {path} = {value!r}: {why}")


def is_whole(v: Any) -> bool:
    """True for an ``int`` that is not a ``bool`` (TOML's integers)."""
    return isinstance(v, int) and not isinstance(v, bool)


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def _is_entry(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("source"), str)


def _holds_sources(node: Any) -> bool:
    """True when ``node`` (a dict or list) is or contains an entry with its own source."""
    if _is_entry(node):
        return True
    if isinstance(node, dict):
        return any(_holds_sources(v) for v in node.values())
    if isinstance(node, list):
        return any(_holds_sources(v) for v in node)
    return False


# -- house rules ------------------------------------------------------------------------------
@dataclass(frozen=True)
class MergeRules:
    """What a game's house rules may do beyond the common merge (see :func:`merge_house_rules`).

    - ``open_tables``: dotted path of a table -> the names a house rule may add as new rows
      there (Atlantis: ``{"manifest": SYMBOLS}``); rows of an open table take new columns too
      (the data check judges them).
    - ``keyed_lists``: dotted path of a list of rows -> the column naming a row (Altassar:
      ``{"crt.rows": "die"}``): a house-rules list replaces the rows with the same key, adds
      new ones and leaves the others with their sources; rows are kept sorted by that key.
    - ``value_sources``: columns whose change is marked in the row's own ``sources`` table
      (``sources.attack = "house rules"``) when the row has one, instead of the row's
      ``source`` (Altassar's counter values).
    """

    open_tables: Mapping[str, Collection[str]] = field(default_factory=dict)
    keyed_lists: Mapping[str, str] = field(default_factory=dict)
    value_sources: Collection[str] = ()


PLAIN = MergeRules()
"""The common merge, with nothing more allowed."""


def house_source(own: Any) -> Any:
    """The source of an entry a house rule changed: :data:`HOUSE_SOURCE`, or with the house
    rule's own source after it (``"house rules: club rule"``), so that the setup report's
    list of what is in force (:func:`in_force`) still finds it. A value that is not text is
    left for the data check to refuse."""
    if own is None:
        return HOUSE_SOURCE
    if not isinstance(own, str) or own.startswith(HOUSE_SOURCE):
        return own
    return f"{HOUSE_SOURCE}: {own}"


def in_force(source: str) -> bool:
    """True for a source the setup report lists among the stand-ins and house rules in force:
    a ``stand-in`` or a house rule (:func:`house_source`)."""
    return "stand-in" in source or source.startswith(HOUSE_SOURCE)


def merge_house_rules(data: dict, house: Any, rules: MergeRules = PLAIN, path: str = "") -> None:
    """Merge the house-rules table ``house`` into ``data`` in place (``path``: the dotted key of
    ``data`` within the whole table, "" at the top).

    A bare value replaces an entry's ``value``; a table replaces the columns it names (a column
    holding entries of its own, such as a table of results, is merged the same way, and
    ``sources`` is updated key by key); an entry changed gets the source :data:`HOUSE_SOURCE`,
    followed by its own ``source`` when the house rule gives one (:func:`house_source`).
    ``rules`` (:class:`MergeRules`) adds what a game allows more.
    Raises :class:`DataError` (origin ``house rules``) for an unknown key, for a table where
    the data holds a value, and for a bare value where it holds a row."""
    if not isinstance(house, dict):
        raise DataError(f"house rules: {path or 'the file'} = {house!r}: expected a table")
    for key, value in house.items():
        where = _join(path, key)
        if key not in data:
            if key not in rules.open_tables.get(path, ()):
                raise DataError(f"house rules: unknown key {where!r}: expected one of "
                                f"{', '.join(sorted(data)) or 'nothing'}")
            data[key] = {"source": HOUSE_SOURCE}
        entry = data[key]
        if _is_entry(entry):
            _merge_entry(entry, value, rules, where, open_row=path in rules.open_tables)
        elif isinstance(entry, dict):
            merge_house_rules(entry, value, rules, where)
        else:
            raise DataError(f"house rules: {where}: cannot be set")


def _merge_entry(entry: dict, value: Any, rules: MergeRules, where: str, open_row: bool) -> None:
    columns = [k for k in entry if k not in ("source", "sources")]
    if not isinstance(value, dict):
        if "value" not in entry:
            raise DataError(f"house rules: {where} = {value!r}: expected a table of "
                            f"{', '.join(columns)}")
        entry["value"] = value
        entry["source"] = HOUSE_SOURCE
        return
    marked_row = False
    for column, v in value.items():
        at = f"{where}.{column}"
        if column == "source":
            entry["source"] = house_source(v)
            continue
        if column not in entry and not open_row:
            raise DataError(f"house rules: unknown key {at!r}: expected one of "
                            f"{', '.join(sorted(columns))}, source")
        old = entry.get(column)
        if at in rules.keyed_lists:
            entry[column] = _merge_keyed(old, v, at, rules.keyed_lists[at])
        elif column == "sources" and isinstance(old, dict) and isinstance(v, dict):
            old.update({k: house_source(x) for k, x in v.items()})
        elif isinstance(old, dict) and _holds_sources(old):
            merge_house_rules(old, v, rules, at)
        else:
            entry[column] = v
            own = entry.get("sources")
            if column in rules.value_sources and isinstance(own, dict):
                if column not in (value.get("sources") or {}):
                    own[column] = HOUSE_SOURCE
            else:
                marked_row = True
    if marked_row and "source" not in value:
        entry["source"] = HOUSE_SOURCE


def _merge_keyed(rows: Any, house: Any, where: str, key: str) -> list:
    """House-rule rows replacing the rows of ``rows`` with the same ``key`` (and adding new
    ones), each marked ``house rules`` unless it gives a source; sorted by ``key`` (whole
    numbers first, then the rest as text, for the data check to judge)."""
    if not isinstance(house, list) or not all(isinstance(r, dict) and key in r for r in house):
        raise DataError(f"house rules: {where} = {house!r}: expected a list of rows, each "
                        f"with its {key!r} (the row it replaces or adds) {{ {key} = ..., ... }}")
    by_key = {r.get(key): r for r in (rows if isinstance(rows, list) else [])
              if isinstance(r, dict)}
    for r in house:
        by_key[r[key]] = dict(r, source=house_source(r.get("source")))
    return [by_key[k] for k in sorted(
        by_key, key=lambda k: (0, k, "") if is_whole(k) else (1, 0, str(k)))]


class TableMemo:
    """A value built from a data table (a game's typed ``Rules``), remembered: by the table
    object (the role states of one phase share one table) and, when the object is new (the
    table read back from the stored JSON), by its content (compared with ``==``, the newest
    first), so a game's tables are built once per process. ``build(data) -> value``; at most
    ``size`` contents are kept. A table is a value: it must not be changed once built."""

    def __init__(self, build: Callable[[dict], Any], size: int = 16):
        self._build, self._size = build, size
        self._seen: list[tuple] = []  # [(table, value)], the last one used first

    def __call__(self, data: dict) -> Any:
        seen = self._seen
        if seen and seen[0][0] is data:
            return seen[0][1]
        for i, (table, value) in enumerate(seen):
            if table is data or table == data:  # C-level comparison: no JSON text built
                if i:
                    seen.insert(0, seen.pop(i))
                return value
        value = self._build(data)
        seen.insert(0, (data, value))
        del seen[self._size:]
        return value


# -- walking the sources ----------------------------------------------------------------------
class Sourced(NamedTuple):
    """One sourced entry: its dotted ``path`` (list items as ``rows[0]``), ``values`` (its
    columns other than ``source``, ``sources`` and those carrying their own source, in file
    order) and its ``source``."""

    path: str
    values: dict
    source: str


def walk_sources(data: Any, path: str = "") -> Iterator[Sourced]:
    """Every sourced entry of ``data`` in file order, as :class:`Sourced`. A column with its own
    source in a row's ``sources`` table is its own entry (``units.soldier.range``), after its
    row (with no values when it names no column of the row: a CRT row's ``sources`` name odds
    columns); tables and lists of entries inside an entry (a CRT's rows) come after it too."""
    if _is_entry(data):
        own = data.get("sources") if isinstance(data.get("sources"), dict) else {}
        nested = [k for k, v in data.items()
                  if k not in ("source", "sources") and isinstance(v, (dict, list))
                  and _holds_sources(v)]
        values = {k: v for k, v in data.items()
                  if k not in ("source", "sources") and k not in own and k not in nested}
        yield Sourced(path, values, data["source"])
        for column, src in own.items():
            if isinstance(src, str):  # a column of the row, or a label it knows (a CRT's odds)
                yield Sourced(_join(path, column),
                              {column: data[column]} if column in data else {}, src)
        for k in nested:
            yield from walk_sources(data[k], _join(path, k))
    elif isinstance(data, dict):
        for k, v in data.items():
            yield from walk_sources(v, _join(path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from walk_sources(v, f"{path}[{i}]")


def show_value(value: Any) -> str:
    """A value as the data file writes it: ``true``/``false`` for a boolean (TOML, not
    Python's ``True``), ``str`` of anything else."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def show_values(values: Mapping, show: Callable[[Any], str] = show_value) -> str:
    """``values`` written ``k = v, k = v`` (``show`` writes a value), as ``pbem rules`` and the
    stand-ins list an entry."""
    return ", ".join(f"{k} = {show(v)}" for k, v in values.items())


def show_entry(entry: Sourced, show: Callable[[Any], str] = show_value) -> str:
    """``entry`` on one line, as ``pbem rules`` and the stand-ins list it: ``path: k = v, k =
    v (source)``, or ``path: source`` for an entry without values (``show`` writes a value)."""
    shown = show_values(entry.values, show)
    return f"{entry.path}: {shown} ({entry.source})" if shown else f"{entry.path}: {entry.source}"


def source_of(row: Mapping, column: str, default: str | None = None) -> str | None:
    """The source of one ``column`` of a row: its own in the row's ``sources`` table, else the
    row's ``source``, else ``default`` (a CRT row without a source: the table's)."""
    own = row.get("sources") or {}
    return own[column] if column in own else row.get("source", default)


# -- checkers ---------------------------------------------------------------------------------
Check = Callable[[Any], Union[str, None]]
"""A checker: None for a good value, else what was expected (``"expected true or false"``)."""


def whole(lo: int | None = None, hi: int | None = None, what: str = "a whole number") -> Check:
    """A whole number (not a bool) from ``lo`` to ``hi`` (either may be None: unbounded).
    Expected: ``a whole number from 1 to 99``, ``... at least 1``, ``... at most 6``."""
    if lo is not None and hi is not None:
        expected = f"expected {what} from {lo} to {hi}"
    elif lo is not None:
        expected = f"expected {what} at least {lo}"
    elif hi is not None:
        expected = f"expected {what} at most {hi}"
    else:
        expected = f"expected {what}"

    def check_whole(v: Any) -> str | None:
        ok = is_whole(v) and (lo is None or v >= lo) and (hi is None or v <= hi)
        return None if ok else expected
    return check_whole


def text(v: Any) -> str | None:
    """A non-empty string."""
    return None if isinstance(v, str) and v else "expected a non-empty string"


def boolean(v: Any) -> str | None:
    """``true`` or ``false``."""
    return None if isinstance(v, bool) else "expected true or false"


def one_of(choices: Sequence) -> Check:
    """One of ``choices`` (compared with ``==``; a bool never matches a number)."""
    def check_one_of(v: Any) -> str | None:
        ok = any(v == c and isinstance(v, bool) == isinstance(c, bool) for c in choices)
        return None if ok else f"expected one of {', '.join(map(str, choices))}"
    return check_one_of


def equals(x: Any) -> Check:
    """Exactly ``x`` (expected: ``'spikus'``)."""
    return lambda v: None if v == x and type(v) is type(x) else f"expected {x!r}"


def list_of(item: Check, what: str, least: int = 1, most: int | None = None,
            distinct: bool = False) -> Check:
    """A list of ``least`` to ``most`` items, each passing ``item`` (and all different with
    ``distinct``). ``what`` is the whole expectation (``"a non-empty list of whole numbers 0 or
    more"``)."""
    def check_list(v: Any) -> str | None:
        ok = (isinstance(v, list) and len(v) >= least and (most is None or len(v) <= most)
              and all(item(x) is None for x in v))
        if ok and distinct:
            ok = len({repr(x) for x in v}) == len(v)
        return None if ok else f"expected {what}"
    return check_list


def described(item: Check, what: str) -> Check:
    """``item`` with its expectation worded ``expected {what}``, in the rulebook's terms:
    ``described(one_of("ABC"), "an Attack Rating: A, B, C")``, ``described(equals(0), "0: a
    Battery has no Movement Rating")``."""
    return lambda v: None if item(v) is None else f"expected {what}"


# -- schema -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Value:
    """An entry ``{ value = ..., source = "..." }`` whose ``value`` passes ``check``."""

    check: Check


@dataclass(frozen=True)
class Row:
    """A row of named ``columns`` (each required, each with its checker) and a ``source``.
    ``other``: the checker of columns not named (None: such a column is an unknown key).
    ``sources``: the columns that may carry their own source in the row's ``sources`` table
    (empty: no ``sources`` table). ``shape`` says what the row is when it is not a table
    (default: its columns, ``{ max_move = ..., pieces = ..., source = ... }``)."""

    columns: Mapping[str, Check]
    other: Check | None = None
    sources: Sequence[str] = ()
    shape: str | None = None


@dataclass(frozen=True)
class Delegate:
    """A value judged by ``judge(value, origin)``, which raises ``ValueError`` naming
    ``origin`` (a combat table's or a stacking rule's own loader); it becomes a
    :class:`DataError` with the same message."""

    judge: Callable[[Any, str], Any]


@dataclass(frozen=True)
class Table:
    """A table of keys: ``entries`` (key -> schema) are required, in this order; other keys
    are allowed only when ``rows`` gives their schema, and then only among ``names`` (when
    given). ``what`` names a key in the unknown-key message (``unknown creature: expected
    one of ...``); ``missing`` is the message for a missing entry (default: the entry's own
    expectation)."""

    entries: Mapping[str, "Schema"] = field(default_factory=dict)
    rows: "Schema | None" = None
    names: Sequence[str] | None = None
    what: str = "key"
    missing: str | None = None


Schema = Union[Table, Row, Value, Delegate, Callable[[Any], Union[str, None]]]
"""A schema node: a :class:`Table`, :class:`Row`, :class:`Value`, :class:`Delegate`, or a
bare checker for a plain value."""


def check(data: Any, schema: Schema, origin: str, path: str = "") -> None:
    """Raise :class:`DataError` ``"{origin}: {path} = {value!r}: expected ..."`` at the first
    place ``data`` does not fit ``schema``; ``origin`` is ``data.toml`` or ``house rules``."""
    def fail(at: str, value: Any, why: str):
        raise data_error(origin, at, value, why)

    if isinstance(schema, Table):
        _check_table(data, schema, origin, path, fail)
    elif isinstance(schema, Row):
        _check_row(data, schema, path, fail)
    elif isinstance(schema, Value):
        if not isinstance(data, dict) or "value" not in data:
            fail(path, data, "expected a table { value = ..., source = \"...\" }")
        extra = set(data) - {"value", "source"}
        if extra:
            fail(path, data, f"unknown keys {sorted(extra)}: expected value and source")
        _check_source(data, path, fail)
        why = schema.check(data["value"])
        if why:
            fail(f"{path}.value", data["value"], why)
    elif isinstance(schema, Delegate):
        try:
            schema.judge(data, origin)
        except DataError:
            raise
        except ValueError as err:
            raise DataError(str(err)) from None
    else:
        why = schema(data)
        if why:
            fail(path, data, why)


def _check_source(entry: dict, path: str, fail) -> None:
    if not isinstance(entry.get("source"), str) or not entry["source"]:
        fail(f"{path}.source", entry.get("source"), "expected a non-empty string")


def _check_table(data: Any, schema: Table, origin: str, path: str, fail) -> None:
    if not isinstance(data, dict):
        fail(path, data, "expected a table")
    allowed = list(schema.entries) + [n for n in (schema.names or ()) if n not in schema.entries]
    for key, value in data.items():
        known = key in schema.entries or (
            schema.rows is not None and (schema.names is None or key in schema.names))
        if not known:
            fail(_join(path, key), "..." if isinstance(value, dict) else value,
                 f"unknown {schema.what}: expected one of {', '.join(allowed) or 'nothing'}")
    for key, sub in schema.entries.items():
        if key not in data and schema.missing:
            fail(_join(path, key), None, schema.missing)
    for key, sub in schema.entries.items():
        check(data.get(key), sub, origin, _join(path, key))
    for key, value in data.items():
        if key not in schema.entries:
            check(value, schema.rows, origin, _join(path, key))


def _check_row(row: Any, schema: Row, path: str, fail) -> None:
    names = list(schema.columns) + ["source"] + (["sources"] if schema.sources else [])
    if not isinstance(row, dict):
        fail(path, row, "expected " + (schema.shape or "a table { "
                                       + ", ".join(f"{c} = ..." for c in names) + " }"))
    for column, value in row.items():
        if column not in names and schema.other is None:
            fail(f"{path}.{column}", value, f"unknown key: expected one of {', '.join(names)}")
    for column, value in row.items():
        checker = schema.columns.get(column, schema.other if column not in names else None)
        why = checker(value) if checker else None
        if why:
            fail(f"{path}.{column}", value, why)
    for column, checker in schema.columns.items():
        if column not in row:
            fail(f"{path}.{column}", None, checker(None) or "missing")
    _check_source(row, path, fail)
    own = row.get("sources")
    if own is not None:
        if not isinstance(own, dict):
            fail(f"{path}.sources", own, "expected a table of column = source")
        for name, src in own.items():
            if name not in schema.sources or not isinstance(src, str) or not src:
                fail(f"{path}.sources.{name}", src, f"expected one of "
                     f"{', '.join(schema.sources)} naming a non-empty source")


# -- loading ----------------------------------------------------------------------------------
def load_sourced(text: str, house_rules: Mapping | None, judge: Callable[[dict, str], None],
                 rules: MergeRules = PLAIN, name: str = "data.toml",
                 merge: Callable[[dict, dict], None] | None = None) -> dict:
    """The data table: the TOML ``text`` (the file ``name``) checked by ``judge(data,
    origin)``, then, with ``house_rules`` (a parsed ``--house-rules`` table of the same shape),
    a deep copy with them merged by ``merge(data, house)`` (default: :func:`merge_house_rules`
    with ``rules``) and checked again with origin
    ``house rules``. ``judge`` raises :class:`DataError` (usually :func:`check` with a schema,
    then the game's cross-checks). Raises :class:`DataError`, or ``tomllib.TOMLDecodeError``
    for text that is not TOML."""
    data = tomllib.loads(text)
    judge(data, name)
    if house_rules:
        data = copy.deepcopy(data)
        if merge is None:
            merge_house_rules(data, dict(house_rules), rules)
        else:
            merge(data, dict(house_rules))
        judge(data, HOUSE_SOURCE)
    return data
