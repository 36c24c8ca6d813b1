"""Exceptions of the mail layer, one class per cause.

Every message quotes the offending input (a path, a header value, a MIME type) and says what
was expected, so that ``pbem ingest`` and ``pbem outbox`` can print it to the referee as is.
Decoding an incoming message never raises (problems become ``Extracted.warnings``); only
reading sources, composing and writing the outbox do.
"""

from __future__ import annotations


class MailError(Exception):
    """Base class of every error raised by :mod:`pbem.mail`."""


class MailSourceError(MailError):
    """A mail source given to :func:`pbem.mail.sources.iter_messages` cannot be used.

    ``path`` is the path exactly as the caller gave it (``"-"`` for standard input).
    """

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path


class MailSourceNotFoundError(MailSourceError):
    """The path does not exist (nothing at that name: check the spelling, or mount the disk)."""

    def __init__(self, path: str) -> None:
        super().__init__(
            path,
            f"mail source {path!r} does not exist; expected a Maildir, an mbox file, "
            f"an .eml file, a folder of messages, a signed orders file, or '-' for stdin",
        )


class MailSourceUnreadableError(MailSourceError):
    """The path exists but cannot be read (permissions, I/O error, a file vanished mid-read)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path, f"mail source {path!r} cannot be read: {reason}")
        self.reason = reason


class ComposeError(MailError):
    """Base class of the errors raised by :func:`pbem.mail.compose.compose`."""


class ComposeHeaderError(ComposeError):
    """A value meant for a header line holds a line break (CR or LF) or is otherwise unusable.

    A line break would let the value start a new header (header injection), so it is refused
    rather than folded away (RFC 5322 section 2.2).
    """

    def __init__(self, field: str, value: str, expected: str) -> None:
        super().__init__(f"{field} value {value!r} is not usable: expected {expected}")
        self.field = field
        self.value = value


class ComposeAddressError(ComposeError):
    """A sender or recipient is not a plain ASCII e-mail address (RFC 5322 section 3.4)."""

    def __init__(self, field: str, value: str, reason: str) -> None:
        super().__init__(
            f"{field} {value!r} is not a usable e-mail address ({reason}); expected "
            f"'name@example.org' or 'Display Name <name@example.org>'"
        )
        self.field = field
        self.value = value


class ComposeAttachmentError(ComposeError):
    """An attachment's MIME type is not of the form ``type/subtype`` (RFC 2045 section 5.1)."""

    def __init__(self, filename: str, mime_type: str) -> None:
        super().__init__(
            f"attachment {filename!r} has MIME type {mime_type!r}; expected 'type/subtype' "
            f"such as 'text/plain' or 'application/octet-stream'"
        )
        self.filename = filename
        self.mime_type = mime_type


class OutboxWriteError(MailError):
    """A message could not be written to the outbox (permissions, full disk, not a folder)."""

    def __init__(self, folder: str, reason: str) -> None:
        super().__init__(f"cannot write to outbox folder {folder!r}: {reason}")
        self.folder = folder
        self.reason = reason
