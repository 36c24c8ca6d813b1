"""The referee's command line: thin click commands over :mod:`pbem.engine.service`.

Every command parses its arguments, calls one service method and prints the result. Heavy
modules (SQLAlchemy, Jinja2, cryptography) are imported inside the commands, so ``pbem --help``
starts fast. Errors the referee can fix are printed as ``Error: ...`` with exit status 1.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click


class Ctx:
    """What the group's options give every command: the home and the clock override."""

    def __init__(self, home: str | None, db: str | None, now: str | None):
        self.home_arg, self.db_arg, self.now_arg = home, db, now
        self._referee = None

    def referee(self):
        if self._referee is None:
            from pbem.engine.home import Home
            from pbem.engine.service import Referee, utc_now

            clock = utc_now
            if self.now_arg:
                from pbem.engine.headers import parse_issued

                try:
                    fixed = parse_issued(self.now_arg)
                except ValueError:
                    raise click.BadParameter(f"expected an ISO 8601 time with a zone, found "
                                             f"{self.now_arg!r}", param_hint="--now") from None
                clock = lambda: fixed  # noqa: E731
            self._referee = Referee(Home.resolve(self.home_arg, self.db_arg), clock=clock)
            # The modules loaded so far live as long as the command: keep the cyclic garbage
            # collector from walking them again and again in the middle of a phase.
            import gc

            gc.freeze()
        return self._referee


