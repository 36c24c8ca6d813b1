"""Atlantis data table, options, map checks and the rules text.

Expected numbers are read from the rulebook (shared/seeds/004_f1afad92cc456acf.txt), cited by
section name.
"""

from __future__ import annotations

import pytest

from pbem.boards import MapError, load_map
from pbem.games.atlantis import ruleset
from pbem.games.atlantis.data import SYMBOLS, DataError, Rules, load_data

# Symbols Under Tiles - Manifest of My Set, transcribed row by row (sand, forest, fortress).
MANIFEST = {
    "boat": (2, 1, 0), "dolphin": (2, 2, 1), "dolphin-dives": (2, 0, 0), "kraken": (2, 2, 1),
    "kraken-dives": (1, 1, 0), "kraken-killed": (1, 0, 0), "shark": (2, 2, 1),
    "shark-dives": (1, 0, 1), "kill-shark": (1, 1, 0), "monster": (0, 1, 1),
    "monster-dives": (2, 0, 0), "vortex": (2, 2, 0), "game-ends": (0, 0, 1),
    "volcano": (0, 0, 1),
}


def test_manifest_matches_symbols_under_tiles_and_adds_to_18_12_7():
    """GAMES.md case: the tile manifest adds up to 18 sand, 12 forest and 7 fortress tiles
    (Contents: '6 Fortresses 1 City 18 Sand Tiles 12 Forest Tiles')."""
    rules = Rules.from_data(load_data())
    for symbol, counts in MANIFEST.items():
        assert tuple(rules.manifest[symbol][k] for k in ("sand", "forest", "fortress")) == counts
    assert sum(c[0] for c in MANIFEST.values()) == 18
    assert sum(c[1] for c in MANIFEST.values()) == 12
    assert sum(c[2] for c in MANIFEST.values()) == 7
    assert rules.tiles_per_kind == {"sand": 18, "forest": 12, "fortress": 7}
    assert set(rules.manifest) == set(SYMBOLS)


def test_numbers_from_the_rulebook():
    """Contents (values 1x3, 2x2, 3x2, 4, 5, 6; 12 ships; 6 of each creature), Preparing to
    Play 2 (10 people), Land Movement (3 per tile), Ship Movement (3 aboard), People and/or Ships
    move (3 spaces), Dice (max moves), Preparing to Play 4 (2 spaces from any boat)."""
    r = Rules.from_data(load_data())
    assert sorted(r.values) == [1, 1, 1, 2, 2, 3, 3, 4, 5, 6]
    assert r.per_player == 10
    assert r.land_capacity == 3 and r.ship_capacity == 3 and r.points == 3
    assert r.swim_spaces == 1
    assert r.max_move == {"shark": 2, "kraken": 3, "monster": 1, "dolphin": 2}
    assert r.pieces == {"ship": 12, "shark": 6, "kraken": 6, "monster": 6, "dolphin": 6}
    assert r.monster_distance == 2 and r.monsters_per_player == 1
    assert r.sink_order == ("sand", "forest", "fortress")


def test_die_faces_in_the_order_contents_lists_them():
    """Contents: 'Dolphin or Kraken; Shark; Monster; Monster or Shark; Dolphin; Kraken;'."""
    r = Rules.from_data(load_data())
    assert r.face_names == ("dolphin-or-kraken", "shark", "monster", "monster-or-shark",
                            "dolphin", "kraken")


def test_every_entry_has_a_source():
    """GAMES.md 'How to handle what the rulebooks do not say': every table and value has a
    source."""
    data = load_data()

    def walk(node, path):
        if isinstance(node, dict) and ("value" in node or "source" in node):
            assert isinstance(node.get("source"), str) and node["source"], path
            return
        for k, v in node.items():
            walk(v, f"{path}.{k}")

    walk(data, "")
    assert data["tiles"]["volcano_under_city"]["source"].startswith("stand-in")


def test_house_rules_merge_and_mark_their_source():
    """GAMES.md: a referee overrides any table with a house-rules file; changed entries say
    so."""
    data = load_data({"people": {"land_capacity": 4},
                      "creatures": {"shark": {"max_move": 3}},
                      "manifest": {"vortex": {"sand": 1}, "boat": {"sand": 3}}})
    assert data["people"]["land_capacity"] == {"value": 4, "source": "house rules"}
    assert data["creatures"]["shark"]["max_move"] == 3
    assert data["creatures"]["shark"]["pieces"] == 6
    assert data["creatures"]["shark"]["source"] == "house rules"
    assert Rules.from_data(data).tiles_per_kind["sand"] == 18
    assert load_data()["people"]["land_capacity"]["value"] == 3  # the file is untouched


