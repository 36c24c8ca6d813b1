"""Attack Force (shared/seeds/003_4e91702e1e56808e.txt): a pbem ruleset in the making.

So far: the data (``data.toml``, :mod:`.data`), the stand-in board (``map.toml``) and the design
by mail (README.md). The ruleset and its entry point come when every rule is in (issue 9).
"""
