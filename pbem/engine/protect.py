"""The data step of ``pbem init``/``pbem upgrade`` after the Alembic migration to 0002: what
needs the master key, which Alembic does not have (issue 7).

Every protected row without a MAC gets one (pbem.store.integrity), and every order set stored
by an older pbem, whose ``digest`` is the plain SHA-256 of its text, gets the keyed digest
(pbem.engine.accept.order_digest) and its blob sealed again under the purpose that names it
(``orders_purpose(seq, digest)``). One transaction; idempotent (the setting ``row_macs=1``
records that it is done).
"""

from __future__ import annotations

import json


def protect_database(db, sealer) -> dict[str, int]:
    """Run the data step on ``db`` (a pbem.store.db.Database at the schema head) with
    ``sealer`` (the installation's pbem.crypto.seal.Sealer). Returns the rows given a MAC per
    table plus ``"order_set_rekeyed"``; ``{}`` when it had run before. Raises SealError if an
    order set does not open with this master key."""
    from pbem.crypto.canonical import sha256_hex
    from pbem.engine.accept import order_digest, orders_purpose
    from pbem.store.integrity import ROW_MAC_LABEL, protect_rows

    rekeyed = 0

    def fix(row: dict) -> bool:
        nonlocal rekeyed
        game, role, seq = row["game_id"], row["role"], row["phase_seq"]
        payload = sealer.open(game, role, orders_purpose(seq, row["digest"]), 0, row["blob"])
        text = json.loads(payload)["text"]
        if sha256_hex(text) != row["digest"]:
            return False  # already the keyed digest
        row["digest"] = order_digest(sealer, text)
        row["blob"] = sealer.seal(game, role, orders_purpose(seq, row["digest"]), 0, payload)
        rekeyed += 1
        return True

    with db.write() as s:
        done = protect_rows(s, sealer.mac_key(ROW_MAC_LABEL), fix_order_set=fix)
    if done:
        done["order_set_rekeyed"] = rekeyed
    return done
