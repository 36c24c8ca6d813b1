"""The referee's fixes to a running game: extend a deadline, pause and resume, replace a player,
change the game's addresses and zones, abandon the game, and queue a report again.

Each function works inside the caller's write transaction on a loaded
:class:`~pbem.engine.gamestate.GameContext` (the service layer, :mod:`pbem.engine.service_admin`,
opens it and flushes the log). Every action that changes the game is a public log line
``{"type": "referee", "action": ..., "why": ...}`` (:func:`pbem.engine.notices.record_action`;
DESIGN.md, "Referee actions") and a notice mailed to the players it concerns. The public log
never receives an e-mail address (nor a player's time zone): it says which setting changed, not
its value. A refusal raises :class:`ActionRefused` (or NotFound, GameError) before anything is
written.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone

from pbem.engine.errors import GameError, NotFound, PbemError
from pbem.engine.headers import format_time
from pbem.engine.durations import MAX_SECONDS
from pbem.engine.notices import queue_notices, record_action
from pbem.engine.schedule import format_when
from pbem.store import repo

MAX_WHY = 500
"""The longest reason (characters) a referee action takes: it goes into the public log."""

_LOOKS_LIKE_ADDRESS = re.compile(r"[^\s@<>()\[\],;:\"]+@[^\s@<>()\[\],;:\"]+\.[A-Za-z]{2,}")
_LOCAL_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(:\d{2})?$")


class ActionRefused(PbemError):
    """A referee command that does not apply to the game as it stands (ended, not paused,
    paused already, a deadline that would not move later...)."""


# ---------------------------------------------------------------- checks of the input

def check_why(why: str | None, *, required: bool, option: str = "--why") -> str:
    """The referee's reason, stripped and on one line (runs of white space made one space):
    ``""`` when none is given and none is ``required``. ActionRefused for a missing or blank
    required reason, one longer than :data:`MAX_WHY`, or one that holds something like an
    e-mail address (the reason is published in the public log, which never holds one)."""
    text = " ".join((why or "").split())
    if not text:
        if required:
            raise ActionRefused(f"{option}: give the reason for the players (it goes into the "
                                "public log with the action)")
        return ""
    if len(text) > MAX_WHY:
        raise ActionRefused(f"{option}: expected at most {MAX_WHY} characters, found "
                            f"{len(text)}")
    m = _LOOKS_LIKE_ADDRESS.search(text)
    if m:
        raise ActionRefused(f"{option}: the reason goes into the public log, which never holds "
                            f"an e-mail address, but it holds {m.group(0)!r}: leave it out")
    return text


def check_address(address: str, what: str) -> str:
    """``address`` stripped, if it is one mail address that mail can be composed to (no line
    break, one recipient, an ``@``); GameError naming ``what`` otherwise. The same checks as
    ``pbem game new`` makes, and those of composing a mail to it."""
    from email.utils import getaddresses

    from pbem.mail.compose import compose
    from pbem.mail.errors import ComposeError

    text = (address or "").strip()
    pairs = getaddresses([text]) if "\n" not in text and "\r" not in text else []
    if len(pairs) != 1 or "@" not in pairs[0][1]:
        raise GameError(f"{what}: expected one e-mail address, found {address!r}")
    try:
        compose(sender="referee@example.invalid", to=text, subject="check", text="check")
    except ComposeError as e:
        raise GameError(f"{what}: expected one e-mail address, found {address!r} ({e})") from None
    return text


def check_zone(zone: str, what: str) -> str | None:
    """An IANA zone name (``Europe/Paris``), or None for ``none``/``-``/empty (no zone: UTC
    only); GameError naming ``what`` for an unknown zone."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    name = (zone or "").strip()
    if name.lower() in ("", "none", "-"):
        return None
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise GameError(f"{what}: unknown time zone {name!r} (expected an IANA name such as "
                        "Europe/Paris, or none)") from None
    return name


