"""SQLModel tables: the only description of the schema besides the Alembic migrations.

Everything a player may not know is stored sealed (``blob`` columns, AES-256-GCM, see
``pbem.crypto.seal``): role secrets, the referee part of the state, dice seeds until revealed,
orders, private events, reports, queued mail and the raw incoming messages. What is stored in
clear is public: the public part of the state, public events and the public log (DESIGN.md,
"Every fact has an audience", "Storage").

Times are zone-aware ``datetime`` values in UTC (SQLModel's UTCDateTime).

The rows that decide results (game, player, phase, order_set, outbox) carry ``mac``, an
HMAC-SHA256 of the row under a key derived from the master key (``pbem.store.integrity``):
checked whenever the row is read, computed whenever it is written.
"""

from __future__ import annotations

from datetime import datetime
from typing import Optional

from sqlalchemy import Column, LargeBinary, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


class Setting(SQLModel, table=True):
    """Installation-wide values: ``master_key_check`` (a value derived from the referee's master
    key, so a wrong or replaced key file is recognised before anything is sealed with it)."""

    __tablename__ = "setting"

    key: str = Field(primary_key=True)
    value: str


class Game(SQLModel, table=True):
    """One game: its ruleset, settings and public position (``public_state``, JSON)."""

    __tablename__ = "game"

    id: str = Field(primary_key=True)
    ruleset: str
    title: str
    status: str = Field(default="active", index=True)  # active | ended
    created_at: datetime
    options_json: str = Field(sa_column=Column(Text, nullable=False))
    house_rules_text: Optional[str] = Field(default=None, sa_column=Column(Text))
    house_rules_sha256: Optional[str] = None
    map_text: Optional[str] = Field(default=None, sa_column=Column(Text))
    map_sha256: Optional[str] = None
    deadline_seconds: int
    short_deadline_seconds: int
    state_version: int = 0
    public_state: str = Field(sa_column=Column(Text, nullable=False))
    phase_seq: int = 0  # the open phase, or the last one once the game has ended
    log_head: str = "0" * 64
    log_count: int = 0
    referee_address: str = "referee@pbem.invalid"
    # orders must name the game's referee key (games created before 0002: False)
    bind_referee: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    # the deadline rules, zone, grace, min window, close-early and reminders
    # (pbem.engine.schedule.Schedule.to_json; games created before 0003: None, see
    # Schedule.legacy)
    schedule_json: Optional[str] = Field(default=None, sa_column=Column(Text))
    paused_at: Optional[datetime] = None  # set while the referee has paused the game
    mac: Optional[str] = None


class Player(SQLModel, table=True):
    """A role in a game, its seat, mail address, registered public key and time zone."""

    __tablename__ = "player"

    game_id: str = Field(foreign_key="game.id", primary_key=True)
    role: str = Field(primary_key=True)
    seat: int
    email: str
    public_key: str = Field(sa_column=Column(Text, nullable=False))
    fingerprint: str = Field(index=True)
    zone: Optional[str] = None
    # the form the key was registered in: "ssh-ed25519" or "pbem-ed25519" (public_key is
    # always stored as an OpenSSH line); None for a seat registered before schema 0004
    key_type: Optional[str] = None
    # the player's reports are mailed encrypted to their ssh-ed25519 key with age (docs/mail.md)
    encrypt_reports: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    mac: Optional[str] = None


class Sealed(SQLModel, table=True):
    """A sealed value owned by a game: a state part (``purpose='state'``, one row per owner) or a
    game secret (hidden dice seed, setup salt, initial hidden setup, a phase's dice seed)."""

    __tablename__ = "sealed"

    game_id: str = Field(foreign_key="game.id", primary_key=True)
    owner: str = Field(primary_key=True)
    purpose: str = Field(primary_key=True)
    version: int
    blob: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


