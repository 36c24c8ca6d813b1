"""What the judge decides about each incoming message or order set: the causes of rejection
and the verdict (DESIGN.md, "Data flow": "send a receipt or a clear rejection")."""

from __future__ import annotations

from dataclasses import dataclass, field

CAUSES = {
    "no-orders": "no signed orders were found in the message",
    "bad-signature": "the signature does not match the text",
    "rewrapped": "the signature does not match, and the mail client seems to have re-wrapped lines",
    "bad-header": "the order header is incomplete or malformed",
    "unknown-game": "no such game on this judge",
    "game-over": "the game has ended",
    "unknown-role": "the game has no such role",
    "unknown-key": "the signing key is not registered for any player of the game",
    "wrong-key": "the signing key is registered for another role",
    "no-window": "the game has no open window",
    "wrong-window": "the orders are for another turn or phase",
    "not-your-window": "the role owes no orders in the open window",
    "stale": "newer orders are already held",
    "future": "the orders are dated more than 15 minutes after the judge's clock",
    "nonce-reused": "the nonce was used before in the game (by any order set)",
    "wrong-judge": "the orders name another referee key than this game's",
    "no-referee": "the orders lack the referee line this game requires",
    "too-large": "the message or the orders are larger than the judge takes",
    "duplicate": "the same orders or message were received before",
    "unreadable": "the message could not be read within the judge's time and memory budget",
    "unreadable-archive": "the archived copy of the message cannot be opened (the referee is told)",
    "error": "the judge failed on this message (the referee has been told)",
}


@dataclass
class Verdict:
    """The judgment of one signed order set (or of a message without one).

    ``status`` is accepted | rejected | duplicate | error; ``cause`` a key of :data:`CAUSES`;
    ``reason`` the full sentence sent to the player."""

    origin: str
    status: str
    cause: str = ""
    reason: str = ""
    game: str | None = None
    role: str | None = None
    phase: str | None = None
    sha256: str | None = None
    problems: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    resent: bool = False
    """A duplicate whose receipt was queued again (pbem.engine.receipt_again)."""

    def summary(self) -> str:
        where = f" {self.game} {self.phase} {self.role}" if self.game and self.role else ""
        if self.status == "accepted":
            n = len(self.problems)
            probs = f" ({n} problem{'s' if n != 1 else ''})" if n else ""
            return f"{self.origin}: accepted{where}{probs}"
        return f"{self.origin}: {self.status}{where}: {self.reason}"


class Rejected(Exception):
    """Raised inside judging with a cause of CAUSES and the sentence for the sender."""

    def __init__(self, cause: str, reason: str, **where):
        super().__init__(reason)
        self.cause, self.reason, self.where = cause, reason, where
