"""Accepting one signed order set: binding it to a game, window and role through its header
and the registered key, parsing and checking the orders against the current position, keeping
them sealed, and queueing the signed receipt (DESIGN.md, "Signed orders"; docs/signing.md,
"What the referee checks").

:func:`accept_orders` raises :class:`~pbem.engine.verdicts.Rejected` with a cause of
:data:`~pbem.engine.verdicts.CAUSES` for every reason an order set is refused.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from pbem.engine.headers import HeaderError, parse_header
from pbem.engine.headers import format_time as _format_time
from pbem.engine.publish import letter_row
from pbem.engine.verdicts import Rejected, Verdict
from pbem.store import repo

MAX_ORDERS_CHARS = 64 * 1024
"""The longest order set taken (characters of the canonical text)."""
MAX_CLOCK_SKEW = timedelta(minutes=15)
"""How far ahead of the judge's clock an ``issued:`` may be. Phone and computer clocks drift by
seconds, and zones do not matter (``issued`` carries its zone); an order set dated far ahead
would lock its sender out of correcting it until that time (docs/signing.md, section 4)."""


format_time = functools.lru_cache(maxsize=1024)(_format_time)
"""pbem.engine.headers.format_time, remembered: each receipt writes the same clock reading and
deadline as the one before, and an order set's issued time again when it is replaced."""


@dataclass
class Held:
    """The order set in force for a role: a stored row (``id``) or one added in this batch
    (``row``, the dict that will be inserted)."""

    sha256: str
    nonce: str
    issued: datetime
    id: int | None = None
    row: dict | None = None


