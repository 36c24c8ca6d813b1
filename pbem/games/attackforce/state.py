"""The Attack Force game state, its split by audience (dump/load) and the view of a role.

Who sees what (README.md, "Who sees what"):

- ``public``: the board, every piece on the map or destroyed (Arcturan Flights off the map too:
  their pieces are printed in the rulebook), the Batteries once placed, the Hull Markers'
  faces as far as they are turned up (``down``, ``blank``, ``explosion``), the Wreck Markers,
  how many Cobras and whether Vaj Korsen are still in the cup, the commitment to the
  explosion's Hull Space, the turn and stage, the outcome and, at the end, the reveal;
- ``secret["arcturan"]``: the Hull Space of the explosion and the salt of the commitment
  (How to Set Up 5-6);
- ``secret["empire"]``: the Batteries drawn and not yet placed, and the counts set aside
  (How to Set Up 4);
- ``referee``: nothing (the Cobra cup is drawn on the hidden stream when a Launcher is filled).

A role state (pbem.engine.gamestate.role_state) lacks the other role's secret part: its value
is then ``None`` (``explosion``, ``salt``) or empty (``drawn``), so code that reads what the
reader may not know finds nothing rather than guessing.

Pieces (``State.pieces``, id -> record): ``kind`` (a data.toml piece kind), ``side``
(``arcturan``/``empire``), ``space`` (a board space id, or None off the map), ``status``
(``off``: an Arcturan piece not entered yet; ``map``; ``destroyed``, How to Win / Destroyed
Pieces), and ``flight`` (an Arcturan piece's Flight colour). Ids: ``r1``..``r7`` (Eagles first),
``b1``.., ``g1``.., ``y1``..; ``c1``..``c20`` for Cobras in the order drawn; ``vk`` for Vaj
Korsen; ``laser1``.., ``pompom1``.., ``blaster1``.. for Batteries in the order drawn.
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field

from pbem.boards.graph import GraphBoard
from pbem.engine.ruleset import Parts
from pbem.engine.sourced import TableMemo

from .data import FLIGHTS, Rules

ARCTURAN = "arcturan"
EMPIRE = "empire"
ROLES = (ARCTURAN, EMPIRE)
STAGES = ("deploy", "arcturan", "empire", "empire-move", "final", "over")
"""``deploy``: How to Set Up 4; ``arcturan``: step 5 of the last turn then steps 1-2;
``empire``: steps 3-4; ``empire-move``: step 4 after ``launch wait``; ``final``: step 5 of the
last turn of a turn limit; ``over``."""

COMMIT_PREFIX = "pbem-attackforce/1\n"


def commitment(salt: str, space: str) -> str:
    """The hex sha256 of ``"pbem-attackforce/1\\n" + salt + "\\n" + space`` published at setup
    (README.md, "Who sees what"): anyone can check it once ``salt`` and ``space`` are revealed."""
    return hashlib.sha256(f"{COMMIT_PREFIX}{salt}\n{space}".encode()).hexdigest()


@dataclass
class State:
    """The whole game (module docstring). ``hull`` maps a Hull Space to the face of its marker
    as the public knows it (``down``, ``blank``, ``explosion``); ``wrecks`` lists the wrecked
    Launcher and Sensor Pod spaces; ``cup`` is ``{"cobra": n, "korsen": n}`` left in the fighter
    cup; ``launch_wait`` is True between ``launch wait`` and the Empire's step 4 window."""

    seats: list
    options: dict
    data: dict
    board: GraphBoard
    rules: Rules
    turn: int = 0
    stage: str = "deploy"
    pieces: dict = field(default_factory=dict)
    hull: dict = field(default_factory=dict)
    wrecks: list = field(default_factory=list)
    cup: dict = field(default_factory=dict)
    commitment: str = ""
    outcome: dict | None = None
    reveal: dict | None = None
    # secret arcturan
    explosion: str | None = None
    salt: str | None = None
    # secret empire
    drawn: dict = field(default_factory=dict)
    aside: dict = field(default_factory=dict)

    # -- lookups ----------------------------------------------------------------------------
    def on_map(self, side: str | None = None) -> list:
        """Ids of the pieces on the map (of ``side``, or both), in id order of the dict."""
        return [p for p, r in self.pieces.items()
                if r["status"] == "map" and (side is None or r["side"] == side)]

    def at(self, space: str, side: str) -> str | None:
        """The piece of ``side`` in ``space`` (one piece of a side per space, How to Move 6;
        README reading 5), or None."""
        for p, r in self.pieces.items():
            if r["status"] == "map" and r["space"] == space and r["side"] == side:
                return p
        return None

    def occupied(self, side: str) -> set:
        """The spaces holding a piece of ``side``."""
        return {r["space"] for r in self.pieces.values()
                if r["status"] == "map" and r["side"] == side}

    def ptype(self, piece: str):
        """The :class:`~.data.PieceType` of a piece id."""
        return self.rules.pieces[self.pieces[piece]["kind"]]

    def hull_spaces(self) -> tuple:
        """The Hull Spaces in their printed numbering (Hull Space 1 first, How to Set Up 6)."""
        return self.board.group("hull")

    def face_down(self) -> list:
        """The Hull Spaces whose marker is face down, in printed order."""
        return [h for h in self.hull_spaces() if self.hull.get(h) == "down"]

    def option(self, name: str) -> bool:
        """True when the optional rule ``name`` (``launchers``, ``sensor_pod``) is in force."""
        return self.options.get(name) == "yes"

    def sensor_pod(self) -> str | None:
        """The Sensor Pod Space, or None for a board without one."""
        pods = self.board.of_kind("sensor-pod")
        return pods[0] if pods else None

    def may_look(self) -> bool:
        """How to Play 3a is possible: a face-down Hull Marker is left and the Sensor Pod is
        not wrecked (Attacking the Sensor Pod)."""
        return bool(self.face_down()) and self.sensor_pod() not in self.wrecks

    def free_launchers(self) -> list:
        """Launchers without a Wreck Marker or an Empire piece (How to Play 3b), in order."""
        taken = self.occupied(EMPIRE)
        return [sp for sp in self.board.group("launcher")
                if sp not in self.wrecks and sp not in taken]

    def may_launch(self) -> bool:
        """How to Play 3b is possible: a free Launcher and a piece left in the cup."""
        return bool(self.free_launchers()) and self.cup.get("cobra", 0) + self.cup.get(
            "korsen", 0) > 0

    def flights_in(self) -> list:
        """The Flights that have entered (any piece not ``off``), in the order of FLIGHTS."""
        return [f for f in FLIGHTS if any(r.get("flight") == f and r["status"] != "off"
                                          for r in self.pieces.values())]

    def waiting(self) -> list:
        """Pieces of entered Flights still off the map (README reading 11), in id order."""
        entered = set(self.flights_in())
        return [p for p, r in self.pieces.items()
                if r.get("flight") in entered and r["status"] == "off"]

    def flight_due(self) -> bool:
        """A new Flight must enter this turn's step 1 (Federation Flights): fewer Flights in
        than turns played, up to the four."""
        n = len(self.flights_in())
        return n < len(FLIGHTS) and n < self.turn * self.rules["flights_per_turn"]

    def destroyed(self, side: str) -> int:
        """How many pieces of ``side`` are destroyed."""
        return sum(1 for r in self.pieces.values()
                   if r["side"] == side and r["status"] == "destroyed")

    def name(self, piece: str) -> str:
        """``"Eagle r3"``, ``"Vaj Korsen vk"``, ``"Battery laser1"``: a piece for events."""
        kind = self.pieces[piece]["kind"]
        if self.rules.pieces[kind].battery:
            return f"Battery {piece}"
        return f"{'Vaj Korsen' if kind == 'korsen' else kind.capitalize()} {piece}"

    def label(self, piece: str) -> str:
        """A piece id as a player's message names it: the id, or for a piece not drawn yet
        when orders are checked after ``launch`` (steps.launch, dry) "the piece on Launcher N"."""
        if piece.startswith("launch-"):
            sp = piece[len("launch-"):]
            return f"the piece on Launcher {self.board.group('launcher').index(sp) + 1} ({sp})"
        return piece

    def hull_number(self, space: str) -> int:
        """The printed number (1..8) of a Hull Space."""
        return self.hull_spaces().index(space) + 1


