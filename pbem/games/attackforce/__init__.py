"""Attack Force (shared/seeds/003_4e91702e1e56808e.txt): a pbem ruleset for two players, the
Arcturan Player and the Empire Player. The design by mail is README.md; the data and the
stand-in board are ``data.toml`` and ``map.toml`` (:mod:`.data`).
"""

from .ruleset import ruleset

__all__ = ["ruleset"]
