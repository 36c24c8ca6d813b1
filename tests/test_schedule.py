"""pbem.engine.schedule: deadline rules, daylight saving, reminders, the downtime guard.

Every expected UTC time is written literally, derived in its comment from facts that do not come
from the code: Europe/Paris is UTC+1 (CET) in winter and UTC+2 (CEST) in summer, changing on
2026-03-29 at 01:00 UTC (02:00 CET -> 03:00 CEST) and 2026-10-25 at 01:00 UTC (03:00 CEST ->
02:00 CET); America/New_York is UTC-5 (EST) / UTC-4 (EDT), changing on 2026-03-08 at 07:00 UTC
(02:00 EST -> 03:00 EDT) and 2026-11-01 at 06:00 UTC (02:00 EDT -> 01:00 EST). 2026-01-11 and
2026-07-12 are Sundays, so are 2026-03-08, 2026-03-29, 2026-10-25 (Jul 12 + 15 weeks) and
2026-11-01; 2026-01-12 is a Monday.
"""

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.engine.schedule import (DeadlineRule, Schedule, ScheduleError, downtime_guard,
                                  format_leads, format_when, missed_by_downtime, parse_leads,
                                  reminders_due)


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=timezone.utc)


def weekly(days, hour, minute) -> DeadlineRule:
    return DeadlineRule("weekly", days=frozenset(days), hour=hour, minute=minute)


# -- parsing and formatting ----------------------------------------------------------------------

@pytest.mark.parametrize("text,rule", [
    ("72h", DeadlineRule("after", seconds=259200)),
    ("3d", DeadlineRule("after", seconds=259200)),
    ("1d12h", DeadlineRule("after", seconds=129600)),
    ("90m", DeadlineRule("after", seconds=5400)),
    ("daily 20:00", weekly(range(7), 20, 0)),
    ("sun 23:55", weekly([6], 23, 55)),
    ("Sunday 23:55", weekly([6], 23, 55)),
    ("  SUN   9:05 ", weekly([6], 9, 5)),
    ("mon,thu 21:00", weekly([0, 3], 21, 0)),
    ("thu, Monday 21:00", weekly([0, 3], 21, 0)),
    ("mon-fri 18:00", weekly(range(5), 18, 0)),
    ("fri-mon 00:00", weekly([4, 5, 6, 0], 0, 0)),           # a range may wrap round the week
    ("mon-wed,sat 07:30", weekly([0, 1, 2, 5], 7, 30)),
    ("weekdays 18:00", weekly(range(5), 18, 0)),
    ("weekends 12:00", weekly([5, 6], 12, 0)),
    ("mon-sun 20:00", weekly(range(7), 20, 0)),
])
def test_parse(text, rule):
    assert DeadlineRule.parse(text) == rule


@pytest.mark.parametrize("text,canonical", [
    ("72h", "3d"), ("1d12h", "1d12h"), ("90m", "1h30m"), ("sun 23:55", "sun 23:55"),
    ("thu,mon 21:00", "mon,thu 21:00"), ("mon-fri 18:00", "mon,tue,wed,thu,fri 18:00"),
    ("mon-sun 8:00", "daily 08:00"), ("weekends 12:00", "sat,sun 12:00"),
])
def test_format_is_canonical(text, canonical):
    assert DeadlineRule.parse(text).format() == canonical


rules = st.one_of(
    st.builds(lambda s: DeadlineRule("after", seconds=s), st.integers(1, 366 * 86400)),
    st.builds(weekly, st.frozensets(st.integers(0, 6), min_size=1), st.integers(0, 23),
              st.integers(0, 59)))


@given(rules)
def test_parse_format_round_trip(rule):
    assert DeadlineRule.parse(rule.format()) == rule


