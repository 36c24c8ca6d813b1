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


# -- fixes from the rules review and the new-user trial ---------------------------------------
def _stunned_prisoner(g, name, h):
    m = g.place(name, h)
    g.s.markers[m].update(stun_end=g.s.pt + 3, exposed={"stun": None}, kind=g.s.units[name]["kind"])
    return m


def test_18_1_a_wagon_carries_one_prisoner():
    g = Game().at("movement", 3, SPIKUS)
    _stunned_prisoner(g, "terran-1", "0505")
    _stunned_prisoner(g, "terran-2", "0506")
    g.put("W1", "0504")
    g.play(SPIKUS, "move W1 0505")
    assert g.s.spikus["W1"]["escorting"] == g.marker("terran-1")
    g.at("movement", 4, SPIKUS)
    g.s.moved = []
    problems = g.check(SPIKUS, "move W1 0506")
    assert problems and "enemy" in problems[0].why


def test_18_6_a_freed_prisoner_is_face_down_again_after_the_confederation_turn():
    g = Game().at("movement", 3, SPIKUS)
    m = _stunned_prisoner(g, "terran-1", "0505")
    g.put("W1", "0504")
    g.play(SPIKUS, "move W1 0505")
    assert set(g.s.markers[m]["exposed"]) == {"captive"}  # held, no longer stunned (18.3)
    g.at("movement", 3, CONF)
    g.place("clkgo-1", "0705")
    g.place("phatakian-1", "0706")
    # 6 attack (3 + 3) + 1 adjacent-only against the wagon's 1: 7-1, read as 6-1; die 3 -> DE
    g.play(CONF, "attack W1 with clkgo-1 phatakian-1", 3)
    assert g.s.spikus["W1"]["where"] == "eliminated"
    assert g.s.markers[m]["where"] == "map"
    assert g.s.turn == 4 and not g.s.markers[m]["exposed"]  # 18.6: back to normal play


def test_21_1_a_retreating_escort_takes_its_prisoner_along():
    from pbem.games.altassar.retreats import retreat

    g = Game(options={"escort": "yes"}).at("movement", 3, CONF)
    m = g.place("terran-1", "0808")
    g.s.markers[m].update(where="captive", carrier="S01", exposed={"captive": None})
    g.put("S01", "0808")
    g.s.spikus["S01"]["escorting"] = m
    retreat(g.s, "S01", None, [])
    assert g.s.markers[m]["hex"] == g.s.spikus["S01"]["hex"] != "0808"


def test_9_5_a_counter_face_up_by_a_signal_post_may_evade_and_its_flight_is_seen():
    g = Game().at("movement", 3, SPIKUS)
    g.s.standing[CONF]["evasion"] = "ask"
    m = g.place("terran-1", "0505")
    d = g.place("dummy-1", "0508")
    g.s.markers[m].update(exposed={"signal": None}, kind="terran")
    g.put("S01", "0502")
    g.play(SPIKUS, "attack 0505 with S01")
    assert g.s.stage == "evasion"  # 9.5 forbids evasion only after combat exposure
    # Flight: Terran rating 4 - 1 in Clear (9.0) = 3; die 2 succeeds; combat die 1
    res = g.play(CONF, "evade 0505 flight", 2, 1)
    seen = [e for e in res.events if e.kind == "flight-seen"]
    assert seen and seen[0].public
    assert g.s.markers[m]["hex"] == "0508" and g.s.markers[d]["hex"] == "0505"


def test_14_6_9_5_a_counter_exposed_by_combat_may_not_evade():
    from pbem.games.altassar.combat import may_evade

    g = Game().at("movement", 3, SPIKUS)
    m = g.place("terran-1", "0505")
    for reasons, ok in (({"signal": None}, True), ({"escape": None}, True),
                        ({"combat": 4}, False), ({"fire": 4}, False),
                        ({"signal": None, "combat": 4}, False)):
        g.s.markers[m]["exposed"] = dict(reasons)
        assert may_evade(g.s, m) is ok, reasons


