"""The referee's end of a game: abandon it (``pbem game end``), closing the open window
unresolved and revealing everything hidden, as at a normal end.

Moved out of :mod:`pbem.engine.admin` (which re-exports :func:`abandon`; issue 8, "The referee's
commands"; DESIGN.md, "Referee actions"). Sending a report again (``pbem resend``) is
:func:`pbem.engine.admin_seats.queue_report`.
"""

from __future__ import annotations

from datetime import datetime

from pbem.engine.admin_notices import _notify, _signed_off, _window_name
from pbem.engine.notices import record_action
from pbem.store import repo


def abandon(ctx, *, why: str, now: datetime) -> dict:
    """End the game by the referee's decision: the open window is closed without resolving
    (status ``abandoned``; its dice seed is revealed with the nonces of the orders held, as no
    roll will ever be drawn from it), the game ends (``game-end`` with no scores and no winners,
    reason ``abandoned by the referee: WHY``), and the hidden seed with every hidden roll's
    value and the initial hidden setup are revealed as at a normal end
    (:func:`pbem.engine.adjudicate.reveal_hidden`), so players can check them with `pbem
    verify`. Every player gets a notice. Returns ``{"game", "phase", "reason", "log_lines",
    "log_head", "notified"}``."""
    from pbem.engine.adjudicate import reveal_hidden
    from pbem.engine.gamestate import dice_seed_purpose

    game = ctx.game
    phase = repo.open_phase(ctx.session, game.id)
    record_action(ctx, "end", why, now, phase=phase.phase_id if phase else None)
    if phase is not None:
        held = repo.accepted_orders(ctx.session, game.id, phase.seq)
        seed = ctx.get_secret(dice_seed_purpose(phase.seq))
        ctx.log("dice-reveal", now, phase=phase.phase_id, seed=seed.hex(),
                nonces=dict(sorted((o.role, o.nonce) for o in held)))
        phase.status = "abandoned"
        ctx.session.add(phase)
    game.status = "ended"
    game.paused_at = None
    ctx.session.add(game)
    reason = f"abandoned by the referee: {why}"
    ctx.log("game-end", now, scores={}, winners=[], reason=reason)
    reveal_hidden(ctx, now)
    lines, head = ctx.log_position()
    closed = (f"The open window, {_window_name(phase)}, is closed without being resolved; no "
              "more orders are taken.\n" if phase is not None else "")
    n = _notify(ctx, "the game has ended (abandoned)",
                f"The referee has ended game {game.id} ({game.title}): it is abandoned, with no "
                f"winner.\n\n{closed}{_signed_off(why)}\n"
                "The public log now reveals the hidden dice seed, the value of every hidden "
                "draw and the initial hidden setup, as at the end of a game, so that you can "
                "check that nothing hidden changed: get the log (`pbem log "
                f"{game.id} --json` on the referee's side) and run `pbem verify` on it. It has "
                f"{lines} lines; the last one has sha256 {head}.\n", now)
    return {"game": game.id, "phase": phase.phase_id if phase else None, "reason": reason,
            "log_lines": lines, "log_head": head, "notified": n}