@pytest.mark.parametrize("text,expected", [
    ("sun 25:00", "expected a 24-hour time HH:MM from 00:00 to 23:59"),
    ("sun 23:60", "expected a 24-hour time HH:MM from 00:00 to 23:59"),
    ("sonntag 20:00", "expected days such as sun, mon,thu, mon-fri, daily, weekdays or weekends"),
    ("mon,,thu 21:00", "found ''"),
    ("mon-tue-wed 10:00", "found 'mon-tue-wed'"),
    ("every sun 20:00", "expected a duration such as 72h"),
    ("20:00", "expected a duration such as 72h"),
    ("sun", "expected a duration such as 72h"),
    ("", "expected a duration such as 72h"),
    ("0h", "expected a duration such as 72h"),
    ("72", "expected a duration such as 72h"),
    ("sun 8pm", "expected a duration such as 72h"),
    ("367d", "expected at most 366d"),
])
def test_bad_rules_quote_the_input(text, expected):
    with pytest.raises(ScheduleError) as e:
        DeadlineRule.parse(text)
    assert str(e.value).startswith(f"deadline {text!r}: ")
    assert expected in str(e.value)


@pytest.mark.parametrize("kwargs", [
    dict(kind="later", seconds=60), dict(kind="after"), dict(kind="after", seconds=-5),
    dict(kind="after", seconds=60, days=frozenset({1})), dict(kind="weekly", hour=20),
    dict(kind="weekly", days=frozenset({7})), dict(kind="weekly", days=frozenset({1}), hour=24),
    dict(kind="weekly", days=frozenset({1}), minute=60),
])
def test_bad_rules_cannot_be_built(kwargs):
    with pytest.raises(ScheduleError, match="expected kind 'after'"):
        DeadlineRule(**kwargs)


# -- deadlines ------------------------------------------------------------------------------------

SUN_2355 = DeadlineRule.parse("sun 23:55")


def test_sunday_in_january_and_july():
    # Thursday 2026-01-08 -> Sunday 2026-01-11 23:55 CET (UTC+1) = 22:55 UTC
    assert SUN_2355.deadline(utc(2026, 1, 8, 12), "Europe/Paris") == utc(2026, 1, 11, 22, 55)
    # Thursday 2026-07-09 -> Sunday 2026-07-12 23:55 CEST (UTC+2) = 21:55 UTC
    assert SUN_2355.deadline(utc(2026, 7, 9, 12), "Europe/Paris") == utc(2026, 7, 12, 21, 55)
    # without a zone the time is read in UTC
    assert SUN_2355.deadline(utc(2026, 1, 8, 12), None) == utc(2026, 1, 11, 23, 55)


def test_results_are_utc():
    got = SUN_2355.deadline(datetime(2026, 1, 8, 13, tzinfo=ZoneInfo("Europe/Paris")), "Europe/Paris")
    assert got.tzinfo is timezone.utc and got == utc(2026, 1, 11, 22, 55)


