"""Random legal orders from a view, for tests, demonstrations and filling seats.

The bot sees only what its role may know (:func:`~pbem.games.atlantis.state.view`): it
rebuilds a partial state from the view and tries candidate orders on it with the same order
handlers that carry orders out, keeping those that are legal. Every line it writes is read
back through the game's verb table (:func:`.orders.read`, the reader a player's lines go
through), so what it tries is exactly what the judge will read. It leans towards safety (going
ashore, sailing its people towards a safe island) so that games end the way real ones do.
"""

from __future__ import annotations

import random

from pbem.engine.orderlines import OrderSyntaxError
from pbem.engine.ruleset import Window

from .data import DIVES, KILLS
from .moves import MOVES, Turn, creature_problem, play
from .orders import read
from .state import State, from_view, piece_kind
from .table import GameOver, Table


def bot_orders(v: dict, w: Window, role: str, rng: random.Random) -> str:
    """An order body of random legal orders for ``role`` in window ``w``, built from the view
    ``v`` only (no hidden fact is available to it)."""
    if not w.accepts(role):
        return ""
    s = from_view(v)
    verbs = w.verbs.get(role, [])
    lines: list[str] = []
    if w.phase == "setup":
        lines = _placement(s, role, rng)
    else:
        if "standing" in verbs and rng.random() < 0.3:
            tile = rng.choice(["kill-shark", "kraken-killed"])
            lines.append(f"standing {tile} {rng.choice(['on', 'off'])}")
        if role == s.phasing and s.stage == "creature":
            lines += _creature_window(s, rng)
        elif role == s.phasing and s.stage == "turn":
            lines += _turn(s, role, rng)
    return "\n".join(ln for ln in lines if _reads(ln)) + "\n"


def _reads(text: str) -> bool:
    """Whether the verb table reads the line ``text`` (a line it cannot read is never sent)."""
    try:
        read(text)
    except OrderSyntaxError:
        return False
    return True


def _placement(s: State, role: str, rng: random.Random) -> list:
    cap = s.rules.land_capacity
    island = sorted(s.tiles)
    people = []
    count: dict = {}
    while len(people) < s.rules.per_player:
        h = rng.choice(island)
        if count.get(h, 0) < cap:
            count[h] = count.get(h, 0) + 1
            people.append(h)
    # Preparing to Play 2: the bot knows its numbers while placing; it puts the highest values
    # on the tiles nearest a safe island (the likeliest to get away), ties in list order
    order = sorted(range(len(people)), key=lambda i: _safe_distance(s, people[i]))
    values = sorted(s.rules.values, reverse=True)
    entry = [""] * len(people)
    for i, v in zip(order, values):
        entry[i] = f"{people[i]}={v}"
    coast = [h for h in s.hexmap.labels() if s.is_sea(h)
             and any(n in s.tiles for n in s.hexmap.neighbours(h))]
    ships = rng.sample(coast, min(len(coast), s.options.get("ships", 1) + 2))
    far = [h for h in s.hexmap.labels() if s.is_sea(h)
           and all(s.hexmap.distance(h, i) > s.rules.monster_distance for i in island)]
    monsters = rng.sample(far, min(len(far), s.rules.monsters_per_player + 2))
    return [f"people {' '.join(entry)}", f"ship {' '.join(ships)}",
            f"monster {' '.join(monsters)}"]


def _safe_distance(s: State, h: str) -> int:
    return min(s.hexmap.distance(h, x) for x in s.hexmap.hexes("safe"))


def _candidates(s: State, role: str, turn: Turn) -> list:
    """``(weight, order text)`` for single-step moves that look legal now."""
    out = []
    hm = s.hexmap
    for p in s.people.values():
        if p.owner != role or not p.alive:
            continue
        here = s.hex_of(p)
        if p.where in ("sea", "ship"):
            for n in hm.neighbours(here):
                if s.is_safe(n):
                    out.append((50, f"ashore {p.id} {n}"))
        if p.where == "land":
            for n in hm.neighbours(here):
                if n in s.tiles:
                    out.append((2, f"walk {p.id} {n}"))
                elif s.is_sea(n):
                    sid = s.ship_at(n)
                    if sid:
                        out.append((8, f"board {p.id} {n}"))
                    out.append((1, f"swim {p.id} {n}"))
        elif p.where == "ship":
            for n in hm.neighbours(here):
                if s.ship_at(n):
                    out.append((2, f"board {p.id} {n}"))
            out.append((0.2, f"swim {p.id} {here}"))
        elif p.where == "sea":
            sid = s.ship_at(here)
            if sid:
                out.append((10, f"board {p.id} {here}"))
            dolphins = [c for c in s.creatures_at(here)
                        if piece_kind(c) == "dolphin" and c not in s.held]
            for n in hm.neighbours(here):
                if s.is_sea(n):
                    closer = _safe_distance(s, n) < _safe_distance(s, here)
                    w = 4 if closer else 1
                    out.append((w, f"swim {p.id} {n}"))
                    for d in dolphins:
                        out.append((w, f"swim {p.id} {n} with {d}"))
    for sid, here in s.ships.items():
        crew = s.passengers(sid)
        mine = sum(1 for p in crew if p.owner == role)
        for n in hm.neighbours(here):
            if not s.is_sea(n) or s.ship_at(n):
                continue
            w = 1.0
            if mine:
                w = 12 if _safe_distance(s, n) < _safe_distance(s, here) else 2
            elif crew:
                w = 0.5
            out.append((w, f"sail {sid} {n}"))
    return out


