"""The referee's command line, through click's CliRunner (issue 2, "The referee's command line").
Games here use the test-only ruleset "hunt"; Atlantis has its own CLI tests."""

import json
import os
import re
import stat

import pytest
from click.testing import CliRunner

from pbem.cli import main


@pytest.fixture
def run(tmp_path):
    home = tmp_path / "home"

    def _run(*args, input=None, ok=True):
        r = CliRunner().invoke(main, ["--home", str(home), "--now", "2026-11-29T20:00:00Z", *args],
                               input=input, catch_exceptions=False)
        if ok:
            assert r.exit_code == 0, r.output
        return r

    _run.home = home
    return _run


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_init_creates_a_0600_key_and_never_overwrites_it(run):
    r = run("init")
    key = run.home / "referee.key"
    assert "created" in r.output and mode(key) == 0o600
    before = key.read_bytes()
    r = run("init")
    assert "kept" in r.output and key.read_bytes() == before
    from pbem.store.db import SCHEMA_HEAD

    assert SCHEMA_HEAD in r.output


def test_commands_before_init_say_what_to_do(run):
    r = run("status", ok=False)
    assert r.exit_code == 1 and "pbem init" in r.output


def test_keygen_writes_a_pair_and_refuses_to_overwrite(run, tmp_path):
    r = run("keygen", "alice", "--dir", str(tmp_path / "k"))
    assert mode(tmp_path / "k" / "alice.key") == 0o600
    assert (tmp_path / "k" / "alice.pub").read_text().startswith("pbem-ed25519 ")
    r = run("keygen", "alice", "--dir", str(tmp_path / "k"), ok=False)
    assert r.exit_code == 1 and "alice.key" in r.output


def test_keygen_refuses_a_name_that_is_a_path(run, tmp_path):
    """A new referee's trial: `pbem keygen ../escape` wrote outside --dir."""
    r = run("keygen", "../escape", "--dir", str(tmp_path / "k"), ok=False)
    assert r.exit_code == 2 and "--dir" in r.output
    assert not (tmp_path / "escape.key").exists()


def _setup_game(run, tmp_path, ssh_pub=None):
    run("init")
    run("keygen", "red", "--dir", str(tmp_path / "k"))
    run("keygen", "blue", "--dir", str(tmp_path / "k"))
    blue_pub = ssh_pub or tmp_path / "k" / "blue.pub"
    return run("game", "new", "hunt", "--id", "h1", "--from", "referee@example.org",
               "--player", f"red=red@x.example:{tmp_path / 'k' / 'red.pub'}",
               "--player", f"blue=blue@x.example:{blue_pub}",
               "--zone", "blue=Europe/Paris", "--deadline", "48h")


def test_game_new_prints_the_setup_report_location(run, tmp_path):
    r = _setup_game(run, tmp_path)
    assert "setup report:" in r.output
    path = r.output.split("setup report:")[1].split()[0]
    assert "Hidden dice seed commitment" in open(path).read()
    status = json.loads(run("status", "--json").output)
    assert status[0]["window"]["deadline"] == "2026-12-01T20:00:00Z"


def test_game_new_accepts_an_ssh_ed25519_public_key(run, tmp_path):
    pub = tmp_path / "id_ed25519.pub"
    pub.write_text("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGb+3j5JF0FCjDnvF0W5FSjZx3KLz0lc+Hn+u3ONsG1A blue@laptop\n")
    _setup_game(run, tmp_path, ssh_pub=pub)
    players = json.loads(run("status", "h1", "--json").output)[0]["players"]
    assert players[1]["key"].startswith("SHA256:")


