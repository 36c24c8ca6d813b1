"""The `pbem game` group: creating games and the referee's commands on them."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli import _fail_on_errors, main, read_text_file



def why_option(required: bool = True):
    """The ``--why TEXT`` option every referee command on a game shares: the reason goes into
    the public log and the players' notices (pbem.engine.admin.check_why refuses an e-mail
    address in it)."""
    if required:
        return click.option("--why", required=True,
                            help="The reason, for the players: it goes into the public log "
                                 "and the notices (never an e-mail address).")
    return click.option("--why", help="The reason, for the players (public log and notices).")

@main.group()
def game():
    """Create games, and fix running ones (extend, pause, resume, replace, set, end)."""


def _parse_player(value: str):
    role, eq, rest = value.partition("=")
    email, colon, keyfile = rest.partition(":")
    if not eq or not colon or not role or not email or not keyfile:
        raise click.BadParameter(f"expected ROLE=EMAIL:PUBKEYFILE, found {value!r}",
                                 param_hint="--player")
    return role.strip().lower(), email.strip(), keyfile.strip()


class _NewGameCommand(click.Command):
    """`game new`, whose help ends with the roles of every installed ruleset (read when the
    help is shown, so that `pbem --help` does not load the rulesets)."""

    def format_epilog(self, ctx, formatter):
        from pbem.engine import registry

        rows = []
        for name in registry.available():
            try:
                rows.append((name, registry.roles_text(name)))
            except Exception as e:  # a broken third-party ruleset must not hide the help
                rows.append((name, f"(cannot be loaded: {type(e).__name__}: {e})"))
        with formatter.section("Roles of each ruleset (ROLE in --player; see `pbem rules "
                               "RULESET`)"):
            formatter.write_dl(rows)


@game.command("new", cls=_NewGameCommand)
@click.argument("ruleset")
@click.option("--id", "game_id", required=True, help="The game's id, used in every order header.")
@click.option("--player", "players", multiple=True, required=True, metavar="ROLE=EMAIL:PUBKEYFILE",
              help="A seat, in seat order; PUBKEYFILE holds a pbem or ssh-ed25519 public key.")
@click.option("--option", "options", multiple=True, metavar="K=V", help="A game option (see `pbem rules`).")
@click.option("--deadline", default="72h", show_default=True,
              help="A normal window's deadline: a time after it opens (72h, 3d) or days and a "
                   "time in the game's zone ('sun 23:55', 'mon,thu 21:00', 'daily 20:00'); "
                   "docs/deadlines.md.")
@click.option("--short-deadline", default="24h", show_default=True,
              help="A short window's deadline (an answer to a die roll), in the same forms.")
@click.option("--tz", "game_zone", metavar="ZONE",
              help="The game's time zone for wall-clock deadlines (IANA name, e.g. "
                   "Europe/Paris) [default: UTC].")
@click.option("--grace", default="0s", show_default=True,
              help="Orders are still accepted this long after the deadline; late players are "
                   "named in the report.")
@click.option("--min-window", default="0s", show_default=True,
              help="A window never closes sooner than this after it opened.")
@click.option("--close-early", type=click.Choice(["yes", "no"]), default="yes",
              show_default=True,
              help="Close a window as soon as every owed order set is in (a player can hold "
                   "it to its deadline with 'wait: yes' in the order header).")
@click.option("--remind", default="24h", show_default=True,
              help="Lead times of reminders before a deadline, to players who owe orders and "
                   "sent none (24h,2h; none for no reminders).")
@click.option("--house-rules", type=click.Path(exists=True, dir_okay=False),
              help="TOML file overriding tables and values of the game's data.")
@click.option("--map", "map_file", type=click.Path(exists=True, dir_okay=False),
              help="Map file (docs/maps.md) instead of the stand-in map.")
@click.option("--zone", "zones", multiple=True, metavar="ROLE=ZONE",
              help="A player's time zone for deadlines (IANA name, e.g. Europe/Paris).")
@click.option("--encrypt", "encrypted", multiple=True, metavar="ROLE",
              help="Mail ROLE's reports encrypted with age to the player's ssh-ed25519 key "
                   "(an ssh-ed25519 key only; repeatable; docs/mail.md).")
@click.option("--from", "referee_address", envvar="PBEM_FROM", metavar="ADDRESS",
              help="The referee's address on the game's mail, which players answer [env "
                   "PBEM_FROM; default: [mail] from in HOME/config.toml, which may not be an "
                   "address nobody can answer, *.invalid].")
@click.pass_obj
@_fail_on_errors
def game_new(obj, ruleset, game_id, players, options, deadline, short_deadline, game_zone,
             grace, min_window, close_early, remind, house_rules, map_file, zones, encrypted,
             referee_address):
    """Create a game of RULESET and print where its setup report is. Give one --player per
    seat, with the role names the ruleset takes (listed below): a game whose roles are fixed
    refuses unknown or missing ones."""
    from pbem.engine.creation import GameSpec, PlayerSpec

    zone_of = {}
    for z in zones:
        role, eq, name = z.partition("=")
        if not eq:
            raise click.BadParameter(f"expected ROLE=ZONE, found {z!r}", param_hint="--zone")
        zone_of[role.strip().lower()] = name.strip()
    encrypt = {e.strip().lower() for e in encrypted}
    roles = {_parse_player(value)[0] for value in players}
    if encrypt - roles:
        raise click.BadParameter(f"no player with role {', '.join(sorted(encrypt - roles))}",
                                 param_hint="--encrypt")
    seats = []
    for value in players:
        role, email, keyfile = _parse_player(value)
        path = Path(keyfile).expanduser()
        if not path.is_file():
            raise click.BadParameter(f"public key file {keyfile!r} not found", param_hint="--player")
        seats.append(PlayerSpec(role, email, read_text_file(str(path), "a public key file"),
                                str(path), zone_of.pop(role, None), encrypt=role in encrypt))
    if zone_of:
        raise click.BadParameter(f"no player with role {', '.join(zone_of)}", param_hint="--zone")
    opts = option_pairs(options)
    schedule = _schedule(deadline, short_deadline, game_zone, grace, min_window, close_early,
                         remind)
    spec = GameSpec(ruleset=ruleset, game_id=game_id, players=tuple(seats), options=opts,
                    deadline_seconds=schedule.deadline.seconds,
                    short_deadline_seconds=schedule.short_deadline.seconds, schedule=schedule,
                    house_rules_text=(read_text_file(house_rules, "a TOML house-rules file")
                                      if house_rules else None),
                    house_rules_source=house_rules or "",
                    map_text=read_text_file(map_file, "a TOML map file") if map_file else None,
                    map_source=map_file or "", referee_address=referee_address)
    r = obj.referee().new_game(spec)
    from pbem.engine.schedule import format_when

    click.echo(f"game {r['game']} ({r['ruleset']}) created; first window {r['phase']}, "
               f"deadline {format_when(r['deadline'], game_zone)}")
    click.echo(f"setup report: {r['report_path']}")
    click.echo("players' setup reports are queued: run `pbem send` to mail them (or `pbem "
               "outbox DIR` to write them into a folder)")


def _schedule(deadline, short_deadline, zone, grace, min_window, close_early, remind):
    """The Schedule of `game new`'s options; click.BadParameter naming the option otherwise."""
    from pbem.engine.durations import parse_duration
    from pbem.engine.schedule import DeadlineRule, Schedule, ScheduleError, parse_leads

    def read(fn, text, hint):
        try:
            return fn(text)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint=hint) from None

    def seconds(text, hint):
        return 0 if text.strip() in ("0", "0s", "none") else read(parse_duration, text, hint)

    try:
        return Schedule(deadline=read(DeadlineRule.parse, deadline, "--deadline"),
                        short_deadline=read(DeadlineRule.parse, short_deadline,
                                            "--short-deadline"),
                        zone=zone or None, grace=seconds(grace, "--grace"),
                        min_window=seconds(min_window, "--min-window"),
                        close_early=close_early == "yes",
                        remind=read(parse_leads, remind, "--remind"))
    except ScheduleError as e:
        raise click.BadParameter(str(e), param_hint="--tz" if "zone" in str(e) else None) \
            from None


def option_pairs(options) -> dict:
    """``--option K=V`` values (a tuple of strings) as ``{K: V}``; ``click.BadParameter``
    quoting one without ``=``. Shared by `pbem game new` and `pbem demo`."""
    opts = {}
    for o in options:
        k, eq, v = o.partition("=")
        if not eq:
            raise click.BadParameter(f"expected K=V, found {o!r}", param_hint="--option")
        if k.strip() in opts:
            raise click.BadParameter(f"{k.strip()} is given twice ({k.strip()}="
                                     f"{opts[k.strip()]} and {o!r}): give each option once",
                                     param_hint="--option")
        opts[k.strip()] = v.strip()
    return opts
