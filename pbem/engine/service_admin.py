"""The referee's commands on a running game (``pbem game extend|pause|resume|undo|replace|set|
end``, ``pbem resend``), mixed into :class:`pbem.engine.service.Referee`."""

from __future__ import annotations


class GameAdmin:
    """Mixin of :class:`~pbem.engine.service.Referee`: fixing what went wrong in a game."""

    # ------------------------------------------------ extend, pause, resume, replace, set, end,
    # resend (the logic is pbem.engine.admin; each runs in one write transaction)

    def _acting(self, game_id: str, command: str, *, running: bool = True):
        """A context manager: one write transaction holding the game ``game_id`` loaded (a
        GameContext), its new log lines stored on leaving. NotFound for an unknown game;
        ActionRefused when ``running`` and the game has ended, or when another pbem process
        holds the game (PostgreSQL)."""
        from contextlib import contextmanager

        from pbem.engine.admin import ActionRefused
        from pbem.engine.errors import NotFound
        from pbem.engine.gamestate import GameContext
        from pbem.store import repo

        @contextmanager
        def opened():
            with self.db.write() as s:
                game = repo.get_game(s, game_id, lock=True)
                if game is None:
                    if repo.get_game(s, game_id) is None:
                        raise NotFound(f"no game {game_id!r} (see `pbem status`)")
                    raise ActionRefused(f"game {game_id} is being worked on by another pbem "
                                        "process; try again in a moment")
                if running and game.status != "active":
                    raise ActionRefused(f"game {game_id} has ended; `pbem game {command}` "
                                        "applies to a running game")
                ctx = GameContext.load(s, self.sealer, game)
                yield ctx
                ctx.flush()

        return opened()

    def extend(self, game_id: str, *, by: int | None = None, until: str | None = None,
               why: str) -> dict:
        """Move the open window's deadline later, ``by`` seconds or to ``until``
        (pbem.engine.admin.extend); ``why`` is required."""
        from pbem.engine import admin

        why = admin.check_why(why, required=True)
        with self._acting(game_id, "extend") as ctx:
            return admin.extend(ctx, by=by, until=until, why=why, now=self.clock())

    def pause(self, game_id: str, *, why: str) -> dict:
        """Pause the game's deadlines (pbem.engine.admin.pause); ``why`` is required."""
        from pbem.engine import admin

        why = admin.check_why(why, required=True)
        with self._acting(game_id, "pause") as ctx:
            return admin.pause(ctx, why=why, now=self.clock())

    def resume(self, game_id: str, *, why: str | None = None) -> dict:
        """Resume a paused game, moving its deadline by the pause's length
        (pbem.engine.admin.resume)."""
        from pbem.engine import admin

        why = admin.check_why(why, required=False)
        with self._acting(game_id, "resume") as ctx:
            return admin.resume(ctx, why=why, now=self.clock())

    def replace_player(self, game_id: str, role: str, email: str, key_text: str,
                       key_source: str, *, why: str) -> dict:
        """Give the seat ``role`` to a new player with address ``email`` and the public key
        ``key_text`` (read from ``key_source``) (pbem.engine.admin.replace_player); ``why`` is
        required."""
        from pbem.engine import admin

        why = admin.check_why(why, required=True)
        with self._acting(game_id, "replace") as ctx:
            return admin.replace_player(ctx, role=role.strip().lower(), email=email,
                                        key_text=key_text, key_source=key_source, why=why,
                                        now=self.clock())

    def change_settings(self, game_id: str, *, sender: str | None = None,
                        emails: dict | None = None, zones: dict | None = None,
                        encrypt: dict | None = None, keys: dict | None = None,
                        why: str | None = None) -> dict:
        """Change the From address, players' addresses, zones and whether their reports are
        encrypted (pbem.engine.admin.change_settings); also of an ended game (its reports can
        still be sent again)."""
        from pbem.engine import admin

        why = admin.check_why(why, required=False)
        with self._acting(game_id, "set", running=False) as ctx:
            return admin.change_settings(ctx, sender=sender, emails=emails, zones=zones,
                                         encrypt=encrypt, keys=keys, why=why, now=self.clock())

    def end_game(self, game_id: str, *, why: str) -> dict:
        """Abandon the game, revealing everything hidden (pbem.engine.admin.abandon); ``why``
        is required."""
        from pbem.engine import admin

        why = admin.check_why(why, required=True)
        with self._acting(game_id, "end") as ctx:
            return admin.abandon(ctx, why=why, now=self.clock())

    def resend(self, game_id: str, role: str, phase: str | None = None) -> dict:
        """Queue a stored report of ``role`` again, to the role's current address: the latest,
        or the one that reports on ``phase`` (a phase id such as ``3.green``, or ``setup``).
        Also for an ended game. Changes nothing in the game: no log line, no notice. Returns
        ``{"game", "role", "phase", "to"}``. NotFound for an unknown game, role, phase or
        report."""
        from pbem.engine import admin
        from pbem.engine.errors import NotFound
        from pbem.store import repo

        role = role.strip().lower()
        now = self.clock()
        with self.db.write() as s:
            game = repo.get_game(s, game_id)
            if game is None:
                raise NotFound(f"no game {game_id!r} (see `pbem status`)")
            players = repo.players(s, game_id)
            player = next((p for p in players if p.role == role), None)
            if player is None:
                raise NotFound(f"game {game_id} has no role {role!r} (roles: "
                               f"{', '.join(p.role for p in players)})")
            phases = repo.phases(s, game_id)
            seq = admin.phase_seq_of(phases, phase) if phase is not None else None
            from pbem.store.reports import find_report

            row = find_report(s, game_id, role, seq)
            if row is None:
                raise NotFound(f"no stored report of {role} in game {game_id}"
                               + (f" for phase {phase}" if phase is not None else ""))
            admin.queue_report(s, game, player, row.phase_seq, now, "sent again")
            name = "setup" if row.phase_seq == 0 else next(
                (p.phase_id for p in phases if p.seq == row.phase_seq), str(row.phase_seq))
            return {"game": game_id, "role": role, "phase": name, "to": player.email}

    # ------------------------------------------------ end of extend ... resend

    # ------------------------------------------------ undo (pbem.engine.rollback)

    def undo(self, game_id: str, *, why: str) -> dict:
        """Roll back the last resolved phase of ``game_id`` (pbem.engine.rollback): the state
        before it is restored, its window opens again with a new dice commitment and a
        deadline counted from now, the orders that were in force stay in force unless replaced,
        and every player gets a notice. ``why`` is required. Also for a paused game. Returns
        what :func:`pbem.engine.rollback.undo_last_phase` returns. NotFound for an unknown
        game; ActionRefused (CannotUndo) when no phase has been resolved yet, the game has
        ended, or the reason is missing."""
        from pbem.engine import admin
        from pbem.engine.rollback import undo_last_phase

        why = admin.check_why(why, required=True)
        with self._acting(game_id, "undo", running=False) as ctx:
            return undo_last_phase(ctx, why, self.clock(), self.entropy)
