"""A real SMTP server for the tests of `pbem send` (aiosmtpd), run as its own process.

    python tests/smtp_server.py --maildir DIR --log FILE [--mode plain|starttls|tls]
        [--cert PEM --key PEM] [--auth USER:PASSWORD] [--tempfail ADDR]... [--reject ADDR]...
        [--stall ADDR]... [--delay SECONDS]

It listens on a free loopback port and prints ``READY <port>`` once it accepts connections.
Every accepted message is stored in the Maildir DIR (``new/``), exactly as received, and one
JSON line per message is appended to FILE: ``{"from", "to", "message_id", "login", "tls",
"stalled"}``.

- ``--mode``: ``plain``; ``starttls`` (STARTTLS offered and required before MAIL); ``tls``
  (TLS from the first byte). ``--cert``/``--key``: the server's certificate and key (PEM).
- ``--auth USER:PASSWORD``: AUTH required (PLAIN or LOGIN), after TLS; any other login gets
  ``535 5.7.8 Authentication credentials invalid``.
- ``--tempfail ADDR``: the first RCPT TO for ADDR is answered ``451 4.3.0 try later``; later
  ones are accepted.
- ``--reject ADDR``: RCPT TO for ADDR is answered ``550 5.1.1 <ADDR>: no such user here``.
- ``--stall ADDR``: the first message for ADDR is stored and logged, then its DATA is never
  answered (the server waits an hour), so that a test can kill the client in the middle of
  sending; later messages for ADDR are answered at once.
- ``--delay SECONDS``: wait this long before answering each DATA (a slow server).
"""

from __future__ import annotations

import argparse
import asyncio
import email
import json
import mailbox
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult


class Handler:
    def __init__(self, args):
        self.args = args
        self.box = mailbox.Maildir(args.maildir, create=True)
        self.tempfailed: set[str] = set()
        self.stalled: set[str] = set()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.args.reject:
            return f"550 5.1.1 <{address}>: no such user here"
        if address in self.args.tempfail and address not in self.tempfailed:
            self.tempfailed.add(address)
            return "451 4.3.0 try later"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        data = envelope.original_content or envelope.content
        self.box.add(data)
        stall = [a for a in envelope.rcpt_tos if a in self.args.stall and a not in self.stalled]
        self.stalled.update(stall)
        msg = email.message_from_bytes(data)
        entry = {"from": envelope.mail_from, "to": envelope.rcpt_tos,
                 "message_id": str(msg["Message-ID"] or ""),
                 "login": session.auth_data.decode() if isinstance(session.auth_data, bytes)
                 else session.auth_data,
                 "tls": session.ssl is not None or self.args.mode == "tls",
                 "stalled": bool(stall)}
        with open(self.args.log, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")
        if stall:
            await asyncio.sleep(3600)
        if self.args.delay:
            await asyncio.sleep(self.args.delay)
        return "250 2.0.0 OK: queued"


def authenticator(expected: tuple[bytes, bytes]):
    def check(server, session, envelope, mechanism, auth_data):
        ok = (auth_data.login, auth_data.password) == expected
        return AuthResult(success=ok, auth_data=auth_data.login if ok else None, handled=False)

    return check


async def serve(args) -> None:
    loop = asyncio.get_running_loop()
    context = None
    if args.mode != "plain":
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)
    handler = Handler(args)
    options = {"hostname": "mx.test.example", "loop": loop}
    if args.mode == "starttls":
        options.update(tls_context=context, require_starttls=True)
    if args.auth:
        user, _, password = args.auth.partition(":")
        options.update(auth_required=True, auth_require_tls=args.mode == "starttls",
                       authenticator=authenticator((user.encode(), password.encode())))
    server = await loop.create_server(lambda: SMTP(handler, **options), "127.0.0.1", 0,
                                      ssl=context if args.mode == "tls" else None)
    port = server.sockets[0].getsockname()[1]
    print(f"READY {port}", flush=True)
    async with server:
        await server.serve_forever()


def main(argv=None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--maildir", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--mode", choices=("plain", "starttls", "tls"), default="plain")
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--auth")
    p.add_argument("--tempfail", action="append", default=[])
    p.add_argument("--reject", action="append", default=[])
    p.add_argument("--stall", action="append", default=[])
    p.add_argument("--delay", type=float, default=0.0)
    args = p.parse_args(argv)
    try:
        asyncio.run(serve(args))
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
