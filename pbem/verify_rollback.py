"""The rollback checks of the log verifier (docs/log.md, "undo"; check 7 of :mod:`pbem.verify`;
DESIGN.md, "Referee actions": "an undo appends a rollback line, the undone phase's rolls stay
checkable, and the reopened window gets a new dice commitment"): the referee's ``undo`` line,
and the commitments that follow it (a cancelled window committed again, an undone phase
committed again with a new commitment).

Moved out of :mod:`pbem.verify`. Mixed into :class:`pbem.verify._Verifier`, whose reporting and
bookkeeping (``error``, ``warn``, ``text_fields``, ``game_of``, ``new_phase``, the ``phases``
table, the report ``r``) they use; a phase's ``undone``, ``cancelled`` and ``before`` fields
(:class:`pbem.verify._Phase`) are set here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the verifier mixes these in; its phase record is only named here
    from pbem.verify import _Phase


class RollbackChecks:
    """Handlers for a referee's undo and for the commitments made after one."""

    def referee(self, n: int, obj: dict) -> None:
        """A referee's action: only ``undo`` concerns the dice; the others are free."""
        if obj.get("action") == "undo":
            self.undo(n, obj)

    def undo(self, n: int, obj: dict) -> None:
        """A referee's undo of the last resolved phase (docs/log.md, "Undo"): the phase's
        commitment is set aside (its rolls were checked at its reveal; its hidden rolls keep its
        nonces), the phase may be committed again, the windows committed after its reveal are
        cancelled, and a setup-commit made after its reveal is withdrawn."""
        if not self.text_fields(n, obj, "referee undo", ("game", "phase")):
            return
        game, phase = obj["game"], obj["phase"]
        ph = self.phases.get((game, phase))
        if ph is None or ph.commit is None or not ph.revealed:
            found = ("none" if ph is None or ph.commit is None else
                     f"its dice-commit at line {ph.commit_line} without a reveal")
            self.error(n, f"undo of phase {phase!r}: expected a resolved phase (its dice-commit "
                          f"and dice-reveal) before the undo, found {found}")
            return
        g = self.game_of(game)
        if g.ended or g.hidden_revealed:
            self.error(n, f"undo of phase {phase!r}: expected none after the game's end (line "
                          f"{g.ended or g.hidden_revealed}): the hidden seed is public by then")
            return
        commit = obj.get("commit")
        if commit is not None and commit != ph.commit:
            self.error(n, f"undo of phase {phase!r}: expected the commit {ph.commit} of the phase's "
                          f"dice-commit (line {ph.commit_line}), found {commit!r}")
            return
        later = [(p, other) for (gid, p), other in self.phases.items()
                 if gid == game and other is not ph and other.commit_line > ph.revealed
                 and not other.cancelled]
        resolved = [(p, other) for p, other in later if other.revealed]
        if resolved:
            p, other = resolved[0]
            self.error(n, f"undo of phase {phase!r}: expected the last resolved phase, found phase "
                          f"{p!r} resolved after it (dice-reveal at line {other.revealed})")
            return
        for _, other in later:
            other.cancelled = n
        ph.undone = n
        self.r.phases_undone += 1
        self.new_phase(game, phase).before = ph
        withdrawn = g.setup_commit is not None and g.setup_line > ph.revealed
        claimed = obj.get("setup_withdrawn")
        if claimed is not None and claimed is not withdrawn:
            self.error(n, f"undo of phase {phase!r}: 'setup_withdrawn' is {claimed!r}, but "
                          + (f"the setup-commit at line {g.setup_line} follows the phase's "
                             f"dice-reveal (line {ph.revealed}): it is withdrawn" if withdrawn else
                             "no setup-commit follows the phase's dice-reveal "
                             f"(line {ph.revealed})"))
        if withdrawn:
            g.setup_commit, g.setup_line = None, 0

    def commit_after_cancel(self, n: int, obj: dict, ph: _Phase) -> _Phase:
        """The ``dice-commit`` at line ``n`` follows the commitment ``ph`` of its phase, whose
        window a referee's undo cancelled: a new commitment of the phase (its rolls and reveal
        are matched with it), with a warning if ``ph``'s seed was never revealed (counted
        pending)."""
        if not ph.revealed:
            self.warn(n, f"dice-commit for phase {obj['phase']!r}: the window committed at line "
                         f"{ph.commit_line} was cancelled by the undo at line {ph.cancelled}, "
                         "but its seed was never revealed")
            self.r.phases_pending += 1
        return self.new_phase(obj["game"], obj["phase"])

    def commit_after_undo(self, n: int, obj: dict, before: _Phase) -> None:
        """The ``dice-commit`` at line ``n`` commits again a phase that a referee's undo rolled
        back (``before``: its undone commitment): an error if it repeats the undone commitment,
        whose seed is public."""
        if before.commit == obj["commit"]:
            self.error(n, f"dice-commit for phase {obj['phase']!r}: expected a new commitment after "
                          f"the undo at line {before.undone}, found the undone one of line "
                          f"{before.commit_line} again (its seed is public: the new dice would be "
                          "known in advance)")
