"""Errors the service layer raises for the command line to report (one class per cause)."""


class PbemError(Exception):
    """Base of the errors a referee's command reports as a message and a non-zero exit."""


class GameError(PbemError):
    """A game cannot be created or found as asked (bad id, seats, options, house rules, map)."""


class NotFound(PbemError):
    """No such game, role, phase or report."""


class SetupError(PbemError):
    """The referee's home is not set up (no master key, no database) or is unsafe."""
