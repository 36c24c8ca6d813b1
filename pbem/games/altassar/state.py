"""The Altassar game state, its split by audience (dump/load) and the per-role view.

Hidden information is the heart of this game (README.md, "Who sees what"). The Confederation's
counters are face down: the Spikus player sees them only as *markers*, unknown counters at
their hexes. Markers are named ``u01`` .. ``u18``, assigned to the Confederation's units by a
shuffle on the hidden dice stream at creation, so a marker's name says nothing of what is under
it (no tell-tale numbering). The state is dumped as:

- ``public``: the map, every Spikus unit, every marker (hex, status, and the counter's kind
  while it is face up), corpses awaiting Renewal, the turn and stage, attacks awaiting an
  evasion answer, the options and the data table;
- ``secret["confederation"]``: which unit is under which marker (its names are the player's own:
  ``terran-1``, ``dummy-3``), which escaped prisoners are unarmed (21.1), the standing orders;
- ``secret["spikus"]``: the Spikus player's standing orders (retreat routes, Renewal and
  attrition choices);
- ``referee``: the marker assignment as dealt, committed at creation (``setup-commit``) and
  revealed at the end so the Spikus player can check it.

A Flight swap (9.2) changes only the secret assignment: marker ``u07`` stays at its hex with the
same public status, so the Spikus player's view is exactly as if nothing had been swapped.
When the game ends everything becomes public (``public["reveal"]``).

Time inside a game is counted in *player turns* (``pt``): the Breakout is 0, turn ``t``'s
Spikus Player Turn is ``2t - 1`` and its Confederation Player Turn ``2t`` (4.2). Durations
(stun, exposure, Renewal) are stored as the player turn in which they end.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.boards.hexmap import HexMap
from pbem.engine.ruleset import Parts
from pbem.engine.values import copy_values
from pbem.engine.sourced import TableMemo

from .data import CONFEDERATION_KINDS, PRISONER_KINDS, Rules

CONFEDERATION = "confederation"
SPIKUS = "spikus"
ROLES = (CONFEDERATION, SPIKUS)

SPIKUS_PREFIX = {"soldier": "S", "tracker": "T", "drystal": "D", "wagon": "W", "trip-net": "N",
                 "signal-post": "P"}
"""Public ids of the Spikus units: ``S01``, ``T1``, ``D2``, ``W3``, ``N4``, ``P1``."""

WHERE = ("box", "map", "exited", "eliminated", "lost", "returned", "captive")
"""Where a unit is: not yet on the map, on the map, off the exit edge (20.0), eliminated by
combat (counts for victory, 20.0), lost otherwise (attrition 11.0/21.1, Breakout stacking 12.2,
shot escaping 21.1, a used Trip Net 14.5), returned to the prison (18.4), or held captive by a
Recovery Wagon or an escorting soldier (18.3, 21.1)."""


def pt_of(turn: int, side: str) -> int:
    """The player-turn number of ``side``'s Player Turn in Game Turn ``turn`` (0 = Breakout)."""
    if turn == 0:
        return 0
    return 2 * turn - 1 if side == SPIKUS else 2 * turn


_COSTS: dict = {}
"""``{(id of map, id of rules, flat): (map, rules, {hex: movement points})}``
(:meth:`State.costs`)."""


