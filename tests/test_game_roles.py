"""`pbem game new` takes only the role names a ruleset plays with (issue 8, "What a new user ran
into"): `--player red=...` for Altassar used to create a game that waited forever for orders
from `confederation`, a role nobody held.

The role names expected are those of the Altassar README (pbem/games/altassar/README.md: "Two
roles: `confederation` (the prisoners) and `spikus`"), written out here, not read from the
code."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pbem.cli import main

ALTASSAR_ROLES = ("confederation", "spikus")  # pbem/games/altassar/README.md, line 3


@pytest.fixture
def run(tmp_path):
    home = tmp_path / "home"

    def _run(*args, ok=True):
        r = CliRunner().invoke(main, ["--home", str(home), "--now", "2026-11-29T20:00:00Z",
                                      *args], catch_exceptions=False)
        if ok:
            assert r.exit_code == 0, r.output
        return r

    _run("init")
    for name in ("a", "b", "c"):
        _run("keygen", name, "--dir", str(tmp_path / "k"))
    _run.key = lambda name: tmp_path / "k" / f"{name}.pub"
    return _run


def new_game(run, ruleset, roles, ok=False, game_id="g1"):
    args = ["game", "new", ruleset, "--id", game_id, "--from", "ref@judge.example"]
    for role, key in zip(roles, "abc"):
        args += ["--player", f"{role}={role}@players.example:{run.key(key)}"]
    return run(*args, ok=ok)


def test_the_altassar_readme_names_the_roles_this_test_expects():
    from pathlib import Path

    readme = (Path(__file__).parent.parent / "pbem" / "games" / "altassar" / "README.md").read_text()
    assert all(f"`{r}`" in readme for r in ALTASSAR_ROLES), "the README's roles changed"


def test_altassar_with_colour_roles_is_refused_naming_the_roles_expected(run):
    # the new user's command line, as reported
    r = new_game(run, "altassar", ("red", "blue"))
    assert r.exit_code == 1
    assert "no role 'red', 'blue'" in r.output
    assert "missing confederation, spikus" in r.output
    assert "confederation, spikus" in r.output.split("the game takes")[1]
    assert "no games" in run("status").output  # nothing was created


@pytest.mark.parametrize("roles,words", [
    (("confederation",), "missing spikus"),
    (("confederation", "red"), "no role 'red'; missing spikus"),
    (("spikus", "spikus"), "role 'spikus' is given twice"),
    (("confederation", "spikus", "red"), "no role 'red'"),
])
def test_altassar_unknown_missing_or_repeated_roles_are_refused(run, roles, words):
    r = new_game(run, "altassar", roles)
    assert r.exit_code == 1 and words in r.output, r.output
    assert "no games" in run("status").output


def test_altassar_takes_its_two_roles_in_either_seat_order(run):
    r = new_game(run, "altassar", ("spikus", "confederation"), ok=True)
    assert "created" in r.output
    status = json.loads(run("status", "g1", "--json").output)[0]
    assert [p["role"] for p in status["players"]] == ["spikus", "confederation"]
    # the first window owes orders from a role that a player holds (Breakout, 12.0)
    assert status["window"]["owed"] == ["confederation"]


def test_atlantis_takes_names_of_letters_and_refuses_a_digit(run):
    # people are named by role and number (red3): "red2" would make "red23" ambiguous
    r = new_game(run, "atlantis", ("red2", "blue"))
    assert r.exit_code == 1 and "role 'red2': expected lower-case letters only" in r.output
    assert "2 to 4 players" in r.output
    r = new_game(run, "atlantis", ("alice", "bob"), ok=True)
    assert "created" in r.output


def test_a_ruleset_without_role_spec_takes_any_names(referee, players):
    """The default of the interface (tests/toygame.py declares no role_spec): any role name
    of letters and digits; a count outside min_roles..max_roles is refused with the count."""
    from pbem.engine.creation import GameSpec
    from pbem.engine.errors import GameError

    p = players
    referee.new_game(GameSpec("hunt", "h1", (p["red"].spec(), p["blue"].spec()), {}))
    with pytest.raises(GameError, match=r"takes 2 to 4 players, .*; 1 given"):
        referee.new_game(GameSpec("hunt", "h2", (p["red"].spec(),), {}))
    with pytest.raises(GameError, match="role 'Red!'"):
        from dataclasses import replace

        referee.new_game(GameSpec("hunt", "h3", (replace(p["red"].spec(), role="Red!"),
                                                 p["blue"].spec()), {}))


def test_game_new_help_lists_each_rulesets_roles():
    out = CliRunner().invoke(main, ["game", "new", "--help"]).output
    section = out.split("Roles of each ruleset")[1]
    lines = {line.split()[0]: line for line in section.splitlines()[1:] if line.startswith("  ")
             and line.split()}
    assert all(r in lines["altassar"] for r in ALTASSAR_ROLES)
    assert "atlantis" in lines and "2 to 4 players" in section


def test_rules_lists_the_roles():
    out = CliRunner().invoke(main, ["rules", "altassar"]).output
    first = out.split("\n\n")[0]
    assert first.startswith("Roles") and all(r in first for r in ALTASSAR_ROLES)
    assert "2 players" in first


def test_pbem_help_loads_no_ruleset():
    """`pbem --help` stays a cold start: the roles of the epilog are read only when `game new
    --help` is shown."""
    import subprocess
    import sys

    code = ("import sys; from pbem.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "bad = [m for m in sys.modules if m.startswith(('pbem.games', 'sqlalchemy', "
            "'cryptography', 'jinja2'))]\n"
            "print('LOADED', bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip().endswith("LOADED []"), out
