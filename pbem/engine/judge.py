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
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Iterable, Iterator

from pbem.engine.accept import Held, accept_orders
from pbem.engine.gamestate import GameContext
from pbem.engine.headers import format_time
from pbem.engine.publish import letter_row
from pbem.engine.reader import MAX_MESSAGE_BYTES, Arrival, ReadMessage, arrival
from pbem.engine.prepare import Preparer, game_token, snapshot_of
from pbem.engine.readpool import Reading, ReadPool
from pbem.engine.ruleset import Window
from pbem.engine.settings import IngestSettings
from pbem.engine.verdicts import Rejected, Verdict
from pbem.store import repo
from pbem.store.models import Message, OrderSet

ARCHIVE = "archive"
RETRIED = ("pending", "error", "unreadable")
"""The archive verdicts a message may be judged from again (``pbem ingest --retry``)."""
DEFAULT_SENDER = "referee@pbem.invalid"


@dataclass
class _Open:
    """A game as the judge needs it during one batch."""

    ctx: GameContext
    phase: object
    window: Window | None
    held: dict
    token: tuple = ()
    known: dict = field(default_factory=dict)
    uses: int = 0
    referee_fp: str = ""

    def role_state(self, role: str):
        """``ctx.role_state(role)``, loaded once per batch: judging orders never changes the
        state, and ``check`` does not change the state it is given (docs/rulesets.md)."""
        state = self.known.get(role)
        if state is None:
            state = self.known[role] = self.ctx.role_state(role)
        return state


SHARE_AFTER = 8
"""Order sets of one game judged in one batch after which the readers are told the game's
position (pbem.engine.prepare): a game that busy is likely to have more mail in the chunks
being read; for a game with a few order sets, sending it would cost more than it saves."""


class _Run:
    """What one ingest run keeps across its transactions: the reader ``pool`` and the order
    set rows whose MACs were checked (pbem.store.repo.accepted_order_values) or computed
    (the rows it inserted: pbem.store.integrity.insert_rows)."""

    def __init__(self, pool: ReadPool | None):
        self.pool = pool
        self.checked: set = set()
        self.states: dict[str, tuple] = {}  # game -> (token, ruleset, parts, state): state()

    def state(self, session, sealer, row, token: tuple) -> GameContext:
        """The game ``row`` opened in ``session``: its state as loaded by an earlier
        transaction of this run when the game is still at ``token`` (pbem.engine.prepare
        ``game_token``: every change of the state bumps its version), else loaded and
        remembered (GameContext.load). The players are read in each transaction, as the
        order sets are (a referee may change a seat between two transactions)."""
        known = self.states.get(row.id)
        if known is not None and known[0] == token:
            _, ruleset, parts, state = known
            return GameContext(session, sealer, row, repo.players(session, row.id), ruleset,
                               parts, state)
        ctx = GameContext.load(session, sealer, row)
        self.states[row.id] = (token, ctx.ruleset, ctx.parts, ctx.state)
        return ctx


