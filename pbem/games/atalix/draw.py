"""How an Escape from Atalix view looks on the board: :func:`draw` returns the
:class:`~pbem.boards.drawing.Drawing` of the text and SVG maps.

Text cells (2 characters): the space's elevation (0-4) then what stands there: ``A`` the
alien, ``s`` storm tokens, a pawn's initial (``R``, ``G``, ``B``, ``Y``), ``o`` a resource cube,
``*`` a star space. SVG: the terrain colours of the rulebook (orange scrap, green carbon, gray
minerals, the dark cave), the center, the cave and the storm origin outlined; the pawns, the
alien and the storm tokens as counters. Everything comes from the view.
"""

from __future__ import annotations

import functools

from pbem.boards.drawing import Drawing, Piece, Space, plain_space, remember_last

from .board import Board
from .state import from_view

FILLS = {"scrap": "#e08a3c", "carbon": "#5f9f4f", "minerals": "#a0a0a0", "plain": "#e8dcc0",
         "cave": "#4a4a4a"}
SIDES = {"red": "#c0392b", "green": "#27ae60", "blue": "#2e6fb5", "yellow": "#e1b12c",
         "alien": "#6c3483", "storm": "#7dcea0"}
SPECIALS = {"center": ("#ffffff", "the center (pawns start and return)"),
            "cave": ("#111111", "the cave"), "origin": ("#1e8449", "the storm origin")}


def _pieces(s, board: Board) -> tuple[dict, dict]:
    marks: dict = {}
    pieces: dict = {}
    alien = s.world.get("alien")
    if alien:
        marks.setdefault(alien, []).append("A")
        pieces.setdefault(alien, []).append(Piece(
            "alien", f"the alien (damage {s.world.get('alien_damage', 0)})", side="alien",
            symbol="Alien", id="alien"))
    for h, n in s.world.get("storm", {}).items():
        marks.setdefault(h, []).append("s")
        pieces.setdefault(h, []).append(Piece(f"storm{n}", f"{n} storm token(s)", side="storm",
                                              symbol=f"S{n}", id=f"storm-{h}"))
    for role, h in s.pawns.items():
        marks.setdefault(h, []).append(role[0].upper())
        pieces.setdefault(h, []).append(Piece(role, f"{role}'s pawn", side=role,
                                              symbol=role[:3], id=f"pawn-{role}"))
    for h, res in s.world.get("resources", {}).items():
        marks.setdefault(h, []).append("o")
    return marks, pieces


@remember_last
def draw(v: dict) -> Drawing:
    """The board as the view ``v`` (:func:`~.state.view`) shows it."""
    s = from_view(v)
    board = Board.of(s.board)
    marks, pieces = _pieces(s, board)
    base = _bare(board)
    spaces = dict(base)
    for h in (marks.keys() | pieces.keys()) & base.keys():
        b = base[h]
        text = b.text[0] + (marks[h][0] if h in marks else b.text[1:])
        title = b.title + "".join(f"; {x}" for x in _cubes(s, h))
        spaces[h] = (Space(b.terrain, text, title, tuple(pieces[h]), b.special) if h in pieces
                     else plain_space(b.terrain, text, title, b.special))
    legend = ("Cells: elevation (0-4), then A alien, s storm, R/G/B/Y a pawn, o a cube, * a "
              "star space",)
    return Drawing(board=s.board, spaces=spaces, fills=FILLS, legend=legend,
                   notes=tuple(_notes(s)), text_width=2, sides=SIDES, specials=SPECIALS)


def _cubes(s, h: str) -> list:
    res = s.world.get("resources", {}).get(h)
    return [f"a {res} cube"] if res else []


def _notes(s) -> list:
    team = s.world.get("team", {})
    out = ["", f"Round {s.round}, set of turns {s.set}; first player: {s.first_player()}; "
               f"research {s.research}; round tracker at {s.world.get('round_pos')}; storm "
               f"tokens left {s.world.get('storm_supply')}.",
           "Team resources: " + ", ".join(f"{n} {r}" for r, n in team.items()) + ".",
           "Market: " + (" ".join(s.market.row) if s.market else "none") + "."]
    for role, p in s.players.items():
        out.append(f"{role}: pawn {s.pawns.get(role)}, active {' '.join(p.active)}, "
                   f"{len(p.discard)} discarded")
    return out


@functools.lru_cache(maxsize=4)
def _bare_cached(hexmap) -> dict:
    board = Board.of(hexmap)
    spaces = {}
    for h in board.spaces():
        info = board.info(h)
        special = ("center" if h == board.center else "cave" if h in board.cave
                   else "origin" if h == board.storm_origin else "")
        text = f"{info.elevation}{'*' if info.shape == 'star' else ''}"
        title = (f"{info.terrain}, elevation {info.elevation}"
                 + (f", number {'/'.join(map(str, info.numbers))}" if info.numbers else "")
                 + (", star (scavenge)" if info.shape == "star" else ""))
        spaces[h] = plain_space(info.terrain, text, title, special)
    return spaces


def _bare(board: Board) -> dict:
    return _bare_cached(board.hexmap)
