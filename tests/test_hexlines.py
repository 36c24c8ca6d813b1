"""Straight lines, range and radius on hex maps (docs/maps.md, "Straight lines and range").

Expected hexes are worked by hand from the wargame convention: flat-topped hexes in columns,
four-digit column-row labels. A hex (c, r) in an *upper* column (one that does not sit half a
hex lower) has its north-east neighbour at (c+1, r-1), south-east (c+1, r), south-west
(c-1, r), north-west (c-1, r-1); a hex in a *lower* column has them at (c+1, r), (c+1, r+1),
(c-1, r+1), (c-1, r). North and south stay in the column. With ``even-low`` the even columns
are the lower ones; with ``odd-low`` the odd ones.

Range (Escape from Altassar 7.33) counts "the target unit's hex, but not the firing unit's
hex": the number of hexes entered going from the firer to the target, so an adjacent target is
at range 1.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.boards import DIRECTIONS, HexLabelError, hexgrid, line, line_direction, load_map


def grid(columns=13, rows=13, offset="even-low"):
    return load_map(f'[map]\ncolumns = {columns}\nrows = {rows}\noffset = "{offset}"\n'
                    f'default = "clear"\n', "test.toml")


# -- hexgrid.line: hand-worked lines on an open grid ----------------------------------------

@pytest.mark.parametrize("offset,start,direction,length,expected", [
    # even-low, 0504 in upper column 5: ne -> (6,3) lower -> (7,3) upper -> (8,2) -> (9,2)
    ("even-low", "0504", "ne", 4, ["0603", "0703", "0802", "0902"]),
    # se from upper: same row in the lower column, then the next row
    ("even-low", "0504", "se", 3, ["0604", "0705", "0805"]),
    ("even-low", "0504", "sw", 3, ["0404", "0305", "0205"]),
    ("even-low", "0504", "s", 2, ["0505", "0506"]),
    # Altassar 14.2: a full eight-hex trip net line from the corner, alternating columns
    ("even-low", "0101", "se", 8,
     ["0201", "0302", "0402", "0503", "0603", "0704", "0804", "0905"]),
    # odd-low, 0504 now in a lower column: ne -> (6,4) upper -> (7,3) lower -> (8,3) -> (9,2)
    ("odd-low", "0504", "ne", 4, ["0604", "0703", "0803", "0902"]),
    ("odd-low", "0504", "se", 3, ["0605", "0705", "0806"]),
    ("odd-low", "0504", "nw", 2, ["0404", "0303"]),
])
def test_line_hand_worked(offset, start, direction, length, expected):
    assert line(start, direction, length, offset) == expected
    assert hexgrid.line(start, direction, length, offset) == expected


@pytest.mark.parametrize("offset,start,direction,length,expected", [
    # stops where no four-digit label exists: row 00 above 0501
    ("even-low", "0504", "n", 8, ["0503", "0502", "0501"]),
    # north-west to column 01, then column 00 has no label
    ("even-low", "0504", "nw", 5, ["0403", "0303", "0202", "0102"]),
    ("odd-low", "0101", "n", 3, []),
    # length 0: no hex entered
    ("even-low", "0504", "s", 0, []),
    # at the far edge of the labels: 9898 is in a lower column, so se is (99, 99), then
    # column 100 has no label
    ("even-low", "9898", "se", 3, ["9999"]),
])
def test_line_stops_where_labels_end(offset, start, direction, length, expected):
    assert line(start, direction, length, offset) == expected


def test_line_default_offset_is_even_low():
    assert line("0504", "ne", 2) == ["0603", "0703"]


def test_line_refuses_bad_input():
    with pytest.raises(ValueError, match="'east'"):
        line("0504", "east", 3)
    with pytest.raises(ValueError, match="-1"):
        line("0504", "n", -1)
    with pytest.raises(ValueError, match="2.5"):
        line("0504", "n", 2.5)
    with pytest.raises(HexLabelError, match="'504'"):
        line("504", "n", 2)
    with pytest.raises(HexLabelError, match="'even'"):
        line("0504", "n", 2, "even")


# -- HexMap.line: the same lines, cut at the map edge ----------------------------------------

@pytest.mark.parametrize("offset", ["even-low", "odd-low"])
def test_map_line_is_the_grid_line_cut_at_the_edge(offset):
    m = grid(8, 8, offset)
    assert m.line("0504", "ne", 4) == tuple(line("0504", "ne", 3, offset))  # column 9 is off
    assert m.line("0504", "s", 8) == tuple(line("0504", "s", 4, offset))    # row 9 is off
    if offset == "even-low":  # the eight-hex line of the open grid, less its ninth column
        assert m.line("0101", "se", 8) == ("0201", "0302", "0402", "0503", "0603", "0704",
                                           "0804")
    with pytest.raises(ValueError):
        m.line("0504", "east", 2)
    with pytest.raises(KeyError):
        m.line("0909", "n", 2)


# -- line_direction ----------------------------------------------------------------------------

@pytest.mark.parametrize("offset,a,b,expected", [
    ("even-low", "0504", "0902", "ne"),
    ("even-low", "0504", "0805", "se"),
    ("even-low", "0504", "0501", "n"),
    ("even-low", "0504", "0102", "nw"),
    ("even-low", "0504", "0604", "se"),      # adjacent
    ("even-low", "0504", "0605", None),      # two steps, not on one line (se then s)
    ("even-low", "0504", "0504", None),
    ("odd-low", "0504", "0902", "ne"),
    ("odd-low", "0504", "0806", "se"),
    ("odd-low", "0504", "0805", None),
])
def test_line_direction_hand_worked(offset, a, b, expected):
    assert line_direction(a, b, offset) == expected
    assert grid(13, 13, offset).line_direction(a, b) == expected


# -- distance counts range as Altassar 7.33 does ---------------------------------------------

@pytest.mark.parametrize("offset,firer,target,hexes_entered", [
    # adjacent: the target's hex is the one hex counted
    ("even-low", "0504", "0604", ["0604"]),
    ("odd-low", "0504", "0605", ["0605"]),
    # straight down the column: 0505, 0506, 0507 counted, 0504 not
    ("even-low", "0504", "0507", ["0505", "0506", "0507"]),
    # a bend: se, se, then s (even-low)
    ("even-low", "0504", "0706", ["0604", "0705", "0706"]),
    # 0605 is adjacent under odd-low but two hexes away under even-low
    ("even-low", "0504", "0605", ["0604", "0605"]),
    # 0202 touches 0101 under odd-low (column 1 sits lower) but not under even-low
    ("even-low", "0101", "0202", ["0201", "0202"]),
    ("odd-low", "0101", "0202", ["0202"]),
])
def test_distance_is_altassar_range(offset, firer, target, hexes_entered):
    m = grid(13, 13, offset)
    # the path written out by hand is made of steps between neighbours ...
    path = [firer, *hexes_entered]
    for a, b in zip(path, path[1:]):
        assert m.adjacent(a, b)
    # ... and counting its hexes, the target's in and the firer's out, gives the range
    assert m.distance(firer, target) == len(hexes_entered)
    assert hexgrid.distance(firer, target, offset) == len(hexes_entered)


def test_range_three_reaches_exactly_the_hexes_within_three():
    # Altassar 7.31: prisoners and soldiers have range 3. Distance <= 3 is the 37-hex hexagon
    # 1 + 6 + 12 + 18 around the firer.
    m = grid()
    reach = [h for h in m.labels() if m.distance("0707", h) <= 3]
    assert tuple(reach) == m.within("0707", 3)
    assert len(reach) == 37


# -- within ----------------------------------------------------------------------------------

def test_within_two_even_low_hand_worked():
    # 0504 in upper column 5 (even-low): rows 2-6 of column 5; the lower columns 4 and 6 reach
    # one row higher than they reach lower (rows 2-5); columns 3 and 7, upper, rows 3-5.
    expected = {"0502", "0503", "0504", "0505", "0506",
                "0402", "0403", "0404", "0405", "0602", "0603", "0604", "0605",
                "0303", "0304", "0305", "0703", "0704", "0705"}
    assert set(grid().within("0504", 2)) == expected
    assert len(expected) == 19


def test_within_two_odd_low_hand_worked():
    # 0504 in lower column 5 (odd-low): the upper columns 4 and 6 reach rows 3-6
    expected = {"0502", "0503", "0504", "0505", "0506",
                "0403", "0404", "0405", "0406", "0603", "0604", "0605", "0606",
                "0303", "0304", "0305", "0703", "0704", "0705"}
    assert set(grid(offset="odd-low").within("0504", 2)) == expected


def test_within_is_in_label_order_and_cut_at_the_edge():
    m = grid(4, 4)
    got = m.within("0101", 2)
    assert list(got) == sorted(got, key=hexgrid.label_key)
    # even-low 0101 (upper): distance 1: 0102 (s), 0201 (se). Distance 2: from 0102 (upper)
    # s 0103 and se 0202; from 0201 (lower) ne 0301 and se 0302.
    assert set(got) == {"0101", "0102", "0201", "0103", "0202", "0301", "0302"}
    with pytest.raises(ValueError):
        m.within("0101", -1)


# -- properties --------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.integers(1, 99), st.integers(1, 99), st.sampled_from(DIRECTIONS),
       st.integers(0, 12), st.sampled_from(["even-low", "odd-low"]))
def test_line_steps_are_neighbours_and_distances_grow(column, row, direction, length, offset):
    start = hexgrid.format_label(column, row)
    hexes = line(start, direction, length, offset)
    assert len(hexes) <= length
    for k, h in enumerate(hexes, start=1):
        assert hexgrid.distance(start, h, offset) == k
        assert line_direction(start, h, offset) == direction
    for a, b in zip([start, *hexes], hexes):
        assert hexgrid.direction_between(a, b, offset) == direction
    if len(hexes) < length:  # stopped early: the next step has no label
        last = hexes[-1] if hexes else start
        assert hexgrid.step(last, direction, offset) is None
