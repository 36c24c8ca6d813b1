"""Verify a public log with no database and no key (DESIGN.md, "The public log"; docs/log.md).

``verify_log(lines, source)`` reads a log line by line and checks:

1. every line is one JSON object and ``prev`` chains from ``GENESIS`` (a changed, inserted, removed
   or reordered line is caught at the first line whose ``prev`` no longer fits);
2. each ``dice-commit`` precedes its phase's rolls; roll indices count from 0 without gaps per
   (game, phase, stream);
3. at ``dice-reveal``: ``sha256(seed) == commit``, and every roll of the phase, re-derived from the
   seed and the revealed nonces in index order, has the logged value; no roll of the phase follows;
4. at ``hidden-reveal``: ``sha256(seed) == commit`` of ``hidden-commit``, and ``values`` holds the
   re-derived value of every hidden roll (per phase, in index order), each phase's hidden stream
   keyed with the nonces of that phase's ``dice-reveal``, which must come before the hidden-reveal;
5. at ``setup-reveal``: ``sha256(salt + canonical_json(hidden))`` is the ``setup-commit`` (one per
   game, anywhere before the reveal: at creation or at the end of the window that dealt the setup);
6. an unfinished log is fine: what is not yet revealed is counted as pending, not as an error;
7. a referee's undo (``{"type": "referee", "action": "undo", "phase": P, "commit": ...}``) names
   the last resolved phase (revealed, with no phase resolved after it) before the game's end. The
   undone phase's rolls were checked at its reveal and its hidden rolls are checked at the
   hidden-reveal with its own nonces; after the undo, P may be committed again, and every
   commitment made after P's reveal (the window its resolution opened) is cancelled: after its
   own reveal it may be committed again too. A ``setup-commit`` that followed P's reveal is
   withdrawn, and the setup is committed again. Each commitment of a phase id is matched with
   its own rolls and reveal, in order. These checks are :mod:`pbem.verify_rollback`; those of
   4 and 5 are :mod:`pbem.verify_hidden`.

The result is a :class:`VerifyReport`; nothing is raised for a bad log. A log is read once, as
it comes (an open file is not loaded whole): the verifier keeps 12 bytes per line (the chain's
record, :mod:`pbem.verify_chain`) and a phase's rolls only until its reveal, so a log of a
million rolls is verified in a few seconds and a few tens of megabytes (bench/bench_verify.py).
Public roll lines as pbem writes them are read without the JSON parser (``_PUBLIC_ROLL``).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from pbem.dice import MAX_SIDES, MIN_SIDES, SEED_BYTES, DiceError, DiceStream, commitment
from pbem.ledger import GENESIS
from pbem.verify_chain import ChainChecks, LineHashes
from pbem.verify_hidden import HiddenChecks, _is_int
from pbem.verify_rollback import RollbackChecks

__all__ = ["VerifyReport", "verify_log", "verify_file"]

_HEX = frozenset("0123456789abcdef")
_raw_decode = json.JSONDecoder().raw_decode  # the decoder json.loads uses by default
_sha256 = hashlib.sha256
_LINE_ENDS = (b"\n", b"\r")
_ANY = r'"[^"\\\x00-\x1f]*+"'  # a JSON string without escapes: its text is its value
_TEXT = r'"([^"\\\x00-\x1f]*+)"'  # the same, its text kept
_INT = r'(0|[1-9][0-9]{0,17}+)'  # a JSON integer >= 0 as canonical JSON writes it
_PUBLIC_ROLL = re.compile(
    r'\{"at":' + _ANY + r',"game":' + _TEXT + r',"index":' + _INT + r',"phase":' + _TEXT
    + r',"prev":"([0-9a-f]{64})","sides":' + _INT + r',"type":"roll","value":' + _INT
    + r',"why":' + _ANY + r'\}').fullmatch
"""A public roll line as pbem writes it (canonical JSON, docs/log.md): such a line needs no
JSON parser, its values are the text of its groups (game, index, phase, prev, sides, value;
its ``at`` and ``why`` are strings, which the checks do not read). Every other line, and any
roll line written otherwise, is parsed as JSON and checked the same way."""


@dataclass
class VerifyReport:
    """What :func:`verify_log` found in one log.

    ``errors`` and ``warnings`` are lines ``"<source>:<line>: <what was expected, what was found>"``
    (line numbers count from 1). ``ok`` is True when there is no error; pending draws are not
    errors. Counts: ``lines`` read; ``phases_verified`` (revealed, seed matches its commitment,
    every roll re-derived), ``phases_pending`` (committed, not yet revealed) and
    ``phases_undone`` (rolled back by a referee's undo, their rolls verified all the same);
    ``rolls_verified``/``rolls_pending`` (public rolls); ``hidden_verified``/``hidden_pending``
    (hidden rolls); ``setups_verified``/``setups_pending`` (hidden setups). ``head`` is the hash
    of the last line: compare it with the head published elsewhere (a report) to protect the last
    line, which no later ``prev`` covers.
    """

    source: str = "log"
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    lines: int = 0
    phases_verified: int = 0
    phases_pending: int = 0
    rolls_verified: int = 0
    rolls_pending: int = 0
    hidden_verified: int = 0
    hidden_pending: int = 0
    setups_verified: int = 0
    setups_pending: int = 0
    phases_undone: int = 0
    head: str = GENESIS

    @property
    def ok(self) -> bool:
        """True when no error was found (pending draws and warnings do not count)."""
        return not self.errors

    def summary(self) -> str:
        """Return a text for people: one verdict line with the counts, the head hash, then every
        error and every warning on a line of its own."""
        verdict = "OK" if self.ok else f"FAILED ({len(self.errors)} errors)"
        out = [
            f"{self.source}: {verdict}: {self.lines} lines; "
            f"{self.phases_verified} phases verified, {self.phases_pending} pending"
            + (f", {self.phases_undone} undone; " if self.phases_undone else "; ") +
            f"{self.rolls_verified} rolls verified, {self.rolls_pending} pending; "
            f"hidden rolls {self.hidden_verified} verified, {self.hidden_pending} pending; "
            f"setups {self.setups_verified} verified, {self.setups_pending} pending",
            f"head {self.head}",
        ]
        out += [f"error: {e}" for e in self.errors]
        out += [f"warning: {w}" for w in self.warnings]
        return "\n".join(out)


class _Phase:
    """One commitment of a phase: its public stream (commitment, rolls (line, sides, value) and
    reveal, whose nonces also key the phase's hidden stream) and the count of its hidden rolls.
    A phase id has more than one when a referee's undo rolled the phase back (``undone``: the
    undo's line) or cancelled the window (``cancelled``: the undo's line) and it was committed
    again."""

    __slots__ = ("commit", "commit_line", "rolls", "next_index", "revealed", "nonces", "broken",
                 "reported", "hidden_next", "undone", "cancelled", "before")

    def __init__(self) -> None:
        self.commit: str | None = None
        self.commit_line = 0
        self.rolls: list[tuple[int, int, Any]] = []
        self.next_index = 0
        self.revealed = 0        # line of the dice-reveal, 0 while pending
        self.nonces: dict[str, str] | None = None  # the dice-reveal's nonces, if well-formed
        self.broken = False      # an index or sides error: the rolls cannot be re-derived
        self.reported = False    # "roll before its dice-commit" already reported
        self.hidden_next = 0     # the index of the next hidden roll of this commitment
        self.undone = 0          # line of the referee's undo that rolled it back
        self.cancelled = 0       # line of the referee's undo that cancelled its window
        self.before: _Phase | None = None  # the undone commitment this one follows


class _Game:
    """One game's hidden stream and hidden setup."""

    __slots__ = ("hidden_commit", "hidden_line", "hidden_rolls", "hidden_revealed",
                 "hidden_broken", "hidden_reported", "setup_commit", "setup_line", "setup_revealed",
                 "ended")

    def __init__(self) -> None:
        self.hidden_commit: str | None = None
        self.hidden_line = 0
        # (line, phase, sides, the phase's commitment then) in log order
        self.hidden_rolls: list[tuple[int, str, int, _Phase]] = []
        self.hidden_revealed = 0
        self.hidden_broken = False
        self.hidden_reported = False
        self.setup_commit: str | None = None
        self.setup_line = 0
        self.setup_revealed = 0
        self.ended = 0


def _is_hex64(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and _HEX.issuperset(value)


class _Verifier(ChainChecks, HiddenChecks, RollbackChecks):
    def __init__(self, report: VerifyReport) -> None:
        self.r = report
        self.seen = LineHashes()
        self.last_line = 0
        self.phases: dict[tuple[str, str], _Phase] = {}
        self.games: dict[str, _Game] = {}
        self.order_roles: dict[tuple[str, str], set[str]] = {}
        self.handlers = {
            "roll": self.roll,
            "dice-commit": self.dice_commit,
            "dice-reveal": self.dice_reveal,
            "hidden-commit": self.hidden_commit,
            "hidden-reveal": self.hidden_reveal,
            "setup-commit": self.setup_commit,
            "setup-reveal": self.setup_reveal,
            "orders": self.orders,
            "orders-used": self.orders_used,
            "game-end": self.game_end,
            "referee": self.referee,
        }

    # --- reporting -------------------------------------------------------------------------

    def error(self, n: int, text: str) -> None:
        self.r.errors.append(f"{self.r.source}:{n}: {text}")

    def warn(self, n: int, text: str) -> None:
        self.r.warnings.append(f"{self.r.source}:{n}: {text}")

    def text_fields(self, n: int, obj: dict, kind: str, names: tuple[str, ...]) -> bool:
        ok = True
        for name in names:
            if not isinstance(obj.get(name), str):
                self.error(n, f"{kind} line: expected a string {name!r}, found {obj.get(name)!r}")
                ok = False
        return ok

    def hex_field(self, n: int, obj: dict, kind: str, name: str) -> bool:
        if _is_hex64(obj.get(name)):
            return True
        self.error(n, f"{kind} line: expected {name!r} as 64 lowercase hex digits, "
                      f"found {obj.get(name)!r}")
        return False

    def seed_field(self, n: int, obj: dict, kind: str, name: str) -> bytes | None:
        value = obj.get(name)
        if (isinstance(value, str) and len(value) == 2 * SEED_BYTES and _HEX.issuperset(value)):
            return bytes.fromhex(value)
        self.error(n, f"{kind} line: expected {name!r} as {2 * SEED_BYTES} lowercase hex digits "
                      f"({SEED_BYTES} bytes), found {value!r}")
        return None

    def phase_of(self, game: str, phase: str) -> _Phase:
        ph = self.phases.get((game, phase))
        if ph is None:
            ph = self.phases[(game, phase)] = _Phase()
        return ph

    def new_phase(self, game: str, phase: str) -> _Phase:
        """A new commitment of ``phase``, replacing the current one (which a referee's undo
        rolled back or cancelled) and forgetting the roles whose orders it accepted."""
        ph = self.phases[(game, phase)] = _Phase()
        self.order_roles.pop((game, phase), None)
        return ph

    def game_of(self, game: str) -> _Game:
        g = self.games.get(game)
        if g is None:
            g = self.games[game] = _Game()
        return g

    # --- the chain ---------------------------------------------------------------------------

    def run(self, lines: Iterable[str | bytes]) -> None:
        """:meth:`line` for each of ``lines``, numbered from 1. The hot path of a long log is
        here: a public roll line as pbem writes it (bytes ending in one newline, matching
        :data:`_PUBLIC_ROLL`) is checked without the JSON parser and, when nothing is wrong
        with it, without a call of the general path: the outcome is the same."""
        r, phases, line = self.r, self.phases, self.line
        for n, raw in enumerate(lines, 1):
            fast = None
            if raw.__class__ is bytes and raw[-1:] == b"\n" and raw[-2:-1] not in _LINE_ENDS:
                data = raw[:-1]
                try:
                    fast = _PUBLIC_ROLL(data.decode("utf-8"))
                except UnicodeDecodeError:
                    pass
            if fast is not None:
                game, index, phase, prev, sides, value = fast.groups()
                index, sides, value = int(index), int(sides), int(value)
                if MIN_SIDES <= sides <= MAX_SIDES:
                    r.lines = n
                    self.chain(n, prev, _sha256(data).digest())
                    ph = phases.get((game, phase))
                    if (ph is not None and 1 <= value <= sides and not ph.revealed
                            and ph.commit is not None and index == ph.next_index):
                        ph.next_index = index + 1  # public_roll, when it finds nothing wrong
                        ph.rolls.append((n, sides, value))
                    else:
                        self.public_roll(n, game, phase, index, sides, value)
                    continue
            line(n, raw)

    def line(self, n: int, raw: str | bytes) -> None:
        self.r.lines = n
        if isinstance(raw, bytes):
            data = raw[:-1] if raw[-1:] == b"\n" else raw  # the usual case, then the rest
            if data[-1:] in _LINE_ENDS:
                data = data.rstrip(b"\n").removesuffix(b"\r")
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                self.error(n, f"expected UTF-8, found byte {data[exc.start:exc.start + 1]!r} at "
                              f"byte {exc.start}")
                self.advance(n, _sha256(data).digest())
                return
        else:
            text = raw.rstrip("\n").removesuffix("\r")
            try:
                data = text.encode("utf-8")
            except UnicodeEncodeError as exc:
                self.error(n, f"expected text that UTF-8 can encode, found {exc.object[exc.start]!r}")
                return
        if not text:
            self.error(n, "expected one JSON object, found an empty line (left out of the chain)")
            return
        digest = _sha256(data).digest()
        try:  # json.loads without its per-call overhead; json.loads itself decides the rest
            obj, end = _raw_decode(text)
        except (ValueError, RecursionError):
            end = -1
        if end != len(text):
            try:
                obj = json.loads(text)
            except (ValueError, RecursionError) as exc:  # RecursionError: absurdly deep nesting
                self.error(n, f"expected one JSON object, found text that is not JSON ({exc}): "
                              f"{text[:60]!r}")
                self.advance(n, digest)
                return
        if obj.__class__ is not dict:
            self.error(n, f"expected one JSON object, found {type(obj).__name__} {text[:60]!r}")
            self.advance(n, digest)
            return
        self.chain(n, obj.get("prev"), digest)
        kind = obj.get("type")
        if kind.__class__ is not str:
            self.warn(n, f"expected a string 'type', found {kind!r}")
            return
        handler = self.handlers.get(kind)
        if handler is not None:
            handler(n, obj)

    # --- public dice ---------------------------------------------------------------------------

    def dice_commit(self, n: int, obj: dict) -> None:
        if not (self.text_fields(n, obj, "dice-commit", ("game", "phase"))
                and self.hex_field(n, obj, "dice-commit", "commit")):
            return
        ph = self.phase_of(obj["game"], obj["phase"])
        if ph.commit is not None and ph.cancelled:  # its window was cancelled by an undo
            ph = self.commit_after_cancel(n, obj, ph)
        if ph.commit is not None:
            self.error(n, f"dice-commit for phase {obj['phase']!r}: expected one per phase, found a "
                          f"second (the first is line {ph.commit_line})")
            return
        if ph.before is not None:  # the phase was undone: its new commitment must be new
            self.commit_after_undo(n, obj, ph.before)
        if ph.rolls:
            self.error(n, f"dice-commit for phase {obj['phase']!r}: expected before the phase's rolls, "
                          f"found after its roll at line {ph.rolls[0][0]}")
        ph.commit, ph.commit_line = obj["commit"], n

    def roll(self, n: int, obj: dict) -> None:
        # The hot path of a log: plain checks inlined, messages built only on error.
        game, phase, index, sides = obj.get("game"), obj.get("phase"), obj.get("index"), obj.get("sides")
        if not (game.__class__ is str and phase.__class__ is str and index.__class__ is int
                and index >= 0 and sides.__class__ is int and MIN_SIDES <= sides <= MAX_SIDES):
            self.bad_roll(n, obj)
            return
        if "why" not in obj:
            self.warn(n, "roll line: expected a 'why' (the public reason), found none")
        stream = obj.get("stream")
        if stream is None:
            self.public_roll(n, game, phase, index, sides, obj.get("value"))
        elif stream == "hidden":
            self.hidden_roll(n, obj, game, phase, index, sides)
        else:
            self.error(n, f"roll line: expected no 'stream' (public) or \"hidden\", found {stream!r}")

    def bad_roll(self, n: int, obj: dict) -> None:
        if self.text_fields(n, obj, "roll", ("game", "phase")):
            if obj.get("stream") == "hidden":
                self.game_of(obj["game"]).hidden_broken = True
            else:
                self.phase_of(obj["game"], obj["phase"]).broken = True
        index, sides = obj.get("index"), obj.get("sides")
        if not (_is_int(index) and index >= 0):
            self.error(n, f"roll line: expected 'index' as an integer >= 0, found {index!r}")
        if not (_is_int(sides) and MIN_SIDES <= sides <= MAX_SIDES):
            self.error(n, f"roll line: expected 'sides' as an integer from {MIN_SIDES} to "
                          f"{MAX_SIDES}, found {sides!r}")

    def index_error(self, n: int, phase: str, index: int, expected: int, what: str) -> None:
        self.error(n, f"{what} roll of phase {phase!r}: expected index {expected}, found {index} "
                      f"(indices count from 0 without gaps)")

    def public_roll(self, n: int, game: str, phase: str, index: int, sides: int,
                    value: Any) -> None:
        if value.__class__ is not int or not 1 <= value <= sides:
            self.error(n, f"roll line: expected 'value' as an integer from 1 to {sides}, found {value!r}")
        ph = self.phases.get((game, phase))
        if ph is None:
            ph = self.phase_of(game, phase)
        if ph.revealed:
            self.error(n, f"roll of phase {phase!r}: expected none after the phase's dice-reveal "
                          f"(line {ph.revealed}), found one")
            return
        if ph.commit is None and not ph.reported:
            self.error(n, f"roll of phase {phase!r}: expected a dice-commit for the phase before its "
                          "rolls, found none")
            ph.reported = True
        if index != ph.next_index:
            self.index_error(n, phase, index, ph.next_index, "public")
            ph.broken = True
        ph.next_index = index + 1
        ph.rolls.append((n, sides, value))

    def dice_reveal(self, n: int, obj: dict) -> None:
        if not self.text_fields(n, obj, "dice-reveal", ("game", "phase")):
            return
        game, phase = obj["game"], obj["phase"]
        ph = self.phase_of(game, phase)
        if ph.revealed:
            self.error(n, f"dice-reveal for phase {phase!r}: expected one, found a second (the first "
                          f"is line {ph.revealed})")
            return
        ph.revealed = n
        try:
            self.check_reveal(n, obj, ph)
        finally:
            ph.rolls = []  # checked (or reported): no later line needs them, a long log less so

    def check_reveal(self, n: int, obj: dict, ph: _Phase) -> None:
        """The checks of a phase's first ``dice-reveal`` (line ``n``): its seed against the
        commitment, every roll of the phase re-derived (module doc, check 3)."""
        game, phase = obj["game"], obj["phase"]
        nonces = obj.get("nonces")
        nonces_ok = isinstance(nonces, dict) and all(isinstance(v, str) for v in nonces.values())
        if nonces_ok:
            ph.nonces = nonces  # they key the phase's hidden stream too, checked at hidden-reveal
        if ph.commit is None:
            self.error(n, f"dice-reveal for phase {phase!r}: expected a dice-commit before it, found none")
            return
        seed = self.seed_field(n, obj, "dice-reveal", "seed")
        if not nonces_ok:
            self.error(n, f"dice-reveal line: expected 'nonces' as an object of role: nonce strings, "
                          f"found {nonces!r}")
            return
        if seed is None:
            return
        if commitment(seed) != ph.commit:
            self.error(n, f"dice-reveal for phase {phase!r}: expected a seed whose sha256 is the commit "
                          f"{ph.commit} (line {ph.commit_line}), found sha256(seed) = "
                          f"{commitment(seed)}; its {len(ph.rolls)} rolls are not checked")
            return
        try:
            stream = DiceStream(seed, game, phase, nonces)
        except DiceError as exc:
            self.error(n, f"dice-reveal for phase {phase!r}: {exc}")
            return
        self.check_order_roles(n, game, phase, nonces)
        if ph.broken:
            self.error(n, f"dice-reveal for phase {phase!r}: its {len(ph.rolls)} rolls are not "
                          "re-derived: their indices or sides are wrong (see above)")
            return
        draw, bad = stream.draw, 0
        for line, sides, value in ph.rolls:
            expected = draw(sides)
            if expected != value:
                bad += 1
                self.error(line, f"roll of phase {phase!r} (d{sides}): expected {expected} from the seed "
                                 f"revealed at line {n}, found {value!r}")
        self.r.rolls_verified += len(ph.rolls) - bad
        if not bad:
            self.r.phases_verified += 1

    def orders(self, n: int, obj: dict) -> None:
        self.hex_field(n, obj, "orders", "commit")
        if "sha256" in obj:  # a plain digest lets anyone test guesses of secret orders
            self.error(n, "orders line: carries 'sha256', a plain digest of the orders; "
                          "expected only the salted 'commit' (docs/log.md, orders)")
        game, phase, role = obj.get("game"), obj.get("phase"), obj.get("role")
        if isinstance(game, str) and isinstance(phase, str) and isinstance(role, str):
            self.order_roles.setdefault((game, phase), set()).add(role)

    def orders_used(self, n: int, obj: dict) -> None:
        self.hex_field(n, obj, "orders-used", "commit")
        if "sha256" in obj:
            self.error(n, "orders-used line: carries 'sha256', a plain digest of the orders; "
                          "expected only the salted 'commit' (docs/log.md, orders)")

    def check_order_roles(self, n: int, game: str, phase: str, nonces: dict) -> None:
        roles = self.order_roles.get((game, phase))
        if roles is not None and roles != set(nonces):
            self.warn(n, f"dice-reveal for phase {phase!r}: expected nonces of the roles whose orders "
                         f"were accepted {sorted(roles)}, found nonces of {sorted(nonces)}")

    def game_end(self, n: int, obj: dict) -> None:
        if isinstance(obj.get("game"), str):
            self.game_of(obj["game"]).ended = n

    # --- the end of the log --------------------------------------------------------------------

    def finish(self) -> VerifyReport:
        r = self.r
        for (game, phase), ph in self.phases.items():
            if ph.commit is not None and not ph.revealed:
                r.phases_pending += 1
                r.rolls_pending += len(ph.rolls)
                ended = self.games.get(game)
                if ended is not None and ended.ended:
                    self.warn(ended.ended, f"game {game!r} ended but phase {phase!r} (dice-commit at "
                                           f"line {ph.commit_line}) was never revealed")
        for game, g in self.games.items():
            if g.hidden_commit is not None and not g.hidden_revealed:
                r.hidden_pending += len(g.hidden_rolls)
                if g.ended:
                    self.warn(g.ended, f"game {game!r} ended but its hidden seed (hidden-commit at "
                                       f"line {g.hidden_line}) is not revealed yet")
            if g.setup_commit is not None and not g.setup_revealed:
                r.setups_pending += 1
                if g.ended:
                    self.warn(g.ended, f"game {game!r} ended but its hidden setup (setup-commit at "
                                       f"line {g.setup_line}) is not revealed yet")
        return r


def verify_log(lines: Iterable[str | bytes], source: str = "log") -> VerifyReport:
    """Check a public log and return a :class:`VerifyReport` (never raises for a bad log).

    ``lines`` are the log's lines in order, ``str`` or UTF-8 ``bytes``, with or without their
    newline (a trailing ``"\\r\\n"`` is accepted too); an open file works. Do not split a log with
    ``str.splitlines``: it also splits at U+2028 and other characters a line may hold. ``source``
    names the log in messages (``"game.log"`` gives ``"game.log:12: ..."``).

    The checks are listed in the module docstring and in docs/log.md, "Verifying a log".
    """
    verifier = _Verifier(VerifyReport(source=source))
    verifier.run(lines)
    return verifier.finish()


def verify_file(path: str, source: str | None = None) -> VerifyReport:
    """Open ``path`` in binary mode and :func:`verify_log` its lines; ``source`` defaults to
    ``path``. Raises ``OSError`` if the file cannot be read."""
    with open(path, "rb") as fh:
        return verify_log(fh, source if source is not None else str(path))
