"""The Olympica game state, its split by audience (dump/load) and the view of a role.

Who sees what (README.md, "Who sees what"):

- ``public``: the map and the tunnel markers on it; every U.N. unit once dropped (id, kind,
  hex, level, DUST); every Web counter as a *marker* ``W01``.. (hex, level, status, DUST) with
  its kind only once it is face up (5.2: turned face-up when it moves or fires, or is attacked);
  whether the Web of Compulsion is broken (19.3), whether a U.N. unit has ever stacked with
  the Generator (4.1, 4.2), the drops of the current Drop Phase, the turn and stage, the
  outcome and, at the end, the reveal of every marker;
- ``secret["web"]``: what is under every marker (``kinds``), the tunnel markers still in hand,
  the Web's substitution (5.4) and standing orders;
- ``secret["un"]``: the U.N. units not dropped yet (5.4 substitutions are secret), the U.N.
  orders waiting while the Web answers a drop compulsion (``pending``), standing orders;
- ``referee``: nothing (the markers are dealt on the hidden stream at setup).

Markers are dealt to the Web's counters by a shuffle on the hidden dice stream, so a marker's
number says nothing of its kind. U.N. ids: ``T1``.. Laser Tanks, ``H1``.. Heavy Infantry,
``L1``.. Light Infantry, ``F1``.. Lifters, ``B1`` the BOAR.

Positions are a hex and a level (:class:`pbem.boards.levels.Place`: ``1717`` on the surface,
``1717u`` underground in a tunnel, 13.3).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from pbem.boards.hexmap import HexMap
from pbem.boards.levels import SURFACE, Place, Tunnels
from pbem.engine.ruleset import Parts
from pbem.engine.sourced import TableMemo

from .data import Rules

WEB = "web"
UN = "un"
ROLES = (WEB, UN)
STAGES = ("forces", "web-setup", "un-drop", "compel", "web", "un", "over")
"""``forces``: 5.1/5.4 substitutions (only with the optional rule); ``web-setup``: 5.2;
``un-drop``: 5.3; ``compel``: the Web's answer to a drop within reach of the Generator (14.2,
5.3); ``web``: the Web Player-Turn (6.0 I); ``un``: the U.N. Player-Turn (6.0 II)."""

UN_PREFIX = {"un-laser-tank": "T", "un-heavy-infantry": "H", "un-light-infantry": "L",
             "un-lifter": "F", "un-boar": "B"}
"""The letters of the U.N. unit ids (module docstring)."""

WEB_NAMES = {"generator": "Web Generator", "strongpoint": "Strongpoint",
             "web-infantry": "Web Infantry", "dummy": "dummy"}
UN_NAMES = {"un-laser-tank": "Laser Tank", "un-heavy-infantry": "Heavy Infantry",
            "un-light-infantry": "Light Infantry", "un-lifter": "Lifter", "un-boar": "BOAR"}

ON_MAP = "map"


def unit_kind(kind: str) -> str:
    """The unit-table kind of a Web counter kind (``strongpoint`` -> ``web-strongpoint``)."""
    return "web-strongpoint" if kind == "strongpoint" else kind


@dataclass
class State:
    """The whole game (module docstring).

    ``un``: id -> ``{"kind", "status", "hex", "level", "dust", "dropped"}`` (status ``reserve``,
    ``map``, ``eliminated``, ``evacuated``; ``dropped``: the Game-Turn it dropped, 14.4);
    ``web``: marker -> ``{"status", "hex", "level", "dust", "face_up", "kind"}`` (status
    ``map``, ``eliminated``, ``removed`` for a dummy attacked, ``evacuated`` for the Generator;
    ``kind`` None while face down in a view that does not know it); ``kinds`` (secret): marker
    -> kind; ``tunnels``: hex -> tunnel kind (:class:`~pbem.boards.levels.Tunnels` JSON)."""

    seats: list
    options: dict
    data: dict
    board: HexMap
    rules: Rules
    turn: int = 0
    stage: str = "forces"
    un: dict = field(default_factory=dict)
    web: dict = field(default_factory=dict)
    tunnels: dict = field(default_factory=dict)
    drops: list = field(default_factory=list)
    broken: bool = False
    stacked: bool = False
    evacuation: list = field(default_factory=list)
    outcome: dict | None = None
    reveal: dict | None = None
    # secret web
    kinds: dict = field(default_factory=dict)
    tunnels_left: int | None = None
    # secret per role
    substitution: dict = field(default_factory=dict)
    standing: dict = field(default_factory=dict)
    # secret un
    pending: list | None = None

    # -- options and scenario ---------------------------------------------------------------
    @property
    def scenario(self) -> dict:
        """The scenario's row of data.toml (4.1-4.3)."""
        return self.rules.scenarios[self.options["scenario"]]

    @property
    def advanced(self) -> bool:
        """True in the two advanced scenarios (tunnels, lifters and the BOAR: 4.1's note)."""
        return self.options["scenario"] != "introductory"

    def option(self, name: str) -> bool:
        """True when the optional rule ``name`` (``substitutions``, ``demolition``,
        ``umbrellas``) is in force."""
        return self.options.get(name) == "yes"

    @property
    def last_turn(self) -> int:
        """The scenario's length in Game-Turns (4.1-4.3)."""
        return self.scenario["turns"]

    # -- tunnels -----------------------------------------------------------------------------
    def tunnel_map(self) -> Tunnels:
        """The tunnel markers on the map (13.1-13.3)."""
        return Tunnels(self.tunnels)

    # -- counters ----------------------------------------------------------------------------
    def web_kind(self, marker: str) -> str | None:
        """The kind of a Web counter as this state knows it: the secret kind, else the public
        one once face up, else None (unknown to this reader)."""
        return self.kinds.get(marker) or self.web[marker].get("kind")

    def kind(self, side: str, uid: str) -> str | None:
        """The kind of a unit of either side (None: a face-down marker this reader cannot
        know)."""
        return self.un[uid]["kind"] if side == UN else self.web_kind(uid)

    def rec(self, side: str, uid: str) -> dict:
        """The record of a unit or marker of ``side``."""
        return (self.un if side == UN else self.web)[uid]

    def place(self, side: str, uid: str) -> Place:
        """Where a unit or marker on the map stands."""
        r = self.rec(side, uid)
        return Place(r["hex"], r["level"])

    def on_map(self, side: str) -> list:
        """Ids of ``side``'s counters on the map, in id order."""
        table = self.un if side == UN else self.web
        return [u for u, r in table.items() if r["status"] == ON_MAP]

    def counters_at(self, side: str, place: Place) -> list:
        """``side``'s counters (units and markers) at ``place``, in id order."""
        table = self.un if side == UN else self.web
        return [u for u, r in table.items() if r["status"] == ON_MAP
                and r["hex"] == place.hex and r["level"] == place.level]

    def is_unit(self, side: str, uid: str) -> bool | None:
        """True for a combat unit, False for the Generator or a dummy (9.0), None when this
        reader cannot know (a face-down marker)."""
        if side == UN:
            return True
        k = self.web_kind(uid)
        return None if k is None else k not in ("generator", "dummy")

    def unit_at(self, side: str, place: Place) -> str | None:
        """``side``'s combat unit at ``place`` (one per level, 9.0), or None. A face-down
        marker whose kind this reader does not know is not returned."""
        for u in self.counters_at(side, place):
            if self.is_unit(side, u):
                return u
        return None

    def utype(self, side: str, uid: str):
        """The :class:`~.data.UnitType` of a unit (KeyError for a marker that is not a unit or
        is unknown)."""
        return self.rules.units[unit_kind(self.kind(side, uid))]

    def generator(self) -> str | None:
        """The Generator's marker, when this reader knows it (the Web, or anyone once it is
        face up)."""
        for m, r in self.web.items():
            if self.web_kind(m) == "generator":
                return m
        return None

    def name(self, side: str, uid: str) -> str:
        """How events name a counter: ``Laser Tank T1``; ``W07`` for a face-down marker,
        ``Strongpoint W07`` once face up. Only public facts: safe for every audience."""
        if side == UN:
            return f"{UN_NAMES[self.un[uid]['kind']]} {uid}"
        r = self.web[uid]
        return f"{WEB_NAMES[r['kind']]} {uid}" if r.get("face_up") and r.get("kind") else uid

    def terrain(self, place: Place) -> str:
        """The terrain a counter at ``place`` stands in: its hex's terrain on the surface;
        underground, none (13.4: surface terrain is disregarded underground) -> ``"clear"``."""
        return self.board.terrain(place.hex) if place.level == SURFACE else "clear"

    def other(self, side: str) -> str:
        """The opposing side."""
        return UN if side == WEB else WEB


