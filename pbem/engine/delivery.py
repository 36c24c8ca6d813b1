"""Delivering the queued mail: the one loop behind ``pbem send`` (SMTP or sendmail) and
``pbem outbox DIR`` (a folder) (docs/mail.md, "Sending").

A run draws a random claim token and repeats, until nothing is due or its ``limit`` is
reached: claim a batch of due messages in one UPDATE (:func:`pbem.store.outbox.claim`, lease
:data:`LEASE_SECONDS`), make the database durable (no mail leaves before the phase that
produced it is on disk, DESIGN.md "Storage"), read the batch back (each row checked against its
MAC), and for each message: compose it (the same row always gives the same bytes and the same
Message-ID), hand it to the transport, and record the outcome in its own small transaction,
which also renews the lease on the rest of the batch. So:

- a run killed at any moment loses at most the record of the message in flight: that message
  goes again when its claim expires (at most twice, with the same Message-ID);
- two runs at once never deliver the same message (a claim is taken only when no live run
  holds it);
- a temporary failure (:class:`~pbem.mail.transports.TemporaryFailure`) counts an attempt and
  schedules the next try after :func:`retry_delay`; once the message has been queued for
  :data:`GIVE_UP_SECONDS`, the next temporary failure marks it failed with the last answer;
- a permanent failure marks the message failed with the server's answer;
- a row that fails its integrity check, or whose stored report or letter cannot be read back,
  is reported and left queued (never delivered); the others still go. So is a report whose
  rendering fails (a referee's template, pbem.reports.render.ReportTemplateError): reports
  are rendered here, from their stored contexts (pbem.engine.reportstore).

Times are UTC, durations in seconds.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.utils import getaddresses, parseaddr
from typing import Callable

LEASE_SECONDS = 600
"""How long a run's claim on a message lasts (renewed after every message the run handles);
a killed run's messages are due again this long after its last renewal."""
BATCH = 20
"""How many messages a run claims at a time."""
FIRST_RETRY_SECONDS = 5 * 60
"""The wait after the first temporary failure; it doubles with each further one ..."""
MAX_RETRY_SECONDS = 6 * 3600
"""... up to this."""
GIVE_UP_SECONDS = 3 * 86400
"""A message queued this long ago is marked failed at its next temporary failure."""

TAMPERED_WHY = ("the row fails its integrity check (it was changed outside pbem, for example its "
                "sent_at cleared to send it again; docs/security.md); it is not sent, the rest are")


def retry_delay(attempts: int) -> int:
    """Seconds to wait before the next try after ``attempts`` (>= 1) tries that failed for
    now: 300, 600, 1200, 2400, ... doubling, at most :data:`MAX_RETRY_SECONDS` (6 h)."""
    return min(FIRST_RETRY_SECONDS * 2 ** max(0, min(attempts - 1, 20)), MAX_RETRY_SECONDS)


@dataclass
class Delivered:
    """What became of one queued message in a run. ``status``: ``sent``, ``retry`` (a
    temporary failure; ``next_try`` says when), or ``failed`` (permanently, or given up).
    ``answer``: the server's reply or what happened; ``where``: what the transport returned
    (the file's Path for a folder)."""

    id: int
    game: str | None
    kind: str
    to: str
    subject: str
    status: str
    answer: str = ""
    next_try: datetime | None = None
    where: object = None
    attempts: int = 0

    @property
    def what(self) -> str:
        """``report to red@example.org (atl-7)``."""
        return f"{self.kind} to {self.to} ({self.game or 'no game'})"


