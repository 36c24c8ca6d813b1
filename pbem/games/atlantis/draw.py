"""How an Escape from Atlantis view looks on the board: :func:`draw` returns the
:class:`~pbem.boards.drawing.Drawing` from which the text map of the mail reports and the SVG
map of the HTML reports are both drawn.

Text cells (4 characters): the tile letter then the people on it, ``#`` a safe island (and how
many people are safe there), ``=`` a ship then its crew, creatures and swimmers, ``.`` sea and
``:`` nearly safe sea. SVG counters: one per person in its owner's colour with the owner's
initial (and its value only when the reader has seen it), one per ship (in the colour of the
owner of most of its crew, with its crew count) followed by its crew, one per creature (grey,
its kind); the safe islands and the nearly safe sea spaces outlined. Everything comes from the
view, never from hidden facts.
"""

from __future__ import annotations

import dataclasses
import functools
import textwrap
from dataclasses import dataclass

from pbem.boards.drawing import (Drawing, Piece, Space, plain_space, remember_equal,
                                 remember_last)

from .data import SYMBOL_NAMES
from .state import State, from_view, id_key, piece_kind
from .texts import _people, initials

TILE_LETTER = {"sand": "S", "forest": "F", "fortress": "T"}
"""Text-map letter of a tile kind (the city is ``C``)."""

CREATURE_CHAR = {"shark": "^", "kraken": "K", "monster": "M", "dolphin": "D"}
"""Text-map and SVG mark of a creature kind."""

FILLS = {"sea": "#cfe6fa", "safe": "#e9c46a", "sand": "#f1e0a0", "forest": "#9ccc84",
         "fortress": "#b9b0a6", "city": "#d8a3a3"}
"""SVG colour of each terrain class of the drawing (a tile of another kind is drawn grey)."""

TERRAIN_NAMES = {"sea": "sea", "safe": "safe island", "sand": "sand tile",
                 "forest": "forest tile", "fortress": "fortress tile", "city": "city tile"}
"""The HTML legend's name of each terrain class."""


def _nearly_safe(s: State) -> set:
    """The sea hexes that are nearly safe spaces of a safe island (The Safe Islands)."""
    return {h for x in s.hexmap.hexes("safe") for h in s.hexmap.neighbours(x)
            if s.nearly_safe(h, x)}


def _text_cells(s: State, letters: dict, near: set) -> dict:
    """The text-map cell of every hex (``near``: :func:`_nearly_safe`), with the pieces
    indexed by hex once."""
    on_land: dict = {}
    at_sea: dict = {}
    crew: dict = {}
    safe: dict = {}
    for p in _people(s):
        if p.where == "land":
            on_land.setdefault(p.hex, []).append(letters[p.owner])
        elif p.where == "sea":
            at_sea.setdefault(p.hex, []).append(letters[p.owner])
        elif p.where == "ship":
            crew.setdefault(p.ship, []).append(letters[p.owner])
        elif p.where == "safe":
            safe[p.hex] = safe.get(p.hex, 0) + 1
    ships = {h: sid for sid, h in s.ships.items()}
    beasts: dict = {}
    for c in sorted(s.creatures, key=id_key):
        beasts.setdefault(s.creatures[c], []).append(CREATURE_CHAR[piece_kind(c)])

    def cell(h: str) -> str:
        t = s.hexmap.terrain(h)
        if t == "safe":
            return f"#{safe[h]}" if h in safe else "#"
        if h in s.tiles:
            letter = "C" if h == s.city else TILE_LETTER.get(s.tiles[h], s.tiles[h][:1].upper())
            return letter + "".join(on_land.get(h, []))[:3]
        text = ""
        rest = "".join(beasts.get(h, [])) + "".join(at_sea.get(h, []))
        if h in ships:
            # a comma ends the crew, so a swimmer beside an empty ship is not read as its crew
            text = "=" + "".join(crew.get(ships[h], [])) + ("," if rest else "")
        text += rest
        if not text:
            return ":" if h in near else "."
        return text if len(text) <= 4 else text[:3] + "+"

    return {h: cell(h) for h in s.hexmap.labels()}


