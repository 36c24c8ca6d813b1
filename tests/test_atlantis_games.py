"""Whole games of random legal orders (bot_orders for every window), checking the rules'
invariants after every window: people conserved (Preparing to Play 2: 10 each), at most 3
people per tile (Land Movement) and per ship (Ship Movement), one ship per sea space (Ship
Movement), nothing on land but people on tiles, no problems with the bots' orders, and an end
within 37 player-turns (one tile sinks each player-turn and the Game Ends tile is one of the 37:
Part of the Island sinks, Symbols Under Tiles).

Chance comes from the real verifiable dice (pbem.dice.DiceStream), one public stream per phase
and one hidden stream per game, as the engine does.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from pbem.dice import DiceStream
from pbem.engine.ruleset import PUBLIC, Chance
from pbem.games.atlantis import ruleset


def check_invariants(s):
    rules = s.rules
    per_role = Counter()
    tiles = Counter()
    ships = Counter()
    for p in s.people.values():
        per_role[p.owner] += 1
        assert p.where in ("land", "ship", "sea", "safe", "dead"), p
        if p.where == "land":
            assert p.hex in s.tiles, p
            tiles[p.hex] += 1
        elif p.where == "ship":
            assert p.ship in s.ships, p
            ships[p.ship] += 1
        elif p.where == "sea":
            assert s.is_sea(p.hex), p
        elif p.where == "safe":
            assert s.hexmap.terrain(p.hex) == "safe", p
    assert all(per_role[r] == rules.per_player for r in s.seats)
    assert all(n <= rules.land_capacity for n in tiles.values())
    assert all(n <= rules.ship_capacity for n in ships.values())
    assert len(set(s.ships.values())) == len(s.ships)          # one ship per hex
    for h in list(s.ships.values()) + list(s.creatures.values()):
        assert s.is_sea(h), h
    for kind in ("ship", "shark", "kraken", "monster", "dolphin"):
        assert s.placed.get(kind, 0) <= rules.pieces[kind]
    assert sum(s.kept_count.values()) == sum(len(v) for v in s.kept.values())
    assert len(s.tiles) + len(s.sunk) == 37


def play_game(seed, seats, options):
    rng = random.Random(seed)
    hidden = DiceStream(seed.to_bytes(4, "big") * 8, f"g{seed}", "game", {}, hidden=True)

    def chance(phase):
        return Chance(DiceStream((seed * 7919).to_bytes(4, "big") * 8, f"g{seed}", phase,
                                 {"x": phase}), hidden)

    s, events = ruleset.setup(seats, ruleset.validate_options(options), ruleset.load_data(),
                              ruleset.load_map(None, "stand-in"), chance("0.setup"))
    player_turns = 0
    windows = 0
    while True:
        w = ruleset.window(s)
        if w is None:
            break
        windows += 1
        if w.phase in s.seats:
            player_turns += 1
        by_role = {}
        for role in w.owed + w.optional:
            if rng.random() < 0.04:
                continue                      # no orders from this role (NMR)
            body = ruleset.bot_orders(ruleset.view(s, role), w, role, rng)
            parsed, problems = ruleset.parse(role, w, body, 1)
            assert problems == [], (body, problems)
            assert ruleset.check(s, role, parsed) == [], (w, role, body)
            if role in w.owed or parsed:
                by_role[role] = parsed
        res = ruleset.resolve(s, by_role, chance(w.phase_id))
        assert all(not v for v in res.problems.values()), (w, by_role, res.problems)
        for e in res.events:
            assert e.audience == (PUBLIC,) or all(a in s.seats for a in e.audience)
            json.dumps(e.to_json())
        # the engine stores the parts and loads them for the next window
        parts = ruleset.dump(s)
        s = ruleset.load(parts)
        assert ruleset.dump(s) == parts
        check_invariants(s)
        assert player_turns <= 37, "the game must end within 37 player-turns"
    out = ruleset.outcome(s)
    assert out is not None and set(out.scores) == set(seats)
    best = max(out.scores.values())
    assert set(out.winners) == {r for r, v in out.scores.items() if v == best}
    for role in seats:
        safe = [p for p in s.people.values() if p.owner == role and p.where == "safe"]
        assert out.scores[role] == sum(s.values[p.id] for p in safe)
    return out, player_turns, windows


CASES = [(seed, ["red", "green", "blue", "yellow"][: 2 + (seed // 2) % 3],
          {"ships": str(1 + seed % 3), "volcano": ("ends", "vortex", "none")[(seed // 3) % 3],
           "end": ("all", "first")[seed % 2]}) for seed in range(1, 81)]


@pytest.mark.parametrize("seed,seats,options", CASES, ids=[f"game{c[0]}" for c in CASES])
def test_random_games_keep_the_rules_invariants(seed, seats, options):
    """Whole games by bots under every option (see the module docstring for the rules each
    invariant comes from)."""
    out, turns, windows = play_game(seed, seats, options)
    assert 1 <= turns <= 37
