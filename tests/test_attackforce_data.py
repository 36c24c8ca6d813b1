"""Attack Force data table and stand-in board (pbem/games/attackforce/).

Expected values are read from the rulebook (shared/seeds/003_4e91702e1e56808e.txt), cited by
section name: it has no rule numbers.
"""

from __future__ import annotations

import copy

import pytest

from pbem.boards.graph import GraphBoard
from pbem.boards.hexmap import MapError
from pbem.engine.ruleset import HOUSE_SOURCE, DataError, check_options
from pbem.games.attackforce.data import (ATTACK_RATINGS, BATTERY_KINDS, FLIGHTS, OPTIONS,
                                         TARGET_RATINGS, Rules, board_text, check_board,
                                         check_data, load_board, load_data)

# How to Attack, ATTACK TABLE, as printed: "TARGET IS: / ATTACKER IS: A, B, C".
#   A   8   9  10
#   B   7   8   9
#   C   6   7   8
#   D   5   6   7
#   E   4   5   6
PRINTED_TABLE = {
    "A": (8, 9, 10),
    "B": (7, 8, 9),
    "C": (6, 7, 8),
    "D": (5, 6, 7),
    "E": (4, 5, 6),
}

# Playing Piece Reference (Inside Cover Faces): Attack Rating, Range, Target Rating, Movement
# Rating, Count.
PRINTED_PIECES = {
    "eagle": ("A", 4, "B", 5, 14),
    "falcon": ("A", 4, "A", 6, 14),
    "cobra": ("A", 3, "A", 6, 20),
    "korsen": ("C", 4, "E", 7, 1),
}


@pytest.fixture(scope="module")
def data():
    return load_data()


@pytest.fixture(scope="module")
def rules(data):
    return Rules.from_data(data)


@pytest.fixture(scope="module")
def board():
    return load_board()


# -- the data file --------------------------------------------------------------------------

def test_data_file_loads_and_checks(data):
    check_data(data)


@pytest.mark.parametrize("target", TARGET_RATINGS)
@pytest.mark.parametrize("attack", ATTACK_RATINGS)
def test_every_cell_of_the_attack_table_is_as_printed(rules, data, attack, target):
    """How to Attack, ATTACK TABLE: column = Attack Rating, row = Target Rating."""
    expected = PRINTED_TABLE[target][ATTACK_RATINGS.index(attack)]
    assert rules.table.needed(attack, target) == expected
    assert data["attack_table"][f"target_{target}"]["source"].startswith(
        "rulebook How to Attack, ATTACK TABLE")


def test_attack_table_has_no_other_cells(data):
    assert set(data["attack_table"]) == {f"target_{t}" for t in TARGET_RATINGS}
    for row in data["attack_table"].values():
        assert set(row) == {"attacker_A", "attacker_B", "attacker_C", "source"}


def test_rulebook_example_cobra_attacks_eagle(rules):
    """How to Attack, EXAMPLE: a Cobra (Attack Rating A) attacks an Eagle (Target Rating B) 2
    spaces away: the number is 7; a roll of 6 destroys the Eagle. (GAMES.md case.)"""
    cobra, eagle = rules.pieces["cobra"], rules.pieces["eagle"]
    assert cobra.attack == "A" and eagle.target == "B"
    assert 2 <= cobra.range  # "The Range is 2, so the attack can take place"
    assert rules.table.needed(cobra.attack, eagle.target) == 7
    assert rules.table.destroys(cobra.attack, eagle.target, 6)
    assert rules.table.destroys(cobra.attack, eagle.target, 7)  # "less than or the same as"
    assert not rules.table.destroys(cobra.attack, eagle.target, 8)


def test_attacks_use_two_six_sided_dice(rules):
    """How to Attack 3 ('rolls 2 dice'); Game Parts ('two six-sided dice')."""
    assert (rules.table.dice, rules.table.sides) == (2, 6)


@pytest.mark.parametrize("kind", sorted(PRINTED_PIECES))
def test_fighters_as_printed(rules, kind):
    """Playing Piece Reference (Inside Cover Faces)."""
    p = rules.pieces[kind]
    assert (p.attack, p.range, p.target, p.movement, p.count) == PRINTED_PIECES[kind]
    assert p.source.startswith("rulebook Playing Piece Reference")
    assert not p.battery


def test_korsen_attacks_twice_others_once(rules):
    """Vaj Korsen: 'attack twice (instead of once) each Turn'; How to Attack: 'any one enemy
    piece during his move'."""
    assert rules.pieces["korsen"].attacks == 2
    assert all(p.attacks == 1 for k, p in rules.pieces.items() if k != "korsen")


