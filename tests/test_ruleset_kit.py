"""The Ruleset base class (pbem/engine/ruleset.py, issue 9 "The kit"): what a game must write,
what the defaults give, and the registry refusing a plugin that is not a Ruleset."""

from __future__ import annotations

import inspect

import pytest

from pbem.engine import registry
from pbem.engine.ruleset import OptionSpec, RoleSpec, Ruleset

REQUIRED = {"setup", "window", "parse", "check", "resolve", "view", "dump", "load", "template"}


def test_the_abstract_methods_are_the_ones_a_game_must_write():
    assert Ruleset.__abstractmethods__ == REQUIRED

    class Half(Ruleset):
        name, title, min_roles, max_roles, role_names = "half", "Half", 2, 2, ("a", "b")

        def setup(self, roles, options, data, board, chance):
            return {}, []

    with pytest.raises(TypeError, match="abstract"):
        Half()


def test_every_public_method_is_documented():
    for name, fn in inspect.getmembers(Ruleset, inspect.isfunction):
        if not name.startswith("_"):
            assert fn.__doc__ and len(fn.__doc__) > 20, name


@pytest.mark.parametrize("name", ["atlantis", "altassar"])
def test_the_games_are_rulesets_and_call_for_nothing_undeclared(name):
    """Every public method of a game's ruleset is one the base class declares: the engine, the
    reports and the CLI can rely on the base class alone."""
    rs = registry.get(name)
    assert isinstance(rs, Ruleset)
    own = {n for n, _ in inspect.getmembers(type(rs), inspect.isfunction) if not n.startswith("_")}
    assert own <= {n for n in dir(Ruleset) if not n.startswith("_")}, own - set(dir(Ruleset))


def test_the_games_defaults_match_what_they_declared_before():
    atl, alt = registry.get("atlantis"), registry.get("altassar")
    assert set(atl.options()) == {"ships", "volcano", "end"}
    assert atl.validate_options({"ships": "2"})["ships"] == 2
    with pytest.raises(ValueError, match="unknown option 'x' for atlantis"):
        atl.validate_options({"x": 1})
    assert set(alt.options()) == {"attrition", "escort"}
    assert atl.load_map(None, "").source == "pbem/games/atlantis/map.toml (stand-in)"
    assert alt.load_map(None, "").source == "pbem/games/altassar/map.toml (stand-in)"
    assert atl.load_map(None, "stand-in map").source == "stand-in map"
    assert atl.reserved_words() == alt.reserved_words() == ()
    assert alt.role_spec().fixed and not atl.role_spec().fixed


def test_the_test_toy_is_a_ruleset_without_a_board():
    import toygame

    rs = toygame.ruleset
    assert isinstance(rs, Ruleset)
    from pbem.boards.board import NO_BOARD

    assert rs.load_map(None, "stand-in map") is NO_BOARD
    with pytest.raises(ValueError, match="without a map"):
        rs.load_map("[map]\n", "my.toml")
    assert rs.reserved_words() == ("dig",)
    assert rs.role_spec() == RoleSpec(("red", "blue", "green", "white"))
    assert rs.options()["turns"] == OptionSpec(5, None, "number of turns", "Hunt 2", int)


def test_the_registry_refuses_what_is_not_a_ruleset(monkeypatch):
    class NotOne:
        name = "fake"

    with pytest.raises(registry.NotARuleset, match="'fake'.*not a pbem.engine.ruleset.Ruleset"):
        registry.register(NotOne())

    import toygame

    monkeypatch.setitem(registry.BUILT_IN, "fake", "toygame:Hunt")
    with pytest.raises(registry.NotARuleset, match=r"entry point fake = 'toygame:Hunt'.*instance"):
        registry.get("fake")
    monkeypatch.setitem(registry.BUILT_IN, "fake", "toygame:ruleset")
    with pytest.raises(registry.NotARuleset, match="calls itself 'hunt'"):
        registry.get("fake")
    assert "fake" not in registry._cache
    assert isinstance(toygame.ruleset, Ruleset)


def test_a_broken_plugin_is_a_clear_cli_error(monkeypatch):
    from click.testing import CliRunner

    from pbem.cli import main

    monkeypatch.setitem(registry.BUILT_IN, "fake", "toygame:HOLES")
    r = CliRunner().invoke(main, ["rules", "fake"])
    assert r.exit_code == 1 and "entry point fake = 'toygame:HOLES'" in r.output
    assert "not a pbem.engine.ruleset.Ruleset" in r.output
