"""The Atlantis game state, its split by audience (dump/load) and the per-role view.

DESIGN.md, "Every fact has an audience": the state is dumped as

- ``public``: the board (map, tiles left, sunk tiles and the symbols shown to all), every
  piece and where it is, seats, turn, whose window, kept-tile counts, the last die, the dolphins
  held on a nearly safe space, the options and the data table;
- ``secret[role]``: that role's kept tiles, its standing orders, the values of its people it
  has seen, and the symbols of the tiles it sank;
- ``referee``: the symbols under the tiles not yet sunk and the value under every person.

When the game ends everything becomes public (``public["reveal"]``). :func:`view` is built only
from the public part and the role's own secret part, so it cannot leak what the role may not
know; :func:`partial` builds a state from those same parts for checking orders and for bots.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from pbem.boards.hexmap import HexMap
from pbem.engine.ruleset import Parts
from pbem.engine.sourced import TableMemo

from .data import Rules

WHERE = ("box", "land", "ship", "sea", "safe", "dead")
"""Where a person can be: not yet placed, on an island tile, aboard a ship, swimming in a sea
hex, safe on a safe island, dead (eaten, drowned in a vortex)."""

STANDING_TILES = ("kill-shark", "kraken-killed")

_TRAILING_DIGITS = re.compile(r"\d+$")


def piece_kind(piece: str) -> str:
    """The kind of a ship or creature id: ``"shark2"`` -> ``"shark"``, ``"ship10"`` ->
    ``"ship"``."""
    return _TRAILING_DIGITS.sub("", piece)


@lru_cache(maxsize=4096)
def id_key(piece: str) -> tuple:
    """Sort key for piece and person ids: kind, then number (``shark2`` before ``shark10``)."""
    kind = piece_kind(piece)
    return kind, int(piece[len(kind):] or 0)


@dataclass
class Person:
    """One person: ``id`` (``red3``), ``owner`` (role), ``where`` (one of :data:`WHERE`),
    ``hex`` (for land, sea and safe) and ``ship`` (the ship id when aboard)."""

    id: str
    owner: str
    where: str = "box"
    hex: str | None = None
    ship: str | None = None

    def to_json(self) -> dict:
        """``{"owner", "where", "hex", "ship"}`` (JSON values)."""
        return {"owner": self.owner, "where": self.where, "hex": self.hex, "ship": self.ship}

    @classmethod
    def from_json(cls, pid: str, d: dict) -> "Person":
        """The person ``pid`` described by :meth:`to_json`'s output."""
        return cls(pid, d["owner"], d["where"], d.get("hex"), d.get("ship"))

    @property
    def alive(self) -> bool:
        """True for a person still in danger: on land, aboard a ship or swimming."""
        return self.where in ("land", "ship", "sea")


