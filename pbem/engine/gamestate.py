"""A game opened for work inside one transaction: its rows, ruleset, decrypted state, and the
log lines, events, reports and mail that the work produces.

The state is stored as :class:`~pbem.engine.ruleset.Parts`: the public part in clear on the game
row, each role's secret part and the referee part sealed (owner = role or ``referee``,
purpose ``state``, version = the game's state version, so an old blob cannot be put back).
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from datetime import datetime

from pbem.engine import registry, storedjson
from pbem.engine.headers import format_time
from pbem.engine.ruleset import PUBLIC, REFEREE, Event, Parts, Window
from pbem.engine.schedule import game_schedule  # noqa: F401 (re-exported)
from pbem.store import repo
from pbem.store.models import Game, Phase, Player

STATE = "state"


def reader_zone(game: Game, player: Player | None) -> str | None:
    """The time zone a reader's mail shows times in: the player's own (``--zone``), else the
    game's (``--tz``), else None (UTC only). ``player`` None: the public report."""
    return (player.zone if player is not None else None) or game_schedule(game).zone


def role_parts(parts: Parts, role: str) -> Parts:
    """The parts a ``role`` is given (DESIGN.md, "Every fact has an audience"; docs/rulesets.md,
    "What a role is given"): the public part and ``role``'s own secret part, no other role's
    secret and an empty referee part. For the public reader ``"*"`` (:data:`PUBLIC`), or a role
    with no secret part, only the public part (``secret`` empty).

    The parts are shared, not copied: the state loaded from them must not be changed (``view``,
    ``check`` and ``template`` do not change a state)."""
    secret = parts.secret.get(role) if role != PUBLIC else None
    return Parts(public=parts.public, secret={} if secret is None else {role: secret},
                 referee={})


def role_state(ruleset, parts: Parts, role: str):
    """The state ``role`` may see: ``ruleset.load`` of :func:`role_parts` (``parts`` as dumped:
    the whole state split by audience). What the engine passes to ``view``, ``check`` and
    ``template`` for ``role``, and what a bot's view is made from, so that none of them can
    depend on another role's secret or on the referee part: the game's ``load`` reads a missing
    part as "unknown to this reader", and a ruleset that reads a secret it was not given fails
    (KeyError, None...) instead of leaking it."""
    return ruleset.load(role_parts(parts, role))


def role_view(ruleset, parts: Parts, role: str) -> dict:
    """``ruleset.view`` of ``role``'s own :func:`role_state`: what ``role`` may know, as the
    reports and the bots (``Referee.view_and_window``) are given it."""
    return ruleset.view(role_state(ruleset, parts, role), role)


def dice_seed_purpose(seq: int) -> str:
    """Sealed-row purpose of phase ``seq``'s dice seed."""
    return f"dice:{seq}"


