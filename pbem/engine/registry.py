"""Finding rulesets: the ``pbem.rulesets`` entry-point group (DESIGN.md, "The ruleset interface").

A third party adds a game by declaring, in its own package,
``[project.entry-points."pbem.rulesets"] mygame = "mypkg:ruleset"``, where ``ruleset`` is an
instance of a :class:`~pbem.engine.ruleset.Ruleset` subclass (docs/rulesets.md).
"""

from __future__ import annotations

from importlib import import_module

BUILT_IN = {"atlantis": "pbem.games.atlantis:ruleset",
            "altassar": "pbem.games.altassar:ruleset",
            "attackforce": "pbem.games.attackforce:ruleset",
            "olympica": "pbem.games.olympica:ruleset",
            "atalix": "pbem.games.atalix:ruleset"}
"""Rulesets shipped with pbem, found even when the package metadata is not installed, and
without reading it: their names are pbem's, and an entry point of the same name is not looked
at (the installed packages' metadata takes a command tens of milliseconds to read)."""

_cache: dict = {}


class UnknownRuleset(LookupError):
    """No ruleset of that name is installed."""


class NotARuleset(UnknownRuleset):
    """An entry point (or :func:`register`) names an object that is not a
    :class:`~pbem.engine.ruleset.Ruleset` instance, or one whose ``name`` differs from the
    entry point's: the game cannot be played. The message names the entry point."""


def _checked(name: str, target: str, ruleset):
    """``ruleset`` when it is a Ruleset instance named ``name``; NotARuleset otherwise."""
    from pbem.engine.ruleset import Ruleset

    if isinstance(ruleset, type) and issubclass(ruleset, Ruleset):
        raise NotARuleset(f"ruleset {name!r} ({target}) is the class {ruleset.__name__}: the "
                          f"entry point must name an instance of it (ruleset = "
                          f"{ruleset.__name__}())")
    if not isinstance(ruleset, Ruleset):
        raise NotARuleset(f"ruleset {name!r} ({target}) is a {type(ruleset).__name__}, not a "
                          f"pbem.engine.ruleset.Ruleset: subclass Ruleset (docs/rulesets.md)")
    if ruleset.name != name:
        raise NotARuleset(f"ruleset {name!r} ({target}) calls itself {ruleset.name!r}: the entry "
                          f"point's name and the ruleset's name must be the same")
    return ruleset


def _entry_points():
    """The entry points of the group ``pbem.rulesets`` (read from the installed packages'
    metadata)."""
    from importlib.metadata import entry_points

    return entry_points(group="pbem.rulesets")


def available() -> list[str]:
    """Names of every installed ruleset, sorted."""
    names = set(BUILT_IN)
    names.update(ep.name for ep in _entry_points())
    return sorted(names)


def get(name: str):
    """The ruleset object registered as ``name``; UnknownRuleset lists the installed ones."""
    if name in _cache:
        return _cache[name]
    target = BUILT_IN.get(name)
    if target is None:
        target = next((ep.value for ep in _entry_points() if ep.name == name), None)
    if target is None:
        raise UnknownRuleset(f"no ruleset {name!r}; installed: {', '.join(available())}")
    module, _, attr = target.partition(":")
    ruleset = _checked(name, f"entry point {name} = {target!r} in group pbem.rulesets",
                       getattr(import_module(module), attr))
    _cache[name] = ruleset
    return ruleset


def register(ruleset) -> None:
    """Make ``ruleset`` (a :class:`~pbem.engine.ruleset.Ruleset` instance) available as
    ``ruleset.name`` in this process, beside the installed ones: for tests and for a program
    that embeds pbem. Raises NotARuleset."""
    name = getattr(ruleset, "name", None) or type(ruleset).__name__
    _cache[name] = _checked(name, "registered in-process", ruleset)


def unregister(name: str) -> None:
    """Forget a ruleset given to :func:`register` (and any cached one named ``name``)."""
    _cache.pop(name, None)


def roles_text(name: str) -> str:
    """How many players the ruleset ``name`` takes and which role names (for ``pbem rules``
    and ``pbem game new --help``), e.g. "2 players, each of the roles confederation, spikus".
    Raises UnknownRuleset."""
    rs = get(name)
    return rs.role_spec().describe(rs.min_roles, rs.max_roles)
