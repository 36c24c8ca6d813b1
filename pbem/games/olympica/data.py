"""The Olympica data file (``data.toml``) and board (``map.toml``): checking and typed access.

Rulebook: shared/seeds/001_746aff674b41fe2c.txt, cited by rule number. Every value lives in
``data.toml`` with its ``source`` (GAMES.md, "How to handle what the rulebooks do not say"):

- ``units.<kind>``: the unit table of 3.1 (combat strength, movement factor, range in hexes,
  ``ranged = false`` for a parenthesized combat strength); the Strongpoint row is derived;
- ``markers.generator`` and ``markers.dummy``: the counters that are not units (9.0);
- ``scenarios.<name>``: 4.1-4.3, the length in Game-Turns and each side's forces;
- ``crt``: the Combat Results Table (:class:`pbem.combat.CombatTable`; rows 4-6 marked as an
  unverified transcription, GAMES.md);
- ``terrain.<name>``: the Terrain Effects of 7.4, 10.4, 12.3.1;
- ``rules.<name>``: the numbers of the rules, ``{value = ..., source = "..."}``;
- ``counter_mix.<kind>``: the limits of 5.4's substitutions.

The board is a :class:`~pbem.boards.hexmap.HexMap` with the terrains ``clear``, ``incline`` and
``cliff``, and the groups ``dotted`` (5.2), ``west`` and ``east`` (21.0); :func:`check_map`
refuses a map the rules cannot be played on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.boards.hexmap import MapError
from pbem.combat import CombatTable
from pbem.engine import sourced
from pbem.engine.ruleset import OptionSpec
from pbem.engine.sourced import DataError  # noqa: F401 (this module's API)

SIDES = ("web", "un")
"""The two players (1.0): the Web player (first in each Game-Turn, 6.0) and the U.N. player."""

UN_KINDS = ("un-heavy-infantry", "un-light-infantry", "un-laser-tank", "un-lifter", "un-boar")
WEB_UNITS = ("web-infantry", "web-strongpoint")
WEB_KINDS = ("generator", "strongpoint", "web-infantry", "dummy")
"""The Web counter kinds a scenario lists (4.1-4.3): ``strongpoint`` is the unit
``web-strongpoint``; ``generator`` and ``dummy`` are markers (9.0)."""

SCENARIOS = ("introductory", "advanced", "short-advanced")
TERRAINS = ("clear", "incline", "cliff")
INFANTRY = ("un-heavy-infantry", "un-light-infantry", "web-infantry")
"""The infantry units (10.4.3, 12.1 B, 13.5.2, 16.1)."""

_RULE_NUMBERS = {
    "avalanche_roll": (1, 6), "retreat_hexes": (1, 9), "compulsion_hexes": (0, 9),
    "drop_size": (1, 9), "drop_compulsion_range": (0, 9), "drop_compulsion_hexes": (0, 9),
    "lifter_hexes": (1, 99), "lifter_capacity": (1, 999), "reinforcements": (0, 99),
    "drill_roll": (1, 7), "demolition_roll": (1, 7), "far_range": (1, 99),
}


def _counts(kinds: tuple) -> sourced.Check:
    def check(v: Any) -> str | None:
        ok = isinstance(v, dict) and all(k in kinds and sourced.is_whole(n) and n >= 0
                                         for k, n in v.items())
        return None if ok else f"expected a table of counts of {', '.join(kinds)}"
    return check


_HEXES = sourced.list_of(sourced.text, "a list of hex labels", least=0)

_UNIT = sourced.Row({
    "side": sourced.one_of(SIDES),
    "strength": sourced.whole(1, 999, "a combat strength (every unit may be attacked: 10.1)"),
    "movement": sourced.whole(0, 99, "hexes"), "range": sourced.whole(0, 99, "hexes"),
    "ranged": sourced.boolean})

SCHEMA = sourced.Table({
    "units": sourced.Table({k: _UNIT for k in UN_KINDS + WEB_UNITS}, what="unit",
                           missing="missing: every unit of 3.1 needs a row"),
    "scenarios": sourced.Table({k: sourced.Row({
        "turns": sourced.whole(1, 99, "Game-Turns"), "web": _counts(WEB_KINDS),
        "un": _counts(UN_KINDS), "fixed_mouths": _HEXES, "free_tunnels": sourced.whole(0, 99),
        "free_tunnels_when": sourced.one_of(("tunnel-phase", "setup")),
        "face_up": sourced.boolean}) if k != "introductory" else sourced.Row({
            "turns": sourced.whole(1, 99, "Game-Turns"), "web": _counts(WEB_KINDS),
            "un": _counts(UN_KINDS), "fixed_mouths": _HEXES,
            "free_tunnels": sourced.whole(0, 99), "face_up": sourced.boolean})
        for k in SCENARIOS}, what="scenario"),
    "crt": sourced.Delegate(lambda v, origin: CombatTable.from_data(v, where=origin)),
    "markers": sourced.Table({k: sourced.Row({"name": sourced.text})
                              for k in ("generator", "dummy")}, what="marker"),
    "terrain": sourced.Table({t: sourced.Row({
        "name": sourced.text, "stops_un": sourced.boolean, "avalanche": sourced.boolean,
        "halves": sourced.boolean}) for t in TERRAINS}, what="terrain"),
    "rules": sourced.Table({
        "assault_column": sourced.Value(sourced.text),
        **{k: sourced.Value(sourced.whole(lo, hi)) for k, (lo, hi) in _RULE_NUMBERS.items()}},
        what="rule", missing="missing"),
    "counter_mix": sourced.Table({k: sourced.Value(sourced.whole(0, 99)) for k in (
        "web-infantry", "strongpoint", "dummy", "tunnels", "un-heavy-infantry",
        "un-light-infantry")}, what="counter"),
}, what="section")
"""The shape of ``data.toml`` (:mod:`pbem.engine.sourced`)."""

HOUSE_RULES = sourced.MergeRules(keyed_lists={"crt.rows": "die"})
"""House-rule CRT rows replace the rows with the same ``die``."""


def check_data(data: dict, origin: str = "data.toml") -> None:
    """Check the table against :data:`SCHEMA`, then what a schema cannot say: the assault
    column is a column of the CRT (11.0) and every scenario has one Web Generator (4.1-4.3).
    Raises :class:`DataError` naming ``origin``, the key path, the value and what was
    expected."""
    sourced.check(data, SCHEMA, origin)
    columns = data["crt"]["columns"]
    if data["rules"]["assault_column"]["value"] not in columns:
        raise sourced.data_error(origin, "rules.assault_column",
                                 data["rules"]["assault_column"]["value"],
                                 f"expected a column of the CRT: {', '.join(columns)}")
    for name, row in data["scenarios"].items():
        if row["web"].get("generator") != 1:
            raise sourced.data_error(origin, f"scenarios.{name}.web.generator",
                                     row["web"].get("generator"),
                                     "expected 1: one Web Generator (4.1-4.3)")


OPTIONS = {
    "scenario": OptionSpec(
        "advanced", SCENARIOS,
        "introductory (4.1: 4 Game-Turns, no tunnels, lifters or BOAR), advanced (4.2: 8 "
        "Game-Turns) or short-advanced (4.3: 6 Game-Turns, the Web set up face-up)",
        "rulebook 4.0-4.3"),
    "substitutions": OptionSpec(
        "no", ("no", "yes"), "yes: both players may make secret substitutions in their forces "
        "before setup (5.4; advanced scenarios only)", "rulebook 5.4 (optional)"),
    "demolition": OptionSpec(
        "no", ("no", "yes"), "yes: a unit underground in a tunnel may try to demolish it "
        "(13.6; advanced scenarios only)", "rulebook 13.6 (optional)"),
    "umbrellas": OptionSpec(
        "no", ("no", "yes"), "yes: Strongpoints and Laser Tanks protect adjacent friendly units "
        "from Ranged Combat (16.2; advanced scenarios only)", "rulebook 16.2 (optional)"),
}
"""The options of a game (``--option KEY=VALUE``): the scenario and the three optional rules
(4.0: "three optional rules (5.4, 13.6, and 16.2) can be added to the Advanced or Short
Advanced Scenarios")."""

OPTIONAL_RULES = ("substitutions", "demolition", "umbrellas")


def check_options(options: dict) -> None:
    """Raise ``ValueError`` when an optional rule is chosen with the Introductory Scenario
    (4.0: they "can be added to the Advanced or Short Advanced Scenarios")."""
    if options.get("scenario") == "introductory":
        on = [k for k in OPTIONAL_RULES if options.get(k) == "yes"]
        if on:
            raise ValueError(f"option {on[0]}=yes: the optional rules go with the advanced "
                             f"scenarios only (4.0); expected scenario=advanced or "
                             f"scenario=short-advanced")


@dataclass(frozen=True)
class UnitType:
    """One row of the unit table (3.1): ``strength`` (attack and defense), ``movement``
    (hexes), ``range`` (hexes, 0: none), ``ranged`` (False: a parenthesized strength, no Ranged
    Combat, 10.1), ``side`` and ``kind``."""

    kind: str
    side: str
    strength: int
    movement: int
    range: int
    ranged: bool

    @property
    def infantry(self) -> bool:
        """Infantry (10.4.3, 12.1 B, 13.5.2)."""
        return self.kind in INFANTRY


@dataclass(frozen=True)
class Rules:
    """Typed access to a checked data table: ``units[kind]``, ``crt``, ``terrain[name]``,
    ``scenarios[name]`` (the rows as dicts), the numbers of ``rules`` (``rules["lifter_hexes"]``)
    and ``counter_mix``."""

    units: dict
    crt: CombatTable
    terrain: dict
    scenarios: dict
    numbers: dict
    counter_mix: dict

    @classmethod
    def from_data(cls, data: dict) -> "Rules":
        """Build from a checked table (``load_data``'s result)."""
        return cls(
            units={k: UnitType(k, r["side"], r["strength"], r["movement"], r["range"],
                               r["ranged"]) for k, r in data["units"].items()},
            crt=CombatTable.from_data(data["crt"]),
            terrain={k: dict(r) for k, r in data["terrain"].items()},
            scenarios={k: dict(r) for k, r in data["scenarios"].items()},
            numbers={k: e["value"] for k, e in data["rules"].items()},
            counter_mix={k: e["value"] for k, e in data["counter_mix"].items()},
        )

    def __getitem__(self, key: str):
        return self.numbers[key]


MAP_GROUPS = ("dotted", "west", "east")


def check_map(board, data: dict) -> None:
    """Raise :class:`MapError` unless ``board`` carries the game: only the terrains clear,
    incline and cliff (2.0), the groups ``dotted`` (5.2), ``west`` and ``east`` (21.0), and
    every fixed Tunnel Mouth hex of the scenarios (4.2, 13.2) on the map in a cliff or incline
    hex."""
    unknown = sorted(set(board.terrains()) - set(TERRAINS))
    if unknown:
        raise MapError(board.source, None, f"terrain {unknown[0]!r}: expected one of "
                       f"{', '.join(TERRAINS)} (2.0)")
    for group in MAP_GROUPS:
        if not board.has_group(group) or not board.group(group):
            raise MapError(board.source, None, f"no [groups] {group}: expected the hexes of "
                           f"the dotted area (5.2) and of the west and east edges (21.0)")
    for name, row in data["scenarios"].items():
        for h in row.get("fixed_mouths", ()):
            if h not in board or board.terrain(h) not in ("cliff", "incline"):
                raise MapError(board.source, None, f"hex {h} (a fixed Tunnel Mouth of the "
                               f"{name} scenario, 4.2): expected a cliff or incline hex of "
                               f"the map (13.2)")
