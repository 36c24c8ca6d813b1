"""The verifiable dice stream (DESIGN.md, "Verifiable dice (format v1)"; byte-exact spec in docs/dice.md).

For each phase the referee draws a 32-byte secret ``seed`` and publishes ``commitment(seed)`` before
any orders are accepted. Once the phase resolves the seed is revealed, and anyone can re-derive every
roll::

    key    = HMAC-SHA256(seed, key_message(game, phase, nonces))
    stream = HMAC-SHA256(key, counter as 8 bytes big-endian) for counter = 0, 1, 2, ...
    roll n = next byte b, discarding b >= 256 - (256 mod n); result (b mod n) + 1

Hidden draws (face-down tiles, cups) use the same construction with the per-game hidden seed and the
prefix ``"pbem-dice/1/hidden\\n"``, keyed with the same nonces as the public stream of the same phase
(those of the phase's ``dice-reveal``; none for the game creation, ``0.create``). The hidden seed is
committed before any nonce exists and the nonces come from the players, so neither the referee nor a
player can steer a hidden draw (docs/dice.md, "The hidden stream").

Public API: :func:`new_seed`, :func:`commitment`, :func:`key_message`, :func:`derive_key`,
:class:`DiceStream`, :class:`Roll`, and the errors :class:`SidesError`, :class:`ShuffleSizeError`,
:class:`SeedError`, :class:`KeyMessageError` (all subclasses of ``ValueError``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Mapping, NamedTuple, Sequence

__all__ = [
    "PREFIX",
    "HIDDEN_PREFIX",
    "SEED_BYTES",
    "MIN_SIDES",
    "MAX_SIDES",
    "new_seed",
    "commitment",
    "key_message",
    "derive_key",
    "shuffle_why",
    "Roll",
    "DiceStream",
    "DiceError",
    "SidesError",
    "ShuffleSizeError",
    "SeedError",
    "KeyMessageError",
]

PREFIX = "pbem-dice/1\n"
"""Key-message prefix of a phase's public stream (DESIGN.md, "Verifiable dice (format v1)")."""

HIDDEN_PREFIX = "pbem-dice/1/hidden\n"
"""Key-message prefix of a phase's hidden stream, keyed by the per-game hidden seed and the phase's
nonces (DESIGN.md, "Hidden draws use a second stream"; docs/dice.md, "The hidden stream")."""

SEED_BYTES = 32
"""Length of a dice seed in bytes (DESIGN.md: "a 32-byte secret seed")."""

MIN_SIDES = 2
MAX_SIDES = 256
"""A die has 2..256 sides: one stream byte decides a roll (DESIGN.md, "roll of an n-sided die")."""

_BLOCK = 32  # bytes per HMAC-SHA256 output block


class DiceError(ValueError):
    """Base class of the dice errors; a ``ValueError`` so callers may catch either."""


class SidesError(DiceError):
    """A die with a number of sides outside 2..256, or not an ``int``."""


class ShuffleSizeError(DiceError):
    """A shuffle of more than 256 items: its first draw would need a die of more than 256 sides."""


class SeedError(DiceError):
    """A seed that is not ``bytes`` of exactly 32 bytes."""


class KeyMessageError(DiceError):
    """A game id, phase id, role or nonce that is not a string or would make the key message
    ambiguous (holds a line break, or a role holds ``=``)."""