def _fail_on_errors(fn):
    """Turn the service layer's errors into click errors (message, exit 1)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from pbem.crypto.errors import CryptoError
        from pbem.engine.errors import PbemError
        from pbem.engine.registry import UnknownRuleset
        from pbem.mail.errors import MailError

        try:
            return fn(*args, **kwargs)
        except click.ClickException:
            raise
        except (PbemError, CryptoError, MailError, UnknownRuleset, OSError, ValueError) as e:
            raise click.ClickException(str(e)) from None
        except Exception as e:  # a database we cannot open, and the like: say what, not where
            # pbem.store's own errors (DatabaseError, integrity.RowTampered...), without
            # importing the store for commands that never open it
            if type(e).__module__.startswith("pbem.store"):
                raise click.ClickException(str(e)) from None
            if type(e).__module__.startswith("sqlalchemy"):
                orig = getattr(e, "orig", None) or e
                raise click.ClickException(
                    f"database error: {orig} (check that the home folder and the database are "
                    "readable and writable: SQLite keeps pbem.db-wal and pbem.db-shm beside the "
                    "database)") from None
            raise

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--home", envvar="PBEM_HOME", metavar="DIR",
              help="Folder of the database and the referee's key [env PBEM_HOME; default ~/.pbem].")
@click.option("--db", envvar="PBEM_DB", metavar="URL",
              help="Database URL instead of HOME/pbem.db [env PBEM_DB].")
@click.option("--now", envvar="PBEM_NOW", metavar="TIME", hidden=True,
              help="Pretend the time is TIME (ISO 8601 with zone); for tests and replays.")
@click.version_option(package_name="pbem")
@click.pass_context
def main(ctx, home, db, now):
    """pbem: a play-by-email judge for board wargames.

    Players mail signed orders; pbem ingests them, checks them against the rules, adjudicates
    each phase with dice every player can verify, keeps secrets sealed, and mails each player a
    report of what they may know. Start with `pbem init`, or see it all at work with `pbem demo`.
    """
    ctx.obj = Ctx(home, db, now)


def read_text_file(path: str, what: str) -> str:
    """A text file's content (UTF-8, a BOM dropped); ClickException naming the file when it is
    not text."""
    try:
        return Path(path).expanduser().read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as e:
        raise click.ClickException(f"{path}: expected {what} in UTF-8 text, found a byte "
                                   f"0x{e.object[e.start]:02x} at offset {e.start} that is not "
                                   "UTF-8 (a binary file?)") from None


# ---------------------------------------------------------------- set-up and keys

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
    from pbem.crypto.keys import generate_keypair, write_public_file, write_secret_file

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
    """Sign an order file: fill nonce and issued if absent, wrap in a pbem envelope."""
    from pbem.crypto.envelope import sign_text
    from pbem.crypto.keys import load_private_key
    from pbem.engine.headers import fill_header
    from pbem.engine.service import utc_now

    from pbem.engine.headers import HeaderError, parse_header

    text = sys.stdin.read() if file == "-" else read_text_file(file, "an order file")
    key = load_private_key(read_text_file(keyfile, "a private key file"), keyfile)
    now = obj.referee().clock() if obj.now_arg else utc_now()
    filled = fill_header(text, now)
    try:
        parse_header(filled)
    except HeaderError as e:
        raise click.ClickException(f"{'stdin' if file == '-' else file}: {e}") from None
    signed = sign_text(filled, key)
    if output == "-":
        click.echo(signed, nl=False)
    else:
        Path(output).write_text(signed, encoding="utf-8")


# ---------------------------------------------------------------- games

@main.group()
def game():
    """Create games."""


def _parse_player(value: str):
    role, eq, rest = value.partition("=")
    email, colon, keyfile = rest.partition(":")
    if not eq or not colon or not role or not email or not keyfile:
        raise click.BadParameter(f"expected ROLE=EMAIL:PUBKEYFILE, found {value!r}",
                                 param_hint="--player")
    return role.strip().lower(), email.strip(), keyfile.strip()


@game.command("new")
@click.argument("ruleset")
@click.option("--id", "game_id", required=True, help="The game's id, used in every order header.")
@click.option("--player", "players", multiple=True, required=True, metavar="ROLE=EMAIL:PUBKEYFILE",
              help="A seat, in seat order; PUBKEYFILE holds a pbem or ssh-ed25519 public key.")
@click.option("--option", "options", multiple=True, metavar="K=V", help="A game option (see `pbem rules`).")
@click.option("--deadline", default="72h", show_default=True, help="Time for a normal window.")
@click.option("--short-deadline", default="24h", show_default=True,
              help="Time for a short window (an answer to a die roll).")
@click.option("--house-rules", type=click.Path(exists=True, dir_okay=False),
              help="TOML file overriding tables and values of the game's data.")
@click.option("--map", "map_file", type=click.Path(exists=True, dir_okay=False),
              help="Map file (docs/maps.md) instead of the stand-in map.")
@click.option("--zone", "zones", multiple=True, metavar="ROLE=ZONE",
              help="A player's time zone for deadlines (IANA name, e.g. Europe/Paris).")
@click.option("--from", "referee_address", default="referee@pbem.invalid", show_default=True,
              envvar="PBEM_FROM", help="The referee's address on outgoing mail [env PBEM_FROM].")
@click.pass_obj
@_fail_on_errors
def game_new(obj, ruleset, game_id, players, options, deadline, short_deadline, house_rules,
             map_file, zones, referee_address):
    """Create a game of RULESET and print where its setup report is."""
    from pbem.engine.creation import GameSpec, PlayerSpec
    from pbem.engine.durations import parse_duration

    zone_of = {}
    for z in zones:
        role, eq, name = z.partition("=")
        if not eq:
            raise click.BadParameter(f"expected ROLE=ZONE, found {z!r}", param_hint="--zone")
        zone_of[role.strip().lower()] = name.strip()
    seats = []
    for value in players:
        role, email, keyfile = _parse_player(value)
        path = Path(keyfile).expanduser()
        if not path.is_file():
            raise click.BadParameter(f"public key file {keyfile!r} not found", param_hint="--player")
        seats.append(PlayerSpec(role, email, read_text_file(str(path), "a public key file"),
                                str(path), zone_of.pop(role, None)))
    if zone_of:
        raise click.BadParameter(f"no player with role {', '.join(zone_of)}", param_hint="--zone")
    opts = {}
    for o in options:
        k, eq, v = o.partition("=")
        if not eq:
            raise click.BadParameter(f"expected K=V, found {o!r}", param_hint="--option")
        opts[k.strip()] = v.strip()
    try:
        deadline_s, short_s = parse_duration(deadline), parse_duration(short_deadline)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
    spec = GameSpec(ruleset=ruleset, game_id=game_id, players=tuple(seats), options=opts,
                    deadline_seconds=deadline_s, short_deadline_seconds=short_s,
                    house_rules_text=(read_text_file(house_rules, "a TOML house-rules file")
                                      if house_rules else None),
                    house_rules_source=house_rules or "",
                    map_text=read_text_file(map_file, "a TOML map file") if map_file else None,
                    map_source=map_file or "", referee_address=referee_address)
    r = obj.referee().new_game(spec)
    click.echo(f"game {r['game']} ({r['ruleset']}) created; first window {r['phase']}, "
               f"deadline {r['deadline']:%Y-%m-%d %H:%M} UTC")
    click.echo(f"setup report: {r['report_path']}")
    click.echo("players' setup reports are queued: run `pbem outbox DIR` to write them out")


# ---------------------------------------------------------------- the main job

@main.command()
@click.argument("paths", nargs=-1, type=click.Path(allow_dash=True))
@click.option("--retry", is_flag=True,
              help="Also judge again the archived messages the judge failed on (verdict error).")
@click.pass_obj
@_fail_on_errors
def ingest(obj, paths, retry):
    """Read orders mail: .eml files, Maildir folders, mbox files, bare signed order files, or
    one message on stdin (-, or no PATH with stdin from a pipe), e.g. from procmail. Each message
    is archived, then judged; the sender gets a receipt or a rejection (queued in the outbox).
    With no PATH and no pipe, messages left unjudged by a crash are judged.

    Each message is read under the time and memory budget of HOME/config.toml ([ingest]
    read_seconds, read_memory_mb); one that exceeds it is refused on its own. What the judge
    noticed while reading a message (an unknown charset, a part it could not decode) is
    printed under its line and put in the reply.

    Exit status 0 when every message was read and judged, rejected ones included; 1 when one
    could not be judged (it stays archived) or a PATH cannot be read.
    """
    from pbem.mail.sources import MailSourceError, iter_messages

    ref = obj.referee()
    if not paths and not sys.stdin.isatty():
        paths = ("-",)  # a pipe from procmail or .forward that forgot the "-"
    try:
        verdicts = ref.ingest(iter_messages(list(paths)) if paths else [], retry_errors=retry)
    except MailSourceError as e:
        raise click.ClickException(str(e)) from None
    shown = None
    for v in verdicts:
        click.echo(v.summary())
        for p in v.problems:
            click.echo(f"    {p}")
        if v.warnings and v.warnings is not shown:  # once per message, not per order set
            for w in v.warnings:
                click.echo(f"    warning: {w}")
            shown = v.warnings
    if not verdicts:
        click.echo("nothing to ingest")
    failed = [v for v in verdicts if v.status == "error"]
    if failed:
        raise click.ClickException(f"{len(failed)} message(s) could not be judged (they are "
                                   "archived; fix the cause, then `pbem ingest --retry` judges "
                                   "them again)")


@main.command()
@click.option("--game", "game_id", help="Only this game.")
@click.option("--due", is_flag=True, help="Every game (the form for cron); the default.")
@click.option("--force", is_flag=True,
              help="With --game: resolve the open window now, NMR for missing orders.")
@click.pass_obj
@_fail_on_errors
def process(obj, game_id, due, force):
    """Adjudicate every window whose orders are all in or whose deadline has passed."""
    if force and not game_id:
        raise click.UsageError("--force needs --game")
    if due and game_id:
        raise click.UsageError("give --game or --due, not both")
    done = obj.referee().process(game_id, force=force)
    for d in done:
        nmr = f", NMR: {', '.join(d.nmr)}" if d.nmr else ""
        nxt = "game over" if d.ended else f"next {d.next_phase}"
        click.echo(f"{d.game} {d.phase} resolved{nmr}; {nxt}")
    if not done:
        click.echo("nothing to process")


@main.command()
@click.argument("game_id", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
@_fail_on_errors
def status(obj, game_id, as_json):
    """Games, their open windows, who has sent orders, and deadlines."""
    items = obj.referee().status(game_id)
    if as_json:
        click.echo(json.dumps(items, indent=2))
        return
    if not items:
        click.echo("no games")
    for g in items:
        click.echo(f"{g['game']}  {g['title']}  [{g['status']}]")
        w = g["window"]
        if w:
            late = "  OVERDUE" if w["overdue"] else ""
            click.echo(f"  window turn {w['turn']} phase {w['phase']}, deadline {w['deadline']}{late}")
            waiting = [r for r in w["owed"] if r not in w["orders_in"]]
            click.echo(f"  orders in: {', '.join(w['orders_in']) or 'none'}; waiting for: "
                       f"{', '.join(waiting) or 'nobody'}")
        for p in g["players"]:
            click.echo(f"  {p['seat']}. {p['role']:<8} {p['email']}  {p['key']}")


@main.command()
@click.argument("game_id")
@click.option("--role", required=True, help="Whose report (or * for the public report).")
@click.option("--format", "fmt", type=click.Choice(["text", "html"]), default="text",
              show_default=True)
@click.option("--phase", help="The phase: its id as reports name it (3.red), or its number "
              "(0 = the setup report) [default: the latest].")
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
        rep = verify_log(obj.referee().log_lines(target), source=target)
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
    """Print a game's tables, options and stand-ins, each with its source."""
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
    click.echo(rs.rules_text(data, rs.validate_options({})), nl=False)


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


