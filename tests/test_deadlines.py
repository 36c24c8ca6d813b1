"""Deadlines as games schedule them, in the adjudication loop (issue 8, "Deadlines as games
schedule them"; docs/deadlines.md): wall-clock deadlines in the game's zone, grace and late
players, close-early and ``wait: yes``, the minimum window, reminders and the downtime guard.

Times are computed here from the test clock's start, 2026-11-29 20:00 UTC (a Sunday; Paris is
UTC+1 in winter), never read back from the code under test."""

import email
import email.policy
import json
from datetime import datetime, timedelta, timezone

import pytest
from conftest import START, incoming

from pbem.engine.creation import GameSpec
from pbem.engine.schedule import DeadlineRule, Schedule

H = timedelta(hours=1)


def make(referee, players, schedule, game_id="d1", zones=None):
    specs = []
    for role in ("red", "blue"):
        spec = players[role].spec()
        if zones and role in zones:
            from dataclasses import replace

            spec = replace(spec, zone=zones[role])
        specs.append(spec)
    referee.new_game(GameSpec(ruleset="hunt", game_id=game_id, players=tuple(specs), options={},
                              schedule=schedule))
    return game_id


def sched(**kw):
    base = dict(deadline=DeadlineRule.parse("72h"), short_deadline=DeadlineRule.parse("24h"),
                remind=())
    base.update(kw)
    return Schedule(**base)


def send(referee, player, clock, game="d1", body="dig 5", wait=None):
    from pbem.crypto.envelope import sign_text

    text = player.text(game, 1, "dig", body, issued=clock())
    if wait is not None:
        text = text.replace(f"role: {player.role}\n", f"role: {player.role}\nwait: {wait}\n")
    v = referee.ingest([incoming(sign_text(text, player.key))])
    assert v[0].status == "accepted", v[0].summary()


def at(clock, delta):
    clock.now = START + delta


def deadline_of(referee, game="d1"):
    return datetime.fromisoformat(referee.status(game)[0]["window"]["deadline"]
                                  .replace("Z", "+00:00"))


def mails(referee, tmp_path, name):
    referee.outbox(tmp_path / name)
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted((tmp_path / name).glob("*.eml"))]


def public_events(referee, game="d1"):
    return [json.loads(line) for line in referee.log_lines(game)
            if json.loads(line)["type"] == "event"]


# ---------------------------------------------------------------- wall-clock deadlines

def test_sunday_2355_paris_is_2255_utc_in_winter(referee, players):
    # created Sunday 2026-11-29 20:00 UTC = 21:00 CET: the next Sunday 23:55 CET is the same
    # evening, 22:55 UTC
    make(referee, players, sched(deadline=DeadlineRule.parse("sun 23:55"), zone="Europe/Paris"))
    assert deadline_of(referee) == datetime(2026, 11, 29, 22, 55, tzinfo=timezone.utc)
    w = referee.status("d1")[0]["window"]
    assert w["deadline_text"] == "2026-11-29 22:55 UTC (2026-11-29 23:55 CET, Europe/Paris)"


def test_min_window_pushes_a_wall_clock_deadline_to_the_next_week(referee, players):
    make(referee, players, sched(deadline=DeadlineRule.parse("sun 23:55"), zone="Europe/Paris",
                                 min_window=24 * 3600))
    assert deadline_of(referee) == datetime(2026, 12, 6, 22, 55, tzinfo=timezone.utc)


# ---------------------------------------------------------------- grace and late players

def test_late_orders_within_the_grace_are_used_and_the_late_player_named(referee, players,
                                                                         clock):
    make(referee, players, sched(grace=12 * 3600))
    send(referee, players["red"], clock)
    at(clock, 72 * H + 1 * H)  # an hour past the deadline: in the grace
    assert referee.process("d1") == []
    at(clock, 72 * H + 2 * H)
    send(referee, players["blue"], clock)
    (res,) = referee.process("d1")
    assert res.phase == "1.dig" and res.nmr == []
    late = [e for e in public_events(referee) if e["kind"] == "late"]
    assert late and late[0]["data"]["roles"] == ["blue"]
    assert "2026-12-02T20:00:00Z" in late[0]["text"]  # START + 72 h
    assert "Orders of blue arrived after the deadline" in referee.report("d1", "red")


