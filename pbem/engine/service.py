"""The service layer: everything the referee's commands do, callable without the CLI.

:class:`Referee` ties a home folder (database and master key) to the engine. The CLI
(``pbem.cli``) only parses arguments, calls one method and prints the result; tests call the
same methods directly. ``clock`` gives the current UTC time and ``entropy(n)`` n random bytes;
both can be replaced (tests, the reproducible demo).
"""

from __future__ import annotations

import json
import os
import secrets
import stat
from datetime import datetime, timezone
from typing import Callable

from pbem.engine.errors import NotFound, SetupError
from pbem.engine.home import Home
from pbem.engine.service_admin import GameAdmin
from pbem.engine.service_log import LogQueries
from pbem.engine.service_mail import MailCommands


_KEY_MISMATCH = ("{key} is not the master key the database at {db} was sealed with: restore "
                 "the right referee.key from your backup")


def _key_check(master_key: bytes) -> str:
    """A value derived from the master key (HKDF, label ``key-check``) that identifies it
    without revealing it."""
    from pbem.crypto.seal import Sealer

    return _key_check_of(Sealer(master_key))


def _key_check_of(sealer) -> str:
    """:func:`_key_check` of the master key of ``sealer`` (a pbem.crypto.seal.Sealer)."""
    return sealer.derive_secret("key-check")[:16].hex()


def _stored_key_check(db) -> str | None:
    """The database's ``master_key_check`` setting, or None (no database, or none stored)."""
    from pbem.store.models import Setting

    try:
        db.check()
    except Exception:
        return None
    with db.read() as s:
        row = s.get(Setting, "master_key_check")
        return row.value if row else None


def _store_key_check(db, value: str) -> None:
    from pbem.store.models import Setting

    with db.write() as s:
        s.add(Setting(key="master_key_check", value=value))


def _migrate(db, after=None) -> tuple:
    from sqlalchemy.exc import OperationalError

    try:
        return db.migrate(after)
    except OperationalError as e:
        hint = ("; is the folder writable? (SQLite keeps pbem.db-wal and pbem.db-shm beside the "
                "database)") if db.is_sqlite else ""
        raise SetupError(f"cannot write the database at {getattr(db, 'shown', db.url)}: "
                         f"{e.orig}{hint}") from None


def _load_sealer(home: Home, db, sealer=None):
    """``sealer``, or a Sealer over the master key of ``home``; checked against ``db``'s
    ``master_key_check`` when ``db`` is given. SetupError if the key is missing, readable by
    others, or not the database's."""
    from pbem.crypto.keyfiles import load_master_key
    from pbem.crypto.seal import Sealer

    path = home.master_key_path
    if sealer is None:
        if not path.exists():
            raise SetupError(f"no referee key at {path}: run `pbem init` first")
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            raise SetupError(f"{path} is readable by others (mode {mode:o}); "
                             f"run `chmod 600 {path}`")
        sealer = Sealer(load_master_key(path))
    if db is not None:
        stored = _stored_key_check(db)
        if stored is not None and stored != _key_check_of(sealer):
            raise SetupError(_KEY_MISMATCH.format(key=path, db=home.url))
    return sealer


def _data_step(sealer, result: dict, home):
    """The data step that needs the master key, for Database.migrate's ``after``: run in the
    transaction that brings the schema to 0002 (pbem.engine.protect). It refuses a key that is
    not the database's, so nothing is protected under a wrong key; ``result`` receives the
    rows protected per table."""

    def step(session):
        from pbem.engine.protect import protect_database
        from pbem.store.models import Setting

        row = session.get(Setting, "master_key_check")
        if row is not None and row.value != _key_check_of(sealer):
            raise SetupError(_KEY_MISMATCH.format(key=home.master_key_path, db=home.url))
        result.update(protect_database(session, sealer))
        from pbem.engine.reportstore import compress_stored_reports

        compress_stored_reports(session, sealer)  # schema 0005 (issue 11)

    return step


def utc_now() -> datetime:
    """The current time, zone-aware UTC, whole seconds."""
    return datetime.now(timezone.utc).replace(microsecond=0)


