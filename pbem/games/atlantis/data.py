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

import copy
from dataclasses import dataclass
from typing import Any

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

HOUSE_SOURCE = "house rules"


class DataError(ValueError):
    """A data table that cannot be used: an unknown key, a missing key, or a value of the wrong
    type or range. The message names where it came from (``data.toml`` or ``house rules``), the
    key path (``people.land_capacity``), the value found and what was expected."""


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(minimum: int, maximum: int | None = None):
    def check(v: Any) -> str | None:
        if not _is_int(v) or v < minimum or (maximum is not None and v > maximum):
            top = f" and at most {maximum}" if maximum is not None else ""
            return f"expected a whole number at least {minimum}{top}"
        return None
    return check


def _int_list(v: Any) -> str | None:
    if not isinstance(v, list) or not v or not all(_is_int(x) and x >= 0 for x in v):
        return "expected a non-empty list of whole numbers 0 or more"
    return None


def _bool(v: Any) -> str | None:
    return None if isinstance(v, bool) else "expected true or false"


def _str(v: Any) -> str | None:
    return None if isinstance(v, str) and v else "expected a non-empty string"


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


def _kinds(v: Any) -> str | None:
    if (not isinstance(v, list) or not v or not all(isinstance(k, str) and k for k in v)
            or len(set(v)) != len(v)):
        return "expected a non-empty list of distinct tile kinds such as [\"sand\", \"forest\"]"
    return None


# Scalar entries: section -> key -> checker of `value`.
_SCALARS = {
    "people": {"per_player": _int(1, 99), "values": _int_list, "land_capacity": _int(1)},
    "ships": {"capacity": _int(1), "pieces": _int(0, 99)},
    "movement": {"points": _int(1), "swim_spaces": _int(1)},
    "setup": {"monsters_per_player": _int(0), "monster_distance": _int(1)},
    "die": {"faces": _faces},
    "tiles": {"sink_order": _kinds, "centre_kind": _str, "volcano_under_city": _bool},
}
# Row tables: section -> row -> column -> checker.
_CREATURE_COLUMNS = {"max_move": _int(0), "pieces": _int(0, 99)}


def _default_text() -> str:
    return package_text(__package__, "data.toml")


def _merge(base: dict, house: dict, path: str) -> None:
    """Deep-merge ``house`` into ``base`` (both the data file's shape), in place."""
    if not isinstance(house, dict):
        raise DataError(f"house rules: {path or 'the file'} = {house!r}: expected a table")
    for key, value in house.items():
        where = f"{path}.{key}" if path else key
        if key not in base:
            if path == "manifest" and key in SYMBOLS:
                base[key] = {"source": HOUSE_SOURCE}
            else:
                known = ", ".join(sorted(base)) if isinstance(base, dict) else ""
                raise DataError(f"house rules: unknown key {where!r}: expected one of {known}")
        entry = base[key]
        if isinstance(entry, dict) and "source" in entry:
            # An entry: a bare value replaces `value`; a table replaces the columns it names.
            if isinstance(value, dict):
                for column, v in value.items():
                    if column != "source" and column not in entry and path != "manifest":
                        known = ", ".join(sorted(k for k in entry if k != "source"))
                        raise DataError(f"house rules: unknown key '{where}.{column}': expected "
                                        f"one of {known}, source")
                    entry[column] = v
                if "source" not in value:
                    entry["source"] = HOUSE_SOURCE
            elif "value" in entry:
                entry["value"] = value
                entry["source"] = HOUSE_SOURCE
            else:
                raise DataError(f"house rules: {where} = {value!r}: expected a table of "
                                f"{', '.join(k for k in entry if k != 'source')}")
        elif isinstance(entry, dict):
            _merge(entry, value, where)
        else:
            raise DataError(f"house rules: {where}: cannot be set")


