"""Reading a board map file (TOML, docs/maps.md "Boards of spaces") into a
:class:`~pbem.boards.graph.GraphBoard`: :func:`load_graph` and its errors, one class per cause,
each a subclass of :class:`GraphMapError` (a :class:`~pbem.boards.hexmap.MapError`, so a
``ValueError``) whose message names the file, the line and what was expected and quotes the
offending input."""

from __future__ import annotations

import hashlib
import re

from pbem.boards.graph import (_BOARD_KEYS, _GRID_KEYS, _ID, _MAX_GRID, _NAME, _NUMBER, _TABLES,
                               ADJACENT, BadBoard, GraphBoard)
from pbem.boards.hexmap import MapError

__all__ = ["BadChain", "BadName", "BadSpaceId", "BadValue", "DuplicateLink", "DuplicateSpace",
           "EmptyGroup", "GraphMapError", "GroupTwice", "KindTwice", "MissingKey",
           "MissingTable", "NoKind", "NoSpaces", "NotOnBoard", "NotToml", "SelfLink",
           "UnknownKey", "UnknownTable", "load_graph"]


# -- errors: reading a map file -----------------------------------------------------------------

class GraphMapError(MapError):
    """Base of the errors of a board map file: ``source`` (the file), ``line`` (1-based, or
    None when it could not be found), ``why`` (what is wrong, quoting the input, and what was
    expected). ``str(err)`` reads ``"board.toml:12: [links] adjacent: ..."``."""


class NotToml(GraphMapError):
    """The text is not valid TOML."""


class UnknownTable(GraphMapError):
    """A table other than [board], [grid], [kinds], [groups], [links] and [one-way]."""


class MissingTable(GraphMapError):
    """No [board] table."""


class UnknownKey(GraphMapError):
    """A key [board] or [grid] does not have."""


class MissingKey(GraphMapError):
    """A key that must be given is missing ([grid] columns or rows)."""


class BadValue(GraphMapError):
    """A key's value of the wrong type or out of range (``columns = "ten"``)."""


class BadName(GraphMapError):
    """A kind, group or link-kind name that is not lower-case letters, digits, '-' and '_'."""


class BadSpaceId(GraphMapError):
    """A space id that is neither a whole number (no leading zeros) nor a name."""


class DuplicateSpace(GraphMapError):
    """A space listed twice in [board] spaces, or also made by [grid]."""


class NoSpaces(GraphMapError):
    """A board with no spaces at all."""


class NotOnBoard(GraphMapError):
    """A space named in [kinds], [groups], [links] or [one-way] that the board does not have."""


class KindTwice(GraphMapError):
    """A space given two kinds, or listed twice under one kind."""


class NoKind(GraphMapError):
    """A space left without a kind while [board] has no default."""


class EmptyGroup(GraphMapError):
    """A group with no spaces."""


class GroupTwice(GraphMapError):
    """A space listed twice in one group."""


class BadChain(GraphMapError):
    """A link entry that is not a list of at least two spaces."""


class SelfLink(GraphMapError):
    """A link from a space to itself."""


class DuplicateLink(GraphMapError):
    """A link written twice (or already made by [grid])."""


# -- the map file -------------------------------------------------------------------------------

def _code(line: str) -> str:
    """``line`` without its TOML comment (a ``#`` outside quotes)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[:i]
    return line


class _Lines:
    """Finds where a value stands in the file's text (tomllib gives no positions)."""

    def __init__(self, text: str):
        self.lines = [_code(x) for x in text.split("\n")]

    def table(self, name: str) -> int | None:
        pat = re.compile(r"^\s*\[\s*[\"']?" + re.escape(name) + r"[\"']?\s*\]")
        return next((n for n, x in enumerate(self.lines, 1) if pat.match(x)), None)

    def key(self, key: str, table: str | None = None) -> int | None:
        start = (self.table(table) or 1) if table else 1
        pat = re.compile(r"^\s*[\"']?" + re.escape(key) + r"[\"']?\s*=")
        return next((n for n, x in enumerate(self.lines, 1) if n >= start and pat.match(x)),
                    None)

    def value(self, value: object, start: int | None = 1, occurrence: int = 1) -> int | None:
        """Line of the ``occurrence``-th appearance of ``value`` (as a whole token, quoted or
        not) at or after line ``start``."""
        text = str(value).lower() if isinstance(value, bool) else str(value)
        pat = re.compile(r"(?<![\w.-])[\"']?" + re.escape(text) + r"[\"']?(?![\w.-])")
        seen = 0
        for n, x in enumerate(self.lines, 1):
            if n < (start or 1):
                continue
            seen += len(pat.findall(x))
            if seen >= occurrence:
                return n
        return None


