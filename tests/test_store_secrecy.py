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
