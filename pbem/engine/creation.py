"""Creating a game: check every input, run the ruleset's setup with committed dice, publish the
setup (DESIGN.md "Verifiable dice", "The public log") and open the first window.

At creation the public log receives, in order: ``game-created`` (ruleset, seats and keys, options,
house-rules and map digests, the game's referee key, the stand-ins in force), ``hidden-commit``
(sha256 of the per-game hidden seed), ``setup-commit`` (sha256 of salt + the initial hidden setup),
the creation dice (``dice-commit``, rolls, ``dice-reveal`` of phase ``0.create``: the public
arrangement of the board, revealed at once), the public setup events, and the first window's
``phase-open`` and ``dice-commit``. The hidden setup is committed (``setup-commit``) when it is
dealt: here if the ruleset deals it at creation, else at the end of the window that deals it
(keyed by that window's nonces, so the referee cannot steer it; docs/dice.md).
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass
from datetime import datetime

from pbem.engine import registry
from pbem.engine.errors import GameError
from pbem.engine.gamestate import GameContext
from pbem.engine.ruleset import Chance
from pbem.store import repo
from pbem.store.models import Game, Player

GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
CREATE_PHASE = "0.create"


@dataclass(frozen=True)
class PlayerSpec:
    """A seat as given on the command line: ``role=email:keyfile`` plus an optional zone.
    ``key_text`` is the key file's content, ``key_source`` its path (for error messages)."""

    role: str
    email: str
    key_text: str
    key_source: str
    zone: str | None = None
    encrypt: bool = False
    """Mail this seat's reports encrypted to its key with age (``--encrypt ROLE``; an
    ssh-ed25519 key only: pbem.engine.encryption)."""


@dataclass(frozen=True)
class GameSpec:
    """Everything ``pbem game new`` needs. Durations are in seconds; ``options`` are the raw
    ``--option K=V`` strings; house rules and map are file texts with their paths."""

    ruleset: str
    game_id: str
    players: tuple[PlayerSpec, ...]
    options: dict
    deadline_seconds: int = 72 * 3600
    short_deadline_seconds: int = 24 * 3600
    house_rules_text: str | None = None
    house_rules_source: str = ""
    map_text: str | None = None
    map_source: str = ""
    referee_address: str | None = None
    """The From address of the game's mail (``--from``); None: not given, and
    ``Referee.new_game`` takes ``[mail] from`` of the settings (refusing an address nobody can
    answer). :func:`create_game` itself needs an address."""
    schedule: object = None
    """A pbem.engine.schedule.Schedule (deadline rules, zone, grace, min window, close-early,
    reminders); None: ``deadline_seconds`` and ``short_deadline_seconds`` after each window
    opens, no grace and no reminders (Schedule.legacy)."""

    def the_schedule(self):
        """The schedule the game is created with (see ``schedule``)."""
        from pbem.engine.schedule import Schedule

        if self.schedule is not None:
            return self.schedule
        return Schedule.legacy(self.deadline_seconds, self.short_deadline_seconds)


def _sha256(text: str | None) -> str | None:
    return hashlib.sha256(text.encode()).hexdigest() if text is not None else None


