"""Escape from Altassar: three rulings corrected (issue 9), each against the rulebook
(shared/seeds/000_6cf614529e45f503.txt).

- 9.2 Flight: "the unit may trade places with any dummy unit within six hexes of it": a face-up
  dummy is a partner too (the trade is then seen); a dummy stunned in this same Combat Phase
  "must remain in place" (7.7) and is not, one stunned in an earlier Game Turn is.
- 7.7 Stun: a unit stunned in the enemy's Combat Phase "will be able to attack" in its own next
  Combat Phase (7.14 forbids it only while the stun holds it in place), and a stunned prisoner
  can still be recovered (18.2, 18.3).
- 7.7 AE: "The Attacking unit is eliminated": the sentence that reports it.

Positions are built by hand (tests/altassar_helpers.py) on an all-Clear map; values come from
the rulebook's tables (7.71 rows 1-3, 9.0) and the data file's unit values.
"""

from __future__ import annotations

from altassar_helpers import CONF, PRISON, SPIKUS, Game, events_of

from pbem.games.altassar.combat import flight_dummies, stun_holds
from pbem.games.altassar.data import load_data
from pbem.games.altassar.state import pt_of

# 7.71, die rows 1-3, columns 1-2 .. 6-1
COLUMNS = ["1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"]
CRT = {1: ["NE", "NE", "NE", "NE", "EX", "EX", "ST"],
       2: ["NE", "NE", "NE", "EX", "EX", "ST", "ST"],
       3: ["NE", "NE", "EX", "EX", "ST", "ST", "DE"]}
FLIGHT_RANGE = 6  # 9.2 "within six hexes"


def column(attack: int, defense: int) -> str:
    """The 7.71 column, fractions dropped (7.6), clamped to 1-2 .. 6-1."""
    pos = attack // defense if attack >= defense else 0
    return COLUMNS[min(pos, 6)]


def clear_rating(g: Game, kind: str) -> int:
    """9.0: the printed Evasion Rating applies in Rain Forest, Hills or Quagmire; in other
    terrain (Clear here) one less."""
    return g.value(kind, "evasion") - 1


def face_up(g: Game, marker: str, reason: str = "combat", **more) -> None:
    """Turn ``marker`` face up (by combat EX to the end of the Confederation Player Turn, or by
    a stun, 7.7) showing its kind."""
    name = g.s.unit_at_marker(marker)
    until = None if reason == "stun" else g.s.pt + 1
    g.s.markers[marker].update(exposed={reason: until}, kind=g.s.units[name]["kind"], **more)


# -------------------------------------------------------------------------------------------
# 9.2 Flight: any dummy within six hexes
# -------------------------------------------------------------------------------------------
def _flight_to_a_face_up_dummy():
    """terran-1 face down at 0505, attacked by S01's ranged fire from 0502 (three hexes, 7.31);
    the only dummy on the map, dummy-1, face up at 0508 (three hexes from 0505)."""
    g = Game().at("combat", 3, SPIKUS)
    g.s.standing[CONF]["evasion"] = "ask"
    t = g.place("terran-1", "0505")
    d = g.place("dummy-1", "0508")
    face_up(g, d)
    g.put("S01", "0502")
    assert g.hm.distance("0505", "0508") <= FLIGHT_RANGE
    return g, t, d


def test_9_2_a_face_up_dummy_in_range_is_a_flight_partner():
    g, t, d = _flight_to_a_face_up_dummy()
    assert flight_dummies(g.s, t) == [d]


