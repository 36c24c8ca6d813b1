"""The Escape from Atalix stand-in board (pbem/games/atalix/map.toml) and its movement rules.

Each test cites the rulebook section (shared/seeds/002_171ec0f1db0daf85.txt) it checks. Hexes
and neighbours were worked by hand from docs/maps.md (offset even-low: odd columns are upper,
so from an upper column ne/se/sw/nw are (c+1, r-1), (c+1, r), (c-1, r), (c-1, r-1); from a
lower one (c+1, r), (c+1, r+1), (c-1, r+1), (c-1, r)), and elevations read off the drawing in
the map file's comments (checked against the map by test_the_drawing_in_the_file_is_the_map).
"""

from pathlib import Path

import pytest

import pbem.games.atalix as atalix
from pbem.boards.hexmap import MapError, load_map
from pbem.boards.textmap import ascii_map
from pbem.games.atalix.board import (COMPASS, Board, SpaceInfo, climb_problem, move_problem,
                                     path_problem)

MAP = Path(atalix.__file__).parent / "map.toml"
TEXT = MAP.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def board():
    return Board(load_map(TEXT, "map.toml"))


def board_from(text):
    return Board(load_map(text, "edited.toml"))


# -- the map file -------------------------------------------------------------------------------
def test_the_map_is_a_marked_stand_in(board):
    assert board.hexmap.stand_in
    assert "drawn to its description" in board.hexmap.map_source
    assert (board.hexmap.columns, board.hexmap.rows) == (9, 9)


def test_the_drawing_in_the_file_is_the_map(board):
    letters = {"scrap": "S", "carbon": "C", "minerals": "M", "cave": "V", "plain": "."}

    def cell(h):
        i = board.info(h)
        text = ("@" if h == board.center else letters[i.terrain]) + str(i.elevation)
        text += "".join(map(str, i.numbers)) + ("*" if i.shape == "star" else "")
        return text[:4]
    lines = TEXT.splitlines()
    top = next(n for n, line in enumerate(lines) if line.startswith("#      01   02"))
    drawing = "\n".join(line[2:] for line in lines[top:top + 19]) + "\n"
    assert ascii_map(board.hexmap, cell, 4) == drawing


def test_board_setup_center_space(board):
    # Board Setup: "place their player pawn on the center space (A), marked by a light hexagon"
    assert board.center == "0505"
    assert board.info("0505") == SpaceInfo("0505", "plain", None, "", (), 0)


def test_resources_orange_cube_on_the_two_above_the_center(board):
    # Resources: "place an orange cube on the number two directly above the center board space"
    above = board.hexmap.step(board.center, "n")
    assert above == "0504"
    info = board.info(above)
    assert (info.terrain, info.resource, info.numbers, info.shape) == ("scrap", "scrap", (2,),
                                                                       "circle")


def test_chapter_4_cave_begins_on_the_3_with_4_bars(board):
    # Chapter 4: "The cave begins on the dark gray board space with the number 3 and 4 bars of
    # elevation"; The Alien and the Storm: "The three darkened board spaces at the top right".
    assert board.cave == ("0802", "0902", "0901")
    first = board.info("0802")
    assert (first.terrain, first.numbers, first.elevation) == ("cave", (3,), 4)
    assert first.resource == "minerals"  # "dark gray"
    for h in board.cave:
        assert board.info(h).terrain == "cave"
        column, row = int(h[:2]), int(h[2:])
        assert column >= 8 and row <= 2  # top right of a 9 x 9 map


def test_the_alien_starts_in_the_cave_next_to_the_3(board):
    # The Alien and the Storm: "Place the alien in the cave, adjacent to the space numbered 3"
    assert board.alien_start == "0902"
    # By hand: 0802 (a lower column) touches 0801, 0803, 0902, 0903, 0703, 0702; of the cave
    # only 0902. 0901 touches 0902 and 0801 only.
    assert set(board.neighbours("0802")) == {"0801", "0803", "0902", "0903", "0703", "0702"}
    assert set(board.neighbours("0901")) == {"0902", "0801"}


