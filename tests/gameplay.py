"""Playing whole games through the engine in tests: random legal orders from each player's own
view, signed, ingested and processed, with some players missing deadlines (NMR)."""

from __future__ import annotations

import random

from conftest import Player, incoming

from pbem.engine.creation import GameSpec


def new_game(referee, ruleset: str, roles, game_id: str, options=None):
    players = {r: Player(r, seed=f"{game_id}/{r}", referee=referee) for r in roles}
    referee.new_game(GameSpec(ruleset=ruleset, game_id=game_id,
                              players=tuple(players[r].spec() for r in roles),
                              options=options or {}, referee_address="referee@judge.example"))
    return players


def play(referee, clock, players, game_id: str, rng: random.Random, *, nmr_rate=0.0,
         orders_for=None, after_phase=None, max_phases=500):
    """Play ``game_id`` to its end. ``orders_for(role, window)`` may return a fixed order body
    (None: the ruleset's bot chooses); ``after_phase(resolved)`` is called after each phase.
    Returns the list of (phase id, {role: order body}) actually sent."""
    from pbem.engine import registry

    sent = []
    for _ in range(max_phases):
        status = referee.status(game_id)[0]
        w = status["window"]
        if w is None:
            return sent
        rs = registry.get(status["ruleset"])
        bodies = {}
        for role in list(w["owed"]) + [r for r in w["optional"] if rng.random() < 0.2]:
            if rng.random() < nmr_rate:
                continue
            view, window = referee.view_and_window(game_id, role)
            body = orders_for(role, window) if orders_for else None
            if body is None:
                body = rs.bot_orders(view, window, role, rng)
            bodies[role] = body
            text = players[role].signed(game_id, window.turn, window.phase, body, issued=clock())
            verdicts = referee.ingest([incoming(text, f"{game_id}/{window.phase_id}/{role}")])
            assert [v.status for v in verdicts] == ["accepted"], [v.summary() for v in verdicts]
        sent.append((w["phase_id"], bodies))
        clock.advance(hours=1)
        done = referee.process(game_id)
        if not done:
            clock.advance(hours=80)  # past the deadline: NMR for the missing
            # no process run for 80 hours looks like an outage to the downtime guard
            # (docs/deadlines.md): the referee accepts the late window
            done = referee.process(game_id, accept_late=True)
        assert done, f"window {w['phase_id']} did not resolve"
        if after_phase:
            for d in done:
                after_phase(d)
    raise AssertionError(f"game {game_id} did not end in {max_phases} phases")
