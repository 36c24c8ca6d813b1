"""Movement in a player-turn (rulebook sections People and/or Ships move, Land Movement,
Swimming people, Ship Movement, The Safe Islands, Dolphins).

Positions are on the stand-in board (see test_atlantis_helpers); neighbours used here, worked by
hand for the even-low layout: 0405 touches 0404, 0406, 0305, 0306, 0505, 0506; 0404 touches
0403, 0405, 0304, 0305, 0504, 0505; 0304 touches 0303, 0305, 0203, 0204, 0403, 0404; 0102
touches the safe island 0101 and 0103, 0201, 0202; 0201 touches 0101, 0102, 0202, 0301, 0302.
Every test sinks 0804 (a sand tile far from the action, hiding a kept tile).
"""

from __future__ import annotations

from pbem.games.atlantis import ruleset
from test_atlantis_helpers import orders, position, problems, public_texts, run, texts, where

SINK = "\nsink 0804"


def test_walk_enters_tiles_at_one_point_each():
    """Land Movement: land to land; a person can move up to 3 spaces when using land movement."""
    s = position(people={"red1": "land:0405"})
    res, _ = run(s, "walk red1 0506 0507 0508" + SINK)
    assert problems(res, "red") == []
    assert where(s, "red1") == "land:0508"
    assert "red1 walks from 0405 to 0506, 0507 and 0508." in texts(res)


def test_land_capacity_three_even_in_passing():
    """Land Movement: 'The maximum number of people per land space is 3'."""
    s = position(people={"red1": "land:0405", "green1": "land:0406", "green2": "land:0406",
                         "green3": "land:0406"})
    res, _ = run(s, "walk red1 0406\nwalk red1 0406 0407" + SINK)
    why = problems(res, "red")
    assert len(why) == 2 and all("already holds 3 people" in w for w in why)
    assert where(s, "red1") == "land:0405"
    s = position(people={"red1": "land:0405", "green1": "land:0406", "green2": "land:0406"})
    res, _ = run(s, "walk red1 0406" + SINK)
    assert problems(res, "red") == [] and where(s, "red1") == "land:0406"


def test_three_points_in_all_for_people_and_ships():
    """People and/or Ships move: 'any number of ships or your people up to a total of three
    spaces'."""
    s = position(people={"red1": "land:0405"}, ships={"ship1": "0304"})
    res, _ = run(s, "walk red1 0506\nsail ship1 0303 0302\nwalk red1 0507" + SINK)
    why = problems(res, "red")
    assert len(why) == 1 and "needs 1 movement point and 0 are left" in why[0]
    assert where(s, "red1") == "land:0506" and s.ships["ship1"] == "0302"


def test_you_move_only_your_own_people():
    """Land Movement: 'You can only move your own people.'"""
    s = position(people={"green1": "land:0405"})
    res, _ = run(s, "walk green1 0406" + SINK)
    assert problems(res, "red") == ["green1 is green's: you can only move your own people"]


def test_ship_holds_three():
    """Ship Movement: 'Each ship has only three spaces for people'; a person boards from a tile
    directly beside the ship."""
    s = position(people={"red1": "land:0405", "red2": "ship:ship1", "green1": "ship:ship1",
                         "green2": "ship:ship1"}, ships={"ship1": "0404"})
    res, _ = run(s, "board red1 0404" + SINK)
    assert problems(res, "red") == ["ship1 is full: each ship has only 3 spaces for people"]
    s = position(people={"red1": "land:0405", "red2": "ship:ship1", "green1": "ship:ship1"},
                 ships={"ship1": "0404"})
    res, _ = run(s, "board red1 0404" + SINK)
    assert problems(res, "red") == [] and where(s, "red1") == "ship:ship1"


def test_board_needs_the_ship_beside_the_tile():
    """Ship Movement: a person boards 'if the ship is directly beside an island tile with
    the person'."""
    s = position(people={"red1": "land:0405"}, ships={"ship1": "0303"})
    res, _ = run(s, "board red1 0303" + SINK)
    assert problems(res, "red") == ["ship1 in 0303 is not directly beside red1's tile at 0405"]


