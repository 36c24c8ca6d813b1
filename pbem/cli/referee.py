"""The referee's commands on a running game: `pbem game extend|pause|resume|replace|set|end`
and `pbem resend`.

Each change is a public log line with the referee's reason (``--why``; the log never holds an
e-mail address) and a notice queued to the players it concerns; `pbem send` or `pbem outbox DIR`
delivers them.
"""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli import _fail_on_errors, main, read_text_file
from pbem.cli.games import game, why_option

_QUEUED = "queued for the players; `pbem send` (or `pbem outbox DIR`) delivers them"


def _when(when, zone):
    from pbem.engine.schedule import format_when

    return format_when(when, zone)


def _notified(n: int) -> None:
    click.echo(f"{n} notice{'s' if n != 1 else ''} {_QUEUED}")


def _pairs(values, option: str, what: str) -> dict:
    """``ROLE=VALUE`` options as {role: value}; BadParameter for a malformed or repeated one."""
    out = {}
    for v in values:
        role, eq, value = v.partition("=")
        role = role.strip().lower()
        if not eq or not role:
            raise click.BadParameter(f"expected ROLE={what}, found {v!r}", param_hint=option)
        if role in out:
            raise click.BadParameter(f"role {role} is given twice", param_hint=option)
        out[role] = value.strip()
    return out




def _encrypt_pairs(values, role: str | None) -> dict:
    """``--encrypt ROLE=yes|no`` options (or bare ``yes|no`` with ``--role ROLE``) as {role:
    bool}; BadParameter or UsageError otherwise."""
    pairs = []
    for v in values:
        if "=" in v:
            pairs.append(v)
        elif role is None:
            raise click.BadParameter(f"expected ROLE=yes|no (or --role ROLE), found {v!r}",
                                     param_hint="--encrypt")
        else:
            pairs.append(f"{role}={v}")
    if role is not None and not any("=" not in v for v in values):
        raise click.UsageError("--role ROLE goes with --encrypt yes|no")
    out = {}
    for r, value in _pairs(pairs, "--encrypt", "yes|no").items():
        if value.lower() not in ("yes", "no"):
            raise click.BadParameter(f"expected yes or no for {r}, found {value!r}",
                                     param_hint="--encrypt")
        out[r] = value.lower() == "yes"
    return out


@game.command("extend")
@click.argument("game_id")
@click.option("--by", "by", metavar="DURATION",
              help="Move the deadline this much later (24h, 2d, 1d12h).")
@click.option("--until", metavar="TIME",
              help="The new deadline: an ISO 8601 time with a zone (2026-12-24T19:00:00Z) or "
                   "a date and time in the game's zone ('2026-12-24 20:00').")
@why_option()
@click.pass_obj
@_fail_on_errors
def game_extend(obj, game_id, by, until, why):
    """Move the deadline of GAME_ID's open window later.

    The new deadline must be after now and after the current one (to resolve a window at once,
    `pbem process --game GAME_ID --force`). Every player is told the new deadline, in UTC and in their
    zone."""
    from pbem.engine.durations import parse_duration

    if (by is None) == (until is None):
        raise click.UsageError("give either --by DURATION or --until TIME")
    seconds = None
    if by is not None:
        try:
            seconds = parse_duration(by)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--by") from None
    r = obj.referee().extend(game_id, by=seconds, until=until, why=why)
    click.echo(f"{r['game']} {r['phase']}: deadline moved from {_when(r['previous'], r['zone'])} "
               f"to {_when(r['deadline'], r['zone'])}")
    if r["paused"]:
        click.echo("the game is paused: the deadline moves on by the pause's length when it "
                   "resumes")
    _notified(r["notified"])


@game.command("pause")
@click.argument("game_id")
@why_option()
@click.pass_obj
@_fail_on_errors
def game_pause(obj, game_id, why):
    """Pause GAME_ID: its deadline stops until `pbem game resume`.

    While paused, no window is resolved and no reminder is sent; orders are still accepted.
    Resuming moves the deadline on by the pause's length."""
    r = obj.referee().pause(game_id, why=why)
    click.echo(f"{r['game']} paused" + (f" in window {r['phase']}" if r["phase"] else ""))
    _notified(r["notified"])


@game.command("resume")
@click.argument("game_id")
@why_option(required=False)
@click.pass_obj
@_fail_on_errors
def game_resume(obj, game_id, why):
    """Resume a paused GAME_ID: its open window's deadline moves on by the pause's length."""
    r = obj.referee().resume(game_id, why=why)
    hours = r["paused_for"].total_seconds() / 3600
    click.echo(f"{r['game']} resumed after {hours:.1f} h paused")
    if r["phase"]:
        click.echo(f"{r['phase']}: deadline moved from {_when(r['previous'], r['zone'])} to "
                   f"{_when(r['deadline'], r['zone'])}")
    _notified(r["notified"])


