"""Sinking tiles and what lies under them, the end of the game and the score (rulebook sections
Part of the Island sinks, Symbols Under Tiles, End of game, Game Objective), and the player-turn
with no orders (README, "Defaults when orders are missing").

Stand-in board (even-low): 0405 touches sea 0404, 0305, 0306 and the tiles 0406, 0505, 0506;
0506 touches only tiles (0405, 0406, 0505, 0507, 0605, 0606); 0804 is a sand tile touching the
sea at 0803.
"""

from __future__ import annotations

import json

import pytest

from pbem.games.atlantis import ruleset
from pbem.games.atlantis.table import Table
from test_atlantis_helpers import position, problems, public_texts, run, texts, where

ISLAND_RING_SAND = ("0405", "0406", "0407", "0408", "0505", "0509", "0604", "0609", "0704",
                    "0710", "0804")


def forest_island(s, sand=("0506",)):
    """Make every outer tile forest except ``sand`` (the centre stays fortress)."""
    for h in s.tiles:
        if s.tiles[h] != "fortress":
            s.tiles[h] = "sand" if h in sand else "forest"


# -- which tile may sink ------------------------------------------------------------------------

def test_sand_before_forest_before_fortress():
    """Part of the Island sinks: 'first all the sand tiles, then the forest tiles, then the
    fortress tiles.'"""
    s = position()
    assert s.tiles["0405"] == "sand" and s.tiles["1008"] == "forest"   # see the helper's setup
    res, _ = run(s, "sink 1008")
    assert "the tile at 1008 is forest, and a sand tile next to the sea must sink first" in \
        problems(res, "red")[0]
    # only the centre left plus one forest tile: the forest goes before any fortress (the city
    # counts as a fortress)
    s = position()
    keep = set(s.hexmap.group("centre")) | {"0405"}
    s.tiles = {h: ("forest" if h == "0405" else k) for h, k in s.tiles.items() if h in keep}
    res, _ = run(s, f"sink {s.city}")
    assert "a forest tile next to the sea must sink first: 0405" in problems(res, "red")[0]
    assert "0405" not in s.tiles and s.city in s.tiles          # the die sank the forest tile


def test_a_tile_must_touch_the_sea_so_some_sink_out_of_order():
    """Part of the Island sinks: 'a tile must have at least one side next to the sea to be able
    to be sunk, thus it is possible for some tiles to have to be taken out of order.'"""
    s = position()
    forest_island(s, sand=("0506",))
    assert s.sinkable()[:3] == ["0405", "0406", "0407"] and "0506" not in s.sinkable()
    res, _ = run(s, "sink 0506")
    assert problems(res, "red") == ["the tile at 0506 has no side next to the sea"]
    assert "0506" in s.tiles
    s = position()
    forest_island(s, sand=("0506",))
    res, _ = run(s, "sink 0405")                       # forest, out of order: allowed
    assert problems(res, "red") == [] and "0405" not in s.tiles
    res, _ = run(s, "sink 0406", role="green")          # now the sand touches the sea
    assert "a sand tile next to the sea must sink first: 0506" in problems(res, "green")[0]


def test_only_one_tile_sinks_and_an_illegal_sink_is_replaced_by_the_die():
    """The Play: 'Removes an island tile' - one per turn; README: an illegal or missing sink
    is replaced by the public die."""
    s = position()
    res, dice = run(s, "sink 0506\nsink 0405\nsink 0406", rolls=[1])
    assert problems(res, "red") == ["the tile at 0506 has no side next to the sea",
                                    "only one tile sinks per turn: this order is ignored"]
    assert "0405" not in s.tiles and "0406" in s.tiles
    s = position()
    res, dice = run(s, "sink 0506", rolls=[2, 1])
    assert dice.public.log[0] == (len(ISLAND_RING_SAND), "red: tile to sink chosen at random "
                                                         "(no legal sink order)")
    assert "0406" not in s.tiles                        # the second of the sinkable sand tiles
    assert "red sinks the sand tile at 0406 (chosen by the die: no legal sink order)." in \
        texts(res)


# -- what lies under the tile -----------------------------------------------------------------

