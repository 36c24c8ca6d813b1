"""Finding and checking the signed orders in one decoded mail message.

The mail layer (:mod:`pbem.mail.extract`) hands over the decoded text parts of a message and
its signature attachments; :func:`find_signed` returns every signed thing in them, verified
(:class:`Signed`) or not (:class:`BadSignature`). Whether the key is the sender's registered key,
and whether the orders bind to the right game, turn, phase and role, is for the caller to check.

Three ways of signing are understood (docs/signing.md, "What the referee checks"):

1. a pbem envelope in any text (:mod:`pbem.crypto.envelope`); when it fails as received it is
   tried again with mbox ``>From`` quoting undone (mboxrd: one ``>`` removed from lines matching
   ``^>+From ``);
2. an SSH armored block in a text (:mod:`pbem.crypto.sshsig`): the signed text is what precedes
   the block, starting at the first line that looks like the order header ``game:``
   (case-insensitive), tried as each of :func:`~pbem.crypto.sshsig.message_candidates`;
3. a ``.sig`` attachment (or a text part that is nothing but an SSH armored block): tried
   against every other text part, an attachment as a whole, the body from its first ``game:``
   line up to its first quoted line, ``-- `` signature separator, or end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Union

from pbem.crypto.canonical import canonical_text, sha256_hex
from pbem.crypto.envelope import Envelope, find_envelopes
from pbem.crypto.errors import EnvelopeError, SshSigError, SshSigNamespaceError
from pbem.crypto.keys import PublicKey
from pbem.crypto.lines import is_quoted, split_lines
from pbem.crypto.sshsig import (
    ORDERS_NAMESPACE,
    SshSignature,
    find_ssh_signatures,
    match_message,
    message_candidates,
    parse_ssh_signature,
    verify_ssh_signature,
)

__all__ = ["Signed", "BadSignature", "find_signed", "looks_rewrapped", "unquote_mbox_from"]

Method = Literal["pbem", "ssh"]

BODY = "body"
"""The name the mail layer gives to a message's body text parts."""

_GAME_HEADER = re.compile(r"^[ \t]*game[ \t]*:", re.IGNORECASE | re.MULTILINE)
_MBOX_FROM = re.compile(r"^>(>*From )", re.MULTILINE)
_HEADER_LIKE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*[ \t]*:")

WRAP_MIN_LINE = 66
"""Shortest line (characters, trailing whitespace excluded) :func:`looks_rewrapped` considers cut."""
WRAP_MAX_LINE = 78
"""Longest such line: RFC 5322 section 2.1.1 recommends lines of at most 78 characters."""
WRAP_MIN_WIDTH = 72
"""Narrowest wrap width of common mail clients (Thunderbird ``mailnews.wraplength``, mutt, Outlook 76)."""


@dataclass(frozen=True)
class Signed:
    """Orders whose signature verifies.

    ``text`` is the signed text in canonical form (see :mod:`pbem.crypto.canonical`);
    ``public_key`` the key that signed it (not yet matched against the registered key);
    ``method`` "pbem" (envelope) or "ssh" (``ssh-keygen -Y sign``); ``source`` the name of the
    text part it came from ("body" or an attachment's file name); ``sig_file`` the name of the
    ``.sig`` attachment for a detached SSH signature, else ``None``.
    """

    text: str
    public_key: PublicKey
    method: Method
    source: str
    sig_file: str | None = None

    @property
    def digest(self) -> str:
        """Hex SHA-256 of the canonical text: "the digest of the orders" quoted in receipts."""
        return sha256_hex(self.text)


@dataclass(frozen=True)
class BadSignature:
    """A signature that was found but could not be accepted.

    ``source`` names where it was found (a text part, or the ``.sig`` attachment); ``method``
    is "pbem" or "ssh"; ``reason`` is a sentence for the player saying what is wrong;
    ``public_key`` is the key named in the signature when it could be read, else ``None``;
    ``rewrapped`` is true when the signed text :func:`looks_rewrapped`, so the caller can add
    "your mail client seems to have re-wrapped the lines; send the orders as an attachment".
    """

    source: str
    method: Method
    reason: str
    public_key: PublicKey | None = None
    rewrapped: bool = False
    sig_file: str | None = None


Found = Union[Signed, BadSignature]