def check_data(data: dict, origin: str = "data.toml") -> None:
    """Check a whole data table (the shape of ``data.toml``); raise :class:`DataError` naming
    ``origin``, the key path, the value and what was expected. Cross-checks: one value per
    person, die faces naming known creatures, manifest columns naming the tile kinds of
    ``tiles.sink_order``, the centre kind among them, and every symbol known."""

    def fail(path: str, value: Any, why: str):
        raise DataError(f"{origin}: {path} = {value!r}: {why}")

    sections = set(_SCALARS) | {"creatures", "manifest"}
    for section in data:
        if section not in sections:
            fail(section, "...", f"unknown section: expected one of {', '.join(sorted(sections))}")
    for section in sorted(sections):
        if not isinstance(data.get(section), dict):
            fail(section, data.get(section), "expected a table")
    for section, keys in _SCALARS.items():
        table = data[section]
        for key in table:
            if key not in keys:
                fail(f"{section}.{key}", table[key],
                     f"unknown key: expected one of {', '.join(sorted(keys))}")
        for key, checker in keys.items():
            entry = table.get(key)
            path = f"{section}.{key}"
            if not isinstance(entry, dict) or "value" not in entry:
                fail(path, entry, "expected a table { value = ..., source = \"...\" }")
            extra = set(entry) - {"value", "source"}
            if extra:
                fail(path, entry, f"unknown keys {sorted(extra)}: expected value and source")
            if not isinstance(entry.get("source"), str) or not entry["source"]:
                fail(f"{path}.source", entry.get("source"), "expected a non-empty string")
            why = checker(entry["value"])
            if why:
                fail(f"{path}.value", entry["value"], why)
    creatures = data["creatures"]
    for kind in creatures:
        if kind not in CREATURE_KINDS:
            fail(f"creatures.{kind}", creatures[kind],
                 f"unknown creature: expected one of {', '.join(CREATURE_KINDS)}")
    for kind in CREATURE_KINDS:
        row = creatures.get(kind)
        path = f"creatures.{kind}"
        if not isinstance(row, dict):
            fail(path, row, "expected a table { max_move = ..., pieces = ..., source = ... }")
        for column in row:
            if column not in _CREATURE_COLUMNS and column != "source":
                fail(f"{path}.{column}", row[column], "unknown key: expected max_move, pieces, "
                                                      "source")
        for column, checker in _CREATURE_COLUMNS.items():
            why = checker(row.get(column))
            if why:
                fail(f"{path}.{column}", row.get(column), why)
        if not isinstance(row.get("source"), str) or not row["source"]:
            fail(f"{path}.source", row.get("source"), "expected a non-empty string")
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
        path = f"manifest.{symbol}"
        if symbol not in SYMBOLS:
            fail(path, row, f"unknown symbol: expected one of {', '.join(SYMBOLS)}")
        if not isinstance(row, dict):
            fail(path, row, "expected a table of counts per tile kind and a source")
        for column, count in row.items():
            if column == "source":
                if not isinstance(count, str) or not count:
                    fail(f"{path}.source", count, "expected a non-empty string")
                continue
            if column not in kinds:
                fail(f"{path}.{column}", count,
                     f"unknown tile kind: expected one of {', '.join(kinds)} (tiles.sink_order)")
            if not _is_int(count) or count < 0:
                fail(f"{path}.{column}", count, "expected a whole number 0 or more")
        if "source" not in row:
            fail(f"{path}.source", None, "expected a non-empty string")
    totals = {k: sum(row.get(k, 0) for row in manifest.values()) for k in kinds}
    for kind, total in totals.items():
        if total == 0:
            fail(f"manifest (column {kind})", 0,
                 f"no {kind} tile: every kind of tiles.sink_order needs at least one tile")


def load_data(house_rules: dict | None = None) -> dict:
    """The data table: ``data.toml`` with ``house_rules`` (a dict of the same shape, such as a
    parsed ``--house-rules`` TOML file) deep-merged over it, checked.

    A house-rules entry may give a bare value (``land_capacity = 4``) or a table of the columns
    it changes (``shark = { max_move = 3 }``); a changed entry without its own ``source`` gets
    the source ``"house rules"``. Raises :class:`DataError` for an unknown key and for any value
    of the wrong type or range (see :func:`check_data`).
    """
    import tomllib

    data = tomllib.loads(_default_text())
    check_data(data, "data.toml")
    if house_rules:
        data = copy.deepcopy(data)
        _merge(data, house_rules, "")
        check_data(data, "house rules")
    return data


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
