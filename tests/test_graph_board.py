"""pbem.boards.graph: boards of numbered spaces joined by links (docs/maps.md, "Boards of
spaces"), and pbem.boards.board: the protocol every board answers.

Distances and paths are worked by hand on the practice board of docs/maps.md (a 4 x 3 grid
numbered row by row, plus ``dock``), drawn here:

     1   2B  3   4L          tunnels: 2-7, 7-9
     5   6H  7B  8           chute: dock -> 1 (one way)
     9B 10  11H 12 -- dock

Range is counted as Attack Force counts it ("including the space the Target is in but not the
space the Attacker is in"): the number of links crossed.
"""

from __future__ import annotations

import copy
import itertools
import pickle
import re
from collections import deque
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.boards import MapError, load_map
from pbem.boards import graph as g
from pbem.boards.board import EMPTY_DIGEST, NO_BOARD, Board, NoBoard
from pbem.boards.graph import GraphBoard, load_graph

DOC = Path(__file__).resolve().parent.parent / "docs" / "maps.md"


def doc_example() -> str:
    """The TOML block of docs/maps.md's "A complete example" section."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### A complete example", 1)[1]
    match = re.search(r"```toml\n(.*?)```", section, re.DOTALL)
    assert match, "docs/maps.md: no ```toml block under 'A complete example'"
    return match.group(1)


@pytest.fixture(scope="module")
def board() -> GraphBoard:
    return load_graph(doc_example(), "maps.md")


# -- the documented example ----------------------------------------------------------------------

def test_the_doc_example_parses(board):
    assert board.name == "Practice board"
    assert board.source == "maps.md"
    assert board.stand_in
    assert board.spaces() == tuple(str(n) for n in range(1, 13)) + ("dock",)
    assert board.kind("7") == "battery" and board.kind("dock") == "space"
    assert board.of_kind("battery") == ("2", "7", "9")
    assert board.kinds() == ("battery", "hull", "launcher", "space")
    assert board.group("hull") == ("11", "6")  # the order written: Hull Space 1 is 11
    assert board.edges() == ("edge-east", "edge-north", "edge-south", "edge-west")
    assert board.group("edge-north") == ("1", "2", "3", "4")
    assert board.group("edge-east") == ("4", "8", "12")
    assert board.group("edge-south") == ("9", "10", "11", "12")
    assert board.group("edge-west") == ("1", "5", "9")
    assert board.link_kinds() == ("adjacent", "chute", "tunnel")
    assert board.position("7") == (3, 2) and board.position("dock") is None


def test_the_docs_worked_examples(board):
    # every figure of "Worked by hand on this board"
    assert board.neighbours("6") == ("2", "5", "7", "10")
    assert board.neighbours("1") == ("2", "5")
    assert board.distance("1", "12") == 5
    assert board.distance("2", "9") == 3
    assert board.distance("2", "9", via="tunnel") == 2
    assert board.neighbours("2", via="tunnel") == ("7",)
    assert board.distance("dock", "1") == 6
    assert board.distance("dock", "1", via=("adjacent", "chute")) == 1
    assert board.distance("1", "dock", via=("adjacent", "chute")) == 6
    assert board.within("6", 1) == ("2", "5", "6", "7", "10")


def test_diagonals_make_distance_the_longer_side():
    text = doc_example().replace("diagonals = false", "diagonals = true")
    b = load_graph(text, "diag.toml")
    assert b.distance("1", "12") == 3
    assert b.neighbours("6") == ("1", "2", "3", "5", "7", "9", "10", "11")
    assert b.neighbours("1") == ("2", "5", "6")


# -- hand-drawn graph -----------------------------------------------------------------------------

HAND = """
[board]
name = "hand"
default = "space"
spaces = ["a", "b", "c", "d", "e", "f", 7]

[links]
adjacent = [["a", "b", "c", "d"], ["a", "e", "d"], ["f", 7]]
tunnel = [["a", "d"]]

