"""Property tests of pbem.dice (DESIGN.md, "Verifiable dice (format v1)")."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.dice import DiceStream

seeds = st.binary(min_size=32, max_size=32)
sides = st.integers(min_value=2, max_value=256)
text = st.text(alphabet=string.ascii_letters + string.digits + ".-_ éü", min_size=1, max_size=12)
roles = st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=8)
nonces = st.dictionaries(roles, st.text(alphabet="0123456789abcdef", min_size=1, max_size=32),
                         max_size=4)


@given(seeds, text, text, nonces, st.lists(sides, min_size=1, max_size=60))
def test_rolls_are_always_1_to_n(seed, game, phase, nonce_map, dice_sides):
    dice = DiceStream(seed, game, phase, nonce_map)
    for n in dice_sides:
        assert 1 <= dice.roll(n, "p") <= n
    assert [r.index for r in dice.rolls] == list(range(len(dice_sides)))
    assert dice.bytes_used >= len(dice_sides)


@given(seeds, text, text, nonces, st.lists(sides, min_size=1, max_size=40), st.booleans())
def test_same_inputs_same_rolls(seed, game, phase, nonce_map, dice_sides, hidden):
    a = DiceStream(seed, game, phase, dict(nonce_map), hidden=hidden)
    b = DiceStream(bytes(seed), game, phase, dict(reversed(list(nonce_map.items()))), hidden=hidden)
    assert [a.roll(n, "x") for n in dice_sides] == [b.roll(n, "x") for n in dice_sides]


def _raw(dice: DiceStream) -> list[int]:
    return [dice.roll(256, "raw") for _ in range(16)]  # d256 rolls are the stream bytes + 1


@settings(max_examples=200)
@given(seeds, text, text, nonces.filter(bool), st.data(), st.booleans())
def test_any_nonce_change_changes_the_stream(seed, game, phase, nonce_map, data, hidden):
    # For the hidden stream as for the public one (docs/dice.md, "The hidden stream").
    base = _raw(DiceStream(seed, game, phase, nonce_map, hidden=hidden))
    role = data.draw(st.sampled_from(sorted(nonce_map)))
    changed = dict(nonce_map)
    kind = data.draw(st.sampled_from(["edit", "drop", "add", "rename"]))
    if kind == "edit":
        changed[role] = data.draw(st.text(alphabet="0123456789abcdef", max_size=32)
                                  .filter(lambda n: n != nonce_map[role]))
    elif kind == "drop":
        del changed[role]
    elif kind == "add":
        changed[data.draw(roles.filter(lambda r: r not in nonce_map))] = "00"
    else:
        changed[data.draw(roles.filter(lambda r: r not in nonce_map))] = changed.pop(role)
    assert _raw(DiceStream(seed, game, phase, changed, hidden=hidden)) != base


@given(seeds, seeds, text, text, nonces)
def test_seed_game_and_phase_each_change_the_stream(seed, other, game, phase, nonce_map):
    base = _raw(DiceStream(seed, game, phase, nonce_map))
    if other != seed:
        assert _raw(DiceStream(other, game, phase, nonce_map)) != base
    assert _raw(DiceStream(seed, game + "x", phase, nonce_map)) != base
    assert _raw(DiceStream(seed, game, phase + "x", nonce_map)) != base
    # The hidden stream of the phase, with the same nonces, is another stream.
    assert _raw(DiceStream(seed, game, phase, nonce_map, hidden=True)) != base


@given(seeds, st.lists(st.integers(), max_size=40))
def test_shuffle_is_a_permutation(seed, items):
    dice = DiceStream(seed, "g", "1.x", {})
    out = dice.shuffle(items, "s")
    assert sorted(out) == sorted(items)
    assert len(dice.rolls) == max(len(items) - 1, 0)
