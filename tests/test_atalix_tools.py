"""Escape from Atalix, the Terraform Tool and the Scanner (pbem/games/atalix/tools.py; rulebook,
"Card Elaborations"). One rulebook case per test, named by its section; the values are worked
by hand on the stand-in map (pbem/games/atalix/map.toml, its drawing):

- the center 0505 (elevation 0) has the neighbours 0504 n, 0604 ne, 0605 se, 0506 s, 0405 sw,
  0404 nw (odd columns: ne/nw on the row above; even columns sit half a line lower);
- 0406 (scrap, number 6, elevation 0: "a low channel") has the neighbours 0405 (scrap, number
  1), 0506 (scrap, no number), 0507 (carbon, number 3), 0407 (plain, elevation 2), 0307
  (plain), 0306 (carbon, number 2);
- 0707 (elevation 1) is above 0708 (elevation 4, "the cliff of the rock pile");
- 0705 has the neighbours 0704, 0804, 0805, 0706, 0605 and 0604; 0604 and 0605 are next to the
  center, 0704 and 0706 are not;
- the space furthest north of the center is the top of its column, 0501; 0502 is below it.
"""

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
TOOL = "Terraform Tool Card"


class Rolls:
    """A die giving the numbers listed, in turn; ``asked`` records (sides, why)."""

    def __init__(self, *values):
        self.values, self.asked = list(values), []

    def roll(self, sides, why):
        self.asked.append((sides, why))
        return self.values.pop(0)


def turn(*played, at="0505", deck=("action-5", "action-6", "action-7"), team=None,
         market_deck=(), dice=None, equipment=None, **world):
    """Red's turn with ``played`` (card, or (card, [ability indexes])) in its play area, the
    pawn on ``at``; blue on the center with 3 cards in its deck; the team 2 of each."""
    s = State(seats=["red", "blue"], options={}, data=DATA, board=MAP, stage="plan", round=1)
    cards = [p if isinstance(p, str) else p[0] for p in played]
    s.players["red"] = PlayerCards(deck=deck, played=cards)
    s.players["blue"] = PlayerCards(deck=["action-8", "action-9", "action-10"])
    s.pawns = {"red": at, "blue": "0505"}
    s.world = {"storm": {}, "storm_supply": 10, "alien": "0902", "alien_damage": 0,
               "resources": {}, "team": dict(team or {"scrap": 2, "carbon": 2, "minerals": 2}),
               **world}
    s.equipment = dict(equipment or {})
    s.meter = Rules.from_data(DATA).cost_meter(2).to_json()
    s.meter["left"] = 1  # the meter at 1, as in Purchasing Cards' example
    s.market = Market(market_deck, 5, ROW)
    abilities = []
    for p in played:
        card, chosen = (p, None) if isinstance(p, str) else p
        for i, a in enumerate(DATA["cards"][card_type(card)]["abilities"]):
            if a["phase"] == "action" and (chosen is None or i in chosen):
                abilities.append({"card": card, "index": i, "amount": a.get("amount", 1), **a})
    plan = Plan(played=cards, abilities=abilities, problems=[],
                actions=sum(a["amount"] for a in abilities if a["what"] == "actions"))
    return Turn(s, "red", plan, dice or Rolls(), Rolls(), BOARD)


def use(t, line, card, *args):
    return t.carry_out(line, "use", [card, "0", *args])


def refused(t):
    return [(line, section) for line, section, _ in t.problems]


# -- Terraform Tool Card --------------------------------------------------------------------------
def test_terraform_tool_1_clears_a_storm_token_on_an_adjacent_space():
    # "Clear a storm token: Remove a green storm token from a current or adjacent space": two
    # tokens on 0604 (next to the center), one goes back to the supply (10 -> 11)
    t = turn("terraform-tool-1", storm={"0604": 2, "0805": 1})
    assert use(t, 1, "terraform-tool-1", "clear", "0604")
    assert t.world["storm"] == {"0604": 1, "0805": 1} and t.world["storm_supply"] == 11
    assert t.problems == []


def test_terraform_tool_1_clears_the_token_of_the_current_space():
    # "a current or adjacent space": the pawn's own space 0604; the last token there goes
    t = turn("terraform-tool-1", at="0604", storm={"0604": 1})
    assert use(t, 1, "terraform-tool-1", "clear", "0604")
    assert t.world["storm"] == {} and t.world["storm_supply"] == 11


