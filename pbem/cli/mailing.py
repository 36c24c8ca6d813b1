"""Mail out: outbox (and sending)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pbem.cli import _fail_on_errors, main


@main.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.pass_obj
@_fail_on_errors
def outbox(obj, folder):
    """Write every queued message (reports, receipts, rejections) to FOLDER as .eml files."""
    ref = obj.referee()
    written = ref.outbox(Path(folder))
    click.echo(f"{len(written)} message{'s' if len(written) != 1 else ''} written to {folder}")
    for what, why in ref.undeliverable:
        click.echo(f"Error: not written: {what}: {why}", err=True)
    if ref.undeliverable:
        sys.exit(1)
