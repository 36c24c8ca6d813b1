"""pbem.boards: labels, neighbours, distances, lines, map files, drawings and paths.

Expected neighbours and distances are worked by hand from the wargame convention (docs/maps.md):
flat-topped hexes in columns, four-digit column-row labels from 01, and with ``even-low`` the
even columns half a hex lower, so an upper-column hex (c, r) touches rows r-1 and r of the columns
beside it, and a lower-column hex touches rows r and r+1.
"""

from __future__ import annotations

import math
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.boards import (HexLabelError, MapError, ascii_map, cheapest_path, format_label,
                         hex_center, hex_corners, load_map, map_size, parse_label, path_cost,
                         reachable)
from pbem.boards import hexgrid


def grid(columns=13, rows=13, offset="even-low", extra=""):
    return load_map(f'[map]\ncolumns = {columns}\nrows = {rows}\noffset = "{offset}"\n'
                    f'default = "sea"\n{extra}', "test.toml")


# -- labels -----------------------------------------------------------------------------------

def test_labels_are_column_then_row():
    assert parse_label("0504") == (5, 4)
    assert format_label(5, 4) == "0504"
    assert format_label(12, 9) == "1209"


@pytest.mark.parametrize("bad", ["504", "05040", "ab12", "0005", "0500", "", " 0504", 504])
def test_bad_labels_quote_the_input(bad):
    with pytest.raises(HexLabelError) as err:
        parse_label(bad)
    assert repr(bad) in str(err.value)


def test_format_refuses_out_of_range():
    with pytest.raises(HexLabelError):
        format_label(0, 3)
    with pytest.raises(HexLabelError):
        format_label(100, 3)


# -- neighbours (hand-worked) -----------------------------------------------------------------

@pytest.mark.parametrize("offset,label,expected", [
    # even-low: column 5 is upper -> rows 3 and 4 of columns 4 and 6
    ("even-low", "0504", {"0503", "0505", "0403", "0404", "0603", "0604"}),
    # even-low: column 6 is lower -> rows 4 and 5 of columns 5 and 7
    ("even-low", "0604", {"0603", "0605", "0504", "0505", "0704", "0705"}),
    # odd-low: column 5 is lower -> rows 4 and 5 of columns 4 and 6
    ("odd-low", "0504", {"0503", "0505", "0404", "0405", "0604", "0605"}),
    # odd-low: column 6 is upper -> rows 3 and 4 of columns 5 and 7
    ("odd-low", "0604", {"0603", "0605", "0503", "0504", "0703", "0704"}),
])
def test_neighbours_inside(offset, label, expected):
    m = grid(offset=offset)
    assert set(m.neighbours(label)) == expected
    assert set(hexgrid.neighbours(label, offset)) == expected


@pytest.mark.parametrize("offset,label,expected", [
    ("even-low", "0101", {"0102", "0201"}),             # top-left corner, upper column
    ("even-low", "1301", {"1302", "1201"}),             # top-right, column 13 upper
    ("even-low", "0113", {"0112", "0212", "0213"}),     # bottom-left
    ("even-low", "1313", {"1312", "1212", "1213"}),     # bottom-right
    ("even-low", "0107", {"0106", "0108", "0206", "0207"}),  # left edge
    ("even-low", "0201", {"0101", "0102", "0202", "0301", "0302"}),  # top edge, lower column
    ("odd-low", "0101", {"0102", "0201", "0202"}),      # column 1 is lower under odd-low
    ("odd-low", "0113", {"0112", "0213"}),              # and has no row 14 to lean on
])
def test_neighbours_at_edges_and_corners(offset, label, expected):
    assert set(grid(offset=offset).neighbours(label)) == expected


def test_neighbours_are_mutual_and_in_direction_order():
    m = grid()
    for label in m.labels():
        for n in m.neighbours(label):
            assert label in m.neighbours(n)
    # n, ne, se, s, sw, nw from 0504 (even-low, upper column)
    assert m.neighbours("0504") == ("0503", "0603", "0604", "0505", "0404", "0403")


