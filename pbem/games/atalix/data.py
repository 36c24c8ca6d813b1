"""The Escape from Atalix data file (``data.toml``): checking, house rules, typed access, options.

Rulebook: shared/seeds/002_171ec0f1db0daf85.txt, cited by section. Every value lives in
``data.toml`` with its ``source`` (GAMES.md, "How to handle what the rulebooks do not say"):
``starting_deck`` (Starting Deck), ``cards.<id>`` (the cards in the effect vocabulary listed at
the top of the file), ``projects.<id>`` (Card Setup, Build Projects), ``research`` (Research
Track), ``cost_meter`` (Purchasing Cards and the Card Cost Meter), ``round_track`` (Trackers,
Advance Round Tracker, Threats), ``storm`` (Threats), ``resources`` (Resources), and for the
stand-in Scenarios 2 and 3 ``encounters`` (Card Setup: Encounter Cards; :mod:`.encounters`),
``scenario2`` and ``scenario3`` (:mod:`.scenario2`, :mod:`.scenario3`). Values the rulebook does
not print are stand-ins whose source says so.

House rules (``--house-rules FILE``) have the same shape and are merged over the file
(:func:`merge_house_rules`): a card's ``count``, ``cost`` or ``abilities``, a project, a track;
what they change gets the source ``house rules``.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pbem.cards import CostMeter
from pbem.engine import sourced
from pbem.engine.ruleset import OptionSpec
from pbem.engine.sourced import HOUSE_SOURCE, DataError, data_error  # noqa: F401 (API)
from pbem.resources import package_text

RESOURCES = ("scrap", "carbon", "minerals")
"""The three resources (Resources: orange scrap, black carbon, white minerals)."""
PHASES = ("planning", "action")
"""Bold abilities are carried out in the Planning Phase, italic ones in the Action Phase."""
WHATS = ("plays", "draw", "actions", "move", "climb", "collect", "research", "gain", "buy",
         "attack", "scan", "look", "terraform", "transport")
"""The effect vocabulary of an ability (the list at the top of data.toml)."""
KINDS = ("starting", "upgrade", "project-card")
"""Card kinds (Separate Cards): Starting and Upgrade cards, cards given by a project."""
EFFECTS = ("damage", "gain", "lose", "storm", "alien", "part")
"""The effects of an encounter card (the list above ``[encounters]`` in data.toml)."""
NEEDS = ("weapons", "action")
"""What completes an encounter: a played Weapons card's attack, or a basic action."""
BENEFITS = ("dice", "active-card")
"""The research level symbols (Research Track: the dice symbol, the Active Card Symbol)."""
PLAYERS, DIFFICULTIES, SCENARIOS = (1, 2, 3, 4), (1, 2, 3), (1, 2, 3)
_FIXED = ("action", "oxygen", "research", "upgrade")
_ID = re.compile(r"^[a-z]+(-[a-z]+)*$")
_ID_WHY = "an id of lower-case words joined by hyphens (orders name a copy ID-N)"


def _symbols(least: int, what: str) -> sourced.Check:
    """A non-empty table of resource -> whole number ``least`` or more."""
    def check(v: Any) -> str | None:
        ok = isinstance(v, dict) and v and all(
            k in RESOURCES and sourced.is_whole(n) and n >= least for k, n in v.items())
        return None if ok else f"expected {what} (resources: {', '.join(RESOURCES)})"
    return check


def _by_number(v: Any) -> str | None:
    ok = isinstance(v, dict) and all(isinstance(k, str) and k.isdigit() and sourced.is_whole(n)
                                     and n >= 0 for k, n in v.items())
    return None if ok else "expected a table of whole numbers 0 or more by number { 1 = ... }"


def _level(v: Any) -> str | None:
    """A research level row; a house rule's row carries its own ``source``."""
    ok = (isinstance(v, dict) and set(v) - {"source"} == {"level", "steps", "benefits"}
          and sourced.whole(1, 9)(v["level"]) is None and sourced.whole(0, 99)(v["steps"]) is None
          and sourced.list_of(sourced.one_of(BENEFITS), "", least=0)(v["benefits"]) is None
          and sourced.text(v.get("source", "-")) is None)
    return None if ok else "expected a research level { level, steps, benefits }"


