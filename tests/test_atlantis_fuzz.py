"""Fuzzing the order path with hypothesis: whatever a player sends, ``check`` and ``resolve``
never raise (DESIGN.md: 'Orders that break a rule are not fatal'), and no problem - in the
receipt or found at resolution - depends on a fact hidden from the player who reads it
(DESIGN.md 'Every fact has an audience'; README 'Who sees what').

The position (stand-in board, see test_atlantis_helpers) has red swimmers, a passenger, red
and green people on land, two ships, one creature of each kind, kept tiles in red's hand and a
standing order in green's. Order lines are drawn from every verb with right and wrong ids and hexes.
"""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.games.atlantis import ruleset
from pbem.games.atlantis.data import KEPT_SYMBOLS
from test_atlantis_helpers import chance, position

HEXES = st.sampled_from(["0405", "0406", "0505", "0506", "0404", "0304", "0303", "0203", "0102",
                         "0101", "0707", "0804", "1313", "0000", "9999", "1414"])
PEOPLE = st.sampled_from(["red1", "red2", "red3", "red4", "green1", "red11", "red0", "blue1"])
CREATURES = st.sampled_from(["shark1", "kraken1", "dolphin1", "monster1", "shark9"])
SHIPS = st.sampled_from(["ship1", "ship2", "ship99"])
CONDS = st.sampled_from(["shark", "kraken", "monster", "dolphin", "monster-or-shark",
                         "shark-or-monster", "dolphin-or-kraken", "shark-or-shark",
                         "dolphin-or-shark"])
DIVES = st.sampled_from(["shark-dives", "kraken-dives", "monster-dives", "dolphin-dives"])


def _path(n):
    return st.lists(HEXES, min_size=1, max_size=n).map(" ".join)


LINE = st.one_of(
    st.builds("walk {} {}".format, PEOPLE, _path(4)),
    st.builds("swim {} {}".format, PEOPLE, _path(2)),
    st.builds("swim {} {} with dolphin1".format, PEOPLE, _path(1)),
    st.builds("board {} {}".format, PEOPLE, HEXES),
    st.builds("ashore {} {}".format, PEOPLE, HEXES),
    st.builds("sail {} {}".format, SHIPS, _path(4)),
    st.builds("sink {}".format, HEXES),
    st.builds("if {}: {} {}".format, CONDS, CREATURES, _path(4)),
    st.builds("if {}: stay".format, CONDS),
    st.builds("play {} {} {}".format, DIVES, CREATURES, HEXES),
    st.builds("play kill-shark {}".format, CREATURES),
    st.builds("play kraken-killed {}".format, CREATURES),
    st.sampled_from(["standing kill-shark on", "standing kraken-killed off", "creature stay"]),
)
BODY = st.lists(LINE, max_size=12).map("\n".join)


def table(symbol_0405="vortex", seed=0):
    """The fuzzing position; ``symbol_0405`` lies under the sand tile 0405 (sinkable now) and
    every other tile hides a kept-kind symbol dealt by ``seed``."""
    s = position(people={"red1": "sea:0304", "red2": "ship:ship1", "red3": "sea:0102",
                         "red4": "land:0506", "green1": "land:0405", "green2": "sea:0203"},
                 ships={"ship1": "0303", "ship2": "0102"},
                 creatures={"shark1": "0203", "kraken1": "0404", "dolphin1": "0102",
                            "monster1": "0202"},
                 kept={"red": ["shark-dives", "kill-shark", "kraken-killed", "dolphin-dives"],
                       "green": ["kill-shark"]},
                 standing={"green": {"kill-shark": True}}, calm=False)
    rnd = random.Random(seed)
    for h in s.tiles:
        s.symbols[h] = rnd.choice(KEPT_SYMBOLS)
    s.symbols["0405"] = symbol_0405
    return s


def parsed(s, role, body):
    return ruleset.parse(role, ruleset.window(s), body, 1)[0]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BODY, st.integers(1, 6),
       st.sampled_from(["vortex", "shark", "monster", "boat", "game-ends", "kill-shark"]),
       st.lists(st.sampled_from(["creature shark1 0204", "creature kraken1 0304 0305",
                                 "creature dolphin1 0103", "creature monster1 0201",
                                 "creature stay", "creature shark1 0405"]), max_size=3))
def test_check_and_resolve_never_raise(body, roll, symbol, creature_lines):
    """Any order set, any die, any symbol under the sunk tile: check and resolve return problems
    and never raise; the state still dumps and loads; the creature window that may follow
    takes any creature lines too."""
    s = table(symbol)
    orders = parsed(s, "red", body)
    ruleset.check(s, "red", orders)
    ruleset.resolve(s, {"red": orders, "green": parsed(s, "green", body)}, chance([roll]))
    s = ruleset.load(ruleset.dump(s))
    for role in ("red", "green", "*"):
        ruleset.text_map(ruleset.view(s, role))
    w = ruleset.window(s)
    if w is not None and w.phase == "red-creature":
        more = parsed(s, "red", "\n".join(creature_lines))
        ruleset.check(s, "red", more)
        ruleset.resolve(s, {"red": more}, chance([1]))
        assert ruleset.window(s).phase == "green"


def hidden_from_everyone(s, seed):
    """A copy of ``s`` differing only in what no player knows: the values under people nobody
    has seen, and which kept-kind symbol (dives or kill tile) lies under each tile that hides
    one. Such a tile, sunk, changes nothing on the board, so nothing public may differ."""
    t = copy.deepcopy(s)
    rnd = random.Random(seed)
    unseen = [pid for pid in t.values if not any(pid in seen for seen in t.seen.values())]
    vals = [t.values[pid] for pid in unseen]
    rnd.shuffle(vals)
    t.values.update(zip(unseen, (v + 100 for v in vals)))
    kept_under = [h for h, sym in t.symbols.items() if sym in KEPT_SYMBOLS]
    for h in kept_under:
        t.symbols[h] = rnd.choice(KEPT_SYMBOLS)
    return t


def public_record(res):
    """The problems (per role) and the public events but the end-of-game reveal of values."""
    events = [(e.kind, e.text) for e in res.events
              if e.public and e.kind not in ("values", "score")]
    problems = {r: [p.to_json() for p in v] for r, v in res.problems.items()}
    return problems, events


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BODY, st.integers(1, 6), st.integers(0, 10 ** 6))
def test_problems_never_depend_on_hidden_facts(body, roll, seed):
    """Two positions that differ only in facts hidden from every player give the same receipt
    (check) to each player and, once resolved with the same orders and dice, the same problems
    and the same public events: no problem text can carry a hidden value or symbol."""
    s = table("kill-shark", seed)
    t = hidden_from_everyone(s, seed)
    for role in ("red", "green"):
        orders = parsed(s, role, body)
        assert ruleset.check(s, role, orders) == ruleset.check(t, role, orders)
    by_role = {"red": parsed(s, "red", body), "green": parsed(s, "green", body)}
    a = ruleset.resolve(s, by_role, chance([roll]))
    b = ruleset.resolve(t, by_role, chance([roll]))
    assert public_record(a) == public_record(b)
    assert ruleset.view(s, "green") == ruleset.view(t, "green") or s.over