def test_off_map_label_is_a_key_error_and_bad_label_a_label_error():
    m = grid(5, 5)
    with pytest.raises(KeyError):
        m.neighbours("0606")
    with pytest.raises(HexLabelError):
        m.neighbours("66")


# -- distances, lines, within -----------------------------------------------------------------

@pytest.mark.parametrize("offset,a,b,steps", [
    ("even-low", "0101", "0104", 3),   # straight down a column
    ("even-low", "0101", "0401", 3),   # 0101 SE 0201 NE 0301 SE 0401
    ("even-low", "0101", "0505", 6),   # four SE steps to 0503, then 0504, 0505
    ("even-low", "0504", "0504", 0),
    ("odd-low", "0101", "0401", 3),
    ("odd-low", "0102", "0101", 1),
])
def test_distance_hand_worked(offset, a, b, steps):
    assert grid(offset=offset).distance(a, b) == steps
    assert hexgrid.distance(a, b, offset) == steps


def test_line_goes_straight_and_stops_at_the_edge():
    m = grid(8, 8)
    assert m.line("0504", "s", 3) == ("0505", "0506", "0507")
    # south-east from an upper column: same row in the lower column, then the next row
    assert m.line("0504", "se", 3) == ("0604", "0705", "0805")
    assert m.line("0504", "se", 5) == ("0604", "0705", "0805")  # column 9 is off this map
    assert m.line("0101", "n", 2) == ()


def test_within_counts_a_hexagon():
    m = grid()
    assert len(m.within("0707", 0)) == 1
    assert len(m.within("0707", 1)) == 7
    assert len(m.within("0707", 3)) == 37          # 1 + 6 + 12 + 18
    assert set(m.within("0707", 1)) == {"0707", *m.neighbours("0707")}
    assert len(m.within("0101", 1)) == 3           # a corner keeps only what is on the map


def bfs(m, a, b):
    seen = {a: 0}
    todo = deque([a])
    while todo:
        here = todo.popleft()
        if here == b:
            return seen[here]
        for n in m.neighbours(here):
            if n not in seen:
                seen[n] = seen[here] + 1
                todo.append(n)
    return None


def test_olympica_12_3_the_retreat_ring_at_two_hexes():
    # an inner hex has 12 hexes at distance two (6 per step of radius), none nearer or farther;
    # by hand: two rows up or down the same column, and the same row two columns across
    m = grid()
    ring = m.ring("0707", 2)
    assert len(ring) == 12 and len(set(ring)) == 12
    assert "0705" in ring and "0709" in ring and "0507" in ring and "0907" in ring
    assert "0706" not in ring and "0707" not in ring and "0710" not in ring
    assert m.ring("0707", 0) == ("0707",)
    assert set(m.ring("0707", 1)) == set(m.neighbours("0707"))
    assert len(m.ring("0101", 2)) < 12  # a corner: the ring is cut by the map's edges
    # docs/maps.md: the ring of 2 around 0504 is the 19 hexes within 2 less the 7 within 1
    assert set(m.ring("0504", 2)) == set(m.within("0504", 2)) - set(m.within("0504", 1))
    assert (len(m.within("0504", 2)), len(m.within("0504", 1)), len(m.ring("0504", 2))) == \
        (19, 7, 12)
    with pytest.raises(ValueError):
        m.ring("0707", -1)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.sampled_from(["even-low", "odd-low"]),
       st.integers(0, 4), st.data())
def test_ring_is_every_hex_at_exactly_n_bfs_steps(columns, rows, offset, n, data):
    m = grid(columns, rows, offset)
    a = data.draw(st.sampled_from(m.labels()))
    assert set(m.ring(a, n)) == {b for b in m.labels() if bfs(m, a, b) == n}
    assert list(m.ring(a, n)) == sorted(m.ring(a, n), key=hexgrid.label_key)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.sampled_from(["even-low", "odd-low"]),
       st.data())