def test_batteries_are_marked_stand_ins_and_fill_the_cup(rules):
    """The Playing Pieces: three types (Lasers, Pompoms, Blasters), values not in the text;
    How to Set Up 4: 14 drawn, 7 set aside, so 21 in the cup."""
    for kind in BATTERY_KINDS:
        p = rules.pieces[kind]
        assert p.battery and p.side == "empire" and p.movement == 0
        assert p.source.startswith("stand-in: not in the rulebook")
    assert sum(rules.pieces[k].count for k in BATTERY_KINDS) == 21
    assert rules.battery_cup == {"pieces": 21, "drawn": 14, "set_aside": 7}
    # How to Set Up 4: all of the 16 Battery Spaces except 2 get the 14 drawn
    assert rules["battery_spaces"] - rules["empty_battery_spaces"] == 14


def test_fighter_cup_is_the_cobras_and_korsen(rules):
    """How to Set Up 3: all of the Cobra Starfighters and Vaj Korsen in a cup; How to Play
    step 3: one piece drawn per Launcher, 4 Launchers."""
    assert rules.fighter_cup == {"pieces": 21, "draws_per_launcher": 1}
    assert rules["launchers"] == 4


def test_flights_of_seven_for_four_turns(rules):
    """Introduction: 28 Eagle and Falcon Starfighters in 4 Flights (Red, Blue, Green, Yellow);
    Federation Flights: 7 pieces a Flight, one Flight a Turn, all in after 4 Turns."""
    assert tuple(rules.flights) == FLIGHTS
    assert rules["flight_size"] == 7 and rules["flights_per_turn"] == 1
    assert rules["entry_turns"] == 4
    assert all(len(rules.flight_pieces(c)) == 7 for c in FLIGHTS)
    kinds = [k for c in FLIGHTS for k in rules.flight_pieces(c)]
    assert kinds.count("eagle") == 14 and kinds.count("falcon") == 14


def test_markers(rules, data):
    """The Playing Pieces: 9 Hull Markers, 8 blank and an explosion; How to Win: Target Rating
    E; Game Parts: 84 pieces in all, which leaves 5 Wreck Markers (4 Launchers, Sensor Pod)."""
    hull = data["markers"]["hull"]
    assert (hull["blank"], hull["explosion"], rules.hull_target) == (8, 1, "E")
    assert rules.wrecks == 5
    assert data["markers"]["wreck"]["source"].startswith("derived from Game Parts")
    assert rules["pieces_in_game"] == 84
    assert rules["hull_spaces"] == 8 and rules["hull_looks"] == 3


def test_optional_rules_are_options_off_by_default(data):
    """Attacking Launchers and Attacking the Sensor Pod (optional): 'If both players agree';
    both Target Rating E."""
    for key in ("launchers", "sensor_pod"):
        assert data["optional"][key]["default"] is False
        assert data["optional"][key]["target"] == "E"
        assert OPTIONS[key].source.startswith("rulebook Attacking")
    assert check_options(OPTIONS, {}, "attackforce") == {"launchers": "no", "sensor_pod": "no"}
    assert check_options(OPTIONS, {"sensor_pod": "yes"}, "attackforce")["sensor_pod"] == "yes"
    with pytest.raises(ValueError):
        check_options(OPTIONS, {"launchers": "maybe"}, "attackforce")


def test_every_entry_has_a_source(data):
    def walk(node, path):
        if isinstance(node, dict) and "source" in node:
            src = node["source"]
            assert isinstance(src, str) and src.startswith(
                ("rulebook ", "derived from ", "stand-in: ")), path
            return 1
        return sum(walk(v, f"{path}.{k}") for k, v in node.items())

    # 7 pieces, 5 table rows, the dice, 4 Flights, 2 cups, 2 markers, 14 rules, 2 optional
    assert walk(data, "") == 37


def test_turn_limit_is_a_marked_stand_in(data):
    """How to Win gives no last Turn; the limit is a stand-in a referee can change or lift."""
    assert data["rules"]["turn_limit"]["source"].startswith("stand-in")
    assert load_data({"rules": {"turn_limit": 0}})["rules"]["turn_limit"] == {
        "value": 0, "source": HOUSE_SOURCE}


# -- house rules and the checks -------------------------------------------------------------

def test_house_rules_change_a_battery_and_mark_it(data):
    changed = load_data({"pieces": {"laser": {"range": 5}}})
    assert changed["pieces"]["laser"]["range"] == 5
    assert changed["pieces"]["laser"]["source"] == HOUSE_SOURCE
    assert data["pieces"]["laser"]["range"] == 6  # the loaded default is untouched


