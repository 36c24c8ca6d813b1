"""Whoever can write the database file but has no master key changes nothing unnoticed (issue 7;
docs/security.md, "Someone who can write the database"). Each attack is done with the sqlite3
module on the file (psycopg on PostgreSQL), as an attacker would; the next command fails with an
error naming the row, and nothing is resolved or sent."""

import hmac
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CountingEntropy, Player, incoming, raw_connect, sqlite_only

from pbem.engine.creation import GameSpec
from pbem.engine.home import Home
from pbem.engine.service import Referee
from pbem.store.integrity import PROTECTED, UNPROTECTED, RowKeyMissing, RowTampered


def db_path(referee) -> Path:
    return Path(referee.home.path) / "pbem.db"


def attack(referee, sql, params=()):
    """Run ``sql`` on the database file with the sqlite3 module (no key, no pbem)."""
    con = raw_connect(referee.home.url)
    try:
        con.execute(sql, params)
        con.commit()
    finally:
        con.close()


def peek(referee, sql, params=()):
    con = raw_connect(referee.home.url)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def next_referee(referee, clock):
    """The next command: a new Referee on the same home."""
    return Referee(Home(referee.home.path), clock=clock, entropy=CountingEntropy("next"))


def snapshot(referee):
    return (peek(referee, "SELECT id, status FROM phase ORDER BY id"),
            peek(referee, "SELECT id, sent_at FROM outbox ORDER BY id"),
            peek(referee, "SELECT count(*), max(last_seq) FROM log_block"),
            peek(referee, "SELECT id, status FROM order_set ORDER BY id"))


@pytest.fixture
def game(referee, players, clock):
    """Game h1 (hunt, red and blue); red's orders are in, blue's are not."""
    referee.new_game(GameSpec(ruleset="hunt", game_id="h1",
                              players=(players["red"].spec(), players["blue"].spec()),
                              options={}))
    v = referee.ingest([incoming(players["red"].signed("h1", 1, "dig", "dig 13",
                                                       issued=clock()))])
    assert v[0].status == "accepted"
    return referee


def expect_tampered(fn, table, key_text):
    with pytest.raises(RowTampered) as e:
        fn()
    msg = str(e.value)
    assert e.value.table == table
    assert f"the row {table} ({key_text}) " in msg and "changed outside pbem" in msg
    return e.value


def test_moved_piece_in_the_public_state(game, clock, tmp_path):
    state = json.loads(peek(game, "SELECT public_state FROM game WHERE id='h1'")[0][0])
    state["turns"] = 1  # the game would end after this phase
    attack(game, "UPDATE game SET public_state=? WHERE id='h1'",
           (json.dumps(state, sort_keys=True, separators=(",", ":")),))
    before = snapshot(game)
    r = next_referee(game, clock)
    expect_tampered(lambda: r.process("h1", force=True), "game", "h1")
    expect_tampered(lambda: r.process(), "game", "h1")
    assert snapshot(game) == before


def test_replaced_player_key_cannot_sign_for_the_player(game, players, clock):
    mallory = Player("red", seed="mallory")
    fp = mallory.key.public_key().fingerprint
    attack(game, "UPDATE player SET public_key=?, fingerprint=? WHERE game_id='h1' AND role='red'",
           (mallory.key.public_key().openssh_line(), fp))
    before = snapshot(game)
    r = next_referee(game, clock)
    clock.advance(minutes=5)
    forged = mallory.signed("h1", 1, "dig", "dig 7", issued=clock())
    expect_tampered(lambda: r.ingest([incoming(forged)]), "player", "h1, red")
    assert snapshot(game) == before  # no order set, no receipt
    # the message stays archived, unjudged, for after the repair
    assert peek(game, "SELECT verdict FROM message ORDER BY id DESC LIMIT 1") == [("pending",)]


def test_changed_player_address_is_reported_by_the_cli(game, clock, tmp_path):
    from pbem.cli import main

    attack(game, "UPDATE player SET email='mallory@evil.example' WHERE game_id='h1' "
           "AND role='blue'")
    before = snapshot(game)
    for args in (["status"], ["process", "--due"], ["report", "h1", "--role", "blue"]):
        res = CliRunner().invoke(main, ["--home", str(game.home.path),
                                        "--now", "2026-12-09T20:00:00Z", *args])
        assert res.exit_code == 1, res.output
        assert "Error: the row player (h1, blue) fails its integrity check" in res.output
    assert snapshot(game) == before  # the deadline had passed: nothing was resolved
    # mail queued before the attack keeps its (protected) address
    assert game.outbox(tmp_path / "out")
    assert not any(b"mallory" in f.read_bytes() for f in (tmp_path / "out").iterdir())


