"""Paths over a hex map with per-step costs: the cost of a given path, the cheapest path
between two hexes, and everything reachable within a budget (Dijkstra's algorithm).

Costs are given by a function ``cost(from_label, to_label) -> float | None`` called only for
adjacent hexes of the map: the cost of stepping from one into the other (movement points,
say), or None when that step is not allowed (impassable terrain, an enemy zone of control).
The functions are game-agnostic: Altassar's terrain costs, Olympica's inclines and tunnels and
Atlantis's sea-only creature moves all use them.
"""

from __future__ import annotations

import heapq
from typing import Callable, Iterable

from .hexmap import HexMap

Cost = Callable[[str, str], "float | None"]
"""``cost(from_label, to_label)``: the cost of one step between adjacent hexes, or None."""


def path_cost(hexmap: HexMap, path: Iterable[str], cost: Cost) -> float | None:
    """Total cost of following ``path`` (a sequence of labels, the starting hex first).

    Returns 0 for a path of one hex, and None when two consecutive hexes are not adjacent on
    ``hexmap`` or a step's cost is None. Raises ``KeyError`` for a hex off the map and
    :class:`~pbem.boards.hexgrid.HexLabelError` for a malformed label.
    """
    hexes = list(path)
    if not hexes:
        raise ValueError("empty path: expected at least the starting hex")
    hexmap.neighbours(hexes[0])
    total = 0.0
    for a, b in zip(hexes, hexes[1:]):
        if not hexmap.adjacent(a, b):
            return None
        c = cost(a, b)
        if c is None:
            return None
        total += c
    return total


def _search(hexmap: HexMap, start: str, cost: Cost, budget: float | None,
            goal: str | None) -> tuple[dict, dict, float | None]:
    """Dijkstra from ``start``: (least cost per hex settled or seen, predecessor per hex, the
    cost of ``goal`` when it was reached, else None). Stops at ``goal`` when one is given.
    Ties are broken by hex label, so results are reproducible: labels are four digits
    ``CCRR`` (hexgrid.format_label), so their string order is label order
    (:func:`~pbem.boards.hexgrid.label_key`) and the heap compares the labels themselves."""
    hexmap.neighbours(start)  # KeyError / HexLabelError for a hex off the map
    neighbours = hexmap.neighbour_table()
    best = {start: 0.0}
    came: dict[str, str] = {}
    heap = [(0.0, start)]
    done: set[str] = set()
    inf = float("inf")
    limit = inf if budget is None else budget
    pop, push, best_of = heapq.heappop, heapq.heappush, best.get
    while heap:
        spent, here = pop(heap)
        if here in done:
            continue
        if here == goal:
            return best, came, spent
        done.add(here)
        for there in neighbours[here]:
            if there in done:
                continue
            c = cost(here, there)
            if c is None:
                continue
            if c < 0:
                raise ValueError(f"step {here}->{there} costs {c!r}: costs must be 0 or more")
            total = spent + c
            if total <= limit and total < best_of(there, inf):
                best[there] = total
                came[there] = here
                push(heap, (total, there))
    return best, came, None


def reachable(hexmap: HexMap, start: str, cost: Cost,
              budget: float | None = None) -> dict[str, float]:
    """Every hex reachable from ``start`` with its least total cost, ``start`` itself at 0.

    Only hexes whose least cost is at most ``budget`` are returned (all reachable hexes when
    ``budget`` is None). Negative step costs raise ``ValueError`` (Dijkstra needs costs >= 0).
    """
    return _search(hexmap, start, cost, budget, None)[0]


def cheapest_path(hexmap: HexMap, start: str, goal: str, cost: Cost,
                  max_cost: float | None = None) -> tuple[float, list[str]] | None:
    """The cheapest path from ``start`` to ``goal`` as ``(total cost, [start, ..., goal])``,
    or None when ``goal`` cannot be reached (within ``max_cost`` when given).

    Ties between equally cheap paths are broken the same way every time (hexes are taken in
    label order), so the result is reproducible. Raises ``KeyError`` for a hex off the map and
    ``ValueError`` for a negative step cost.
    """
    hexmap.neighbours(goal)
    _, came, spent = _search(hexmap, start, cost, max_cost, goal)
    if spent is None:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(came[path[-1]])
    path.reverse()
    return spent, path
