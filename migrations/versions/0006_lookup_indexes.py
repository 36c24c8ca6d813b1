"""indexes for the lookups a phase makes

Revision ID: 0006_lookup_indexes
Revises: 0005_report_encoding
Create Date: 2026-12-01

Issue 11, "a phase in 20 ms": the report, event and order-set tables had an index on
``game_id`` alone, so finding one reader's report of one phase (and the public context a
report is compressed against: pbem.engine.reportstore) read every report row of the game,
blobs included: about 0.4 ms a lookup after a hundred phases, five lookups per phase, and
growing with the game. Three composite indexes, in the order the queries of pbem.store ask:

- ``report (game_id, role, phase_seq)``: pbem.store.reports.find_report, public_context,
  public_contexts, public_context_at;
- ``event (game_id, phase_seq)``: pbem.store.repo.event_count, events;
- ``order_set (game_id, phase_seq)``: the order sets of a phase (repo.accepted_orders).

No data changes. Like every pbem migration it runs with SQLite's foreign-key enforcement off and
``PRAGMA foreign_key_check`` after it (pbem.store.db.Database.migrate).
"""
from alembic import op


revision = '0006_lookup_indexes'
down_revision = '0005_report_encoding'
branch_labels = None
depends_on = None

INDEXES = [
    ("ix_report_game_role_phase", "report", ["game_id", "role", "phase_seq"]),
    ("ix_event_game_phase", "event", ["game_id", "phase_seq"]),
    ("ix_order_set_game_phase", "order_set", ["game_id", "phase_seq"]),
]


def upgrade() -> None:
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns)


def downgrade() -> None:
    for name, table, _ in INDEXES:
        op.drop_index(name, table_name=table)
