"""What every referee action checks first: its refusal (:class:`ActionRefused`) and the checks
of the referee's input (a reason for the public log, a mail address, a time zone, a ``--until``
time, a ``--phase`` id).

Moved out of :mod:`pbem.engine.admin` (which re-exports every name here; issue 8, "The referee's
commands"; DESIGN.md, "Referee actions"). A check raises before anything is written:
:class:`ActionRefused`, or NotFound or GameError from :mod:`pbem.engine.errors`.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from pbem.engine.errors import GameError, NotFound, PbemError

MAX_WHY = 500
"""The longest reason (characters) a referee action takes: it goes into the public log."""

_LOOKS_LIKE_ADDRESS = re.compile(r"[^\s@<>()\[\],;:\"]+@[^\s@<>()\[\],;:\"]+\.[A-Za-z]{2,}")
_LOCAL_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(:\d{2})?$")


class ActionRefused(PbemError):
    """A referee command that does not apply to the game as it stands (ended, not paused,
    paused already, a deadline that would not move later...)."""


def check_why(why: str | None, *, required: bool, option: str = "--why") -> str:
    """The referee's reason, stripped and on one line (runs of white space made one space):
    ``""`` when none is given and none is ``required``. ActionRefused for a missing or blank
    required reason, one longer than :data:`MAX_WHY`, or one that holds something like an
    e-mail address (the reason is published in the public log, which never holds one)."""
    text = " ".join((why or "").split())
    if not text:
        if required:
            raise ActionRefused(f"{option}: give the reason for the players (it goes into the "
                                "public log with the action)")
        return ""
    if len(text) > MAX_WHY:
        raise ActionRefused(f"{option}: expected at most {MAX_WHY} characters, found "
                            f"{len(text)}")
    m = _LOOKS_LIKE_ADDRESS.search(text)
    if m:
        raise ActionRefused(f"{option}: the reason goes into the public log, which never holds "
                            f"an e-mail address, but it holds {m.group(0)!r}: leave it out")
    return text


def check_address(address: str, what: str) -> str:
    """``address`` stripped, if it is one mail address that mail can be composed to (no line
    break, one recipient, an ``@``); GameError naming ``what`` otherwise. The same checks as
    ``pbem game new`` makes, and those of composing a mail to it."""
    from email.utils import getaddresses

    from pbem.mail.compose import compose
    from pbem.mail.errors import ComposeError

    text = (address or "").strip()
    pairs = getaddresses([text]) if "\n" not in text and "\r" not in text else []
    if len(pairs) != 1 or "@" not in pairs[0][1]:
        raise GameError(f"{what}: expected one e-mail address, found {address!r}")
    try:
        compose(sender="referee@example.invalid", to=text, subject="check", text="check")
    except ComposeError as e:
        raise GameError(f"{what}: expected one e-mail address, found {address!r} ({e})") from None
    return text


def check_zone(zone: str, what: str) -> str | None:
    """An IANA zone name (``Europe/Paris``), or None for ``none``/``-``/empty (no zone: UTC
    only); GameError naming ``what`` for an unknown zone."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    name = (zone or "").strip()
    if name.lower() in ("", "none", "-"):
        return None
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise GameError(f"{what}: unknown time zone {name!r} (expected an IANA name such as "
                        "Europe/Paris, or none)") from None
    return name


def parse_until(text: str, zone: str | None) -> datetime:
    """The instant (UTC, whole seconds up) meant by ``--until``: an ISO 8601 time with a zone
    (``2026-12-24T19:00:00Z``, ``2026-12-24 20:00+01:00``), or a local date and time
    (``2026-12-24 20:00``, seconds optional) on the clocks of ``zone`` (the game's zone; None:
    UTC). A local time that the clocks skip, or show twice, is read as deadlines are
    (docs/deadlines.md): the later of its readings. ActionRefused for anything else."""
    from zoneinfo import ZoneInfo

    s = " ".join((text or "").split())
    expected = (f"--until {text!r}: expected an ISO 8601 time with a zone "
                "(2026-12-24T19:00:00Z) or a date and time in the game's zone "
                f"({zone or 'UTC'}) such as '2026-12-24 20:00'")
    if not re.match(r"^\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}", s):
        raise ActionRefused(expected)
    if re.match(r"^\d{4}-\d{2}-\d{2}[ T]\d:", s):
        s = s[:11] + "0" + s[11:]
    try:
        when = datetime.fromisoformat(s)
    except ValueError:
        raise ActionRefused(expected) from None
    if when.tzinfo is None:
        if not _LOCAL_TIME.match(s):
            raise ActionRefused(expected)
        tz = ZoneInfo(zone) if zone else timezone.utc
        when = max(when.replace(tzinfo=tz, fold=f).astimezone(timezone.utc) for f in (0, 1))
    when = when.astimezone(timezone.utc)
    if when.microsecond:
        when = when.replace(microsecond=0) + timedelta(seconds=1)
    return when


def phase_seq_of(phases, text: str, game_id: str = "") -> int:
    """The sequence number of the phase named ``text`` (``phases``: the game's Phase rows in
    seq order): a phase id as the reports name it (``2.green``: "Turn 2, phase green has been
    resolved"), or ``setup`` (also ``0.create``, the id its dice have) for the setup report. A
    phase id that an undo made appear twice means its latest window. A bare number is
    refused, since counting reports and counting turns would give different answers; the
    message lists that turn's phases. NotFound listing the ids otherwise."""
    t = (text or "").strip().lower()
    if t in ("setup", "0.create"):
        return 0
    ids = {p.phase_id.lower(): p.seq for p in phases}  # in seq order: the latest wins
    if t in ids:
        return ids[t]
    known = "setup" + "".join(f", {i}" for i in ids)
    of = f" of game {game_id}" if game_id else ""
    if t.isdigit():
        turn = [i for i in ids if i.split(".", 1)[0] == t]
        hint = f"; the phases of turn {t} are {', '.join(turn)}" if turn else ""
        raise NotFound(f"--phase {text.strip()}: expected a phase id as the reports name it "
                       f"(turn.phase, such as 2.green) or setup{hint}; the phases{of}: {known}")
    raise NotFound(f"no phase {text!r}{of} (phases: {known})")
