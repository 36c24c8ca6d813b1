"""`pbem game undo`: roll back the last resolved phase."""

from __future__ import annotations

import click

from pbem.cli import _fail_on_errors
from pbem.cli.games import game, why_option


@game.command("undo")
@click.argument("game_id")
@why_option()
@click.pass_obj
@_fail_on_errors
def game_undo(obj, game_id, why):
    """Roll back the last resolved phase of GAME_ID.

    The position before that phase is restored and its window opens again, with new dice (a
    new commitment: the old seed is public) and a deadline counted from now by the game's
    schedule. The orders that were in force stay in force unless their senders replace them;
    the window its resolution had opened is cancelled. The undone rolls stay in the public log,
    and `pbem verify` still checks them. Every player is told why, with the new deadline and
    the order template. An ended game cannot be undone (its hidden seed is public)."""
    from pbem.engine.schedule import format_when

    r = obj.referee().undo(game_id, why=why)
    click.echo(f"game {r['game']}: turn {r['turn']} {r['name']} ({r['phase']}) undone; "
               f"the window is open again until {format_when(r['deadline'], None)}")
    click.echo(f"new dice commitment {r['commit']} (the undone one was {r['old_commit']})")
    if r["cancelled"]:
        click.echo(f"window {r['cancelled']} cancelled: orders sent for it are void")
    carried = ", ".join(r["carried"]) or "none"
    click.echo(f"orders still in force: {carried}")
    if r["setup_withdrawn"]:
        click.echo("the hidden setup dealt in that window is withdrawn: it is dealt and "
                   "committed again when the window resolves")
    n = r["notices"]
    click.echo(f"{n} notice{'s' if n != 1 else ''} queued for the players; `pbem send` (or "
               "`pbem outbox DIR`) delivers them")
