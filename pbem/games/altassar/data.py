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

from dataclasses import dataclass

from pbem.boards.counters import CounterType, StackingRule
from pbem.combat import CombatTable
from pbem.engine import sourced
from pbem.engine.ruleset import OptionSpec
from pbem.engine.sourced import HOUSE_SOURCE, DataError  # noqa: F401 (this module's API)
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

_RULES = ("turns", "breakout_factor", "signal_expose", "signal_hide", "net_range",
          "net_restrains", "flight_range", "evasion_penalty", "retreat_hexes", "renewal_range",
          "renewal_soldiers", "attrition_from", "tracker_fuel_turn", "adjacent_bonus",
          "exit_cost", "alternate_attrition_roll", "escort_shot", "escort_escape")
_VICTORY = ("spikus_unit", "soldier", "exited", "on_map", "prisoner_eliminated", "returned")

_MINIMUM = {"turns": 1, "breakout_factor": 1, "signal_hide": 1, "net_range": 1,
            "retreat_hexes": 1, "renewal_soldiers": 0, "alternate_attrition_roll": 2,
            "escort_shot": 1, "escort_escape": 1}
"""The smallest value each rule number may take (house rules: ``turns = 0`` makes no game)."""


def _unit(side: str) -> sourced.Row:
    """A counter row (3.3): its printed values, how many, its side; per-value ``sources``."""
    number = sourced.whole(0, 99)
    return sourced.Row({"name": sourced.text, "side": sourced.equals(side), "count": number,
                        **{v: number for v in VALUES}}, sources=VALUES)


def _number(key: str) -> sourced.Value:
    if key == "net_restrains":
        return sourced.Value(sourced.boolean)
    return sourced.Value(sourced.whole(_MINIMUM.get(key, 0), 99))


_TERRAIN = sourced.Row({
    "name": sourced.text,
    "cost": sourced.whole(1, 99, "movement points"),
    "shift": sourced.whole(-6, 6, "a column shift"),
    "evasion_full": sourced.boolean})

SCHEMA = sourced.Table({
    "units": sourced.Table(
        {**{k: _unit("spikus") for k in SPIKUS_KINDS},
         **{k: _unit("confederation") for k in CONFEDERATION_KINDS}},
        what="counter kind", missing="missing: every counter kind of 3.2 needs a row"),
    "terrain": sourced.Table({t: _TERRAIN for t in TERRAINS}, what="terrain",
                             missing="missing: every terrain of 5.31 needs a row"),
    "crt": sourced.Delegate(lambda v, origin: CombatTable.from_data(v, where=origin)),
    "stacking": sourced.Delegate(lambda v, origin: StackingRule.from_data(v, where=origin)),
    "rules": sourced.Table({k: _number(k) for k in _RULES}, missing="missing"),
    "victory": sourced.Table({k: _number(k) for k in _VICTORY}, missing="missing"),
}, what="section")
"""The shape of ``data.toml`` (:mod:`pbem.engine.sourced`): a counter row per kind of 3.2, a
Terrain Effects Chart row per terrain of 5.31, the CRT (:class:`~pbem.combat.CombatTable`), the
stacking rule (:class:`~pbem.boards.counters.StackingRule`) and the numbers of the rules."""

OPTIONS = {
    "attrition": OptionSpec(
        "standard", ("standard", "alternate", "both"),
        "standard: the Spikus lose a soldier each turn from turn 8 (11.0); alternate: instead, "
        "each player rolls two dice before his Movement Phase and loses a unit on 12 (21.1 "
        "Alternate Attrition Rules); both: the two together",
        "rulebook 11.0, 21.1 (optional)", str),
    "escort": OptionSpec(
        "no", ("no", "yes"),
        "yes: Spikus soldiers may escort stunned prisoners to the prison, one each, and escorted "
        "prisoners may try to escape (21.1 Escorting Prisoners)",
        "rulebook 21.1 (optional)", str),
}
"""The options of a game (``--option KEY=VALUE``), name ->
:class:`~pbem.engine.ruleset.OptionSpec`: the ruleset's ``option_table``, listed by ``pbem rules``
(:func:`.texts.rules_text`)."""

HOUSE_RULES = sourced.MergeRules(keyed_lists={"crt.rows": "die"}, value_sources=VALUES)
"""House-rule CRT rows replace the rows with the same ``die`` (and add new ones); a changed
counter value is marked in its row's ``sources``."""


def _default_text() -> str:
    return package_text(__package__, "data.toml")


def check_data(data: dict, origin: str = "data.toml") -> None:
    """Check the whole table against :data:`SCHEMA`, then that there is at least one
    prisoner (3.2); raise :class:`DataError` naming ``origin``, the key path, the value and
    what was expected."""
    sourced.check(data, SCHEMA, origin)
    if sum(data["units"][k]["count"] for k in PRISONER_KINDS) < 1:
        raise sourced.data_error(origin, "units", "...", "expected at least one prisoner (3.2)")


def load_data(house_rules: dict | None = None) -> dict:
    """``data.toml`` with ``house_rules`` (a parsed TOML table, or None) deep-merged over it
    (:data:`HOUSE_RULES`), checked (:func:`pbem.engine.sourced.load_sourced`). Raises
    :class:`DataError`."""
    return sourced.load_sourced(_default_text(), house_rules, check_data, HOUSE_RULES)


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