def _try(t: Table, turn: Turn, text: str) -> bool:
    """Carry out the order line ``text`` (read through the verb table) on the simulated
    table; whether it was legal."""
    try:
        order = read(text)
    except OrderSyntaxError:
        return False
    try:
        return MOVES[order.verb](t, turn, order) is None
    except GameOver:
        return True


def _turn(s: State, role: str, rng: random.Random) -> list:
    lines = []
    t = Table(s, simulate=True)
    turn = Turn.begin(s, role)
    try:
        for tile in list(s.kept.get(role, [])):
            if tile is None or rng.random() < 0.5:
                continue
            kind = DIVES.get(tile) or KILLS.get(tile)
            cids = sorted(c for c in s.creatures if piece_kind(c) == kind)
            if not cids:
                continue
            cid = rng.choice(cids)
            if tile in DIVES:
                empty = [h for h in s.hexmap.labels() if s.is_sea(h) and s.empty(h)]
                if not empty:
                    continue
                text = f"play {tile} {cid} {rng.choice(empty)}"
            else:
                text = f"play {tile} {cid}"
            if play(t, turn, read(text)) is None:
                lines.append(text)
        for _ in range(12):
            if turn.points <= 0 or rng.random() < 0.1:
                break
            options = _candidates(s, role, turn)
            rng.shuffle(options)
            options.sort(key=lambda x: -x[0] * rng.random())
            for _, text in options:
                if _try(t, turn, text):
                    lines.append(text)
                    break
            else:
                break
            if s.over:
                return lines
        sinkable = s.sinkable()
        if not sinkable:
            return lines
        h = rng.choice(sinkable)
        lines.append(f"sink {h}")
        t.sink(role, h)
    except GameOver:
        return lines
    lines += _conditionals(s, h, rng)
    return lines


def _creature_path(s: State, cid: str, rng: random.Random) -> list:
    here = s.creatures[cid]
    path = []
    for _ in range(rng.randint(1, max(1, s.rules.max_move[piece_kind(cid)]))):
        seas = [n for n in s.hexmap.neighbours(here) if s.is_sea(n)]
        if not seas:
            break
        here = rng.choice(seas)
        path.append(here)
    return path


def _conditionals(s: State, sunk: str, rng: random.Random) -> list:
    """``if`` lines for some faces, naming only creatures out of reach of a vortex under the
    tile just sunk (the bot cannot know the symbol) and no dolphin held on a nearly safe space
    (The Safe Islands), so every line stays legal."""
    lines = []
    risky = set(s.hexmap.neighbours(sunk)) | {sunk}
    for name, face in zip(s.rules.face_names, s.rules.faces):
        if rng.random() < 0.3:
            continue
        cids = sorted(c for c in s.creatures if piece_kind(c) in face and c not in s.held
                      and s.creatures[c] not in risky and s.rules.max_move[piece_kind(c)] > 0)
        if not cids or rng.random() < 0.2:
            lines.append(f"if {name}: stay")
            continue
        cid = rng.choice(cids)
        path = _creature_path(s, cid, rng)
        if not path:
            lines.append(f"if {name}: stay")
            continue
        lines.append(f"if {name}: {cid} {' '.join(path)}")
    return lines


def _creature_window(s: State, rng: random.Random) -> list:
    name = s.pending["face"]
    face = s.rules.faces[s.rules.face_names.index(name)]
    cids = sorted(c for c in s.creatures if piece_kind(c) in face and c not in s.held)
    if not cids or rng.random() < 0.15:
        return ["creature stay"]
    cid = rng.choice(cids)
    path = _creature_path(s, cid, rng)
    if not path:
        return ["creature stay"]
    text = f"creature {cid} {' '.join(path)}"
    if creature_problem(s, read(text), face) is not None:
        return ["creature stay"]
    return [text]
