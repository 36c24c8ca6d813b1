"""The Attack Force data file (``data.toml``) and board (``map.toml``): loading, checking,
typed access.

Rulebook: shared/seeds/003_4e91702e1e56808e.txt; it has no rule numbers, so rules are cited by
section name ("How to Attack", "How to Move 5a"). Every value lives in ``data.toml`` with a
``source`` (GAMES.md, "How to handle what the rulebooks do not say"):

- ``pieces.<kind>``: one row per kind of Fighter or Battery (Attack Rating and Target Rating as
  printed letters, Range and Movement in spaces, attacks a Turn, how many pieces);
- ``attack_table.target_<T>``: one row of the ATTACK TABLE per Target Rating, one column
  ``attacker_<A>`` per Attack Rating; ``attack_dice``: how many dice and their sides;
- ``flights.<colour>``: how many Eagles and Falcons each Flight of 7 holds;
- ``cups.battery`` and ``cups.fighter``; ``markers.hull`` and ``markers.wreck``;
- ``rules.<name>``: the numbers of the rules, ``{value = ..., source = "..."}``;
- ``optional.<name>``: the two optional rules (options chosen when the game is created).

House rules (``--house-rules FILE``) have the same shape and are merged by the kit's
:func:`pbem.engine.sourced.merge_house_rules` (a changed entry without its own source
gets the source ``house rules``), then checked by :func:`check_data`. The ruleset (to come) will
use the kit's default ``load_data`` with ``check_data`` from here; :func:`load_data` below does
the same for the tests and tools that have no ruleset instance.

The board is a :class:`pbem.boards.graph.GraphBoard` read with :func:`load_board`;
:func:`check_board` refuses a board the rules cannot be played on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.boards.graph import GraphBoard, load_graph
from pbem.boards.hexmap import MapError
from pbem.engine.ruleset import OptionSpec
from pbem.engine.sourced import DataError, is_whole, load_sourced
from pbem.resources import package_text

__all__ = [
    "ATTACK_RATINGS",
    "BATTERY_KINDS",
    "FIGHTER_KINDS",
    "FLIGHTS",
    "OPTIONS",
    "SIDES",
    "TARGET_RATINGS",
    "AttackTable",
    "DataError",
    "PieceType",
    "Rules",
    "board_text",
    "check_board",
    "check_data",
    "load_board",
    "load_data",
]

SIDES = ("arcturan", "empire")
"""The two players (Introduction: 'a two-player game'): the Arcturan Player and the Empire
Player; the role names of a game."""

ATTACK_RATINGS = ("A", "B", "C")
"""The columns of the ATTACK TABLE ('his piece's Attack Rating (A, B or C)', How to Attack 2)."""

TARGET_RATINGS = ("A", "B", "C", "D", "E")
"""The rows of the ATTACK TABLE (How to Attack, ATTACK TABLE)."""

FIGHTER_KINDS = ("eagle", "falcon", "cobra", "korsen")
"""Fighter pieces (The Playing Pieces; Playing Piece Reference)."""

BATTERY_KINDS = ("laser", "pompom", "blaster")
"""'three types of Batteries in the game: Lasers, Pompoms and Blasters' (The Playing Pieces)."""

FLIGHTS = ("red", "blue", "green", "yellow")
"""The four Flights, in the Introduction's order ('Red, Blue, Green and Yellow')."""

_SIDE_OF = {"eagle": "arcturan", "falcon": "arcturan", "cobra": "empire", "korsen": "empire",
            "laser": "empire", "pompom": "empire", "blaster": "empire"}

_PIECE_KEYS = ("name", "side", "class", "attack", "range", "target", "movement", "attacks",
               "count", "source")

_RULES = {  # name -> (smallest, largest) for the whole numbers of [rules]
    "flight_size": (1, 99), "flights_per_turn": (1, 1), "entry_turns": (1, 99),
    "battery_spaces": (1, 99), "empty_battery_spaces": (0, 99), "hull_spaces": (1, 99),
    "launchers": (0, 99), "sensor_pods": (0, 1), "pieces_in_game": (1, 999),
    "hull_looks": (1, 99), "stacking": (1, 1), "battery_steps": (1, 1), "turn_limit": (0, 999),
}
_RULE_FLAGS = ("pass_friendly",)

_OPTIONAL = ("launchers", "sensor_pod")


def _source_ok(v: Any) -> bool:
    return isinstance(v, str) and v.strip() != ""


def check_data(data: dict, origin: str = "data.toml") -> None:
    """Check the whole table; raise :class:`DataError` naming ``origin`` (``data.toml`` or
    ``house rules``), the key path, the value and what was expected. Besides the types and
    ranges it checks the sums the rulebook states: 28 Arcturan Starfighters in 4 Flights of 7
    (Introduction, Federation Flights), 21 pieces in each cup, 14 Batteries drawn of which all
    but none are placed in the Battery Spaces less 2 (How to Set Up 3-4), 84 pieces in all
    (Game Parts)."""

    def fail(path: str, value: Any, why: str):
        raise DataError(f"{origin}: {path} = {value!r}: {why}")

    want = ("pieces", "attack_table", "attack_dice", "flights", "cups", "markers", "rules",
            "optional")
    for section in data:
        if section not in want:
            fail(section, "...", f"unknown section: expected one of {', '.join(want)}")
    for section in want:
        if not isinstance(data.get(section), dict):
            fail(section, data.get(section), "expected a table")

    pieces = data["pieces"]
    for kind in FIGHTER_KINDS + BATTERY_KINDS:
        if kind not in pieces:
            fail(f"pieces.{kind}", None, "missing: every kind of piece of The Playing Pieces "
                 "needs a row")
    for kind, row in pieces.items():
        path = f"pieces.{kind}"
        if kind not in _SIDE_OF:
            fail(path, "...", "unknown kind of piece: expected one of "
                 + ", ".join(FIGHTER_KINDS + BATTERY_KINDS))
        if not isinstance(row, dict):
            fail(path, row, "expected a table")
        for key in row:
            if key not in _PIECE_KEYS:
                fail(f"{path}.{key}", row[key], f"unknown key: expected one of "
                     f"{', '.join(_PIECE_KEYS)}")
        if not _source_ok(row.get("name")):
            fail(f"{path}.name", row.get("name"), "expected the printed name")
        if row.get("side") != _SIDE_OF[kind]:
            fail(f"{path}.side", row.get("side"), f"expected {_SIDE_OF[kind]!r}")
        klass = "battery" if kind in BATTERY_KINDS else "fighter"
        if row.get("class") != klass:
            fail(f"{path}.class", row.get("class"), f"expected {klass!r}")
        if row.get("attack") not in ATTACK_RATINGS:
            fail(f"{path}.attack", row.get("attack"), "expected an Attack Rating: "
                 + ", ".join(ATTACK_RATINGS))
        if row.get("target") not in TARGET_RATINGS:
            fail(f"{path}.target", row.get("target"), "expected a Target Rating: "
                 + ", ".join(TARGET_RATINGS))
        if not is_whole(row.get("range")) or not 0 <= row["range"] <= 99:
            fail(f"{path}.range", row.get("range"), "expected spaces from 0 to 99")
        if klass == "battery":
            if row.get("movement") != 0:
                fail(f"{path}.movement", row.get("movement"), "expected 0: a Battery has no "
                     "Movement Rating (How to Move 5a)")
        elif not is_whole(row.get("movement")) or not 1 <= row["movement"] <= 99:
            fail(f"{path}.movement", row.get("movement"), "expected spaces from 1 to 99")
        if not is_whole(row.get("attacks")) or not 1 <= row["attacks"] <= 9:
            fail(f"{path}.attacks", row.get("attacks"), "expected attacks a Turn, 1 to 9")
        if not is_whole(row.get("count")) or not 0 <= row["count"] <= 99:
            fail(f"{path}.count", row.get("count"), "expected a number of pieces, 0 to 99")
        if not _source_ok(row.get("source")):
            fail(f"{path}.source", row.get("source"), "expected a non-empty source")

    table = data["attack_table"]
    for rating in TARGET_RATINGS:
        if f"target_{rating}" not in table:
            fail(f"attack_table.target_{rating}", None, "missing: the ATTACK TABLE has a row "
                 "for every Target Rating A to E")
    for key, row in table.items():
        path = f"attack_table.{key}"
        if key not in {f"target_{t}" for t in TARGET_RATINGS}:
            fail(path, "...", "unknown row: expected target_A to target_E")
        if not isinstance(row, dict):
            fail(path, row, "expected a table")
        cols = {f"attacker_{a}" for a in ATTACK_RATINGS}
        for col in row:
            if col != "source" and col not in cols:
                fail(f"{path}.{col}", row[col], "unknown column: expected attacker_A, "
                     "attacker_B, attacker_C, source")
        for col in sorted(cols):
            v = row.get(col)
            if not is_whole(v) or not 0 <= v <= 99:
                fail(f"{path}.{col}", v, "expected the number to roll at or under, 0 to 99")
        if not _source_ok(row.get("source")):
            fail(f"{path}.source", row.get("source"), "expected a non-empty source")

    dice = data["attack_dice"]
    for key in ("dice", "sides"):
        lo, hi = (1, 9) if key == "dice" else (2, 256)
        if not is_whole(dice.get(key)) or not lo <= dice[key] <= hi:
            fail(f"attack_dice.{key}", dice.get(key), f"expected a whole number {lo} to {hi}")

    rules = data["rules"]
    for key, entry in rules.items():
        path = f"rules.{key}"
        if key not in _RULES and key not in _RULE_FLAGS:
            fail(path, "...", "unknown rule: expected one of "
                 + ", ".join(list(_RULES) + list(_RULE_FLAGS)))
        if not isinstance(entry, dict) or set(entry) != {"value", "source"}:
            fail(path, entry, "expected a table { value = ..., source = \"...\" }")
        if not _source_ok(entry["source"]):
            fail(f"{path}.source", entry["source"], "expected a non-empty source")
        v = entry["value"]
        if key in _RULE_FLAGS:
            if not isinstance(v, bool):
                fail(f"{path}.value", v, "expected true or false")
        else:
            lo, hi = _RULES[key]
            if not is_whole(v) or not lo <= v <= hi:
                fail(f"{path}.value", v, f"expected a whole number from {lo} to {hi}")
    for key in list(_RULES) + list(_RULE_FLAGS):
        if key not in rules:
            fail(f"rules.{key}", None, "missing")

    flights = data["flights"]
    if tuple(flights) != FLIGHTS:
        fail("flights", list(flights), f"expected the four Flights {', '.join(FLIGHTS)}")
    size = rules["flight_size"]["value"]
    for colour, row in flights.items():
        path = f"flights.{colour}"
        if not isinstance(row, dict) or set(row) != {"eagles", "falcons", "source"}:
            fail(path, row, "expected a table { eagles = N, falcons = N, source = \"...\" }")
        for key in ("eagles", "falcons"):
            if not is_whole(row[key]) or row[key] < 0:
                fail(f"{path}.{key}", row[key], "expected a number of pieces, 0 or more")
        if row["eagles"] + row["falcons"] != size:
            fail(path, row["eagles"] + row["falcons"],
                 f"expected a Flight of {size} pieces (rules.flight_size; Federation Flights)")
    for klass in ("eagle", "falcon"):
        total = sum(row[klass + "s"] for row in flights.values())
        if total != pieces[klass]["count"]:
            fail(f"flights.*.{klass}s", total, f"expected the {pieces[klass]['count']} pieces "
                 f"of pieces.{klass}.count shared among the Flights")
    if rules["entry_turns"]["value"] * rules["flights_per_turn"]["value"] != len(FLIGHTS):
        fail("rules.entry_turns", rules["entry_turns"]["value"],
             f"expected {len(FLIGHTS)} Turns, one Flight a Turn (Federation Flights)")

    cups = data["cups"]
    for key, cols in (("battery", {"pieces", "drawn", "set_aside", "source"}),
                      ("fighter", {"pieces", "draws_per_launcher", "source"})):
        row = cups.get(key)
        if not isinstance(row, dict) or set(row) != cols:
            fail(f"cups.{key}", row, f"expected a table of {', '.join(sorted(cols))}")
        for col in cols - {"source"}:
            if not is_whole(row[col]) or row[col] < 0:
                fail(f"cups.{key}.{col}", row[col], "expected a whole number, 0 or more")
    if set(cups) != {"battery", "fighter"}:
        fail("cups", list(cups), "expected the tables battery and fighter")
    bcup = cups["battery"]
    batteries = sum(pieces[k]["count"] for k in BATTERY_KINDS)
    if bcup["pieces"] != batteries:
        fail("cups.battery.pieces", bcup["pieces"], f"expected the {batteries} Batteries of "
             "pieces.laser/pompom/blaster.count (How to Set Up 4)")
    if bcup["drawn"] + bcup["set_aside"] != bcup["pieces"]:
        fail("cups.battery", bcup["drawn"] + bcup["set_aside"], f"expected drawn + set_aside "
             f"= {bcup['pieces']} (How to Set Up 4)")
    placed = rules["battery_spaces"]["value"] - rules["empty_battery_spaces"]["value"]
    if bcup["drawn"] != placed:
        fail("cups.battery.drawn", bcup["drawn"], f"expected {placed}: every Battery drawn is "
             "placed, in all the Battery Spaces but the empty ones (How to Set Up 4)")
    fighters = pieces["cobra"]["count"] + pieces["korsen"]["count"]
    if cups["fighter"]["pieces"] != fighters:
        fail("cups.fighter.pieces", cups["fighter"]["pieces"], f"expected the {fighters} "
             "Cobras and Vaj Korsen (How to Set Up 3)")
    if pieces["korsen"]["count"] != 1:
        fail("pieces.korsen.count", pieces["korsen"]["count"], "expected 1 (Vaj Korsen)")

    markers = data["markers"]
    hull = markers.get("hull")
    if not isinstance(hull, dict) or set(hull) != {"blank", "explosion", "target", "source"}:
        fail("markers.hull", hull, "expected a table of blank, explosion, target, source")
    if hull["explosion"] != 1:
        fail("markers.hull.explosion", hull["explosion"], "expected 1 (The Playing Pieces)")
    if hull["blank"] != rules["hull_spaces"]["value"]:
        fail("markers.hull.blank", hull["blank"], "expected one blank Hull Marker per Hull "
             "Space: one is set aside and the explosion takes its place (How to Set Up 5-6)")
    if hull["target"] not in TARGET_RATINGS:
        fail("markers.hull.target", hull["target"], "expected a Target Rating A to E")
    wreck = markers.get("wreck")
    if not isinstance(wreck, dict) or set(wreck) != {"count", "source"}:
        fail("markers.wreck", wreck, "expected a table of count, source")
    need = rules["launchers"]["value"] + rules["sensor_pods"]["value"]
    if not is_whole(wreck["count"]) or wreck["count"] < need:
        fail("markers.wreck.count", wreck["count"], f"expected at least {need}: one for each "
             "Launcher and the Sensor Pod")
    if set(markers) != {"hull", "wreck"}:
        fail("markers", list(markers), "expected the tables hull and wreck")
    total = (sum(p["count"] for p in pieces.values()) + hull["blank"] + hull["explosion"]
             + wreck["count"])
    if total != rules["pieces_in_game"]["value"]:
        fail("rules.pieces_in_game", rules["pieces_in_game"]["value"],
             f"expected the pieces, Hull Markers and Wreck Markers to add up to it (they "
             f"add up to {total})")

    optional = data["optional"]
    if set(optional) != set(_OPTIONAL):
        fail("optional", list(optional), f"expected the tables {', '.join(_OPTIONAL)}")
    for key, row in optional.items():
        path = f"optional.{key}"
        if not isinstance(row, dict) or set(row) != {"default", "target", "source"}:
            fail(path, row, "expected a table of default, target, source")
        if not isinstance(row["default"], bool):
            fail(f"{path}.default", row["default"], "expected true or false")
        if row["target"] not in TARGET_RATINGS:
            fail(f"{path}.target", row["target"], "expected a Target Rating A to E")


def data_text() -> str:
    """The text of the package's ``data.toml``."""
    return package_text(__package__, "data.toml")


def load_data(house_rules: dict | None = None) -> dict:
    """``data.toml`` with ``house_rules`` (a parsed TOML table, or None) merged over it the
    kit's way (pbem.engine.sourced.load_sourced), then checked (origin ``house rules`` after a
    merge). Raises :class:`DataError`."""
    return load_sourced(data_text(), house_rules, check_data)


@dataclass(frozen=True)
class PieceType:
    """One kind of piece as printed (The Playing Pieces, SAMPLE PLAYING PIECE): its Attack
    Rating and Target Rating are letters (a column and a row of the ATTACK TABLE), so the kit's
    whole-number :class:`pbem.boards.counters.CounterType` does not fit them. ``movement`` 0:
    a Battery, which moves one Battery Space along a Tunnel instead (How to Move 5a)."""

    kind: str
    name: str
    side: str
    battery: bool
    attack: str
    range: int
    target: str
    movement: int
    attacks: int
    count: int
    source: str


class AttackTable:
    """The ATTACK TABLE (How to Attack): ``needed(attack, target)`` is the number to roll at or
    under on the dice; ``destroys(attack, target, roll)`` says whether a roll destroys the
    target (How to Attack 3: 'less than or the same as')."""

    def __init__(self, data: dict):
        self._cells = {(a, t): data["attack_table"][f"target_{t}"][f"attacker_{a}"]
                       for a in ATTACK_RATINGS for t in TARGET_RATINGS}
        self._sources = {t: data["attack_table"][f"target_{t}"]["source"]
                         for t in TARGET_RATINGS}
        self.dice = data["attack_dice"]["dice"]
        self.sides = data["attack_dice"]["sides"]

    def needed(self, attack: str, target: str) -> int:
        """The number in column ``attack`` (A, B, C), row ``target`` (A to E). Raises
        ``KeyError`` for a rating the table does not have."""
        return self._cells[(attack, target)]

    def destroys(self, attack: str, target: str, roll: int) -> bool:
        """True when ``roll`` (the dice's total) destroys a target of rating ``target``
        attacked by a piece of Attack Rating ``attack``."""
        return roll <= self.needed(attack, target)

    def source(self, target: str) -> str:
        """The source of row ``target``."""
        return self._sources[target]

    def rows(self) -> list[tuple[str, list[int]]]:
        """``[(target rating, [number per Attack Rating])]`` in printed order."""
        return [(t, [self._cells[(a, t)] for a in ATTACK_RATINGS]) for t in TARGET_RATINGS]


@dataclass(frozen=True)
class Rules:
    """Typed access to a checked data table."""

    pieces: dict
    table: AttackTable
    flights: dict
    battery_cup: dict
    fighter_cup: dict
    hull_target: str
    wrecks: int
    numbers: dict
    optional: dict

    @classmethod
    def from_data(cls, data: dict) -> Rules:
        """Build from :func:`load_data`'s result (already checked)."""
        pieces = {k: PieceType(k, r["name"], r["side"], r["class"] == "battery", r["attack"],
                               r["range"], r["target"], r["movement"], r["attacks"],
                               r["count"], r["source"])
                  for k, r in data["pieces"].items()}
        return cls(
            pieces=pieces,
            table=AttackTable(data),
            flights={c: {"eagle": r["eagles"], "falcon": r["falcons"]}
                     for c, r in data["flights"].items()},
            battery_cup={k: v for k, v in data["cups"]["battery"].items() if k != "source"},
            fighter_cup={k: v for k, v in data["cups"]["fighter"].items() if k != "source"},
            hull_target=data["markers"]["hull"]["target"],
            wrecks=data["markers"]["wreck"]["count"],
            numbers={k: e["value"] for k, e in data["rules"].items()},
            optional={k: dict(r) for k, r in data["optional"].items()},
        )

    def __getitem__(self, key: str):
        """The value of ``rules.<key>``."""
        return self.numbers[key]

    def flight_pieces(self, colour: str) -> list[str]:
        """The kinds of the pieces of one Flight, Eagles first (the order of its piece ids)."""
        f = self.flights[colour]
        return ["eagle"] * f["eagle"] + ["falcon"] * f["falcon"]


OPTIONS = {
    "launchers": OptionSpec("no", ("no", "yes"), "the Arcturan Player may attack Launchers in "
                            "Step 5 (target E; a hit wrecks it)",
                            "rulebook Attacking Launchers (optional)"),
    "sensor_pod": OptionSpec("no", ("no", "yes"), "the Arcturan Player may attack the Sensor "
                             "Pod in Step 5 (target E; once wrecked the Empire may not look at "
                             "Hull Markers); without it the Sensor Pod Space is a blank Hull "
                             "Space", "rulebook Attacking the Sensor Pod (optional)"),
}
"""The options of a game (``--option launchers=yes``): the two optional rules, off unless both
players agree (their defaults are ``optional.*.default`` of data.toml, false)."""


# -- the board ----------------------------------------------------------------------------------

KINDS = ("battery", "hull", "launcher", "sensor-pod")
"""The kinds of space the rules name (The Map); any other kind is open space or plain hull."""


def board_text() -> str:
    """The text of the package's stand-in ``map.toml``."""
    return package_text(__package__, "map.toml")


def load_board(text: str | None = None, source: str = "") -> GraphBoard:
    """The board: the referee's ``--map`` file ``text`` (named ``source`` in messages), or the
    stand-in ``map.toml`` when ``text`` is None. Raises a ``GraphMapError`` (a ``MapError``)."""
    if text is None:
        return load_graph(board_text(), source or "pbem/games/attackforce/map.toml (stand-in)")
    return load_graph(text, source or "map")


def check_board(board: GraphBoard, data: dict) -> None:
    """Raise ``MapError`` (naming the board and what was expected) unless ``board`` carries
    the game of ``data`` (The Map): ``rules.battery_spaces`` spaces of kind ``battery`` (also
    the group ``battery``), each joined by ``tunnel`` links only to other Battery Spaces and
    all of them connected through Tunnels ('the lines connecting the 16 Battery Spaces to each
    other'); ``rules.hull_spaces`` of kind ``hull`` listed in their printed numbering as the
    group ``hull``; ``rules.launchers`` of kind ``launcher`` (group ``launcher``); one
    ``sensor-pod``; and at least one map edge (``edge-...`` group) with room for a whole
    Flight (How to Play step 1)."""
    src = board.source or board.name
    rules = data["rules"]

    def fail(why: str):
        raise MapError(src, None, why)

    for kind, count, rule in (("battery", rules["battery_spaces"]["value"], "battery_spaces"),
                              ("hull", rules["hull_spaces"]["value"], "hull_spaces"),
                              ("launcher", rules["launchers"]["value"], "launchers"),
                              ("sensor-pod", rules["sensor_pods"]["value"], "sensor_pods")):
        got = board.of_kind(kind)
        if len(got) != count:
            fail(f"{len(got)} spaces of kind {kind!r}: expected {count} (rules.{rule}; The Map)")
        if kind != "sensor-pod":
            if not board.has_group(kind):
                fail(f"no group {kind!r}: expected [groups] {kind} = the {kind} spaces in their "
                     f"printed order")
            members = board.group(kind)
            if set(members) != set(got):
                fail(f"group {kind!r} {list(members)}: expected exactly the spaces of kind "
                     f"{kind!r} {list(got)}")
    batteries = set(board.of_kind("battery"))
    if "tunnel" not in board.link_kinds():
        fail("no links of kind 'tunnel': expected Tunnels connecting the Battery Spaces")
    for a, b, kind, _ in board.links():
        if kind == "tunnel" and not (a in batteries and b in batteries):
            fail(f"tunnel {a}-{b}: expected Tunnels only between Battery Spaces (How to Move 5a)")
    first = board.of_kind("battery")[0]
    reached = set(board.within(first, len(board), via="tunnel"))
    if not batteries <= reached:
        cut = sorted(batteries - reached, key=board.spaces().index)
        fail(f"Battery Spaces {', '.join(cut)} are not connected to {first} by Tunnels: "
             f"expected the Tunnels to connect the Battery Spaces to each other (The Map)")
    size = rules["flight_size"]["value"]
    edges = board.edges()
    if not edges:
        fail("no map edge: expected groups edge-north, edge-east... where the Flights enter")
    if max(len(board.group(e)) for e in edges) < size:
        fail(f"no map edge has {size} spaces: expected room for a whole Flight on one edge "
             f"(How to Play step 1)")
