"""Sea creatures, the creature die, conditional creature orders, the creature window, kept
tiles played and standing orders (rulebook sections Sharks, Kraken, Sea Monsters, Dolphins,
Dice, Part of the Island sinks).

Sea hexes used (stand-in board, even-low): 0303 and 0304 are neighbours; 0304 touches 0303,
0305, 0203, 0204, 0403, 0404; going north from 0306: 0305, 0304, 0303, 0302. Every test sinks
0804 (a far sand tile hiding a kept tile).
"""

from __future__ import annotations

import pytest

from pbem.games.atlantis import ruleset
from test_atlantis_helpers import orders, position, problems, public_texts, run, texts, where

SINK = "\nsink 0804"


# -- what creatures do ------------------------------------------------------------------------

def test_sharks_eat_swimmers_not_ships():
    """Sharks: 'If a shark is in a sea space with swimmers, they are devoured by the shark. A shark
    may be in the same space as a ship, but it cannot attack it or its contents.'"""
    s = position(people={"red1": "ship:ship1", "red2": "sea:0303"}, ships={"ship1": "0303"},
                 creatures={"shark1": "0304"})
    res, _ = run(s, "sail ship1 0304\nswim red2 0304\nswim red1 0304" + SINK, rolls=[5])
    assert problems(res, "red") == []
    assert s.ships == {"ship1": "0304"}
    assert where(s, "red2") == "dead" and where(s, "red1") == "dead"
    assert "shark1 eats red2 at 0304." in texts(res)
    assert "shark1 eats red1 at 0304." in texts(res)
    # the move is told before what it caused
    t = texts(res)
    assert t.index("red2 swims from 0303 to 0304.") < t.index("shark1 eats red2 at 0304.")


def test_kraken_sinks_manned_ships_only_and_the_crew_swim():
    """Kraken: 'If a Kraken is in a space with a manned ship, the ship is sunk (removed from the
    board) and the crew becomes swimmers ... A Kraken cannot attack an unmanned ship.'"""
    s = position(people={"red1": "ship:ship2"}, ships={"ship1": "0303", "ship2": "0204"},
                 creatures={"kraken1": "0304"})
    res, _ = run(s, "sail ship1 0304 0305\nsail ship2 0304" + SINK, rolls=[5])
    assert problems(res, "red") == []
    assert s.ships == {"ship1": "0305"}                  # the unmanned ship sailed through
    assert where(s, "red1") == "sea:0304"                # the crew swim, the kraken spares them
    assert "kraken1 sinks ship2 at 0304; red1 is now swimming there." in texts(res)


def test_a_shark_in_the_krakens_space_eats_the_crew():
    """Kraken: 'If a shark happens to be in the space, however, the swimmers are lunch.'"""
    s = position(people={"red1": "ship:ship1", "red2": "ship:ship1"}, ships={"ship1": "0303"},
                 creatures={"kraken1": "0304", "shark1": "0304"})
    res, _ = run(s, "sail ship1 0304 0305" + SINK, rolls=[5])
    assert where(s, "red1") == "dead" and where(s, "red2") == "dead"
    assert "ship1" not in s.ships
    assert "shark1 eats red1 and red2 at 0304." in texts(res)
    assert "The rest of its move is lost." in texts(res)[0]


def test_a_dolphin_protects_the_kraken_crew_from_the_shark():
    """Dolphins: 'If a dolphin is in a sea space with a swimmer the swimmer is protected
    against any attack'; Kraken: the crew become swimmers."""
    s = position(people={"red1": "ship:ship1"}, ships={"ship1": "0303"},
                 creatures={"kraken1": "0304", "shark1": "0304", "dolphin1": "0304"})
    run(s, "sail ship1 0304" + SINK, rolls=[3])
    assert where(s, "red1") == "sea:0304"


