"""Escape from Atalix, one player's Action Phase turn (pbem/games/atalix/actions.py). One rulebook
case per test, named by its section; the values are worked by hand on the stand-in map
(pbem/games/atalix/map.toml: the center 0505 at elevation 0, 0504 a scrap circle at 0 above it,
0404 and 0604 scrap stars at 0, 0503 plain at 1, 0403 plain at 1) and data.toml's cards."""

from __future__ import annotations

from pathlib import Path

from pbem.boards.hexmap import load_map
from pbem.cards import Market, PlayerCards
from pbem.games.atalix.actions import Turn
from pbem.games.atalix.board import Board
from pbem.games.atalix.data import Rules, load_data
from pbem.games.atalix.planning import Plan, card_type
from pbem.games.atalix.state import State

DATA = load_data()
MAP = load_map((Path(__file__).parents[1] / "pbem" / "games" / "atalix" / "map.toml")
               .read_text(encoding="utf-8"), "map.toml")
BOARD = Board(MAP)
ROW = ["jet-pack-1", "exosuit-1", "weapons-1", "swap-gear-1", "exosuit-2"]


class Rolls:
    """A die giving the numbers listed, in turn; ``asked`` records (sides, why)."""

    def __init__(self, *values):
        self.values, self.asked = list(values), []

    def roll(self, sides, why):
        self.asked.append((sides, why))
        return self.values.pop(0)


def plan(*played, active=()):
    """A Plan as the Planning Phase gives it: every Action Phase ability of the active cards,
    then of the played cards; the basic actions their +N Action abilities."""
    abilities = [{"card": c, "index": i, "amount": a.get("amount", 1), **a}
                 for c in (*active, *played)
                 for i, a in enumerate(DATA["cards"][card_type(c)]["abilities"])
                 if a["phase"] == "action"]
    return Plan(played=list(played), actions=sum(a["amount"] for a in abilities
                                                 if a["what"] == "actions"),
                abilities=abilities, problems=[])


def turn(*played, at="0505", deck=(), active=(), team=None, market_deck=(), row=ROW,
         dice=None, hidden=None, **world):
    """Red's turn: ``played`` in its play area, the pawn on ``at``, ``deck`` its draw deck (top
    first); the team's resources 2 of each unless ``team``; the alien in the cave (0902)."""
    s = State(seats=["red", "blue"], options={}, data=DATA, board=MAP, stage="plan", round=1)
    s.players["red"] = PlayerCards(deck=deck, played=played, active=active)
    s.players["blue"] = PlayerCards(deck=["blue-a-1", "blue-b-1", "blue-c-1"])
    s.pawns = {"red": at, "blue": "0505"}
    s.world = {"storm": {}, "alien": "0902", "alien_damage": 0, "resources": {},
               "team": dict(team or {"scrap": 2, "carbon": 2, "minerals": 2}), **world}
    s.meter = Rules.from_data(DATA).cost_meter(2).to_json()
    s.meter["left"] = 1  # the meter at 1, as in Purchasing Cards' example
    s.market = Market(market_deck, 5, row)
    return Turn(s, "red", plan(*played, active=active), dice or Rolls(), hidden or Rolls(), BOARD)


def sections(t):
    return [(line, section) for line, section, _ in t.problems]


def test_action_phase_move_up_to_2_flat_spaces_using_one_action():
    # "Move their player pawn up to 2 board spaces with flat terrain": 0505 -> 0504 -> 0404, all
    # at elevation 0, for the one action of the Action card
    t = turn("action-1")
    assert t.carry_out(1, "move", ["0504", "0404"])
    assert t.state.pawns["red"] == "0404" and t.actions_left == 0 and t.problems == []
    assert not t.carry_out(2, "move", ["0504", "0505", "0605"])  # three spaces: refused
    assert sections(t) == [(2, "Action Phase")] and t.state.pawns["red"] == "0404"


def test_movement_restrictions_not_upward_without_a_climb():
    # "A player pawn cannot move from a lower space to a higher space without using a climb
    # action": 0504 (0) -> 0503 (1) is refused, the action kept
    t = turn("action-1", at="0504")
    assert not t.carry_out(3, "move", ["0503"])
    assert sections(t) == [(3, "Movement Restrictions")] and "up to 0503" in t.problems[0][2]
    assert t.state.pawns["red"] == "0504" and t.actions_left == 1
    assert t.carry_out(4, "move", ["0505"])  # down is allowed: 0 -> 0