class _Batch:
    """What judging one chunk needs and produces: the games it touches, the order sets, mail
    and superseded rows to write, and the rejections counted per address."""

    def __init__(self, session, sealer, settings: IngestSettings, run: "_Run | None" = None):
        self.session, self.sealer, self.settings = session, sealer, settings
        self.run = run if run is not None else _Run(None)
        self.rejected_to: dict[str, int] = {}
        self.nonces: dict[str, dict[str, set[str]]] = {}  # game -> nonce -> roles (accept.py)
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
                phase = repo.open_phase(self.session, gid)
                ctx = self.run.state(self.session, self.sealer, row, game_token(row, phase))
                window = Window.from_json(json.loads(phase.window_json)) if phase else None
                held = {o["role"]: Held(o["digest"], o["nonce"], o["issued"], id=o["id"])
                        for o in repo.accepted_order_values(self.session, gid, phase.seq,
                                                            self.run.checked)} \
                    if phase else {}
                fp = self.sealer.referee_signing_key(gid).public_key().fingerprint
                self.games[gid] = _Open(ctx, phase, window, held, game_token(row, phase),
                                        referee_fp=fp)
        g = self.games[gid]
        if g is not None:
            g.uses += 1
            if g.uses == SHARE_AFTER and g.window is not None:  # busy: the readers can help
                self._share(gid, g)
        return g

    def _share(self, gid: str, g: _Open) -> None:
        """Tell the readers the game's position, so that they check the orders for it in the
        messages read from now on (pbem.engine.prepare)."""
        pool = self.run.pool
        prepare = getattr(pool, "prepare", None)
        if prepare is not None:
            prepare.snapshot(pool.share, gid, g.token,
                             lambda: snapshot_of(g.ctx, g.window, g.token))

    def rejections_to(self, address: str, now: datetime) -> int:
        """Rejections queued to ``address`` in the hour before ``now`` (this batch's too)."""
        key = address.lower()
        if key not in self.rejected_to:
            self.rejected_to[key] = repo.count_mail_to(self.session, "rejection", key,
                                                       since=now - timedelta(hours=1))
        return self.rejected_to[key]

    def sender_address(self, game_id: str | None) -> str:
        """The From address of the judge's replies: the game's referee address if known,
        else ``[mail] from`` of the settings, else :data:`DEFAULT_SENDER`."""
        g = self.games.get(game_id) if game_id else None
        if g:
            return g.ctx.game.referee_address
        return getattr(self.settings, "reply_from", None) or DEFAULT_SENDER

    def flush(self) -> None:
        """Write everything the batch produced: order sets, mail, log lines (bulk inserts, with
        their row MACs)."""
        from pbem.store.models import Outbox

        # the rows written here need no second MAC check when the next batch reads them
        repo.insert_protected(self.session, OrderSet, self.order_sets, self.run.checked)
        repo.supersede_orders(self.session, self.superseded)
        repo.insert_protected(self.session, Outbox, self.mail)
        for g in self.games.values():
            if g is not None:
                g.ctx.flush()


def ingest(db, sealer, incomings, *, now: datetime, settings: IngestSettings = IngestSettings(),
           batch_size: int = 250, retry_errors: bool = False) -> list[Verdict]:
    """Archive and judge ``incomings`` (pbem.mail.sources.Incoming), plus any message a crash
    left unjudged (and, with ``retry_errors``, every message the judge failed on or could not
    read within its budget: verdicts ``error`` and ``unreadable``). Returns one Verdict per
    order set found (or per message without one).

    Messages go in chunks of at most ``batch_size`` (the first ones smaller, so that judging
    starts soon). For each chunk: one transaction archives every new message from its raw bytes
    alone (bounded, recognised as a duplicate before any parsing); the worker processes of a
    :class:`~pbem.engine.readpool.ReadPool` then read it under ``settings``' time and memory
    budget while the chunks before it are judged, each in a transaction of its own, in order.
    A crash between archiving and judging leaves the chunk ``pending`` for the next run."""
    verdicts: list[Verdict] = []
    with db.read(orm=False) as s:
        stale = repo.pending_messages(s, retry_errors=retry_errors)
    with ReadPool(settings.budget, prepare=Preparer(sealer, MAX_SIGNED_PER_MESSAGE),
                  slim=True) as pool:
        run = _Run(pool)
        if stale:
            verdicts += _judge_archived(db, sealer, stale, now, settings, run)
        waiting: deque[tuple[list[Verdict], Reading]] = deque()
        for chunk in _chunks(incomings, batch_size):
            duplicates, fresh = _archive(db, sealer, [arrival(i) for i in chunk], now, settings)
            waiting.append((duplicates, pool.submit(fresh)))
            # judge what is read; never more than READ_AHEAD chunks waiting to be judged
            while waiting and (len(waiting) > READ_AHEAD or waiting[0][1].ready()):
                verdicts += _judge_waiting(db, sealer, waiting, now, settings, batch_size, run)
        while waiting:
            verdicts += _judge_waiting(db, sealer, waiting, now, settings, batch_size, run)
    return verdicts


