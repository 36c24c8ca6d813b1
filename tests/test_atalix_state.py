"""Escape from Atalix's state split by audience (issue 13: "each player's hand is that player's
secret; the deck order is drawn on the hidden stream"): the parts are JSON, load(dump(s)) is the
same state, a player's hand reaches only that player, a deck's order only the referee."""

from __future__ import annotations

import json

from pbem.boards.hexmap import load_map
from pbem.cards import Market, PlayerCards
from pbem.engine.ruleset import Parts
from pbem.games.atalix.state import State, dump, load, view

MAP = (__import__("pathlib").Path(__file__).parents[1] / "pbem" / "games" / "atalix"
       / "map.toml").read_text(encoding="utf-8")


class Fixed:
    def shuffle(self, items, why):
        return list(reversed(items))

    def roll(self, sides, why):
        return 1


def position() -> State:
    s = State(seats=["red", "blue"], options={"scenario": 1, "difficulty": 1}, data={},
              board=load_map(MAP, "map.toml"), stage="plan", round=1)
    for role in s.seats:
        cards = [f"action-{role}-1", f"action-{role}-2", f"oxygen-{role}", f"research-{role}",
                 f"upgrade-{role}", f"gain-scrap-{role}"]
        s.players[role] = PlayerCards.start(cards, [f"oxygen-{role}"], Fixed(), "a deck")
        s.players[role].draw(4)
    s.market = Market.deal([f"jet-pack-{i}" for i in range(1, 9)], 5)
    s.pawns = {"red": "0505", "blue": "0505"}
    return s


def jsonify(parts: Parts) -> Parts:
    return Parts(*(json.loads(json.dumps(getattr(parts, k), sort_keys=True))
                   for k in ("public", "secret", "referee")))


def test_load_of_dump_is_the_same_state():
    s = position()
    parts = jsonify(dump(s))
    again = jsonify(dump(load(parts)))
    assert again == parts


def without_owned(obj: dict) -> dict:
    """``obj`` (a public part or a view) less each player's ``owned`` list: the collection is
    public, so its card ids are in it; the rest must not say which of them are in a hand."""
    out = json.loads(json.dumps(obj))
    for cards in out["cards"].values():
        cards.pop("owned")
    return out


def test_a_players_collection_is_public_not_which_cards_are_in_the_hand():
    s = position()
    parts = dump(s)
    for role, p in s.players.items():
        everything = [*p.deck, *p.hand, *p.played, *p.discard, *p.active]
        assert parts.public["cards"][role]["owned"] == sorted(everything)
    before = parts.public["cards"]["red"]["owned"]
    s.players["red"].draw(1)  # a card moves from the deck to the hand: the collection is the same
    assert len(s.players["red"].hand) == 5
    assert dump(s).public["cards"]["red"]["owned"] == before


def test_a_hand_is_its_players_secret_and_a_deck_order_the_referees():
    s = position()
    parts = dump(s)
    text = json.dumps(without_owned(parts.public))
    for card in s.players["red"].hand:
        assert card not in text  # Planning Phase: the hand is drawn and held by its player
    assert parts.public["cards"]["red"]["hand_size"] == 4
    assert parts.secret["red"]["hand"] == s.players["red"].hand
    assert parts.referee["decks"]["red"] == list(s.players["red"].deck)
    assert parts.secret["red"]["deck"] == sorted(s.players["red"].deck)  # contents, not order


def test_a_role_state_knows_its_own_hand_not_the_other_players():
    s = position()
    parts = dump(s)
    red = load(Parts(parts.public, {"red": parts.secret["red"]}, {}))
    assert red.players["red"].hand == s.players["red"].hand
    assert red.players["blue"].hand == [] and len(red.players["blue"].deck) == 0
    v = view(s, "red")
    assert v["secret"]["hand"] == s.players["red"].hand and "secret" not in view(s, "*")
    assert json.dumps(without_owned(view(s, "red"))).count(s.players["blue"].hand[0]) == 0


def test_the_market_row_is_public_its_deck_order_the_referees():
    s = position()
    parts = dump(s)
    assert parts.public["market"]["row"] == s.market.row and parts.public["market"][
        "deck_size"] == 3
    assert parts.referee["market_deck"] == list(s.market.deck)
    assert all(c not in json.dumps(without_owned(parts.public)) for c in s.market.deck)


def test_the_first_player_and_the_action_phase_order():
    # Pass Die To Next Player: "The first player should pass the die to the player on their
    # left"; the player with the die completes their turn first
    s = position()
    s.first = 1
    assert s.first_player() == "blue" and s.order() == ["blue", "red"]
