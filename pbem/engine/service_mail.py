"""The referee's mail-out commands (``pbem send``, ``pbem outbox``, ``pbem mail``), mixed into
:class:`pbem.engine.service.Referee` (docs/mail.md, "Sending")."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

NOTHING_TO_SEND_WITH = """no way to send mail is configured. Add to {config}:

    [mail]
    from = "referee@example.org"
    [smtp]
    host = "smtp.example.org"
    security = "starttls"          # or "tls" (port 465), or "none" for a relay on this machine
    user = "referee"               # if the server wants a login
    password_env = "PBEM_SMTP_PASSWORD"   # the environment variable holding the password

or give --smtp-host HOST (with --smtp-user USER --smtp-password-env VAR if it wants a login),
or --sendmail /usr/sbin/sendmail (docs/mail.md, "Sending"). To write the mail into a folder
instead, use `pbem outbox DIR`"""


@dataclass(frozen=True)
class SmtpOverrides:
    """``pbem send``'s command-line options, each None when not given: they replace the
    ``[smtp]`` settings of HOME/config.toml one by one."""

    host: str | None = None
    port: int | None = None
    security: str | None = None
    user: str | None = None
    password_env: str | None = None


class MailCommands:
    """Mixin of :class:`~pbem.engine.service.Referee`: delivering queued mail and showing the
    queue. Needs the Referee's ``home``, ``db``, ``sealer`` and ``clock``."""

    undeliverable: list

    def transport(self, *, sendmail: str | None = None,
                  smtp: SmtpOverrides = SmtpOverrides()):
        """The transport ``pbem send`` uses: the sendmail-compatible program ``sendmail``, or
        SMTP with the ``[smtp]`` settings of HOME/config.toml, each replaced by the option
        given in ``smtp``. Raises SetupError saying what to configure when there is neither a
        host nor a program, or when both are given; SettingsError for a bad settings file;
        TransportUnusable (pbem.mail.transports) for a missing password or program."""
        from pbem.engine.errors import SetupError
        from pbem.engine.settings import CONFIG_FILE, load_smtp_settings
        from pbem.mail.transports import SendmailTransport, SMTPTransport

        settings = load_smtp_settings(self.home.path)
        if sendmail:
            given = [f"--smtp-{k.replace('_', '-')}" for k, v in vars(smtp).items()
                     if v is not None]
            if given:
                raise SetupError(f"--sendmail and {', '.join(given)}: give one way of sending, "
                                 "not both")
            return SendmailTransport(sendmail, timeout=settings.timeout)
        host = smtp.host or settings.host
        if not host:
            raise SetupError(NOTHING_TO_SEND_WITH.format(config=self.home.path / CONFIG_FILE))
        return SMTPTransport(host, smtp.port or settings.port,
                             security=smtp.security or settings.security,
                             user=smtp.user if smtp.user is not None else settings.user,
                             password_env=smtp.password_env or settings.password_env,
                             timeout=settings.timeout, cafile=settings.cafile)

    def send(self, *, sendmail: str | None = None, smtp: SmtpOverrides = SmtpOverrides(),
             limit: int | None = None, transport=None):
        """Deliver the due queued mail (pbem.engine.delivery.deliver_queued) by SMTP or
        sendmail (:meth:`transport`), or with ``transport`` when given; at most ``limit``
        messages. Returns the DeliveryRun. Raises as :meth:`transport` does before anything is
        claimed."""
        from pbem.engine.delivery import deliver_queued

        transport = transport or self.transport(sendmail=sendmail, smtp=smtp)
        try:
            return deliver_queued(self.db, self.sealer, transport, clock=self.clock,
                                  limit=limit)
        finally:
            self.db.checkpoint_after_command()

    def outbox(self, folder: Path) -> list[Path]:
        """Write the due queued mail into ``folder`` as .eml files (the same claims and records
        as :meth:`send`; pbem.mail.transports.FolderTransport) and return the files written.
        What was not written is listed in ``self.undeliverable`` as ``(what, why)``: a mail
        that cannot be composed (marked failed), a row that fails its integrity check or cannot
        be read back (it stays queued), and, when the folder cannot be written, the rest of
        the queue."""
        from pbem.mail.transports import FolderTransport

        run = self.send(transport=FolderTransport(folder))
        self.undeliverable = list(run.problems)
        self.undeliverable += [(r.what, r.answer) for r in run.failed + run.retry]
        if run.fatal:
            self.undeliverable.append(("the rest of the queue", run.fatal))
        return [r.where for r in run.sent]

    def mail(self, game_id: str | None = None, status: str | None = None,
             limit: int | None = None) -> dict:
        """The outgoing mail, oldest first: ``{"mail": [...], "tampered": [...]}``. Each item:
        ``id``, ``game``, ``kind``, ``to``, ``subject``, ``status`` (queued | sent | failed),
        ``queued``, ``attempts``, ``next_try`` (queued after a temporary failure), ``sent``,
        ``failed``, ``answer`` (the server's last answer: of the failure, or of the last
        temporary failure of a queued mail); times as ISO 8601 UTC strings or None.
        ``tampered``: the ids of rows that fail their integrity check. ``game_id`` (NotFound
        if unknown), ``status`` and ``limit`` (the newest N) narrow the list."""
        from pbem.engine.headers import format_time
        from pbem.store import outbox as store

        if game_id is not None:
            self.game(game_id)

        def t(value):
            return format_time(value) if value is not None else None

        with self.db.read() as s:
            rows, tampered = store.listing(s, game_id=game_id, status=status, limit=limit)
        out = []
        for r in rows:
            state = "sent" if r.sent_at else "failed" if r.failed_at else "queued"
            out.append({"id": r.id, "game": r.game_id, "kind": r.kind, "to": r.to_addr,
                        "subject": r.subject, "status": state, "queued": t(r.created_at),
                        "attempts": r.attempts or 0,
                        "next_try": t(r.next_try_at) if state == "queued" else None,
                        "sent": t(r.sent_at), "failed": t(r.failed_at), "answer": r.error})
        return {"mail": out, "tampered": [e.key[0] for e in tampered]}

    def mail_by_game(self) -> dict:
        """Per game id (None: mail that names no game): ``{"queued": n, "failed": [{"id",
        "kind", "to", "failed", "answer"}]}``, for ``pbem status``."""
        from pbem.engine.headers import format_time
        from pbem.store import outbox as store

        with self.db.read(orm=False) as s:
            counts, _tampered = store.by_game(s)
        return {gid: {"queued": c["queued"],
                      "failed": [{"id": r.id, "kind": r.kind, "to": r.to_addr,
                                  "failed": format_time(r.failed_at), "answer": r.error}
                                 for r in c["failed"]]}
                for gid, c in counts.items()}

    def game_sender(self, given: str | None) -> str:
        """The From address of a new game: ``given`` (``--from``, or PBEM_FROM) as it is, else
        ``[mail] from`` of HOME/config.toml. Raises GameError when there is neither, or when
        the configured one is an address nobody can answer (a domain ending in ``.invalid``,
        RFC 2606 section 2: such mail is never delivered, so players' replies and bounces
        would be lost): an explicit ``--from`` is taken at its word."""
        from pbem.engine.errors import GameError
        from pbem.engine.settings import CONFIG_FILE, load_mail_settings

        if given is not None:
            return given
        config = self.home.path / CONFIG_FILE
        settings = load_mail_settings(self.home.path)
        if settings.sender is None:
            raise GameError(
                "the game needs a From address players can answer: give --from "
                "referee@your-domain (or set PBEM_FROM), or set it once for every game in "
                f"{config}:\n\n    [mail]\n    from = \"referee@your-domain\"\n")
        domain = parseaddr_domain(settings.sender)
        if domain.endswith(".invalid") or domain == "invalid":
            raise GameError(
                f"{settings.source} is {settings.sender!r}: nobody can answer mail from it (the "
                "domain .invalid never delivers, RFC 2606): set your own address there, or give "
                "--from explicitly if you really mean it")
        return settings.sender


def parseaddr_domain(address: str) -> str:
    """The lower-cased domain of ``address`` (``Referee <ref@Example.ORG>`` -> ``example.org``)."""
    from email.utils import parseaddr

    return parseaddr(address)[1].rpartition("@")[2].strip().rstrip(".").lower()
