"""How a phase's events are stored (issue 11, "stored bytes per phase"; DESIGN.md, "Every fact has
an audience"): a public event is its line in the public log and has no ``event`` row; the
private events of a phase are sealed for their audience, one row per audience, their JSON list
compressed. Independent checks: the rows are opened here with the sealer and zlib; each
private event's text is found in its reader's text report, and in no other reader's."""

from __future__ import annotations

import json
import random
import zlib

from conftest import raw_connect
from gameplay import new_game, play

from pbem.engine import registry


def test_private_events_are_sealed_one_row_per_audience(referee, clock):
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
        rows = con.execute("SELECT phase_seq, idx, audience, public_json, blob FROM event "
                           "WHERE game_id='a1' ORDER BY phase_seq, idx").fetchall()
    assert rows, "the setup deals each player a private fact"
    private = {}
    for seq, idx, audience, public_json, blob in rows:
        aud = json.loads(audience)
        assert "*" not in aud and public_json is None
        owner = aud[0] if len(aud) == 1 else "referee"
        events = json.loads(zlib.decompress(referee.sealer.open("a1", owner, f"event:{seq}",
                                                                idx, bytes(blob))))
        assert events and all(e["audience"] == aud for e in events)
        assert (seq, tuple(aud)) not in private  # one row per phase and audience
        private[seq, tuple(aud)] = events
    for seq in {r[0] for r in rows}:  # each row of a phase has its own number, from 0
        assert [r[1] for r in rows if r[0] == seq] == list(range(sum(r[0] == seq for r in rows)))
    texts = {(r["seq"], r["role"]): " ".join(r["body"].split())  # the report wraps lines
             for r in referee.all_reports("a1") if r["fmt"] == "text"}
    for (seq, aud), events in private.items():
        for e in events:
            for role in roles:
                body = texts.get((seq, role), "")
                assert (" ".join(e["text"].split()) in body) == (role in aud), (seq, role, e)
    # the public events are log lines, not rows
    logged = [json.loads(x) for x in referee.log_lines("a1")]
    assert any(o["type"] == "event" for o in logged)
