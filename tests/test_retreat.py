"""Retreats onto the ring at distance n (pbem.boards.retreat), with Olympica 12.3 and 12.3.1
as the source. Every hex below is worked by hand on an even-low map (even columns half a hex
lower; docs/maps.md, "Neighbours, worked by hand"), not taken from the code.

Around 0504 (column 5, an upper column), the six neighbours are 0503 (n), 0603 (ne), 0604
(se), 0505 (s), 0404 (sw), 0403 (nw). Going two steps in one direction reaches the six corners
of the ring of 2: 0502 (n), 0703 (ne), 0705 (se), 0506 (s), 0305 (sw), 0303 (nw), each by one
path only. Between two corners lies one more ring hex, reached from either of the two
neighbours next to it: 0602 (via 0503 or 0603), 0704 (via 0603 or 0604), 0605 (via 0604 or
0505), 0405 (via 0505 or 0404), 0304 (via 0404 or 0403), 0402 (via 0403 or 0503). So 12 ring
hexes (docs/maps.md) and 6 + 2 * 6 = 18 paths.
"""

from __future__ import annotations

import pytest

from pbem.boards import load_map
from pbem.boards.retreat import RetreatPath, choose, retreat_paths

CORNERS = {"0502": ("0503", "0502"), "0703": ("0603", "0703"), "0705": ("0604", "0705"),
           "0506": ("0505", "0506"), "0305": ("0404", "0305"), "0303": ("0403", "0303")}
MIDDLES = {"0602": ("0503", "0603"), "0704": ("0603", "0604"), "0605": ("0604", "0505"),
           "0405": ("0505", "0404"), "0304": ("0404", "0403"), "0402": ("0403", "0503")}
ALL_PATHS = sorted([c for c in CORNERS.values()]
                   + [(via, end) for end, vias in MIDDLES.items() for via in vias])


def board(extra=""):
    return load_map('[map]\ncolumns = 13\nrows = 13\noffset = "even-low"\ndefault = "clear"\n'
                    + extra, "test.toml")


def among(*hexes):
    return lambda h: h in hexes


NOBODY = among()


def test_12_3_every_path_of_two_steps_onto_the_ring():
    m = board()
    paths = retreat_paths(m, "0504", 2, friendly=NOBODY, enemy=NOBODY)
    assert [p.hexes for p in paths] == ALL_PATHS
    assert len(paths) == 18
    assert not any(p.assault for p in paths)
    assert {p.end for p in paths} == set(CORNERS) | set(MIDDLES) == set(m.ring("0504", 2))


def test_12_3_through_a_friendly_unit_but_not_onto_one():
    m = board()
    # a friendly unit in 0503 is crossed; one in 0502 (on the ring) cannot be ended on
    paths = retreat_paths(m, "0504", 2, friendly=among("0503", "0502"), enemy=NOBODY)
    hexes = [p.hexes for p in paths]
    assert ("0503", "0602") in hexes and ("0503", "0402") in hexes
    assert [h for h in ALL_PATHS if h not in hexes] == [("0503", "0502")]


def test_12_3_not_onto_an_enemy_unit_while_another_hex_is_possible():
    m = board()
    # an enemy in 0503: the paths through it become a close assault in 0503, which is refused
    # while other retreats exist; 0502 (reached only through 0503) is lost, 0602 and 0402
    # remain through 0603 and 0403
    paths = retreat_paths(m, "0504", 2, friendly=NOBODY, enemy=among("0503"))
    assert [p.hexes for p in paths] == [h for h in ALL_PATHS if h[0] != "0503"]
    assert {p.end for p in paths} == set(m.ring("0504", 2)) - {"0502"}