def test_action_phase_climb_one_level():
    # "Climb: Move 1 board space, while increasing their elevation by 1": 0504 (0) -> 0503 (1)
    t = turn("action-1", "action-2", at="0504")
    assert not t.carry_out(1, "climb", ["0404"])  # 0 -> 0 is not a climb
    assert t.carry_out(2, "climb", ["0503"])
    assert t.state.pawns["red"] == "0503" and t.actions_left == 1


def test_action_phase_collect_a_cube_to_the_team():
    # "Collect Resources: Pick up a resource cube on their current board space": the scrap cube
    # of 0504 goes to the team's supply (2 + 1 = 3)
    t = turn("action-1", at="0504", resources={"0504": "scrap", "0306": "carbon"})
    assert t.carry_out(1, "collect", [])
    assert t.state.world["team"] == {"scrap": 3, "carbon": 2, "minerals": 2}
    assert t.state.world["resources"] == {"0306": "carbon"} and t.actions_left == 0


def test_scavenge_repair_pays_its_cost_and_adds_it_to_the_discard():
    # "repair it (pay its cost and add it to their discard)": Swap Gear (scrap, carbon +1) at a
    # meter of 1 costs 1 scrap and 2 carbon; the meter does not move (not a purchase)
    t = turn("action-1", at="0404", market_deck=["swap-gear-2", "weapons-2"])
    assert t.carry_out(1, "scavenge", ["repair"])
    assert t.state.world["team"] == {"scrap": 1, "carbon": 0, "minerals": 2}
    assert list(t.player.discard) == ["swap-gear-2"] and list(t.state.market.deck) == ["weapons-2"]
    assert t.state.meter["right"] == 0 and t.actions_left == 0


def test_scavenge_salvage_executes_it_for_free():
    # "salvage it (execute it immediately for free)": Swap Gear's italic +1 Action is carried out
    # (1 - 1 + 1 = 1 action left); its bold Draw 1 is a problem; nothing is paid
    t = turn("action-1", at="0404", market_deck=["swap-gear-2", "weapons-2"])
    assert t.carry_out(5, "scavenge", ["salvage"])
    assert t.actions_left == 1 and t.state.world["team"] == {"scrap": 2, "carbon": 2,
                                                              "minerals": 2}
    assert sections(t) == [(5, "Scavenge")] and "draw 1" in t.problems[0][2]
    assert list(t.state.market.deck) == ["weapons-2", "swap-gear-2"]  # to the bottom


def test_scavenge_scrap_adds_1_of_the_listed_resources():
    # "scrap it (add 1 of the listed resources to the teams resource pile)": Swap Gear lists
    # scrap and carbon; carbon 2 + 1 = 3. Minerals is not listed: the choice fails.
    t = turn("action-1", "action-2", at="0604", market_deck=["swap-gear-2", "weapons-2"])
    assert t.carry_out(1, "scavenge", ["scrap", "carbon"])
    assert t.state.world["team"] == {"scrap": 2, "carbon": 3, "minerals": 2}
    assert t.carry_out(2, "scavenge", ["scrap", "minerals"])  # draws weapons-2 (scrap, minerals)
    assert t.state.world["team"]["minerals"] == 3
    t = turn("action-1", at="0604", market_deck=["swap-gear-2"])
    t.carry_out(3, "scavenge", ["scrap", "minerals"])
    assert sections(t) == [(3, "Scavenge")] and t.actions_left == 0  # drawn: the action spent
    assert list(t.state.market.deck) == ["swap-gear-2"]
    assert not turn("action-1", at="0505", market_deck=["swap-gear-2"]).carry_out(
        4, "scavenge", ["repair"])  # 0505 is not a starred space


def test_research_track_paying_its_cost_advances_research():
    # "Each time a player plays a Research card and pays the associated cost, they may advance
    # research by moving the tracker token up one space": 1 mineral (data.toml), 0 -> 1 step
    t = turn("research-1")
    assert t.carry_out(1, "use", ["research-1", "0"])
    assert t.state.research == 1 and t.state.world["team"]["minerals"] == 1
    poor = turn("research-1", team={"scrap": 2, "carbon": 2, "minerals": 0})
    assert not poor.carry_out(2, "use", ["research-1", "0"])
    assert sections(poor) == [(2, "Research Track")] and poor.state.research == 0


