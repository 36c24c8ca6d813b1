"""Escape from Atalix's data module (pbem/games/atalix/data.py): the schema and cross-checks of
data.toml, house rules, the typed Rules and the options. Each case names the rulebook section;
expected values come from the rulebook's text or are worked by hand, not read back from the
code."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from pbem.engine import sourced
from pbem.engine.values import check_options
from pbem.games.atalix import data as atalix
from pbem.games.atalix.data import DataError, Rules, check_data, load_data

DATA = Path(__file__).parents[1] / "pbem" / "games" / "atalix" / "data.toml"


@pytest.fixture(scope="module")
def raw():
    return tomllib.loads(DATA.read_text(encoding="utf-8"))


@pytest.fixture
def table(raw):
    return copy.deepcopy(raw)


def refused(table, *expected):
    with pytest.raises(DataError) as err:
        check_data(table)
    for part in ("data.toml: ",) + expected:
        assert part in str(err.value), str(err.value)
    return str(err.value)


def test_the_schema_accepts_data_toml(raw):
    check_data(copy.deepcopy(raw))
    sourced.check(raw, atalix.SCHEMA, "data.toml")
    assert load_data() == raw


def test_every_entry_has_a_source_and_missing_one_is_refused(table):
    assert all(e.source.strip() for e in sourced.walk_sources(table))
    del table["cards"]["weapons"]["source"]
    refused(table, "cards.weapons.source = None", "non-empty string")


def test_planning_phase_an_ability_outside_the_vocabulary_is_refused(table):
    table["cards"]["action"]["abilities"][0]["what"] = "teleport"
    refused(table, "cards.action.abilities[0].what = 'teleport'", "expected one of plays, draw")


def test_planning_phase_roman_numerals_go_to_III_a_level_4_is_refused(table):
    # Planning Phase: "III - Draw 1 card" is the oxygen card's third ability
    table["cards"]["oxygen"]["abilities"][2]["level"] = 4
    refused(table, "cards.oxygen.abilities[2].level = 4", "from 0 to 3")


def test_unknown_keys_are_refused_naming_what_was_expected(table):
    table["cards"]["jet-pack"]["colour"] = "blue"
    refused(table, "cards.jet-pack.colour = 'blue'", "unknown key: expected one of name, kind")
    del table["cards"]["jet-pack"]["colour"]
    table["cards"]["exosuit"]["abilities"][0]["range"] = 2
    refused(table, "cards.exosuit.abilities[0].range = 2", "expected one of phase, what")
    del table["cards"]["exosuit"]["abilities"][0]["range"]
    table["expansions"] = {}
    refused(table, "expansions", "unknown section: expected one of starting_deck, cards")


def test_card_setup_a_card_under_the_wrong_project_is_refused(table):
    # Card Setup: the Scanner cards go under the Scanner Array, the Terraform Tools under
    # Terraforming
    table["cards"]["scanner"]["project"] = "terraforming"
    refused(table, "cards.scanner.project = 'terraforming'", "gives is 'scanner'")


def test_card_setup_a_project_giving_a_card_of_another_project_is_refused(table):
    table["projects"]["solar-array"]["gives"] = "scanner"
    refused(table, "projects.solar-array.gives = 'scanner'", "project is 'solar-array'")


def test_threats_a_start_at_or_past_the_loss_space_is_refused(table):
    # data.toml: loss for 3 and 4 players is space 9; 3 stars starting on 9 leaves no round
    table["round_track"]["start"]["3"] = 9
    refused(table, "round_track.start = ", "below every loss space")


def test_threats_and_select_difficulty_every_count_needs_its_value(table):
    del table["round_track"]["loss"]["4"]
    refused(table, "round_track.loss.4 = None", "players 4")
    table["round_track"]["loss"]["4"] = 9
    table["cost_meter"]["top"]["5"] = 6
    refused(table, "cost_meter.top.5 = 6", "expected 1, 2, 3, 4")


def test_research_track_levels_ascend(table):
    table["research"]["levels"][2]["steps"] = 2  # level III where II begins
    refused(table, "research.levels[2]", "steps above 2")


def test_research_track_only_the_research_ability_has_a_cost(table):
    # Research Track: "plays a Research card and pays the associated cost"
    table["cards"]["action"]["abilities"][0]["cost"] = {"scrap": 1}
    refused(table, "cards.action.abilities[0].cost", "only a research ability")


def test_planning_phase_an_or_joins_the_abilities_above_and_below(table):
    # "An OR only applies to the abilities directly above and below it"
    table["cards"]["oxygen"]["abilities"][0]["or"] = 1
    table["cards"]["oxygen"]["abilities"][2]["or"] = 1
    refused(table, "cards.oxygen.abilities[0].or = 1", "in a row")


def test_starting_deck_must_cover_four_players(table):
    # Starting Deck: 2 Action cards each, so 4 players need 8
    table["cards"]["action"]["count"] = 7
    refused(table, "cards.action.count = 7", "at least 8")


def test_house_rule_changing_the_action_count_is_merged_and_marked():
    data = load_data({"cards": {"action": {"count": 14}}})
    assert data["cards"]["action"]["count"] == 14
    assert data["cards"]["action"]["source"] == "house rules"
    assert data["cards"]["oxygen"]["source"].startswith("stand-in")
    entries = {e.path: e.source for e in sourced.walk_sources(data)}
    assert entries["cards.action"] == "house rules" and sourced.in_force(entries["cards.action"])


def test_house_rules_are_checked_with_their_origin():
    with pytest.raises(DataError, match=r"^house rules: cards.action.count = 7: .*at least 8"):
        load_data({"cards": {"action": {"count": 7}}})
    with pytest.raises(DataError, match=r"^house rules: unknown key 'cards.action.colour'"):
        load_data({"cards": {"action": {"colour": "red"}}})


def test_house_rule_on_one_player_count_keeps_the_others(raw):
    data = load_data({"round_track": {"loss": {"3": 10}}})
    assert data["round_track"]["loss"] == dict(raw["round_track"]["loss"], **{"3": 10})
    assert data["round_track"]["source"] == "house rules"


def test_house_rule_cost_replaces_the_cost_of_a_card():
    # Purchasing Cards: each symbol costs the meter's number plus the +N beside it
    data = load_data({"cards": {"weapons": {"cost": {"carbon": 2}}}})
    assert data["cards"]["weapons"]["cost"] == {"carbon": 2}
    assert Rules.from_data(data).cards["weapons"].cost == {"carbon": 2}


def test_resources_start_one_scrap_per_player_two_carbon_two_minerals():
    # Resources: "Add one scrap per player, and two each of carbon and minerals"
    rules = Rules.from_data(load_data())
    assert rules.start_resources(3) == {"scrap": 3, "carbon": 2, "minerals": 2}
    assert rules.start_resources(1) == {"scrap": 1, "carbon": 2, "minerals": 2}
    assert "Resources" in rules.resources["source"]


def test_starting_deck_and_the_oxygen_cards_III_draw_typed():
    rules = Rules.from_data(load_data())
    # Starting Deck: 2 Action, 1 Oxygen, 1 Research, 1 Upgrade, 1 Gain Resource, 2 chosen
    assert rules.starting_deck == {"action": 2, "oxygen": 1, "research": 1, "upgrade": 1,
                                   "gain_resource": 1, "chosen": 2}
    # Planning Phase: "III - Draw 1 card" on the oxygen card, a bold (planning) ability
    third = rules.cards["oxygen"].abilities[2]
    assert (third.phase, third.what, third.amount, third.level) == ("planning", "draw", 1, 3)
    assert rules.cards["oxygen"].kind == "starting"


def test_purchasing_cards_the_swap_gear_example_typed():
    # "if ... the card cost meter was at 1, they would have to pay 1 scrap and 2 carbon"
    # (Trackers: the left token starts on the bottom zero, so the meter is at 1 once the left
    # token has moved up one space)
    rules = Rules.from_data(load_data())
    meter = rules.cost_meter(3)
    assert meter.multiplier == 0
    meter.left = 1
    assert meter.multiplier == 1
    assert meter.cost(rules.cards["swap-gear"].cost) == {"scrap": 1, "carbon": 2}


def test_card_setup_scanner_and_terraform_tool_stay_out_of_the_upgrade_deck():
    # Card Setup: "separate the upgrade cards called Scanner and Terraform Tool ... keep them
    # with the Project Cards"
    rules = Rules.from_data(load_data())
    deck = rules.upgrade_deck()
    assert "scanner" not in deck and "terraform-tool" not in deck
    assert deck.count("swap-gear") == rules.cards["swap-gear"].count
    assert rules.cards["terraform-tool"].project == "terraforming"


def test_tracks_typed():
    rules = Rules.from_data(load_data())
    # Select Difficulty: 3 stars the hardest, so fewer rounds before the loss space
    for players in (1, 2, 3, 4):
        rounds = [rules.round_loss(players) - rules.round_start(d) for d in (1, 2, 3)]
        assert rounds[0] > rounds[1] > rounds[2] > 0
    # Trackers: "Place one token on the I roman numeral on the research track"
    assert rules.research_start == 1 and rules.level_at(0) == 1
    assert rules.storm_tokens >= 1


def test_options_scenario_and_difficulty_are_whole_numbers_1_to_3():
    # Scenarios: three; Select Difficulty: 1 star, 2 stars, 3 stars
    assert check_options(atalix.OPTIONS, {}, "atalix") == {"scenario": 1, "difficulty": 1}
    assert check_options(atalix.OPTIONS, {"scenario": "2", "difficulty": "3"}, "atalix") == {
        "scenario": 2, "difficulty": 3}
    for bad in ({"scenario": "4"}, {"difficulty": "two"}, {"difficulty": "0"}):
        with pytest.raises(ValueError, match="expected one of 1, 2, 3"):
            check_options(atalix.OPTIONS, bad, "atalix")
    assert "stand-in" in atalix.OPTIONS["scenario"].help
    assert atalix.OPTIONS["difficulty"].source == "rulebook, Select Difficulty"