def test_distance_is_symmetric_and_equals_bfs_steps(columns, rows, offset, data):
    m = grid(columns, rows, offset)
    labels = m.labels()
    a = data.draw(st.sampled_from(labels))
    b = data.draw(st.sampled_from(labels))
    assert m.distance(a, b) == m.distance(b, a)
    assert m.distance(a, b) == bfs(m, a, b)
    assert (m.distance(a, b) == 1) == (b in m.neighbours(a))


# -- map files --------------------------------------------------------------------------------

GOOD = """\
[map]
name = "little"
source = "stand-in: a test"
columns = 4
rows = 3
default = "sea"

[terrain]
island = ["0202", "0302"]
safe = ["0101"]

[groups]
centre = ["0302", "0202"]
"""


def test_load_map_reads_everything():
    m = load_map(GOOD, "little.toml")
    assert (m.columns, m.rows, m.offset, m.name) == (4, 3, "even-low", "little")
    assert m.terrain("0202") == "island" and m.terrain("0101") == "safe"
    assert m.terrain("0403") == "sea"
    assert m.group("centre") == ("0302", "0202")   # the order written
    assert m.labels()[:4] == ("0101", "0102", "0103", "0201")
    assert len(m.labels()) == 12
    assert m.stand_in
    import hashlib
    assert m.digest == hashlib.sha256(GOOD.encode()).hexdigest()


def test_map_round_trips_through_dict():
    from pbem.boards.hexmap import HexMap
    m = load_map(GOOD, "little.toml")
    again = HexMap.from_dict(m.to_dict())
    assert again == m and again.digest == m.digest and again.to_dict() == m.to_dict()


def error_of(text):
    with pytest.raises(MapError) as err:
        load_map(text, "bad.toml")
    return err.value


def test_error_bad_label_names_file_line_and_input():
    text = GOOD.replace('safe = ["0101"]', 'safe = ["101"]')
    err = error_of(text)
    assert err.source == "bad.toml" and err.line == 10
    assert "'101'" in str(err) and str(err).startswith("bad.toml:10:")
    assert "four digits" in str(err)


def test_error_hex_off_the_map():
    err = error_of(GOOD.replace('"0302"]\nsafe', '"0305"]\nsafe'))
    assert err.line == 9 and "'0305' is off the map" in str(err) and "rows 01-03" in str(err)


def test_error_hex_given_two_terrains_points_at_the_second():
    err = error_of(GOOD.replace('safe = ["0101"]', 'safe = ["0101", "0202"]'))
    assert err.line == 10
    assert "two terrains" in str(err) and "island" in str(err) and "safe" in str(err)


def test_error_unknown_offset():
    err = error_of(GOOD.replace('default = "sea"', 'default = "sea"\noffset = "even"'))
    assert err.line == 7 and "'even'" in str(err) and "even-low" in str(err)


def test_error_toml_syntax_names_the_line():
    err = error_of(GOOD.replace('rows = 3', 'rows = = 3'))
    assert err.line == 5 and "TOML" in str(err)


def test_error_unknown_table_and_key():
    assert "unknown table [hexes]" in str(error_of(GOOD + '\n[hexes]\na = 1\n'))
    err = error_of(GOOD.replace('rows = 3', 'rows = 3\nrivers = 2'))
    assert err.line == 6 and "'rivers'" in str(err)


def test_error_missing_terrain_without_default():
    err = error_of(GOOD.replace('default = "sea"\n', ''))
    assert "has no terrain" in str(err) and "default" in str(err)


def test_error_group_lists_a_hex_twice():
    err = error_of(GOOD.replace('centre = ["0302", "0202"]', 'centre = ["0302", "0302"]'))
    assert err.line == 13 and "twice" in str(err)


def test_error_columns_out_of_range():
    err = error_of(GOOD.replace("columns = 4", "columns = 100"))
    assert err.line == 4 and "1 to 99" in str(err)


