"""Issue 7, "Smaller points": one nonce per order set, 'issued' at most minutes ahead, orders
bound to one judge by their 'referee:' line, and `pbem check-receipt`.

Expected values come from the issue and docs/signing.md section 10, or are computed here
independently of pbem: a key's fingerprint is ``SHA256:`` and the unpadded base64 of the
SHA-256 of its SSH wire blob, as ``ssh-keygen -l`` prints it (docs/signing.md, section 1),
from the referee key the game's log publishes when the game is created.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CountingEntropy, MovableClock, incoming

from pbem.cli import main
from pbem.engine.creation import GameSpec

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def game(referee, players):
    referee.new_game(GameSpec(ruleset="hunt", game_id="h1",
                              players=(players["red"].spec(), players["blue"].spec()), options={}))
    return "h1"


def one(verdicts):
    assert len(verdicts) == 1, verdicts
    return verdicts[0]


def judge(referee, *texts):
    return referee.ingest([incoming(t, f"test{i}") for i, t in enumerate(texts)])


def ssh_fingerprint(openssh_line: str) -> str:
    """``ssh-keygen -l``'s fingerprint of an ``ssh-ed25519 BASE64`` line."""
    blob = base64.b64decode(openssh_line.split()[1])
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def published_referee(referee, game_id: str) -> str:
    """The fingerprint of the referee key published in the game's log (game-created)."""
    created = json.loads(referee.log_lines(game_id)[0])
    assert created["type"] == "game-created"
    return ssh_fingerprint(created["referee_key"])


def old_game(referee, players, game_id, monkeypatch):
    """A game as created before 'referee:' lines were required (bind_referee false)."""
    import pbem.engine.creation as creation

    real = creation.Game
    monkeypatch.setattr(creation, "Game", lambda **kw: real(**{**kw, "bind_referee": False}))
    referee.new_game(GameSpec(ruleset="hunt", game_id=game_id,
                              players=(players["red"].spec(), players["blue"].spec()), options={}))
    monkeypatch.setattr(creation, "Game", real)


# -- 1. a nonce is used once per game ------------------------------------------------------

def test_a_players_own_nonce_used_again_with_other_orders_is_refused(referee, players, game, clock):
    red = players["red"]
    nonce = "0123456789abcdef0123456789abcdef"
    assert one(judge(referee, red.signed(game, 1, "dig", "dig 4", issued=clock(),
                                         nonce=nonce))).status == "accepted"
    v = one(judge(referee, red.signed(game, 1, "dig", "dig 5", nonce=nonce,
                                      issued=clock() + timedelta(minutes=1))))
    assert (v.status, v.cause) == ("rejected", "nonce-reused")
    assert nonce in v.reason and "your own" in v.reason and "`pbem sign`" in v.reason
    # the first orders stay in force; a fresh nonce is taken
    v = one(judge(referee, red.signed(game, 1, "dig", "dig 5",
                                      issued=clock() + timedelta(minutes=2))))
    assert v.status == "accepted"


def test_another_players_nonce_copied_is_refused_without_naming_them(referee, players, game, clock):
    nonce = "feedfacefeedfacefeedfacefeedface"
    assert one(judge(referee, players["red"].signed(game, 1, "dig", "dig 4", issued=clock(),
                                                    nonce=nonce))).status == "accepted"
    v = one(judge(referee, players["blue"].signed(game, 1, "dig", "dig 9", issued=clock(),
                                                  nonce=nonce)))
    assert v.cause == "nonce-reused" and "red" not in v.reason
    assert referee.status(game)[0]["window"]["orders_in"] == ["red"]


def test_a_nonce_of_an_earlier_phase_is_refused(referee, players, game, clock):
    nonce = "00112233445566778899aabbccddeeff"
    # an order the parser refuses digs nowhere: the game goes on to turn 2 for certain
    assert one(judge(referee, players["red"].signed(game, 1, "dig", "shovel", issued=clock(),
                                                    nonce=nonce))).status == "accepted"
    clock.advance(hours=1)
    assert referee.process(game, force=True)
    assert referee.status(game)[0]["window"]["turn"] == 2
    v = one(judge(referee, players["blue"].signed(game, 2, "dig", "dig 3", issued=clock(),
                                                  nonce=nonce)))
    assert v.cause == "nonce-reused"
    v = one(judge(referee, players["red"].signed(game, 2, "dig", "dig 3", issued=clock(),
                                                 nonce=nonce)))
    assert v.cause == "nonce-reused" and "your own" in v.reason