@pytest.mark.parametrize("rule,zone,opened,expected", [
    # Paris, spring: 02:30 on 2026-03-29 never shows; read with CET (UTC+1): 01:30 UTC (03:30 CEST)
    ("sun 02:30", "Europe/Paris", utc(2026, 3, 28, 12), utc(2026, 3, 29, 1, 30)),
    # 02:00 is the change itself: CET reading 01:00 UTC, the instant the clocks show 03:00 CEST
    ("sun 02:00", "Europe/Paris", utc(2026, 3, 28, 12), utc(2026, 3, 29, 1, 0)),
    # 03:00 CEST exists: 01:00 UTC as well
    ("sun 03:00", "Europe/Paris", utc(2026, 3, 28, 12), utc(2026, 3, 29, 1, 0)),
    # 01:59 CET is still before the change: 00:59 UTC
    ("sun 01:59", "Europe/Paris", utc(2026, 3, 28, 12), utc(2026, 3, 29, 0, 59)),
    # a week later it is plain CEST: 2026-04-05 02:30 CEST = 00:30 UTC
    ("sun 02:30", "Europe/Paris", utc(2026, 3, 29, 1, 30), utc(2026, 4, 5, 0, 30)),
    # Paris, autumn: 02:30 on 2026-10-25 shows at 00:30 UTC (CEST) and 01:30 UTC (CET): the second
    ("sun 02:30", "Europe/Paris", utc(2026, 10, 24, 12), utc(2026, 10, 25, 1, 30)),
    # opened between the two readings: still the second one
    ("sun 02:30", "Europe/Paris", utc(2026, 10, 25, 0, 45), utc(2026, 10, 25, 1, 30)),
    # opened at the second reading: strictly after, so next Sunday 02:30 CET = 01:30 UTC
    ("sun 02:30", "Europe/Paris", utc(2026, 10, 25, 1, 30), utc(2026, 11, 1, 1, 30)),
    # 02:00 happens twice too (00:00 UTC CEST, 01:00 UTC CET): the second
    ("sun 02:00", "Europe/Paris", utc(2026, 10, 24, 12), utc(2026, 10, 25, 1, 0)),
    # 03:00 CET happens once: 02:00 UTC
    ("sun 03:00", "Europe/Paris", utc(2026, 10, 24, 12), utc(2026, 10, 25, 2, 0)),
    # New York, spring: 02:30 on 2026-03-08 never shows; read with EST (UTC-5): 07:30 UTC
    ("sun 02:30", "America/New_York", utc(2026, 3, 7, 12), utc(2026, 3, 8, 7, 30)),
    ("daily 02:30", "America/New_York", utc(2026, 3, 7, 12), utc(2026, 3, 8, 7, 30)),
    # the day before is plain EST (02:30 EST = 07:30 UTC), the day after plain EDT (06:30 UTC)
    ("daily 02:30", "America/New_York", utc(2026, 3, 6, 12), utc(2026, 3, 7, 7, 30)),
    ("daily 02:30", "America/New_York", utc(2026, 3, 8, 7, 30), utc(2026, 3, 9, 6, 30)),
    # New York, autumn: 01:30 on 2026-11-01 shows at 05:30 UTC (EDT) and 06:30 UTC (EST): the second
    ("sun 01:30", "America/New_York", utc(2026, 10, 31, 12), utc(2026, 11, 1, 6, 30)),
    # 01:00 happens at 05:00 UTC (EDT) and 06:00 UTC (EST): the second
    ("daily 01:00", "America/New_York", utc(2026, 10, 31, 12), utc(2026, 11, 1, 6, 0)),
    # 00:59 EDT happens once: 04:59 UTC
    ("daily 00:59", "America/New_York", utc(2026, 10, 31, 12), utc(2026, 11, 1, 4, 59)),
])
def test_daylight_saving(rule, zone, opened, expected):
    assert DeadlineRule.parse(rule).deadline(opened, zone) == expected


def test_min_window_pushes_to_the_next_occurrence():
    # opened Sunday 2026-01-11 23:00 CET = 22:00 UTC; this Sunday's 23:55 CET (22:55 UTC) is only
    # 55 minutes away
    opened = utc(2026, 1, 11, 22, 0)
    assert SUN_2355.deadline(opened, "Europe/Paris") == utc(2026, 1, 11, 22, 55)
    # with 24h it must be after 2026-01-12 22:00 UTC: next Sunday 2026-01-18 23:55 CET = 22:55 UTC
    assert SUN_2355.deadline(opened, "Europe/Paris", 86400) == utc(2026, 1, 18, 22, 55)
    # 55 minutes exactly is not enough (strictly after); 54 minutes is
    assert SUN_2355.deadline(opened, "Europe/Paris", 55 * 60) == utc(2026, 1, 18, 22, 55)
    assert SUN_2355.deadline(opened, "Europe/Paris", 54 * 60) == utc(2026, 1, 11, 22, 55)


