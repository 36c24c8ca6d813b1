"""Issue 8, "The referee's commands": `pbem game extend|pause|resume|replace|set|end` and
`pbem resend`. Each change is a public log line with the referee's reason (never an e-mail
address), a notice to the players concerned, and a clear refusal when it does not apply.

Expected deadlines are computed here from the game's creation time and schedule, independently
of pbem; mail is read back as the players get it (the outbox composed into .eml files)."""

from __future__ import annotations

import email
import json
import re
from datetime import datetime, timedelta, timezone
from email import policy

import pytest
from click.testing import CliRunner
from conftest import START, Player, incoming

from pbem.cli import main
from pbem.engine.creation import GameSpec, PlayerSpec
from pbem.engine.errors import GameError, NotFound, PbemError
from pbem.engine.schedule import DeadlineRule, Schedule
from pbem.verify import verify_log

ZONE = "Europe/Paris"
FIRST_DEADLINE = START + timedelta(hours=72)  # the game's 72h rule, from its creation


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.fixture
def game(referee, players):
    """Game h1 of hunt: red (no zone) and blue (America/New_York); the game's zone is Paris,
    deadlines 72h after a window opens, reminders 24h and 2h before."""
    red, blue = players["red"], players["blue"]
    spec = GameSpec(ruleset="hunt", game_id="h1",
                    players=(red.spec(), PlayerSpec("blue", blue.email, blue.public_text,
                                                    "blue.pub", "America/New_York")),
                    options={}, referee_address="referee@judge.example",
                    schedule=Schedule(DeadlineRule("after", seconds=72 * 3600),
                                      DeadlineRule("after", seconds=24 * 3600), zone=ZONE,
                                      remind=(86400, 7200)))
    referee.new_game(spec)
    mail(referee)  # the setup reports
    return "h1"


def mail(referee) -> list:
    """The mail queued since the last call, delivered into a new folder of the referee's home
    and read back as players get it."""
    import itertools

    folder = next(f for f in (referee.home.path / f"mail-{i}" for i in itertools.count())
                  if not f.exists())
    paths = referee.outbox(folder)
    assert not referee.undeliverable, referee.undeliverable
    return [email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in paths]


def body(msg) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")


def is_report(msg) -> bool:
    """A report (text and the HTML report attached), not a notice."""
    return any(p.get_filename() == "report.html" for p in msg.iter_attachments())


def by_addr(msgs) -> dict:
    out = {}
    for m in msgs:
        out.setdefault(str(m["To"]), []).append(m)
    return out


def referee_lines(referee, game_id="h1") -> list[dict]:
    return [o for o in map(json.loads, referee.log_lines(game_id)) if o["type"] == "referee"]


def assert_log_clean(referee, game_id="h1"):
    """The log verifies and holds no e-mail address."""
    lines = referee.log_lines(game_id)
    report = verify_log(lines, "h1.jsonl")
    assert report.ok, report.summary()
    for line in lines:
        assert not re.search(r"@(players|judge|new|x)\.example", line), line
    return report


def window(referee, game_id="h1") -> dict | None:
    return referee.status(game_id)[0]["window"]


def phase_rows(referee, game_id="h1"):
    from pbem.store import repo

    with referee.db.read() as s:
        return repo.phases(s, game_id)


# ---------------------------------------------------------------- extend

def test_extend_by_moves_the_deadline_logs_it_and_tells_every_player(referee, game, clock):
    assert utc(window(referee)["deadline"]) == FIRST_DEADLINE
    clock.advance(hours=5)
    r = referee.extend(game, by=24 * 3600, why="the holidays")
    new = FIRST_DEADLINE + timedelta(hours=24)
    assert r["deadline"] == new and r["previous"] == FIRST_DEADLINE
    assert utc(window(referee)["deadline"]) == new
    line = referee_lines(referee)[-1]
    assert line == {**line, "action": "extend", "why": "the holidays", "phase": "1.dig",
                    "deadline": "2026-12-03T20:00:00Z", "previous": "2026-12-02T20:00:00Z",
                    "at": "2026-11-30T01:00:00Z"}
    assert_log_clean(referee)
    got = by_addr(mail(referee))
    assert set(got) == {"red@players.example", "blue@players.example"}
    assert all(len(v) == 1 for v in got.values())
    red, blue = body(got["red@players.example"][0]), body(got["blue@players.example"][0])
    # UTC for all; each reader's zone (red has none: the game's zone)
    assert "New deadline: 2026-12-03 20:00 UTC (2026-12-03 21:00 CET, Europe/Paris)" in red
    assert "New deadline: 2026-12-03 20:00 UTC (2026-12-03 15:00 EST, America/New_York)" in blue
    assert "the holidays" in red and "the holidays" in blue
    assert "2026-12-03 20:00 UTC" in str(got["red@players.example"][0]["Subject"])
    assert str(got["red@players.example"][0]["From"]) == "referee@judge.example"