def new_seed() -> bytes:
    """Return a fresh 32-byte dice seed from the operating system's CSPRNG (``secrets``)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """Return the public commitment to ``seed``: the lowercase hex SHA-256 of its bytes (64 chars).

    DESIGN.md, "Verifiable dice (format v1)": ``commit = sha256(seed)``. Any length is hashed; a
    seed used by :class:`DiceStream` must be 32 bytes.
    """
    return hashlib.sha256(seed).hexdigest()


def _check_text(what: str, value: object) -> str:
    if not isinstance(value, str):
        raise KeyMessageError(f"{what} {value!r} is not a string; expected text without line breaks")
    if "\n" in value or "\r" in value:
        raise KeyMessageError(f"{what} {value!r} holds a line break; expected one line of text")
    return value


def key_message(game: str, phase: str, nonces: Mapping[str, str], *, hidden: bool = False) -> bytes:
    """Return the UTF-8 message that the seed keys into the stream key (docs/dice.md, "The key").

    ``PREFIX + game + "\\n" + phase + "\\n" + "\\n".join(role + "=" + nonce for roles sorted)``,
    with ``HIDDEN_PREFIX`` instead of ``PREFIX`` when ``hidden``. ``nonces`` maps each role whose
    orders were accepted for the phase to its nonce; the hidden stream of a phase takes the same
    nonces as the public stream of that phase (docs/dice.md, "The hidden stream"). Roles are sorted
    by Unicode code point (Python's ``sorted``; the same order as sorting their UTF-8 bytes). With
    no nonces the message ends with ``phase + "\\n"``.

    Raises :class:`KeyMessageError` if the game, phase, a role or a nonce is not a string or holds
    a line break, or if a role holds ``=`` (the same checks for both streams).
    """
    _check_text("game id", game)
    _check_text("phase id", phase)
    parts = []
    for role in sorted(nonces):
        _check_text("role", role)
        if "=" in role:
            raise KeyMessageError(f"role {role!r} holds '='; expected a role name without '='")
        parts.append(role + "=" + _check_text(f"nonce of role {role!r}", nonces[role]))
    prefix = HIDDEN_PREFIX if hidden else PREFIX
    return (prefix + game + "\n" + phase + "\n" + "\n".join(parts)).encode("utf-8")


def derive_key(seed: bytes, game: str, phase: str, nonces: Mapping[str, str], *,
               hidden: bool = False) -> bytes:
    """Return the 32-byte stream key ``HMAC-SHA256(seed, key_message(...))``.

    Raises :class:`SeedError` unless ``seed`` is 32 bytes, and :class:`KeyMessageError` as
    :func:`key_message` does.
    """
    if not isinstance(seed, (bytes, bytearray)) or len(seed) != SEED_BYTES:
        shown = f"{len(seed)} bytes" if isinstance(seed, (bytes, bytearray)) else repr(seed)
        raise SeedError(f"dice seed is {shown}; expected {SEED_BYTES} bytes")
    return hmac.digest(bytes(seed), key_message(game, phase, nonces, hidden=hidden), "sha256")


def shuffle_why(why: str, position: int, count: int) -> str:
    """The ``why`` logged for the draw of a shuffle of ``count`` items at 0-based ``position``:
    ``f"{why} (shuffle {position}/{count})"`` (docs/dice.md, "Shuffle")."""
    return f"{why} (shuffle {position}/{count})"


class Roll(NamedTuple):
    """One logged draw: ``index`` (0-based, per stream), ``sides`` (2..256), ``value`` (1..sides)
    and ``why``, the public reason (DESIGN.md: it names no hidden fact)."""

    index: int
    sides: int
    value: int
    why: str


class DiceStream:
    """The dice of one phase (or the hidden dice of one phase), derived from a seed.

    ``DiceStream(seed, game, phase, nonces, *, hidden=False)``: ``seed`` is 32 bytes; ``game`` and
    ``phase`` are the ids in the log (``"atl-7"``, ``"3.movement"``; the phase id is not
    interpreted); ``nonces`` maps each role whose orders were accepted to the nonce of its order
    header (``{}`` when no role sent orders, and at the game creation, phase ``0.create``). For
    ``hidden=True`` ``seed`` is the per-game hidden seed, the key uses ``HIDDEN_PREFIX``, and
    ``nonces`` are those of the same phase's public stream.

    The stream is lazy: one HMAC-SHA256 block of 32 bytes is computed only when the previous one
    is used up. Every draw is recorded, in order, in :attr:`rolls` as a :class:`Roll`.

    Raises :class:`SeedError` and :class:`KeyMessageError` (see :func:`derive_key`).
    Source: DESIGN.md, "Verifiable dice (format v1)"; docs/dice.md.
    """

    __slots__ = ("game", "phase", "hidden", "rolls", "bytes_used", "_key", "_block", "_pos",
                 "_counter")

    def __init__(self, seed: bytes, game: str, phase: str, nonces: Mapping[str, str], *,
                 hidden: bool = False) -> None:
        self.game = game
        self.phase = phase
        self.hidden = hidden
        self.rolls: list[Roll] = []
        self.bytes_used = 0  # stream bytes consumed so far, discarded bytes included
        self._key = derive_key(seed, game, phase, nonces, hidden=hidden)
        self._block = b""
        self._pos = 0
        self._counter = 0

    @property
    def key(self) -> bytes:
        """The 32-byte stream key (the HMAC key of every block)."""
        return self._key

    def draw(self, sides: int) -> int:
        """Return the next roll of a ``sides``-sided die, 1..sides, WITHOUT recording it.

        For verifiers that already hold the log; a game must use :meth:`roll`. Raises
        :class:`SidesError` unless ``sides`` is an ``int`` in 2..256.
        """
        if sides.__class__ is not int or not MIN_SIDES <= sides <= MAX_SIDES:
            raise SidesError(f"die with {sides!r} sides; expected an int from {MIN_SIDES} to {MAX_SIDES}")
        limit = 256 - 256 % sides
        block, pos = self._block, self._pos
        start = pos
        while True:
            if pos == len(block):
                self.bytes_used += pos - start
                block = self._block = hmac.digest(self._key, self._counter.to_bytes(8, "big"),
                                                  "sha256")
                self._counter += 1
                pos = start = 0
            b = block[pos]
            pos += 1
            if b < limit:
                self._pos = pos
                self.bytes_used += pos - start
                return b % sides + 1

    def roll(self, sides: int, why: str) -> int:
        """Roll a ``sides``-sided die (2 <= sides <= 256) and return 1..sides.

        Takes the next stream byte ``b``; if ``b >= 256 - (256 mod sides)`` it is discarded and the
        next taken (rejection sampling, so every face is equally likely); the result is
        ``(b mod sides) + 1``. Records ``Roll(index, sides, value, why)`` in :attr:`rolls`; ``why``
        is the public reason and must name no hidden fact.

        Raises :class:`SidesError` unless ``sides`` is an ``int`` in 2..256 (no byte is consumed).
        """
        value = self.draw(sides)
        self.rolls.append(Roll(len(self.rolls), sides, value, why))
        return value

    def shuffle(self, items: Sequence, why: str) -> list:
        """Return a new list holding ``items`` shuffled; ``items`` itself is not changed.

        Fisher-Yates from the last position down: for ``i`` from ``k-1`` down to 1, draw a
        ``(i+1)``-sided die giving ``v`` and swap positions ``i`` and ``v-1``. Position 0 draws
        nothing, so a 1-sided die is never drawn and 0 or 1 items draw nothing. Each draw is a
        logged roll with ``why`` = :func:`shuffle_why` ``(why, i, k)``, e.g. ``"tiles (shuffle 4/5)"``.

        Raises :class:`ShuffleSizeError` if ``k > 256`` (the first draw would need a die of more
        than 256 sides), before any byte is consumed.
        """
        out = list(items)
        count = len(out)
        if count > MAX_SIDES:
            raise ShuffleSizeError(
                f"shuffle of {count} items; expected at most {MAX_SIDES} (the first draw of a shuffle "
                f"of k items is a k-sided die, and a die has at most {MAX_SIDES} sides)")
        for i in range(count - 1, 0, -1):
            j = self.roll(i + 1, shuffle_why(why, i, count)) - 1
            out[i], out[j] = out[j], out[i]
        return out

    def __repr__(self) -> str:
        kind = "hidden " if self.hidden else ""
        return f"<DiceStream {kind}{self.game}/{self.phase}: {len(self.rolls)} rolls>"