class Phase(SQLModel, table=True):
    """An order window: opened with a dice commitment, resolved once (DESIGN.md, "Data flow")."""

    __tablename__ = "phase"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    seq: int
    turn: int
    name: str
    phase_id: str
    window_json: str = Field(sa_column=Column(Text, nullable=False))
    opened_at: datetime
    deadline_at: datetime = Field(index=True)
    commit: str
    # open | resolved | undone (pbem game undo) | cancelled (opened by an undone phase) |
    # abandoned (pbem game end)
    status: str = Field(default="open", index=True)
    resolved_at: Optional[datetime] = None
    nmr_json: str = "[]"
    # the reminder lead times (seconds) already queued for this window, JSON list
    reminded_json: str = Field(default="[]", sa_column_kwargs={"server_default": "[]"})
    mac: Optional[str] = None


class Message(SQLModel, table=True):
    """Every incoming message, archived (sealed) before it is judged, with its verdict."""

    __tablename__ = "message"

    id: Optional[int] = Field(default=None, primary_key=True)
    message_key: str = Field(unique=True)  # Message-ID, or sha256 of the raw bytes
    raw_sha256: str
    received_at: datetime
    origin: str
    sender: str = ""
    subject: str = ""
    # pending | accepted | rejected | unreadable | duplicate | error
    verdict: str = Field(default="pending", index=True)
    reason: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    game_id: Optional[str] = None
    role: Optional[str] = None
    blob: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    size: int = Field(default=0, sa_column_kwargs={"server_default": "0"})  # bytes received
    # the archive kept only the first bytes of the message
    truncated: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})


class OrderSet(SQLModel, table=True):
    """An accepted order set for one window; a later ``issued`` supersedes it. The text and the
    problems found are sealed for the role."""

    __tablename__ = "order_set"

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    phase_seq: int
    role: str
    issued: datetime
    nonce: str
    digest: str  # keyed: HMAC-SHA256 of the canonical text (pbem.engine.accept.order_digest)
    received_at: datetime
    message_id: Optional[int] = Field(default=None, foreign_key="message.id")
    status: str = "accepted"  # accepted | superseded
    blob: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    # the header said ``wait: yes``: hold the window to its deadline (no early close)
    wait: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    mac: Optional[str] = None


class EventRow(SQLModel, table=True):
    """An event of a phase with its audience; private events are sealed."""

    __tablename__ = "event"

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    phase_seq: int
    idx: int
    audience: str  # JSON list of roles, or ["*"]
    public_json: Optional[str] = Field(default=None, sa_column=Column(Text))
    blob: Optional[bytes] = Field(default=None, sa_column=Column(LargeBinary))


class Report(SQLModel, table=True):
    """A rendered report of one role for one phase, sealed for that role."""

    __tablename__ = "report"

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    phase_seq: int
    role: str
    fmt: str  # text | html
    created_at: datetime
    blob: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


class Outbox(SQLModel, table=True):
    """Mail waiting to be delivered. Receipts and rejections are stored composed and sealed for
    their reader (``owner``); a report is composed when delivered, from the stored report of
    ``report_seq`` (so adjudication does not pay for MIME encoding)."""

    __tablename__ = "outbox"

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: Optional[str] = Field(default=None, index=True)
    owner: str  # the role, or "archive" for mail to unknown senders
    kind: str  # report | receipt | rejection | notice | reminder
    to_addr: str
    subject: str
    created_at: datetime
    sent_at: Optional[datetime] = Field(default=None, index=True)
    report_seq: Optional[int] = None
    blob: Optional[bytes] = Field(default=None, sa_column=Column(LargeBinary))
    # delivery: attempts made, and a permanent failure with the server's answer
    attempts: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    failed_at: Optional[datetime] = None
    error: Optional[str] = Field(default=None, sa_column=Column(Text))
    # scheduling only (not in the row MAC): the next try after a temporary failure, and the
    # claim of the `pbem send`/`outbox` run delivering it (pbem.store.outbox)
    next_try_at: Optional[datetime] = None
    claimed_by: Optional[str] = None
    claimed_until: Optional[datetime] = None
    mac: Optional[str] = None


class LogLine(SQLModel, table=True):
    """One line of a game's public, hash-chained log (DESIGN.md, "The public log")."""

    __tablename__ = "log_line"

    game_id: str = Field(foreign_key="game.id", primary_key=True)
    seq: int = Field(primary_key=True)
    line: str = Field(sa_column=Column(Text, nullable=False))