_ABILITY = {
    "phase": sourced.one_of(PHASES), "what": sourced.one_of(WHATS),
    "amount": sourced.whole(0, 99), "level": sourced.whole(0, 3, "a research level (I-III)"),
    "resource": sourced.one_of(RESOURCES), "or": sourced.whole(1, 99, "an OR group number"),
    "cost": _symbols(1, "a table of resources paid { minerals = 1 }")}
"""The keys of an ability (Planning Phase: bold/italic, OR, roman numerals)."""

_CARD = ({"name": sourced.text, "kind": sourced.one_of(KINDS), "count": sourced.whole(1, 99),
          "abilities": sourced.list_of(lambda a: None if isinstance(a, dict) else "x",
                                       "a non-empty list of abilities { phase, what, ... }")},
         {"cost": _symbols(0, "a table of resource = +N { scrap = 0, carbon = 1 }"),
          "gain_resource": sourced.boolean, "project": sourced.text})
_PROJECT = ({"name": sourced.text,
             "scenario": sourced.whole(0, 3, "a scenario number (0: any scenario)"),
             "cost": _symbols(1, "a table of fixed resource costs { scrap = 2 }")},
            {"repeatable": sourced.boolean, "long_term": sourced.boolean, "gives": sourced.text})


def _effect(v: Any) -> str | None:
    """An encounter effect ``{ what, amount, resource }``: a resource for gain and lose only."""
    ok = (isinstance(v, dict) and set(v) <= {"what", "amount", "resource"}
          and v.get("what") in EFFECTS and sourced.whole(1, 99)(v.get("amount", 1)) is None
          and ("resource" in v) == (v["what"] in ("gain", "lose"))
          and v.get("resource", RESOURCES[0]) in RESOURCES)
    return None if ok else "x"


_EFFECTS = sourced.list_of(_effect, f"a list of effects {{ what = {'|'.join(EFFECTS)}, amount = "
                           "1 or more, resource = scrap|carbon|minerals for gain and lose }",
                           least=0)
_ENCOUNTER = ({"name": sourced.text, "count": sourced.whole(1, 99),
               "scenario": sourced.described(sourced.one_of((0, 2, 3)),
                                             "0 (scenarios 2 and 3), 2 or 3"),
               "done": _EFFECTS},
              {"need": sourced.one_of(NEEDS), "fail": _EFFECTS})
"""An encounter card (data.toml's ``[encounters]``; :mod:`.encounters`)."""


def _rows(section: str, columns: tuple[dict, dict]) -> sourced.Delegate:
    """Rows by id under ``section``: the required columns, the optional ones, a source."""
    required, optional = columns

    def judge(rows: Any, origin: str) -> None:
        if not isinstance(rows, dict) or not rows:
            raise data_error(origin, section, rows, "expected a table of rows by id")
        names = [*required, *optional, "source"]
        for rid, row in rows.items():
            path = f"{section}.{rid}"
            if not _ID.match(rid):
                raise data_error(origin, path, "...", f"expected {_ID_WHY}")
            for k, v in (row.items() if isinstance(row, dict) else ()):
                if k not in names:
                    raise data_error(origin, f"{path}.{k}", v,
                                     f"unknown key: expected one of {', '.join(names)}")
            present = {k: c for k, c in optional.items() if isinstance(row, dict) and k in row}
            sourced.check(row, sourced.Row({**required, **present}), origin, path)
            if section == "cards":
                _check_abilities(row["abilities"], origin, f"{path}.abilities")
    return sourced.Delegate(judge)


