"""The pieces every referee action's notice is made of: the times in the reader's zone, the
window's name, the referee's reason, the footer, and queueing the notice to the players.

Moved out of :mod:`pbem.engine.admin` (issue 8, "The referee's commands"; DESIGN.md, "Referee
actions"): each action (:mod:`pbem.engine.admin_deadlines`, :mod:`pbem.engine.admin_seats`,
:mod:`pbem.engine.admin_end`) mails a notice to the players it concerns. None of them goes into
the public log, which never holds an address or a player's zone.
"""

from __future__ import annotations

from datetime import datetime

from pbem.engine.notices import queue_notices


def _game_zone(ctx) -> str | None:
    from pbem.engine.gamestate import game_schedule

    return game_schedule(ctx.game).zone


def _zone_of(ctx, player) -> str | None:
    """A player's zone for times in their mail: their own, else the game's."""
    return player.zone or _game_zone(ctx)


def _window_name(phase) -> str:
    return f"turn {phase.turn} phase {phase.name} ({phase.phase_id})"


def _signed_off(why: str) -> str:
    return f"\nThe referee's reason: {why}\n" if why else ""


_FOOTER = "\nThis action is recorded, with its reason, in the game's public log.\n"


def _notify(ctx, subject: str, text, now: datetime, roles=None) -> int:
    return queue_notices(ctx.session, ctx.sealer, ctx.game, ctx.players, kind="notice",
                         subject=subject, text=text, now=now, roles=roles)