def test_extend_until_takes_an_iso_time_or_a_local_time_in_the_games_zone(referee, game, clock):
    r = referee.extend(game, until="2026-12-05T12:30:00Z", why="late start")
    assert r["deadline"] == datetime(2026, 12, 5, 12, 30, tzinfo=timezone.utc)
    # 20:00 on the clocks of Paris in December is 19:00 UTC
    referee.extend(game, until="2026-12-24 20:00", why="Christmas")
    assert utc(window(referee)["deadline"]) == datetime(2026, 12, 24, 19, 0, tzinfo=timezone.utc)
    referee.extend(game, until="2026-12-26T09:00:00+01:00", why="Boxing Day")
    assert window(referee)["deadline"] == "2026-12-26T08:00:00Z"
    assert [x["why"] for x in referee_lines(referee)] == ["late start", "Christmas", "Boxing Day"]
    assert_log_clean(referee)


@pytest.mark.parametrize("text,zone,expected", [
    ("2026-12-24 20:00", "Europe/Paris", "2026-12-24T19:00:00+00:00"),
    ("2026-12-24T20:00", None, "2026-12-24T20:00:00+00:00"),
    ("2026-12-24 8:05:30", "UTC", "2026-12-24T08:05:30+00:00"),
    ("2026-12-24T20:00:00-05:00", "Europe/Paris", "2026-12-25T01:00:00+00:00"),
    # docs/deadlines.md: a time the clocks skip is read with the offset before the change
    # (Paris, 2027-03-28: 02:00 CET -> 03:00 CEST at 01:00 UTC), a time shown twice is the
    # later one (2026-10-25: 03:00 CEST -> 02:00 CET at 01:00 UTC)
    ("2027-03-28 02:30", "Europe/Paris", "2027-03-28T01:30:00+00:00"),
    ("2026-10-25 02:30", "Europe/Paris", "2026-10-25T01:30:00+00:00"),
])
def test_until_reads_iso_times_and_local_times(text, zone, expected):
    from pbem.engine.admin import parse_until

    assert parse_until(text, zone) == datetime.fromisoformat(expected)


@pytest.mark.parametrize("kw,words", [
    ({"until": "2026-11-29T19:00:00Z"}, "not in the future"),
    ({"until": "2026-12-01T20:00:00Z"}, "not after the current one"),
    ({"until": "2026-12-02T20:00:00Z"}, "not after the current one"),
    ({"until": "next tuesday"}, "expected an ISO 8601 time"),
    ({"until": "2026-12-24"}, "expected an ISO 8601 time"),
    ({"until": "2026-13-24 20:00"}, "expected an ISO 8601 time"),
    ({}, "either --by"),
    ({"by": 3600, "until": "2026-12-24 20:00"}, "either --by"),
    # two years ahead: a new referee's trial found --until took it while --by stops at 366d
    ({"until": "2028-12-31 20:00"}, "more than a year"),
])
def test_extend_refuses_what_would_not_move_the_deadline_later(referee, game, kw, words):
    before = referee.log_lines(game)
    with pytest.raises(PbemError, match=words):
        referee.extend(game, why="x", **kw)
    assert referee.log_lines(game) == before and mail(referee) == []
    assert utc(window(referee)["deadline"]) == FIRST_DEADLINE


def test_extend_by_from_an_overdue_deadline_must_land_in_the_future(referee, game, clock):
    clock.advance(hours=100)  # 28 h past the deadline, not yet processed
    with pytest.raises(PbemError, match="not in the future"):
        referee.extend(game, by=24 * 3600, why="x")
    referee.extend(game, by=48 * 3600, why="the judge was down")
    assert utc(window(referee)["deadline"]) == FIRST_DEADLINE + timedelta(hours=48)


