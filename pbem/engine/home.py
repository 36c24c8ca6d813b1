"""The referee's home folder: the database, the master key and the public setup reports.

``--home DIR`` or ``PBEM_HOME`` picks it (default ``~/.pbem``); ``--db URL`` or ``PBEM_DB``
overrides the database (default: SQLite file ``pbem.db`` in the home). The master key file
``referee.key`` (mode 0600) is the root of every sealing key and of each game's referee key.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_HOME = "~/.pbem"
DB_FILE = "pbem.db"
MASTER_KEY_FILE = "referee.key"


@dataclass(frozen=True)
class Home:
    """Paths of one referee installation. ``db_url`` is None for the default SQLite file."""

    path: Path
    db_url: str | None = None

    def __post_init__(self):
        object.__setattr__(self, "path", Path(self.path).expanduser())

    @classmethod
    def resolve(cls, home: str | None = None, db_url: str | None = None) -> "Home":
        """From explicit values, else ``PBEM_HOME``/``PBEM_DB``, else the defaults."""
        folder = home or os.environ.get("PBEM_HOME") or DEFAULT_HOME
        return cls(Path(folder).expanduser(), db_url or os.environ.get("PBEM_DB") or None)

    @property
    def master_key_path(self) -> Path:
        return self.path / MASTER_KEY_FILE

    @property
    def url(self) -> str:
        """The database URL in force."""
        from pbem.store.db import sqlite_url

        return self.db_url or sqlite_url(self.path / DB_FILE)

    def games_dir(self, game_id: str) -> Path:
        """Where a game's public files (setup report, exported log) are written."""
        return self.path / "games" / game_id
