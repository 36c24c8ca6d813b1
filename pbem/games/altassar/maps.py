"""The Altassar mapsheet: the stand-in map, loading a referee's map, and checking that a map
fits the rules (docs/maps.md, "Escape from Altassar").

Terrain types: the seven of the Terrain Effects Chart (5.31): ``clear``, ``prison``, ``rough``,
``rain-forest``, ``hills``, ``cascades``, ``quagmire``. Groups: ``prison`` (required: the prison
hexes of 12.1 and 18.4, each of terrain ``prison``), ``exit`` (required: the hexes of the map
edge directly opposite the prison, 20.0), ``turn-track`` (optional: the Game Turn track starting
at 0101, 4.2).
"""

from __future__ import annotations

from pbem.boards.hexmap import HexMap, MapError, load_map as _load_map
from pbem.resources import package_text

from .data import TERRAINS

STAND_IN_SOURCE = "pbem/games/altassar/map.toml (stand-in)"

GROUPS = ("prison", "exit", "turn-track")
"""The groups a map may name (module docstring); any other is a typing error."""


def stand_in_text() -> str:
    """The text of the stand-in map shipped with the ruleset."""
    return package_text(__package__, "map.toml")


def load_map(text: str | None, source: str) -> HexMap:
    """The map in ``text`` (named ``source`` in messages), or the stand-in when ``text`` is
    None. Raises :class:`~pbem.boards.hexmap.MapError`."""
    if text is None:
        return _load_map(stand_in_text(), source or STAND_IN_SOURCE)
    return _load_map(text, source)


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