def test_who_may_sail_a_shared_ship():
    """Ship Movement: 'Any player may move an unmanned ship. If a ship has men on it, only
    players who own the most people on the ship may move it (equal highest is fine though).'"""
    s = position(people={"red1": "ship:ship1", "green1": "ship:ship1", "green2": "ship:ship1"},
                 ships={"ship1": "0304"})
    res, _ = run(s, "sail ship1 0303" + SINK)
    assert "only the players who own the most people" in problems(res, "red")[0]
    assert "green 2, red 1" in problems(res, "red")[0]
    # a tie is fine
    s = position(people={"red1": "ship:ship1", "green1": "ship:ship1"}, ships={"ship1": "0304"})
    res, _ = run(s, "sail ship1 0303" + SINK)
    assert problems(res, "red") == [] and s.ships["ship1"] == "0303"
    # an unmanned ship, by anyone
    s = position(ships={"ship1": "0304"})
    res, _ = run(s, "sail ship1 0303 0302" + SINK)
    assert problems(res, "red") == [] and s.ships["ship1"] == "0302"
    # a ship manned only by others: no
    s = position(people={"green1": "ship:ship1"}, ships={"ship1": "0304"})
    res, _ = run(s, "sail ship1 0303" + SINK)
    assert "green 1" in problems(res, "red")[0] and s.ships["ship1"] == "0304"


def test_one_ship_per_sea_space_and_sea_only():
    """Ship Movement: 'Ships may not move into sea spaces if there is already another ship
    there.'"""
    s = position(ships={"ship1": "0304", "ship2": "0303"})
    res, _ = run(s, "sail ship1 0303 0302\nsail ship1 0404 0405" + SINK)
    assert problems(res, "red") == ["ship2 is already in 0303", "0405 is not a sea space"]
    assert s.ships == {"ship1": "0304", "ship2": "0303"}  # both orders skipped whole


def test_swimmer_moves_one_space():
    """Swimming people: 'Swimmers may move only one space per turn.'"""
    s = position(people={"red1": "sea:0304"})
    res, _ = run(s, "swim red1 0303\nswim red1 0302" + SINK)
    assert problems(res, "red") == ["red1 has already made its one move as a swimmer this turn"]
    assert where(s, "red1") == "sea:0303"
    s = position(people={"red1": "sea:0304"})
    res, _ = run(s, "swim red1 0303 0302" + SINK)
    assert problems(res, "red") == ["swimmers move only 1 space per turn"]


def test_swimmer_boards_only_a_ship_that_shared_its_space_at_the_start():
    """Swimming people: 'They can, however, board a ship, if they are on the same space at the
    beginning of a turn. Climbing on board counts as one of a player's three moves. The ship can
    be moved after the swimmer climbs on board.'"""
    s = position(people={"red1": "sea:0304"}, ships={"ship1": "0304"})
    res, _ = run(s, "board red1 0304\nsail ship1 0303 0302" + SINK)
    assert problems(res, "red") == []
    assert where(s, "red1") == "ship:ship1" and s.ships["ship1"] == "0302"
    # the ship sailed in this turn: no
    s = position(people={"red1": "sea:0304"}, ships={"ship1": "0303"})
    res, _ = run(s, "sail ship1 0304\nboard red1 0304" + SINK)
    assert "at the beginning of the turn" in problems(res, "red")[0]
    # the swimmer swam to the ship this turn: no
    s = position(people={"red1": "sea:0303"}, ships={"ship1": "0304"})
    res, _ = run(s, "swim red1 0304\nboard red1 0304" + SINK)
    assert "already made its one move" in problems(res, "red")[0]