def test_the_reason_is_required_and_never_holds_an_address(referee, game):
    for why in (None, "", "   "):
        with pytest.raises(PbemError, match="--why"):
            referee.extend(game, by=3600, why=why)
    with pytest.raises(PbemError, match="never holds an e-mail address"):
        referee.extend(game, by=3600, why="asked by bob@players.example")
    with pytest.raises(PbemError, match="at most 500"):
        referee.pause(game, why="x" * 501)
    assert referee_lines(referee) == []


def test_commands_on_an_unknown_game_say_so(referee, game):
    for call in (lambda: referee.extend("zz", by=60, why="x"),
                 lambda: referee.pause("zz", why="x"), lambda: referee.resume("zz"),
                 lambda: referee.end_game("zz", why="x"),
                 lambda: referee.change_settings("zz", sender="a@b.example"),
                 lambda: referee.resend("zz", "red")):
        with pytest.raises(NotFound, match="no game 'zz'"):
            call()


# ---------------------------------------------------------------- pause and resume

def test_pause_stops_the_deadline_and_resume_moves_it_by_the_pause(referee, game, clock,
                                                                   players):
    clock.advance(hours=10)
    paused_at = clock()
    r = referee.pause(game, why="the referee is away")
    assert r["deadline"] == FIRST_DEADLINE
    assert referee.status(game)[0]["paused_since"] == "2026-11-30T06:00:00Z"
    assert referee.game(game).paused_at == paused_at
    got = by_addr(mail(referee))
    assert set(got) == {"red@players.example", "blue@players.example"}
    text = body(got["blue@players.example"][0])
    assert "paused" in text and "Orders are still accepted" in text
    assert "the referee is away" in text
    with pytest.raises(PbemError, match="paused already"):
        referee.pause(game, why="again")
    # orders are still accepted while paused
    clock.advance(hours=30)
    v = _ingest(referee, players["red"], game, clock, 4)
    assert [x.status for x in v] == ["accepted"]
    mail(referee)
    clock.advance(hours=20)  # 50 h paused in all
    r = referee.resume(game)
    expected = FIRST_DEADLINE + (clock() - paused_at)
    assert expected == FIRST_DEADLINE + timedelta(hours=50)
    assert r["deadline"] == expected and utc(window(referee)["deadline"]) == expected
    assert referee.status(game)[0]["paused_since"] is None and referee.game(game).paused_at is None
    pause_line, resume_line = referee_lines(referee)
    assert pause_line["action"] == "pause" and pause_line["why"] == "the referee is away"
    assert resume_line["action"] == "resume" and resume_line["why"] == ""
    assert resume_line["deadline"] == "2026-12-04T22:00:00Z"
    assert resume_line["paused_since"] == "2026-11-30T06:00:00Z"
    assert resume_line["paused_seconds"] == 50 * 3600
    got = by_addr(mail(referee))
    assert len(got["red@players.example"]) == 1
    assert "New deadline: 2026-12-04 22:00 UTC (2026-12-04 23:00 CET, Europe/Paris)" in \
        body(got["red@players.example"][0])
    with pytest.raises(PbemError, match="is not paused"):
        referee.resume(game)
    assert_log_clean(referee)


def test_extend_while_paused_adds_to_the_frozen_deadline_but_refuses_a_time(referee, game,
                                                                            clock):
    referee.pause(game, why="away")
    with pytest.raises(PbemError, match="is paused"):
        referee.extend(game, until="2026-12-24 20:00", why="x")
    referee.extend(game, by=24 * 3600, why="more time")
    clock.advance(hours=3)
    referee.resume(game, why="back")
    assert utc(window(referee)["deadline"]) == FIRST_DEADLINE + timedelta(hours=27)


def test_reminders_already_sent_come_again_before_a_moved_deadline(referee, game, clock):
    from pbem.store import repo

    with referee.db.write() as s:  # as the adjudication loop marks them sent
        phase = repo.open_phase(s, game)
        phase.reminded_json = json.dumps([86400, 7200])
        s.add(phase)
    clock.advance(hours=71)  # 1 h before the deadline: both were due
    referee.extend(game, by=12 * 3600, why="x")  # 13 h ahead now: the 2 h one again
    with referee.db.read() as s:
        assert json.loads(repo.open_phase(s, game).reminded_json) == [86400]