def _check_abilities(abilities: list, origin: str, path: str) -> None:
    """Each ability's keys (:data:`_ABILITY`; ``phase`` and ``what`` required, ``cost`` only
    on research: "plays a Research card and pays the associated cost"), and each OR group
    two or more abilities in a row ("An OR only applies to the abilities directly above and
    below it")."""
    groups: dict = {}
    for i, a in enumerate(abilities):
        at = f"{path}[{i}]"
        for k, v in a.items():
            if k not in _ABILITY:
                raise data_error(origin, f"{at}.{k}", v,
                                 f"unknown key: expected one of {', '.join(_ABILITY)}")
            why = _ABILITY[k](v)
            if why:
                raise data_error(origin, f"{at}.{k}", v, why)
        for k in ("phase", "what"):
            if k not in a:
                raise data_error(origin, f"{at}.{k}", None, _ABILITY[k](None))
        if "cost" in a and a["what"] != "research":
            raise data_error(origin, f"{at}.cost", a["cost"], "expected no cost: only a "
                             "research ability has one (rulebook, Research Track)")
        if "or" in a:
            groups.setdefault(a["or"], []).append(i)
    for g, at in groups.items():
        if len(at) < 2 or at != list(range(at[0], at[0] + len(at))):
            raise data_error(origin, f"{path}[{at[0]}].or", g, "expected two or more abilities "
                             "in a row sharing the OR group (rulebook, Planning Phase)")


SCHEMA = sourced.Table({
    "starting_deck": sourced.Row({k: sourced.whole(0, 9) for k in (
        *_FIXED, "gain_resource", "chosen")}),
    "cards": _rows("cards", _CARD),
    "projects": _rows("projects", _PROJECT),
    "encounters": _rows("encounters", _ENCOUNTER),
    "scenario2": sourced.Row({"parts": _by_number, "discs": sourced.whole(1, 99)}),
    "scenario3": sourced.Row({"deliveries": _by_number,
                              "beacon_elevation": sourced.whole(0, 9, "an elevation")}),
    "research": sourced.Row({"start": sourced.whole(1, 9, "a research level"),
                             "levels": sourced.list_of(_level, "a list of research levels "
                                                       "{ level = 1-9, steps = 0 or more, "
                                                       "benefits = [dice, active-card] }")}),
    "cost_meter": sourced.Row({"left_values": sourced.list_of(
        sourced.whole(0, 99), "a non-empty list of whole numbers 0 or more"), "top": _by_number}),
    "round_track": sourced.Row({"start": _by_number, "green_circle": sourced.whole(0, 99),
                                "turquoise_from": sourced.whole(0, 99), "loss": _by_number}),
    "storm": sourced.Row({"tokens": sourced.whole(1, 999, "a number of storm tokens")}),
    "resources": sourced.Row({"start": _symbols(0, "a count of each resource"),
                              "scrap_per_player": sourced.boolean}),
}, what="section")
"""The shape of ``data.toml`` (:mod:`pbem.engine.sourced`); :func:`check_data` adds the
cross-checks."""

HOUSE_RULES = sourced.MergeRules(keyed_lists={"research.levels": "level"})
"""House-rule research levels replace the level with the same number (marked by their own
``source``); everything else merges as :func:`pbem.engine.sourced.merge_house_rules` does."""

_BY_COUNT = {("cost_meter", "top"): ("players", PLAYERS),
             ("round_track", "start"): ("difficulty", DIFFICULTIES),
             ("round_track", "loss"): ("players", PLAYERS),
             ("scenario2", "parts"): ("players", PLAYERS),
             ("scenario3", "deliveries"): ("players", PLAYERS)}


def merge_house_rules(data: dict, house: dict) -> None:
    """Merge ``house`` over ``data`` in place (:data:`HOUSE_RULES`); a table by player count or
    difficulty (``round_track.loss``) keeps the numbers the house rule does not set. Raises
    :class:`DataError` (origin ``house rules``)."""
    house = copy.deepcopy(house)
    for (section, column) in _BY_COUNT:
        h, d = house.get(section), data.get(section)
        if isinstance(h, dict) and isinstance(h.get(column), dict) and isinstance(d, dict):
            h[column] = {**d.get(column, {}), **h[column]}
    sourced.merge_house_rules(data, house, HOUSE_RULES)


