"""Olympica (shared/seeds/001_746aff674b41fe2c.txt): a pbem ruleset for two players, the Web
player and the U.N. player. The design by mail is README.md; the data and the stand-in map are
``data.toml`` and ``map.toml`` (:mod:`.data`).
"""

from .ruleset import ruleset

__all__ = ["ruleset"]