def test_a_nonce_accepted_earlier_in_the_same_ingest_counts(referee, players, game, clock):
    nonce = "a1a2a3a4a5a6a7a8a9a0b1b2b3b4b5b6"
    vs = judge(referee,
               players["red"].signed(game, 1, "dig", "dig 4", issued=clock(), nonce=nonce),
               players["blue"].signed(game, 1, "dig", "dig 9", issued=clock(), nonce=nonce))
    assert [(v.status, v.cause) for v in vs] == [("accepted", ""), ("rejected", "nonce-reused")]


def test_the_same_order_set_sent_again_stays_a_duplicate(referee, players, game, clock):
    signed = players["red"].signed(game, 1, "dig", "dig 4", issued=clock())
    assert one(judge(referee, "Message-ID: <a@p>\nFrom: red@players.example\n\n" + signed)
               ).status == "accepted"
    v = one(judge(referee, "Message-ID: <b@p>\nFrom: red@players.example\n\n" + signed))
    assert (v.status, v.cause) == ("duplicate", "duplicate")


def test_a_superseded_order_set_sent_again_is_stale_not_a_reused_nonce(referee, players, game,
                                                                       clock):
    first = players["red"].signed(game, 1, "dig", "dig 4", issued=clock())
    assert one(judge(referee, "Message-ID: <a@p>\n\n" + first)).status == "accepted"
    assert one(judge(referee, players["red"].signed(game, 1, "dig", "dig 5",
                                                    issued=clock() + timedelta(minutes=1)))
               ).status == "accepted"
    v = one(judge(referee, "Message-ID: <c@p>\n\n" + first))
    assert v.cause == "stale"


def test_the_nonce_of_refused_orders_is_not_used_up(referee, players, game, clock):
    nonce = "c0ffeec0ffeec0ffeec0ffeec0ffee00"
    v = one(judge(referee, players["red"].signed(game, 2, "dig", "dig 4", issued=clock(),
                                                 nonce=nonce)))
    assert v.cause == "wrong-window"
    v = one(judge(referee, players["red"].signed(game, 1, "dig", "dig 4", issued=clock(),
                                                 nonce=nonce)))
    assert v.status == "accepted"


# -- 2. 'issued' at most 15 minutes ahead --------------------------------------------------

@pytest.mark.parametrize("ahead, cause", [
    (timedelta(hours=23, minutes=59), "future"),   # the case: locked out for a day
    (timedelta(minutes=16), "future"),
    (timedelta(minutes=15, seconds=1), "future"),
    (timedelta(minutes=15), ""),                   # the limit itself is taken
    (timedelta(minutes=14), ""),
])
def test_issued_may_be_ahead_of_the_judges_clock_by_15_minutes(referee, players, game, clock,
                                                                ahead, cause):
    v = one(judge(referee, players["red"].signed(game, 1, "dig", "dig 4", issued=clock() + ahead)))
    assert v.cause == cause
    if cause:
        assert "15 minutes" in v.reason


def test_signing_md_section_4_states_the_15_minutes():
    text = (ROOT / "docs" / "signing.md").read_text(encoding="utf-8")
    section4 = text.split("## 4.", 1)[1].split("\n## 5.", 1)[0]
    assert "more than 15 minutes ahead" in " ".join(section4.split())
    assert "more than a day ahead" not in section4


# -- 3. orders bound to one judge ----------------------------------------------------------

def test_the_report_template_carries_the_published_referee_fingerprint(referee, players, game):
    fp = published_referee(referee, game)
    for role in ("red", "blue"):
        report = referee.report(game, role)
        header = report.split("== Your orders ==", 1)[1]
        assert re.search(r"^role: " + role + r"\nreferee: (\S+)\nnonce:\nissued:\n",
                         header, re.M).group(1) == fp
    html = referee.report(game, "red", "html")
    assert f"referee: {fp}" in html


