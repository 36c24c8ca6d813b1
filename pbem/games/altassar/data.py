"""The Altassar data file (``data.toml``): loading, house rules, checking, typed access.

Every value lives in ``data.toml`` with a ``source`` (GAMES.md, "How to handle what the
rulebooks do not say"): counter rows under ``units`` (a row ``source`` plus per-value
``sources``), the Terrain Effects Chart under ``terrain`` (5.31), the Combat Results Table under
``crt`` (7.71, the shape of :mod:`pbem.combat`), ``stacking`` (6.0, the shape of
:class:`pbem.boards.counters.StackingRule`), and the numbers of the rules under ``rules`` and
``victory`` (``{ value = ..., source = "..." }``).

House rules (``--house-rules FILE``) have the same shape and are deep-merged over the file: a
value they set gets the source ``house rules`` unless they give one.
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass
from typing import Any

from pbem.boards.counters import CounterType, StackingDataError, StackingRule
from pbem.combat import CombatTable, CombatTableError
from pbem.resources import package_text

SIDES = ("spikus", "confederation")
"""The two sides (2.02)."""

SPIKUS_KINDS = ("soldier", "tracker", "drystal", "wagon", "trip-net", "signal-post")
"""The Spikus counter kinds (3.2; 13.0-18.0)."""

PRISONER_KINDS = ("terran", "clkgo", "silian", "phatakian", "badte")
"""The prisoner races of the counter key (3.2)."""

CONFEDERATION_KINDS = PRISONER_KINDS + ("dummy",)
"""Every Confederation counter kind (3.2, 15.0)."""

TERRAINS = ("quagmire", "hills", "prison", "clear", "cascades", "rain-forest", "rough")
"""The seven terrain types of the Terrain Effects Chart (5.3, 5.31)."""

VALUES = ("attack", "defense", "movement", "range", "evasion")
"""The printed values of a counter row (3.3)."""

HOUSE_SOURCE = "house rules"


class DataError(ValueError):
    """A data table that cannot be used. The message names where it came from (``data.toml``
    or ``house rules``), the key path (``units.soldier.attack``), the value found and what was
    expected."""


def _default_text() -> str:
    return package_text(__package__, "data.toml")


def _merge(base: dict, house: Any, path: str) -> None:
    """Deep-merge ``house`` into ``base`` in place, marking what it changes ``house rules``."""
    if not isinstance(house, dict):
        raise DataError(f"house rules: {path or 'the file'} = {house!r}: expected a table")
    for key, value in house.items():
        where = f"{path}.{key}" if path else key
        if key not in base:
            raise DataError(f"house rules: unknown key {where!r}: expected one of "
                            f"{', '.join(sorted(base))}")
        entry = base[key]
        if path == "crt" and key == "rows":
            _merge_rows(base, value)
            continue
        if isinstance(entry, dict) and "value" in entry and "source" in entry:
            if isinstance(value, dict):
                _merge(entry, value, where)
                if "source" not in value:
                    entry["source"] = HOUSE_SOURCE
            else:
                entry["value"] = value
                entry["source"] = HOUSE_SOURCE
        elif isinstance(entry, dict) and isinstance(value, dict):
            _merge(entry, value, where)
            if value and "source" in entry and "source" not in value:
                if "sources" in entry:  # a counter row: mark the values changed
                    for name in value:
                        if name in VALUES:
                            entry["sources"][name] = HOUSE_SOURCE
                else:
                    entry["source"] = HOUSE_SOURCE
        else:
            base[key] = value
            if path and "source" in base and key != "source" and "sources" not in base:
                base["source"] = HOUSE_SOURCE


def _merge_rows(crt: dict, rows: Any) -> None:
    """House-rule CRT rows replace the rows with the same ``die`` (and add new ones); the
    others stay, with their sources. A row's source is ``house rules`` unless it gives one."""
    if not isinstance(rows, list) or not all(isinstance(r, dict) and "die" in r for r in rows):
        raise DataError(f"house rules: crt.rows = {rows!r}: expected a list of rows "
                        "{ die = N, results = [...] }")
    by_die = {r["die"]: r for r in crt["rows"]}
    for r in rows:
        by_die[r["die"]] = dict(r, source=r.get("source", HOUSE_SOURCE))
    crt["rows"] = [by_die[d] for d in sorted(
        by_die, key=lambda d: (0, d, "") if _is_int(d) else (1, 0, str(d)))]  # bad dice: checked later


