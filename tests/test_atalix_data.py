"""Escape from Atalix's first data (issue 13, started): the starting deck and the cards as data in
the effect vocabulary of data.toml. Each case cites the rulebook section; the values come from
the rulebook's text, not from the data file."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pbem.cards import CostMeter

DATA = Path(__file__).parents[1] / "pbem" / "games" / "atalix" / "data.toml"
VOCABULARY = {"plays", "draw", "actions", "move", "climb", "collect", "research", "gain", "buy",
              "attack", "scan", "look", "terraform", "transport"}


@pytest.fixture(scope="module")
def data():
    return tomllib.loads(DATA.read_text(encoding="utf-8"))


def test_starting_deck_2_action_1_oxygen_1_research_1_upgrade_1_gain_resource_2_chosen(data):
    deck = data["starting_deck"]
    assert (deck["action"], deck["oxygen"], deck["research"], deck["upgrade"],
            deck["gain_resource"], deck["chosen"]) == (2, 1, 1, 1, 1, 2)


def test_starting_cards_cover_four_players(data):
    # Starting Deck: every player gets 2 Action, 1 Oxygen, 1 Research, 1 Upgrade and a Gain
    # Resource at random, then 2 more "from the remaining starting cards": 4 players need at
    # least 4 x 6 cards and 4 x 2 to choose from
    cards = data["cards"]
    assert cards["action"]["count"] >= 8 and cards["oxygen"]["count"] >= 4
    gain = sum(c["count"] for c in cards.values() if c.get("gain_resource"))
    assert gain >= 4
    starting = sum(c["count"] for c in cards.values() if c["kind"] == "starting")
    assert starting >= 4 * 8


def test_purchasing_cards_the_swap_gear_example(data):
    # Purchasing Cards: "if a player wanted to purchase a Swap Gear card and the card cost meter
    # was at 1, they would have to pay 1 scrap and 2 carbon"
    meter = CostMeter(top=4, left_values=[1, 2, 3, 4])
    assert meter.cost(data["cards"]["swap-gear"]["cost"]) == {"scrap": 1, "carbon": 2}


def test_oxygen_III_draw_1_card(data):
    # Planning Phase: "The third ability on your oxygen card 'III - Draw 1 card' cannot be resolved
    # until you have reached the III spot on the research track"; and it grants additional plays
    third = data["cards"]["oxygen"]["abilities"][2]
    assert (third["what"], third["amount"], third["level"], third["phase"]) == (
        "draw", 1, 3, "planning")
    assert any(a["what"] == "plays" for a in data["cards"]["oxygen"]["abilities"])


def test_scanner_and_terraform_tool_four_each(data):
    # Card Setup: "separate the upgrade cards called Scanner and Terraform Tool (there should be 4
    # of each)"
    assert data["cards"]["scanner"]["count"] == data["cards"]["terraform-tool"]["count"] == 4


def test_every_ability_is_in_the_vocabulary_and_every_card_has_a_source(data):
    for cid, card in data["cards"].items():
        assert card["source"].strip(), cid
        for a in card["abilities"]:
            assert a["what"] in VOCABULARY and a["phase"] in ("planning", "action"), (cid, a)
            assert a.get("level", 0) in (0, 1, 2, 3), (cid, a)


def test_resources_one_scrap_per_player_two_carbon_two_minerals(data):
    # Resources: "Add one scrap per player, and two each of carbon and minerals"
    r = data["resources"]
    assert r["start"] == {"scrap": 1, "carbon": 2, "minerals": 2} and r["scrap_per_player"]


def test_scenario_1_projects_and_the_repeatable_solar_array(data):
    # Scenario 1: Solar Array (Chapter 1: "the only project that may be completed more than
    # once"), Ship Phaser (Chapter 2), Hab System (Chapter 3); Card Setup: the Terraform Tools
    # under Terraforming, the Scanners under the Scanner Array (scenario 2)
    p = data["projects"]
    assert {k for k, v in p.items() if v["scenario"] == 1} == {"solar-array", "ship-phaser",
                                                                "hab-system"}
    assert [k for k, v in p.items() if v.get("repeatable") and v["scenario"] < 2] == [
        "solar-array"]  # (Scenario 3's stand-in Mining Delivery repeats too)
    assert p["terraforming"]["gives"] == "terraform-tool"
    assert p["scanner-array"]["gives"] == "scanner" and p["scanner-array"]["scenario"] == 2


def test_harder_difficulty_leaves_fewer_rounds(data):
    # Select Difficulty: "The difficulty affects how many rounds you will have ... with 3 stars
    # being the hardest"
    t = data["round_track"]
    for players in ("1", "2", "3", "4"):
        rounds = [t["loss"][players] - t["start"][stars] for stars in ("1", "2", "3")]
        assert rounds == sorted(rounds, reverse=True) and len(set(rounds)) == 3


def test_trackers_the_card_cost_meter_starts_on_the_bottom_zero(data):
    # Trackers: "place a token on the bottom zero on the left side of the card cost tracker":
    # at setup each resource symbol costs 0, so a Swap Gear (scrap, carbon +1) costs 1 carbon.
    from pbem.games.atalix.data import Rules
    meter = Rules.from_data(data).cost_meter(2)
    assert meter.cost(data["cards"]["swap-gear"]["cost"]) == {"scrap": 0, "carbon": 1}
