"""Escape from Atalix, the Planning Phase of one player (pbem/games/atalix/planning.py). Each case
cites the rulebook section ("Planning Phase", "Setup: Active Card") and works its values by hand
from the rulebook's text and data.toml's cards; decks are in a fixed order (the top first)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pbem.cards import PlayerCards
from pbem.games.atalix.planning import PlanError, card_type, plan_turn

DATA = Path(__file__).parents[1] / "pbem" / "games" / "atalix" / "data.toml"
CARDS = tomllib.loads(DATA.read_text(encoding="utf-8"))["cards"]
DECK = ["action-1", "action-2", "research-1", "upgrade-1", "swap-gear-1", "gain-scrap-1",
        "scanner-1"]


def player_with(deck=DECK, active=()):
    """A player whose deck is ``deck`` (top first) and who has drawn the hand of 4 ("Every
    player should start this phase by drawing 4 cards")."""
    player = PlayerCards(deck=deck, active=active)
    player.draw(4)
    return player


def test_card_type_is_the_id_without_the_number():
    assert card_type("oxygen-1") == "oxygen"
    assert card_type("gain-scrap-12") == "gain-scrap"
    for bad in ("oxygen", "oxygen-", "-1", "Oxygen-1", 7):
        with pytest.raises(PlanError, match="expected a card instance"):
            card_type(bad)


def test_planning_phase_1_play_by_default():
    # "By default, players can play a single card on their turn, or in other words they have 1
    # play": no active card, two cards played, the second is refused
    player = player_with()
    plan = plan_turn(CARDS, player, [(1, "action-1", []), (2, "action-2", [])],
                     research_level=1, active=[])
    assert plan.played == ["action-1"] and player.played == ["action-1"]
    assert plan.actions == 1  # Action: +1 Action; the basic budget starts at 0
    assert [(p[0], p[1]) for p in plan.problems] == [(2, "Planning Phase")]
    assert "action-2" in plan.problems[0][2] and "no play left" in plan.problems[0][2]
    assert plan.plays_left == 0


def test_planning_phase_oxygen_active_gives_1_more_play():
    # "Many cards, including the Oxygen card (your recommended active card) grant additional
    # plays": 1 + 1 = 2 plays; actions: Oxygen's +1 and two Action cards' +1 each = 3
    player = player_with(active=["oxygen-1"])
    plan = plan_turn(CARDS, player, [(1, "action-1", []), (2, "action-2", [])],
                     research_level=1, active=["oxygen-1"])
    assert plan.played == ["action-1", "action-2"] and plan.problems == []
    assert plan.actions == 3
    assert [(a["card"], a["what"]) for a in plan.abilities] == [
        ("oxygen-1", "actions"), ("action-1", "actions"), ("action-2", "actions")]
    # level I: Oxygen's "III - Draw 1 card" is not resolved, the deck keeps its 3 cards
    assert player.deck.to_json() == ["swap-gear-1", "gain-scrap-1", "scanner-1"]


def test_planning_phase_oxygen_III_draw_1_only_at_level_III():
    # "The third ability on your oxygen card 'III - Draw 1 card' cannot be resolved until you have
    # reached the III spot on the research track"
    at_2 = player_with(active=["oxygen-1"])
    plan = plan_turn(CARDS, at_2, [], research_level=2, active=["oxygen-1"],
                     active_choices={"oxygen-1": [2]})
    assert len(at_2.deck) == 3
    assert [(p[0], p[1]) for p in plan.problems] == [(None, "Setup: Active Card")]
    assert "needs research level III" in plan.problems[0][2]
    at_3 = player_with(active=["oxygen-1"])
    plan = plan_turn(CARDS, at_3, [], research_level=3, active=["oxygen-1"])
    assert at_3.deck.to_json() == ["gain-scrap-1", "scanner-1"]  # swap-gear-1 was drawn
    assert plan.problems == [] and "swap-gear-1" in at_3.discard


def test_planning_phase_a_drawn_card_can_be_played_on_a_later_line():
    # Bold abilities "should be carried out immediately after playing the card": Oxygen (active)
    # at III draws swap-gear-1; Swap Gear's Draw 1 then draws gain-scrap-1; both are played
    # with Oxygen's 2 plays
    player = player_with(active=["oxygen-1"])
    plan = plan_turn(CARDS, player, [(1, "swap-gear-1", []), (2, "gain-scrap-1", [])],
                     research_level=3, active=["oxygen-1"])
    assert plan.problems == [] and plan.played == ["swap-gear-1", "gain-scrap-1"]
    assert plan.actions == 2  # Oxygen +1, Swap Gear +1
    assert [(a["card"], a["what"], a.get("resource")) for a in plan.abilities] == [
        ("oxygen-1", "actions", None), ("swap-gear-1", "actions", None),
        ("gain-scrap-1", "gain", "scrap")]
    assert player.deck.to_json() == ["scanner-1"]


def test_planning_phase_or_scanner_scan_or_look():
    # "All card abilities listed are available to players, unless there is an OR written between
    # abilities": the Scanner (Card Elaborations) scans for parts OR looks at the Upgrade deck
    deck = ["scanner-1", "action-1", "action-2", "research-1"]
    by_default = player_with(deck)
    plan = plan_turn(CARDS, by_default, [(1, "scanner-1", [])], research_level=1, active=[])
    assert [a["what"] for a in plan.abilities] == ["scan"] and plan.deferred == []
    look = player_with(deck)
    plan = plan_turn(CARDS, look, [(1, "scanner-1", [1])], research_level=1, active=[])
    assert [(a["what"], a["index"]) for a in plan.abilities] == [("look", 1)]
    assert plan.deferred == []  # both Action Phase abilities (tools.py, Look)
    both = player_with(deck)
    plan = plan_turn(CARDS, both, [(1, "scanner-1", [0, 1]), (2, "action-1", [])],
                     research_level=1, active=[])
    assert [(p[0], p[1]) for p in plan.problems] == [(1, "Planning Phase")]
    assert "OR" in plan.problems[0][2]
    assert plan.played == ["action-1"] and "scanner-1" in both.discard


def test_planning_phase_too_many_plays_refused_the_rest_carried_out():
    # 1 play; Oxygen played from the hand uses it and gives +1; a card not in the hand and a
    # gated choice are refused without using a play; the third card finds no play left
    deck = ["oxygen-2", "action-1", "action-2", "research-1"]
    player = player_with(deck)
    lines = [(1, "weapons-1", []), (2, "oxygen-2", [2]), (3, "oxygen-2", []),
             (4, "action-1", []), (5, "action-2", [])]
    plan = plan_turn(CARDS, player, lines, research_level=1, active=[])
    assert plan.played == ["oxygen-2", "action-1"]
    assert [p[0] for p in plan.problems] == [1, 2, 5]
    assert "not in the hand" in plan.problems[0][2]
    assert "needs research level III" in plan.problems[1][2]
    assert "no play left" in plan.problems[2][2]
    assert plan.actions == 2  # Oxygen +1 Action, Action +1


def test_planning_phase_a_draw_must_be_carried_out_in_full():
    # "if a player chooses to carry out an ability it must be carried out in full": with the deck
    # empty, Swap Gear's Draw 1 cannot be chosen; by default it is passed over
    deck = ["swap-gear-1", "swap-gear-2", "action-1", "oxygen-2"]
    player = player_with(deck)
    lines = [(1, "oxygen-2", []), (2, "swap-gear-1", [0]), (3, "swap-gear-2", [])]
    plan = plan_turn(CARDS, player, lines, research_level=3, active=[])
    assert plan.played == ["oxygen-2", "swap-gear-2"]
    assert [p[0] for p in plan.problems] == [2] and "in full" in plan.problems[0][2]
    assert plan.actions == 2 and len(player.deck) == 0


def test_planning_phase_unplayed_cards_are_discarded():
    # "Any cards remaining in a player's hand are discarded into a discard pile"
    player = player_with()
    plan_turn(CARDS, player, [(1, "research-1", [])], research_level=1, active=[])
    assert player.hand == [] and player.played == ["research-1"]
    assert sorted(player.discard) == ["action-1", "action-2", "upgrade-1"]


def test_active_card_not_discarded_and_not_using_a_play():
    # Setup: Active Card: "This card will be resolved every turn regardless of other cards
    # played": it stays out of the hand and the discard pile; playing it is refused
    player = player_with(active=["oxygen-1"])
    plan = plan_turn(CARDS, player, [(1, "oxygen-1", []), (2, "action-1", []),
                                     (3, "research-1", [])], research_level=1,
                     active=["oxygen-1"])
    assert plan.played == ["action-1", "research-1"]  # 2 plays: the default 1 and Oxygen's
    assert [p[0] for p in plan.problems] == [1] and "active card" in plan.problems[0][2]
    assert player.active == ["oxygen-1"] and "oxygen-1" not in player.discard


def test_caller_errors_raise():
    player = player_with()
    with pytest.raises(PlanError, match="active card"):
        plan_turn(CARDS, player, [], research_level=1, active=["oxygen-1"])
    with pytest.raises(PlanError, match="order line"):
        plan_turn(CARDS, player, [("1", "action-1", [])], research_level=1, active=[])