def check_data(data: dict, origin: str = "data.toml") -> None:
    """:data:`SCHEMA`, then what it cannot say: the starting cards cover 4 players, a card's
    ``project`` gives that card, research levels ascend, the tracks have a value for every
    player count and difficulty. Raises :class:`DataError` naming ``origin``, the key path,
    the value and what was expected."""
    sourced.check(data, SCHEMA, origin)
    _check_starting(data, origin)
    cards, projects = data["cards"], data["projects"]
    for cid, card in cards.items():
        kind, where = card["kind"], f"cards.{cid}"
        if "project" in card and projects.get(card["project"], {}).get("gives") != cid:
            raise data_error(origin, f"{where}.project", card["project"],
                             f"expected a project whose gives is {cid!r} (rulebook, Card Setup)")
        if kind == "upgrade" and "project" not in card and "cost" not in card:
            raise data_error(origin, f"{where}.cost", None, "expected the resources an Upgrade "
                             "card lists (rulebook, Separate Cards; Purchasing Cards)")
        if kind == "starting" and "cost" in card:
            raise data_error(origin, f"{where}.cost", card["cost"],
                             "expected no cost on a Starting card (rulebook, Separate Cards)")
        if card.get("gain_resource") and kind != "starting":
            raise data_error(origin, f"{where}.gain_resource", True,
                             "expected a Starting card (rulebook, Starting Deck)")
    for pid, p in projects.items():
        if "gives" in p and cards.get(p["gives"], {}).get("project") != pid:
            raise data_error(origin, f"projects.{pid}.gives", p["gives"],
                             f"expected a card whose project is {pid!r} (rulebook, Card Setup)")
    _check_tracks(data, origin)
    _check_scenarios(data, origin)


def _check_scenarios(data: dict, origin: str) -> None:
    """Scenarios 2 and 3 (stand-ins): an encounter's ``fail`` only with a ``need``; 1 to
    ``discs`` parts needed; 1 or more deliveries."""
    for eid, e in data["encounters"].items():
        if "fail" in e and "need" not in e:
            raise data_error(origin, f"encounters.{eid}.fail", e["fail"], "expected a need "
                             "(weapons or action) for an encounter that can fail")
    s2 = data["scenario2"]
    for k, n in s2["parts"].items():
        if not 1 <= n <= s2["discs"]:
            raise data_error(origin, f"scenario2.parts.{k}", n, f"expected 1 to {s2['discs']} "
                             "parts (the black discs)")
    for k, n in data["scenario3"]["deliveries"].items():
        if n < 1:
            raise data_error(origin, f"scenario3.deliveries.{k}", n, "expected 1 or more")


def _check_starting(data: dict, origin: str) -> None:
    """Starting Deck: each of 4 players gets the fixed cards and a Gain Resource card, then
    ``chosen`` more "from the remaining starting cards"."""
    deck, cards = data["starting_deck"], data["cards"]
    for k in _FIXED:
        card = cards.get(k)
        if card is None or card["kind"] != "starting":
            raise data_error(origin, f"starting_deck.{k}", deck[k],
                             f"expected a Starting card cards.{k} (rulebook, Starting Deck)")
        if card["count"] < 4 * deck[k]:
            raise data_error(origin, f"cards.{k}.count", card["count"],
                             f"expected at least {4 * deck[k]}: {deck[k]} for each of 4 players "
                             "(rulebook, Starting Deck)")
    starting = [c for c in cards.values() if c["kind"] == "starting"]
    gain = sum(c["count"] for c in starting if c.get("gain_resource"))
    if gain < 4 * deck["gain_resource"]:
        raise data_error(origin, "starting_deck.gain_resource", deck["gain_resource"],
                         f"expected Gain Resource cards for 4 players; there are {gain}")
    rest = sum(c["count"] for c in starting) - 4 * sum(deck[k] for k in (*_FIXED,
                                                                          "gain_resource"))
    if rest < 4 * deck["chosen"]:
        raise data_error(origin, "starting_deck.chosen", deck["chosen"], f"expected at most "
                         f"{rest // 4}: 4 players choose from {rest} remaining starting cards")


