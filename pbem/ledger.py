"""The hash-chained public log (DESIGN.md, "The public log"; every line type in docs/log.md).

The log is append-only, one JSON object per line, UTF-8, no newline inside a line. Each line
carries ``prev``: the lowercase hex SHA-256 of the previous line's bytes without its newline
(:data:`GENESIS`, 64 zeros, on the first line), so a changed, inserted or removed line breaks the
chain. Lines are written in :func:`canonical_json` form and carry ``at``, the UTC time of writing
(``2026-11-29T20:15:00Z``), which the verifier ignores.

This module writes lines: :class:`Ledger` chains them, and the ``*_line`` functions build the dict
of each line type that carries something the verifier checks (``pbem.verify`` reads them back).
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime, timezone
from typing import Any, Iterable, Mapping

from pbem.dice import Roll

__all__ = [
    "GENESIS",
    "canonical_json",
    "line_hash",
    "utc_stamp",
    "setup_commitment",
    "Ledger",
    "LedgerError",
    "NotAnObjectError",
    "PrevPresentError",
    "MissingTypeError",
    "TimestampError",
    "HashFormatError",
    "NotJSONError",
    "game_created_line",
    "hidden_commit_line",
    "setup_commit_line",
    "dice_commit_line",
    "roll_line",
    "dice_reveal_line",
    "orders_line",
    "hidden_reveal_line",
    "setup_reveal_line",
]

GENESIS = "0" * 64
"""The ``prev`` of the first line of every log: 64 zeros (DESIGN.md, "The public log")."""

_HEX64 = re.compile(r"[0-9a-f]{64}")
_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


class LedgerError(ValueError):
    """Base class of the errors raised when writing the log."""


class NotAnObjectError(LedgerError):
    """``Ledger.append`` was given something other than a ``dict``: every line is one JSON object."""


class PrevPresentError(LedgerError):
    """``Ledger.append`` was given a dict that already has ``prev`` (appended twice, or copied from
    another line): the ledger alone sets ``prev``."""


class MissingTypeError(LedgerError):
    """``Ledger.append`` was given a dict without a string ``type``."""


class TimestampError(LedgerError):
    """An ``at`` value that is not ISO 8601 UTC to the second with ``Z`` (``2026-11-29T20:15:00Z``),
    or a naive ``datetime``."""


class HashFormatError(LedgerError):
    """A chain hash that is not 64 lowercase hex digits."""


class NotJSONError(LedgerError):
    """A line holding a value JSON cannot carry (a ``set``, ``bytes``, NaN or infinity)."""


def canonical_json(obj: Any) -> str:
    """Return the canonical JSON text of ``obj``: keys sorted, no spaces, non-ASCII kept as is.

    ``json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)``:
    one line (JSON escapes every control character, so the text holds no newline). Used for log
    lines and for the hidden setup's commitment (docs/log.md, "Canonical JSON").

    Raises ``TypeError`` for values JSON cannot carry and ``ValueError`` for NaN and infinities.
    """
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def line_hash(line: str | bytes) -> str:
    """Return the lowercase hex SHA-256 of one log line's UTF-8 bytes, without its newline."""
    data = line.encode("utf-8") if isinstance(line, str) else line
    return hashlib.sha256(data).hexdigest()


def utc_stamp(when: datetime | None = None) -> str:
    """Return ``when`` (default: now) as ISO 8601 UTC to the second: ``"2026-11-29T20:15:00Z"``.

    Raises :class:`TimestampError` for a naive ``datetime`` (its time zone is unknown).
    """
    if when is None:
        when = datetime.now(timezone.utc)
    elif when.tzinfo is None or when.utcoffset() is None:
        raise TimestampError(f"naive datetime {when.isoformat()!r}; expected an aware datetime")
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def setup_commitment(salt: bytes, hidden: Any) -> str:
    """Return the commitment to the initial hidden setup: lowercase hex
    ``sha256(salt + canonical_json(hidden).encode("utf-8"))`` (docs/log.md, "setup-commit").

    ``salt`` is random bytes (32 from ``pbem.dice.new_seed()``), published only in the
    ``setup-reveal`` line at the end of the game, so the commitment cannot be brute-forced from the
    few possible setups before then.

    Raises :class:`NotJSONError` if ``hidden`` cannot be JSON or would not read back as the same
    text (a dict with non-string keys: ``{9: .., 10: ..}`` sorts as numbers here but as strings
    once read back from the log, so no verifier could match the commitment).
    """
    try:
        text = canonical_json(hidden)
        stable = canonical_json(json.loads(text)) == text
    except (TypeError, ValueError) as exc:
        raise NotJSONError(f"hidden setup {hidden!r} cannot be JSON: {exc}") from exc
    if not stable:
        raise NotJSONError(
            f"hidden setup {text[:80]!r} does not read back from JSON as the same text; expected "
            "string keys only (a verifier rebuilds the text from the logged setup)")
    return hashlib.sha256(bytes(salt) + text.encode("utf-8")).hexdigest()


