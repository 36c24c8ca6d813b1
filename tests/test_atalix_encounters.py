"""Escape from Atalix, the encounter deck of Scenarios 2 and 3 (pbem/games/atalix/encounters.py):
a stand-in built from the rulebook's "Card Setup: Encounter Cards", "Taking Damage" ("Specific
encounters will also cause damage to players"), "Weapons Card" ("useful ... for completing
encounters") and "Action Phase" ("Actions are sometimes used to complete scenario specific
tasks"). One case per test, named by its section; the values are worked by hand from data.toml
(the encounter rows: Acid Squall 2, Crawler Pack 2, Rockslide 2, Debris Field 2, Leaking
Canister, Spore Burst, Stalked, Carbon Bloom, Ore Seam, Supply Cache one each: 14 cards, and
Scenario 2's two Rover Debris) and the stand-in map (map.toml: the center 0505; 0504 and 0506 next
to it; 0503 two spaces up; 0404 and 0405 between 0504 and 0506 around the center)."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from pbem.dice import DiceStream
from pbem.engine.ruleset import Chance
from pbem.games.atalix import encounters, scenarios, turns
from pbem.games.atalix.board import Board
from pbem.games.atalix.data import DataError, check_data, load_data
from pbem.games.atalix.orders import parse
from pbem.games.atalix.planning import plan_turn
from pbem.games.atalix.ruleset import ruleset as rs
from pbem.games.atalix.state import build, dump, view

ROLES = ("red", "green", "blue", "yellow")
SHARED = {"acid-squall": 2, "crawler-pack": 2, "rockslide": 2, "debris-field": 2,
          "leaking-canister": 1, "spore-burst": 1, "stalked": 1, "carbon-bloom": 1,
          "ore-seam": 1, "supply-cache": 1}


def _chance(tag: str) -> Chance:
    seed = hashlib.sha256(tag.encode()).digest()
    return Chance(DiceStream(seed, tag, "t", {}),
                  DiceStream(seed[::-1], tag, "t", {}, hidden=True))


def game(scenario: int = 2, players: int = 2):
    """A game of ``scenario`` after the setup window, Red first, no storm token."""
    s, _ = rs.setup(list(ROLES[:players]), rs.validate_options({"scenario": scenario}),
                    rs.load_data(None), rs.load_map(None, "stand-in"), _chance("setup"))
    turns.resolve(s, {}, _chance("choices"))
    s.first = 0
    s.world.update(storm={}, team={"scrap": 0, "carbon": 0, "minerals": 0})
    return s, Board(s.board)


def turn_of(s, board, *, at="0503", began="0505", played=(), deck=3):
    """Red's Action Phase turn on ``at`` (begun on ``began``): ``played`` cards in its play
    area (its Oxygen card active), ``deck`` cards left in its draw deck."""
    red = s.players["red"]
    red.deck.draw(len(red.deck))
    red.deck.put_top([f"action-{n}" for n in range(9, 9 + deck)])
    red.hand = list(played)
    plan = plan_turn(s.data["cards"], red, [(1, c, []) for c in played], research_level=1,
                     active=scenarios.free_active(s, "red"))
    s.pawns["red"] = at
    t = scenarios.new_turn(s, "red", plan, _chance("a").public, _chance("a").hidden, board)
    t.began = began
    return t


def test_card_setup_encounter_cards_shuffled_for_scenarios_2_and_3_only():
    # "If you are doing scenario 2 or 3, shuffle the encounter cards and place them in a single
    # pile": 14 shared cards, and Scenario 2's two Rover Debris
    s1, _ = game(1)
    assert s1.encounters == {}
    s2, _ = game(2)
    assert Counter(c.rsplit("-", 1)[0] for c in s2.encounters["deck"]) == {
        **SHARED, "rover-debris": 2}
    assert len(s2.encounters["deck"]) == 16 and s2.encounters["discard"] == []
    s3, _ = game(3)
    assert Counter(c.rsplit("-", 1)[0] for c in s3.encounters["deck"]) == SHARED


def test_card_setup_the_encounter_decks_order_is_the_referees():
    # the order is dealt on the hidden stream: only the referee part holds it; everyone sees
    # how many cards are left and the cards drawn
    s, _ = game(2)
    parts = dump(s)
    assert parts.public["encounters"] == {"discard": [], "deck_size": 16}
    assert parts.referee["encounter_deck"] == s.encounters["deck"]
    assert "encounter_deck" not in str(view(s, "red"))
    role_state = build(parts.public, {"red": parts.secret["red"]}, {})
    assert role_state.encounters == {"deck": ["unknown"] * 16, "discard": []}
    assert view(role_state, "red")["encounters"] == view(s, "red")["encounters"]


def test_when_a_turn_ending_two_spaces_or_more_away_on_a_new_space_meets_one():
    # the reading: a turn ending on the trail (two spaces or more from the ship) on a space
    # other than where it began
    s, board = game(2)
    assert encounters.due(turn_of(s, board, at="0503", began="0505"), board.center)
    assert not encounters.due(turn_of(s, board, at="0504", began="0505"), board.center)
    assert not encounters.due(turn_of(s, board, at="0503", began="0503"), board.center)


def test_drawn_encounter_is_public_and_an_empty_deck_is_the_discard_shuffled():
    s, board = game(2)
    s.encounters = {"deck": ["carbon-bloom-1"], "discard": ["ore-seam-1", "rockslide-1"]}
    t = turn_of(s, board)
    texts = encounters.meet(t, _chance("e").hidden, board.center)
    assert texts[0] == "encounter on 0503: Carbon Bloom (carbon-bloom-1)"
    assert s.world["team"]["carbon"] == 1 and s.encounters["deck"] == []
    assert dump(s).public["encounters"]["discard"] == ["ore-seam-1", "rockslide-1",
                                                       "carbon-bloom-1"]
    card = encounters.draw(s, _chance("e").hidden)  # the three drawn, shuffled again
    assert sorted(s.encounters["deck"] + [card]) == ["carbon-bloom-1", "ore-seam-1",
                                                     "rockslide-1"]
    assert s.encounters["discard"] == [card]


def test_weapons_card_completes_an_encounter():
    # Crawler Pack: completed with a played Weapons card's attack (1 carbon); its attack is
    # then used
    s, board = game(2)
    t = turn_of(s, board, played=("weapons-1",))
    texts = encounters.resolve(t, "crawler-pack-1")
    assert texts[0].endswith("completed with weapons-1's attack")
    assert ("weapons-1", 0) in t.used and s.world["team"]["carbon"] == 1
    assert len(s.players["red"].deck) == 3


def test_taking_damage_an_encounter_not_completed_discards_from_the_draw_deck():
    # "Specific encounters will also cause damage": Crawler Pack without Weapons, 2 damage:
    # two of the three cards of the draw deck are discarded
    s, board = game(2)
    t = turn_of(s, board, played=("action-1",), deck=3)
    texts = encounters.resolve(t, "crawler-pack-2")
    assert "not completed (no Weapons attack left)" in texts[0]
    assert len(s.players["red"].deck) == 1 and s.pawns["red"] == "0503"
    assert texts[1].startswith("red: 2 damage on 0503: 2 from the deck")


def test_action_phase_an_unused_action_completes_an_encounter():
    # Rockslide: the Action card's +1 and the Oxygen card's +1 make 2 actions; one is spent on
    # the encounter, 1 minerals gained
    s, board = game(2)
    t = turn_of(s, board, played=("action-1",))
    assert t.actions_left == 2
    encounters.resolve(t, "rockslide-1")
    assert t.actions_left == 1 and s.world["team"]["minerals"] == 1


def test_taking_damage_nothing_left_to_discard_back_to_the_center():
    # Acid Squall, 1 damage, with an empty deck and no played card: back to the center
    s, board = game(2)
    t = turn_of(s, board, deck=0)
    encounters.resolve(t, "acid-squall-1")
    assert s.pawns["red"] == "0505"


def test_leaking_canister_the_team_never_goes_below_zero():
    s, board = game(2)
    t = turn_of(s, board, deck=0)  # the Oxygen card's action is spent first
    t.actions_left = 0
    encounters.resolve(t, "leaking-canister-1")
    assert s.world["team"]["carbon"] == 0


def test_threats_spore_burst_takes_a_storm_token_and_can_exhaust_the_storm():
    # one token from the supply on the player's space; with none left the storm is exhausted
    # and the crew fails at the end of the round ("If you run out of storm tokens you lose")
    s, board = game(2)
    s.world["storm_supply"] = 1
    encounters.resolve(turn_of(s, board), "spore-burst-1")
    assert s.world["storm"] == {"0503": 1} and s.world["storm_supply"] == 0
    encounters.resolve(turn_of(s, board, at="0603"), "spore-burst-1")
    assert s.world["storm_exhausted"] and "0603" not in s.world["storm"]
    events: list = []
    turns.end_of_round(s, board, {}, _chance("end"), events)
    assert s.stage == "over" and s.outcome["winners"] == []
    assert "storm tokens ran out" in s.outcome["reason"]


def test_stalked_the_alien_goes_around_the_ship_toward_the_player():
    # the alien on 0504, Red on 0506 without Weapons: the way through the center is not taken;
    # of the paths 0404-0405-0506 and 0604-0605-0506 the first in label order: it enters 0404
    s, board = game(2)
    s.world["alien"] = "0504"
    encounters.resolve(turn_of(s, board, at="0506"), "stalked-1")
    assert s.world["alien"] == "0404" and not s.world["alien_at_center"]


def test_taking_damage_the_alien_entering_the_players_space_deals_two():
    # the alien on 0404 next to Red on 0405: it enters Red's space, 2 damage from the deck
    s, board = game(2)
    s.world["alien"] = "0404"
    t = turn_of(s, board, at="0405", deck=3)
    encounters.resolve(t, "stalked-1")
    assert s.world["alien"] == "0405" and len(s.players["red"].deck) == 1


def test_an_encounter_through_the_mail_path_ends_the_players_turn():
    # Red moves 0504 then climbs 0503 (two spaces from the ship): the top card is met, public
    s, _ = game(2)
    s.encounters["deck"].insert(0, s.encounters["deck"].pop(
        s.encounters["deck"].index("carbon-bloom-1")))
    red = s.players["red"]
    red.hand = ["action-1"] + [c for c in red.hand if c != "action-1"][:3]
    w = turns.window(s)
    body = "play action-1\nmove 0504\nclimb 0503"
    parsed, problems = parse("red", w, body, 1)
    assert problems == []
    res = turns.resolve(s, {"red": parsed, "green": []}, _chance("mail"))
    texts = [e.text for e in res.events]
    assert "red: encounter on 0503: Carbon Bloom (carbon-bloom-1)" in texts
    assert s.encounters["discard"] == ["carbon-bloom-1"]


@pytest.mark.parametrize("change, expected", [
    ({"fail": [{"what": "damage", "amount": 1}]}, "expected a need"),
    ({"done": [{"what": "teleport"}]}, "expected a list of effects"),
    ({"done": [{"what": "gain", "amount": 1}]}, "resource = scrap|carbon|minerals"),
    ({"scenario": 1}, "0 (scenarios 2 and 3), 2 or 3"),
])
def test_encounter_rows_in_the_effect_vocabulary(change, expected):
    data = load_data()
    data["encounters"]["carbon-bloom"].update(change)
    with pytest.raises(DataError) as err:
        check_data(data)
    assert expected in str(err.value) and "encounters.carbon-bloom" in str(err.value)