def test_12_2_who_survives_an_overstacked_breakout_hex_does_not_follow_names():
    """Two units without orders share each prison hex; the survivor is the lower marker, so
    the Spikus player cannot tell races from it; a standing 'losses' list goes first."""
    g = Game()
    g.play(CONF, "")  # nobody moves: everyone is set up on the two prison hexes in turn
    by_hex: dict = {}
    for name, u in g.s.units.items():
        rec = g.s.markers[u["marker"]]
        if rec["where"] == "map":
            by_hex.setdefault(rec["hex"], []).append(u["marker"])
    assert all(len(v) == 1 for v in by_hex.values()) and len(by_hex) == 2
    ranked = sorted(g.s.markers)
    # markers set up in marker order alternate between the two hexes: u01 and u02 survive
    assert sorted(m for v in by_hex.values() for m in v) == ranked[:2]


def test_12_2_the_standing_losses_list_is_eliminated_first():
    g = Game()
    first = sorted(g.s.markers)[0]
    name = g.s.unit_at_marker(first)
    g.play(CONF, f"losses {name}")
    assert g.s.markers[first]["where"] == "lost"


def test_moves_are_reported_by_marker_whatever_order_they_were_written_in():
    """The new-user trial found the order of the move events followed the order file (the
    template lists units by name): the Spikus-visible events must not depend on it."""
    def run(order):
        g = Game()
        body = "\n".join(f"move {n} from 0105 to {h}" for n, h in order)
        res = g.play(CONF, body)
        return [e.text for e in res.events if e.public]

    moves = [("terran-1", "0305"), ("dummy-1", "0307"), ("badte-1", "0303")]
    assert run(moves) == run(list(reversed(moves)))


def test_21_1_the_default_prisoner_lost_comes_from_a_hidden_shuffle_of_every_prisoner():
    """The new-user trials found two leaks in this default: first by position (the counters
    beyond the lost one were dummies), then by a hidden roll whose size was the number of
    prisoners left. The shuffle now always covers all ten prisoners of the game."""
    from altassar_helpers import FixedDice

    class Recording(FixedDice):
        def __init__(self):
            super().__init__()
            self.shuffles = []

        def shuffle(self, items, why):
            self.shuffles.append((list(items), why))
            return list(reversed(list(items)))

    g = Game(options={"attrition": "alternate"}).at("movement", 3, CONF)
    g.dice = Recording()
    g.chance.public = g.chance.hidden = g.dice
    for name, h in (("terran-1", "0301"), ("clkgo-1", "0905"), ("dummy-1", "0201")):
        g.place(name, h)
    g.play(CONF, "", 6, 6)  # 12 on two dice
    shuffled, why = g.dice.shuffles[-1]
    prisoners = [n for n, u in g.s.units.items() if u["kind"] != "dummy"]
    assert sorted(shuffled) == sorted(prisoners) and len(shuffled) == 10
    assert why == "the prisoner lost to alternate attrition"
    # reversed order: the alive prisoner that comes last in marker order is lost
    lost = [n for n, u in g.s.units.items() if g.s.markers[u["marker"]]["where"] == "lost"]
    alive = sorted(("terran-1", "clkgo-1"), key=lambda n: g.s.units[n]["marker"])
    assert lost == [alive[-1]]


def test_6_2_a_counter_may_not_end_on_two_trip_nets():
    g = Game().at("movement", 3, CONF)
    g.place("terran-1", "0505")
    g.put("N1", "0507")
    g.put("N2", "0507")
    problems = g.check(CONF, "move terran-1 0507")
    assert problems and "6.1-6.5" in problems[0].why
    g.s.spikus["N2"]["where"] = "lost"
    assert not g.check(CONF, "move terran-1 0507")


