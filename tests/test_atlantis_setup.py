"""Setup and placement (rulebook Preparing to Play 1-4; README "Placement ... as ranked
preference lists").

Stand-in board (even-low): 0404 and 0305 are sea hexes next to the island tile 0405; 0304 is
sea with no island neighbour; 0403 is next to 0404 (distance 1); 0202 is 2 or more from both.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pbem.dice import DiceStream
from pbem.engine.ruleset import Chance
from pbem.games.atlantis import ruleset
from pbem.games.atlantis.data import SYMBOLS, load_data
from pbem.games.atlantis.windows import SetupError, deal_hidden
from test_atlantis_helpers import chance, orders


def new(seats=("red", "green"), dice=None, options=None, house=None):
    data = load_data(house)
    m = ruleset.load_map(None, "stand-in")
    dice = dice or chance()
    s, events = ruleset.setup(list(seats), options or {}, data, m, dice)
    return s, events, dice


def real_dice(seed=1):
    return Chance(DiceStream(bytes([seed]) * 32, "atl-test", "0.setup", {}),
                  DiceStream(bytes([seed + 1]) * 32, "atl-test", "game", {}, hidden=True))


@pytest.mark.parametrize("seats,why", [
    (["red"], "2 to 4 players"), (["a", "b", "c", "d", "e"], "2 to 4 players"),
    (["red", "red"], "each role once"), (["red", "Green2"], "lower-case letters")])
def test_setup_refuses_bad_roles(seats, why):
    """Contents / Game Objective: two to four players, each a distinct colour."""
    with pytest.raises(SetupError, match=why):
        new(seats)


def test_public_arrangement_and_hidden_deal_use_the_right_streams():
    """Preparing to Play 1: the city and fortresses on the centre 7 spaces, sand and forest
    around them 'muddled up', all 'without looking at the symbols underneath'. The arrangement is
    public (public dice); the symbols and the values are dealt by the hidden dice."""
    s, events, dice = new()
    assert dice.public.log == [(7, "island arrangement: which centre hex is the city"),
                               ("shuffle", 30, "island arrangement: the outer tiles")]
    # nothing hidden is dealt at creation: the deal waits for the placement window's nonces
    assert dice.hidden.log == [] and s.symbols == {} and s.values == {}
    deal_hidden(s, dice)
    assert dice.hidden.log == [("shuffle", 18, "symbols under the sand tiles"),
                               ("shuffle", 12, "symbols under the forest tiles"),
                               ("shuffle", 7, "symbols under the fortress tiles"),
                               ("shuffle", 10, "values under red's people"),
                               ("shuffle", 10, "values under green's people")]
    assert all(e.public for e in events)
    assert not any("dives" in e.text or "vortex" in e.text.lower() for e in events)


def test_tiles_symbols_and_values_follow_the_manifest():
    """Contents and Symbols Under Tiles: 18 sand, 12 forest, 7 fortress (city included), each
    kind's symbols as the manifest; values 1x3, 2x2, 3x2, 4, 5, 6 per player."""
    s, _, _ = new(("red", "green", "blue"), dice=real_dice(3))
    deal_hidden(s, real_dice(3))
    centre = set(s.hexmap.group("centre"))
    assert s.city in centre
    assert Counter(s.tiles.values()) == {"sand": 18, "forest": 12, "fortress": 7}
    assert {h for h, k in s.tiles.items() if k == "fortress"} == centre
    data = load_data()
    for kind in ("sand", "forest", "fortress"):
        under = Counter(s.symbols[h] for h, k in s.tiles.items() if k == kind)
        expected = Counter({sym: data["manifest"][sym][kind] for sym in SYMBOLS
                            if data["manifest"][sym][kind]})
        assert under == expected, kind
    for role in ("red", "green", "blue"):
        values = sorted(s.values[f"{role}{i}"] for i in range(1, 11))
        assert values == [1, 1, 1, 2, 2, 3, 3, 4, 5, 6]
    assert all(p.where == "box" for p in s.people.values())


def test_placement_window():
    """Preparing to Play 2-4 by mail: one simultaneous placement window, turn 0."""
    s, _, _ = new()
    w = ruleset.window(s)
    assert (w.turn, w.phase, w.owed, w.simultaneous) == (0, "setup", ("red", "green"), True)
    assert w.verbs["red"] == ["people", "ship", "monster"]


