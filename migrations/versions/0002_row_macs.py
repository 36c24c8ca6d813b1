"""row MACs, the keyed order digest, message size, game bind_referee

Revision ID: 0002_row_macs
Revises: 0001_initial
Create Date: 2026-12-01

The ``mac`` columns are nullable: Alembic has no master key, so ``pbem init``/``pbem upgrade``
compute every row's MAC (and re-derive the keyed digest of older order sets) in a data step
right after this migration (pbem.engine.protect.protect_database). Once that step has run
(setting ``row_macs=1``), a protected row without a MAC is a tamper error.
"""
from alembic import op
import sqlalchemy as sa


revision = '0002_row_macs'
down_revision = '0001_initial'
branch_labels = None
depends_on = None

_MAC_TABLES = ('game', 'player', 'phase', 'order_set', 'outbox')


def upgrade() -> None:
    for table in _MAC_TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('mac', sa.String(), nullable=True))
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bind_referee', sa.Boolean(), nullable=False,
                                      server_default='0'))
    with op.batch_alter_table('message', schema=None) as batch_op:
        batch_op.add_column(sa.Column('size', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('truncated', sa.Boolean(), nullable=False,
                                      server_default='0'))
    with op.batch_alter_table('order_set', schema=None) as batch_op:
        batch_op.alter_column('sha256', new_column_name='digest', existing_type=sa.String(),
                              existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table('order_set', schema=None) as batch_op:
        batch_op.alter_column('digest', new_column_name='sha256', existing_type=sa.String(),
                              existing_nullable=False)
    with op.batch_alter_table('message', schema=None) as batch_op:
        batch_op.drop_column('truncated')
        batch_op.drop_column('size')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('bind_referee')
    op.execute("DELETE FROM setting WHERE key = 'row_macs'")
    for table in reversed(_MAC_TABLES):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column('mac')
