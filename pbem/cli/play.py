"""The judge's work and what it shows: ingest, process, status, report, log, verify, rules,
check-receipt."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pbem.cli import _fail_on_errors, main, read_text_file  # noqa: F401


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(allow_dash=True))
@click.option("--retry", is_flag=True,
              help="Also judge again the archived messages the judge failed on (verdict error).")
@click.option("-v", "--verbose", is_flag=True,
              help="A line per message (per order set) with its verdict, problems and "
                   "warnings, before the summary.")
@click.pass_obj
@_fail_on_errors
def ingest(obj, paths, retry, verbose):
    """Read orders mail: .eml files, Maildir folders, mbox files, bare signed order files, or
    one message on stdin (-, or no PATH with stdin from a pipe), e.g. from procmail. Each message
    is archived, then judged; the sender gets a receipt or a rejection (queued in the outbox).
    With no PATH and no pipe, messages left unjudged by a crash are judged.

    Each message is read under the time and memory budget of HOME/config.toml ([ingest]
    read_seconds, read_memory_mb); one that exceeds it is refused on its own. What the judge
    noticed while reading a message (an unknown charset, a part it could not decode) is put in
    the reply, and printed under its line with -v.

    Prints one line, "accepted 3, rejected 1, duplicate 42" (order sets, or messages without
    any; a message read again from a Maildir is a duplicate), and a line for each message the
    judge failed on; -v prints every message's line. Exit status 0 when every message was read
    and judged, rejected ones included; 1 when one could not be judged (it stays archived) or a
    PATH cannot be read.
    """
    from pbem.mail.sources import MailSourceError, iter_messages

    ref = obj.referee(modules=("pbem.engine.judge",))
    if not paths and not sys.stdin.isatty():
        paths = ("-",)  # a pipe from procmail or .forward that forgot the "-"
    try:
        verdicts = ref.ingest(iter_messages(list(paths)) if paths else [], retry_errors=retry)
    except MailSourceError as e:
        raise click.ClickException(str(e)) from None
    shown = None
    for v in verdicts:
        if not verbose and v.status != "error" and v.cause not in _UNREAD:
            continue
        click.echo(v.summary())
        for p in v.problems:
            click.echo(f"    {p}")
        if v.warnings and v.warnings is not shown:  # once per message, not per order set
            for w in v.warnings:
                click.echo(f"    warning: {w}")
            shown = v.warnings
    click.echo(ingest_summary(verdicts))
    failed = [v for v in verdicts if v.status == "error"]
    if failed:
        raise click.ClickException(f"{len(failed)} message(s) could not be judged (they are "
                                   "archived; fix the cause, then `pbem ingest --retry` judges "
                                   "them again)")


_UNREAD = ("unreadable", "unreadable-archive")
"""Rejections the referee should see without -v: the judge could not read the message."""


def ingest_summary(verdicts: list) -> str:
    """The line `pbem ingest` ends with: "accepted 3, rejected 1, duplicate 42" (the three
    always, then any other verdict: error 1), and how many receipts were sent again to players
    who sent their orders again; "nothing to ingest" for no verdict."""
    from collections import Counter

    if not verdicts:
        return "nothing to ingest"
    counts = Counter(v.status for v in verdicts)
    order = ["accepted", "rejected", "duplicate"]
    words = [f"{k} {counts.pop(k, 0)}" for k in order]
    words += [f"{k} {n}" for k, n in sorted(counts.items())]
    unread = sum(1 for v in verdicts if v.cause in _UNREAD)
    if unread:
        words.append(f"of them unreadable {unread} (`pbem ingest --retry` reads them again)")
    again = sum(1 for v in verdicts if getattr(v, "resent", False))
    if again:
        words.append(f"receipts sent again {again}")
    return ", ".join(words)


@main.command()
@click.option("--game", "game_id", help="Only this game.")
@click.option("--due", is_flag=True, help="Every game (the form for cron); the default.")
@click.option("--force", is_flag=True,
              help="With --game: resolve the open window now, NMR for missing orders.")
@click.option("--accept-late", is_flag=True,
              help="Resolve windows whose deadline passed while pbem process did not run "
                   "(the downtime guard would move their deadline instead).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes sharing the games (PostgreSQL: up to one per core; "
                   "SQLite has one writer, so more than 1 gains nothing; docs/operations.md).")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per line and per result, as it happens: game, phase, "
                   "outcome (resolved, postponed, reminded) and its fields (docs/operations.md).")
@click.pass_obj
@_fail_on_errors
def process(obj, game_id, due, force, accept_late, workers, as_json):
    """Adjudicate every window whose orders are all in or whose deadline (and grace) has
    passed, and queue the reminders that are due (docs/deadlines.md). A window whose closing
    time passed while pbem process did not run for longer than max(grace, 1 hour) is not
    resolved with NMR: its deadline moves to now plus that time and the players are told.

    On a terminal a progress bar runs over the games, and the results are listed at the end;
    otherwise (cron, a pipe) a line is printed per result as soon as its game is done, and
    --json prints one JSON object per line instead. Each game is handled once, in one
    transaction, by one of the --workers processes."""
    if force and not game_id:
        raise click.UsageError("--force needs --game")
    if due and game_id:
        raise click.UsageError("give --game or --due, not both")
    out = _ProcessOutput(as_json, not as_json and _is_terminal())
    try:
        obj.referee(modules=("pbem.engine.workers",)).process(
            game_id, force=force, accept_late=accept_late, workers=workers, on_start=out.start,
            on_game=out.game)
    finally:
        out.close()
    out.finish()


def _is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


class _ProcessOutput:
    """What `pbem process` prints as the run goes: a progress bar (terminal) with the lines at
    the end, else a line (or with --json a JSON object) per result as each game is done."""

    def __init__(self, as_json: bool, bar: bool):
        self.as_json, self.use_bar = as_json, bar
        self.bar = None
        self.kept: list = []
        self.count = 0

    def start(self, games: int) -> None:
        if self.use_bar and games:
            self.bar = click.progressbar(length=games, label="processing", show_pos=True,
                                         item_show_func=lambda g: g or "")
            self.bar.__enter__()

    def game(self, gid: str, results: list) -> None:
        self.count += len(results)
        if self.bar is not None:
            self.kept.extend(results)
            self.bar.update(1, gid)
            return
        for d in results:
            click.echo(json.dumps(process_record(d)) if self.as_json else process_line(d))

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None

    def finish(self) -> None:
        for d in self.kept:
            click.echo(process_line(d))
        if not self.count and not self.as_json:
            click.echo("nothing to process")


def process_line(d) -> str:
    """The line `pbem process` prints for a result (Resolved, Postponed or Reminded)."""
    from pbem.engine.adjudicate import Postponed, Reminded
    from pbem.engine.durations import format_duration
    from pbem.engine.headers import format_time

    if isinstance(d, Reminded):
        return (f"{d.game} {d.phase} reminder ({format_duration(d.lead)} before the "
                f"deadline) queued to {', '.join(d.roles)}")
    if isinstance(d, Postponed):
        since = format_time(d.idle_since) if d.idle_since else "the window's opening"
        return (f"{d.game} {d.phase} NOT resolved: pbem process did not run from "
                f"{since} until now, past its closing time; deadline moved to "
                f"{format_time(d.deadline)}, players told (waiting for "
                f"{', '.join(d.missing)}; `pbem process --accept-late` resolves it now)")
    nmr = f", NMR: {', '.join(d.nmr)}" if d.nmr else ""
    nxt = "game over" if d.ended else f"next {d.next_phase}"
    return f"{d.game} {d.phase} resolved{nmr}; {nxt}"


def process_record(d) -> dict:
    """The JSON object `pbem process --json` prints for a result (docs/operations.md):
    ``game``, ``phase``, ``outcome`` and, for ``resolved``: ``nmr`` (roles), ``ended``,
    ``next`` (the window opened, or null); ``postponed``: ``deadline`` (the new one, ISO 8601
    UTC), ``idle_since`` (or null), ``missing`` (roles); ``reminded``: ``roles``, ``lead``
    (seconds before the deadline)."""
    from pbem.engine.adjudicate import Postponed, Reminded
    from pbem.engine.headers import format_time

    if isinstance(d, Reminded):
        return {"game": d.game, "phase": d.phase, "outcome": "reminded", "roles": list(d.roles),
                "lead": d.lead}
    if isinstance(d, Postponed):
        return {"game": d.game, "phase": d.phase, "outcome": "postponed",
                "deadline": format_time(d.deadline),
                "idle_since": format_time(d.idle_since) if d.idle_since else None,
                "missing": list(d.missing)}
    return {"game": d.game, "phase": d.phase, "outcome": "resolved", "nmr": list(d.nmr),
            "ended": d.ended, "next": d.next_phase}


@main.command()
@click.argument("game_id", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
@_fail_on_errors
def status(obj, game_id, as_json):
    """Games, their open windows, who has sent orders, deadlines, and their mail: how many
    messages are queued, and each that failed with the server's answer."""
    items = obj.referee().status(game_id)
    if as_json:
        click.echo(json.dumps(items, indent=2))
        return
    if not items:
        click.echo("no games")
    for g in items:
        shown = "paused" if g.get("paused_since") and g["status"] == "active" else g["status"]
        click.echo(f"{g['game']}  {g['title']}  [{shown}]")
        if g.get("paused_since"):
            click.echo(f"  paused since {g['paused_since']} (deadlines stop until `pbem game "
                       "resume`)")
        w = g["window"]
        if w:
            late = "  OVERDUE" if w["overdue"] else ""
            click.echo(f"  window turn {w['turn']} phase {w['phase']}, deadline "
                       f"{w['deadline_text']}{late}")
            if w["closes"] != w["deadline"]:
                click.echo(f"  grace: orders taken until {w['closes_text']}")
            waiting = [r for r in w["owed"] if r not in w["orders_in"]]
            click.echo(f"  orders in: {', '.join(w['orders_in']) or 'none'}; waiting for: "
                       f"{', '.join(waiting) or 'nobody'}")
            if w.get("wait"):
                click.echo(f"  held open to the deadline by 'wait: yes' of {', '.join(w['wait'])}")
            if w.get("carried"):
                click.echo(f"  carried over from the undone phase (stand at the deadline unless "
                           f"replaced): {', '.join(w['carried'])}")
        for p in g["players"]:
            click.echo(f"  {p['seat']}. {p['role']:<8} {p['email']}  {p['key']}")
        mail = g.get("mail") or {"queued": 0, "failed": []}
        if mail["queued"] or mail["failed"]:
            click.echo(f"  mail: {mail['queued']} queued, {len(mail['failed'])} failed"
                       + (" (`pbem send` sends it)" if mail["queued"] else ""))
        for f in mail["failed"]:
            click.echo(f"  mail failed: #{f['id']} {f['kind']} to {f['to']} at {f['failed']}: "
                       f"{f['answer']}")


