"""Tests of pbem.dice against DESIGN.md "Verifiable dice (format v1)" and docs/dice.md.

Expected values come from an independent re-implementation written here from DESIGN.md's text
(``ref_*`` below, using only hmac/hashlib), or from the worked example of docs/dice.md, whose
numbers were computed with the openssl command line (commands in docs/dice.md) and by hand.
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

import pytest

import pbem.dice
from pbem.dice import (
    HIDDEN_PREFIX,
    PREFIX,
    DiceStream,
    KeyMessageError,
    Roll,
    SeedError,
    ShuffleSizeError,
    SidesError,
    commitment,
    derive_key,
    key_message,
    new_seed,
)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "dice.md"


# --- an independent implementation, from DESIGN.md's text ------------------------------------

def ref_key(seed: bytes, game: str, phase: str, nonces: dict, hidden: bool = False) -> bytes:
    prefix = "pbem-dice/1/hidden\n" if hidden else "pbem-dice/1\n"
    msg = prefix + game + "\n" + phase + "\n" + "\n".join(
        f"{role}={nonces[role]}" for role in sorted(nonces))
    return hmac.new(seed, msg.encode("utf-8"), hashlib.sha256).digest()


def ref_bytes(key: bytes, count: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < count:
        out += hmac.new(key, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1
    return out[:count]


class RefDice:
    """Rolls by DESIGN.md's words, over a long precomputed byte string."""

    def __init__(self, key: bytes) -> None:
        self.data = ref_bytes(key, 4096)
        self.pos = 0

    def roll(self, n: int) -> int:
        while True:
            b = self.data[self.pos]
            self.pos += 1
            if not b >= 256 - (256 % n):
                return (b % n) + 1

    def shuffle(self, items: list) -> list:
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.roll(i + 1) - 1
            items[i], items[j] = items[j], items[i]
        return items


# --- the worked example of docs/dice.md (openssl and hand computation) ---------------------------

EX_SEED = bytes(range(32))
EX_GAME, EX_PHASE = "atl-7", "3.movement"
EX_NONCES = {"red": "5b0f0c9e2d7a4c1e9f3b8a6d2e4f6a8c", "blue": "0123456789abcdef0123456789abcdef"}
EX_COMMIT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
EX_MESSAGE = ("pbem-dice/1\natl-7\n3.movement\nblue=0123456789abcdef0123456789abcdef\n"
              "red=5b0f0c9e2d7a4c1e9f3b8a6d2e4f6a8c")
EX_KEY = "dce00930f84efe84570c700b92f1c6e54b0eea51507000b8f625eb1ed8c9da38"
EX_BLOCK0 = "67488863e88dab1f6cfc5b37755a1c0c9b61590671270df8da6af7ff28410b1c"
EX_BLOCK1 = "e51ffb66edd0534bd2201d457bb14d69123ef4048a1e3b79d003c1872011b984"
EX_D6 = [2, 1, 5, 4, 5, 4, 4, 2, 1, 2]          # byte 9 (0xfc = 252) is discarded
EX_SHUFFLE = ["D", "C", "E", "B", "A"]          # of A B C D E, draws d5=1 d4=2 d3=1 d2=1
EX_SHUFFLE_DRAWS = [(5, 1), (4, 2), (3, 1), (2, 1)]