def test_terraform_tool_1_refused_on_a_space_not_adjacent_or_without_a_token():
    # 0805 is three steps from the center 0505: not adjacent; 0504 is adjacent but holds no token
    t = turn("terraform-tool-1", "terraform-tool-2", storm={"0805": 1})
    assert not use(t, 1, "terraform-tool-1", "clear", "0805")
    assert not use(t, 2, "terraform-tool-2", "clear", "0504")
    assert refused(t) == [(1, TOOL), (2, TOOL)] and t.world["storm"] == {"0805": 1}
    assert "not your space or an adjacent one" in t.problems[0][2]
    assert t.world["storm_supply"] == 10


def test_terraform_tool_one_of_four_abilities_once_per_card():
    # "The Terraform Tool card can be used for one of four abilities": once used, the card's
    # ability is spent (the second line is refused)
    t = turn("terraform-tool-1", storm={"0604": 2})
    assert use(t, 1, "terraform-tool-1", "clear", "0604")
    assert not use(t, 2, "terraform-tool-1", "clear", "0604")
    assert refused(t) == [(2, "Action Phase")] and t.world["storm"] == {"0604": 1}


def test_terraform_tool_2_spends_1_scrap_to_build_a_path_two_elevation_up():
    # "Spend 1 scrap and place a white stick across the line between your current board spaces
    # and an adjacent board space up to 2 elevation apart ... move freely between those board
    # spaces as if they were at the same level": 0406 (0) to 0407 (2); scrap 2 -> 1; then a
    # Move (not a Climb) goes up to 0407
    t = turn("terraform-tool-1", "action-1", at="0406")
    assert use(t, 1, "terraform-tool-1", "path", "0407")
    assert t.state.paths == [["0406", "0407"]]
    assert t.world["team"] == {"scrap": 1, "carbon": 2, "minerals": 2}
    assert t.carry_out(2, "move", ["0407"]) and t.here == "0407" and t.problems == []


def test_terraform_tool_2_refused_three_elevation_apart():
    # "up to 2 elevation apart": 0707 (1) and 0708 (4) are 3 apart; the scrap is kept
    t = turn("terraform-tool-1", at="0707")
    assert not use(t, 1, "terraform-tool-1", "path", "0708")
    assert refused(t) == [(1, TOOL)] and "3 elevation apart" in t.problems[0][2]
    assert t.state.paths == [] and t.world["team"]["scrap"] == 2


def test_terraform_tool_2_refused_without_scrap_or_to_a_space_not_adjacent():
    # "Spend 1 scrap": the team has none; 0408 is two spaces below 0406, not adjacent
    t = turn("terraform-tool-1", "terraform-tool-2", at="0406",
             team={"scrap": 0, "carbon": 2, "minerals": 2})
    assert not use(t, 1, "terraform-tool-1", "path", "0407")
    assert "cannot pay 1 scrap" in t.problems[0][2]
    t.world["team"]["scrap"] = 1
    assert not use(t, 2, "terraform-tool-2", "path", "0408")
    assert "not next to 0406" in t.problems[1][2]
    assert refused(t) == [(1, TOOL), (2, TOOL)] and t.state.paths == []


def test_terraform_tool_3_lures_the_alien_one_space_first_in_label_order():
    # "Move the alien one board space on the shortest path toward your player pawn": from 0705
    # the shortest paths to the center 0505 go by 0604 or by 0605 (two steps each); with no
    # choice written, the first in label order, 0604
    t = turn("terraform-tool-1", alien="0705")
    assert use(t, 1, "terraform-tool-1", "lure")
    assert t.world["alien"] == "0604" and t.problems == []


def test_terraform_tool_3_the_acting_player_chooses_between_equal_paths():
    # "If multiple equal paths exist, the acting player may choose which one the alien takes":
    # 0605 chosen; 0704 is next to the alien but not on a shortest path (refused, no move)
    t = turn("terraform-tool-1", "terraform-tool-2", alien="0705")
    assert not use(t, 1, "terraform-tool-1", "lure", "0704")
    assert refused(t) == [(1, TOOL)] and t.world["alien"] == "0705"
    assert "0604, 0605" in t.problems[0][2]
    assert use(t, 2, "terraform-tool-2", "lure", "0605")
    assert t.world["alien"] == "0605"


