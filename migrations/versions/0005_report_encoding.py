"""reports stored compressed, or as what they are made from

Revision ID: 0005_report_encoding
Revises: 0004_encrypted_reports
Create Date: 2026-12-10

Issue 11, "Reports stop bloating the database": stored reports were 98% of a database (a
game's life about 10 MB). From this revision a phase stores, per reader, the report's
context (what it is made from, compressed with zlib; ``fmt`` ``context``), and the text and
HTML are rendered from it when the report is mailed or shown (pbem.engine.reportstore).

One column of ``report``: ``encoding``, how the sealed bytes are stored: ``identity`` (UTF-8,
every row stored before this revision: the server default) or ``zlib``. ``pbem init``/``pbem
upgrade`` then compress the rows stored before it, in the same transaction (the data step
that needs the master key: pbem.engine.reportstore.compress_stored_reports), so an upgraded
database keeps every old report, rendered as it was mailed, in about a fifth of the space
(SQLite reuses the pages freed; ``VACUUM`` gives them back to the file system).

The report table has no row MAC: each blob is sealed (AES-256-GCM) under additional data naming
its game, reader, phase, format and, for ``zlib``, the encoding, so a blob moved to another row
or an ``encoding`` changed by hand fails to open.

Like every pbem migration it runs with SQLite's foreign-key enforcement off and
``PRAGMA foreign_key_check`` after it (pbem.store.db.Database.migrate).
"""
from alembic import op
import sqlalchemy as sa


revision = '0005_report_encoding'
down_revision = '0004_encrypted_reports'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('report', schema=None) as batch_op:
        batch_op.add_column(sa.Column('encoding', sa.String(), nullable=False,
                                      server_default='identity'))


def downgrade() -> None:
    with op.batch_alter_table('report', schema=None) as batch_op:
        batch_op.drop_column('encoding')