def load_graph(text: str, source: str) -> GraphBoard:
    """Read a board map file (TOML, docs/maps.md "Boards of spaces") and return its
    :class:`GraphBoard`.

    ``text`` is the file's text, ``source`` its name for messages (and ``GraphBoard.source``);
    the board's ``digest`` is the sha256 of ``text`` encoded as UTF-8. Raises a
    :class:`GraphMapError` subclass naming ``source``, the line and what was expected:
    :class:`NotToml`, :class:`UnknownTable`, :class:`MissingTable`, :class:`UnknownKey`,
    :class:`MissingKey`, :class:`BadValue`, :class:`BadName`, :class:`BadSpaceId`,
    :class:`DuplicateSpace`, :class:`NoSpaces`, :class:`NotOnBoard`, :class:`KindTwice`,
    :class:`NoKind`, :class:`EmptyGroup`, :class:`GroupTwice`, :class:`BadChain`,
    :class:`SelfLink`, :class:`DuplicateLink`.
    """
    import tomllib

    where = _Lines(text)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        match = re.search(r"line (\d+)", str(err))
        raise NotToml(source, int(match.group(1)) if match else None,
                      f"not valid TOML: {err}") from None

    def fail(cls, why: str, line: int | None = None):
        raise cls(source, line, why)

    for table in doc:
        if table not in _TABLES:
            fail(UnknownTable, f"unknown table [{table}]: a board file has the tables "
                 f"{', '.join(f'[{t}]' for t in _TABLES)}",
                 where.table(table) or where.key(table))
        if not isinstance(doc[table], dict):
            fail(BadValue, f"{table} = {doc[table]!r}: expected a table [{table}]",
                 where.key(table))
    if "board" not in doc:
        fail(MissingTable, "no [board] table: expected [board] with name, source, and spaces "
             "or a [grid]")
    head, grid = doc["board"], doc.get("grid")
    for table, allowed, got in (("board", _BOARD_KEYS, head), ("grid", _GRID_KEYS, grid or {})):
        for key in got:
            if key not in allowed:
                fail(UnknownKey, f"unknown key {key!r} in [{table}]: expected "
                     f"{', '.join(allowed)}", where.key(key, table))
    for key in ("name", "source"):
        if key in head and not isinstance(head[key], str):
            fail(BadValue, f"[board] {key} = {head[key]!r}: expected a quoted string",
                 where.key(key, "board"))
    default = head.get("default")
    if default is not None and (not isinstance(default, str) or not _NAME.match(default)):
        fail(BadName, f"[board] default = {default!r}: expected a kind name such as \"space\" "
             f"(lower-case letters, digits, '-' or '_', starting with a letter)",
             where.key("default", "board"))

    def space_id(value: object, what: str, line: int | None) -> str:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return str(value)
        if isinstance(value, str) and (_NUMBER.match(value) or _ID.match(value)):
            return value
        hint = ""
        if isinstance(value, str) and value.isdigit():
            hint = f" (write {int(value)}, without leading zeros)"
        fail(BadSpaceId, f"{what}: bad space {value!r}: expected a whole number such as 17 or "
             f"a name such as \"sensor-pod\" (letters, digits, '-' or '_', starting with a "
             f"letter){hint}", line)

    ids: list[str] = []
    links: list[tuple] = []
    made_by_grid: set[tuple] = set()
    positions: dict[str, tuple[int, int]] = {}
    groups: dict[str, list[str]] = {}
    if grid is not None:
        size = {}
        for key in ("columns", "rows"):
            if key not in grid:
                fail(MissingKey, f"[grid] has no {key}: expected {key} = a whole number from 1 "
                     f"to {_MAX_GRID}", where.table("grid"))
            value = grid[key]
            if not isinstance(value, int) or isinstance(value, bool) or not (
                    1 <= value <= _MAX_GRID):
                fail(BadValue, f"[grid] {key} = {value!r}: expected a whole number from 1 to "
                     f"{_MAX_GRID}", where.key(key, "grid"))
            size[key] = value
        first = grid.get("first", 1)
        if not isinstance(first, int) or isinstance(first, bool) or first < 0:
            fail(BadValue, f"[grid] first = {first!r}: expected the number of the top-left "
                 f"space, a whole number 0 or more", where.key("first", "grid"))
        diagonals = grid.get("diagonals", False)
        if not isinstance(diagonals, bool):
            fail(BadValue, f"[grid] diagonals = {diagonals!r}: expected true (spaces touching "
                 f"at a corner are adjacent) or false", where.key("diagonals", "grid"))
        columns, rows = size["columns"], size["rows"]

        def at(c: int, r: int) -> str:
            return str(first + (r - 1) * columns + (c - 1))

        steps = [(1, 0), (0, 1)] + ([(1, 1), (-1, 1)] if diagonals else [])
        for r in range(1, rows + 1):
            for c in range(1, columns + 1):
                ids.append(at(c, r))
                positions[at(c, r)] = (c, r)
        for r in range(1, rows + 1):
            for c in range(1, columns + 1):
                for dc, dr in steps:
                    if 1 <= c + dc <= columns and 1 <= r + dr <= rows:
                        a, b = at(c, r), at(c + dc, r + dr)
                        links.append((a, b, ADJACENT, False))
                        made_by_grid.add((ADJACENT, frozenset((a, b))))
        groups = {"edge-north": [at(c, 1) for c in range(1, columns + 1)],
                  "edge-east": [at(columns, r) for r in range(1, rows + 1)],
                  "edge-south": [at(c, rows) for c in range(1, columns + 1)],
                  "edge-west": [at(1, r) for r in range(1, rows + 1)]}
    listed = head.get("spaces", [])
    if not isinstance(listed, list):
        fail(BadValue, f"[board] spaces = {listed!r}: expected a list of spaces such as "
             f"[1, 2, \"sensor-pod\"]", where.key("spaces", "board"))
    seen = set(ids)
    start = where.key("spaces", "board")
    counts: dict[str, int] = {}
    for value in listed:
        counts[str(value)] = counts.get(str(value), 0) + 1
        line = where.value(value, start, counts[str(value)])
        sid = space_id(value, "[board] spaces", line)
        if sid in seen:
            why = ("is also a space of [grid]" if sid in positions else "is listed twice")
            fail(DuplicateSpace, f"[board] spaces: space {value!r} {why}: expected each space "
                 f"once", line)
        seen.add(sid)
        ids.append(sid)
    if not ids:
        fail(NoSpaces, "the board has no spaces: expected [board] spaces = [...] or a [grid]",
             where.table("board"))

    def on_board(value: object, what: str, start: int | None, occurrence: int = 1) -> str:
        line = where.value(value, start, occurrence)
        sid = space_id(value, what, line)
        if sid not in seen:
            fail(NotOnBoard, f"{what}: space {value!r} is not on the board: expected one of "
                 f"the spaces of [board] spaces or [grid]", line)
        return sid

    def named(name: str, table: str, what: str) -> None:
        if not _NAME.match(name):
            fail(BadName, f"[{table}] bad {what} name {name!r}: expected lower-case letters, "
                 f"digits, '-' or '_', starting with a letter", where.key(name, table))

    kinds: dict[str, str] = {}
    kind_count: dict[str, int] = {}
    for kind, members in doc.get("kinds", {}).items():
        named(kind, "kinds", "kind")
        if not isinstance(members, list):
            fail(BadValue, f"[kinds] {kind} = {members!r}: expected a list of spaces",
                 where.key(kind, "kinds"))
        for value in members:
            key = str(value)
            kind_count[key] = kind_count.get(key, 0) + 1
            sid = on_board(value, f"[kinds] {kind}", where.table("kinds"), kind_count[key])
            if sid in kinds:
                line = where.value(value, where.table("kinds"), kind_count[key])
                if kinds[sid] == kind:
                    fail(KindTwice, f"[kinds] space {value!r} is listed twice as {kind}: "
                         f"expected each space once", line)
                fail(KindTwice, f"[kinds] space {value!r} is given two kinds, {kinds[sid]} and "
                     f"{kind}: expected one kind per space", line)
            kinds[sid] = kind
    if default is None:
        for sid in ids:
            if sid not in kinds:
                fail(NoKind, f"space {sid!r} has no kind and [board] has no default: list it "
                     f"under [kinds] or set default = \"space\" (say)", where.table("board"))

    for name, members in doc.get("groups", {}).items():
        named(name, "groups", "group")
        line = where.key(name, "groups")
        if not isinstance(members, list):
            fail(BadValue, f"[groups] {name} = {members!r}: expected a list of spaces", line)
        if not members:
            fail(EmptyGroup, f"[groups] {name} is empty: expected at least one space", line)
        got: list[str] = []
        for i, value in enumerate(members):
            occurrence = sum(1 for v in members[:i + 1] if str(v) == str(value))
            sid = on_board(value, f"[groups] {name}", line, occurrence)
            if sid in got:
                fail(GroupTwice, f"[groups] {name}: space {value!r} is listed twice: expected "
                     f"each space once", where.value(value, line, occurrence))
            got.append(sid)
        groups[name] = got

    written: dict[tuple, str] = {}
    for table, one_way in (("links", False), ("one-way", True)):
        for kind, chains in doc.get(table, {}).items():
            named(kind, table, "link kind")
            line = where.key(kind, table)
            example = "[[1, 2], [2, 3, 4]]"
            if not isinstance(chains, list) or not all(isinstance(c, list) for c in chains):
                fail(BadChain, f"[{table}] {kind} = {chains!r}: expected a list of chains of "
                     f"spaces such as {example} (each chain links its spaces in turn)", line)
            counted: dict[str, int] = {}
            for chain in chains:
                if len(chain) < 2:
                    fail(BadChain, f"[{table}] {kind}: chain {chain!r} has fewer than two "
                         f"spaces: expected a list such as [1, 2] or [1, 2, 3]",
                         where.value(chain[0], line) if chain else line)
                sids = []
                for value in chain:
                    counted[str(value)] = counted.get(str(value), 0) + 1
                    sids.append(on_board(value, f"[{table}] {kind}", line,
                                         counted[str(value)]))
                for (va, a), (vb, b) in zip(zip(chain, sids), zip(chain[1:], sids[1:])):
                    here = where.value(vb, line, counted[str(vb)])
                    if a == b:
                        fail(SelfLink, f"[{table}] {kind}: chain {chain!r} links space {va!r} "
                             f"to itself: expected two different spaces", here)
                    pair = (kind, (a, b)) if one_way else (kind, frozenset((a, b)))
                    if pair in made_by_grid and not one_way:
                        fail(DuplicateLink, f"[{table}] {kind}: the link {va!r}-{vb!r} is "
                             f"already made by [grid]: expected only links the grid does not "
                             f"make", here)
                    if pair in written:
                        fail(DuplicateLink, f"[{table}] {kind}: the link {va!r}-{vb!r} is "
                             f"written twice: expected each link once", here)
                    written[pair] = table
                    links.append((a, b, kind, one_way))

    try:
        return GraphBoard(name=head.get("name", source), source=source,
                          map_source=head.get("source", ""), spaces=ids, kinds=kinds,
                          default=default or "space", groups=groups, links=links,
                          positions=positions,
                          digest=hashlib.sha256(text.encode("utf-8")).hexdigest())
    except BadBoard as err:  # every case is caught above; kept so no BadBoard escapes a file
        raise GraphMapError(source, None, str(err)) from None