@main.command()
@click.argument("game_id")
@click.option("--role", required=True, help="Whose report (or * for the public report).")
@click.option("--format", "fmt", type=click.Choice(["text", "html"]), default="text",
              show_default=True)
@click.option("--phase", metavar="ID",
              help="The report on this phase: its id as the reports name it, turn.phase "
                   "(2.green: 'Turn 2, phase green has been resolved'), or setup for the setup "
                   "report; a bare number is refused, listing the ids [default: the latest].")
@click.pass_obj
@_fail_on_errors
def report(obj, game_id, role, fmt, phase):
    """Print a player's report as it was mailed."""
    click.echo(obj.referee().report(game_id, role.lower(), fmt, phase), nl=False)


@main.command()
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True, help="The log lines exactly as chained.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the log to a file.")
@click.pass_obj
@_fail_on_errors
def log(obj, game_id, as_json, output):
    """Print a game's public log (the hash-chained JSON lines with --json)."""
    ref = obj.referee()
    if output:
        click.echo(f"wrote {ref.export_log(game_id, Path(output))}")
        return
    for line in ref.log_lines(game_id):
        if as_json:
            click.echo(line)
        else:
            click.echo(_describe_log_line(json.loads(line)))


def _describe_log_line(o: dict) -> str:
    t, at, phase = o.get("type"), o.get("at", ""), o.get("phase", "")
    if t == "roll":
        value = o.get("value", "hidden")
        return f"{at} {phase:<12} roll #{o['index']} d{o['sides']} = {value}  {o['why']}"
    if t == "event":
        return f"{at} {phase:<12} {o['text']}"
    if t in ("dice-commit", "hidden-commit", "setup-commit"):
        return f"{at} {phase:<12} {t} {o['commit']}"
    if t == "dice-reveal":
        return f"{at} {phase:<12} dice seed {o['seed']}"
    if t == "orders":
        return f"{at} {phase:<12} orders of {o['role']} commit {o.get('commit', '?')}"
    rest = {k: v for k, v in o.items() if k not in ("type", "game", "at", "prev", "phase")}
    return f"{at} {phase:<12} {t} {json.dumps(rest, sort_keys=True)[:200]}"