# -- drawings ---------------------------------------------------------------------------------

def test_ascii_map_even_low_layout():
    m = grid(4, 2)
    expected = (
        "     01   02   03   04\n"
        "01  0101      0301\n"
        "         0201      0401\n"
        "02  0102      0302\n"
        "         0202      0402\n"
    )
    assert ascii_map(m, lambda h: h) == expected


def test_ascii_map_odd_low_puts_odd_columns_on_the_second_line():
    m = grid(2, 1, "odd-low")
    assert ascii_map(m, lambda h: h) == "     01   02\n01       0201\n    0101\n"


def test_ascii_map_one_character_cells_write_the_column_numbers_on_two_lines():
    # a 26-column map in a 78-character mail line (Olympica's stand-in map): one character a
    # hex, two a column; column 10's number is "1" above "0"
    m = grid(11, 1)
    assert ascii_map(m, lambda h: "x", width=1) == (
        "    0 0 0 0 0 0 0 0 0 1 1\n"
        "    1 2 3 4 5 6 7 8 9 0 1\n"
        "01  x   x   x   x   x   x\n"
        "      x   x   x   x   x\n")


def test_ascii_map_refuses_bad_cells():
    m = grid(2, 2)
    with pytest.raises(ValueError, match="0101"):
        ascii_map(m, lambda h: "toolong")
    with pytest.raises(ValueError):
        ascii_map(m, lambda h: "\u00e9")


def test_pixel_geometry():
    m = grid(4, 3)
    s3 = math.sqrt(3)
    assert hex_center(m, "0101", 10) == pytest.approx((10, 5 * s3))
    assert hex_center(m, "0201", 10) == pytest.approx((25, 10 * s3))  # lower column
    w, h = map_size(m, 10)
    assert w == pytest.approx(10 * (2 + 1.5 * 3)) and h == pytest.approx(10 * s3 * 3.5)
    # neighbouring hexes share exactly one edge (two corners); others share none
    for a in m.labels():
        ca = hex_corners(m, a, 10)
        assert all(math.dist(c, hex_center(m, a, 10)) == pytest.approx(10) for c in ca)
        for b in m.labels():
            if a == b:
                continue
            shared = sum(1 for p in ca for q in hex_corners(m, b, 10) if math.dist(p, q) < 1e-6)
            assert shared == (2 if b in m.neighbours(a) else 0)


# -- paths ------------------------------------------------------------------------------------

def test_cheapest_path_goes_round_a_wall():
    m = grid(5, 5)
    wall = {"0302", "0303", "0304"}

    def cost(a, b):
        return None if b in wall else (2.0 if b == "0305" else 1.0)

    total, path = cheapest_path(m, "0203", "0403", cost)
    # Worked by hand (even-low: column 3 upper, columns 2 and 4 lower). Over the top of the
    # wall: 0203 0202 0201 0301 0401 0402 0403 = 6 steps of cost 1. Under it:
    # 0203 -> 0204 (1) -> 0305 (2) -> 0404 (1) -> 0403 (1) = 5, the cheapest.
    assert total == 5
    assert path == ["0203", "0204", "0305", "0404", "0403"]
    assert path_cost(m, path, cost) == 5
    assert path_cost(m, ["0203", "0202", "0201", "0301", "0401", "0402", "0403"], cost) == 6
    assert cheapest_path(m, "0203", "0403", cost, max_cost=4) is None


def test_path_cost_of_a_broken_path_is_none():
    m = grid(5, 5)
    assert path_cost(m, ["0101", "0103"], lambda a, b: 1) is None
    assert path_cost(m, ["0101"], lambda a, b: 1) == 0


def test_reachable_within_a_budget():
    m = grid(5, 5)
    found = reachable(m, "0303", lambda a, b: 1, 1)
    assert set(found) == set(m.within("0303", 1))
    assert found["0303"] == 0
