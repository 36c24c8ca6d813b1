"""A copy of the database alone reveals no hidden value (issue 2, "Hidden state"): the raw
SQLite files (main file, WAL and shared memory) are searched for hidden facts in every form
they take in memory: order texts, private event texts, the referee part's JSON."""

from pathlib import Path

from conftest import incoming

from pbem.engine.creation import GameSpec


def raw_db(referee) -> bytes:
    base = Path(referee.home.path) / "pbem.db"
    return b"".join(p.read_bytes() for p in (base, Path(f"{base}-wal"), Path(f"{base}-shm"))
                    if p.exists())


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