def test_dive_and_jump_are_the_persons_one_swim():
    """Swimming people: 'Jumping off a boat or land into the sea counts as a move - that person's
    one move that turn as a swimmer.'"""
    s = position(people={"red1": "land:0405", "red2": "ship:ship1"}, ships={"ship1": "0304"})
    res, _ = run(s, "swim red1 0404\nswim red1 0403\nswim red2 0304" + SINK)
    assert problems(res, "red") == [
        "red1 has already made its one move as a swimmer this turn"]
    assert where(s, "red1") == "sea:0404" and where(s, "red2") == "sea:0304"
    assert "red1 dives from the tile at 0405 into the sea at 0404." in texts(res)
    assert "red2 jumps off ship1 into the sea at 0304." in texts(res)


def test_swimmers_never_return_to_land():
    """Swimming people: 'Swimmers may never return to land (except for the safe islands).'
    Land Movement: 'Boat -> Land movement is not allowed except to get onto a Safe Island.'"""
    s = position(people={"red1": "sea:0404", "red2": "ship:ship1"}, ships={"ship1": "0404"})
    res, _ = run(s, "swim red1 0405\nwalk red1 0405\nwalk red2 0405" + SINK)
    why = problems(res, "red")
    assert "0405 is an island tile: swimmers may never return to land" in why[0]
    assert "not on land" in why[1] and "not on land" in why[2]


def test_ashore_only_from_a_nearly_safe_space():
    """The Safe Islands: 'If a person gets to one of the spaces [next to a safe island], either in
    a ship or by swimming, one more move will get him to safety onto an island.'"""
    s = position(people={"red1": "sea:0102", "red2": "sea:0103", "red3": "ship:ship1"},
                 ships={"ship1": "0201"})
    res, _ = run(s, "ashore red1 0101\nashore red2 0101\nashore red3 0101" + SINK)
    assert problems(res, "red") == [
        "red2 is in 0103, which is not a nearly safe space next to 0101"]
    assert where(s, "red1") == "safe:0101" and where(s, "red3") == "safe:0101"
    # a swimmer that swam this turn may not also go ashore
    s = position(people={"red1": "sea:0202"})
    res, _ = run(s, "swim red1 0102\nashore red1 0101" + SINK)
    assert "swam this turn" in problems(res, "red")[0]
    # from land: never
    s = position(people={"red1": "land:0405"})
    res, _ = run(s, "ashore red1 0101" + SINK)
    assert "nearly safe sea space" in problems(res, "red")[0]


def test_ship_to_ship_then_ashore():
    """The Safe Islands: 'if a ship is on the nearly safe space, another can move to a
    neighboring space and people can jump onto that ship and then ashore.'"""
    s = position(people={"red1": "ship:ship2"}, ships={"ship1": "0201", "ship2": "0303"})
    res, _ = run(s, "sail ship2 0202\nboard red1 0201\nashore red1 0101" + SINK)
    assert problems(res, "red") == []
    assert where(s, "red1") == "safe:0101"


def test_swim_with_a_dolphin():
    """Dolphins: 'A dolphin + swimmer combination may move together one space a turn during the
    movement phase'; a dive takes no dolphin along."""
    s = position(people={"red1": "sea:0304", "red2": "sea:0304", "red3": "land:0405"},
                 creatures={"dolphin1": "0304", "dolphin2": "0404"})
    res, _ = run(s, "swim red1 0303 with dolphin1\nswim red2 0303 with dolphin1\n"
                    "swim red3 0404 with dolphin2" + SINK, rolls=[1, 1])
    why = problems(res, "red")
    assert s.creatures["dolphin1"] == "0303" and where(s, "red1") == "sea:0303"
    assert "dolphin1 is in 0303, not with red2 in 0304" in why[0]
    assert "only a swimmer takes a dolphin along" in why[1]
    assert "red1 swims from 0304 to 0303 with dolphin1." in texts(res)


def test_a_dolphin_moves_with_one_swimmer_once_a_turn():
    """Dolphins: 'A dolphin + swimmer combination may move together one space a turn'."""
    s = position(people={"red1": "sea:0304", "red2": "sea:0303"},
                 creatures={"dolphin1": "0304"})
    res, _ = run(s, "swim red1 0303 with dolphin1\nswim red2 0302 with dolphin1" + SINK,
                 rolls=[1, 5])
    assert "dolphin1 has already moved with a swimmer this turn" in problems(res, "red")[0]