def test_pending_orders_marked_superseded(game, clock):
    (oid,) = peek(game, "SELECT id FROM order_set")[0]
    attack(game, "UPDATE order_set SET status='superseded'")
    before = snapshot(game)
    r = next_referee(game, clock)
    expect_tampered(lambda: r.process("h1", force=True), "order_set", str(oid))
    clock.advance(days=4)  # past the deadline: NMR would be applied to red
    expect_tampered(lambda: r.process(), "order_set", str(oid))
    assert snapshot(game) == before


def test_reopened_resolved_phase(game, players, clock):
    game.ingest([incoming(players["blue"].signed("h1", 1, "dig", "dig 3", issued=clock()))])
    assert [x.phase for x in game.process()] == ["1.dig"]
    (pid,) = peek(game, "SELECT id FROM phase WHERE seq=1")[0]
    attack(game, "UPDATE phase SET status='open', resolved_at=NULL WHERE seq=1")
    before = snapshot(game)
    r = next_referee(game, clock)
    expect_tampered(lambda: r.process(), "phase", str(pid))
    expect_tampered(lambda: r.status(), "phase", str(pid))
    assert snapshot(game) == before


def test_cleared_sent_at_sends_nothing_again(game, players, clock, tmp_path):
    first = game.outbox(tmp_path / "out1")
    assert first
    ids = [i for (i,) in peek(game, "SELECT id FROM outbox ORDER BY id")]
    attack(game, "UPDATE outbox SET sent_at=NULL")
    # one honest mail queued after the attack still goes (one bad row never stops the rest)
    signed = players["blue"].signed("h1", 1, "dig", "dig 2", issued=clock())
    r = next_referee(game, clock)
    assert [v.status for v in r.ingest([incoming(signed)])] == ["accepted"]
    before = snapshot(game)
    r = next_referee(game, clock)
    written = r.outbox(tmp_path / "out2")
    assert [p.name for p in written if "receipt-blue" in p.name] and len(written) == 1
    assert [what for what, _ in r.undeliverable] == [f"queued mail {i}" for i in ids]
    assert all("fails its integrity check" in why for _, why in r.undeliverable)
    phases, _, log, orders = snapshot(game)
    assert (phases, log, orders) == (before[0], before[2], before[3])
    placeholders = ",".join("?" * len(ids))
    assert peek(game, f"SELECT sent_at FROM outbox WHERE id IN ({placeholders})",
                ids) == [(None,)] * len(ids)  # left as the attacker made them, never sent


def test_a_nulled_mac_is_a_tamper_error(game, clock):
    attack(game, "UPDATE game SET mac=NULL")
    r = next_referee(game, clock)
    e = expect_tampered(lambda: r.status(), "game", "h1")
    assert "has no integrity check value" in str(e)


def test_rows_copied_to_another_role_or_game_fail(game, players, clock):
    game.new_game(GameSpec(ruleset="hunt", game_id="h2",
                           players=(players["red"].spec(), players["green"].spec()), options={}))
    # blue takes red's key, address and MAC in h1
    attack(game, "UPDATE player SET (public_key, fingerprint, email, mac) = (SELECT public_key, "
           "fingerprint, email, mac FROM player WHERE game_id='h1' AND role='red') "
           "WHERE game_id='h1' AND role='blue'")
    r = next_referee(game, clock)
    expect_tampered(lambda: r.status("h1"), "player", "h1, blue")
    # h2's red row copied whole (MAC included) from h1's red row: the game id is in the MAC
    attack(game, "UPDATE player SET (seat, email, public_key, fingerprint, zone, mac) = (SELECT "
           "seat, email, public_key, fingerprint, zone, mac FROM player WHERE game_id='h1' AND "
           "role='red') WHERE game_id='h2' AND role='red'")
    assert peek(game, "SELECT email, mac FROM player WHERE role='red' AND game_id='h1'") == \
        peek(game, "SELECT email, mac FROM player WHERE role='red' AND game_id='h2'")
    expect_tampered(lambda: r.status("h2"), "player", "h2, red")