def test_sea_monsters_eat_ships_crews_and_swimmers():
    """Sea Monsters: 'They eat any ships (manned or unmanned) and swimmers in any space they are
    in.' Ship Movement: 'Sea monsters destroy ships and eat the passengers.'"""
    s = position(people={"red1": "ship:ship1", "red2": "sea:0303"},
                 ships={"ship1": "0303", "ship2": "0204"}, creatures={"monster1": "0304"})
    res, _ = run(s, "sail ship2 0304\nsail ship1 0304\nswim red2 0304" + SINK, rolls=[5])
    assert problems(res, "red") == []
    assert s.ships == {}
    assert where(s, "red1") == "dead" and where(s, "red2") == "dead"
    t = texts(res)
    assert "monster1 destroys ship2 at 0304." in t
    assert "monster1 destroys ship1 at 0304 and eats red1 aboard." in t
    assert "monster1 eats red2 at 0304." in t


def test_dolphin_protects_swimmers_not_passengers_from_a_monster():
    """Dolphins: 'If a dolphin is in a sea space with a swimmer the swimmer is protected against
    any attack (shark or sea monster).' Passengers are not swimmers: the monster destroys the ship
    and eats them."""
    s = position(people={"red1": "ship:ship1", "red2": "sea:0303"}, ships={"ship1": "0303"},
                 creatures={"monster1": "0304", "dolphin1": "0304"})
    run(s, "swim red2 0304\nsail ship1 0304" + SINK, rolls=[6])
    assert where(s, "red2") == "sea:0304"
    assert where(s, "red1") == "dead" and s.ships == {}


def test_a_dolphin_moved_away_by_the_die_leaves_its_swimmer_to_be_eaten():
    """Dolphins: 'If a space contains a swimmer, a dolphin, and a shark or sea monster, and the
    dolphin is moved away from the space, the swimmer gets eaten immediately.'"""
    s = position(people={"red1": "sea:0304"}, creatures={"dolphin1": "0304", "shark1": "0304"},
                 phasing="green")
    res, _ = run(s, "if dolphin: dolphin1 0303" + SINK, rolls=[5])
    assert problems(res, "green") == []
    assert s.creatures["dolphin1"] == "0303" and where(s, "red1") == "dead"
    t = texts(res)
    assert t.index("green moves dolphin1 from 0304 to 0303.") < t.index(
        "shark1 eats red1 at 0304.")


def test_a_dolphin_taken_along_by_one_swimmer_leaves_another_to_be_eaten():
    """Dolphins: a dolphin moved away leaves the swimmer with a sea monster to be eaten."""
    s = position(people={"red1": "sea:0304", "red2": "sea:0304"},
                 creatures={"dolphin1": "0304", "monster1": "0304"})
    run(s, "swim red2 0303 with dolphin1" + SINK, rolls=[2])
    assert where(s, "red2") == "sea:0303" and where(s, "red1") == "dead"


# -- the creature die and conditional orders --------------------------------------------------

@pytest.mark.parametrize("roll,face", [(1, "dolphin-or-kraken"), (2, "shark"), (3, "monster"),
                                       (4, "monster-or-shark"), (5, "dolphin"), (6, "kraken")])
def test_creature_die_faces_in_the_contents_order(roll, face):
    """Contents: 'Dolphin or Kraken; Shark; Monster; Monster or Shark; Dolphin; Kraken;' and the
    roll is public with a reason that names no hidden fact."""
    s = position()
    res, dice = run(s, SINK.strip(), rolls=[roll])
    assert s.die == {"role": "red", "turn": 1, "roll": roll, "face": face}
    assert dice.public.log == [(6, "red's creature die, turn 1")]
    assert f"red rolls {roll} on the creature die: {face.replace('-', ' ')}." in texts(res)
    assert "no creature moves" in texts(res)[-2]         # none of those on the board


def test_face_lines_come_before_kind_lines():
    """README: for the face rolled, lines naming that face are tried first, then lines naming a
    kind it allows, each in the order written."""
    s = position(creatures={"shark1": "0304", "monster1": "0306"})
    res, _ = run(s, "if shark: shark1 0303\nif monster-or-shark: monster1 0305" + SINK,
                 rolls=[4])
    assert s.creatures == {"shark1": "0304", "monster1": "0305"}
    assert "red moves monster1 from 0306 to 0305." in texts(res)


