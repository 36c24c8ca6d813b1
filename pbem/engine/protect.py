"""The data step of ``pbem init``/``pbem upgrade`` after the Alembic migration to 0002: what
needs the master key, which Alembic does not have (issue 7).

Every protected row without a MAC gets one (pbem.store.integrity), and every order set stored
by an older pbem, whose ``digest`` is the plain SHA-256 of its text, gets the keyed digest
(pbem.engine.accept.order_digest) and its blob sealed again under the purpose that names it
(``orders_purpose(seq, digest)``). It runs in the transaction of the migration itself, so it
happens exactly when a database is brought to 0002; the setting ``row_macs``, a value only the
master key can make (pbem.store.integrity.protected_marker), records that it is done. A database
at 0002 without that marker was tampered with: pbem refuses it and does not protect its rows
again.
"""

from __future__ import annotations

import json


def protect_database(s, sealer) -> dict[str, int]:
    """Run the data step in ``s`` (a session in the very transaction that migrated the schema
    to 0002: pbem.store.db.Database.migrate's ``after``, so a database at 0002 always has
    it done) with ``sealer`` (the installation's pbem.crypto.seal.Sealer). Returns the rows
    given a MAC per table plus ``"order_set_rekeyed"``; ``{}`` when it had run before. Raises
    SealError if an order set does not open with this master key (the migration then rolls
    back)."""
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

    done = protect_rows(s, sealer.mac_key(ROW_MAC_LABEL), fix_order_set=fix)
    if done:
        done["order_set_rekeyed"] = rekeyed
    return done