@pytest.mark.parametrize("house, words", [
    ({"pieces": {"laser": {"count": 8}}}, "cups.battery.pieces"),
    ({"pieces": {"eagle": {"attack": "D"}}}, "pieces.eagle.attack"),
    ({"pieces": {"laser": {"movement": 2}}}, "no Movement Rating"),
    ({"attack_table": {"target_B": {"attacker_A": "seven"}}}, "attack_table.target_B"),
    ({"flights": {"red": {"eagles": 5}}}, "flights.red"),
    ({"flights": {"red": {"eagles": 3, "falcons": 4}}}, "flights.*.eagles"),
    ({"rules": {"empty_battery_spaces": 3}}, "cups.battery.drawn"),
    ({"markers": {"wreck": {"count": 6}}}, "rules.pieces_in_game"),
    ({"rules": {"pass_friendly": 1}}, "true or false"),
    ({"nonsense": 1}, "unknown key 'nonsense'"),
])
def test_house_rules_that_do_not_fit_are_refused(house, words):
    with pytest.raises(DataError) as err:
        load_data(house)
    assert words in str(err.value)
    assert str(err.value).startswith("house rules")


def _changed(path: str, value):
    """A deep copy of data.toml with the entry at the dotted ``path`` set to ``value``."""
    data = copy.deepcopy(load_data())
    *parents, last = path.split(".")
    node = data
    for key in parents:
        node = node[key]
    node[last] = value
    return data


@pytest.mark.parametrize("path, value, message", [
    ("nonsense", {}, "data.toml: nonsense = '...': unknown section: expected one of pieces, "
     "attack_table, attack_dice, flights, cups, markers, rules, optional"),
    ("pieces.dragon", {}, "data.toml: pieces.dragon = '...': unknown kind of piece: expected "
     "one of eagle, falcon, cobra, korsen, laser, pompom, blaster"),
    ("pieces.eagle.colour", "red", "data.toml: pieces.eagle.colour = 'red': unknown key: "
     "expected one of name, side, class, attack, range, target, movement, attacks, count, "
     "source"),
    ("pieces.eagle.name", "", "data.toml: pieces.eagle.name = '': expected the printed name"),
    ("pieces.eagle.side", "empire", "data.toml: pieces.eagle.side = 'empire': expected "
     "'arcturan'"),
    ("pieces.laser.class", "fighter", "data.toml: pieces.laser.class = 'fighter': expected "
     "'battery'"),
    ("pieces.cobra.target", "F", "data.toml: pieces.cobra.target = 'F': expected a Target "
     "Rating: A, B, C, D, E"),
    ("pieces.eagle.movement", 0, "data.toml: pieces.eagle.movement = 0: expected spaces from "
     "1 to 99"),
    ("pieces.korsen.count", 2, "data.toml: pieces.korsen.count = 2: expected 1 (Vaj Korsen)"),
    ("pieces.eagle.source", "  ", "data.toml: pieces.eagle.source = '  ': expected a "
     "non-empty source"),
    ("attack_table.target_F", {}, "data.toml: attack_table.target_F = '...': unknown row: "
     "expected one of target_A, target_B, target_C, target_D, target_E"),
    ("attack_table.target_A.attacker_A", 100, "data.toml: attack_table.target_A.attacker_A = "
     "100: expected the number to roll at or under from 0 to 99"),
    ("attack_dice.sides", 1, "data.toml: attack_dice.sides = 1: expected a whole number from 2 "
     "to 256"),
    ("rules.stacking", 1, "data.toml: rules.stacking = 1: expected a table { value = ..., "
     "source = \"...\" }"),
    ("flights.purple", {}, "data.toml: flights.purple = '...': unknown Flight: expected one of "
     "red, blue, green, yellow"),
    ("cups.battery.drawn", 13, "data.toml: cups.battery = 20: expected drawn + set_aside = 21 "
     "(How to Set Up 4)"),
    ("cups.fighter.pieces", 20, "data.toml: cups.fighter.pieces = 20: expected the 21 Cobras "
     "and Vaj Korsen (How to Set Up 3)"),
    ("markers.hull.explosion", 2, "data.toml: markers.hull.explosion = 2: expected 1 (The "
     "Playing Pieces)"),
    ("markers.hull.blank", 7, "data.toml: markers.hull.blank = 7: expected one blank Hull "
     "Marker per Hull Space"),
    ("markers.wreck.count", 3, "data.toml: markers.wreck.count = 3: expected at least 5: one "
     "for each Launcher and the Sensor Pod"),
    ("optional.launchers.default", "no", "data.toml: optional.launchers.default = 'no': "
     "expected true or false"),
])
def test_data_errors_name_the_file_path_value_and_expectation(path, value, message):
    with pytest.raises(DataError) as err:
        check_data(_changed(path, value))
    assert str(err.value).startswith(message)


