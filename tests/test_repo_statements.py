"""pbem.store.repo's statements built once (issue 11): each lookup works whatever ran first in
the process, and a sealed value preloaded as a plain row is changed and removed in the
database, as one read through the ORM was."""

from __future__ import annotations

import pytest
from conftest import Player

from pbem.engine.creation import GameSpec
from pbem.store import repo
from pbem.store.base import built_once
from pbem.store.models import Message, Sealed


@pytest.fixture
def fresh_statements(monkeypatch):
    """The process as it starts: no statement built yet."""
    monkeypatch.setattr(repo, "_q", built_once(repo._statements))
    monkeypatch.setattr(repo, "_entity_q", built_once(repo._entity_statements))
    monkeypatch.setattr(repo, "_MAX_ID", {})


def test_new_ids_first_then_a_lookup(referee, fresh_statements):
    # the bug: new_ids (an ingest's first query) filled the table of built statements with its
    # own, so the game lookup after it found no statement named "game" (KeyError)
    with referee.db.write() as s:
        ids = repo.new_ids(s, Message.__table__, 2)
        assert ids is None or len(ids) == 2
        assert repo.get_game(s, "no-such-game") is None


def test_a_lookup_first_then_new_ids(referee, fresh_statements):
    with referee.db.write() as s:
        assert repo.get_game(s, "no-such-game") is None
        ids = repo.new_ids(s, Message.__table__, 3)
        assert ids is None or len(ids) == 3


@pytest.fixture
def game_with_state(referee):
    """A two-player hunt game (its state parts sealed, one row per owner): its id."""
    referee.new_game(GameSpec(ruleset="hunt", game_id="h1", options={},
                              players=tuple(Player(r, referee=referee).spec()
                                            for r in ("red", "blue"))))
    return "h1"


def _stored(referee, game_id, owner, purpose):
    with referee.db.read() as s:
        row = s.get(Sealed, (game_id, owner, purpose))
        return None if row is None else (row.version, row.blob)


def test_preloaded_sealed_rows_are_written_through(referee, game_with_state):
    gid = game_with_state
    with referee.db.write() as s:
        held = repo.preload_sealed(s, gid, ["state", "probe"])
        owner = next(o for (o, p) in held if p == "state")
        repo.put_sealed(s, gid, owner, "state", 99, b"new blob")
        repo.add_sealed(s, gid, "referee", "probe", 0, b"probe")
        assert repo.get_sealed(s, gid, owner, "state").blob == b"new blob"
        assert repo.get_sealed(s, gid, "referee", "probe").blob == b"probe"
    assert _stored(referee, gid, owner, "state") == (99, b"new blob")
    assert _stored(referee, gid, "referee", "probe") == (0, b"probe")
    with referee.db.write() as s:
        repo.preload_sealed(s, gid, ["probe"])
        assert repo.delete_sealed(s, gid, "referee", "probe") is True
        assert repo.get_sealed(s, gid, "referee", "probe") is None
    assert _stored(referee, gid, "referee", "probe") is None
