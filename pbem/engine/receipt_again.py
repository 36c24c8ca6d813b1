"""Sending a receipt again: a player whose receipt was lost sends the same orders again (the
same text and nonce in a new mail, or the very same mail once more) and gets the receipt again
(issue 8). Nothing about the orders in force changes: the order set already held stays, and the
copy is counted as a duplicate.

The receipt sent again is the one the judge made when it accepted the orders (the same signed
text, quoting the same log position), found in the outbox by the orders' SHA-256, and queued
once more to the player's registered address with "(sent again)" after its subject. It is
rate-limited like rejections: at most ``rejections_per_hour`` receipts sent again to one address
in an hour (``[ingest]`` in HOME/config.toml; docs/mail.md), since anyone who saw the signed
orders could mail them again. While the first receipt is still queued, none is added.

Reading the same Maildir again (a cron job runs ``pbem ingest ~/Maildir`` every few minutes,
and pbem never moves its messages) is not the player sending anything: a message the judge has
archived is taken as sent again only when it arrives from another place than the first time
(:func:`same_place`), and each such place gets the receipt again once.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta

AGAIN = " (sent again)"
"""The end of the subject of a receipt sent again (also how they are counted)."""


def same_place(first: str, again: str) -> bool:
    """Whether two ingest origins (pbem.mail.sources.Incoming.origin) name the same stored
    message: the same Maildir message (its unique name, whatever ``new/`` or ``cur/`` and its
    flags), the same message of an mbox (file name and number), or the same file (its name).
    Standard input is never the same place: what a mail system pipes in is a new delivery."""

    def place(origin: str):
        if origin in ("stdin", "-"):
            return None
        path, hash_, number = origin.rpartition("#")
        if hash_ and number.isdigit():
            return ("mbox", os.path.basename(path), number)
        folder, name = os.path.split(origin)
        if os.path.basename(folder) in ("new", "cur"):
            return ("maildir", name.split(":", 1)[0])
        return ("file", name)

    a, b = place(first), place(again)
    return a is not None and a == b


def _sent_again_to(session, address: str, now: datetime) -> int:
    """Receipts sent again (queued) to ``address`` in the hour before ``now``."""
    from sqlalchemy import func
    from sqlalchemy import select

    from pbem.store.models import Outbox

    q = select(func.count()).select_from(Outbox).where(
        Outbox.kind == "receipt", func.lower(Outbox.to_addr) == address.lower(),
        Outbox.created_at >= now - timedelta(hours=1), Outbox.subject.like("%" + AGAIN))
    return int(session.exec(q).one())


def _receipts(session, sealer, game_id: str, role: str, plain_sha256: str, since: datetime):
    """(the Outbox row of the first receipt for the orders whose SHA-256 is ``plain_sha256``
    queued for ``role`` at or after ``since``, or None; its letter; the letters of the receipts
    for them sent again). A row that cannot be read is passed over."""
    from sqlalchemy import select

    from pbem.engine.letters import receipt_sha256
    from pbem.engine.publish import open_letter
    from pbem.store.models import Outbox

    rows = session.exec(select(Outbox).where(
        Outbox.game_id == game_id, Outbox.owner == role, Outbox.kind == "receipt",
        Outbox.created_at >= since).order_by(Outbox.id))
    first, first_letter, again = None, None, []
    for row in rows:
        try:
            letter = open_letter(sealer, row)
        except Exception:  # a damaged row: the outbox reports it; look at the others
            continue
        if receipt_sha256(letter) != plain_sha256:
            continue
        if row.subject.endswith(AGAIN):
            again.append(letter)
        elif first is None:
            first, first_letter = row, letter
    return first, first_letter, again


def send_again(session, sealer, *, game, player, order_set, plain_sha256: str, now: datetime,
               limit: int, in_reply_to: str | None = None,
               place: str | None = None) -> tuple[bool, str]:
    """Queue the receipt of ``order_set`` (the OrderSet row in force; ``plain_sha256`` the
    SHA-256 of its text) again to ``player`` (the Player row: its registered address), as
    described in the module docstring. ``in_reply_to``: the Message-ID of the mail that sent
    the orders again (None: the first receipt's). ``place``: the origin of a copy of the first
    message (:func:`again_for_message`): a place that had the receipt again already gets
    nothing. Returns (queued, the words for the verdict, starting with "the receipt ...")."""
    from pbem.engine.publish import letter_row
    from pbem.store import repo
    from pbem.store.models import Outbox

    row, letter, again = _receipts(session, sealer, game.id, player.role, plain_sha256,
                                   order_set.received_at)
    if row is None:
        return False, "the receipt cannot be sent again: it is no longer in the outbox"
    if row.sent_at is None and not getattr(row, "failed_at", None):
        return False, "the receipt is still queued and goes out with the next mail run"
    if place is not None and any(same_place(a.get("again_from") or "-", place) for a in again):
        return False, "the receipt was sent again for this copy of the message already"
    address = player.email
    if _sent_again_to(session, address, now) >= limit:
        return False, (f"the receipt is not sent again: {address} has had {limit} receipts sent "
                       "again in the last hour")
    letter = dict(letter, again_from=place)
    if in_reply_to:
        letter["in_reply_to"] = in_reply_to
    repo.insert_protected(session, Outbox, [letter_row(
        sealer, game_id=game.id, owner=player.role, kind="receipt", to=address,
        subject=row.subject + AGAIN, letter=letter, now=now)])
    return True, f"the receipt is sent again to {address}"


def again_for_message(session, sealer, message, now: datetime, limit: int,
                      place: str) -> list[tuple[bool, str]]:
    """For a message archived before that arrives again from another place ``place`` (its
    origin): send again the receipt of each of its order sets still in force in an open window
    (see :func:`send_again`). ``message`` is its Message row. Returns, per order set in force,
    (queued, the words for the verdict); empty when none is."""
    from sqlalchemy import select

    from pbem.crypto.canonical import sha256_hex
    from pbem.engine.accept import orders_purpose
    from pbem.store import repo
    from pbem.store.models import OrderSet

    out = []
    sets = session.exec(select(OrderSet).where(OrderSet.message_id == message.id,
                                               OrderSet.status == "accepted"))
    for order_set in sets:
        game = repo.get_game(session, order_set.game_id)
        phase = repo.open_phase(session, order_set.game_id) if game else None
        if game is None or game.status != "active" or phase is None \
                or phase.seq != order_set.phase_seq:
            continue  # its window is closed: its receipt is history
        player = next((p for p in repo.players(session, game.id)
                       if p.role == order_set.role), None)
        if player is None:
            continue
        payload = json.loads(sealer.open(game.id, order_set.role,
                                         orders_purpose(order_set.phase_seq, order_set.digest),
                                         0, order_set.blob))
        sent, words = send_again(session, sealer, game=game, player=player, order_set=order_set,
                              plain_sha256=sha256_hex(payload["text"]), now=now, limit=limit,
                              place=place)
        out.append((sent, f"its orders for {game.id} {phase.phase_id} {order_set.role} are "
                          f"in force; {words}"))
    return out