def test_at_the_end_of_the_grace_missing_orders_are_nmr(referee, players, clock):
    make(referee, players, sched(grace=12 * 3600))
    send(referee, players["red"], clock)
    at(clock, 80 * H)
    assert referee.process("d1") == []  # deadline + 8 h: still in the grace
    at(clock, 84 * H)  # deadline + 12 h: the grace ends
    (res,) = referee.process("d1")
    assert res.nmr == ["blue"]
    nmr = [e for e in public_events(referee) if e["kind"] == "nmr"][0]
    assert "the deadline (2026-12-02T20:00:00Z) passed" in nmr["text"]


def test_a_forced_window_says_the_referee_closed_it(referee, players, clock):
    make(referee, players, sched())
    send(referee, players["red"], clock)
    (res,) = referee.process("d1", force=True)
    nmr = [e for e in public_events(referee) if e["kind"] == "nmr"][0]
    assert "the referee closed the window before its deadline" in nmr["text"]
    assert "deadline (2026-12-02T20:00:00Z) passed" not in nmr["text"]


def test_the_report_shows_the_grace_in_utc_and_the_readers_zone(referee, players):
    make(referee, players, sched(grace=12 * 3600), zones={"red": "Europe/Paris"})
    text = referee.report("d1", "red")
    # deadline START + 72 h = 2026-12-02 20:00 UTC = 21:00 CET; grace end 12 h later
    assert "Deadline: 2026-12-02 20:00 UTC = 2026-12-02 21:00 CET (Europe/Paris)" in text
    # the line is wrapped at 78 columns (the text report is the mail body)
    assert "orders are still taken until 2026-12-03 08:00 UTC = 2026-12-03 09:00 CET" in \
        " ".join(text.split())


# ---------------------------------------------------------------- closing early

def test_close_early_no_holds_the_window_to_its_deadline(referee, players, clock):
    make(referee, players, sched(close_early=False))
    send(referee, players["red"], clock)
    send(referee, players["blue"], clock)
    at(clock, 1 * H)
    assert referee.process("d1") == []
    at(clock, 72 * H)
    (res,) = referee.process("d1")
    assert res.nmr == []


def test_wait_yes_holds_the_window_open_and_a_later_wait_no_releases_it(referee, players,
                                                                       clock):
    make(referee, players, sched())
    send(referee, players["red"], clock, wait="yes")
    send(referee, players["blue"], clock)
    at(clock, 1 * H)
    assert referee.process("d1") == []
    assert referee.status("d1")[0]["window"]["wait"] == ["red"]  # why it stays open
    at(clock, 2 * H)
    send(referee, players["red"], clock, body="dig 6", wait="no")  # corrected orders
    (res,) = referee.process("d1")
    assert res.phase == "1.dig"


def test_wait_with_another_value_is_refused_naming_the_line(referee, players, clock):
    from pbem.crypto.envelope import sign_text

    make(referee, players, sched())
    text = players["red"].text("d1", 1, "dig", "dig 5", issued=clock())
    text = text.replace("role: red\n", "role: red\nwait: maybe\n")
    (v,) = referee.ingest([incoming(sign_text(text, players["red"].key))])
    assert v.status == "rejected"
    assert "expected 'wait: yes'" in v.summary() + " ".join(v.problems) + v.reason


def test_min_window_keeps_an_early_window_open(referee, players, clock):
    make(referee, players, sched(min_window=48 * 3600))
    send(referee, players["red"], clock)
    send(referee, players["blue"], clock)
    at(clock, 47 * H)
    assert referee.process("d1") == []
    at(clock, 48 * H)
    assert referee.process("d1")[0].phase == "1.dig"


# ---------------------------------------------------------------- reminders

