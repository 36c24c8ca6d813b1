"""The Atlantis board: checking that a map fits the rules (terrain types, 37 island hexes, 7 in
the centre, safe islands reachable by sea). The stand-in map (``map.toml``) and a referee's map
are loaded by the Ruleset base class (pbem.engine.ruleset.Ruleset.load_map).

Terrain types (docs/maps.md): ``island`` (a hex holding a land tile at the start; it becomes
sea when the tile sinks), ``sea``, ``safe`` (a safe island: Goal of the Game, The Safe Islands).
Groups: ``centre`` (required: the hexes of the city and fortresses, Preparing to Play 1),
``outer`` (optional: must be the other island hexes), ``nearly-safe`` (optional: the sea hexes
from which people go ashore, when a transcribed board limits them with coral reefs; without it
every sea hex next to a safe island is nearly safe).
"""

from __future__ import annotations

from pbem.boards.hexmap import HexMap, MapError

from .data import Rules

TERRAINS = ("island", "sea", "safe")


def check_map(hexmap: HexMap, data: dict) -> None:
    """Check that ``hexmap`` can carry the game described by ``data``; raise
    :class:`~pbem.boards.hexmap.MapError` naming the map and what was expected.

    - only the terrain types ``island``, ``sea`` and ``safe``;
    - as many island hexes as the manifest has tiles (37: Contents, Symbols Under Tiles);
    - a ``centre`` group of island hexes, as many as the centre kind's tiles (7: Preparing to
      Play 1); an ``outer`` group, if given, holding exactly the other island hexes;
    - at least one safe island, each next to at least one sea hex (a ``nearly-safe`` group, if
      given, holding only sea hexes next to a safe island).
    """
    rules = Rules.from_data(data)
    src = hexmap.source

    def fail(why: str):
        raise MapError(src, None, why)

    for t in hexmap.terrains():
        if t not in TERRAINS:
            fail(f"terrain {t!r} is not an Atlantis terrain: expected {', '.join(TERRAINS)}")
    island = hexmap.hexes("island")
    tiles = sum(rules.tiles_per_kind.values())
    if len(island) != tiles:
        fail(f"the map has {len(island)} island hexes: expected {tiles}, one per land tile of "
             f"the manifest ({', '.join(f'{n} {k}' for k, n in rules.tiles_per_kind.items())})")
    if not hexmap.has_group("centre"):
        fail("the map has no group 'centre': expected the hexes of the city and fortresses "
             "(Preparing to Play 1: 'the centre 7 spaces')")
    centre = hexmap.group("centre")
    need = rules.tiles_per_kind[rules.centre_kind]
    if len(centre) != need:
        fail(f"group 'centre' has {len(centre)} hexes: expected {need} (the "
             f"{rules.centre_kind} tiles, city included)")
    for h in centre:
        if hexmap.terrain(h) != "island":
            fail(f"group 'centre': hex {h} is {hexmap.terrain(h)}: expected island hexes")
    outer = [h for h in island if h not in centre]
    if hexmap.has_group("outer") and sorted(hexmap.group("outer")) != sorted(outer):
        fail("group 'outer' must hold exactly the island hexes outside the centre group")
    safes = hexmap.hexes("safe")
    if not safes:
        fail("the map has no safe island: expected terrain 'safe' (the corner islands)")
    for h in safes:
        if not any(hexmap.terrain(n) == "sea" for n in hexmap.neighbours(h)):
            fail(f"safe island {h} has no sea hex next to it: nobody could reach it")
    if hexmap.has_group("nearly-safe"):
        for h in hexmap.group("nearly-safe"):
            if hexmap.terrain(h) != "sea" or not any(
                    hexmap.terrain(n) == "safe" for n in hexmap.neighbours(h)):
                fail(f"group 'nearly-safe': hex {h} is not a sea hex next to a safe island")
