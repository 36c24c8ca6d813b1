"""Handing composed mail to the world: by SMTP, through a sendmail-compatible program, or into a
folder as .eml files (docs/mail.md, "Sending").

Every transport has the same small interface::

    transport.deliver(sender, recipients, data)   # returns where it went (a Path for a folder)
    transport.close()

``sender`` is the envelope sender (a bare address, ``referee@example.org``), ``recipients`` the
envelope recipients (bare addresses), ``data`` the complete message with CRLF line ends
(:func:`pbem.mail.compose.compose`). ``deliver`` returns when the message is accepted, or raises:

- :class:`TemporaryFailure`: try again later (an SMTP reply 4xx, RFC 5321 section 4.2.1
  "transient negative completion"; a connection refused or timed out; a TLS handshake that
  failed; a sendmail program that exited with 75, EX_TEMPFAIL, or was killed). Its
  ``connection`` is True when no session could be opened at all: then the other messages of
  the run would fail the same way, and the caller stops the run;
- :class:`PermanentFailure`: this message will never go (an SMTP reply 5xx, "permanent negative
  completion": an unknown recipient, a message refused; a sendmail program's other non-zero
  exit status);
- :class:`TransportUnusable`: nothing can be sent with this transport as configured (the login
  refused, 535; no password in the environment; no such sendmail program; a folder that cannot
  be written). The run stops; no message is blamed.

Each failure carries ``answer``: the server's reply as it gave it (``451 4.3.0 try later``), or
what happened (``connection refused``, the program's standard error). A password is never part
of any message or answer.
"""

from __future__ import annotations

import os
import shutil
import smtplib
import socket
import ssl
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Protocol, Sequence

from pbem.mail.errors import MailError

__all__ = ["Transport", "DeliveryFailure", "TemporaryFailure", "PermanentFailure",
           "TransportUnusable", "SMTPTransport", "SendmailTransport", "FolderTransport",
           "SECURITY_MODES", "DEFAULT_PORTS", "EX_TEMPFAIL", "reply_text"]

SECURITY_MODES = ("none", "starttls", "tls")
"""``none``: plain SMTP; ``starttls``: plain, then STARTTLS before anything else (RFC 3207);
``tls``: TLS from the first byte ("implicit TLS", RFC 8314 section 3)."""
DEFAULT_PORTS = {"none": 25, "starttls": 587, "tls": 465}
"""The port of each security mode when none is given (RFC 5321 section 4.5.4.2 for 25;
RFC 6409 section 3.1 for 587; RFC 8314 section 7.3 for 465)."""
EX_TEMPFAIL = 75
"""sendmail's exit status for "temporary failure, try again later" (sysexits.h)."""


class DeliveryFailure(MailError):
    """One message was not delivered; ``answer`` is the server's reply or what happened."""

    def __init__(self, answer: str, *, connection: bool = False) -> None:
        super().__init__(answer)
        self.answer = answer
        self.connection = connection


class TemporaryFailure(DeliveryFailure):
    """Not delivered this time; the same message may go later (see the module doc)."""


class PermanentFailure(DeliveryFailure):
    """Not delivered, and trying again will not help (see the module doc)."""


class TransportUnusable(MailError):
    """Nothing can be sent with this transport as configured; the message says what to fix."""


class Transport(Protocol):
    """The interface every transport has (see the module doc)."""

    description: str

    def deliver(self, sender: str, recipients: Sequence[str], data: bytes, *,
                hint: str = "mail", queued_at: datetime | None = None) -> object:
        ...

    def close(self) -> None:
        ...


def reply_text(code: int, message: bytes | str) -> str:
    """An SMTP reply as one line: ``451 4.3.0 try later`` (a multi-line reply's lines are
    joined with spaces)."""
    if isinstance(message, bytes):
        message = message.decode("utf-8", "replace")
    text = " ".join(str(message).split())
    return f"{code} {text}".strip()


def _by_code(code: int, answer: str, *, connection: bool = False) -> DeliveryFailure:
    """The failure an SMTP reply code stands for (RFC 5321 section 4.2.1): 5yz permanent,
    anything else (4yz, or smtplib's -1 for a reply it could not read) temporary."""
    if 500 <= code <= 599:
        return PermanentFailure(answer, connection=connection)
    return TemporaryFailure(answer, connection=connection)


