"""TEMPORARY (lead): modules being written by others, imported when first used."""
import importlib


class _Lazy:
    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        return getattr(importlib.import_module(f"pbem.games.olympica.{self._name}"), attr)


drops, lifters, ranged, tunnels = (_Lazy(n) for n in ("drops", "lifters", "ranged", "tunnels"))
