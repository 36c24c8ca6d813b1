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

from pbem.engine.gamestate import GameContext, dice_seed_purpose, game_schedule, reader_zone
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


@dataclass
class Postponed:
    """A window the downtime guard did not resolve (docs/deadlines.md): its closing time
    passed while ``pbem process`` did not run from ``idle_since`` (UTC, or None: never) to now;
    its deadline was moved to ``deadline`` (UTC) and the players were told."""

    game: str
    phase: str
    deadline: datetime
    idle_since: datetime | None
    missing: list = field(default_factory=list)


@dataclass
class Reminded:
    """Reminders queued for a window: to ``roles`` (owing orders, none sent), ``lead`` seconds
    before the deadline."""

    game: str
    phase: str
    roles: list
    lead: int


LAST_RUN_SETTING = "last_process_at"
"""The setting holding when ``pbem process`` last ran (ISO 8601 UTC): the downtime guard's
evidence that the judge was running."""


def is_ready(window: Window, held: list, phase, schedule, now: datetime) -> bool:
    """True when the window ``phase`` (a Phase row) may be resolved at ``now`` under
    ``schedule`` (pbem.engine.schedule.Schedule) with the order sets ``held`` (OrderSet rows in
    force): its closing time (deadline + grace) has passed; or every owed role has orders in
    and the deadline has passed; or every owed role has orders in, the game closes windows
    early, no order set says ``wait: yes``, the window has been open ``min_window`` seconds
    (docs/deadlines.md), and no owed role's orders are only carried over from a phase the
    referee undid (received before the window opened: they stand at the deadline, but the
    players are given until then to replace them; pbem.engine.rollback)."""
    from datetime import timedelta

    if now >= schedule.closes_at(phase.deadline_at):
        return True
    if not set(window.owed) <= {o.role for o in held}:
        return False
    if now >= phase.deadline_at:
        return True
    return (schedule.close_early and not any(o.wait for o in held)
            and now >= phase.opened_at + timedelta(seconds=schedule.min_window)
            and all(o.received_at >= phase.opened_at for o in held if o.role in window.owed))


def process(db, sealer, *, now: datetime, entropy, game_id: str | None = None,
            force: bool = False, accept_late: bool = False) -> list:
    """Resolve every ready phase (of ``game_id`` only, if given), queue the reminders that are
    due, and apply the downtime guard; paused games are left alone. ``force`` resolves the
    game's open phase even if orders are missing and the deadline is ahead (the referee's
    decision, NMR for the missing); ``accept_late`` resolves windows the downtime guard would
    postpone. Returns :class:`Resolved`, :class:`Postponed` and :class:`Reminded` items in
    order. Records the run's time first (setting ``last_process_at``). One worker, in this
    process: :func:`pbem.engine.workers.process_due`, which also runs several."""
    from pbem.engine.workers import process_due

    return process_due(db, sealer, now=now, entropy=entropy, game_id=game_id, force=force,
                       accept_late=accept_late)


def start_run(db, now: datetime, game_id: str | None = None) -> tuple[datetime | None, list]:
    """Record ``now`` as the time of this ``pbem process`` run and list what it looks at, in
    one transaction: ``(the previous run's time (None: never), the due games)``. The
    downtime guard compares windows with the first; the second are the ids of the games with
    an open window, the oldest deadline first (``game_id``, if given: that game, which
    :func:`process_game` finds has an open window or not), each to be handled once. Called
    once per run (by the parent, when several workers share the run). On SQLite a run of one
    named game records itself in that game's transaction instead
    (:func:`process_named_game`). Raises NotFound for a ``game_id`` that is no game."""
    with db.write(orm=False) as s:  # the run's record: one writer at a time (DESIGN.md "Storage")
        previous = _record_run(s, now, game_id)
        if game_id is not None:
            return previous, [game_id]
        return previous, list(dict.fromkeys(p.game_id for p in repo.open_phases(s)))


