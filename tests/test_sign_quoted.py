"""`pbem sign` on an order template still quoted from a reply (issue 8, "What a new user ran
into": it failed with "the header lacks 'game:'..."). The template is the one the player's
report carries; it is quoted the way mail clients quote a reply (`> `, and `>>` or `> > ` for a
reply to a reply), signed, and the signed orders are ingested: the judge must accept them."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from pbem.cli import main


@pytest.fixture
def run(tmp_path):
    home = tmp_path / "home"

    def _run(*args, input=None):
        return CliRunner().invoke(main, ["--home", str(home), "--now", "2026-11-29T20:00:00Z",
                                         *args], input=input, catch_exceptions=False)

    assert _run("init").exit_code == 0
    for role in ("red", "blue"):
        assert _run("keygen", role, "--dir", str(tmp_path / "k")).exit_code == 0
    r = _run("game", "new", "hunt", "--id", "h1", "--from", "ref@judge.example",
             "--player", f"red=red@x.example:{tmp_path / 'k' / 'red.pub'}",
             "--player", f"blue=blue@x.example:{tmp_path / 'k' / 'blue.pub'}")
    assert r.exit_code == 0, r.output
    return _run


def template(run) -> str:
    """The order template of red's report, as mailed: from 'game:' to the line before
    'Public log:', with the order the player writes under it."""
    report = run("report", "h1", "--role", "red").output
    block = report[report.index("\ngame: h1\n") + 1:report.index("\nPublic log:")]
    return block.rstrip("\n") + "\ndig 4\n"


def quote(text: str, mark: str) -> str:
    """Every line with ``mark`` before it, an empty line with the mark alone (mail clients)."""
    return "".join((mark + line if line else mark.rstrip()) + "\n"
                   for line in text.split("\n")[:-1])


@pytest.mark.parametrize("mark", ["> ", ">> ", "> > "])
def test_a_quoted_template_is_signed_unquoted_and_accepted(run, tmp_path, mark):
    plain = template(run)
    assert re.search(r"^referee: SHA256:\S{43}$", plain, re.M)  # the template binds the judge
    quoted = tmp_path / "orders.txt"
    quoted.write_text(quote(plain, mark))
    assert quoted.read_text().startswith(mark + "game: h1\n")
    r = run("sign", str(quoted), "--key", str(tmp_path / "k" / "red.key"))
    assert r.exit_code == 0, r.output
    assert f"{quoted}: the header lines are quoted with '>'" in r.stderr
    assert "-----BEGIN PBEM ORDERS-----" in r.stdout and ">" not in r.stdout.split(
        "-----BEGIN PBEM SIGNATURE")[0]
    for line in plain.splitlines():  # every template line as written, nonce/issued filled
        if line.strip() and not line.endswith(":"):  # (trailing spaces are not signed)
            assert f"\n{line.rstrip()}\n" in r.stdout, line
    signed = tmp_path / "signed.txt"
    signed.write_text(r.stdout)
    r = run("ingest", "-v", str(signed))
    assert r.exit_code == 0 and "accepted h1 1.dig red" in r.output, r.output


def test_orders_typed_below_a_quoted_template_stay_as_written(run, tmp_path):
    head, _ = template(run).split("\ndig 4\n")
    orders = tmp_path / "orders.txt"
    orders.write_text(quote(head + "\n", "> ") + "dig 9\n")
    r = run("sign", str(orders), "--key", str(tmp_path / "k" / "red.key"))
    assert r.exit_code == 0 and "\ndig 9\n" in r.stdout


def test_a_partly_quoted_header_is_refused_naming_the_lines(run, tmp_path):
    lines = template(run).split("\n")
    lines = ["> " + x if i < 2 else x for i, x in enumerate(lines)]  # game: and turn: quoted
    orders = tmp_path / "orders.txt"
    orders.write_text("\n".join(lines))
    r = run("sign", str(orders), "--key", str(tmp_path / "k" / "red.key"))
    assert r.exit_code == 1
    assert (f"{orders}: line 3: the header is partly quoted: line 1 starts with '>'" in r.output
            and "remove the '>' quote marks" in r.output)


def test_an_unquoted_template_says_nothing_on_stderr(run, tmp_path):
    orders = tmp_path / "orders.txt"
    orders.write_text(template(run))
    r = run("sign", str(orders), "--key", str(tmp_path / "k" / "red.key"))
    assert r.exit_code == 0 and r.stderr == ""
