"""Positions for Olympica's rule tests: a state with the counters a rulebook case names, on the
stand-in map (or a map given), without going through setup.

``position(web={"W01": ("web-infantry", "1212")}, un={"H1": ("un-heavy-infantry", "1213")},
tunnels={"1717": "mouth"})``: places are ``"1212"`` (surface) or ``"1717u"`` (underground);
Web markers are face down unless ``face_up`` lists them. ``run_for(s, role, rolls)``: a
:class:`~pbem.games.olympica.run.Run` whose public dice give ``rolls`` in order.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from pbem.boards.hexmap import load_map
from pbem.boards.levels import Place
from pbem.games.olympica.data import Rules
from pbem.games.olympica.run import Run
from pbem.games.olympica.state import State

PACKAGE = Path(__file__).parents[1] / "pbem" / "games" / "olympica"


def data() -> dict:
    return tomllib.loads((PACKAGE / "data.toml").read_text(encoding="utf-8"))


def board(text: str | None = None):
    return load_map(text or (PACKAGE / "map.toml").read_text(encoding="utf-8"), "map.toml")


def position(web=None, un=None, tunnels=None, *, scenario="advanced", turn=1, stage="un",
             face_up=(), options=None, board_text=None) -> State:
    d = data()
    opts = {"scenario": scenario, "substitutions": "no", "demolition": "no",
            "umbrellas": "no", **(options or {})}
    s = State(seats=["web", "un"], options=opts, data=d, board=board(board_text),
              rules=Rules.from_data(d), turn=turn, stage=stage)
    for m, (kind, where) in (web or {}).items():
        p = Place.parse(where)
        up = m in face_up or face_up == "all"
        s.web[m] = {"status": "map", "hex": p.hex, "level": p.level, "dust": False,
                    "face_up": up, "kind": kind if up else None}
        s.kinds[m] = kind
    for u, (kind, where) in (un or {}).items():
        p = Place.parse(where)
        s.un[u] = {"kind": kind, "status": "map", "hex": p.hex, "level": p.level,
                   "dust": False, "dropped": 0}
    s.tunnels = dict(tunnels or {})
    s.tunnels_left = 0
    return s


class Dice:
    """A public stream that returns the given values in order (and records the reasons)."""

    def __init__(self, values):
        self.values = list(values)
        self.why: list = []

    def roll(self, sides, why):
        self.why.append(why)
        if not self.values:
            raise AssertionError(f"no die left for {why!r}")
        return self.values.pop(0)

    def shuffle(self, items, why):
        return list(items)


class Chance:
    def __init__(self, values=()):
        self.public = Dice(values)
        self.hidden = Dice([])


def run_for(s: State, role: str, rolls=(), dry=False) -> Run:
    return Run(s, role, None if dry else Chance(rolls))