@main.command()
@click.argument("ruleset", default="atlantis")
@click.option("--players", type=int, default=None,
              help="How many players [default: 3, or the game's maximum when smaller].")
@click.option("--out", "out_dir", type=click.Path(file_okay=False),
              help="Where to put the demo [default: a new folder pbem-demo-* under the system's temp folder].")
@click.option("--seed", type=int, help="Make the whole demo reproducible (dice, keys, choices).")
@click.option("--quiet", is_flag=True)
@_fail_on_errors
def demo(ruleset, players, out_dir, seed, quiet):
    """Play a complete game by mail with random legal orders, through the real path: keys,
    signed orders in real MIME mail, ingest, process, reports and the public log."""
    from pbem.demo import run_demo
    from pbem.engine import registry

    if players is None:
        players = min(3, registry.get(ruleset).max_roles)
    result = run_demo(ruleset, players=players, out_dir=Path(out_dir) if out_dir else None,
                      seed=seed, echo=None if quiet else click.echo)
    click.echo(f"demo finished: {result['phases']} phases, {result['mails']} order mails; "
               f"winner(s): {', '.join(result['winners'])}")
    click.echo(f"reports and public log in {result['out']}")


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
    r = obj.referee().check_receipt(data, "stdin" if file == "-" else file, game_id, referee_fp)
    for x in r["receipts"]:
        click.echo(f"{r['file']}: receipt for game {x['game']}, turn {x['turn']}, phase "
                   f"{x['phase']}, role {x['role']} (orders-sha256 {x['orders_sha256']})")
        click.echo(f"  signature: valid (Ed25519, pbem-receipt/1) by key {x['key']}")
        click.echo(f"  that key is the referee key of the game ({r['referee_from']})"
                   + (f"; the receipt names game {game_id}" if game_id else ""))


def run() -> None:  # pragma: no cover - the console script
    """The ``pbem`` console script: ``main`` with a quiet exit when the reader of our output
    goes away (``pbem log GAME | head``)."""
    try:
        main()
    except BrokenPipeError:
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    run()