def find_signed(
    texts: list[tuple[str, str]],
    sig_files: list[tuple[str, bytes]],
    *,
    namespace: str = ORDERS_NAMESPACE,
) -> list[Found]:
    """Every signed thing in a message: ``Signed`` if it verifies, else ``BadSignature``.

    ``texts`` are ``(name, text)`` pairs: ``("body", text)`` for body parts, ``(file name,
    text)`` for text attachments, all decoded to ``str``. ``sig_files`` are ``(file name,
    bytes)`` of the ``.sig`` attachments. ``namespace`` is the SSH signature namespace required
    (``pbem-orders``). Results come in order: for each text its envelopes and inline SSH blocks,
    then the detached signatures. A text whose name is also a ``sig_files`` name is taken as
    that signature, not as orders. Returns ``[]`` if nothing signed is found. Raises nothing for
    bad input: every problem becomes a :class:`BadSignature` with a reason.
    """
    sig_names = {name for name, _ in sig_files}
    order_texts = [(name, text) for name, text in texts if name not in sig_names]
    detached: list[tuple[str, str | bytes]] = list(sig_files)
    signature_only: set[str] = set()
    results: list[Found] = []
    for name, text in order_texts:
        results.extend(_pbem_envelopes(name, text))
        try:
            blocks = find_ssh_signatures(text)
        except SshSigError as exc:
            results.append(BadSignature(name, "ssh", f"{name}: {exc}"))
            continue
        for block in blocks:
            if block.preceding.strip():
                results.append(_inline_ssh(name, block.armored, block.start_line, block.preceding, namespace))
            else:
                # No text before it: a detached signature (a .sig shown as text, or placed first).
                detached.append((name, block.armored))
        if blocks and not any(b.preceding.strip() for b in blocks):
            after = split_lines(text)[blocks[-1].end_line:]
            if not any(line.strip() for line in after):
                signature_only.add(name)
    candidates = [(n, t) for n, t in order_texts if n not in signature_only]
    for sig_name, data in detached:
        results.append(_detached_ssh(sig_name, data, candidates, namespace))
    return results


# --- pbem envelopes -----------------------------------------------------------------------------


def unquote_mbox_from(text: str) -> str:
    """Undo mbox ``From`` quoting: remove one ``>`` from each line matching ``^>+From `` (mboxrd).

    mbox files store a body line starting ``From `` as ``>From `` (and ``>From `` as
    ``>>From ``), which breaks a signature over that line.
    """
    return _MBOX_FROM.sub(r"\1", text)


def _has_mbox_quoting(text: str) -> bool:
    return ">From " in text and _MBOX_FROM.search(text) is not None


def _pbem_envelopes(name: str, text: str) -> list[Found]:
    # An HTML composer may turn every space into a no-break space, the marker lines' included;
    # the canonical form maps U+00A0 to a space anyway, so the signed text is not changed.
    if "\u00a0" in text:
        text = text.replace("\u00a0", " ")
    try:
        envelopes = find_envelopes(text)
    except EnvelopeError as exc:
        # Broken armour is not what re-wrapping does (no marker or base64 line has a space).
        return [BadSignature(name, "pbem", f"{name}: {exc}")]
    out: list[Found] = []
    unquoted: dict[int, Envelope] | None = None
    for env in envelopes:
        if env.verify():
            out.append(Signed(env.text, env.public_key, "pbem", name))
            continue
        if unquoted is None:
            unquoted = {}
            if _has_mbox_quoting(text):
                unquoted = {e.start_line: e for e in find_envelopes(unquote_mbox_from(text))}
        alt = unquoted.get(env.start_line)
        if alt is not None and alt.verify():
            out.append(Signed(alt.text, alt.public_key, "pbem", name))
            continue
        out.append(
            BadSignature(
                name,
                "pbem",
                f"{name}, line {env.start_line}: the signature does not match the signed text "
                "(the text was changed after it was signed)",
                env.public_key,
                looks_rewrapped(env.body),
            )
        )
    return out


# --- SSH signatures -----------------------------------------------------------------------------


def _orders_from_header(text: str) -> str | None:
    """``text`` from its first unquoted ``game:`` line to the end, or ``None`` without one."""
    m = _GAME_HEADER.search(text)
    return text[m.start():] if m else None


MAX_PARAGRAPHS = 32
"""How many paragraph ends of a body are tried as the end of a detached-signed order file."""


def _body_orders(text: str) -> list[str]:
    """The orders in a body for a detached signature: from the first ``game:`` line up to the
    first quoted line, ``-- `` separator or end, then the same cut at each paragraph end; when a reply's attribution line ("On ...,
    X wrote:") stands just before the quote, also the text without it. Empty without ``game:``.
    """
    start = _orders_from_header(text)
    if start is None:
        return []
    kept: list[str] = []
    stopped_at_quote = False
    for line in split_lines(start):
        if line.rstrip() == "--":
            break
        if is_quoted(line):
            stopped_at_quote = True
            break
        kept.append(line)
    regions = ["".join(line + "\n" for line in kept)]
    # A player may write on after the orders ("Thanks!", a signature without "-- "): the signed
    # file then ends at one of the blank lines, so each paragraph end is tried, longest first.
    cuts = [i for i in range(1, len(kept)) if not kept[i].strip() and kept[i - 1].strip()]
    for i in reversed(cuts[:MAX_PARAGRAPHS]):
        regions.append("".join(line + "\n" for line in kept[:i]))
    if stopped_at_quote:
        while kept and not kept[-1].strip():
            kept.pop()
        if kept and kept[-1].rstrip().endswith(":") and not _GAME_HEADER.match(kept[-1]):
            regions.append("".join(line + "\n" for line in kept[:-1]))
    return regions


def _match_text(sig: SshSignature, text: str, namespace: str) -> str | None:
    """The form of ``text`` that ``sig`` signs -- ``text`` itself (as any of its message
    candidates) or ``text`` with mbox quoting undone -- or ``None``. Raises
    :class:`SshSigNamespaceError` for a signature made for another namespace.
    """
    if match_message(sig, message_candidates(text), namespace) is not None:
        return text
    if _has_mbox_quoting(text):
        unquoted = unquote_mbox_from(text)
        if match_message(sig, message_candidates(unquoted), namespace) is not None:
            return unquoted
    return None


