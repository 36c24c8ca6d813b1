"""Escape from Atalix: the additional active card of the Research Track
(pbem/games/atalix/planning.py, ``extra_actives``), the orders of the Terraform Tool and the
Scanner (orders.py), and the card abilities carried out through a whole set of turns
(turns.resolve). One rulebook case per test, named by its section.

data.toml's stand-in Research Track: level I at 0 steps, II at 2 (the dice), III at 4 (the
Active Card symbol), IV at 6 (the dice and the Active Card symbol)."""

from __future__ import annotations

import hashlib

import pytest

from pbem.cards import Market, PlayerCards
from pbem.dice import DiceStream
from pbem.engine.orderlines import OrderSyntaxError
from pbem.engine.ruleset import Chance
from pbem.games.atalix import turns
from pbem.games.atalix.data import load_data
from pbem.games.atalix.orders import VERBS
from pbem.games.atalix.planning import extra_actives
from pbem.games.atalix.ruleset import ruleset as rs

DATA = load_data()
LEVELS = DATA["research"]["levels"]
HAND = ["research-1", "action-1", "upgrade-1", "gain-scrap-1"]


def player(hand=HAND):
    return PlayerCards(deck=["action-2"], hand=hand, active=["oxygen-1"])


# -- Research Track: the Active Card symbol ------------------------------------------------------
def test_research_track_active_card_symbol_adds_a_card_from_the_hand():
    # "players may choose an additional active card ... on any Planning Phase after this
    # research level is reached by choosing a non-gray card from their hand ... and placing it
    # next to their original active card": research at 4 steps is level III (the symbol)
    p = player()
    texts, problems = extra_actives(DATA["cards"], LEVELS, 4, p, [(3, "research-1")])
    assert p.active == ["oxygen-1", "research-1"] and "research-1" not in p.hand
    assert problems == [] and len(texts) == 1


def test_research_track_active_card_refused_before_the_level_is_reached():
    # 3 steps is level II (the dice only): no additional active card
    p = player()
    texts, problems = extra_actives(DATA["cards"], LEVELS, 3, p, [(2, "research-1")])
    assert texts == [] and [(line, rule) for line, rule, _ in problems] == [
        (2, "Research Track")]
    assert "level III (4 steps)" in problems[0][2]
    assert p.active == ["oxygen-1"] and p.hand == HAND
    # a card not in the hand is named as such first, whatever the level (the trial's 'zzz')
    _texts, problems = extra_actives(DATA["cards"], LEVELS, 3, p, [(3, "zzz")])
    assert "not in your hand" in problems[0][2]


def test_research_track_active_card_one_for_each_level_with_the_symbol():
    # levels III and IV carry the symbol: at 4 steps one extra card, at 6 steps two; a third is
    # refused (the hand keeps it)
    p = player()
    _, problems = extra_actives(DATA["cards"], LEVELS, 4, p, [(1, "research-1"), (2, "action")])
    assert p.active == ["oxygen-1", "research-1"]
    assert [line for line, _, _ in problems] == [2] and "already" in problems[0][2]
    q = player()
    _, problems = extra_actives(DATA["cards"], LEVELS, 6, q,
                                [(1, "research-1"), (2, "action"), (3, "upgrade-1")])
    # a card type names the first card of that type in the hand: action -> action-1
    assert q.active == ["oxygen-1", "research-1", "action-1"]
    assert [line for line, _, _ in problems] == [3] and q.hand == ["upgrade-1", "gain-scrap-1"]


def test_research_track_active_card_only_from_the_hand_and_not_gray():
    # "a non-gray card from their hand": action-9 is not in the hand; a Project card has a gray
    # back ("Project Cards have a gray back"): a made-up one, relic-1, is refused
    cards = {**DATA["cards"], "relic": {"name": "Relic", "kind": "project-card", "count": 1,
                                        "abilities": [], "source": "test"}}
    p = player(HAND + ["relic-1"])
    _, problems = extra_actives(cards, LEVELS, 6, p, [(1, "action-9"), (2, "relic-1")])
    assert [line for line, _, _ in problems] == [1, 2]
    assert "not in your hand" in problems[0][2] and "gray" in problems[1][2]
    assert p.active == ["oxygen-1"]


# -- Orders: the Terraform Tool and the Scanner (Card Elaborations) ------------------------------
@pytest.mark.parametrize("line, args", [
    ("use terraform-tool-1 0 clear 0604", ["clear", "0604"]),
    ("use terraform-tool-1 0 path 0407", ["path", "0407"]),
    ("use terraform-tool-1 0 lure", ["lure"]),
    ("use terraform-tool-1 0 lure 0605", ["lure", "0605"]),
    ("use terraform-tool-1 0 carbon 0507", ["carbon", "0507"]),
    ("use scanner-1 1 pick jet-pack weapons bottom exosuit swap-gear",
     ["pick", "jet-pack", "weapons", "bottom", "exosuit", "swap-gear"]),
])
def test_card_elaborations_orders_read(line, args):
    order = VERBS.read(line)
    assert order.verb == "use" and order.args["args"] == args