# ---------------------------------------------------------------- replace

def _ingest(referee, player, game_id, clock, hole, nonce=None):
    return referee.ingest([incoming(player.signed(game_id, 1, "dig", f"dig {hole}",
                                                  issued=clock(), nonce=nonce))])


def test_replace_gives_the_seat_a_new_key_and_address(referee, game, clock, players, tmp_path):
    old = players["red"]
    new = Player("red", email="carol@new.example", seed="carol", referee=referee)
    clock.advance(minutes=5)
    assert [v.status for v in _ingest(referee, old, game, clock, 3)] == ["accepted"]
    mail(referee)
    clock.advance(minutes=5)
    r = referee.replace_player(game, "red", new.email, new.public_text, "carol.pub",
                               why="red left the game")
    fp = new.key.public_key().fingerprint
    assert r["fingerprint"] == fp and r["orders_in_force"] is True
    players_now = {p["role"]: p for p in referee.status(game)[0]["players"]}
    assert players_now["red"]["email"] == "carol@new.example" and players_now["red"]["key"] == fp
    line = referee_lines(referee)[-1]
    assert (line["action"], line["role"], line["fingerprint"], line["why"]) == (
        "replace", "red", fp, "red left the game")
    assert line["previous_fingerprint"] == old.key.public_key().fingerprint
    assert_log_clean(referee)
    got = by_addr(mail(referee))
    assert set(got) == {"carol@new.example", "blue@players.example", "red@players.example"}
    farewell = body(got["red@players.example"][0])  # the former player is told, at the old address
    assert "no longer taken" in farewell and "carol@new.example" not in farewell
    report, welcome = sorted(got["carol@new.example"], key=lambda m: not is_report(m))
    assert is_report(report) and not is_report(welcome)
    assert "Report for red" in body(report) and "setup report for red" in str(report["Subject"])
    assert "referee: SHA256:" in body(report)  # the order template to play on
    assert fp in body(welcome) and "stay in force" in body(welcome)
    assert fp in body(got["blue@players.example"][0])
    assert "carol@new.example" not in body(got["blue@players.example"][0])
    # the old key is refused for the seat, the new one accepted
    clock.advance(minutes=5)
    v = _ingest(referee, old, game, clock, 5)
    assert [(x.status, x.cause) for x in v] == [("rejected", "unknown-key")]
    clock.advance(minutes=5)
    v = _ingest(referee, new, game, clock, 6, nonce="c0ffee" * 5 + "00")
    assert [x.status for x in v] == ["accepted"], v
    assert_log_clean(referee)


def test_replace_refuses_a_key_of_another_seat_or_the_seats_own(referee, game, players):
    blue, red = players["blue"], players["red"]
    with pytest.raises(PbemError, match="key of blue"):
        referee.replace_player(game, "red", "c@new.example", blue.public_text, "b.pub", why="x")
    with pytest.raises(PbemError, match="red's key already"):
        referee.replace_player(game, "red", "c@new.example", red.public_text, "r.pub", why="x")
    with pytest.raises(NotFound, match="no role 'green'"):
        referee.replace_player(game, "green", "c@new.example", players["green"].public_text,
                               "g.pub", why="x")
    with pytest.raises(GameError, match="expected one e-mail address"):
        referee.replace_player(game, "red", "carol", players["green"].public_text, "g.pub",
                               why="x")
    with pytest.raises(GameError, match="player red: g.pub"):
        referee.replace_player(game, "red", "c@new.example", "not a key\n", "g.pub", why="x")
    with pytest.raises(PbemError, match="--why"):
        referee.replace_player(game, "red", "c@new.example", players["green"].public_text,
                               "g.pub", why="")
    assert referee_lines(referee) == [] and mail(referee) == []


# ---------------------------------------------------------------- set

