"""How an Escape from Atalix view looks on the board: :func:`draw` returns the
:class:`~pbem.boards.drawing.Drawing` of the text and SVG maps.

Text cells (2 characters): the space's elevation (0-4) then what stands there: ``A`` the
alien, ``s`` storm tokens, a pawn's initial (``R``, ``G``, ``B``, ``Y``), ``o`` a resource cube,
``e`` equipment, ``*`` a star space (one mark a space; the notes under the map list the pawns,
the storm tokens and the equipment by space). SVG: the terrain colours of the rulebook
(orange scrap, green carbon, gray minerals, the dark cave), the center, the cave and the storm
origin outlined; the pawns, the alien, the storm tokens and the equipment as counters.
Everything comes from the view.
"""

from __future__ import annotations

import functools

from pbem.boards.drawing import Drawing, Piece, Space, plain_space, remember_last

from .board import Board
from .data import Rules
from .state import from_view
from .tables import ROMAN

FILLS = {"scrap": "#e08a3c", "carbon": "#5f9f4f", "minerals": "#a0a0a0", "plain": "#e8dcc0",
         "cave": "#4a4a4a"}
SIDES = {"red": "#c0392b", "green": "#27ae60", "blue": "#2e6fb5", "yellow": "#e1b12c",
         "alien": "#6c3483", "storm": "#7dcea0", "equipment": "#222222"}
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
    for item, h in equipment(s):
        if h in board.hexmap:
            marks.setdefault(h, []).append("e")
            pieces.setdefault(h, []).append(Piece(item, item, side="equipment", symbol=item[:5],
                                                  id=f"item-{item}"))
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
    legend = ("Cells: elevation (0-4), then A alien, s storm, R/G/B/Y a pawn, o a cube, e "
              "equipment, * a star space (one mark a space: the lists below say who and how "
              "many)",)
    return Drawing(board=s.board, spaces=spaces, fills=FILLS, legend=legend,
                   notes=tuple(_notes(s)), text_width=2, sides=SIDES, specials=SPECIALS)


def _cubes(s, h: str) -> list:
    res = s.world.get("resources", {}).get(h)
    return [f"a {res} cube"] if res else []


def equipment(s) -> list:
    """``[(item, where)]``: every piece of equipment of the scenario and where it is (a hex,
    ``carried by ROLE``, ``on its project card``, ``in the rover``), in a fixed order."""
    eq, out = s.equipment, []
    items = [(k, eq[k]) for k in ("ship", "roof", "beacon") if isinstance(eq.get(k), str)]
    items += [(f"solar-{i}", v) for i, v in enumerate(eq.get("solar", []), 1)]
    items += [(f"part-{i}", v) for i, v in enumerate(eq.get("parts", []), 1)]
    carried = eq.get("carried", {})
    for item, where in items:
        where = (f"carried by {carried[item]}" if item in carried else
                 "on the project cards" if where == "card" else
                 "in the rover" if where == "rover" else where)
        out.append((item, where))
    if isinstance(eq.get("rover"), str) and eq["rover"] != "card":
        out.append(("rover", eq["rover"]))
    return out


def _notes(s) -> list:
    team = s.world.get("team", {})
    rules = Rules.from_data(s.data)
    level = rules.level_at(s.research)
    out = ["", f"Round {s.round}, set of turns {s.set}; first player: {s.first_player()}.",
           f"Research: level {ROMAN.get(level, level)} (step {s.research}). Round tracker: "
           f"space {s.world.get('round_pos')}, the team loses on "
           f"{rules.round_loss(len(s.seats))}. Storm tokens left: "
           f"{s.world.get('storm_supply')}.",
           "Team resources: " + ", ".join(f"{n} {r}" for r, n in team.items()) + ".",
           "Market: " + (" ".join(s.market.available()) if s.market else "none")
           + (f" (Upgrade deck: {_deck_size(s)})" if s.market else "") + ".",
           "Projects built: " + (", ".join(s.projects) or "none") + "."]
    if s.chapter:
        out.append(f"Scenario 1: Chapter {s.chapter['chapter']}, {s.chapter['path']}.")
    storm = s.world.get("storm", {})
    if storm:
        out.append("Storm tokens: " + ", ".join(f"{h} x{n}" for h, n in sorted(storm.items()))
                   + ".")
    stands: dict = {}
    for role, h in s.pawns.items():
        stands.setdefault(h, []).append(role)
    out.append("Pawns: " + "; ".join(f"{h} {', '.join(rs)}" for h, rs in sorted(stands.items()))
               + ".")
    places: dict = {}
    for item, where in equipment(s):
        places.setdefault(where, []).append(item)
    if places:
        out.append("Equipment: " + "; ".join(f"{w}: {', '.join(items)}"
                                             for w, items in places.items()) + ".")
    for role, p in s.players.items():
        pub = s.unseen.get(role)
        hand, deck = ((pub["hand_size"], pub["deck_size"]) if pub else (len(p.hand), len(p.deck)))
        out.append(f"{role}: active {' '.join(p.active)}; {hand} in hand, {deck} in the deck, "
                   f"{len(p.discard)} discarded")
    return out


def _deck_size(s) -> int:
    return s.unseen.get("*market", len(s.market.deck))


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