def test_9_2_flight_trades_a_face_down_prisoner_with_a_face_up_dummy_and_the_trade_is_seen():
    """9.2: a successful Flight (die equal to or less than the Evasion Rating) trades places
    with the dummy, and "combat will take place against the switched (dummy) unit, and there
    will be no effect on the prisoner". The dummy being face up, the Spikus player sees it
    arrive: the trade is public, and so are the odds on the (face-up) dummy."""
    g, t, d = _flight_to_a_face_up_dummy()
    g.play(SPIKUS, "attack 0505 with S01")
    assert g.s.stage == "evasion"
    rating = clear_rating(g, "terran")
    # combat die 3: soldier (ranged, no 7.43 bonus) against the dummy's defense (15.2: one)
    col = column(g.value("soldier", "attack"), 1)
    res = g.play(CONF, "evade 0505 flight", rating, 3)
    # the prisoner is at the dummy's hex, the dummy at the prisoner's, each under its marker
    assert g.rec("terran-1")["hex"] == "0508" and g.marker("terran-1") == t
    assert g.rec("dummy-1")["hex"] == "0505" and g.marker("dummy-1") == d
    seen = events_of(res, "flight-seen")
    assert len(seen) == 1 and seen[0].visible_to(SPIKUS)
    assert (seen[0].data["marker"], seen[0].data["from"], seen[0].data["to"]) == (t, "0505", "0508")
    (combat,) = events_of(res, "combat")
    assert combat.visible_to(SPIKUS)
    assert combat.data["defense"] == 1 and combat.data["column"] == col
    assert combat.data["result"] == CRT[3][COLUMNS.index(col)]
    # "no effect on the prisoner": still face down, not stunned
    assert not g.s.markers[t]["exposed"] and g.s.markers[t]["stun_end"] is None
    # the Spikus player is never told the prisoner's name (only markers)
    assert all("terran" not in e.text for e in res.events if e.visible_to(SPIKUS))


def test_9_2_naming_a_face_up_dummy_as_the_partner_is_accepted():
    g, t, _ = _flight_to_a_face_up_dummy()
    g.place("dummy-2", "0705")  # face down, two hexes away: the default partner
    g.play(SPIKUS, "attack 0505 with S01")
    assert flight_dummies(g.s, t)[0] == g.marker("dummy-2"), "an unseen trade when one exists"
    assert g.check(CONF, "evade 0505 flight 0508") == []
    g.play(CONF, "evade 0505 flight 0508", clear_rating(g, "terran"), 1)
    assert g.rec("terran-1")["hex"] == "0508"
    assert g.rec("dummy-1")["hex"] == "0505" and g.rec("dummy-2")["hex"] == "0705"


def test_9_2_a_face_up_dummy_beyond_six_hexes_is_no_partner():
    g = Game().at("combat", 3, SPIKUS)
    t = g.place("terran-1", "0505")
    d = g.place("dummy-1", "1205")
    face_up(g, d)
    assert g.hm.distance("0505", "1205") > FLIGHT_RANGE
    assert flight_dummies(g.s, t) == []


def test_7_7_9_2_a_dummy_stunned_in_an_earlier_game_turn_may_trade_places():
    """7.7: the stunned unit "must remain in place through the end of its following Movement
    Phase". A dummy stunned in the Spikus Combat Phase of turn 3 has had that phase (the
    Confederation Movement Phase of turn 3); in the Spikus Combat Phase of turn 4 it is still
    shown stunned but no longer held, so it is "any dummy unit" of 9.2."""
    g = Game().at("combat", 4, SPIKUS)
    t = g.place("terran-1", "0505")
    d = g.place("dummy-1", "0508")
    stunned_at = pt_of(3, SPIKUS)
    face_up(g, d, "stun", stun_end=stunned_at + 3)  # as the ST of turn 3 leaves it
    assert flight_dummies(g.s, t) == [d]