def process_game(db, sealer, gid: str, *, now: datetime, entropy, force: bool = False,
                 accept_late: bool = False, last_run: datetime | None,
                 wait_lock: bool = False) -> list | None:
    """Handle game ``gid`` in ONE write transaction (DESIGN.md, "Storage"): claim it (on
    PostgreSQL ``FOR UPDATE SKIP LOCKED``, or with ``wait_lock`` wait for the lock), then
    resolve its open window if it is ready, and the window that opens after it while that one
    is ready at once, or postpone it (downtime guard), or queue its due reminders. Returns the
    results in order (empty: nothing to do), or None when another transaction holds the game
    (another worker is on it) or it does not exist. ``last_run``: the first value of
    :func:`start_run`. ``entropy`` may offer ``for_phase(game_id, seq)``, the entropy to draw this game's new
    seeds from (tests and replays: the bytes a game gets then do not depend on which worker
    takes it, or in which order)."""
    return _process_one(db, sealer, gid, now=now, entropy=entropy, force=force,
                        accept_late=accept_late, last_run=last_run, wait_lock=wait_lock)


def process_named_game(db, sealer, gid: str, *, now: datetime, entropy, force: bool = False,
                       accept_late: bool = False) -> list | None:
    """``pbem process GAME`` on SQLite: a run of one game, whose record (:func:`start_run`)
    is made in the game's own write transaction, not one of its own before it (SQLite's one
    writer serialises them; on PostgreSQL two runs would each insert the record, or one would
    hold it for a whole game, so there the run is recorded apart). Returns as
    :func:`process_game`; raises NotFound for a ``gid`` that is no game (nothing is
    written)."""
    return _process_one(db, sealer, gid, now=now, entropy=entropy, force=force,
                        accept_late=accept_late, last_run=None, record_run=True)


def _record_run(s, now: datetime, gid: str | None = None,
                claimed: bool = False) -> datetime | None:
    """Record ``now`` as the run's time inside the caller's transaction and return the
    previous run's time (None: never). ``gid``: the one game the run is of, which must exist
    (NotFound) unless ``claimed`` (the caller holds it)."""
    from pbem.engine.errors import NotFound
    from pbem.engine.headers import format_time, parse_issued

    if gid is not None and not claimed and not repo.game_exists(s, gid):
        raise NotFound(f"no game {gid!r} (see `pbem status`)")
    held = repo.swap_setting(s, LAST_RUN_SETTING, format_time(now))
    return parse_issued(held) if held else None


def _process_one(db, sealer, gid: str, *, now, entropy, force, accept_late, last_run,
                 wait_lock: bool = False, record_run: bool = False) -> list | None:
    """:func:`process_game` (this name is what bench/bench_phase.py times); with
    ``record_run``, :func:`process_named_game`."""
    # PostgreSQL: writers of other games run at once; one of this game is skipped, not waited
    # for. The game is looked at through Core statements first (Records), and through the ORM
    # only when there is something to do: a cron run that finds nothing due loads no ORM.
    with db.write(games=[gid], skip_busy=not wait_lock, orm=False) as core:
        game = repo.claim_game(core, gid, wait=wait_lock)
        if record_run:
            last_run = _record_run(core, now, gid, game is not None)
        if game is None:
            return None
        if game.status != "active" or game.paused_at is not None:
            return []
        phase = repo.open_phase(core, gid)
        if phase is None:
            return []
        window = Window.from_json(json.loads(phase.window_json))
        held = repo.accepted_orders(core, gid, phase.seq)
        if not force and _idle(game, phase, window, held, now):
            return []
        s = core.orm  # the same transaction, the game already claimed: its rows as objects
        game, phase = repo.get_game(s, gid), repo.open_phase(s, gid)
        held = repo.accepted_orders(s, gid, phase.seq)
        for_phase = getattr(entropy, "for_phase", None)
        if for_phase is not None:
            entropy = for_phase(gid, phase.seq)
        results: list = []
        for _ in range(1000):  # a window ready at once after another (rare) is taken too
            step, nxt = _step(s, sealer, game, phase, window, held, now=now, entropy=entropy,
                              force=force, accept_late=accept_late, last_run=last_run)
            results.extend(step)
            if nxt is None:
                break
            # the window just opened holds no orders yet (its seq is new) and no reminder can
            # be due at its opening (schedule.reminders_due): only readiness is left to check
            phase, held, force = nxt, [], False
            window = Window.from_json(json.loads(nxt.window_json))
        return results