class SMTPTransport:
    """Delivery over SMTP with :mod:`smtplib`: one connection for the whole run, opened at the
    first message and opened again after a failure.

    ``host``, ``port`` (default by ``security``: :data:`DEFAULT_PORTS`), ``security`` one of
    :data:`SECURITY_MODES`; ``user`` to log in (AUTH, RFC 4954) with the password read from the
    environment variable named ``password_env`` (read here, kept in memory only, never shown);
    ``timeout`` in seconds for connecting and for each reply; ``cafile``: a PEM file of the
    certificate authorities to trust instead of the system's (a private CA). Certificates are
    always verified, host name included (:func:`ssl.create_default_context`).

    Raises :class:`TransportUnusable` at once for a bad security mode, a user without a
    password in the environment, a login over an unencrypted connection, or an unreadable
    ``cafile``.
    """

    def __init__(self, host: str, port: int | None = None, *, security: str = "starttls",
                 user: str | None = None, password_env: str | None = None,
                 timeout: float = 60.0, cafile: str | None = None,
                 local_hostname: str | None = None) -> None:
        if security not in SECURITY_MODES:
            raise TransportUnusable(f"SMTP security {security!r}: expected one of "
                                    f"{', '.join(SECURITY_MODES)}")
        if not host:
            raise TransportUnusable("no SMTP host: set [smtp] host in HOME/config.toml or give "
                                    "--smtp-host")
        self.host, self.security = host, security
        self.port = int(port) if port else DEFAULT_PORTS[security]
        self.timeout = float(timeout)
        self.user = user or None
        self._password: str | None = None
        self.local_hostname = local_hostname
        if self.user:
            if not password_env:
                raise TransportUnusable(
                    f"SMTP user {self.user!r} is set but no password: put the password in an "
                    "environment variable and name it with [smtp] password_env (or "
                    "--smtp-password-env VAR)")
            password = os.environ.get(password_env)
            if not password:
                raise TransportUnusable(
                    f"the environment variable {password_env} (named by password_env) is not "
                    f"set or is empty: export it with the SMTP password of {self.user!r} before "
                    "running pbem send")
            if security == "none":
                raise TransportUnusable(
                    "refusing to send the SMTP password over an unencrypted connection: set "
                    "[smtp] security to \"starttls\" or \"tls\"")
            self._password = password
        elif password_env:
            raise TransportUnusable(f"password_env {password_env!r} is set but no SMTP user: set "
                                    "[smtp] user (or --smtp-user) too")
        try:
            self._context = ssl.create_default_context(cafile=cafile)
        except (OSError, ssl.SSLError) as e:
            raise TransportUnusable(f"cafile {cafile!r}: cannot load certificate authorities "
                                    f"from it ({e}); expected a PEM file") from None
        self.description = (f"smtp://{host}:{self.port} ({security}"
                            + (f", user {self.user}" if self.user else "") + ")")
        self._conn: smtplib.SMTP | None = None

    def __repr__(self) -> str:  # never the password
        return f"<SMTPTransport {self.description}>"

    # ------------------------------------------------------------ the session

    def _connect(self) -> smtplib.SMTP:
        where = f"{self.host}:{self.port}"
        conn = None
        try:
            if self.security == "tls":
                conn = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout,
                                        context=self._context,
                                        local_hostname=self.local_hostname)
            else:
                conn = smtplib.SMTP(self.host, self.port, timeout=self.timeout,
                                    local_hostname=self.local_hostname)
                if self.security == "starttls":
                    conn.ehlo()
                    if not conn.has_extn("starttls"):
                        raise TemporaryFailure(
                            f"the server at {where} does not offer STARTTLS; pbem does not "
                            "send in clear when security is \"starttls\" (use \"none\" only for "
                            "a trusted relay on this machine)", connection=True)
                    conn.starttls(context=self._context)
                    conn.ehlo()
            if self.user:
                conn.login(self.user, self._password)
        except DeliveryFailure:
            _drop(conn)
            raise
        except smtplib.SMTPAuthenticationError as e:
            _drop(conn)
            answer = reply_text(e.smtp_code, e.smtp_error)
            if 400 <= e.smtp_code <= 499:
                raise TemporaryFailure(f"login at {where} failed for now: {answer}",
                                       connection=True) from None
            raise TransportUnusable(
                f"the SMTP server at {where} refused the login of {self.user!r}: {answer}; "
                "check [smtp] user and the password in the environment variable named by "
                "password_env. Nothing was sent; the mail stays queued") from None
        except smtplib.SMTPNotSupportedError:
            _drop(conn)
            raise TransportUnusable(f"the SMTP server at {where} does not offer AUTH on this "
                                    "connection: check [smtp] security, or drop [smtp] user "
                                    "if it needs no login") from None
        except smtplib.SMTPResponseException as e:
            _drop(conn)
            raise TemporaryFailure(f"{where}: {reply_text(e.smtp_code, e.smtp_error)}",
                                   connection=True) from None
        except ssl.SSLError as e:
            _drop(conn)
            raise TemporaryFailure(f"TLS with {where} failed: {_reason(e)} (a private "
                                   "certificate authority goes in [smtp] cafile)",
                                   connection=True) from None
        except (OSError, smtplib.SMTPException) as e:
            _drop(conn)
            raise TemporaryFailure(f"cannot connect to {where}: {_reason(e)}",
                                   connection=True) from None
        return conn

    def deliver(self, sender: str, recipients: Sequence[str], data: bytes, **_meta) -> str:
        """Send one message (see the module doc); returns the transport's description. The
        connection is kept for the next message, and dropped after any failure."""
        if self._conn is None:
            self._conn = self._connect()
        try:
            refused = self._conn.sendmail(sender, list(recipients), data)
        except smtplib.SMTPRecipientsRefused as e:
            self._reset()
            codes = [code for code, _ in e.recipients.values()]
            answer = "; ".join((f"{rcpt}: " if len(e.recipients) > 1 else "")
                               + reply_text(code, msg)
                               for rcpt, (code, msg) in e.recipients.items())
            if all(500 <= c <= 599 for c in codes):
                raise PermanentFailure(answer) from None
            raise TemporaryFailure(answer) from None
        except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as e:
            self._reset()
            raise _by_code(e.smtp_code, reply_text(e.smtp_code, e.smtp_error)) from None
        except smtplib.SMTPResponseException as e:
            self._reset()
            raise _by_code(e.smtp_code, reply_text(e.smtp_code, e.smtp_error)) from None
        except (OSError, smtplib.SMTPException) as e:  # disconnected, timed out
            self._reset()
            raise TemporaryFailure(f"the connection to {self.host}:{self.port} broke while "
                                   f"sending: {_reason(e)}") from None
        if refused:  # accepted for some recipients only
            answer = "; ".join(f"{rcpt}: {reply_text(code, msg)}"
                               for rcpt, (code, msg) in refused.items())
            raise PermanentFailure(f"delivered to the other recipients, refused for {answer}")
        return self.description

    def _reset(self) -> None:
        _drop(self._conn)
        self._conn = None

    def close(self) -> None:
        """End the session politely (QUIT), ignoring a connection that is gone already."""
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.quit()
            except (OSError, smtplib.SMTPException):
                conn.close()


