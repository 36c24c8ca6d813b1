"""docs/rulesets.md: its example ruleset "Dice Race" is installed from the page itself (the
code blocks whose first line names a file of ``racegame/``), registered and played through
the engine, so the guide cannot drift from the interface."""

from __future__ import annotations

import importlib
import random
import re
import sys
from pathlib import Path

import pytest
from gameplay import new_game, play

from pbem.boards.board import NO_BOARD
from pbem.engine import registry
from pbem.engine.creation import GameSpec
from pbem.engine.errors import GameError
from pbem.engine.ruleset import DataError, Ruleset

DOC = Path(__file__).resolve().parents[1] / "docs" / "rulesets.md"
BLOCK = re.compile(r"```(?:python|toml)\n# (racegame/[\w.]+)\n(.*?)```", re.S)


def page_files() -> dict:
    """``{path: text}`` of the example package as the page writes it."""
    return {m.group(1): f"# {m.group(1)}\n{m.group(2)}" for m in BLOCK.finditer(
        DOC.read_text(encoding="utf-8"))}


@pytest.fixture
def race(tmp_path, monkeypatch):
    for path, text in page_files().items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for m in [m for m in sys.modules if m == "racegame" or m.startswith("racegame.")]:
        monkeypatch.delitem(sys.modules, m)
    module = importlib.import_module("racegame")
    registry.register(module.ruleset)
    yield module.ruleset
    registry.unregister("race")
    for m in [m for m in sys.modules if m == "racegame" or m.startswith("racegame.")]:
        sys.modules.pop(m, None)


def test_the_page_holds_the_whole_example_package():
    assert set(page_files()) == {"racegame/__init__.py", "racegame/data.toml",
                                 "racegame/ruleset.py"}


def test_the_example_is_a_ruleset_with_the_defaults_the_page_claims(race):
    assert isinstance(race, Ruleset)
    assert race.validate_options({}) == {"turns": 10}
    assert race.validate_options({"turns": "5"}) == {"turns": 5}
    with pytest.raises(ValueError, match="turns"):
        race.validate_options({"turns": "7"})
    data = race.load_data({"goal": 30})
    assert data["goal"] == {"value": 30, "source": "house rules"}
    assert race.load_data(None)["goal"]["value"] == 20
    with pytest.raises(DataError, match="unknown key 'lap'"):
        race.load_data({"lap": 2})
    with pytest.raises(DataError, match="house rules: goal"):
        race.load_data({"goal": 0})
    assert race.load_map(None, "") is NO_BOARD
    assert race.stand_ins(race.load_data(None), {"turns": 10}, NO_BOARD) == [
        "goal: value = 20 (stand-in: the race's length is not in any rulebook; 20 steps end it "
        "in 5 to 10 turns)"]
    text = race.rules_text(race.load_data(None), {"turns": 10})
    assert "die: value = 6 (Dice Race 2: a six-sided die)" in text and "turns = 10" in text
    assert race.reserved_words() == ("walk", "roll", "boost")
    assert race.text_map({}) == "" and race.draw({}) is None


def test_the_example_plays_a_game_through_the_engine(race, referee, clock):
    from pbem.verify import verify_log

    players = new_game(referee, "race", ("red", "blue", "green"), "race1", {"turns": "5"})
    sent = play(referee, clock, players, "race1", random.Random(7), nmr_rate=0.1)
    assert 1 <= len(sent) <= 5
    assert referee.status("race1")[0]["window"] is None
    assert verify_log(referee.log_lines("race1")).ok
    setup = referee.report("race1", "red", phase="setup")
    assert "Map: no board" in setup and "goal: value = 20" in setup


def test_the_example_keeps_each_bonus_to_its_runner(race):
    class Dice:
        def __init__(self):
            self.n = 0

        def roll(self, sides, why):
            self.n += 1
            return (self.n - 1) % sides + 1

        def shuffle(self, items, why):
            return list(items)

    from pbem.engine.ruleset import Chance

    state, _ = race.setup(["red", "blue"], {"turns": 5}, race.load_data(None), NO_BOARD,
                          Chance(Dice(), Dice()))
    parts = race.dump(state)
    assert race.load(parts) == state
    assert "bonus" not in parts.public and parts.secret["red"] == {"bonus": 1}
    assert race.view(state, "red")["bonus"] == 1 and "bonus" not in race.view(state, "*")
    assert race.view(state, "blue")["bonus"] == 2


def test_a_role_named_after_an_order_word_is_refused(race, referee):
    from conftest import Player

    p = {r: Player(r, seed=f"rw/{r}", referee=referee) for r in ("red", "roll")}
    with pytest.raises(GameError, match="'roll' is a word of race's orders"):
        referee.new_game(GameSpec("race", "rw", (p["red"].spec(), p["roll"].spec()), {},
                                  referee_address="referee@judge.example"))
