"""The referee's seat commands: give a seat to a new player (``pbem game replace``), change the
game's From address and the players' addresses and time zones (``pbem game set``), and queue a
stored report again (:func:`queue_report`: ``pbem resend``, and the welcome of a new player).

Moved out of :mod:`pbem.engine.admin` (which re-exports :func:`replace_player`,
:func:`change_settings` and :func:`queue_report`; issue 8, "The referee's commands"; DESIGN.md,
"Referee actions"). The actions work inside the caller's write transaction on a loaded
:class:`~pbem.engine.gamestate.GameContext`, log a public ``referee`` line that names which
setting changed but never an address or a zone, and notify the players concerned.
"""

from __future__ import annotations

from datetime import datetime

from pbem.engine.admin_checks import ActionRefused, check_address, check_zone
from pbem.engine.admin_notices import (_FOOTER, _game_zone, _notify, _signed_off, _window_name,
                                       _zone_of)
from pbem.engine.errors import GameError, NotFound
from pbem.engine.notices import queue_notices, record_action
from pbem.engine.schedule import format_when
from pbem.store import repo


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
    from pbem.engine.encryption import SSH_KEY, NotEncryptable, key_type

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
    kind = key_type(key_text)
    if player.encrypt_reports and kind != SSH_KEY:
        raise NotEncryptable(f"{role}'s reports are encrypted with age, which needs an "
                             f"ssh-ed25519 key, and {key_source} holds a pbem key: give the new "
                             "player's ssh-ed25519 key (the line of ~/.ssh/id_ed25519.pub), or "
                             f"first `pbem game set {game.id} --encrypt {role}=no`")
    previous, old_address = player.fingerprint, player.email
    player.email = address
    player.public_key = key.openssh_line()
    player.fingerprint = key.fingerprint
    player.key_type = kind
    ctx.session.add(player)
    record_action(ctx, "replace", why, now, role=role,
                  key=" ".join(key.openssh_line().split()[:2]), fingerprint=key.fingerprint,
                  previous_fingerprint=previous)
    phase = repo.open_phase(ctx.session, game.id)
    held = ([o for o in repo.accepted_orders(ctx.session, game.id, phase.seq) if o.role == role]
            if phase is not None else [])
    from pbem.store.reports import find_report

    latest = find_report(ctx.session, game.id, role)
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
        if player.encrypt_reports:
            out += ("\nThe seat's reports come encrypted with age to this key: open the "
                    "attachment report.age with `age -d -i ~/.ssh/id_ed25519 report.age` (and "
                    "report.html.age, the report with its map, with -o report.html).\n")
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
                    zones: dict | None = None, encrypt: dict | None = None,
                    keys: dict | None = None, why: str, now: datetime) -> dict:
    """Change the game's From address (``sender``), players' addresses (``emails``: {role:
    address}), time zones (``zones``: {role: IANA name, or None for none}) and whether their
    reports are encrypted to their key with age (``encrypt``: {role: bool}), each checked as
    at game creation. Refused for nothing to change, an unknown role, or a value that is the
    current one; encryption is refused for a seat whose key is not an ssh-ed25519 key, or whose
    key form pbem does not know (a seat registered before schema 0004) unless ``keys`` ({role:
    (key file text, its path)}) gives that seat's registered key as an ssh-ed25519 line.
    Logs ``set`` with which settings changed (never an address or a zone) and notifies the
    players concerned: everyone for the From address (sent from the new one), a player whose
    address changed at the new address, a player whose zone changed with the current deadline
    in it, a player whose reports are now encrypted (or no longer) with how to open them.
    Returns ``{"game", "changed": [...], "notified"}``."""
    from pbem.engine.creation import _check_sender

    game = ctx.game
    emails, zones = dict(emails or {}), dict(zones or {})
    encrypt, keys = dict(encrypt or {}), dict(keys or {})
    if sender is None and not emails and not zones and not encrypt:
        raise ActionRefused("nothing to change: give --from ADDR, --email ROLE=ADDR, "
                            "--zone ROLE=ZONE or --encrypt ROLE=yes|no")
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
    new_kind = _check_encryption(ctx, encrypt, keys)

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
    for role, on in encrypt.items():
        player = ctx.player(role)
        player.encrypt_reports = on
        if role in new_kind:
            player.key_type = new_kind[role]
        ctx.session.add(player)
        changed.append({"setting": "encrypt", "role": role})
        told.setdefault(role, []).append(_encryption_line(game, role, player, on))
    record_action(ctx, "set", why, now, changed=changed)

    def text(p):
        return (f"The referee has changed settings of game {game.id} ({game.title}):\n\n"
                + "\n".join(f"- {s}" for s in told[p.role]) + "\n" + _signed_off(why) + _FOOTER)

    n = _notify(ctx, "settings changed", text, now, roles=set(told))
    what = [c["setting"] + (f" of {c['role']}" if "role" in c else "") for c in changed]
    return {"game": game.id, "changed": what, "notified": n}


def _check_encryption(ctx, encrypt: dict, keys: dict) -> dict:
    """Check the ``encrypt`` changes of :func:`change_settings` ({role: bool}) with the key
    files ``keys`` ({role: (text, source)}) that show pbem a seat's key form; returns {role:
    key form} for the seats whose form the key files told. Raises ActionRefused or
    NotEncryptable (pbem.engine.encryption)."""
    from pbem.crypto.errors import CryptoError
    from pbem.crypto.keys import load_public_key
    from pbem.engine.encryption import check_encryptable, key_type

    for role in keys:
        if not encrypt.get(role):
            raise ActionRefused(f"--key {role}=PUBKEYFILE shows pbem the form of {role}'s key "
                                f"to turn encryption on: it goes with --encrypt {role}=yes")
    told = {}
    for role, on in encrypt.items():
        player = _role_player(ctx, role)
        if on == player.encrypt_reports:
            raise ActionRefused(f"{role}'s reports are {'' if on else 'not '}encrypted already")
        if not on:
            continue
        kind = player.key_type
        if role in keys:
            text, source = keys[role]
            try:
                key = load_public_key(text, source)
            except CryptoError as e:
                raise GameError(f"--key {role}: {e}") from None
            if key.fingerprint != player.fingerprint:
                raise ActionRefused(f"--key {role}: {source} holds the key {key.fingerprint}, "
                                    f"not {role}'s registered key {player.fingerprint} (to "
                                    f"register a new key: `pbem game replace {ctx.game.id} "
                                    f"{role} EMAIL:PUBKEYFILE`)")
            kind = told[role] = key_type(text)
        check_encryptable(ctx.game.id, role, kind, player.fingerprint)
    return told


def _encryption_line(game, role: str, player, on: bool) -> str:
    """The line of the settings notice that tells a player their reports are now encrypted
    (and how to open them), or no longer."""
    if not on:
        return (f"Your reports for {role} now come unencrypted again: the report is the body "
                "of the mail, with the HTML report attached as report.html.")
    return (f"Your reports for {role} now come encrypted with age to your ssh-ed25519 key "
            f"{player.fingerprint}: the mail names the report, and its attachments report.age "
            "(the text report) and report.html.age (the report with its map) open with "
            "`age -d -i ~/.ssh/id_ed25519 report.age` and `age -d -i ~/.ssh/id_ed25519 -o "
            "report.html report.html.age` (the private key of the key you registered). "
            "Reports already mailed stay as they were.")
