"""More Escape from Altassar rules (7.36, 21.1 escape, 8.1, 6.4), the data file with house rules,
the map check, and ``pbem rules altassar``. Rulebook: shared/seeds/000_6cf614529e45f503.txt."""

from __future__ import annotations

import pytest
from altassar_helpers import CONF, SPIKUS, Game, small_map
from click.testing import CliRunner

from pbem.boards.hexmap import MapError, load_map
from pbem.games.altassar import ruleset as rs
from pbem.games.altassar.data import DataError


def test_7_36_a_prisoner_using_ranged_fire_is_revealed_for_the_rest_of_the_turn():
    g = Game().at("movement", 2, CONF)
    m = g.place("terran-1", "0505")
    g.put("S01", "0502")  # three hexes up the column: ranged fire (7.31, 7.33)
    res = g.play(CONF, "attack S01 with terran-1", 1)
    shown = [e for e in res.events if e.kind == "exposed" and e.data["marker"] == m]
    assert shown and shown[0].data["kind"] == "terran" and "7.36" in shown[0].text
    # face up through the combat; the end of the Confederation Player Turn ends the Game
    # Turn, and the counter is face down again when turn 3 begins
    kinds = [e.kind for e in res.events]
    assert kinds.index("exposed") < kinds.index("combat") < kinds.index("concealed")
    assert g.s.turn == 3 and not g.s.markers[m]["exposed"]
    assert "kind" not in g.s.markers[m]


def test_21_1_escaped_prisoner_stays_face_up_while_next_to_a_soldier():
    g = Game(options={"escort": "yes"}).at("movement", 3, CONF)
    m = g.place("terran-1", "0505")
    g.s.markers[m].update(where="captive", carrier="S01", exposed={"captive": None},
                          kind="terran")
    g.put("S01", "0505")
    g.s.spikus["S01"]["escorting"] = m
    g.put("S02", "0604")
    g.play(CONF, "move terran-1 0506", 6)  # escapes (6), then moves next to S01 only
    rec = g.s.markers[m]
    assert rec["where"] == "map" and "escape" in rec["exposed"]  # 0506 is next to S01 (0505)
    g.at("movement", 4, CONF)
    g.s.moved = []
    g.play(CONF, "move terran-1 0509")
    assert "escape" not in g.s.markers[m]["exposed"]


def test_8_1_retreat_goes_through_empty_hexes_where_it_can():
    """From 0808 toward the prison at 0105/0106: routes through an occupied hex are avoided
    when an empty route of three hexes exists."""
    g = Game().at("movement", 2, CONF)
    g.put("S01", "0808")
    g.put("S02", "0707")  # a friendly unit on one way west
    full, _ = __import__("pbem.games.altassar.retreats", fromlist=["x"]).retreat_routes(g.s, "S01")
    assert full
    from pbem.games.altassar.retreats import retreat

    events: list = []
    retreat(g.s, "S01", None, events)
    route = events[-1].data["path"]
    assert len(route) == 3 and "0707" not in route
    assert g.s.hexmap.distance("0808", route[-1]) == 3


def test_6_4_a_drystal_hovers_over_a_friendly_unit_but_not_over_another_drystal():
    g = Game().at("movement", 2, SPIKUS)
    g.put("S01", "0505")
    g.put("D1", "0503")
    g.put("D2", "0703")
    assert not g.check(SPIKUS, "move D1 0505")
    problems = g.check(SPIKUS, "move D1 0505\nmove D2 0505")
    assert len(problems) == 1 and "Drystal" in problems[0].why


def test_house_rules_replace_a_counter_value_and_a_crt_row_and_are_listed():
    data = rs.load_data({"units": {"soldier": {"attack": 4}},
                         "rules": {"exit_cost": 2}})
    assert data["units"]["soldier"]["attack"] == 4
    assert data["units"]["soldier"]["sources"]["attack"] == "house rules"
    assert data["rules"]["exit_cost"] == {"value": 2, "source": "house rules"}
    lines = rs.stand_ins(data, {}, rs.load_map(None, ""))
    assert "units.soldier.attack = 4: house rules" in lines
    assert "rules.exit_cost = 2: house rules" in lines
    assert any(line.startswith("crt die 4 1-2 = NE: stand-in") for line in lines)


@pytest.mark.parametrize("house,words", [
    ({"units": {"ogre": {"attack": 9}}}, "unknown key 'units.ogre'"),
    ({"units": {"soldier": {"attack": -1}}}, "units.soldier.attack = -1"),
    ({"terrain": {"hills": {"cost": 0}}}, "terrain.hills.cost = 0"),
])
def test_bad_house_rules_name_the_key_and_what_was_expected(house, words):
    with pytest.raises(DataError) as err:
        rs.load_data(house)
    assert words in str(err.value)
    assert "house rules" in str(err.value)


def test_a_map_without_prison_hexes_is_refused():
    text = ('[map]\nname = "x"\nsource = "mine"\ncolumns = 6\nrows = 6\ndefault = "clear"\n'
            '[groups]\nexit = ["0601", "0602"]\n')
    hm = load_map(text, "mymap.toml")
    with pytest.raises(MapError) as err:
        rs.check_map(hm, rs.load_data())
    assert "mymap.toml" in str(err.value) and "prison" in str(err.value)


def test_a_map_with_an_unknown_terrain_is_refused():
    text = ('[map]\nname = "x"\nsource = "mine"\ncolumns = 6\nrows = 6\ndefault = "clear"\n'
            '[terrain]\nswamp = ["0303"]\nprison = ["0101"]\n'
            '[groups]\nprison = ["0101"]\nexit = ["0601"]\n')
    with pytest.raises(MapError) as err:
        rs.check_map(load_map(text, "mymap.toml"), rs.load_data())
    assert "'swamp'" in str(err.value)


def test_the_test_map_fits_the_rules():
    rs.check_map(small_map(), rs.load_data())
    rs.check_map(rs.load_map(None, ""), rs.load_data())


def test_pbem_rules_altassar_prints_the_crt_and_terrain_chart_with_sources():
    from pbem.cli import main

    result = CliRunner().invoke(main, ["rules", "altassar"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "COMBAT RESULTS TABLE (7.71)" in out and "TERRAIN EFFECTS CHART" in out
    # 5.31 as printed in the rulebook: Quagmire 4 MP, one column right
    assert any(line.split()[:2] == ["Quagmire", "4"] and "right" in line
               for line in out.splitlines())
    # rows 1-3 from the rulebook; the lost rows marked as stand-ins in the legend
    assert "rulebook 7.71" in out and "stand-in: row lost" in out
    row1 = next(line for line in out.splitlines() if line.strip().startswith("1 "))
    assert row1.split()[1:] == ["NE", "NE", "NE", "NE", "EX", "EX", "ST"]