def test_an_untouched_database_reads_and_a_keyless_one_cannot_write(game, clock):
    from pbem.store import repo
    from pbem.store.db import Database
    from pbem.store.models import Player as PlayerRow
    from pbem.store.models import Setting

    r = next_referee(game, clock)
    assert r.status()[0]["window"]["orders_in"] == ["red"]
    bare = Database(game.home.url)  # opened without the master key
    try:
        with pytest.raises(RowKeyMissing), bare.read() as s:
            repo.get_game(s, "h1")
        with pytest.raises(RowKeyMissing), bare.write() as s:
            s.add(PlayerRow(game_id="h1", role="white", seat=3, email="w@x.example",
                            public_key="k", fingerprint="f"))
        with bare.read() as s:  # unprotected tables stay readable
            # the marker only the master key can make: HMAC-SHA256 under the row-MAC key
            # (HKDF info "pbem/secret/1\nrow-mac") of "pbem/row-macs-done/3" (the column lists of 0004)
            key = game.sealer.derive_secret("row-mac")
            assert s.get(Setting, "row_macs").value == hmac.new(
                key, b"pbem/row-macs-done/3", "sha256").hexdigest()
    finally:
        bare.dispose()
    assert peek(game, "SELECT count(*) FROM player WHERE role='white'") == [(0,)]


def test_every_column_of_a_protected_table_is_covered():
    """A column added to a protected table must be added to PROTECTED (with a data step)."""
    import pbem.store.models  # noqa: F401
    from pbem.store.base import metadata

    for table, cols in PROTECTED.items():
        t = metadata.tables[table]
        assert set(cols) == {c.name for c in t.columns} - {"mac", *UNPROTECTED.get(table, ())}
        pk = [c.name for c in t.primary_key.columns]
        assert list(cols[:len(pk)]) == pk, table


# ---------------------------------------------------------------- upgrade from 0001

NEW_IN_0003 = {"game": ("schedule_json", "paused_at"), "phase": ("reminded_json",),
               "order_set": ("wait",),
               "outbox": ("attempts", "failed_at", "error", "next_try_at", "claimed_by",
                          "claimed_until")}


NEW_IN_0004 = {"player": ("key_type", "encrypt_reports")}
NEW_IN_0005 = {"report": ("encoding",)}


NEW_IN_0006 = ("ix_report_game_role_phase", "ix_event_game_phase", "ix_order_set_game_phase")
"""The indexes schema 0006 adds (migrations/versions/0006_lookup_indexes.py)."""


def _drop_0007(con):
    """Undo 0007 (migrations/versions/0007_log_blocks.py) as pbem at 0006 would have stored
    the log: the table ``log_line``, one row per line, each line read back from its block
    (pbem.store.logblock), then no ``log_block``. Does nothing when there is no ``log_block``
    (a later step may ask again)."""
    from pbem.store.logblock import decode_block

    if "log_block" not in con.tables():
        return
    con.execute("CREATE TABLE log_line (game_id VARCHAR NOT NULL REFERENCES game (id), "
                "seq INTEGER NOT NULL, line TEXT NOT NULL, PRIMARY KEY (game_id, seq))")
    blocks = con.execute("SELECT game_id, first_seq, last_seq, encoding, prev, blob FROM "
                         "log_block ORDER BY game_id, first_seq").fetchall()
    for game_id, first, last, encoding, prev, blob in blocks:
        for i, line in enumerate(decode_block(encoding, bytes(blob), prev, last - first + 1)):
            con.execute("INSERT INTO log_line (game_id, seq, line) VALUES (?, ?, ?)",
                        (game_id, first + i, line))
    con.execute("DROP TABLE log_block")


def _drop_0006(con):
    """Drop the indexes added by 0006 and undo every later revision (IF EXISTS: a later step
    may ask again)."""
    _drop_0007(con)
    for name in NEW_IN_0006:
        con.execute(f"DROP INDEX IF EXISTS {name}")


def _drop_columns(con, new_in: dict) -> None:
    """Drop the columns ``{table: (column, ...)}`` a revision added."""
    for table, cols in new_in.items():
        for col in cols:
            con.execute(f"ALTER TABLE {table} DROP COLUMN {col}")


