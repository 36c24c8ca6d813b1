"""One whole game of Escape from Atlantis through mail files (issue 2, "Tests"): `pbem demo`'s
path — keys (one player on the real ssh-keygen), signed orders in MIME mail of every client
form, ingest, process, reports, outbox, public log — checked from the outside."""

import email
import json
from email import policy
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    from pbem.demo import run_demo

    out = tmp_path_factory.mktemp("demo")
    return run_demo("atlantis", players=3, out_dir=out, seed=7)


def test_the_game_ends_and_its_log_verifies_without_the_database(demo):
    from pbem.verify import verify_file

    assert demo["status"] == "ended" and demo["winners"]
    report = verify_file(demo["log"])
    assert report.ok and report.rolls_pending == 0 and report.hidden_pending == 0
    lines = [json.loads(x) for x in Path(demo["log"]).read_text().splitlines()]
    assert [x["type"] for x in lines[-3:]] == ["game-end", "hidden-reveal", "setup-reveal"]


def test_every_client_form_was_sent_and_accepted(demo):
    forms = set()
    for path in sorted(Path(demo["out"], "mail-in").glob("*.eml")):
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        for part in msg.walk():
            if part.get_content_type() == "text/plain" and part.get_filename() is None:
                forms.add(part.get("Content-Transfer-Encoding", "7bit"))
                if part.get_param("format") == "flowed":
                    forms.add("flowed")
            if part.get_filename() == "orders.txt":
                forms.add("attachment")
            if part.get_filename() == "orders.txt.sig":
                forms.add("ssh")
    assert {"quoted-printable", "flowed", "attachment", "ssh", "7bit"} <= forms
    assert demo["mails"] == len(list(Path(demo["out"], "mail-in").glob("*.eml")))


def test_reports_for_every_player_and_phase_in_text_and_html(demo):
    base = Path(demo["out"], "reports")
    roles = sorted(p.name for p in base.iterdir())
    assert roles == ["blue", "green", "public", "red"]
    for role in roles:
        texts = sorted(base.joinpath(role).glob("*.txt"))
        htmls = sorted(base.joinpath(role).glob("*.html"))
        assert len(texts) == len(htmls) == demo["phases"] + 1  # + the setup report
        assert "<svg" in htmls[-1].read_text()
        assert "The game is over" in texts[-1].read_text()


def test_outgoing_mail_is_real_mail_to_the_right_people(demo):
    sent = sorted(Path(demo["out"], "mail-out").glob("*.eml"))
    kinds = {"report": 0, "receipt": 0}
    for path in sent:
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        assert msg["From"] == "referee@judge.example"
        kind = "receipt" if "receipt" in msg["Subject"] else "report"
        kinds[kind] += 1
        if kind == "report":
            role = msg["To"].split("@")[0]
            body = msg.get_body(("plain",)).get_content()
            assert f"Report for {role}" in body
            html = [p for p in msg.iter_attachments() if p.get_content_type() == "text/html"]
            assert len(html) == 1
    assert kinds["receipt"] == demo["mails"]
    assert kinds["report"] == 3 * (demo["phases"] + 1)


def test_the_same_seed_plays_the_same_game(tmp_path, demo):
    from pbem.demo import run_demo

    again = run_demo("atlantis", players=3, out_dir=tmp_path / "again", seed=7)
    assert Path(again["log"]).read_text() == Path(demo["log"]).read_text()