def test_set_changes_addresses_and_zones_and_logs_only_which(referee, game, clock):
    r = referee.change_settings(game, sender="judge@new.example",
                                emails={"red": "red2@new.example"},
                                zones={"blue": "Asia/Tokyo"}, why="moving house")
    assert r["changed"] == ["from", "email of red", "zone of blue"]
    g = referee.game(game)
    assert g.referee_address == "judge@new.example"
    players_now = {p["role"]: p for p in referee.status(game)[0]["players"]}
    assert players_now["red"]["email"] == "red2@new.example"
    assert players_now["blue"]["zone"] == "Asia/Tokyo"
    line = referee_lines(referee)[-1]
    assert line["changed"] == [{"setting": "from"}, {"setting": "email", "role": "red"},
                               {"setting": "zone", "role": "blue"}]
    raw = referee.log_lines(game)[-1]
    assert "new.example" not in raw and "Tokyo" not in raw
    assert_log_clean(referee)
    got = by_addr(mail(referee))
    assert set(got) == {"red2@new.example", "blue@players.example"}
    red, blue = body(got["red2@new.example"][0]), body(got["blue@players.example"][0])
    assert all(str(m["From"]) == "judge@new.example" for v in got.values() for m in v)
    assert "judge@new.example" in red and "red2@new.example" in red
    assert "Asia/Tokyo" in blue and "2026-12-03 05:00 JST" in blue
    assert "red2" not in blue


def test_set_zone_none_clears_it(referee, game):
    referee.change_settings(game, zones={"blue": "none"})
    assert referee.status(game)[0]["players"][1]["zone"] is None
    assert referee_lines(referee)[-1]["why"] == ""


@pytest.mark.parametrize("kw,exc,words", [
    ({}, PbemError, "nothing to change"),
    ({"sender": "not an address"}, GameError, "--from"),
    ({"sender": "ref@x.org\r\nBcc: evil@x.org"}, GameError, "--from"),
    ({"sender": "referee@judge.example"}, PbemError, "already"),
    ({"emails": {"red": "a@x.example, b@x.example"}}, GameError, "one e-mail address"),
    ({"emails": {"red": "red@players.example"}}, PbemError, "already"),
    ({"emails": {"green": "g@x.example"}}, NotFound, "no role 'green'"),
    ({"zones": {"red": "Mars/Olympus"}}, GameError, "unknown time zone"),
    ({"zones": {"blue": "America/New_York"}}, PbemError, "already"),
    ({"zones": {"red": "Asia/Tokyo"}, "sender": "nope"}, GameError, "--from"),
])
def test_set_refuses_bad_values_and_changes_nothing(referee, game, kw, exc, words):
    with pytest.raises(exc, match=words):
        referee.change_settings(game, **kw)
    assert referee_lines(referee) == [] and mail(referee) == []
    assert referee.status(game)[0]["players"][0]["zone"] is None


# ---------------------------------------------------------------- end

def test_a_hidden_setup_kept_uncompressed_by_an_earlier_pbem_is_revealed_as_committed(
        referee, game, clock, players):
    """pbem keeps the committed hidden setup zlib-compressed now; one kept as plain JSON (before
    issue 11) is still revealed at the end, and checks against its commitment."""
    import zlib

    from test_store_integrity import attack, peek

    (blob,) = peek(referee, "SELECT blob FROM sealed WHERE owner='referee' AND "
                            "purpose='setup-hidden'")[0]
    plain = zlib.decompress(referee.sealer.open(game, "referee", "setup-hidden", 0, blob))
    assert plain.startswith(b"{")
    attack(referee, "UPDATE sealed SET blob=? WHERE owner='referee' AND purpose='setup-hidden'",
           (referee.sealer.seal(game, "referee", "setup-hidden", 0, plain),))
    referee.end_game(game, why="testing the reveal")
    reveal = json.loads(referee.log_lines(game)[-1])
    assert reveal["type"] == "setup-reveal"
    assert reveal["hidden"] == json.loads(plain)
    assert assert_log_clean(referee).setups_verified == 1


