"""The [mail] and [smtp] tables of HOME/config.toml, and a working From address for every game
(issue 8, "Mail out"; docs/mail.md, "The settings file")."""

from __future__ import annotations

import email
from email import policy

import pytest
from click.testing import CliRunner
from conftest import incoming

from pbem.cli import main
from pbem.engine.settings import (MailSettings, SettingsError, SmtpSettings,
                                  load_ingest_settings, load_mail_settings, load_smtp_settings)


def write(tmp_path, text):
    (tmp_path / "config.toml").write_text(text, encoding="utf-8")
    return tmp_path


# ---------------------------------------------------------------- the settings

def test_no_file_means_no_smtp_and_no_from(tmp_path):
    assert load_smtp_settings(tmp_path) == SmtpSettings()
    assert SmtpSettings().host is None and SmtpSettings().security == "starttls"
    assert load_mail_settings(tmp_path) == MailSettings()


def test_the_documented_example_is_read(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("x")
    home = write(tmp_path, f'''[mail]
from = "Referee <referee@example.org>"

[smtp]
host = "smtp.example.org"
port = 587
security = "starttls"
user = "referee"
password_env = "PBEM_SMTP_PASSWORD"
timeout = 30
cafile = "{ca}"
''')
    assert load_mail_settings(home).sender == "Referee <referee@example.org>"
    assert load_smtp_settings(home) == SmtpSettings("smtp.example.org", 587, "starttls",
                                                    "referee", "PBEM_SMTP_PASSWORD", 30.0,
                                                    str(ca))
    # the other tables do not disturb [ingest], which also learns [mail] from
    assert load_ingest_settings(home).reply_from == "Referee <referee@example.org>"


@pytest.mark.parametrize("text, expected", [
    ('[smtp]\nhost = "h"\nsecurity = "ssl"\n',
     'line 3: [smtp] security = "ssl": expected one of "none", "starttls", "tls"'),
    ('[smtp]\n\nport = 70000\n', "line 3: [smtp] port = 70000: expected a port number"),
    ('[smtp]\nport = "587"\n', 'line 2: [smtp] port = "587": expected a port number'),
    ('[smtp]\ntimeout = 0\n', "line 2: [smtp] timeout = 0: expected a number of seconds"),
    ('[smtp]\nhots = "h"\n', "line 2: [smtp] hots: no such setting; expected one of host, "
                             "port, security, user, password_env, timeout, cafile"),
    ('[smtp]\nhost = "h"\npassword = "hunter2"\n',
     "line 3: [smtp] password: pbem never reads a password from this file"),
    ('[smtp]\npassword_env = "hunter 2!"\n', "expected the NAME of an environment variable"),
    ('[smtp]\ncafile = "/no/such/ca.pem"\n', 'line 2: [smtp] cafile = "/no/such/ca.pem": no '
                                             "such file"),
    ('[smtp]\nhost = "smtp://x"\n', "expected a host name"),
    ('[mail]\nfrom = "nobody"\n', 'line 2: [mail] from = "nobody": expected the referee\'s mail '
                                  "address"),
    ('[mail]\nfrom = 3\n', "line 2: [mail] from = 3: expected"),
    ('[mail]\nsender = "a@b.example"\n', "line 2: [mail] sender: no such setting; expected "
                                         "from"),
    ('[mails]\nfrom = "a@b.example"\n', "line 1: no settings table [mails]; expected one of "
                                        "[ingest], [mail], [smtp]"),
])
def test_a_bad_table_names_the_file_the_line_and_what_was_expected(tmp_path, text, expected):
    home = write(tmp_path, text)
    loader = load_mail_settings if "[mail]" in text else load_smtp_settings
    with pytest.raises(SettingsError) as e:
        loader(home)
    assert str(e.value).startswith(str(home / "config.toml"))
    assert expected in str(e.value)
    assert "hunter2" not in str(e.value)


def test_each_command_stops_on_the_tables_it_uses(tmp_path):
    home = write(tmp_path, '[smtp]\nport = "x"\n')
    assert load_ingest_settings(home).reply_from is None  # ingest does not use [smtp]
    with pytest.raises(SettingsError):
        load_smtp_settings(home)
    home = write(tmp_path, '[mail]\nfrom = "x"\n')
    with pytest.raises(SettingsError):  # ingest uses [mail] from for its replies
        load_ingest_settings(home)


# ---------------------------------------------------------------- the From address of a game

@pytest.fixture
def home(tmp_path):
    home = tmp_path / "home"
    r = CliRunner().invoke(main, ["--home", str(home), "init"])
    assert r.exit_code == 0, r.output
    for role in ("red", "blue"):
        r = CliRunner().invoke(main, ["keygen", role, "--dir", str(tmp_path / "k")])
        assert r.exit_code == 0, r.output
    return home


def game_new(home, gid, *extra, env=None):
    keys = home.parent / "k"
    return CliRunner().invoke(main, ["--home", str(home), "--now", "2026-11-29T20:00:00Z",
                                     "game", "new", "hunt", "--id", gid,
                                     "--player", f"red=red@players.example:{keys / 'red.pub'}",
                                     "--player", f"blue=blue@players.example:{keys / 'blue.pub'}",
                                     *extra], env=env or {"PBEM_FROM": None})


def sent_from(home, tmp_path) -> set[str]:
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["--home", str(home), "outbox", str(out)])
    assert r.exit_code == 0, r.output
    return {email.message_from_bytes(p.read_bytes(), policy=policy.default)["From"]
            for p in out.glob("*.eml")}


