"""How a view of Attack Force looks on the board: a :class:`pbem.boards.drawing.Drawing` over
the GraphBoard, from which both the text map (a grid of 4-character cells: the kit draws a
board with positions as a grid) and the SVG map of the HTML report are drawn.

SVG counters: the fighters and Batteries in their side's colour with their id and printed
Attack/Target Rating letters and range; each Hull Marker as the reader knows it (face down:
its number only; the explosion only in the map of the Arcturan Player, who holds that secret,
until it is turned up). The Battery, Hull, Launcher and Sensor Pod spaces and the wrecks are
outlined, the Tunnels drawn as lines."""

from __future__ import annotations

from pbem.boards.drawing import Drawing, Piece, Space, remember_last

from .state import ARCTURAN, EMPIRE, from_view

SIDES = {ARCTURAN: "#2f6fd6", EMPIRE: "#c0392b", "hull": "#e8e8e8"}
"""Counter colours: the Arcturan fighters, the Empire's pieces, the Hull Markers."""

SPECIALS = {"battery": ("#ff9f1a", "Battery Space"), "hull": ("#ffffff", "Hull Space"),
            "launcher": ("#b6ff3b", "Launcher"), "sensor-pod": ("#7fd3ff", "Sensor Pod"),
            "wrecked": ("#ff2d2d", "wrecked (Wreck Marker)")}
"""Special spaces, outlined: the Battery, Hull, Launcher and Sensor Pod spaces, the wrecks."""

SPECIAL_OF = {"battery": "battery", "hull": "hull", "launcher": "launcher",
              "sensor-pod": "sensor-pod"}

TERRAIN_NAMES = {"space": "open space", "ship": "the Novaship's hull", "battery": "Battery Space",
                 "hull": "Hull Space", "launcher": "Launcher", "sensor-pod": "Sensor Pod"}

LINK_COLOURS = {"tunnel": "#f5d142"}
"""The Tunnels (How to Move 5a), drawn as lines between Battery Spaces."""

FILLS = {"space": "#10162a", "ship": "#8a8f99", "battery": "#c46b2d", "hull": "#b8bcc6",
         "launcher": "#6b8e23", "sensor-pod": "#4682b4"}

LEGEND = ("Pieces by id: r1..y7 the Arcturan Flights, c1..c20 Cobras, vk Vaj Korsen;",
          "Batteries LsN laserN, PpN pompomN, BlN blasterN; an id followed by * shares",
          "its space with a piece of the other side (see the lists below).",
          "H? face-down Hull Marker, H- face-up blank, HX face-up explosion, H! the",
          "explosion (the Arcturan Player's secret), B empty Battery Space, L Launcher,",
          "S Sensor Pod, W wrecked, . the Novaship's hull.")
"""The text map's legend, one line of at most 78 characters each."""

CELL = 4
"""Characters of a text-map cell: 12 columns of 4 and a space stay under 70 characters."""


KIND_MARK = {"battery": "B", "launcher": "L", "sensor-pod": "S", "ship": "."}
"""The text-map mark of a space of each kind (The Map), when nothing stands on it."""


def _marker(v: dict, s, sp: str) -> str:
    kind = s.board.kind(sp)
    if kind == "hull":
        face = s.hull.get(sp, "down")
        if face == "down":
            return "H!" if sp == (v.get("secret") or {}).get("explosion") else "H?"
        return "H-" if face == "blank" else "HX"
    letter = KIND_MARK.get(kind, "")
    return letter + ("W" if sp in s.wrecks and kind != "ship" and letter else "")


def _cell(here: list, mark: str) -> str:
    """The text cell of a space: its marker, or the short id of the piece in it (the Arcturan
    one first) with ``*`` when a piece of the other side is there too."""
    if not here:
        return mark
    return _short(here[0]) + ("*" if len(here) > 1 else "")