# -- the split by audience ------------------------------------------------------------------
_PUBLIC = ("turn", "stage", "tunnels", "drops", "broken", "stacked", "evacuation", "outcome",
           "reveal")


def _copy(v):
    return copy.deepcopy(v) if isinstance(v, (dict, list)) else v


def public_part(s: State) -> dict:
    """The public part (module docstring): U.N. units in reserve are left out, Web markers
    carry their kind only when face up."""
    pub = {k: _copy(getattr(s, k)) for k in _PUBLIC}
    pub["un"] = {u: dict(r) for u, r in s.un.items() if r["status"] != "reserve"}
    pub["web"] = {m: {**r, "kind": r.get("kind") if r.get("face_up") else None}
                  for m, r in s.web.items()}
    pub.update(seats=list(s.seats), options=dict(s.options), data=s.data,
               board=s.board.to_dict())
    return pub


def secret_part(s: State, role: str) -> dict:
    """``role``'s secret part (module docstring)."""
    out = {"standing": _copy(s.standing.get(role, {})),
           "substitution": s.substitution.get(role)}
    if role == WEB:
        out.update(kinds=dict(s.kinds), tunnels_left=s.tunnels_left)
    else:
        out.update(reserve={u: dict(r) for u, r in s.un.items() if r["status"] == "reserve"},
                   pending=_copy(s.pending))
    return out


