"""The header of an order file: which game, turn, phase and role the orders are for.

DESIGN.md, "Signed orders": an order file starts with ``key: value`` lines (``game``, ``turn``,
``phase``, ``role``, ``nonce``, ``issued``), then a blank line, then the orders. The header binds
the signed orders to one window; ``nonce`` feeds the dice; ``issued`` orders the submissions.
The optional ``referee`` line (the fingerprint of the game's referee key, as the report's order
template writes it) binds them to one judge (docs/signing.md, section 10).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone

REQUIRED = ("game", "turn", "phase", "role", "nonce", "issued")
OPTIONAL = ("referee", "wait")
"""Header fields that may be absent: ``referee`` (docs/signing.md, section 10) and ``wait``
(``yes`` holds the window open to its deadline even when every order set is in, so that
corrected orders can still be sent; docs/deadlines.md)."""
_YES_NO = {"yes": True, "no": False}
KNOWN = REQUIRED + OPTIONAL
_HEADER_LINE = re.compile(r"^([A-Za-z][A-Za-z-]*)[ \t]*:[ \t]*(.*)$")
_TURN = re.compile(r"[0-9]{1,9}")
_NONCE = re.compile(r"^[A-Za-z0-9_-]{16,128}$")
_FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")
"""A key fingerprint as pbem and ``ssh-keygen -l`` print it: SHA-256, base64 without padding."""


class HeaderError(ValueError):
    """An order file's header is missing a field or has a bad value. ``line`` is 1-based."""

    def __init__(self, line: int | None, message: str):
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)


@dataclass(frozen=True)
class OrderHeader:
    """A parsed header: ``turn`` is the game turn, ``issued`` an aware UTC datetime,
    ``body_line`` the 1-based line number where the order body starts, and ``referee`` the
    fingerprint of the judge's key for the game (``SHA256:...``) or None when the header has
    no ``referee:`` line (or an empty one)."""

    game: str
    turn: int
    phase: str
    role: str
    nonce: str
    issued: datetime
    body_line: int
    referee: str | None = None
    wait: bool = False


def parse_issued(value: str) -> datetime:
    """Parse an ISO 8601 time with a zone (``2026-11-29T20:15:00Z``) into UTC; ValueError if
    it is not one or has no zone."""
    when = datetime.fromisoformat(value.strip())
    if when.tzinfo is None:
        raise ValueError("no time zone")
    return when.astimezone(timezone.utc)


