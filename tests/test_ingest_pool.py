"""Issue 11, "batch ingest at 1,500 mails a second": the reader pool that lives for a whole
ingest run (pbem.engine.readpool), and the judging work the readers do ahead of the judge
(pbem.engine.prepare). Real forked processes throughout; the reference for what a reader must
return is the same message read in this process (pbem.engine.reader.read_message)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from datetime import timedelta
from pathlib import Path

import pytest
from conftest import incoming

from pbem.engine.creation import GameSpec
from pbem.engine.reader import arrival, read_message
from pbem.engine.readpool import Budget, ReadPool, Reading

MAIL = Path(__file__).parent / "data" / "mail"


def arrivals(n: int = 0):
    """The sample mails of tests/data/mail, then ``n`` small mails of our own, each with a
    signed text in its body."""
    from pbem.crypto.envelope import sign_text
    from pbem.crypto.keys import PrivateKey

    key = PrivateKey(hashlib.sha256(b"pool test").digest(), "p")
    raws = [p.read_bytes() for p in sorted(MAIL.glob("*.eml"))]
    raws += [(f"From: p{i}@x.example\nSubject: s{i}\nMessage-ID: <{i}@x>\n\n"
              + sign_text(f"game: g\nturn: 1\n\ndig {i}\n", key)).encode() for i in range(n)]
    out = []
    for i, raw in enumerate(raws):
        a = arrival(incoming(raw, f"m{i}"))
        a.id = i + 1
        out.append(a)
    return out


def same(result, item):
    """``result`` (from a worker) is what reading ``item`` here gives."""
    here = read_message(item)
    assert result.failure is None
    assert dataclasses.asdict(result.extracted) == dataclasses.asdict(here.extracted)
    assert repr(result.found) == repr(here.found)
    assert (result.id, result.raw, result.key) == (item.id, item.raw, item.key)


class Marking:
    """A ``prepare`` hook: writes into ``prepared`` the worker's pid and the last value
    shared; a message whose origin names ``crash`` ends its worker on the spot."""

    def __init__(self):
        self.value = None

    def update(self, value):
        self.value = value

    def __call__(self, msg):
        if "crash" in msg.origin:
            os._exit(7)
        msg.prepared["pid"] = os.getpid()
        msg.prepared["value"] = self.value


def test_chunks_come_back_in_order_as_this_process_reads_them():
    items = arrivals(30)
    with ReadPool(Budget()) as pool:
        readings = [pool.submit(items[:5]), pool.submit(items[5:20]), pool.submit(items[20:])]
        results = [r for reading in readings for r in reading.results()]
    assert len(results) == len(items)
    for result, item in zip(results, items):
        same(result, item)
    assert len({r.extracted.message_id for r in results}) == len(items)


def test_a_reader_that_dies_fails_only_the_message_it_was_reading(tmp_path):
    items = arrivals(12)
    n = len(items) - 5
    crash = dataclasses.replace(items[n], origin="crash here")
    items[n] = crash
    with ReadPool(Budget(), prepare=Marking()) as pool:
        results = pool.submit(items).results()
    assert results[n].failure == "the reader stopped on it (exit status 7)"
    assert results[n].found == [] and results[n].id == crash.id
    for i, (result, item) in enumerate(zip(results, items)):
        if i != n:
            same(result, item)
    assert not _children()


def test_workers_are_replaced_after_their_share_of_messages(monkeypatch):
    import pbem.engine.readpool as readpool

    monkeypatch.setattr(readpool, "RECYCLE_AFTER", 3)
    items = arrivals(20)
    with ReadPool(Budget(), prepare=Marking()) as pool:
        results = pool.submit(items).results()
    pids = [r.prepared.get("pid") for r in results if r.found]
    assert len(pids) == 21  # the thunderbird sample and our 20 are signed
    # each worker read at most 3 of them
    assert len(set(pids)) >= 7 and max(pids.count(p) for p in set(pids)) <= 3
    for result, item in zip(results, items):
        same(result, item)
    assert not _children()


def test_a_shared_value_reaches_the_messages_submitted_after_it():
    items = arrivals(16)[-16:]
    with ReadPool(Budget(), prepare=Marking()) as pool:
        before = pool.submit(items[:8])
        pool.share("position 1")
        after = pool.submit(items[8:])
        assert [r.prepared["value"] for r in before.results()] == [None] * 8
        assert [r.prepared["value"] for r in after.results()] == ["position 1"] * 8


def test_reading_alone_still_gives_the_whole_texts():
    """docs/mail.md, "For developers": ``Reading(items, budget).results()`` has the texts."""
    items = arrivals(0)
    for result, item in zip(Reading(items, Budget()).results(), items):
        same(result, item)
        assert result.extracted.texts == read_message(item).extracted.texts
    assert not _children()


def _children() -> list[str]:
    """The pids of this process's children still alive (Linux /proc)."""
    out = []
    for tid in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{tid}/children") as f:
            out += f.read().split()
    return out