def test_a_game_without_from_and_without_settings_is_refused_with_the_fix(home):
    r = game_new(home, "h1")
    assert r.exit_code == 1
    assert "give --from" in r.output and "PBEM_FROM" in r.output
    assert "[mail]" in r.output and 'from = "referee@your-domain"' in r.output
    assert str(home / "config.toml") in r.output


def test_the_settings_give_the_from_address(home, tmp_path):
    write(home, '[mail]\nfrom = "Referee <ref@club.example>"\n')
    r = game_new(home, "h1")
    assert r.exit_code == 0, r.output
    assert "run `pbem send`" in r.output
    assert sent_from(home, tmp_path) == {"Referee <ref@club.example>"}


def test_an_invalid_domain_in_the_settings_is_refused(home):
    write(home, '[mail]\nfrom = "referee@pbem.invalid"\n')
    r = game_new(home, "h1")
    assert r.exit_code == 1
    assert "referee@pbem.invalid" in r.output and "nobody can answer" in r.output
    assert "--from" in r.output


def test_an_explicit_from_is_taken_at_its_word_also_from_the_environment(home, tmp_path):
    write(home, '[mail]\nfrom = "referee@pbem.invalid"\n')
    assert game_new(home, "h1", "--from", "test@pbem.invalid").exit_code == 0
    r = game_new(home, "h2", env={"PBEM_FROM": "env@club.example"})
    assert r.exit_code == 0, r.output
    assert sent_from(home, tmp_path) == {"test@pbem.invalid", "env@club.example"}


def test_a_rejection_of_mail_that_names_no_game_comes_from_the_settings(referee, tmp_path):
    (referee.home.path / "config.toml").write_text('[mail]\nfrom = "judge@club.example"\n')
    mail = (b"From: someone@else.example\nTo: judge@club.example\nSubject: hi\n"
            b"Message-ID: <x1@else.example>\n\nno orders here\n")
    (v,) = referee.ingest([incoming(mail)])
    assert v.status == "rejected"
    (path,) = referee.outbox(tmp_path / "out")
    msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
    assert msg["From"] == "judge@club.example" and msg["To"] == "someone@else.example"
    assert str(msg["Message-ID"]).endswith("@club.example>")


def test_without_settings_a_rejection_keeps_the_old_default(tmp_path):
    from conftest import CountingEntropy, MovableClock

    from pbem.engine.home import Home
    from pbem.engine.service import Referee

    r = Referee(Home(tmp_path / "bare"), clock=MovableClock(), entropy=CountingEntropy())
    r.init()
    mail = (b"From: someone@else.example\nTo: x@y.example\nSubject: hi\n"
            b"Message-ID: <x2@else.example>\n\nno orders\n")
    r.ingest([incoming(mail)])
    (path,) = r.outbox(tmp_path / "out")
    assert email.message_from_bytes(path.read_bytes())["From"] == "referee@pbem.invalid"
