"""Helpers for the Atlantis tests: scripted dice and hand-built positions (no tests here).

Positions are built on the stand-in board (pbem/games/atlantis/map.toml): the island is the 37
hexes within 3 of 0707, the centre the 7 within 1, safe islands at 0101, 1301, 0113, 1313, sea
elsewhere. :func:`position` starts from a setup made with dice that never shuffle and always
roll 1, then puts every piece where the test says.
"""

from __future__ import annotations

from pbem.engine.ruleset import Chance, Order
from pbem.games.atlantis import ruleset
from pbem.games.atlantis.state import Person
from pbem.games.atlantis.windows import deal_hidden


class Scripted:
    """Dice that return the given rolls in order (then 1s), never reorder a shuffle, and log
    every draw as ``(sides, why)``."""

    def __init__(self, rolls=()):
        self.rolls = list(rolls)
        self.log = []

    def roll(self, sides, why):
        value = self.rolls.pop(0) if self.rolls else 1
        assert 1 <= value <= sides, (value, sides, why)
        self.log.append((sides, why))
        return value

    def shuffle(self, items, why):
        self.log.append(("shuffle", len(items), why))
        return list(items)


def chance(rolls=(), hidden=()):
    return Chance(Scripted(rolls), Scripted(hidden))


def position(seats=("red", "green"), options=None, house=None, people=None, ships=None,
             creatures=None, symbols=None, phasing=None, sunk=(), kept=None, standing=None,
             calm=True):
    """A player-turn position on the stand-in board.

    ``people``: ``{pid: where}`` with where ``"land:0707"``, ``"sea:0505"``, ``"ship:ship1"``,
    ``"safe:0101"``, ``"dead"``; people not named stay on the centre tiles (three to a tile, in
    seat and number order, so they stay out of the way). ``ships``/``creatures``: ``{id: hex}``.
    ``symbols``: ``{hex: symbol}`` set under tiles; with ``calm`` every other tile hides a
    Dolphin dives (a kept tile: sinking it changes nothing on the board). ``sunk``: hexes whose
    tiles are gone (sea).
    """
    opts = ruleset.validate_options(options or {})
    data = ruleset.load_data(house)
    hexmap = ruleset.load_map(None, "stand-in")
    s, _ = ruleset.setup(list(seats), opts, data, hexmap, chance())
    deal_hidden(s, chance())
    for h in sunk:
        del s.tiles[h]
        s.symbols.pop(h, None)
    parking = [h for h in sorted(hexmap.group("centre")) if h in s.tiles] + \
              [h for h in sorted(s.tiles) if h not in hexmap.group("centre")]
    slots = [h for h in parking for _ in range(3)]
    people = people or {}
    for pid, p in s.people.items():
        spec = people.get(pid)
        if spec is None:
            p.where, p.hex = "land", slots.pop(0)
            continue
        kind, _, where = spec.partition(":")
        p.where = kind
        if kind == "ship":
            p.ship = where
        elif kind in ("land", "sea", "safe"):
            p.hex = where
    for pid in people:
        assert pid in s.people, pid
    s.ships = dict(ships or {})
    s.creatures = dict(creatures or {})
    for pid in list(s.ships) + list(s.creatures):
        kind = pid.rstrip("0123456789")
        s.placed[kind] = max(s.placed.get(kind, 0), int(pid[len(kind):]))
    if calm:
        for h in s.tiles:
            s.symbols[h] = "dolphin-dives"
    for h, sym in (symbols or {}).items():
        s.symbols[h] = sym
    for role, tiles in (kept or {}).items():
        s.kept[role] = list(tiles)
        s.kept_count[role] = len(tiles)
    for role, orders in (standing or {}).items():
        s.standing[role].update(orders)
    s.stage = "turn"
    s.turn = 1
    s.phasing = phasing or seats[0]
    return s


def orders(role, text, s):
    """Parse ``text`` as ``role``'s orders for the current window of ``s``; fail on problems."""
    parsed, problems = ruleset.parse(role, ruleset.window(s), text, 1)
    assert not problems, problems
    return parsed


def run(s, text=None, role=None, rolls=(), others=None):
    """Resolve the current window with ``role``'s (default: the phasing role's) orders
    ``text`` (None: NMR) and the public die rolling ``rolls``; returns the Resolution and the
    dice used."""
    role = role or s.phasing
    by_role = {} if text is None else {role: orders(role, text, s)}
    for other, body in (others or {}).items():
        by_role[other] = orders(other, body, s)
    dice = chance(rolls)
    res = ruleset.resolve(s, by_role, dice)
    return res, dice


def texts(res):
    return [e.text for e in res.events]


def public_texts(res):
    return [e.text for e in res.events if e.public]


def problems(res, role):
    return [p.why for p in res.problems.get(role, [])]


def order(verb, **args):
    return Order(1, verb, verb, args)


def where(s, pid):
    p = s.people[pid]
    if p.where == "ship":
        return f"ship:{p.ship}"
    if p.where in ("land", "sea", "safe"):
        return f"{p.where}:{p.hex}"
    return p.where


__all__ = ["Person", "Scripted", "chance", "position", "orders", "run", "texts",
           "public_texts", "problems", "order", "where"]
