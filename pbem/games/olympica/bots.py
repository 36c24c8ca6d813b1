"""The random bot (``bot_orders``): legal orders chosen from the role's own view.

Candidate lines are made for the window (placements, drops of three mutually adjacent hexes,
moves toward the enemy or the dotted area, ranged attacks on what is in range, a compulsion),
shuffled with ``rng``, and each is kept only when the whole order set with it still meets no
problem in :func:`~.checking.check` (the dry run the receipts use), so the bot's orders raise
no problem when sent.
"""

from __future__ import annotations

from pbem.boards.levels import Place
from pbem.engine.randombot import keep_legal

from . import checking
from .lifters import evacuation_ready
from .orders import VERBS
from .setup import placement_problem
from .state import UN, WEB, from_view

MAX_LINES = 24


def _ok(s, role: str, window, lines: list) -> bool:
    orders, problems = VERBS.parse(role, window, "\n".join(lines), 1)
    return not problems and not checking.check(s, role, orders)


def bot_orders(view: dict, window, role: str, rng) -> str:
    """An order body for ``role`` in ``window``, from ``view`` and ``rng`` only."""
    s = from_view(view)
    if window.phase == "setup":
        return "\n".join(_setup(s, rng)) + "\n"
    if window.phase == "forces":
        if rng.random() < 0.5:
            for line in (["substitute infantry", "substitute strongpoint"] if role == WEB
                         else ["substitute light 2", "substitute heavy 1"]):
                if _ok(s, role, window, [line]):
                    return line + "\n"
        return "\n"
    lines = keep_legal(_candidates(s, role, window, rng),
                       lambda lines: _ok(s, role, window, lines), rng, most=MAX_LINES)
    return "\n".join(lines) + "\n"


def _setup(s, rng) -> list:
    """Every Web marker placed near the dotted area, the free tunnels of 4.3 too."""
    dotted = list(s.board.group("dotted"))
    near = sorted({h for d in dotted for h in s.board.within(d, 4)})
    lines = []
    order = sorted(s.web, key=lambda m: s.kinds[m] != "generator")
    for m in order:
        pool = dotted if s.kinds[m] == "generator" else near
        for _ in range(60):
            h = rng.choice(pool)
            if placement_problem(s, m, Place(h)) is None:
                s.web[m].update(status="map", hex=h, level="surface")
                lines.append(f"place {m} {h}")
                break
    if s.scenario.get("free_tunnels_when") == "setup":
        lines += _tunnels(s, rng, s.tunnels_left or 0)
    return lines


def _tunnels(s, rng, n: int) -> list:
    out = []
    t = s.tunnel_map()
    hexes = sorted({nb for h in s.tunnels for nb in s.board.neighbours(h)} - set(s.tunnels))
    rng.shuffle(hexes)
    for h in hexes:
        if len(out) >= n:
            break
        kind = "mouth" if s.board.terrain(h) in ("cliff", "incline") and rng.random() < 0.5 \
            else "deep"
        if t.placement_problem(s.board, h, kind) is None and not any(
                s.kinds.get(m) == "strongpoint" and r["hex"] == h for m, r in s.web.items()):
            t = t.with_marker(h, kind)
            out.append(f"tunnel {kind} {h}")
    return out


