"""Issue 10, "Only the player can read it": a player who registered an ssh-ed25519 key may have
their reports mailed encrypted to it with age (pbem.engine.encryption; docs/mail.md,
"Encrypted reports"). Reports are encrypted for real and opened as a player opens them: with
the `age` (or `rage`) binary where it is installed, and with pyrage always; keys are made with
`ssh-keygen -t ed25519 -N ''`."""

from __future__ import annotations

import email
import json
import shutil
import subprocess
from email import policy

import pytest
from conftest import CountingEntropy, Player, incoming

from pbem.engine.creation import GameSpec, PlayerSpec
from pbem.engine.encryption import NotEncryptable
from pbem.engine.errors import PbemError
from pbem.store.db import SCHEMA_HEAD

AGE_BINARY = shutil.which("age") or shutil.which("rage")


# ---------------------------------------------------------------- keys and mail

def ssh_keypair(folder, name):
    """``(private key path, public key line)`` of a new ssh-ed25519 key without a passphrase,
    made by ssh-keygen (or, without it, written in the same OpenSSH formats by cryptography)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"id_{name}"
    if shutil.which("ssh-keygen"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", f"{name}@phone",
                        "-f", str(path)], check=True, capture_output=True)
    else:  # pragma: no cover - ssh-keygen is on every machine the tests run on
        from cryptography.hazmat.primitives import serialization as ser
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        key = Ed25519PrivateKey.generate()
        path.write_bytes(key.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.OpenSSH,
                                           ser.NoEncryption()))
        path.chmod(0o600)
        path.with_suffix(".pub").write_bytes(
            key.public_key().public_bytes(ser.Encoding.OpenSSH, ser.PublicFormat.OpenSSH)
            + f" {name}@phone\n".encode())
    return path, (folder / f"id_{name}.pub").read_text()


def ssh_player(referee, folder, role):
    """A test Player (conftest) holding a new ssh-ed25519 key: its ``public_text`` is the
    OpenSSH line, it signs orders with the OpenSSH private key; ``.private`` is the key file."""
    from pbem.crypto.keys import load_private_key

    path, line = ssh_keypair(folder, role)
    p = Player(role, referee=referee)
    p.key = load_private_key(path.read_text(), str(path))
    p.public_text = line
    p.private = path
    return p


def open_with_binary(private, data: bytes) -> bytes:
    """What `age -d -i PRIVATE` (or rage) prints for ``data``."""
    out = subprocess.run([AGE_BINARY, "-d", "-i", str(private)], input=data,
                         capture_output=True, check=True, timeout=60)
    return out.stdout


def open_with_pyrage(private, data: bytes) -> bytes:
    import pyrage

    return pyrage.decrypt(data, [pyrage.ssh.Identity.from_buffer(private.read_bytes())])


def mail(referee) -> list:
    """The mail queued since the last call, as players get it (the outbox in a new folder)."""
    import itertools

    folder = next(f for f in (referee.home.path / f"mail-{i}" for i in itertools.count())
                  if not f.exists())
    paths = referee.outbox(folder)
    assert not referee.undeliverable, referee.undeliverable
    return [(email.message_from_bytes(p.read_bytes(), policy=policy.default), p.read_bytes())
            for p in paths]


def to(msgs, address):
    """The reports among ``msgs`` (mails with attachments) to ``address``."""
    return [(m, raw) for m, raw in msgs if str(m["To"]) == address and attachments(m)]


def letters_to(msgs, address):
    """The other mail (receipts, notices) to ``address``."""
    return [m for m, _ in msgs if str(m["To"]) == address and not attachments(m)]


def body(msg) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")


def attachments(msg) -> dict:
    return {p.get_filename(): p.get_content() for p in msg.iter_attachments()}


def referee_lines(referee, game_id="h1") -> list[dict]:
    return [o for o in map(json.loads, referee.log_lines(game_id)) if o["type"] == "referee"]


@pytest.fixture
def red(referee, tmp_path):
    return ssh_player(referee, tmp_path / "red-ssh", "red")


@pytest.fixture
def game(referee, players, red):
    """Game h1 of hunt: red holds an ssh-ed25519 key and asked for encrypted reports; blue holds
    a pbem key. Returns the setup mail."""
    blue = players["blue"]
    referee.new_game(GameSpec(
        ruleset="hunt", game_id="h1", options={}, referee_address="referee@judge.example",
        players=(PlayerSpec("red", red.email, red.public_text, "id_red.pub", encrypt=True),
                 blue.spec())))
    return mail(referee)


def assert_encrypted_report(referee, msg, raw, private, phase, opener):
    """``msg`` is red's report of ``phase``, encrypted: a body naming it and how to open it, no
    report text anywhere in the mail, and attachments that open (with ``opener``) to the
    stored text and HTML reports."""
    text = referee.report("h1", "red", "text", phase)
    html = referee.report("h1", "red", "html", phase)
    files = attachments(msg)
    assert set(files) == {"report.age", "report.html.age"}
    words = body(msg)
    assert "game h1" in words and "age -d -i ~/.ssh/id_ed25519 report.age" in words
    assert "-o report.html report.html.age" in words
    # nothing of the report crosses in the clear: no line of it, in any part of the mail
    lines = {ln.strip() for ln in text.splitlines() if len(ln.strip()) >= 12}
    assert lines and not [ln for ln in lines if ln in words]
    assert not [ln for ln in lines if ln.encode() in raw]
    assert b"<svg" not in raw and b"nonce:" not in raw
    for part in msg.iter_attachments():
        assert part.get_content_type() == "application/octet-stream"
        assert part.get_content().startswith(b"age-encryption.org/v1\n-> ssh-ed25519 ")
    assert opener(private, files["report.age"]).decode() == text
    assert opener(private, files["report.html.age"]).decode() == html
    return words


# ---------------------------------------------------------------- the mail

@pytest.mark.skipif(AGE_BINARY is None, reason="neither age nor rage is installed")
def test_the_setup_report_opens_with_the_real_age_binary_and_the_players_ssh_key(referee, game,
                                                                                red):
    ((msg, raw),) = to(game, red.email)
    words = assert_encrypted_report(referee, msg, raw, red.private, "setup", open_with_binary)
    assert "setup report for red in game h1" in words
    assert red.key.public_key().fingerprint in words


def test_an_encrypted_report_opens_with_pyrage_and_only_with_the_players_key(referee, game, red,
                                                                           tmp_path):
    import pyrage

    ((msg, raw),) = to(game, red.email)
    assert_encrypted_report(referee, msg, raw, red.private, "setup", open_with_pyrage)
    other, _ = ssh_keypair(tmp_path / "other", "mallory")
    with pytest.raises(pyrage.DecryptError):
        open_with_pyrage(other, attachments(msg)["report.age"])


def test_other_seats_and_other_mail_are_unchanged(referee, game, players):
    ((msg, raw),) = to(game, players["blue"].email)
    assert set(attachments(msg)) == {"report.html"}
    assert body(msg) == referee.report("h1", "blue", "text", "setup")


def test_the_subject_and_message_id_stay_and_compose_again_keeps_the_message_id(referee,
                                                                              players, red):
    from sqlalchemy import select

    from pbem.engine.delivery import compose_queued
    from pbem.store.models import Outbox

    referee.new_game(GameSpec(
        ruleset="hunt", game_id="h1", options={}, referee_address="referee@judge.example",
        players=(PlayerSpec("red", red.email, red.public_text, "id_red.pub", encrypt=True),
                 players["blue"].spec())))
    with referee.db.read() as s:
        row = next(r for r in s.exec(select(Outbox)) if r.owner == "red")
        (_, first), (_, again) = (compose_queued(s, referee.sealer, row) for _ in range(2))
    one, two = (email.message_from_bytes(b, policy=policy.default) for b in (first, again))
    assert first != again  # age is randomised ...
    assert one["Message-ID"] == two["Message-ID"]  # ... the mail is the same mail
    assert "setup report for red" in str(one["Subject"])
    assert attachments(one)["report.age"] != attachments(two)["report.age"]
    assert open_with_pyrage(red.private, attachments(one)["report.age"]) == \
        open_with_pyrage(red.private, attachments(two)["report.age"])


def test_receipts_and_notices_stay_plain(referee, game, red, clock):
    clock.advance(minutes=5)
    v = referee.ingest([incoming(red.signed("h1", 1, "dig", "dig 13", issued=clock()))])
    assert [x.status for x in v] == ["accepted"], v
    referee.extend("h1", by=3600, why="a holiday")
    got = mail(referee)
    assert to(got, red.email) == [] and len(letters_to(got, red.email)) == 2
    receipt = next(m for m in letters_to(got, red.email) if "BEGIN PBEM RECEIPT" in body(m))
    assert "orders-commit:" in body(receipt)


# ---------------------------------------------------------------- asking for it

def test_a_seat_with_a_pbem_key_is_refused_naming_the_role_and_what_is_expected(referee,
                                                                              players, red):
    blue = players["blue"]
    spec = PlayerSpec("blue", blue.email, blue.public_text, "blue.pub", encrypt=True)
    with pytest.raises(NotEncryptable, match=r"player blue: .*only to an ssh-ed25519 key.*"
                                             r"pbem key \(pbem-ed25519") as e:
        referee.new_game(GameSpec(ruleset="hunt", game_id="h1", options={},
                                  players=(red.spec(), spec)))
    assert "ssh-keygen -t ed25519" in str(e.value)
    assert referee.status() == []  # nothing was created


def test_set_turns_it_on_and_off_and_the_next_report_follows(referee, players, red, clock):
    referee.new_game(GameSpec(ruleset="hunt", game_id="h1", options={},
                              players=(red.spec(), players["blue"].spec())))
    ((msg, _),) = to(mail(referee), red.email)
    assert "report.html" in attachments(msg)  # plain: not asked for
    r = referee.change_settings("h1", encrypt={"red": True}, why="red asked")
    assert r["changed"] == ["encrypt of red"] and r["notified"] == 1
    line = referee_lines(referee)[-1]
    assert (line["action"], line["changed"], line["why"]) == (
        "set", [{"setting": "encrypt", "role": "red"}], "red asked")
    (notice,) = letters_to(mail(referee), red.email)
    assert "age -d -i ~/.ssh/id_ed25519 report.age" in \
        body(notice)
    with pytest.raises(PbemError, match="red's reports are encrypted already"):
        referee.change_settings("h1", encrypt={"red": True})
    with pytest.raises(NotEncryptable, match="player blue: .*pbem key"):
        referee.change_settings("h1", encrypt={"blue": True})

    assert [d.phase for d in referee.process("h1", force=True)] == ["1.dig"]
    got = mail(referee)
    ((msg, raw),) = to(got, red.email)
    assert_encrypted_report(referee, msg, raw, red.private, "1.dig", open_with_pyrage)
    ((blue, _),) = to(got, players["blue"].email)
    assert "report.html" in attachments(blue)

    referee.change_settings("h1", encrypt={"red": False}, why="red reads on a phone")
    (notice,) = letters_to(mail(referee), red.email)
    assert "unencrypted again" in body(notice)
    with pytest.raises(PbemError, match="red's reports are not encrypted already"):
        referee.change_settings("h1", encrypt={"red": False})
    assert [d.phase for d in referee.process("h1", force=True)] == ["2.dig"]
    ((msg, _),) = to(mail(referee), red.email)
    assert set(attachments(msg)) == {"report.html"}
    assert body(msg) == referee.report("h1", "red", "text", "2.dig")


def test_a_report_queued_before_the_change_goes_the_new_way(referee, game, red):
    referee.resend("h1", "red", "setup")
    referee.change_settings("h1", encrypt={"red": False})
    got = to(mail(referee), red.email)
    report = next(m for m, _ in got if "sent again" in str(m["Subject"]))
    assert set(attachments(report)) == {"report.html"}


def test_replace_keeps_encryption_only_with_an_ssh_key(referee, game, players, tmp_path):
    carol = players["green"]
    with pytest.raises(NotEncryptable, match="red's reports are encrypted.*pbem key"):
        referee.replace_player("h1", "red", "carol@new.example", carol.public_text,
                               "carol.pub", why="red left")
    new = ssh_player(referee, tmp_path / "carol-ssh", "red")
    referee.replace_player("h1", "red", "carol@new.example", new.public_text, "id_carol.pub",
                           why="red left")
    got = mail(referee)
    ((report, _),) = to(got, "carol@new.example")
    (welcome,) = letters_to(got, "carol@new.example")
    assert "encrypted with age to this key" in body(welcome)
    assert open_with_pyrage(new.private, attachments(report)["report.age"]).decode() == \
        referee.report("h1", "red", "text", "setup")


# ---------------------------------------------------------------- the command line

@pytest.fixture
def run(tmp_path):
    from click.testing import CliRunner

    from pbem.cli import main

    home = tmp_path / "home"

    def _run(*args, ok=True):
        r = CliRunner().invoke(main, ["--home", str(home), "--now", "2026-11-29T20:00:00Z",
                                      *args], catch_exceptions=False)
        assert (r.exit_code == 0) == ok, r.output
        return r

    return _run


def _cli_mail(run, folder):
    run("outbox", str(folder))
    return {str(m["To"]): m for m in (email.message_from_bytes(p.read_bytes(),
                                                                policy=policy.default)
                                       for p in sorted(folder.glob("*.eml")))}


def test_cli_new_with_encrypt_and_set(run, tmp_path):
    run("init")
    private, _ = ssh_keypair(tmp_path / "k", "red")
    run("keygen", "blue", "--dir", str(tmp_path / "k"))
    new = ["game", "new", "hunt", "--id", "h1", "--from", "ref@judge.example",
           "--player", f"red=red@x.example:{private}.pub",
           "--player", f"blue=blue@x.example:{tmp_path / 'k' / 'blue.pub'}"]
    r = run(*new, "--encrypt", "blue", ok=False)
    assert "player blue" in r.output and "ssh-ed25519" in r.output and "pbem key" in r.output
    r = run(*new, "--encrypt", "green", ok=False)
    assert "--encrypt" in r.output and "no player with role green" in r.output
    run(*new, "--encrypt", "red")
    got = _cli_mail(run, tmp_path / "m0")
    assert set(attachments(got["red@x.example"])) == {"report.age", "report.html.age"}
    assert set(attachments(got["blue@x.example"])) == {"report.html"}

    r = run("game", "set", "h1", "--role", "red", "--encrypt", "no", "--why", "phone")
    assert "changed encrypt of red" in r.output
    r = run("game", "set", "h1", "--encrypt", "red=yes")
    assert "changed encrypt of red" in r.output
    r = run("game", "set", "h1", "--encrypt", "blue=yes", ok=False)
    assert "player blue" in r.output and "pbem key" in r.output
    r = run("game", "set", "h1", "--encrypt", "red=maybe", ok=False)
    assert "yes or no" in r.output
    r = run("game", "set", "h1", "--encrypt", "yes", ok=False)
    assert "--role" in r.output
    r = run("game", "set", "h1", "--role", "red", "--zone", "red=Europe/Paris", ok=False)
    assert "--role ROLE goes with --encrypt" in r.output
    assert "--encrypt ROLE" in run("game", "new", "--help").output
    assert "--encrypt ROLE=yes|no" in run("game", "set", "--help").output
    log = [json.loads(x) for x in run("log", "h1", "--json").output.splitlines()]
    created = next(o for o in log if o["type"] == "game-created")
    assert [x.get("encrypt_reports", False) for x in created["roles"]] == [True, False]
    assert [o["changed"] for o in log if o["type"] == "referee"] == [
        [{"setting": "encrypt", "role": "red"}]] * 2


# ---------------------------------------------------------------- the migration

def _make_0003(referee):
    """Turn the database into what pbem at schema 0003 left: without the 0004 columns, every
    protected row's MAC over the 0003 column lists, and the version-2 marker."""
    from test_migrations import rewrite_as
    from test_store_integrity import _drop_0004

    from pbem.store.integrity import PROTECTED_V2

    rewrite_as(referee, PROTECTED_V2, _drop_0004, 2, "0003_running_games")