def accept_orders(batch, msg, ex, signed, now, pre=None) -> Verdict:
    """The verdict on one verified order set ``signed`` (pbem.crypto.find.Signed) of the read
    message ``msg``; raises :class:`Rejected` for every reason it is refused (module doc).
    ``pre`` is what a reader prepared for it (pbem.engine.prepare.Prepared, or None): what it
    holds is used where it is what this function would compute (the text's header and
    digests; the problems when found against the position the batch holds)."""
    from pbem.crypto.canonical import sha256_hex

    text = signed.text
    if len(text) > MAX_ORDERS_CHARS:
        raise Rejected("too-large", f"the orders are {len(text):,} characters long; the judge "
                       f"takes order sets of up to {MAX_ORDERS_CHARS:,}")
    if pre is not None and pre.header is not None:
        header = pre.header
    else:
        try:
            header = parse_header(text)
        except HeaderError as e:
            raise Rejected("bad-header", f"the order header is not right: {e}") from None
    where = {"game": header.game, "role": header.role,
             "phase": f"{header.turn}.{header.phase}"}
    if header.issued > now + MAX_CLOCK_SKEW:
        raise Rejected("future", f"these orders say they were issued {format_time(header.issued)}, "
                       f"but the judge's clock reads {format_time(now)}: 'issued:' may be ahead "
                       f"by {MAX_CLOCK_SKEW.total_seconds() / 60:.0f} minutes at most (check your "
                       "clock and time zone, or let `pbem sign` fill it)", **where)
    g = batch.game(header.game)
    if g is None:
        raise Rejected("unknown-game", f"there is no game {header.game!r} on this judge "
                       "(check the 'game:' line)", **where)
    game = g.ctx.game
    referee_fp = g.referee_fp
    if header.referee is not None and header.referee != referee_fp:
        raise Rejected("wrong-judge", f"these orders are bound to the referee key "
                       f"{header.referee}, but the referee key of game {game.id} on this judge is {referee_fp} (see "
                       "its setup report): orders meant for another judge's game of that name?",
                       **where)
    fp = signed.public_key.fingerprint
    player = g.ctx.player(header.role)
    if player is None:
        raise Rejected("unknown-role", f"game {game.id} has no role {header.role!r} "
                       f"(its roles: {', '.join(g.ctx.roles)})", **where)
    owner = next((p for p in g.ctx.players if p.fingerprint == fp), None)
    if owner is None:
        # Which other games the key plays in is not said: the reply goes to whatever address
        # the message came from, and anyone holding a player's signed orders could learn them.
        raise Rejected("unknown-key", f"the key {fp} that signed these orders is not registered "
                       f"for any player of game {game.id} (if you play in another game of "
                       "this judge, check the 'game:' line; if your seat was given to someone "
                       "else, the referee has told you)", **where)
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
    warnings = []
    if header.referee is None:
        if game.bind_referee:
            raise Rejected("no-referee", f"these orders have no 'referee:' line; game {game.id} "
                           "takes only orders bound to its judge, so that they cannot be replayed "
                           f"to another one: add the line 'referee: {referee_fp}' to the header, "
                           "as the order template in your report has it", **where)
        warnings.append(f"no 'referee:' line: any judge with a game {game.id} would take these "
                        f"orders; add 'referee: {referee_fp}' (the order template in your "
                        "report has it) to your next order files")
    plain = pre.plain if pre is not None else sha256_hex(text)
    digest = pre.digest if pre is not None else order_digest(batch.sealer, text)
    held = g.held.get(header.role)
    if held is not None:
        if held.sha256 == digest and held.nonce == header.nonce:
            # a player whose receipt was lost sends the same orders again: send it again
            sent, words = _receipt_again(batch, g, player, held, plain, ex, now)
            raise Rejected("duplicate", "these orders were received before and are in force; "
                           + words, resent=sent, **where)
        if header.issued <= held.issued:
            raise Rejected("stale", f"these orders were issued {format_time(header.issued)}, not "
                           f"later than the orders already held for this window (issued "
                           f"{format_time(held.issued)}); the newer orders stay in force", **where)
    # After the duplicate and stale checks, an earlier order set with this nonce is another
    # text: the same text is in force (duplicate), superseded (stale) or of a closed window.
    reuse = nonce_reuse(batch, game.id, header.role, header.nonce)
    if reuse is not None:
        raise Rejected("nonce-reused", f"the nonce {header.nonce} was used before in game "
                       f"{game.id}{reuse}; every order set needs a nonce of its own, as the nonces "
                       "key the dice: leave the 'nonce:' line empty and let `pbem sign` fill a "
                       "fresh one (signing with ssh-keygen, write a new one from "
                       "`openssl rand -hex 16`)", **where)
    sealed = None
    if pre is not None and pre.problems is not None and pre.token == g.token:
        problems = pre.problems
        if game.id == header.game:  # sealed by the reader for this game, phase and digest
            sealed = pre.sealed
    else:
        rs = g.ctx.ruleset
        body = "\n".join(text.split("\n")[header.body_line - 1:])
        orders, problems = rs.parse(header.role, w, body, header.body_line)
        # judged from the sender's own role state only (public part + its secret part)
        known = g.role_state(header.role)
        problems = sorted_problems(list(problems) + list(rs.check(known, header.role, orders)))

    if sealed is None:
        sealed = seal_orders(batch.sealer, game.id, header.role, g.phase.seq, digest, text,
                             problems)
    row = {"game_id": game.id, "phase_seq": g.phase.seq, "role": header.role,
           "issued": header.issued, "nonce": header.nonce, "digest": digest, "received_at": now,
           "message_id": msg.id, "status": "accepted", "wait": header.wait, "blob": sealed}
    batch.order_sets.append(row)
    used_nonces(batch, game.id).setdefault(header.nonce, set()).add(header.role)
    if held is not None:
        if held.row is not None:
            held.row["status"] = "superseded"
        else:
            batch.superseded.append(held.id)
    g.held[header.role] = Held(digest, header.nonce, header.issued, row=row)
    if pre is not None and pre.commit is not None:  # for the header's game, phase and role
        salt, commit = pre.salt, pre.commit
    else:
        salt, commit = orders_commitment(batch.sealer, game.id, w.phase_id, header.role, text)
    g.ctx.log("orders", now, phase=w.phase_id, role=header.role, commit=commit,
              issued=format_time(header.issued))
    verdict = Verdict(msg.origin, "accepted", "", "", problems=problems, sha256=plain, **where)
    receipt_mail(batch, g, player, header, plain, problems, held, signed, ex, now,
                  salt=salt, commit=commit, warnings=warnings)
    return verdict


def sorted_problems(problems: list) -> list:
    """``problems`` in the order of the lines they are about, problems of the whole set last
    (a stable sort, in place: the order the receipt lists them in); returns the list."""
    problems.sort(key=lambda p: (p.line is None, p.line or 0))
    return problems


def _receipt_again(batch, g, player, held: Held, plain: str, ex, now) -> tuple[bool, str]:
    """Queue the receipt of the order set ``held`` again (pbem.engine.receipt_again), in reply
    to the new mail; (queued, words for the verdict)."""
    from pbem.engine.receipt_again import send_again
    from pbem.store.models import OrderSet

    if held.id is None:  # accepted in this very batch: its receipt is being queued now
        return False, "its receipt is queued already"
    try:
        return send_again(batch.session, batch.sealer, game=g.ctx.game, player=player,
                          order_set=batch.session.get(OrderSet, held.id), plain_sha256=plain,
                          now=now, limit=batch.settings.rejections_per_hour,
                          in_reply_to=getattr(ex, "message_id", None) or None)
    except Exception as e:  # a damaged stored row: the duplicate stays a duplicate
        return False, f"its receipt could not be sent again ({type(e).__name__}: {str(e)[:200]})"