class Referee(MailCommands, GameAdmin, LogQueries):
    """A referee installation (see module docstring)."""

    def __init__(self, home: Home, *, clock: Callable[[], datetime] = utc_now,
                 entropy: Callable[[int], bytes] = secrets.token_bytes):
        self.home = home
        self.clock = clock
        self.entropy = entropy
        self._db = None
        self._sealer = None
        self.undeliverable: list = []

    # ------------------------------------------------------------ set-up

    def init(self) -> dict:
        """Create the home folder, the master key (never overwritten) and the database, or
        migrate an existing database. Returns ``{"home", "key", "key_created", "db",
        "revision_before", "revision"}``. Raises SetupError rather than create a new key for a
        database that holds games sealed under a key that is missing or different."""
        from pbem.crypto.keys import create_master_key, load_master_key
        from pbem.store.db import Database

        try:
            self.home.path.mkdir(parents=True, exist_ok=True)
            os.chmod(self.home.path, 0o700)
        except OSError as e:
            raise SetupError(f"cannot use {self.home.path} as the referee's home: {e}") from None
        db = Database(self.home.url)
        key_path = self.home.master_key_path
        created = False
        if not key_path.exists():
            stored = _stored_key_check(db)
            if stored is not None:
                raise SetupError(
                    f"{key_path} is missing, but the database at {self.home.url} was sealed with "
                    "a master key (its games, orders and reports can only be opened with it): "
                    "restore referee.key from your backup; pbem will not make a new key for it")
            create_master_key(key_path)
            created = True
        from pbem.crypto.seal import Sealer

        master = load_master_key(key_path)
        protected: dict = {}
        before, after = _migrate(db, _data_step(Sealer(master), protected, self.home))
        check = _key_check(master)
        stored = _stored_key_check(db)
        if stored is None:
            _store_key_check(db, check)
        elif stored != check:
            raise SetupError(_KEY_MISMATCH.format(key=key_path, db=self.home.url))
        db.dispose()
        return {"home": str(self.home.path), "key": str(key_path), "key_created": created,
                "db": self.home.url, "revision_before": before, "revision": after,
                "rows_protected": protected}

    def upgrade(self) -> dict:
        """Migrate an existing database to this version's schema, then run the data step that
        needs the master key (pbem.engine.protect: row MACs, keyed order digests). Returns
        ``{"db", "revision_before", "revision", "rows_protected"}`` (rows given a MAC per table,
        ``{}`` when done before). SetupError if there is no database (use init to create one),
        or the master key is missing, unsafe or not the database's."""
        from pbem.store.db import Database

        db = Database(self.home.url)
        if not db.exists():
            where = db.engine.url.database if db.is_sqlite else db.shown
            raise SetupError(f"no pbem database at {where}: run `pbem init` to create one")
        sealer = _load_sealer(self.home, None)  # before migrating: a missing key changes nothing
        protected: dict = {}
        before, after = _migrate(db, _data_step(sealer, protected, self.home))
        _load_sealer(self.home, db, sealer)
        db.dispose()
        return {"db": self.home.url, "revision_before": before, "revision": after,
                "rows_protected": protected}

    @property
    def db(self):
        """The database, checked to be at this code's schema with its rows protected, and
        holding the row-MAC key (pbem.store.integrity): SetupError otherwise, or if the
        master key is missing, unsafe or not the database's (see :attr:`sealer`)."""
        if self._db is None:
            from pbem.store.db import Database, DatabaseError
            from pbem.store.integrity import ROW_MAC_LABEL, rows_protected

            db = Database(self.home.url)
            try:
                db.check()
            except DatabaseError as e:
                raise SetupError(str(e)) from None
            from pbem.store.repo import setting_value

            sealer = _load_sealer(self.home, None, self._sealer)
            with db.read(orm=False) as s:  # one read for both checks (a command's start)
                stored = setting_value(s, "master_key_check")
                protected = rows_protected(s, sealer.mac_key(ROW_MAC_LABEL))
            if stored is not None and stored != _key_check_of(sealer):
                raise SetupError(_KEY_MISMATCH.format(key=self.home.master_key_path,
                                                      db=self.home.url))
            if not protected:
                raise SetupError(
                    f"the database at {self.home.url} is at schema {db.revision()} but its "
                    "integrity marker (the setting row_macs) is missing or altered: it was "
                    "changed outside pbem, or restored from another installation "
                    "(docs/security.md); nothing was done")
            db.row_key = sealer.mac_key(ROW_MAC_LABEL)
            self._db, self._sealer = db, sealer
        return self._db

    @property
    def sealer(self):
        """The sealer over the master key (SetupError if the key is missing or unsafe, or is
        not the key the database was sealed with)."""
        if self._sealer is None:
            self.db  # noqa: B018  (opens the database and loads the key, checked against it)
        return self._sealer

    def close(self) -> None:
        """Close the database's connections, if it was opened (the command line does at the end
        of every command; SQLite then copies its WAL into the database file and removes it).
        The referee opens it again when next needed."""
        if self._db is not None:
            self._db.dispose()

    # ------------------------------------------------------------ games

    def new_game(self, spec) -> dict:
        """Create a game (pbem.engine.creation.GameSpec); writes the public setup report to
        ``HOME/games/ID/setup.txt`` and returns the creation summary plus ``report_path``.
        ``spec.referee_address`` None means not given: ``[mail] from`` of HOME/config.toml is
        used, and an address nobody can answer is refused (MailCommands.game_sender)."""
        import dataclasses

        from pbem.engine.creation import create_game

        spec = dataclasses.replace(spec, referee_address=self.game_sender(spec.referee_address))
        result = create_game(self.db, self.sealer, spec, self.clock(), self.entropy)
        folder = self.home.games_dir(result["game"])
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "setup.txt"
        path.write_text(result["public_report"], encoding="utf-8")
        result["report_path"] = str(path)
        return result

    def ingest(self, incomings, *, retry_errors: bool = False) -> list:
        """Archive and judge messages (see pbem.engine.judge.ingest) under the ``[ingest]``
        settings of ``HOME/config.toml``; ``retry_errors`` judges again the messages the judge
        failed on."""
        from pbem.engine.judge import ingest
        from pbem.engine.settings import load_ingest_settings

        settings = load_ingest_settings(self.home.path)
        try:
            return ingest(self.db, self.sealer, incomings, now=self.clock(), settings=settings,
                          retry_errors=retry_errors)
        finally:
            self.db.checkpoint_after_command()

    def process(self, game_id: str | None = None, *, force: bool = False,
                accept_late: bool = False, workers: int = 1, on_start=None,
                on_game=None) -> list:
        """Resolve every ready phase, queue due reminders, apply the downtime guard
        (pbem.engine.adjudicate.process): a list of Resolved, Postponed and Reminded. Each game
        is handled once, in one transaction, by one of ``workers`` worker processes
        (pbem.engine.workers.process_due: ``on_start(n)`` with the number of games looked at,
        ``on_game(game_id, results)`` as each is done; WorkerFailed when a worker failed or
        died)."""
        from pbem.engine.workers import process_due

        try:  # a game_id that is no game: NotFound (adjudicate.process_named_game)
            return process_due(self.db, self.sealer, now=self.clock(), entropy=self.entropy,
                               game_id=game_id, force=force, accept_late=accept_late,
                               workers=workers, on_start=on_start, on_game=on_game)
        finally:
            self.db.checkpoint_after_command()

    def game(self, game_id: str, session=None):
        """The game row, or NotFound; read in ``session`` when given (a Record in a
        CoreSession), else in a read transaction of its own."""
        from pbem.store import repo

        if session is not None:
            game = repo.get_game(session, game_id)
        else:
            with self.db.read() as s:
                game = repo.get_game(s, game_id)
        if game is None:
            raise NotFound(f"no game {game_id!r} (see `pbem status`)")
        return game

    def status(self, game_id: str | None = None) -> list[dict]:
        """Per game: id, ruleset, status, the open window (turn, phase, owed, optional,
        deadline), which roles have orders in force, the players, and ``paused_since`` (when
        the referee paused the game, or None). The window's ``deadline`` is ISO 8601 UTC,
        ``deadline_text`` the same in UTC and the game's zone, ``closes`` the deadline plus
        the grace. ``mail``: ``{"queued": n, "failed": [{"id", "kind", "to", "failed",
        "answer"}]}`` (the server's answer to each mail that failed; MailCommands.mail_by_game)."""
        from pbem.engine.headers import format_time
        from pbem.engine.schedule import format_when, game_schedule
        from pbem.store import repo

        out = []
        with self.db.read(orm=False) as s:  # rows as Records: no ORM to load (issue 11)
            games = [self.game(game_id, s)] if game_id else repo.list_games(s)
            for g in games:
                item = {"game": g.id, "ruleset": g.ruleset, "title": g.title, "status": g.status,
                        "created": format_time(g.created_at),
                        "players": [{"role": p.role, "seat": p.seat, "email": p.email,
                                     "key": p.fingerprint, "zone": p.zone}
                                    for p in repo.players(s, g.id)],
                        "window": None,
                        "paused_since": format_time(g.paused_at) if g.paused_at else None}
                phase = repo.open_phase(s, g.id)
                if phase is not None:
                    w = json.loads(phase.window_json)
                    orders = repo.accepted_orders(s, g.id, phase.seq)
                    held = sorted(o.role for o in orders)
                    sched = game_schedule(g)
                    closes = sched.closes_at(phase.deadline_at)
                    item["window"] = {"turn": phase.turn, "phase": phase.name,
                                      "phase_id": phase.phase_id, "owed": w["owed"],
                                      "optional": w.get("optional", []), "orders_in": held,
                                      # why a window with every order in stays open
                                      "wait": sorted(o.role for o in orders if o.wait),
                                      "carried": sorted(o.role for o in orders
                                                        if o.received_at < phase.opened_at),
                                      "deadline": format_time(phase.deadline_at),
                                      "deadline_text": format_when(phase.deadline_at,
                                                                   sched.zone),
                                      "closes": format_time(closes),
                                      "closes_text": format_when(closes, sched.zone),
                                      "overdue": self.clock() >= phase.deadline_at}
                out.append(item)
        mail = self.mail_by_game()
        for item in out:
            item["mail"] = mail.get(item["game"], {"queued": 0, "failed": []})
        return out

    def report(self, game_id: str, role: str, fmt: str = "text",
               phase: int | str | None = None) -> str:
        """A stored report of ``role`` (``*`` for the public one): the latest, or the one that
        reports on ``phase``. A string ``phase`` is a phase id as the reports name it
        (``2.green``: "Turn 2, phase green has been resolved", "Phase 2.green: seed ..."), or
        ``setup`` (also ``0.create``, the id its dice have) for the setup report; a bare number
        is refused, listing the phase ids, since counting reports and counting turns would
        give different answers. An int ``phase`` is the stored phase's sequence number
        (0: setup), for callers that hold one."""
        from pbem.engine.admin import phase_seq_of
        from pbem.store import repo

        self.game(game_id)
        shown = phase
        with self.db.read() as s:
            if isinstance(phase, str):
                shown = phase.strip()
                phase = phase_seq_of(repo.phases(s, game_id), phase, game_id)
            roles = [p.role for p in repo.players(s, game_id)]
            if role not in roles and role != "*":
                raise NotFound(f"game {game_id} has no role {role!r} (roles: {', '.join(roles)})")
            from pbem.engine.reportstore import report_body

            found = report_body(s, self.sealer, game_id, role, fmt, phase)
        if found is None:
            raise NotFound(f"no {fmt} report for {role} in game {game_id}"
                           + (f" on phase {shown} (not resolved yet?)" if phase is not None
                              else ""))
        return found[1]

    def view_and_window(self, game_id: str, role: str):
        """(the ruleset's view for ``role``, the open Window or None): what a player's client
        may know, e.g. for the demo's random players and bench/. The view is made from
        ``role``'s own role state (pbem.engine.gamestate.role_state): only the public part and
        ``role``'s sealed part are opened (for ``"*"``, only the public part)."""
        from pbem.engine import registry
        from pbem.engine.gamestate import GameContext, role_view
        from pbem.engine.ruleset import Window
        from pbem.store import repo

        self.game(game_id)  # NotFound
        with self.db.read() as s:
            game = repo.get_game(s, game_id)  # state and its version read together
            parts = GameContext.role_parts(s, self.sealer, game, role)
            phase = repo.open_phase(s, game_id)
            window = Window.from_json(json.loads(phase.window_json)) if phase else None
            return role_view(registry.get(game.ruleset), parts, role), window

    def all_reports(self, game_id: str) -> list[dict]:
        """Every stored report of a game, unsealed: ``{"seq", "phase", "role", "fmt", "body"}``
        (``phase`` is the phase id reported on, ``setup`` for the setup reports)."""
        from pbem.store import repo

        from pbem.engine.reportstore import all_report_bodies

        self.game(game_id)
        with self.db.read() as s:
            names = {p.seq: p.phase_id for p in repo.phases(s, game_id)}
            bodies = all_report_bodies(s, self.sealer, game_id)
        return [{"seq": b["seq"], "phase": names.get(b["seq"], "setup"), "role": b["role"],
                 "fmt": b["fmt"], "body": b["body"]} for b in bodies]

    def messages(self, game_id: str | None = None, limit: int = 50) -> list[dict]:
        """The latest archived messages with their verdicts."""
        from pbem.engine.headers import format_time
        from pbem.store import repo

        with self.db.read() as s:
            return [{"id": m.id, "received": format_time(m.received_at), "origin": m.origin,
                     "sender": m.sender, "verdict": m.verdict, "reason": m.reason,
                     "game": m.game_id, "role": m.role}
                    for m in repo.messages(s, game_id=game_id, limit=limit)]

    def check_receipt(self, data: bytes, source: str, game_id: str | None = None,
                      referee: str | None = None) -> dict:
        """Check the receipts in ``data`` (a saved mail, MIME decoded here, or plain text
        holding ``-----BEGIN PBEM RECEIPT-----`` blocks; quoted ones are ignored): each
        signature must verify (Ed25519, domain ``pbem-receipt/1``) and be made by the game's
        referee key, and each receipt's ``game:`` line must name ``game_id`` when given
        (docs/signing.md, section 10).

        The referee key is ``referee`` (a fingerprint ``SHA256:...`` copied from the setup
        report: no database is opened) or else the one game ``game_id``'s log published when
        the game was created (the referee's database). Returns ``{"file", "referee",
        "referee_from", "receipts": [{"game", "turn", "phase", "role", "orders_sha256",
        "key"}]}``. Raises PbemError naming ``source`` for no receipt, a damaged block, a bad
        signature, a key that is not the referee key (naming both fingerprints), or a receipt
        for another game; PbemError when neither ``game_id`` nor ``referee`` is given or the
        fingerprint is malformed; NotFound for an unknown game."""
        import re

        from pbem.engine.errors import PbemError
        from pbem.engine.receipts import check_receipts

        if referee is not None:
            referee = referee.strip()
            if not re.fullmatch(r"SHA256:[A-Za-z0-9+/]{43}", referee):
                raise PbemError(f"--referee {referee!r}: expected a key fingerprint as the setup "
                                "report prints it (SHA256: and 43 letters, digits, + or /)")
            whence = "as given with --referee"
        elif game_id is not None:
            created = json.loads(self.log_lines(game_id)[0])
            referee, whence = created["referee_fingerprint"], f"published in game {game_id}'s log"
        else:
            raise PbemError("give the GAME (with the referee's database) or --referee "
                            "SHA256:... (the referee key's fingerprint from the setup report)")
        return {"file": source, "referee": referee, "referee_from": whence,
                "receipts": check_receipts(data, source, referee, whence, game_id)}
