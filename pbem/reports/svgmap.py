"""An SVG hex map for the HTML report: geometry from :mod:`pbem.boards.pixels`, what to draw
in each hex from a per-game cell function over the reader's view (so the map shows exactly
what the view shows, nothing else).

A cell is ``{"fill": "#rrggbb", "marks": [short strings], "title": "tooltip"}``.
"""

from __future__ import annotations

HEX_SIZE = 22
"""Circumradius of a drawn hex, in pixels."""

SEA = "#cfe6fa"


_geometry: dict = {}


def _layout(hexmap, size: float) -> tuple:
    """(width, height, [(label, points, x, y)]) of a map, computed once per map and size."""
    key = (hexmap.digest, size)
    if key not in _geometry:
        from pbem.boards.pixels import hex_center, hex_corners, map_size

        width, height = map_size(hexmap, size)
        hexes = []
        for label in hexmap.labels():
            x, y = hex_center(hexmap, label, size)
            points = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in hex_corners(hexmap, label, size))
            hexes.append((label, points, round(x, 1), round(y, 1)))
        _geometry[key] = (round(width, 1), round(height, 1), hexes)
    return _geometry[key]


_drawn: dict = {}
_DRAWN_MAX = 50_000


def _draw_hex(h: dict):
    """One hex drawn by the macro of templates/map_hex.svg.j2 (autoescaped markup), remembered: most hexes
    look the same in every reader's map and every phase (a 384-hex map drawn for three readers
    took a third of a phase's time before)."""
    key = (h["points"], h["fill"], h["title"], h["label"], h["ly"], tuple(h["marks"]))
    out = _drawn.get(key)
    if out is None:
        from markupsafe import Markup

        from pbem.reports.render import environment

        if len(_drawn) >= _DRAWN_MAX:
            _drawn.clear()
        draw = environment().get_template("map_hex.svg.j2").module.draw
        out = _drawn[key] = Markup(str(draw(h)))
    return out


def svg_context(hexmap, cells: dict, size: float = HEX_SIZE) -> dict:
    """The ``svg`` context of templates/map.svg.j2: width, height, font sizes and one entry per
    hex ``{"svg"}``: the hex drawn by templates/map_hex.svg.j2 from ``{"label", "points", "x",
    "ly" (label baseline), "fill", "marks": [(y, text)], "title"}`` (pixels)."""
    width, height, layout = _layout(hexmap, size)
    hexes = []
    for label, points, x, y in layout:
        cell = cells.get(label, {})
        title = cell.get("title", "")
        marks = [(round(y + size * (0.05 + 0.32 * i), 1), m)
                 for i, m in enumerate(cell.get("marks", ()))]
        h = {"label": label, "points": points, "x": x, "ly": round(y - size * 0.5, 1),
             "fill": cell.get("fill", SEA), "marks": marks,
             "title": f"{label}: {title}" if title else label}
        hexes.append({"svg": _draw_hex(h)})
    return {"width": width, "height": height, "size": size, "hexes": hexes,
            "label_size": round(size * 0.28, 1), "mark_size": round(size * 0.3, 1)}


_maps: dict = {}


def _hexmap(d: dict):
    """The HexMap of a view's ``map`` dict, built once per map digest."""
    from pbem.boards.hexmap import HexMap

    key = d.get("digest")
    if key not in _maps:
        _maps[key] = HexMap.from_dict(d)
    return _maps[key]