@pytest.mark.parametrize("args,words", [
    (["--player", "red=nokey"], "ROLE=EMAIL:PUBKEYFILE"),
    (["--player", "red=r@x.example:/nonexistent.pub"], "not found"),
    (["--option", "turns"], "K=V"),
    (["--option", "colour=blue"], "unknown option"),
    (["--deadline", "soon"], "duration"),
    (["--zone", "red=Mars/Olympus"], "unknown time zone"),
])
def test_game_new_bad_input_is_a_clear_error(run, tmp_path, args, words):
    run("init")
    run("keygen", "red", "--dir", str(tmp_path / "k"))
    run("keygen", "blue", "--dir", str(tmp_path / "k"))
    base = ["game", "new", "hunt", "--id", "h1", "--from", "referee@example.org",
            "--player", f"blue=b@x.example:{tmp_path / 'k' / 'blue.pub'}"]
    if "--player" not in args:
        base += ["--player", f"red=r@x.example:{tmp_path / 'k' / 'red.pub'}"]
    r = run(*base, *args, ok=False)
    assert r.exit_code != 0
    assert words in r.output


def test_unknown_ruleset_lists_the_installed_ones(run, tmp_path):
    run("init")
    run("keygen", "red", "--dir", str(tmp_path / "k"))
    r = run("game", "new", "chess", "--id", "c1", "--from", "referee@example.org", "--player",
            f"red=r@x.example:{tmp_path / 'k' / 'red.pub'}", ok=False)
    assert r.exit_code == 1 and "no ruleset 'chess'" in r.output and "atlantis" in r.output


def test_sign_ingest_process_report_log_verify_outbox(run, tmp_path):
    _setup_game(run, tmp_path)
    for role, hole in (("red", 3), ("blue", 11)):
        orders = tmp_path / f"{role}.txt"
        # the referee line as the player copies it from the order template of their report
        judge = re.search(r"^referee: (SHA256:\S+)$", run("report", "h1", "--role", role).output,
                          re.M).group(1)
        orders.write_text(f"game: h1\nturn: 1\nphase: dig\nrole: {role}\nreferee: {judge}\n"
                          f"nonce:\nissued:\n\ndig {hole}\n")
        signed = run("sign", str(orders), "--key", str(tmp_path / "k" / f"{role}.key")).output
        assert "-----BEGIN PBEM ORDERS-----" in signed and "issued: 2026-11-29T20:00:00Z" in signed
        if role == "red":
            (tmp_path / "red.signed").write_text(signed)
            r = run("ingest", "-v", str(tmp_path / "red.signed"))
        else:
            r = run("ingest", "-v", "-", input=signed)  # as from a procmail pipe
        assert "accepted h1 1.dig " + role in r.output
    r = run("process", "--due")
    assert "h1 1.dig resolved" in r.output
    assert "nothing to process" in run("process").output
    text = run("report", "h1", "--role", "blue").output
    assert "Report for blue" in text
    if "The game is over" not in text:  # a dig may find the treasure (1 in 20)
        assert "2026-12-01 20:00 UTC" in text and "Europe/Paris" in text
    html = run("report", "h1", "--role", "blue", "--format", "html").output
    assert html.startswith("<!DOCTYPE html>")
    setup = run("report", "h1", "--role", "red", "--phase", "setup").output
    assert "The game has been set up" in setup
    by_id = run("report", "h1", "--role", "red", "--phase", "1.dig").output
    assert "Report for red" in by_id and "Turn 1, phase dig" in by_id
    r = run("report", "h1", "--role", "red", "--phase", "7.nope", ok=False)
    assert r.exit_code == 1 and "no phase '7.nope'" in r.output and "1.dig" in r.output
    lines = run("log", "h1", "--json").output.splitlines()
    assert json.loads(lines[0])["type"] == "game-created"
    # the readable log names every order set by its salted commitment (docs/log.md, orders)
    readable = run("log", "h1").output
    commits = [json.loads(x)["commit"] for x in lines if json.loads(x)["type"] == "orders"]
    assert len(commits) == 2 and all(f"commit {c}" in readable for c in commits)
    logfile = tmp_path / "h1.jsonl"
    logfile.write_text("\n".join(lines) + "\n")
    assert run("verify", str(logfile)).exit_code == 0
    assert run("verify", "h1").exit_code == 0
    tampered = tmp_path / "bad.jsonl"
    tampered.write_text(logfile.read_text().replace('"value":', '"value":1', 1)
                        if '"value":' in logfile.read_text() else logfile.read_text()[:-5])
    r = run("verify", str(tampered), ok=False)
    assert r.exit_code == 1
    r = run("verify", str(tmp_path), ok=False)
    assert r.exit_code == 1 and "is a folder" in r.output
    r = run("outbox", str(tmp_path / "out"))
    n = int(r.output.split()[0])
    assert n == len(list((tmp_path / "out").glob("*.eml"))) and n >= 6
    assert run("outbox", str(tmp_path / "out")).output.startswith("0 messages")


