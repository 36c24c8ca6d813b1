"""Who sees what (DESIGN.md "Every fact has an audience"; README "Who sees what"): the split of
the state into public, secret and referee parts, its exact round trip, views that hold nothing a
role may not know, and order checks that use nothing a role may not know.
"""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.dice import DiceStream
from pbem.engine.ruleset import PUBLIC, Chance, Parts
from pbem.games.atlantis import ruleset
from test_atlantis_helpers import orders, position, run

ROLES = ["red", "green", "blue"]


def dice(seed, phase):
    return Chance(DiceStream(seed.to_bytes(2, "big") * 16, "aud", phase, {}),
                  DiceStream(b"h" * 32, "aud", "game", {}, hidden=True))


def played(seed=1, windows=8, seats=ROLES):
    """A game after setup and ``windows`` windows of bot orders."""
    rng = random.Random(seed)
    s, _ = ruleset.setup(list(seats), ruleset.validate_options({}), ruleset.load_data(),
                         ruleset.load_map(None, "x"), dice(seed, "setup"))
    for k in range(windows):
        w = ruleset.window(s)
        if w is None:
            break
        by_role = {}
        for role in w.owed:
            body = ruleset.bot_orders(ruleset.view(s, role), w, role, rng)
            by_role[role] = ruleset.parse(role, w, body, 1)[0]
        ruleset.resolve(s, by_role, dice(seed * 100 + k, w.phase_id))
    return s


def roundtrip(s):
    parts = ruleset.dump(s)
    text = json.dumps({"public": parts.public, "secret": parts.secret,
                       "referee": parts.referee})
    back = json.loads(text)
    again = ruleset.load(Parts(back["public"], back["secret"], back["referee"]))
    assert ruleset.dump(again) == parts
    assert json.loads(json.dumps(ruleset.dump(again).public)) == parts.public
    return again


def test_dump_load_round_trip_at_every_stage():
    """DESIGN.md 'Every fact has an audience': dump splits the state, load rebuilds it
    exactly (JSON and back), at setup, mid-game, in a creature window and at the end (End of
    game: everything public)."""
    s, _ = ruleset.setup(ROLES, ruleset.validate_options({}), ruleset.load_data(),
                         ruleset.load_map(None, "x"), dice(1, "setup"))
    roundtrip(s)
    s = played(2, 12)
    s2 = roundtrip(s)
    assert ruleset.window(s2) == ruleset.window(s)
    # a creature window and standing orders and kept tiles
    t = position(creatures={"shark1": "0304"}, kept={"green": ["kill-shark"]},
                 standing={"green": {"kill-shark": True}})
    run(t, "sink 0804", rolls=[2])
    assert t.stage == "creature"
    t2 = roundtrip(t)
    assert ruleset.window(t2).phase == "red-creature" and t2.kept["green"] == ["kill-shark"]
    # the end: everything public
    end = position(symbols={"0405": "game-ends"})
    run(end, "sink 0405")
    parts = ruleset.dump(end)
    assert parts.public["reveal"]["values"] == end.values
    assert parts.public["reveal"]["kept"]["red"] == end.kept["red"]
    roundtrip(end)


def plant(s):
    """Distinctive hidden facts: under a tile, under a person, in green's secret part."""
    tile = next(iter(s.symbols))
    s.symbols[tile] = "SYMBOL-XYZZY"
    s.values["green3"] = 987654321
    s.kept["green"] = ["KEPT-PLUGH"]
    s.kept_count["green"] = 1
    s.seen["green"] = {"green1": 123456789}
    s.sank["green"] = {"0999": "SANK-FROTZ"}
    s.seen["red"] = {"red1": 555444333}
    return s


SECRET_OF_GREEN = ("KEPT-PLUGH", "123456789", "SANK-FROTZ")
REFEREE = ("SYMBOL-XYZZY", "987654321")


def test_views_hold_no_other_roles_secret_and_no_referee_part():
    """README 'Who sees what': a view holds the public part and the role's own secret part
    only (distinctive hidden facts planted by hand)."""
    s = plant(position())
    red = json.dumps(ruleset.view(s, "red"))
    green = json.dumps(ruleset.view(s, "green"))
    public = json.dumps(ruleset.view(s, "*"))
    for mark in SECRET_OF_GREEN + REFEREE:
        assert mark not in red and mark not in public
    for mark in REFEREE + ("555444333",):
        assert mark not in green
    for mark in SECRET_OF_GREEN:
        assert mark in green
    assert "555444333" in red
    for role in ("red", "green", "*"):
        board = ruleset.text_map(ruleset.view(s, role))
        assert "XYZZY" not in board and "987654321" not in board
        if role != "green":
            assert "PLUGH" not in board