def test_first_legal_line_is_carried_out_and_illegal_ones_reported():
    """README (Dice, conditional orders): lines tried in order, the first legal one carried
    out, illegal ones reported; Dice max moves."""
    s = position(creatures={"shark1": "0306", "shark2": "0304"})
    res, _ = run(s, "if shark: shark1 0305 0304 0303\nif shark: monster1 0305\n"
                    "if shark: shark2 0303" + SINK, rolls=[2])
    assert problems(res, "red") == ["a shark moves at most 2 sea spaces",
                                     "monster1 is a monster: this line moves a shark"]
    assert s.creatures == {"shark1": "0306", "shark2": "0303"}


def test_lines_matched_but_none_legal_moves_no_creature():
    """README (Dice, conditional orders): when lines matched but none was legal, no creature
    moves (no short window)."""
    s = position(creatures={"shark1": "0306"})
    res, _ = run(s, "if shark: shark1 0405" + SINK, rolls=[2])
    assert problems(res, "red") == [
        "0405 is not a sea space: creatures move through sea spaces only"]
    assert s.creatures == {"shark1": "0306"} and s.stage == "turn" and s.phasing == "green"
    assert "None of red's creature orders for shark can be carried out" in texts(res)[-2]


def test_stay_moves_nothing():
    """Dice: the Creature table gives each creature's maximum move; `if kraken: stay` moves
    none (README)."""
    s = position(creatures={"kraken1": "0306"})
    res, _ = run(s, "if kraken: stay" + SINK, rolls=[6])
    assert s.creatures == {"kraken1": "0306"} and "red moves no creature." in texts(res)


@pytest.mark.parametrize("kind,max_move", [("shark", 2), ("kraken", 3), ("monster", 1),
                                           ("dolphin", 2)])
def test_creature_max_moves(kind, max_move):
    """Dice, Creature Max Move table: Sea Monster 1, Shark 2, Dolphin 2, Kraken 3 sea spaces."""
    north = ["0305", "0304", "0303", "0302"]
    roll = {"shark": 2, "kraken": 6, "monster": 3, "dolphin": 5}[kind]
    s = position(creatures={f"{kind}1": "0306"})
    too_far = " ".join(north[:max_move + 1])
    res, _ = run(s, f"if {kind}: {kind}1 {too_far}\nif {kind}: {kind}1 "
                    f"{' '.join(north[:max_move])}" + SINK, rolls=[roll])
    space = "space" if max_move == 1 else "spaces"
    assert problems(res, "red") == [f"a {kind} moves at most {max_move} sea {space}"]
    assert s.creatures[f"{kind}1"] == north[max_move - 1]


def test_creatures_move_through_sea_only():
    """Dice: creatures move 'sea spaces'; Important: 'Sea creatures may move onto any sea
    spaces'."""
    s = position(creatures={"kraken1": "0304"})
    res, _ = run(s, "if kraken: kraken1 0404 0405" + SINK, rolls=[6])
    assert problems(res, "red") == ["0405 is not a sea space: creatures move through sea spaces "
                                    "only"]


def test_no_matching_line_opens_the_short_creature_window():
    """README: when no line matches the face rolled and a creature of a kind shown is on the
    board, a short window of its own opens; NMR there: no creature moves."""
    s = position(creatures={"shark1": "0304"})
    res, _ = run(s, "if kraken: stay" + SINK, rolls=[2])
    w = ruleset.window(s)
    assert (w.turn, w.phase, w.owed, w.short) == (1, "red-creature", ("red",), True)
    assert w.verbs["red"] == ["creature", "standing"] and w.verbs["green"] == ["standing"]
    assert "shark" in ruleset.template(s, "red")
    res, _ = run(s, "creature shark1 0303 0302")
    assert s.creatures == {"shark1": "0302"}
    assert ruleset.window(s).phase == "green"
    # NMR in the creature window
    s = position(creatures={"shark1": "0304"})
    run(s, SINK.strip(), rolls=[2])
    res, _ = run(s, None)
    assert s.creatures == {"shark1": "0304"} and s.phasing == "green"
    assert "red sent no creature order: no creature moves." in texts(res)


