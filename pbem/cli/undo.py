"""`pbem game undo`: roll back the last resolved phase."""

from __future__ import annotations

import click  # noqa: F401

from pbem.cli import _fail_on_errors, main  # noqa: F401
from pbem.cli.games import game  # noqa: F401