# -- the split by audience ------------------------------------------------------------------
_PUBLIC = ("turn", "stage", "pieces", "hull", "wrecks", "cup", "commitment", "outcome",
           "reveal")


def _copy(k: str, v):
    """A copy of the public field ``k`` (flat records: faster than deepcopy)."""
    if k == "pieces":
        return {p: dict(r) for p, r in v.items()}
    if isinstance(v, dict):
        return copy.deepcopy(v) if k in ("outcome", "reveal") else dict(v)
    return list(v) if isinstance(v, list) else v


_BOARDS: dict = {}
"""Boards rebuilt from their public part, by digest: the role states of one phase (and of
every phase of a game) share one board."""


def board_part(board: GraphBoard) -> dict:
    """The board in the public part: its whole :meth:`GraphBoard.to_dict` (a game keeps its
    board even when a later pbem ships another stand-in map.toml)."""
    return board.to_dict()


def board_from(d: dict) -> GraphBoard:
    """The board :func:`board_part` described (built once per digest and name: the same file
    read under another name is another board, since its ``to_dict`` differs)."""
    key = (d.get("digest"), d.get("name"), d.get("source"), d.get("map_source"))
    board = _BOARDS.get(key)
    if board is None:
        if len(_BOARDS) >= 16:
            _BOARDS.clear()
        board = _BOARDS[key] = GraphBoard.from_dict(d)
    return board


