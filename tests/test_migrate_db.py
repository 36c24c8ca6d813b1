"""`pbem migrate-db FROM TO` and `pbem demo --db` on a real PostgreSQL server (issue 11;
docs/operations.md): a played game moved SQLite -> PostgreSQL -> SQLite keeps every row, its
public log byte for byte (hash chain and all) and its row MACs; a target that is not empty, of
another schema, or a key that is not the source's is refused with nothing written.

The played game is the suite's `pbem demo atlantis --players 3 --seed 8` (conftest's
``demo_game``): its log file, written and verified by the demo, is the reference.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from conftest import sqlite_only
from sqlalchemy import create_engine, text

from pbem.cli import main
from pbem.engine.home import Home

TABLES = ("game", "player", "sealed", "phase", "message", "order_set", "event", "report",
          "outbox", "log_block", "setting")


def pbem(*args, env=None, ok=True):
    r = CliRunner().invoke(main, [str(a) for a in args], env=env)
    if ok:
        assert r.exit_code == 0, r.output
    return r


def row_counts(url: str) -> dict[str, int]:
    """Rows per table, counted with plain SQL (no pbem code)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {t: conn.execute(text(f"SELECT count(*) FROM {t}")).scalar_one()
                    for t in TABLES}
    finally:
        engine.dispose()


def query(url: str, sql: str):
    """The single value ``sql`` selects, with plain SQL (no pbem code)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(text(sql)).scalar_one()
    finally:
        engine.dispose()


def execute(url: str, *statements: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            for sql in statements:
                conn.execute(text(sql))
    finally:
        engine.dispose()


@sqlite_only("it compares the demo on PostgreSQL with the suite's demo on SQLite; on the "
             "PostgreSQL pass that one is on PostgreSQL too")
def test_demo_runs_on_postgresql_and_plays_the_same_game(demo_game, pg_url, tmp_path):
    """`PBEM_DB=postgresql+psycopg://... pbem demo`: the whole game in the PostgreSQL
    database, the same game as on SQLite with the same seed (the log file identical)."""
    out = tmp_path / "demo"
    r = pbem("demo", "atlantis", "--players", "3", "--seed", "8", "--out", out, "--quiet",
             env={"PBEM_DB": pg_url})
    assert "database: postgresql+psycopg://" in r.output
    game = demo_game["game"]
    mine = (out / f"{game}.jsonl").read_bytes()
    assert mine == (Path(demo_game["out"]) / f"{game}.jsonl").read_bytes()
    assert not (out / "home" / "pbem.db").exists()  # it was not played on SQLite
    counts = row_counts(pg_url)
    assert counts["game"] == 1
    lines = query(pg_url, "SELECT sum(last_seq - first_seq + 1) FROM log_block")
    assert lines == len(mine.splitlines())
    r = pbem("--home", out / "home", "--db", pg_url, "status", "--json")
    assert json.loads(r.output)[0]["status"] == "ended"


def test_migrate_db_sqlite_to_postgresql_and_back(demo_game, pg_url, tmp_path):
    home = Path(demo_game["out"]) / "home"
    source = Home(home).url  # the demo's database (a PostgreSQL schema with PBEM_TEST_DB)
    game = demo_game["game"]
    reference = (Path(demo_game["out"]) / f"{game}.jsonl").read_text().splitlines()
    before = row_counts(source)

    r = pbem("--home", home, "migrate-db", source, pg_url)
    assert "created the schema" in r.output
    for table in TABLES:  # the summary names every table with its rows
        assert any(line.split() == [table, str(before[table]), "rows"]
                   for line in r.output.splitlines()), (table, r.output)
    assert row_counts(pg_url) == before
    assert pbem("--home", home, "--db", pg_url, "log", game, "--json").output.splitlines() \
        == reference
    assert "OK" in pbem("--home", home, "--db", pg_url, "verify", game).output

    back = tmp_path / "back.db"
    pbem("--home", home, "migrate-db", pg_url, back)
    back_url = f"sqlite:///{back}"
    assert row_counts(back_url) == before
    assert pbem("--home", home, "--db", back_url, "log", game, "--json").output.splitlines() \
        == reference
    # every protected row is read, its MAC checked, by status and report
    status = json.loads(pbem("--home", home, "--db", back_url, "status", "--json").output)
    assert status[0]["game"] == game and status[0]["status"] == "ended"
    assert "Report for" in pbem("--home", home, "--db", back_url, "report", game,
                                "--role", "red").output

    # the copy goes on living: new rows get new ids (PostgreSQL's sequences were moved on)
    from conftest import MovableClock, Player

    from pbem.engine.creation import GameSpec
    from pbem.engine.service import Referee

    ref = Referee(Home(home, pg_url), clock=MovableClock())
    players = [Player(r, referee=ref) for r in ("red", "blue")]
    ref.new_game(GameSpec(ruleset="hunt", game_id="after", options={},
                          players=tuple(p.spec() for p in players),
                          referee_address="referee@judge.example"))
    from conftest import incoming

    v = ref.ingest([incoming(players[0].signed("after", 1, "dig", "dig 4",
                                               issued=ref.clock()))])
    assert [x.status for x in v] == ["accepted"]
    assert row_counts(pg_url)["phase"] == before["phase"] + 1


def test_migrate_db_refuses_a_target_not_empty_another_schema_or_key(demo_game, pg_url,
                                                                     tmp_path):
    home = Path(demo_game["out"]) / "home"
    source = Home(home).url
    pbem("--home", home, "migrate-db", source, pg_url)
    counts = row_counts(pg_url)

    r = pbem("--home", home, "migrate-db", source, pg_url, ok=False)
    assert r.exit_code == 1 and "is not empty: it holds 1 game(s)" in r.output
    assert row_counts(pg_url) == counts  # nothing written

    # a target of another schema: its revision, or a column missing
    from pbem.store.db import Database

    for name, sql in (("rev", "UPDATE alembic_version SET version_num = '0003_running_games'"),
                      ("col", "ALTER TABLE player DROP COLUMN zone")):
        url = f"sqlite:///{tmp_path / name}.db"
        Database(url).migrate()
        execute(url, sql)
        r = pbem("--home", home, "migrate-db", source, url, ok=False)
        assert r.exit_code == 1 and "schemas differ" in r.output, r.output
        assert row_counts(url)["game"] == 0

    # a home whose key did not seal the source
    other = tmp_path / "other"
    pbem("--home", other, "init")
    r = pbem("--home", other, "migrate-db", source, tmp_path / "x.db", ok=False)
    assert r.exit_code == 1 and "is not the master key" in r.output

    r = pbem("--home", home, "migrate-db", source, source, ok=False)
    assert r.exit_code == 1 and "the same database" in r.output
