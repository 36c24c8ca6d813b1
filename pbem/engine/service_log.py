"""The referee's reading of a game's public log (``pbem log``, the export, the outcome),
mixed into :class:`pbem.engine.service.Referee` (DESIGN.md, "The public log"; the log's storage
and its checks: pbem.store.loglines)."""

from __future__ import annotations

import json
import os
from pathlib import Path


class LogQueries:
    """Reading the public log of a game of the referee's database (a mixin of Referee: uses
    its ``db``, ``home`` and ``game``). Each read of a whole log checks it against the game
    (pbem.store.loglines.LogTampered when it was changed outside pbem)."""

    def log_lines(self, game_id: str) -> list[str]:
        """The game's public log, one JSON line per entry."""
        from pbem.store import repo

        self.game(game_id)
        with self.db.read() as s:
            return repo.log_lines(s, game_id)

    def iter_log_lines(self, game_id: str):
        """The game's public log, one JSON line per entry, read a batch at a time (a long
        log is never held whole: pbem.store.loglines); a generator holding a read transaction
        until it is exhausted or closed. NotFound for an unknown game, at once."""
        self.game(game_id)
        return self._iter_log(game_id)

    def _iter_log(self, game_id: str):
        from pbem.store import loglines

        with self.db.read() as s:
            yield from loglines.iter_lines(s, game_id)

    def export_log(self, game_id: str, path: Path | None = None) -> Path:
        """Write the public log to ``path`` (default ``HOME/games/ID/ID.jsonl``), streamed into
        a file beside it that replaces ``path`` only once the whole log has been read and
        checked: a log pbem refuses (LogTampered) leaves ``path`` as it was."""
        import tempfile

        lines = self.iter_log_lines(game_id)
        path = path or self.home.games_dir(game_id) / f"{game_id}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, part = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        try:
            with open(fd, "w", encoding="utf-8", newline="\n") as out:
                for line in lines:
                    out.write(line + "\n")
            os.chmod(part, 0o644)
            os.replace(part, path)
        except BaseException:
            Path(part).unlink(missing_ok=True)
            raise
        return path

    def outcome(self, game_id: str) -> dict | None:
        """The result of an ended game ``{"scores", "winners", "reason"}``, from its log (its
        last ``game-end`` line, found by the database)."""
        from pbem.store import loglines

        self.game(game_id)
        with self.db.read() as s:
            found = loglines.matching(s, game_id, ['"type":"game-end"'], exact=False)
        for line in reversed(found):
            obj = json.loads(line)
            if obj.get("type") == "game-end":
                return {"scores": obj["scores"], "winners": obj["winners"],
                        "reason": obj["reason"]}
        return None