def parse_until(text: str, zone: str | None) -> datetime:
    """The instant (UTC, whole seconds up) meant by ``--until``: an ISO 8601 time with a zone
    (``2026-12-24T19:00:00Z``, ``2026-12-24 20:00+01:00``), or a local date and time
    (``2026-12-24 20:00``, seconds optional) on the clocks of ``zone`` (the game's zone; None:
    UTC). A local time that the clocks skip, or show twice, is read as deadlines are
    (docs/deadlines.md): the later of its readings. ActionRefused for anything else."""
    from zoneinfo import ZoneInfo

    s = " ".join((text or "").split())
    expected = (f"--until {text!r}: expected an ISO 8601 time with a zone "
                "(2026-12-24T19:00:00Z) or a date and time in the game's zone "
                f"({zone or 'UTC'}) such as '2026-12-24 20:00'")
    if not re.match(r"^\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}", s):
        raise ActionRefused(expected)
    if re.match(r"^\d{4}-\d{2}-\d{2}[ T]\d:", s):
        s = s[:11] + "0" + s[11:]
    try:
        when = datetime.fromisoformat(s)
    except ValueError:
        raise ActionRefused(expected) from None
    if when.tzinfo is None:
        if not _LOCAL_TIME.match(s):
            raise ActionRefused(expected)
        tz = ZoneInfo(zone) if zone else timezone.utc
        when = max(when.replace(tzinfo=tz, fold=f).astimezone(timezone.utc) for f in (0, 1))
    when = when.astimezone(timezone.utc)
    if when.microsecond:
        when = when.replace(microsecond=0) + timedelta(seconds=1)
    return when


def phase_seq_of(phases, text: str, game_id: str = "") -> int:
    """The sequence number of the phase named ``text`` (``phases``: the game's Phase rows in
    seq order): a phase id as the reports name it (``2.green``: "Turn 2, phase green has been
    resolved"), or ``setup`` (also ``0.create``, the id its dice have) for the setup report. A
    phase id that an undo made appear twice means its latest window. A bare number is
    refused, since counting reports and counting turns would give different answers; the
    message lists that turn's phases. NotFound listing the ids otherwise."""
    t = (text or "").strip().lower()
    if t in ("setup", "0.create"):
        return 0
    ids = {p.phase_id.lower(): p.seq for p in phases}  # in seq order: the latest wins
    if t in ids:
        return ids[t]
    known = "setup" + "".join(f", {i}" for i in ids)
    of = f" of game {game_id}" if game_id else ""
    if t.isdigit():
        turn = [i for i in ids if i.split(".", 1)[0] == t]
        hint = f"; the phases of turn {t} are {', '.join(turn)}" if turn else ""
        raise NotFound(f"--phase {text.strip()}: expected a phase id as the reports name it "
                       f"(turn.phase, such as 2.green) or setup{hint}; the phases{of}: {known}")
    raise NotFound(f"no phase {text!r}{of} (phases: {known})")


# ---------------------------------------------------------------- shared pieces

def _open_phase(ctx, doing: str):
    phase = repo.open_phase(ctx.session, ctx.game.id)
    if phase is None:
        raise ActionRefused(f"game {ctx.game.id} has no open window to {doing}")
    return phase


def _game_zone(ctx) -> str | None:
    from pbem.engine.gamestate import game_schedule

    return game_schedule(ctx.game).zone


def _zone_of(ctx, player) -> str | None:
    """A player's zone for times in their mail: their own, else the game's."""
    return player.zone or _game_zone(ctx)


def _window_name(phase) -> str:
    return f"turn {phase.turn} phase {phase.name} ({phase.phase_id})"


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


def _signed_off(why: str) -> str:
    return f"\nThe referee's reason: {why}\n" if why else ""


_FOOTER = "\nThis action is recorded, with its reason, in the game's public log.\n"


def _notify(ctx, subject: str, text, now: datetime, roles=None) -> int:
    return queue_notices(ctx.session, ctx.sealer, ctx.game, ctx.players, kind="notice",
                         subject=subject, text=text, now=now, roles=roles)


# ---------------------------------------------------------------- extend, pause, resume

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


# ---------------------------------------------------------------- seats and settings

def _role_player(ctx, role: str):
    player = ctx.player(role)
    if player is None:
        raise NotFound(f"game {ctx.game.id} has no role {role!r} (roles: "
                       f"{', '.join(ctx.roles)})")
    return player


def _report_label(session, game_id: str, seq: int) -> str:
    if seq == 0:
        return "setup report"
    phase = next((p for p in repo.phases(session, game_id) if p.seq == seq), None)
    return f"turn {phase.turn} {phase.name} report" if phase else f"report {seq}"


def queue_report(session, game, player, seq: int, now: datetime, why: str) -> None:
    """Queue the stored report of phase ``seq`` (0: the setup report) for ``player`` again, to
    their current address: a new outbox row of kind ``report``, composed when delivered like
    every report (pbem.engine.publish). ``why`` ends the subject (``sent again``)."""
    from pbem.store.models import Outbox

    label = _report_label(session, game.id, seq)
    session.add(Outbox(game_id=game.id, owner=player.role, kind="report", to_addr=player.email,
                       subject=f"[{game.id}] {game.title}: {label} for {player.role} ({why})",
                       created_at=now, report_seq=seq))