@dataclass
class DeliveryRun:
    """The outcome of one run: ``results`` per message handled, ``problems`` as ``(what, why)``
    for rows that were not delivered and stay queued (tampered, or unreadable), ``stopped``:
    why the run ended before the queue did (the server could not be reached; the rest stays
    due), ``fatal``: why nothing (more) could be sent at all (a refused login, a missing
    password, an unusable folder or program)."""

    results: list[Delivered] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)
    stopped: str | None = None
    fatal: str | None = None
    held: tuple = (0, None)
    """``(n, until)``: queued messages another run's live claim held when this run ended (a
    run still sending, or one killed whose claim expires at ``until``, UTC)."""

    def _of(self, status: str) -> list[Delivered]:
        return [r for r in self.results if r.status == status]

    @property
    def sent(self) -> list[Delivered]:
        return self._of("sent")

    @property
    def retry(self) -> list[Delivered]:
        return self._of("retry")

    @property
    def failed(self) -> list[Delivered]:
        return self._of("failed")

    def summary(self) -> str:
        """``sent 5, retry later 1, failed 1``."""
        return (f"sent {len(self.sent)}, retry later {len(self.retry)}, "
                f"failed {len(self.failed)}")

    @property
    def ok(self) -> bool:
        """Nothing failed for good, no row was tampered with or unreadable, the transport was
        usable, and the run did not stop (server unreachable) before sending anything: cron
        sees an outage as a failed run."""
        return (not self.failed and not self.problems and not self.fatal
                and not (self.stopped and not self.sent))


def compose_queued(s, sealer, row, cache: dict | None = None) -> tuple[str, bytes]:
    """``(From address, message bytes)`` of a queued Outbox ``row``: a report is rendered in
    text and HTML from its stored context of ``report_seq`` (or taken as stored rendered by
    a pbem before schema 0005: pbem.engine.reportstore) and composed (encrypted to the
    reader's key with age when their seat asks for it: pbem.engine.encryption), a receipt,
    rejection, notice or reminder from its sealed letter (a receipt or rejection rendered
    from its stored context, a receipt signed: pbem.engine.letters). Raises ComposeError
    (pbem.mail.errors) for a mail that cannot be made (an address that is not one),
    ReportTemplateError for a template that fails, anything else for a row whose stored parts
    cannot be read back. ``cache``: kept by the caller for the reports it composes in one
    run (pbem.engine.reportstore.report_parts)."""
    from pbem.engine.publish import compose_letter, compose_report, open_letter
    from pbem.engine.reportstore import report_parts
    from pbem.store import repo

    if row.kind == "report":
        game = repo.get_game(s, row.game_id)
        if game is None:
            raise LookupError(f"its game {row.game_id!r} is not in the database")
        parts = report_parts(s, sealer, row.game_id, row.owner, row.report_seq, cache)
        from pbem.store.models import Player

        player = s.get(Player, (row.game_id, row.owner))
        if player is not None and player.encrypt_reports:
            from pbem.engine.encryption import compose_encrypted_report

            return game.referee_address, compose_encrypted_report(s, game, row, player,
                                                                  parts["text"], parts["html"])
        return game.referee_address, compose_report(game, row, parts["text"], parts["html"])
    from pbem.engine.letters import letter_text

    letter = open_letter(sealer, row)
    letter["text"] = letter_text(sealer, row.game_id, letter)
    return letter["sender"], compose_letter(row, letter)