def test_flights_stand_in_their_printed_order():
    data = load_data()
    flights = _changed("flights", {c: data["flights"][c] for c in reversed(FLIGHTS)})
    with pytest.raises(DataError, match=r"^house rules: flights = \['yellow', 'green', 'blue', "
                       r"'red'\]: expected the four Flights red, blue, green, yellow$"):
        check_data(flights, "house rules")


# -- the board ------------------------------------------------------------------------------

def test_board_loads_as_a_marked_stand_in(board, data):
    assert isinstance(board, GraphBoard)
    assert board.stand_in
    check_board(board, data)
    assert len(board) == 12 * 14


def test_board_has_the_kinds_and_groups_the_rules_need(board):
    """The Map: 16 Battery Spaces, 8 Hull Spaces, 4 Launchers, the Sensor Pod Space, Tunnels;
    How to Play step 1: map edges."""
    assert len(board.of_kind("battery")) == 16
    assert len(board.of_kind("hull")) == 8
    assert len(board.of_kind("launcher")) == 4
    assert board.of_kind("sensor-pod") == ("79",)
    assert board.group("hull") == ("54", "69", "76", "80", "90", "93", "100", "115")
    assert set(board.group("battery")) == set(board.of_kind("battery"))
    assert set(board.group("launcher")) == set(board.of_kind("launcher"))
    assert board.edges() == ("edge-east", "edge-north", "edge-south", "edge-west")
    assert all(len(board.group(e)) >= 7 for e in board.edges())
    assert "tunnel" in board.link_kinds()
    # the Novaship touches no edge: no special space is an entry space
    edge = {s for e in board.edges() for s in board.group(e)}
    special = {s for k in ("battery", "hull", "launcher", "sensor-pod") for s in board.of_kind(k)}
    assert not edge & special


def test_tunnels_join_battery_spaces_only_and_connect_them(board):
    """The Map: 'Tunnels (the lines connecting the 16 Battery Spaces to each other)';
    How to Move 5a: a Battery moves to 'one other empty Battery Space connected to it by a
    Tunnel'."""
    batteries = set(board.of_kind("battery"))
    tunnels = [(a, b) for a, b, kind, _ in board.links() if kind == "tunnel"]
    assert len(tunnels) == 20
    assert all(a in batteries and b in batteries for a, b in tunnels)
    assert set(board.within("39", 16, via="tunnel")) == batteries
    assert board.neighbours("63", via="tunnel") == ("39", "65", "99")
    assert board.neighbours("41", via="tunnel") == ("39", "44")
    # one Battery Space per Turn: 39 and 65 are not joined, though 63 joins both
    assert not board.adjacent("39", "65", via="tunnel")
    assert board.distance("39", "130", via="tunnel") == 6


def test_range_is_counted_as_the_rulebook_counts_it(board):
    """How to Attack 1: 'counts the number of spaces between the Attacker and the Target,
    including the space the Target is in but not the space the Attacker is in'.

    By hand on the stand-in grid (12 columns, numbered row by row, no diagonal steps):
    - Launcher 52 (column 4, row 5) to Hull Space 54 (column 6, row 5): the spaces counted are
      53 and 54: 2, the EXAMPLE's range (a Cobra on Launcher 52 may attack an Eagle on 54);
    - 52 to 65 (column 5, row 6): counted 53 (or 64) and 65: 2, not 1 (no corners);
    - 39 (column 3, row 4) to 115 (column 7, row 10): 4 columns and 6 rows: 40 41 42 43 then
      55 67 79 91 103 115: 10;
    - a piece's own space: 0; the next space: 1.
    """
    assert board.distance("52", "54") == 2
    assert board.distance("52", "65") == 2
    assert board.distance("39", "115") == 10
    assert board.distance("1", "168") == 11 + 13
    assert board.distance("54", "54") == 0
    assert board.distance("54", "55") == 1
    # a Cobra (Range 3) on 52 reaches 54 but a target 4 spaces away is out of range
    assert "54" in board.within("52", 3)
    assert board.distance("52", "80") == 6 and "80" not in board.within("52", 3)
    assert board.path("39", "115") == ("39", "40", "41", "42", "43", "55", "67", "79", "91",
                                       "103", "115")


def test_a_referee_map_without_the_features_is_refused(data):
    text = board_text().replace("sensor-pod = [79]\n", "")
    with pytest.raises(MapError, match="sensor-pod"):
        check_board(load_board(text, "mine.toml"), data)
    text = board_text().replace("[63, 65],", "[63, 64],")
    with pytest.raises(MapError, match="only between Battery Spaces"):
        check_board(load_board(text, "mine.toml"), data)
    text = board_text().replace("    [63, 65],\n    [70, 68],\n    [99, 101],\n    [106, 104],\n",
                                "")
    with pytest.raises(MapError, match="not connected"):
        check_board(load_board(text, "mine.toml"), data)
