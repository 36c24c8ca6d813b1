"""Escape from Atalix (shared/seeds/002_171ec0f1db0daf85.txt): a cooperative deck-builder.

The package is being built; nothing registers it yet. The stand-in board is ``map.toml``,
read through :mod:`.board`.
"""