@dataclass
class GameContext:
    """Everything about one game needed to judge orders or resolve a phase (see module doc).

    ``log`` collects new public log lines (written by :meth:`flush`)."""

    session: object
    sealer: object
    game: Game
    players: list[Player]
    ruleset: object
    parts: Parts
    state: object
    new_lines: list = field(default_factory=list)
    _ledger: object = None

    # ------------------------------------------------------------ loading and saving

    @staticmethod
    def role_parts(session, sealer, game: Game, role: str) -> Parts:
        """:func:`role_parts` of ``game``'s stored state for ``role``, opening only the public
        part and ``role``'s own sealed part (nothing at all sealed for ``"*"``): what a player's
        view is made from (``Referee.view_and_window``). Raises SealError on tampering."""
        secret = {}
        if role != PUBLIC and role in {p.role for p in repo.players(session, game.id)}:
            row = repo.get_sealed(session, game.id, role, STATE)
            data = sealer.open(game.id, role, STATE, game.state_version, row.blob) if row else b"{}"
            secret[role] = storedjson.loads(data)
        return Parts(public=storedjson.loads(game.public_state), secret=secret, referee={})

    @classmethod
    def load(cls, session, sealer, game: Game) -> "GameContext":
        """Open ``game``: decrypt every part of its state. Raises SealError on tampering."""
        players = repo.players(session, game.id)
        ruleset = registry.get(game.ruleset)
        # every state part and the referee's values a phase reads or writes, in one query
        rows = repo.preload_sealed(session, game.id, [
            STATE, "hidden-seed", "setup-salt", dice_seed_purpose(game.phase_seq),
            dice_seed_purpose(game.phase_seq + 1)])
        secret = {}
        for owner in [p.role for p in players] + [REFEREE]:
            row = rows.get((owner, STATE))
            data = sealer.open(game.id, owner, STATE, game.state_version, row.blob) if row else b"{}"
            secret[owner] = storedjson.loads(data)
        referee = secret.pop(REFEREE)
        parts = Parts(public=storedjson.loads(game.public_state), secret=secret, referee=referee)
        return cls(session, sealer, game, players, ruleset, parts, ruleset.load(parts))

    def save_state(self) -> None:
        """Dump the ruleset state, bump the state version and seal every part anew."""
        self.store_parts(self.ruleset.dump(self.state))

    def store_parts(self, parts: Parts) -> None:
        """Make ``parts`` the game's stored state: bump the state version, write the public
        part on the game row and seal each role's and the referee's part under the new version
        (so that no blob of an earlier state can be put back), as compact JSON with sorted keys
        (pbem.engine.storedjson). Does not change :attr:`state`."""
        game = self.game
        game.state_version += 1
        game.public_state = storedjson.dumps(parts.public, sort_keys=True).decode("utf-8")
        owners = dict(parts.secret)
        owners[REFEREE] = parts.referee
        for role in self.roles:
            owners.setdefault(role, {})
        repo.put_sealed_many(self.session, game.id, STATE, game.state_version, {
            owner: self.sealer.seal(game.id, owner, STATE, game.state_version,
                                    storedjson.dumps(value, sort_keys=True))
            for owner, value in owners.items()})
        self.session.add(game)
        self.parts = parts

    @property
    def roles(self) -> list[str]:
        return [p.role for p in self.players]

    def role_state(self, role: str):
        """The state ``role`` (or ``"*"``) may see, loaded from :attr:`parts` (the state as last
        loaded or saved: call after :meth:`save_state` once the state has changed)."""
        return role_state(self.ruleset, self.parts, role)

    def player(self, role: str) -> Player | None:
        for p in self.players:
            if p.role == role:
                return p
        return None

    # ------------------------------------------------------------ secrets of the game

    def put_secret(self, purpose: str, value: bytes) -> None:
        """Seal a referee-only value of the game (a dice seed, the setup salt)."""
        blob = self.sealer.seal(self.game.id, REFEREE, purpose, 0, value)
        repo.put_sealed(self.session, self.game.id, REFEREE, purpose, 0, blob)

    def has_secret(self, purpose: str) -> bool:
        return repo.get_sealed(self.session, self.game.id, REFEREE, purpose) is not None

    def commit_hidden_setup(self, now: datetime, entropy) -> None:
        """Commit the hidden setup as it stands (the referee part of the state, just dealt):
        log ``setup-commit`` = sha256(salt + canonical JSON) and keep salt and setup sealed for
        the reveal at the end (DESIGN.md, "The public log"). Once per game."""
        import hashlib

        from pbem.ledger import canonical_json

        hidden = canonical_json(self.ruleset.dump(self.state).referee).encode()
        salt = entropy(32)
        self.put_secret("setup-salt", salt)
        self.put_secret("setup-hidden", zlib.compress(hidden, 9))  # read by hidden_setup()
        self.log("setup-commit", now, commit=hashlib.sha256(salt + hidden).hexdigest())

    def hidden_setup(self) -> bytes:
        """The hidden setup's canonical JSON as :meth:`commit_hidden_setup` committed it (kept
        zlib-compressed; a pbem before issue 11 kept it as it is: JSON starts with ``{``,
        which no zlib stream does). LookupError when none was committed."""
        data = self.get_secret("setup-hidden")
        return data if data[:1] == b"{" else zlib.decompress(data)

    def get_secret(self, purpose: str) -> bytes:
        row = repo.get_sealed(self.session, self.game.id, REFEREE, purpose)
        if row is None:
            raise LookupError(f"game {self.game.id} has no sealed {purpose!r}")
        return self.sealer.open(self.game.id, REFEREE, purpose, 0, row.blob)

    # ------------------------------------------------------------ the public log

    def log(self, line_type: str, now: datetime, **fields) -> str:
        """Append a public log line ``{"type": line_type, "game": id, "at": now, ...}``."""
        from pbem.ledger import Ledger

        if self._ledger is None:
            self._ledger = Ledger(self.game.log_head)
        obj = {"type": line_type, "game": self.game.id, "at": format_time(now)}
        obj.update(fields)
        line = self._ledger.append(obj)
        self.new_lines.append(line)
        return line

    def log_rolls(self, stream, phase_id: str, now: datetime, *, hidden: bool = False) -> None:
        """Log every roll drawn from ``stream`` (a pbem.dice.DiceStream), once it is done."""
        for roll in stream.rolls:
            if hidden:
                self.log("roll", now, stream="hidden", phase=phase_id, index=roll.index,
                         sides=roll.sides, why=roll.why)
            else:
                self.log("roll", now, phase=phase_id, index=roll.index, sides=roll.sides,
                         value=roll.value, why=roll.why)

    def log_position(self) -> tuple[int, str]:
        """(lines in the public log so far, sha256 of the last one), counting the lines not yet
        stored: what a report quotes so its reader can check the log later (docs/log.md)."""
        head = self._ledger.last if self._ledger is not None else self.game.log_head
        return self.game.log_count + len(self.new_lines), head

    def flush(self) -> None:
        """Store the new log lines."""
        if self.new_lines:
            repo.append_log(self.session, self.game, self.new_lines, self._ledger.last)
            self.new_lines = []

    # ------------------------------------------------------------ events

    def log_events(self, events: list[Event], now: datetime, phase_id: str) -> None:
        """Log a phase's public events: each is its line in the public log and is kept nowhere
        else. A private event is kept where its audience reads it: in the report context of
        each reader it names, sealed for that reader (pbem.engine.publish, in the same
        transaction); pbem before issue 11 also sealed it in an ``event`` row, which nothing
        read back (Atlantis's four-player setup window: 1.4 KB of such rows)."""
        for ev in events:
            if ev.public:
                self.log("event", now, phase=phase_id, kind=ev.kind, text=ev.text, data=ev.data)

    # ------------------------------------------------------------ phases

    def open_phase(self, window: Window, now: datetime, entropy) -> Phase:
        """Open the next phase: draw and seal its dice seed, publish the commitment and the
        deadline (by the game's schedule, pbem.engine.schedule: the short rule for a ``short``
        window). DESIGN.md, "Verifiable dice": the commitment is published before any orders
        for the phase are accepted. A paused game's deadline is counted from when it resumes:
        the pause's length is added then (GameAdmin.resume)."""
        from pbem.dice import commitment

        game = self.game
        seq = game.phase_seq + 1
        seed = entropy(32)
        self.put_secret(dice_seed_purpose(seq), seed)  # known missing: load() preloads it
        deadline = game_schedule(game).deadline_for(now, window.short)
        commit = commitment(seed)
        phase = Phase(game_id=game.id, seq=seq, turn=window.turn, name=window.phase,
                      phase_id=window.phase_id, window_json=json.dumps(window.to_json()),
                      opened_at=now, deadline_at=deadline, commit=commit)
        self.session.add(phase)
        game.phase_seq = seq
        self.session.add(game)
        self.log("phase-open", now, phase=window.phase_id, turn=window.turn, name=window.phase,
                 title=window.title, owed=list(window.owed), optional=list(window.optional),
                 deadline=format_time(deadline))
        self.log("dice-commit", now, phase=window.phase_id, commit=commit)
        return phase
