"""Which byte strings a detached SSH signature is checked against, and in which order
(pbem.crypto.find; docs/signing.md, section 4).

A ``.sig`` attached to a mail signs a file whose exact bytes the judge must find again: the
bytes of an attached text as received, or a region of the body (from its ``game:`` line to its
end, or to one of its paragraph ends) in one of a few byte forms
(:func:`pbem.crypto.sshsig.message_candidates`). Each check is an Ed25519 verification (about
0.15 ms on the development machine), so the likeliest candidates go first; since only one byte
string can carry a given signature, the order never changes what is found, only how many
checks it takes.
"""

from __future__ import annotations

from pbem.crypto.sshsig import SshSignature, verify_ssh_signature

__all__ = ["detached_attempts", "first_verified"]


def _is_body(name: str) -> bool:
    """A message body ("body"), or the body of a forwarded message ("forwarded/body")."""
    return name == "body" or name.endswith("/body")


def detached_attempts(ordered: list, tried: list[str], forms: list) -> list:
    """The byte strings a detached signature is checked against, in the order of preference
    (docs/signing.md, section 4), each ``(bytes, (text item, the text it signs), rank)``:

    1. the exact bytes received of each text (after transfer decoding), unless they are one of
       that text's forms of step 2 anyway;
    2. every region in its likeliest byte form (canonical text + LF, what an editor saves),
       then in the rarer forms.

    ``rank`` orders the checks (:func:`first_verified`): 0 for the likeliest form of a
    region that leaves out a sign-off (:func:`_signed_off`), 1 for the likeliest form of the
    other regions, 2 for the rest.

    ``ordered``: the texts searched (pbem.crypto.find's ``_Text``: ``name``, ``text``,
    ``raw``), the one the ``.sig`` names first; ``tried``: the names of those that gave a
    region; ``forms``: ``(text, region, message_candidates(region))`` for each region, in
    the order of pbem.crypto.find._body_orders (the whole, then each cut, longest first).
    """
    attempts = [(item.raw, (item, item.text), 2) for item in ordered
                if item.raw is not None and item.name in tried
                and not any(f[0] is item and item.raw in f[2] for f in forms)]
    signed_off = _signed_off(forms)
    for rank in range(max((len(c) for _, _, c in forms), default=0)):
        for number, (item, region, candidates) in enumerate(forms):
            if rank < len(candidates):
                likely = 2 if rank else 0 if number in signed_off else 1
                attempts.append((candidates[rank], (item, region), likely))
    return attempts


_SIGN_OFF_LINES = 3
_SIGN_OFF_WIDTH = 40


def _signed_off(forms: list) -> set[int]:
    """The indexes in ``forms`` of the regions that end where a body's orders are followed by
    a sign-off ("Thanks!", a name): a last paragraph of at most three short lines with no
    digit and no colon, which an order file hardly ends with. Such a region is the likeliest
    signed file of its body, before the region that keeps the sign-off."""
    out = set()
    number = 0
    while number < len(forms):
        item, whole, _ = forms[number]
        number += 1
        if not _is_body(item.name):
            continue
        # the longest cut that leaves out more than blank lines: the last paragraph
        while number < len(forms) and forms[number][0] is item:
            cut = forms[number][1]
            tail = [line for line in whole[len(cut):].split("\n") if line.strip()]
            if whole.startswith(cut) and tail:
                if len(tail) <= _SIGN_OFF_LINES and all(
                        len(line) <= _SIGN_OFF_WIDTH and ":" not in line
                        and not any(c.isdigit() for c in line) for line in tail):
                    out.add(number)
                break
            number += 1
        while number < len(forms) and forms[number][0] is item:
            number += 1
    return out


def first_verified(sig: SshSignature, namespace: str, attempts: list) -> object | None:
    """What the first of ``attempts`` (:func:`detached_attempts`) that ``sig`` verifies
    against stands for, or None. Only one byte string can carry a given signature, so the
    checks may run in any order: each distinct byte string is checked once (the first attempt
    holding it speaks for it), by rank, which saves a check or two (~0.15 ms each) per mail
    whose whole body is not the signed file. Raises SshSigNamespaceError as
    :func:`~pbem.crypto.sshsig.verify_ssh_signature`."""
    first: dict[bytes, object] = {}
    for data, meaning, _rank in attempts:
        first.setdefault(data, meaning)
    order = [data for data, _, _ in sorted(attempts, key=lambda a: a[2])]  # stable
    checked: set[bytes] = set()
    for data in order:
        if data in checked:
            continue
        checked.add(data)
        if verify_ssh_signature(sig, data, namespace):
            return first[data]
    return None