def _check_spec(spec: GameSpec):
    """Validate a GameSpec; returns (ruleset, options, data, hexmap, keys). Raises GameError."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    from pbem.engine.admin import check_address

    from pbem.crypto.keys import KeyFormatError, load_public_key
    from pbem.engine.encryption import check_encryptable, key_type

    if not GAME_ID.match(spec.game_id):
        raise GameError(f"game id {spec.game_id!r}: expected 1-64 letters, digits, '.', '_' or '-', "
                        "starting with a letter or digit")
    try:
        rs = registry.get(spec.ruleset)
    except registry.UnknownRuleset as e:
        raise GameError(str(e)) from None
    # the roles the ruleset takes: a fixed role nobody holds would never send orders
    try:
        rs.role_spec().check([p.role for p in spec.players], rs.title, rs.min_roles,
                             rs.max_roles)
    except ValueError as e:
        raise GameError(str(e)) from None
    keys, seen_fp = [], {}
    for p in spec.players:
        if p.role in rs.reserved_words():
            raise GameError(f"role {p.role!r} is a word of {rs.name}'s orders; choose another name")
        check_address(p.email, f"player {p.role}")  # one address mail can be sent to
        try:
            key = load_public_key(p.key_text, p.key_source)
        except KeyFormatError as e:
            raise GameError(f"player {p.role}: {e}") from None
        if key.fingerprint in seen_fp:
            raise GameError(f"players {seen_fp[key.fingerprint]} and {p.role} have the same key "
                            f"{key.fingerprint}: a key identifies one role")
        seen_fp[key.fingerprint] = p.role
        if p.encrypt:
            check_encryptable(spec.game_id, p.role, key_type(p.key_text), key.fingerprint)
        keys.append(key)
        if p.zone:
            try:
                ZoneInfo(p.zone)
            except (ZoneInfoNotFoundError, ValueError):
                raise GameError(f"player {p.role}: unknown time zone {p.zone!r} (expected an IANA "
                                "name such as Europe/Paris)") from None
    _check_sender(spec.referee_address)
    try:
        options = rs.validate_options(dict(spec.options))
    except ValueError as e:
        raise GameError(f"--option: {e}") from None
    house = None
    if spec.house_rules_text is not None:
        try:
            house = tomllib.loads(spec.house_rules_text)
        except tomllib.TOMLDecodeError as e:
            raise GameError(f"{spec.house_rules_source}: not valid TOML: {e}") from None
    try:
        data = rs.load_data(house)
    except ValueError as e:
        raise GameError(f"{spec.house_rules_source or 'house rules'}: {e}") from None
    try:
        hexmap = rs.load_map(spec.map_text, spec.map_source or "stand-in map")
        rs.check_map(hexmap, data)
    except ValueError as e:
        raise GameError(str(e)) from None
    return rs, options, data, hexmap, keys


def _check_sender(address: str) -> None:
    """The referee's From address must make valid mail: compose a message with it (the same
    checks as every mail the game will send). Raises GameError."""
    if address is None:
        raise GameError("no From address for the game's mail: give --from ADDRESS, or set "
                        "[mail] from in HOME/config.toml (docs/mail.md)")
    from pbem.engine.judge import mail_domain
    from pbem.mail.compose import compose
    from pbem.mail.errors import ComposeError

    try:
        if "\n" in address or "\r" in address:
            raise ComposeError("it holds a line break")
        compose(sender=address, to="player@example.invalid", subject="check", text="check",
                message_id_domain=mail_domain(address))
    except ComposeError as e:
        raise GameError(f"--from {address!r}: expected the referee's mail address, such as "
                        f"referee@example.org ({e})") from None


def create_game(db, sealer, spec: GameSpec, now: datetime, entropy) -> dict:
    """Create the game described by ``spec`` in one transaction; returns a summary
    ``{"game", "ruleset", "phase", "deadline", "public_report"}`` (``public_report`` is the
    setup report text as everyone may read it). Raises GameError for bad input or an existing id.
    """
    from pbem.dice import DiceStream, commitment
    from pbem.engine.encryption import key_type
    from pbem.engine.publish import publish_phase
    from pbem.ledger import canonical_json

    rs, options, data, hexmap, keys = _check_spec(spec)
    roles = [p.role for p in spec.players]
    with db.write() as s:
        if repo.get_game(s, spec.game_id) is not None:
            raise GameError(f"game {spec.game_id!r} exists already")
        game = Game(id=spec.game_id, ruleset=rs.name, title=rs.title, created_at=now,
                    options_json=json.dumps(options, sort_keys=True),
                    house_rules_text=spec.house_rules_text,
                    house_rules_sha256=_sha256(spec.house_rules_text),
                    map_text=spec.map_text, map_sha256=_sha256(spec.map_text),
                    deadline_seconds=spec.deadline_seconds,
                    short_deadline_seconds=spec.short_deadline_seconds,
                    public_state="{}", referee_address=spec.referee_address,
                    schedule_json=json.dumps(spec.the_schedule().to_json(), sort_keys=True),
                    bind_referee=True)  # orders must carry 'referee:' (docs/signing.md, 10)
        s.add(game)
        s.flush()
        players = []
        for seat, (p, key) in enumerate(zip(spec.players, keys), start=1):
            row = Player(game_id=game.id, role=p.role, seat=seat, email=p.email,
                         public_key=key.openssh_line(), fingerprint=key.fingerprint, zone=p.zone,
                         key_type=key_type(p.key_text), encrypt_reports=p.encrypt)
            s.add(row)
            players.append(row)
        s.flush()

        create_seed, hidden_seed = entropy(32), entropy(32)
        public = DiceStream(create_seed, game.id, CREATE_PHASE, {})
        hidden = DiceStream(hidden_seed, game.id, CREATE_PHASE, {}, hidden=True)
        state, events = rs.setup(roles, options, data, hexmap, Chance(public, hidden))
        parts = rs.dump(state)
        ctx = GameContext(s, sealer, game, players, rs, parts, state)
        referee_key = sealer.referee_signing_key(game.id).public_key()

        ctx.log("game-created", now, ruleset=rs.name, title=rs.title,
                roles=[{"role": p.role, "seat": p.seat, "key": p.public_key,
                        "fingerprint": p.fingerprint,
                        **({"encrypt_reports": True} if p.encrypt_reports else {})}
                       for p in players],
                options=options, house_rules_sha256=game.house_rules_sha256,
                map=hexmap.name, map_sha256=hexmap.digest,
                data_sha256=hashlib.sha256(canonical_json(data).encode()).hexdigest(),
                stand_ins=rs.stand_ins(data, options, hexmap),
                referee_key=referee_key.openssh_line(),
                referee_fingerprint=referee_key.fingerprint,
                deadline_seconds=spec.deadline_seconds,
                short_deadline_seconds=spec.short_deadline_seconds,
                schedule=spec.the_schedule().to_json())
        ctx.log("hidden-commit", now, commit=commitment(hidden_seed))
        ctx.log("dice-commit", now, phase=CREATE_PHASE, commit=commitment(create_seed))
        ctx.log_rolls(public, CREATE_PHASE, now)
        ctx.log_rolls(hidden, CREATE_PHASE, now, hidden=True)
        ctx.log("dice-reveal", now, phase=CREATE_PHASE, seed=create_seed.hex(), nonces={})
        ctx.log_events(events, now, CREATE_PHASE)
        ctx.save_state()
        ctx.put_secret("hidden-seed", hidden_seed)
        if hidden.rolls:  # the ruleset dealt its hidden setup at creation: commit it now
            ctx.commit_hidden_setup(now, entropy)

        window = rs.window(state)
        phase = ctx.open_phase(window, now, entropy)
        public_text = publish_phase(ctx, reported=None, events=events, rolls=public.rolls,
                                    reveal={"phase": CREATE_PHASE, "seed": create_seed.hex(),
                                            "nonces": {}},
                                    problems={}, next_phase=phase, now=now,
                                    public_text=True)
        ctx.flush()
        return {"game": game.id, "ruleset": rs.name, "phase": phase.phase_id,
                "deadline": phase.deadline_at, "public_report": public_text}