def test_the_storm_origin_is_the_star_3_tiles_right_of_the_center(board):
    # The Alien and the Storm: "the starred space 3 tiles to the right of the center (G)".
    # Read as three columns on along the center's row: se, ne, se from 0505 (no straight line
    # runs due right on flat-topped hexes).
    assert board.storm_origin == "0805"
    assert board.info("0805").shape == "star"
    h = board.center
    for direction, expected in (("se", "0605"), ("ne", "0705"), ("se", "0805")):
        h = board.hexmap.step(h, direction)
        assert h == expected
    assert board.hexmap.distance("0505", "0805") == 3


def test_board_space_anatomy_numbers_and_shapes(board):
    # Board Space Anatomy B, C: circles where resources are available, numbers 1-6; Resources:
    # cubes are placed "according to the associated resource type", so numbered spaces hold one.
    counts = {n: len(board.numbered(n)) for n in range(1, 7)}
    assert counts == {1: 3, 2: 3, 3: 3, 4: 3, 5: 4, 6: 4}
    assert all(2 <= c <= 12 for c in counts.values())
    for h in board.spaces():
        info = board.info(h)
        assert (info.shape == "circle") == bool(info.numbers)
        if info.numbers:
            assert info.resource in ("scrap", "carbon", "minerals")
    # "On board spaces with two numbers, place only one cube": 0303 and 0709.
    assert [h for h in board.spaces() if len(board.info(h).numbers) == 2] == ["0303", "0709"]
    assert board.info("0709").numbers == (1, 6)


def test_resources_scrap_is_near_the_ship(board):
    # Resources: "Scrap is debris from your ship and is found on orange board spaces."
    scrap = board.hexmap.hexes("scrap")
    assert scrap and all(board.hexmap.distance("0505", h) <= 2 for h in scrap)
    assert {board.info(h).terrain for h in board.neighbours("0505")} == {"scrap"}


def test_elevation_rises_toward_the_rim(board):
    # Introduction: "an old asteroid crater"; Board Space Anatomy D: bars of elevation.
    assert {board.info(h).elevation for h in board.spaces()} == {0, 1, 2, 3, 4}
    assert all(board.info(h).elevation == 0 for h in board.neighbours("0505"))
    for corner in ("0101", "0901", "0109", "0909"):
        assert board.info(corner).elevation == 4


# -- the compass and directions (Events 3 and 4, Scanner) ---------------------------------------
def test_compass_steps_from_the_center(board):
    # Event 3: "if a 1 is rolled, move all storm tokens one space up towards the top"
    assert COMPASS[1] == "n"
    got = {d6: board.step("0505", d6) for d6 in range(1, 7)}
    assert got == {1: "0504", 2: "0604", 3: "0605", 4: "0506", 5: "0405", 6: "0404"}
    assert board.step("0802", 2) == "0902"  # from a lower column, ne is (c+1, r)
    assert board.step("0501", 1) is None  # "at the edge of the map ... it does not move"
    with pytest.raises(ValueError, match="1 to 6"):
        board.step("0505", 7)


def test_scanner_furthest_space_from_the_center(board):
    # Scanner: "place a black disk at board space furthest in that direction ... from the
    # center", measured on the drawing (by hand, with a row's height 1 and a column's width
    # sqrt(3)/2; the even columns sit half a row lower than the odd ones, as 0505's
    # neighbours show). North: 0501 (y 1; 0401 is at 1.5). North-east, along (sqrt3/2, -1/2):
    # 0901 is 4 columns right and 4 rows up, 4*3/4 + 4/2 = 5 out, more than 0903's 3 + 1:
    # the corner. South: 0409 and 0609 at y 9.5 are lower than 0509 at 9; first label.
    got = {d6: board.furthest(d6) for d6 in range(1, 7)}
    assert got == {1: "0501", 2: "0901", 3: "0909", 4: "0409", 5: "0109", 6: "0101"}