def deliver_queued(db, sealer, transport, *, clock: Callable[[], datetime],
                   limit: int | None = None, token: str | None = None, batch: int = BATCH,
                   lease: int = LEASE_SECONDS) -> DeliveryRun:
    """Deliver the due queued mail of ``db`` with ``transport``
    (:mod:`pbem.mail.transports`), at most ``limit`` messages (None: all), as described in
    the module doc; ``clock()`` gives the current UTC time. Closes the transport and releases
    the run's remaining claims before returning, whatever happens. Raises what the database
    raises (e.g. DatabaseError when it cannot be made durable: then nothing left)."""
    from pbem.mail.errors import ComposeError
    from pbem.mail.transports import PermanentFailure, TemporaryFailure, TransportUnusable
    from pbem.reports.render import ReportTemplateError
    from pbem.store import outbox as store

    token = token or secrets.token_hex(16)
    run = DeliveryRun()
    seen: set[int] = set()
    contexts: dict = {}  # the public report contexts read this run (reportstore.report_parts)
    tried = 0
    try:
        while limit is None or tried < limit:
            now = clock()
            want = batch if limit is None else min(batch, limit - tried)
            with db.write() as s:
                got = store.claim(s, token, now, now + timedelta(seconds=lease), want)
            if not got:
                with db.read() as s:
                    run.held = store.held_elsewhere(s, token, now)
                break
            db.make_durable()
            with db.read() as s:
                rows, tampered = store.claimed(s, token, skip=seen)
            for e in tampered:
                seen.add(e.key[0])
                run.problems.append((f"queued mail {', '.join(map(str, e.key))}", TAMPERED_WHY))
            held = {r.id for r in rows}
            for i, row in enumerate(rows):
                seen.add(row.id)
                if row.id not in held:  # our lease ran out and another run took it
                    continue
                rest = [r.id for r in rows[i + 1:]]
                out = Delivered(row.id, row.game_id, row.kind, row.to_addr, row.subject, "",
                                attempts=row.attempts or 0)
                try:
                    with db.read() as s:
                        sender, data = compose_queued(s, sealer, row, contexts)
                except ComposeError as e:
                    out.status, out.answer = "failed", f"cannot be composed: {e}"
                    with db.write() as s:
                        store.mark_failed(s, row.id, clock(), out.answer, attempted=False)
                        held = store.renew(s, token, rest, clock() + timedelta(seconds=lease))
                    run.results.append(out)
                    continue
                except ReportTemplateError as e:  # the referee's template: fix it, send again
                    run.problems.append((out.what, f"queued mail {row.id}: its {row.kind} cannot "
                                                   f"be rendered ({e}); it stays queued"))
                    continue
                except Exception as e:  # a damaged stored row: report it, send the rest
                    run.problems.append((out.what, f"queued mail {row.id} cannot be read back "
                                                   f"({type(e).__name__}: {e}); it stays queued"))
                    continue
                tried += 1
                recipients = [a for _, a in getaddresses([row.to_addr]) if a]
                try:
                    out.where = transport.deliver(
                        parseaddr(sender)[1] or sender, recipients, data,
                        hint=f"{row.game_id or 'judge'}-{row.kind}-{row.owner}",
                        queued_at=row.created_at)
                except TransportUnusable as e:
                    run.fatal = str(e)
                    return run
                except TemporaryFailure as e:
                    when = clock()
                    out.attempts += 1
                    if when - row.created_at >= timedelta(seconds=GIVE_UP_SECONDS):
                        out.status = "failed"
                        out.answer = (f"gave up after {out.attempts} attempt"
                                      f"{'s' if out.attempts != 1 else ''} in "
                                      f"{_span(when - row.created_at)} since it was queued; "
                                      f"last answer: {e.answer}")
                        with db.write() as s:
                            store.mark_failed(s, row.id, when, out.answer)
                            held = store.renew(s, token, rest, when + timedelta(seconds=lease))
                    else:
                        out.status, out.answer = "retry", e.answer
                        out.next_try = when + timedelta(seconds=retry_delay(out.attempts))
                        with db.write() as s:
                            store.mark_retry(s, row.id, e.answer, out.next_try)
                            held = store.renew(s, token, rest, when + timedelta(seconds=lease))
                    run.results.append(out)
                    if e.connection:  # the others would fail the same way: stop here
                        run.stopped = e.answer
                        return run
                    continue
                except PermanentFailure as e:
                    out.status, out.answer = "failed", e.answer
                    out.attempts += 1
                    when = clock()
                    with db.write() as s:
                        store.mark_failed(s, row.id, when, e.answer)
                        held = store.renew(s, token, rest, when + timedelta(seconds=lease))
                    run.results.append(out)
                    continue
                out.status = "sent"
                out.attempts += 1
                when = clock()
                with db.write() as s:
                    store.mark_sent(s, row.id, when)
                    held = store.renew(s, token, rest, when + timedelta(seconds=lease))
                run.results.append(out)
        return run
    finally:
        try:
            transport.close()
        finally:
            with db.write() as s:
                store.release(s, token)


def _span(delta: timedelta) -> str:
    hours = delta.total_seconds() / 3600
    return f"{hours / 24:.1f} days" if hours >= 48 else f"{hours:.1f} hours"
