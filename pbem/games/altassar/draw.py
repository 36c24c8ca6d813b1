"""How an Escape from Altassar view looks on the mapsheet: :func:`draw` returns the
:class:`~pbem.boards.drawing.Drawing` from which the text map of the mail reports and the SVG
map of the HTML reports are both drawn.

Text cells (2 characters): a terrain mark then one unit mark (``?`` a face-down counter).
SVG: the terrain colours of the Terrain Effects Chart, the prison and the exit edge outlined;
counters in their side's colour: a Spikus unit shows its id and printed attack-defense-movement,
a face-down Confederation counter its blank back with its marker, a face-up one (or, for the
Confederation, its own) its kind and printed values; the owner sees its own unit names in the
tooltip. Everything comes from the view, never from hidden facts.
"""

from __future__ import annotations

import functools

from pbem.boards.drawing import Drawing, Piece, Space, plain_space, remember_last

from .state import CONFEDERATION, SPIKUS, from_view

TERRAIN_MARK = {"clear": ".", "prison": "#", "rough": ":", "rain-forest": "f", "hills": "^",
                "cascades": "~", "quagmire": "q"}
"""One character per terrain in the text map."""

UNIT_MARK = {"soldier": "S", "tracker": "T", "drystal": "D", "wagon": "W", "trip-net": "n",
             "signal-post": "P"}
"""Text-map mark of a Spikus unit kind."""

FILLS = {"clear": "#e8e4c9", "prison": "#9a8f97", "rough": "#c9b18a", "rain-forest": "#7fae6e",
         "hills": "#b7a26a", "cascades": "#8fb8d8", "quagmire": "#8c9a6a"}
"""SVG colour of each terrain (Terrain Effects Chart)."""


def _text_marks(s, role: str) -> dict:
    """The unit marks of the text map by hex, the one drawn first."""
    marks: dict = {}
    for r in s.spikus.values():
        if r["where"] == "map" and r["kind"] not in ("trip-net",) and not r.get("carrier"):
            marks.setdefault(r["hex"], []).append(UNIT_MARK[r["kind"]])
        elif r["where"] == "map" and r["kind"] == "trip-net" and not r.get("carrier"):
            marks.setdefault(r["hex"], []).append("n")
    for m, r in s.markers.items():
        if r["where"] != "map":
            continue
        kind = r.get("kind")
        if role == CONFEDERATION and s.units:
            kind = s.kind_of_marker(m)
        mark = "?" if kind is None else ("d" if kind == "dummy" else "C")
        if role == CONFEDERATION and not r["exposed"]:
            mark = mark.lower()
        marks.setdefault(r["hex"], []).insert(0, mark)
    for c in s.corpses:
        marks.setdefault(c["hex"], []).append("x")
    return marks


KIND_NAME = {"soldier": "Sol", "tracker": "Trk", "drystal": "Dry", "wagon": "Wag",
             "trip-net": "Net", "signal-post": "Pst", "terran": "Ter", "clkgo": "Clk",
             "silian": "Sil", "phatakian": "Pha", "badte": "Bad", "dummy": "Dum"}
"""The short name a face-up counter shows."""

SIDES = {SPIKUS: "#7a2e2e", CONFEDERATION: "#2f5f8f", "corpse": "#cccccc"}
"""Counter colours: the Spikus, the Confederation, the corpses."""

SPECIALS = {"prison": ("#000000", "prison"), "exit": ("#e0218a", "exit edge (20.0)")}
"""Special spaces: the prison hexes and the exit edge."""


def _values(s, kind: str) -> str:
    """The printed attack-defense-movement of a ``kind`` counter (``"3-3-6"``)."""
    try:
        return "-".join(str(s.value(kind, k)) for k in ("attack", "defense", "movement"))
    except KeyError:
        return ""


def _pieces(v: dict, s, role: str) -> dict:
    """The SVG pieces by hex: the Confederation counters (face down: the blank back with the
    marker; face up, or the reader's own: the kind and its printed values), the Spikus units
    not carried (id and printed values), the corpses."""
    pieces: dict = {}
    names = {u["marker"]: n for n, u in v.get("secret", {}).get("units", {}).items()}
    for m, r in sorted(v["markers"].items()):
        if r["where"] != "map":
            continue
        kind = r.get("kind")
        if m in names:
            kind = s.units[names[m]]["kind"]
        up = bool(r["exposed"])
        title = m + (f" ({names[m]})" if m in names else "") + (
            f" face up: {kind}" if up and kind else " face down")
        pieces.setdefault(r["hex"], []).append(Piece(
            m if kind is None else f"{m}{kind[0].upper()}", title, side=CONFEDERATION,
            symbol=KIND_NAME.get(kind, (kind or "")[:3]), values=_values(s, kind) if kind else "",
            face_down=kind is None, id=m))
    for u, r in sorted(v["spikus"].items()):
        if r["where"] == "map" and not r.get("carrier"):
            pieces.setdefault(r["hex"], []).append(Piece(
                u, f"{u} ({r['kind']} {_values(s, r['kind'])})", side=SPIKUS, symbol=u,
                values=_values(s, r["kind"]), id=u))
    for i, c in enumerate(v.get("corpses", ())):
        pieces.setdefault(c["hex"], []).append(Piece("x", "corpse", side="corpse", symbol="x",
                                                     id=f"corpse{i + 1}"))
    return pieces


