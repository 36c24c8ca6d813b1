"""`pbem game undo`: the last resolved phase is rolled back (issue 8, "The referee's commands";
DESIGN.md, "Referee actions"; pbem/engine/rollback.py).

Games of Escape from Atlantis (three players) are played through the service layer. Every
expectation is taken from the game as it stood before the phase (the players' views, the whole
state, the reports and the public log captured then), never from output of the code under test.
"""

from __future__ import annotations

import email
import json
import random
from datetime import timedelta

import pytest
from click.testing import CliRunner
from conftest import Player, incoming

from pbem.engine import registry
from pbem.engine.creation import GameSpec, PlayerSpec
from pbem.engine.errors import NotFound, PbemError
from pbem.engine.gamestate import GameContext
from pbem.ledger import canonical_json, line_hash
from pbem.store import repo
from pbem.verify import verify_file, verify_log

GAME = "atl-u"
ROLES = ("red", "green", "blue")
WHY = "the map file had a wrong tile at 0710"


class Table:
    """One Atlantis game on the test's referee: seats, a seeded bot, and helpers."""

    def __init__(self, referee, clock, zones=None):
        self.ref, self.clock = referee, clock
        self.rng = random.Random(8)
        self.rs = registry.get("atlantis")
        self.players = {r: Player(r, seed=f"{GAME}/{r}", referee=referee) for r in ROLES}
        zones = zones or {}
        specs = tuple(PlayerSpec(r, p.email, p.public_text, f"{r}.pub", zones.get(r))
                      for r, p in self.players.items())
        referee.new_game(GameSpec(ruleset="atlantis", game_id=GAME, players=specs, options={},
                                  referee_address="referee@judge.example"))

    def window(self):
        return self.ref.status(GAME)[0]["window"]

    def send(self, role, *, nonce=None, body=None):
        """Sign and ingest orders of ``role`` for the open window (the bot's, or ``body``);
        returns (the order text, the verdict)."""
        view, window = self.ref.view_and_window(GAME, role)
        if body is None:
            body = self.rs.bot_orders(view, window, role, self.rng)
        self.clock.advance(minutes=1)
        text = self.players[role].text(GAME, window.turn, window.phase, body,
                                       issued=self.clock(), nonce=nonce)
        from pbem.crypto.envelope import sign_text

        [verdict] = self.ref.ingest([incoming(sign_text(text, self.players[role].key))])
        return text, verdict

    def send_owed(self):
        for role in self.window()["owed"]:
            _, v = self.send(role)
            assert v.status == "accepted", v.summary()

    def resolve(self):
        self.clock.advance(hours=1)
        done = self.ref.process(GAME, force=True)
        assert len(done) == 1
        return done[0]

    def captured(self):
        """What the position is now, as every reader sees it and as the referee holds it."""
        views = {r: self.ref.view_and_window(GAME, r)[0] for r in ROLES + ("*",)}
        with self.ref.db.read() as s:
            ctx = GameContext.load(s, self.ref.sealer, repo.get_game(s, GAME))
            parts = ctx.parts
        reports = {r: self.ref.report(GAME, r) for r in ROLES}
        return {"views": views, "parts": parts, "reports": reports}

    def log(self):
        return [json.loads(line) for line in self.ref.log_lines(GAME)]

    def phases(self):
        with self.ref.db.read() as s:
            return [(p.seq, p.phase_id, p.status, p.commit) for p in repo.phases(s, GAME)]

    def has_secret(self, purpose):
        with self.ref.db.read() as s:
            return repo.get_sealed(s, GAME, "referee", purpose) is not None


@pytest.fixture
def table(referee, clock):
    return Table(referee, clock)


def setup_done(table):
    """Resolve the setup window (all three send orders); 1.red is open."""
    table.send_owed()
    table.resolve()
    assert table.window()["phase_id"] == "1.red"


def rechain(objs):
    """The lines of ``objs`` with every ``prev`` recomputed: a forger's log whose chain holds."""
    lines, prev = [], "0" * 64
    for obj in objs:
        obj = dict(obj, prev=prev)
        line = canonical_json(obj)
        lines.append(line)
        prev = line_hash(line)
    return lines