def dump(s: State) -> Parts:
    """The state split by audience; ``load(dump(s))`` gives an equal state."""
    return Parts(public=public_part(s), secret={r: secret_part(s, r) for r in ROLES},
                 referee={})


_rules = TableMemo(Rules.from_data)


def normalise(s: State) -> State:
    """Keep the tables in key order (the order the engine's JSON storage gives back)."""
    s.un = dict(sorted(s.un.items()))
    s.web = dict(sorted(s.web.items()))
    s.tunnels = dict(sorted(s.tunnels.items()))
    s.kinds = dict(sorted(s.kinds.items()))
    return s


def build(public: dict, secrets: dict) -> State:
    """A state from a public part and the secret parts given (a missing one is unknown)."""
    s = State(seats=list(public["seats"]), options=dict(public["options"]),
              data=public["data"], board=HexMap.from_dict(public["board"]),
              rules=_rules(public["data"]))
    for k in _PUBLIC:
        setattr(s, k, _copy(public[k]))
    s.un = {u: dict(r) for u, r in public["un"].items()}
    s.web = {m: dict(r) for m, r in public["web"].items()}
    for role, sec in secrets.items():
        s.standing[role] = _copy(sec.get("standing", {}))
        if sec.get("substitution") is not None:
            s.substitution[role] = sec["substitution"]
        if role == WEB:
            s.kinds = dict(sec.get("kinds", {}))
            s.tunnels_left = sec.get("tunnels_left")
        elif role == UN:
            s.un.update({u: dict(r) for u, r in sec.get("reserve", {}).items()})
            s.pending = _copy(sec.get("pending"))
    return normalise(s)


def load(parts: Parts) -> State:
    """The state from :func:`dump`'s parts; other roles' secret parts may be missing (a role
    state: docs/rulesets.md, "What a role is given")."""
    return build(parts.public, parts.secret)


def copy_state(s: State) -> State:
    """An independent copy of ``s`` (data, rules and board shared: read-only)."""
    out = copy.copy(s)
    for k in ("un", "web", "tunnels", "drops", "evacuation", "outcome", "reveal", "kinds",
              "substitution", "standing", "pending"):
        setattr(out, k, _copy(getattr(s, k)))
    return out


def view(s: State, role: str) -> dict:
    """What ``role`` may know (``"*"``: the public view), JSON values: the public part with
    ``role`` and, for a player, ``secret``: its own secret part."""
    v = public_part(s)
    v["role"] = role
    if role in ROLES:
        v["secret"] = secret_part(s, role)
    return v


def from_view(v: dict) -> State:
    """The role state a :func:`view` was made from (for the bot)."""
    role = v.get("role", "*")
    return build(v, {role: v["secret"]} if "secret" in v else {})
