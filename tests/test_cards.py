"""The card kit (pbem/cards/): piles, a player's cards, a market and a card cost meter, checked
against the Escape from Atalix rulebook's sections ("Card Setup", "Planning Phase", "Taking
Damage", "Shuffle Deck", "Purchasing Cards and the Card Cost Meter", "Scanner Card",
"Scavenge"). Expected values are worked out by hand from the rule texts quoted."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.cards import CardError, CostMeter, Market, Pile, PlayerCards, shuffled


class Dice:
    """A dice stream with fixed rolls (in order) and a fixed shuffle (identity, or reversed):
    it records every call as ``(kind, sides or items, why)``."""

    def __init__(self, rolls=(), reverse=False):
        self.rolls = list(rolls)
        self.reverse = reverse
        self.calls: list = []

    def roll(self, sides, why):
        self.calls.append(("roll", sides, why))
        if not self.rolls:
            raise AssertionError(f"no die left for {why!r}")
        value = self.rolls.pop(0)
        assert 1 <= value <= sides
        return value

    def shuffle(self, items, why):
        self.calls.append(("shuffle", list(items), why))
        return list(reversed(items)) if self.reverse else list(items)


def kind(card: str) -> str:
    """Card ids in these tests are ``kind-n``: ``"swap-gear-2"`` is a ``"swap-gear"``."""
    return card.rsplit("-", 1)[0]


# -- Purchasing Cards and the Card Cost Meter ------------------------------------------------

def test_rulebook_swap_gear_costs_one_scrap_and_two_carbon():
    # "if a player wanted to purchase a Swap Gear card and the card cost meter was at 1, they
    # would have to pay 1 scrap and 2 carbon, one for the card cost meter and one due to the +1"
    meter = CostMeter(top=3, left_values=[1, 2, 3, 4])
    assert meter.multiplier == 1
    assert meter.cost({"scrap": 0, "carbon": 1}) == {"scrap": 1, "carbon": 2}


def test_right_token_resets_from_the_top_and_moves_the_left_token_up():
    # "move the token on the right side ... one space up. If the token reaches the top of the
    # track and must move again, it is reset to the bottom ... and the token on the left side of
    # the Meter is moved up one space": a track 0..2 takes three purchases to reset.
    meter = CostMeter(top=2, left_values=[1, 2, 3])
    seen = []
    for _ in range(4):
        meter.record_purchase()
        seen.append((meter.right, meter.left))
    assert seen == [(1, 0), (2, 0), (0, 1), (1, 1)]
    assert meter.cost({"scrap": 0, "carbon": 1}) == {"scrap": 2, "carbon": 3}


def test_left_token_stays_on_its_last_space():
    meter = CostMeter(top=1, left_values=[1, 2], left=1, right=1)
    meter.record_purchase()
    assert (meter.right, meter.left, meter.multiplier) == (0, 1, 2)


def test_meter_errors_quote_the_input():
    with pytest.raises(CardError, match=r"top 0: expected 1 or more"):
        CostMeter(top=0, left_values=[1])
    with pytest.raises(CardError, match=r"right token 5: expected 0 to 3"):
        CostMeter(top=3, left_values=[1], right=5)
    with pytest.raises(CardError, match=r"\+N for scrap -1: expected a whole number"):
        CostMeter(top=3, left_values=[1]).cost({"scrap": -1})
    with pytest.raises(CardError, match=r"cost meter \['top'\]: expected a dict"):
        CostMeter.from_json({"top": 3})


# -- Card Setup and buying from the market ---------------------------------------------------

def test_market_deals_five_face_up_from_the_deck():
    # "Draw the top 5 cards and place them, face up, surrounding the Upgrade deck"
    deck = [f"card-{i}" for i in range(1, 9)]
    market = Market.deal(deck, 5)
    assert market.row == ["card-1", "card-2", "card-3", "card-4", "card-5"]
    assert market.deck.to_json() == ["card-6", "card-7", "card-8"]


def test_a_purchase_is_replaced_from_the_deck_in_its_slot():
    # "When you purchase a card, immediately replace it with a card from the deck."
    market = Market.deal(["a-1", "b-1", "c-1", "d-1", "e-1", "f-1", "g-1"], 5)
    assert market.take("c-1") == "c-1"
    assert market.row == ["a-1", "b-1", "f-1", "d-1", "e-1"]
    assert market.deck.to_json() == ["g-1"]
    market.take("a-1")
    market.take("b-1")  # the deck is empty now: the slot closes
    assert market.row == ["g-1", "f-1", "d-1", "e-1"]
    with pytest.raises(CardError, match=r"take 'a-1': the card is not in the market"):
        market.take("a-1")


def test_duplicate_replaced_and_put_at_the_rolled_place_in_the_deck():
    # "players may choose to remove and replace one of the duplicates ... Place this removed
    # card at a random place in the Upgrade deck." Row: two jet packs. The replacement is the
    # deck's top card (x-1); the deck then holds 2 cards, so 3 places: a roll of 2 puts the
    # removed card second from the top.
    market = Market(["x-1", "y-1", "z-1"], 5,
                    row=["jet-pack-1", "oxygen-1", "jet-pack-2", "scanner-1", "swap-gear-1"])
    assert market.duplicates(kind) == ["jet-pack-1", "jet-pack-2"]
    dice = Dice(rolls=[2])
    new = market.replace_duplicate("jet-pack-2", dice, "a place for a removed card",
                                   kind_of=kind)
    assert new == "x-1"
    assert market.row == ["jet-pack-1", "oxygen-1", "x-1", "scanner-1", "swap-gear-1"]
    assert market.deck.to_json() == ["y-1", "jet-pack-2", "z-1"]
    assert dice.calls == [("roll", 3, "a place for a removed card")]
    assert market.duplicates(kind) == []


@pytest.mark.parametrize("roll, deck", [(1, ["jet-pack-2", "y-1"]), (2, ["y-1", "jet-pack-2"])])
def test_duplicate_goes_on_top_or_at_the_bottom(roll, deck):
    market = Market(["x-1", "y-1"], 2, row=["jet-pack-1", "jet-pack-2"])
    market.replace_duplicate("jet-pack-2", Dice([roll]), "place", kind_of=kind)
    assert market.deck.to_json() == deck


def test_only_a_duplicate_may_be_replaced():
    market = Market(["x-1"], 3, row=["jet-pack-1", "oxygen-1", "jet-pack-2"])
    with pytest.raises(CardError, match=r"replace 'oxygen-1': the card is not a duplicate.*"
                                        r"expected one of \['jet-pack-1', 'jet-pack-2'\]"):
        market.replace_duplicate("oxygen-1", Dice([1]), "place", kind_of=kind)
    empty = Market([], 2, row=["jet-pack-1", "jet-pack-2"])
    with pytest.raises(CardError, match=r"the deck is empty"):
        empty.replace_duplicate("jet-pack-1", Dice([1]), "place", kind_of=kind)


def test_scanner_adds_an_extra_card_that_is_not_replaced_and_puts_two_at_the_bottom():
    # "look at the top 5 cards ... pick one to add to the selection of available cards. This
    # new card does not replace any of those already available. When purchased this card does
    # not get replaced ... players may put up to 2 cards out of the 5 at the bottom"
    deck = [f"d-{i}" for i in range(1, 8)]
    market = Market(deck, 2, row=["r-1", "r-2"])
    looked = market.look(5)
    assert looked == ["d-1", "d-2", "d-3", "d-4", "d-5"]
    market.keep_extra("d-3", among=looked)
    market.bottom(["d-1", "d-4"], among=looked)
    assert market.available() == ["r-1", "r-2", "d-3"]
    assert market.deck.to_json() == ["d-2", "d-5", "d-6", "d-7", "d-1", "d-4"]
    market.take("d-3")
    assert market.row == ["r-1", "r-2"] and market.extra == []
    assert len(market.deck) == 6
    with pytest.raises(CardError, match=r"expected at most 2 cards"):
        market.bottom(["d-2", "d-5", "d-6"])
    with pytest.raises(CardError, match=r"keep 'd-7': the card is not among the cards looked"):
        market.keep_extra("d-7", among=market.look(2))
    with pytest.raises(CardError, match=r"put at the bottom 'd-6'"):
        market.bottom(["d-2", "d-6"], among=["d-2"])
    assert market.deck.to_json() == ["d-2", "d-5", "d-6", "d-7", "d-1", "d-4"]  # nothing moved


def test_scavenge_draws_the_top_card():
    market = Market(["s-1", "s-2"], 1, row=["r-1"])
    assert market.scavenge() == "s-1"
    assert market.scavenge() == "s-2"
    with pytest.raises(CardError, match=r"scavenge: the deck is empty"):
        market.scavenge()


def test_errors_name_no_card_of_the_deck():
    market = Market(["secret-1", "secret-2"], 1, row=["r-1"])
    for bad in (lambda: market.keep_extra("nope-1"), lambda: market.deck.remove("nope-1")):
        with pytest.raises(CardError) as caught:
            bad()
        assert "'nope-1'" in str(caught.value) and "secret" not in str(caught.value)


# -- Piles -----------------------------------------------------------------------------------

def test_draw_with_too_few_cards():
    pile = Pile(["a", "b"])
    with pytest.raises(CardError, match=r"draw 3: the pile holds 2 cards"):
        pile.draw(3)
    assert len(pile) == 2  # nothing taken
    assert pile.draw(3, partial=True) == ["a", "b"]
    assert pile.draw(1, partial=True) == []


def test_pile_top_bottom_insert_remove():
    pile = Pile(["b"])
    pile.put_top(["x", "a"])
    pile.put_bottom(["c", "d"])
    assert list(pile) == ["x", "a", "b", "c", "d"]
    pile.insert("m", 2)
    assert pile.remove("x") == "x"
    assert list(pile) == ["a", "m", "b", "c", "d"]  # m went in third: x, a, m, ...
    with pytest.raises(CardError, match=r"insert at index 9: expected 0 \(top\) to 5"):
        pile.insert("z", 9)
    with pytest.raises(CardError, match=r"card 'a' is already in the pile"):
        pile.put_bottom(["a"])
    with pytest.raises(CardError, match=r"card 'q' is given twice"):
        Pile(["q", "q"])
    with pytest.raises(CardError, match=r"pile: card '': expected a card id"):
        Pile([""])
    with pytest.raises(CardError, match=r"pile 'abc': expected a list of card ids"):
        Pile.from_json("abc")


def test_shuffled_uses_the_dice_given():
    dice = Dice(reverse=True)
    pile = shuffled(["a", "b", "c"], dice, "the draw deck")
    assert pile.to_json() == ["c", "b", "a"]
    assert dice.calls == [("shuffle", ["a", "b", "c"], "the draw deck")]


# -- A player's cards ------------------------------------------------------------------------

def test_start_keeps_the_active_card_out_of_the_shuffled_deck():
    # "Players may pick any non-gray card to be their Active Card ... Players should then
    # shuffle their remaining deck"
    dice = Dice()
    cards = PlayerCards.start(["action-1", "action-2", "oxygen-1", "research-1"], ["oxygen-1"],
                              dice, "a starting deck")
    assert cards.active == ["oxygen-1"]
    assert cards.deck.to_json() == ["action-1", "action-2", "research-1"]
    assert dice.calls == [("shuffle", ["action-1", "action-2", "research-1"], "a starting deck")]
    with pytest.raises(CardError, match=r"active card 'weapons-1' is not among"):
        PlayerCards.start(["action-1"], ["weapons-1"], dice, "x")


def test_planning_draw_play_and_discard_the_rest():
    # "start this phase by drawing 4 cards ... play cards ... into their play area in the
    # order they wish ... Any cards remaining in a player's hand are discarded"
    p = PlayerCards(deck=["c1", "c2", "c3", "c4", "c5"], active=["ox"])
    assert p.draw(4) == ["c1", "c2", "c3", "c4"]
    p.play("c3")
    p.play("c1")
    assert p.played == ["c3", "c1"]
    assert sorted(p.discard_hand()) == ["c2", "c4"]
    assert p.hand == [] and sorted(p.discard) == ["c2", "c4"]
    assert p.draw(4) == ["c5"]  # the deck runs out: partial
    assert p.draw(4) == []
    with pytest.raises(CardError, match=r"play 'c9': the card is not in the hand"):
        p.play("c9")


def test_damage_discards_from_the_deck_then_played_cards():
    # "For each damage you sustain, you must discard a card from your draw deck. If you take
    # damage and have no cards in your deck, you must discard played cards"
    p = PlayerCards(deck=["d1"], played=["p1", "p2"])
    assert p.discard_from_deck(2) == ["d1"]  # two damage, one card in the deck
    assert len(p.deck) == 0 and list(p.discard) == ["d1"]
    p.discard_played("p2")
    assert p.played == ["p1"] and set(p.discard) == {"d1", "p2"}
    with pytest.raises(CardError, match=r"discard played card 'd1': the card is not in the"):
        p.discard_played("d1")


def test_refresh_keeps_active_cards_and_shuffles_the_rest_with_the_dice():
    # "shuffle their discard pile and place it back ... as a new draw deck. Do not remove or
    # shuffle your Active Card(s)"
    p = PlayerCards(played=["p1", "p2"], discard=["d1", "d2"], active=["ox", "jet"])
    dice = Dice(reverse=True)
    deck = p.refresh(dice, "a new draw deck")
    assert dice.calls == [("shuffle", ["d1", "d2", "p1", "p2"], "a new draw deck")]
    assert deck.to_json() == ["p2", "p1", "d2", "d1"]  # what the dice's shuffle returned
    assert p.active == ["ox", "jet"]
    assert p.played == [] and len(p.discard) == 0 and p.hand == []


def test_gain_and_set_active():
    # "add it to their discard"; "choosing a non-gray card from their hand to be a new active
    # card, and placing it next to their original active card"
    p = PlayerCards(hand=["h1"], active=["ox"])
    p.gain("swap-gear-1")
    assert list(p.discard) == ["swap-gear-1"]
    with pytest.raises(CardError, match=r"gain 'h1': the player already has this card"):
        p.gain("h1")
    p.set_active("h1")
    assert p.active == ["ox", "h1"] and p.hand == []
    assert p.sizes() == {"deck": 0, "hand": 0, "played": 0, "discard": 1, "active": 2}


def test_player_cards_errors_quote_the_input():
    with pytest.raises(CardError, match=r"player's cards: card 'a' is given twice"):
        PlayerCards(deck=["a"], hand=["a"])
    with pytest.raises(CardError, match=r"player's cards \['deck'\]: expected a dict"):
        PlayerCards.from_json({"deck": []})
    with pytest.raises(CardError, match=r"hand: card 7: expected a card id"):
        PlayerCards.from_json({"deck": [], "hand": [7], "played": [], "discard": [],
                               "active": []})


# -- JSON round trips ------------------------------------------------------------------------

OPS = st.lists(st.tuples(st.sampled_from(["draw", "play", "discard_hand", "damage",
                                          "discard_played", "refresh", "gain", "set_active"]),
                         st.integers(0, 5)), max_size=30)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 12), OPS)
def test_player_cards_round_trip_and_lose_no_card(n, ops):
    p = PlayerCards.start([f"c-{i}" for i in range(n)] + ["ox"], ["ox"], Dice(), "deck")
    owned = set(p.cards())
    gained = 0
    for op, k in ops:
        if op == "draw":
            p.draw(k)
        elif op == "play" and p.hand:
            p.play(p.hand[k % len(p.hand)])
        elif op == "discard_hand":
            p.discard_hand()
        elif op == "damage":
            p.discard_from_deck(k)
        elif op == "discard_played" and p.played:
            p.discard_played(p.played[k % len(p.played)])
        elif op == "refresh":
            p.refresh(Dice(reverse=k % 2 == 1), "a new draw deck")
            assert "ox" in p.active and len(p.deck) == len(p.cards()) - len(p.active)
        elif op == "gain":
            gained += 1
            p.gain(f"new-{gained}")
            owned.add(f"new-{gained}")
        elif op == "set_active" and p.hand:
            p.set_active(p.hand[k % len(p.hand)])
        assert sorted(p.cards()) == sorted(owned)
        data = json.loads(json.dumps(p.to_json()))
        assert PlayerCards.from_json(data).to_json() == p.to_json()


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 15), st.integers(1, 6), st.lists(st.integers(0, 10), max_size=12))
def test_market_round_trip_and_lose_no_card(n, size, picks):
    deck = [f"k{i % 3}-{i}" for i in range(n)]
    market = Market.deal(deck, size)
    for pick in picks:
        if not market.available():
            break
        card = market.available()[pick % len(market.available())]
        dupes = market.duplicates(kind)
        if card in dupes and len(market.deck):  # after the replacement, len(deck) places
            market.replace_duplicate(card, Dice([1 + pick % len(market.deck)]), "place",
                                     kind_of=kind)
        else:
            market.take(card)
            deck.remove(card)
        assert sorted([*market.available(), *market.deck]) == sorted(deck)
        again = Market.from_json(json.loads(json.dumps(market.to_json())))
        assert again.to_json() == market.to_json()


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 6), st.lists(st.integers(0, 9), min_size=1, max_size=5),
       st.integers(0, 40))
def test_meter_round_trip_and_counts_purchases(top, values, buys):
    meter = CostMeter(top, values)
    for _ in range(buys):
        meter.record_purchase()
    # Every top + 1 purchases move the left token up once (until its last space).
    assert meter.left == min(buys // (top + 1), len(values) - 1)
    if buys // (top + 1) < len(values):
        assert meter.right == buys % (top + 1)
    again = CostMeter.from_json(json.loads(json.dumps(meter.to_json())))
    assert again.to_json() == meter.to_json()
    assert again.cost({"ore": 2}) == {"ore": values[meter.left] + 2}


def test_the_guide_example_runs():
    """docs/rulesets.md, "Cards, decks and a market": its code block runs as written."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "rulesets.md").read_text("utf-8")
    section = doc.split("## Cards, decks and a market", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/rulesets.md", "exec"), {})