def test_10_1_an_AE_draws_no_dying_co_attacker_to_the_corpse():
    """Two soldiers attack together and both die by AE (7.7): neither is drawn to the other's
    corpse; S03, within three hexes of both, feeds on the first and, feeding, is not drawn
    to the second (10.1)."""
    from pbem.games.altassar.combat import apply_result

    g = Game().at("combat", 3, SPIKUS)
    g.place("phatakian-1", "0505")
    g.put("S01", "0504")
    g.put("S02", "0604")
    g.put("S03", "0704")
    events: list = []
    apply_result(g.s, SPIKUS, CONF, "0505", [g.marker("phatakian-1")], ["S01", "S02"], "AE",
                 None, events)
    assert [e.data["unit"] for e in events if e.kind == "eliminated"] == ["S01", "S02"]
    fed = [(e.data["hex"], e.data["soldiers"]) for e in events if e.kind == "renewal"]
    assert fed == [("0504", ["S03"])]


def test_10_1_a_stunned_soldier_is_not_drawn_to_renewal():
    from pbem.games.altassar.losses import renewal

    g = Game().at("movement", 3, CONF)
    g.put("S01", "0506")
    g.put("S02", "0507")
    g.s.spikus["S01"]["stun_end"] = g.s.pt + 1
    renewal(g.s, "0505", None, [])
    assert g.s.spikus["S01"]["hex"] == "0506" and g.s.spikus["S02"]["hex"] == "0505"


def test_8_1_a_standing_route_through_an_occupied_hex_is_not_used_when_an_empty_one_exists():
    from pbem.games.altassar.retreats import retreat, retreat_routes

    g = Game().at("movement", 3, CONF)
    g.put("S01", "0808")
    full, _ = retreat_routes(g.s, "S01")
    occupied = full[0]
    g.put("S02", occupied[0])
    g.s.standing[SPIKUS]["retreat"] = {"S01": occupied}
    events: list = []
    retreat(g.s, "S01", None, events)
    assert occupied[0] not in events[-1].data["path"]


@pytest.mark.parametrize("body,words", [
    ("attrition S01", "from turn 8"),
    ("losses terran-1", "not a Spikus unit"),
    ("renewal T1", "only soldiers"),
    ("retreat S01 0404 0303", "lists 3 hexes"),
])
def test_orders_the_trial_found_accepted_are_refused(body, words):
    g = Game().at("movement", 2, SPIKUS)
    g.put("S01", "0808")
    g.put("T1", "0707")
    problems = g.check(SPIKUS, body)
    assert problems and words in problems[0].why, problems


def test_combat_later_with_attacks_is_refused():
    g = Game().at("movement", 2, SPIKUS)
    g.place("terran-1", "0505")
    g.put("S01", "0504")
    problems = g.check(SPIKUS, "attack 0505 with S01\ncombat later")
    assert problems and problems[0].line == 2


def test_evade_naming_a_prisoner_as_the_flight_partner_is_refused():
    g = Game().at("movement", 3, SPIKUS)
    g.s.standing[CONF]["evasion"] = "ask"
    g.place("terran-1", "0505")
    g.place("badte-1", "0507")
    g.put("S01", "0502")
    g.play(SPIKUS, "attack 0505 with S01")
    problems = g.check(CONF, "evade 0505 flight 0507")
    assert problems and "badte-1, not a dummy" in problems[0].why


def test_clear_messages_for_a_route_from_the_own_hex_and_an_enemy_destination():
    g = Game().at("movement", 2, SPIKUS)
    g.put("S02", "0306")
    assert not g.check(SPIKUS, "move S02 0306 0305")  # the route may start at the own hex
    g.place("silian-1", "0308")
    problems = g.check(SPIKUS, "move S02 0308")
    assert problems and "holds enemy units" in problems[0].why


def test_a_map_with_an_unknown_group_is_refused():
    text = ('[map]\nname = "x"\nsource = "mine"\ncolumns = 6\nrows = 6\ndefault = "clear"\n'
            '[terrain]\nprison = ["0101"]\n'
            '[groups]\nprison = ["0101"]\nexit = ["0601"]\nturn-trak = ["0101"]\n')
    with pytest.raises(MapError) as err:
        rs.check_map(load_map(text, "mymap.toml"), rs.load_data())
    assert "'turn-trak'" in str(err.value)