def _notes(v: dict, s, role: str) -> list[str]:
    """The Spikus units and the Confederation counters by hex, under the legend (or, once the
    game is over, what was under the markers and the victory points)."""
    out = ["", "Spikus units:"]
    by_hex: dict = {}
    for u, r in sorted(s.spikus.items()):
        if r["where"] == "map":
            tag = u
            flags = [k for k, on in (("stunned", r.get("stun_end")), ("feeding", r.get("feed_end")),
                                     (f"carried by {r.get('carrier')}", r.get("carrier")),
                                     (f"holding {r.get('escorting')}", r.get("escorting"))) if on]
            by_hex.setdefault(r["hex"], []).append(tag + (f" ({', '.join(flags)})" if flags else ""))
    for h in sorted(by_hex):
        out.append(f"  {h}: {', '.join(by_hex[h])}")
    box = [u for u, r in sorted(s.spikus.items()) if r["where"] == "box"]
    if box:
        out.append(f"  not yet on the map: {', '.join(box)}")
    reveal = v.get("reveal")
    if reveal:
        out.append("The game is over; under the markers were (setup-reveal in the public log "
                   "checks the markers as dealt):")
        for name, u in sorted(reveal["units"].items(), key=lambda kv: kv[1]["marker"]):
            r = s.markers[u["marker"]]
            out.append(f"  {u['marker']}: {name} — {r['where']}"
                       + (f" at {r['hex']}" if r.get("hex") else ""))
        counts = reveal.get("counts", {})
        if counts:
            c, p = counts.get(CONFEDERATION, {}), counts.get(SPIKUS, {})
            out.append(f"Victory points (20.0): Confederation: {c.get('soldiers', 0)} soldiers and "
                       f"{c.get('other', 0)} other Spikus units eliminated, {c.get('exited', 0)} "
                       f"prisoners exited; Spikus: {p.get('on_map', 0)} prisoners on the map, "
                       f"{p.get('eliminated', 0)} eliminated, {p.get('returned', 0)} returned.")
        return out
    out.append("Confederation counters:")
    # the reader's own unit under each marker (State.unit_at_marker, looked up once for all)
    own = {u["marker"]: n for n, u in s.units.items()} if role == CONFEDERATION else {}
    for m, r in sorted(s.markers.items()):
        kind = r.get("kind")
        name = own.get(m)
        if name:
            kind = s.units[name]["kind"]
        desc = f"  {m}: {r['where']}" + (f" at {r['hex']}" if r.get("hex") else "")
        if name:
            desc += f" — your {name}"
        elif kind:
            desc += f" — {kind}"
        flags = [k for k in r["exposed"]] if r["exposed"] else ["face down"]
        if r.get("stun_end") is not None:
            flags.append("stunned")
        if r.get("restrained") is not None:
            flags.append("held by a Trip Net")
        if r["where"] == "map":
            desc += f" ({', '.join(flags)})"
        out.append(desc)
    return out


@remember_last
def draw(v: dict) -> Drawing:
    """The mapsheet as the view ``v`` (:func:`~pbem.games.altassar.state.view`) shows it:
    terrain, markers, Spikus units and corpses, with the legend and the units listed by hex
    under the text map."""
    s = from_view(v, share=True)  # read only: the view's own values, not copies
    role = v.get("role", "*")
    marks = _text_marks(s, role)
    pieces = _pieces(v, s, role)
    base = _bare_spaces(s.hexmap)
    spaces = dict(base)
    for h in (marks.keys() | pieces.keys()) & base.keys():
        t, text, title, special = base[h].terrain, base[h].text, base[h].title, base[h].special
        here = marks.get(h)
        text += here[0] if here else ""
        spaces[h] = (Space(t, text, title, tuple(pieces[h]), special) if h in pieces
                     else plain_space(t, text, title, special))
    legend = (("Terrain: . clear  # prison  : rough  f rain forest  ^ hills  ~ cascades  "
               "q quagmire"),
              "Units: S soldier  T tracker  D drystal  W wagon  n trip net  P signal post  "
              "x corpse  ? face-down counter  C prisoner  d dummy"
              + ("  (lower case: yours, face down)" if role == CONFEDERATION else ""))
    return Drawing(board=s.hexmap, spaces=spaces, fills=FILLS, legend=legend,
                   notes=tuple(_notes(v, s, role)), text_width=2, sides=SIDES,
                   specials=SPECIALS)


@functools.lru_cache(maxsize=4)
def _bare_spaces(hexmap) -> dict:
    """Every hex of the mapsheet as drawn with nothing on it: its terrain, terrain mark, title
    and special outline (prison, exit edge), in the map's order; made once per map (most
    hexes of a view are bare). Shared: callers copy it before changing it."""
    prison, exit_edge = set(_group(hexmap, "prison")), set(_group(hexmap, "exit"))
    spaces = {}
    for h in hexmap.labels():
        t = hexmap.terrain(h)
        special = "prison" if h in prison else "exit" if h in exit_edge else ""
        spaces[h] = plain_space(t, TERRAIN_MARK.get(t, "?"),
                                t + (" (exit edge)" if special == "exit" else ""), special)
    return spaces


def _group(hexmap, name: str) -> tuple:
    """The hexes of the map's group ``name`` (none when the map has no such group)."""
    return hexmap.group(name) if hexmap.has_group(name) else ()