def _drop(conn) -> None:
    if conn is not None:
        try:
            conn.close()
        except OSError:
            pass


def _reason(e: BaseException) -> str:
    if isinstance(e, (socket.timeout, TimeoutError)):
        return "timed out"
    if isinstance(e, ConnectionRefusedError):
        return "connection refused"
    if isinstance(e, ssl.SSLCertVerificationError):
        return f"certificate verify failed: {e.verify_message}"
    if isinstance(e, ssl.SSLError):
        return e.reason or str(e)
    return str(e) or type(e).__name__


class SendmailTransport:
    """Delivery through a sendmail-compatible program (sendmail, Postfix, Exim, msmtp, ...):
    ``PATH -i -f SENDER -- RECIPIENT...`` with the message on standard input (LF line ends, as
    local submission expects). Exit status 0: delivered; 75 (EX_TEMPFAIL) or killed by a
    signal: :class:`TemporaryFailure`; any other: :class:`PermanentFailure` with the program's
    standard error; still running after ``timeout`` seconds: killed, TemporaryFailure.
    :class:`TransportUnusable` when the program cannot be found or run."""

    def __init__(self, path: str, *, timeout: float = 60.0) -> None:
        found = path if os.sep in path else shutil.which(path)
        if not found or not os.path.isfile(found) or not os.access(found, os.X_OK):
            raise TransportUnusable(f"--sendmail {path!r}: no such program, or not executable "
                                    "(give the full path, e.g. /usr/sbin/sendmail)")
        self.path, self.timeout = found, float(timeout)
        self.description = f"sendmail {found}"

    def deliver(self, sender: str, recipients: Sequence[str], data: bytes, **_meta) -> str:
        """Run the program once for this message (see the class doc)."""
        argv = [self.path, "-i", "-f", sender, "--", *recipients]
        try:
            done = subprocess.run(argv, input=data.replace(b"\r\n", b"\n"),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=self.timeout)
        except subprocess.TimeoutExpired:
            raise TemporaryFailure(f"{self.path} did not finish within {self.timeout:g} s and "
                                   "was stopped") from None
        except OSError as e:
            raise TransportUnusable(f"cannot run {self.path}: {e.strerror or e}") from None
        err = " ".join(done.stderr.decode("utf-8", "replace").split())[:1000]
        if done.returncode == 0:
            return self.description
        if done.returncode == EX_TEMPFAIL:
            raise TemporaryFailure(f"{self.path} exited with status 75 (EX_TEMPFAIL)"
                                   + (f": {err}" if err else ""))
        if done.returncode < 0:
            raise TemporaryFailure(f"{self.path} was killed by signal {-done.returncode}"
                                   + (f": {err}" if err else ""))
        raise PermanentFailure(f"{self.path} exited with status {done.returncode}"
                               + (f": {err}" if err else ""))

    def close(self) -> None:
        """Nothing to close: one process per message."""


class FolderTransport:
    """Delivery into a folder: each message becomes one .eml file
    (:func:`pbem.mail.outbox.write_eml`, named from the time the mail was queued, the hint and
    a hash of its bytes). ``deliver`` returns the file's Path. A folder that cannot be written
    (a file in its place, no permission, a full disk) is :class:`TransportUnusable`."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        self.description = f"folder {self.folder}"

    def deliver(self, sender: str, recipients: Sequence[str], data: bytes, *,
                hint: str = "mail", queued_at: datetime | None = None, **_meta) -> Path:
        """Write the message (see the class doc)."""
        from pbem.mail.errors import OutboxWriteError
        from pbem.mail.outbox import write_eml

        try:
            return write_eml(self.folder, hint, data, now=queued_at)
        except OutboxWriteError as e:
            raise TransportUnusable(str(e)) from None

    def close(self) -> None:
        """Nothing to close."""
