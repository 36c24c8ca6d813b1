"""Olympica texts: the order template of each window, ``pbem rules olympica``'s tables and the
setup report's list of stand-ins (with the CRT cells that are an unverified transcription)."""

from __future__ import annotations

from pbem.combat.text import format_table
from pbem.engine import sourced

from .data import Rules
from .orders import VERBS
from .state import UN, WEB, WEB_NAMES
from .turns import window

_HELP = {
    "substitute": "5.4: secret; the Web: infantry or strongpoint; the U.N.: light N or heavy N",
    "place": "5.2: every marker; the Generator within the dotted area",
    "tunnel": "13.2: a Tunnel Mouth (cliff or incline) or a Deep Tunnel (next to the system)",
    "compel": "19.2: one U.N. unit (not the BOAR) up to three hexes",
    "compel-drop": "14.2: one drop within two hexes of the Generator, moved up to three hexes",
    "enter": "21.0: an eliminated Web Infantry from this turn's edge",
    "move": "7.0: hex by hex (HEXu: underground in a tunnel, 13.4)",
    "reveal": "16.2: turn a Strongpoint face up",
    "drop": "14.1: three units, each adjacent to the other two",
    "lift": "18.1: +UNIT picks up, -UNIT sets down, off leaves the map (18.4)",
    "drill": "17.3: the BOAR above a Deep Tunnel tries again",
    "fire": "10.0: all attackers in range; lose: your units an EX removes (12.6)",
    "demolish": "13.6: a unit that stayed underground; where it goes if the tunnel falls",
    "move2": "15.0: Light Infantry move again after Ranged Combat",
    "retreat": "12.3: standing order for the retreats you choose",
    "underground": "12.3.2: standing order: your units underground stay or retreat",
}


def template(s, role: str) -> str:
    """The comment lines ``role`` edits into orders for the current window: each verb allowed
    with its syntax and rule, then the role's counters (README.md, "Orders")."""
    w = window(s)
    if w is None or role not in w.owed:
        return "# no orders are owed from you now\n"
    out = [f"# Olympica, {w.title}",
           "# orders are carried out phase by phase (6.0), in the order written within a phase"]
    syntax = VERBS.syntax()
    for verb in w.verbs.get(role, ()):
        out.append(f"#   {syntax[verb]}    ({_HELP[verb]})")
    if role == WEB:
        mine = [f"{m}={WEB_NAMES[s.kinds[m]]}@{_where(r)}" for m, r in s.web.items()
                if s.kinds.get(m) and r["status"] in ("map", "box")]
        out.append("# your counters: " + " ".join(mine))
        if s.tunnels_left:
            out.append(f"# tunnel markers in hand: {s.tunnels_left}")
        if s.drops:
            out.append("# the drops: " + "; ".join(
                f"{i} = " + " ".join(f"{u}@{h}" for u, h in d["units"])
                for i, d in enumerate(s.drops, 1)))
    else:
        on = [f"{u}@{_where(r)}" for u, r in s.un.items() if r["status"] == "map"]
        reserve = [u for u, r in s.un.items() if r["status"] == "reserve"]
        out.append("# your units: " + (" ".join(on) or "none on the map"))
        if reserve:
            out.append("# to drop: " + " ".join(reserve))
    return "\n".join(out) + "\n"


def _where(r: dict) -> str:
    if r.get("hex") is None:
        return "unplaced"
    return r["hex"] + ("u" if r["level"] != "surface" else "")


def rules_tables(data: dict) -> str:
    """The unit table (3.1), the CRT with its unverified rows marked, and the Terrain
    Effects, each with its source: put before the kit's list of every sourced value."""
    rules = Rules.from_data(data)
    out = ["Units (3.1): combat strength, movement factor, range in hexes"]
    for kind, t in rules.units.items():
        strength = str(t.strength) if t.ranged else f"({t.strength})"
        out.append(f"  {kind}: {strength}, {t.movement}, {t.range or 'none'}   "
                   f"({data['units'][kind]['source']})")
    out += ["", "Combat Results Table (cells marked [a], [b]... come from the source named "
            "under the table; 'unverified transcription' is GAMES.md's fan transcription, not "
            "checked against the printed table)", format_table(rules.crt)]
    out.append("Terrain Effects")
    for name, t in data["terrain"].items():
        effects = [e for e, on in (("U.N. units stop on entering", t["stops_un"]),
                                   ("avalanche die for U.N. units", t["avalanche"]),
                                   ("combat strength halved", t["halves"])) if on]
        out.append(f"  {t['name']}: {', '.join(effects) or 'no effect'}   ({t['source']})")
    return "\n".join(out) + "\n"


def stand_ins(data: dict, options: dict, board) -> list:
    """The stand-ins and house rules in force for the setup report: the stand-in map, every
    value marked ``stand-in``, ``derived`` (the Strongpoint row, the Web's counter mix) or
    changed by house rules, and the CRT cells that are an unverified transcription
    (GAMES.md)."""
    out = []
    if getattr(board, "stand_in", False):
        where = getattr(board, "map_source", "")
        out.append(f"Map: {board.name}: {where}" if where else f"Map: {board.name}")
    out.extend(sourced.show_entry(e) for e in sourced.walk_sources(data)
               if sourced.in_force(e.source) or e.source.startswith("derived"))
    cells = [f"{die}/{col}" for die, col, cell in Rules.from_data(data).crt.cells()
             if "unverified" in cell.source]
    if cells:
        out.append(f"CRT: {len(cells)} cells (die/odds {', '.join(cells)}) are an unverified "
                   f"transcription (GAMES.md, Olympica): marked so by `pbem rules olympica`; "
                   f"a referee with the printed table overrides them with --house-rules.")
    return out


__all__ = ["UN", "rules_tables", "stand_ins", "template"]
