"""Mail in and out (DESIGN.md "Data flow"); see docs/mail.md.

- :mod:`pbem.mail.sources`: where incoming mail is read from (Maildir, mbox, .eml, folders, stdin).
- :mod:`pbem.mail.extract`: one message's MIME decoded into the texts that may hold signed orders.
- :mod:`pbem.mail.flowed`: RFC 3676 format=flowed undone.
- :mod:`pbem.mail.htmltext`: text from an HTML-only body.
- :mod:`pbem.mail.compose`: outgoing mail as RFC 5322 bytes.
- :mod:`pbem.mail.outbox`: outgoing mail written atomically to a folder as .eml files.
- :mod:`pbem.mail.transports`: handing composed mail over: SMTP, a sendmail program, a folder.
- :mod:`pbem.mail.errors`: the exceptions, one per cause.

Nothing is imported here, so that importing the package costs nothing at CLI start-up.
"""