def _judge_waiting(db, sealer, waiting: deque, now, settings, most: int,
                   run: "_Run") -> list[Verdict]:
    """Judge the oldest waiting chunk, with the chunks after it that are read already (up to
    ``most`` messages in all), in one transaction; the verdicts of each chunk's duplicates
    come before its judged ones, as the chunks came."""
    taken: list[tuple[list[Verdict], list[ReadMessage]]] = []
    count = 0
    while waiting and (not taken or (count + len(waiting[0][1].items) <= most
                                     and waiting[0][1].ready())):
        duplicates, reading = waiting.popleft()
        taken.append((duplicates, reading.results()))
        count += len(taken[-1][1])
    messages = [m for _, read in taken for m in read]
    judged = iter(_judge(db, sealer, messages, now, settings, each=True, run=run)
                  if messages else [])  # only duplicates: nothing to judge, no transaction
    verdicts: list[Verdict] = []
    for duplicates, read in taken:
        verdicts += duplicates
        for _ in read:
            verdicts += next(judged)
    return verdicts


READ_AHEAD = 2
"""Chunks archived and being read at most, beside the one being judged."""
FIRST_CHUNK = 16
"""The size of the first chunk; each next one is twice as large, up to ``batch_size``."""


def _chunks(items: Iterable, size: int) -> Iterator[list]:
    """``items`` in lists of :data:`FIRST_CHUNK`, twice that, ... up to ``size`` items."""
    chunk, limit = [], min(FIRST_CHUNK, size)
    for item in items:
        chunk.append(item)
        if len(chunk) >= limit:
            yield chunk
            chunk, limit = [], min(2 * limit, size)
    if chunk:
        yield chunk


def _archive(db, sealer, items: list[Arrival], now,
             settings: IngestSettings = IngestSettings()) -> tuple[list[Verdict], list[Arrival]]:
    """Archive a chunk in one transaction, before any parsing: (verdicts of the duplicates, the
    new arrivals with their archive ids). A message is kept cut to its first bytes when it is
    longer than the judge reads (``truncated``, with its whole ``size``). A message archived
    before that arrives from another place (sent again, not read again: receipt_again) gets
    the receipts of its orders still in force sent again."""
    from sqlalchemy import select

    verdicts, fresh, rows = [], [], []
    with db.write(orm=False) as s:
        keys = {i.key for i in items}
        t = Message.__table__  # Core: the judge needs no ORM (pbem.store.core)
        known = {m.message_key: m for m in s.exec(
            select(t.c.id, t.c.message_key, t.c.origin, t.c.verdict)
            .where(t.c.message_key.in_(keys)))}
        for item in items:
            if item.key in known:
                from pbem.engine.receipt_again import again_for_message, same_place

                first = known[item.key]
                why = "this message was received before and is judged once"
                words = []
                if first is not None and first.verdict == "accepted" \
                        and not same_place(first.origin, item.origin[:1000]):
                    try:
                        words = again_for_message(s, sealer, first, now,
                                                  settings.rejections_per_hour, item.origin)
                    except Exception as e:  # never let a resend stop the archiving
                        words = [(False, "its receipt could not be sent again "
                                         f"({type(e).__name__}: {str(e)[:200]})")]
                verdicts.append(Verdict(item.origin, "duplicate", "duplicate",
                                        "; ".join([why] + [w for _, w in words]),
                                        resent=any(sent for sent, _ in words)))
                continue
            known[item.key] = None  # archived in this chunk: a second copy is read again
            rows.append({"message_key": item.key, "raw_sha256": item.digest, "received_at": now,
                         "origin": item.origin[:1000], "sender": "", "subject": "",
                         "verdict": "pending", "reason": "", "size": item.size,
                         "truncated": item.truncated,
                         "blob": sealer.seal("-", ARCHIVE, "message:" + item.digest, 0, item.raw)})
            fresh.append(item)
        if rows:
            for item, mid in zip(fresh, repo.archive_messages(s, rows)):
                item.id = mid
    return verdicts, fresh