def _idle(game, phase, window: Window, held: list, now: datetime) -> bool:
    """True when :func:`_step` would do nothing for the open window at ``now``: it is not
    ready (:func:`is_ready`) and no reminder is due (:func:`_remind`)."""
    from pbem.engine.schedule import reminders_due

    schedule = game_schedule(game)
    if is_ready(window, held, phase, schedule, now):
        return False
    sent = json.loads(phase.reminded_json or "[]")
    return not reminders_due(phase.opened_at, phase.deadline_at, schedule.remind, sent, now)


def _step(s, sealer, game, phase, window, held, *, now, entropy, force, accept_late,
          last_run) -> tuple[list, object]:
    """One window of :func:`_process_one`, inside its transaction: (results, the Phase row of
    the window the resolution opened when the game goes on, else None)."""
    from pbem.engine.schedule import downtime_guard, missed_by_downtime

    schedule = game_schedule(game)
    if not force and not is_ready(window, held, phase, schedule, now):
        return _remind(s, sealer, game, phase, window, held, schedule, now), None
    missing = [r for r in window.owed if r not in {o.role for o in held}]
    guard = downtime_guard(schedule.grace)
    closes = schedule.closes_at(phase.deadline_at)
    if (not force and missing and not accept_late
            and missed_by_downtime(closes, last_run, now, guard)):
        return [_postpone(s, sealer, game, phase, missing, {o.role for o in held},
                          last_run, now, guard)], None
    ctx = GameContext.load(s, sealer, game)
    # the phase's changes to ORM rows (game, phase, sealed) are written in one flush when the
    # transaction ends or the next window is looked at, not before each query it makes: its
    # queries read only what Core statements have written (events, reports, mail, log) or
    # what the session holds (pbem.store.repo.preload_sealed)
    with s.no_autoflush:
        resolved, nxt = _resolve(ctx, phase, window, held, now=now, entropy=entropy,
                                 forced=force)
    return [resolved], (None if resolved.ended else nxt)


def _postpone(s, sealer, game, phase, missing, held, last_run, now, guard) -> Postponed:
    """The downtime guard: move the deadline to ``now`` + ``guard`` seconds, log it and tell
    every player why."""
    from datetime import timedelta

    from pbem.engine.headers import format_time
    from pbem.engine.notices import queue_notices, record_action

    ctx = GameContext(s, sealer, game, repo.players(s, game.id), None, None, None)
    old = phase.deadline_at
    phase.deadline_at = now + timedelta(seconds=guard)
    s.add(phase)
    since = format_time(last_run) if last_run else "the window's opening"
    why = (f"the judge did not run from {since} to {format_time(now)}, past this window's "
           f"closing time: missing orders are not treated as NMR after an outage")
    record_action(ctx, "deadline-moved", why, now, phase=phase.phase_id,
                  old_deadline=format_time(old), deadline=format_time(phase.deadline_at))
    ctx.flush()
    queue_notices(s, sealer, game, ctx.players, kind="notice",
                  subject=f"turn {phase.turn} {phase.name}: deadline moved",
                  text=lambda p: _postpone_text(game, phase, p, old, since, now, missing, held),
                  now=now)
    return Postponed(game.id, phase.phase_id, phase.deadline_at, last_run, missing)