def test_end_abandons_the_game_and_reveals_everything_hidden(referee, game, clock, players):
    clock.advance(hours=1)
    _ingest(referee, players["blue"], game, clock, 7)
    mail(referee)
    clock.advance(hours=1)
    r = referee.end_game(game, why="both players agreed to stop")
    assert r["reason"] == "abandoned by the referee: both players agreed to stop"
    assert referee.status(game)[0]["status"] == "ended" and window(referee) is None
    assert [p.status for p in phase_rows(referee)] == ["abandoned"]
    objs = [json.loads(x) for x in referee.log_lines(game)]
    tail = [o["type"] for o in objs[-5:]]
    assert tail == ["referee", "dice-reveal", "game-end", "hidden-reveal", "setup-reveal"]
    end = objs[-3]
    assert (end["scores"], end["winners"], end["reason"]) == ({}, [], r["reason"])
    assert objs[-4]["phase"] == "1.dig" and set(objs[-4]["nonces"]) == {"blue"}
    assert referee.outcome(game) == {"scores": {}, "winners": [], "reason": r["reason"]}
    report = assert_log_clean(referee)
    assert report.warnings == [] and report.phases_pending == 0
    assert report.setups_verified == 1 and report.hidden_pending == 0
    assert (len(objs), report.head) == (r["log_lines"], r["log_head"])
    got = by_addr(mail(referee))
    assert set(got) == {"red@players.example", "blue@players.example"}
    text = body(got["red@players.example"][0])
    assert "both players agreed to stop" in text and r["log_head"] in text
    # no more orders, no more referee actions on it
    clock.advance(minutes=1)
    v = _ingest(referee, players["red"], game, clock, 2)
    assert [(x.status, x.cause) for x in v] == [("rejected", "game-over")]
    for call in (lambda: referee.end_game(game, why="again"),
                 lambda: referee.extend(game, by=3600, why="x"),
                 lambda: referee.pause(game, why="x"),
                 lambda: referee.replace_player(game, "red", "c@new.example",
                                                players["green"].public_text, "g", why="x")):
        with pytest.raises(PbemError, match="has ended"):
            call()
    assert referee.process() == []


def test_end_needs_a_reason(referee, game):
    with pytest.raises(PbemError, match="--why"):
        referee.end_game(game, why=" ")
    assert referee.status(game)[0]["status"] == "active"


def test_end_of_a_paused_game_clears_the_pause(referee, game):
    referee.pause(game, why="away")
    referee.end_game(game, why="never came back")
    assert referee.status(game)[0]["paused_since"] is None
    with pytest.raises(PbemError, match="has ended"):
        referee.resume(game)


# ---------------------------------------------------------------- resend

def _play_a_turn(referee, game, clock, players):
    clock.advance(hours=1)
    _ingest(referee, players["red"], game, clock, 3)
    _ingest(referee, players["blue"], game, clock, 11)
    done = referee.process(game)
    assert [d.phase for d in done] == ["1.dig"]
    mail(referee)


def test_resend_queues_a_stored_report_to_the_current_address(referee, game, clock, players):
    _play_a_turn(referee, game, clock, players)
    r = referee.resend(game, "blue")
    assert r == {"game": game, "role": "blue", "phase": "1.dig", "to": "blue@players.example"}
    (msg,) = mail(referee)
    assert str(msg["To"]) == "blue@players.example" and "sent again" in str(msg["Subject"])
    assert is_report(msg)
    assert body(msg) == referee.report(game, "blue", "text", "1.dig")
    referee.change_settings(game, emails={"red": "red2@new.example"})
    mail(referee)
    r = referee.resend(game, "red", "setup")
    (msg,) = mail(referee)
    assert str(msg["To"]) == "red2@new.example" and "setup report" in str(msg["Subject"])
    assert body(msg) == referee.report(game, "red", "text", "setup")
    assert is_report(msg)
    assert_log_clean(referee)
    lines = len(referee.log_lines(game))
    referee.resend(game, "red", "1.dig")
    assert len(referee.log_lines(game)) == lines  # nothing changes in the game


def test_resend_refuses_unknown_roles_and_phases(referee, game):
    with pytest.raises(NotFound, match="no role 'green'"):
        referee.resend(game, "green")
    with pytest.raises(NotFound, match=r"no phase '7.dig' \(phases: setup, 1.dig\)"):
        referee.resend(game, "red", "7.dig")
    with pytest.raises(NotFound, match="no stored report of red"):
        referee.resend(game, "red", "1.dig")  # open, not yet reported on
    assert mail(referee) == []