def _judge_archived(db, sealer, message_ids: list[int], now, settings,
                    run: "_Run") -> list[Verdict]:
    """Judge messages already archived (left pending by a crash, or retried). A row whose
    archived copy cannot be opened gets the verdict ``error`` and is skipped: one bad row never
    stops the others."""
    from pbem.mail.sources import looks_like_message

    items, verdicts, broken = [], [], []
    with db.read(orm=False) as s:
        for mid in message_ids:
            origin = f"message {mid}"
            try:
                row, blob = repo.archived_message(s, mid)
                origin = row.origin
                raw = sealer.open("-", ARCHIVE, "message:" + row.raw_sha256, 0, blob)
            except Exception as e:
                why = (f"the archived copy of message {mid} ({origin}) cannot be opened: "
                       f"{type(e).__name__}: {str(e)[:300]}")
                verdicts.append(Verdict(origin, "error", "unreadable-archive", why))
                broken.append({"id": mid, "verdict": "error", "reason": why[:2000]})
                continue
            size = max(row.size or 0, len(raw))
            items.append(Arrival(row.origin, raw, size, row.raw_sha256, row.message_key,
                                 bare=not looks_like_message(raw), id=mid))
    if broken:
        with db.write(orm=False) as s:
            repo.record_verdicts(s, broken)
    readings = [run.pool.submit(chunk) for chunk in _chunks(items, 250)]  # all read ahead
    for reading in readings:
        verdicts += _judge(db, sealer, reading.results(), now, settings, run=run)
    return verdicts


def _judge(db, sealer, items: list[ReadMessage], now, settings, *, each: bool = False,
           run: "_Run | None" = None) -> list:
    """Judge archived, read messages in one write transaction; verdicts are written in one go.
    A message that makes the judge fail gets the verdict ``error`` (and its sender a reply);
    the others are judged as usual. Returns the verdicts; with ``each``, one list of verdicts
    per item instead (empty for an item that another ingest judged meanwhile)."""
    from sqlalchemy import select

    from pbem.mail.compose import safe_header_text

    verdicts: list[list[Verdict]] = []
    updates = []
    with db.write(orm=False) as s:
        ids = [i.id for i in items]
        t = Message.__table__
        pending = set(s.exec(select(t.c.id).where(t.c.id.in_(ids), t.c.verdict.in_(RETRIED))))
        batch = _Batch(s, sealer, settings, run)
        for item in items:
            if item.id not in pending:  # another ingest judged it meanwhile
                verdicts.append([])
                continue
            try:
                found = _judge_message(batch, item, now)
            except Exception as e:  # a judge bug must not lose the message: it stays archived
                found = [Verdict(item.origin, "error", "error",
                                 f"the judge failed on this message ({type(e).__name__}: {e}); "
                                 "it is archived, and the referee can judge it again with "
                                 "`pbem ingest --retry` once the cause is fixed")]
                _reply(batch, item, found, now)
            ex = item.extracted
            warnings = list(getattr(ex, "warnings", []))
            for v in found:
                v.warnings = warnings
            verdicts.append(found)
            accepted = [v for v in found if v.status == "accepted"]
            first = accepted[0] if accepted else found[0]
            verdict = ("accepted" if accepted else "unreadable" if first.cause == "unreadable"
                       else first.status)
            updates.append({"id": item.id, "verdict": verdict,
                            "reason": "; ".join(v.reason for v in found if v.reason)[:2000],
                            "game_id": first.game, "role": first.role,
                            "sender": (getattr(ex, "sender", "") or "")[:320],
                            "subject": safe_header_text(getattr(ex, "subject", "") or "", 300)})
        batch.flush()
        repo.record_verdicts(s, updates)
    return verdicts if each else [v for found in verdicts for v in found]


MAX_SIGNED_PER_MESSAGE = 8
"""How many signed order sets of one message are judged; the rest are ignored with a warning
(a message with thousands of signed blocks must not cost thousands of verifications)."""