def test_events_carry_their_audience():
    """README: the sinking player alone sees the symbol of a kept tile; the owner alone the value
    of a person they move."""
    s = position(people={"red1": "land:0405"}, symbols={"0406": "kraken-dives"})
    s.values["red1"] = 6
    res, _ = run(s, "walk red1 0505\nsink 0406")
    for e in res.events:
        if e.kind in ("value", "symbol"):
            assert e.audience == ("red",)
        else:
            assert e.audience == (PUBLIC,)
            blob = json.dumps(e.to_json())
            assert "kraken-dives" not in blob and "Kraken dives" not in blob
            assert '"value": 6' not in blob


def hidden_variant(s, role, rnd):
    """A copy of ``s`` that differs from it only in facts hidden from ``role``."""
    t = copy.deepcopy(s)
    unseen = [pid for pid in t.values if pid not in t.seen.get(role, {})]
    vals = [t.values[pid] for pid in unseen]
    rnd.shuffle(vals)
    for pid, v in zip(unseen, vals):
        t.values[pid] = v + rnd.choice([0, 10])
    syms = list(t.symbols.values())
    rnd.shuffle(syms)
    for h, sym in zip(list(t.symbols), syms):
        t.symbols[h] = sym
    for other in t.seats:
        if other == role:
            continue
        t.kept[other] = [rnd.choice(["kill-shark", "shark-dives", "kraken-killed"])
                         for _ in t.kept[other]]
        t.standing[other] = {k: rnd.random() < 0.5 for k in t.standing[other]}
        t.seen[other] = {pid: rnd.randint(1, 6) for pid in t.seen[other]}
        t.sank[other] = {h: rnd.choice(["shark-dives", "kill-shark"]) for h in t.sank[other]}
    return t


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 60), st.integers(1, 14), st.sampled_from(ROLES + ["*"]),
       st.integers(0, 10 ** 6))
def test_views_and_checks_ignore_facts_hidden_from_the_role(seed, windows, role, noise):
    """Property: two states that differ only in facts hidden from R give R the same view, the
    same text map, the same template and the same order problems."""
    s = played(seed, windows)
    if ruleset.window(s) is None:
        return
    t = hidden_variant(s, role, random.Random(noise))
    assert ruleset.view(s, role) == ruleset.view(t, role)
    assert ruleset.text_map(ruleset.view(s, role)) == ruleset.text_map(ruleset.view(t, role))
    if role == "*":
        return
    assert ruleset.template(s, role) == ruleset.template(t, role)
    w = ruleset.window(s)
    if w.accepts(role):
        body = ruleset.bot_orders(ruleset.view(s, role), w, role, random.Random(noise))
        parsed = ruleset.parse(role, w, body + "\nsink 0707\nwalk red1 0101\n", 1)[0]
        assert ruleset.check(s, role, parsed) == ruleset.check(t, role, parsed)


def test_check_uses_only_what_the_role_knows():
    """The receipt's problems come from the public position and the role's own secret: a tile
    held is known to its holder, the symbol under a tile to nobody."""
    s = position(creatures={"shark1": "0304"}, kept={"red": ["shark-dives"]},
                 symbols={"0405": "vortex"})
    got = ruleset.check(s, "red", orders("red", "play shark-dives shark1 0303\nsink 0405\n"
                                                "if shark: shark1 0304 0305", s))
    assert got == []                      # the vortex under 0405 would destroy shark1 at 0304...
    s2 = position(creatures={"shark1": "0304"}, kept={"red": []})
    got = ruleset.check(s2, "red", orders("red", "play shark-dives shark1 0303\nwalk red1 0101",
                                          s2))
    assert [p.why for p in got][0] == "you hold no Shark dives tile"
    assert "no sink order" in [p.why for p in got][-1]


def test_a_state_stored_with_sorted_keys_resolves_the_same():
    """DESIGN.md Storage: 're-running resolves it with the same seed and orders to the same
    result' - even when the parts come back from storage with their keys in another order."""
    s = played(5, 9)
    parts = ruleset.dump(s)
    shuffled = json.loads(json.dumps({"p": parts.public, "s": parts.secret, "r": parts.referee},
                                     sort_keys=True))
    a = ruleset.load(parts)
    b = ruleset.load(Parts(shuffled["p"], shuffled["s"], shuffled["r"]))
    w = ruleset.window(a)
    rng_a, rng_b = random.Random(1), random.Random(1)
    body_a = ruleset.bot_orders(ruleset.view(a, w.owed[0]), w, w.owed[0], rng_a)
    body_b = ruleset.bot_orders(ruleset.view(b, w.owed[0]), w, w.owed[0], rng_b)
    assert body_a == body_b
    orders_ = {w.owed[0]: ruleset.parse(w.owed[0], w, body_a, 1)[0]}
    ra = ruleset.resolve(a, orders_, dice(77, w.phase_id))
    rb = ruleset.resolve(b, orders_, dice(77, w.phase_id))
    assert [e.to_json() for e in ra.events] == [e.to_json() for e in rb.events]
    assert ruleset.dump(a) == ruleset.dump(b)