def test_set_and_resend_work_after_the_end(referee, game):
    referee.end_game(game, why="stopped")
    mail(referee)
    referee.change_settings(game, emails={"blue": "blue9@new.example"}, why="new address")
    mail(referee)
    referee.resend(game, "blue", "setup")
    (msg,) = mail(referee)
    assert str(msg["To"]) == "blue9@new.example"
    assert_log_clean(referee)


# ---------------------------------------------------------------- the command line

@pytest.fixture
def run(tmp_path):
    home = tmp_path / "home"

    def _run(*args, now="2026-11-29T20:00:00Z", ok=True):
        r = CliRunner().invoke(main, ["--home", str(home), "--now", now, *args],
                               catch_exceptions=False)
        if ok:
            assert r.exit_code == 0, r.output
        else:
            assert r.exit_code != 0, r.output
        return r

    run_dir = tmp_path
    _run.dir = run_dir
    return _run


def _cli_game(run):
    k = run.dir / "k"
    run("init")
    for role in ("red", "blue", "carol"):
        run("keygen", role, "--dir", str(k))
    run("game", "new", "hunt", "--id", "h1", "--tz", ZONE, "--from", "ref@judge.example",
        "--player", f"red=red@x.example:{k / 'red.pub'}",
        "--player", f"blue=blue@x.example:{k / 'blue.pub'}", "--zone", "blue=Asia/Tokyo")
    run("outbox", str(run.dir / "setup-mail"))


def _cli_mail(run, name):
    out = run.dir / name
    run("outbox", str(out))
    return by_addr(email.message_from_bytes(p.read_bytes(), policy=policy.default)
                   for p in sorted(out.glob("*.eml")))


def _cli_log(run):
    return [json.loads(x) for x in run("log", "h1", "--json").output.splitlines()]


def test_cli_extend_pause_resume_and_status(run):
    _cli_game(run)
    r = run("game", "extend", "h1", "--by", "24h", "--why", "holidays")
    assert "to 2026-12-03 20:00 UTC (2026-12-03 21:00 CET, Europe/Paris)" in r.output
    assert "2 notices queued" in r.output
    got = _cli_mail(run, "m1")
    assert "2026-12-04 05:00 JST" in body(got["blue@x.example"][0])
    r = run("game", "extend", "h1", "--until", "2026-12-24 20:00", "--why", "Christmas")
    assert "to 2026-12-24 19:00 UTC (2026-12-24 20:00 CET, Europe/Paris)" in r.output
    r = run("game", "extend", "h1", "--until", "2026-12-01 20:00", "--why", "x", ok=False)
    assert "not after the current one" in r.output
    r = run("game", "extend", "h1", "--by", "soon", "--why", "x", ok=False)
    assert "--by" in r.output
    r = run("game", "extend", "h1", "--by", "1h", ok=False)
    assert "--why" in r.output
    r = run("game", "extend", "h1", "--why", "x", ok=False)
    assert "either --by" in r.output
    run("game", "pause", "h1", "--why", "referee travelling", now="2026-11-30T20:00:00Z")
    r = run("status", now="2026-11-30T21:00:00Z")
    assert "paused since 2026-11-30T20:00:00Z" in r.output
    assert json.loads(run("status", "--json").output)[0]["paused_since"] == \
        "2026-11-30T20:00:00Z"
    r = run("game", "pause", "h1", "--why", "x", ok=False)
    assert "paused already" in r.output
    r = run("game", "resume", "h1", now="2026-12-02T08:00:00Z")
    assert "resumed after 36.0 h paused" in r.output
    assert "to 2026-12-26 07:00 UTC" in r.output  # 2026-12-24 19:00 UTC + 36 h
    assert json.loads(run("status", "--json").output)[0]["window"]["deadline"] == \
        "2026-12-26T07:00:00Z"
    assert "paused since" not in run("status").output
    r = run("game", "resume", "h1", ok=False)
    assert "is not paused" in r.output
    actions = [(o["action"], o["why"]) for o in _cli_log(run) if o["type"] == "referee"]
    assert actions == [("extend", "holidays"), ("extend", "Christmas"),
                       ("pause", "referee travelling"), ("resume", "")]
    run("log", "h1", "-o", str(run.dir / "h1.jsonl"))
    assert "OK" in run("verify", str(run.dir / "h1.jsonl")).output