def test_reminders_go_once_per_lead_time_to_who_owes_orders(referee, players, clock, tmp_path):
    make(referee, players, sched(remind=(86400, 7200)), zones={"blue": "Europe/Paris"})
    mails(referee, tmp_path, "setup")
    send(referee, players["red"], clock)
    mails(referee, tmp_path, "receipt")
    at(clock, 47 * H)
    assert referee.process("d1") == []
    at(clock, 48 * H)  # 24 h before the deadline (START + 72 h)
    (rem,) = referee.process("d1")
    assert (rem.roles, rem.lead) == (["blue"], 86400)
    (m,) = mails(referee, tmp_path, "r24")
    assert m["To"] == players["blue"].email and "reminder" in m["Subject"]
    body = m.get_body().get_content().replace('\r\n', '\n')
    assert "2026-12-02 20:00 UTC (2026-12-02 21:00 CET, Europe/Paris)" in body
    assert "about 24 hours" in body
    assert "game: d1\nturn: 1\nphase: dig\nrole: blue\n" in body
    at(clock, 49 * H)
    assert referee.process("d1") == [] and mails(referee, tmp_path, "none") == []
    at(clock, 70 * H)
    (rem,) = referee.process("d1")
    assert rem.lead == 7200 and "about 2 hours" in \
        mails(referee, tmp_path, "r2")[0].get_body().get_content().replace('\r\n', '\n')


def test_a_run_after_both_lead_times_sends_one_reminder(referee, players, clock, tmp_path):
    make(referee, players, sched(remind=(86400, 7200)))
    mails(referee, tmp_path, "setup")
    at(clock, 71 * H)
    (rem,) = referee.process("d1")
    assert rem.lead == 7200 and sorted(rem.roles) == ["blue", "red"]
    assert len(mails(referee, tmp_path, "r")) == 2
    at(clock, 71 * H + 30 * timedelta(minutes=1))
    assert referee.process("d1") == []


def test_a_paused_game_gets_no_reminders_and_is_not_resolved(referee, players, clock):
    make(referee, players, sched(remind=(86400,)))
    with referee.db.write() as s:
        from pbem.store import repo

        g = repo.get_game(s, "d1")
        g.paused_at = clock()
        s.add(g)
    at(clock, 100 * H)
    assert referee.process("d1") == []


# ---------------------------------------------------------------- the downtime guard

def test_after_an_outage_the_deadline_moves_instead_of_nmr(referee, players, clock, tmp_path):
    make(referee, players, sched(), zones={"blue": "Europe/Paris"})
    mails(referee, tmp_path, "setup")
    send(referee, players["red"], clock)
    mails(referee, tmp_path, "receipt")
    at(clock, 1 * H)
    assert referee.process() == []  # the last run before the outage
    at(clock, 75 * H)  # the deadline (72 h) passed 3 h ago, with no run since hour 1
    (post,) = referee.process()
    assert post.phase == "1.dig" and post.missing == ["blue"]
    assert post.deadline == START + 76 * H  # now + max(grace 0, 1 h)
    assert deadline_of(referee) == START + 76 * H
    notices = mails(referee, tmp_path, "notices")
    assert sorted(m["To"] for m in notices) == sorted(p.email for p in
                                                      (players["red"], players["blue"]))
    blue = next(m for m in notices if m["To"] == players["blue"].email)
    assert "2026-12-03 00:00 UTC (2026-12-03 01:00 CET, Europe/Paris)" in \
        blue.get_body().get_content().replace('\r\n', '\n')
    moved = [json.loads(x) for x in referee.log_lines("d1") if '"deadline-moved"' in x]
    assert moved and moved[0]["deadline"] == "2026-12-03T00:00:00Z"
    # the next run, past the moved deadline, resolves (cron ran meanwhile)
    at(clock, 76 * H + timedelta(minutes=5))
    (res,) = referee.process()
    assert res.nmr == ["blue"]


def test_accept_late_resolves_after_an_outage(referee, players, clock):
    make(referee, players, sched())
    send(referee, players["red"], clock)
    at(clock, 1 * H)
    referee.process()
    at(clock, 75 * H)
    (res,) = referee.process(accept_late=True)
    assert res.nmr == ["blue"]


def test_a_run_right_after_the_deadline_is_no_outage(referee, players, clock):
    make(referee, players, sched())
    send(referee, players["red"], clock)
    at(clock, 71 * H)
    referee.process()
    at(clock, 72 * H + timedelta(minutes=5))
    (res,) = referee.process()
    assert res.nmr == ["blue"]


def test_the_guard_is_the_grace_when_longer_than_an_hour(referee, players, clock):
    make(referee, players, sched(grace=6 * 3600))
    send(referee, players["red"], clock)
    at(clock, 1 * H)
    referee.process()
    at(clock, 78 * H + 5 * H)  # closes at 78 h; 5 h later is within the 6 h guard
    (res,) = referee.process()
    assert res.nmr == ["blue"]