def test_research_track_the_dice_symbol_resolved_as_soon_as_reached():
    # Level II (2 steps, data.toml) shows the dice: "roll the die to distribute resources.
    # Resolve this effect as soon as the research level is achieved". The previous resource roll
    # was 2, so the 2 is rolled again (Event 1): 5 puts cubes on the spaces numbered 5 by their
    # terrain: 0204 carbon, 0303 minerals, 0603 scrap, 0808 minerals
    dice = Rolls(2, 5)
    t = turn("research-1", dice=dice, last_resource_roll=2)
    t.state.research = 1
    assert t.carry_out(1, "use", ["research-1", "0"])
    assert t.state.world["resources"] == {"0204": "carbon", "0303": "minerals",
                                          "0603": "scrap", "0808": "minerals"}
    assert [s for s, _ in dice.asked] == [6, 6] and t.state.world["last_resource_roll"] == 5


def test_purchasing_cards_swap_gear_at_meter_1_and_the_meter_advances():
    # "if a player wanted to purchase a Swap Gear card and the card cost meter was at 1, they
    # would have to pay 1 scrap and 2 carbon"; "move the token on the right side ... one space
    # up"; "When you purchase a card, immediately replace it with a card from the deck"
    t = turn("upgrade-1", team={"scrap": 1, "carbon": 2, "minerals": 0},
             market_deck=["weapons-2"])
    assert t.carry_out(1, "use", ["upgrade-1", "0", "swap-gear-1"])
    assert t.state.world["team"] == {"scrap": 0, "carbon": 0, "minerals": 0}
    assert t.state.meter["right"] == 1 and list(t.player.discard) == ["swap-gear-1"]
    assert t.state.market.row == ["jet-pack-1", "exosuit-1", "weapons-1", "weapons-2",
                                  "exosuit-2"]
    poor = turn("upgrade-1", team={"scrap": 1, "carbon": 1, "minerals": 0})
    assert not poor.carry_out(2, "use", ["upgrade-1", "0", "swap-gear-1"])
    assert sections(poor) == [(2, "Purchasing Cards and the Card Cost Meter")]


def test_purchasing_cards_a_duplicate_replaced_before_buying():
    # "If there are duplicates, players may choose to remove and replace one of the duplicates
    # before purchasing a card. Place this removed card at a random place in the Upgrade deck":
    # exosuit-2 (a second Exosuit) is replaced by jet-pack-2 from the deck; the deck left is
    # [jet-pack-3, swap-gear-2], the hidden d3 gives 2: exosuit-2 goes second. Then Swap Gear is
    # bought and replaced by the deck's top card, jet-pack-3.
    hidden = Rolls(2)
    t = turn("upgrade-1", market_deck=["jet-pack-2", "jet-pack-3", "swap-gear-2"], hidden=hidden)
    assert not t.carry_out(1, "use", ["upgrade-1", "0", "swap-gear-1", "replace", "weapons-1"])
    assert t.carry_out(2, "use", ["upgrade-1", "0", "swap-gear-1", "replace", "exosuit-2"])
    assert t.state.market.row == ["jet-pack-1", "exosuit-1", "weapons-1", "jet-pack-3",
                                  "jet-pack-2"]
    assert list(t.state.market.deck) == ["exosuit-2", "swap-gear-2"]
    assert hidden.asked[0][0] == 3 and list(t.player.discard) == ["swap-gear-1"]


def test_taking_damage_one_card_per_storm_token():
    # "Any time you enter a board space containing a green storm token, you take one damage per
    # token present on that space ... discard a card from your draw deck": 2 tokens, 2 cards
    t = turn("action-1", deck=["a-1", "b-1", "c-1"], storm={"0504": 2})
    assert t.carry_out(1, "move", ["0504"])
    assert list(t.player.deck) == ["c-1"] and list(t.player.discard) == ["b-1", "a-1"]
    assert t.state.pawns["red"] == "0504"


def test_taking_damage_entering_the_alien_space_is_two_damage():
    # "If a player enters the board space with the alien ... that player receives two damage";
    # here on the first space of a two-space move
    t = turn("action-1", deck=["a-1", "b-1", "c-1"], alien="0504")
    assert t.carry_out(1, "move", ["0504", "0404"])
    assert list(t.player.deck) == ["c-1"] and t.state.pawns["red"] == "0404"