# ---------------------------------------------------------------- the state and the window

def test_undo_restores_the_state_and_reopens_the_window_with_new_dice(table):
    setup_done(table)
    _, v = table.send("red")
    assert v.status == "accepted"
    before = table.captured()
    old_window = table.window()
    [(seq, _, _, old_commit)] = [p for p in table.phases() if p[1] == "1.red"]
    lines_before = len(table.log())

    table.resolve()
    assert table.window()["phase_id"] == "1.green"
    after_phase = table.captured()
    assert after_phase["reports"] != before["reports"]  # the phase changed something

    table.clock.advance(hours=5)
    r = table.ref.undo(GAME, why=WHY)
    assert (r["phase"], r["cancelled"], r["carried"]) == ("1.red", "1.green", ["red"])

    now = table.captured()
    assert now["views"] == before["views"]
    assert now["parts"] == before["parts"]
    assert now["reports"] == before["reports"]  # `pbem report` shows the position again

    w = table.window()
    assert (w["phase_id"], w["owed"], w["orders_in"]) == ("1.red", old_window["owed"], ["red"])
    # the deadline is counted from now by the game's schedule (72 hours), not the old one
    assert w["deadline"] == (table.clock() + timedelta(hours=72)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert w["deadline"] != old_window["deadline"]

    phases = table.phases()
    assert [p[:3] for p in phases] == [(1, "0.setup", "resolved"), (seq, "1.red", "undone"),
                                       (seq + 1, "1.green", "cancelled"),
                                       (seq + 2, "1.red", "open")]
    new_commit = phases[-1][3]
    assert new_commit != old_commit and r["commit"] == new_commit

    # the public log: the old lines untouched, then the undo, the cancelled window's seed,
    # the reopened window with its new commitment, and the orders carried over
    log = table.log()
    undo_at = next(i for i, o in enumerate(log) if o["type"] == "referee")
    assert undo_at > lines_before
    tail = log[undo_at:]
    assert [o["type"] for o in tail] == ["referee", "dice-reveal", "phase-open", "dice-commit",
                                         "orders"]
    assert tail[0]["action"] == "undo" and tail[0]["why"] == WHY
    assert (tail[0]["phase"], tail[0]["commit"]) == ("1.red", old_commit)
    assert tail[1]["phase"] == "1.green" and tail[3] == dict(tail[3], phase="1.red",
                                                             commit=new_commit)
    first_orders = next(o for o in log if o["type"] == "orders" and o["phase"] == "1.red")
    assert tail[4]["commit"] == first_orders["commit"] and tail[4]["carried"] is True


def test_the_orders_in_force_are_used_again_unless_replaced(table):
    setup_done(table)
    red_text, _ = table.send("red")
    table.resolve()
    log = table.log()
    first_reveal = next(o for o in log if o["type"] == "dice-reveal" and o["phase"] == "1.red")
    first_orders = next(o for o in log if o["type"] == "orders" and o["phase"] == "1.red")
    table.ref.undo(GAME, why=WHY)

    # redo with the orders carried over: the same order set, the same nonce, new dice
    table.resolve()
    log = table.log()
    redo_used = [o for o in log if o["type"] == "orders-used" and o["phase"] == "1.red"][-1]
    redo_reveal = [o for o in log if o["type"] == "dice-reveal" and o["phase"] == "1.red"][-1]
    assert redo_used["commit"] == first_orders["commit"]
    assert redo_reveal["nonces"] == first_reveal["nonces"]
    assert redo_reveal["seed"] != first_reveal["seed"]

    # undo again, and red replaces the orders: the new set wins
    table.ref.undo(GAME, why="once more")
    _, v = table.send("red", nonce=first_reveal["nonces"]["red"])
    assert v.status == "rejected" and "nonce" in v.summary()  # a used nonce is refused as usual
    body = red_text.split("\n\n", 1)[1]
    new_text, v = table.send("red", body=body)
    assert v.status == "accepted", v.summary()
    new_nonce = next(line.split(": ")[1] for line in new_text.splitlines()
                     if line.startswith("nonce:"))
    new_orders = [o for o in table.log() if o["type"] == "orders" and o["phase"] == "1.red"][-1]
    assert "carried" not in new_orders
    assert table.window()["orders_in"] == ["red"]
    table.resolve()
    log = table.log()
    used = [o for o in log if o["type"] == "orders-used" and o["phase"] == "1.red"][-1]
    reveal = [o for o in log if o["type"] == "dice-reveal" and o["phase"] == "1.red"][-1]
    assert used["commit"] == new_orders["commit"] != first_orders["commit"]
    assert reveal["nonces"] == {"red": new_nonce}


def test_a_player_who_sends_the_same_orders_again_gets_a_duplicate_receipt(table):
    setup_done(table)
    red_text, _ = table.send("red")
    table.resolve()
    table.ref.undo(GAME, why=WHY)
    from pbem.crypto.envelope import sign_text

    mail = (f"From: {table.players['red'].email}\nTo: referee@judge.example\nSubject: again\n"
            "Message-ID: <again@players.example>\n\n"
            + sign_text(red_text, table.players["red"].key))  # a new message, the same orders
    [v] = table.ref.ingest([incoming(mail)])
    assert v.status == "duplicate" and "received before and are in force" in v.summary()
    assert table.window()["orders_in"] == ["red"]


# ---------------------------------------------------------------- the log still verifies

def test_the_log_verifies_and_the_undone_rolls_are_checked(table, tmp_path):
    from test_verify import run_docs_verifier

    from pbem.cli import main

    setup_done(table)
    table.send("red")
    table.resolve()
    table.ref.undo(GAME, why=WHY)
    table.resolve()
    path = table.ref.export_log(GAME, tmp_path / "game.jsonl")
    report = verify_file(str(path))
    assert report.ok, report.summary()
    assert report.phases_undone == 1 and report.warnings == []
    cli = CliRunner().invoke(main, ["--home", str(table.ref.home.path), "verify", str(path)])
    assert cli.exit_code == 0, cli.output
    assert run_docs_verifier(tmp_path, path.read_text().splitlines()).returncode == 0

    # a roll of the undone phase, changed: caught by the dice, even with the chain recomputed
    objs = table.log()
    undo_at = next(i for i, o in enumerate(objs) if o["type"] == "referee")
    pos = next(i for i, o in enumerate(objs[:undo_at]) if o["type"] == "roll"
               and o["phase"] == "1.red" and "value" in o)
    sides = objs[pos]["sides"]
    objs[pos] = dict(objs[pos], value=objs[pos]["value"] % sides + 1)
    forged = rechain(objs)
    report = verify_log(forged, "forged")
    assert not report.ok
    assert [e for e in report.errors if e.startswith(f"forged:{pos + 1}: roll of phase '1.red'")]
    assert run_docs_verifier(tmp_path, forged).returncode != 0
    bad = tmp_path / "forged.jsonl"
    bad.write_text("".join(line + "\n" for line in forged))
    cli = CliRunner().invoke(main, ["--home", str(table.ref.home.path), "verify", str(bad)])
    assert cli.exit_code == 1 and f"{pos + 1}: roll of phase '1.red'" in cli.output


def test_undo_twice_goes_two_phases_back(table):
    before_setup = table.captured()
    setup_done(table)
    table.send("red")
    table.resolve()
    table.ref.undo(GAME, why=WHY)
    r = table.ref.undo(GAME, why="the setup was wrong too")
    assert r["phase"] == "0.setup" and r["cancelled"] == "1.red"
    now = table.captured()
    assert now["views"] == before_setup["views"] and now["parts"] == before_setup["parts"]
    assert table.window()["phase_id"] == "0.setup"
    assert sorted(table.window()["orders_in"]) == sorted(ROLES)  # carried from the setup
    statuses = [p[1:3] for p in table.phases()]
    assert statuses == [("0.setup", "undone"), ("1.red", "undone"), ("1.green", "cancelled"),
                        ("1.red", "cancelled"), ("0.setup", "open")]
    report = verify_log(table.ref.log_lines(GAME))
    assert report.ok and report.phases_undone == 2, report.summary()
    table.resolve()
    table.send("red")
    table.resolve()
    report = verify_log(table.ref.log_lines(GAME))
    assert report.ok and report.phases_undone == 2 and report.warnings == [], report.summary()


def test_undo_of_the_window_that_dealt_the_hidden_setup_commits_it_again(table):
    setup_done(table)
    first_commit = [o for o in table.log() if o["type"] == "setup-commit"]
    assert len(first_commit) == 1 and table.has_secret("setup-salt")
    r = table.ref.undo(GAME, why=WHY)
    assert r["setup_withdrawn"] is True
    assert not table.has_secret("setup-salt") and not table.has_secret("setup-hidden")
    undo = [o for o in table.log() if o["type"] == "referee"][-1]
    assert undo["setup_withdrawn"] is True

    # redo with one new order set: new nonces key the redo's hidden draws
    _, v = table.send("green")
    assert v.status == "accepted"
    table.resolve()
    commits = [o for o in table.log() if o["type"] == "setup-commit"]
    assert len(commits) == 2 and commits[1]["commit"] != commits[0]["commit"]
    assert table.has_secret("setup-salt")
    reveals = [o for o in table.log() if o["type"] == "dice-reveal" and o["phase"] == "0.setup"]
    assert reveals[0]["nonces"]["green"] != reveals[1]["nonces"]["green"]

    # at the end every hidden roll, the undone phase's too, is revealed and checks out
    table.ref.end_game(GAME, why="testing the end")
    log = table.log()
    hidden_rolls = [o for o in log if o["type"] == "roll" and o.get("stream") == "hidden"]
    undo_at = next(i for i, o in enumerate(log) if o["type"] == "referee")
    assert any(o["phase"] == "0.setup" for o in log[:undo_at] if o in hidden_rolls)
    report = verify_log(table.ref.log_lines(GAME))
    assert report.ok, report.summary()
    assert report.hidden_verified == len(hidden_rolls) and report.setups_verified == 1
    assert report.hidden_pending == 0 and report.setups_pending == 0


def test_a_setup_commit_the_undo_did_not_withdraw_is_still_one_per_game(table):
    setup_done(table)
    table.send("red")
    table.resolve()
    r = table.ref.undo(GAME, why=WHY)
    assert r["setup_withdrawn"] is False and table.has_secret("setup-salt")
    table.resolve()
    assert len([o for o in table.log() if o["type"] == "setup-commit"]) == 1


# ---------------------------------------------------------------- the verifier's rules

def _undone_log(table):
    setup_done(table)
    table.send("red")
    table.resolve()
    table.ref.undo(GAME, why=WHY)
    table.resolve()
    return table.log()


def test_the_verifier_refuses_a_reused_commitment_after_an_undo(table):
    objs = _undone_log(table)
    commits = [i for i, o in enumerate(objs) if o["type"] == "dice-commit" and o["phase"] == "1.red"]
    objs[commits[1]]["commit"] = objs[commits[0]]["commit"]
    report = verify_log(rechain(objs))
    assert any(e.startswith(f"log:{commits[1] + 1}: dice-commit for phase '1.red': expected a "
                            "new commitment after the undo") for e in report.errors)


def test_the_verifier_refuses_an_undo_of_a_phase_not_resolved(table):
    objs = _undone_log(table)
    undo_at = next(i for i, o in enumerate(objs) if o["type"] == "referee")
    objs[undo_at]["phase"] = "9.red"
    report = verify_log(rechain(objs))
    assert report.errors[0].startswith(f"log:{undo_at + 1}: undo of phase '9.red': expected a "
                                       "resolved phase")


def test_the_verifier_refuses_an_undo_of_another_commitment(table):
    objs = _undone_log(table)
    undo_at = next(i for i, o in enumerate(objs) if o["type"] == "referee")
    objs[undo_at]["commit"] = "0" * 64
    report = verify_log(rechain(objs))
    assert report.errors[0].startswith(f"log:{undo_at + 1}: undo of phase '1.red': expected the "
                                       "commit")


def test_the_verifier_refuses_an_undo_of_a_phase_that_is_not_the_last_resolved(table):
    setup_done(table)
    table.send("red")
    table.resolve()
    objs = table.log()
    # a forged undo of 0.setup, though 1.red was resolved after it
    objs.append({"type": "referee", "action": "undo", "why": "x", "game": GAME,
                 "phase": "0.setup", "at": objs[-1]["at"]})
    reveal = next(i for i, o in enumerate(objs)
                  if o["type"] == "dice-reveal" and o["phase"] == "1.red") + 1
    report = verify_log(rechain(objs))
    assert report.errors == [(f"log:{len(objs)}: undo of phase '0.setup': expected the last "
                              "resolved phase, found phase '1.red' resolved after it "
                              f"(dice-reveal at line {reveal})")]


def test_the_verifier_checks_the_setup_withdrawal_claim(table):
    setup_done(table)
    table.ref.undo(GAME, why=WHY)
    objs = table.log()
    undo_at = next(i for i, o in enumerate(objs) if o["type"] == "referee")
    objs[undo_at]["setup_withdrawn"] = False
    report = verify_log(rechain(objs))
    assert report.errors[0].startswith(f"log:{undo_at + 1}: undo of phase '0.setup': "
                                       "'setup_withdrawn' is False")


def test_a_cancelled_window_committed_again_without_its_reveal_is_warned(table):
    objs = _undone_log(table)
    undo_at = next(i for i, o in enumerate(objs) if o["type"] == "referee")
    assert objs[undo_at + 1]["type"] == "dice-reveal" and objs[undo_at + 1]["phase"] == "1.green"
    del objs[undo_at + 1]
    report = verify_log(rechain(objs))
    first, again = [i + 1 for i, o in enumerate(objs)
                    if o["type"] == "dice-commit" and o["phase"] == "1.green"]
    assert report.ok and report.warnings == [
        (f"log:{again}: dice-commit for phase '1.green': the window committed at line {first} "
         f"was cancelled by the undo at line {undo_at + 1}, but its seed was never revealed")]


def test_without_the_undo_line_a_second_commitment_is_still_an_error(table):
    objs = _undone_log(table)
    del objs[next(i for i, o in enumerate(objs) if o["type"] == "referee")]
    report = verify_log(rechain(objs))
    assert any("expected one per phase, found a second" in e for e in report.errors)


# ---------------------------------------------------------------- refusals

def test_undo_with_no_resolved_phase_is_refused(table):
    with pytest.raises(PbemError, match=r"game atl-u has no resolved phase yet: there is "
                                        r"nothing to undo"):
        table.ref.undo(GAME, why=WHY)
    assert table.log()[-1]["type"] == "dice-commit"  # nothing written


def test_undo_of_an_ended_game_is_refused(table):
    setup_done(table)
    table.ref.end_game(GAME, why="the players stopped")
    lines = table.ref.log_lines(GAME)
    with pytest.raises(PbemError, match=r"game atl-u has ended: its hidden seed and hidden setup "
                                        r"were revealed at the end, so anyone who read them "
                                        r"could steer a redo"):
        table.ref.undo(GAME, why=WHY)
    assert table.ref.log_lines(GAME) == lines


def test_undo_needs_a_reason_and_a_game(table):
    setup_done(table)
    with pytest.raises(PbemError, match="--why"):
        table.ref.undo(GAME, why="  ")
    with pytest.raises(NotFound):
        table.ref.undo("nope", why=WHY)


def test_a_paused_game_can_be_undone(table):
    setup_done(table)
    table.send("red")
    table.resolve()
    table.ref.pause(GAME, why="holidays")
    r = table.ref.undo(GAME, why=WHY)
    assert r["phase"] == "1.red" and table.window()["phase_id"] == "1.red"
    assert table.ref.game(GAME).paused_at is not None  # still paused
    assert verify_log(table.ref.log_lines(GAME)).ok


def test_a_phase_resolved_without_a_snapshot_is_refused(table):
    setup_done(table)
    with table.ref.db.write() as s:
        repo.delete_sealed(s, GAME, "referee", "undo:1")
    with pytest.raises(PbemError, match=r"resolved before pbem kept the state"):
        table.ref.undo(GAME, why=WHY)


def _snapshot_bytes(table, seq):
    """(the sealed snapshot of phase ``seq`` opened, the game's public part now)."""
    with table.ref.db.read() as s:
        blob = repo.get_sealed(s, GAME, "referee", f"undo:{seq}").blob
        public = repo.get_game(s, GAME).public_state
    return table.ref.sealer.open(GAME, "referee", f"undo:{seq}", 0, blob), public.encode()


def test_a_snapshot_is_compressed_against_the_state_its_phase_left(table):
    """RFC 1950: the zlib stream carries FDICT and the Adler-32 of the public part the phase
    left; it is far smaller than the same text compressed alone, and it is the state before."""
    import zlib

    before = table.captured()
    setup_done(table)
    raw, public = _snapshot_bytes(table, 1)
    assert raw[1] & 0x20 and int.from_bytes(raw[2:6], "big") == zlib.adler32(public)
    z = zlib.decompressobj(zdict=public)
    text = z.decompress(raw) + z.flush()
    assert len(raw) * 2 < len(zlib.compress(text, 6))
    snap = json.loads(text)
    assert (snap["public"], snap["secret"], snap["referee"]) == (
        before["parts"].public, before["parts"].secret, before["parts"].referee)


def test_a_snapshot_sealed_by_an_earlier_pbem_is_still_undone(table):
    """pbem before issue 11 compressed the snapshot without a dictionary."""
    import zlib

    before = table.captured()
    setup_done(table)
    raw, public = _snapshot_bytes(table, 1)
    z = zlib.decompressobj(zdict=public)
    old = zlib.compress(z.decompress(raw) + z.flush(), 1)
    assert not old[1] & 0x20
    with table.ref.db.write() as s:
        repo.delete_sealed(s, GAME, "referee", "undo:1")
        repo.add_sealed(s, GAME, "referee", "undo:1", 0,
                        table.ref.sealer.seal(GAME, "referee", "undo:1", 0, old))
    table.ref.undo(GAME, why=WHY)
    assert table.captured()["parts"] == before["parts"]


# ---------------------------------------------------------------- the players are told

def test_every_player_gets_a_notice(referee, clock, tmp_path):
    table = Table(referee, clock, zones={"blue": "Europe/Paris"})
    setup_done(table)
    table.send("red")
    table.resolve()
    table.ref.outbox(tmp_path / "out0")  # what was queued before the undo goes out first
    r = table.ref.undo(GAME, why=WHY)
    assert r["notices"] == 3
    sent = table.ref.outbox(tmp_path / "out")
    mails = {}
    for path in sent:
        m = email.message_from_bytes(path.read_bytes())
        part = m if not m.is_multipart() else m.get_payload()[0]
        mails[m["To"]] = (m["Subject"],
                          part.get_payload(decode=True).decode().replace("\r\n", "\n"))
    assert set(mails) == {p.email for p in table.players.values()}
    deadline = table.window()["deadline"]  # 2026-...T...Z
    for p in table.players.values():
        subject, text = mails[p.email]
        assert "1 red undone" in subject
        assert WHY in text and "1.red" in text and r["commit"] in text and r["old_commit"] in text
        assert deadline[:10] + " " + deadline[11:16] + " UTC" in text
        assert "1.green" in text  # the cancelled window is named
    red = mails[table.players["red"].email][1]
    assert "stay in force unless you send new ones" in red
    assert "game: atl-u\nturn: 1\nphase: red\nrole: red\n" in red  # the order template
    assert "Europe/Paris" in mails[table.players["blue"].email][1]


# ---------------------------------------------------------------- the command line

def test_cli_game_undo(tmp_path):
    from pbem.cli import main

    home = tmp_path / "home"

    def run(*args, code=0):
        r = CliRunner().invoke(main, ["--home", str(home), "--now", "2026-11-29T20:00:00Z",
                                      *args], catch_exceptions=False)
        assert r.exit_code == code, r.output
        return r.output

    run("init")
    for role in ("red", "blue"):
        run("keygen", role, "--dir", str(tmp_path / "k"))
    run("game", "new", "hunt", "--id", "h1", "--from", "referee@judge.example",
        "--player", f"red=red@x.example:{tmp_path / 'k' / 'red.pub'}",
        "--player", f"blue=blue@x.example:{tmp_path / 'k' / 'blue.pub'}")
    out = run("game", "undo", "h1", "--why", "a mistake", code=1)
    assert "no resolved phase yet" in out
    assert "--why" in run("game", "undo", "h1", code=2)
    run("process", "--game", "h1", "--force")
    out = run("game", "undo", "h1", "--why", "a mistake")
    assert "turn 1 dig (1.dig) undone" in out and "new dice commitment" in out
    assert "2 notices queued" in out
    status = json.loads(run("status", "h1", "--json"))[0]["window"]
    assert status["phase_id"] == "1.dig"
    assert "OK" in run("verify", "h1")
    log = [json.loads(x) for x in run("log", "h1", "--json").splitlines()]
    assert next(o for o in log if o["type"] == "referee")["why"] == "a mistake"


def test_carried_orders_do_not_close_the_reopened_window_early(table):
    setup_done(table)
    table.send("red")  # red alone owes orders in 1.red, and the game closes windows early
    table.clock.advance(minutes=5)
    assert [d.phase for d in table.ref.process(GAME)] == ["1.red"]  # closed early
    table.ref.undo(GAME, why=WHY)
    deadline = table.window()["deadline"]
    table.clock.advance(hours=1)
    assert table.ref.process(GAME) == []  # the carried orders wait for the deadline
    assert table.window()["phase_id"] == "1.red"
    _, v = table.send("red")  # new orders received in the reopened window: it closes early
    assert v.status == "accepted"
    table.clock.advance(minutes=5)
    assert [d.phase for d in table.ref.process(GAME)] == ["1.red"]
    assert table.window()["phase_id"] == "1.green"
    # and without new orders, the carried ones are used at the deadline
    table.ref.undo(GAME, why="again")
    table.clock.advance(hours=71)
    assert table.ref.process(GAME) == []
    table.clock.advance(hours=2)
    done = table.ref.process(GAME)
    assert [(d.phase, d.nmr) for d in done] == [("1.red", [])]
    assert deadline != table.window()["deadline"]


def test_a_player_replaced_after_an_undo_is_told_the_commitment_in_force(table, tmp_path):
    """A new referee's trial (issue 8): after undo then replace, the new player's welcome
    report was written before the window reopened, so its deadline and dice commitment were the
    undone window's; the welcome notice now gives the ones in force and says so."""
    setup_done(table)
    table.send_owed()
    table.resolve()
    table.ref.undo(GAME, why=WHY)
    reopened = [p for p in table.phases() if p[2] == "open"][0]
    new = Player("red", email="dora@new.example", seed="dora")
    table.clock.advance(minutes=5)
    table.ref.replace_player(GAME, "red", new.email, new.public_text, "dora.pub",
                             why="red left")
    table.ref.outbox(tmp_path / "out")
    welcome = [email.message_from_bytes(p.read_bytes())
               for p in (tmp_path / "out").glob("*.eml")]
    texts = [m.get_payload(decode=True).decode() for m in welcome
             if m["To"] == new.email and "you now play red" in m["Subject"]]
    assert texts and reopened[3] in texts[0].replace("\r\n", "\n").replace("\n", " ")
    assert "the ones in force" in texts[0].replace("\r\n", " ").replace("\n", " ")