_MINIMUM = {"turns": 1, "breakout_factor": 1, "signal_hide": 1, "net_range": 1,
            "retreat_hexes": 1, "renewal_soldiers": 0, "alternate_attrition_roll": 2,
            "escort_shot": 1, "escort_escape": 1}
"""The smallest value each rule number may take (house rules: ``turns = 0`` makes no game)."""


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_data(data: dict, origin: str = "data.toml") -> None:
    """Check the whole table; raise :class:`DataError` naming ``origin``, the key path, the
    value and what was expected."""

    def fail(path: str, value: Any, why: str):
        raise DataError(f"{origin}: {path} = {value!r}: {why}")

    want = {"units", "terrain", "crt", "stacking", "rules", "victory"}
    for section in data:
        if section not in want:
            fail(section, "...", f"unknown section: expected one of {', '.join(sorted(want))}")
    for section in sorted(want):
        if not isinstance(data.get(section), dict):
            fail(section, data.get(section), "expected a table")
    units = data["units"]
    for kind in SPIKUS_KINDS + CONFEDERATION_KINDS:
        if kind not in units:
            fail(f"units.{kind}", None, "missing: every counter kind of 3.2 needs a row")
    for kind, row in units.items():
        path = f"units.{kind}"
        if kind not in SPIKUS_KINDS + CONFEDERATION_KINDS:
            fail(path, "...", "unknown counter kind: expected one of "
                 + ", ".join(SPIKUS_KINDS + CONFEDERATION_KINDS))
        known = {"name", "side", "count", "source", "sources"} | set(VALUES)
        for key in row:
            if key not in known:
                fail(f"{path}.{key}", row[key], f"unknown key: expected one of {', '.join(sorted(known))}")
        for name in VALUES + ("count",):
            v = row.get(name)
            if not _is_int(v) or not 0 <= v <= 99:
                fail(f"{path}.{name}", v, "expected a whole number from 0 to 99")
        side = "spikus" if kind in SPIKUS_KINDS else "confederation"
        if row.get("side") != side:
            fail(f"{path}.side", row.get("side"), f"expected {side!r}")
        if not isinstance(row.get("source"), str) or not row["source"]:
            fail(f"{path}.source", row.get("source"), "expected a non-empty string")
        for name, src in (row.get("sources") or {}).items():
            if name not in VALUES or not isinstance(src, str) or not src:
                fail(f"{path}.sources.{name}", src, f"expected one of {', '.join(VALUES)} "
                     "naming a non-empty source")
    if sum(units[k]["count"] for k in PRISONER_KINDS) < 1:
        fail("units", "...", "expected at least one prisoner (3.2)")
    terrain = data["terrain"]
    for t in TERRAINS:
        if t not in terrain:
            fail(f"terrain.{t}", None, "missing: every terrain of 5.31 needs a row")
    for t, row in terrain.items():
        path = f"terrain.{t}"
        if not isinstance(row, dict):
            fail(path, row, "expected a table")
        if not _is_int(row.get("cost")) or not 1 <= row["cost"] <= 99:
            fail(f"{path}.cost", row.get("cost"), "expected movement points from 1 to 99")
        if not _is_int(row.get("shift")) or not -6 <= row["shift"] <= 6:
            fail(f"{path}.shift", row.get("shift"), "expected a column shift from -6 to 6")
        if not isinstance(row.get("evasion_full"), bool):
            fail(f"{path}.evasion_full", row.get("evasion_full"), "expected true or false")
        if not isinstance(row.get("source"), str) or not row["source"]:
            fail(f"{path}.source", row.get("source"), "expected a non-empty string")
    try:
        CombatTable.from_data(data["crt"], where=origin)
    except CombatTableError as err:
        raise DataError(str(err)) from None
    try:
        StackingRule.from_data(data["stacking"], where=origin)
    except StackingDataError as err:
        raise DataError(str(err)) from None
    for section in ("rules", "victory"):
        for key, entry in data[section].items():
            path = f"{section}.{key}"
            if not isinstance(entry, dict) or set(entry) != {"value", "source"}:
                fail(path, entry, "expected a table { value = ..., source = \"...\" }")
            v = entry["value"]
            if key == "net_restrains":
                if not isinstance(v, bool):
                    fail(f"{path}.value", v, "expected true or false")
            elif not _is_int(v) or not _MINIMUM.get(key, 0) <= v <= 99:
                fail(f"{path}.value", v, f"expected a whole number from {_MINIMUM.get(key, 0)} "
                     "to 99")
    for key in _RULES:
        if key not in data["rules"]:
            fail(f"rules.{key}", None, "missing")
    for key in _VICTORY:
        if key not in data["victory"]:
            fail(f"victory.{key}", None, "missing")