def _judge_message(batch: _Batch, msg: ReadMessage, now) -> list[Verdict]:
    """The verdicts on one read message. Receipts go to the players whose orders are accepted;
    the sender gets at most one rejection, listing every reason (:func:`_reply`)."""
    ex, found = msg.extracted, msg.found
    if msg.failure:
        v = Verdict(msg.origin, "rejected", "unreadable",
                    f"the judge could not read this message: {msg.failure}. Send the signed "
                    "orders alone, as plain text or a .txt attachment")
        _reply(batch, msg, [v], now)
        return [v]
    if msg.too_large:
        v = Verdict(msg.origin, "rejected", "too-large",
                    f"the message is {msg.size:,} bytes; the judge reads messages of up to "
                    f"{MAX_MESSAGE_BYTES:,} bytes: send the signed orders alone, as text")
        _reply(batch, msg, [v], now)
        return [v]
    if not found:
        v = Verdict(msg.origin, "rejected", "no-orders",
                    "no signed orders were found in this message: put the orders signed with "
                    "`pbem sign` (or with `ssh-keygen -Y sign -n pbem-orders`) in the body or "
                    "attach them")
        _reply(batch, msg, [v], now)
        return [v]
    if len(found) > MAX_SIGNED_PER_MESSAGE:
        ex.warnings.append(f"the message holds {len(found):,} signed blocks; only the first "
                           f"{MAX_SIGNED_PER_MESSAGE} were judged")
        found = found[:MAX_SIGNED_PER_MESSAGE]
    verdicts = []
    prepared = getattr(msg, "prepared", None) or {}
    for index, item in enumerate(found):
        try:
            if not hasattr(item, "text"):
                if getattr(item, "rewrapped", False):
                    raise Rejected("rewrapped", f"the signature ({item.method}, in {item.source}) "
                                   f"does not match: {item.reason}. Your mail client seems to have "
                                   "re-wrapped long lines; please send the signed orders as an "
                                   "attachment (orders.txt) instead of in the body")
                raise Rejected("bad-signature", f"the signature ({item.method}, in {item.source}) "
                               f"does not match the text: {item.reason}")
            verdicts.append(accept_orders(batch, msg, ex, item, now, prepared.get(index)))
        except Rejected as r:
            verdicts.append(Verdict(msg.origin, "duplicate" if r.cause == "duplicate"
                                    else "rejected", r.cause, r.reason, **r.where))
    _reply(batch, msg, [v for v in verdicts if v.status == "rejected"], now)
    return verdicts


def _reply(batch, msg: ReadMessage, refused: list[Verdict], now) -> None:
    """Tell the sender, in one mail, why their message (or part of it) was not accepted: not
    when there is no address, not to automatic mail (RFC 3834 Auto-Submitted: vacation replies,
    bounces), to avoid loops, and not beyond ``rejections_per_hour`` to one address (anyone
    can forge a From address: the judge must not be made to mail a stranger's victim). A
    rejection that is not sent says so in its verdict."""
    from pbem.engine.letters import REJECTION, unrendered
    from pbem.mail.compose import safe_header_text

    ex = msg.extracted
    sender = (getattr(ex, "sender", "") or "").strip()
    if not refused or not sender or getattr(ex, "auto_submitted", False):
        return
    limit = batch.settings.rejections_per_hour
    sent = batch.rejections_to(sender, now)
    if sent >= limit:
        for v in refused:
            v.reason += (f" (no reply sent: {sender} has had {limit} rejections in the last "
                         "hour)")
        return
    batch.rejected_to[sender.lower()] = sent + 1
    subject = safe_header_text(ex.subject or "", 200)
    game = next((v.game for v in refused if v.game), None)
    context = {"reasons": [v.reason for v in refused], "subject": subject,
               "received": format_time(now), "game": game,
               "warnings": list(getattr(ex, "warnings", []))[:20]}
    batch.mail.append(letter_row(  # rendered when mailed (pbem.engine.letters)
               batch.sealer, game_id=None, owner=ARCHIVE, kind="rejection",
               to=sender, subject="Re: " + (subject or "your orders") + " [not accepted]",
               now=now, letter={"sender": batch.sender_address(game),
                                "in_reply_to": safe_header_text(ex.message_id or "", 998)
                                or None, **unrendered(REJECTION, context)}))


def mail_domain(address: str) -> str:
    """The domain for Message-IDs of mail sent from ``address`` (RFC 5322 3.6.4)."""
    domain = address.rpartition("@")[2].strip().strip(">")
    return domain or "pbem.invalid"

