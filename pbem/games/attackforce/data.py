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
gets the source ``house rules``), then checked by :func:`check_data`: the declarative
:data:`SCHEMA` (:func:`pbem.engine.sourced.check`) and the sums it cannot say. The ruleset (to
come) will use the kit's default ``load_data`` with ``check_data`` from here; :func:`load_data`
below does the same for the tests and tools that have no ruleset instance.

The board is a :class:`pbem.boards.graph.GraphBoard` read with :func:`load_board`;
:func:`check_board` refuses a board the rules cannot be played on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.boards.graph import GraphBoard, load_graph
from pbem.boards.hexmap import MapError
from pbem.engine import sourced
from pbem.engine.ruleset import OptionSpec
from pbem.engine.sourced import DataError, load_sourced
from pbem.resources import package_text

__all__ = [
    "ATTACK_RATINGS",
    "BATTERY_KINDS",
    "FIGHTER_KINDS",
    "FLIGHTS",
    "OPTIONS",
    "SCHEMA",
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

_RULES = {  # name -> (smallest, largest) for the whole numbers of [rules]
    "flight_size": (1, 99), "flights_per_turn": (1, 1), "entry_turns": (1, 99),
    "battery_spaces": (1, 99), "empty_battery_spaces": (0, 99), "hull_spaces": (1, 99),
    "launchers": (0, 99), "sensor_pods": (0, 1), "pieces_in_game": (1, 999),
    "hull_looks": (1, 99), "stacking": (1, 1), "battery_steps": (1, 1), "turn_limit": (0, 999),
}

_OPTIONAL = ("launchers", "sensor_pod")

_ATTACK = sourced.described(sourced.one_of(ATTACK_RATINGS),
                            "an Attack Rating: " + ", ".join(ATTACK_RATINGS))
_TARGET = sourced.described(sourced.one_of(TARGET_RATINGS),
                            "a Target Rating: " + ", ".join(TARGET_RATINGS))
_COUNT = sourced.whole(0, what="a number of pieces")


def _piece(kind: str) -> sourced.Row:
    """The row of one kind of piece (The Playing Pieces; Playing Piece Reference)."""
    battery = kind in BATTERY_KINDS
    return sourced.Row({
        "name": sourced.described(sourced.text, "the printed name"),
        "side": sourced.equals(_SIDE_OF[kind]),
        "class": sourced.equals("battery" if battery else "fighter"),
        "attack": _ATTACK,
        "range": sourced.whole(0, 99, "spaces"),
        "target": _TARGET,
        "movement": (sourced.described(sourced.equals(0), "0: a Battery has no Movement "
                                       "Rating (How to Move 5a)") if battery
                     else sourced.whole(1, 99, "spaces")),
        "attacks": sourced.whole(1, 9, "attacks a Turn"),
        "count": (sourced.described(sourced.equals(1), "1 (Vaj Korsen)") if kind == "korsen"
                  else sourced.whole(0, 99, "a number of pieces")),
    })


SCHEMA = sourced.Table({
    "pieces": sourced.Table({k: _piece(k) for k in FIGHTER_KINDS + BATTERY_KINDS},
                            what="kind of piece", missing="missing: every kind of piece of "
                            "The Playing Pieces needs a row"),
    "attack_table": sourced.Table(
        {f"target_{t}": sourced.Row({f"attacker_{a}": sourced.whole(
            0, 99, "the number to roll at or under") for a in ATTACK_RATINGS})
         for t in TARGET_RATINGS},
        what="row", missing="missing: the ATTACK TABLE has a row for every Target Rating A "
        "to E"),
    "attack_dice": sourced.Row({"dice": sourced.whole(1, 9), "sides": sourced.whole(2, 256)}),
    "flights": sourced.Table(
        {c: sourced.Row({"eagles": _COUNT, "falcons": _COUNT}) for c in FLIGHTS},
        what="Flight", missing=f"missing: expected the four Flights {', '.join(FLIGHTS)}"),
    "cups": sourced.Table({
        "battery": sourced.Row({k: sourced.whole(0) for k in ("pieces", "drawn", "set_aside")}),
        "fighter": sourced.Row({k: sourced.whole(0) for k in ("pieces", "draws_per_launcher")}),
    }, what="cup"),
    "markers": sourced.Table({
        "hull": sourced.Row({
            "blank": sourced.whole(0),
            "explosion": sourced.described(sourced.equals(1), "1 (The Playing Pieces)"),
            "target": _TARGET}),
        "wreck": sourced.Row({"count": sourced.whole(0)}),
    }, what="marker"),
    "rules": sourced.Table(
        {**{k: sourced.Value(sourced.whole(lo, hi)) for k, (lo, hi) in _RULES.items()},
         "pass_friendly": sourced.Value(sourced.boolean)},
        what="rule", missing="missing"),
    "optional": sourced.Table(
        {k: sourced.Row({"default": sourced.boolean, "target": _TARGET}) for k in _OPTIONAL},
        what="optional rule"),
}, what="section")
"""The shape of ``data.toml`` (:mod:`pbem.engine.sourced`): a row per kind of piece with its
printed letters and numbers, the ATTACK TABLE row per Target Rating, the dice, a row per
Flight, the two cups, the two markers, the numbers of ``rules`` and the optional rules. What a
schema cannot say (the sums) :func:`check_data` checks after it."""


def check_data(data: dict, origin: str = "data.toml") -> None:
    """Check the whole table against :data:`SCHEMA`, then the sums the rulebook states: 28
    Arcturan Starfighters in 4 Flights of 7 in their printed order (Introduction, Federation
    Flights), 21 pieces in each cup, 14 Batteries drawn of which all are placed in the Battery
    Spaces less 2 (How to Set Up 3-4), a blank Hull Marker per Hull Space, a Wreck Marker per
    Launcher and Sensor Pod, 84 pieces in all (Game Parts). Raise :class:`DataError` naming
    ``origin`` (``data.toml`` or ``house rules``), the key path, the value and what was
    expected."""
    sourced.check(data, SCHEMA, origin)

    def fail(path: str, value: Any, why: str):
        raise sourced.data_error(origin, path, value, why)

    for entry in sourced.walk_sources(data):
        if not entry.source.strip():
            fail(f"{entry.path}.source", entry.source, "expected a non-empty source")
    pieces, rules = data["pieces"], data["rules"]
    count = {kind: row["count"] for kind, row in pieces.items()}
    number = {key: entry["value"] for key, entry in rules.items()}

    flights = data["flights"]
    if tuple(flights) != FLIGHTS:
        fail("flights", list(flights), f"expected the four Flights {', '.join(FLIGHTS)}")
    size = number["flight_size"]
    for colour, row in flights.items():
        if row["eagles"] + row["falcons"] != size:
            fail(f"flights.{colour}", row["eagles"] + row["falcons"],
                 f"expected a Flight of {size} pieces (rules.flight_size; Federation Flights)")
    for klass in ("eagle", "falcon"):
        total = sum(row[klass + "s"] for row in flights.values())
        if total != count[klass]:
            fail(f"flights.*.{klass}s", total, f"expected the {count[klass]} pieces "
                 f"of pieces.{klass}.count shared among the Flights")
    if number["entry_turns"] * number["flights_per_turn"] != len(FLIGHTS):
        fail("rules.entry_turns", number["entry_turns"],
             f"expected {len(FLIGHTS)} Turns, one Flight a Turn (Federation Flights)")

    bcup = data["cups"]["battery"]
    batteries = sum(count[k] for k in BATTERY_KINDS)
    if bcup["pieces"] != batteries:
        fail("cups.battery.pieces", bcup["pieces"], f"expected the {batteries} Batteries of "
             "pieces.laser/pompom/blaster.count (How to Set Up 4)")
    if bcup["drawn"] + bcup["set_aside"] != bcup["pieces"]:
        fail("cups.battery", bcup["drawn"] + bcup["set_aside"], f"expected drawn + set_aside "
             f"= {bcup['pieces']} (How to Set Up 4)")
    placed = number["battery_spaces"] - number["empty_battery_spaces"]
    if bcup["drawn"] != placed:
        fail("cups.battery.drawn", bcup["drawn"], f"expected {placed}: every Battery drawn is "
             "placed, in all the Battery Spaces but the empty ones (How to Set Up 4)")
    fighters = count["cobra"] + count["korsen"]
    if data["cups"]["fighter"]["pieces"] != fighters:
        fail("cups.fighter.pieces", data["cups"]["fighter"]["pieces"], f"expected the "
             f"{fighters} Cobras and Vaj Korsen (How to Set Up 3)")

    hull, wreck = data["markers"]["hull"], data["markers"]["wreck"]
    if hull["blank"] != number["hull_spaces"]:
        fail("markers.hull.blank", hull["blank"], "expected one blank Hull Marker per Hull "
             "Space: one is set aside and the explosion takes its place (How to Set Up 5-6)")
    need = number["launchers"] + number["sensor_pods"]
    if wreck["count"] < need:
        fail("markers.wreck.count", wreck["count"], f"expected at least {need}: one for each "
             "Launcher and the Sensor Pod")
    total = sum(count.values()) + hull["blank"] + hull["explosion"] + wreck["count"]
    if total != number["pieces_in_game"]:
        fail("rules.pieces_in_game", number["pieces_in_game"],
             f"expected the pieces, Hull Markers and Wreck Markers to add up to it (they "
             f"add up to {total})")


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
