"""Random players for Escape from Altassar (``pbem demo altassar`` and the random-games tests).

A bot sees only its role's view (:func:`~.state.from_view`), so it cannot use a hidden fact.
It writes plausible orders (prisoners run for the exit edge, the Spikus chase the nearest
counter), then reads them back through the game's verb table (:data:`.orders.TABLE`, the reader
a player's lines go through) and the ruleset's own check, and drops every line either refuses,
so what it mails is legal.
"""

from __future__ import annotations

import random

from pbem.boards.hexgrid import DIRECTIONS
from pbem.boards.paths import reachable
from pbem.engine.ruleset import Window

from . import checking
from .movement import step_cost
from .orders import TABLE
from .state import CONFEDERATION, SPIKUS, State, from_view


def bot_orders(v: dict, w: Window, role: str, rng: random.Random) -> str:
    """An order body for ``role`` in window ``w`` from the view ``v`` only."""
    if not w.accepts(role):
        return ""
    s = from_view(v)
    lines: list = []
    if rng.random() < 0.1:
        lines += _standing(s, role, rng)
    if role in w.owed:
        if w.phase == "breakout":
            lines += _breakout(s, rng)
        elif w.phase == "posts":
            cols = range(6, s.hexmap.columns - 3)
            picks = set()
            while len(picks) < 4:
                picks.add(f"{rng.choice(cols):02d}{rng.randint(1, s.hexmap.rows):02d}")
            lines += [f"post {h}" for h in sorted(picks)]
        elif w.phase == "evasion":
            for h in (s.pending or {}).get("ask", []):
                lines.append(f"evade {h} {rng.choice(['flight', 'flight', 'camouflage', 'none'])}")
        elif s.stage == "movement":
            lines += _movement(s, role, rng)
            if rng.random() < 0.2:
                lines.append("combat later")
            else:
                lines += _attacks(s, role, rng, after_moves=True)
        elif s.stage == "combat":
            lines += _attacks(s, role, rng, after_moves=False)
    return _legal(s, w, role, lines)


def _legal(s: State, w: Window, role: str, lines: list) -> str:
    """Keep only the lines the ruleset accepts (read through the verb table, one order per line
    numbered from 1, then checked on the bot's own view)."""
    for _ in range(6):
        body = "\n".join(lines) + "\n"
        orders, problems = TABLE.parse(role, w, body, 1)
        known = from_view(_view_copy(s, role))
        problems += checking.check(known, role, orders)
        bad = {p.line for p in problems if p.line is not None}
        if not bad:
            return body
        lines = [ln for i, ln in enumerate(lines, start=1) if i not in bad]
    return ""


def _view_copy(s: State, role: str) -> dict:
    from .state import view

    return view(s, role)


def _standing(s: State, role: str, rng: random.Random) -> list:
    if role == CONFEDERATION:
        return [f"evasion {rng.choice(['flight', 'camouflage', 'none', 'ask'])}"]
    return []


def _costs(s: State, kind: str, side: str):
    enemy = s.enemy_hexes(side)

    def cost(a, b):
        return None if b in enemy else step_cost(s, kind, b)
    return cost


def _breakout(s: State, rng: random.Random) -> list:
    prison = s.prison()
    taken: set = set()
    lines = []
    for name in sorted(s.units):
        kind = s.units[name]["kind"]
        start = rng.choice(prison)
        budget = s.value(kind, "movement") * s.rules["breakout_factor"]
        reach = reachable(s.hexmap, start, _costs(s, kind, CONFEDERATION), budget)
        spots = [h for h in reach if h not in taken and h not in prison]
        if not spots:
            continue
        spots.sort(key=lambda h: (-int(h[:2]), rng.random()))
        end = rng.choice(spots[:6])
        taken.add(end)
        lines.append(f"move {name} from {start} to {end}")
    return lines


