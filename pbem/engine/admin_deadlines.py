"""The referee's deadline commands: extend the open window's deadline (``pbem game extend``),
pause the game's deadlines and resume them (``pbem game pause|resume``).

Moved out of :mod:`pbem.engine.admin` (which re-exports :func:`extend`, :func:`pause` and
:func:`resume`; issue 8, "The referee's commands"; DESIGN.md, "Referee actions"). Each works
inside the caller's write transaction on a loaded :class:`~pbem.engine.gamestate.GameContext`,
logs a public ``referee`` line (:func:`pbem.engine.notices.record_action`) and notifies every
player; a refusal raises :class:`~pbem.engine.admin_checks.ActionRefused` before anything is
written.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from pbem.engine.admin_checks import ActionRefused, parse_until
from pbem.engine.admin_notices import (_FOOTER, _game_zone, _notify, _signed_off, _window_name,
                                       _zone_of)
from pbem.engine.durations import MAX_SECONDS
from pbem.engine.headers import format_time
from pbem.engine.notices import record_action
from pbem.engine.schedule import format_when
from pbem.store import repo


def _open_phase(ctx, doing: str):
    phase = repo.open_phase(ctx.session, ctx.game.id)
    if phase is None:
        raise ActionRefused(f"game {ctx.game.id} has no open window to {doing}")
    return phase


def _rearm_reminders(phase, deadline: datetime, now: datetime) -> None:
    """After a deadline moved: forget the reminders whose time now lies ahead, so that they are
    sent again before the new deadline (those already due stay marked sent)."""
    sent = json.loads(phase.reminded_json or "[]")
    kept = sorted(lead for lead in sent if deadline - timedelta(seconds=lead) <= now)
    if kept != sorted(sent):
        phase.reminded_json = json.dumps(kept)


def _paused_for(game, phase, now: datetime) -> timedelta:
    """How long the open window has been paused so far (zero if the game runs)."""
    if game.paused_at is None:
        return timedelta(0)
    start = max(game.paused_at, phase.opened_at) if phase is not None else game.paused_at
    return max(now - start, timedelta(0))


def extend(ctx, *, by: int | None = None, until: str | None = None, why: str,
           now: datetime) -> dict:
    """Move the open window's deadline later: by ``by`` seconds from the current deadline, or
    to ``until`` (:func:`parse_until`, in the game's zone when it names none). Refused when the
    new deadline is not after now, or (``until``) not after the current deadline (to close a
    window early, ``pbem process --game GAME --force``), or for ``until`` while the game is paused
    (its deadline moves again when it resumes: ``--by`` adds to it). Logs ``extend`` and
    notifies every player. Returns ``{"game", "phase", "previous", "deadline", "zone",
    "paused", "notified"}``."""
    if (by is None) == (until is None):
        raise ActionRefused("give either --by DURATION or --until TIME")
    game = ctx.game
    phase = _open_phase(ctx, "extend")
    old = phase.deadline_at
    if by is not None:
        if type(by) is not int or by <= 0:
            raise ActionRefused(f"--by: expected a duration longer than zero, found {by!r}")
        new = old + timedelta(seconds=by)
    else:
        if game.paused_at is not None:
            raise ActionRefused(
                f"game {game.id} is paused (since {format_time(game.paused_at)}): its deadline "
                "moves by the pause's length when it resumes, so a deadline given as a time "
                "would not hold; resume it first (`pbem game resume`), or extend it --by a "
                "duration")
        new = parse_until(until, _game_zone(ctx))
    effective = new + _paused_for(game, phase, now)
    if effective <= now:
        raise ActionRefused(f"the new deadline {format_when(new, None)} is not in the future "
                            f"(it is now {format_when(now, None)}): give a later time")
    if new <= old:
        raise ActionRefused(f"the new deadline {format_when(new, None)} is not after the "
                            f"current one, {format_when(old, None)}: `pbem game extend` moves a "
                            "deadline later (to resolve the window now: `pbem process "
                            f"--game {game.id} --force`)")
    if new - now > timedelta(seconds=MAX_SECONDS):
        raise ActionRefused(f"the new deadline {format_when(new, None)} is more than a year "
                            "(366 days) away, the longest deadline a game may have; to stop "
                            f"the game for longer: `pbem game pause {game.id}`")
    phase.deadline_at = new
    _rearm_reminders(phase, effective, now)
    ctx.session.add(phase)
    record_action(ctx, "extend", why, now, phase=phase.phase_id, deadline=format_time(new),
                  previous=format_time(old))
    paused = ("\nThe game is paused: this deadline moves on by the length of the pause when "
              "it resumes, and you will be told the new one.\n" if game.paused_at else "")

    def text(p):
        zone = _zone_of(ctx, p)
        return (f"The referee has extended the deadline of game {game.id} ({game.title}), "
                f"{_window_name(phase)}.\n\n"
                f"New deadline: {format_when(new, zone)}\n"
                f"It was:       {format_when(old, zone)}\n{paused}{_signed_off(why)}{_FOOTER}")

    n = _notify(ctx, f"deadline of turn {phase.turn} {phase.name} extended to "
                     f"{format_when(new, None)}", text, now)
    return {"game": game.id, "phase": phase.phase_id, "previous": old, "deadline": new,
            "zone": _game_zone(ctx), "paused": game.paused_at is not None, "notified": n}


def pause(ctx, *, why: str, now: datetime) -> dict:
    """Pause the game: its deadlines stop (``Game.paused_at`` = now; the adjudication loop
    skips a paused game and sends no reminders) until :func:`resume`. Orders are still accepted.
    Refused when the game is paused already. Logs ``pause`` and notifies every player.
    Returns ``{"game", "phase", "deadline", "notified"}``."""
    game = ctx.game
    if game.paused_at is not None:
        raise ActionRefused(f"game {game.id} is paused already, since "
                            f"{format_when(game.paused_at, None)}; `pbem game resume "
                            f"{game.id}` resumes it")
    phase = repo.open_phase(ctx.session, game.id)
    game.paused_at = now
    ctx.session.add(game)
    record_action(ctx, "pause", why, now, phase=phase.phase_id if phase else None)

    def text(p):
        lines = [f"The referee has paused game {game.id} ({game.title}).", ""]
        if phase is not None:
            lines += [(f"The deadline of {_window_name(phase)}, "
                       f"{format_when(phase.deadline_at, _zone_of(ctx, p))}, no longer runs: "
                       "when the game resumes it moves on by the length of the pause, and you "
                       "will be told the new deadline."),
                      "Orders are still accepted while the game is paused."]
        return "\n".join(lines) + "\n" + _signed_off(why) + _FOOTER

    n = _notify(ctx, "the game is paused", text, now)
    return {"game": game.id, "phase": phase.phase_id if phase else None,
            "deadline": phase.deadline_at if phase else None, "notified": n}


def resume(ctx, *, why: str, now: datetime) -> dict:
    """Resume a paused game: the open window's deadline moves on by the time it was paused
    (from the pause, or from when the window opened if it opened during the pause), and
    ``paused_at`` is cleared. Refused when the game is not paused. Logs ``resume`` and
    notifies every player. Returns ``{"game", "phase", "paused_since", "paused_for",
    "previous", "deadline", "zone", "notified"}``."""
    game = ctx.game
    if game.paused_at is None:
        raise ActionRefused(f"game {game.id} is not paused (`pbem game pause {game.id}` "
                            "pauses it)")
    since = game.paused_at
    phase = repo.open_phase(ctx.session, game.id)
    shift = _paused_for(game, phase, now)
    old = new = None
    if phase is not None:
        old = phase.deadline_at
        new = old + shift
        phase.deadline_at = new
        _rearm_reminders(phase, new, now)
        ctx.session.add(phase)
    game.paused_at = None
    ctx.session.add(game)
    fields = {"paused_since": format_time(since), "paused_seconds": int(shift.total_seconds())}
    if phase is not None:
        fields.update(phase=phase.phase_id, deadline=format_time(new), previous=format_time(old))
    record_action(ctx, "resume", why, now, **fields)

    def text(p):
        out = (f"The referee has resumed game {game.id} ({game.title}), paused since "
               f"{format_when(since, _zone_of(ctx, p))}.\n")
        if phase is not None:
            out += (f"\nThe deadline of {_window_name(phase)} moved on by the length of the "
                    f"pause:\n\nNew deadline: {format_when(new, _zone_of(ctx, p))}\n"
                    f"It was:       {format_when(old, _zone_of(ctx, p))}\n")
        return out + _signed_off(why) + _FOOTER

    subject = "the game resumes" + (f"; deadline {format_when(new, None)}" if new else "")
    n = _notify(ctx, subject, text, now)
    return {"game": game.id, "phase": phase.phase_id if phase else None, "paused_since": since,
            "paused_for": shift, "previous": old, "deadline": new, "zone": _game_zone(ctx),
            "notified": n}
