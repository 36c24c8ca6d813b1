"""Publishing a phase: every role's report, stored sealed for that role and queued as mail,
plus the public report (the view of role ``*``) that anyone may read.

A report is built only from the ruleset's ``view(state, role)`` and the events whose audience
includes the role (DESIGN.md, "Every fact has an audience"), where ``state`` is the role's own
state (:func:`pbem.engine.gamestate.role_state`): loaded from the public part and that role's
secret part only, so a report cannot depend on another role's secret or on the referee part.

What is stored is each report's context, compressed (:mod:`pbem.engine.reportstore`); the text
and the HTML are rendered from it when the mail is delivered (:mod:`pbem.engine.delivery`) or
the report shown. Letters (notices and reminders composed; receipts and rejections as what they
print, rendered when mailed: :mod:`pbem.engine.letters`) are stored zlib-compressed and sealed
(:func:`letter_row`, :func:`open_letter`).
"""

from __future__ import annotations

import json
import zlib
from datetime import datetime

from pbem.engine.ruleset import PUBLIC, Window
from pbem.reports.context import format_deadline, order_header, report_context
from pbem.store import repo
from pbem.store.models import Outbox, Phase


def _game_info(ctx) -> dict:
    return {"id": ctx.game.id, "title": ctx.game.title, "ruleset": ctx.game.ruleset}


def _setup_info(ctx) -> dict | None:
    """The public facts of the setup, read back from the game-created and commit log lines."""
    info = {"setup_commit": None}
    for line in ctx.new_lines:
        obj = json.loads(line)
        if obj["type"] == "game-created":
            info.update(stand_ins=obj["stand_ins"], referee_key=obj["referee_key"],
                        referee_fingerprint=obj["referee_fingerprint"], options=obj["options"],
                        house_rules_sha256=obj["house_rules_sha256"], map=obj["map"],
                        map_sha256=obj["map_sha256"], roles=obj["roles"])
        elif obj["type"] == "hidden-commit":
            info["hidden_commit"] = obj["commit"]
        elif obj["type"] == "setup-commit":
            info["setup_commit"] = obj["commit"]
    return info or None


def publish_phase(ctx, *, reported: Phase | None, events: list, rolls: list, reveal: dict | None,
                  problems: dict, next_phase: Phase | None, now: datetime,
                  outcome=None, public_text: bool = False) -> str:
    """Store and queue the reports of the phase ``reported`` (None: the setup report): each
    reader's context, compressed and sealed (pbem.engine.reportstore), rendered when mailed
    or shown with the referee's template folder in force now (recorded with them). With such
    a folder every report is also rendered here, so that a template that fails stops the
    phase (ReportTemplateError; nothing is stored) rather than its mail.

    ``events`` are all the phase's events (filtered per reader here), ``rolls`` its public rolls,
    ``reveal`` its revealed dice (``{"phase", "seed", "nonces"}``), ``problems`` the problems per
    role, ``next_phase`` the window now open (None when the game has ended). Returns the public
    report's text when ``public_text`` (rendered for it), else ``""``.
    """
    from pbem.engine.reportstore import render, render_formats, store_contexts
    from pbem.reports.render import template_folder

    rs, game = ctx.ruleset, ctx.game
    parts = ctx.parts  # as just saved (save_state) or loaded: the state the reports show
    window = Window.from_json(json.loads(next_phase.window_json)) if next_phase else None
    setup = _setup_info(ctx) if reported is None else None
    seq = reported.seq if reported else 0
    reveal_ctx = None
    if reveal:
        reveal_ctx = dict(reveal)
        reveal_ctx.setdefault("commit", reported.commit if reported else None)
        reveal_ctx["setup_commit"] = next(
            (o["commit"] for o in map(json.loads, ctx.new_lines) if o["type"] == "setup-commit"),
            None) if reported else None
    reported_ctx = None
    if reported:
        w = Window.from_json(json.loads(reported.window_json))
        reported_ctx = {"turn": reported.turn, "phase": reported.name,
                        "phase_id": reported.phase_id, "title": w.title}
    outcome_ctx = None
    if outcome is not None:
        outcome_ctx = {"scores": outcome.scores, "winners": list(outcome.winners),
                       "reason": outcome.reason}

    from pbem.engine.gamestate import game_schedule, reader_zone, role_state

    schedule = game_schedule(game)
    stored, mail = [], []
    referee_fp = ctx.sealer.referee_signing_key(game.id).public_key().fingerprint
    lines, head = ctx.log_position()
    log_position = {"lines": lines, "head": head}
    for reader in [p.role for p in ctx.players] + [PUBLIC]:
        player = ctx.player(reader)
        zone = reader_zone(game, player)
        known = role_state(rs, parts, reader)  # what this reader may see, nothing else
        view = rs.view(known, reader)
        next_ctx = template = None
        if window is not None:
            next_ctx = {"turn": window.turn, "phase": window.phase, "phase_id": window.phase_id,
                        "title": window.title, "owed": list(window.owed),
                        "optional": list(window.optional),
                        "you_owe": reader in window.owed, "you_may": reader in window.optional,
                        "deadline": format_deadline(next_phase.deadline_at, zone),
                        "closes": (format_deadline(schedule.closes_at(next_phase.deadline_at),
                                                   zone) if schedule.grace else None),
                        "close_early": schedule.close_early and bool(window.owed),
                        "commit": next_phase.commit}
            if window.accepts(reader):
                template = (order_header(game.id, window.turn, window.phase, reader,
                                         referee_fp) + "\n"
                            + rs.template(known, reader).rstrip("\n") + "\n")
        context = report_context(
            game=_game_info(ctx), role=reader, zone=zone, view=view, board="",
            log=log_position,
            events=[e for e in events if e.visible_to(reader)], rolls=rolls, reveal=reveal_ctx,
            problems=problems.get(reader, []), reported=reported_ctx, next_window=next_ctx,
            template=template, outcome=outcome_ctx, setup=setup, now=now)
        stored.append((reader, context))
        if player is not None:
            mail.append(_report_mail(ctx, player, context, seq, now))
    repo.insert_protected(ctx.session, Outbox, mail)  # one statement for every reader
    folder = template_folder()  # the referee's (raises when missing): recorded with the reports
    templates = str(folder) if folder is not None else None
    store_contexts(ctx.session, ctx.sealer, game.id, seq, stored, now, templates)
    if templates is not None:  # a referee's template that fails stops the phase, not the mail
        for _, context in stored:
            render_formats(context, ("text", "html"), templates)
    if not public_text:
        return ""
    return render(next(c for r, c in stored if r == PUBLIC), "text", templates)


