"""Deadlines as PBEM games schedule them: ``72h`` after a window opens, or a wall-clock time
such as ``sun 23:55`` in the game's time zone; grace, minimum windows, reminders and the
downtime guard. Pure: no SQL, no mail, no click. The rules are documented in docs/deadlines.md.

All instants taken and returned are zone-aware datetimes in UTC; all durations are whole seconds.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem.engine.durations import MAX_SECONDS, format_duration, parse_duration

__all__ = ["ScheduleError", "DeadlineRule", "Schedule", "game_schedule", "parse_leads",
           "format_leads", "reminders_due", "missed_by_downtime", "downtime_guard", "format_when"]

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_FULL_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAYS = {**{n: i for i, n in enumerate(DAY_NAMES)}, **{n: i for i, n in enumerate(_FULL_NAMES)}}
_GROUPS = {"daily": range(7), "weekdays": range(5), "weekends": range(5, 7)}
_EXPECTED = ("expected a duration such as 72h, 3d or 1d12h, or days and a time such as "
             "'sun 23:55', 'mon,thu 21:00', 'mon-fri 18:00' or 'daily 20:00'")
_TIME_AT_END = re.compile(r"^(.*\S)\s+(\d{1,2}):(\d{2})$")
_GUARD_FLOOR = 3600


class ScheduleError(ValueError):
    """A deadline, zone or reminder text that cannot be read; the message quotes the input."""


@lru_cache(maxsize=64)
def _zone(name: str | None):
    """The tzinfo for an IANA name (UTC for None or ''); ScheduleError for an unknown name."""
    if not name:
        return timezone.utc
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ScheduleError(f"time zone {name!r}: expected an IANA name such as Europe/Paris "
                            "or America/New_York") from None


def _utc(when: datetime, what: str) -> datetime:
    if not isinstance(when, datetime) or when.tzinfo is None or when.utcoffset() is None:
        raise ScheduleError(f"{what} {when!r}: expected a zone-aware datetime")
    return when.astimezone(timezone.utc)


def _local_instant(day: date, hour: int, minute: int, tz) -> datetime:
    """The UTC instant meant by ``day hour:minute`` on the clocks of ``tz``: the later of the
    two PEP 495 readings. A time skipped by a change is read with the offset in force before
    it (fold=0); a time that happens twice is the second one (fold=1)."""
    readings = (datetime.combine(day, time(hour, minute), tzinfo=tz).replace(fold=f)
                .astimezone(timezone.utc) for f in (0, 1))
    return max(readings)


def _whole_seconds_up(when: datetime) -> datetime:
    return when if not when.microsecond else when.replace(microsecond=0) + timedelta(seconds=1)


def _parse_days(text: str, spec: str) -> frozenset:
    if spec in _GROUPS:
        return frozenset(_GROUPS[spec])
    days: set[int] = set()
    for item in spec.split(","):
        ends = item.split("-")
        if len(ends) > 2 or not all(e in _DAYS for e in ends):
            raise ScheduleError(f"deadline {text!r}: expected days such as sun, mon,thu, mon-fri, "
                                f"daily, weekdays or weekends before the time, found {item!r}")
        first, last = _DAYS[ends[0]], _DAYS[ends[-1]]
        if len(ends) == 2 and first == last:
            raise ScheduleError(f"deadline {text!r}: the range {item!r} starts and ends on the "
                                f"same day; write the day alone ({ends[0][:3]}) or 'daily'")
        days.update((first + i) % 7 for i in range((last - first) % 7 + 1))  # fri-mon wraps
    return frozenset(days)


@dataclass(frozen=True)
class DeadlineRule:
    """Either a duration after the window opens (kind 'after', seconds > 0) or a wall-clock time
    on given days in the game's zone (kind 'weekly', days = frozenset of weekday ints 0=Mon..6=Sun,
    hour, minute). Construction checks the fields (ScheduleError)."""
    kind: str
    seconds: int = 0
    days: frozenset = frozenset()
    hour: int = 0
    minute: int = 0

    def __post_init__(self):
        if self.kind == "after":
            ok = (type(self.seconds) is int and 0 < self.seconds <= MAX_SECONDS and not self.days
                  and self.hour == 0 and self.minute == 0)
        elif self.kind == "weekly":
            ok = (self.seconds == 0 and isinstance(self.days, frozenset) and bool(self.days)
                  and all(type(d) is int and 0 <= d <= 6 for d in self.days)
                  and type(self.hour) is int and 0 <= self.hour <= 23
                  and type(self.minute) is int and 0 <= self.minute <= 59)
        else:
            ok = False
        if not ok:
            raise ScheduleError(f"deadline rule {self!r}: expected kind 'after' with 0 < seconds "
                                f"<= {MAX_SECONDS}, or kind 'weekly' with days in 0..6, hour "
                                "0..23 and minute 0..59")

    @classmethod
    def parse(cls, text: str) -> "DeadlineRule":
        """Read ``72h``/``3d``/``1d12h``/``90m`` (as parse_duration takes them), or days and a
        24-hour HH:MM time: ``daily 20:00``, ``sun 23:55``, ``mon,thu 21:00``, ``mon-fri 18:00``
        (ranges may wrap: ``fri-mon``), ``weekdays 18:00``, ``weekends 12:00``. Day names are
        case-insensitive, 3-letter or full English. Raises ScheduleError quoting ``text``."""
        if not isinstance(text, str):
            raise ScheduleError(f"deadline {text!r}: {_EXPECTED}")
        s = " ".join(text.strip().lower().split())
        m = _TIME_AT_END.match(s)
        if m:
            spec = re.sub(r"\s*([,-])\s*", r"\1", m.group(1))
            hour, minute = int(m.group(2)), int(m.group(3))
            if hour > 23 or minute > 59:
                raise ScheduleError(f"deadline {text!r}: expected a 24-hour time HH:MM from "
                                    "00:00 to 23:59")
            if " " in spec:
                raise ScheduleError(f"deadline {text!r}: {_EXPECTED}")
            return cls("weekly", days=_parse_days(text, spec), hour=hour, minute=minute)
        try:
            return cls("after", seconds=parse_duration(s))
        except ValueError as e:
            if "longer than a year" in str(e):
                raise ScheduleError(f"deadline {text!r}: expected at most 366d (a year and a "
                                    "day)") from None
            zone = next((w for w in text.split() if "/" in w or w.upper() in ("UTC", "GMT")),
                        None)
            hint = (f" (the time zone goes in its own option: --tz {zone})" if zone else "")
            raise ScheduleError(f"deadline {text!r}: {_EXPECTED}{hint}") from None

    def format(self) -> str:
        """The canonical text: ``72h`` style (format_duration), ``daily 20:00`` when all seven
        days, else ``mon,thu 21:00`` (days in week order). parse(format(r)) == r."""
        if self.kind == "after":
            return format_duration(self.seconds)
        days = "daily" if len(self.days) == 7 else ",".join(DAY_NAMES[d] for d in sorted(self.days))
        return f"{days} {self.hour:02d}:{self.minute:02d}"

    def deadline(self, opened_at: datetime, zone: str | None,
                 min_window_seconds: int = 0) -> datetime:
        """The deadline, zone-aware UTC in whole seconds, of a window opened at ``opened_at``
        (zone-aware). 'after': opened_at + max(seconds, min_window_seconds), rounded up to a
        whole second. 'weekly': the first scheduled time on the clocks of ``zone`` (IANA name;
        None = UTC) strictly after opened_at + min_window_seconds; a local time skipped by a
        daylight-saving change is read with the offset before the change, a time that happens
        twice is the second one. Raises ScheduleError for an unknown zone, a naive opened_at or
        a negative min_window_seconds."""
        start = _utc(opened_at, "opened_at")
        tz = _zone(zone)
        if type(min_window_seconds) is not int or min_window_seconds < 0:
            raise ScheduleError(f"min_window {min_window_seconds!r}: expected whole seconds >= 0")
        if self.kind == "after":
            seconds = max(self.seconds, min_window_seconds)
            return _whole_seconds_up(start + timedelta(seconds=seconds))
        earliest = start + timedelta(seconds=min_window_seconds)
        first = earliest.astimezone(tz).date() - timedelta(days=1)
        candidates = (_local_instant(first + timedelta(days=i), self.hour, self.minute, tz)
                      for i in range(10) if (first + timedelta(days=i)).weekday() in self.days)
        return min(c for c in candidates if c > earliest)


def _seconds(key: str, v) -> int:
    if type(v) is not int or v < 0:
        raise ScheduleError(f"schedule {key} {v!r}: expected whole seconds >= 0")
    return v


@dataclass(frozen=True)
class Schedule:
    """A game's schedule: rules for long and short windows, the game's zone, grace, min_window
    (seconds), close_early, remind (tuple of lead seconds, largest first).

    Construction checks the fields (ScheduleError), turns a zone of '' into None and puts
    ``remind`` in order, largest first, without repeats."""
    deadline: DeadlineRule
    short_deadline: DeadlineRule
    zone: str | None = None
    grace: int = 0
    min_window: int = 0
    close_early: bool = True
    remind: tuple = field(default=(86400,))

    def __post_init__(self):
        for name in ("deadline", "short_deadline"):
            if not isinstance(getattr(self, name), DeadlineRule):
                raise ScheduleError(f"schedule {name} {getattr(self, name)!r}: expected a "
                                    "DeadlineRule")
        object.__setattr__(self, "zone", self.zone or None)
        _zone(self.zone)
        _seconds("grace", self.grace)
        _seconds("min_window", self.min_window)
        if type(self.close_early) is not bool:
            raise ScheduleError(f"schedule close_early {self.close_early!r}: expected true or "
                                "false")
        leads = tuple(self.remind) if isinstance(self.remind, (tuple, list)) else None
        if leads is None or not all(type(x) is int and x > 0 for x in leads):
            raise ScheduleError(f"schedule remind {self.remind!r}: expected lead times in whole "
                                "seconds > 0")
        object.__setattr__(self, "remind", tuple(sorted(set(leads), reverse=True)))

    def to_json(self) -> dict:
        """A JSON-ready dict: rules as their canonical texts, seconds as ints, remind a list."""
        return {"deadline": self.deadline.format(), "short_deadline": self.short_deadline.format(),
                "zone": self.zone, "grace": self.grace, "min_window": self.min_window,
                "close_early": self.close_early, "remind": list(self.remind)}

    @classmethod
    def from_json(cls, obj: dict) -> "Schedule":
        """The inverse of to_json. 'deadline' and 'short_deadline' are required; the other keys
        default as in the class. Raises ScheduleError for a missing or bad value."""
        if not isinstance(obj, dict) or "deadline" not in obj or "short_deadline" not in obj:
            raise ScheduleError(f"schedule {obj!r}: expected an object with deadline and "
                                "short_deadline")
        return cls(DeadlineRule.parse(obj["deadline"]), DeadlineRule.parse(obj["short_deadline"]),
                   zone=obj.get("zone"), grace=obj.get("grace", 0),
                   min_window=obj.get("min_window", 0),
                   close_early=obj.get("close_early", True), remind=obj.get("remind", (86400,)))

    @classmethod
    def legacy(cls, deadline_seconds: int, short_deadline_seconds: int) -> "Schedule":
        """The schedule of a game made before schedules were stored, behaving as such games
        always did: 'after' rules of the given seconds, UTC, no grace, no minimum window,
        close early, and no reminders."""
        return cls(DeadlineRule("after", seconds=deadline_seconds),
                   DeadlineRule("after", seconds=short_deadline_seconds), remind=())

    def deadline_for(self, opened_at: datetime, short: bool) -> datetime:
        """The deadline (UTC) of a window opened at ``opened_at``: the short rule for a short
        window, the other otherwise; min_window applies to both. ScheduleError as
        DeadlineRule.deadline."""
        rule = self.short_deadline if short else self.deadline
        return rule.deadline(opened_at, self.zone, self.min_window)

    def closes_at(self, deadline: datetime) -> datetime:
        """The instant (UTC) the window stops accepting orders: ``deadline`` + grace seconds."""
        return _utc(deadline, "deadline") + timedelta(seconds=self.grace)


def parse_leads(text: str) -> tuple[int, ...]:
    """Reminder lead times in seconds, largest first, without repeats: ``'24h,2h'`` ->
    ``(86400, 7200)``; ``'none'`` -> ``()``. Raises ScheduleError quoting ``text`` (an empty
    text too: no reminders is said with ``none``)."""
    s = text.strip().lower() if isinstance(text, str) else None
    if s == "none":
        return ()
    try:
        return tuple(sorted({parse_duration(part) for part in s.split(",")}, reverse=True))
    except (ValueError, AttributeError):
        raise ScheduleError(f"reminder times {text!r}: expected durations before the deadline "
                            "such as 24h or 24h,2h (comma separated), or none") from None


def format_leads(leads) -> str:
    """The text parse_leads reads back: ``'24h,2h'``, or ``'none'`` for no reminders."""
    return ",".join(format_duration(x) for x in sorted(set(leads), reverse=True)) or "none"


def reminders_due(opened_at, deadline, leads, sent, now) -> list[int]:
    """The lead times (seconds) whose reminder is due now and not yet in `sent`: now >= deadline
    - lead, now < deadline, and the window was already open at deadline - lead (opened_at <
    deadline - lead: a short window that opens inside the lead time gets no reminder for it).
    Sorted smallest first; the caller mails ONE reminder (for the smallest) and marks all
    returned as sent.

    ``opened_at``, ``deadline`` and ``now`` are zone-aware datetimes (ScheduleError if naive)."""
    opened_at, deadline, now = (_utc(opened_at, "opened_at"), _utc(deadline, "deadline"),
                                _utc(now, "now"))
    if now >= deadline:
        return []
    due = []
    for lead in set(leads):
        at = deadline - timedelta(seconds=lead)
        if lead not in sent and opened_at < at <= now:
            due.append(lead)
    return sorted(due)


def missed_by_downtime(closes_at, last_run, now, guard_seconds) -> bool:
    """True when the window's closing time passed while the judge did not run: last_run (the
    last `pbem process` run before this one, UTC, or None) is before closes_at, and now -
    closes_at > guard_seconds.

    None for ``last_run`` counts as before ``closes_at``. Datetimes are zone-aware
    (ScheduleError if naive); ``guard_seconds`` is in seconds, see downtime_guard."""
    closes_at, now = _utc(closes_at, "closes_at"), _utc(now, "now")
    if last_run is not None and _utc(last_run, "last_run") >= closes_at:
        return False
    return (now - closes_at).total_seconds() > guard_seconds


def downtime_guard(grace: int) -> int:
    """Seconds a closing time may lie in the past, unseen by any run, before the window counts
    as missed by downtime: max(grace, 3600), so a cron every few minutes never trips it."""
    return max(grace, _GUARD_FLOOR)


def format_when(when: datetime, zone: str | None) -> str:
    """``'2026-01-11 22:55 UTC (2026-01-11 23:55 CET, Europe/Paris)'``; without a zone
    ``'2026-01-11 22:55 UTC'``. ScheduleError for an unknown zone or a naive ``when``."""
    utc = _utc(when, "when")
    out = utc.strftime("%Y-%m-%d %H:%M UTC")
    if zone:
        local = utc.astimezone(_zone(zone))
        out += f" ({local.strftime('%Y-%m-%d %H:%M %Z')}, {zone})"
    return out


def game_schedule(game) -> Schedule:
    """The :class:`Schedule` of a game row (``pbem.store.models.Game``): from its
    ``schedule_json``, or for a game created before schema 0003 the legacy one of its
    ``deadline_seconds`` and ``short_deadline_seconds``. Also re-exported by
    pbem.engine.gamestate."""
    if game.schedule_json:
        return _schedule_of(game.schedule_json)
    return Schedule.legacy(game.deadline_seconds, game.short_deadline_seconds)


@lru_cache(maxsize=256)
def _schedule_of(text: str) -> Schedule:
    """The Schedule of a ``schedule_json`` text (immutable, so shared between calls)."""
    return Schedule.from_json(json.loads(text))