# ---------------------------------------------------------------- work done ahead of the judge

@pytest.fixture
def game(referee, players):
    referee.new_game(GameSpec(ruleset="hunt", game_id="h1", options={},
                              players=(players["red"].spec(), players["blue"].spec())))
    return "h1"


def test_orders_checked_by_the_readers_get_the_verdicts_the_rules_give(referee, players, game,
                                                                      clock, monkeypatch):
    """150 order sets, enough that the judge shares the game's position with the readers
    while chunks are still to be read (chunks of 16, 32, 64...): each verdict lists exactly the problems the toy game's rules give (holes
    are 1 to 20; a line that is not `dig N` is refused), whoever found them."""
    import pbem.engine.judge as judge

    used = []
    real = judge.accept_orders

    def watch(batch, msg, ex, signed, now, pre=None):
        g = batch.game("h1")
        used.append(pre is not None and pre.problems is not None and pre.token == g.token)
        return real(batch, msg, ex, signed, now, pre)

    monkeypatch.setattr(judge, "accept_orders", watch)
    mails, expected = [], []
    for i in range(150):
        who = players["red" if i % 2 else "blue"]
        hole = (i * 7) % 30 + 1  # 1..30: over 20 is a problem
        body = f"dig {hole}" + ("\nshovel" if i % 5 == 0 else "")
        issued = clock() - timedelta(minutes=60) + timedelta(seconds=i)
        mails.append(incoming(who.signed(game, 1, "dig", body, issued=issued), f"mail {i}"))
        # the header is 8 lines and a blank one: the body starts on line 9
        expected.append(([9] if hole > 20 else []) + ([10] if i % 5 == 0 else []))
    verdicts = referee.ingest(mails)
    assert [v.status for v in verdicts] == ["accepted"] * 150
    assert [[p.line for p in v.problems] for v in verdicts] == expected
    for v in verdicts:
        assert all(("holes are numbered 1 to 20" in p.why) == (p.line == 9) for p in v.problems)
    assert any(used) and not all(used)  # the first chunk is the judge's, later ones prepared
    # every stored order set opens, under its own role, phase and digest, to its text and the
    # problems its verdict lists, whoever sealed it (pbem.engine.accept.seal_orders)
    from pbem.engine.accept import orders_purpose
    from sqlalchemy import select

    from pbem.store.models import OrderSet

    with referee.db.read() as s:
        rows = sorted(s.exec(select(OrderSet).where(OrderSet.game_id == game)),
                      key=lambda o: o.id)
    assert len(rows) == 150
    for row, lines, mail in zip(rows, expected, mails):
        data = json.loads(referee.sealer.open(game, row.role, orders_purpose(row.phase_seq,
                                                                            row.digest),
                                              0, row.blob))
        assert data["text"] in mail.raw.decode()
        assert [p["line"] for p in data["problems"]] == lines


def test_orders_prepared_for_another_position_are_judged_again(referee, players, game, clock,
                                                               monkeypatch):
    """A reader's problems count only for the position (state version, phase, window) they
    were found against: here every reader is told a position the game is not at, with a
    problem no rule gives, and no verdict lists it."""
    import pbem.engine.judge as judge
    from pbem.engine.prepare import Preparer
    from pbem.engine.values import Problem

    class Stale(Preparer):
        def prepare(self, text):
            out = super().prepare(text)
            if out is not None and out.header is not None:
                out.token = ("hunt", -1, None, None)
                out.problems = [Problem(None, "", "nowhere", "a problem no rule gives")]
            return out

    monkeypatch.setattr(judge, "Preparer", Stale)
    mails = [incoming(players["red" if i % 2 else "blue"].signed(
        game, 1, "dig", f"dig {i % 20 + 1}", issued=clock() - timedelta(minutes=5, seconds=-i)),
        f"mail {i}") for i in range(40)]
    verdicts = referee.ingest(mails)
    assert [v.status for v in verdicts] == ["accepted"] * 40
    assert all(v.problems == [] for v in verdicts)


def test_the_readers_digests_are_the_judges(referee, players, game, clock):
    """The keyed digest, plain SHA-256 and log commitment a reader computes are those of the
    order text (docs/log.md ``orders``; pbem.engine.accept)."""
    from pbem.crypto.canonical import canonical_bytes
    from pbem.engine.accept import order_digest, orders_commitment
    from pbem.engine.prepare import Preparer

    text = players["red"].text(game, 1, "dig", "dig 3", issued=clock())
    pre = Preparer(referee.sealer, 8).prepare(text)
    assert pre.plain == hashlib.sha256(canonical_bytes(text)).hexdigest()
    assert pre.digest == order_digest(referee.sealer, text)
    assert (pre.salt, pre.commit) == orders_commitment(referee.sealer, game, "1.dig", "red", text)
    assert pre.header.role == "red" and pre.problems is None  # no position shared: not checked


