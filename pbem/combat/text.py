"""A combat results table as plain text, every cell with its source (for ``pbem rules GAME``
and the setup report; docs/combat.md, "What pbem rules prints")."""

from __future__ import annotations

import textwrap

from .crt import CombatTable

__all__ = ["format_table", "source_marks"]

WIDTH = 78
"""The widest line :func:`format_table` writes (characters), so that mail clients do not wrap."""

_GAP = "  "


def _mark_name(n: int) -> str:
    """0 -> "a", 25 -> "z", 26 -> "aa", ... (bijective base 26)."""
    out = ""
    n += 1
    while n:
        n, rest = divmod(n - 1, 26)
        out = chr(ord("a") + rest) + out
    return out


def source_marks(table: CombatTable) -> dict[str, str]:
    """Source -> mark (``"[a]"``, ``"[b]"``, ...) for every cell source other than the
    table's default, in the order first met row by row, left to right."""
    others = [s for s in table.sources() if s != table.source]
    return {s: f"[{_mark_name(i)}]" for i, s in enumerate(others)}


def _wrap(text: str, indent: str, hang: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=hang,
                         break_long_words=True, break_on_hyphens=False) or [indent.rstrip()]


def format_table(table: CombatTable) -> str:
    """The table as monospace plain text of at most 78 columns, ending with a newline:

    - an optional title line, then a header of the odds columns and one line per die row;
      each cell holds its result code followed by its source mark (``EX[a]``), cells whose
      source is the table's default having none; a table too wide for 78 columns is printed
      in several blocks of columns, each with the die column;
    - how odds off the table and modified die rolls off the table are treated;
    - the legend of sources (which source unmarked cells have, then each mark);
    - the result codes with their names and sources; then the table's note, if any.
    """
    marks = source_marks(table)
    text = {(die, column): cell.result + marks.get(cell.source, "")
            for die, column, cell in table.cells()}
    die_width = max(len("Die"), *(len(str(d)) for d in table.dice))
    widths = {c: max(len(c), *(len(text[(d, c)]) for d in table.dice)) for c in table.columns}

    blocks: list[list[str]] = [[]]
    used = die_width
    for column in table.columns:
        need = len(_GAP) + widths[column]
        if blocks[-1] and used + need > WIDTH:
            blocks.append([])
            used = die_width
        blocks[-1].append(column)
        used += need

    out: list[str] = []
    if table.title:
        out += _wrap(table.title, "", "")
    for n, block in enumerate(blocks):
        if n:
            out.append("")
        head = "Die".rjust(die_width) + "".join(_GAP + c.ljust(widths[c]) for c in block)
        out.append(head.rstrip())
        for die in table.dice:
            line = str(die).rjust(die_width) + "".join(
                _GAP + text[(die, c)].ljust(widths[c]) for c in block)
            out.append(line.rstrip())
    out.append("")
    first, last = table.columns[0], table.columns[-1]
    low, high = table.dice[0], table.dice[-1]
    out += _wrap(f"Odds below {first} are treated as {first} and odds above {last} as {last}, "
                 f"after any column shift. A die roll moved by a modifier below {low} is "
                 f"treated as {low}, above {high} as {high}.", "", "")
    out.append("")
    if marks:
        out += _wrap(f"Sources: unmarked cells: {table.source}", "", "  ")
        for source, mark in marks.items():
            out += _wrap(f"{mark} {source}", "  ", " " * (3 + len(mark)))
    else:
        out += _wrap(f"Source of every cell: {table.source}", "", "  ")
    out.append("")
    out.append("Results:")
    code_width = max(len(code) for code in table.results)
    for code, name in table.results.items():
        out += _wrap(f"{code.ljust(code_width)}  {name} ({table.result_sources[code]})", "  ",
                     " " * (4 + code_width))
    if table.note:
        out.append("")
        out += _wrap(table.note, "", "")
    return "\n".join(out) + "\n"