def test_12_3_onto_an_enemy_unit_when_nothing_else_is_possible_even_one_hex_away():
    m = board()
    ring = m.ring("0504", 2)
    # every ring hex holds a friendly unit but 0705, which holds an enemy; 0503 holds an enemy
    friends = among(*(h for h in ring if h != "0705"))
    paths = retreat_paths(m, "0504", 2, friendly=friends, enemy=among("0503", "0705"))
    # "A Close Assault completes the retreat requirement even if it is only one hex from the
    # retreating unit's original position": (0503,) is one; 0705 is reached only through 0604
    assert paths == [RetreatPath(("0503",), assault=True),
                     RetreatPath(("0604", "0705"), assault=True)]


def test_12_3_never_off_the_map():
    # from the corner 0101 (upper column): neighbours 0102 (s) and 0201 (se); from 0102: 0103
    # (s), 0202 (se); from 0201 (a lower column): 0202 (s), 0301 (ne), 0302 (se)
    paths = retreat_paths(board(), "0101", 2, friendly=NOBODY, enemy=NOBODY)
    assert [p.hexes for p in paths] == [("0102", "0103"), ("0102", "0202"), ("0201", "0202"),
                                        ("0201", "0301"), ("0201", "0302")]


def test_12_3_1_no_retreat_from_one_cliff_hex_directly_into_another():
    m = board('[terrain]\ncliff = ["0504", "0503", "0602"]\n')

    def not_cliff_to_cliff(a, b):
        return not (m.terrain(a) == "cliff" and m.terrain(b) == "cliff")

    paths = retreat_paths(m, "0504", 2, step_ok=not_cliff_to_cliff, friendly=NOBODY,
                          enemy=NOBODY)
    # 0504 -> 0503 is cliff to cliff: 0502 is lost, 0602 and 0402 remain through 0603 and 0403
    # (clear to cliff 0602 is allowed)
    assert [p.hexes for p in paths] == [h for h in ALL_PATHS if h[0] != "0503"]


def test_no_retreat_possible_gives_no_path():
    m = board()
    everyone = among(*m.ring("0504", 2))
    assert retreat_paths(m, "0504", 2, friendly=everyone, enemy=NOBODY) == []


def test_other_distances():
    m = board()
    one = retreat_paths(m, "0504", 1, friendly=NOBODY, enemy=NOBODY)
    assert [p.hexes for p in one] == [("0403",), ("0404",), ("0503",), ("0505",), ("0603",),
                                      ("0604",)]
    # three steps north: the only path to 0501 is straight up the column
    three = retreat_paths(m, "0504", 3, friendly=NOBODY, enemy=NOBODY)
    assert [p.hexes for p in three if p.end == "0501"] == [("0503", "0502", "0501")]
    assert {p.end for p in three} == set(m.ring("0504", 3))
    # an enemy one hex away on a retreat of three still ends the path there (an assault)
    blocked = retreat_paths(m, "0504", 3, friendly=among(*m.ring("0504", 3)),
                            enemy=among("0505"))
    assert blocked == [RetreatPath(("0505",), assault=True)]


def test_bad_arguments():
    m = board()
    with pytest.raises(ValueError, match="retreat length 0: expected a whole number"):
        retreat_paths(m, "0504", 0, friendly=NOBODY, enemy=NOBODY)
    with pytest.raises(KeyError, match="1404"):
        retreat_paths(m, "1404", 2, friendly=NOBODY, enemy=NOBODY)


def test_choose_by_key_then_by_hexes():
    m = board()
    paths = retreat_paths(m, "0504", 2, friendly=NOBODY, enemy=NOBODY)
    # a standing order preferring the north corner 0502 (one path: 0503, 0502)
    north = choose(paths, key=lambda p: 0 if p.end == "0502" else 1)
    assert north == RetreatPath(("0503", "0502"))
    # ties broken by the hexes: the two paths to 0602 run through 0503 and 0603
    to_0602 = choose(paths, key=lambda p: p.end != "0602")
    assert to_0602.hexes == ("0503", "0602")
    assert choose([], key=lambda p: 0) is None