def test_7_7_9_2_a_dummy_stunned_earlier_in_the_same_combat_phase_may_not_trade_places():
    """7.7: the dummy stunned by the first attack "must remain in place" until the end of its
    following Movement Phase, still to come: a Flight of the prisoner attacked next, with no
    other dummy in range, finds no partner and combat against the prisoner follows (9.4)."""
    g = Game().at("combat", 3, SPIKUS)
    g.s.standing[CONF]["evasion"] = "ask"
    t = g.place("terran-1", "0505")
    d = g.place("dummy-1", "0508")
    for uid, h in (("S01", "0507"), ("S02", "0607"), ("S03", "0608")):  # around 0508
        g.put(uid, h)
        assert g.hm.distance(h, "0508") == 1
    g.put("S04", "0502")  # three hexes from 0505
    soldier = g.value("soldier", "attack")
    col = column(3 * soldier + 1, 1)  # adjacent only (7.43) against a dummy (15.2)
    st_die = next(n for n in (1, 2, 3) if CRT[n][COLUMNS.index(col)] == "ST")
    g.play(SPIKUS, "attack 0508 with S01 S02 S03\nattack 0505 with S04")
    assert g.s.stage == "evasion"
    rating = clear_rating(g, "terran")
    res = g.play(CONF, "evade 0508 none\nevade 0505 flight", st_die, rating, 1)
    assert g.s.markers[d]["stun_end"] is not None, "the first attack stunned the dummy"
    assert g.rec("terran-1")["hex"] == "0505" and g.marker("terran-1") == t
    assert g.rec("dummy-1")["hex"] == "0508"
    assert not events_of(res, "flight-seen")
    assert any("no dummy it may trade with" in e.text for e in events_of(res, "flight"))


# -------------------------------------------------------------------------------------------
# 7.7 Stun: "It will be able to attack"
# -------------------------------------------------------------------------------------------
def _prisoner_stunned_by_the_spikus():
    """Three soldiers adjacent to terran-1 at 0505 (3-soldier attack + 1, 7.43) in the Spikus
    Combat Phase of turn 3; the die giving ST on that column (7.71)."""
    g = Game().at("combat", 3, SPIKUS)
    m = g.place("terran-1", "0505")
    for uid, h in (("S01", "0504"), ("S02", "0604"), ("S03", "0605")):
        g.put(uid, h)
    col = column(3 * g.value("soldier", "attack") + 1, g.value("terran", "defense"))
    die = next(n for n in (1, 2, 3) if CRT[n][COLUMNS.index(col)] == "ST")
    g.play(SPIKUS, "attack 0505 with S01 S02 S03", die)
    assert g.s.markers[m]["stun_end"] is not None
    assert (g.s.turn, g.s.phasing, g.s.stage) == (3, CONF, "movement")
    return g, m


def test_7_7_a_prisoner_stunned_in_the_spikus_phase_attacks_in_its_own_next_combat_phase():
    """7.7 ST: "It will be able to attack and defend at normal strength": the prisoner stunned
    in the Spikus Combat Phase attacks in the Confederation Combat Phase that follows, while
    it still may not move (7.7 "must remain in place")."""
    g, m = _prisoner_stunned_by_the_spikus()
    assert g.check(CONF, "move terran-1 0506"), "a stunned prisoner may not move (7.7)"
    assert g.check(CONF, "attack S01 with terran-1") == []
    res = g.play(CONF, "attack S01 with terran-1", 1)
    (attack,) = events_of(res, "attack")
    assert attack.data["units"] == [m]
    (combat,) = events_of(res, "combat")
    col = column(g.value("terran", "attack") + 1, g.value("soldier", "defense"))
    assert combat.data["column"] == col and combat.data["result"] == CRT[1][COLUMNS.index(col)]


def test_7_7_18_2_the_prisoner_that_attacked_is_still_stunned_and_may_be_recovered():
    """18.2, 18.3: only a stunned prisoner may be recovered; attacking (7.7) does not end the
    stun, which lasts until the Confederation Movement Phase of the next Game Turn (README):
    a Recovery Wagon takes it in the Spikus Movement Phase of turn 4 and unloads it (18.4)."""
    g, m = _prisoner_stunned_by_the_spikus()
    g.play(CONF, "attack S01 with terran-1", 1)
    assert (g.s.turn, g.s.phasing, g.s.stage) == (4, SPIKUS, "movement")
    assert g.s.markers[m]["stun_end"] is not None
    g.put("W1", "0506")
    g.play(SPIKUS, "move W1 0505")
    assert g.s.markers[m]["where"] == "captive"
    assert g.check(CONF, "attack S01 with terran-1"), "a captive cannot attack (18.3)"
    g.nmr()  # Confederation turn 4
    g.play(SPIKUS, f"move W1 {PRISON[1]}")
    assert g.s.markers[m]["where"] == "returned"


