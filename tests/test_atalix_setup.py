"""Escape from Atalix, "SETUP": one case per step of the rulebook's setup, on the stand-in map."""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

from pbem.boards.hexmap import load_map
from pbem.games.atalix.board import Board
from pbem.games.atalix.planning import card_type
from pbem.games.atalix.setup import choose, new_game

HERE = Path(__file__).parents[1] / "pbem" / "games" / "atalix"
DATA = tomllib.loads((HERE / "data.toml").read_text(encoding="utf-8"))
MAP = load_map((HERE / "map.toml").read_text(encoding="utf-8"), "map.toml")


class Dice:
    def __init__(self, rolls=()):
        self.rolls = list(rolls)

    def roll(self, sides, why):
        return self.rolls.pop(0) if self.rolls else 1

    def shuffle(self, items, why):
        return list(items)


class Chance:
    def __init__(self, public=(), hidden=()):
        self.public, self.hidden = Dice(public), Dice(hidden)


def game(players=3, public=(5, 2, 4), difficulty=1):
    roles = ["red", "green", "blue", "yellow"][:players]
    return new_game(roles, {"scenario": 1, "difficulty": difficulty}, DATA, MAP, Chance(public))


def test_starting_deck_2_action_oxygen_research_upgrade_and_a_gain_resource():
    s = game()
    for p in s.players.values():
        kinds = Counter(card_type(c) for c in p.hand)
        assert (kinds["action"], kinds["oxygen"], kinds["research"], kinds["upgrade"]) == (
            2, 1, 1, 1)
        assert sum(n for k, n in kinds.items() if k.startswith("gain-")) == 1


def test_first_player_is_the_lowest_roll_and_ties_roll_again():
    assert game(public=(5, 2, 4)).first_player() == "green"
    # red and blue tie on 1; they roll again: red 6, blue 3 -> blue
    assert game(public=(1, 4, 1, 6, 3)).first_player() == "blue"


def test_board_setup_pawns_resources_cubes_alien_and_the_first_storm_token():
    s = game(players=3)
    b = Board(MAP)
    assert set(s.pawns.values()) == {b.center}  # "place their player pawn on the center space"
    # "Add one scrap per player, and two each of carbon and minerals"
    assert s.world["team"] == {"scrap": 3, "carbon": 2, "minerals": 2}
    # "place resource cubes directly onto each number on the board"
    numbered = [h for h in b.spaces() if b.info(h).numbers and b.info(h).resource]
    assert sorted(s.world["resources"]) == sorted(numbered)
    assert s.world["resources"]["0504"] == "scrap"  # "an orange cube on the number two directly
    # above the center board space"
    assert s.world["alien"] == b.alien_start and s.world["storm"] == {b.storm_origin: 1}


def test_the_upgrade_deck_leaves_out_the_scanner_and_terraform_tool_and_shows_five():
    s = game()
    assert len(s.market.row) == 5
    held = list(s.market.row) + list(s.market.deck)
    assert not any(card_type(c) in ("scanner", "terraform-tool") for c in held)


def test_two_more_cards_chosen_in_turn_and_the_oxygen_card_active_by_default():
    s = game(players=2, public=(2, 5))  # red is first
    problems = choose(s, {"red": ["action", "action"], "green": ["upgrade"]}, {}, Chance())
    assert problems == []
    red = s.players["red"]
    assert [card_type(c) for c in red.active] == ["oxygen"]
    assert Counter(card_type(c) for c in red.deck)["action"] == 4  # 2 dealt + 2 chosen
    assert len(red.deck) == 7 and len(s.players["green"].deck) == 7  # 8 cards, 1 active
    assert s.stage == "plan" and s.round == 1


def test_an_active_card_the_player_does_not_hold_falls_back_to_oxygen():
    s = game(players=2, public=(2, 5))
    problems = choose(s, {}, {"red": "jet-pack"}, Chance())
    assert problems and problems[0][0] == "red"
    assert card_type(s.players["red"].active[0]) == "oxygen"


def test_harder_difficulty_starts_further_along_the_round_track():
    assert game(difficulty=3).world["round_pos"] > game(difficulty=1).world["round_pos"]