def _drop_0005(con):
    """Drop the column added by 0005 and everything later."""
    _drop_0006(con)
    _drop_columns(con, NEW_IN_0005)


def _drop_0004(con):
    """Drop the columns added by 0004 and every later revision."""
    _drop_0005(con)
    _drop_columns(con, NEW_IN_0004)


def _drop_0003(con):
    """Drop the columns added by 0003 and every later revision."""
    _drop_0004(con)
    _drop_columns(con, NEW_IN_0003)


from pbem.store.db import SCHEMA_HEAD  # noqa: E402


def _make_0001(referee, sealer):
    """Turn the database into what pbem at schema 0001 left: no mac/size/truncated/bind_referee
    columns, order_set.sha256 holding the plain SHA-256, the blob sealed under that digest."""
    from pbem.crypto.canonical import sha256_hex
    from pbem.engine.accept import orders_purpose

    referee.db.dispose()
    con = raw_connect(referee.home.url)
    try:
        _drop_0003(con)
        rows = con.execute("SELECT id, game_id, role, phase_seq, digest, blob FROM order_set")
        for oid, gid, role, seq, digest, blob in rows.fetchall():
            payload = sealer.open(gid, role, orders_purpose(seq, digest), 0, blob)
            plain = sha256_hex(json.loads(payload)["text"])
            con.execute("UPDATE order_set SET digest=?, blob=? WHERE id=?",
                        (plain, sealer.seal(gid, role, orders_purpose(seq, plain), 0, payload),
                         oid))
        for table in ("game", "player", "phase", "order_set", "outbox"):
            con.execute(f"ALTER TABLE {table} DROP COLUMN mac")
        con.execute("ALTER TABLE game DROP COLUMN bind_referee")
        con.execute("ALTER TABLE message DROP COLUMN size")
        con.execute("ALTER TABLE message DROP COLUMN truncated")
        con.execute("ALTER TABLE order_set RENAME COLUMN digest TO sha256")
        con.execute("DELETE FROM setting WHERE key='row_macs'")
        con.execute("UPDATE alembic_version SET version_num='0001_initial'")
        con.commit()
    finally:
        con.close()


def test_upgrade_from_0001_protects_every_row_and_rekeys_old_orders(game, players, clock,
                                                                      tmp_path):
    from pbem.crypto.canonical import sha256_hex
    from pbem.engine.accept import order_digest

    sealer = game.sealer
    (nonce,) = peek(game, "SELECT nonce FROM order_set")[0]
    text = players["red"].text("h1", 1, "dig", "dig 13", issued=clock(), nonce=nonce)
    _make_0001(game, sealer)
    r = next_referee(game, clock)
    with pytest.raises(Exception, match="pbem upgrade"):
        r.status()
    r = next_referee(game, clock)
    out = r.upgrade()
    assert (out["revision_before"], out["revision"]) == ("0001_initial", SCHEMA_HEAD)
    assert out["rows_protected"]["order_set_rekeyed"] == 1
    assert out["rows_protected"]["game"] == 1 and out["rows_protected"]["player"] == 2
    assert peek(game, "SELECT count(*) FROM outbox WHERE mac IS NULL") == [(0,)]
    assert peek(game, "SELECT digest FROM order_set") == [(order_digest(sealer, text),)]
    assert order_digest(sealer, text) != sha256_hex(text)
    assert peek(game, "SELECT bind_referee FROM game") == [(0,)]  # an older game
    assert peek(game, "SELECT size, truncated FROM message") == [(0, 0)]
    again = next_referee(game, clock).upgrade()  # idempotent
    assert again["rows_protected"] == {} and again["revision_before"] == SCHEMA_HEAD
    # everything reads back, and the old orders resolve
    r = next_referee(game, clock)
    assert r.status()[0]["window"]["orders_in"] == ["red"]
    assert r.outbox(tmp_path / "out")
    res = r.process("h1", force=True)
    assert res[0].phase == "1.dig" and res[0].nmr == ["blue"]
    assert any("red digs hole 13" in x["body"] or "rains" in x["body"]
               for x in r.all_reports("h1") if x["phase"] == "1.dig")
    # a MAC nulled after the upgrade is a tamper error
    attack(game, "UPDATE player SET mac=NULL WHERE role='red'")
    expect_tampered(lambda: next_referee(game, clock).status(), "player", "h1, red")


