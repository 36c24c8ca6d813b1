"""The referee's commands on a running game (``pbem game extend|pause|resume|undo|replace|set|
end``, ``pbem resend``), mixed into :class:`pbem.engine.service.Referee`."""

from __future__ import annotations


class GameAdmin:
    """Mixin of :class:`~pbem.engine.service.Referee`: fixing what went wrong in a game."""
