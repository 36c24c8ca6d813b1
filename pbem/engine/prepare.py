"""Judging work done ahead, in the reader processes (issue 11: batch ingest at 1,500 mails a
second on 2 cores).

Most of what judging one signed order set costs depends on nothing but its text and the game's
position: the order header, the plain and keyed digests, the salted commitment of the public
log, and the orders parsed and checked against the sender's own role state. The reader
processes of :class:`pbem.engine.readpool.ReadPool` compute these right after reading a
message (:class:`Preparer`), so that the judge, the one process that must go through the
messages in order, keeps for itself only what depends on the order of arrival: duplicates,
stale and superseded orders, nonces, the public log, the receipt and the writes.

Nothing here decides a verdict. The judge takes a :class:`Prepared` value only where it is
exactly what it would compute itself (:func:`pbem.engine.accept.accept_orders`): the header and
digests always (they are functions of the text), the problems only when they were found
against the game state and window the judge holds (the :attr:`Snapshot.token`); anything
missing, failed or out of date the judge computes as before. The judge tells the readers a
game's position once it has judged a few order sets for it in a batch (pbem.engine.judge,
``SHARE_AFTER``: :meth:`Preparer.snapshot`), so the messages read after that are prepared
against it. Checking orders against a role state loaded once relies on the ruleset interface's
rule that ``check`` does not change the state it is given (docs/rulesets.md; tested for every
installed game by tests/test_check_leaves_the_state.py).

The readers are forks of the judge: they hold in memory what it held when they were forked (the
master key among it), so giving them the secret parts of a game's state exposes nothing they
could not read already. What they return is only ever used by the judge as described above.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.headers import HeaderError, OrderHeader, parse_header
from pbem.engine.ruleset import Parts, Window
from pbem.pickling import by_position

__all__ = ["Snapshot", "Prepared", "Preparer", "game_token"]


MAX_GAMES = 16
"""The games whose positions a reader keeps (the latest shared)."""


def game_token(game, phase) -> tuple:
    """What the state a role is judged against depends on: the game's ruleset and state
    version (every change of the state bumps it) and its open phase (sequence number and
    window); ``phase`` may be None (no open window)."""
    return (game.ruleset, game.state_version,
            phase.seq if phase is not None else None,
            phase.window_json if phase is not None else None)


@dataclass(frozen=True)
class Snapshot:
    """A game's position as the readers need it to check orders: ``token`` (:func:`game_token`),
    the open ``window`` and the ``parts`` each role's state is loaded from (the public part and
    every role's secret part; never the referee part)."""

    token: tuple
    window: Window
    parts: Parts


@by_position
@dataclass
class Prepared:
    """What a reader found for one signed order set (the ``text`` of a
    :class:`pbem.crypto.find.Signed`): its ``header`` (None when it does not parse: the judge
    parses it again for the error), ``plain`` (hex SHA-256 of the canonical text), ``digest``
    (:func:`pbem.engine.accept.order_digest`), the log's ``salt`` and ``commit``
    (:func:`pbem.engine.accept.orders_commitment`, for the header's game, phase and role) and
    the ``problems`` found parsing and checking the orders against the position ``token``
    (None when they were not looked for), and with them ``sealed``, the order set's row blob
    (:func:`pbem.engine.accept.seal_orders` for the header's game and role, the phase of
    ``token`` and ``digest``)."""

    header: OrderHeader | None
    plain: str
    digest: str
    salt: str | None = None
    commit: str | None = None
    token: tuple | None = None
    problems: list | None = None
    sealed: bytes | None = None


class Preparer:
    """Prepares the signed order sets of a read message (called in a reader process, after
    :func:`pbem.engine.reader.read_message`): ``prepared[i]`` for ``found[i]``, for the first
    ``most`` found. ``sealer`` gives the keyed digests (the readers are forks of the judge).
    :meth:`update` takes a ``(game_id, Snapshot)`` the judge shares."""

    def __init__(self, sealer, most: int):
        self.sealer, self.most = sealer, most
        self.games: dict[str, Snapshot] = {}
        self._states: dict[tuple, object] = {}

    def update(self, item: tuple[str, Snapshot]) -> None:
        """Take the position of a game (in the readers, and in the judge, which later readers
        are forked from); the :data:`MAX_GAMES` latest are kept."""
        game_id, snapshot = item
        self.games.pop(game_id, None)
        self.games[game_id] = snapshot
        while len(self.games) > MAX_GAMES:
            del self.games[next(iter(self.games))]
        self._states = {k: v for k, v in self._states.items() if k[0] in self.games
                        and k[0] != game_id}

    def snapshot(self, share, game_id: str, token: tuple, build) -> None:
        """The judge's side: give the readers (``share``: ReadPool.share) the position of
        ``game_id`` built by ``build()`` unless they have it at ``token`` already."""
        known = self.games.get(game_id)
        if known is None or known.token != token:
            share((game_id, build()))

    def __call__(self, msg) -> None:
        for i, signed in enumerate(msg.found[:self.most]):
            text = getattr(signed, "text", None)
            if text is not None:
                msg.prepared[i] = self.prepare(text)
                signed.public_key.fingerprint  # noqa: B018  (remembered by the key, sent along)

    def prepare(self, text: str) -> Prepared | None:
        """The :class:`Prepared` of a signed text, or None for one too long to judge."""
        from pbem.crypto.canonical import sha256_hex
        from pbem.engine.accept import (MAX_ORDERS_CHARS, order_digest, orders_commitment,
                                        seal_orders, sorted_problems)

        if len(text) > MAX_ORDERS_CHARS:
            return None
        out = Prepared(None, sha256_hex(text), order_digest(self.sealer, text))
        try:
            header = out.header = parse_header(text)
        except HeaderError:
            return out
        out.salt, out.commit = orders_commitment(self.sealer, header.game,
                                                 f"{header.turn}.{header.phase}", header.role,
                                                 text)
        snapshot = self.games.get(header.game)
        w = snapshot.window if snapshot is not None else None
        if w is None or (header.turn, header.phase) != (w.turn, w.phase) \
                or not w.accepts(header.role):
            return out
        try:
            from pbem.engine import registry

            rs = registry.get(snapshot.token[0])
            body = "\n".join(text.split("\n")[header.body_line - 1:])
            orders, problems = rs.parse(header.role, w, body, header.body_line)
            known = self._state(rs, header.game, snapshot, header.role)
            problems = sorted_problems(list(problems) + list(rs.check(known, header.role,
                                                                      orders)))
            sealed = seal_orders(self.sealer, header.game, header.role, snapshot.token[2],
                                 out.digest, text, problems)
        except Exception:  # the judge computes them again, and fails the same way
            return out
        out.token, out.problems, out.sealed = snapshot.token, problems, sealed
        return out

    def _state(self, rs, game_id: str, snapshot: Snapshot, role: str):
        from pbem.engine.gamestate import role_state

        key = (game_id, snapshot.token, role)
        state = self._states.get(key)
        if state is None:
            state = self._states[key] = role_state(rs, snapshot.parts, role)
        return state


def snapshot_of(ctx, window: Window, token: tuple) -> Snapshot:
    """The :class:`Snapshot` of an opened game (pbem.engine.gamestate.GameContext) at
    ``token``: its public part and every role's secret part (no referee part). The parts are
    shared with ``ctx``, which judging never changes."""
    return Snapshot(token, window, Parts(public=ctx.parts.public, secret=ctx.parts.secret,
                                         referee={}))