def test_cli_replace_set_end_resend(run):
    _cli_game(run)
    k = run.dir / "k"
    r = run("game", "replace", "h1", "red", f"carol@x.example:{k / 'carol.pub'}",
            "--why", "red moved away")
    fp = re.search(r"key (SHA256:\S+)", r.output).group(1)
    assert "latest report is queued to carol@x.example" in r.output
    r = run("game", "replace", "h1", "blue", f"carol2@x.example:{k / 'carol.pub'}",
            "--why", "x", ok=False)
    assert "key of red" in r.output
    r = run("game", "replace", "h1", "blue", "nokey", "--why", "x", ok=False)
    assert "EMAIL:PUBKEYFILE" in r.output
    r = run("game", "replace", "h1", "blue", f"b@x.example:{k / 'nope.pub'}", "--why", "x",
            ok=False)
    assert "not found" in r.output
    r = run("game", "replace", "h1", "blue", f"b@x.example:{k / 'blue.key'}", "--why", "x",
            ok=False)
    secret = k.joinpath("blue.key").read_text().splitlines()[-1].split()[1]
    assert "private key" in r.output and secret not in r.output
    got = _cli_mail(run, "m1")
    assert set(got) == {"carol@x.example", "blue@x.example", "red@x.example"}
    assert len(got["carol@x.example"]) == 2
    r = run("game", "set", "h1", "--email", "blue=blue2@x.example", "--zone", "red=Europe/Berlin",
            "--why", "new address")
    assert "changed email of blue, zone of red" in r.output
    r = run("game", "set", "h1", "--zone", "red", ok=False)
    assert "ROLE=ZONE" in r.output
    r = run("game", "set", "h1", ok=False)
    assert "--from" in r.output
    r = run("game", "set", "h1", "--zone", "red=Nowhere/Land", ok=False)
    assert "unknown time zone" in r.output
    got = _cli_mail(run, "m2")
    assert set(got) == {"blue2@x.example", "carol@x.example"}
    r = run("resend", "h1", "--role", "blue", "--phase", "setup")
    assert "setup report queued to blue2@x.example" in r.output
    r = run("resend", "h1", "--role", "blue", "--phase", "9.dig", ok=False)
    assert "no phase '9.dig'" in r.output
    got = _cli_mail(run, "m3")
    assert list(got) == ["blue2@x.example"]
    r = run("game", "end", "h1", ok=False)
    assert "--why" in r.output
    r = run("game", "end", "h1", "--why", "abandoned: players gone", now="2026-11-30T10:00:00Z")
    assert "h1 ended: abandoned by the referee: abandoned: players gone" in r.output
    assert "window 1.dig closed unresolved" in r.output
    r = run("game", "end", "h1", "--why", "again", ok=False)
    assert "has ended" in r.output
    log = _cli_log(run)
    referee_actions = [o for o in log if o["type"] == "referee"]
    assert [o["action"] for o in referee_actions] == ["replace", "set", "end"]
    assert referee_actions[0]["fingerprint"] == fp
    assert not any("x.example" in json.dumps(o) for o in log)
    run("log", "h1", "-o", str(run.dir / "h1.jsonl"))
    r = run("verify", str(run.dir / "h1.jsonl"))
    assert "OK" in r.output and "warning" not in r.output
    assert "[ended]" in run("status").output
    got = _cli_mail(run, "m4")
    assert set(got) == {"carol@x.example", "blue2@x.example"}


def test_cli_unknown_game_and_help(run):
    run("init")
    for args in (["game", "extend", "zz", "--by", "1h", "--why", "x"],
                 ["game", "pause", "zz", "--why", "x"], ["game", "resume", "zz"],
                 ["game", "end", "zz", "--why", "x"], ["game", "set", "zz", "--zone", "a=UTC"],
                 ["resend", "zz", "--role", "red"]):
        r = run(*args, ok=False)
        assert r.exit_code == 1 and "no game 'zz'" in r.output, args
    for cmd in (["game", "extend"], ["game", "pause"], ["game", "resume"], ["game", "replace"],
                ["game", "set"], ["game", "end"], ["resend"]):
        r = CliRunner().invoke(main, [*cmd, "--help"])
        assert r.exit_code == 0 and len(r.output) > 150, cmd