def format_time(when: datetime) -> str:
    """UTC, seconds, ``Z``: the form pbem writes times in (``2026-11-29T20:15:00Z``)."""
    return when.astimezone(timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def split_header(text: str) -> tuple[dict[str, tuple[int, str]], int]:
    """Read the leading ``key: value`` lines of ``text``.

    Returns ({key (lower case): (line number, value)}, body_line) where body_line is the first
    line after the header (and the blank line ending it). Raises HeaderError for a repeated key.
    """
    fields: dict[str, tuple[int, str]] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    while i < len(lines):
        m = _HEADER_LINE.match(lines[i].strip())
        if not m or m.group(1).lower() not in KNOWN:
            break
        key = m.group(1).lower()
        if key in fields:
            raise HeaderError(i + 1, f"'{key}:' is given twice (first on line {fields[key][0]})")
        fields[key] = (i + 1, m.group(2).strip())
        i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    return fields, i + 1


def parse_header(text: str) -> OrderHeader:
    """Parse and check the header of an order file (canonical text).

    Raises HeaderError naming the line and the expected form for a missing field, a turn that
    is not a number, a nonce that is too short, an ``issued`` without a zone, or a ``referee``
    that is not a key fingerprint (``SHA256:`` and 43 base64 characters; docs/signing.md,
    section 10). ``referee`` is optional: the judge decides whether a game needs it.
    """
    fields, body_line = split_header(text)
    absent = [k for k in REQUIRED if k not in fields]
    empty = [k for k in REQUIRED if k in fields and not fields[k][1]]
    if absent or empty:
        hint = (" (`pbem sign` fills nonce and issued; signing with ssh-keygen, write them "
                "yourself: 'nonce:' 32 random hex digits, e.g. from `openssl rand -hex 16`, and "
                "'issued:' the time in UTC, e.g. 2026-11-29T20:15:00Z)"
                if set(absent + empty) & {"nonce", "issued"} else "")
        if absent:
            raise HeaderError(fields[empty[0]][0] if empty else None,
                              "the header lacks " + ", ".join(f"'{k}:'" for k in absent)
                              + "; an order file starts with game:, turn:, phase:, role:, nonce: "
                                "and issued: lines" + hint)
        raise HeaderError(fields[empty[0]][0], ", ".join(f"'{k}:'" for k in empty)
                          + (" is" if len(empty) == 1 else " are") + " empty" + hint)
    line, turn = fields["turn"]
    if not _TURN.fullmatch(turn):  # not str.isdigit(): it takes '²', which int() refuses
        raise HeaderError(line, f"expected 'turn: NUMBER', found 'turn: {turn}'")
    line, nonce = fields["nonce"]
    if not _NONCE.match(nonce):
        raise HeaderError(line, f"expected 'nonce:' followed by 16 to 128 random letters or digits, "
                                f"found {nonce!r}")
    line, issued = fields["issued"]
    try:
        when = parse_issued(issued)
    except ValueError:
        raise HeaderError(line, f"expected 'issued:' an ISO 8601 time with a zone such as "
                                f"2026-11-29T20:15:00Z, found {issued!r}") from None
    referee = None
    if fields.get("referee", (0, ""))[1]:
        line, referee = fields["referee"]
        if not _FINGERPRINT.fullmatch(referee):
            raise HeaderError(line, "expected 'referee:' followed by the fingerprint of the game's "
                                    "referee key as your report's order template gives it "
                                    f"(SHA256: and 43 letters, digits, + or /), found {referee!r}")
    wait = False
    if fields.get("wait", (0, ""))[1]:
        line, value = fields["wait"]
        if value.strip().lower() not in _YES_NO:
            raise HeaderError(line, f"expected 'wait: yes' (hold the window open to its "
                                    f"deadline) or 'wait: no', found 'wait: {value}'")
        wait = _YES_NO[value.strip().lower()]
    return OrderHeader(game=fields["game"][1], turn=int(turn), phase=fields["phase"][1].lower(),
                       role=fields["role"][1].lower(), nonce=nonce, issued=when,
                       body_line=body_line, referee=referee, wait=wait)


def fill_header(text: str, now: datetime) -> str:
    """Fill an empty or absent ``nonce:`` (32 random hex digits) and ``issued:`` (``now``) in an
    order file, keeping everything else as written (a ``referee:`` line included, wherever it
    stands in the header). Returns the new text. Used by ``pbem sign``."""
    fields, _ = split_header(text)
    lines = text.split("\n")
    nonce = secrets.token_hex(16)
    stamp = format_time(now)
    header_end = max((ln for ln, _ in fields.values()), default=0)
    additions = []
    for key, value in (("nonce", nonce), ("issued", stamp)):
        if key in fields:
            ln, old = fields[key]
            if not old:
                lines[ln - 1] = f"{key}: {value}"
        else:
            additions.append(f"{key}: {value}")
    if additions:
        lines[header_end:header_end] = additions
    return "\n".join(lines)


_QUOTE_MARKS = re.compile(r"^(?:[ \t]*>)+[ \t]?")
"""The quote marks a mail client puts before a line of a reply: ``> ``, ``>>``, ``> > ``."""


def unquote_template(text: str) -> tuple[str, int]:
    """An order file whose header was copied from a quoted reply (every header line starting
    ``> ``, ``>> `` or ``> > ``): ``(the text with the quote marks removed from the start of
    every quoted line, how many lines were unquoted)``. Lines that are not quoted (orders typed
    below the quoted template) stay as they are. A text whose first line is not quoted comes
    back as it is, with 0. Used by ``pbem sign`` (docs/signing.md, "Signing a quoted
    template").

    Raises HeaderError when only some header lines are quoted, naming the first quoted and the
    first unquoted one: which lines are the orders is then a guess."""
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None or not _QUOTE_MARKS.match(lines[first]):
        return text, 0
    bare = [_QUOTE_MARKS.sub("", line) for line in lines]
    fields, _ = split_header("\n".join(bare))
    header = sorted(n for n, _ in fields.values())
    plain = [n for n in header if not _QUOTE_MARKS.match(lines[n - 1])]
    if plain:
        raise HeaderError(plain[0], f"the header is partly quoted: line {first + 1} starts with "
                                    f"'>' (a quoted reply) but line {plain[0]} does not; remove "
                                    "the '>' quote marks at the start of the header lines (or "
                                    "quote none of them), then sign again")
    changed = sum(1 for a, b in zip(lines, bare) if a != b)
    return "\n".join(bare), changed
