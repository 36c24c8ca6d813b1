"""The Altassar mapsheet: checking that a map fits the rules (docs/maps.md, "Escape from
Altassar"). The stand-in map (``map.toml``) and a referee's map are loaded by the Ruleset base
class (pbem.engine.ruleset.Ruleset.load_map).

Terrain types: the seven of the Terrain Effects Chart (5.31): ``clear``, ``prison``, ``rough``,
``rain-forest``, ``hills``, ``cascades``, ``quagmire``. Groups: ``prison`` (required: the prison
hexes of 12.1 and 18.4, each of terrain ``prison``), ``exit`` (required: the hexes of the map
edge directly opposite the prison, 20.0), ``turn-track`` (optional: the Game Turn track starting
at 0101, 4.2).
"""

from __future__ import annotations

from pbem.boards.hexmap import HexMap, MapError

from .data import TERRAINS


GROUPS = ("prison", "exit", "turn-track")
"""The groups a map may name (module docstring); any other is a typing error."""


def check_map(hexmap: HexMap, data: dict) -> None:
    """Raise :class:`MapError` (naming the map) unless ``hexmap`` uses only the seven terrain
    types, has a ``prison`` group of prison hexes and an ``exit`` group on one map edge."""
    src = hexmap.source

    def fail(why: str):
        raise MapError(src, None, why)

    for t in hexmap.terrains():
        if t not in TERRAINS:
            fail(f"terrain {t!r} is not one of the Terrain Effects Chart (5.31): expected "
                 f"{', '.join(TERRAINS)}")
    for g in hexmap.groups():
        if g not in GROUPS:
            fail(f"unknown group {g!r}: expected {', '.join(GROUPS)} (docs/maps.md, Escape from "
                 "Altassar)")
    for g in ("prison", "exit"):
        if not hexmap.has_group(g) or not hexmap.group(g):
            fail(f"the map needs a [groups] {g} list (12.1, 20.0; docs/maps.md)")
    for h in hexmap.group("prison"):
        if hexmap.terrain(h) != "prison":
            fail(f"prison hex {h} has terrain {hexmap.terrain(h)!r}: expected 'prison'")
    for h in hexmap.group("exit"):
        if len(hexmap.neighbours(h)) == 6:
            fail(f"exit hex {h} is not on the map edge (20.0: the mapsheet edge opposite the "
                 "prison)")