def _postpone_text(game, phase, player, old, since, now, missing, held) -> str:
    from pbem.engine.headers import format_time
    from pbem.engine.schedule import format_when

    if player.role in missing:
        yours = "Your orders for this window have not arrived: please send them before then.\n"
    elif player.role in held:
        yours = "Your orders for this window are in; you may still replace them.\n"
    else:
        yours = "You owe no orders for this window.\n"
    return (f"Game {game.id}, turn {phase.turn} {phase.name} (window {phase.phase_id}).\n\n"
            f"The judge did not run from {since} to {format_time(now)}, and this window's "
            f"deadline ({format_when(old, reader_zone(game, player))}) passed meanwhile. So that nobody is "
            "treated as having sent no orders because of the outage, the deadline has been "
            f"moved to:\n\n    {format_when(phase.deadline_at, reader_zone(game, player))}\n\n"
            + yours)


def _remind(s, sealer, game, phase, window, held, schedule, now) -> list:
    """Queue the reminders that are due for the open window (docs/deadlines.md): one mail per
    window and lead time to each role that owes orders and has sent none, with the deadline
    in UTC and the player's zone, the hours left and the order template."""
    from pbem.engine.schedule import reminders_due

    sent = json.loads(phase.reminded_json or "[]")
    due = reminders_due(phase.opened_at, phase.deadline_at, schedule.remind, sent, now)
    if not due:
        return []
    phase.reminded_json = json.dumps(sorted(set(sent) | set(due)))
    s.add(phase)
    roles = [r for r in window.owed if r not in {o.role for o in held}]
    if not roles:
        return []
    from pbem.engine.notices import queue_notices

    ctx = GameContext.load(s, sealer, game)
    queue_notices(s, sealer, game, ctx.players, kind="reminder", roles=roles,
                  subject=f"reminder: your orders for turn {phase.turn} {phase.name} are due",
                  text=lambda p: _reminder_text(ctx, phase, window, p, now), now=now)
    return [Reminded(game.id, phase.phase_id, roles, min(due))]


def _reminder_text(ctx, phase, window, player, now) -> str:
    from pbem.engine.schedule import format_when
    from pbem.reports.context import order_header

    game = ctx.game
    left = (phase.deadline_at - now).total_seconds() / 3600
    referee_fp = ctx.sealer.referee_signing_key(game.id).public_key().fingerprint
    template = (order_header(game.id, window.turn, window.phase, player.role, referee_fp) + "\n"
                + ctx.ruleset.template(ctx.role_state(player.role), player.role).rstrip("\n")
                + "\n")
    return (f"Game {game.id}: your orders for turn {window.turn} {window.phase} have not "
            f"arrived yet.\n\nDeadline: {format_when(phase.deadline_at, reader_zone(game, player))}\n"
            f"Time left: about {left:.0f} hours.\n\n"
            "Fill in the template below, sign it (`pbem sign orders.txt --key YOU.key`, or "
            "`ssh-keygen -Y sign -n pbem-orders`) and mail it back.\n\n" + template)


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
                  entropy, forced: bool = False) -> Resolved:
    """Resolve ``phase`` of the game in ``ctx`` inside the caller's transaction. ``forced``:
    the referee closed the window before it was ready (said in the NMR event). Roles whose
    orders arrived after the deadline (in the grace) are named in a public ``late`` event."""
    return _resolve(ctx, phase, window, held, now=now, entropy=entropy, forced=forced)[0]


def _resolve(ctx: GameContext, phase, window: Window, held, *, now: datetime, entropy,
             forced: bool = False) -> tuple[Resolved, object]:
    """:func:`resolve_phase`, also returning the Phase row of the window it opened (None when
    the game ended)."""
    from pbem.dice import DiceStream
    from pbem.engine.publish import publish_phase
    from pbem.engine.rollback import seal_snapshot, snapshot_before

    before = snapshot_before(ctx)  # the state before the phase, for `pbem game undo`
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
    closes = game_schedule(ctx.game).closes_at(phase.deadline_at)
    late = {o.role: o.received_at > closes for o in held if o.received_at > phase.deadline_at}
    _announce_missing(resolution.events, nmr, late, phase, closes, forced, now)

    for row in held:
        ctx.log("orders-used", now, phase=phase.phase_id, role=row.role,
                commit=commits[row.role])
    ctx.log_rolls(public, phase.phase_id, now)
    ctx.log_rolls(hidden, phase.phase_id, now, hidden=True)
    ctx.log_events(resolution.events, now, phase.phase_id)
    reveal = {"phase": phase.phase_id, "seed": seed.hex(), "nonces": dict(sorted(nonces.items()))}
    ctx.log("dice-reveal", now, **reveal)
    ctx.log("phase-resolved", now, phase=phase.phase_id, nmr=nmr)
    phase.status = "resolved"
    phase.resolved_at = now
    phase.nmr_json = json.dumps(nmr)
    ctx.session.add(phase)
    ctx.save_state()
    seal_snapshot(ctx, phase, before)
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
                    next_phase.phase_id if next_phase else None), next_phase


