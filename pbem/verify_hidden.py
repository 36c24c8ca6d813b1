"""The hidden-dice and hidden-setup checks of the log verifier (docs/dice.md, "The hidden
stream"; docs/log.md, checks 4 and 5): ``hidden-commit``, hidden rolls, ``hidden-reveal``,
``setup-commit`` and ``setup-reveal``. Mixed into :class:`pbem.verify._Verifier`, whose
reporting and bookkeeping (``error``, ``game_of``, ``phase_of``, the report ``r``) they use.
"""

from __future__ import annotations

from typing import Any

from pbem.dice import DiceError, DiceStream, commitment
from pbem.ledger import setup_commitment


def _is_int(value: Any) -> bool:
    return value.__class__ is int  # bool is not a count


class HiddenChecks:
    """Handlers for the log lines that carry the hidden stream and the hidden setup."""

    def hidden_commit(self, n: int, obj: dict) -> None:
        if not (self.text_fields(n, obj, "hidden-commit", ("game",))
                and self.hex_field(n, obj, "hidden-commit", "commit")):
            return
        g = self.game_of(obj["game"])
        if g.hidden_commit is not None:
            self.error(n, f"hidden-commit: expected one per game, found a second (the first is line "
                          f"{g.hidden_line})")
            return
        if g.hidden_rolls:
            self.error(n, f"hidden-commit: expected before the hidden rolls, found after the hidden roll "
                          f"at line {g.hidden_rolls[0][0]}")
        g.hidden_commit, g.hidden_line = obj["commit"], n

    def hidden_roll(self, n: int, obj: dict, game: str, phase: str, index: int, sides: int) -> None:
        g = self.game_of(game)
        if "value" in obj:
            self.error(n, f"hidden roll: expected no 'value' while the game runs, found {obj['value']!r}")
        if g.hidden_revealed:
            self.error(n, f"hidden roll: expected none after the hidden-reveal (line "
                          f"{g.hidden_revealed}), found one")
            return
        if g.hidden_commit is None and not g.hidden_reported:
            self.error(n, "hidden roll: expected a hidden-commit for the game before it, found none")
            g.hidden_reported = True
        ph = self.phase_of(game, phase)  # the phase's current commitment: its nonces key the roll
        expected = ph.hidden_next
        if index != expected:
            self.index_error(n, phase, index, expected, "hidden")
            g.hidden_broken = True
        ph.hidden_next = index + 1
        g.hidden_rolls.append((n, phase, sides, ph))

    def hidden_reveal(self, n: int, obj: dict) -> None:
        if not self.text_fields(n, obj, "hidden-reveal", ("game",)):
            return
        game = obj["game"]
        g = self.game_of(game)
        if g.hidden_revealed:
            self.error(n, f"hidden-reveal: expected one per game, found a second (the first is line "
                          f"{g.hidden_revealed})")
            return
        g.hidden_revealed = n
        if g.hidden_commit is None:
            self.error(n, "hidden-reveal: expected a hidden-commit before it, found none")
            return
        seed = self.seed_field(n, obj, "hidden-reveal", "seed")
        values = obj.get("values")
        if not isinstance(values, list):
            self.error(n, f"hidden-reveal line: expected 'values' as a list of integers, found {values!r}")
            return
        if seed is None:
            return
        if commitment(seed) != g.hidden_commit:
            self.error(n, f"hidden-reveal: expected a seed whose sha256 is the commit {g.hidden_commit} "
                          f"(line {g.hidden_line}), found sha256(seed) = {commitment(seed)}")
            return
        if len(values) != len(g.hidden_rolls):
            self.error(n, f"hidden-reveal: expected {len(g.hidden_rolls)} values (one per hidden roll "
                          f"line), found {len(values)}")
        if g.hidden_broken:
            self.error(n, "hidden-reveal: the hidden rolls are not re-derived: their indices or sides "
                          "are wrong (see above)")
            return
        # per commitment of a phase (an undone phase has two): None if it cannot be derived
        streams: dict[object, DiceStream | None] = {}
        good = 0
        for (line, phase, sides, ph), value in zip(g.hidden_rolls, values):
            stream = streams.get(ph, False)
            if stream is False:
                stream = streams[ph] = self.hidden_stream(n, line, seed, game, phase, ph)
            if stream is None:
                continue
            expected = stream.draw(sides)
            if expected == value and _is_int(value):
                good += 1
            else:
                self.error(line, f"hidden roll of phase {phase!r} (d{sides}): expected {expected} from "
                                 f"the seed revealed at line {n}, found {value!r} in its 'values'")
        self.r.hidden_verified += good

    def hidden_stream(self, n: int, line: int, seed: bytes, game: str, phase: str,
                      ph) -> DiceStream | None:
        """The hidden stream of ``phase`` for its commitment ``ph`` (a phase undone and committed
        again has two), keyed with the nonces of that commitment's dice-reveal; None, after
        reporting why at the hidden-reveal (line ``n``), if it cannot be derived. ``line`` is the
        first hidden roll of that commitment."""
        if not ph.revealed:
            self.error(n, f"hidden-reveal: the hidden rolls of phase {phase!r} (the first at line "
                          f"{line}) are not re-derived: expected the phase's dice-reveal before this "
                          "line (its nonces key the phase's hidden stream), found none")
            return None
        if ph.nonces is None:
            self.error(n, f"hidden-reveal: the hidden rolls of phase {phase!r} (the first at line "
                          f"{line}) are not re-derived: the phase's dice-reveal (line {ph.revealed}) "
                          "has no valid 'nonces' to key its hidden stream")
            return None
        try:
            return DiceStream(seed, game, phase, ph.nonces, hidden=True)
        except DiceError as exc:
            self.error(n, f"hidden-reveal: the hidden rolls of phase {phase!r} (the first at line "
                          f"{line}) are not re-derived: the nonces of the phase's dice-reveal (line "
                          f"{ph.revealed}) cannot key a stream: {exc}")
            return None

    def setup_commit(self, n: int, obj: dict) -> None:
        if not (self.text_fields(n, obj, "setup-commit", ("game",))
                and self.hex_field(n, obj, "setup-commit", "commit")):
            return
        g = self.game_of(obj["game"])
        if g.setup_commit is not None:
            self.error(n, f"setup-commit: expected one per game, found a second (the first is line "
                          f"{g.setup_line})")
            return
        g.setup_commit, g.setup_line = obj["commit"], n

    def setup_reveal(self, n: int, obj: dict) -> None:
        if not self.text_fields(n, obj, "setup-reveal", ("game", "salt")):
            return
        g = self.game_of(obj["game"])
        if g.setup_revealed:
            self.error(n, f"setup-reveal: expected one per game, found a second (the first is line "
                          f"{g.setup_revealed})")
            return
        g.setup_revealed = n
        if g.setup_commit is None:
            self.error(n, "setup-reveal: expected a setup-commit before it, found none")
            return
        try:
            salt = bytes.fromhex(obj["salt"])
        except ValueError:
            self.error(n, f"setup-reveal line: expected 'salt' as hex digits, found {obj['salt']!r}")
            return
        if "hidden" not in obj:
            self.error(n, "setup-reveal line: expected a 'hidden' setup, found none")
            return
        found = setup_commitment(salt, obj["hidden"])
        if found != g.setup_commit:
            self.error(n, f"setup-reveal: expected sha256(salt + canonical JSON of 'hidden') to be the "
                          f"commit {g.setup_commit} (line {g.setup_line}), found {found}")
            return
        self.r.setups_verified += 1
