"""What a role is given (issue 9, "The kit"; docs/rulesets.md, "What a role is given"): the
engine, not the game, decides it. ``view``, ``check``, ``template`` and the bots get the *role
state*, ``load(Parts(public, {role: secret[role]}, referee={}))``
(:func:`pbem.engine.gamestate.role_state`), never the whole state.

- For every registered ruleset (and the test toy), at every window of random games, every
  reader's view and order template from its role state equal those from the whole state, and
  ``check`` finds the same problems in the bot's orders and in orders meant for other roles or
  other windows: so no game's view or check ever depended on a secret its role does not hold.
- A ruleset whose view or check reads another role's secret fails loudly through the engine
  (the engine never gives it that secret), instead of leaking it.
- ``Referee.view_and_window`` opens only the public part and the reader's own sealed part.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random

import pytest
from conftest import incoming

from pbem.engine import registry
from pbem.engine.creation import GameSpec
from pbem.engine.gamestate import role_parts, role_state, role_view
from pbem.engine.ruleset import PUBLIC, Chance, Parts

FIRST_LINE = 9
MAX_WINDOWS = 400
SEEDS = (0, 1)
RULESETS = sorted(set(registry.available()) | {"hunt"})


def jsonify(value):
    """``value`` as the engine stores it: JSON with sorted keys, read back."""
    return json.loads(json.dumps(value, sort_keys=True))


def stored(parts: Parts) -> Parts:
    return Parts(jsonify(parts.public), jsonify(parts.secret), jsonify(parts.referee))


def _seed(*words) -> bytes:
    return hashlib.sha256("/".join(map(str, words)).encode()).digest()


def roles_of(rs, seed: int) -> tuple:
    names = tuple(rs.role_spec().names)
    n = rs.min_roles + seed % (rs.max_roles - rs.min_roles + 1)
    return names[:n]


def compare_game(rs, roles, seed: int) -> tuple[list, int]:
    """Play a random game of ``rs`` at the ruleset level (bots on role views, the state dumped
    and loaded between windows as the engine does) and compare, at every window, what the whole
    state and each role state give. Returns (differences, windows compared)."""
    from pbem.dice import DiceStream

    rng = random.Random(f"{rs.name}/{len(roles)}/{seed}")
    gid = f"role-{rs.name}-{len(roles)}-{seed}"
    hidden_seed = _seed(gid, "hidden")
    data = rs.load_data(None)
    board = rs.load_map(None, "stand-in map")
    chance = Chance(DiceStream(_seed(gid, "create"), gid, "0.create", {}),
                    DiceStream(hidden_seed, gid, "0.create", {}, hidden=True))
    state, _ = rs.setup(list(roles), rs.validate_options({}), data, board, chance)
    diffs: list = []
    earlier: list = []  # (role, body) sent in earlier windows: stale orders for check
    for i in range(MAX_WINDOWS):
        parts = stored(rs.dump(state))
        state = rs.load(copy.deepcopy(parts))  # the whole state, as the engine loads it
        w = rs.window(state)
        where = f"{rs.name} {len(roles)}p seed {seed} window {i}"
        for reader in list(roles) + [PUBLIC]:
            known = role_state(rs, parts, reader)
            if jsonify(rs.view(known, reader)) != jsonify(rs.view(state, reader)):
                diffs.append(f"{where}: view of {reader}")
            if w is not None and w.accepts(reader) and (
                    rs.template(known, reader) != rs.template(state, reader)):
                diffs.append(f"{where}: template of {reader}")
        if w is None:
            assert rs.outcome(state) is not None, where
            return diffs, i + 1
        bodies = {}
        for role in list(w.owed) + list(w.optional):
            bodies[role] = rs.bot_orders(role_view(rs, parts, role), w, role, rng)
        for role in list(w.owed) + list(w.optional):
            # its own orders, another role's orders sent as its own, and stale ones
            tries = [bodies[role]] + [b for r, b in bodies.items() if r != role]
            tries += [b for _, b in rng.sample(earlier, min(2, len(earlier)))]
            known = role_state(rs, parts, role)
            for body in tries:
                orders, _ = rs.parse(role, w, body, FIRST_LINE)
                full = [p.to_json() for p in rs.check(state, role, orders)]
                mine = [p.to_json() for p in rs.check(known, role, orders)]
                if full != mine:
                    diffs.append(f"{where}: check of {role} on {body!r}: {full} != {mine}")
        earlier += list(bodies.items())
        earlier = earlier[-20:]
        orders = {r: rs.parse(r, w, b, FIRST_LINE)[0] for r, b in bodies.items()
                  if r in w.owed or rng.random() < 0.3}
        nonces = {r: hashlib.sha256(f"{gid}/{i}/{r}".encode()).hexdigest()[:32] for r in orders}
        chance = Chance(DiceStream(_seed(gid, w.phase_id, i), gid, w.phase_id, nonces),
                        DiceStream(hidden_seed, gid, w.phase_id, nonces, hidden=True))
        rs.resolve(state, orders, chance)
    raise AssertionError(f"{rs.name}: a random game did not end in {MAX_WINDOWS} windows")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", RULESETS)
def test_views_and_checks_from_role_states_equal_those_from_the_whole_state(name, seed):
    rs = registry.get(name)
    diffs, windows = compare_game(rs, roles_of(rs, seed), seed)
    assert windows > 1
    assert not diffs, diffs[:5]


def test_role_parts_hold_the_public_part_and_the_readers_own_secret_only():
    parts = Parts({"turn": 1}, {"red": {"hand": [1]}, "blue": {"hand": [2]}}, {"deck": [3]})
    assert role_parts(parts, "red") == Parts({"turn": 1}, {"red": {"hand": [1]}}, {})
    assert role_parts(parts, PUBLIC) == Parts({"turn": 1}, {}, {})
    assert role_parts(parts, "referee") == Parts({"turn": 1}, {}, {})
    assert role_parts(parts, "green") == Parts({"turn": 1}, {}, {})
    assert role_parts(parts, "red").public is parts.public  # shared, not copied


def test_the_toy_role_state_holds_no_other_secret_and_no_referee_part():
    import toygame

    rs = toygame.ruleset
    state = {"roles": ["red", "blue"], "turn": 2, "turns": 5, "dug": [3], "winner": None,
             "first": "red", "hints": {"red": ["3:higher"], "blue": []}, "treasure": 11}
    parts = stored(rs.dump(state))
    red = role_state(rs, parts, "red")
    assert red["hints"] == {"red": ["3:higher"]} and red["treasure"] is None
    assert role_state(rs, parts, PUBLIC)["hints"] == {}
    with pytest.raises(KeyError):
        red["hints"]["blue"]
    # the end reveals the treasure through the public part
    state.update(winner="blue")
    assert role_state(rs, stored(rs.dump(state)), "red")["treasure"] == 11


class _Leaky:
    """Toy rulesets that read a secret their role is not given."""

    @staticmethod
    def view_ruleset():
        import toygame

        class LeakyView(toygame.Hunt):
            name = "leakyview"

            def view(self, state, role):
                v = super().view(state, role)
                v["everyone's hints"] = {r: state["hints"][r] for r in state["roles"]}
                return v

        return LeakyView()

    @staticmethod
    def check_ruleset():
        import toygame

        class LeakyCheck(toygame.Hunt):
            name = "leakycheck"

            def check(self, state, role, orders):
                others = [h for r in state["roles"] for h in state["hints"][r]]
                return super().check(state, role, orders) + others

        return LeakyCheck()


def test_a_view_reading_another_roles_secret_fails_loudly(referee, players, monkeypatch):
    rs = _Leaky.view_ruleset()
    monkeypatch.setitem(registry._cache, rs.name, rs)
    spec = GameSpec(ruleset=rs.name, game_id="lv1",
                    players=(players["red"].spec(), players["blue"].spec()), options={})
    # the setup report is the first view the engine asks for: the game is never created
    with pytest.raises(KeyError):
        referee.new_game(spec)
    # the same view works on the whole state, which the engine never passes
    state = {"roles": ["red", "blue"], "turn": 1, "turns": 5, "dug": [], "winner": None,
             "first": "red", "hints": {"red": [], "blue": ["4:higher"]}, "treasure": 9}
    assert rs.view(state, "red")["everyone's hints"]["blue"] == ["4:higher"]
    with pytest.raises(KeyError):
        role_view(rs, rs.dump(state), "red")


def test_a_check_reading_another_roles_secret_fails_loudly(referee, players, clock,
                                                           monkeypatch):
    referee.new_game(GameSpec(ruleset="hunt", game_id="lc1",
                              players=(players["red"].spec(), players["blue"].spec()),
                              options={}))
    # the game is judged by a check that reads the other players' hints
    monkeypatch.setitem(registry._cache, "hunt", _Leaky.check_ruleset())
    text = players["red"].signed("lc1", 1, "dig", "dig 4\n", issued=clock())
    verdicts = referee.ingest([incoming(text, "lc1/red")])
    # the judge failed on it (the message stays archived for `pbem ingest --retry`)
    assert [(v.status, v.cause) for v in verdicts] == [("error", "error")], verdicts
    assert "KeyError" in verdicts[0].reason and "'blue'" in verdicts[0].reason


def test_view_and_window_opens_only_the_readers_own_sealed_part(referee, players, monkeypatch):
    referee.new_game(GameSpec(ruleset="hunt", game_id="h1",
                              players=(players["red"].spec(), players["blue"].spec()),
                              options={}))
    from pbem.crypto.seal import Sealer

    opened = []
    real = Sealer.open

    def spy(self, game_id, owner, purpose, version, blob):
        opened.append((owner, purpose))
        return real(self, game_id, owner, purpose, version, blob)

    monkeypatch.setattr(Sealer, "open", spy)
    view, window = referee.view_and_window("h1", "red")
    assert [o for o in opened if o[1] == "state"] == [("red", "state")]
    assert view["hints"] == [] and window.phase == "dig"
    opened.clear()
    view, _ = referee.view_and_window("h1", PUBLIC)
    assert not [o for o in opened if o[1] == "state"] and "hints" not in view
