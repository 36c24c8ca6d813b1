"""Mail the referee's judge sends outside reports and receipts: notices of a referee's action
(an extended deadline, a pause, an undone phase...), reminders before a deadline, and the
downtime guard's word that a deadline moved.

A notice is a letter like a receipt: sealed for its reader in the outbox, composed into MIME when
delivered (pbem.engine.publish.compose_letter). Each referee action is also a public log line
``{"type": "referee", "action": ..., "why": ...}`` (docs/log.md), so players who keep the log can
see what was done and why.
"""

from __future__ import annotations

from datetime import datetime


def notice_rows(sealer, game, players, *, kind: str, subject: str, text: str, now: datetime,
                roles=None) -> list[dict]:
    """Outbox rows (dicts for :func:`pbem.store.repo.insert_protected`) of one letter of
    ``kind`` (``notice`` or ``reminder``) to each player of ``players`` (Player rows; only
    those whose role is in ``roles`` when given), from the game's referee address. ``text`` may
    be a string or a function ``player -> str`` (a text per reader)."""
    from pbem.engine.publish import letter_row

    rows = []
    for p in players:
        if roles is not None and p.role not in roles:
            continue
        body = text(p) if callable(text) else text
        rows.append(letter_row(sealer, game_id=game.id, owner=p.role, kind=kind, to=p.email,
                               subject=f"[{game.id}] {game.title}: {subject}",
                               letter={"sender": game.referee_address, "text": body,
                                       "in_reply_to": None}, now=now))
    return rows


def queue_notices(session, sealer, game, players, **kw) -> int:
    """Queue :func:`notice_rows` in ``session``; returns how many were queued."""
    from pbem.store import repo
    from pbem.store.models import Outbox

    rows = notice_rows(sealer, game, players, **kw)
    if rows:
        repo.insert_protected(session, Outbox, rows)
    return len(rows)


def record_action(ctx, action: str, why: str | None, now: datetime, **fields) -> str:
    """Log a referee action as a public line ``{"type": "referee", "action", "why", ...}``
    (``ctx``: a pbem.engine.gamestate.GameContext); returns the line."""
    return ctx.log("referee", now, action=action, why=why or "", **fields)
