"""The text map of a board of positioned spaces (pbem.boards.drawing.text_map, grid_text):
a grid of cells with a header of column numbers and each row led by its first space's label,
as a mail client shows it in a monospaced font. The board here is small and built by hand;
every expected line below is written out character by character."""

from __future__ import annotations

import pytest

from pbem.boards.drawing import (
    Drawing,
    DrawingError,
    Space,
    grid_text,
    positions,
    text_map,
)
from pbem.boards.graph import GraphBoard, load_graph
from pbem.boards.hexmap import load_map

# A 4 x 3 grid numbered from 8 (rows 8-11, 12-15, 16-19), so the row labels have one and two
# digits and must be right-aligned; tunnels 9-14-16; a shed off the grid.
YARD = """[board]
name = "yard"
source = "tests/test_drawing_graph.py"
default = "floor"
{extra}

[grid]
columns = 4
rows = 3
first = 8

[kinds]
battery = [9, 14, 16]

[links]
tunnel = [[9, 14, 16]]
"""


def yard(shed: bool = False) -> GraphBoard:
    """The yard board; with ``shed``, a space off the grid and a one-way chute from it to 8."""
    if shed:
        text = YARD.format(extra='spaces = ["shed"]') + '\n[one-way]\nchute = [["shed", 8]]\n'
    else:
        text = YARD.format(extra="")
    return load_graph(text, "yard.toml")


def cells(board, texts: dict, width: int = 3) -> Drawing:
    return Drawing(board=board, spaces={k: Space(text=v) for k, v in texts.items()},
                   legend=("B battery",), notes=("Turn 1",), text_width=width)


def test_positions_of_a_grid_board():
    board = yard()
    where = positions(board)
    assert where["8"] == (1, 1) and where["11"] == (4, 1) and where["12"] == (1, 2)
    assert where["19"] == (4, 3) and len(where) == 12
    # spaces off the grid are left out; a pure graph and a hex map have no positions
    assert "shed" not in positions(yard(shed=True))
    assert positions(GraphBoard(name="ring", spaces=["1", "2"], links=[("1", "2")])) is None
    assert positions(load_map('[map]\nname = "m"\nsource = "t"\ncolumns = 2\nrows = 2\n'
                              'offset = "even-low"\ndefault = "clear"\n', "m")) is None


def test_a_positioned_board_is_drawn_as_a_grid():
    drawing = cells(yard(), {"9": "B", "14": "B2x", "16": "F", "19": "H"})
    # lead: the widest row label ("12", "16": 2) and two blanks; cells 3 wide, 1 blank apart
    assert text_map(drawing) == (
        "    1   2   3   4\n"
        " 8      B\n"
        "12          B2x\n"
        "16  F           H\n"
        "\n"
        "B battery\n"
        "Turn 1\n")


def test_the_header_numbers_stand_over_their_cells():
    drawing = cells(yard(), {str(n): "abc" for n in range(8, 20)})
    lines = text_map(drawing).split("\n")
    assert lines[0] == "    1   2   3   4"
    assert lines[1:4] == [" 8  abc abc abc abc", "12  abc abc abc abc", "16  abc abc abc abc"]
    for column in range(4):
        start = 4 + column * 4
        assert lines[0][start] == str(column + 1) and lines[1][start:start + 3] == "abc"


def test_a_grid_with_no_text_is_its_header_and_row_labels():
    assert text_map(cells(yard(), {})) == (
        "    1   2   3   4\n 8\n12\n16\n\nB battery\nTurn 1\n")


def test_spaces_off_the_grid_follow_it_one_line_each():
    drawing = cells(yard(shed=True), {"8": "x", "shed": "B"})
    assert text_map(drawing).split("\n")[:5] == [
        "    1   2   3   4", " 8  x", "12", "16", "shed B"]
    assert "shed" not in text_map(cells(yard(shed=True), {"8": "x"}))


