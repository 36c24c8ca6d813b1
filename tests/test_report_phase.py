"""`pbem report --phase` takes the phase id the reports show (issue 8, "What a new user ran
into": `--phase 2` counted reports, not turns, and gave the report on 1.red).

The game is the reproducible demo (tests/conftest.py, ``demo_game``): Atlantis with red, green
and blue; a game turn is one player-turn per seat (pbem/games/atlantis/README.md), so turn 2
has the phases 2.red, 2.green and 2.blue. The report a command prints is compared with the mail
that carried it to the player (the demo's mail-out folder)."""

from __future__ import annotations

import email
import email.policy
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main


def run(demo_game, *args):
    return CliRunner().invoke(main, ["--home", os.path.join(demo_game["out"], "home"),
                                     "report", demo_game["game"], *args])


def mailed_report(demo_game, role: str, subject_words: str) -> str:
    """The text part of the report mailed to ``role`` whose subject holds ``subject_words``."""
    for path in sorted(Path(demo_game["out"], "mail-out").glob(f"*-report-{role}-*.eml")):
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        if subject_words in " ".join(msg["Subject"].split()):
            return msg.get_body(("plain",)).get_content()
    raise AssertionError(f"no report mailed to {role} with {subject_words!r} in the subject")


def same_text(a: str, b: str) -> bool:
    return [x.rstrip() for x in a.strip().splitlines()] == [x.rstrip() for x in b.strip().splitlines()]


def test_phase_id_gives_the_report_on_that_phase(demo_game):
    r = run(demo_game, "--role", "red", "--phase", "2.green")
    assert r.exit_code == 0, r.output
    assert "Turn 2, phase green" in r.output.splitlines()[2]
    assert same_text(r.output, mailed_report(demo_game, "red", "turn 2 green report"))


@pytest.mark.parametrize("phase", ["setup", "0.create"])
def test_setup_names_the_setup_report(demo_game, phase):
    r = run(demo_game, "--role", "red", "--phase", phase)
    assert r.exit_code == 0 and "The game has been set up." in r.output
    assert "Phase 0.create: seed" in r.output  # the id its dice have, as the report shows it
    assert same_text(r.output, mailed_report(demo_game, "red", "setup report"))


def test_a_bare_number_is_refused_listing_the_phase_ids(demo_game):
    # the new user's command line
    r = run(demo_game, "--role", "red", "--phase", "2")
    assert r.exit_code == 1
    assert "Error: --phase 2: expected a phase id" in r.output
    assert "the phases of turn 2 are 2.red, 2.green, 2.blue" in r.output
    assert "setup, 0.setup, 1.red, 1.green, 1.blue, 2.red" in r.output
    r = run(demo_game, "--role", "red", "--phase", "0")
    assert r.exit_code == 1 and "the phases of turn 0 are 0.setup" in r.output


def test_an_unknown_phase_id_lists_them_too(demo_game):
    r = run(demo_game, "--role", "red", "--phase", "2.purple")
    assert r.exit_code == 1 and "no phase '2.purple'" in r.output and "2.green" in r.output


def test_the_help_says_what_phase_takes():
    out = CliRunner().invoke(main, ["report", "--help"]).output
    flat = " ".join(out.split())
    assert "--phase ID" in flat and "2.green" in flat and "setup" in flat
    assert "bare number is refused" in flat