SIDE_COLOURS = {"red": "#d33c3c", "green": "#3f9b45", "blue": "#3b6fd1", "yellow": "#f1d23a",
                "black": "#333333", "white": "#f4f4f4", "orange": "#f08a24",
                "purple": "#8a4fc1"}
"""Counter colour of a seat named after a colour; other seats take :data:`PALETTE` in seat
order."""

PALETTE = ("#d33c3c", "#3f9b45", "#3b6fd1", "#f1d23a", "#8a4fc1", "#f08a24")

CREATURES = "creatures"
"""The side of the creatures' counters (grey)."""

CREATURE_NAME = {"shark": "Shk", "kraken": "Krk", "monster": "Mon", "dolphin": "Dol"}
"""What a creature's counter shows."""

SPECIALS = {"safe": ("#b5651d", "safe: the goal"), "near": ("#1f5fa8", "nearly safe sea")}
"""Special spaces: the safe islands and the nearly safe sea spaces next to them."""


def sides(seats: list) -> dict:
    """``{seat: colour}`` of the seats' counters, then the creatures' grey."""
    out = {}
    for i, r in enumerate(seats):
        out[r] = SIDE_COLOURS.get(r.lower(), PALETTE[i % len(PALETTE)])
    out[CREATURES] = "#9a9a9a"
    return out


def _person(pid: str, p: dict, letters: dict, known: dict) -> Piece:
    """A person's counter: the owner's colour and initial, and its value only when the reader
    has seen it (``known_values`` of the view)."""
    value = known.get(pid)
    return Piece(letters.get(p["owner"], p["owner"][:1]),
                 pid + (f" (worth {value})" if value is not None else ""),
                 side=p["owner"], values="" if value is None else str(value), id=pid)


def _svg_spaces(v: dict, hexmap, letters: dict, near: set, only: set | None = None) -> dict:
    """``{label: [terrain, title, [Piece], special]}`` of the hexes with a tile, a safe island,
    a nearly safe sea space or a piece (every other hex is empty sea); ``only``: of those
    hexes alone (a reader's drawing redraws the few hexes its known values change)."""
    def wanted(label) -> bool:
        return only is None or label in only

    cells: dict = {}
    for label in hexmap.hexes("safe"):
        if wanted(label):
            cells[label] = ["safe", "safe island", [], "safe"]
    for label in near:
        if wanted(label):
            cells[label] = ["sea", "nearly safe sea", [], "near"]
    for label, kind in v["tiles"].items():
        if wanted(label):
            kind = "city" if label == v.get("city") else kind
            cells[label] = [kind, kind, [], ""]
    known = v.get("known_values") or {}
    people = v["people"]
    for pid, p in sorted(people.items(), key=lambda kv: id_key(kv[0])):
        if p["where"] in ("land", "sea", "safe") and p.get("hex") and wanted(p["hex"]):
            cells.setdefault(p["hex"], ["sea", "sea", [], ""])[2].append(
                _person(pid, p, letters, known))
    for ship, label in sorted(v["ships"].items(), key=lambda kv: id_key(kv[0])):
        if not wanted(label):
            continue
        crew = sorted((pid for pid, p in people.items() if p.get("ship") == ship), key=id_key)
        owners = [people[pid]["owner"] for pid in crew]
        top = max(set(owners), key=owners.count) if owners else ""
        side = top if owners and owners.count(top) * 2 > len(owners) else ""
        here = cells.setdefault(label, ["sea", "sea", [], ""])[2]
        here.insert(0, Piece("B", ship + (f" ({', '.join(crew)})" if crew else " (empty)"),
                             side=side, symbol="Boat", values=f"{len(crew)}/3", id=ship))
        here[1:1] = [_person(pid, people[pid], letters, known) for pid in crew]
    for creature, label in sorted(v["creatures"].items(), key=lambda kv: id_key(kv[0])):
        if wanted(label):
            kind = creature.rstrip("0123456789")
            cells.setdefault(label, ["sea", "sea", [], ""])[2].append(
                Piece(CREATURE_CHAR.get(kind, kind[:1]), creature, side=CREATURES,
                      symbol=CREATURE_NAME.get(kind, kind[:3]), id=creature))
    return cells