def test_after_with_min_window():
    opened = utc(2026, 1, 11, 20, 15)
    day = DeadlineRule.parse("24h")
    assert day.deadline(opened, None) == utc(2026, 1, 12, 20, 15)                 # + 24h
    assert day.deadline(opened, "Europe/Paris", 2 * 86400) == utc(2026, 1, 13, 20, 15)  # + 48h
    assert DeadlineRule.parse("72h").deadline(opened, None, 2 * 86400) == utc(2026, 1, 14, 20, 15)
    # across the spring change an 'after' rule counts real hours: 2026-03-28 12:00 UTC + 24h
    assert day.deadline(utc(2026, 3, 28, 12), "Europe/Paris") == utc(2026, 3, 29, 12)


def test_after_rounds_up_to_a_whole_second():
    opened = utc(2026, 1, 11, 12, 0, 0, 500000)
    assert DeadlineRule.parse("1h").deadline(opened, None) == utc(2026, 1, 11, 13, 0, 1)
    assert DeadlineRule.parse("1h").deadline(utc(2026, 1, 11, 12), None) == utc(2026, 1, 11, 13)


@pytest.mark.parametrize("rule,zone,opened,expected", [
    # opened Tuesday 2026-01-13: Thursday 2026-01-15 21:00 CET = 20:00 UTC comes before Monday
    ("mon,thu 21:00", "Europe/Paris", utc(2026, 1, 13, 12), utc(2026, 1, 15, 20, 0)),
    # opened Friday 2026-01-16: Monday 2026-01-19 21:00 CET = 20:00 UTC
    ("mon,thu 21:00", "Europe/Paris", utc(2026, 1, 16, 12), utc(2026, 1, 19, 20, 0)),
    # opened Thursday 2026-01-15 20:30 UTC = 21:30 CET, just after Thursday's: Monday's
    ("mon,thu 21:00", "Europe/Paris", utc(2026, 1, 15, 20, 30), utc(2026, 1, 19, 20, 0)),
    # Friday 2026-01-16 23:30 UTC = 18:30 EST, after Friday's 18:00: Monday 18:00 EST = 23:00 UTC
    ("mon-fri 18:00", "America/New_York", utc(2026, 1, 16, 23, 30), utc(2026, 1, 19, 23, 0)),
    # Saturday 2026-01-17 03:00 UTC is still Friday 22:00 EST in New York: Monday again
    ("mon-fri 18:00", "America/New_York", utc(2026, 1, 17, 3), utc(2026, 1, 19, 23, 0)),
    # Sunday 2026-01-11 23:30 UTC is Monday 00:30 CET in Paris: Monday's 21:00 CET = 20:00 UTC
    ("mon 21:00", "Europe/Paris", utc(2026, 1, 11, 23, 30), utc(2026, 1, 12, 20, 0)),
])
def test_multi_day_rules_choose_the_nearest_day(rule, zone, opened, expected):
    assert DeadlineRule.parse(rule).deadline(opened, zone) == expected


def test_opened_exactly_at_a_scheduled_time_takes_the_next():
    assert DeadlineRule.parse("daily 20:00").deadline(utc(2026, 1, 11, 20), None) == utc(2026, 1, 12, 20)
    # 2026-01-11 22:55 UTC is Sunday 23:55 CET: the next is a week later
    assert SUN_2355.deadline(utc(2026, 1, 11, 22, 55), "Europe/Paris") == utc(2026, 1, 18, 22, 55)
    # one second earlier it is this one
    assert SUN_2355.deadline(utc(2026, 1, 11, 22, 54, 59), "Europe/Paris") == utc(2026, 1, 11, 22, 55)


@pytest.mark.parametrize("zone", ["Mars/Base", "Europe", "/etc/passwd", "../Europe/Paris",
                                  "zone.tab"])
def test_unknown_zones(zone):
    for call in (lambda: SUN_2355.deadline(utc(2026, 1, 8), zone),
                 lambda: DeadlineRule.parse("24h").deadline(utc(2026, 1, 8), zone),
                 lambda: format_when(utc(2026, 1, 8), zone),
                 lambda: Schedule(SUN_2355, SUN_2355, zone=zone)):
        with pytest.raises(ScheduleError) as e:
            call()
        assert str(e.value) == (f"time zone {zone!r}: expected an IANA name such as "
                                "Europe/Paris or America/New_York")