def _next(referee, clock):
    from pbem.engine.home import Home
    from pbem.engine.service import Referee

    return Referee(Home(referee.home.path), clock=clock, entropy=CountingEntropy("next"))


@pytest.fixture
def old_game(referee, players, red):
    """Game h1 as a pbem at schema 0003 left it: red's key is an ssh-ed25519 key, blue's a pbem
    key, and nothing says which."""
    referee.new_game(GameSpec(ruleset="hunt", game_id="h1", options={},
                              players=(red.spec(), players["blue"].spec())))
    mail(referee)
    _make_0003(referee)
    return referee


def test_a_0003_database_is_upgraded_and_encryption_turned_on_with_the_key_file(old_game, red,
                                                                               players, clock,
                                                                               tmp_path):
    from test_store_integrity import peek

    with pytest.raises(Exception, match="pbem upgrade"):
        _next(old_game, clock).status()
    out = _next(old_game, clock).upgrade()
    assert (out["revision_before"], out["revision"]) == ("0003_running_games", SCHEMA_HEAD)
    assert out["rows_protected"] == {}  # the rows had MACs: checked, then re-computed
    assert peek(old_game, "SELECT role, key_type, encrypt_reports FROM player ORDER BY seat") \
        == [("red", None, 0), ("blue", None, 0)]
    r = _next(old_game, clock)
    # pbem cannot tell the key's form any more: it asks for the key file
    with pytest.raises(NotEncryptable, match="player red: .*does not know.*--key red=PUBKEYFILE"):
        r.change_settings("h1", encrypt={"red": True})
    blue = players["blue"]
    with pytest.raises(NotEncryptable, match="player blue: .*pbem key"):
        r.change_settings("h1", encrypt={"blue": True},
                          keys={"blue": (blue.public_text, "blue.pub")})
    with pytest.raises(PbemError, match="holds the key .* not red's registered key"):
        r.change_settings("h1", encrypt={"red": True},
                          keys={"red": (blue.public_text, "blue.pub")})
    with pytest.raises(PbemError, match="goes with --encrypt red=yes"):
        r.change_settings("h1", zones={"red": "Europe/Paris"},
                          keys={"red": (red.public_text, "id_red.pub")})
    r.change_settings("h1", encrypt={"red": True}, keys={"red": (red.public_text, "id_red.pub")})
    assert peek(old_game, "SELECT key_type, encrypt_reports FROM player WHERE role='red'") == \
        [("ssh-ed25519", 1)]
    # the game plays on, and red's next report is encrypted
    mail(r)
    clock.advance(minutes=5)
    v = r.ingest([incoming(red.signed("h1", 1, "dig", "dig 7", issued=clock()))])
    assert [x.status for x in v] == ["accepted"]
    assert [d.phase for d in r.process("h1", force=True)] == ["1.dig"]
    ((msg, raw),) = to(mail(r), red.email)
    assert_encrypted_report(r, msg, raw, red.private, "1.dig", open_with_pyrage)
    assert _next(old_game, clock).upgrade()["revision_before"] == SCHEMA_HEAD


