"""How an Olympica view looks on the map: :func:`draw` returns the
:class:`~pbem.boards.drawing.Drawing` from which the text map of the mail reports and the SVG
map of the HTML reports are both drawn.

Text cells (1 character, so that the 26 columns fit a mail line): the top counter (``?`` a
face-down Web counter, ``w`` Web Infantry, ``S`` Strongpoint, ``G`` the Generator, ``d`` a
dummy; U.N.: ``H``, ``L``, ``T``, ``F``, ``B``), else the tunnel (``O`` / ``o`` a Tunnel Mouth
/ a Deep Tunnel, ``D`` a drilled mouth), else the terrain (``.`` clear, ``:`` incline, ``^``
cliff; ``+`` a clear hex of the dotted area where the Generator is set up); the counters are
listed by hex under the map. SVG: the terrain colours, the dotted area and
the entry edges outlined, counters in their side's colour (a face-down Web counter shows its
blank back and marker). Everything comes from the view, never from hidden facts.
"""

from __future__ import annotations

import functools

from pbem.boards.drawing import Drawing, Piece, Space, plain_space, remember_last

from .state import UN, UN_NAMES, WEB, WEB_NAMES, from_view, unit_kind

TERRAIN_MARK = {"clear": ".", "incline": ":", "cliff": "^"}
TUNNEL_MARK = {"mouth": "O", "deep": "o", "drilled": "D"}
FILLS = {"clear": "#e9d9c4", "incline": "#c99b6d", "cliff": "#8a5a3c"}
SIDES = {UN: "#2f4f9f", WEB: "#8f2f2f"}
SPECIALS = {"dotted": ("#444444", "the dotted area (5.2)"),
            "edge": ("#e0218a", "reinforcement edges (21.0)")}
WEB_MARK = {"web-infantry": "w", "strongpoint": "S", "generator": "G", "dummy": "d"}
UN_MARK = {"un-heavy-infantry": "H", "un-light-infantry": "L", "un-laser-tank": "T",
           "un-lifter": "F", "un-boar": "B"}
SHORT = {"web-infantry": "Inf", "strongpoint": "SP", "generator": "Gen", "dummy": "Dum",
         "un-heavy-infantry": "HI", "un-light-infantry": "LI", "un-laser-tank": "Tank",
         "un-lifter": "Lift", "un-boar": "BOAR"}


def _values(s, kind: str) -> str:
    t = s.rules.units.get(unit_kind(kind))
    if t is None:
        return ""
    strength = str(t.strength) if t.ranged else f"({t.strength})"
    return f"{strength}-{t.movement} r{t.range}" if t.range else f"{strength}-{t.movement}"


def _pieces(s) -> tuple[dict, dict]:
    """``(text marks by hex, SVG pieces by hex)``."""
    marks: dict = {}
    pieces: dict = {}
    for m, r in s.web.items():
        if r["status"] != "map":
            continue
        kind = s.web_kind(m)
        up = bool(r.get("face_up"))
        under = r["level"] != "surface"
        title = (f"{m}{' underground' if under else ''}: "
                 + (f"{WEB_NAMES[kind]}{'' if up else ' (face down)'}" if kind else "face down")
                 + (", DUST" if r.get("dust") else ""))
        marks.setdefault(r["hex"], []).append("?" if kind is None else WEB_MARK[kind])
        pieces.setdefault(r["hex"], []).append(Piece(
            m, title, side=WEB, symbol=SHORT.get(kind, "") if kind else "",
            values=_values(s, kind) if kind else "", face_down=kind is None, id=m))
    for u, r in s.un.items():
        if r["status"] != "map":
            continue
        under = r["level"] != "surface"
        title = (f"{u}{' underground' if under else ''}: {UN_NAMES[r['kind']]}"
                 + (", DUST" if r.get("dust") else ""))
        marks.setdefault(r["hex"], []).append(UN_MARK[r["kind"]])
        pieces.setdefault(r["hex"], []).append(Piece(
            u, title, side=UN, symbol=u, values=_values(s, r["kind"]), id=u))
    return marks, pieces


@remember_last
def draw(v: dict) -> Drawing:
    """The map as the view ``v`` (:func:`~.state.view`) shows it: terrain, tunnels, counters,
    with the legend and the counters listed under the text map."""
    s = from_view(v)
    marks, pieces = _pieces(s)
    base = _bare_spaces(s.board)
    spaces = dict(base)
    for h in (marks.keys() | pieces.keys() | s.tunnels.keys()) & base.keys():
        b = base[h]
        text = marks[h][0] if h in marks else TUNNEL_MARK.get(s.tunnels.get(h), b.text)
        title = b.title + (f", {s.tunnels[h]} tunnel" if h in s.tunnels else "")
        spaces[h] = (Space(b.terrain, text, title, tuple(pieces[h]), b.special) if h in pieces
                     else plain_space(b.terrain, text, title, b.special))
    legend = ("Terrain: . clear  : incline  ^ cliff  + the dotted area (5.2)   Tunnels: O mouth"
              "  o deep  D drilled",
              "Web: ? face down  w infantry (Inf)  S strongpoint (SP)  G generator (Gen)  d dummy"
              " (Dum)   U.N.: H heavy  L light infantry  T laser tank  F lifter  B BOAR")
    return Drawing(board=s.board, spaces=spaces, fills=FILLS, legend=legend,
                   notes=tuple(_notes(s)), text_width=1, sides=SIDES, specials=SPECIALS)


def _notes(s) -> list:
    out = ["", f"Game-Turn {s.turn} of {s.last_turn}; the Web of Compulsion is "
               f"{'broken (19.3)' if s.broken else 'working'}."]
    for side, table in ((UN, s.un), (WEB, s.web)):
        here = []
        for u, r in table.items():
            if r["status"] != "map":
                continue
            kind = s.kind(side, u)
            here.append(f"{u}{'=' + SHORT[kind] if side == WEB and kind else ''}@{r['hex']}"
                        f"{'u' if r['level'] != 'surface' else ''}"
                        + ("*" if r.get("dust") else ""))
        out.append(f"{'U.N.' if side == UN else 'Web'} on the map (* DUST"
                   + ("; =kind: face up or yours" if side == WEB else "") + "): "
                   + (" ".join(here) or "none"))
    return out


@functools.lru_cache(maxsize=4)
def _bare_spaces(board) -> dict:
    dotted = set(board.group("dotted"))
    edges = set(board.group("west")) | set(board.group("east"))
    spaces = {}
    for h in board.labels():
        t = board.terrain(h)
        special = "dotted" if h in dotted else "edge" if h in edges else ""
        mark = "+" if h in dotted and t == "clear" else TERRAIN_MARK.get(t, "?")
        spaces[h] = plain_space(t, mark, t + (", the dotted area" if h in dotted else ""),
                                special)
    return spaces
