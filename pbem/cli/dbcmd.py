"""`pbem migrate-db`: move the referee's database (docs/operations.md)."""

from __future__ import annotations

import click

from pbem.cli import _fail_on_errors, main


@main.command("migrate-db")
@click.argument("source", metavar="FROM")
@click.argument("target", metavar="TO")
@click.pass_obj
@_fail_on_errors
def migrate_db(obj, source, target):
    """Copy every row of the database FROM into the new database TO, then check them.

    FROM and TO are database URLs (postgresql+psycopg://USER@HOST/DB, sqlite:///PATH) or
    paths of SQLite files (a folder: its pbem.db). TO must be empty of games: a new
    PostgreSQL database (its schema is created), a new SQLite file, or one `pbem init` made.
    Both must be at this pbem's schema. The master key is HOME's referee.key, which must be
    the one FROM was sealed with. Rows keep their ids and integrity checks; afterwards the
    rows of every table are counted in both, every protected row's check is verified in TO,
    and every game's public log is compared. One transaction: on any failure TO is left
    without the copy. Stop cron (ingest, process, send) while it runs; then point pbem at
    TO (--db or PBEM_DB)."""
    from pbem.engine.dbmove import migrate_db as run
    from pbem.engine.dbmove import shown_url
    from pbem.engine.home import Home

    home = Home.resolve(obj.home_arg, None)
    s = run(home, source, target)
    if s.created:
        click.echo(f"created the schema in {shown_url(s.target)}")
    width = max(len(t) for t in s.tables)
    for table, rows in s.tables.items():
        click.echo(f"  {table:<{width}}  {rows:>9} rows")
    click.echo(f"copied {sum(s.tables.values())} rows of {len(s.tables)} tables; checked: row "
               f"counts, {s.macs} integrity checks, the public logs of {s.games} games "
               f"({s.log_lines} lines) identical")
    click.echo(f"now use it: pbem --db '{shown_url(s.target)}' ... (or export PBEM_DB)")
