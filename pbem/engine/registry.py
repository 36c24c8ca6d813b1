"""Finding rulesets: the ``pbem.rulesets`` entry-point group (DESIGN.md, "The ruleset interface").

A third party adds a game by declaring, in its own package,
``[project.entry-points."pbem.rulesets"] mygame = "mypkg:ruleset"``.
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import entry_points

BUILT_IN = {"atlantis": "pbem.games.atlantis:ruleset",
            "altassar": "pbem.games.altassar:ruleset"}
"""Rulesets shipped with pbem, found even when the package metadata is not installed."""

_cache: dict = {}


class UnknownRuleset(LookupError):
    """No ruleset of that name is installed."""


def available() -> list[str]:
    """Names of every installed ruleset, sorted."""
    names = set(BUILT_IN)
    names.update(ep.name for ep in entry_points(group="pbem.rulesets"))
    return sorted(names)


def get(name: str):
    """The ruleset object registered as ``name``; UnknownRuleset lists the installed ones."""
    if name in _cache:
        return _cache[name]
    target = None
    for ep in entry_points(group="pbem.rulesets"):
        if ep.name == name:
            target = ep.value
            break
    target = target or BUILT_IN.get(name)
    if target is None:
        raise UnknownRuleset(f"no ruleset {name!r}; installed: {', '.join(available())}")
    module, _, attr = target.partition(":")
    ruleset = getattr(import_module(module), attr)
    _cache[name] = ruleset
    return ruleset


def roles_text(name: str) -> str:
    """How many players the ruleset ``name`` takes and which role names (for ``pbem rules``
    and ``pbem game new --help``), e.g. "2 players, each of the roles confederation, spikus".
    Raises UnknownRuleset."""
    from pbem.engine.ruleset import role_spec

    rs = get(name)
    return role_spec(rs).describe(rs.min_roles, rs.max_roles)