def replace_player(ctx, *, role: str, email: str, key_text: str, key_source: str, why: str,
                   now: datetime) -> dict:
    """A new player takes the seat ``role``: their address and public key replace the old ones,
    so that orders signed with the old key are refused from now on (the judge finds the sender
    by key fingerprint). Refused for an unknown role, the seat's own key, or a key another seat
    of the game holds. The public log gets the new key's fingerprint (not the address); the
    seat's latest report is queued to the new player with a notice of welcome, and every other
    player gets a notice. Orders the seat sent for the open window stay in force unless the new
    player sends others. Returns ``{"game", "role", "fingerprint", "previous_fingerprint",
    "report_seq", "orders_in_force", "notified"}``."""
    from pbem.crypto.errors import CryptoError
    from pbem.crypto.keys import load_public_key

    game = ctx.game
    player = _role_player(ctx, role)
    address = check_address(email, f"player {role}")
    try:
        key = load_public_key(key_text, key_source)
    except CryptoError as e:
        raise GameError(f"player {role}: {e}") from None
    if key.fingerprint == player.fingerprint:
        raise ActionRefused(f"the key {key.fingerprint} is {role}'s key already: a replacement "
                            f"needs the new player's key (to change only the address: `pbem "
                            f"game set {game.id} --email {role}=ADDRESS`)")
    other = next((p for p in ctx.players if p.fingerprint == key.fingerprint), None)
    if other is not None:
        raise ActionRefused(f"the key {key.fingerprint} is the key of {other.role} in game "
                            f"{game.id}: a key identifies one seat")
    previous, old_address = player.fingerprint, player.email
    player.email = address
    player.public_key = key.openssh_line()
    player.fingerprint = key.fingerprint
    ctx.session.add(player)
    record_action(ctx, "replace", why, now, role=role,
                  key=" ".join(key.openssh_line().split()[:2]), fingerprint=key.fingerprint,
                  previous_fingerprint=previous)
    phase = repo.open_phase(ctx.session, game.id)
    held = ([o for o in repo.accepted_orders(ctx.session, game.id, phase.seq) if o.role == role]
            if phase is not None else [])
    latest = repo.get_report(ctx.session, game.id, role, "text")
    if latest is not None:
        queue_report(ctx.session, game, player, latest.phase_seq, now,
                     "the latest, for the seat you take over")
    referee_fp = ctx.sealer.referee_signing_key(game.id).public_key().fingerprint

    def welcome(p):
        out = (f"Welcome to game {game.id} ({game.title}): the referee has given you the seat "
               f"{role}.\n\nYour key {key.fingerprint} is registered for it: sign your orders "
               f"with it (`pbem sign`, or ssh-keygen -Y sign -n pbem-orders); orders signed "
               "with the seat's former key are refused from now on.\n"
               f"The game's referee key is {referee_fp} (the 'referee:' line of your orders).\n")
        if latest is not None:
            label = _report_label(ctx.session, game.id, latest.phase_seq)
            out += (f"\nThe seat's latest report ({label}) "
                    "comes in a separate mail: it shows what your seat knows and holds the order "
                    "template.\n")
        if phase is not None:
            out += (f"\nThe open window is {_window_name(phase)}, deadline "
                    f"{format_when(phase.deadline_at, _zone_of(ctx, p))}, dice commitment "
                    f"{phase.commit}.\n")
            if latest is not None and latest.created_at < phase.opened_at:
                out += ("The report was written before this window opened (it was reopened "
                        "by the referee, or its deadline moved): where they differ, the "
                        "deadline and commitment above are the ones in force.\n")
            if held:
                out += ("The orders the seat's former player sent for it stay in force unless "
                        "you send new ones.\n")
        return out + _signed_off(why) + _FOOTER

    others = [p.role for p in ctx.players if p.role != role]
    n = _notify(ctx, f"you now play {role}", welcome, now, roles=[role])
    n += _notify(ctx, f"{role} is played by a new player",
                 f"The referee has given the seat {role} of game {game.id} ({game.title}) to "
                 f"a new player, whose key is {key.fingerprint} (it was {previous}).\n"
                 + _signed_off(why) + _FOOTER, now, roles=others)
    n += _farewell(ctx, role, old_address, why, now)
    return {"game": game.id, "role": role, "fingerprint": key.fingerprint,
            "previous_fingerprint": previous,
            "report_seq": latest.phase_seq if latest is not None else None,
            "orders_in_force": bool(held), "notified": n}


