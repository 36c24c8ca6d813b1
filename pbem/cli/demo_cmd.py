"""`pbem demo`."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli import _fail_on_errors, main


@main.command()
@click.argument("ruleset", default="atlantis")
@click.option("--players", type=int, default=None,
              help="How many players [default: 3, or the game's maximum when smaller].")
@click.option("--out", "out_dir", type=click.Path(file_okay=False),
              help="Where to put the demo [default: a new folder pbem-demo-* under the system's temp folder].")
@click.option("--seed", type=int, help="Make the whole demo reproducible (dice, keys, choices).")
@click.option("--option", "options", multiple=True, metavar="K=V",
              help="A game option (see `pbem rules RULESET`), as for `pbem game new`.")
@click.option("--quiet", is_flag=True)
@click.pass_obj
@_fail_on_errors
def demo(obj, ruleset, players, out_dir, seed, options, quiet):
    """Play a complete game by mail with random legal orders, through the real path: keys,
    signed orders in real MIME mail, ingest, process, reports and the public log. Ends by
    printing the folder and its index.html, which links every report by phase and role.

    The demo's referee home is OUT/home; its database is OUT/home/pbem.db, or the one
    --db / PBEM_DB names (e.g. a new PostgreSQL database: docs/operations.md)."""
    from pbem.cli.games import option_pairs
    from pbem.demo import run_demo
    from pbem.engine import registry

    if players is None:
        players = min(3, registry.get(ruleset).max_roles)
    result = run_demo(ruleset, players=players, out_dir=Path(out_dir) if out_dir else None,
                      seed=seed, echo=None if quiet else click.echo, db_url=obj.db_arg,
                      options=option_pairs(options))
    click.echo(f"demo finished: {result['phases']} phases, {result['mails']} order mails; "
               f"winner(s): {', '.join(result['winners']) or 'nobody'}")
    click.echo(f"reports and public log in {result['out']}")
    click.echo(f"index of every report: {result['index']}")
    if obj.db_arg:
        from pbem.engine.dbmove import shown_url

        click.echo(f"database: {shown_url(result['db'])}")