def _check_tracks(data: dict, origin: str) -> None:
    levels = data["research"]["levels"]
    for i, lv in enumerate(levels):
        if lv["level"] != i + 1 or (i and lv["steps"] <= levels[i - 1]["steps"]) \
                or (not i and lv["steps"] != 0):
            raise data_error(origin, f"research.levels[{i}]", {k: lv[k] for k in ("level",
                             "steps")}, f"expected level {i + 1} with steps "
                             + ("0" if not i else f"above {levels[i - 1]['steps']}")
                             + " (levels I, II, III... up the Research Track)")
    if data["research"]["start"] > len(levels):
        raise data_error(origin, "research.start", data["research"]["start"],
                         f"expected a level from 1 to {len(levels)}")
    for (section, column), (what, keys) in _BY_COUNT.items():
        table = data[section][column]
        for k in keys:
            if str(k) not in table:
                raise data_error(origin, f"{section}.{column}.{k}", None,
                                 f"expected a value for {what} {k}")
        extra = sorted(set(table) - {str(k) for k in keys})
        if extra:
            raise data_error(origin, f"{section}.{column}.{extra[0]}", table[extra[0]],
                             f"unknown {what}: expected {', '.join(map(str, keys))}")
        if column == "top" and min(table.values()) < 1:
            raise data_error(origin, f"{section}.{column}", table, "expected tops of 1 or more")
    track = data["round_track"]
    if max(track["start"].values()) >= min(track["loss"].values()):
        raise data_error(origin, "round_track.start", track["start"], "expected every start "
                         f"below every loss space {track['loss']} (rulebook, Threats)")
    if sorted(data["resources"]["start"]) != sorted(RESOURCES):
        raise data_error(origin, "resources.start", data["resources"]["start"],
                         f"expected a count of each of {', '.join(RESOURCES)}")


def load_data(house_rules: dict | None = None) -> dict:
    """``data.toml`` checked, with ``house_rules`` (a parsed TOML table, or None) merged over it
    (:func:`merge_house_rules`) and checked again (:func:`pbem.engine.sourced.load_sourced`).
    Raises :class:`DataError`."""
    return sourced.load_sourced(package_text(__package__, "data.toml"), house_rules,
                                check_data, HOUSE_RULES, merge=merge_house_rules)


OPTIONS = {
    "scenario": OptionSpec(
        1, SCENARIOS, "1: Cave Fever (easy); 2: Rover, Rover (medium) and 3: Mine for the "
        "Taking (hard) are stand-ins built from the rulebook's summaries",
        "rulebook, Scenarios", int),
    "difficulty": OptionSpec(
        1, DIFFICULTIES, "stars, 1 to 3 (3 the hardest): where the round tracker starts, so "
        "how many rounds the team has", "rulebook, Select Difficulty", int),
}
"""The options of a game (``--option KEY=VALUE``, whole numbers): the scenario and the
difficulty."""


class ResearchLevel(NamedTuple):
    """A level of the Research Track: ``level`` (1 for I), the ``steps`` up the track where it
    begins, its ``benefits`` (:data:`BENEFITS`: "The dice symbol ...", "The Active Card
    Symbol ...")."""

    level: int
    steps: int
    benefits: tuple


@dataclass(frozen=True)
class Ability:
    """One ability of a card (Planning Phase): ``phase`` "planning" (bold, at once) or "action"
    (italic, in the Action Phase); ``what`` (:data:`WHATS`) ``amount`` times; ``level`` 0 or
    the research level I-III it needs; ``resource`` for gain/collect; ``group``: abilities
    sharing one are alternatives (OR); ``cost``: resources paid (Research Track)."""

    phase: str
    what: str
    amount: int = 1
    level: int = 0
    resource: str | None = None
    group: int | None = None
    cost: dict = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class CardType:
    """A card (Separate Cards, Starting Deck, Purchasing Cards): ``id``, ``name``, ``kind``
    (:data:`KINDS`), ``count`` copies, ``cost`` (resource -> the +N beside its symbol; empty
    for cards not bought), ``abilities``, ``gain_resource`` (a Gain Resource card),
    ``project`` (the project that gives it) and ``source``."""

    id: str
    name: str
    kind: str
    count: int
    abilities: tuple
    cost: dict = field(default_factory=dict, hash=False)
    gain_resource: bool = False
    project: str | None = None
    source: str = ""