_RULES = ("turns", "breakout_factor", "signal_expose", "signal_hide", "net_range",
          "net_restrains", "flight_range", "evasion_penalty", "retreat_hexes", "renewal_range",
          "renewal_soldiers", "attrition_from", "tracker_fuel_turn", "adjacent_bonus",
          "exit_cost", "alternate_attrition_roll", "escort_shot", "escort_escape")
_VICTORY = ("spikus_unit", "soldier", "exited", "on_map", "prisoner_eliminated", "returned")


def load_data(house_rules: dict | None = None) -> dict:
    """``data.toml`` with ``house_rules`` (a parsed TOML table, or None) deep-merged over it,
    checked. Raises :class:`DataError`."""
    data = tomllib.loads(_default_text())
    if house_rules:
        data = copy.deepcopy(data)
        _merge(data, house_rules, "")
        check_data(data, "house rules")
    else:
        check_data(data)
    return data


@dataclass(frozen=True)
class Rules:
    """Typed access to a checked data table: ``units[kind]`` (a
    :class:`~pbem.boards.counters.CounterType`), terrain costs and shifts, the CRT, the stacking
    rule and the numbers of ``rules`` and ``victory``."""

    units: dict
    terrain: dict
    crt: CombatTable
    stacking: StackingRule
    numbers: dict
    victory: dict

    @classmethod
    def from_data(cls, data: dict) -> "Rules":
        """Build from :func:`load_data`'s result (already checked)."""
        return cls(
            units={k: CounterType(k, row["side"], {v: row[v] for v in VALUES}, row["count"],
                                  row["source"], row["name"])
                   for k, row in data["units"].items()},
            terrain={t: dict(row) for t, row in data["terrain"].items()},
            crt=CombatTable.from_data(data["crt"]),
            stacking=StackingRule.from_data(data["stacking"]),
            numbers={k: e["value"] for k, e in data["rules"].items()},
            victory={k: e["value"] for k, e in data["victory"].items()},
        )

    def value(self, kind: str, name: str) -> int:
        """The printed ``name`` value (attack, defense, movement, range, evasion) of ``kind``."""
        return self.units[kind].values[name]

    def cost(self, terrain: str) -> int:
        """Movement points to enter a hex of ``terrain`` (5.31)."""
        return self.terrain[terrain]["cost"]

    def shift(self, terrain: str) -> int:
        """CRT column shift for a defender in ``terrain`` (5.31, 7.52); + is to the right."""
        return self.terrain[terrain]["shift"]

    def __getitem__(self, key: str):
        return self.numbers[key]
