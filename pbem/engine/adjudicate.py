"""The adjudication loop: resolve every window whose orders are all in or whose deadline has
passed (DESIGN.md, "Data flow").

Resolving one phase is one transaction: decrypt the state, read the orders in force, re-derive
the phase's dice from its sealed seed and the accepted nonces, let the ruleset resolve, log the
rolls, public events and the seed, save the state, open the next window (or end the game and
reveal everything hidden), render every report and queue the mail. A crash leaves the phase
unresolved; re-running resolves it with the same seed and orders to the same result. Roles
owing orders that sent none are NMR: the ruleset applies its documented default.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from pbem.engine.gamestate import GameContext, dice_seed_purpose
from pbem.engine.headers import parse_header
from pbem.engine.ruleset import Chance, Window
from pbem.store import repo


@dataclass
class Resolved:
    """One resolved phase: its game and id, the roles that sent nothing, whether it ended the
    game, and the next window (``"3.green"``) if any."""

    game: str
    phase: str
    nmr: list = field(default_factory=list)
    ended: bool = False
    next_phase: str | None = None


def is_ready(window: Window, held_roles: set, deadline: datetime, now: datetime) -> bool:
    """True when every owed role has orders in force or the deadline has passed."""
    return set(window.owed) <= held_roles or now >= deadline


def process(db, sealer, *, now: datetime, entropy, game_id: str | None = None,
            force: bool = False) -> list[Resolved]:
    """Resolve every ready phase (of ``game_id`` only, if given); ``force`` resolves the game's
    open phase even if orders are missing and the deadline is ahead (the referee's decision,
    NMR for the missing). Returns what was resolved, in order."""
    done: list[Resolved] = []
    with db.read() as s:
        candidates = sorted({p.game_id for p in repo.open_phases(s)
                             if game_id is None or p.game_id == game_id})
    for gid in candidates:
        for _ in range(1000):  # a window that is ready at once after another (rare) is taken too
            result = _process_one(db, sealer, gid, now=now, entropy=entropy, force=force)
            if result is None:
                break
            done.append(result)
            force = False
            if result.ended:
                break
    return done


def _process_one(db, sealer, gid: str, *, now, entropy, force) -> Resolved | None:
    with db.write() as s:
        game = repo.get_game(s, gid, lock=True)
        if game is None or game.status != "active":
            return None
        phase = repo.open_phase(s, gid)
        if phase is None:
            return None
        window = Window.from_json(json.loads(phase.window_json))
        held = repo.accepted_orders(s, gid, phase.seq)
        if not force and not is_ready(window, {o.role for o in held}, phase.deadline_at, now):
            return None
        ctx = GameContext.load(s, sealer, game)
        return resolve_phase(ctx, phase, window, held, now=now, entropy=entropy)


def _read_orders(ctx, phase, window, held):
    """Parse the orders in force: ({role: orders}, {role: problems}, {role: nonce},
    {role: commit}) — the commit as the public log's ``orders`` line has it (docs/log.md)."""
    from pbem.engine.accept import orders_commitment, orders_purpose

    orders, problems, nonces, commits = {}, {}, {}, {}
    for row in held:
        data = json.loads(ctx.sealer.open(ctx.game.id, row.role,
                                          orders_purpose(phase.seq, row.digest), 0, row.blob))
        text = data["text"]
        header = parse_header(text)
        body = "\n".join(text.split("\n")[header.body_line - 1:])
        parsed, found = ctx.ruleset.parse(row.role, window, body, header.body_line)
        orders[row.role] = parsed
        problems[row.role] = list(found)
        nonces[row.role] = row.nonce
        commits[row.role] = orders_commitment(ctx.sealer, ctx.game.id, phase.phase_id, row.role,
                                              text)[1]
    return orders, problems, nonces, commits


