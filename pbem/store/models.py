"""The tables (SQLAlchemy Core) and the classes of their rows, each mapped onto its table
(:mod:`pbem.store.base`): the only description of the schema besides the Alembic migrations.
The ORM works with the classes; a query that needs no row objects may use the tables.

Everything a player may not know is stored sealed (``blob`` columns, AES-256-GCM, see
``pbem.crypto.seal``): role secrets, the referee part of the state, dice seeds until revealed,
orders, private events, reports, queued mail and the raw incoming messages. What is stored in
clear is public: the public part of the state, public events and the public log (DESIGN.md,
"Every fact has an audience", "Storage").

Times are zone-aware ``datetime`` values in UTC (:class:`pbem.store.base.UTCDateTime`). A column's
``default`` is also the attribute's value when the object is constructed without it.

The rows that decide results (game, player, phase, order_set, outbox) carry ``mac``, an
HMAC-SHA256 of the row under a key derived from the master key (``pbem.store.integrity``):
checked whenever the row is read, computed whenever it is written.
"""

from __future__ import annotations

from sqlalchemy import (Boolean, Column, ForeignKey, Index, Integer, LargeBinary, String, Table,
                        Text, UniqueConstraint)

from pbem.store.base import Row, UTCDateTime, mapped, metadata


setting_table = Table(
    "setting", metadata,
    Column("key", String, primary_key=True),
    Column("value", String, nullable=False),
)


@mapped(setting_table)
class Setting(Row):
    """Installation-wide values: ``master_key_check`` (a value derived from the referee's master
    key, so a wrong or replaced key file is recognised before anything is sealed with it)."""


game_table = Table(
    "game", metadata,
    Column("id", String, primary_key=True),
    Column("ruleset", String, nullable=False),
    Column("title", String, nullable=False),
    Column("status", String, nullable=False, default="active", index=True),  # active | ended
    Column("created_at", UTCDateTime(), nullable=False),
    Column("options_json", Text, nullable=False),
    Column("house_rules_text", Text),
    Column("house_rules_sha256", String),
    Column("map_text", Text),
    Column("map_sha256", String),
    Column("deadline_seconds", Integer, nullable=False),
    Column("short_deadline_seconds", Integer, nullable=False),
    Column("state_version", Integer, nullable=False, default=0),
    Column("public_state", Text, nullable=False),
    # the open phase, or the last one once the game has ended
    Column("phase_seq", Integer, nullable=False, default=0),
    Column("log_head", String, nullable=False, default="0" * 64),
    Column("log_count", Integer, nullable=False, default=0),
    Column("referee_address", String, nullable=False, default="referee@pbem.invalid"),
    # orders must name the game's referee key (games created before 0002: False)
    Column("bind_referee", Boolean, nullable=False, default=False, server_default="0"),
    # the deadline rules, zone, grace, min window, close-early and reminders
    # (pbem.engine.schedule.Schedule.to_json; games created before 0003: None, see
    # Schedule.legacy)
    Column("schedule_json", Text),
    # set while the referee has paused the game
    Column("paused_at", UTCDateTime()),
    Column("mac", String),
)


@mapped(game_table)
class Game(Row):
    """One game: its ruleset, settings and public position (``public_state``, JSON)."""


