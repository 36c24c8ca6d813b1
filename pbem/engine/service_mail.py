"""The referee's mail-out commands (``pbem send``, ``pbem outbox``, ``pbem mail``), mixed into
:class:`pbem.engine.service.Referee`."""

from __future__ import annotations


class MailCommands:
    """Mixin of :class:`~pbem.engine.service.Referee`: delivering queued mail."""
