"""Texts for players and referees: the order template, the rules tables with their sources and
the stand-ins in force (the board is drawn by :mod:`.draw`).

All of it is built from a view (:func:`~pbem.games.atlantis.state.view`) or from the public
data, never from hidden facts.
"""

from __future__ import annotations

from pbem.boards.hexgrid import label_key
from pbem.engine.sourced import in_force, show_entry, walk_sources

from .data import CREATURE_KINDS, DIVES, KILLS, OPTIONS, SYMBOL_NAMES, SYMBOLS, Rules
from .state import State, id_key, piece_kind

RULEBOOK = ("A. J. Merritt, 'Escape from Atlantis using many rules from Survive' "
            "(the variant's own rule sheet); cited by section name")


# -- rules and stand-ins ------------------------------------------------------------------------

def rules_text(data: dict, options: dict | None = None, option_specs: dict = OPTIONS) -> str:
    """Every table of the data file with its source, and the options in force (``options``:
    typed values, defaults when None; ``option_specs``: name -> OptionSpec), for ``pbem rules
    atlantis`` (the ruleset's ``rules_text``)."""
    options = options or {}
    rules = Rules.from_data(data)
    out = ["Escape from Atlantis (Survive variant): the rules tables",
           f"Rulebook: {RULEBOOK}.", ""]
    out.append("Options (chosen when the game is created: --option KEY=VALUE)")
    for key, spec in option_specs.items():
        value = options.get(key, spec.default)
        choices = "|".join(str(c) for c in spec.choices) if spec.choices else "any"
        out.append(f"  {key} = {value}  ({choices}; default {spec.default}): {spec.help}")
        out.append(f"      source: {spec.source}")
    out.append("")
    for section, title in (("people", "People"), ("ships", "Ships"),
                           ("movement", "Movement"), ("setup", "Setup"), ("tiles", "Tiles")):
        out.append(title)
        for entry in walk_sources(data[section], section):
            out.append(f"  {entry.path} = {_show(entry.values['value'])}")
            out.append(f"      source: {entry.source}")
        out.append("")
    out.append("Creatures: max move (sea spaces), pieces in the box")
    for kind in CREATURE_KINDS:
        row = data["creatures"][kind]
        out.append(f"  {kind:<8} max move {row['max_move']}, pieces {row['pieces']}")
        out.append(f"      source: {row['source']}")
    out.append("")
    out.append("Creature die (1 roll per player-turn; move one creature of a kind shown)")
    for i, name in enumerate(rules.face_names, start=1):
        out.append(f"  {i}  {name}")
    out.append(f"      source: {data['die']['faces']['source']}")
    out.append("")
    kinds = rules.sink_order
    out.append("Symbols under the tiles (manifest): tiles of each kind")
    out.append("  " + f"{'symbol':<18}" + "".join(f"{k:>10}" for k in kinds))
    for symbol in SYMBOLS:
        row = rules.manifest.get(symbol)
        if row is None:
            continue
        out.append("  " + f"{SYMBOL_NAMES[symbol]:<18}"
                   + "".join(f"{row[k] or '-':>10}" for k in kinds))
    out.append("  " + f"{'total':<18}" + "".join(f"{rules.tiles_per_kind[k]:>10}"
                                                for k in kinds))
    for symbol in SYMBOLS:
        if symbol in data["manifest"]:
            out.append(f"  {symbol}: {data['manifest'][symbol]['source']}")
    out.append("")
    out.append("What the symbols do (Part of the Island sinks): Boat, Dolphin, Kraken, Shark, Sea "
               "Monster: that piece is placed where the tile was; Vortex: everything in that "
               "space and the neighbouring sea spaces is destroyed; Game Ends: the game ends at "
               "once; Volcano: see option volcano; the dives and kill tiles are kept face down "
               "and played later.")
    return "\n".join(out) + "\n"


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


def stand_ins(data: dict, options: dict, hexmap) -> list:
    """One line per stand-in or gap treatment in force, with the values in force, for the
    setup report (house-rules entries included, so players see the values that apply): the
    map, the rules the game fills in, then every data entry whose source is a stand-in or the
    house rules (:func:`pbem.engine.sourced.walk_sources`)."""
    out = []
    if hexmap.stand_in:
        out.append(f"Map: {hexmap.name}: {hexmap.map_source}")
    out.append("Island arrangement: which centre hex is the city and which outer hexes are sand "
               "or forest is drawn by the public die at setup (Preparing to Play 1 leaves it to "
               "the players).")
    volcano = options.get("volcano", "ends")
    out.append(f"Volcano tile: option volcano={volcano} (stand-in: the rulebook does not say what "
               f"it does; in Escape from Atlantis the volcano ends the game, and End of game "
               f"says 'the volcano explodes').")
    out.append(f"Ships per player: option ships={options.get('ships', 1)} (stand-in: Preparing "
               f"to Play 3 reads 'Each player places one ship'; Contents lists 12 ships).")
    out.append("Placement by ranked preference lists, resolved in seat order (a by-mail form of "
               "Preparing to Play 2-4); each player says which value goes where (people "
               "HEX=VALUE), values not placed so are dealt by the hidden dice; after placement "
               "a player sees a value only when moving that person (Preparing to Play 2).")
    out.extend(show_entry(entry, _show) for entry in walk_sources(data)
               if in_force(entry.source))
    return out


# -- the board as text --------------------------------------------------------------------------