def test_wide_column_numbers_widen_the_slots():
    board = GraphBoard(name="strip", spaces=["a", "b"], positions={"a": (9, 1), "b": (10, 1)})
    drawing = Drawing(board=board, spaces={"a": Space(text="x"), "b": Space(text="y")},
                      text_width=2)
    assert grid_text(drawing, positions(board)) == ["   9  10", "a  x  y"]
    # the slot follows the widest column number: three digits need three characters
    board = GraphBoard(name="far", spaces=["a", "b"], positions={"a": (99, 1), "b": (100, 1)})
    drawing = Drawing(board=board, spaces={"b": Space(text="yy")}, text_width=2)
    assert grid_text(drawing, positions(board)) == ["   99  100", "a      yy"]


def test_rows_without_spaces_are_blank_lines():
    board = GraphBoard(name="gap", spaces=["1", "2"], positions={"1": (1, 1), "2": (2, 3)})
    drawing = Drawing(board=board, spaces={"2": Space(text="T")}, text_width=2)
    assert grid_text(drawing, positions(board)) == ["   1  2", "1", "", "2     T"]


@pytest.mark.parametrize("text", ["abcd", "\u00e9", "a\nb", "a\rb"])
def test_a_bad_cell_names_its_space(text):
    drawing = cells(yard(), {"14": text})
    with pytest.raises(DrawingError, match=r"cell for 14: .* at most 3 ASCII characters"):
        text_map(drawing)


def test_a_bad_cell_off_the_grid_names_its_space():
    with pytest.raises(DrawingError, match="cell for shed"):
        text_map(cells(yard(shed=True), {"shed": "long"}))


def test_two_spaces_at_one_place_are_refused():
    board = GraphBoard(name="pile", spaces=["1", "2"], positions={"1": (1, 1), "2": (1, 1)})
    with pytest.raises(DrawingError, match=r"spaces 1 and 2 stand at the same place"):
        text_map(Drawing(board=board))


def test_a_pure_graph_keeps_one_line_per_space():
    board = GraphBoard(name="ring", spaces=["1", "2", "3"], links=[("1", "2"), ("2", "3")])
    drawing = Drawing(board=board, spaces={"1": Space(text="B"), "3": Space(text="F1")},
                      legend=("B battery",))
    assert text_map(drawing) == "1 B\n3 F1\n\nB battery\n"


def test_a_12_by_14_board_of_4_character_cells_fits_a_mail_line():
    """The widest board the brief names, every cell full: lines stay under 78 characters."""
    board = load_graph('[board]\nname = "big"\nsource = "t"\ndefault = "space"\n'
                       '[grid]\ncolumns = 12\nrows = 14\n', "big.toml")
    drawing = Drawing(board=board, spaces={s: Space(text="WXYZ") for s in board.spaces()})
    lines = text_map(drawing).split("\n")
    # 3 (widest row label, "157") + 2 + 12 cells of 4 + 11 blanks between them
    assert max(len(line) for line in lines) == 3 + 2 + 12 * 4 + 11 == 64
    assert lines[0] == "     " + " ".join(f"{c:<4}" for c in range(1, 13)).rstrip()
    assert lines[1] == "  1  " + " ".join(["WXYZ"] * 12)
    assert lines[14] == "157  " + " ".join(["WXYZ"] * 12)
    assert [line[:3] for line in lines[1:15]] == [f"{1 + 12 * r:>3}" for r in range(14)]


def test_the_text_map_shown_in_docs_maps_md():
    """docs/maps.md "Drawing a board of spaces" shows the practice board's text map: it is what
    text_map draws."""
    import re
    from pathlib import Path

    doc = Path(__file__).resolve().parent.parent / "docs" / "maps.md"
    text = doc.read_text(encoding="utf-8")
    board = load_graph(re.search(r"```toml\n(.*?)```", text.split("### A complete example")[1],
                                 re.DOTALL).group(1), "maps.md")
    shown = re.search(r"```\n(.*?)  ```", text.split("### Drawing a board of spaces")[1],
                      re.DOTALL).group(1)
    letter = {"battery": "B", "hull": "H", "launcher": "L"}
    spaces = {s: Space(text=letter.get(board.kind(s), "")) for s in board.spaces()}
    spaces["7"], spaces["dock"] = Space(text="B F1"), Space(text="F2")
    drawn = text_map(Drawing(board=board, spaces=spaces)).split("\n\n")[0]
    assert [line[2:] for line in shown.rstrip("\n").split("\n")] == drawn.split("\n")