def test_people_on_a_sunk_tile_swim_and_a_kept_symbol_is_the_sinkers_alone():
    """Part of the Island sinks: people on the tile 'become swimmers'; 'Privately look at the
    symbol'; tiles with text 'should be kept secret and used later'."""
    s = position(people={"red1": "land:0405", "green1": "land:0405"},
                 symbols={"0405": "shark-dives"})
    res, _ = run(s, "sink 0405")
    assert where(s, "red1") == "sea:0405" and where(s, "green1") == "sea:0405"
    assert s.kept["red"] == ["shark-dives"] and s.kept_count["red"] == 1
    private = [e for e in res.events if not e.public]
    assert [(e.kind, e.audience) for e in private] == [("symbol", ("red",))]
    assert "Shark dives" in private[0].text
    public = json.dumps([e.to_json() for e in res.events if e.public])
    assert "dives" not in public.lower()
    assert "red keeps the tile face down (red now holds 1 kept tile)." in public_texts(res)
    assert s.sunk[-1] == {"hex": "0405", "kind": "sand", "by": "red", "turn": 1, "symbol": None}
    assert s.sank["red"] == {"0405": "shark-dives"}


@pytest.mark.parametrize("symbol,piece,survive", [
    ("shark", "shark1", False), ("monster", "monster1", False),
    ("kraken", "kraken1", True), ("dolphin", "dolphin1", True), ("boat", "ship1", True)])
def test_creatures_and_boats_are_placed_where_the_tile_was(symbol, piece, survive):
    """Part of the Island sinks: 'place the appropriate item on the board in the space where the
    tile was removed. If a creature is placed which attacks swimmers then the swimmers die
    immediately.'"""
    s = position(people={"red1": "land:0405"}, symbols={"0405": symbol})
    res, _ = run(s, "sink 0405\nif dolphin-or-kraken: stay\nif dolphin: stay\nif kraken: stay\n"
                    "if shark: stay\nif monster: stay", rolls=[2])
    placed = s.ships if symbol == "boat" else s.creatures
    assert placed == {piece: "0405"}
    assert (where(s, "red1") == "sea:0405") == survive
    assert f"{piece} is placed at 0405." in public_texts(res)
    assert s.sunk[-1]["symbol"] == symbol


def test_vortex_destroys_its_space_and_the_sea_around_but_not_land():
    """GAMES.md case; Part of the Island sinks: 'all people, creatures, boats in that space and
    the neighbouring 6 spaces (if sea spaces) are destroyed and removed from the game.'"""
    s = position(people={"red1": "land:0405", "red2": "ship:ship1", "green1": "sea:0305",
                         "green2": "sea:0304", "red3": "land:0406"},
                 ships={"ship1": "0404"}, creatures={"shark1": "0306", "kraken1": "0303"},
                 symbols={"0405": "vortex"})
    res, _ = run(s, "sink 0405", rolls=[6])
    for pid in ("red1", "red2", "green1"):
        assert where(s, pid) == "dead", pid
    assert where(s, "green2") == "sea:0304"      # two spaces away
    assert where(s, "red3") == "land:0406"       # a neighbouring land tile is not touched
    assert s.ships == {} and s.creatures == {"kraken1": "0303"}
    assert "0406" in s.tiles
    text = [t for t in texts(res) if t.startswith("The vortex")][0]
    assert "ship1, shark1, red1, red2 and green1" in text


def test_vortex_spares_a_safe_island():
    """Part of the Island sinks: the vortex destroys the neighbouring spaces 'if sea spaces'
    - a safe island is not."""
    s = position(people={"red1": "safe:0101", "red2": "sea:0201", "green1": "sea:0103"},
                 ships={"ship1": "0202"})
    t = Table(s)
    t.vortex("0102")
    assert where(s, "red1") == "safe:0101"
    assert where(s, "red2") == "dead" and where(s, "green1") == "dead" and s.ships == {}


def test_game_ends_tile_ends_the_game_at_once():
    """Part of the Island sinks: 'If the tile indicates that the game ends, then the game ends
    immediately and scores are calculated.'"""
    s = position(people={"red1": "safe:0101", "green1": "safe:1313", "green2": "safe:1313"},
                 symbols={"0405": "game-ends"})
    s.values.update({"red1": 6, "green1": 2, "green2": 1})
    res, dice = run(s, "sink 0405\nif shark: stay")
    assert s.stage == "over" and ruleset.window(s) is None
    assert dice.public.log == []                          # no creature die
    out = ruleset.outcome(s)
    assert out.scores == {"red": 6, "green": 3} and out.winners == ("red",)
    assert out.reason == "the Game Ends tile was sunk"
    assert "Scores (values of the people safe): red 6, green 3. red wins with 6." in texts(res)
    values = [e for e in res.events if e.kind == "values"]
    assert all(e.public for e in values) and len(values) == 2


