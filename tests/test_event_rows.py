"""Where a phase's events are kept (issue 11, "stored bytes per phase"; DESIGN.md, "Every fact has
an audience"): a public event is its line in the public log, a private event is in the report of
each reader it names (sealed for that reader), and neither gets an ``event`` row. Independent
checks: the ``event`` table is read with the database's own client; each private event's text
is found in its audience's text reports and in no other reader's; each public event is a log
line."""

from __future__ import annotations

import json
import random

from conftest import raw_connect
from gameplay import new_game, play

from pbem.engine import registry
from pbem.engine.ruleset import PUBLIC


def test_private_events_are_in_their_readers_reports_and_no_event_row(referee, clock,
                                                                      monkeypatch):
    from pbem.engine import gamestate

    seen = []  # every event the phases resolved, as the engine handed them on
    real = gamestate.GameContext.log_events

    def keep(self, events, now, phase_id):
        seen.extend((self.game.id, phase_id, e) for e in events)
        return real(self, events, now, phase_id)

    monkeypatch.setattr(gamestate.GameContext, "log_events", keep)
    rs = registry.get("atlantis")
    roles = rs.role_names[:rs.max_roles]
    players = new_game(referee, "atlantis", roles, "a1")
    done = []

    def after(resolved):
        done.append(resolved)
        if len(done) == 3:
            raise StopIteration

    try:
        play(referee, clock, players, "a1", random.Random(5), after_phase=after)
    except StopIteration:
        pass
    with raw_connect(referee.home.url) as con:
        assert con.execute("SELECT count(*) FROM event").fetchall()[0][0] == 0
    private = [e for _, _, e in seen if PUBLIC not in e.audience]
    assert private, "the setup deals each player a private fact (the values of their people)"
    texts = [(r["role"], " ".join(r["body"].split()))  # the report wraps lines
             for r in referee.all_reports("a1") if r["fmt"] == "text"]
    for e in private:
        text = " ".join(e.text.split())
        holders = {role for role, body in texts if text in body}
        assert holders == set(e.audience), (e, holders)
    logged = [json.loads(x) for x in referee.log_lines("a1")]
    public = [e for _, _, e in seen if PUBLIC in e.audience]
    assert public
    lines = {(o["kind"], o["text"]) for o in logged if o["type"] == "event"}
    assert all((e.kind, e.text) in lines for e in public)