def _movement(s: State, role: str, rng: random.Random) -> list:
    lines = []
    taken: set = set()
    if role == CONFEDERATION:
        exit_ = set(s.hexmap.group("exit"))
        for name, u in sorted(s.units.items(), key=lambda kv: rng.random()):
            rec = s.markers[u["marker"]]
            if rec["where"] != "map" or rng.random() < 0.1:
                continue
            kind = u["kind"]
            if rec["hex"] in exit_ and rng.random() < 0.8:
                lines.append(f"move {name} off")
                continue
            reach = reachable(s.hexmap, rec["hex"], _costs(s, kind, role), s.value(kind, "movement"))
            spots = [h for h in reach if h not in taken and h != rec["hex"]
                     and not s.markers_at(h)]
            if not spots:
                continue
            spots.sort(key=lambda h: (-int(h[:2]), rng.random()))
            end = rng.choice(spots[:4])
            taken.add(end)
            lines.append(f"move {name} to {end}")
        return lines
    foes = [r["hex"] for r in s.markers.values() if r["where"] == "map"]
    stunned = [r["hex"] for r in s.markers.values() if r["where"] == "map"
               and r.get("stun_end") is not None and r.get("kind") not in (None, "dummy")]
    soldiers_box = [u for u, r in sorted(s.spikus.items()) if r["kind"] == "soldier" and r["where"] == "box"]
    for n, r in sorted(s.spikus.items()):
        if r["kind"] == "trip-net" and r["where"] == "box" and soldiers_box and rng.random() < 0.7:
            lines.append(f"carry {n} {rng.choice(soldiers_box[:3])}")
    for u, r in sorted(s.spikus.items(), key=lambda kv: rng.random()):
        kind = r["kind"]
        if kind in ("signal-post", "trip-net") or r["where"] not in ("map", "box"):
            continue
        start = r["hex"] or rng.choice(s.prison())
        targets = stunned if kind == "wagon" and stunned else foes
        reach = reachable(s.hexmap, start, _costs(s, kind, SPIKUS), s.value(kind, "movement"))
        if kind == "wagon":
            for h in stunned:
                if any(s.hexmap.adjacent(h, x) for x in reach):
                    reach[h] = 0
        spots = [h for h in reach if h not in taken]
        if not spots or not targets:
            continue
        spots.sort(key=lambda h: (min(s.hexmap.distance(h, t) for t in targets), rng.random()))
        end = rng.choice(spots[:3])
        taken.add(end)
        prefix = f"move {u} from {start}" if r["where"] == "box" else f"move {u}"
        lines.append(f"{prefix} to {end}")
    for n, r in sorted(s.spikus.items()):
        if r["kind"] != "trip-net" or r["where"] != "map" or rng.random() < 0.5:
            continue
        for d in DIRECTIONS:
            line = s.hexmap.line(r["hex"], d, s.rules["net_range"])
            if any(s.markers_at(h) for h in line):
                lines.append(f"launch {n} {d} {rng.choice(['start', 'end'])}")
                break
    return lines


def _attacks(s: State, role: str, rng: random.Random, after_moves: bool) -> list:
    """Attacks from the current position (for orders sent with movement, from where the
    units stand now: some will be refused by the check and dropped)."""
    lines = []
    used: set = set()
    if role == SPIKUS:
        mine = {u: r for u, r in s.spikus.items() if r["where"] == "map"
                and s.value(r["kind"], "attack") > 0}
        targets = sorted({r["hex"] for r in s.markers.values() if r["where"] == "map"})
        for t in rng.sample(targets, len(targets)):
            units = [u for u, r in sorted(mine.items()) if u not in used
                     and 1 <= s.hexmap.distance(r["hex"], t) <= max(1, s.value(r["kind"], "range"))]
            if units and rng.random() < 0.8:
                pick = units[:rng.randint(1, min(4, len(units)))]
                used.update(pick)
                lines.append(f"attack {t} with {' '.join(pick)}")
        return lines
    mine = {n: s.markers[u["marker"]] for n, u in s.units.items()
            if s.markers[u["marker"]]["where"] == "map" and s.value(u["kind"], "attack") > 0}
    targets = sorted({r["hex"] for r in s.spikus.values() if r["where"] == "map"
                      and r["kind"] in ("soldier", "tracker", "wagon", "drystal")})
    for t in rng.sample(targets, len(targets)):
        units = [n for n, r in sorted(mine.items()) if n not in used
                 and 1 <= s.hexmap.distance(r["hex"], t) <= s.value(s.units[n]["kind"], "range")]
        if units and rng.random() < 0.4:
            pick = units[:rng.randint(1, min(3, len(units)))]
            used.update(pick)
            lines.append(f"attack {t} with {' '.join(pick)}")
    return lines
