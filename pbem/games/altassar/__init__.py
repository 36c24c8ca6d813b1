"""Escape from Altassar: the ``altassar`` ruleset.

Exports ``ruleset`` (the engine contract, :class:`~pbem.games.altassar.ruleset.AltassarRuleset`).
The design of the game by mail is this package's README.md; every number lives in data.toml
with its source; the stand-in mapsheet is map.toml.
"""

from .ruleset import ruleset

__all__ = ["ruleset"]