[one-way]
jump = [["c", "a"]]
"""
#   a - b - c - d        tunnel a=d      jump c -> a
#    \         /
#     --- e ---          f - 7 (apart)


@pytest.fixture(scope="module")
def hand() -> GraphBoard:
    return load_graph(HAND, "hand.toml")


@pytest.mark.parametrize("a,b,via,expected", [
    ("a", "a", None, 0),
    ("a", "b", None, 1),
    ("a", "c", None, 2),
    ("a", "d", None, 2),      # a-e-d beats a-b-c-d
    ("b", "e", None, 2),      # b-a-e
    ("c", "e", None, 2),      # c-d-e
    ("a", "d", "tunnel", 1),
    ("a", "b", "tunnel", None),
    ("c", "a", "jump", 1),
    ("a", "c", "jump", None),  # one way only
    ("c", "e", ("adjacent", "jump"), 2),
    ("a", "f", None, None),   # no path
    ("f", "7", None, 1),
])
def test_distances_by_hand(hand, a, b, via, expected):
    assert hand.distance(a, b, via) == expected


@pytest.mark.parametrize("a,b,via,expected", [
    ("a", "a", None, ("a",)),
    ("a", "d", None, ("a", "e", "d")),
    ("b", "e", None, ("b", "a", "e")),
    # c to e: c-d-e is the only shortest path (c-b-a-e is 3)
    ("c", "e", None, ("c", "d", "e")),
    # with the jump, c-a-e and c-d-e tie; a comes first in board order
    ("c", "e", ("adjacent", "jump"), ("c", "a", "e")),
    ("a", "f", None, None),
    ("a", "c", "jump", None),
])
def test_paths_by_hand(hand, a, b, via, expected):
    assert hand.path(a, b, via) == expected


def test_ids_are_text_and_find_reads_what_players_write(hand, board):
    assert "7" in hand and 7 not in hand
    assert hand.label("7") == "7"
    assert hand.distance(7, "f") == 1  # an int is taken as its decimal text
    assert board.find(" 007 ") == "7"
    assert board.find("DOCK") == "dock"
    assert board.find("13") is None and board.find("pier") is None


def test_within_counts_range(hand):
    assert hand.within("a", 0) == ("a",)
    assert hand.within("a", 1) == ("a", "b", "e")
    assert hand.within("a", 2) == ("a", "b", "c", "d", "e")
    assert hand.within("a", 1, via="tunnel") == ("a", "d")


# -- errors asking the board ----------------------------------------------------------------------

def test_query_errors_quote_the_input(hand):
    with pytest.raises(g.UnknownSpace, match=r"space 'z' is not on the board 'hand'") as err:
        hand.distance("a", "z")
    assert isinstance(err.value, KeyError) and err.value.space == "z"
    with pytest.raises(g.UnknownGroup, match=r"no group 'hull' \(it has: none\)"):
        hand.group("hull")
    with pytest.raises(g.UnknownLinkKind,
                       match=r"no links of kind 'rail' \(it has: adjacent, jump, tunnel\)"):
        hand.neighbours("a", via="rail")
    with pytest.raises(g.BadRadius, match=r"radius -1: expected"):
        hand.within("a", -1)
    with pytest.raises(g.BadRadius, match=r"radius 1.5"):
        hand.within("a", 1.5)


def test_a_board_without_the_ordinary_kind_still_answers_via_none():
    b = GraphBoard(name="tunnels only", spaces=[1, 2], links=[(1, 2, "tunnel")])
    assert b.neighbours("1") == ()
    assert b.distance("1", "2") is None
    assert b.distance("1", "2", "tunnel") == 1


@pytest.mark.parametrize("kwargs,message", [
    ({"spaces": ["a", "a"]}, r"space 'a' is listed twice"),
    ({"spaces": ["a"], "links": [("a", "b")]}, r"links: space 'b' is not one of"),
    ({"spaces": ["a"], "links": [("a", "a")]}, r"joins a space to itself"),
    ({"spaces": ["a", "b"], "links": [("a",)]}, r"link \('a',\): expected"),
    ({"spaces": ["a"], "groups": {"x": ["a", "a"]}}, r"group 'x' lists a space twice"),
    ({"spaces": ["a"], "kinds": {"q": "sea"}}, r"kinds: space 'q'"),
    ({"spaces": [-1]}, r"space -1: expected a whole number, 0 or more"),
    ({"spaces": [1.5]}, r"space 1.5: expected a whole number or a name"),
])
def test_building_in_code_refuses_parts_that_do_not_fit(kwargs, message):
    with pytest.raises(g.BadBoard, match=message):
        GraphBoard(name="x", **kwargs)


def test_boards_are_immutable_values(board):
    with pytest.raises(AttributeError):
        board._name = "other"
    assert copy.copy(board) is board and copy.deepcopy(board) is board
    assert pickle.loads(pickle.dumps(board)) == board
    again = GraphBoard.from_dict(board.to_dict())
    assert again == board and hash(again) == hash(board)
    assert again.digest == board.digest
    assert GraphBoard.from_dict(dict(board.to_dict())) == board
    assert board != load_graph(HAND, "hand.toml")


# -- map file errors: one class per cause, file, line and the input quoted ------------------------

BASE = '[board]\nname = "t"\ndefault = "space"\n'


@pytest.mark.parametrize("text,cls,line,message", [
    ("[board\n", g.NotToml, 1, "not valid TOML"),
    (BASE + "[walls]\nx = 1\n", g.UnknownTable, 4, "unknown table [walls]"),
    ("links = 3\n" + BASE, g.BadValue, 1, "links = 3: expected a table [links]"),
    ("[grid]\ncolumns = 2\nrows = 2\n", g.MissingTable, None, "no [board] table"),
    (BASE + "colour = 'red'\n", g.UnknownKey, 4, "unknown key 'colour' in [board]"),
    (BASE + "[grid]\ncolumns = 2\nsize = 4\n", g.UnknownKey, 6, "unknown key 'size' in [grid]"),
    (BASE + "[grid]\ncolumns = 2\n", g.MissingKey, 4, "[grid] has no rows"),
    (BASE + "[grid]\ncolumns = 'ten'\nrows = 2\n", g.BadValue, 5,
     "[grid] columns = 'ten': expected a whole number from 1 to 99"),
    (BASE + "[grid]\ncolumns = 100\nrows = 2\n", g.BadValue, 5, "columns = 100"),
    (BASE + "[grid]\ncolumns = 2\nrows = 2\nfirst = -1\n", g.BadValue, 7, "first = -1"),
    (BASE + "[grid]\ncolumns = 2\nrows = 2\ndiagonals = 'yes'\n", g.BadValue, 7,
     "diagonals = 'yes': expected true"),
    ('[board]\nname = 3\nspaces = [1]\n', g.BadValue, 2, "[board] name = 3: expected a quoted"),
    ('[board]\ndefault = "Open Space"\nspaces = [1]\n', g.BadName, 2,
     "default = 'Open Space': expected a kind name"),
    (BASE + "spaces = 5\n", g.BadValue, 4, "[board] spaces = 5: expected a list"),
    (BASE + 'spaces = [1, "07"]\n', g.BadSpaceId, 4,
     "bad space '07': expected a whole number such as 17 or a name"),
    (BASE + 'spaces = [1, "07"]\n', g.BadSpaceId, 4, "(write 7, without leading zeros)"),
    (BASE + 'spaces = [1, "sensor pod"]\n', g.BadSpaceId, 4, "bad space 'sensor pod'"),
    (BASE + "spaces = [1, 2.5]\n", g.BadSpaceId, 4, "bad space 2.5"),
    (BASE + "spaces = [1,\n  2,\n  1]\n", g.DuplicateSpace, 6,
     "space 1 is listed twice: expected each space once"),
    (BASE + "spaces = [3]\n[grid]\ncolumns = 2\nrows = 2\n", g.DuplicateSpace, 4,
     "space 3 is also a space of [grid]"),
    (BASE, g.NoSpaces, 1, "the board has no spaces"),
    (BASE + "spaces = [1, 2]\n[kinds]\nhull = [1, 3]\n", g.NotOnBoard, 6,
     "[kinds] hull: space 3 is not on the board"),
    (BASE + "spaces = [1, 2]\n[kinds]\nhull = [1]\nbattery = [2,\n 1]\n", g.KindTwice, 8,
     "space 1 is given two kinds, hull and battery: expected one kind per space"),
    (BASE + "spaces = [1, 2]\n[kinds]\nhull = [1, 1]\n", g.KindTwice, 6,
     "space 1 is listed twice as hull"),
    ('[board]\nspaces = [1, 2]\n[kinds]\nhull = [1]\n', g.NoKind, 1,
     "space '2' has no kind and [board] has no default"),
    (BASE + "spaces = [1]\n[kinds]\nBig = [1]\n", g.BadName, 6, "bad kind name 'Big'"),
    (BASE + "spaces = [1]\n[kinds]\nhull = 1\n", g.BadValue, 6, "[kinds] hull = 1"),
    (BASE + "spaces = [1]\n[groups]\nhull = []\n", g.EmptyGroup, 6, "[groups] hull is empty"),
    (BASE + "spaces = [1]\n[groups]\nhull = 'x'\n", g.BadValue, 6, "[groups] hull = 'x'"),
    (BASE + "spaces = [1, 2]\n[groups]\nhull = [1, 2,\n  1]\n", g.GroupTwice, 7,
     "[groups] hull: space 1 is listed twice"),
    (BASE + "spaces = [1]\n[groups]\n'Edge North' = [1]\n", g.BadName, 6,
     "bad group name 'Edge North'"),
    (BASE + "spaces = [1, 2]\n[groups]\nhull = [1, 9]\n", g.NotOnBoard, 6,
     "[groups] hull: space 9 is not on the board"),
    (BASE + "spaces = [1, 2]\n[links]\ntunnel = [1, 2]\n", g.BadChain, 6,
     "tunnel = [1, 2]: expected a list of chains"),
    (BASE + "spaces = [1, 2]\n[links]\ntunnel = [[1]]\n", g.BadChain, 6,
     "chain [1] has fewer than two spaces"),
    (BASE + "spaces = [1, 2]\n[links]\ntunnel = [[]]\n", g.BadChain, 6, "chain []"),
    (BASE + "spaces = [1, 2]\n[links]\ntunnel = [[1, 2, 2]]\n", g.SelfLink, 6,
     "chain [1, 2, 2] links space 2 to itself"),
    (BASE + "spaces = [1, 2]\n[links]\ntunnel = [[1, 2],\n  [2, 1]]\n", g.DuplicateLink, 7,
     "the link 2-1 is written twice"),
    (BASE + "[grid]\ncolumns = 3\nrows = 2\n[links]\nadjacent = [[5, 6]]\n", g.DuplicateLink,
     8, "the link 5-6 is already made by [grid]"),
    (BASE + "spaces = [1, 2]\n[links]\ntunnel = [[1, 17]]\n", g.NotOnBoard, 6,
     "[links] tunnel: space 17 is not on the board"),
    (BASE + "spaces = [1, 2]\n[one-way]\nJump = [[1, 2]]\n", g.BadName, 6,
     "[one-way] bad link kind name 'Jump'"),
])
def test_file_errors(text, cls, line, message):
    with pytest.raises(cls) as err:
        load_graph(text, "board.toml")
    e = err.value
    assert isinstance(e, g.GraphMapError) and isinstance(e, MapError) and isinstance(e, ValueError)
    assert message in str(e)
    assert e.source == "board.toml" and e.line == line
    assert str(e).startswith(f"board.toml:{line}: " if line else "board.toml: ")


def test_the_docs_error_examples_are_real():
    """docs/maps.md shows these messages under "Boards of spaces", "Errors"."""
    doc = DOC.read_text(encoding="utf-8").split("## Boards of spaces", 1)[1]
    shown = re.search(r"### Errors.*?```\n(.*?)```", doc, re.DOTALL).group(1).splitlines()
    base = doc_example()
    got = []
    for change in (("tunnel = [[2, 7, 9]]", "tunnel = [[2, 7, 9], [9, 17]]"),
                   ("launcher = [4]", "launcher = [4, 7]"),
                   ('spaces = ["dock"]', 'spaces = ["dock", "07"]'),
                   ('adjacent = [[12, "dock"]]', 'adjacent = [[12, "dock"], [5, 6]]')):
        assert change[0] in base
        with pytest.raises(g.GraphMapError) as err:
            load_graph(base.replace(change[0], change[1]), "board.toml")
        got.append(err.value.why)
    # the doc's line numbers are for a referee's longer file: compare what follows them
    assert [re.sub(r"^board\.toml:\d+: ", "", s) for s in shown] == [
        w.replace("given two kinds, battery and launcher", "given two kinds, battery and hull")
        for w in got]


def test_a_grid_edge_can_be_replaced():
    b = load_graph(BASE + "[grid]\ncolumns = 3\nrows = 2\n[groups]\nedge-north = [2]\n", "e")
    assert b.group("edge-north") == ("2",) and b.group("edge-west") == ("1", "4")


def test_comments_do_not_mislead_the_line_search():
    text = BASE + "spaces = [1, 2]  # not 3\n[kinds]\nhull = [\n  1,  # 3 is the pod\n  3]\n"
    with pytest.raises(g.NotOnBoard) as err:
        load_graph(text, "c.toml")
    assert err.value.line == 8


# -- digest ----------------------------------------------------------------------------------------

def test_digest_is_the_sha256_of_the_text(board):
    import hashlib
    text = doc_example()
    assert board.digest == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert load_graph(text, "other-name.toml").digest == board.digest
    assert load_graph(text + "# a comment\n", "maps.md").digest != board.digest


def test_digest_of_a_board_built_in_code_is_stable():
    def make():
        return GraphBoard(name="ring", spaces=[1, 2, 3], links=[(1, 2), (2, 3), (3, 1)])
    pinned = "6ae749b787558020c3ddfc14bc6b576ef71f4f6cc1267fdac8ac4b6c0d2df54e"
    assert make().digest == make().digest == pinned  # sha256 of the canonical JSON description
    assert GraphBoard(name="ring", spaces=[1, 2, 3], links=[(1, 2), (2, 3)]).digest != pinned


# -- the Board protocol ----------------------------------------------------------------------------

def test_every_board_answers_the_protocol(board):
    hexmap = load_map('[map]\ncolumns = 3\nrows = 2\ndefault = "sea"\n', "h.toml")
    for b in (board, hexmap, NO_BOARD):
        assert isinstance(b, Board)
        assert len(b.digest) == 64 and isinstance(b.name, str)
        assert isinstance(b.stand_in, bool) and isinstance(b.map_source, str)
        for s in b.spaces():
            assert s in b and b.label(s) == s
            assert all(n in b for n in b.neighbours(s))
    assert hexmap.spaces() == hexmap.labels()
    assert hexmap.label("0302") == "0302"
    with pytest.raises(KeyError):
        hexmap.label("0303")


def test_no_board():
    assert NO_BOARD.spaces() == () and "1" not in NO_BOARD
    assert NO_BOARD.digest == EMPTY_DIGEST == \
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert NoBoard.from_dict(NO_BOARD.to_dict()) is NO_BOARD
    assert NoBoard() == NO_BOARD
    with pytest.raises(KeyError, match="no board"):
        NO_BOARD.label("1")
    with pytest.raises(KeyError, match="no board"):
        NO_BOARD.neighbours("1")


# -- properties (hypothesis) -----------------------------------------------------------------------

@st.composite
def boards(draw):
    """A random undirected board of 1 to 12 numbered spaces and some adjacent links."""
    n = draw(st.integers(1, 12))
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=30)) if pairs else []
    return GraphBoard(name="random", spaces=range(n), links=chosen)


def bfs(b: GraphBoard, a: str) -> dict:
    """Distances from ``a`` worked the plain way, to check the board against."""
    seen, todo = {a: 0}, deque([a])
    while todo:
        x = todo.popleft()
        for (p, q, _, _) in b.links():
            for u, v in ((p, q), (q, p)):
                if u == x and v not in seen:
                    seen[v] = seen[x] + 1
                    todo.append(v)
    return seen


@settings(max_examples=150, deadline=None)
@given(boards(), st.data())
def test_distance_properties(b, data):
    spaces = st.sampled_from(b.spaces())
    x, y, z = data.draw(spaces), data.draw(spaces), data.draw(spaces)
    dxy, dyx = b.distance(x, y), b.distance(y, x)
    assert dxy == dyx  # symmetric
    assert b.distance(x, x) == 0
    assert dxy == bfs(b, x).get(y)
    dxz, dzy = b.distance(x, z), b.distance(z, y)
    if dxz is not None and dzy is not None:
        assert dxy is not None and dxy <= dxz + dzy  # triangle inequality
    p = b.path(x, y)
    if dxy is None:
        assert p is None
    else:
        assert len(p) == dxy + 1 and p[0] == x and p[-1] == y
        assert all(b.adjacent(u, v) for u, v in itertools.pairwise(p))
    for n in range(4):
        assert b.within(x, n) == tuple(s for s in b.spaces()
                                       if b.distance(x, s) is not None and b.distance(x, s) <= n)


@settings(max_examples=60, deadline=None)
@given(boards())
def test_round_trip_keeps_the_value(b):
    again = GraphBoard.from_dict(b.to_dict())
    assert again == b and again.digest == b.digest
    for s in b.spaces():
        assert again.neighbours(s) == b.neighbours(s)