def test_report_for_unknown_role_or_game(run, tmp_path):
    _setup_game(run, tmp_path)
    r = run("report", "h1", "--role", "green", ok=False)
    assert r.exit_code == 1 and "no role 'green'" in r.output
    r = run("report", "zz", "--role", "red", ok=False)
    assert r.exit_code == 1 and "no game 'zz'" in r.output


def test_ingest_missing_path_is_an_error(run, tmp_path):
    run("init")
    r = run("ingest", str(tmp_path / "nope"), ok=False)
    assert r.exit_code == 1 and "nope" in r.output


def test_every_command_has_help():
    runner = CliRunner()
    for cmd in ["init", "upgrade", "keygen", "sign", "ingest", "process", "status", "report",
                "log", "verify", "rules", "outbox", "demo"]:
        r = runner.invoke(main, [cmd, "--help"])
        assert r.exit_code == 0 and len(r.output) > 80, cmd
    r = runner.invoke(main, ["game", "new", "--help"])
    assert "ROLE=EMAIL:PUBKEYFILE" in r.output


def test_sign_refuses_a_file_that_is_not_orders(run, tmp_path):
    run("keygen", "red", "--dir", str(tmp_path / "k"))
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    r = run("sign", str(empty), "--key", str(tmp_path / "k" / "red.key"), ok=False)
    assert r.exit_code == 1 and "empty.txt" in r.output and "game:" in r.output
    binary = tmp_path / "orders.bin"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    r = run("sign", str(binary), "--key", str(tmp_path / "k" / "red.key"), ok=False)
    assert r.exit_code == 1 and "orders.bin" in r.output and "UTF-8" in r.output


def test_rules_names_a_bad_house_rules_file(run, tmp_path):
    bad = tmp_path / "house.toml"
    bad.write_text("[people\nper_player = 3\n")
    r = run("rules", "atlantis", "--house-rules", str(bad), ok=False)
    assert r.exit_code == 1 and "house.toml" in r.output


def test_game_new_refuses_a_from_that_is_not_an_address(run, tmp_path):
    run("init")
    run("keygen", "red", "--dir", str(tmp_path / "k"))
    run("keygen", "blue", "--dir", str(tmp_path / "k"))
    for bad in ("not an address", "ref@x.org\r\nBcc: evil@x.org"):
        r = run("game", "new", "hunt", "--id", "h9", "--from", bad,
                "--player", f"red=r@x.example:{tmp_path / 'k' / 'red.pub'}",
                "--player", f"blue=b@x.example:{tmp_path / 'k' / 'blue.pub'}", ok=False)
        assert r.exit_code == 1 and "--from" in r.output


def test_a_lost_master_key_is_never_replaced_silently(run, tmp_path):
    _setup_game(run, tmp_path)
    key = run.home / "referee.key"
    saved = key.read_bytes()
    key.unlink()
    r = run("init", ok=False)
    assert r.exit_code == 1 and "restore referee.key" in r.output and not key.exists()
    # a different key is recognised before anything is opened with it
    from pbem.crypto.keys import create_master_key

    create_master_key(key)
    r = run("report", "h1", "--role", "red", ok=False)
    assert r.exit_code == 1 and "not the master key" in r.output
    key.unlink()
    key.write_bytes(saved)
    key.chmod(0o600)
    assert run("report", "h1", "--role", "red").exit_code == 0


def test_upgrade_needs_an_existing_database(run):
    r = run("upgrade", ok=False)
    assert r.exit_code == 1 and "pbem init" in r.output
