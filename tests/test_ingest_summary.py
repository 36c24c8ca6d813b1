"""`pbem ingest` prints one summary line, and a line per message only with -v (issue 8, "What a
new user ran into": reading the same Maildir from cron printed a line per old message every
run). Errors still get their line and exit status 1.

The counts expected are those of the mail put in the Maildir here: two valid order sets, one
mail without orders."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.engine.creation import GameSpec


@pytest.fixture
def game(referee, players):
    referee.new_game(GameSpec(ruleset="hunt", game_id="h1",
                              players=(players["red"].spec(), players["blue"].spec()),
                              options={}))
    return "h1"


def mail(body: str, mid: str, sender: str) -> bytes:
    return (f"From: {sender}\nTo: ref@judge.example\nSubject: orders\nMessage-ID: {mid}\n"
            "Date: Sun, 29 Nov 2026 20:00:00 +0000\n\n" + body).encode()


@pytest.fixture
def box(tmp_path, players, game, clock):
    box = tmp_path / "Maildir"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    messages = [
        mail(players["red"].signed(game, 1, "dig", "dig 4", issued=clock()), "<r@p>",
             "red@players.example"),
        mail(players["blue"].signed(game, 1, "dig", "dig 7", issued=clock()), "<b@p>",
             "blue@players.example"),
        mail("hello, when do we start?", "<q@p>", "green@players.example"),
    ]
    for n, data in enumerate(messages):
        (box / "new" / f"17644{n:05d}.M{n}P1.host").write_bytes(data)
    return box


def ingest(referee, *args):
    return CliRunner().invoke(main, ["--home", str(referee.home.path), "--now",
                                     "2026-11-29T20:00:00Z", "ingest", *args],
                              catch_exceptions=False)


def test_a_run_prints_one_summary_line(referee, box):
    r = ingest(referee, str(box))
    assert r.exit_code == 0
    assert r.output == "accepted 2, rejected 1, duplicate 0\n"


def test_reading_the_same_maildir_again_from_cron_prints_one_line(referee, box):
    ingest(referee, str(box))
    for _ in range(2):
        r = ingest(referee, str(box))
        assert (r.exit_code, r.output) == (0, "accepted 0, rejected 0, duplicate 3\n")


def test_verbose_prints_each_message_then_the_summary(referee, box):
    r = ingest(referee, "-v", str(box))
    lines = r.output.splitlines()
    assert lines[-1] == "accepted 2, rejected 1, duplicate 0"
    assert any("M0P1" in x and ": accepted h1 1.dig red" in x for x in lines)
    assert any("M1P1" in x and ": accepted h1 1.dig blue" in x for x in lines)
    assert any("M2P1" in x and ": rejected" in x and "no signed orders" in x for x in lines)
    r = ingest(referee, "--verbose", str(box))
    assert sum(": duplicate" in x for x in r.output.splitlines()) == 3


def test_errors_keep_their_line_and_exit_status(referee, box, monkeypatch):
    from pbem.engine import judge

    real = judge._judge_message

    def failing(batch, msg, now):
        if "M1P1" in msg.origin:
            raise RuntimeError("disk on fire")
        return real(batch, msg, now)

    monkeypatch.setattr(judge, "_judge_message", failing)
    r = ingest(referee, str(box))
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert any("M1P1" in x and ": error" in x and "disk on fire" in x for x in lines)
    assert "accepted 1, rejected 1, duplicate 0, error 1" in lines
    assert lines[-1].startswith("Error: 1 message(s) could not be judged")
    assert not any("M0P1" in x for x in lines)  # the others stay in the summary


def test_nothing_to_ingest(referee):
    r = CliRunner().invoke(main, ["--home", str(referee.home.path), "ingest"], input="")
    assert r.exit_code == 0 and r.output == "nothing to ingest\n"


def test_the_help_names_the_verbose_flag():
    out = CliRunner().invoke(main, ["ingest", "--help"]).output
    assert "-v, --verbose" in out and "accepted 3, rejected 1, duplicate 42" in " ".join(out.split())


def test_a_message_over_the_read_budget_is_counted_and_shown_without_v():
    """A new referee's trial: a message the judge could not read within its budget was only
    counted as rejected, so the referee did not know to run --retry."""
    from pbem.cli.play import ingest_summary
    from pbem.engine.verdicts import Verdict

    verdicts = [Verdict("a", "accepted"), Verdict("b", "rejected", "unreadable"),
                Verdict("c", "rejected", "bad-signature")]
    assert ingest_summary(verdicts) == ("accepted 1, rejected 2, duplicate 0, of them unreadable "
                                        "1 (`pbem ingest --retry` reads them again)")