def _wrap(out: list[str]) -> list[str]:
    """Text lines, each entry of ``out`` wrapped at 78 characters with a two-space indent."""
    lines: list[str] = []
    for line in out:
        lines += _wrapped(line) if line else [""]
    return lines


@functools.lru_cache(maxsize=2048)
def _wrapped(line: str) -> tuple[str, ...]:
    """``line`` wrapped by :func:`_wrap` (remembered: the legend and most notes are the same
    line in every reader's report and every phase)."""
    return tuple(textwrap.fill(line, width=78, subsequent_indent="  ",
                               break_on_hyphens=False).split("\n"))


def _legend(s: State, letters: dict) -> list[str]:
    """The legend of the text map (wrapped lines)."""
    return _wrap(["Legend: S sand, F forest, T fortress, C city (then the people on the tile); "
                  "# safe island (and how many people are safe there); . sea, : nearly safe "
                  "sea; = ship (then its crew, and a comma before what else is there); "
                  "^ shark, K kraken, M sea monster, D dolphin; "
                  + ", ".join(f"{letters[r]} {r}" for r in s.seats)
                  + " (people); + more than fits."])


def _public_notes(v: dict, s: State) -> tuple[list[str], list[str]]:
    """The entries under the text map's legend that every reader shares, as ``(head, tail)``
    entries (unwrapped): the pieces by kind and owner, the tiles left, the symbols shown and
    the last creature die; then the values revealed at the end. A reader's own lines
    (:func:`_reader_notes`) go between them."""
    out = [""]
    crew = {}
    for p in _people(s):
        if p.where == "ship":
            crew.setdefault(p.ship, []).append(p.id)
    ships = [f"{sid} {h}" + (f" ({', '.join(crew[sid])})" if sid in crew else " (unmanned)")
             for sid, h in sorted(s.ships.items(), key=lambda x: id_key(x[0]))]
    out.append("Ships: " + ("; ".join(ships) or "none"))
    creatures = [f"{c} {h}" for c, h in sorted(s.creatures.items(), key=lambda x: id_key(x[0]))]
    out.append("Creatures: " + ("; ".join(creatures) or "none"))
    swimmers = [f"{p.id} {p.hex}" for p in _people(s) if p.where == "sea"]
    out.append("Swimmers: " + ("; ".join(swimmers) or "none"))
    for role in s.seats:
        mine = [p for p in _people(s) if p.owner == role]
        safe = [f"{p.id} ({p.hex})" for p in mine if p.where == "safe"]
        dead = [p.id for p in mine if p.where == "dead"]
        land = [f"{p.id} {p.hex}" for p in mine if p.where == "land"]
        out.append(f"{role}: on land {', '.join(land) or 'none'}; safe {', '.join(safe) or 'none'}"
                   f"; dead {', '.join(dead) or 'none'}; kept tiles {s.kept_count.get(role, 0)}")
    left = {}
    for k in s.tiles.values():
        left[k] = left.get(k, 0) + 1
    sink_now = "" if s.stage == "over" else f"; may sink now: {' '.join(s.sinkable()) or 'none'}"
    out.append(f"Tiles left: {len(s.tiles)} ("
               + ", ".join(f"{k} {left.get(k, 0)}" for k in s.rules.sink_order)
               + ")" + sink_now)
    shown = [f"{x['hex']} {SYMBOL_NAMES[x['symbol']]}" for x in s.sunk if x.get("symbol")]
    if shown:
        out.append("Symbols shown: " + "; ".join(shown))
    if s.die:
        out.append(f"Last creature die: {s.die['role']} rolled {s.die['roll']} "
                   f"({s.die['face']}) in turn {s.die['turn']}")
    tail = []
    if v.get("reveal"):
        vals = v["reveal"]["values"]
        tail.append("Values: " + ", ".join(f"{pid} {vals[pid]}" for pid in
                                           sorted(vals, key=id_key)))
    return out, tail