def test_owner_sees_the_value_of_a_person_moved_and_only_the_owner():
    """Preparing to Play 2: players cannot look at the numbers under their own people 'except as
    they move them'."""
    s = position(people={"red1": "land:0405"})
    s.values["red1"] = 5
    res, _ = run(s, "walk red1 0406" + SINK)
    private = [e for e in res.events if e.kind == "value"]
    assert [(e.text, e.audience) for e in private] == [("red1 has value 5.", ("red",))]
    assert s.seen["red"] == {"red1": 5}
    assert all("value 5" not in t for t in public_texts(res))


def test_a_transcribed_map_can_limit_the_nearly_safe_spaces():
    """The Safe Islands: 'the spaces between the red coral reefs' - a map's group nearly-safe
    (docs/maps.md) lists them; then only those lead ashore."""
    from pbem.games.atlantis import ruleset as atlantis

    text = atlantis.package_file("map.toml") + '\nnearly-safe = ["0102"]\n'
    s = position(people={"red1": "sea:0102", "red2": "sea:0201"})
    s.hexmap = ruleset.load_map(text, "reefs.toml")
    res, _ = run(s, "ashore red1 0101\nashore red2 0101" + SINK)
    assert problems(res, "red") == [
        "red2 is in 0201, which is not a nearly safe space next to 0101"]
    assert where(s, "red1") == "safe:0101"


# -- rulebook sentences found untested or unimplemented in review --------------------------------

def test_moves_happen_before_the_sink_wherever_the_sink_line_stands():
    """The Play: each turn the player '1. Moves his people and/or ships. 2. Removes an island
    tile.'; Part of the Island sinks: 'After the phasing player takes his three moves, he picks an
    island tile to sink.' A person who walks off a tile is not on it when it sinks, even when the
    sink line is written first."""
    s = position(people={"red1": "land:0405"})
    res, _ = run(s, "sink 0405\nwalk red1 0506", rolls=[2])
    assert problems(res, "red") == []
    assert where(s, "red1") == "land:0506" and "0405" not in s.tiles
    t = texts(res)
    assert t.index("red1 walks from 0405 to 0506.") < t.index("red sinks the sand tile at 0405.")


def test_climbing_on_board_costs_one_of_the_three_moves():
    """Swimming people: 'Climbing on board counts as one of a player's three moves. The ship can
    be moved after the swimmer climbs on board if the player still has moves left.' Boarding
    takes 1 of the 3, so the ship has 2 left, not 3."""
    s = position(people={"red1": "sea:0304"}, ships={"ship1": "0304"})
    res, _ = run(s, "board red1 0304\nsail ship1 0303 0302 0301" + SINK)
    assert problems(res, "red") == ["this needs 3 movement points and 2 are left (three spaces "
                                    "a turn in all)"]
    assert where(s, "red1") == "ship:ship1" and s.ships["ship1"] == "0304"


def test_many_swimmers_can_occupy_a_single_hex():
    """Swimming people: 'Many swimmers can occupy a single hex.' (unlike a land tile's 3 and a
    ship's 3): a fifth swimmer joins four others."""
    s = position(people={"red1": "sea:0304", "red2": "sea:0304", "green1": "sea:0304",
                         "green2": "sea:0304", "red3": "sea:0303"})
    res, _ = run(s, "swim red3 0304" + SINK)
    assert problems(res, "red") == []
    assert sum(1 for p in s.people.values() if p.where == "sea" and p.hex == "0304") == 5


def test_ships_share_spaces_with_dolphins_and_creatures_enter_occupied_spaces():
    """Ship Movement: 'A ship can be in a space with a shark or a dolphin without effect';
    Dolphins: 'Dolphins may be in the same space as ships'; Important: 'Sea creatures may move
    onto any sea spaces including those with other figures.'"""
    s = position(people={"red1": "ship:ship1"}, ships={"ship1": "0303"},
                 creatures={"dolphin1": "0304", "shark1": "0305", "kraken1": "0203"})
    res, _ = run(s, "sail ship1 0304\nif shark: shark1 0304" + SINK, rolls=[2])
    assert problems(res, "red") == []
    assert s.ships == {"ship1": "0304"} and where(s, "red1") == "ship:ship1"
    assert s.creatures["shark1"] == "0304" and s.creatures["dolphin1"] == "0304"