def _target(s, role: str) -> str:
    """Where the role's units head: the Generator's hex when known, else the dotted area."""
    gen = s.generator()
    if role == UN and gen and s.web[gen]["status"] == "map":
        return s.web[gen]["hex"]
    dotted = s.board.group("dotted")
    return dotted[len(dotted) // 2]


def _drops(s, rng, n: int) -> list:
    reserve = [u for u, r in s.un.items() if r["status"] == "reserve"]
    rng.shuffle(reserve)
    centre = _target(s, UN)
    area = list(s.board.within(centre, 6))
    out = []
    for i in range(min(n, (len(reserve) + 2) // 3)):
        units = reserve[3 * i: 3 * i + 3]
        for _ in range(20):
            h = rng.choice(area)
            nbs = list(s.board.neighbours(h))
            rng.shuffle(nbs)
            pair = next(((a, b) for a in nbs for b in nbs if a < b and s.board.adjacent(a, b)),
                        None)
            if pair is None:
                continue
            hexes = [h, *pair][:len(units)]
            if any(s.un[u]["kind"] in ("un-lifter", "un-boar")
                   and s.board.terrain(x) != "clear" for u, x in zip(units, hexes)):
                continue
            out.append("drop " + " ".join(f"{u} {x}" for u, x in zip(units, hexes)))
            break
    return out


def _path(s, side: str, uid: str, goal: str, rng) -> list:
    here = s.rec(side, uid)["hex"]
    steps = s.utype(side, uid).movement
    path = []
    for _ in range(rng.randint(1, max(1, steps))):
        nbs = sorted(s.board.neighbours(here), key=lambda n: (s.board.distance(n, goal),
                                                               rng.random()))
        if not nbs or s.board.distance(nbs[0], goal) >= s.board.distance(here, goal):
            break
        here = nbs[0]
        path.append(here)
    return path


def _fires(s, role: str) -> list:
    enemy = s.other(role)
    out = []
    shooters = [u for u in s.on_map(role) if s.kind(role, u) and s.is_unit(role, u)
                and s.utype(role, u).ranged]
    for t in s.on_map(enemy):
        if s.is_unit(enemy, t) is False:
            continue
        by = [u for u in shooters if s.board.distance(s.rec(role, u)["hex"],
                                                      s.rec(enemy, t)["hex"])
              <= s.utype(role, u).range]
        if by:
            out.append(f"fire {t} by {' '.join(by[:3])}")
    return out


def _candidates(s, role: str, window, rng) -> list:
    if window.phase == "compel":
        out = []
        for i, d in enumerate(s.drops, 1):
            h = d["units"][0][1]
            out += [f"compel-drop {i} {x}" for x in s.board.within(h, 2) if x != h][:4]
        return out
    if window.phase == "drop":
        return _drops(s, rng, 3)
    out = []
    enemy = s.other(role)
    if role == UN:
        out += _drops(s, rng, 2)
    goal = _target(s, role)
    for u in s.on_map(role):
        if not s.kind(role, u) or not s.is_unit(role, u) or s.kind(role, u) == "un-lifter":
            continue
        if s.utype(role, u).movement == 0:
            continue
        foes = [s.rec(enemy, f)["hex"] for f in s.on_map(enemy)]
        g = goal if role == UN or not foes else min(
            foes, key=lambda h: s.board.distance(h, s.rec(role, u)["hex"]))
        path = _path(s, role, u, g, rng)
        if path:
            out.append(f"move {u} {' '.join(path)}")
            if s.kind(role, u) == "un-light-infantry":
                out.append(f"move2 {u} {path[0]}")
    out += _fires(s, role)
    if role == WEB and not s.broken:
        for u in s.on_map(UN)[:6]:
            h = s.un[u]["hex"]
            out.append(f"compel {u} {rng.choice(s.board.neighbours(h))}")
    if role == WEB and s.advanced and s.tunnels_left:
        out += _tunnels(s, rng, 1)
    if role == WEB:
        out += _entries(s, rng)
        out += [f"reveal {m}" for m in s.on_map(WEB)
                if s.kinds.get(m) == "strongpoint" and not s.web[m].get("face_up")][:1]
    else:
        out += _lifts(s, rng)
        out += [f"drill {u}" for u in s.on_map(UN) if s.un[u]["kind"] == "un-boar"
                and s.tunnels.get(s.un[u]["hex"]) == "deep" and s.un[u]["level"] == "surface"]
    if s.option("demolition"):
        out += [f"demolish {u} {nb}" for u in s.on_map(role)
                if s.rec(role, u)["level"] != "surface"
                for nb in s.board.neighbours(s.rec(role, u)["hex"])[:1]]
    return out


def _walk(s, start: str, goal: str, n: int, avoid=frozenset()) -> list:
    """Up to ``n`` hexes of a shortest way from ``start`` toward ``goal`` through no hex of
    ``avoid`` (but ``goal``), breadth first, ties by label; [] when there is none."""
    from collections import deque
    back, todo = {start: None}, deque([start])
    while todo:
        here = todo.popleft()
        if here == goal:
            break
        for nb in sorted(s.board.neighbours(here)):
            if nb not in back and (nb == goal or nb not in avoid):
                back[nb] = here
                todo.append(nb)
    if goal not in back:
        return []
    path, here = [], goal
    while here != start:
        path.append(here)
        here = back[here]
    return path[::-1][:n]


def _entries(s, rng) -> list:
    """Web reinforcements (21.0): from a hex of this turn's edge, two hexes inward."""
    from .movement import entry_edge
    edge = list(s.board.group(entry_edge(s)))
    centre = _target(s, WEB)
    out = []
    for m, r in s.web.items():
        if r["status"] == "eliminated" and s.kinds.get(m) == "web-infantry":
            h = rng.choice(edge)
            out.append(f"enter {m} {h} {' '.join(_walk(s, h, centre, 2))}".strip())
    return out[:4]


def _lifts(s, rng) -> list:
    """A Lifter flies to a friendly unit, picks it up and sets it down nearer the goal; or,
    when it may evacuate the Generator (18.4), carries it off the nearest edge."""
    out = []
    goal = _target(s, UN)
    webs = frozenset(r["hex"] for r in s.web.values()
                     if r["status"] == "map" and r["level"] == "surface")
    for f in s.on_map(UN):
        if s.un[f]["kind"] != "un-lifter":
            continue
        here = s.un[f]["hex"]
        if f in s.evacuation and f in evacuation_ready(s):
            edge = min((h for h in s.board.labels() if len(s.board.neighbours(h)) < 6),
                       key=lambda h: (s.board.distance(here, h), h))
            route = _walk(s, here, edge, 24, webs)
            out.append(f"lift {f} +gen {' '.join(route)} off")
        others = [u for u in s.on_map(UN) if u != f and s.un[u]["kind"] != "un-lifter"
                  and s.un[u]["level"] == "surface"]
        if not others:
            continue
        u = rng.choice(others)
        there = s.un[u]["hex"]
        leg1 = _walk(s, here, there, 25, webs)
        leg2 = [h for h in _walk(s, there, goal, rng.randint(2, 6), webs) if h not in webs]
        if leg1 and leg2:
            last = leg2[-1]
            nxt = _walk(s, last, here, 1, webs)
            out.append(f"lift {f} {' '.join(leg1)} +{u} {' '.join(leg2)} -{u} "
                       f"{' '.join(nxt)}".replace("  ", " "))
    return out