def test_a_row_tampered_with_before_the_upgrade_from_0003_is_refused(old_game, clock):
    from test_store_integrity import attack, peek

    attack(old_game, "UPDATE player SET email='thief@example.org' WHERE role='red'")
    with pytest.raises(Exception, match=r"player \(h1, red\)"):
        _next(old_game, clock).upgrade()
    assert peek(old_game, "SELECT version_num FROM alembic_version") == [("0003_running_games",)]


def test_the_setting_is_covered_by_the_row_mac(game, referee, clock):
    from test_store_integrity import attack

    from pbem.store.integrity import RowTampered

    attack(referee, "UPDATE player SET encrypt_reports=false WHERE role='red'")
    with pytest.raises(RowTampered, match=r"player \(h1, red\)"):
        _next(referee, clock).status("h1")


def test_the_migration_goes_down_and_up_again(referee, game):
    from alembic import command
    from alembic.config import Config
    from test_migrations import columns
    from test_store_integrity import peek

    from pbem.resources import migrations_dir

    referee.db.dispose()
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    cfg.set_main_option("sqlalchemy.url", referee.home.url.replace("%", "%%"))  # ini syntax
    engine = referee.db._migration_engine()
    try:
        for target in ("0003_running_games", "head"):
            with engine.begin() as conn:
                cfg.attributes["connection"] = conn
                (command.downgrade if target != "head" else command.upgrade)(cfg, target)
            cols = columns(referee, "player")
            assert ({"key_type", "encrypt_reports"} <= cols) == (target == "head")
    finally:
        engine.dispose()
    assert peek(referee, "SELECT version_num FROM alembic_version")[0][0] == SCHEMA_HEAD
