"""Ingest: archive every incoming message, then judge it (DESIGN.md, "Data flow").

For each message: find the signed orders (pbem envelope or SSH signature, in the body or an
attachment), verify the signature, bind the orders to a game, turn, phase and role through
their header and the registered key, parse and check them against the current position, keep
them sealed, and queue a signed receipt — or a rejection that says exactly why, with one cause
per :data:`pbem.engine.verdicts.CAUSES` entry. The raw message is archived (sealed) before judging, in its own
transaction, so nothing is lost if judging fails; messages left ``pending`` by a crash are
judged by the next ingest. A message delivered twice (same Message-ID, or same bytes when it
has none) is judged once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from pbem.engine.accept import Held, accept_orders
from pbem.engine.gamestate import GameContext
from pbem.engine.headers import format_time
from pbem.engine.publish import letter_row
from pbem.engine.reader import MAX_MESSAGE_BYTES, ReadMessage, read_chunks, read_message
from pbem.engine.ruleset import Window
from pbem.engine.verdicts import Rejected, Verdict
from pbem.store import repo
from pbem.store.models import Message, OrderSet

ARCHIVE = "archive"
DEFAULT_SENDER = "referee@pbem.invalid"


@dataclass
class _Open:
    """A game as the judge needs it during one batch."""

    ctx: GameContext
    phase: object
    window: Window | None
    held: dict


class _Batch:
    def __init__(self, session, sealer):
        self.session, self.sealer = session, sealer
        self.games: dict[str, _Open | None] = {}
        self.order_sets: list[dict] = []
        self.mail: list[dict] = []
        self.superseded: list[int] = []

    def game(self, gid: str) -> _Open | None:
        if gid not in self.games:
            row = repo.get_game(self.session, gid)
            if row is None:
                self.games[gid] = None
            else:
                ctx = GameContext.load(self.session, self.sealer, row)
                phase = repo.open_phase(self.session, gid)
                window = Window.from_json(json.loads(phase.window_json)) if phase else None
                held = {o.role: Held(o.sha256, o.nonce, o.issued, id=o.id)
                        for o in repo.accepted_orders(self.session, gid, phase.seq)} \
                    if phase else {}
                self.games[gid] = _Open(ctx, phase, window, held)
        return self.games[gid]

    def sender_address(self, game_id: str | None) -> str:
        """The From address of the judge's replies: the game's referee address if known."""
        g = self.games.get(game_id) if game_id else None
        return g.ctx.game.referee_address if g else DEFAULT_SENDER

    def flush(self) -> None:
        """Write everything the batch produced: order sets, mail, log lines (bulk inserts)."""
        from sqlalchemy import insert, update

        from pbem.store.models import Outbox

        if self.order_sets:
            self.session.execute(insert(OrderSet), self.order_sets)
        if self.superseded:
            self.session.execute(update(OrderSet).where(OrderSet.id.in_(self.superseded))
                                 .values(status="superseded"))
        if self.mail:
            self.session.execute(insert(Outbox), self.mail)
        for g in self.games.values():
            if g is not None:
                g.ctx.flush()


def ingest(db, sealer, incomings, *, now: datetime, batch_size: int = 250) -> list[Verdict]:
    """Archive and judge ``incomings`` (pbem.mail.sources.Incoming), plus any message a crash
    left unjudged. Returns one Verdict per order set found (or per message without one).

    Messages go in chunks of ``batch_size``: one transaction archives a chunk, a second judges
    it (so a crash between the two leaves the chunk ``pending`` for the next run)."""
    verdicts: list[Verdict] = []
    with db.read() as s:
        stale = [m.id for m in repo.pending_messages(s)]
    if stale:
        verdicts += _judge_archived(db, sealer, stale, now)
    for items in read_chunks(incomings, batch_size):
        verdicts += _ingest_chunk(db, sealer, items, now)
    return verdicts


def _ingest_chunk(db, sealer, items: list[ReadMessage], now) -> list[Verdict]:
    """Archive a chunk of read messages in one transaction, then judge the new ones."""
    from sqlalchemy import insert
    from sqlmodel import select

    verdicts, fresh = [], []
    with db.write() as s:
        keys = {i.key for i in items}
        known = set(s.exec(select(Message.message_key).where(Message.message_key.in_(keys))))
        rows = []
        for item in items:
            if item.key in known:
                verdicts.append(Verdict(item.origin, "duplicate", "duplicate",
                                        "this message was received before and is judged once"))
                continue
            known.add(item.key)
            rows.append({"message_key": item.key, "raw_sha256": item.digest, "received_at": now,
                         "origin": item.origin, "sender": item.extracted.sender or "",
                         "subject": (item.extracted.subject or "")[:300], "verdict": "pending",
                         "reason": "",
                         "blob": sealer.seal("-", ARCHIVE, "message:" + item.digest, 0, item.raw)})
            fresh.append(item)
        if rows:
            ids = s.execute(insert(Message).returning(Message.id, sort_by_parameter_order=True),
                            rows).scalars().all()
            for item, mid in zip(fresh, ids):
                item.id = mid
    if fresh:
        verdicts += _judge(db, sealer, fresh, now)
    return verdicts


def _judge_archived(db, sealer, message_ids: list[int], now) -> list[Verdict]:
    from pbem.mail.sources import looks_like_message

    items = []
    with db.read() as s:
        for mid in message_ids:
            row = s.get(Message, mid)
            raw = sealer.open("-", ARCHIVE, "message:" + row.raw_sha256, 0, row.blob)
            item = read_message(raw, row.origin, not looks_like_message(raw))
            item.id = mid
            items.append(item)
    return _judge(db, sealer, items, now)


def _judge(db, sealer, items: list[ReadMessage], now) -> list[Verdict]:
    """Judge archived messages in one write transaction; verdicts are written in one go."""
    from sqlalchemy import update
    from sqlmodel import select

    verdicts, updates = [], []
    with db.write() as s:
        ids = [i.id for i in items]
        pending = set(s.exec(select(Message.id).where(Message.id.in_(ids),
                                                      Message.verdict == "pending")))
        batch = _Batch(s, sealer)
        for item in items:
            if item.id not in pending:  # another ingest judged it meanwhile
                continue
            try:
                found = _judge_message(batch, item, now)
            except Exception as e:  # a judge bug must not lose the message: it stays archived
                found = [Verdict(item.origin, "error", "error",
                                 f"internal error {type(e).__name__}: {e}")]
            verdicts += found
            accepted = [v for v in found if v.status == "accepted"]
            first = accepted[0] if accepted else found[0]
            updates.append({"id": item.id, "verdict": "accepted" if accepted else first.status,
                            "reason": "; ".join(v.reason for v in found if v.reason)[:2000],
                            "game_id": first.game, "role": first.role})
        batch.flush()
        if updates:
            s.execute(update(Message), updates)
    return verdicts


def _judge_message(batch: _Batch, msg: ReadMessage, now) -> list[Verdict]:
    ex, found = msg.extracted, msg.found
    if msg.too_large:
        v = Verdict(msg.origin, "rejected", "too-large",
                    f"the message is {len(msg.raw):,} bytes; the judge reads messages of up to "
                    f"{MAX_MESSAGE_BYTES:,} bytes: send the signed orders alone, as text")
        _reject_mail(batch, msg, ex, v, now)
        return [v]
    if not found:
        v = Verdict(msg.origin, "rejected", "no-orders",
                    "no signed orders were found in this message: put the orders signed with "
                    "`pbem sign` (or with `ssh-keygen -Y sign -n pbem-orders`) in the body or "
                    "attach them")
        _reject_mail(batch, msg, ex, v, now)
        return [v]
    verdicts = []
    for item in found:
        try:
            if not hasattr(item, "text"):
                if getattr(item, "rewrapped", False):
                    raise Rejected("rewrapped", f"the signature ({item.method}, in {item.source}) "
                                   f"does not match: {item.reason}. Your mail client seems to have "
                                   "re-wrapped long lines; please send the signed orders as an "
                                   "attachment (orders.txt) instead of in the body")
                raise Rejected("bad-signature", f"the signature ({item.method}, in {item.source}) "
                               f"does not match the text: {item.reason}")
            verdicts.append(accept_orders(batch, msg, ex, item, now))
        except Rejected as r:
            v = Verdict(msg.origin, "duplicate" if r.cause == "duplicate" else "rejected",
                        r.cause, r.reason, **r.where)
            if v.status == "rejected":
                _reject_mail(batch, msg, ex, v, now)
            verdicts.append(v)
    return verdicts


def _reject_mail(batch, msg: ReadMessage, ex, verdict: Verdict, now) -> None:
    """Tell the sender why their message was not accepted: not when there is no address, and
    not to automatic mail (RFC 3834 Auto-Submitted: vacation replies, bounces), to avoid loops."""
    from pbem.reports.render import render

    sender = ex.sender or ""
    if not sender or getattr(ex, "auto_submitted", False):
        return
    text = render("rejection.txt.j2", {"reason": verdict.reason, "cause": verdict.cause,
                                       "subject": (ex.subject or "")[:200],
                                       "received": format_time(now),
                                       "game": verdict.game})
    subject = "Re: " + (ex.subject or "your orders")[:200] + " [not accepted]"
    batch.mail.append(letter_row(
               batch.sealer, game_id=None, owner=ARCHIVE, kind="rejection",
               to=sender, subject=subject, now=now,
               letter={"sender": batch.sender_address(verdict.game), "text": text,
                       "in_reply_to": ex.message_id or None}))


def mail_domain(address: str) -> str:
    """The domain for Message-IDs of mail sent from ``address`` (RFC 5322 3.6.4)."""
    domain = address.rpartition("@")[2].strip().strip(">")
    return domain or "pbem.invalid"

