"""Texts of Escape from Altassar: ``pbem rules altassar``, the stand-ins of the setup report
and the order template of each window (the map is drawn by :mod:`.draw`)."""

from __future__ import annotations

from pbem.combat import CombatTable, format_table
from pbem.engine.sourced import source_of, walk_sources

from .data import CONFEDERATION_KINDS, OPTIONS, SPIKUS_KINDS, VALUES
from .state import CONFEDERATION, SPIKUS


def rules_text(data: dict, options: dict | None = None, specs: dict = OPTIONS) -> str:
    """Every table with every cell's source: the Terrain Effects Chart (5.31), the Combat
    Results Table (7.71), the counters, the rule numbers and victory points, the options in
    force (``options``: typed values, defaults when None; ``specs``: name -> OptionSpec), for
    ``pbem rules altassar`` (the ruleset's ``rules_text``)."""
    options = options or {}
    out = ["Escape from Altassar: tables and values in force, each with its source.", ""]
    out.append("TERRAIN EFFECTS CHART (5.31, 7.52, 9.0)")
    out.append(f"  {'terrain':<12} {'MP':>3}  {'combat shift':<14} {'evasion':<8} source")
    for t, row in data["terrain"].items():
        shift = row["shift"]
        text = ("none" if shift == 0 else f"{abs(shift)} column {'right' if shift > 0 else 'left'}")
        out.append(f"  {row['name']:<12} {row['cost']:>3}  {text:<14} "
                   f"{'full' if row['evasion_full'] else '-1':<8} {row['source']}")
    out += ["", "COMBAT RESULTS TABLE (7.71)",
            format_table(CombatTable.from_data(data["crt"])), ""]
    out.append("COUNTERS (3.2; values: attack, defense, movement, range, evasion)")
    for kind in SPIKUS_KINDS + CONFEDERATION_KINDS:
        row = data["units"][kind]
        vals = " ".join(f"{v[0].upper()}{row[v]}" for v in VALUES)
        out.append(f"  {row['name']:<20} x{row['count']:<3} {vals}")
        out.append(f"      source: {row['source']}")
        for v, src in sorted((row.get("sources") or {}).items()):
            out.append(f"      {v}: {src}")
    st = data["stacking"]
    out += ["", "STACKING (6.0): a hex's units must fit one of",
            "  " + "; ".join(" + ".join(f"{n} {k}" for k, n in p.items()) for p in st["patterns"]),
            f"  not counted: {', '.join(st['ignored'])}", f"  source: {st['source']}", "",
            "RULE NUMBERS"]
    for key, e in data["rules"].items():
        out.append(f"  {key:<26} {str(e['value']).lower():<5} {e['source']}")
    out += ["", "VICTORY POINTS (20.0)"]
    for key, e in data["victory"].items():
        out.append(f"  {key:<26} {e['value']:<5} {e['source']}")
    out += ["", "OPTIONS (pbem game new --option KEY=VALUE)"]
    for key, spec in specs.items():
        now = options.get(key, spec.default)
        out.append(f"  {key}={now}  ({'|'.join(map(str, spec.choices))}) {spec.help}; "
                   f"{spec.source}")
    return "\n".join(out) + "\n"


def stand_ins(data: dict, options: dict, hexmap) -> list:
    """One line per stand-in or house rule in force, for every setup report: the map, each
    counter value and CRT cell by its own source (:func:`pbem.engine.sourced.source_of`), the
    rule numbers, victory points and terrain rows by the kit's walk, the stacking rule."""
    lines = []
    if hexmap.stand_in:
        lines.append(f"map: {hexmap.name} ({hexmap.source})")
    for kind, row in data["units"].items():
        for v in ("count",) + VALUES:
            src = source_of(row, v) if v != "count" else row["source"]
            if src.startswith("stand-in") or src.startswith("house"):
                lines.append(f"units.{kind}.{v} = {row[v]}: {src}")
    for row in data["crt"]["rows"]:
        for i, col in enumerate(data["crt"]["columns"]):
            src = source_of(row, col, data["crt"]["source"])
            if src.startswith("stand-in") or src.startswith("house"):
                lines.append(f"crt die {row['die']} {col} = {row['results'][i]}: {src}")
    for section in ("rules", "victory", "terrain"):
        for e in walk_sources(data[section], section):
            if e.source.startswith(("stand-in", "house", "derived")):
                val = e.values.get("value", e.values.get("cost"))
                lines.append(f"{e.path} = {str(val).lower()}: {e.source}")
    src = data["stacking"]["source"]
    if "derived" in src or src.startswith("house"):
        lines.append(f"stacking: {src}")
    lines.append("Camouflage (9.3) moving the combat die below 1 or above 6: the first or last "
                 "row is used (docs/combat.md)")
    return lines


