"""the public log stored as compressed blocks

Revision ID: 0007_log_blocks
Revises: 0006_lookup_indexes
Create Date: 2026-12-02

Issue 11, "stored bytes per phase, all roles: at most 20 KB": the public log took one
``log_line`` row per line, and its lines are long and alike (the setup phase of a 4-player
Atlantis game: 136 lines, 34 KB, every one carrying 64 hex digits of ``prev``). The table
``log_block`` holds the lines of one append (a phase's) as one zlib block with each
recomputable ``prev`` left out (pbem.store.logblock; 2.2 KB for that phase).

Upgrade: each game's lines, in order, are cut into runs written at the same time (the same
``at``, at most 1,000 lines: pbem.store.logblock.blocks_of), each stored as a block; then
``log_line`` is dropped. Downgrade: ``log_line`` is made again as 0001 made it and every line
written back with its number, byte for byte; then ``log_block`` is dropped. Both read a batch
of lines or blocks at a time. Like every pbem migration it runs with SQLite's foreign-key
enforcement off and ``PRAGMA foreign_key_check`` after it (pbem.store.db.Database.migrate).
"""
import sqlalchemy as sa
from alembic import op

from pbem.store import logblock
from pbem.store.db import DatabaseError

revision = '0007_log_blocks'
down_revision = '0006_lookup_indexes'
branch_labels = None
depends_on = None

BATCH = 5000
"""Lines (upgrade) or blocks (downgrade) read per query."""

_meta = sa.MetaData()
log_line = sa.Table(
    'log_line', _meta,
    sa.Column('game_id', sa.String(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('line', sa.Text(), nullable=False),
)
log_block = sa.Table(
    'log_block', _meta,
    sa.Column('game_id', sa.String(), nullable=False),
    sa.Column('first_seq', sa.Integer(), nullable=False),
    sa.Column('last_seq', sa.Integer(), nullable=False),
    sa.Column('encoding', sa.String(), nullable=False),
    sa.Column('prev', sa.String(), nullable=False),
    sa.Column('blob', sa.LargeBinary(), nullable=False),
)


def _game_ids(conn, table) -> list[str]:
    return [g for (g,) in conn.execute(sa.select(table.c.game_id).distinct()
                                       .order_by(table.c.game_id))]


def _lines_of(conn, game_id: str):
    """(seq, line) of the game's log_line rows in order, a batch at a time."""
    last = None
    while True:
        q = sa.select(log_line.c.seq, log_line.c.line).where(log_line.c.game_id == game_id)
        if last is not None:
            q = q.where(log_line.c.seq > last)
        rows = conn.execute(q.order_by(log_line.c.seq).limit(BATCH)).all()
        if not rows:
            return
        yield from rows
        last = rows[-1][0]


def _numbered(game_id: str, rows):
    """The lines of ``rows``, checking that they are numbered 1, 2, ... as pbem wrote them."""
    for n, (seq, line) in enumerate(rows, start=1):
        if seq != n:
            raise DatabaseError(f"the public log of game {game_id} has no line {n} (the next "
                                f"is {seq}): it was changed outside pbem; nothing was upgraded "
                                "(restore the database from a backup taken before the change)")
        yield line


def upgrade() -> None:
    op.create_table(
        'log_block',
        sa.Column('game_id', sa.String(), nullable=False),
        sa.Column('first_seq', sa.Integer(), nullable=False),
        sa.Column('last_seq', sa.Integer(), nullable=False),
        sa.Column('encoding', sa.String(), nullable=False),
        sa.Column('prev', sa.String(), nullable=False),
        sa.Column('blob', sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
        sa.PrimaryKeyConstraint('game_id', 'first_seq'),
    )
    conn = op.get_bind()
    for game_id in _game_ids(conn, log_line):
        first, prev = 1, logblock.GENESIS
        for run in logblock.blocks_of(_numbered(game_id, _lines_of(conn, game_id))):
            encoding, blob, head = logblock.encode_block(run, prev)
            conn.execute(log_block.insert(), [{
                "game_id": game_id, "first_seq": first, "last_seq": first + len(run) - 1,
                "encoding": encoding, "prev": prev, "blob": blob}])
            first, prev = first + len(run), head
    op.drop_table('log_line')


def downgrade() -> None:
    op.create_table(
        'log_line',
        sa.Column('game_id', sa.String(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('line', sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
        sa.PrimaryKeyConstraint('game_id', 'seq'),
    )
    conn = op.get_bind()
    cols = (log_block.c.first_seq, log_block.c.last_seq, log_block.c.encoding,
            log_block.c.prev, log_block.c.blob)
    for game_id in _game_ids(conn, log_block):
        last = 0
        while True:
            rows = conn.execute(sa.select(*cols).where(log_block.c.game_id == game_id,
                                                       log_block.c.first_seq > last)
                                .order_by(log_block.c.first_seq).limit(BATCH)).all()
            if not rows:
                break
            for first, last_seq, encoding, prev, blob in rows:
                lines = logblock.decode_block(encoding, blob, prev, last_seq - first + 1)
                conn.execute(log_line.insert(), [
                    {"game_id": game_id, "seq": first + i, "line": line}
                    for i, line in enumerate(lines)])
            last = rows[-1][0]
    op.drop_table('log_block')
