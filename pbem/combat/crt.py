"""Odds-ratio combat results tables as data (docs/combat.md).

A game's TOML data file holds its table; :meth:`CombatTable.from_data` checks it completely
and :meth:`CombatTable.lookup` resolves an attack:

1. the strengths give the natural odds (:func:`pbem.combat.odds.odds_position`: fractions
   dropped in the defender's favour, Altassar 7.6);
2. the column shift is added (positive = right = better for the attacker; terrain, Altassar
   5.31 and 7.52);
3. the result is clamped to the table's end columns (Altassar 7.71 footnote: "Treat odds of
   1-2 or less as 1-2 and odds of 6-1 or greater as 6-1");
4. the die roll plus its modifier (Altassar 9.3, Camouflage) is clamped to the table's first
   and last die rows: pbem's treatment of rolls moved off the table, the same rule as the
   column clamp of 7.71 (the rulebook does not say; docs/combat.md).

Every cell carries its source, so that ``pbem rules`` and the setup report can show which
cells are the rulebook's and which are stand-ins.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Iterator, Mapping

from .odds import OddsLabelError, ladder_label, ladder_position, odds_position

__all__ = ["Cell", "CombatTable", "CombatTableError", "Lookup", "TableLookupError"]

_TABLE_KEYS = ("source", "columns", "rows", "results", "title", "note")
_ROW_KEYS = ("die", "results", "source", "sources")
_RESULT_KEYS = ("name", "source")


class CombatTableError(ValueError):
    """A combat results table in a data file that cannot be used. The message names the file
    (``where`` given to :meth:`CombatTable.from_data`), the key path (``crt.rows[3].results[2]``;
    list indexes count from 0, as TOML arrays do), the value found and what was expected::

        data.toml: crt.rows[3].results[2] = 'XX': not a result code: expected one of AE, DE,
        EX, NE, ST (the codes of crt.results)
    """


class TableLookupError(ValueError):
    """A look-up the table cannot answer: a die value that is not one of its rows, a column
    label that is not one of its columns, or a shift or modifier that is not a whole number.
    The message quotes the value and lists what the table has."""


@dataclass(frozen=True)
class Cell:
    """One cell of the table: the result ``code`` (``"EX"``) and where it comes from
    (``"rulebook 7.71"``, ``"stand-in: ..."``)."""

    result: str
    source: str


@dataclass(frozen=True)
class Lookup:
    """One resolved attack, with every step shown.

    - ``attack``, ``defense``: the strengths compared (strength points);
    - ``odds``: their natural odds label, before shift and clamp (``"8-1"``);
    - ``shift``: the column shift applied (+ right, - left);
    - ``column``: the column used, after the shift and the clamp to the end columns;
    - ``die``: the die rolled; ``modifier``: added to it (Altassar 9.3);
    - ``row``: the die row used, after the modifier and the clamp to the first and last rows;
    - ``result``: the result code; ``source``: the cell's source;
    - ``shifted``: the odds label after the shift, before the clamp (``"7-1"``);
    - ``name``: the result's name (``"Stun"``).
    """

    attack: Any
    defense: Any
    odds: str
    shift: int
    column: str
    die: int
    modifier: int
    row: int
    result: str
    source: str
    shifted: str = ""
    name: str = ""

    @property
    def column_clamped(self) -> bool:
        """True when the shifted odds fell off the table and the end column was used."""
        return self.column != (self.shifted or self.odds)

    @property
    def row_clamped(self) -> bool:
        """True when the modified die fell off the table and the first or last row was used."""
        return self.row != self.die + self.modifier

    def explain(self) -> str:
        """One line for reports and the log, mentioning the shift, the clamps and the modifier
        only when they apply: ``"7 to 2 = 3-1, shifted 1 right: 4-1; die 3 -> ST (rulebook
        7.71)"``, ``"8 to 1 = 8-1, shifted 1 left: 7-1, treated as 6-1 (the last column); die
        5 + 4 = 9, treated as 6 (the last row) -> DE (stand-in: ...)"``."""
        shifted = self.shifted or self.odds
        text = f"{self.attack} to {self.defense} = {self.odds}"
        if self.shift:
            side = "right" if self.shift > 0 else "left"
            text += f", shifted {abs(self.shift)} {side}: {shifted}"
        if self.column_clamped:
            end = "last" if ladder_position(shifted) > ladder_position(self.column) else "first"
            text += f", treated as {self.column} (the {end} column)"
        text += f"; die {self.die}"
        moved = self.die + self.modifier
        if self.modifier:
            sign = "+" if self.modifier > 0 else "-"
            text += f" {sign} {abs(self.modifier)} = {moved}"
        if self.row_clamped:
            end = "last" if moved > self.row else "first"
            text += f", treated as {self.row} (the {end} row)"
        return f"{text} -> {self.result} ({self.source})"


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_text(v: Any) -> bool:
    return isinstance(v, str) and v.strip() != ""