@main.command()
@click.argument("target")
@click.pass_obj
@_fail_on_errors
def verify(obj, target):
    """Check a public log: the hash chain and every die roll (TARGET: a .jsonl file, needing no
    database and no key, or a game id)."""
    from pbem.verify import verify_log

    path = Path(target)
    if path.is_dir():
        raise click.ClickException(f"{target} is a folder: expected a .jsonl log file or a game id")
    if path.exists():
        with path.open("rb") as f:
            rep = verify_log(f, source=str(path))
    else:
        rep = verify_log(obj.referee().iter_log_lines(target), source=target)
    click.echo(rep.summary())
    if not rep.ok:
        for e in rep.errors:
            click.echo(f"  {e}", err=True)
        sys.exit(1)


@main.command()
@click.argument("ruleset")
@click.option("--house-rules", type=click.Path(exists=True, dir_okay=False),
              help="Show the tables with these house rules applied.")
@_fail_on_errors
def rules(ruleset, house_rules):
    """Print a game's roles (the ROLE names `pbem game new --player` takes), then its tables,
    options and stand-ins, each with its source."""
    import tomllib

    from pbem.engine import registry

    try:
        rs = registry.get(ruleset)
    except registry.UnknownRuleset as e:
        raise click.ClickException(str(e)) from None
    house = None
    if house_rules:
        try:
            house = tomllib.loads(read_text_file(house_rules, "a TOML house-rules file"))
        except tomllib.TOMLDecodeError as e:
            raise click.ClickException(f"{house_rules}: not valid TOML: {e}") from None
    try:
        data = rs.load_data(house)
    except ValueError as e:
        raise click.ClickException(f"{house_rules}: {e}") from None
    import textwrap

    click.echo(textwrap.fill(f"Roles (pbem game new --player ROLE=EMAIL:PUBKEYFILE): "
                             f"{registry.roles_text(ruleset)}.", 78) + "\n")
    click.echo(rs.rules_text(data, rs.validate_options({})), nl=False)