def test_7_7_a_soldier_stunned_in_the_confederation_phase_attacks_in_its_own_next_combat_phase():
    """7.7 for the Spikus side: stunned in the Confederation Combat Phase of turn 3, the soldier
    may not move in the Spikus Movement Phase of turn 4 but attacks in that turn's Combat
    Phase."""
    g = Game().at("combat", 3, CONF)
    g.put("S01", "0605")
    g.place("clkgo-1", "0705")
    g.place("clkgo-2", "0706")
    g.place("phatakian-1", "0606")
    g.place("phatakian-2", "0604")
    a = 2 * g.value("clkgo", "attack") + 2 * g.value("phatakian", "attack") + 1
    col = column(a, g.value("soldier", "defense"))
    die = next(n for n in (1, 2, 3) if CRT[n][COLUMNS.index(col)] == "ST")
    g.play(CONF, "attack S01 with clkgo-1 clkgo-2 phatakian-1 phatakian-2", die)
    assert (g.s.turn, g.s.phasing) == (4, SPIKUS)
    assert g.check(SPIKUS, "move S01 0505"), "a stunned soldier may not move (7.7)"
    assert g.check(SPIKUS, "attack 0606 with S01") == []


def test_7_14_7_7_the_stun_holds_a_unit_only_until_its_following_movement_phase_is_over():
    """7.14 forbids attacking "while it is stunned", read with 7.7's "must remain in place
    through the end of its following Movement Phase": seen from a Combat Phase, a counter
    stunned in the Spikus phase of turn 3 is held in that phase, not in the Confederation's
    phase of turn 3 nor later."""
    g = Game().at("combat", 3, SPIKUS)
    m = g.place("terran-1", "0505")
    g.s.markers[m].update(stun_end=pt_of(3, SPIKUS) + 3, exposed={"stun": None}, kind="terran")
    rec = g.s.markers[m]
    assert stun_holds(g.s, CONF, rec)
    for turn, side in ((3, CONF), (4, SPIKUS)):
        g.at("combat", turn, side)
        assert not stun_holds(g.s, CONF, rec), (turn, side)


# -------------------------------------------------------------------------------------------
# 7.7 AE: the sentence
# -------------------------------------------------------------------------------------------
def _ae_on_die_1() -> Game:
    """A referee's house rule (README: a [crt] rows list replaces only the rows with the same
    die) putting AE in every column of die 1, since rows 1-3 of 7.71 have no AE."""
    data = load_data({"crt": {"rows": [{"die": 1, "results": ["AE"] * 7,
                                        "source": "house rule: test"}]}})
    return Game(data=data)


def test_7_7_AE_text_for_a_prisoner():
    """7.7 AE: "The Attacking unit is eliminated"; the counter key names the SILIAN
    PRISONER. The sentence once read "..., a Silian prisoner, is the attacker is eliminated"."""
    g = _ae_on_die_1().at("combat", 3, CONF)
    g.put("S01", "0605")
    m = g.place("silian-1", "0705")
    res = g.play(CONF, "attack S01 with silian-1", 1)
    (ev,) = [e for e in events_of(res, "eliminated") if e.data.get("marker") == m]
    assert ev.text == (f"Counter {m} at 0705, a Silian prisoner, is eliminated as an attacker "
                       "(AE, 7.7).")
    assert g.s.markers[m]["where"] == "eliminated"


def test_7_7_AE_text_for_a_soldier():
    g = _ae_on_die_1().at("combat", 3, SPIKUS)
    g.place("terran-1", "0505")
    g.put("S01", "0504")
    res = g.play(SPIKUS, "attack 0505 with S01", 1)
    (ev,) = [e for e in events_of(res, "eliminated") if e.data.get("unit") == "S01"]
    assert ev.text == "S01 at 0504 is eliminated as an attacker (AE, 7.7)."
    assert g.s.spikus["S01"]["where"] == "eliminated"