@dataclass
class State:
    """The whole game (module docstring). ``spikus`` maps unit id -> record (``kind``, ``hex``,
    ``where``, ``stun_end``, ``feed_end``, ``carrier`` for a Trip Net carried by a soldier,
    ``escorting`` for a soldier escorting a prisoner); ``markers`` maps marker -> record
    (``hex``, ``where``, ``exposed`` {reason: last pt}, ``stun_end``, ``restrained``, ``kind``
    while face up, ``carrier`` while captive). ``units`` (secret) maps the Confederation's unit
    names to ``{"kind", "marker", "unarmed"}``."""

    seats: list
    options: dict
    data: dict
    hexmap: HexMap
    rules: Rules
    stage: str = "breakout"
    turn: int = 0
    phasing: str = CONFEDERATION
    spikus: dict = field(default_factory=dict)
    markers: dict = field(default_factory=dict)
    corpses: list = field(default_factory=list)
    pending: dict | None = None
    attacked: list = field(default_factory=list)
    fired: list = field(default_factory=list)
    moved: list = field(default_factory=list)
    outcome: dict | None = None
    reveal: dict | None = None
    # secret
    units: dict = field(default_factory=dict)
    standing: dict = field(default_factory=lambda: {CONFEDERATION: {}, SPIKUS: {}})
    # referee
    dealt: dict = field(default_factory=dict)
    partial: bool = False
    shares_parts: bool = False  # built with share=True: its values are the parts' own

    # -- time --------------------------------------------------------------------------------
    @property
    def pt(self) -> int:
        """The current player turn (module docstring)."""
        return pt_of(self.turn, self.phasing)

    @property
    def over(self) -> bool:
        """True once the game has ended (20.0)."""
        return self.stage == "over"

    # -- lookups ----------------------------------------------------------------------------
    def terrain(self, h: str) -> str:
        """The terrain type of hex ``h`` (5.31)."""
        return self.hexmap.terrain(h)

    def costs(self, kind: str) -> dict:
        """Movement points to enter each hex for a ``kind`` unit (5.31; 1 per hex for Drystals
        and Trip Nets, 14.3, 16.3), computed once per map and rules (a phase builds a state
        for each reader on the same ones). The dict is shared: callers must not change it."""
        flat = kind in ("drystal", "trip-net")
        key = (id(self.hexmap), id(self.rules), flat)
        held = _COSTS.get(key)
        if held is None or held[0] is not self.hexmap or held[1] is not self.rules:
            if len(_COSTS) > 16:
                _COSTS.clear()
            held = _COSTS[key] = (self.hexmap, self.rules, {
                h: 1 if flat else self.rules.cost(self.hexmap.terrain(h))
                for h in self.hexmap.labels()})
        return held[2]

    def prison(self) -> tuple:
        """The prison hexes (12.1, 18.4): the map's ``prison`` group."""
        return self.hexmap.group("prison")

    def public_id(self, name: str) -> str:
        """How unit ``name`` is named in the public part: its id for a Spikus unit, its marker
        for a Confederation unit (whose name would tell its race)."""
        return self.units[name]["marker"] if name in self.units else name

    def unit_at_marker(self, marker: str) -> str | None:
        """The Confederation unit name under ``marker`` (None in a partial state without it)."""
        for name, u in self.units.items():
            if u["marker"] == marker:
                return name
        return None

    def kind_of_marker(self, marker: str) -> str | None:
        """The kind under ``marker`` if this state knows it (face up, or the owner's state)."""
        name = self.unit_at_marker(marker)
        if name is not None:
            return self.units[name]["kind"]
        return self.markers[marker].get("kind")

    def markers_at(self, h: str) -> list:
        """Markers on the map at ``h`` (not captive ones)."""
        return [m for m, r in self.markers.items() if r["where"] == "map" and r["hex"] == h]

    def spikus_at(self, h: str, *, kinds=None) -> list:
        """Spikus units on the map at ``h`` (ids in id order)."""
        return sorted(u for u, r in self.spikus.items() if r["where"] == "map" and r["hex"] == h
                      and (kinds is None or r["kind"] in kinds))

    def enemy_hexes(self, side: str) -> set:
        """Hexes holding units of the other side that block movement (5.2); Signal Posts and
        Trip Nets do not block."""
        if side == SPIKUS:
            return {r["hex"] for r in self.markers.values() if r["where"] == "map"}
        return {r["hex"] for r in self.spikus.values() if r["where"] == "map"
                and r["kind"] not in ("signal-post", "trip-net")}

    def posts(self) -> list:
        """The hexes of the Signal Posts placed (13.1), sorted."""
        return sorted(r["hex"] for r in self.spikus.values()
                      if r["kind"] == "signal-post" and r["where"] == "map")

    def value(self, kind: str, name: str) -> int:
        """The printed ``name`` value of a ``kind`` counter (data.toml)."""
        return self.rules.value(kind, name)


# -- the split by audience ------------------------------------------------------------------
def public_part(s: State) -> dict:
    """The public part of ``s`` (module docstring): JSON values, not copied."""
    return {
        "seats": list(s.seats), "options": dict(s.options), "data": s.data,
        "map": s.hexmap.to_dict(), "stage": s.stage, "turn": s.turn, "phasing": s.phasing,
        "spikus": s.spikus, "markers": s.markers, "corpses": s.corpses, "pending": s.pending,
        "attacked": list(s.attacked), "fired": list(s.fired), "moved": sorted(s.moved),
        "outcome": s.outcome, "reveal": s.reveal,
    }


def secret_part(s: State, role: str) -> dict:
    """``role``'s secret part of ``s`` (module docstring): JSON values, not copied."""
    if role == CONFEDERATION:
        return {"units": s.units, "standing": s.standing.get(CONFEDERATION, {})}
    return {"standing": s.standing.get(SPIKUS, {})}