@dataclass
class State:
    """The whole game. Public fields first, then the secret ones (per role), then the referee's.

    Hexes are four-digit labels; ``tiles`` maps each hex still holding a land tile to its kind
    (``sand``, ``forest``, ``fortress``); ``ships`` and ``creatures`` map piece ids to hexes;
    ``placed`` counts the pieces of each kind taken from the box so far (ids are numbered by it).
    ``held`` lists the dolphins that may not move again before the next player-turn, because a
    swimmer went ashore from their space this turn (The Safe Islands).
    ``stage`` is ``placement``, ``turn`` (a player-turn window), ``creature`` (the short
    creature window) or ``over``. ``partial`` is True for a state built from one role's
    knowledge (:func:`partial`): its unknown symbols and values are None.
    """

    seats: list
    options: dict
    data: dict
    hexmap: HexMap
    rules: Rules
    stage: str = "placement"
    turn: int = 0
    phasing: str | None = None
    tiles: dict = field(default_factory=dict)
    city: str | None = None
    sunk: list = field(default_factory=list)
    people: dict = field(default_factory=dict)
    ships: dict = field(default_factory=dict)
    creatures: dict = field(default_factory=dict)
    placed: dict = field(default_factory=dict)
    kept_count: dict = field(default_factory=dict)
    die: dict | None = None
    pending: dict | None = None
    held: list = field(default_factory=list)
    outcome: dict | None = None
    # secret, per role
    kept: dict = field(default_factory=dict)
    standing: dict = field(default_factory=dict)
    seen: dict = field(default_factory=dict)
    sank: dict = field(default_factory=dict)
    # referee
    symbols: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)
    partial: bool = False

    # -- queries ----------------------------------------------------------------------------
    def is_sea(self, h: str) -> bool:
        """True for a sea hex: sea terrain, or an island hex whose tile has sunk."""
        t = self.hexmap.terrain(h)
        return t == "sea" or (t == "island" and h not in self.tiles)

    def is_safe(self, h: str) -> bool:
        """True for a safe island hex (terrain ``safe``)."""
        return self.hexmap.terrain(h) == "safe"

    def ship_at(self, h: str) -> str | None:
        """The ship in hex ``h`` (at most one: Ship Movement), or None."""
        for sid, where in self.ships.items():
            if where == h:
                return sid
        return None

    def creatures_at(self, h: str) -> list:
        """The ids of the creatures in hex ``h``."""
        return [cid for cid, where in self.creatures.items() if where == h]

    def passengers(self, sid: str) -> list:
        """The people aboard ship ``sid`` (Person objects, seat then number order)."""
        return [p for p in self.people.values() if p.where == "ship" and p.ship == sid]

    def swimmers_at(self, h: str) -> list:
        """The people swimming in hex ``h``."""
        return [p for p in self.people.values() if p.where == "sea" and p.hex == h]

    def on_tile(self, h: str) -> list:
        """The people standing on the land tile at ``h``."""
        return [p for p in self.people.values() if p.where == "land" and p.hex == h]

    def hex_of(self, p: Person) -> str | None:
        """The hex a person is in (a passenger: the ship's hex)."""
        if p.where == "ship":
            return self.ships.get(p.ship)
        return p.hex

    def empty(self, h: str) -> bool:
        """True when no piece of any kind (person, ship, creature) is in hex ``h``."""
        if h in self.ships.values() or h in self.creatures.values():
            return False
        return not any(p.hex == h and p.where in ("sea", "land") for p in self.people.values())

    def nearly_safe(self, h: str, safe: str) -> bool:
        """True when sea hex ``h`` is a "nearly safe space" of safe island ``safe`` (The Safe
        Islands): next to it, and in the map's ``nearly-safe`` group when the map has one."""
        if not self.is_sea(h) or not self.is_safe(safe) or not self.hexmap.adjacent(h, safe):
            return False
        if self.hexmap.has_group("nearly-safe"):
            return h in self.hexmap.group("nearly-safe")
        return True

    def touches_sea(self, h: str) -> bool:
        """True when the tile at ``h`` has at least one side next to a sea hex (Part of the
        Island sinks); safe islands and hexes off the map are not sea."""
        return any(self.is_sea(n) for n in self.hexmap.neighbours(h))

    def sinkable(self) -> list:
        """The tiles that may be sunk now (Part of the Island sinks): tiles touching the sea, of
        the first kind in the sink order that has such a tile; in label order."""
        touching = [h for h in self.tiles if self.touches_sea(h)]
        for kind in self.rules.sink_order:
            these = sorted(h for h in touching if self.tiles[h] == kind)
            if these:
                return these
        return []

    def supply(self, kind: str) -> int:
        """Pieces of ``kind`` (``ship`` or a creature) never yet taken from the box."""
        return self.rules.pieces[kind] - self.placed.get(kind, 0)

    def next_id(self, kind: str) -> str:
        """The id the next ``kind`` piece taken from the box gets (``shark3``)."""
        return f"{kind}{self.placed.get(kind, 0) + 1}"

    def value(self, pid: str) -> int | None:
        """The value under person ``pid`` (None when this state does not know it)."""
        return self.values.get(pid)

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.stage == "over"


# -- dump and load ----------------------------------------------------------------------------

def public_part(s: State) -> dict:
    """The public part of ``s`` (see the module docstring); JSON-able, string keys."""
    d = {
        "ruleset": "atlantis",
        "seats": list(s.seats),
        "options": dict(s.options),
        "data": s.data,
        "map": s.hexmap.to_dict(),
        "stage": s.stage,
        "turn": s.turn,
        "phasing": s.phasing,
        "tiles": dict(s.tiles),
        "city": s.city,
        "sunk": [dict(x) for x in s.sunk],
        "people": {pid: p.to_json() for pid, p in s.people.items()},
        "ships": dict(s.ships),
        "creatures": dict(s.creatures),
        "placed": dict(s.placed),
        "kept": dict(s.kept_count),
        "die": dict(s.die) if s.die else None,
        "pending": dict(s.pending) if s.pending else None,
        "held": list(s.held),
        "outcome": s.outcome,
        "reveal": None,
    }
    if s.over and not s.partial:
        d["reveal"] = {
            "values": dict(s.values),
            "symbols": dict(s.symbols),
            "kept": {r: list(v) for r, v in s.kept.items()},
        }
    return d


def secret_part(s: State, role: str) -> dict:
    """What only ``role`` knows: kept tiles, standing orders, values seen, symbols it sank."""
    return {
        "kept": list(s.kept.get(role, [])),
        "standing": dict(s.standing.get(role, {t: False for t in STANDING_TILES})),
        "seen": dict(s.seen.get(role, {})),
        "sank": dict(s.sank.get(role, {})),
    }


def referee_part(s: State) -> dict:
    """What no player knows yet: symbols under the tiles left, the value under every person."""
    return {"symbols": dict(s.symbols), "values": dict(s.values)}


def dump(s: State) -> Parts:
    """Split ``s`` by audience (DESIGN.md, "Every fact has an audience")."""
    return Parts(public=public_part(s),
                 secret={r: secret_part(s, r) for r in s.seats},
                 referee=referee_part(s))


_rules = TableMemo(Rules.from_data)
"""The Rules of a data table, built once per table (pbem.engine.sourced.TableMemo)."""