def test_bad_opening_times_and_min_windows():
    with pytest.raises(ScheduleError, match="expected a zone-aware datetime"):
        SUN_2355.deadline(datetime(2026, 1, 8), None)
    with pytest.raises(ScheduleError, match=r"min_window -1: expected whole seconds >= 0"):
        SUN_2355.deadline(utc(2026, 1, 8), None, -1)


ZONES = ["UTC", "Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata",
         "America/St_Johns", "Pacific/Chatham", "Europe/Dublin", "America/Santiago"]


@settings(max_examples=300, deadline=None)
@given(rule=rules.filter(lambda r: r.kind == "weekly"), zone=st.sampled_from(ZONES),
       opened=st.datetimes(datetime(2000, 1, 1), datetime(2037, 12, 31), timezones=st.just(timezone.utc)),
       min_window=st.sampled_from([0, 60, 3600, 86400, 8 * 86400]))
def test_weekly_deadlines_are_the_next_scheduled_time(rule, zone, opened, min_window):
    earliest = opened + timedelta(seconds=min_window)
    got = rule.deadline(opened, zone, min_window)
    assert earliest < got <= earliest + timedelta(days=7, hours=3)
    assert got.microsecond == 0 and got.second == 0 and got.tzinfo is timezone.utc
    tz = ZoneInfo(zone)
    local = got.astimezone(tz)
    wall = local.replace(hour=rule.hour, minute=rule.minute, tzinfo=None)
    if (local.hour, local.minute) != (rule.hour, rule.minute):
        # only a wall time the clocks skipped may read differently, and then later on the clock
        assert wall.replace(tzinfo=tz).astimezone(timezone.utc).astimezone(tz).replace(tzinfo=None) != wall
        assert local.replace(tzinfo=None) > wall
    assert local.weekday() in rule.days or local.replace(tzinfo=None) > wall
    # nothing scheduled in between: a window opened a second earlier gets the same deadline,
    # one opened at the deadline gets a later one
    assert rule.deadline(got - timedelta(seconds=1), zone) == got
    assert rule.deadline(got, zone) > got


# -- schedules ------------------------------------------------------------------------------------

def test_schedule_json_round_trip():
    s = Schedule(SUN_2355, DeadlineRule.parse("24h"), zone="Europe/Paris", grace=43200,
                 min_window=0, close_early=True, remind=(7200, 86400))
    obj = s.to_json()
    assert obj == {"deadline": "sun 23:55", "short_deadline": "1d", "zone": "Europe/Paris",
                   "grace": 43200, "min_window": 0, "close_early": True, "remind": [86400, 7200]}
    assert Schedule.from_json(obj) == s
    assert s.remind == (86400, 7200)                        # largest first
    minimal = Schedule.from_json({"deadline": "72h", "short_deadline": "mon-fri 18:00"})
    assert minimal == Schedule(DeadlineRule("after", seconds=259200), weekly(range(5), 18, 0))
    assert minimal.zone is None and minimal.grace == 0 and minimal.remind == (86400,)
    assert minimal.close_early is True and Schedule.from_json(minimal.to_json()) == minimal


@pytest.mark.parametrize("obj,expected", [
    ({"deadline": "72h"}, "expected an object with deadline and short_deadline"),
    ({"deadline": "72h", "short_deadline": "sun 25:00"}, "deadline 'sun 25:00': expected a 24-hour"),
    ({"deadline": "72h", "short_deadline": "1d", "grace": "12h"}, "grace '12h': expected whole seconds"),
    ({"deadline": "72h", "short_deadline": "1d", "min_window": -1}, "min_window -1: expected"),
    ({"deadline": "72h", "short_deadline": "1d", "close_early": "yes"}, "close_early 'yes': expected"),
    ({"deadline": "72h", "short_deadline": "1d", "remind": [0]}, "remind [0]: expected lead times"),
    ({"deadline": "72h", "short_deadline": "1d", "remind": "24h"}, "remind '24h': expected lead"),
    ({"deadline": "72h", "short_deadline": "1d", "zone": "Mars/Base"}, "time zone 'Mars/Base'"),
])
def test_bad_schedules(obj, expected):
    with pytest.raises(ScheduleError) as e:
        Schedule.from_json(obj)
    assert expected in str(e.value)