def atlantis_cells(view: dict) -> tuple[object, dict]:
    """(HexMap, cells) for an Escape from Atlantis view (pbem.games.atlantis ``view``)."""
    hexmap = _hexmap(view["map"])
    fills = {"sand": "#f1e0a0", "forest": "#9ccc84", "fortress": "#b9b0a6", "city": "#d8a3a3"}
    cells: dict = {}
    for label in hexmap.labels():
        if hexmap.terrain(label) == "safe":
            cells[label] = {"fill": "#e9c46a", "marks": [], "title": "safe island"}
    for label, kind in view["tiles"].items():
        kind = "city" if label == view.get("city") else kind
        cells[label] = {"fill": fills.get(kind, "#ddd"), "marks": [], "title": kind}
    people: dict = {}
    for pid, p in view["people"].items():
        if p["where"] in ("land", "sea", "safe") and p.get("hex"):
            people.setdefault(p["hex"], {}).setdefault(p["owner"], []).append(pid)
    for label, by_owner in people.items():
        cell = cells.setdefault(label, {"fill": SEA, "marks": [], "title": "sea"})
        cell["marks"].append(" ".join(f"{o[0]}{len(ids)}" for o, ids in sorted(by_owner.items())))
        cell["title"] += "; " + ", ".join(pid for _, ids in sorted(by_owner.items())
                                          for pid in ids)
    for ship, label in view["ships"].items():
        crew = [pid for pid, p in view["people"].items() if p.get("ship") == ship]
        cell = cells.setdefault(label, {"fill": SEA, "marks": [], "title": "sea"})
        cell["marks"].append(f"B{len(crew)}" if crew else "B")
        cell["title"] += f"; {ship}" + (f" ({', '.join(crew)})" if crew else "")
    abbrev = {"shark": "^", "kraken": "K", "monster": "M", "dolphin": "D"}
    for creature, label in view["creatures"].items():
        kind = creature.rstrip("0123456789")
        cell = cells.setdefault(label, {"fill": SEA, "marks": [], "title": "sea"})
        cell["marks"].append(abbrev.get(kind, kind[:1]))
        cell["title"] += f"; {creature}"
    for cell in cells.values():
        if len(cell["marks"]) > 2:
            cell["marks"] = [cell["marks"][0], " ".join(cell["marks"][1:])]
    return hexmap, cells


def altassar_cells(view: dict) -> tuple[object, dict]:
    """(HexMap, cells) for an Escape from Altassar view (pbem.games.altassar ``view``): terrain
    colours of the Terrain Effects Chart, Spikus unit ids, and Confederation markers (``?``
    while face down to this reader; the owner sees its own unit names in the title)."""
    hexmap = _hexmap(view["map"])
    fills = {"clear": "#e8e4c9", "prison": "#9a8f97", "rough": "#c9b18a", "rain-forest": "#7fae6e",
             "hills": "#b7a26a", "cascades": "#8fb8d8", "quagmire": "#8c9a6a"}
    cells: dict = {}
    for label in hexmap.labels():
        t = hexmap.terrain(label)
        cells[label] = {"fill": fills.get(t, "#ddd"), "marks": [], "title": t}
    names = {u["marker"]: n for n, u in view.get("secret", {}).get("units", {}).items()}
    for m, r in sorted(view["markers"].items()):
        if r["where"] != "map":
            continue
        cell = cells[r["hex"]]
        kind = r.get("kind")
        cell["marks"].append(m if kind is None else f"{m}{kind[0].upper()}")
        cell["title"] += f"; {m}" + (f" ({names[m]})" if m in names else "") + (
            f" face up: {kind}" if r["exposed"] and kind else "")
    for u, r in sorted(view["spikus"].items()):
        if r["where"] == "map" and not r.get("carrier"):
            cells[r["hex"]]["marks"].append(u)
            cells[r["hex"]]["title"] += f"; {u} ({r['kind']})"
    for cell in cells.values():
        if len(cell["marks"]) > 2:
            cell["marks"] = [cell["marks"][0], " ".join(cell["marks"][1:])]
    return hexmap, cells


CELLS = {"atlantis": atlantis_cells, "altassar": altassar_cells}
"""Per-ruleset cell functions; a ruleset without one gets no SVG map."""


def map_for(ruleset: str, view: dict) -> dict | None:
    """The ``svg`` context for a reader's view, or None when the game draws no SVG map."""
    fn = CELLS.get(ruleset)
    if fn is None or "map" not in view:
        return None
    hexmap, cells = fn(view)
    return svg_context(hexmap, cells)
