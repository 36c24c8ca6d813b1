"""Ingest: archive every incoming message, then judge it (DESIGN.md, "Data flow").

For each message: find the signed orders (pbem envelope or SSH signature, in the body or an
attachment), verify the signature, bind the orders to a game, turn, phase and role through
their header and the registered key, parse and check them against the current position, keep
them sealed, and queue a signed receipt — or a rejection that says exactly why, with one cause
per :data:`CAUSES` entry. The raw message is archived (sealed) before judging, in its own
transaction, so nothing is lost if judging fails; messages left ``pending`` by a crash are
judged by the next ingest. A message delivered twice (same Message-ID, or same bytes when it
has none) is judged once.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pbem.engine.gamestate import GameContext
from pbem.engine.headers import HeaderError, format_time, parse_header
from pbem.engine.publish import letter_row
from pbem.engine.reader import MAX_MESSAGE_BYTES, ReadMessage, read_chunks, read_message
from pbem.engine.ruleset import Window
from pbem.store import repo
from pbem.store.models import Message, OrderSet

ARCHIVE = "archive"
MAX_ORDERS_CHARS = 64 * 1024
"""The longest order set taken (characters of the canonical text)."""
MAX_CLOCK_SKEW = timedelta(hours=24)
"""How far ahead of the judge's clock an ``issued:`` may be (clocks and zones differ; an order
set dated far ahead would lock its sender out of correcting it)."""
DEFAULT_SENDER = "referee@pbem.invalid"

CAUSES = {
    "no-orders": "no signed orders were found in the message",
    "bad-signature": "the signature does not match the text",
    "rewrapped": "the signature does not match, and the mail client seems to have re-wrapped lines",
    "bad-header": "the order header is incomplete or malformed",
    "unknown-game": "no such game on this judge",
    "game-over": "the game has ended",
    "unknown-role": "the game has no such role",
    "unknown-key": "the signing key is not registered for any player of the game",
    "wrong-key": "the signing key is registered for another role",
    "no-window": "the game has no open window",
    "wrong-window": "the orders are for another turn or phase",
    "not-your-window": "the role owes no orders in the open window",
    "stale": "newer orders are already held",
    "future": "the orders are dated more than a day after the judge's clock",
    "too-large": "the message or the orders are larger than the judge takes",
    "duplicate": "the same orders or message were received before",
    "error": "the judge failed on this message (the referee has been told)",
}


@dataclass
class Verdict:
    """The judgment of one signed order set (or of a message without one).

    ``status`` is accepted | rejected | duplicate | error; ``cause`` a key of :data:`CAUSES`;
    ``reason`` the full sentence sent to the player."""

    origin: str
    status: str
    cause: str = ""
    reason: str = ""
    game: str | None = None
    role: str | None = None
    phase: str | None = None
    sha256: str | None = None
    problems: list = field(default_factory=list)

    def summary(self) -> str:
        where = f" {self.game} {self.phase} {self.role}" if self.game and self.role else ""
        if self.status == "accepted":
            n = len(self.problems)
            probs = f" ({n} problem{'s' if n != 1 else ''})" if n else ""
            return f"{self.origin}: accepted{where}{probs}"
        return f"{self.origin}: {self.status}{where}: {self.reason}"


class Rejected(Exception):
    """Raised inside judging with a cause of CAUSES and the sentence for the sender."""

    def __init__(self, cause: str, reason: str, **where):
        super().__init__(reason)
        self.cause, self.reason, self.where = cause, reason, where


@dataclass
class _Held:
    """The order set in force for a role: a stored row (``id``) or one added in this batch
    (``row``, the dict that will be inserted)."""

    sha256: str
    nonce: str
    issued: datetime
    id: int | None = None
    row: dict | None = None


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
                held = {o.role: _Held(o.sha256, o.nonce, o.issued, id=o.id)
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
            verdicts.append(_judge_orders(batch, msg, ex, item, now))
        except Rejected as r:
            v = Verdict(msg.origin, "duplicate" if r.cause == "duplicate" else "rejected",
                        r.cause, r.reason, **r.where)
            if v.status == "rejected":
                _reject_mail(batch, msg, ex, v, now)
            verdicts.append(v)
    return verdicts


def _judge_orders(batch: _Batch, msg: ReadMessage, ex, signed, now) -> Verdict:
    from pbem.crypto.canonical import sha256_hex

    text = signed.text
    if len(text) > MAX_ORDERS_CHARS:
        raise Rejected("too-large", f"the orders are {len(text):,} characters long; the judge "
                       f"takes order sets of up to {MAX_ORDERS_CHARS:,}")
    try:
        header = parse_header(text)
    except HeaderError as e:
        raise Rejected("bad-header", f"the order header is not right: {e}") from None
    where = {"game": header.game, "role": header.role,
             "phase": f"{header.turn}.{header.phase}"}
    if header.issued > now + MAX_CLOCK_SKEW:
        raise Rejected("future", f"these orders say they were issued {format_time(header.issued)}, "
                       f"but the judge's clock reads {format_time(now)}: 'issued:' may be ahead "
                       f"by {MAX_CLOCK_SKEW.total_seconds() / 3600:.0f} hours at most (check your "
                       "clock and time zone, or let `pbem sign` fill it)", **where)
    g = batch.game(header.game)
    if g is None:
        raise Rejected("unknown-game", f"there is no game {header.game!r} on this judge "
                       "(check the 'game:' line)", **where)
    game = g.ctx.game
    fp = signed.public_key.fingerprint
    player = g.ctx.player(header.role)
    if player is None:
        raise Rejected("unknown-role", f"game {game.id} has no role {header.role!r} "
                       f"(its roles: {', '.join(g.ctx.roles)})", **where)
    owner = next((p for p in g.ctx.players if p.fingerprint == fp), None)
    if owner is None:
        elsewhere = sorted(f"{p.game_id} ({p.role})" for p in repo.games_of_key(batch.session, fp))
        if elsewhere:
            raise Rejected("unknown-key", f"these orders name game {game.id}, but the key {fp} "
                           f"that signed them is not registered there; it is registered in "
                           f"{', '.join(elsewhere)} — orders for another game?", **where)
        raise Rejected("unknown-key", f"the key {fp} that signed these orders is not registered "
                       f"for any player of game {game.id}", **where)
    if owner.role != header.role:
        raise Rejected("wrong-key", f"the key {fp} is registered for role {owner.role} in game "
                       f"{game.id}, but these orders are for role {header.role}", **where)
    if game.status != "active":
        raise Rejected("game-over", f"game {game.id} has ended; no orders are taken", **where)
    if g.phase is None or g.window is None:
        raise Rejected("no-window", f"game {game.id} has no open window", **where)
    w = g.window
    if (header.turn, header.phase) != (w.turn, w.phase):
        raise Rejected("wrong-window", f"these orders are for turn {header.turn}, phase "
                       f"{header.phase}, but the open window of game {game.id} is turn {w.turn}, "
                       f"phase {w.phase} (deadline {format_time(g.phase.deadline_at)})", **where)
    if not w.accepts(header.role):
        raise Rejected("not-your-window", f"role {header.role} owes no orders in turn {w.turn}, "
                       f"phase {w.phase} of game {game.id}; orders are awaited from "
                       f"{', '.join(w.owed)}", **where)
    digest = sha256_hex(text)
    held = g.held.get(header.role)
    if held is not None:
        if held.sha256 == digest and held.nonce == header.nonce:
            raise Rejected("duplicate", "these orders were received before and are in force",
                           **where)
        if header.issued <= held.issued:
            raise Rejected("stale", f"these orders were issued {format_time(header.issued)}, not "
                           f"later than the orders already held for this window (issued "
                           f"{format_time(held.issued)}); the newer orders stay in force", **where)
    rs = g.ctx.ruleset
    body = "\n".join(text.split("\n")[header.body_line - 1:])
    orders, problems = rs.parse(header.role, w, body, header.body_line)
    problems = list(problems) + list(rs.check(g.ctx.state, header.role, orders))
    # in the order of the lines they are about (problems of the whole set last); stable
    problems.sort(key=lambda p: (p.line is None, p.line or 0))

    payload = json.dumps({"text": text, "problems": [p.to_json() for p in problems]}).encode()
    row = {"game_id": game.id, "phase_seq": g.phase.seq, "role": header.role,
           "issued": header.issued, "nonce": header.nonce, "sha256": digest, "received_at": now,
           "message_id": msg.id, "status": "accepted",
           "blob": batch.sealer.seal(game.id, header.role, orders_purpose(g.phase.seq, digest),
                                     0, payload)}
    batch.order_sets.append(row)
    if held is not None:
        if held.row is not None:
            held.row["status"] = "superseded"
        else:
            batch.superseded.append(held.id)
    g.held[header.role] = _Held(digest, header.nonce, header.issued, row=row)
    salt, commit = orders_commitment(batch.sealer, game.id, w.phase_id, header.role, text)
    g.ctx.log("orders", now, phase=w.phase_id, role=header.role, commit=commit,
              issued=format_time(header.issued))
    verdict = Verdict(msg.origin, "accepted", "", "", problems=problems, sha256=digest, **where)
    _receipt_mail(batch, g, player, header, digest, problems, held, signed, ex, now,
                  salt=salt, commit=commit)
    return verdict


def orders_commitment(sealer, game: str, phase_id: str, role: str, text: str) -> tuple[str, str]:
    """``(salt, commit)`` of an accepted order set, both hex: ``commit = SHA-256(salt || the
    canonical order text as UTF-8)`` with a 16-byte ``salt`` that only the referee can derive
    (HMAC-SHA256 under the master key's ``orders-salt`` secret, over game, phase, role and the
    text's SHA-256; docs/log.md, ``orders``). The public log carries ``commit``; the sender's
    receipt carries ``salt`` too, so the sender can check the log while nobody else can test
    guesses of the orders against it (the plain SHA-256 and the nonce revealed after the
    phase would let anyone confirm a guessed order set)."""
    import hmac

    from pbem.crypto.canonical import canonical_bytes

    body = canonical_bytes(text)
    key = sealer.mac_key("orders-salt")
    msg = "\n".join((game, phase_id, role, hashlib.sha256(body).hexdigest())).encode("utf-8")
    salt = hmac.new(key, msg, "sha256").digest()[:16]
    return salt.hex(), hashlib.sha256(salt + body).hexdigest()


def _receipt_mail(batch, g: _Open, player, header, digest, problems, replaced, signed, ex,
                  now, *, salt: str, commit: str) -> None:
    """A receipt signed with the game's referee key, quoting the orders' sha256 and their
    problems against the current position."""
    from pbem.crypto.envelope import sign_receipt
    from pbem.reports.render import render

    game = g.ctx.game
    key = batch.sealer.referee_signing_key(game.id)
    log_lines, log_head = g.ctx.log_position()
    body = render("receipt.txt.j2", {
        "game": game.id, "turn": header.turn, "phase": header.phase, "role": header.role,
        "sha256": digest, "salt": salt, "commit": commit,
        "issued": format_time(header.issued), "received": format_time(now),
        "replaces": format_time(replaced.issued) if replaced is not None else None,
        "problems": [str(p) for p in problems], "method": signed.method,
        "deadline": format_time(g.phase.deadline_at),
        "log_lines": log_lines, "log_head": log_head})
    signed_receipt = sign_receipt(body, key)
    text = render("receipt_mail.txt.j2", {"receipt": signed_receipt, "game": game.id,
                                          "referee_key": key.public_key().fingerprint,
                                          "problems": len(problems)})
    n = len(problems)
    subject = (f"[{game.id}] receipt: turn {header.turn} {header.phase} orders of {header.role}"
               + (f" ({n} problem{'s' if n != 1 else ''})" if n else ""))
    batch.mail.append(letter_row(
               batch.sealer, game_id=game.id, owner=header.role, kind="receipt",
               to=player.email, subject=subject, now=now,
               letter={"sender": game.referee_address, "text": text,
                       "in_reply_to": ex.message_id or None}))


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


def orders_purpose(phase_seq: int, digest: str) -> str:
    """The sealing purpose of an order set: bound to its phase and to its own digest."""
    return f"orders:{phase_seq}:{digest}"


def mail_domain(address: str) -> str:
    """The domain for Message-IDs of mail sent from ``address`` (RFC 5322 3.6.4)."""
    domain = address.rpartition("@")[2].strip().strip(">")
    return domain or "pbem.invalid"