def test_a_wrong_referee_line_is_refused_naming_the_expected_key(referee, players, game, clock):
    fp = published_referee(referee, game)
    other = "SHA256:" + "A" * 43
    v = one(judge(referee, players["red"].signed(game, 1, "dig", "dig 4", issued=clock(),
                                                 referee=other)))
    assert (v.status, v.cause) == ("rejected", "wrong-judge")
    assert fp in v.reason and other in v.reason


def test_orders_for_another_judges_game_of_the_same_name_are_refused(referee, players, game, clock,
                                                                     tmp_path):
    """The issue's case: a second referee creates a game with the same id and the same
    players; the orders signed for the first judge's game are refused by the second."""
    from pbem.engine.home import Home
    from pbem.engine.service import Referee

    second = Referee(Home(tmp_path / "other-home"), clock=MovableClock(clock()),
                     entropy=CountingEntropy("other"))
    second.init()
    second.new_game(GameSpec(ruleset="hunt", game_id=game,
                             players=(players["red"].spec(), players["blue"].spec()), options={},
                             referee_address="referee@judge.example"))
    assert published_referee(second, game) != published_referee(referee, game)
    signed = players["red"].signed(game, 1, "dig", "dig 4", issued=clock())  # for the first
    assert one(judge(referee, signed)).status == "accepted"
    v = one(judge(second, signed))
    assert v.cause == "wrong-judge" and published_referee(second, game) in v.reason


def test_a_new_game_refuses_orders_without_a_referee_line(referee, players, game, clock):
    fp = published_referee(referee, game)
    v = one(judge(referee, players["red"].signed(game, 1, "dig", "dig 4", issued=clock(),
                                                 referee=False)))
    assert (v.status, v.cause) == ("rejected", "no-referee")
    assert f"referee: {fp}" in v.reason


def test_an_older_game_takes_orders_without_it_with_a_warning_in_the_receipt(referee, players,
                                                                            clock, tmp_path,
                                                                            monkeypatch):
    from pbem.crypto.envelope import find_receipts

    old_game(referee, players, "old1", monkeypatch)
    fp = published_referee(referee, "old1")
    v = one(judge(referee, players["red"].signed("old1", 1, "dig", "dig 4", issued=clock(),
                                                 referee=False)))
    assert v.status == "accepted"
    mail = [f for f in referee.outbox(tmp_path / "out") if "receipt" in f.name][0]
    import email
    from email import policy

    body = email.message_from_bytes(mail.read_bytes(), policy=policy.default).get_content()
    receipt = find_receipts(body)[0]
    assert receipt.verify()
    warning = [line for line in receipt.text.split("\n") if line.startswith("warning: ")]
    assert len(warning) == 1 and "'referee:'" in warning[0] and fp in warning[0]
    # a wrong referee line is refused even there
    v = one(judge(referee, players["blue"].signed("old1", 1, "dig", "dig 9", issued=clock(),
                                                  referee="SHA256:" + "B" * 43)))
    assert v.cause == "wrong-judge"
    # and orders with the right line get no warning
    v = one(judge(referee, players["blue"].signed("old1", 1, "dig", "dig 9", issued=clock())))
    assert v.status == "accepted"
    mails = [f for f in referee.outbox(tmp_path / "out2") if "receipt" in f.name]
    assert len(mails) == 1 and "warning:" not in mails[0].read_text()


def test_header_referee_is_optional_and_checked():
    from pbem.engine.headers import HeaderError, parse_header

    base = ("game: g1\nturn: 1\nphase: dig\nrole: red\n{ref}nonce: 0123456789abcdef\n"
            "issued: 2026-11-29T20:15:00Z\n\ndig 4")
    fp = "SHA256:" + "x" * 42 + "+"
    assert parse_header(base.format(ref="")).referee is None
    assert parse_header(base.format(ref="referee:\n")).referee is None
    h = parse_header(base.format(ref=f"referee: {fp}\n"))
    assert h.referee == fp and h.body_line == 9
    # anywhere in the header, not only after role
    moved = base.format(ref="").replace("game: g1\n", f"game: g1\nReferee:  {fp}\n")
    assert parse_header(moved).referee == fp
    for bad in ("SHA256:short", "MD5:" + "a" * 43, fp + "A", "sha256:" + "x" * 43):
        with pytest.raises(HeaderError) as e:
            parse_header(base.format(ref=f"referee: {bad}\n"))
        assert e.value.line == 5 and "referee" in str(e.value)