def test_event_4_furthest_storm_token_and_ties(board):
    # Event 4: "adjacent to an existing storm token that is the furthest in the indicated
    # compass direction". Storm on 0705, 0805, 0806: on the drawing 0705 stands half a hex
    # above 0805, which stands half a hex above 0806, so 0705 is furthest north (d6 = 1); from
    # 0505, 0806 is 3 se steps (0605, 0706, 0806), 0805 is 2 se + 1 ne, 0705 1 se + 1 ne, so
    # 0806 is furthest se (d6 = 3).
    storm = ["0805", "0806", "0705"]
    assert board.furthest(1, storm) == "0705"
    assert board.furthest(3, storm) == "0806"
    # Ties: 0409 and 0609 stand equally low (y 9.5) and equally off the line: first label;
    # 0509, on the line, stands half a row higher (y 9), so it is not the furthest south.
    assert board.furthest(4, ["0609", "0409"]) == "0409"
    assert board.furthest(4, ["0609", "0409", "0509"]) == "0409"
    # A storm east of the center expanding south-west (the QA's case): 0803, 0804, 0805 in one
    # column, 0805 the lowest, so the furthest along (-sqrt3/2, 1/2).
    assert board.furthest(5, ["0803", "0804", "0805"]) == "0805"
    assert board.furthest(6, ["0803", "0804", "0805"]) == "0803"
    with pytest.raises(ValueError, match="at least one"):
        board.furthest(4, [])


def test_event_2_every_shortest_path_of_the_alien(board):
    # Event 2: "the shortest path to the center board space. If multiple paths of equal length
    # exist, players may choose". From 0902, 5 steps; worked by hand through 0802 or 0903.
    paths = board.shortest_paths("0902", "0505")
    assert paths == [
        ["0802", "0703", "0603", "0504", "0505"],
        ["0802", "0703", "0603", "0604", "0505"],
        ["0802", "0703", "0704", "0604", "0505"],
        ["0802", "0803", "0704", "0604", "0505"],
        ["0903", "0803", "0704", "0604", "0505"],
    ]
    blocked = board.shortest_paths("0902", "0505", passable=lambda h: h != "0704")
    assert blocked == [["0802", "0703", "0603", "0504", "0505"],
                       ["0802", "0703", "0603", "0604", "0505"]]
    assert board.shortest_paths("0505", "0505") == [[]]
    ring = set(board.neighbours("0505"))
    assert board.shortest_paths("0902", "0505", passable=lambda h: h not in ring) == []


# -- movement -----------------------------------------------------------------------------------
def test_action_phase_move_up_to_2_flat_spaces(board):
    # Action Phase: "Move their player pawn up to 2 board spaces with flat terrain"
    assert move_problem(board, set(), "0505", ["0504"]) is None
    assert move_problem(board, set(), "0505", ["0504", "0604"]) is None
    too_far = move_problem(board, set(), "0505", ["0504", "0604", "0605"])
    assert "1 or 2 board spaces" in too_far
    assert "1 or 2" in move_problem(board, set(), "0505", [])
    assert "0503 is not next to 0505" in move_problem(board, set(), "0505", ["0503"])
    assert "'1010' is not a space" in move_problem(board, set(), "0505", ["1010"])


def test_movement_restrictions_no_lower_to_higher(board):
    # Movement Restrictions: "A player pawn cannot move from a lower space to a higher space
    # without using a climb action". 0504 has 0 bars, 0503 has 1.
    problem = move_problem(board, set(), "0505", ["0504", "0503"])
    assert "0504 (elevation 0)" in problem and "0503 (elevation 1)" in problem
    assert "Movement Restrictions" in problem