@dataclass(frozen=True)
class Rules:
    """Typed access to a checked data table: ``cards`` {id: :class:`CardType`},
    ``starting_deck`` (Starting Deck: {"action": 2, ..., "chosen": 2}), ``projects`` {id:
    row dict} (Build Projects), ``research_levels`` (:class:`ResearchLevel`, ...) and
    ``research_start`` (Research Track), ``storm_tokens`` (Threats) and the tracks."""

    cards: dict
    starting_deck: dict
    projects: dict
    research_levels: tuple
    research_start: int
    meter_values: tuple
    meter_tops: dict
    round_starts: dict
    round_losses: dict
    green_circle: int
    turquoise_from: int
    storm_tokens: int
    resources: dict

    @classmethod
    def from_data(cls, data: dict) -> "Rules":
        """Build from a checked table (:func:`load_data`'s result)."""
        def ability(a: dict) -> Ability:
            return Ability(a["phase"], a["what"], a.get("amount", 1), a.get("level", 0),
                           a.get("resource"), a.get("or"), dict(a.get("cost", {})))
        track, ints = data["round_track"], (lambda t: {int(k): v for k, v in t.items()})
        return cls(
            cards={k: CardType(k, c["name"], c["kind"], c["count"],
                               tuple(ability(a) for a in c["abilities"]), dict(c.get("cost", {})),
                               c.get("gain_resource", False), c.get("project"), c["source"])
                   for k, c in data["cards"].items()},
            starting_deck={k: v for k, v in data["starting_deck"].items() if k != "source"},
            projects={k: dict(p) for k, p in data["projects"].items()},
            research_levels=tuple(ResearchLevel(lv["level"], lv["steps"], tuple(lv["benefits"]))
                                  for lv in data["research"]["levels"]),
            research_start=data["research"]["start"],
            meter_values=tuple(data["cost_meter"]["left_values"]),
            meter_tops=ints(data["cost_meter"]["top"]), round_starts=ints(track["start"]),
            round_losses=ints(track["loss"]), green_circle=track["green_circle"],
            turquoise_from=track["turquoise_from"], storm_tokens=data["storm"]["tokens"],
            resources=dict(data["resources"]))

    def start_resources(self, players: int) -> dict:
        """The team's resources at setup (Resources: "Add one scrap per player, and two each of
        carbon and minerals"): {"scrap": players, "carbon": 2, "minerals": 2} with the data
        file's numbers."""
        start = dict(self.resources["start"])
        if self.resources["scrap_per_player"]:
            start["scrap"] *= players
        return start

    def cost_meter(self, players: int) -> CostMeter:
        """A Card Cost Meter at setup for ``players`` (Trackers; Purchasing Cards and the Card
        Cost Meter): the right token's track ends at the player count's top."""
        return CostMeter(self.meter_tops[players], list(self.meter_values))

    def round_start(self, difficulty: int) -> int:
        """The round tracker's first space for 1-3 stars (Trackers, Select Difficulty)."""
        return self.round_starts[difficulty]

    def round_loss(self, players: int) -> int:
        """The round tracker space where ``players`` lose (Threats: Time)."""
        return self.round_losses[players]

    def level_at(self, steps: int) -> int:
        """The research level reached ``steps`` spaces up the track (Research Track)."""
        return max(lv.level for lv in self.research_levels if lv.steps <= steps)

    def upgrade_deck(self) -> list[str]:
        """The Upgrade deck before shuffling, each card ``count`` times (Card Setup: the Scanner
        and Terraform Tool cards are kept with their projects)."""
        return [k for k, c in self.cards.items() if c.kind == "upgrade" and not c.project
                for _ in range(c.count)]