def test_taking_damage_with_an_empty_deck_played_cards_then_the_center():
    # "If you take damage and have no cards in your deck, you must discard played cards
    # containing unused Action Phase abilities. If you have no viable cards left to discard, then
    # you must return your player pawn to the center": 3 tokens on 0504, the deck empty: the last
    # played card first (gain-carbon-1), then gain-scrap-1, then back to 0505. Oxygen (active)
    # gave the action and is never discarded.
    t = turn("gain-scrap-1", "gain-carbon-1", at="0404", active=["oxygen-1"],
             storm={"0504": 3})
    assert t.carry_out(1, "move", ["0504", "0604"])
    assert t.state.pawns["red"] == "0505"
    assert t.player.played == [] and list(t.player.discard) == ["gain-scrap-1", "gain-carbon-1"]
    assert not t.carry_out(2, "use", ["gain-scrap-1", "0"])
    assert sections(t) == [(2, "Taking Damage")]


def test_taking_damage_an_unspent_action_is_an_unused_ability():
    # Two Action cards (2 actions), the deck empty, 1 token on 0504: the first move spends
    # action-1's +1; the damage discards action-2, still holding its unused +1 Action, so the
    # action it gave is gone and a second move is refused
    t = turn("action-1", "action-2", storm={"0504": 1})
    assert t.carry_out(1, "move", ["0504"]) and t.player.played == ["action-1"]
    assert t.actions_left == 0 and not t.carry_out(2, "move", ["0505"])


def test_weapons_card_first_hit_turns_it_second_pushes_it_away():
    # "If you attack the alien once, turn it on its side in its current board space. If you
    # attack it a second time, stand it back up and move it one space directly away from your
    # player pawn": the pawn on 0505, the alien on 0504 (north of it) goes north to 0503, where
    # blue stands: "the alien enters the board space of a player, that player receives two
    # damage". From 0505, 0503 is not adjacent: a third attack is refused.
    t = turn("weapons-1", "weapons-2", "weapons-3", alien="0504")
    t.state.pawns["blue"] = "0503"
    assert t.carry_out(1, "use", ["weapons-1", "0"])
    assert t.state.world["alien"] == "0504" and t.state.world["alien_damage"] == 1
    assert t.carry_out(2, "use", ["weapons-2", "0"])
    assert t.state.world["alien"] == "0503" and t.state.world["alien_damage"] == 2
    assert list(t.state.players["blue"].deck) == ["blue-c-1"]
    assert not t.carry_out(3, "use", ["weapons-3", "0"])
    assert sections(t) == [(3, "Weapons Card")]


def test_action_phase_an_action_beyond_the_budget_is_refused():
    # "utilize any basic actions gained during the planning phase": one Action card, one action
    t = turn("action-1", at="0504", resources={"0504": "scrap"})
    assert t.carry_out(1, "move", ["0404"])
    assert not t.carry_out(2, "move", ["0504"])
    assert sections(t) == [(2, "Action Phase")] and "no basic action left" in t.problems[0][2]
    assert t.state.pawns["red"] == "0404"


def test_action_phase_an_ability_is_used_once():
    # "completing all desired actions and card abilities on the cards played": each once
    t = turn("gain-scrap-1")
    assert t.carry_out(1, "use", ["gain-scrap-1", "0"])
    assert not t.carry_out(2, "use", ["gain-scrap-1", "0"])
    assert t.state.world["team"]["scrap"] == 3 and sections(t) == [(2, "Action Phase")]


def test_movement_restrictions_move_and_climb_abilities_cost_no_basic_action():
    # "without using a climb action or abilities from other cards such as the Jet Pack or
    # Exosuit": the Exosuit (data.toml: climb 1, move 2) moves 0505 -> 0504 -> 0404, then climbs
    # 0404 (0) -> 0403 (1); no basic action is spent (there are none)
    t = turn("exosuit-1")
    assert t.actions_left == 0
    assert t.carry_out(1, "use", ["exosuit-1", "1", "0504", "0404"])
    assert t.carry_out(2, "use", ["exosuit-1", "0", "0403"])
    assert t.state.pawns["red"] == "0403" and t.problems == []


def test_action_phase_using_a_plus_action_ability_is_a_no_op():
    # the +1 Action of the Action card is already among the basic actions of the planning phase
    t = turn("action-1")
    assert t.carry_out(1, "use", ["action-1", "0"]) and t.actions_left == 1