def test_terraform_tool_3_the_alien_entering_your_space_deals_two_damage():
    # Taking Damage: "If ... the alien enters the board space of a player, that player receives
    # two damage": the alien on 0503 lured onto 0504, where red and blue stand: each discards
    # two cards from its draw deck (3 -> 1); 0504 is not the center (the ship is safe)
    t = turn("terraform-tool-1", at="0504", alien="0503")
    t.state.pawns["blue"] = "0504"
    assert use(t, 1, "terraform-tool-1", "lure")
    assert t.world["alien"] == "0504" and not t.world.get("alien_at_center")
    assert list(t.player.deck) == ["action-7"]
    assert list(t.state.players["blue"].deck) == ["action-10"]


def test_terraform_tool_3_refused_without_an_alien_or_on_your_space():
    t = turn("terraform-tool-1", alien=None)
    assert not use(t, 1, "terraform-tool-1", "lure")
    t.world["alien"] = "0505"
    assert not use(t, 2, "terraform-tool-1", "lure")
    assert refused(t) == [(1, TOOL), (2, TOOL)] and t.world["alien"] == "0505"


def test_terraform_tool_4_places_a_carbon_on_an_adjacent_green_numbered_space():
    # "Place a Carbon (black cube) from the supply pile on an adjacent numbered space": 0507,
    # green (carbon) and numbered 3, next to 0406
    t = turn("terraform-tool-1", at="0406")
    assert use(t, 1, "terraform-tool-1", "carbon", "0507")
    assert t.world["resources"] == {"0507": "carbon"} and t.problems == []
    assert t.world["team"] == {"scrap": 2, "carbon": 2, "minerals": 2}  # from the supply


def test_terraform_tool_4_refused_not_adjacent_not_numbered_not_green_or_holding_a_cube():
    # 0406 is the pawn's own space ("an adjacent numbered space"); 0506 has no number; 0405 is
    # numbered but orange (scrap: "a green numbered space"); 0306 already holds a cube; 0705 is
    # green and numbered but far away
    t = turn("terraform-tool-1", at="0406", resources={"0306": "carbon"})
    for i, hex_ in enumerate(["0406", "0506", "0405", "0306", "0705"], 1):
        assert not use(t, i, "terraform-tool-1", "carbon", hex_)  # refused: not used up
    whys = [why for _, _, why in t.problems]
    assert refused(t) == [(i, TOOL) for i in range(1, 6)]
    assert "not an adjacent space" in whys[0] and "has no number" in whys[1]
    assert "green numbered space" in whys[2] and "already holds a carbon cube" in whys[3]
    assert "not an adjacent space" in whys[4]
    assert t.world["resources"] == {"0306": "carbon"}


def test_terraform_tool_an_unknown_ability_word_is_refused():
    t = turn("terraform-tool-1")
    assert not use(t, 1, "terraform-tool-1", "dig", "0504")
    assert refused(t) == [(1, TOOL)] and "'clear HEX'" in t.problems[0][2]


# -- Scanner Card ---------------------------------------------------------------------------------
def test_scanner_card_scan_for_parts_furthest_then_one_space_in_the_second_direction():
    # "roll the die and place a black disk at board space furthest in that direction ... from
    # the center. Roll the die once more and move the disk one space in the indicated
    # direction": 1 (n) -> 0501, the top of the center's column; 4 (s) -> 0502
    dice = Rolls(1, 4)
    t = turn(("scanner-1", [0]), dice=dice, equipment={"parts": ["0903"]})
    assert use(t, 1, "scanner-1")
    assert t.state.equipment["parts"] == ["0903", "0502"]
    assert [sides for sides, _ in dice.asked] == [6, 6]
    assert all("Scanner" in why for _, why in dice.asked)


def test_scanner_card_scan_for_parts_the_disc_stays_at_the_edge():
    # "if this movement is not possible (due to the edge of the map) then leave it where it
    # is": 1 (n) -> 0501, then 1 (n) again: off the map, it stays on 0501
    t = turn(("scanner-1", [0]), dice=Rolls(1, 1))
    assert use(t, 1, "scanner-1")
    assert t.state.equipment == {"parts": ["0501"]}