@remember_last
def draw(v: dict) -> Drawing:
    """The Drawing of view ``v`` (pbem.games.attackforce.state.view): each space's cell is its
    marker (a Hull Marker's face as the reader knows it) or the piece in it; the notes list
    the pieces by side, the Hull Markers and the cup."""
    s = from_view(v)
    by_space: dict = {}
    for side in (ARCTURAN, EMPIRE):
        for p in s.on_map(side):
            by_space.setdefault(s.pieces[p]["space"], []).append(p)
    spaces = dict(_plain_spaces(s.board))
    for sp in set(by_space) | set(s.board.group("hull")) | set(s.wrecks):
        here = by_space.get(sp, [])
        pieces = tuple(_piece(s, p) for p in here)
        kind = s.board.kind(sp)
        if kind == "hull":
            pieces += (_hull_piece(v, s, sp),)
        special = "wrecked" if sp in s.wrecks else SPECIAL_OF.get(kind, "")
        spaces[sp] = Space(kind, _cell(here, _marker(v, s, sp)),
                           f"{sp} {kind}" + (" (wrecked)" if sp in s.wrecks else ""), pieces,
                           special)
    notes = []
    for side in (ARCTURAN, EMPIRE):
        on = [f"{p}@{s.pieces[p]['space']}" for p in s.on_map(side)]
        notes.append(f"{side}: {' '.join(on) or 'no piece on the map'}; destroyed "
                     f"{s.destroyed(side)}")
    notes.append("Hull Markers: " + " ".join(
        f"h{s.hull_number(h)}@{h}={_marker(v, s, h)}" for h in s.hull_spaces()))
    notes.append(f"cup: {s.cup.get('cobra', 0)} Cobras, {s.cup.get('korsen', 0)} Vaj Korsen; "
                 f"turn {s.turn}, {s.stage}")
    notes.extend(_tunnels(s.board))
    return Drawing(board=s.board, spaces=spaces, fills=FILLS, legend=LEGEND, notes=tuple(notes),
                   text_width=CELL, sides=SIDES, specials=SPECIALS, terrain_names=TERRAIN_NAMES,
                   link_colours=LINK_COLOURS)


def _piece(s, p: str) -> Piece:
    """A fighter's or a Battery's counter: its side's colour, its id and its printed Attack
    Rating / Target Rating letters (and its range)."""
    t = s.ptype(p)
    return Piece(p, s.name(p), s.pieces[p]["side"], side=s.pieces[p]["side"], symbol=_short(p),
                 values=f"{t.attack}/{t.target} r{t.range}", id=p)


def _hull_piece(v: dict, s, sp: str) -> Piece:
    """The Hull Marker of Hull Space ``sp`` as the reader knows it: face down (its number
    only), the explosion for the Arcturan Player who holds that secret, or face up (blank or
    the explosion)."""
    n = s.hull_number(sp)
    mark = _marker(v, s, sp)
    if mark == "H?":
        return Piece(mark, f"Hull Marker h{n} (face down)", face_down=True, id=f"h{n}")
    what = {"H!": "the explosion (your secret: face down)", "H-": "face up: blank",
            "HX": "face up: the explosion"}[mark]
    return Piece(mark, f"Hull Marker h{n}, {what}", side="hull", symbol=mark, values=f"h{n}",
                 id=f"h{n}")


def _tunnels(board) -> tuple:
    """The Tunnels of the board, for readers of the text map (the SVG map draws them): lines
    of at most 78 characters, ``Tunnels: 39-41 41-44 ...`` (How to Move 5a)."""
    pairs = [f"{a}-{b}" for a, b, kind, _ in board.links() if kind == "tunnel"]
    lines, line = [], "Tunnels:"
    for pair in pairs:
        if len(line) + 1 + len(pair) > 78:
            lines.append(line)
            line = "  "
        line += " " + pair
    return tuple(lines + [line]) if pairs else ()


_PLAIN: dict = {}


def _plain_spaces(board) -> dict:
    """``{space: Space}`` of every space of ``board`` drawn with no piece, no Hull Marker and
    no Wreck Marker: the same in every view of a game, so made once per board digest."""
    found = _PLAIN.get(board.digest)
    if found is None:
        if len(_PLAIN) >= 16:
            _PLAIN.clear()
        found = _PLAIN[board.digest] = {}
        for sp in board.spaces():
            kind = board.kind(sp)
            found[sp] = Space(kind, KIND_MARK.get(kind, ""), f"{sp} {kind}", (),
                              SPECIAL_OF.get(kind, ""))
    return found


def _short(piece: str) -> str:
    """A piece id in at most 3 characters for a map cell (``laser1`` -> ``Ls1``)."""
    for long, short in (("laser", "Ls"), ("pompom", "Pp"), ("blaster", "Bl")):
        if piece.startswith(long):
            return short + piece[len(long):]
    return piece
