"""A ruleset wired to its package's modules by convention: :class:`PackageRuleset`.

Issue 9 ("The kit"): a game's ``ruleset.py`` is a short adapter. Most of a ruleset's methods are
functions of the game's own modules, and the built-in games lay them out alike: ``state.py``
holds ``view``, ``dump`` and ``load``; ``turns.py`` ``setup``, ``window`` and ``resolve``;
``orders.py`` ``parse``; ``checking.py`` ``check``; ``texts.py`` ``template``, ``rules_text``
and ``stand_ins``; ``bots.py`` ``bot_orders`` or ``propose``; ``draw.py`` ``draw``
(:data:`LAYOUT`). A subclass of :class:`PackageRuleset` gets each method whose function its
package has there, unless the class writes the method itself; ``modules`` names another module
for a method (``{"window": "windows"}``). A method none of them gives keeps the
:class:`~pbem.engine.ruleset.Ruleset` default, or stays abstract (``Ruleset()`` of the class then
raises ``TypeError`` naming it, as for any ruleset).
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import lru_cache
from typing import Any, ClassVar, Mapping

from pbem.engine.ruleset import Ruleset

__all__ = ["LAYOUT", "PackageRuleset"]

LAYOUT: Mapping[str, str] = {
    "setup": "turns", "window": "turns", "resolve": "turns",
    "parse": "orders", "check": "checking",
    "view": "state", "dump": "state", "load": "state",
    "template": "texts", "rules_text": "texts", "stand_ins": "texts",
    "bot_orders": "bots", "propose": "bots",
}
"""Where a :class:`PackageRuleset` looks for each method's function: method -> module of the
package (``draw`` is looked up in ``draw.py`` when first called, see
:meth:`PackageRuleset.draw`)."""


class PackageRuleset(Ruleset):
    """A :class:`~pbem.engine.ruleset.Ruleset` whose methods are the functions of its package's
    modules laid out as :data:`LAYOUT` says (module docstring). ``modules``: method -> module,
    for a game whose function lives elsewhere. The functions are bound when the class is made
    (``staticmethod``: they take the method's arguments without ``self``)."""

    modules: ClassVar[Mapping[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        package = cls.package or cls.__module__.rpartition(".")[0]
        layout = {**LAYOUT, **cls.modules}
        for method, module in layout.items():
            if method in cls.__dict__:
                continue  # the class writes it itself
            name = f"{package}.{module}"
            if importlib.util.find_spec(name) is None:
                continue
            function = getattr(importlib.import_module(name), method, None)
            if function is not None:
                setattr(cls, method, staticmethod(function))

    def draw(self, view: dict):
        """The ``draw(view)`` of the package's ``draw.py``, imported when first needed (the
        command line starts without the drawing code); None when there is none."""
        module = _draw_module(self.package_name())
        return None if module is None else module.draw(view)


@lru_cache(maxsize=64)
def _draw_module(package: str):
    """The ``draw`` module of ``package``, or None when it has none (looked up once)."""
    name = f"{package}.draw"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)
