"""Checking a player's receipts against the game's referee key (docs/signing.md, section 10):
the body of ``pbem check-receipt``."""

from __future__ import annotations

from pbem.engine.errors import PbemError


def check_receipts(data: bytes, source: str, referee: str, whence: str,
                   game_id: str | None) -> list[dict]:
    """Check every receipt in ``data`` (a saved mail, read with pbem.mail.extract, or plain
    text holding ``-----BEGIN PBEM RECEIPT-----`` blocks; quoted ones are ignored): each
    signature must verify (Ed25519, domain ``pbem-receipt/1``), be made by the key whose
    fingerprint is ``referee`` (``SHA256:...``; ``whence`` says where it came from, for the
    messages), and name ``game_id`` in its ``game:`` line when given.

    Returns ``[{"game", "turn", "phase", "role", "orders_sha256", "key"}]``, one per receipt.
    Raises PbemError naming ``source`` for no receipt, a damaged block, a bad signature, a key
    that is not the referee key (naming both fingerprints), or a receipt for another game."""
    from pbem.crypto.envelope import find_receipts
    from pbem.crypto.errors import CryptoError
    from pbem.mail.extract import extract
    from pbem.mail.sources import looks_like_message

    texts = [text for _, text in extract(data, bare=not looks_like_message(data)).texts]
    found = []
    for text in texts:
        try:
            found += find_receipts(text)
        except CryptoError as e:
            raise PbemError(f"{source}: the receipt block is damaged: {e}") from None
    if not found:
        raise PbemError(f"{source}: no receipt in the file (no '-----BEGIN PBEM RECEIPT-----' "
                        "block outside quoted lines)")
    return [_check_one(env, source, referee, whence, game_id) for env in found]


def _check_one(env, source: str, referee: str, whence: str, game_id: str | None) -> dict:
    fields: dict[str, str] = {}
    for line in env.text.split("\n"):
        key, colon, value = line.partition(": ")
        if colon and key not in fields:
            fields[key] = value
    what = (f"the receipt for game {fields.get('game', '?')}, turn {fields.get('turn', '?')}, "
            f"phase {fields.get('phase', '?')}, role {fields.get('role', '?')}")
    key = env.public_key.fingerprint
    if not env.verify():
        raise PbemError(f"{source}: bad signature: {what} is not the text key {key} "
                        "signed (changed after it was signed?)")
    if key != referee:
        raise PbemError(f"{source}: {what} is signed by key {key}, not by the referee "
                        f"key {referee} ({whence}): it is not the judge's receipt")
    if game_id is not None and fields.get("game") != game_id:
        raise PbemError(f"{source}: {what} names game {fields.get('game')!r}, not {game_id!r}")
    return {"game": fields.get("game"), "turn": fields.get("turn"),
            "phase": fields.get("phase"), "role": fields.get("role"),
            "orders_sha256": fields.get("orders-sha256"), "key": key}