_PEOPLE_LAST: list = [None, None, None]
"""``[people dict, seats, rows]`` of the last :func:`_people_rows` call."""


def _people_rows(people: dict, seats: list) -> list[tuple]:
    """``(id, owner, where, hex, ship)`` of each person of a public part's ``people`` in the
    canonical order (seat, then number; kind, then number), so that a state stored with its
    keys sorted loads to the same iteration order as the state that was dumped. Remembered
    for the very dict last seen: a phase loads the same public part for every reader
    (pbem.engine.gamestate.role_state), and a stored part is a value nobody changes."""
    last = _PEOPLE_LAST
    if last[0] is people and last[1] == seats:
        return last[2]
    seat = {r: i for i, r in enumerate(seats)}
    rows = sorted(((pid, d["owner"], d["where"], d.get("hex"), d.get("ship"))
                   for pid, d in people.items()),
                  key=lambda r: (seat.get(r[1], len(seat)), id_key(r[0])))
    last[:] = [people, list(seats), rows]
    return rows


def _build(public: dict, secrets: dict, referee: dict | None) -> State:
    hexmap = HexMap.from_dict(public["map"])
    rules = _rules(public["data"])
    s = State(seats=list(public["seats"]), options=dict(public["options"]), data=public["data"],
              hexmap=hexmap, rules=rules)
    s.stage = public["stage"]
    s.turn = public["turn"]
    s.phasing = public["phasing"]
    s.tiles = dict(public["tiles"])
    s.city = public["city"]
    s.sunk = [dict(x) for x in public["sunk"]]
    s.people = {r[0]: Person(*r) for r in _people_rows(public["people"], public["seats"])}
    s.ships = {k: public["ships"][k] for k in sorted(public["ships"], key=id_key)}
    s.creatures = {k: public["creatures"][k] for k in sorted(public["creatures"], key=id_key)}
    s.placed = dict(public["placed"])
    s.kept_count = dict(public["kept"])
    s.die = dict(public["die"]) if public.get("die") else None
    s.pending = dict(public["pending"]) if public.get("pending") else None
    s.held = list(public.get("held") or [])
    s.outcome = public.get("outcome")
    for role in s.seats:
        sec = secrets.get(role)
        if sec is None:
            s.kept[role] = [None] * s.kept_count.get(role, 0)
            s.standing[role] = {t: False for t in STANDING_TILES}
            s.seen[role] = {}
            s.sank[role] = {}
        else:
            s.kept[role] = list(sec["kept"])
            s.standing[role] = dict(sec["standing"])
            s.seen[role] = dict(sec["seen"])
            s.sank[role] = dict(sec["sank"])
    reveal = public.get("reveal")
    if referee:
        s.symbols = dict(referee["symbols"])
        s.values = dict(referee["values"])
    elif reveal:
        s.symbols = dict(reveal["symbols"])
        s.values = dict(reveal["values"])
        s.kept = {r: list(v) for r, v in reveal["kept"].items()}
    else:
        s.partial = True
        s.symbols = {h: None for h in s.tiles}
        s.values = {pid: None for pid in s.people}
        for sec in secrets.values():
            s.values.update(sec["seen"])
    return s


def load(parts: Parts) -> State:
    """The state :func:`dump` split into ``parts`` (an exact round trip). A part missing from
    ``parts`` is unknown to the reader the engine loads it for (pbem.engine.gamestate.role_state):
    another role's kept tiles are None (their number is public), its standing orders off, and
    with an empty referee part the symbols under standing tiles and the values under people
    the reader has not seen are None (``partial`` True) until the end reveals them."""
    return _build(parts.public, parts.secret, parts.referee)


def partial(public: dict, role: str | None, secret: dict | None) -> State:
    """A state built only from the public part and (when ``role`` is a player) that role's
    secret part: unknown symbols and values are None, other roles' kept tiles are unknown
    (None). Used to check orders and by bots, so neither can use what the role may not know."""
    secrets = {role: secret} if role is not None and secret is not None else {}
    return _build(public, secrets, None)


def view(s: State, role: str) -> dict:
    """What ``role`` may know now, built only from the public part and ``role``'s secret part.

    The dict is the public part (see :func:`public_part`) plus ``role``, ``mine`` (the role's
    secret part, None for the public view ``"*"``) and ``known_values`` (person -> value, for the
    values the role has seen; every value once the game is over).
    """
    parts = dump(s)
    v = dict(parts.public)
    v["role"] = role
    mine = parts.secret.get(role)
    v["mine"] = mine
    known = dict(mine["seen"]) if mine else {}
    if v["reveal"]:
        known = dict(v["reveal"]["values"])
    v["known_values"] = known
    return v


def from_view(v: dict) -> State:
    """A :func:`partial` state rebuilt from a :func:`view` (for bots and text maps)."""
    public = {k: val for k, val in v.items() if k not in ("role", "mine", "known_values")}
    role = v.get("role")
    return partial(public, role if v.get("mine") is not None else None, v.get("mine"))