def _farewell(ctx, role: str, address: str, why: str, now: datetime) -> int:
    """Tell the seat's former player, at their old address, that the seat was given to
    someone else and their key no longer signs for it."""
    from types import SimpleNamespace

    game = ctx.game
    return queue_notices(
        ctx.session, ctx.sealer, game, [SimpleNamespace(role=role, email=address, zone=None)],
        kind="notice", subject=f"you no longer play {role}", now=now,
        text=(f"The referee has given your seat {role} in game {game.id} ({game.title}) to "
              "another player. Orders signed with your key are no longer taken for it.\n"
              + _signed_off(why) + _FOOTER))


def change_settings(ctx, *, sender: str | None = None, emails: dict | None = None,
                    zones: dict | None = None, why: str, now: datetime) -> dict:
    """Change the game's From address (``sender``), players' addresses (``emails``: {role:
    address}) and time zones (``zones``: {role: IANA name, or None for none}), each checked as
    at game creation. Refused for nothing to change, an unknown role, or a value that is the
    current one. Logs ``set`` with which settings changed (never an address or a zone) and
    notifies the players concerned: everyone for the From address (sent from the new one), a
    player whose address changed at the new address, a player whose zone changed with the
    current deadline in it. Returns ``{"game", "changed": [...], "notified"}``."""
    from pbem.engine.creation import _check_sender

    game = ctx.game
    emails, zones = dict(emails or {}), dict(zones or {})
    if sender is None and not emails and not zones:
        raise ActionRefused("nothing to change: give --from ADDR, --email ROLE=ADDR or "
                            "--zone ROLE=ZONE")
    changed, told = [], {}
    if sender is not None:
        sender = sender.strip()
        _check_sender(sender)
        if sender == game.referee_address:
            raise ActionRefused(f"game {game.id} mails from {sender} already")
    new_email, new_zone = {}, {}
    for role, addr in emails.items():
        player = _role_player(ctx, role)
        new_email[role] = check_address(addr, f"--email {role}")
        if new_email[role] == player.email:
            raise ActionRefused(f"{role}'s address is {player.email} already")
    for role, zone in zones.items():
        player = _role_player(ctx, role)
        new_zone[role] = check_zone(zone, f"--zone {role}")
        if new_zone[role] == player.zone:
            raise ActionRefused(f"{role}'s time zone is {player.zone or 'none'} already")

    phase = repo.open_phase(ctx.session, game.id)
    if sender is not None:
        game.referee_address = sender
        ctx.session.add(game)
        changed.append({"setting": "from"})
        for p in ctx.players:
            told.setdefault(p.role, []).append(
                f"The referee's address for this game is now {sender}: send your orders and "
                "questions there.")
    for role, addr in new_email.items():
        player = ctx.player(role)
        player.email = addr
        ctx.session.add(player)
        changed.append({"setting": "email", "role": role})
        told.setdefault(role, []).append(
            f"Mail for your seat {role} now goes to this address, {addr}.")
    for role, zone in new_zone.items():
        player = ctx.player(role)
        player.zone = zone
        ctx.session.add(player)
        changed.append({"setting": "zone", "role": role})
        shown = zone or _game_zone(ctx)
        line = (f"Times in your mail are now shown in {zone} as well as in UTC." if zone else
                "Times in your mail are now shown in UTC"
                + (f" and in the game's zone, {shown}." if shown else " only."))
        if phase is not None:
            line += (f" The deadline of {_window_name(phase)} is "
                     f"{format_when(phase.deadline_at, shown)}.")
        told.setdefault(role, []).append(line)
    record_action(ctx, "set", why, now, changed=changed)

    def text(p):
        return (f"The referee has changed settings of game {game.id} ({game.title}):\n\n"
                + "\n".join(f"- {s}" for s in told[p.role]) + "\n" + _signed_off(why) + _FOOTER)

    n = _notify(ctx, "settings changed", text, now, roles=set(told))
    what = [c["setting"] + (f" of {c['role']}" if "role" in c else "") for c in changed]
    return {"game": game.id, "changed": what, "notified": n}


# ---------------------------------------------------------------- the end

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