@main.command("check-receipt")
@click.argument("file", type=click.Path(allow_dash=True))
@click.argument("game_id", required=False)
@click.option("--referee", "referee_fp", metavar="FINGERPRINT",
              help="The game's referee key (SHA256:...) as the setup report prints it; "
                   "no database needed.")
@click.pass_obj
@_fail_on_errors
def check_receipt(obj, file, game_id, referee_fp):
    """Check a receipt (a saved mail or a text holding a PBEM RECEIPT block): its signature,
    that the game's referee key made it (from GAME in the referee's database, or --referee),
    and that it is for GAME when given. Exit status 1 when any check fails."""
    try:
        data = sys.stdin.buffer.read() if file == "-" else Path(file).expanduser().read_bytes()
    except OSError as e:
        raise click.ClickException(f"{file}: cannot read it: {e.strerror or e}") from None
    ref = obj.referee(database=referee_fp is None)  # --referee: no database is opened
    r = ref.check_receipt(data, "stdin" if file == "-" else file, game_id, referee_fp)
    for x in r["receipts"]:
        click.echo(f"{r['file']}: receipt for game {x['game']}, turn {x['turn']}, phase "
                   f"{x['phase']}, role {x['role']} (orders-sha256 {x['orders_sha256']})")
        click.echo(f"  signature: valid (Ed25519, pbem-receipt/1) by key {x['key']}")
        click.echo(f"  that key is the referee key of the game ({r['referee_from']})"
                   + (f"; the receipt names game {game_id}" if game_id else ""))