def test_movement_restrictions_moving_down_is_allowed(board):
    # Only lower to higher is forbidden: down one (0503 -> 0504), down two (0802 -> 0803),
    # down three from the rock pile 0708 (4) to the dip 0707 (1).
    assert move_problem(board, set(), "0503", ["0504", "0505"]) is None
    assert move_problem(board, set(), "0802", ["0803"]) is None
    assert move_problem(board, set(), "0708", ["0707"]) is None


def test_terraform_tool_path_lets_a_move_go_up(board):
    # Terraform Tool 2: "a path which allows players to move freely between those board spaces
    # as if they were at the same level": 0803 (2) -> 0802 (4) then 0902 (4) in one Move.
    paths = {frozenset({"0802", "0803"})}
    assert move_problem(board, paths, "0803", ["0802", "0902"]) is None
    assert move_problem(board, set(), "0803", ["0802"]) is not None
    assert move_problem(board, paths, "0802", ["0803"]) is None


def test_action_phase_climb_one_level(board):
    # Action Phase: "Climb: Move 1 board space, while increasing their elevation by 1"
    assert climb_problem(board, set(), "0504", "0503") is None
    assert climb_problem(board, set(), "0702", "0802") is None  # into the cave, 3 -> 4
    two = climb_problem(board, set(), "0803", "0802")
    assert "0803 (elevation 2)" in two and "0802 (elevation 4)" in two and "+1" in two
    assert "by 0" in climb_problem(board, set(), "0505", "0504")
    assert "by -1" in climb_problem(board, set(), "0503", "0504")
    assert "not next to" in climb_problem(board, set(), "0505", "0503")


def test_terraform_tool_path_counts_as_flat_for_a_climb(board):
    # Terraform Tool 2: "as if they were at the same level": a Move, not a Climb.
    problem = climb_problem(board, {frozenset({"0504", "0503"})}, "0504", "0503")
    assert "path" in problem and "Move" in problem


def test_terraform_tool_building_a_path(board):
    # Terraform Tool 2: "between your current board spaces and an adjacent board space up to 2
    # elevation apart"
    assert path_problem(board, "0803", "0802") is None  # 2 and 4
    assert path_problem(board, "0505", "0504") is None  # 0 and 0
    cliff = path_problem(board, "0707", "0708")  # 1 and 4
    assert "3 elevation apart" in cliff and "up to 2" in cliff
    assert "not next to" in path_problem(board, "0505", "0503")
    assert "not a space" in path_problem(board, "0505", "x")


# -- refusing a map the rules cannot use -------------------------------------------------------
def test_a_map_without_a_center_is_refused():
    text = TEXT.replace('center = ["0505"]', "")
    with pytest.raises(MapError, match="center holds 0 hexes: expected exactly one"):
        board_from(text)


def test_the_cave_must_begin_on_the_3_with_4_bars():
    text = TEXT.replace('cave = ["0802", "0902", "0901"]', 'cave = ["0902", "0802", "0901"]')
    with pytest.raises(MapError, match="number 3 and 4 bars"):
        board_from(text)


def test_the_alien_must_start_next_to_the_3():
    text = TEXT.replace('alien-start = ["0902"]', 'alien-start = ["0901"]')
    with pytest.raises(MapError, match="adjacent to the space numbered 3"):
        board_from(text)


def test_the_storm_origin_must_be_a_star():
    text = TEXT.replace('storm-origin = ["0805"]', 'storm-origin = ["0806"]')
    with pytest.raises(MapError, match="starred space"):
        board_from(text)


def test_unknown_groups_and_two_shapes_are_refused():
    with pytest.raises(MapError, match="unknown group 'stars'"):
        board_from(TEXT.replace("star = [", "stars = ["))
    with pytest.raises(MapError, match="0805 is both a star and a circle"):
        board_from(TEXT.replace('circle = [\n', 'circle = [\n    "0805",\n'))
