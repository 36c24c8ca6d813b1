"""Mail out: send (SMTP or sendmail), outbox (a folder), mail (the queue)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pbem.cli import _fail_on_errors, main


def _print_run(run) -> None:
    """The lines ``pbem send`` prints after its summary: each failure and each temporary
    failure with the server's answer, what stays queued and why, and why the run stopped."""
    for r in run.retry:
        click.echo(f"retry later: #{r.id} {r.what}: {r.answer}; next try "
                   f"{r.next_try:%Y-%m-%dT%H:%M:%SZ}")
    for r in run.failed:
        click.echo(f"Error: failed: #{r.id} {r.what}: {r.answer}", err=True)
    for what, why in run.problems:
        click.echo(f"Error: not sent: {what}: {why}", err=True)
    if run.stopped:
        click.echo(f"stopped: {run.stopped}; the rest stays queued for the next run")
    n, until = getattr(run, "held", (0, None))
    if n:
        click.echo(f"held by another run: {n} queued message{'s' if n != 1 else ''} (a "
                   "`pbem send` still running, or one that was killed: its claim expires "
                   f"{until:%Y-%m-%dT%H:%M:%SZ}, then the next run sends them)")
    if run.fatal:
        click.echo(f"Error: {run.fatal}", err=True)


@main.command()
@click.option("--sendmail", "sendmail", metavar="PATH",
              help="Hand each message to this sendmail-compatible program (message on stdin, "
                   "PATH -i -f SENDER -- RECIPIENT) instead of SMTP.")
@click.option("--smtp-host", metavar="HOST", help="SMTP server [config: [smtp] host].")
@click.option("--smtp-port", type=click.IntRange(1, 65535), metavar="N",
              help="SMTP port [config: [smtp] port; default 25, 587 or 465 by security].")
@click.option("--smtp-security", type=click.Choice(["none", "starttls", "tls"]),
              help="none, starttls, or tls (implicit TLS) [config: [smtp] security; default "
                   "starttls].")
@click.option("--smtp-user", metavar="USER", help="Log in as USER [config: [smtp] user].")
@click.option("--smtp-password-env", metavar="VAR",
              help="The environment variable holding the SMTP password [config: [smtp] "
                   "password_env]; the password itself is never an option.")
@click.option("--limit", type=click.IntRange(1), metavar="N",
              help="Send at most N messages in this run.")
@click.pass_obj
@_fail_on_errors
def send(obj, sendmail, smtp_host, smtp_port, smtp_security, smtp_user, smtp_password_env,
         limit):
    """Deliver every queued message (reports, receipts, rejections, notices) by SMTP, or
    through a sendmail program, and mark each sent.

    Settings come from the [smtp] table of HOME/config.toml; options replace them one by one
    (docs/mail.md, "Sending"). A temporary failure (a 4xx answer, no connection) is retried by
    a later run, after 5 minutes, then 10, 20, ... up to 6 hours between tries; a message
    still not delivered 3 days after it was queued is marked failed. A permanent failure (5xx)
    marks the message failed with the server's answer (see `pbem mail --status failed`).
    Safe to run from cron, twice at once, and to kill: each run claims what it sends.

    Prints `sent N, retry later N, failed N`, then each failure with the server's answer.
    Exit status 1 when a message failed for good, a queued row was changed outside pbem, or
    nothing could be sent (a refused login, or the server could not be reached before a first
    message went); 0 otherwise.
    """
    from pbem.engine.service_mail import SmtpOverrides

    ref = obj.referee()
    run = ref.send(sendmail=sendmail, limit=limit,
                   smtp=SmtpOverrides(smtp_host, smtp_port, smtp_security, smtp_user,
                                      smtp_password_env))
    click.echo(run.summary())
    _print_run(run)
    if not run.ok:
        sys.exit(1)


@main.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.pass_obj
@_fail_on_errors
def outbox(obj, folder):
    """Write every queued message (reports, receipts, rejections, notices) into FOLDER as .eml
    files named TIME-GAME-KIND-ROLE-HASH.eml, and mark each sent (for a mail program that sends
    from a folder; `pbem send` sends by SMTP). Claims messages like `pbem send`: safe to run
    twice at once."""
    ref = obj.referee()
    written = ref.outbox(Path(folder))
    click.echo(f"{len(written)} message{'s' if len(written) != 1 else ''} written to {folder}")
    for what, why in ref.undeliverable:
        click.echo(f"Error: not written: {what}: {why}", err=True)
    if ref.undeliverable:
        sys.exit(1)


@main.command("mail")
@click.argument("game_id", required=False)
@click.option("--status", type=click.Choice(["queued", "sent", "failed"]),
              help="Only the mail in this state.")
@click.option("--limit", type=click.IntRange(1), default=200, show_default=True, metavar="N",
              help="Only the newest N messages.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
@_fail_on_errors
def mail_cmd(obj, game_id, status, limit, as_json):
    """The outgoing mail (of GAME, or all): per message its id, game, kind, recipient,
    subject, when it was queued, the attempts made, and the next try, the time it was sent,
    or its failure with the server's answer."""
    listed = obj.referee().mail(game_id, status, limit)
    if as_json:
        click.echo(json.dumps(listed, indent=2))
        return
    if not listed["mail"] and not listed["tampered"]:
        click.echo("no mail" + (f" {status}" if status else ""))
    for m in listed["mail"]:
        click.echo(f"#{m['id']:<5} {m['game'] or '-':<12} {m['kind']:<9} {m['to']}  "
                   f"{m['status']}")
        click.echo(f"       {m['subject']}")
        line = f"       queued {m['queued']}, attempts {m['attempts']}"
        if m["status"] == "sent":
            line += f", sent {m['sent']}"
        elif m["status"] == "failed":
            line += f", failed {m['failed']}: {m['answer']}"
        elif m["next_try"]:
            line += f", next try {m['next_try']} (last answer: {m['answer']})"
        click.echo(line)
    for rid in listed["tampered"]:
        click.echo(f"Error: queued mail {rid} fails its integrity check (changed outside pbem; "
                   "docs/security.md)", err=True)
    if listed["tampered"]:
        sys.exit(1)