player_table = Table(
    "player", metadata,
    Column("game_id", String, ForeignKey("game.id"), primary_key=True),
    Column("role", String, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("email", String, nullable=False),
    Column("public_key", Text, nullable=False),
    Column("fingerprint", String, nullable=False, index=True),
    Column("zone", String),
    # the form the key was registered in: "ssh-ed25519" or "pbem-ed25519" (public_key is
    # always stored as an OpenSSH line); None for a seat registered before schema 0004
    Column("key_type", String),
    # the player's reports are mailed encrypted to their ssh-ed25519 key with age (docs/mail.md)
    Column("encrypt_reports", Boolean, nullable=False, default=False, server_default="0"),
    Column("mac", String),
)


@mapped(player_table)
class Player(Row):
    """A role in a game, its seat, mail address, registered public key and time zone."""


sealed_table = Table(
    "sealed", metadata,
    Column("game_id", String, ForeignKey("game.id"), primary_key=True),
    Column("owner", String, primary_key=True),
    Column("purpose", String, primary_key=True),
    Column("version", Integer, nullable=False),
    Column("blob", LargeBinary, nullable=False),
)


@mapped(sealed_table)
class Sealed(Row):
    """A sealed value owned by a game: a state part (``purpose='state'``, one row per owner) or a
    game secret (hidden dice seed, setup salt, initial hidden setup, a phase's dice seed)."""


phase_table = Table(
    "phase", metadata,
    Column("id", Integer, primary_key=True),
    Column("game_id", String, ForeignKey("game.id"), nullable=False, index=True),
    Column("seq", Integer, nullable=False),
    Column("turn", Integer, nullable=False),
    Column("name", String, nullable=False),
    Column("phase_id", String, nullable=False),
    Column("window_json", Text, nullable=False),
    Column("opened_at", UTCDateTime(), nullable=False),
    Column("deadline_at", UTCDateTime(), nullable=False, index=True),
    Column("commit", String, nullable=False),
    # open | resolved | undone (pbem game undo) | cancelled (opened by an undone phase) |
    # abandoned (pbem game end)
    Column("status", String, nullable=False, default="open", index=True),
    Column("resolved_at", UTCDateTime()),
    Column("nmr_json", String, nullable=False, default="[]"),
    # the reminder lead times (seconds) already queued for this window, JSON list
    Column("reminded_json", String, nullable=False, default="[]", server_default="[]"),
    Column("mac", String),
    UniqueConstraint("game_id", "seq"),
)


@mapped(phase_table)
class Phase(Row):
    """An order window: opened with a dice commitment, resolved once (DESIGN.md, "Data flow")."""


message_table = Table(
    "message", metadata,
    Column("id", Integer, primary_key=True),
    # Message-ID, or sha256 of the raw bytes
    Column("message_key", String, nullable=False, unique=True),
    Column("raw_sha256", String, nullable=False),
    Column("received_at", UTCDateTime(), nullable=False),
    Column("origin", String, nullable=False),
    Column("sender", String, nullable=False, default=""),
    Column("subject", String, nullable=False, default=""),
    # pending | accepted | rejected | unreadable | duplicate | error
    Column("verdict", String, nullable=False, default="pending", index=True),
    Column("reason", Text, nullable=False, default=""),
    Column("game_id", String),
    Column("role", String),
    Column("blob", LargeBinary, nullable=False),
    Column("size", Integer, nullable=False, default=0, server_default="0"),  # bytes received
    # the archive kept only the first bytes of the message
    Column("truncated", Boolean, nullable=False, default=False, server_default="0"),
)


@mapped(message_table)
class Message(Row):
    """Every incoming message, archived (sealed) before it is judged, with its verdict."""


order_set_table = Table(
    "order_set", metadata,
    Column("id", Integer, primary_key=True),
    Column("game_id", String, ForeignKey("game.id"), nullable=False, index=True),
    Column("phase_seq", Integer, nullable=False),
    Column("role", String, nullable=False),
    Column("issued", UTCDateTime(), nullable=False),
    Column("nonce", String, nullable=False),
    # keyed: HMAC-SHA256 of the canonical text (pbem.engine.accept.order_digest)
    Column("digest", String, nullable=False),
    Column("received_at", UTCDateTime(), nullable=False),
    Column("message_id", Integer, ForeignKey("message.id")),
    Column("status", String, nullable=False, default="accepted"),  # accepted | superseded
    Column("blob", LargeBinary, nullable=False),
    # the header said ``wait: yes``: hold the window to its deadline (no early close)
    Column("wait", Boolean, nullable=False, default=False, server_default="0"),
    Column("mac", String),
    Index("ix_order_set_game_phase", "game_id", "phase_seq"),  # schema 0006
)


@mapped(order_set_table)
class OrderSet(Row):
    """An accepted order set for one window; a later ``issued`` supersedes it. The text and the
    problems found are sealed for the role."""


event_table = Table(
    "event", metadata,
    Column("id", Integer, primary_key=True),
    Column("game_id", String, ForeignKey("game.id"), nullable=False, index=True),
    Column("phase_seq", Integer, nullable=False),
    Column("idx", Integer, nullable=False),
    Column("audience", String, nullable=False),  # JSON list of roles, or ["*"]
    Column("public_json", Text),
    Column("blob", LargeBinary),
    Index("ix_event_game_phase", "game_id", "phase_seq"),  # schema 0006
)


@mapped(event_table)
class EventRow(Row):
    """Events as an earlier pbem stored them (one event a row, sealed, or a public one's place
    and audience; for a while a phase's private events for one audience, compressed and
    sealed). pbem writes none now: a public event is its public log line, a private one is in
    the report context of each reader it names, sealed for that reader
    (pbem.engine.gamestate.GameContext.log_events)."""


report_table = Table(
    "report", metadata,
    Column("id", Integer, primary_key=True),
    Column("game_id", String, ForeignKey("game.id"), nullable=False, index=True),
    Column("phase_seq", Integer, nullable=False),
    Column("role", String, nullable=False),
    Column("fmt", String, nullable=False),  # context | text | html
    Column("created_at", UTCDateTime(), nullable=False),
    Column("blob", LargeBinary, nullable=False),
    # how the sealed bytes are stored: identity (UTF-8, before schema 0005) | zlib
    Column("encoding", String, nullable=False, default="zlib", server_default="identity"),
    Index("ix_report_game_role_phase", "game_id", "role", "phase_seq"),  # schema 0006
)


@mapped(report_table)
class Report(Row):
    """A report of one role for one phase, sealed for that role: what it is made from
    (``fmt`` ``context``, rendered as text and HTML when mailed or shown) or, stored before
    schema 0005, the rendered text or HTML (pbem.store.reports, pbem.engine.reportstore)."""


outbox_table = Table(
    "outbox", metadata,
    Column("id", Integer, primary_key=True),
    Column("game_id", String, index=True),
    Column("owner", String, nullable=False),  # the role, or "archive" for mail to unknown senders
    Column("kind", String, nullable=False),  # report | receipt | rejection | notice | reminder
    Column("to_addr", String, nullable=False),
    Column("subject", String, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("sent_at", UTCDateTime(), index=True),
    Column("report_seq", Integer),
    Column("blob", LargeBinary),
    # delivery: attempts made, and a permanent failure with the server's answer
    Column("attempts", Integer, nullable=False, default=0, server_default="0"),
    Column("failed_at", UTCDateTime()),
    Column("error", Text),
    # scheduling only (not in the row MAC): the next try after a temporary failure, and the
    # claim of the `pbem send`/`outbox` run delivering it (pbem.store.outbox)
    Column("next_try_at", UTCDateTime()),
    Column("claimed_by", String),
    Column("claimed_until", UTCDateTime()),
    Column("mac", String),
)


@mapped(outbox_table)
class Outbox(Row):
    """Mail waiting to be delivered. Receipts and rejections are stored composed and sealed for
    their reader (``owner``); a report is composed when delivered, from the stored report of
    ``report_seq`` (so adjudication does not pay for MIME encoding)."""


log_block_table = Table(
    "log_block", metadata,
    Column("game_id", String, ForeignKey("game.id"), primary_key=True),
    # the lines' numbers in the game's log, from 1: first_seq..last_seq
    Column("first_seq", Integer, primary_key=True),
    Column("last_seq", Integer, nullable=False),
    # how blob is stored (pbem.store.logblock: "z1", "j1")
    Column("encoding", String, nullable=False),
    # the hash the block's first line points at (the previous line's, 64 zeros at the start)
    Column("prev", String, nullable=False),
    Column("blob", LargeBinary, nullable=False),
)


@mapped(log_block_table)
class LogBlock(Row):
    """The lines one append added to a game's public, hash-chained log (DESIGN.md, "The public
    log"), compressed with their recomputable ``prev`` values left out (pbem.store.logblock;
    read through pbem.store.loglines). Public: stored in clear."""
