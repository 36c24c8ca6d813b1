"""Receipts and rejections queued as what they are made from, rendered when they are mailed
(issue 11, "Fast where referees feel it"; as reports are: pbem.engine.reportstore).

Ingest stores, in the sealed letter of the outbox row (pbem.engine.publish.letter_row), the
template's name, its context (JSON values: every fact the mail prints) and the referee's
template folder in force (``templates``: an absolute path, or None for pbem's own)::

    {"sender": ..., "in_reply_to": ..., "template": "receipt.txt.j2",
     "context": {"game", "turn", "phase", "role", "sha256", ...}, "templates": null}

Delivery (``pbem send``, ``pbem outbox``: pbem.engine.delivery) renders it with that folder's
templates. A receipt's body (``receipt.txt.j2``) is then signed with the game's referee key
(pbem.crypto.envelope.sign_receipt: Ed25519, deterministic, so the same facts give the same
signed receipt each time it is made, e.g. when it is sent again: pbem.engine.receipt_again)
and put in its mail (``receipt_mail.txt.j2``). So ingest never imports nor runs Jinja, nor
signs. The facts are stored in the transaction that accepts the orders, which is durable
before any mail leaves (DESIGN.md, "Storage").

A letter stored rendered (``text``: by a pbem before this change, and notices and reminders)
is mailed as it is.
"""

from __future__ import annotations

RECEIPT = "receipt.txt.j2"
"""The template of a receipt's signed body (its mail is :data:`RECEIPT_MAIL`)."""
RECEIPT_MAIL = "receipt_mail.txt.j2"
REJECTION = "rejection.txt.j2"
_MADE = (RECEIPT, REJECTION)


def unrendered(template: str, context: dict) -> dict:
    """The letter fields ``{"template", "context", "templates"}`` for a mail made from
    ``template`` (:data:`RECEIPT` or :data:`REJECTION`) and ``context`` at delivery, with the
    referee's template folder in force now (pbem.reports.render.template_folder: raises
    ReportTemplateError when the configured folder is missing). Add ``sender`` and
    ``in_reply_to`` to make the letter."""
    from pbem.reports.render import template_folder

    if template not in _MADE:
        raise ValueError(f"template {template!r}: expected one of {', '.join(_MADE)}")
    folder = template_folder()
    return {"template": template, "context": context,
            "templates": str(folder) if folder is not None else None}


def letter_text(sealer, game_id: str | None, letter: dict) -> str:
    """The text of the letter ``letter`` (as opened from an outbox row of game ``game_id``):
    its stored ``text``, or the mail rendered from its ``template`` and ``context`` with the
    folder it names (module doc); a receipt signed with ``sealer``'s referee key of
    ``game_id``. Raises ReportTemplateError (pbem.reports.render) for a template that fails
    or a folder that is gone, ValueError for a letter that has neither text nor a known
    template."""
    if "text" in letter:
        return letter["text"]
    template, context = letter.get("template"), letter.get("context")
    if template not in _MADE or not isinstance(context, dict):
        raise ValueError(f"the letter has no text and no known template ({template!r}; "
                         f"expected one of {', '.join(_MADE)} with its context)")
    from pbem.reports.render import render, templates_in

    with templates_in(letter.get("templates")):
        if template == REJECTION:
            return render(REJECTION, context)
        if not game_id:
            raise ValueError("a receipt names no game: no referee key signs it")
        return _receipt_mail(sealer.referee_signing_key(game_id), context, render)


def _receipt_mail(key, context: dict, render) -> str:
    """The receipt mail: ``receipt.txt.j2`` rendered from ``context``, signed with ``key``
    (docs/signing.md, section 6, "Receipts"), inside ``receipt_mail.txt.j2``."""
    from pbem.crypto.envelope import sign_receipt

    signed = sign_receipt(render(RECEIPT, context), key)
    return render(RECEIPT_MAIL, {"receipt": signed, "game": context["game"],
                                 "referee_key": key.public_key().fingerprint,
                                 "problems": len(context["problems"]),
                                 "warnings": list(context["warnings"])})


def receipt_sha256(letter: dict) -> str | None:
    """The ``orders-sha256`` a receipt's letter quotes (its context's ``sha256``, or the line
    of its stored text), or None when it quotes none."""
    context = letter.get("context")
    if letter.get("template") == RECEIPT and isinstance(context, dict):
        return context.get("sha256")
    for line in letter.get("text", "").split("\n"):
        if line.startswith("orders-sha256: "):
            return line[len("orders-sha256: "):].strip()
    return None