def test_the_dolphin_stays_on_the_nearly_safe_space_until_the_next_turn():
    """The Safe Islands: 'If one of your swimmers as well as a dolphin reaches the "nearly safe
    space" and goes ashore, the dolphin remains on the "nearly safe space". It may be moved away
    only on the next turn. (Yours or another player's).' 0102 is a nearly safe space of 0101;
    0103 is sea next to it. In the turn red1 goes ashore, neither red2 (swimming with it) nor
    the creature die may move dolphin1; in green's turn, the die may."""
    s = position(people={"red1": "sea:0102", "red2": "sea:0102"},
                 creatures={"dolphin1": "0102"})
    body = "ashore red1 0101\nswim red2 0103 with dolphin1\nif dolphin: dolphin1 0103" + SINK
    receipt = [p.why for p in ruleset.check(s, "red", orders("red", body, s))]
    held = ("dolphin1 stays on the nearly safe space 0102 until the next turn: a swimmer went "
            "ashore from there this turn")
    assert receipt == [held, held]
    res, _ = run(s, body, rolls=[5])
    assert problems(res, "red") == [held, held]
    assert where(s, "red1") == "safe:0101" and where(s, "red2") == "sea:0102"
    assert s.creatures["dolphin1"] == "0102"
    # the only dolphin cannot move: no creature moves, and no creature window opens
    assert s.stage == "turn" and s.phasing == "green"
    res, _ = run(s, "if dolphin: dolphin1 0103\nsink 0405", rolls=[5])
    assert problems(res, "green") == [] and s.creatures["dolphin1"] == "0103"
    # no creature line at all: the only dolphin is held, so no creature window opens either
    s = position(people={"red1": "sea:0102"}, creatures={"dolphin1": "0102"})
    res, _ = run(s, "ashore red1 0101" + SINK, rolls=[5])
    assert s.stage == "turn" and s.phasing == "green" and s.held == []
    assert ("dolphin1 is held on a nearly safe space until the next turn (The Safe Islands): "
            "no creature moves.") in texts(res)
    assert "dolphin1 stays on the nearly safe space 0102 until the next turn." in \
        public_texts(res)


def test_the_held_dolphin_is_remembered_in_the_creature_window():
    """The Safe Islands (as above), when the die's face has no matching line and the short
    creature window opens: the hold is part of the stored public state and ends with the
    player-turn."""
    s = position(people={"red1": "sea:0102"}, creatures={"dolphin1": "0102", "kraken1": "0304"})
    run(s, "ashore red1 0101" + SINK, rolls=[1])              # dolphin or kraken: no line
    assert s.stage == "creature"
    s = ruleset.load(ruleset.dump(s))
    assert ruleset.view(s, "*")["held"] == ["dolphin1"]
    res, _ = run(s, "creature dolphin1 0103\ncreature kraken1 0303")
    assert problems(res, "red") == [
        "dolphin1 stays on the nearly safe space 0102 until the next turn: a swimmer went "
        "ashore from there this turn"]
    assert s.creatures == {"dolphin1": "0102", "kraken1": "0303"}
    assert s.phasing == "green" and s.held == []


def test_a_path_that_repeats_the_starting_hex_is_explained():
    """Orders name the hexes entered (README, A player-turn): 'walk red1 0405 0506' from 0405
    gets an answer that says so, not 'not next to'."""
    s = position(people={"red1": "land:0405"}, ships={"ship1": "0304"})
    res, _ = run(s, "walk red1 0405 0506\nsail ship1 0304 0303" + SINK)
    why = problems(res, "red")
    assert len(why) == 2
    assert "red1 is at 0405: a path lists the hexes entered" in why[0] and "walk red1 0506" in why[0]
    assert "ship1 is at 0304" in why[1] and "sail ship1 0303" in why[1]