def test_scanner_card_scan_for_parts_with_every_black_disc_out_is_refused():
    # Scenario 2's black discs are the rover parts; data.toml's stand-in counts 4 of them
    # ("place a black disk"): with 4 out, no disc is left to place and no die is rolled.
    dice = Rolls(1, 4)
    t = turn(("scanner-1", [0]), dice=dice, equipment={"parts": ["0903", "0502", "0101", "0909"]})
    assert not use(t, 1, "scanner-1")
    assert "no black disc left" in t.problems[0][2] and dice.asked == []
    assert t.state.equipment["parts"] == ["0903", "0502", "0101", "0909"]


def test_scanner_card_look_at_the_top_5_pick_one_and_two_to_the_bottom():
    # "look at the top 5 cards of the Upgrade deck and pick one to add to the selection of
    # available cards ... players may put up to 2 cards out of the 5 at the bottom of the deck":
    # the 5 are jet-pack-2, weapons-2, exosuit-3, swap-gear-2, weapons-3. Pick: exosuit first ->
    # exosuit-3. Bottom: weapons -> weapons-2, swap-gear -> swap-gear-2, jet-pack: 2 already.
    # The deck: jet-pack-2, weapons-3 (the rest, in order), jet-pack-3 (the 6th), then the two
    deck = ["jet-pack-2", "weapons-2", "exosuit-3", "swap-gear-2", "weapons-3", "jet-pack-3"]
    t = turn(("scanner-1", [1]), market_deck=deck)
    assert t.carry_out(1, "use", ["scanner-1", "1", "pick", "exosuit", "weapons", "bottom",
                                  "weapons", "swap-gear", "jet-pack"])
    m = t.state.market
    assert m.extra == ["exosuit-3"] and m.row == ROW
    assert list(m.deck) == ["jet-pack-2", "weapons-3", "jet-pack-3", "weapons-2", "swap-gear-2"]
    # who sees what: the five only in the player's own event
    # by type, top first (which copy lies where is the deck's order, the referee's)
    assert "jet-pack, weapons, exosuit, swap-gear, weapons (top first)" in t.private[0]
    assert "-2" not in t.private[0] and "-3" not in t.private[0]
    public = " ".join(t.events)
    assert "exosuit-3" in public and not any(c in public for c in deck if c != "exosuit-3")


def test_scanner_card_the_card_picked_is_not_replaced_when_bought():
    # "This new card does not replace any of those already available. When purchased this card
    # does not get replaced by one from the deck": exosuit-3 (cost minerals +1, carbon +0)
    # bought with the meter at 1 (Purchasing Cards): 1 + 1 = 2 minerals and 1 carbon; the row
    # stays as it was and the deck is untouched
    deck = ["exosuit-3", "weapons-2"]
    t = turn(("scanner-1", [1]), "upgrade-1", market_deck=deck)
    assert t.carry_out(1, "use", ["scanner-1", "1", "pick", "any"])
    assert t.state.market.extra == ["exosuit-3"]
    assert t.carry_out(2, "use", ["upgrade-1", "0", "exosuit-3"])
    m = t.state.market
    assert m.extra == [] and m.row == ROW and list(m.deck) == ["weapons-2"]
    assert t.world["team"] == {"scrap": 2, "carbon": 1, "minerals": 0}
    assert "exosuit-3" in t.player.discard


def test_scanner_card_look_nothing_listed_found_picks_nothing():
    # preferences written in advance: none of the 5 is a weapons card; nothing is picked, the
    # bottom list still applies (jet-pack-2 to the bottom)
    deck = ["jet-pack-2", "exosuit-3", "swap-gear-2"]
    t = turn(("scanner-1", [1]), market_deck=deck)
    assert t.carry_out(1, "use", ["scanner-1", "1", "pick", "weapons", "bottom", "jet-pack"])
    assert t.state.market.extra == []
    assert list(t.state.market.deck) == ["exosuit-3", "swap-gear-2", "jet-pack-2"]
    # that no weapons card was among them is the player's to know only
    assert "none of weapons" in t.private[0] and "weapons" not in " ".join(t.events)


def test_scanner_card_look_an_unknown_card_type_is_refused():
    t = turn(("scanner-1", [1]), market_deck=["jet-pack-2"])
    assert not t.carry_out(1, "use", ["scanner-1", "1", "pick", "jetpack"])
    assert refused(t) == [(1, "Scanner Card")] and "'jetpack' is not a card type" in \
        t.problems[0][2]
    assert list(t.state.market.deck) == ["jet-pack-2"]