def nonce_reuse(batch, game_id: str, role: str, nonce: str) -> str | None:
    """Whether ``nonce`` was used before in game ``game_id`` by an order set stored (any phase,
    role or status; :func:`pbem.store.repo.nonces_used`, read once per game and batch) or
    accepted earlier in this ingest batch. Returns None if not, else the words naming the
    earlier use for the rejection: `` by your own earlier orders`` when ``role`` sent them,
    else ``""`` (whose orders they were is not the sender's business). docs/signing.md,
    section 10."""
    roles = used_nonces(batch, game_id).get(nonce)
    if not roles:
        return None
    return " by your own earlier orders" if role in roles else ""


def used_nonces(batch, game_id: str) -> dict[str, set[str]]:
    """The batch's record of the nonces used in ``game_id`` (loaded on first use)."""
    if game_id not in batch.nonces:
        batch.nonces[game_id] = repo.nonces_used(batch.session, game_id)
    return batch.nonces[game_id]


def order_digest(sealer, text: str) -> str:
    """The keyed digest that identifies an order set in the database: hex HMAC-SHA256 of the
    canonical text (UTF-8) under the master key's ``order-digest`` secret (docs/security.md).
    A plain SHA-256 stored beside the nonce, turn, phase and role would let whoever holds a
    copy of the database test guesses of orders not yet resolved; this one cannot be computed
    without the master key."""
    from pbem.crypto.canonical import canonical_bytes

    return hmac.digest(sealer.mac_key("order-digest"), canonical_bytes(text), "sha256").hex()


def orders_commitment(sealer, game: str, phase_id: str, role: str, text: str) -> tuple[str, str]:
    """``(salt, commit)`` of an accepted order set, both hex: ``commit = SHA-256(salt || the
    canonical order text as UTF-8)`` with a 16-byte ``salt`` that only the referee can derive
    (HMAC-SHA256 under the master key's ``orders-salt`` secret, over game, phase, role and the
    text's SHA-256; docs/log.md, ``orders``). The public log carries ``commit``; the sender's
    receipt carries ``salt`` too, so the sender can check the log while nobody else can test
    guesses of the orders against it (the plain SHA-256 and the nonce revealed after the
    phase would let anyone confirm a guessed order set)."""
    from pbem.crypto.canonical import canonical_bytes

    body = canonical_bytes(text)
    key = sealer.mac_key("orders-salt")
    msg = "\n".join((game, phase_id, role, hashlib.sha256(body).hexdigest())).encode("utf-8")
    salt = hmac.digest(key, msg, "sha256")[:16]
    return salt.hex(), hashlib.sha256(salt + body).hexdigest()


def receipt_mail(batch, g, player, header, digest, problems, replaced, signed, ex,
                  now, *, salt: str, commit: str, warnings=()) -> None:
    """Queue the receipt: a text signed with the game's referee key, quoting the orders'
    sha256 and their problems against the current position, and ``warnings`` (sentences:
    accepted, but the sender should know, e.g. a missing ``referee:`` line; docs/signing.md,
    section 10). What it prints is stored; it is rendered and signed when it is mailed
    (pbem.engine.letters)."""
    from pbem.engine.letters import RECEIPT, unrendered

    game = g.ctx.game
    log_lines, log_head = g.ctx.log_position()
    context = {
        "game": game.id, "turn": header.turn, "phase": header.phase, "role": header.role,
        "sha256": digest, "salt": salt, "commit": commit,
        "issued": format_time(header.issued), "received": format_time(now),
        "replaces": format_time(replaced.issued) if replaced is not None else None,
        "problems": [str(p) for p in problems], "method": signed.method,
        "warnings": list(warnings),
        "deadline": format_time(g.phase.deadline_at),
        "log_lines": log_lines, "log_head": log_head}
    n = len(problems)
    subject = (f"[{game.id}] receipt: turn {header.turn} {header.phase} orders of {header.role}"
               + (f" ({n} problem{'s' if n != 1 else ''})" if n else ""))
    batch.mail.append(letter_row(
               batch.sealer, game_id=game.id, owner=header.role, kind="receipt",
               to=player.email, subject=subject, now=now,
               letter={"sender": game.referee_address, "in_reply_to": ex.message_id or None,
                       **unrendered(RECEIPT, context)}))


def seal_orders(sealer, game_id: str, role: str, phase_seq: int, digest: str, text: str,
                problems: list) -> bytes:
    """The sealed blob of an accepted order set's row: JSON ``{"text", "problems"}`` sealed
    for ``role`` with the purpose :func:`orders_purpose` (bound to the phase ``phase_seq`` and
    to the set's keyed ``digest``, :func:`order_digest`)."""
    payload = json.dumps({"text": text, "problems": [p.to_json() for p in problems]}).encode()
    return sealer.seal(game_id, role, orders_purpose(phase_seq, digest), 0, payload)


def orders_purpose(phase_seq: int, digest: str) -> str:
    """The sealing purpose of an order set: bound to its phase and to its own digest."""
    return f"orders:{phase_seq}:{digest}"
