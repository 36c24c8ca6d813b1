"""Schema migrations (issue 8, "Schema changes"): a database made at the previous revision, with
a game in progress, is upgraded and played on; and migrations run with SQLite's foreign-key
enforcement off and ``PRAGMA foreign_key_check`` after them, so a ``batch_alter_table`` that
recreates a parent table keeps every child row."""

import shutil

import pytest
from conftest import incoming, raw_connect, sqlite_only
from test_store_integrity import (NEW_IN_0003, _drop_0003, _drop_0006, attack, next_referee,
                                  peek, game)  # noqa: F401  (the fixture)

from pbem.store.db import SCHEMA_HEAD
from pbem.store.integrity import PROTECTED_V1, ROW_MACS_SETTING, protected_marker, row_mac


def rewrite_as(referee, protected: dict, drop, marker: int, revision: str) -> None:
    """Turn the database into what an earlier pbem left: ``drop(con)`` removes the later
    columns, every protected row gets its MAC over the earlier column lists ``protected``
    (computed from the rows as SQLAlchemy reads them, times as datetimes, as that pbem did),
    the marker its version ``marker`` and alembic its ``revision``."""
    from sqlalchemy import select

    from pbem.store.integrity import _MODELS

    key = referee.sealer.mac_key("row-mac")
    updates = []
    with referee.db.read() as s:
        for table, model in _MODELS.items():
            t = model.__table__
            pk = [c.name for c in t.primary_key.columns]
            for row in s.execute(select(t)).mappings():
                updates.append((f"UPDATE {table} SET mac=? WHERE "
                                + " AND ".join(f"{c}=?" for c in pk),
                                [row_mac(key, table, row, protected)] + [row[c] for c in pk]))
    referee.db.dispose()
    con = raw_connect(referee.home.url)
    try:
        _drop_0006(con)  # every revision rewritten to is older than 0006
        drop(con)
        for sql, params in updates:
            con.execute(sql, params)
        con.execute("UPDATE setting SET value=? WHERE key=?",
                    (protected_marker(key, marker), ROW_MACS_SETTING))
        con.execute("UPDATE alembic_version SET version_num=?", (revision,))
        con.commit()
    finally:
        con.close()


def _make_0002(referee):
    """Turn the database into what pbem at schema 0002 left: without the 0003 columns, every
    protected row's MAC over the 0002 column lists, and the version-1 marker."""
    rewrite_as(referee, PROTECTED_V1, _drop_0003, 1, "0002_row_macs")


def columns(referee, table: str) -> set[str]:
    """The columns the database's ``table`` has (SQLAlchemy's inspector, on either database)."""
    from sqlalchemy import create_engine, inspect

    engine = create_engine(referee.home.url)
    try:
        return {c["name"] for c in inspect(engine).get_columns(table)}
    finally:
        engine.dispose()


def test_a_0002_database_with_a_game_in_progress_is_upgraded_and_played_on(game, players, clock,
                                                                          tmp_path):
    _make_0002(game)
    r = next_referee(game, clock)
    with pytest.raises(Exception, match="pbem upgrade"):
        r.status()
    out = next_referee(game, clock).upgrade()
    assert (out["revision_before"], out["revision"]) == ("0002_row_macs", SCHEMA_HEAD)
    assert out["rows_protected"] == {}  # the rows had MACs: re-computed, not added
    cols = columns(game, "outbox")
    assert set(NEW_IN_0003["outbox"]) <= cols
    # the game goes on: blue's orders come in, the phase resolves, mail goes out
    r = next_referee(game, clock)
    assert r.status()[0]["window"]["orders_in"] == ["red"]
    v = r.ingest([incoming(players["blue"].signed("h1", 1, "dig", "dig 7", issued=clock()))])
    assert v[0].status == "accepted"
    res = r.process("h1")
    assert res and res[0].phase == "1.dig" and res[0].nmr == []
    assert r.outbox(tmp_path / "out")
    again = next_referee(game, clock).upgrade()
    assert again["revision_before"] == SCHEMA_HEAD


def test_a_row_tampered_with_before_the_upgrade_is_refused_and_nothing_changes(game, clock):
    _make_0002(game)
    attack(game, "UPDATE player SET email='thief@example.org' WHERE role='red'")
    with pytest.raises(Exception, match=r"player \(h1, red\)"):
        next_referee(game, clock).upgrade()
    assert peek(game, "SELECT version_num FROM alembic_version") == [("0002_row_macs",)]


# ---------------------------------------------------------------- foreign keys off

RECREATE_GAME = '''
"""a test migration: recreate the parent table game (as batch_alter_table does on SQLite)"""
from alembic import op
import sqlalchemy as sa

revision = '9999_recreate_game'
down_revision = '{head}'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', recreate='always') as batch_op:
        batch_op.add_column(sa.Column('test_note', sa.Text(), nullable=True))


def downgrade():
    pass
'''


@pytest.fixture
def recreating_migrations(tmp_path, monkeypatch):
    """The project's migrations plus one that recreates ``game``."""
    from pbem import resources
    from pbem.store.db import SCHEMA_HEAD

    folder = tmp_path / "migrations"
    shutil.copytree(resources.migrations_dir(), folder,
                    ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "versions" / "9999_recreate_game.py").write_text(
        RECREATE_GAME.replace("{head}", SCHEMA_HEAD))
    monkeypatch.setattr(resources, "migrations_dir", lambda: folder)
    return folder


def _children(referee):
    """Rows of each child table of game h1 (an event row is added first when it has none: the
    hunt game's events are public, kept in its log only)."""
    if not peek(referee, "SELECT count(*) FROM event WHERE game_id='h1'")[0][0]:
        attack(referee, "INSERT INTO event (game_id, phase_seq, idx, audience) VALUES "
                        "('h1', 1, 0, '[\"red\"]')")
    return {t: peek(referee, f"SELECT count(*) FROM {t} WHERE game_id='h1'")[0][0]
            for t in ("player", "phase", "order_set", "event", "report", "log_block", "sealed")}


@sqlite_only("SQLite's foreign-key enforcement and PRAGMA foreign_key_check around a "
             "migration that recreates a table (PostgreSQL alters tables in place)")
def test_recreating_a_parent_table_in_a_migration_keeps_every_child_row(game, clock,
                                                                       recreating_migrations):
    from pbem.store.db import Database

    before = _children(game)
    assert all(before.values())
    game.db.dispose()
    db = Database(game.home.url)
    db.migrate()
    db.dispose()
    assert peek(game, "SELECT version_num FROM alembic_version") == [("9999_recreate_game",)]
    assert _children(game) == before
    assert peek(game, "PRAGMA foreign_key_check") == []


@sqlite_only("SQLite's foreign-key enforcement and PRAGMA foreign_key_check around a "
             "migration that recreates a table (PostgreSQL alters tables in place)")
def test_with_enforcement_on_the_same_migration_would_not_keep_them(game, clock,
                                                                   recreating_migrations,
                                                                   monkeypatch):
    """The control: what the foreign-keys-off connection prevents."""
    from pbem.store.db import Database

    before = _children(game)
    game.db.dispose()
    db = Database(game.home.url)
    monkeypatch.setattr(Database, "_migration_engine", lambda self: self._writer)
    try:
        db.migrate()
    except Exception:
        pass  # refused: FOREIGN KEY constraint failed on DROP TABLE game
    finally:
        db.dispose()
    kept = _children(game) == before and peek(game, "SELECT version_num FROM alembic_version") \
        == [("9999_recreate_game",)]
    assert not kept