def test_fill_header_and_pbem_sign_keep_the_referee_line(tmp_path):
    from datetime import datetime, timezone

    from pbem.engine.headers import fill_header, parse_header

    fp = "SHA256:" + "Q" * 43
    text = f"game: g1\nturn: 1\nphase: dig\nrole: red\nreferee: {fp}\nnonce:\nissued:\n\ndig 4\n"
    filled = fill_header(text, datetime(2026, 11, 29, 20, 15, tzinfo=timezone.utc))
    assert filled.split("\n")[4] == f"referee: {fp}"
    assert "issued: 2026-11-29T20:15:00Z" in filled
    assert parse_header(filled).referee == fp
    # the line after nonce and issued, which are absent: they are added to the header
    text = f"game: g1\nturn: 1\nphase: dig\nrole: red\nreferee: {fp}\n\ndig 4\n"
    filled = fill_header(text, datetime(2026, 11, 29, 20, 15, tzinfo=timezone.utc))
    h = parse_header(filled)
    assert h.referee == fp and filled.endswith("\n\ndig 4\n")

    from pbem.crypto.keys import generate_keypair, write_secret_file

    key, _ = generate_keypair("red")
    write_secret_file(tmp_path / "red.key", key)
    orders = tmp_path / "orders.txt"
    orders.write_text(f"game: g1\nturn: 1\nphase: dig\nrole: red\nreferee: {fp}\nnonce:\n"
                      "issued:\n\ndig 4\n")
    r = CliRunner().invoke(main, ["--home", str(tmp_path / "h"), "--now", "2026-11-29T20:00:00Z",
                                  "sign", str(orders), "--key", str(tmp_path / "red.key")])
    assert r.exit_code == 0, r.output
    assert f"\nrole: red\nreferee: {fp}\nnonce: " in r.output


# -- 4. pbem check-receipt -----------------------------------------------------------------

@pytest.fixture
def receipt_file(referee, players, game, clock, tmp_path):
    """A receipt mail from a real ingest, as the player saves it (.eml)."""
    assert one(judge(referee, players["red"].signed(game, 1, "dig", "dig 40", issued=clock()))
               ).status == "accepted"
    mails = [f for f in referee.outbox(tmp_path / "out") if "receipt" in f.name]
    assert len(mails) == 1
    return mails[0]


def check(referee, *args):
    return CliRunner().invoke(main, ["--home", str(referee.home.path), "check-receipt", *args])


def receipt_text(path: Path) -> str:
    import email
    from email import policy

    return email.message_from_bytes(path.read_bytes(), policy=policy.default).get_content()


def test_a_genuine_receipt_passes(referee, receipt_file, game):
    fp = published_referee(referee, game)
    r = check(referee, str(receipt_file), game)
    assert r.exit_code == 0, r.output
    assert fp in r.output and "game h1" in r.output and "role red" in r.output
    # a player has no database: the fingerprint from the setup report is enough
    r = CliRunner().invoke(main, ["--home", str(receipt_file.parent / "no-home"), "check-receipt",
                                  str(receipt_file), "--referee", fp])
    assert r.exit_code == 0, r.output
    assert not (receipt_file.parent / "no-home").exists()
    # the receipt as plain text, pasted into a file
    plain = receipt_file.parent / "receipt.txt"
    plain.write_text(receipt_text(receipt_file))
    assert check(referee, str(plain), game, "--referee", fp).exit_code == 0