def test_house_rule_crt_rows_replace_only_the_rows_they_name():
    data = rs.load_data({"crt": {"rows": [{"die": 4, "results": ["NE"] * 7}]}})
    rows = {r["die"]: r for r in data["crt"]["rows"]}
    assert sorted(rows) == [1, 2, 3, 4, 5, 6]
    assert rows[4]["results"] == ["NE"] * 7 and rows[4]["source"] == "house rules"
    assert rows[1]["source"] == "rulebook 7.71"
    assert rs.load_data({"crt": {}})["crt"]["source"] == "rulebook 7.71"


def test_12_1_a_refused_breakout_move_leaves_the_unit_on_the_prison_hex_it_named():
    g = Game(hexmap=rs.load_map(None, ""))  # the stand-in map: prison 0207-0309
    m = g.marker("dummy-8")
    # 0307 to the exit edge is 21 hexes: more than twice a dummy's 8 MP (12.1, 15.1)
    res = g.play(CONF, "move dummy-8 from 0307 to 2408", checked=False)
    assert res.problems[CONF] and "stays at 0307" in res.problems[CONF][0].why
    assert g.s.markers[m]["hex"] == "0307"


def test_an_nmr_is_told_in_every_report_and_the_end_reveals_the_markers(referee, clock):
    from gameplay import new_game

    new_game(referee, "altassar", ("confederation", "spikus"), "nm")
    done = referee.process("nm", force=True)
    assert done and done[0].nmr == ["confederation"]
    for reader in ("confederation", "spikus", "*"):
        text = referee.report("nm", reader, "text")
        assert "No orders were received from confederation (NMR)" in text, reader


def test_the_last_report_shows_what_was_under_every_marker():
    from pbem.games.altassar import victory

    g = Game().at("movement", 12, CONF)
    m = g.place("terran-1", "0505")
    events: list = []
    victory.finish(g.s, events, "test")
    text = rs.text_map(rs.view(g.s, "spikus"))
    assert f"{m}: terran-1" in text and "Victory points (20.0)" in text


# -- fixes from the final review --------------------------------------------------------------
def test_9_2_a_face_up_prisoner_trades_with_a_dummy_already_known_before_a_hidden_one():
    from pbem.games.altassar.combat import flight_dummies

    g = Game().at("movement", 3, SPIKUS)
    m = g.place("terran-1", "0505")
    g.s.markers[m].update(exposed={"signal": None}, kind="terran")
    near = g.place("dummy-1", "0507")          # face down, two hexes away
    known = g.place("dummy-2", "0509")         # face up, four hexes away
    g.s.markers[known].update(exposed={"combat": g.s.pt + 1}, kind="dummy")
    assert flight_dummies(g.s, m) == [known, near]


def test_7_7_14_4_a_stunned_or_netted_dummy_is_no_flight_partner():
    from pbem.games.altassar.combat import flight_dummies

    g = Game().at("movement", 3, SPIKUS)
    m = g.place("terran-1", "0505")
    stunned = g.place("dummy-1", "0507")
    g.s.markers[stunned]["stun_end"] = g.s.pt + 3
    held = g.place("dummy-2", "0508")
    g.s.markers[held]["restrained"] = g.s.pt + 1
    free = g.place("dummy-3", "0509")
    assert flight_dummies(g.s, m) == [free]


def test_10_1_no_renewal_on_a_hex_a_freed_prisoner_holds():
    from pbem.games.altassar.losses import eliminate

    g = Game(options={"escort": "yes"}).at("movement", 3, CONF)
    m = g.place("terran-1", "0505")
    g.s.markers[m].update(where="captive", carrier="S01", exposed={"captive": None},
                          kind="terran")
    g.put("S01", "0505")
    g.s.spikus["S01"]["escorting"] = m
    g.put("S02", "0506")
    events: list = []
    eliminate(g.s, SPIKUS, "S01", "eliminated (DE, 7.7)", None, events)
    assert g.s.markers[m]["where"] == "map" and g.s.markers[m]["hex"] == "0505"
    assert g.s.spikus["S02"]["hex"] == "0506" and not g.s.corpses
    assert not [e for e in events if e.kind == "renewal"]