MAX_CODE = 10
"""The longest result code (characters), so that a printed table fits a mail line."""


def _is_code(v: Any) -> bool:
    return (isinstance(v, str) and 0 < len(v) <= MAX_CODE
            and not any(c.isspace() for c in v))


class CombatTable:
    """An immutable odds-ratio combat results table (docs/combat.md), built by
    :meth:`from_data`.

    Attributes (read-only):

    - ``columns``: the odds labels of the columns, left (worst for the attacker) to right,
      consecutive on the odds ladder: ``("1-2", "1-1", ..., "6-1")``;
    - ``dice``: the die values of the rows, sorted and consecutive: ``(1, 2, 3, 4, 5, 6)``;
    - ``results``: result code -> name (``{"NE": "No effect", ...}``), in the file's order;
    - ``result_sources``: result code -> where its meaning comes from;
    - ``source``: the table's default source (cells without a source of their own have it);
    - ``title`` and ``note``: optional free text shown by :func:`pbem.combat.format_table`.
    """

    __slots__ = ("_columns", "_dice", "_results", "_result_sources", "_source", "_title",
                 "_note", "_cells", "_first", "_last")

    def __init__(self, *, columns: tuple[str, ...], dice: tuple[int, ...],
                 cells: Mapping[tuple[int, str], Cell], results: Mapping[str, str],
                 result_sources: Mapping[str, str], source: str, title: str = "",
                 note: str = ""):
        """Trusted construction from checked parts; use :meth:`from_data` for data files."""
        self._columns = tuple(columns)
        self._dice = tuple(dice)
        self._cells = dict(cells)
        self._results = MappingProxyType(dict(results))
        self._result_sources = MappingProxyType(dict(result_sources))
        self._source = source
        self._title = title
        self._note = note
        self._first = ladder_position(self._columns[0])
        self._last = ladder_position(self._columns[-1])

    columns = property(lambda self: self._columns, doc="Column odds labels, left to right.")
    dice = property(lambda self: self._dice, doc="Die values of the rows, ascending.")
    results = property(lambda self: self._results, doc="Result code -> name.")
    result_sources = property(lambda self: self._result_sources,
                              doc="Result code -> source of its meaning.")
    source = property(lambda self: self._source, doc="The table's default cell source.")
    title = property(lambda self: self._title, doc="Optional title ('' when none).")
    note = property(lambda self: self._note, doc="Optional note ('' when none).")

    # -- reading a data file ----------------------------------------------------------------
    @classmethod
    def from_data(cls, d: Mapping, where: str = "data.toml", *,
                  path: str = "crt") -> "CombatTable":
        """The table described by ``d``, a table of a game's TOML data file (docs/combat.md)::

            {"source": "rulebook 7.71",            # default source of every cell
             "columns": ["1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"],
             "rows": [{"die": 1, "results": ["NE", ...], "source": "rulebook 7.71"},
                      {"die": 4, "results": [...], "source": "stand-in: ...",
                       "sources": {"1-2": "stand-in: other reason"}}, ...],
             "results": {"NE": {"name": "No effect", "source": "rulebook 7.7"}, ...},
             "title": "...", "note": "..."}        # optional

        A row's ``source`` (default: the table's) applies to its cells; ``sources`` overrides
        it for the columns it names. A result's ``source`` defaults to the table's.

        ``where`` names the file and ``path`` the table's key in it, for messages. Raises
        :class:`CombatTableError` naming ``where``, the key path, the value and what was
        expected, for: ``d`` not a table; an unknown key (in the table, a row or a result);
        a missing or empty ``source``, or a ``title``/``note``/row source that is not text;
        ``columns`` not a non-empty list; a column that is not an odds label (``"n-1"`` or
        ``"1-n"``, n >= 1); a column listed twice; columns not consecutive on the odds ladder
        from left to right; ``results`` not a non-empty table of code = {name, source}; a
        code with spaces; a result without a name; ``rows`` not a non-empty list; a row that
        is not a table; a die value that is missing or not a whole number; a die value given
        twice; a row without one result per column; a result code not in ``results``; a
        ``sources`` key that is not a column; die values that are not consecutive.
        """

        def fail(key: str, value: Any, why: str):
            raise CombatTableError(f"{where}: {key} = {value!r}: {why}")

        if not isinstance(d, Mapping):
            fail(path, d, "expected a table with source, columns, rows and results")
        for key in d:
            if key not in _TABLE_KEYS:
                fail(f"{path}.{key}", d[key], f"unknown key: a combat results table has the "
                     f"keys {', '.join(_TABLE_KEYS)}")
        source = d.get("source")
        if not _is_text(source):
            fail(f"{path}.source", source, "expected the table's source as text, such as "
                 "\"rulebook 7.71\" (the default source of every cell)")
        for key in ("title", "note"):
            if key in d and not isinstance(d[key], str):
                fail(f"{path}.{key}", d[key], "expected text")

        # columns
        raw_columns = d.get("columns")
        if not isinstance(raw_columns, (list, tuple)) or not raw_columns:
            fail(f"{path}.columns", raw_columns, "expected a non-empty list of odds labels, "
                 "such as [\"1-2\", \"1-1\", \"2-1\"]")
        positions: list[int] = []
        for i, label in enumerate(raw_columns):
            key = f"{path}.columns[{i}]"
            try:
                position = ladder_position(label)
            except OddsLabelError:
                fail(key, label, "not an odds label: expected \"n-1\" or \"1-n\" with n a "
                     "whole number from 1, such as \"3-1\", \"1-1\" or \"1-2\"")
            if label in raw_columns[:i]:
                fail(key, label, f"listed twice (also {path}.columns["
                     f"{list(raw_columns).index(label)}]): expected each odds column once")
            if positions and position != positions[-1] + 1:
                fail(key, label, f"expected {ladder_label(positions[-1] + 1)!r} after "
                     f"{raw_columns[i - 1]!r}: columns run left to right from the attacker's "
                     f"worst odds to the best, one step of the odds ladder at a time (... 1-3, "
                     f"1-2, 1-1, 2-1, 3-1 ...)")
            positions.append(position)
        columns = tuple(raw_columns)

        # result codes
        raw_results = d.get("results")
        if not isinstance(raw_results, Mapping) or not raw_results:
            fail(f"{path}.results", raw_results, "expected a table of result code = "
                 "{ name = \"...\", source = \"...\" }, one per code used in the rows")
        names: dict[str, str] = {}
        result_sources: dict[str, str] = {}
        for code, entry in raw_results.items():
            key = f"{path}.results.{code}"
            if not _is_code(code):
                fail(f"{path}.results", code, f"not a result code: expected a code of 1 to "
                     f"{MAX_CODE} characters without spaces, such as \"NE\" or \"DE\"")
            if not isinstance(entry, Mapping):
                fail(key, entry, "expected { name = \"...\", source = \"...\" }")
            for k in entry:
                if k not in _RESULT_KEYS:
                    fail(f"{key}.{k}", entry[k], f"unknown key: a result has the keys "
                         f"{', '.join(_RESULT_KEYS)}")
            if not _is_text(entry.get("name")):
                fail(f"{key}.name", entry.get("name"), "expected the result's name as text, "
                     "such as \"No effect\"")
            if "source" in entry and not _is_text(entry["source"]):
                fail(f"{key}.source", entry["source"], "expected text, such as \"rulebook "
                     "7.7\"")
            names[code] = entry["name"]
            result_sources[code] = entry.get("source", source)
        codes_text = ", ".join(sorted(names))

        # rows
        raw_rows = d.get("rows")
        if not isinstance(raw_rows, (list, tuple)) or not raw_rows:
            fail(f"{path}.rows", raw_rows, "expected a non-empty list of rows, each "
                 "{ die = 1, results = [...], source = \"...\" }")
        cells: dict[tuple[int, str], Cell] = {}
        seen: dict[int, int] = {}
        for i, row in enumerate(raw_rows):
            key = f"{path}.rows[{i}]"
            if not isinstance(row, Mapping):
                fail(key, row, "expected a table { die = 1, results = [...], source = \"...\" }")
            for k in row:
                if k not in _ROW_KEYS:
                    fail(f"{key}.{k}", row[k], f"unknown key: a row has the keys "
                         f"{', '.join(_ROW_KEYS)}")
            die = row.get("die")
            if not _is_int(die):
                fail(f"{key}.die", die, "expected the row's die value as a whole number, such "
                     "as 1")
            if die in seen:
                fail(f"{key}.die", die, f"given twice (also {path}.rows[{seen[die]}]): "
                     f"expected each die value once")
            seen[die] = i
            row_source = row.get("source", source)
            if not _is_text(row_source):
                fail(f"{key}.source", row_source, "expected text, such as \"rulebook 7.71\" "
                     "or \"stand-in: ...\"")
            results = row.get("results")
            if not isinstance(results, (list, tuple)) or len(results) != len(columns):
                fail(f"{key}.results", results, f"expected a list of {len(columns)} result "
                     f"codes, one per column ({', '.join(columns)})")
            overrides = row.get("sources", {})
            if not isinstance(overrides, Mapping):
                fail(f"{key}.sources", overrides, "expected a table of column = source, such "
                     "as { \"1-2\" = \"stand-in: ...\" }")
            for column, cell_source in overrides.items():
                if column not in columns:
                    fail(f"{key}.sources", column, f"not a column of the table: expected one "
                         f"of {', '.join(columns)}")
                if not _is_text(cell_source):
                    fail(f"{key}.sources.{column}", cell_source, "expected text, such as "
                         "\"stand-in: ...\"")
            for j, (column, code) in enumerate(zip(columns, results)):
                if not isinstance(code, str) or code not in names:
                    fail(f"{key}.results[{j}]", code, f"not a result code: expected one of "
                         f"{codes_text} (the codes of {path}.results)")
                cells[(die, column)] = Cell(code, overrides.get(column, row_source))
        dice = tuple(sorted(seen))
        for low, high in zip(dice, dice[1:]):
            if high != low + 1:
                missing = ", ".join(str(n) for n in range(low + 1, high))
                fail(f"{path}.rows", [r.get("die") for r in raw_rows],
                     f"die values jump from {low} to {high}: expected consecutive die values "
                     f"(missing {missing})")
        return cls(columns=columns, dice=dice, cells=cells, results=names,
                   result_sources=result_sources, source=source, title=d.get("title", ""),
                   note=d.get("note", ""))

    # -- reading the table ------------------------------------------------------------------
    def cell(self, die: int, column: str) -> Cell:
        """The cell at die row ``die`` and column ``column`` (an odds label of the table).

        Raises :class:`TableLookupError` naming the value when ``die`` is not a row or
        ``column`` not a column of the table."""
        found = self._cells.get((die, column))
        if found is not None and _is_int(die):
            return found
        if column not in self._columns:
            raise TableLookupError(f"column {column!r} is not on the table: expected one of "
                                   f"{', '.join(self._columns)}")
        raise TableLookupError(f"die {die!r} is not a row of the table: expected a whole "
                               f"number from {self._dice[0]} to {self._dice[-1]}")

    def cells(self) -> Iterator[tuple[int, str, Cell]]:
        """Every cell as ``(die, column, cell)``, row by row (dice ascending), left to right."""
        for die in self._dice:
            for column in self._columns:
                yield die, column, self._cells[(die, column)]

    def sources(self) -> tuple[str, ...]:
        """The distinct cell sources, in the order first met by :meth:`cells`."""
        return tuple(dict.fromkeys(c.source for _, _, c in self.cells()))

    def column_position(self, attack, defense, *, shift: int = 0) -> int:
        """The ladder position of the column used for ``attack`` against ``defense`` after
        ``shift`` (see :meth:`lookup`), clamped to the table's end columns."""
        if not _is_int(shift):
            raise TableLookupError(f"column shift {shift!r}: expected a whole number of "
                                   f"columns (+ right, - left)")
        return min(max(odds_position(attack, defense) + shift, self._first), self._last)

    def column_for(self, attack, defense, *, shift: int = 0) -> str:
        """The column label used for ``attack`` against ``defense`` after ``shift``, before
        any die is rolled (for an evasion window's "attacked at 3-1"); see :meth:`lookup`.
        Raises :class:`~pbem.combat.odds.OddsError` for strengths below 1."""
        return ladder_label(self.column_position(attack, defense, shift=shift))

    def clamp_die(self, value: int) -> int:
        """``value`` (a die roll plus its modifier) clamped to the first and last die rows."""
        return min(max(value, self._dice[0]), self._dice[-1])

    def lookup(self, attack, defense, die: int, *, shift: int = 0,
               modifier: int = 0) -> Lookup:
        """Resolve an attack of ``attack`` against ``defense`` strength points with the die
        roll ``die``.

        The column is the natural odds position (fractions dropped in the defender's favour,
        Altassar 7.6) plus ``shift`` (+ right, better for the attacker; Altassar 5.31, 7.52),
        then clamped to the table's end columns (7.71 footnote): 8 to 1 shifted one left is
        7-1, used as 6-1. The row is ``die + modifier`` (Altassar 9.3) clamped to the first
        and last die rows (pbem's treatment of rolls moved off the table; docs/combat.md).

        Raises :class:`~pbem.combat.odds.OddsError` for strengths below 1 or not numbers and
        :class:`TableLookupError` for a ``die`` that is not one of the table's rows (only the
        *modified* roll is clamped) or a ``shift`` or ``modifier`` that is not a whole number.
        """
        natural = odds_position(attack, defense)
        position = self.column_position(attack, defense, shift=shift)
        if not _is_int(die) or not (self._dice[0] <= die <= self._dice[-1]):
            raise TableLookupError(f"die {die!r} is not a row of the table: expected a whole "
                                   f"number from {self._dice[0]} to {self._dice[-1]} (only a "
                                   f"modified roll is moved onto the table)")
        if not _is_int(modifier):
            raise TableLookupError(f"die modifier {modifier!r}: expected a whole number")
        row = self.clamp_die(die + modifier)
        column = ladder_label(position)
        found = self._cells[(row, column)]
        return Lookup(attack=attack, defense=defense, odds=ladder_label(natural), shift=shift,
                      column=column, die=die, modifier=modifier, row=row, result=found.result,
                      source=found.source, shifted=ladder_label(natural + shift),
                      name=self._results[found.result])

    def __repr__(self) -> str:
        return (f"CombatTable(columns={self._columns[0]}..{self._columns[-1]}, "
                f"dice={self._dice[0]}..{self._dice[-1]}, source={self._source!r})")
