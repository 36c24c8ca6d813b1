"""Escape from Atalix, "Taking Damage": one case per sentence of the section."""

from __future__ import annotations

from pbem.cards import PlayerCards
from pbem.games.atalix.damage import entering, take


def test_one_damage_per_storm_token_and_two_for_the_alien():
    # "you take one damage per token present on that space"; "that player receives two damage"
    assert entering({"0404": 3}, None, "0404") == 3
    assert entering({"0404": 1}, "0404", "0404") == 3
    assert entering({}, "0303", "0404") == 0


def test_each_damage_discards_a_card_from_the_draw_deck():
    p = PlayerCards(deck=["a", "b", "c"])
    d = take(p, 2, [])
    assert d.from_deck == ("a", "b") and list(p.deck) == ["c"] and not d.to_center


def test_with_the_deck_empty_played_cards_with_unused_abilities_are_discarded():
    p = PlayerCards(deck=["a"], played=["x", "y"])
    unused = ["y"]
    d = take(p, 2, unused)
    assert d.from_deck == ("a",) and d.from_play == ("y",) and p.played == ["x"]
    assert not d.to_center


def test_with_nothing_left_to_discard_the_pawn_returns_to_the_center():
    p = PlayerCards(played=["x"])
    d = take(p, 1, [])
    assert d.to_center and d.from_deck == () and d.from_play == ()