def test_preference_lists_skip_full_tiles_and_the_die_fills_in():
    """README: ten rounds in seat order, each person on the first entry left whose tile has room
    (3 people at most, Land Movement); entries found full are dropped; a list that runs out
    gets a tile with room chosen by the public die. People are numbered in placement order."""
    s, _, _ = new()
    red = orders("red", "people 0707 0707 0707 0707 0606\nship 0404 0403\n"
                        "monster 0403 0101 0202", s)
    green = orders("green", "people 0707 0606 " + " ".join(["0608"] * 3 + ["0609"] * 3 +
                                                          ["0508"] * 3) +
                   "\nship 0404 0305\nmonster 1212", s)
    assert ruleset.check(s, "red", red)[0].why.startswith("0707 is listed more than 3 times")
    dice = chance()
    res = ruleset.resolve(s, {"red": red, "green": green}, dice)
    at = {pid: p.hex for pid, p in s.people.items()}
    # round 1: red1 0707, green1 0707; round 2: red2 0707 (now full), green2 0606 (green's
    # second entry); round 3: red's third and fourth 0707 entries are found full and dropped,
    # so red3 goes to 0606
    assert at["red1"] == "0707" and at["green1"] == "0707" and at["red2"] == "0707"
    assert at["green2"] == "0606" and at["red3"] == "0606" and at["green3"] == "0608"
    # red's list ran out after red3: the die chose the first tile with room (roll 1 -> 0405)
    assert at["red4"] == "0405"
    reasons = [why for _, why in dice.public.log]
    assert "red: hex for red4 chosen at random (placement list ran out)" in reasons
    assert s.ships == {"ship1": "0404", "ship2": "0305"}
    assert s.creatures == {"monster1": "0202", "monster2": "1212"}
    assert [p.why for p in res.problems["red"]] == ["0101 is not a sea space"]
    assert (s.stage, s.turn, s.phasing) == ("turn", 1, "red")
    assert ruleset.window(s).phase == "red"


def test_monster_placement_keeps_two_spaces_from_every_ship():
    """Preparing to Play 4: 'at least 2 spaces from any boat, ie. min. 1 clear sea hex between a
    boat and a sea monster'."""
    s, _, _ = new()
    red = orders("red", "people 0405\nship 0404\nmonster 0403 0303", s)
    ruleset.resolve(s, {"red": red}, chance())
    assert s.creatures["monster1"] == "0303"   # 0403 is next to ship1 in 0404: skipped
    assert s.hexmap.distance("0303", "0404") == 2


def test_nmr_placement_is_all_by_the_die():
    """README defaults: placement with no orders is made by the public die among legal hexes
    (3 a tile at most, Land Movement)."""
    s, _, _ = new()
    dice = chance()
    res = ruleset.resolve(s, {}, dice)
    assert all(p.where == "land" for p in s.people.values())
    assert len(s.ships) == 2 and len(s.creatures) == 2
    assert len(dice.public.log) == 20 + 2 + 2
    assert "red sent no placement orders: the die places all of red's pieces." in \
        [e.text for e in res.events]
    for pid, p in s.people.items():
        assert sum(1 for q in s.people.values() if q.hex == p.hex) <= 3


def test_check_placement_reports_wrong_hexes_and_short_lists():
    """Preparing to Play 2-4: people on island tiles, ships on sea next to the island,
    monsters at sea."""
    s, _, _ = new()
    red = orders("red", "people 0101 0707\nship 0304\nmonster 0505", s)
    why = [p.why for p in ruleset.check(s, "red", red)]
    assert why == ["0101 is not an island tile",
                   "0304 is not next to the island: ships are placed next to it",
                   "0505 is not a sea space",
                   "2 people entries for 10 pieces: the die places the rest"]


def test_ships_option_places_that_many_ships_each():
    """Preparing to Play 3 and Contents (12 ships): option ships, limited by the box."""
    s, _, _ = new(options={"ships": 2})
    ruleset.resolve(s, {}, chance())
    assert len(s.ships) == 4
    s, _, _ = new(("a", "b", "c", "d"), options={"ships": 3})      # 12 ships: the whole box
    with pytest.raises(SetupError, match="the box holds 5"):
        new(("a", "b", "c"), options={"ships": 2}, house={"ships": {"pieces": 5}})


def test_the_die_picks_among_more_than_256_hexes_without_bias():
    """DESIGN.md dice: a die has at most 256 sides; a choice among more items is drawn as base-16
    digits (d16 rolls) and redrawn when the number is too big (uniform rejection)."""
    from pbem.games.atlantis.windows import pick
    from test_atlantis_helpers import Scripted

    items = list(range(300))
    dice = Scripted([2, 3, 4])
    assert pick(dice, items, "why") == (1 * 16 + 2) * 16 + 3          # 291
    dice = Scripted([2, 3, 14, 1, 1, 2])                               # 301 is too big: again
    assert pick(dice, items, "why") == 1
    assert [sides for sides, _ in dice.log] == [16] * 6
    assert pick(Scripted(), ["only"], "why") == "only" and pick(Scripted(), [], "why") is None


def test_a_wrong_hex_repeated_in_a_list_is_reported_once_per_line():
    """Preparing to Play 3 (ships on an empty sea space next to the island): a hex of the wrong
    kind is one problem per order line however often the line repeats it, in the receipt and at
    resolution; the list is still read to its end (a long list costs time in proportion to its
    length)."""
    s, _, _ = new()
    red = orders("red", "people 0405\nship " + " ".join(["0304"] * 5000) + " 0404\n"
                        "monster 0202", s)
    assert [p.why for p in ruleset.check(s, "red", red)] == [
        "0304 is not next to the island: ships are placed next to it",
        "1 people entry for 10 pieces: the die places the rest"]
    res = ruleset.resolve(s, {"red": red}, chance())
    assert [p.why for p in res.problems["red"]] == [
        "0304 is not next to the island: ships are placed next to it"]
    assert s.ships["ship1"] == "0404"