@game.command("replace")
@click.argument("game_id")
@click.argument("role")
@click.argument("player", metavar="EMAIL:PUBKEYFILE")
@why_option()
@click.pass_obj
@_fail_on_errors
def game_replace(obj, game_id, role, player, why):
    """Give ROLE's seat in GAME_ID to a new player: new address, new public key.

    Orders signed with the seat's former key are refused from then on. The public log gets the
    new key's fingerprint; the new player gets the seat's latest report and a welcome notice,
    the others a notice."""
    email, colon, keyfile = player.partition(":")
    if not colon or not email.strip() or not keyfile.strip():
        raise click.BadParameter(f"expected EMAIL:PUBKEYFILE, found {player!r}",
                                 param_hint="EMAIL:PUBKEYFILE")
    path = Path(keyfile.strip()).expanduser()
    if not path.is_file():
        raise click.BadParameter(f"public key file {keyfile.strip()!r} not found",
                                 param_hint="EMAIL:PUBKEYFILE")
    r = obj.referee().replace_player(game_id, role, email.strip(),
                                     read_text_file(str(path), "a public key file"), str(path),
                                     why=why)
    click.echo(f"{r['game']}: {r['role']} is now played with key {r['fingerprint']} (was "
               f"{r['previous_fingerprint']})")
    if r["report_seq"] is not None:
        click.echo(f"the seat's latest report is queued to {email.strip()}")
    if r["orders_in_force"]:
        click.echo(f"the orders {r['role']} sent for the open window stay in force unless the "
                   "new player sends others")
    _notified(r["notified"])


@game.command("set")
@click.argument("game_id")
@click.option("--from", "sender", metavar="ADDR",
              help="The referee's address on the game's mail from now on.")
@click.option("--email", "emails", multiple=True, metavar="ROLE=ADDR",
              help="A player's new mail address (repeatable).")
@click.option("--zone", "zones", multiple=True, metavar="ROLE=ZONE",
              help="A player's time zone for deadlines, an IANA name such as Europe/Paris, or "
                   "none (repeatable).")
@click.option("--encrypt", "encrypts", multiple=True, metavar="ROLE=yes|no",
              help="Mail ROLE's reports encrypted with age to the player's ssh-ed25519 key, or "
                   "no longer (repeatable; or --role ROLE --encrypt yes|no; docs/mail.md).")
@click.option("--role", "role", metavar="ROLE",
              help="The role of a bare --encrypt yes|no.")
@click.option("--key", "keys", multiple=True, metavar="ROLE=PUBKEYFILE",
              help="With --encrypt ROLE=yes, for a seat registered before pbem recorded key "
                   "forms: its registered key's ssh-ed25519 public key file.")
@why_option(required=False)
@click.pass_obj
@_fail_on_errors
def game_set(obj, game_id, sender, emails, zones, encrypts, role, keys, why):
    """Change GAME_ID's From address, players' addresses, zones or report encryption
    (several at once).

    Each value is checked as `pbem game new` checks it; encryption needs a seat whose key is
    an ssh-ed25519 key. The public log records which settings changed, not their values; the
    players concerned get a notice (at the new address)."""
    emails = _pairs(emails, "--email", "ADDR")
    zones = _pairs(zones, "--zone", "ZONE")
    encrypt = _encrypt_pairs(encrypts, role)
    key_files = {}
    for r, path in _pairs(keys, "--key", "PUBKEYFILE").items():
        file = Path(path).expanduser()
        if not file.is_file():
            raise click.BadParameter(f"public key file {path!r} not found", param_hint="--key")
        key_files[r] = (read_text_file(str(file), "a public key file"), str(file))
    if sender is None and not emails and not zones and not encrypt:
        raise click.UsageError("give --from ADDR, --email ROLE=ADDR, --zone ROLE=ZONE or "
                               "--encrypt ROLE=yes|no")
    r = obj.referee().change_settings(game_id, sender=sender, emails=emails, zones=zones,
                                      encrypt=encrypt, keys=key_files, why=why)
    click.echo(f"{r['game']}: changed {', '.join(r['changed'])}")
    _notified(r["notified"])


@game.command("end")
@click.argument("game_id")
@why_option()
@click.pass_obj
@_fail_on_errors
def game_end(obj, game_id, why):
    """Abandon GAME_ID: close its open window, end it with no winner, and reveal the hidden
    dice seed and hidden setup in the public log (as at a normal end), so that players can
    check them with `pbem verify`."""
    r = obj.referee().end_game(game_id, why=why)
    click.echo(f"{r['game']} ended: {r['reason']}")
    if r["phase"]:
        click.echo(f"window {r['phase']} closed unresolved")
    click.echo(f"public log: {r['log_lines']} lines, head {r['log_head']}")
    _notified(r["notified"])


@main.command()
@click.argument("game_id")
@click.option("--role", required=True, help="Whose report.")
@click.option("--phase", help="The phase the report is about: its id as reports name it "
              "(3.green), or setup [default: the latest].")
@click.pass_obj
@_fail_on_errors
def resend(obj, game_id, role, phase):
    """Queue a stored report of ROLE in GAME_ID again, to the role's current address."""
    r = obj.referee().resend(game_id, role, phase)
    click.echo(f"{r['game']}: {r['role']}'s {r['phase']} report queued to {r['to']}; `pbem send` "
               "(or `pbem outbox DIR`) delivers it")
