"""The receipt's dry run of Escape from Atalix (pbem.games.atalix.checking): it runs on the
player's own state, which holds no card of the Upgrade deck (the deck's order is the
referee's), so a scavenge is judged on what the player can know: an action left and a starred
space (Action Phase, Scavenge), not the card it will draw."""

from __future__ import annotations

import hashlib

from pbem.dice import DiceStream
from pbem.engine.ruleset import Chance, Parts
from pbem.games.atalix.board import Board
from pbem.games.atalix.ruleset import ruleset as rs


def _chance(tag: str) -> Chance:
    seed = hashlib.sha256(tag.encode()).digest()
    return Chance(DiceStream(seed, "atx", tag, {}), DiceStream(seed, "atx", tag, {}, hidden=True))


def players_state(on_star: bool):
    """Red's own state in round 1's first set of turns, red's pawn on a starred space (or on
    the center, which is not one), and an order set playing an Action card."""
    state, _ = rs.setup(["red", "blue"], rs.validate_options({}), rs.load_data(None),
                        rs.load_map(None, "stand-in"), _chance("setup"))
    rs.resolve(state, {}, _chance("0.setup"))
    board = Board.of(state.board)
    star = next(h for h in board.spaces() if board.info(h).shape == "star")
    state.pawns["red"] = star if on_star else board.center
    parts = rs.dump(state)
    mine = rs.load(Parts(parts.public, {"red": parts.secret["red"]}, {}))
    assert len(mine.market.deck) == 0 and parts.public["market"]["deck_size"] > 0
    card = next(c for c in mine.players["red"].hand if c.startswith(("action", "oxygen")))
    return mine, card


def problems(state, body: str) -> list:
    w = rs.window(state)
    orders, bad = rs.parse("red", w, body, 1)
    assert bad == []
    return [p.why for p in rs.check(state, "red", orders)]


def test_scavenge_with_the_deck_unknown_is_judged_on_the_space_and_the_action_only():
    state, card = players_state(on_star=True)
    assert problems(state, f"play {card}\nscavenge repair\n") == []


def test_scavenge_off_a_starred_space_is_refused_in_the_dry_run():
    state, card = players_state(on_star=False)
    (why,) = problems(state, f"play {card}\nscavenge repair\n")
    assert "not a starred space" in why


def test_scavenge_with_no_basic_action_left_is_refused_in_the_dry_run():
    # No card played: the one basic action is the active Oxygen's (data.toml's stand-in),
    # so the first scavenge spends it and the second has none left.
    state, _card = players_state(on_star=True)
    (why,) = problems(state, "scavenge repair\nscavenge salvage\n")
    assert "no basic action left" in why


# -- team proposals and setup choices judged on the receipt (README, "Team decisions") --------

def setup_state():
    state, _ = rs.setup(["red", "blue"], rs.validate_options({}), rs.load_data(None),
                        rs.load_map(None, "stand-in"), _chance("setup"))
    return state


def setup_problems_of(state, role: str, body: str) -> list:
    orders, bad = rs.parse(role, rs.window(state), body, 1)
    assert bad == []
    return [p.why for p in rs.check(state, role, orders)]


def test_starting_deck_a_choice_that_is_no_starting_card_is_on_the_receipt():
    # Starting Deck: "2 additional cards from the remaining starting cards": a Weapons is an
    # upgrade, the Ship Phaser a project.
    (why,) = setup_problems_of(setup_state(), "red", "choose weapons ship-phaser\n")
    assert "weapons, ship-phaser is no starting card type" in why


def test_active_card_another_players_card_is_on_the_receipt():
    state = setup_state()
    theirs = next(c for c in state.players["blue"].hand if c.startswith("action"))
    (why,) = setup_problems_of(state, "red", f"active {theirs}\n")
    assert f"{theirs} is not one of your cards" in why
    assert setup_problems_of(state, "red", "active oxygen\nchoose action research\n") == []


def test_build_projects_a_project_not_on_the_board_is_on_the_receipt():
    state, card = players_state(on_star=False)
    whys = problems(state, f"play {card}\nbuild nonsense\nbuild rover-repair\n"
                           f"build terraforming\n")
    assert len(whys) == 2
    assert "no project 'nonsense'" in whys[0]
    assert "rover-repair is a project of scenario 2" in whys[1]


def test_build_projects_a_misspelt_first_proposal_does_not_silence_the_next_players():
    # The proposal rule: the first player's proposals count, else the next player's round the
    # table; a line naming no project of the board is no proposal.
    from pbem.games.atalix import projects
    state, _ = players_state(on_star=False)
    first, second = state.order()
    w = rs.window(state)
    orders = {first: rs.parse(first, w, "build nonsense\n", 1)[0],
              second: rs.parse(second, w, "build terraforming\n", 1)[0]}
    role, lines = projects.proposals(orders, state.order(), state)
    assert role == second and [o.args["project"] for o in lines] == ["terraforming"]


def test_events_2_an_alien_step_that_is_no_first_step_is_on_the_receipt():
    # Event 2: the alien starts in the cave (0902, the stand-in board) and its shortest paths
    # to the center 0505 begin with 0802 or 0903 (tests/test_atalix_board.py, by hand).
    state, card = players_state(on_star=False)
    (why,) = problems(state, f"play {card}\nalien 0101\n")
    assert "0101 is not a first step" in why and "0802, 0903" in why
    assert problems(state, f"play {card}\nalien 0903\n") == []


def test_chapter_1_a_solar_array_placed_away_from_the_center_is_on_the_receipt():
    state, card = players_state(on_star=False)
    (why,) = problems(state, f"play {card}\nplace solar 0909\n")
    assert "0909 is not adjacent to the center 0505" in why


def test_purchasing_cards_replacing_a_duplicate_is_judged_without_the_deck():
    # Purchasing Cards: "If there are duplicates, players may choose to remove and replace one
    # of the duplicates before purchasing a card": the card that replaces it comes from the
    # deck, which the player's state does not hold; the receipt must not refuse the line.
    from pbem.games.atalix.planning import card_type
    state, card = players_state(on_star=False)
    upgrade = next((c for c in state.players["red"].hand if c.startswith("upgrade")), None)
    row = state.market.row
    dups = [c for c in row if sum(card_type(x) == card_type(c) for x in row) > 1]
    if upgrade is None or not dups:
        import pytest
        pytest.skip("this deal has no Upgrade card in hand or no duplicate in the row")
    other = next(c for c in row if c != dups[0])
    state.world["team"] = {"scrap": 9, "carbon": 9, "minerals": 9}
    whys = problems(state, f"play {upgrade}\nuse {upgrade} 0 {other} replace {dups[0]}\n")
    assert whys == []
