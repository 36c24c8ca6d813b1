"""Escape from Atalix (shared/seeds/002_171ec0f1db0daf85.txt): a pbem ruleset for 1 to 4
players on one team, a cooperative deck-builder. The design by mail is README.md; the data and
the stand-in board are ``data.toml`` and ``map.toml`` (:mod:`.data`, :mod:`.board`).
"""

from .ruleset import ruleset

__all__ = ["ruleset"]
