"""A copy of the database alone reveals no hidden value (issue 2, "Hidden state"): the raw
SQLite files (main file, WAL and shared memory) are searched for hidden facts in every form
they take in memory: order texts, private event texts, the referee part's JSON. On PostgreSQL,
whose files compress long values, what is searched is every value of every row as the server
gives it to any client (bytea as its bytes). The public log is stored compressed (table
``log_block``): its text, decompressed with zlib, is searched as well."""

import zlib
from pathlib import Path

from conftest import ON_POSTGRES, incoming, raw_connect

from pbem.engine.creation import GameSpec


def log_text(con) -> list[str]:
    """The stored public log lines of every game as zlib gives them back (the table
    ``log_block``, compressed: pbem.store.logblock), each recomputable ``prev`` left empty and
    each line led by its one-character flag: read here with zlib alone, so that a secret in
    the public log is found as if it were stored in clear."""
    out = []
    for (blob,) in con.execute("SELECT blob FROM log_block ORDER BY game_id, first_seq"):
        out += zlib.decompress(bytes(blob)).decode("utf-8").split("\n")
    return out


def raw_db(referee) -> bytes:
    """Every stored byte: the database files (SQLite) or every column value (PostgreSQL), then
    the public log decompressed (:func:`log_text`)."""
    with raw_connect(referee.home.url) as con:
        log = "\n".join(log_text(con)).encode("utf-8")
    if ON_POSTGRES:
        out = []
        with raw_connect(referee.home.url) as con:
            for table in con.tables():
                for row in con.execute(f'SELECT * FROM "{table}"'):
                    out += [v if isinstance(v, bytes) else str(v).encode()
                            for v in row if v is not None]
        return b"\n".join(out) + b"\n" + log
    base = Path(referee.home.path) / "pbem.db"
    return b"".join(p.read_bytes() for p in (base, Path(f"{base}-wal"), Path(f"{base}-shm"))
                    if p.exists()) + b"\n" + log


def test_hidden_facts_never_reach_the_database_file_in_clear(referee, players, clock):
    referee.new_game(GameSpec(ruleset="hunt", game_id="h1",
                              players=(players["red"].spec(), players["blue"].spec()), options={}))
    orders = {"red": "dig 13  # my secret plan QX7", "blue": "dig 7  # blue's secret ZZ9"}
    for role, body in orders.items():
        referee.ingest([incoming(players[role].signed("h1", 1, "dig", body, issued=clock()))])
    referee.process()
    data = raw_db(referee)
    # the orders' text (sealed until, and after, resolution)
    assert b"QX7" not in data and b"ZZ9" not in data and b"dig 13" not in data
    # private events (the hints) and the referee part (where the treasure lies)
    assert b"than hole" not in data
    assert b'"treasure"' not in data
    # the raw incoming messages are sealed too
    assert b"BEGIN PBEM ORDERS" not in data
    # but public facts are stored in clear (the test would pass vacuously otherwise)
    assert b"game-created" in data and b'"dug"' in data


def test_atlantis_symbols_and_values_never_reach_the_database_in_clear(referee, clock):
    """The hidden arrangement (symbol under each standing tile, value under each person) in
    every JSON spelling it could take, searched in the raw SQLite files after a few phases."""
    import random

    from gameplay import new_game, play
    from test_random_games import full_state

    players = new_game(referee, "atlantis", ("red", "green", "blue"), "a1")
    rng = random.Random(5)
    seen = {"n": 0}

    def after(_):
        seen["n"] += 1
        if seen["n"] != 4:
            return
        state = full_state(referee, "a1")
        assert state.stage != "over"
        data = raw_db(referee)
        for h, symbol in state.symbols.items():
            for form in (f'"{h}":"{symbol}"', f'"{h}": "{symbol}"'):
                assert form.encode() not in data, form
        for pid, value in state.values.items():
            if pid in state.seen.get(state.people[pid].owner, {}):
                continue
            for form in (f'"{pid}":{value}', f'"{pid}": {value}'):
                assert form.encode() not in data, form
        for role, tiles in state.kept.items():
            for tile in tiles:
                assert f'"kept":["{tile}"'.encode() not in data
        raise StopIteration  # enough: the game need not be played out

    try:
        play(referee, clock, players, "a1", rng, after_phase=after)
    except StopIteration:
        pass
    assert seen["n"] == 4


def test_a_stolen_database_cannot_confirm_a_guess_of_pending_orders(referee, players, clock):
    """Issue 7: with a copy of the database only, the pending order set is not testable. Every
    order red could have sent this window (``dig 1`` to ``dig 20``, the header rebuilt from the
    nonce and issued time stored in clear) is hashed with SHA-256, and with SHA-256 of
    salt + text for every value stored in the database as a salt; none may equal any stored
    value of any column of any table, nor appear anywhere in the raw files."""
    import hashlib
    import json

    from pbem.crypto.canonical import canonical_bytes, sha256_hex

    referee.new_game(GameSpec(ruleset="hunt", game_id="h1",
                              players=(players["red"].spec(), players["blue"].spec()), options={}))
    verdict = referee.ingest([incoming(players["red"].signed("h1", 1, "dig", "dig 13",
                                                             issued=clock()))])[0]
    assert verdict.status == "accepted"
    con = raw_connect(referee.home.url)
    try:
        ((nonce, issued),) = con.execute("SELECT nonce, issued FROM order_set").fetchall()
        log = log_text(con)
        created = json.loads(log[0][1:])  # the first line, its flag left out
        values = set(log)
        for table in con.tables():
            for row in con.execute(f'SELECT * FROM "{table}"'):
                values.update(v for v in row if v is not None)
    finally:
        con.close()
    stamp = str(issued)[:19].replace(" ", "T") + "Z"  # SQLite: text; PostgreSQL: a datetime
    referee_lines = ("", f"referee: {created['referee_fingerprint']}\n")  # public, in the log
    guesses = [f"game: h1\nturn: 1\nphase: dig\nrole: red\n{ref}nonce: {nonce}\n"
               f"issued: {stamp}\n\ndig {n}{end}"
               for n in range(1, 21) for end in ("", "\n") for ref in referee_lines]
    assert verdict.sha256 in {sha256_hex(g) for g in guesses}  # the true text is a guess
    salts = set()
    for v in values:
        raw = v if isinstance(v, bytes) else str(v).encode()
        salts.add(raw)
        try:
            salts.add(bytes.fromhex(v if isinstance(v, str) else ""))
        except ValueError:
            pass
    stored = {v if isinstance(v, bytes) else str(v).encode() for v in values}
    stored |= {str(v).lower().encode() for v in values if isinstance(v, str)}
    data = raw_db(referee)
    for g in guesses:
        body = canonical_bytes(g)
        digests = [hashlib.sha256(body).digest(), hashlib.sha256(g.encode()).digest()]
        digests += [hashlib.sha256(salt + body).digest() for salt in salts]
        for d in digests:
            for form in (d, d.hex().encode()):
                assert form not in stored
                assert form not in data
