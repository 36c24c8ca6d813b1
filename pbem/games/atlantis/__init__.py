"""Escape from Atlantis (Survive variant): the ``atlantis`` ruleset.

Exports ``ruleset`` (the engine contract, :class:`~pbem.games.atlantis.ruleset.AtlantisRuleset`).
The design of the game by mail is this package's README.md; every number lives in data.toml
with its source; the stand-in board is map.toml.
"""

from .ruleset import ruleset

__all__ = ["ruleset"]
