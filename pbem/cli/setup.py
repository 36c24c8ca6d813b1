"""Set-up and keys: init, upgrade, keygen, sign."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pbem.cli import _fail_on_errors, main, read_text_file


@main.command()
@click.pass_obj
@_fail_on_errors
def init(obj):
    """Create (or migrate) the database and the referee's master key.

    The key file HOME/referee.key is created with mode 0600 and never overwritten.
    """
    r = obj.referee().init()
    click.echo(f"home:     {r['home']}")
    click.echo(f"key:      {r['key']} ({'created' if r['key_created'] else 'kept, exists already'})")
    before = r["revision_before"] or "none"
    click.echo(f"database: {r['db']} (schema {before} -> {r['revision']})")
    _say_protected(r)


@main.command()
@click.pass_obj
@_fail_on_errors
def upgrade(obj):
    """Migrate an existing database to this version's schema (Alembic)."""
    r = obj.referee().upgrade()
    before = r["revision_before"] or "none"
    click.echo(f"database: {r['db']} (schema {before} -> {r['revision']})")
    _say_protected(r)


def _say_protected(r: dict) -> None:
    """Tell the referee when existing rows were just given integrity checks: that happens once,
    when a database from a pbem before 0.2 is upgraded; at any other time it means the
    database was changed to look older (docs/security.md)."""
    rows = {k: v for k, v in r.get("rows_protected", {}).items() if k != "order_set_rekeyed"}
    if sum(rows.values()):
        click.echo(f"integrity checks added to {sum(rows.values())} existing rows "
                   f"({', '.join(f'{k} {v}' for k, v in rows.items() if v)}). This happens once, "
                   "when upgrading a database made by an older pbem; if you did not just "
                   "upgrade pbem, the database was changed outside pbem: restore it from a backup.")


@main.command()
@click.argument("name")
@click.option("--dir", "folder", type=click.Path(file_okay=False), default=".",
              help="Where to write NAME.key and NAME.pub [default: here].")
@_fail_on_errors
def keygen(name, folder):
    """Make an Ed25519 key pair for a player: NAME.key (mode 0600) and NAME.pub."""
    import re

    from pbem.crypto.keys import generate_keypair, write_public_file, write_secret_file

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}", name) or ".." in name:
        raise click.BadParameter(f"expected a plain name such as alice (letters, digits, '.', "
                                 f"'_', '@', '-'), found {name!r}; the folder goes in --dir",
                                 param_hint="NAME")
    private, public = generate_keypair(name)
    base = Path(folder)
    base.mkdir(parents=True, exist_ok=True)
    write_secret_file(base / f"{name}.key", private)
    write_public_file(base / f"{name}.pub", public)
    click.echo(f"wrote {base / (name + '.key')} (keep it secret) and {base / (name + '.pub')} "
               "(give it to the referee)")


@main.command()
@click.argument("file", type=click.Path(allow_dash=True))
@click.option("--key", "keyfile", required=True, type=click.Path(exists=True, dir_okay=False),
              help="Your private key: a pbem .key file or an unencrypted OpenSSH ed25519 key.")
@click.option("-o", "--output", type=click.Path(allow_dash=True), default="-",
              help="Where to write the signed orders [default: stdout].")
@click.pass_obj
@_fail_on_errors
def sign(obj, file, keyfile, output):
    """Sign an order file: fill nonce and issued if absent, wrap in a pbem envelope.

    An order file whose header lines are all quoted with '>' (the template copied from a
    reply: '> ', '>> ', '> > ') is signed without the quote marks, saying so on standard error;
    one whose header is only partly quoted is refused (docs/signing.md)."""
    from pbem.crypto.envelope import sign_text
    from pbem.crypto.keys import load_private_key
    from pbem.engine.headers import fill_header
    from pbem.engine.service import utc_now

    from pbem.engine.headers import HeaderError, parse_header, unquote_template

    name = "stdin" if file == "-" else file
    text = sys.stdin.read() if file == "-" else read_text_file(file, "an order file")
    key = load_private_key(read_text_file(keyfile, "a private key file"), keyfile)
    try:
        text, unquoted = unquote_template(text)
    except HeaderError as e:
        raise click.ClickException(f"{name}: {e}") from None
    if unquoted:
        click.echo(f"{name}: the header lines are quoted with '>' (copied from a reply?): "
                   f"signing them without the quote marks ({unquoted} lines unquoted); check "
                   "the signed orders before you mail them", err=True)
    now = obj.referee().clock() if obj.now_arg else utc_now()
    filled = fill_header(text, now)
    try:
        parse_header(filled)
    except HeaderError as e:
        raise click.ClickException(f"{name}: {e}") from None
    signed = sign_text(filled, key)
    if output == "-":
        click.echo(signed, nl=False)
    else:
        Path(output).write_text(signed, encoding="utf-8")