def template(s, role: str) -> str:
    """Order lines (comments to edit) for ``role`` in the current window."""
    from .turns import window

    w = window(s)
    if w is None:
        return "# The game is over.\n"
    lines = [f"# {w.title}, turn {w.turn}. Orders: docs/orders-altassar.md"]
    if role not in w.owed:
        lines.append("# You owe no orders now; standing orders may be sent:")
    if w.phase == "breakout" and role == CONFEDERATION:
        prison = s.prison()
        lines.append(f"# move UNIT from PRISON-HEX to HEX   (prison: {', '.join(prison)};"
                     " double movement, 12.1)")
        lines.append("# Every unit needs a line: units left in the prison break the stacking "
                     "limit, and all but one per prison hex are eliminated (12.2).")
        for name in sorted(s.units):
            lines.append(f"# move {name} from {prison[0]} to HEX")
    elif w.phase == "posts" and role == SPIKUS:
        lines.append("# Signal Posts: one line 'post HEX' for each of the four, one per hex "
                     "(13.1)")
        lines += ["# post HEX"] * 4
    elif w.phase == "evasion" and role == CONFEDERATION:
        for h in (s.pending or {}).get("ask", []):
            lines.append(f"# evade {h} flight|camouflage|none   (flight may name the hex of "
                         "the dummy to trade with)")
    elif role in w.owed and s.stage == "combat":
        lines.append("# attack HEX with UNIT ...   (Confederation: a hex or a Spikus unit id)")
        lines += _attack_lines(s, role)
    elif role in w.owed:
        if role == SPIKUS:
            lines.append("# move UNIT [from PRISON-HEX] to HEX | launch NET DIRECTION [HEXES] "
                         "start|end | carry NET SOLDIER")
            lines.append("# attack HEX with UNIT ... | combat later (not both)")
            if s.turn >= s.rules["attrition_from"] \
                    and s.options.get("attrition", "standard") != "alternate":
                lines.append("# attrition SOLDIER   (11.1; default: the soldier farthest from "
                             "every counter)")
            prison = s.prison()
            for u, r in sorted(s.spikus.items()):
                if r["where"] == "box" and r["kind"] == "trip-net":
                    lines.append(f"# carry {u} SOLDIER   (in the prison: carried onto the map, "
                                 "14.1)")
                elif r["where"] == "box" and r["kind"] != "signal-post":
                    lines.append(f"# move {u} from {prison[0]} to HEX   ({r['kind']} in the "
                                 f"prison; enters from a prison hex: {', '.join(prison)})")
                elif r["where"] == "map" and r["kind"] not in ("signal-post", "trip-net"):
                    lines.append(f"# move {u} to HEX   ({r['kind']} at {r['hex']})")
        else:
            lines.append("# move UNIT to HEX [off] | attack HEX-or-UNIT with UNIT ... | "
                         "combat later (not both)")
            for name, u in sorted(s.units.items()):
                r = s.markers[u["marker"]]
                if r["where"] == "map":
                    lines.append(f"# move {name} to HEX   (at {r['hex']})")
    std = "evasion flight|camouflage|none|ask; escape always|never; losses UNIT ..." \
        if role == CONFEDERATION else "retreat UNIT HEX HEX HEX; renewal SOLDIER ...; losses SOLDIER ..."
    lines.append(f"# standing orders: {std}")
    return "\n".join(lines) + "\n"


def _attack_lines(s, role: str) -> list:
    """One commented attack line per unit of ``role`` that may attack now."""
    from .combat import why_cannot_attack

    out = []
    if role == SPIKUS:
        for u, r in sorted(s.spikus.items()):
            if r["where"] == "map" and not why_cannot_attack(s, role, u):
                out.append(f"# attack HEX with {u}   ({r['kind']} at {r['hex']})")
    else:
        for name, u in sorted(s.units.items()):
            if not why_cannot_attack(s, role, name):
                out.append(f"# attack HEX-or-UNIT with {name}   (at {s.markers[u['marker']]['hex']})")
    return out