def public_part(s: State) -> dict:
    """The public part (module docstring), JSON values, copied except data and board."""
    pub = {k: _copy(k, getattr(s, k)) for k in _PUBLIC}
    pub.update(seats=list(s.seats), options=dict(s.options), data=s.data,
               board=board_part(s.board))
    return pub


def secret_part(s: State, role: str) -> dict:
    """``role``'s secret part (module docstring), JSON values (copies)."""
    if role == ARCTURAN:
        return {"explosion": s.explosion, "salt": s.salt}
    return {"drawn": dict(s.drawn), "aside": dict(s.aside)}


def dump(s: State) -> Parts:
    """The state split by audience; ``load(dump(s))`` gives an equal state."""
    return Parts(public=public_part(s), secret={r: secret_part(s, r) for r in ROLES},
                 referee={})


_rules = TableMemo(Rules.from_data)
"""The :class:`~.data.Rules` of a data table, built once per table (pbem.engine.sourced)."""


def normalise(s: State) -> State:
    """Keep the pieces and the drawn Batteries in key order (the order the engine's JSON
    storage gives them back), so a state and its dump/load round trip iterate alike."""
    s.pieces = dict(sorted(s.pieces.items()))
    s.drawn = dict(sorted(s.drawn.items()))
    return s


def build(public: dict, secrets: dict) -> State:
    """A state from a public part and the secret parts given (a missing one is unknown)."""
    s = State(seats=list(public["seats"]), options=dict(public["options"]),
              data=public["data"], board=board_from(public["board"]),
              rules=_rules(public["data"]))
    for k in _PUBLIC:
        setattr(s, k, _copy(k, public[k]))
    arc = secrets.get(ARCTURAN)
    if arc is not None:
        s.explosion, s.salt = arc.get("explosion"), arc.get("salt")
    emp = secrets.get(EMPIRE)
    if emp is not None:
        s.drawn, s.aside = dict(emp.get("drawn", {})), dict(emp.get("aside", {}))
    return normalise(s)


def load(parts: Parts) -> State:
    """The state from :func:`dump`'s parts; other roles' secret parts may be missing (a role
    state: docs/rulesets.md, "What a role is given")."""
    return build(parts.public, parts.secret)


def copy_state(s: State) -> State:
    """An independent copy of ``s`` (data and board shared: they are read-only)."""
    out = copy.copy(s)
    for k in ("pieces", "hull", "wrecks", "cup", "drawn", "aside", "outcome", "reveal"):
        setattr(out, k, _copy(k, getattr(s, k)))
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
