"""The referee's commands on a running game: `pbem game extend|pause|resume|replace|set|end`
and `pbem resend`."""

from __future__ import annotations

import click  # noqa: F401

from pbem.cli import _fail_on_errors, main  # noqa: F401
from pbem.cli.games import game  # noqa: F401
