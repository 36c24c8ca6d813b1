"""The Atlantis data file (``data.toml``): loading, house rules, checking, and typed access.

Every entry of ``data.toml`` is a small table holding its value(s) and a ``source``:

- scalar entries ``{ value = ..., source = "..." }`` (``people.per_player``, ...);
- table rows with named columns and a source: ``creatures.<kind>`` (``max_move``, ``pieces``)
  and ``manifest.<symbol>`` (one count per tile kind).

:func:`load_data` reads the file, deep-merges a referee's house rules over it (GAMES.md, "How to
handle what the rulebooks do not say"), and checks every value; :class:`Rules` gives typed
access for the rules code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.engine import sourced
from pbem.engine.ruleset import OptionSpec
from pbem.engine.sourced import HOUSE_SOURCE, DataError  # noqa: F401 (this module's API)
from pbem.resources import package_text

CREATURE_KINDS = ("shark", "kraken", "monster", "dolphin")
"""The four sea creatures (rulebook Contents; Dice)."""

SYMBOLS = ("boat", "dolphin", "dolphin-dives", "kraken", "kraken-dives", "kraken-killed",
           "shark", "shark-dives", "kill-shark", "monster", "monster-dives", "vortex",
           "game-ends", "volcano")
"""The symbols under the land tiles, in the order of the rulebook's manifest (Symbols Under
Tiles); what each does is fixed by the rules (Part of the Island sinks)."""

PLACED_SYMBOLS = {"boat": "ship", "dolphin": "dolphin", "kraken": "kraken", "shark": "shark",
                  "monster": "monster"}
"""Symbols that put a piece on the board where the tile was (Part of the Island sinks)."""

DIVES = {"shark-dives": "shark", "kraken-dives": "kraken", "monster-dives": "monster",
         "dolphin-dives": "dolphin"}
"""Kept tiles that move one creature of a kind to an empty sea space (Part of the Island
sinks: 'Kraken / Shark / Sea Monster / Dolphin dives to any empty (sea) space')."""

KILLS = {"kill-shark": "shark", "kraken-killed": "kraken"}
"""Kept tiles that remove one creature (Part of the Island sinks: 'Kill a shark / A Kraken is
killed')."""

KEPT_SYMBOLS = tuple(DIVES) + tuple(KILLS)
"""Symbols the sinking player keeps face down to play later."""

SYMBOL_NAMES = {
    "boat": "Boat", "dolphin": "Dolphin", "dolphin-dives": "Dolphin dives", "kraken": "Kraken",
    "kraken-dives": "Kraken dives", "kraken-killed": "Kraken killed", "shark": "Shark",
    "shark-dives": "Shark dives", "kill-shark": "Kill a shark", "monster": "Sea Monster",
    "monster-dives": "Sea Monster dives", "vortex": "Vortex", "game-ends": "Game Ends",
    "volcano": "Volcano",
}
"""How reports name each symbol (the rulebook's words)."""

def _faces(v: Any) -> str | None:
    if not isinstance(v, list) or not 2 <= len(v) <= 256:
        return "expected a list of 2 to 256 faces, each a list of creature kinds"
    for face in v:
        if (not isinstance(face, list) or not face
                or not all(isinstance(k, str) and k in CREATURE_KINDS for k in face)
                or len(set(face)) != len(face)):
            return (f"face {face!r}: expected a non-empty list of distinct creature kinds from "
                    f"{', '.join(CREATURE_KINDS)}")
    return None


SCHEMA = sourced.Table({
    "people": sourced.Table({
        "per_player": sourced.Value(sourced.whole(1, 99)),
        "values": sourced.Value(sourced.list_of(
            sourced.whole(0), "a non-empty list of whole numbers 0 or more")),
        "land_capacity": sourced.Value(sourced.whole(1))}),
    "ships": sourced.Table({"capacity": sourced.Value(sourced.whole(1)),
                            "pieces": sourced.Value(sourced.whole(0, 99))}),
    "movement": sourced.Table({"points": sourced.Value(sourced.whole(1)),
                               "swim_spaces": sourced.Value(sourced.whole(1))}),
    "setup": sourced.Table({"monsters_per_player": sourced.Value(sourced.whole(0)),
                            "monster_distance": sourced.Value(sourced.whole(1))}),
    "die": sourced.Table({"faces": sourced.Value(_faces)}),
    "tiles": sourced.Table({
        "sink_order": sourced.Value(sourced.list_of(
            sourced.text, 'a non-empty list of distinct tile kinds such as ["sand", "forest"]',
            distinct=True)),
        "centre_kind": sourced.Value(sourced.text),
        "volcano_under_city": sourced.Value(sourced.boolean)}),
    "creatures": sourced.Table(
        {kind: sourced.Row({"max_move": sourced.whole(0), "pieces": sourced.whole(0, 99)})
         for kind in CREATURE_KINDS}, what="creature"),
    "manifest": sourced.Table(rows=sourced.Row(
        {}, other=sourced.whole(0), shape="a table of counts per tile kind and a source"),
        names=SYMBOLS, what="symbol"),
}, what="section")
"""The shape of ``data.toml`` (:mod:`pbem.engine.sourced`): scalar entries ``{ value, source }``
per section, one row per creature kind, manifest rows of counts per tile kind."""

OPTIONS = {
    "ships": OptionSpec(
        1, (1, 2, 3), "ships each player places at the start",
        "stand-in: Preparing to Play 3 reads 'Each player places one ship'; Contents lists 12 "
        "ships for up to 4 players", int),
    "volcano": OptionSpec(
        "ends", ("ends", "vortex", "none"),
        "what the Volcano tile does when sunk: ends the game, acts as a vortex, or nothing",
        "stand-in: Symbols Under Tiles lists the Volcano without saying what it does; End of "
        "game: 'the volcano explodes and kills them all'", str),
    "end": OptionSpec(
        "all", ("all", "first"),
        "all: the game ends when every living person is safe; first: as soon as one player has "
        "every surviving person safe",
        "End of game: 'if all players have brought their live people to safety'; Game "
        "Objective: 'as soon as someone succeeds to get all his surviving villagers in "
        "security'", str),
}
"""The options of a game (``--option KEY=VALUE``), name ->
:class:`~pbem.engine.ruleset.OptionSpec`: the ruleset's ``option_table``, listed by ``pbem rules``
(:func:`.texts.rules_text`)."""

HOUSE_RULES = sourced.MergeRules(open_tables={"manifest": SYMBOLS})
"""House rules may add a manifest row for any symbol, and count any tile kind in a row."""


def _default_text() -> str:
    return package_text(__package__, "data.toml")


def check_data(data: dict, origin: str = "data.toml") -> None:
    """Check a whole data table (the shape of ``data.toml``, :data:`SCHEMA`); raise
    :class:`DataError` naming ``origin``, the key path, the value and what was expected.
    Cross-checks: one value per person, manifest columns naming the tile kinds of
    ``tiles.sink_order``, the centre kind among them, and every kind with a tile."""
    sourced.check(data, SCHEMA, origin)

    def fail(path: str, value: Any, why: str):
        raise sourced.data_error(origin, path, value, why)

    kinds = data["tiles"]["sink_order"]["value"]
    if data["tiles"]["centre_kind"]["value"] not in kinds:
        fail("tiles.centre_kind.value", data["tiles"]["centre_kind"]["value"],
             f"expected one of the sink order's kinds: {', '.join(kinds)}")
    people = data["people"]
    if len(people["values"]["value"]) != people["per_player"]["value"]:
        fail("people.values.value", people["values"]["value"],
             f"expected one value per person: {people['per_player']['value']} values "
             f"(people.per_player)")
    manifest = data["manifest"]
    for symbol, row in manifest.items():
        for column, count in row.items():
            if column != "source" and column not in kinds:
                fail(f"manifest.{symbol}.{column}", count,
                     f"unknown tile kind: expected one of {', '.join(kinds)} (tiles.sink_order)")
    for kind in kinds:
        if sum(row.get(kind, 0) for row in manifest.values()) == 0:
            fail(f"manifest (column {kind})", 0,
                 f"no {kind} tile: every kind of tiles.sink_order needs at least one tile")


def load_data(house_rules: dict | None = None) -> dict:
    """The data table: ``data.toml`` with ``house_rules`` (a dict of the same shape, such as a
    parsed ``--house-rules`` TOML file) deep-merged over it, checked
    (:func:`pbem.engine.sourced.load_sourced`).

    A house-rules entry may give a bare value (``land_capacity = 4``) or a table of the columns
    it changes (``shark = { max_move = 3 }``), and may add a manifest row for a symbol; a
    changed entry without its own ``source`` gets the source ``"house rules"``. Raises
    :class:`DataError` for an unknown key and for any value of the wrong type or range (see
    :func:`check_data`).
    """
    return sourced.load_sourced(_default_text(), house_rules, check_data, HOUSE_RULES)


@dataclass(frozen=True)
class Rules:
    """Typed access to a checked data table (see :func:`load_data`); counts are pieces or
    people, distances and moves are hexes, ``points`` are movement points per turn."""

    per_player: int
    values: tuple[int, ...]
    land_capacity: int
    ship_capacity: int
    points: int
    swim_spaces: int
    monsters_per_player: int
    monster_distance: int
    max_move: dict
    pieces: dict            # piece kind ("ship", "shark", ...) -> number in the box
    faces: tuple            # face index 0.. -> tuple of creature kinds
    face_names: tuple       # "dolphin-or-kraken", ...
    sink_order: tuple
    centre_kind: str
    volcano_under_city: bool
    manifest: dict          # symbol -> {kind: count}
    tiles_per_kind: dict    # kind -> number of tiles

    @classmethod
    def from_data(cls, data: dict) -> "Rules":
        """Build from a table checked by :func:`check_data`."""
        kinds = tuple(data["tiles"]["sink_order"]["value"])
        manifest = {s: {k: row.get(k, 0) for k in kinds} for s, row in data["manifest"].items()}
        faces = tuple(tuple(f) for f in data["die"]["faces"]["value"])
        pieces = {"ship": data["ships"]["pieces"]["value"]}
        pieces.update({k: data["creatures"][k]["pieces"] for k in CREATURE_KINDS})
        return cls(
            per_player=data["people"]["per_player"]["value"],
            values=tuple(data["people"]["values"]["value"]),
            land_capacity=data["people"]["land_capacity"]["value"],
            ship_capacity=data["ships"]["capacity"]["value"],
            points=data["movement"]["points"]["value"],
            swim_spaces=data["movement"]["swim_spaces"]["value"],
            monsters_per_player=data["setup"]["monsters_per_player"]["value"],
            monster_distance=data["setup"]["monster_distance"]["value"],
            max_move={k: data["creatures"][k]["max_move"] for k in CREATURE_KINDS},
            pieces=pieces,
            faces=faces,
            face_names=tuple(face_name(f) for f in faces),
            sink_order=kinds,
            centre_kind=data["tiles"]["centre_kind"]["value"],
            volcano_under_city=data["tiles"]["volcano_under_city"]["value"],
            manifest=manifest,
            tiles_per_kind={k: sum(row[k] for row in manifest.values()) for k in kinds},
        )


def face_name(kinds) -> str:
    """The order name of a die face: its creature kinds joined by ``-or-``
    (``("monster", "shark")`` -> ``"monster-or-shark"``)."""
    return "-or-".join(kinds)