@pytest.mark.parametrize("option,over,dead", [("ends", True, False), ("vortex", False, True),
                                              ("none", False, False)])
def test_volcano_options(option, over, dead):
    """Volcano (stand-in, option volcano): ends the game, acts as a vortex, or nothing."""
    s = position(options={"volcano": option}, people={"red1": "sea:0404"},
                 symbols={"0405": "volcano"})
    res, _ = run(s, "sink 0405")
    assert (s.stage == "over") == over
    assert (where(s, "red1") == "dead") == dead
    assert s.sunk[-1]["symbol"] == "volcano"


def test_volcano_under_the_city_house_rule():
    """Symbols Under Tiles: 'Volcano ... (The tallest piece in my set)' - the house rule
    puts it under the city."""
    s = position(house={"tiles": {"volcano_under_city": True}}, calm=False)
    assert s.symbols[s.city] == "volcano"
    assert sorted(s.symbols.values()).count("volcano") == 1


# -- the end and the score --------------------------------------------------------------------

def last_people(options=None):
    people = {f"red{i}": "dead" for i in range(1, 11)}
    people.update({f"green{i}": "dead" for i in range(1, 11)})
    people.update({"red1": "sea:0102", "red2": "safe:0101", "green1": "safe:1313",
                   "green2": "land:0405"})
    s = position(options=options, people=people)
    s.values.update({"red1": 4, "red2": 2, "green1": 6, "green2": 5})
    return s


def test_end_all_every_living_person_safe():
    """End of game: 'The game ends if all players have brought their live people to safety'."""
    s = last_people()
    run(s, "ashore red1 0101" + "\nsink 0804")
    assert s.stage == "turn"                             # green2 is still on the island
    s.people["green2"].where, s.people["green2"].hex = "dead", None
    s.phasing = "red"
    s.people["red1"].where, s.people["red1"].hex = "sea", "0102"
    res, _ = run(s, "ashore red1 0101\nsink 0405")
    assert s.stage == "over" and ruleset.outcome(s).reason == "every living person is safe"
    assert "0405" in s.tiles                              # the game ended before the sink
    assert ruleset.outcome(s).scores == {"red": 6, "green": 6}


def test_end_first_one_player_all_safe():
    """Game Objective: 'The game ends as soon as someone succeeds to get all his surviving
    villagers in security' (option end=first)."""
    s = last_people({"end": "first"})
    run(s, "ashore red1 0101\nsink 0804")
    out = ruleset.outcome(s)
    assert out.reason == "red has every surviving person safe (option end=first)"
    assert out.scores == {"red": 6, "green": 6} and out.winners == ("red", "green")


def test_equal_highest_scores_share_the_win():
    """End of game: 'The highest score wins' (no tie-breaker: equal highest share)."""
    s = last_people({"end": "first"})
    res, _ = run(s, "ashore red1 0101\nsink 0804")
    assert "red and green share the win with 6 each." in texts(res)[-1]


def test_the_game_ends_when_no_tile_is_left():
    """README guard: with no tile left the game ends (End of game: 'destroys the remnants of
    Atlantis')."""
    s = position(people={"red1": "sea:0304"})
    for h in list(s.tiles):
        if h != "0405":
            del s.tiles[h]
    for p in s.people.values():
        if p.where == "land":
            p.where, p.hex = "safe", "0101"
    run(s, "sink 0405")
    assert ruleset.outcome(s).reason == "no tile of the island is left"


# -- no orders --------------------------------------------------------------------------------

def test_nmr_turn_sinks_a_random_tile_and_nothing_else():
    """README: player-turn with no orders: no tile played, no movement, the tile to sink chosen by
    the public die among the tiles the player could sink, no creature moved."""
    s = position(creatures={"shark1": "0304"}, kept={"red": ["kill-shark"]})
    before = {pid: where(s, pid) for pid in s.people}
    res, dice = run(s, None, rolls=[3])
    assert dice.public.log == [(11, "red: tile to sink chosen at random (no orders)")]
    assert "0407" not in s.tiles              # the third of the 11 sinkable tiles, in label order
    assert {pid: where(s, pid) for pid in s.people} == before
    assert s.creatures == {"shark1": "0304"} and s.kept["red"][0] == "kill-shark"
    assert s.phasing == "green" and s.stage == "turn"
    assert texts(res)[0].startswith("red sent no orders")