def test_no_creature_of_the_kinds_shown_means_no_window():
    """Dice: 'If there are none of the indicated creatures on the board then no creature can be
    moved.'"""
    s = position(creatures={"shark1": "0304"})
    res, _ = run(s, SINK.strip(), rolls=[6])
    assert s.phasing == "green" and s.stage == "turn"
    assert "No kraken is on the board: no creature moves." in texts(res)


# -- kept tiles played and standing orders ----------------------------------------------------

def test_dives_tiles_need_an_empty_sea_space():
    """Part of the Island sinks: 'Kraken / Shark / Sea Monster / Dolphin dives to any empty (sea)
    space.'"""
    s = position(people={"red1": "sea:0203"}, ships={"ship1": "0303"},
                 creatures={"shark1": "0304", "dolphin1": "0204"},
                 kept={"red": ["shark-dives"]})
    res, _ = run(s, "play shark-dives shark1 0303\nplay shark-dives shark1 0203\n"
                    "play shark-dives shark1 0204\nplay shark-dives shark1 0405\n"
                    "play shark-dives shark1 0302" + SINK, rolls=[1])
    assert problems(res, "red") == [
        "0303 is not empty: a creature dives to an empty sea space",
        "0203 is not empty: a creature dives to an empty sea space",
        "0204 is not empty: a creature dives to an empty sea space",
        "0405 is not a sea space"]
    assert s.creatures["shark1"] == "0302"
    assert "shark-dives" not in s.kept["red"]   # (the sunk 0804 gave red a Dolphin dives)
    assert "red plays Shark dives: shark1 dives from 0304 to 0302." in public_texts(res)


def test_tiles_are_played_first_and_only_if_held():
    """Part of the Island sinks: kept tiles are used 'at the start of your turn (ie. before
    movement)', and only by their holder."""
    s = position(people={"red1": "sea:0303"}, creatures={"shark1": "0304"},
                 kept={"red": ["kill-shark"]})
    res, _ = run(s, "swim red1 0304\nplay kill-shark shark1\nplay kraken-killed kraken1" + SINK,
                 rolls=[1])
    assert problems(res, "red") == ["you hold no Kraken killed tile"]
    assert where(s, "red1") == "sea:0304" and "shark1" not in s.creatures
    t = texts(res)
    assert t.index("red plays Kill a shark: shark1 is removed from 0304.") < t.index(
        "red1 swims from 0303 to 0304.")


def test_standing_kill_shark_fires_on_another_players_move():
    """Part of the Island sinks: Kill a shark may be played 'when someone else moves the
    appropriate creature to adversely affect a boat / swimmer' (README: standing orders)."""
    s = position(people={"green1": "sea:0303"}, creatures={"shark1": "0304"},
                 kept={"green": ["kill-shark"]}, standing={"green": {"kill-shark": True}})
    res, _ = run(s, "if shark: shark1 0303" + SINK, rolls=[2])
    assert where(s, "green1") == "sea:0303" and "shark1" not in s.creatures
    assert s.kept["green"] == [] and s.kept_count["green"] == 0
    assert ("green plays Kill a shark (standing order): shark1 is removed from the board before "
            "it can attack green1.") in public_texts(res)


def test_standing_order_sent_in_the_same_window_counts():
    """README 'Standing orders': sent in any window, in force from the start of that
    window's resolution; the acknowledgement is private."""
    s = position(people={"green1": "sea:0303"}, creatures={"shark1": "0304"},
                 kept={"green": ["kill-shark"]})
    res, _ = run(s, "if shark: shark1 0303" + SINK, rolls=[2],
                 others={"green": "standing kill-shark on"})
    assert where(s, "green1") == "sea:0303"
    assert [e.audience for e in res.events if e.kind == "standing"] == [("green",)]


