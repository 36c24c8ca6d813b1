"""schedules, pause, reminders, wait, delivery state of queued mail

Revision ID: 0003_running_games
Revises: 0002_row_macs
Create Date: 2026-12-01

Issue 8: a game's schedule (deadline rules, zone, grace, min window, close-early, reminder
lead times) and pause; the reminders sent per window; ``wait: yes`` on an order set; and the
delivery state of each queued mail (attempts, permanent failure and the server's answer, next
try, the claim of the run sending it). The new columns of protected tables are covered by the
row MACs (pbem.store.integrity.PROTECTED): ``pbem init``/``pbem upgrade`` check every MAC over
the 0002 columns and recompute it over the new ones in the same transaction (pbem.engine.protect).

Like every pbem migration it runs with SQLite's foreign-key enforcement off and
``PRAGMA foreign_key_check`` after it (pbem.store.db.Database.migrate), so that a
``batch_alter_table`` that recreates a parent table (game, message) keeps its child rows.
"""
from alembic import op
import sqlalchemy as sa


revision = '0003_running_games'
down_revision = '0002_row_macs'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('schedule_json', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('paused_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('phase', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reminded_json', sa.String(), nullable=False,
                                      server_default='[]'))
    with op.batch_alter_table('order_set', schema=None) as batch_op:
        batch_op.add_column(sa.Column('wait', sa.Boolean(), nullable=False, server_default='0'))
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('attempts', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('failed_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('error', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('next_try_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('claimed_by', sa.String(), nullable=True))
        batch_op.add_column(sa.Column('claimed_until', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        for name in ('claimed_until', 'claimed_by', 'next_try_at', 'error', 'failed_at',
                     'attempts'):
            batch_op.drop_column(name)
    with op.batch_alter_table('order_set', schema=None) as batch_op:
        batch_op.drop_column('wait')
    with op.batch_alter_table('phase', schema=None) as batch_op:
        batch_op.drop_column('reminded_json')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('paused_at')
        batch_op.drop_column('schedule_json')