def report_subject(game_id: str, title: str, reported: dict | None, next_window: dict | None,
                   role: str) -> str:
    """``[atl-7] turn 3 red: report; you owe orders for turn 3 green`` and similar."""
    what = (f"turn {reported['turn']} {reported['phase']} report" if reported
            else "setup report")
    if next_window is None:
        tail = "game over"
    elif next_window["you_owe"]:
        tail = f"your orders for turn {next_window['turn']} {next_window['phase']} are due"
    else:
        tail = f"next: turn {next_window['turn']} {next_window['phase']}"
    return f"[{game_id}] {title}: {what} for {role}; {tail}"


def _report_mail(ctx, player, context, seq: int, now: datetime) -> dict:
    """The outbox row (a dict for repo.insert_protected) queueing the report of phase ``seq``
    for ``player``; it is composed when delivered."""
    game = ctx.game
    subject = report_subject(game.id, game.title, context["reported"], context["next"],
                             player.role)
    return {"game_id": game.id, "owner": player.role, "kind": "report",
            "to_addr": player.email, "subject": subject, "created_at": now,
            "report_seq": seq}


def compose_report(game, row, text: str, html: str) -> bytes:
    """The mail of a queued report (Outbox ``row``): text body, HTML attachment. The same row
    gives the same bytes each time (its Message-ID hashes the content and the row id)."""
    from pbem.mail.compose import compose

    from pbem.engine.judge import mail_domain

    return compose(sender=game.referee_address, to=row.to_addr, subject=row.subject, text=text,
                   html=html, date=row.created_at,
                   message_id_domain=mail_domain(game.referee_address),
                   message_key=f"outbox/{row.id}")


def deflate(data: bytes) -> bytes:
    """``data`` as a zlib stream (RFC 1950) for a letter of a few KB: level 6 with a 2 KiB
    window and a small hash table (wbits 11, memLevel 4), which ``zlib.decompress`` reads as
    any other stream. ``zlib.compress(data, 9)`` first clears 256 KiB of tables, which costs
    more than the compressing (up to 0.2 ms a letter on a busy machine); for a receipt the
    output is as small (605 bytes from 2.2 KB either way)."""
    packer = zlib.compressobj(6, zlib.DEFLATED, 11, 4)
    return packer.compress(data) + packer.flush()


def letter_row(sealer, *, game_id: str | None, owner: str, kind: str, to: str, subject: str,
               letter: dict, now: datetime) -> dict:
    """An outbox row (as a dict for a bulk insert) for a receipt or rejection, sealed for
    ``owner`` (a role, or ``archive``); ``letter`` is ``{"sender", "text", "in_reply_to"}``,
    composed into MIME when delivered (pbem send, pbem outbox: pbem.engine.delivery). The
    letter's JSON is stored zlib-compressed (read back by :func:`open_letter`)."""
    blob = sealer.seal(game_id or "-", owner, f"mail:{kind}", 0,
                       deflate(json.dumps(letter, sort_keys=True).encode()))
    return {"game_id": game_id, "owner": owner, "kind": kind, "to_addr": to, "subject": subject,
            "created_at": now, "sent_at": None, "report_seq": None, "blob": blob}


def open_letter(sealer, row) -> dict:
    """The letter ``{"sender", "text", "in_reply_to"}`` sealed in the Outbox ``row`` (a receipt,
    rejection, notice or reminder): zlib-compressed JSON, or plain JSON as a pbem before
    issue 11 stored it (a JSON object starts with ``{``, a zlib stream never does). Raises the
    sealer's error for a blob that does not open under the row's game, owner and kind,
    ValueError (zlib.error, JSONDecodeError) for damaged contents."""
    data = sealer.open(row.game_id or "-", row.owner, f"mail:{row.kind}", 0, row.blob)
    if data[:1] != b"{":
        data = zlib.decompress(data)
    return json.loads(data)


def compose_letter(row, letter: dict) -> bytes:
    """The mail of a queued receipt, rejection, notice or reminder (Outbox ``row``); the same
    row gives the same bytes each time (its Message-ID hashes the content and the row id)."""
    from pbem.engine.judge import mail_domain
    from pbem.mail.compose import compose

    return compose(sender=letter["sender"], to=row.to_addr, subject=row.subject,
                   text=letter["text"], date=row.created_at,
                   in_reply_to=letter.get("in_reply_to"),
                   message_id_domain=mail_domain(letter["sender"]),
                   message_key=f"outbox/{row.id}")