def dump(s: State) -> Parts:
    """The state split by audience (module docstring); JSON values only."""
    pub = public_part(s)
    shared = {k: pub.pop(k) for k in ("data", "map")}  # read-only tables: not copied
    pub = copy_values(pub)
    pub.update(shared)
    return Parts(public=pub,
                 secret={r: copy_values(secret_part(s, r)) for r in ROLES},
                 referee={"dealt": dict(s.dealt)})


def _build(public: dict, secrets: dict, referee: dict | None, share: bool = False) -> State:
    from pbem.boards.hexmap import HexMap as _HexMap

    own = (lambda v: v) if share else copy_values  # share: read-only, the parts' own values
    data = public["data"]
    s = State(seats=list(public["seats"]), options=dict(public["options"]), data=data,
              hexmap=_hexmap(public["map"], _HexMap), rules=_rules(data))
    s.stage, s.turn, s.phasing = public["stage"], public["turn"], public["phasing"]
    s.spikus = own(public["spikus"])
    s.markers = own(public["markers"])
    s.corpses = own(public["corpses"])
    s.pending = own(public.get("pending"))
    s.attacked = list(public.get("attacked", []))
    s.fired = list(public.get("fired", []))
    s.moved = list(public.get("moved", []))
    s.outcome = public.get("outcome")
    s.reveal = own(public.get("reveal"))
    conf = secrets.get(CONFEDERATION)
    if conf is not None:
        s.units = own(conf["units"])
        s.standing[CONFEDERATION] = own(conf.get("standing", {}))
    sp = secrets.get(SPIKUS)
    if sp is not None:
        s.standing[SPIKUS] = own(sp.get("standing", {}))
    s.shares_parts = share
    if referee:
        s.dealt = dict(referee.get("dealt", {}))
    else:  # a role's state (pbem.engine.gamestate.role_state): the deal is unknown to it
        s.partial = True
    return s


_MAPS: dict = {}


def _hexmap(d: dict, cls) -> HexMap:
    key = d.get("digest")
    if key not in _MAPS:
        _MAPS[key] = cls.from_dict(d)
    return _MAPS[key]


_rules = TableMemo(Rules.from_data)
"""The Rules of a data table, built once per table (pbem.engine.sourced.TableMemo)."""


def load(parts: Parts) -> State:
    """The state from :func:`dump`'s parts (exact round trip). A part missing from ``parts`` is
    unknown to the reader the engine loads it for (pbem.engine.gamestate.role_state): without
    ``secret["confederation"]`` the markers are there without the units under them (``units``
    empty), without a role's secret its standing orders are empty, and with an empty referee part
    the deal is unknown (``dealt`` empty, ``partial`` True). Such a role state shares the parts'
    values instead of copying them: the engine loads one only for ``view``, ``check`` and
    ``template``, which do not change it (docs/rulesets.md, "What a role is given")."""
    return _build(parts.public, parts.secret, parts.referee, share=not parts.referee)


def partial(public: dict, role: str, secret: dict | None, *, share: bool = False) -> State:
    """A state built from what ``role`` knows: the public part and its own secret part.
    ``share``: the state shares the values of ``public`` and ``secret`` instead of copying
    them, for a reader that does not change it (drawing the map)."""
    s = _build(public, {role: secret} if secret is not None else {}, None, share=share)
    s.partial = True
    return s


def view(s: State, role: str) -> dict:
    """What ``role`` may know now ("*" = the public view), as JSON values: the public part,
    plus the Confederation's own units and standing orders for ``confederation``, plus the
    Spikus player's standing orders for ``spikus``. Built only from the public part and that
    role's secret part. The view of a state that shares its parts' values (a role's state:
    :func:`load`) shares them too, as that state does: nobody changes either; any other view is
    a copy, which later moves of the state leave as it was."""
    own = (lambda v: v) if s.shares_parts else copy_values
    pub = public_part(s)
    shared = {k: pub.pop(k) for k in ("data", "map")}  # read-only tables: not copied
    v = own(pub)
    v.update(shared)
    v["role"] = role
    if role in ROLES:
        v["secret"] = own(secret_part(s, role))
    return v


def from_view(v: dict, *, share: bool = False) -> State:
    """A partial state from a :func:`view` (for bots and order checks; ``share`` as in
    :func:`partial`, for the map)."""
    return partial(v, v.get("role", "*"), v.get("secret"), share=share)


def prisoner(kind: str | None) -> bool:
    """True for a prisoner race (3.2), False for a dummy or an unknown kind."""
    return kind in PRISONER_KINDS


__all__ = ["CONFEDERATION", "CONFEDERATION_KINDS", "ROLES", "SPIKUS", "State", "dump", "load",
           "partial", "pt_of", "view", "from_view", "prisoner"]