EX_HIDDEN_SEED = bytes(range(32, 64))
EX_HIDDEN_COMMIT = "72dbb7336c76780023f83da4c355f2eeea85733b13d3477697917790c1229084"
EX_HIDDEN_PHASE = "0.setup"
EX_HIDDEN_NONCES = {"red": "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "blue": "fedcba9876543210fedcba9876543210"}
EX_HIDDEN_MESSAGE = ("pbem-dice/1/hidden\natl-7\n0.setup\nblue=fedcba9876543210fedcba9876543210\n"
                     "red=0f1e2d3c4b5a69788796a5b4c3d2e1f0")
EX_HIDDEN_KEY = "db860327c05c7e2f4d3716bf3ac54094e4b25461394b41a56d072fe16488f4f7"
EX_HIDDEN_BLOCK0 = "c474e3995290243b8a6db445a163e3eb10129178b12043497c52a91482dc1079"
EX_HIDDEN_BLOCK1 = "79e1bbdf9f91736da84c77824b7288a00ca8fff664c897f0327082323bec6d77"
EX_HIDDEN_SHUFFLE = ["D", "E", "C", "A", "B"]   # draws d5=2 d4=1 d3=3 d2=2 (bytes 0xc4 0x74 0xe3 0x99)
EX_HIDDEN_DRAWS = [(5, 2), (4, 1), (3, 3), (2, 2)]
# The key of the same hidden seed and phase with no nonces (the old rule), by openssl: the nonces
# must change it.
EX_HIDDEN_KEY_NO_NONCES = "5f9840bed67d2a10422498e66fe8c36fd2d42420ef761b008a4ef009672a8c69"


def test_worked_example_values_are_in_the_docs():
    text = DOCS.read_text(encoding="utf-8")
    for value in (EX_SEED.hex(), EX_COMMIT, EX_KEY, EX_BLOCK0, EX_BLOCK1, EX_HIDDEN_SEED.hex(),
                  EX_HIDDEN_COMMIT, EX_HIDDEN_KEY, EX_HIDDEN_BLOCK0, EX_HIDDEN_BLOCK1,
                  *EX_NONCES.values(), *EX_HIDDEN_NONCES.values()):
        assert value in text
    for message in (EX_MESSAGE, EX_HIDDEN_MESSAGE):  # shown with \n escapes, as printf takes them
        assert message.replace("\n", "\\n") in text
    assert " ".join(map(str, EX_D6)) in text
    assert " ".join(EX_SHUFFLE) in text and " ".join(EX_HIDDEN_SHUFFLE) in text


def test_worked_example_reference_implementation_agrees():
    # The reference implementation reproduces the openssl numbers: it is a fair judge below.
    assert hashlib.sha256(EX_SEED).hexdigest() == EX_COMMIT
    key = ref_key(EX_SEED, EX_GAME, EX_PHASE, EX_NONCES)
    assert key.hex() == EX_KEY
    assert ref_bytes(key, 64).hex() == EX_BLOCK0 + EX_BLOCK1
    ref = RefDice(key)
    assert [ref.roll(6) for _ in range(10)] == EX_D6
    assert ref.shuffle(list("ABCDE")) == EX_SHUFFLE
    hidden = ref_key(EX_HIDDEN_SEED, EX_GAME, EX_HIDDEN_PHASE, EX_HIDDEN_NONCES, hidden=True)
    assert hidden.hex() == EX_HIDDEN_KEY
    assert ref_bytes(hidden, 64).hex() == EX_HIDDEN_BLOCK0 + EX_HIDDEN_BLOCK1
    assert RefDice(hidden).shuffle(list("ABCDE")) == EX_HIDDEN_SHUFFLE
    assert ref_key(EX_HIDDEN_SEED, EX_GAME, EX_HIDDEN_PHASE, {}, hidden=True).hex() == EX_HIDDEN_KEY_NO_NONCES


def test_worked_example_public_stream():
    assert commitment(EX_SEED) == EX_COMMIT
    assert key_message(EX_GAME, EX_PHASE, EX_NONCES) == EX_MESSAGE.encode()
    dice = DiceStream(EX_SEED, EX_GAME, EX_PHASE, EX_NONCES)
    assert dice.key.hex() == EX_KEY
    assert [dice.roll(6, "attack") for _ in range(10)] == EX_D6
    assert dice.bytes_used == 11  # ten results and the discarded 0xfc
    assert dice.shuffle(list("ABCDE"), "tiles") == EX_SHUFFLE
    assert [(r.sides, r.value) for r in dice.rolls[10:]] == EX_SHUFFLE_DRAWS
    assert [r.index for r in dice.rolls] == list(range(14))
    assert dice.bytes_used == 15


def test_worked_example_hidden_stream():
    # The hidden stream takes the nonces of its phase, like the public one (docs/dice.md).
    assert commitment(EX_HIDDEN_SEED) == EX_HIDDEN_COMMIT
    message = key_message(EX_GAME, EX_HIDDEN_PHASE, EX_HIDDEN_NONCES, hidden=True)
    assert message == EX_HIDDEN_MESSAGE.encode() and len(message) == 107
    dice = DiceStream(EX_HIDDEN_SEED, EX_GAME, EX_HIDDEN_PHASE, EX_HIDDEN_NONCES, hidden=True)
    assert dice.key.hex() == EX_HIDDEN_KEY
    assert ref_bytes(dice.key, 64).hex() == EX_HIDDEN_BLOCK0 + EX_HIDDEN_BLOCK1
    assert dice.shuffle(list("ABCDE"), "tiles") == EX_HIDDEN_SHUFFLE
    assert [(r.sides, r.value) for r in dice.rolls] == EX_HIDDEN_DRAWS
    assert dice.bytes_used == 4  # no byte discarded: 0xc4 < 255, 0xe3 < 255


def test_hidden_stream_without_nonces_is_the_creation_stream():
    # Phase 0.create has no orders, so no nonces: the message ends with the phase line.
    assert key_message(EX_GAME, "0.create", {}, hidden=True) == b"pbem-dice/1/hidden\natl-7\n0.create\n"
    dice = DiceStream(EX_HIDDEN_SEED, EX_GAME, EX_HIDDEN_PHASE, {}, hidden=True)
    assert dice.key.hex() == EX_HIDDEN_KEY_NO_NONCES != EX_HIDDEN_KEY


# --- seeds, commitments, keys ------------------------------------------------------------------

def test_new_seed_is_32_fresh_bytes():
    a, b = new_seed(), new_seed()
    assert isinstance(a, bytes) and len(a) == 32 and a != b


def test_commitment_is_hex_sha256():
    # FIPS 180-2 test vector: SHA-256("abc").
    assert commitment(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_key_message_sorts_roles_by_code_point():
    nonces = {"red": "3", "Blue": "1", "green": "2", "blue": "0"}
    # Code-point order: upper case before lower case.
    assert key_message("g", "1.x", nonces) == b"pbem-dice/1\ng\n1.x\nBlue=1\nblue=0\ngreen=2\nred=3"
    assert derive_key(EX_SEED, "g", "1.x", nonces) == ref_key(EX_SEED, "g", "1.x", nonces)
    reordered = dict(reversed(list(nonces.items())))
    assert DiceStream(EX_SEED, "g", "1.x", reordered).key == DiceStream(EX_SEED, "g", "1.x", nonces).key


def test_key_message_is_utf8():
    nonces = {"rouge": "é"}
    assert key_message("partie-ü", "1.déplacement", nonces) == (
        "pbem-dice/1\npartie-ü\n1.déplacement\nrouge=é".encode("utf-8"))


def test_no_nonces_ends_with_the_phase_line():
    assert key_message("g", "2.blue", {}) == b"pbem-dice/1\ng\n2.blue\n"
    assert PREFIX == "pbem-dice/1\n" and HIDDEN_PREFIX == "pbem-dice/1/hidden\n"


def test_hidden_prefix_changes_the_stream():
    public = DiceStream(EX_SEED, "g", "1.x", {})
    hidden = DiceStream(EX_SEED, "g", "1.x", {}, hidden=True)
    assert hidden.key == ref_key(EX_SEED, "g", "1.x", {}, hidden=True)
    assert public.key == ref_key(EX_SEED, "g", "1.x", {})
    assert hidden.key != public.key


def test_hidden_stream_takes_nonces():
    nonces = {"red": "5b0f", "Blue": "77", "blue": "00"}
    hidden = DiceStream(EX_HIDDEN_SEED, "g", "4.cups", nonces, hidden=True)
    # An independent computation, from DESIGN.md's words, written out here in full.
    msg = b"pbem-dice/1/hidden\ng\n4.cups\nBlue=77\nblue=00\nred=5b0f"
    assert key_message("g", "4.cups", nonces, hidden=True) == msg
    key = hmac.new(EX_HIDDEN_SEED, msg, hashlib.sha256).digest()
    assert hidden.key == key
    block0 = hmac.new(key, bytes(8), hashlib.sha256).digest()
    assert [hidden.roll(256, "cup") for _ in range(32)] == [b + 1 for b in block0]
    # Every nonce counts: with one left out or changed, the hidden stream is another.
    for changed in ({"red": "5b0f", "Blue": "77"}, {"red": "5b0f", "Blue": "77", "blue": "01"}, {}):
        assert DiceStream(EX_HIDDEN_SEED, "g", "4.cups", changed, hidden=True).key != key
    # The same nonces give the public stream of the phase another key (prefix).
    assert DiceStream(EX_HIDDEN_SEED, "g", "4.cups", nonces).key == ref_key(EX_HIDDEN_SEED, "g", "4.cups", nonces)
    assert DiceStream(EX_HIDDEN_SEED, "g", "4.cups", nonces).key != key


@pytest.mark.parametrize("hidden", [False, True])
@pytest.mark.parametrize("game, phase, nonces, needle", [
    ("a\nb", "1.x", {}, "game id"),
    ("g", "1.x\n", {}, "phase id"),
    ("g", "1.x", {"red=blue": "n"}, "holds '='"),
    ("g", "1.x", {"red\nblue": "n"}, "role"),
    ("g", "1.x", {"red": "n\nblue=m"}, "nonce of role"),
    ("g", "1.x", {"red": 7}, "nonce of role"),
    ("g", 3, {}, "phase id"),
])
def test_ambiguous_key_messages_are_refused(game, phase, nonces, needle, hidden):
    # The same checks for both streams.
    with pytest.raises(KeyMessageError, match=needle):
        key_message(game, phase, nonces, hidden=hidden)
    with pytest.raises(KeyMessageError, match=needle):
        DiceStream(EX_SEED, game, phase, nonces, hidden=hidden)


@pytest.mark.parametrize("seed", [b"", bytes(31), bytes(33), "00" * 32, None])
def test_seed_must_be_32_bytes(seed):
    with pytest.raises(SeedError, match="expected 32 bytes"):
        DiceStream(seed, "g", "1.x", {})


# --- rolls ----------------------------------------------------------------------------------------

def test_d6_discards_bytes_from_252():
    # Find, by the reference implementation, a seed whose stream starts with a byte >= 252.
    for i in range(10_000):
        seed = hashlib.sha256(b"reject %d" % i).digest()
        key = ref_key(seed, "g", "1.x", {})
        first = ref_bytes(key, 32)
        if first[0] >= 252 and first[1] < 252:
            break
    else:
        pytest.fail("no seed with a first byte >= 252 in 10,000 tries")
    dice = DiceStream(seed, "g", "1.x", {})
    assert dice.roll(6, "test") == first[1] % 6 + 1
    assert dice.bytes_used == 2
    # A d4 (256 mod 4 == 0) discards nothing: the same byte gives a result.
    dice4 = DiceStream(seed, "g", "1.x", {})
    assert dice4.roll(4, "test") == first[0] % 4 + 1
    assert dice4.bytes_used == 1


@pytest.mark.parametrize("sides, limit", [(2, 256), (3, 255), (6, 252), (10, 250), (20, 240),
                                          (100, 200), (255, 255), (256, 256)])
def test_rejection_limit_per_die(sides, limit):
    # For every possible byte value b, the die either discards it (b >= limit) or gives b%n+1:
    # drive the stream with a key whose bytes we know and compare with the reference.
    key = ref_key(EX_SEED, "g", f"limit-{sides}", {})
    data = ref_bytes(key, 4096)
    dice = DiceStream(EX_SEED, "g", f"limit-{sides}", {})
    pos = 0
    for _ in range(200):
        while data[pos] >= limit:
            pos += 1
        expected = data[pos] % sides + 1
        pos += 1
        assert dice.roll(sides, "t") == expected
    assert dice.bytes_used == pos


def test_d256_is_the_raw_stream_across_blocks():
    key = ref_key(EX_SEED, "g", "1.x", {"red": "n"})
    data = ref_bytes(key, 100)
    dice = DiceStream(EX_SEED, "g", "1.x", {"red": "n"})
    assert [dice.roll(256, "raw") for _ in range(100)] == [b + 1 for b in data]


@pytest.mark.parametrize("sides", [1, 257, 0, -6, 6.0, "6", True, None])
def test_bad_sides_are_refused_and_consume_nothing(sides):
    dice = DiceStream(EX_SEED, "g", "1.x", {})
    with pytest.raises(SidesError, match="expected an int from 2 to 256"):
        dice.roll(sides, "bad")
    assert isinstance(SidesError("x"), ValueError)
    assert dice.rolls == [] and dice.bytes_used == 0


def test_rolls_are_recorded():
    dice = DiceStream(EX_SEED, EX_GAME, EX_PHASE, EX_NONCES)
    dice.roll(6, "Spikus attack on 0708, 3-1")
    dice.roll(20, "morale")
    assert dice.rolls == [Roll(0, 6, EX_D6[0], "Spikus attack on 0708, 3-1"),
                          Roll(1, 20, dice.rolls[1].value, "morale")]
    assert 1 <= dice.rolls[1].value <= 20


def test_stream_is_lazy(monkeypatch):
    calls = []
    real = pbem.dice.hmac.digest

    def counting(key, msg, digest):
        calls.append(msg)
        return real(key, msg, digest)

    monkeypatch.setattr(pbem.dice.hmac, "digest", counting)
    dice = DiceStream(EX_SEED, "g", "1.x", {})
    assert len(calls) == 1  # the key only: no block yet
    for _ in range(32):
        dice.roll(256, "t")
    assert calls[1:] == [bytes(8)]  # one block, counter 0
    dice.roll(256, "t")
    assert calls[2:] == [(1).to_bytes(8, "big")]


# --- shuffles -----------------------------------------------------------------------------------

def test_shuffle_of_five_matches_the_reference():
    items = ["whale", "shark", "boat", "dolphin", "kraken"]
    dice = DiceStream(EX_SEED, "g", "2.red", {"red": "aa"})
    ref = RefDice(ref_key(EX_SEED, "g", "2.red", {"red": "aa"}))
    assert dice.shuffle(items, "creature cup") == ref.shuffle(items)
    assert items == ["whale", "shark", "boat", "dolphin", "kraken"]  # not changed in place
    assert [r.sides for r in dice.rolls] == [5, 4, 3, 2]
    assert [r.why for r in dice.rolls] == [f"creature cup (shuffle {i}/5)" for i in (4, 3, 2, 1)]
    assert [r.index for r in dice.rolls] == [0, 1, 2, 3]


def test_shuffle_is_a_permutation_and_draws_k_minus_1():
    dice = DiceStream(EX_SEED, "g", "1.x", {})
    out = dice.shuffle(range(256), "big")
    assert sorted(out) == list(range(256))
    assert [r.sides for r in dice.rolls] == list(range(256, 1, -1))


@pytest.mark.parametrize("items", [[], ["only"]])
def test_shuffle_of_zero_or_one_item_draws_nothing(items):
    dice = DiceStream(EX_SEED, "g", "1.x", {})
    assert dice.shuffle(items, "none") == items
    assert dice.rolls == [] and dice.bytes_used == 0


def test_shuffle_of_more_than_256_is_refused_before_drawing():
    dice = DiceStream(EX_SEED, "g", "1.x", {})
    with pytest.raises(ShuffleSizeError, match="shuffle of 257 items; expected at most 256"):
        dice.shuffle(range(257), "too many")
    assert dice.rolls == [] and dice.bytes_used == 0


def test_draw_does_not_record():
    a = DiceStream(EX_SEED, "g", "1.x", {})
    b = DiceStream(EX_SEED, "g", "1.x", {})
    assert [a.draw(6) for _ in range(50)] == [b.roll(6, "x") for _ in range(50)]
    assert a.rolls == [] and len(b.rolls) == 50