def test_legacy_schedule_behaves_as_before():
    s = Schedule.legacy(259200, 86400)
    assert s == Schedule(DeadlineRule("after", seconds=259200), DeadlineRule("after", seconds=86400),
                         zone=None, grace=0, min_window=0, close_early=True, remind=())
    opened = utc(2026, 1, 11, 20, 15)
    assert s.deadline_for(opened, short=False) == utc(2026, 1, 14, 20, 15)     # + 72h
    assert s.deadline_for(opened, short=True) == utc(2026, 1, 12, 20, 15)      # + 24h
    assert s.closes_at(utc(2026, 1, 14, 20, 15)) == utc(2026, 1, 14, 20, 15)


def test_deadline_for_and_closes_at():
    s = Schedule(SUN_2355, DeadlineRule.parse("daily 20:00"), zone="Europe/Paris", grace=43200,
                 min_window=86400)
    # opened Sunday 2026-01-11 12:00 UTC; min window 24h: Sunday 2026-01-18 23:55 CET = 22:55 UTC
    assert s.deadline_for(utc(2026, 1, 11, 12), short=False) == utc(2026, 1, 18, 22, 55)
    # short: after 2026-01-12 12:00 UTC, the next 20:00 CET is Monday's = 19:00 UTC
    assert s.deadline_for(utc(2026, 1, 11, 12), short=True) == utc(2026, 1, 12, 19, 0)
    # grace 12h: 22:55 UTC + 12h = 10:55 UTC the next day
    assert s.closes_at(utc(2026, 1, 18, 22, 55)) == utc(2026, 1, 19, 10, 55)


# -- reminders ------------------------------------------------------------------------------------

def test_parse_leads():
    assert parse_leads("24h,2h") == (86400, 7200)
    assert parse_leads("2h, 24h,2h") == (86400, 7200)
    assert parse_leads("90m") == (5400,)
    assert parse_leads("none") == parse_leads(" NONE ") == ()
    assert format_leads((7200, 86400)) == "1d,2h" and parse_leads("1d,2h") == (86400, 7200)
    assert format_leads(()) == "none"


@pytest.mark.parametrize("text", ["24h,x", "24h,", "-1h", "0h", "24h;2h", "never",
                                  "", "1h1h"])  # '' and '1h1h': a new referee's trial
def test_bad_leads_quote_the_input(text):
    with pytest.raises(ScheduleError) as e:
        parse_leads(text)
    assert str(e.value) == (f"reminder times {text!r}: expected durations before the deadline "
                            "such as 24h or 24h,2h (comma separated), or none")


D = utc(2026, 1, 11, 22, 55)
LEADS = (86400, 7200)
H = timedelta(hours=1)
S = timedelta(seconds=1)


@pytest.mark.parametrize("opened,sent,now,due", [
    (D - 72 * H, set(), D - 24 * H - S, []),                  # not yet
    (D - 72 * H, set(), D - 24 * H, [86400]),                 # exactly at deadline - lead
    (D - 72 * H, {86400}, D - 3 * H, []),
    (D - 72 * H, {86400}, D - 2 * H, [7200]),
    (D - 72 * H, set(), D - 2 * H, [7200, 86400]),            # both missed: smallest first
    (D - 72 * H, set(), D - S, [7200, 86400]),
    (D - 72 * H, set(), D, []),                               # at the deadline: too late
    (D - 72 * H, set(), D + H, []),
    (D - 72 * H, {7200, 86400}, D - S, []),
    (D - 3 * H, set(), D - 150 * 60 * S, []),                 # opened inside the 24h lead
    (D - 3 * H, set(), D - 2 * H, [7200]),
    (D - 2 * H, set(), D - H, []),                            # opened exactly at deadline - 2h
    (D - 2 * H - S, set(), D - H, [7200]),
])
def test_reminders_due(opened, sent, now, due):
    assert reminders_due(opened, D, LEADS, sent, now) == due