def initials(seats: list) -> dict:
    """One letter per role for the text map: the role's first letter, or its seat number when
    two roles share a first letter."""
    firsts = [r[0] for r in seats]
    if len(set(firsts)) == len(firsts):
        return {r: r[0] for r in seats}
    return {r: str(i) for i, r in enumerate(seats, start=1)}


def _people(s: State) -> list:
    """Every person in seat order, then by number (``red2`` before ``red10``)."""
    seat = {r: i for i, r in enumerate(s.seats)}
    return sorted(s.people.values(), key=lambda p: (seat.get(p.owner, 99), id_key(p.id)))


# -- order templates ----------------------------------------------------------------------------

def template(s: State, role: str) -> str:
    """Order lines for ``role`` in the current window, as ``#`` comments to copy and edit: the
    forms of the orders, the position that matters, and examples that are legal now."""
    from .windows import window

    w = window(s)
    if w is None:
        return "# The game is over: no orders.\n"
    out = [f"# {w.title}"]
    if s.stage == "placement":
        rules = s.rules
        island = sorted(s.tiles, key=label_key)
        out += [
            "# Ranked lists, best first; resolved in rounds in seat order "
            f"({', '.join(s.seats)}).",
            f"# people: {rules.per_player} island hexes, one per person (repeat a hex for up to "
            f"{rules.land_capacity} people there).",
            f"# Your values: {' '.join(str(v) for v in rules.values)}. HEX=VALUE says which "
            f"value goes there (0707=6); values you do not place so are dealt by the hidden "
            f"dice. After placement you see a value only when you move that person.",
            "# people " + " ".join(f"{h}={v}" for h, v in
                                   zip(island, sorted(rules.values, reverse=True))),
            f"# ship: sea hexes next to the island for your {s.options.get('ships', 1)} ship(s).",
        ]
        coast = [h for h in s.hexmap.labels() if s.is_sea(h)
                 and any(n in s.tiles for n in s.hexmap.neighbours(h))]
        out.append(f"# ship {' '.join(coast[:3])}")
        out.append(f"# monster: empty sea hexes at least {rules.monster_distance} hexes from every "
                   f"ship, for your sea monster.")
        far = [h for h in s.hexmap.labels() if s.is_sea(h)
               and all(s.hexmap.distance(h, i) > rules.monster_distance for i in island)][:3]
        out.append(f"# monster {' '.join(far)}")
        return "\n".join(out) + "\n"
    standing = s.standing.get(role, {})
    kept = [k for k in s.kept.get(role, []) if k]
    if role != s.phasing:
        out.append(f"# It is {s.phasing}'s turn; you may change your standing orders (kept tiles: "
                   f"{', '.join(kept) or 'none'}).")
        for tile in ("kill-shark", "kraken-killed"):
            out.append(f"# standing {tile} {'off' if standing.get(tile) else 'on'}")
        return "\n".join(out) + "\n"
    if s.stage == "creature":
        name = s.pending["face"]
        face = s.rules.faces[s.rules.face_names.index(name)]
        out.append(f"# The creature die shows {name}: move one creature of a kind shown, up to its "
                   f"max move, or none.")
        for kind in face:
            cids = sorted((c for c in s.creatures if piece_kind(c) == kind), key=id_key)
            where = ", ".join(f"{c} in {s.creatures[c]}"
                              + (" (held there until the next turn)" if c in s.held else "")
                              for c in cids) or "none on the board"
            out.append(f"#   {kind} (max {s.rules.max_move[kind]}): {where}")
        out.append("# creature CREATURE HEX [HEX...]")
        out.append("# creature stay")
        return "\n".join(out) + "\n"
    out.append(f"# Carried out in this order: play (kept tiles), moves as written "
               f"({s.rules.points} points: each hex entered, boarding, going ashore), sink, the "
               f"creature die.")
    mine = [p for p in _people(s) if p.owner == role and p.alive]
    for p in mine:
        where = {"land": f"on the tile at {p.hex}", "ship": f"aboard {p.ship} in "
                 f"{s.ships.get(p.ship)}", "sea": f"swimming in {p.hex}"}[p.where]
        out.append(f"#   {p.id} {where}")
    if kept:
        out.append(f"# Your kept tiles: {', '.join(kept)}")
        for k in sorted(set(kept)):
            if k in DIVES:
                out.append(f"# play {k} {DIVES[k]}N HEX")
            elif k in KILLS:
                out.append(f"# play {k} {KILLS[k]}N")
    out += ["# walk PERSON HEX [HEX...]", "# swim PERSON HEX [with DOLPHIN]",
            "# board PERSON HEX", "# ashore PERSON SAFE-HEX", "# sail SHIP HEX [HEX...]"]
    sinkable = s.sinkable()
    out.append(f"# Tiles you may sink now: {' '.join(sinkable) or 'none'}")
    out.append(f"# sink {sinkable[0] if sinkable else 'HEX'}")
    out.append("# Creature die faces: " + ", ".join(f"{i} {n}" for i, n in
                                                    enumerate(s.rules.face_names, start=1)))
    for kind in CREATURE_KINDS:
        cids = sorted((c for c in s.creatures if piece_kind(c) == kind), key=id_key)
        if cids:
            out.append(f"#   {kind} (max {s.rules.max_move[kind]}): "
                       + ", ".join(f"{c} in {s.creatures[c]}" for c in cids))
    out.append("# if KIND-OR-FACE: CREATURE HEX [HEX...]   or   if KIND-OR-FACE: stay")
    for tile in ("kill-shark", "kraken-killed"):
        out.append(f"# standing {tile} {'off' if standing.get(tile) else 'on'}")
    return "\n".join(out) + "\n"
