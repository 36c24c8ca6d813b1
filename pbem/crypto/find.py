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

SSH signatures cover a file's exact bytes, so each is checked first against the bytes received
(``raw_bytes``: after transfer decoding, before charset decoding), then against the candidate
forms of the decoded text. Where a signature fails in a text, the text's other readings
(``alternates``: another charset, format=flowed not unstuffed or as sent) are tried, so each
signature gives exactly one result. A signature that still fails gets the likely cause in its
reason when one can be seen (:func:`pbem.crypto.hints.signature_hint`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Mapping, Sequence, Union

from pbem.crypto.canonical import canonical_text, sha256_hex
from pbem.crypto.envelope import Envelope, find_envelopes
from pbem.crypto.hints import (  # noqa: F401  (re-exported: callers import them from here)
    HINT_BOM,
    HINT_CHARSET,
    HINT_MIXED_LINE_ENDS,
    HINT_REWRAPPED,
    HINT_TRAILING_SPACE,
    WRAP_MAX_LINE,
    WRAP_MIN_LINE,
    WRAP_MIN_WIDTH,
    looks_rewrapped,
    signature_hint,
)
from pbem.crypto.errors import EnvelopeError, SshSigError, SshSigNamespaceError
from pbem.crypto.keys import PublicKey
from pbem.crypto.lines import is_quoted, split_lines
from pbem.crypto.likely import detached_attempts, first_verified
from pbem.crypto.sshsig import (
    ORDERS_NAMESPACE,
    SshSigBlock,
    SshSignature,
    find_ssh_signatures,
    match_message,
    message_candidates,
    parse_ssh_signature,
    verify_ssh_signature,
)

__all__ = [
    "Signed",
    "BadSignature",
    "find_signed",
    "find_signed_in",
    "looks_rewrapped",
    "signature_hint",
    "unquote_mbox_from",
]

Method = Literal["pbem", "ssh"]

BODY = "body"
"""The name the mail layer gives to a message's body text parts."""

_GAME_HEADER = re.compile(r"^[ \t]*game[ \t]*:", re.IGNORECASE | re.MULTILINE)
_MBOX_FROM = re.compile(r"^>(>*From )", re.MULTILINE)



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


@dataclass(frozen=True)
class _Text:
    """One text to search: its name, main reading, other readings and raw bytes (or None)."""

    name: str
    text: str
    alternates: tuple[str, ...] = ()
    raw: bytes | None = None


def find_signed(
    texts: list[tuple[str, str]],
    sig_files: list[tuple[str, bytes]],
    *,
    namespace: str = ORDERS_NAMESPACE,
    alternates: Mapping[int, Sequence[str]] | None = None,
    raw_bytes: Mapping[int, bytes] | None = None,
) -> list[Found]:
    """Every signed thing in a message: ``Signed`` if it verifies, else ``BadSignature``.

    ``texts`` are ``(name, text)`` pairs: ``("body", text)`` for body parts, ``(file name,
    text)`` for text attachments, all decoded to ``str``. ``sig_files`` are ``(file name,
    bytes)`` of the ``.sig`` attachments. ``namespace`` is the SSH signature namespace required
    (``pbem-orders``). Results come in order: for each text its envelopes and inline SSH blocks,
    then the detached signatures. A text whose name is also a ``sig_files`` name is taken as
    that signature, not as orders. Returns ``[]`` if nothing signed is found. Raises nothing for
    bad input: every problem becomes a :class:`BadSignature` with a reason, which names the
    likely cause when one can be seen (:func:`signature_hint`).

    ``alternates`` (``pbem.mail.extract.Extracted.alternates``): ``{index into texts: [other
    readings]}``. A signature found in ``texts[i]`` that fails is tried again in each of
    ``alternates[i]`` (the same signature block, found there); a text whose armour cannot be
    read at all is searched in its alternates instead. So each signature gives one result.
    ``raw_bytes`` (``Extracted.raw_bytes``): ``{index into texts: bytes}``: the bytes of
    ``texts[i]`` as received (after transfer decoding). SSH signatures are checked against
    them first, exactly (what ``ssh-keygen -Y check-novalidate`` checks), then against the
    forms of :func:`~pbem.crypto.sshsig.message_candidates`. Both default to none.
    """
    alternates = alternates or {}
    raw_bytes = raw_bytes or {}
    sig_names = {name for name, _ in sig_files}
    order_texts = [
        _Text(name, text, tuple(alternates.get(i, ())), raw_bytes.get(i))
        for i, (name, text) in enumerate(texts)
        if name not in sig_names
    ]
    detached: list[tuple[str, str | bytes]] = list(sig_files)
    signature_only: set[int] = set()
    results: list[Found] = []
    for number, item in enumerate(order_texts):
        name, text = item.name, item.text
        results.extend(_pbem_envelopes(name, text, item.alternates, item.raw))
        try:
            blocks = find_ssh_signatures(text)
        except SshSigError as exc:
            results.append(BadSignature(name, "ssh", f"{name}: {exc}"))
            continue
        for index, block in enumerate(blocks):
            if block.preceding.strip():
                results.append(_inline_ssh(item, index, block, namespace))
            else:
                # No text before it: a detached signature (a .sig shown as text, or placed first).
                detached.append((name, block.armored))
        if blocks and not any(b.preceding.strip() for b in blocks):
            after = split_lines(text)[blocks[-1].end_line:]
            if not any(line.strip() for line in after):
                signature_only.add(number)
    candidates = [item for number, item in enumerate(order_texts) if number not in signature_only]
    for sig_name, data in detached:
        results.append(_detached_ssh(sig_name, data, candidates, namespace))
    return results


def find_signed_in(extracted, *, namespace: str = ORDERS_NAMESPACE) -> list[Found]:
    """:func:`find_signed` over a :class:`pbem.mail.extract.Extracted`, with its ``alternates``
    and ``raw_bytes``: ``find_signed(ex.texts, ex.sig_files, alternates=ex.alternates,
    raw_bytes=ex.raw_bytes)``. Raises nothing for bad input, as :func:`find_signed`."""
    return find_signed(
        extracted.texts,
        extracted.sig_files,
        namespace=namespace,
        alternates=getattr(extracted, "alternates", None),
        raw_bytes=getattr(extracted, "raw_bytes", None),
    )


# --- pbem envelopes -----------------------------------------------------------------------------


def unquote_mbox_from(text: str) -> str:
    """Undo mbox ``From`` quoting: remove one ``>`` from each line matching ``^>+From `` (mboxrd).

    mbox files store a body line starting ``From `` as ``>From `` (and ``>From `` as
    ``>>From ``), which breaks a signature over that line.
    """
    return _MBOX_FROM.sub(r"\1", text)


def _has_mbox_quoting(text: str) -> bool:
    return ">From " in text and _MBOX_FROM.search(text) is not None


def _envelopes_or_error(text: str) -> list[Envelope] | EnvelopeError:
    # An HTML composer may turn every space into a no-break space, the marker lines' included;
    # the canonical form maps U+00A0 to a space anyway, so the signed text is not changed.
    if "\u00a0" in text:
        text = text.replace("\u00a0", " ")
    try:
        return find_envelopes(text)
    except EnvelopeError as exc:
        return exc


def _pbem_envelopes(name: str, text: str, alternates: tuple[str, ...] = (), raw: bytes | None = None) -> list[Found]:
    envelopes = _envelopes_or_error(text)
    if isinstance(envelopes, EnvelopeError):
        # The armour cannot be read in this reading of the text; another may be whole.
        for number, alt in enumerate(alternates):
            if not isinstance(_envelopes_or_error(alt), EnvelopeError):
                return _pbem_envelopes(name, alt, alternates[number + 1:], raw)
        # Broken armour is not what re-wrapping does (no marker or base64 line has a space).
        return [BadSignature(name, "pbem", f"{name}: {envelopes}")]
    out: list[Found] = []
    unquoted: dict[int, Envelope] | None = None
    alt_envelopes: list[list[Envelope]] | None = None
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
        if alt_envelopes is None:
            alt_envelopes = []
            for form in alternates:
                found = _envelopes_or_error(form)
                alt_envelopes.append([] if isinstance(found, EnvelopeError) else found)
        same = [e for found in alt_envelopes for e in found
                if e.signature == env.signature and e.public_key == env.public_key]
        good = next((e for e in same if e.verify()), None)
        if good is not None:
            out.append(Signed(good.text, good.public_key, "pbem", name))
            continue
        rewrapped = looks_rewrapped(env.body)
        out.append(
            BadSignature(
                name,
                "pbem",
                _with_hint(
                    f"{name}, line {env.start_line}: the signature does not match the signed text "
                    "(the text was changed after it was signed)",
                    env.body, None, exact_bytes=False, rewrapped=rewrapped,
                ),
                env.public_key,
                rewrapped,
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


_RAW_BEGIN = re.compile(rb"^-----BEGIN SSH SIGNATURE-----[ \t\r]*$", re.MULTILINE)
_RAW_END = re.compile(rb"^-----END SSH SIGNATURE-----[ \t\r]*$", re.MULTILINE)
_RAW_GAME = re.compile(rb"^[ \t]*game[ \t]*:", re.IGNORECASE | re.MULTILINE)


def _raw_regions(raw: bytes | None, index: int) -> list[bytes]:
    """The bytes before the ``index``-th SSH armour block of ``raw``, as received: from the
    previous block's END line (or the start), and from the first ``game:`` line in them."""
    if not raw:
        return []
    begins = list(_RAW_BEGIN.finditer(raw))
    if index >= len(begins):
        return []
    start = 0
    if index:
        end = _RAW_END.search(raw, begins[index - 1].end(), begins[index].start())
        if end is None:
            return []
        nl = raw.find(b"\n", end.end())
        start = begins[index].start() if nl < 0 else nl + 1
    region = raw[start:begins[index].start()]
    out = [region]
    game = _RAW_GAME.search(region)
    if game is not None and game.start() and region[game.start():] not in out:
        out.append(region[game.start():])
    return out


def _inline_ssh(item: _Text, index: int, block: SshSigBlock, namespace: str) -> Found:
    name = item.name
    where = f"{name}, line {block.start_line}"
    try:
        sig = parse_ssh_signature(block.armored)
    except SshSigError as exc:
        return BadSignature(name, "ssh", f"{where}: {exc}")
    preceding = block.preceding
    region = _orders_from_header(preceding)
    what = "the text before it, from its 'game:' line"
    if region is None:
        region, what = preceding, "the text before it (which has no 'game:' line)"
    try:
        # The exact bytes received first (what ssh-keygen -Y check-novalidate checks).
        for exact in _raw_regions(item.raw, index):
            if verify_ssh_signature(sig, exact, namespace):
                return Signed(canonical_text(region), sig.public_key, "ssh", name)
        signed = _match_text(sig, region, namespace)
        if signed is None:
            for alt in item.alternates:
                try:
                    alt_blocks = find_ssh_signatures(alt)
                except SshSigError:
                    continue
                for alt_block in alt_blocks:
                    if alt_block.armored == block.armored and alt_block.preceding.strip():
                        alt_region = _orders_from_header(alt_block.preceding) or alt_block.preceding
                        signed = _match_text(sig, alt_region, namespace)
                        if signed is not None:
                            break
                if signed is not None:
                    break
    except SshSigNamespaceError as exc:
        return BadSignature(name, "ssh", f"{where}: {exc}", sig.public_key)
    if signed is not None:
        return Signed(canonical_text(signed), sig.public_key, "ssh", name)
    rewrapped = looks_rewrapped(region)
    raw_regions = _raw_regions(item.raw, index)
    return BadSignature(
        name,
        "ssh",
        _with_hint(
            f"{where}: the SSH signature does not match {what}: the text was changed after it was "
            "signed, or it is not the file that was signed",
            region, raw_regions[-1] if raw_regions else None, exact_bytes=True, rewrapped=rewrapped,
        ),
        sig.public_key,
        rewrapped,
    )


def _is_body(name: str) -> bool:
    """A message body ("body"), or the body of a forwarded message ("forwarded/body")."""
    return name == BODY or name.endswith("/" + BODY)


def _detached_ssh(sig_name: str, data: str | bytes, texts: list[_Text], namespace: str) -> Found:
    try:
        sig = parse_ssh_signature(data)
    except SshSigError as exc:
        return BadSignature(sig_name, "ssh", f"{sig_name}: {exc}", sig_file=sig_name)
    stem = sig_name[:-4] if sig_name.lower().endswith(".sig") else None
    ordered = sorted(texts, key=lambda item: item.name != stem)  # the file it names first
    tried: list[str] = []
    regions_tried: list[tuple[_Text, str]] = []
    for item in ordered:
        regions = _body_orders(item.text) if _is_body(item.name) else [item.text]
        if not regions:
            continue
        tried.append(item.name)
        regions_tried += [(item, region) for region in regions]
    forms = [(item, region, message_candidates(region)) for item, region in regions_tried]
    try:
        found = first_verified(sig, namespace, detached_attempts(ordered, tried, forms))
        if found is not None:
            item, text = found
            return Signed(canonical_text(text), sig.public_key, "ssh", item.name, sig_file=sig_name)
        # 3. mbox ">From " quoting undone; 4. the other readings of each text.
        for item, region, _ in forms:
            if _has_mbox_quoting(region):
                unquoted = unquote_mbox_from(region)
                if match_message(sig, message_candidates(unquoted), namespace) is not None:
                    return Signed(canonical_text(unquoted), sig.public_key, "ssh", item.name, sig_file=sig_name)
        for item in ordered:
            for alt in item.alternates:
                for region in (_body_orders(alt) if _is_body(item.name) else [alt]):
                    if match_message(sig, message_candidates(region), namespace) is not None:
                        return Signed(canonical_text(region), sig.public_key, "ssh", item.name, sig_file=sig_name)
    except SshSigNamespaceError as exc:
        return BadSignature(sig_name, "ssh", f"{sig_name}: {exc}", sig.public_key, sig_file=sig_name)
    rewrapped = any(looks_rewrapped(region) for _, region in regions_tried)
    if tried:
        reason = (
            f"{sig_name}: the SSH signature matches none of the message's texts "
            f"({', '.join(tried)}): the orders were changed after they were signed, or the file "
            "signed is not attached"
        )
        first, region = regions_tried[0]
        reason = _with_hint(reason, region, first.raw, exact_bytes=True, rewrapped=rewrapped)
    else:
        reason = (
            f"{sig_name}: there is no text for this signature to check: attach the signed orders "
            "file next to the .sig, or put the orders (from their 'game:' line) in the body"
        )
    return BadSignature(sig_name, "ssh", reason, sig.public_key, rewrapped, sig_file=sig_name)


def _with_hint(reason: str, text: str, raw: bytes | None, *, exact_bytes: bool, rewrapped: bool) -> str:
    """``reason``, followed by "; the likely cause: ..." when :func:`signature_hint` sees one."""
    hint = None if rewrapped else signature_hint(text, raw, exact_bytes=exact_bytes, rewrapped=False)
    return f"{reason}; the likely cause: {hint}" if hint else reason