@pytest.mark.parametrize("house,quoted", [
    ({"people": {"land_capacty": 4}}, "'people.land_capacty'"),
    ({"peeple": {}}, "'peeple'"),
    ({"people": {"land_capacity": 0}}, "people.land_capacity.value = 0"),
    ({"people": {"land_capacity": "three"}}, "'three'"),
    ({"people": {"values": [1, 2]}}, "one value per person"),
    ({"creatures": {"shark": {"speed": 2}}}, "'creatures.shark.speed'"),
    ({"die": {"faces": [["shark"], ["whale"]]}}, "whale"),
    ({"manifest": {"treasure": {"sand": 1}}}, "'manifest.treasure'"),
    ({"tiles": {"volcano_under_city": "yes"}}, "true or false"),
])
def test_bad_house_rules_are_refused_with_the_key(house, quoted):
    """GAMES.md house rules: unknown keys and bad values are refused, quoting the key path."""
    with pytest.raises(DataError) as err:
        load_data(house)
    assert quoted in str(err.value)
    assert "house rules" in str(err.value)


def test_options_defaults_types_and_errors():
    """README gaps table: options ships (Preparing to Play 3), volcano (Symbols Under
    Tiles), end (End of game / Game Objective)."""
    assert ruleset.validate_options({}) == {"ships": 1, "volcano": "ends", "end": "all"}
    assert ruleset.validate_options({"ships": "3", "end": "first"})["ships"] == 3
    for raw, quoted in (({"ships": "4"}, "'4'"), ({"volcano": "erupts"}, "'erupts'"),
                        ({"colour": "red"}, "'colour'"), ({"ships": "two"}, "'two'")):
        with pytest.raises(ValueError) as err:
            ruleset.validate_options(raw)
        assert quoted in str(err.value)
    specs = ruleset.options()
    assert set(specs) == {"ships", "volcano", "end"}
    assert specs["ships"].source.startswith("stand-in")


def test_stand_in_map_fits_the_rules():
    """Preparing to Play 1: the centre 7 spaces hold the city and fortresses; 37 tiles."""
    m = ruleset.load_map(None, "x")
    ruleset.check_map(m, load_data())
    assert len(m.hexes("island")) == 37
    assert set(m.group("centre")) == set(m.within("0707", 1))
    assert set(m.hexes("island")) == set(m.within("0707", 3))
    assert set(m.hexes("safe")) == {"0101", "1301", "0113", "1313"}
    assert m.stand_in


def test_check_map_refuses_a_map_that_does_not_fit():
    """Contents and Preparing to Play 1: 37 island tiles, the centre 7 for the city and
    fortresses; terrains island, sea, safe."""
    text = ruleset.package_file('map.toml')
    short = text.replace('"0405", "0406"', '"0406"', 1)
    with pytest.raises(MapError, match="36 island hexes: expected 37"):
        ruleset.check_map(load_map(short, "short.toml"), load_data())
    nocentre = text.replace("centre = [", "middle = [")
    with pytest.raises(MapError, match="no group 'centre'"):
        ruleset.check_map(load_map(nocentre, "nc.toml"), load_data())
    lava = text.replace('safe = [', 'lava = ["0202"]\nsafe = [')
    with pytest.raises(MapError, match="'lava'"):
        ruleset.check_map(load_map(lava, "lava.toml"), load_data())


def test_map_errors_from_a_referee_file_name_the_file():
    """docs/maps.md: map errors name the file and the line."""
    with pytest.raises(MapError) as err:
        ruleset.load_map(ruleset.package_file('map.toml').replace('"0405"', '"0415"', 1), "mine.toml")
    assert str(err.value).startswith("mine.toml:23:")  # the first line of the island list
    assert "'0415' is off the map" in str(err.value)


def test_rules_text_prints_every_table_with_its_source():
    """GAMES.md: `pbem rules GAME` prints the tables with their sources."""
    data = load_data()
    text = ruleset.rules_text(data, {"ships": 2})
    assert "ships = 2" in text
    for section in ("people", "ships", "movement", "setup", "tiles"):
        for entry in data[section].values():
            assert entry["source"] in text
    for row in data["manifest"].values():
        assert row["source"] in text
    assert "monster-or-shark" in text
    assert text.isascii()


def test_stand_ins_list_what_is_in_force():
    """GAMES.md: the setup report lists every stand-in in force (map, volcano, ships, house
    rules)."""
    data = load_data()
    lines = ruleset.stand_ins(data, ruleset.validate_options({"volcano": "vortex"}),
                              ruleset.load_map(None, "x"))
    joined = "\n".join(lines)
    assert "Map: Atlantis stand-in" in joined
    assert "volcano=vortex" in joined
    assert "ships=1" in joined
    assert "tiles.volcano_under_city" in joined
    house = load_data({"people": {"land_capacity": 4}})
    # the house rule is listed with the value in force, so players know what applies
    assert any("people.land_capacity: value = 4 (house rules)" in x
               for x in ruleset.stand_ins(house, {}, ruleset.load_map(None, "x")))