@pytest.mark.parametrize("line, why", [
    ("use terraform-tool-1 0 clear",
     "'use terraform-tool-1 0 clear': expected `use CARD N clear HEX`"),
    ("use terraform-tool-1 0 path 0407 0408", "'use terraform-tool-1 0 path 0407 0408'"),
    ("use terraform-tool-1 0 lure 0604 0605", "expected `use CARD N lure [HEX]`"),
    ("use terraform-tool-1 0 carbon 57", "'57' is not a hex label"),
    ("use scanner-1 1 pick", "'use scanner-1 1 pick': the Scanner's look"),
    ("use scanner-1 1 pick jet-pack bottom", "pick TYPE... [bottom TYPE...]"),
    ("use scanner-1 1 bottom weapons", "'use scanner-1 1 bottom weapons'"),
])
def test_card_elaborations_bad_orders_quote_the_input(line, why):
    with pytest.raises(OrderSyntaxError) as err:
        VERBS.read(line)
    assert why in err.value.why


# -- Through a set of turns -----------------------------------------------------------------------
def _seed(*w) -> bytes:
    return hashlib.sha256("/".join(map(str, w)).encode()).digest()


def _chance(tag: str) -> Chance:
    return Chance(DiceStream(_seed(tag, "p"), "t", tag, {}),
                  DiceStream(_seed(tag, "h"), "t", tag, {}, hidden=True))


def _game(hand: list, research: int = 0, market_deck=()):
    """Red and green past setup; red holds ``hand``, oxygen-9 active, 4 cards in its deck (card
    numbers above the data's counts, so that no card is held twice)."""
    roles = ["red", "green"]
    s, _ = rs.setup(roles, rs.validate_options({}), rs.load_data(None),
                    rs.load_map(None, "stand-in"), _chance("setup"))
    rs.resolve(s, {r: VERBS.parse(r, rs.window(s), "active oxygen", 1)[0] for r in roles},
               _chance("choose"))
    s.players["red"] = PlayerCards(deck=[f"action-9{n}" for n in range(1, 5)], hand=hand,
                                   active=["oxygen-9"])
    s.research = research
    if market_deck:
        s.market = Market(market_deck, 5, s.market.row)
    return s


def _resolve(s, body: str):
    w = rs.window(s)
    red, problems = VERBS.parse("red", w, body, 1)
    assert problems == []
    return rs.resolve(s, {"red": red, "green": []}, _chance("set"))


def test_research_track_active_card_chosen_in_a_plan_window_is_resolved_at_once():
    # Research at 4 steps (level III): "active research-9" takes it from the hand; as an active
    # card it is "resolved every turn", so its Research ability is used this turn: 4 -> 5
    s = _game(["research-9", "upgrade-9"], research=4)
    s.world["team"]["minerals"] = 2
    res = _resolve(s, "active research-9\nuse research-9 0")
    assert res.problems == {}
    assert s.players["red"].active == ["oxygen-9", "research-9"] and s.research == 5
    assert any(e.kind == "active" and "research-9" in e.text for e in res.events)


def test_research_track_active_card_refused_in_a_plan_window_below_the_level():
    s = _game(["research-9", "upgrade-9"], research=0)
    res = _resolve(s, "active research-9")
    assert [(p.line, p.rule) for p in res.problems["red"]] == [(1, "Research Track")]
    assert s.players["red"].active == ["oxygen-9"]


def test_scanner_card_the_cards_looked_at_are_seen_by_that_player_only():
    # Scanner Card: red looks at the top 5 of the Upgrade deck; green's report does not show
    # them (an event for red only), everyone sees the card picked (face up beside the row)
    deck = ["jet-pack-9", "weapons-9", "exosuit-9", "swap-gear-9", "weapons-8", "exosuit-8"]
    s = _game(["scanner-1", "upgrade-9"], market_deck=deck)
    res = _resolve(s, "play scanner-1 1\nuse scanner-1 1 pick weapons bottom jet-pack")
    assert res.problems == {}
    private = [e for e in res.events if not e.public]
    assert [e.audience for e in private] == [("red",)]
    # the cards by type, top first (the copies are alike; which copy is where is the deck's
    # order, the referee's)
    assert ", ".join(c.rsplit("-", 1)[0] for c in deck[:5]) in private[0].text
    green = " ".join(e.text for e in res.events if e.visible_to("green"))
    assert "weapons-9" in green and "jet-pack-9" not in green and "exosuit-9" not in green
    assert s.market.extra == ["weapons-9"]
    assert list(s.market.deck)[-1] == "jet-pack-9"


def test_turn_dispatches_every_ability_of_data_toml():
    # Action Phase: every italic ability of data.toml has a rule that carries it out
    from pbem.games.atalix.actions import _ABILITIES
    whats = {a["what"] for c in DATA["cards"].values() for a in c["abilities"]
             if a["phase"] == "action"}
    assert whats <= set(_ABILITIES), whats - set(_ABILITIES)
    assert turns.ACTION_VERBS == ("move", "climb", "collect", "scavenge", "use")