def test_standing_order_does_not_fire_on_ones_own_move_or_when_off():
    """Part of the Island sinks: kill tiles are played 'when someone else moves the
    appropriate creature' - not on one's own move, and not when the standing order is off."""
    s = position(people={"green1": "sea:0303"}, creatures={"shark1": "0304"}, phasing="green",
                 kept={"green": ["kill-shark"]}, standing={"green": {"kill-shark": True}})
    run(s, "if shark: shark1 0303" + SINK, rolls=[2])
    assert where(s, "green1") == "dead" and "kill-shark" in s.kept["green"]
    s = position(people={"green1": "sea:0303"}, creatures={"shark1": "0304"},
                 kept={"green": ["kill-shark"]}, standing={"green": {"kill-shark": False}})
    run(s, "if shark: shark1 0303" + SINK, rolls=[2])
    assert where(s, "green1") == "dead"


def test_standing_kraken_killed_saves_a_manned_ship():
    """Part of the Island sinks: 'A Kraken is killed' played when someone else moves a
    kraken against the holder's boat."""
    s = position(people={"green1": "ship:ship1"}, ships={"ship1": "0303"},
                 creatures={"kraken1": "0304"}, kept={"green": ["kraken-killed"]},
                 standing={"green": {"kraken-killed": True}})
    res, _ = run(s, "if kraken: kraken1 0303" + SINK, rolls=[6])
    assert s.ships == {"ship1": "0303"} and where(s, "green1") == "ship:ship1"
    assert "kraken1" not in s.creatures


def test_several_holders_first_in_seat_order_after_the_mover_plays():
    """README 'Standing orders': several holders qualify - the first in seat order after the
    mover plays."""
    seats = ("red", "green", "blue")
    s = position(seats=seats, people={"green1": "sea:0303", "blue1": "sea:0303"},
                 creatures={"shark1": "0304"}, phasing="green",
                 kept={"red": ["kill-shark"], "blue": ["kill-shark"]},
                 standing={"red": {"kill-shark": True}, "blue": {"kill-shark": True}})
    run(s, "if shark: shark1 0303" + SINK, rolls=[2])
    # green moved: blue comes next in seat order, then red; red's swimmers are not threatened
    assert s.kept["blue"] == [] and s.kept["red"] == ["kill-shark"]
    assert where(s, "green1") == "sea:0303" and where(s, "blue1") == "sea:0303"


def test_boarding_an_unmanned_ship_beside_a_kraken_mans_it_and_the_kraken_sinks_it():
    """Kraken: 'If a Kraken is in a space with a manned ship, the ship is sunk' - an unmanned ship
    becomes manned when someone boards it."""
    s = position(people={"red1": "land:0405"}, ships={"ship1": "0404"},
                 creatures={"kraken1": "0404"})
    res, _ = run(s, "board red1 0404" + SINK, rolls=[2])
    assert s.ships == {} and where(s, "red1") == "sea:0404"
    t = texts(res)
    assert t.index("red1 boards ship1 in 0404 from the tile at 0405.") < t.index(
        "kraken1 sinks ship1 at 0404; red1 is now swimming there.")


def test_a_condition_naming_a_kind_twice_is_that_kind():
    """Dice: 'Move one of the indicated creatures'. `if shark-or-shark:` names the Shark face
    (its kinds in any order, README), so the line moves a shark - it was refused before as
    moving a 'shark-or-shark'."""
    s = position(creatures={"shark1": "0304"})
    body = "if shark-or-shark: shark1 0303" + SINK
    assert ruleset.check(s, "red", orders("red", body, s)) == []
    res, _ = run(s, body, rolls=[2])
    assert problems(res, "red") == [] and s.creatures == {"shark1": "0303"}


def test_many_conditional_lines_keep_their_order():
    """README (Dice, conditional orders): face lines first, then kind lines, each in the order
    written - also with hundreds of lines (the matching is linear, not quadratic: see the
    review notes; bench numbers are not asserted here)."""
    s = position(creatures={"shark1": "0304", "monster1": "0306"})
    lines = ["if shark: shark1 0405"] * 300 + ["if shark: shark1 0303"] + \
            ["if monster-or-shark: monster1 0406"] * 300 + ["if monster-or-shark: monster1 0305"]
    res, _ = run(s, "\n".join(lines) + SINK, rolls=[4])
    why = problems(res, "red")
    assert len(why) == 300 and all("0406 is not a sea space" in w for w in why)
    assert s.creatures == {"shark1": "0304", "monster1": "0305"}
