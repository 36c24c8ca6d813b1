"""reports encrypted to a player's ssh-ed25519 key with age

Revision ID: 0004_encrypted_reports
Revises: 0003_running_games
Create Date: 2026-12-08

Issue 10, "Only the player can read it": two columns of ``player``:

- ``key_type``: the form the seat's key was registered in, ``ssh-ed25519`` or
  ``pbem-ed25519`` (``public_key`` always holds the OpenSSH line, so the form cannot be read
  back from it); NULL for the seats registered before this revision (pbem cannot tell: the
  referee shows pbem the key file again to turn encryption on, docs/mail.md);
- ``encrypt_reports``: the seat's reports are mailed encrypted to its key with age.

Both are covered by the row MACs (pbem.store.integrity.PROTECTED): ``pbem init``/``pbem
upgrade`` check every MAC over the 0003 columns (marker version 2) and recompute it over the
new ones in the same transaction (pbem.engine.protect).

Like every pbem migration it runs with SQLite's foreign-key enforcement off and
``PRAGMA foreign_key_check`` after it (pbem.store.db.Database.migrate).
"""
from alembic import op
import sqlalchemy as sa


revision = '0004_encrypted_reports'
down_revision = '0003_running_games'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('key_type', sa.String(), nullable=True))
        batch_op.add_column(sa.Column('encrypt_reports', sa.Boolean(), nullable=False,
                                      server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('encrypt_reports')
        batch_op.drop_column('key_type')