def _announce_missing(events: list, nmr: list, late: dict, phase, closes: datetime,
                      forced: bool, now: datetime) -> None:
    """Put the public ``nmr`` and ``late`` events first in ``events``: every report says who
    sent nothing and who was late (the njudge tradition), not only the referee's output.
    ``late`` maps each late role to whether its orders came even after the window closed
    (deadline + grace; taken because the judge had not yet resolved it: docs/deadlines.md)."""
    from pbem.engine.headers import format_time
    from pbem.engine.ruleset import Event

    if late:
        roles = sorted(late)
        within = [r for r in roles if not late[r]]
        after = [r for r in roles if late[r]]
        parts = []
        if within:
            parts.append(f"Orders of {', '.join(within)} arrived after the deadline "
                         f"({format_time(phase.deadline_at)}), within the grace period, and "
                         "were used.")
        if after:
            parts.append(f"Orders of {', '.join(after)} arrived after the window closed "
                         f"({format_time(closes)}) but before the judge resolved it, and were "
                         "used.")
        events.insert(0, Event("late", " ".join(parts), data={"roles": roles}))
    if nmr:
        deadline = format_time(phase.deadline_at)
        when = (f"the referee closed the window before its deadline ({deadline})"
                if forced and now < phase.deadline_at else f"the deadline ({deadline}) passed")
        events.insert(0, Event(
            "nmr", f"No orders were received from {', '.join(nmr)} (NMR): {when}, and the "
            "rules' provision for missing orders was applied.", data={"roles": nmr}))


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
    from pbem.store import loglines  # only the lines read below: a long log is not loaded whole

    lines = [json.loads(line) for line in loglines.matching(  # prev unread: exact=False
        ctx.session, game.id, loglines.REVEAL_NEEDLES, ctx.new_lines, exact=False)]
    # A phase id appears more than once when the phase was undone and opened again (pbem game
    # undo): each dice-commit of it starts a stream of its own, keyed with the nonces of its own
    # dice-reveal (docs/dice.md, "Undo"). (phase, n): the n-th commitment of the phase.
    commits, nonces, hidden_rolls = {}, {}, []
    for obj in lines:
        kind = obj.get("type")
        if kind == "dice-commit":
            commits[obj["phase"]] = commits.get(obj["phase"], 0) + 1
        elif kind == "dice-reveal":
            nonces[obj["phase"], commits.get(obj["phase"], 0)] = obj["nonces"]
        elif kind == "roll" and obj.get("stream") == "hidden":
            hidden_rolls.append(((obj["phase"], commits.get(obj["phase"], 0)), obj))
    for key, obj in hidden_rolls:
        stream = streams.get(key)
        if stream is None:  # keyed like the phase's public stream (docs/dice.md)
            stream = streams[key] = DiceStream(hidden_seed, game.id, key[0], nonces.get(key, {}),
                                               hidden=True)
        values.append(stream.roll(obj["sides"], obj["why"]))
    ctx.log("hidden-reveal", now, seed=hidden_seed.hex(), values=values)
    if ctx.has_secret("setup-salt"):
        salt = ctx.get_secret("setup-salt")
        initial = json.loads(ctx.hidden_setup())
        ctx.log("setup-reveal", now, salt=salt.hex(), hidden=initial)