class Ledger:
    """Chains log lines: ``Ledger(last=GENESIS)``, where ``last`` is the hash of the last line
    already in the log (``line_hash(last_line)``), or :data:`GENESIS` for a new log.

    :meth:`append` turns a dict into the next line. The ledger keeps no lines; the caller stores
    each returned line (with a newline after it in a file). Raises :class:`HashFormatError` if
    ``last`` is not 64 lowercase hex digits.
    """

    __slots__ = ("last", "count")

    def __init__(self, last: str = GENESIS) -> None:
        if not isinstance(last, str) or not _HEX64.fullmatch(last):
            raise HashFormatError(f"last line hash {last!r}; expected 64 lowercase hex digits")
        self.last = last  # hash of the last line: the ``prev`` of the next line
        self.count = 0  # lines appended through this object

    @classmethod
    def after(cls, lines: Iterable[str]) -> "Ledger":
        """Return a ledger that continues the log ``lines`` (each without or with its newline).

        Only the last non-empty line is hashed; the chain is not checked (``pbem.verify`` does that).
        """
        last = GENESIS
        for line in lines:
            line = line.rstrip("\r\n")
            if line:
                last = line_hash(line)
        return cls(last)

    def append(self, obj: dict) -> str:
        """Add ``obj`` as the next line and return the line (canonical JSON, no newline).

        Sets ``obj["prev"]`` to the hash of the last line, and ``obj["at"]`` to :func:`utc_stamp`
        if absent, then advances :attr:`last` to the new line's hash.

        Raises :class:`NotAnObjectError` if ``obj`` is not a ``dict``, :class:`PrevPresentError` if
        it already has ``prev``, :class:`MissingTypeError` without a string ``type``,
        :class:`TimestampError` for an ``at`` not like ``2026-11-29T20:15:00Z``, and
        :class:`NotJSONError` for values JSON cannot carry. On error nothing changes.
        """
        if not isinstance(obj, dict):
            raise NotAnObjectError(f"log line {obj!r}; expected a dict (one JSON object per line)")
        if "prev" in obj:
            raise PrevPresentError(
                f"log line {obj!r} already has 'prev'; expected a dict without it (the ledger sets "
                "'prev'; was this dict appended before?)")
        if not isinstance(obj.get("type"), str):
            raise MissingTypeError(f"log line {obj!r} has no string 'type'; expected e.g. \"roll\"")
        at = obj.get("at")
        if at is not None and not (isinstance(at, str) and _STAMP.fullmatch(at)):
            raise TimestampError(f"'at' {at!r}; expected ISO 8601 UTC like \"2026-11-29T20:15:00Z\"")
        line_obj = dict(obj, prev=self.last)
        if at is None:
            line_obj["at"] = utc_stamp()
        try:
            line = canonical_json(line_obj)
        except (TypeError, ValueError) as exc:
            raise NotJSONError(f"log line {obj!r} cannot be JSON: {exc}") from exc
        obj["prev"] = self.last
        obj["at"] = line_obj["at"]
        self.last = line_hash(line)
        self.count += 1
        return line


# --- line builders: the dict of each line type (docs/log.md); Ledger.append adds prev and at. ---

def game_created_line(game: str, ruleset: str, roles: list[str], options: Mapping[str, Any],
                      referee_key: str, house_rules_sha256: str | None, **extra: Any) -> dict:
    """``game-created``: the public facts of a new game. ``referee_key`` is the game's referee
    public key line; ``house_rules_sha256`` the hex SHA-256 of the house-rules file, or None."""
    return {"type": "game-created", "game": game, "ruleset": ruleset, "roles": list(roles),
            "options": dict(options), "referee_key": referee_key,
            "house_rules_sha256": house_rules_sha256, **extra}


def hidden_commit_line(game: str, commit: str) -> dict:
    """``hidden-commit``: ``commit`` = ``pbem.dice.commitment(hidden_seed)`` of the per-game hidden
    seed, published at game creation (DESIGN.md, "Hidden draws use a second stream")."""
    return {"type": "hidden-commit", "game": game, "commit": commit}


def setup_commit_line(game: str, commit: str) -> dict:
    """``setup-commit``: ``commit`` = :func:`setup_commitment` ``(salt, hidden_setup)``."""
    return {"type": "setup-commit", "game": game, "commit": commit}


def dice_commit_line(game: str, phase: str, commit: str) -> dict:
    """``dice-commit``: the phase's ``pbem.dice.commitment(seed)``, before any orders for it."""
    return {"type": "dice-commit", "game": game, "phase": phase, "commit": commit}


def roll_line(game: str, phase: str, roll: Roll, *, hidden: bool = False) -> dict:
    """``roll``: one draw of a phase's stream (``index``, ``sides``, ``value``, ``why``). With
    ``hidden`` the line has ``"stream": "hidden"`` and no ``value`` (revealed at the game's end)."""
    if hidden:
        return {"type": "roll", "stream": "hidden", "game": game, "phase": phase,
                "index": roll.index, "sides": roll.sides, "why": roll.why}
    return {"type": "roll", "game": game, "phase": phase, "index": roll.index,
            "sides": roll.sides, "value": roll.value, "why": roll.why}


def dice_reveal_line(game: str, phase: str, seed: bytes, nonces: Mapping[str, str]) -> dict:
    """``dice-reveal``: the phase's seed (hex) and the nonces its key was made with."""
    return {"type": "dice-reveal", "game": game, "phase": phase, "seed": bytes(seed).hex(),
            "nonces": dict(nonces)}


def orders_line(game: str, phase: str, role: str, commit: str, issued: str) -> dict:
    """``orders``: the salted commitment of an accepted order set (docs/log.md: hex
    SHA-256(salt || canonical text), never the text nor its plain digest) and its ``issued``
    time."""
    return {"type": "orders", "game": game, "phase": phase, "role": role, "commit": commit,
            "issued": issued}


def hidden_reveal_line(game: str, seed: bytes, values: list[int]) -> dict:
    """``hidden-reveal``: the hidden seed (hex) and the values of all hidden rolls, in the order
    their roll lines appear in the log."""
    return {"type": "hidden-reveal", "game": game, "seed": bytes(seed).hex(), "values": list(values)}


def setup_reveal_line(game: str, salt: bytes, hidden: Any) -> dict:
    """``setup-reveal``: the salt (hex) and the initial hidden setup committed by ``setup-commit``."""
    return {"type": "setup-reveal", "game": game, "salt": bytes(salt).hex(), "hidden": hidden}