def test_a_receipt_resigned_with_the_players_key_fails_naming_both_keys(referee, players,
                                                                       receipt_file, game):
    from pbem.crypto.envelope import find_receipts, sign_receipt

    genuine = find_receipts(receipt_text(receipt_file))[0]
    forged = sign_receipt(genuine.text, players["red"].key)
    path = receipt_file.parent / "forged.txt"
    path.write_text("Your orders are received.\n\n" + forged)
    player_fp = ssh_fingerprint(players["red"].key.public_key().openssh_line())
    referee_fp = published_referee(referee, game)
    for args in ([game], ["--referee", referee_fp]):
        r = check(referee, str(path), *args)
        assert r.exit_code == 1
        assert r.output.startswith("Error: ") and str(path) in r.output
        assert player_fp in r.output and referee_fp in r.output


def test_a_receipt_with_one_byte_of_its_body_changed_fails(referee, receipt_file, game):
    text = receipt_text(receipt_file)
    changed = text.replace("role: red", "role: rod", 1)
    assert changed != text
    path = receipt_file.parent / "changed.txt"
    path.write_text(changed)
    r = check(referee, str(path), game)
    assert r.exit_code == 1 and "bad signature" in r.output and str(path) in r.output


def test_a_file_without_a_receipt_fails(referee, game, tmp_path):
    path = tmp_path / "nothing.txt"
    path.write_text("Dear referee,\n\n> -----BEGIN PBEM RECEIPT-----\n> quoted, not a receipt\n")
    r = check(referee, str(path), game)
    assert r.exit_code == 1 and "no receipt" in r.output and str(path) in r.output
    r = check(referee, str(tmp_path / "missing.txt"), game)
    assert r.exit_code == 1 and "missing.txt" in r.output


def test_a_receipt_of_another_game_fails(referee, players, receipt_file, game):
    referee.new_game(GameSpec(ruleset="hunt", game_id="h2",
                              players=(players["green"].spec(), players["white"].spec()),
                              options={}))
    r = check(referee, str(receipt_file), "h2")  # h2's referee key did not sign it
    assert r.exit_code == 1 and published_referee(referee, "h2") in r.output
    r = check(referee, str(receipt_file), "h2", "--referee", published_referee(referee, game))
    assert r.exit_code == 1 and "'h1', not 'h2'" in r.output


def test_check_receipt_needs_a_game_or_a_fingerprint(referee, receipt_file):
    r = check(referee, str(receipt_file))
    assert r.exit_code == 1 and "--referee" in r.output
    r = check(referee, str(receipt_file), "--referee", "SHA256:nope")
    assert r.exit_code == 1 and "fingerprint" in r.output


def test_the_worked_examples_receipts_check_with_the_setup_reports_fingerprint(tmp_path):
    """A player's check: examples/atlantis/receipts against the referee key line of the
    setup report, with no database; the fingerprint is computed here from that line."""
    example = ROOT / "examples" / "atlantis"
    setup = (example / "reports" / "public" / "000-setup.txt").read_text(encoding="utf-8")
    line = re.search(r"^  (ssh-ed25519 \S+) referee@atl-example$", setup, re.M).group(1)
    fp = ssh_fingerprint(line)
    assert f"Referee key for this game: {fp}" in setup
    receipts = sorted((example / "receipts").glob("*.txt"))
    checked = 0
    for path in receipts:
        if "BEGIN PBEM RECEIPT" not in path.read_text(encoding="utf-8"):
            continue  # a rejection
        r = CliRunner().invoke(main, ["--home", str(tmp_path / "none"), "check-receipt",
                                      str(path), "atl-example", "--referee", fp])
        assert r.exit_code == 0, r.output
        checked += 1
    assert checked >= 10


def test_signing_md_section_10_shows_the_worked_examples_template():
    doc = (ROOT / "docs" / "signing.md").read_text(encoding="utf-8").split("## 10.", 1)[1]
    shown = re.search(r"```\n(game: .*?)```", doc, re.S).group(1)
    report = (ROOT / "examples" / "atlantis" / "reports" / "red" / "009-2.blue.txt").read_text(
        encoding="utf-8")
    assert shown in report
    setup = (ROOT / "examples" / "atlantis" / "reports" / "public" / "000-setup.txt").read_text(
        encoding="utf-8")
    line = re.search(r"^  (ssh-ed25519 \S+) referee@atl-example$", setup, re.M).group(1)
    assert f"referee: {ssh_fingerprint(line)}\n" in shown