def test_no_leads_no_reminders():
    assert reminders_due(D - 72 * H, D, (), set(), D - H) == []


# -- downtime -------------------------------------------------------------------------------------

C = utc(2026, 1, 12, 10, 55)


@pytest.mark.parametrize("last_run,now,missed", [
    (None, C + 3601 * S, True),
    (None, C + 3600 * S, False),                              # not more than the guard
    (C - 5 * 60 * S, C + 2 * H, True),                        # last run before closing, none since
    (C, C + 2 * H, False),                                    # a run at the closing time saw it
    (C + 60 * S, C + 2 * H, False),
    (C - 5 * 60 * S, C + 60 * S, False),                      # a short gap: cron was late
    (C - 2 * H, C - H, False),                                # not closed yet
])
def test_missed_by_downtime(last_run, now, missed):
    assert missed_by_downtime(C, last_run, now, 3600) is missed


def test_downtime_guard():
    assert downtime_guard(0) == 3600 and downtime_guard(1800) == 3600
    assert downtime_guard(43200) == 43200


# -- display --------------------------------------------------------------------------------------

def test_format_when():
    assert format_when(utc(2026, 1, 11, 22, 55), "Europe/Paris") == \
        "2026-01-11 22:55 UTC (2026-01-11 23:55 CET, Europe/Paris)"
    assert format_when(utc(2026, 7, 12, 21, 55), "Europe/Paris") == \
        "2026-07-12 21:55 UTC (2026-07-12 23:55 CEST, Europe/Paris)"
    # 2026-01-12 03:00 UTC is 22:00 EST the day before
    assert format_when(utc(2026, 1, 12, 3), "America/New_York") == \
        "2026-01-12 03:00 UTC (2026-01-11 22:00 EST, America/New_York)"
    assert format_when(utc(2026, 1, 11, 22, 55), None) == "2026-01-11 22:55 UTC"
    assert format_when(datetime(2026, 1, 11, 23, 55, tzinfo=ZoneInfo("Europe/Paris")), None) == \
        "2026-01-11 22:55 UTC"


def test_docs_quote_the_code():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "deadlines.md").read_text(encoding="utf-8")
    for call in (lambda: DeadlineRule.parse("sun 25:00"),
                 lambda: format_when(utc(2026, 1, 8), "Mars/Base")):
        with pytest.raises(ScheduleError) as e:
            call()
        assert f"`{e.value}`" in doc
    assert format_when(utc(2026, 1, 11, 22, 55), "Europe/Paris") in doc
    for text, canonical in (("72h", "3d"), ("90m", "1h30m"), ("thu,mon 21:00", "mon,thu 21:00"),
                            ("mon-fri 18:00", "mon,tue,wed,thu,fri 18:00")):
        assert f"`{text}` becomes `{canonical}`" in doc
        assert DeadlineRule.parse(text).format() == canonical


def test_a_zone_written_into_the_deadline_points_to_tz():
    """A new referee's trial wrote --deadline 'sun 23:55 Europe/Paris'."""
    with pytest.raises(ScheduleError, match=r"--tz Europe/Paris\)$"):
        DeadlineRule.parse("sun 23:55 Europe/Paris")


def test_a_range_from_a_day_to_itself_is_refused():
    """A new referee's trial: 'mon-mon 18:00' was taken (as Monday alone)."""
    with pytest.raises(ScheduleError, match="starts and ends on the same day"):
        DeadlineRule.parse("mon-mon 18:00")