def _inline_ssh(name: str, armored: str, start_line: int, preceding: str, namespace: str) -> Found:
    where = f"{name}, line {start_line}"
    try:
        sig = parse_ssh_signature(armored)
    except SshSigError as exc:
        return BadSignature(name, "ssh", f"{where}: {exc}")
    region = _orders_from_header(preceding)
    what = "the text before it, from its 'game:' line"
    if region is None:
        region, what = preceding, "the text before it (which has no 'game:' line)"
    try:
        signed = _match_text(sig, region, namespace)
    except SshSigNamespaceError as exc:
        return BadSignature(name, "ssh", f"{where}: {exc}", sig.public_key)
    if signed is not None:
        return Signed(canonical_text(signed), sig.public_key, "ssh", name)
    return BadSignature(
        name,
        "ssh",
        f"{where}: the SSH signature does not match {what}: the text was changed after it was "
        "signed, or it is not the file that was signed",
        sig.public_key,
        looks_rewrapped(region),
    )


def _detached_ssh(
    sig_name: str, data: str | bytes, texts: list[tuple[str, str]], namespace: str
) -> Found:
    try:
        sig = parse_ssh_signature(data)
    except SshSigError as exc:
        return BadSignature(sig_name, "ssh", f"{sig_name}: {exc}", sig_file=sig_name)
    stem = sig_name[:-4] if sig_name.lower().endswith(".sig") else None
    ordered = sorted(texts, key=lambda item: item[0] != stem)  # the file it names first
    tried: list[str] = []
    regions_tried: list[tuple[str, str]] = []
    for name, text in ordered:
        regions = _body_orders(text) if name == BODY else [text]
        if not regions:
            continue
        tried.append(name)
        regions_tried += [(name, region) for region in regions]
    # Each Ed25519 check costs ~0.1 ms: try every region in its likeliest byte form first
    # (canonical text + LF, what an editor saves), then the rarer forms, then mbox unquoting.
    forms = []
    for name, region in regions_tried:
        forms.append((name, region, message_candidates(region)))
    for rank in range(max((len(c) for _, _, c in forms), default=0)):
        for name, region, candidates in forms:
            if rank >= len(candidates):
                continue
            try:
                ok = verify_ssh_signature(sig, candidates[rank], namespace)
            except SshSigNamespaceError as exc:
                return BadSignature(sig_name, "ssh", f"{sig_name}: {exc}", sig.public_key, sig_file=sig_name)
            if ok:
                return Signed(canonical_text(region), sig.public_key, "ssh", name, sig_file=sig_name)
    for name, region, _ in forms:
        if _has_mbox_quoting(region):
            unquoted = unquote_mbox_from(region)
            if match_message(sig, message_candidates(unquoted), namespace) is not None:
                return Signed(canonical_text(unquoted), sig.public_key, "ssh", name, sig_file=sig_name)
    if tried:
        reason = (
            f"{sig_name}: the SSH signature matches none of the message's texts "
            f"({', '.join(tried)}): the orders were changed after they were signed, or the file "
            "signed is not attached"
        )
    else:
        reason = (
            f"{sig_name}: there is no text for this signature to check: attach the signed orders "
            "file next to the .sig, or put the orders (from their 'game:' line) in the body"
        )
    return BadSignature(
        sig_name,
        "ssh",
        reason,
        sig.public_key,
        any(looks_rewrapped(region) for _, region in regions_tried),
        sig_file=sig_name,
    )


# --- re-wrapping --------------------------------------------------------------------------------


def looks_rewrapped(text: str) -> bool:
    """True if ``text`` seems to have been re-wrapped by a mail client (hard line breaks added).

    Mail clients that send plain text without format=flowed break long lines at the last space
    before a width of 72 to 78 columns (Thunderbird 72, Outlook 76, RFC 5322's recommended 78).
    The heuristic flags a line L, not quoted, of 66 to 78 characters (trailing whitespace not
    counted), followed by a line N that is not blank, not quoted, not a comment (``#``), not an
    armour line (``-----``) and does not start like a header (``word:``), when N's first word
    would not have fitted after L within 72 columns: ``len(L) + 1 + len(first word of N) > 72``.
    Such an L is exactly where a client wrapping at some width in 72..78 would have cut. Order
    lines are short, so a legitimate line this long is rare; the hint is only given for
    signatures that already failed.
    """
    lines = split_lines(text)
    for current, following in zip(lines, lines[1:]):
        cur = current.rstrip()
        if not WRAP_MIN_LINE <= len(cur) <= WRAP_MAX_LINE or is_quoted(cur):
            continue
        nxt = following.strip()
        if not nxt or nxt.startswith((">", "#", "-----")) or _HEADER_LIKE.match(nxt):
            continue
        if len(cur) + 1 + len(nxt.split()[0]) > WRAP_MIN_WIDTH:
            return True
    return False
