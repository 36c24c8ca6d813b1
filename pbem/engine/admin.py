"""The referee's fixes to a running game: extend a deadline, pause and resume, replace a player,
change the game's addresses and zones, abandon the game, and queue a report again.

This module gathers the names callers import (``from pbem.engine import admin``); each concern
lives in its own module (issue 8, "The referee's commands"; DESIGN.md, "Referee actions"):

- :mod:`pbem.engine.admin_checks`: :class:`ActionRefused` and the checks of the referee's input
  (:func:`check_why`, :func:`check_address`, :func:`check_zone`, :func:`parse_until`,
  :func:`phase_seq_of`);
- :mod:`pbem.engine.admin_deadlines`: :func:`extend`, :func:`pause`, :func:`resume`;
- :mod:`pbem.engine.admin_seats`: :func:`replace_player`, :func:`change_settings` and
  :func:`queue_report` (also ``pbem resend``);
- :mod:`pbem.engine.admin_end`: :func:`abandon`;
- :mod:`pbem.engine.admin_notices`: the pieces of the notices they all mail.

Each function works inside the caller's write transaction on a loaded
:class:`~pbem.engine.gamestate.GameContext` (the service layer, :mod:`pbem.engine.service_admin`,
opens it and flushes the log). Every action that changes the game is a public log line
``{"type": "referee", "action": ..., "why": ...}`` (:func:`pbem.engine.notices.record_action`;
DESIGN.md, "Referee actions") and a notice mailed to the players it concerns. The public log
never receives an e-mail address (nor a player's time zone): it says which setting changed, not
its value. A refusal raises :class:`ActionRefused` (or NotFound, GameError) before anything is
written.
"""

from __future__ import annotations

from pbem.engine.admin_checks import (MAX_WHY, ActionRefused, check_address, check_why,
                                      check_zone, parse_until, phase_seq_of)
from pbem.engine.admin_deadlines import extend, pause, resume
from pbem.engine.admin_end import abandon
from pbem.engine.admin_seats import change_settings, queue_report, replace_player

__all__ = ["MAX_WHY", "ActionRefused", "check_address", "check_why", "check_zone", "parse_until",
           "phase_seq_of", "extend", "pause", "resume", "abandon", "change_settings",
           "queue_report", "replace_player"]