# ---------------------------------------------------------------- ids drawn before inserting

def test_bulk_inserted_rows_get_the_ids_the_database_would_give(referee, clock):
    """pbem.store.repo.new_ids: rows inserted with ids drawn first come after every row
    there, and a row the database numbers itself afterwards comes after them (SQLite: the
    largest id plus one, even after the last rows were deleted; PostgreSQL: the sequence)."""
    from sqlalchemy import delete, func, select

    from pbem.engine.publish import letter_row
    from pbem.store import repo
    from pbem.store.models import Outbox

    def letters(n):
        return [letter_row(referee.sealer, game_id=None, owner="archive", kind="rejection",
                           to="x@y.example", subject=f"s{i}", now=clock(),
                           letter={"sender": "r@j.example", "text": "t", "in_reply_to": None})
                for i in range(n)]

    with referee.db.write() as s:
        first = repo.insert_protected(s, Outbox, letters(3))
        s.execute(delete(Outbox).where(Outbox.id == first[-1]))
        second = repo.insert_protected(s, Outbox, letters(2))
        s.add(Outbox(game_id=None, owner="archive", kind="rejection", to_addr="z@y.example",
                     subject="by the ORM", created_at=clock()))
        s.flush()
        top = s.execute(select(func.max(Outbox.id))).scalar()
    assert first == sorted(first) and second == sorted(second)
    assert second[0] > first[-2] and top > second[-1]
    with referee.db.read() as s:  # every row reads back with its MAC whole
        assert len(list(s.execute(select(Outbox)).scalars())) == 5


def test_an_order_set_changed_outside_pbem_stops_the_judge(referee, players, game, clock):
    """The judge reads the order sets of the open phase with a plain select now
    (pbem.store.repo.accepted_order_values), and checks each row's MAC all the same: a status
    changed outside pbem stops the batch (RowTampered), nothing of it is written, and the
    message stays archived for the next run. docs/security.md, "Someone who can write the
    database"."""
    from conftest import raw_connect

    from pbem.store.integrity import RowTampered

    first = players["red"].signed(game, 1, "dig", "dig 3", issued=clock() - timedelta(minutes=2))
    assert [v.status for v in referee.ingest([incoming(first, "first")])] == ["accepted"]
    con = raw_connect(referee.home.url)
    try:
        con.execute("UPDATE order_set SET status='superseded'")
        con.commit()
    finally:
        con.close()
    second = players["red"].signed(game, 1, "dig", "dig 4", issued=clock() - timedelta(minutes=1))
    with pytest.raises(RowTampered, match="order_set"):
        referee.ingest([incoming(second, "second")])
    assert [m["verdict"] for m in referee.messages()] == ["pending", "accepted"]


def test_a_run_loads_a_games_state_once_while_its_version_stands(referee, players, game, clock,
                                                                  monkeypatch):
    """The judge opens the game's sealed state once a run, not in each of its transactions
    (pbem.engine.judge._Run.state), and opens it again when its position (state version,
    phase, window) is another; the players are read in every transaction."""
    import pbem.engine.judge as judge
    from pbem.engine.gamestate import GameContext
    from pbem.engine.prepare import game_token
    from pbem.store import repo

    loads, transactions = [], []
    real_load, real_judge = GameContext.load, judge._judge
    monkeypatch.setattr(GameContext, "load",
                        classmethod(lambda cls, *a: loads.append(1) or real_load(*a)))
    monkeypatch.setattr(judge, "_judge",
                        lambda *a, **k: transactions.append(1) or real_judge(*a, **k))
    mails = [incoming(players["red" if i % 2 else "blue"].signed(
        game, 1, "dig", f"dig {i % 20 + 1}", issued=clock() - timedelta(minutes=5, seconds=-i)),
        f"mail {i}") for i in range(60)]
    verdicts = referee.ingest(mails)
    assert [v.status for v in verdicts] == ["accepted"] * 60
    assert len(transactions) >= 2 and len(loads) == 1
    run = judge._Run(None)
    with referee.db.read() as s:
        row = repo.get_game(s, game)
        token = game_token(row, repo.open_phase(s, game))
        first = run.state(s, referee.sealer, row, token)
        again = run.state(s, referee.sealer, row, token)
        assert again.parts is first.parts and len(loads) == 2
        assert [p.role for p in again.players] == [p.role for p in first.players]
        moved = run.state(s, referee.sealer, row, token[:1] + (token[1] + 1,) + token[2:])
        assert moved.parts is not first.parts and len(loads) == 3