def resolve_phase(ctx: GameContext, phase, window: Window, held, *, now: datetime,
                  entropy) -> Resolved:
    """Resolve ``phase`` of the game in ``ctx`` inside the caller's transaction."""
    from pbem.dice import DiceStream
    from pbem.engine.publish import publish_phase

    game, rs = ctx.game, ctx.ruleset
    orders, problems, nonces, commits = _read_orders(ctx, phase, window, held)
    seed = ctx.get_secret(dice_seed_purpose(phase.seq))
    hidden_seed = ctx.get_secret("hidden-seed")
    public = DiceStream(seed, game.id, phase.phase_id, nonces)
    hidden = DiceStream(hidden_seed, game.id, phase.phase_id, nonces, hidden=True)

    resolution = rs.resolve(ctx.state, orders, Chance(public, hidden))
    for role, found in resolution.problems.items():
        problems.setdefault(role, []).extend(found)
    nmr = [r for r in window.owed if r not in orders]
    if nmr:  # every report says so, not only the referee's command line
        from pbem.engine.ruleset import Event

        resolution.events.insert(0, Event(
            "nmr", f"No orders were received from {', '.join(nmr)} (NMR): the window was "
            "resolved at its deadline as the rules provide for missing orders.", data={"roles": nmr}))

    for row in held:
        ctx.log("orders-used", now, phase=phase.phase_id, role=row.role,
                commit=commits[row.role])
    ctx.log_rolls(public, phase.phase_id, now)
    ctx.log_rolls(hidden, phase.phase_id, now, hidden=True)
    ctx.store_events(phase.seq, resolution.events, now, phase.phase_id)
    reveal = {"phase": phase.phase_id, "seed": seed.hex(), "nonces": dict(sorted(nonces.items()))}
    ctx.log("dice-reveal", now, **reveal)
    ctx.log("phase-resolved", now, phase=phase.phase_id, nmr=nmr)
    phase.status = "resolved"
    phase.resolved_at = now
    phase.nmr_json = json.dumps(nmr)
    ctx.session.add(phase)
    ctx.save_state()
    if hidden.rolls and not ctx.has_secret("setup-salt"):
        ctx.commit_hidden_setup(now, entropy)  # the hidden setup was dealt in this window

    outcome = rs.outcome(ctx.state)
    next_phase = None
    if outcome is not None:
        _end_game(ctx, outcome, now)
    else:
        next_phase = ctx.open_phase(rs.window(ctx.state), now, entropy)
    publish_phase(ctx, reported=phase, events=resolution.events, rolls=public.rolls,
                  reveal=reveal, problems=problems, next_phase=next_phase, now=now,
                  outcome=outcome)
    ctx.flush()
    return Resolved(game.id, phase.phase_id, nmr, outcome is not None,
                    next_phase.phase_id if next_phase else None)


def _end_game(ctx: GameContext, outcome, now: datetime) -> None:
    """Log the result and reveal the hidden seed (with every hidden roll's value) and the
    initial hidden setup with its salt (DESIGN.md, "The public log")."""
    game = ctx.game
    game.status = "ended"
    ctx.session.add(game)
    ctx.log("game-end", now, scores=outcome.scores, winners=list(outcome.winners),
            reason=outcome.reason)
    reveal_hidden(ctx, now)


def reveal_hidden(ctx: GameContext, now: datetime) -> None:
    """Log the end-of-game reveals: the hidden seed with every hidden roll's value
    (``hidden-reveal``) and the initial hidden setup with its salt (``setup-reveal``), so that
    every player can check them (DESIGN.md, "The public log"). Used at a normal end and when
    the referee abandons a game (``pbem game end``)."""
    from pbem.dice import DiceStream

    game = ctx.game
    hidden_seed = ctx.get_secret("hidden-seed")
    values, streams = [], {}
    lines = [json.loads(line) for line in repo.log_lines(ctx.session, game.id) + ctx.new_lines]
    nonces = {obj["phase"]: obj["nonces"] for obj in lines if obj.get("type") == "dice-reveal"}
    for obj in lines:
        if obj.get("type") == "roll" and obj.get("stream") == "hidden":
            stream = streams.get(obj["phase"])
            if stream is None:  # keyed like the phase's public stream (docs/dice.md)
                stream = streams[obj["phase"]] = DiceStream(
                    hidden_seed, game.id, obj["phase"], nonces.get(obj["phase"], {}), hidden=True)
            values.append(stream.roll(obj["sides"], obj["why"]))
    ctx.log("hidden-reveal", now, seed=hidden_seed.hex(), values=values)
    if ctx.has_secret("setup-salt"):
        salt = ctx.get_secret("setup-salt")
        initial = json.loads(ctx.get_secret("setup-hidden"))
        ctx.log("setup-reveal", now, salt=salt.hex(), hidden=initial)