def test_init_on_a_0001_database_upgrades_it_too(game, clock):
    _make_0001(game, game.sealer)
    out = next_referee(game, clock).init()
    assert out["revision"] == SCHEMA_HEAD
    assert out["rows_protected"]["order_set_rekeyed"] == 1
    assert next_referee(game, clock).status()[0]["window"]["orders_in"] == ["red"]


# ---------------------------------------------------------------- durability

def _play_phase_and_lose_the_wal(referee, players, clock, tmp_path, monkeypatch, *, outbox):
    """Resolve phase 1 (and run outbox if asked), then lose the WAL as a crash or power loss
    would: what survives is the main database file as it is on disk now. (Closing the last
    connection would checkpoint the WAL first, so the files are copied while pbem holds them.)
    Returns (the public log after the phase, a Referee on the surviving file)."""
    import shutil

    from pbem.store.db import Database

    referee.db.checkpoint()  # the game, created earlier, is in the file (commands copy the
    # WAL back only once it has grown: Database.checkpoint_after_command)
    monkeypatch.setattr(Database, "checkpoint", lambda self, *a: None)  # e.g. a reader held on
    referee.ingest([incoming(players["blue"].signed("h1", 1, "dig", "dig 3", issued=clock()))])
    assert [x.phase for x in referee.process()] == ["1.dig"]
    log = referee.log_lines("h1")
    if outbox:
        assert referee.outbox(tmp_path / "out")
    survivor = tmp_path / "after-crash"
    survivor.mkdir(mode=0o700)
    shutil.copy2(db_path(referee), survivor / "pbem.db")  # without pbem.db-wal, pbem.db-shm
    shutil.copy2(referee.home.master_key_path, survivor / "referee.key")
    referee.db.dispose()
    return log, Referee(Home(survivor), clock=clock, entropy=CountingEntropy("after"))


@sqlite_only("it loses SQLite's WAL file (PostgreSQL commits are durable at once)")
def test_mail_leaves_only_after_the_phase_is_in_the_database_file(game, players, clock, tmp_path,
                                                                  monkeypatch):
    log, r = _play_phase_and_lose_the_wal(game, players, clock, tmp_path, monkeypatch,
                                          outbox=True)
    assert r.status()[0]["window"]["phase_id"] == "2.dig"
    assert r.process("h1") == []
    assert r.log_lines("h1") == log


@sqlite_only("it loses SQLite's WAL file (PostgreSQL commits are durable at once)")
def test_without_the_checkpoint_a_lost_wal_loses_the_phase(game, players, clock, tmp_path,
                                                           monkeypatch):
    """The control: the test above would pass vacuously if the WAL were checkpointed anyway."""
    _, r = _play_phase_and_lose_the_wal(game, players, clock, tmp_path, monkeypatch,
                                        outbox=False)
    assert r.status()[0]["window"]["phase_id"] == "1.dig"


def test_deleting_the_integrity_marker_does_not_let_upgrade_sign_tampered_rows(game, players,
                                                                                 clock):
    """Found by a new user's trial: with the marker setting deleted, pbem asked for `pbem
    upgrade`, which then computed fresh MACs over a player's replaced key."""
    from pbem.engine.errors import SetupError

    mallory = players["white"].public_text.strip()
    attack(game, "DELETE FROM setting WHERE key='row_macs'")
    attack(game, "UPDATE player SET public_key=?, mac=NULL WHERE role='red'", (mallory,))
    with pytest.raises(SetupError, match="integrity marker"):
        next_referee(game, clock).status()
    out = next_referee(game, clock).upgrade()  # at the schema head: protects nothing again
    assert out["rows_protected"] == {}
    assert peek(game, "SELECT mac FROM player WHERE role='red'") == [(None,)]
    with pytest.raises(SetupError, match="integrity marker"):
        next_referee(game, clock).status()
    # a marker written by hand without the key is refused the same way
    attack(game, "INSERT INTO setting (key, value) VALUES ('row_macs', '1')")
    with pytest.raises(SetupError, match="integrity marker"):
        next_referee(game, clock).status()