def _reader_notes(v: dict, s: State) -> list[str]:
    """The reader's own entries under the legend (a player's: where each of their people is
    and the values they know, their kept tiles and standing orders; none for the public
    view)."""
    role = v.get("role")
    mine = v.get("mine")
    known = v.get("known_values") or {}
    if mine is None:
        return []
    people = []
    for p in _people(s):
        if p.owner != role:
            continue
        where = {"land": f"on {p.hex}", "ship": f"aboard {p.ship}", "sea": f"in {p.hex}",
                 "safe": f"safe on {p.hex}", "dead": "dead", "box": "not placed"}[p.where]
        value = f" value {known[p.id]}" if p.id in known else ""
        people.append(f"{p.id} {where}{value}")
    kept = ", ".join(mine["kept"]) or "none"
    standing = ", ".join(f"{k} {'on' if on else 'off'}" for k, on in mine["standing"].items())
    return [f"Your people: {'; '.join(people)}",
            f"Your kept tiles: {kept}. Your standing orders: {standing}."]


READER_KEYS = ("role", "mine", "known_values")
"""The keys of a view that are the reader's own (:func:`~pbem.games.atlantis.state.view`);
the others are the public part, the same in every reader's view of a phase."""


@dataclass(frozen=True)
class _Shared:
    """What every reader's drawing of one position shares (:func:`_shared`): the public
    state, the counters' initials, the nearly safe sea, the drawing with no value shown, the
    label holding each person on the map, and the notes around the reader's own."""

    s: State
    letters: dict
    near: set
    drawing: Drawing
    at: dict
    head: tuple
    tail: tuple


@remember_equal
def _shared(public: dict) -> _Shared:
    """:class:`_Shared` of a view's public part (the view without :data:`READER_KEYS`);
    remembered by equality, so a phase's readers draw the shared part once (their public
    parts are equal, and the very same objects when read back by
    pbem.engine.reportstore.open_context, which makes the comparison cheap)."""
    s = from_view(public)
    letters = initials(s.seats)
    near = _nearly_safe(s)
    text = _text_cells(s, letters, near)
    svg = _svg_spaces(public, s.hexmap, letters, near)
    spaces = {label: _space(cell, svg.get(label)) for label, cell in text.items()}
    head, tail = _public_notes(public, s)
    drawing = Drawing(board=s.hexmap, spaces=spaces, fills=FILLS,
                      legend=tuple(_legend(s, letters)), notes=tuple(_wrap(head + tail)),
                      text_width=4, sides=sides(s.seats), specials=SPECIALS,
                      terrain_names=TERRAIN_NAMES)
    at = {}
    for pid, p in public["people"].items():
        label = public["ships"].get(p.get("ship")) if p["where"] == "ship" else p.get("hex")
        if label:
            at[pid] = label
    return _Shared(s, letters, near, drawing, at, tuple(_wrap(head)), tuple(_wrap(tail)))


def _space(cell: str, svg) -> Space:
    """The Space of one hex: its text cell, and its terrain, title, pieces and special mark
    (:func:`_svg_spaces`; None: empty sea)."""
    terrain, title, pieces, special = svg or ("sea", "", (), "")
    return (Space(terrain, cell, title, tuple(pieces), special) if pieces
            else plain_space(terrain, cell, title, special))


@remember_last
def draw(v: dict) -> Drawing:
    """The board as the view ``v`` (:func:`~pbem.games.atlantis.state.view`) shows it: tiles,
    safe islands, people, ships and creatures, with the legend and the pieces listed by kind
    and owner under the text map. The part every reader shares is drawn once
    (:func:`_shared`); a reader's drawing differs only in the hexes holding a person whose
    value the reader knows, and in the reader's own notes."""
    shared = _shared({k: val for k, val in v.items() if k not in READER_KEYS})
    known = v.get("known_values") or {}
    mine = _reader_notes(v, shared.s)
    if not known and not mine:
        return shared.drawing
    spaces = shared.drawing.spaces
    touched = {shared.at[pid] for pid in known if pid in shared.at}
    if touched:
        svg = _svg_spaces(v, shared.s.hexmap, shared.letters, shared.near, touched)
        spaces = dict(spaces)
        for label in touched:
            spaces[label] = _space(spaces[label].text, svg.get(label))
    return dataclasses.replace(shared.drawing, spaces=spaces,
                               notes=shared.head + tuple(_wrap(mine)) + shared.tail)
