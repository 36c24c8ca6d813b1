"""Undoing the last resolved phase (``pbem game undo``; DESIGN.md, "Referee actions").

Before a phase resolves, :func:`snapshot_before` takes the state as it stands, and once the
phase has saved the state it leaves, :func:`seal_snapshot` seals it for the referee (owner
``referee``, purpose ``undo:SEQ``): one JSON value holding the public part, every role's secret
part, the referee part, and whether the hidden setup had been committed yet, compressed with
zlib against the public part the phase left (an Atlantis position: 11 KB of JSON, a few hundred
bytes sealed). Resolving overwrites the state; the snapshot is what an undo puts back.

:func:`undo_last_phase` rolls the last resolved phase back, inside the caller's transaction:

- the state before the phase is restored (sealed anew under a new state version);
- the window that its resolution opened is cancelled (status ``cancelled``; orders sent for it
  are void) and its never-used dice seed is revealed (a ``dice-reveal`` with the nonces of the
  orders it held, as ``pbem game end`` does), so that every commitment in the log is closed;
- if the phase dealt the hidden setup (its ``setup-commit`` followed its ``dice-reveal``), the
  sealed setup salt and setup are removed: the redo deals and commits the setup again;
- the undone phase row gets status ``undone``, and its window opens again as a new phase row
  (the next seq, the same phase id) with a new dice seed and commitment (the old seed is
  public: reusing it would let a player choose orders knowing the dice) and a deadline counted
  from now by the game's schedule;
- the order sets in force for the undone phase are copied to the new phase (re-sealed under
  the new seq) and logged again as ``orders`` lines with ``"carried": true``: they stay in force
  unless their sender replaces them, as usual (a later ``issued``, a fresh nonce). They keep their
  time of receipt, before the window reopened, so they do not close it early
  (pbem.engine.adjudicate.is_ready): the players have until the deadline to replace them, and
  the referee who wants the redo at once runs ``pbem process --game GAME --force``;
- the public log gets ``{"type": "referee", "action": "undo", ...}`` (docs/log.md), the
  cancelled window's ``dice-reveal``, then the new ``phase-open`` and ``dice-commit`` and the
  carried ``orders``; every player gets a notice.

A game that has ended is refused: its hidden seed and hidden setup were revealed at the end,
so whoever read them could steer a redo (docs/log.md, "Undo").
"""

from __future__ import annotations

import json
import zlib
from datetime import datetime

from pbem.engine import storedjson
from pbem.engine.admin import ActionRefused
from pbem.engine.ruleset import REFEREE, Parts, Window
from pbem.store import repo

SETUP_SECRETS = ("setup-salt", "setup-hidden")
"""The sealed purposes of the committed hidden setup (GameContext.commit_hidden_setup)."""


class CannotUndo(ActionRefused):
    """The game has no phase that can be undone (none resolved, the game ended, no snapshot)."""


def snapshot_purpose(seq: int) -> str:
    """Sealed-row purpose of the state before phase ``seq`` resolved."""
    return f"undo:{seq}"


def snapshot_before(ctx) -> str:
    """The state of the game in ``ctx`` (a GameContext as loaded, before a phase resolves) with
    whether the hidden setup has been committed yet, as the JSON text :func:`read_snapshot`
    gives back: what :func:`undo_last_phase` restores. Taken at the start of
    ``resolve_phase``, sealed at its end (:func:`seal_snapshot`)."""
    parts = ctx.parts
    # The public part is stored as canonical JSON on the game row already: embedded as it is.
    return ('{"v":1,"public":' + ctx.game.public_state
            + ',"secret":' + storedjson.dumps(parts.secret, sort_keys=True).decode("utf-8")
            + ',"referee":' + storedjson.dumps(parts.referee, sort_keys=True).decode("utf-8")
            + ',"setup_committed":' + ("true" if ctx.has_secret("setup-salt") else "false")
            + "}")


def seal_snapshot(ctx, phase, data: str) -> None:
    """Seal ``data`` (:func:`snapshot_before`) for the referee as the snapshot of ``phase``,
    once the phase has saved the state it leaves: compressed with zlib, that state's public
    part as the preset dictionary (the two differ in a few pieces: 2.3 KB a phase sealed
    without it, a few hundred bytes with it). :func:`read_snapshot` gives it back while the
    game's state is the one this phase left, which it is whenever the phase can be undone
    (only the last resolved phase can)."""
    game = ctx.game
    z = zlib.compressobj(6, zdict=game.public_state.encode())
    blob = ctx.sealer.seal(game.id, REFEREE, snapshot_purpose(phase.seq), 0,
                           z.compress(data.encode()) + z.flush())
    repo.add_sealed(ctx.session, game.id, REFEREE, snapshot_purpose(phase.seq), 0, blob)


def read_snapshot(ctx, seq: int) -> dict:
    """The state before phase ``seq`` resolved, as :func:`seal_snapshot` sealed it:
    ``{"v", "public", "secret", "referee", "setup_committed"}``. A snapshot sealed by a pbem
    before issue 11 was compressed without a dictionary (zlib's FDICT flag tells). Raises
    CannotUndo when the game's state is no longer the one the phase left (zlib's check of the
    dictionary fails)."""
    raw = ctx.get_secret(snapshot_purpose(seq))
    if len(raw) < 2 or not raw[1] & 0x20:  # RFC 1950: FLG bit 5, a preset dictionary
        return storedjson.loads(zlib.decompress(raw))
    z = zlib.decompressobj(zdict=ctx.game.public_state.encode())
    try:
        return storedjson.loads(z.decompress(raw) + z.flush())
    except zlib.error:
        raise CannotUndo(f"the state of game {ctx.game.id} is no longer the one phase {seq} "
                         "left, which its snapshot was sealed against; it cannot be undone"
                         ) from None


def last_resolved(session, game_id: str):
    """The game's last resolved phase (a Phase row), or None."""
    done = [p for p in repo.phases(session, game_id) if p.status == "resolved"]
    return done[-1] if done else None


def check_undoable(ctx, log_lines: list[str] | None = None):
    """The phase ``undo`` would roll back (the last resolved one), or :class:`CannotUndo`
    saying why not: the game has ended (its hidden seed and setup are public), no phase has
    been resolved yet, or the phase was resolved before snapshots were kept."""
    game = ctx.game
    if game.status != "active" or _hidden_revealed(log_lines or []):
        raise CannotUndo(
            f"game {game.id} has ended: its hidden seed and hidden setup were revealed at the "
            "end, so anyone who read them could steer a redo of the last phase (the hidden "
            "draws of the redo would be known in advance); an ended game cannot be undone")
    phase = last_resolved(ctx.session, game.id)
    if phase is None:
        raise CannotUndo(f"game {game.id} has no resolved phase yet: there is nothing to undo "
                         "(to change the open window's deadline, see `pbem game extend`)")
    if not ctx.has_secret(snapshot_purpose(phase.seq)):
        raise CannotUndo(f"turn {phase.turn} {phase.name} ({phase.phase_id}) of game {game.id} "
                         "was resolved before pbem kept the state before each phase, so it "
                         "cannot be undone")
    return phase


def _hidden_revealed(lines: list[str]) -> bool:
    return any('"hidden-reveal"' in line and json.loads(line).get("type") == "hidden-reveal"
               for line in lines)


def undo_last_phase(ctx, why: str, now: datetime, entropy) -> dict:
    """Roll back the last resolved phase of the game in ``ctx`` (a loaded GameContext, in a
    write transaction holding the game) as the module docstring says; ``why`` is the
    referee's reason, logged and told to every player. Returns ``{"game", "phase", "turn",
    "name", "undone_seq", "seq", "deadline", "commit", "old_commit", "cancelled",
    "carried", "setup_withdrawn", "notices"}``. Raises :class:`CannotUndo` when it does not
    apply."""
    from pbem.engine.gamestate import dice_seed_purpose
    from pbem.engine.headers import format_time
    from pbem.engine.notices import queue_notices, record_action
    from pbem.store import loglines

    game, s = ctx.game, ctx.session
    # only the lines that could be the end's reveal, not the whole log (issue 11: long logs)
    undone = check_undoable(ctx, loglines.matching(s, game.id, ['"hidden-reveal"'],
                                                   exact=False))
    snapshot = read_snapshot(ctx, undone.seq)

    cancelled = repo.open_phase(s, game.id)
    setup_withdrawn = (not snapshot["setup_committed"]) and ctx.has_secret("setup-salt")
    record_action(ctx, "undo", why, now, phase=undone.phase_id, turn=undone.turn,
                  name=undone.name, commit=undone.commit,
                  cancelled=cancelled.phase_id if cancelled is not None else None,
                  setup_withdrawn=setup_withdrawn)
    if cancelled is not None:  # no roll will ever be drawn from its seed: reveal it
        held = repo.accepted_orders(s, game.id, cancelled.seq)
        ctx.log("dice-reveal", now, phase=cancelled.phase_id,
                seed=ctx.get_secret(dice_seed_purpose(cancelled.seq)).hex(),
                nonces=dict(sorted((o.role, o.nonce) for o in held)))
        cancelled.status = "cancelled"
        s.add(cancelled)

    _restore(ctx, snapshot)
    if setup_withdrawn:
        for purpose in SETUP_SECRETS:
            repo.delete_sealed(s, game.id, REFEREE, purpose)
    repo.delete_sealed(s, game.id, REFEREE, snapshot_purpose(undone.seq))  # put back: spent
    undone.status = "undone"
    s.add(undone)

    window = Window.from_json(json.loads(undone.window_json))
    reopened = ctx.open_phase(window, now, entropy)
    s.flush()  # the new phase row before the order sets that name its seq
    carried = _carry_orders(ctx, undone, reopened, now)
    ctx.flush()
    notices = queue_notices(s, ctx.sealer, game, ctx.players, kind="notice",
                            subject=f"turn {undone.turn} {undone.name} undone: window open again",
                            text=lambda p: _notice_text(ctx, p, why, undone, reopened, window,
                                                        carried, cancelled, setup_withdrawn),
                            now=now)
    return {"game": game.id, "phase": undone.phase_id, "turn": undone.turn,
            "name": undone.name, "undone_seq": undone.seq, "seq": reopened.seq,
            "deadline": reopened.deadline_at, "deadline_text": format_time(reopened.deadline_at),
            "commit": reopened.commit, "old_commit": undone.commit,
            "cancelled": cancelled.phase_id if cancelled is not None else None,
            "carried": sorted(carried), "setup_withdrawn": setup_withdrawn, "notices": notices}


def _restore(ctx, snapshot: dict) -> None:
    """Put the snapshot's parts back as the game's state, sealed under a new state version (so
    that the blobs of the undone state cannot be put back either)."""
    ctx.store_parts(Parts(public=snapshot["public"], secret=snapshot["secret"],
                          referee=snapshot["referee"]))
    ctx.state = ctx.ruleset.load(ctx.parts)


def _carry_orders(ctx, undone, reopened, now: datetime) -> dict:
    """Copy the order sets in force for ``undone`` to ``reopened`` (re-sealed for its seq) and
    log them as ``orders`` lines of the reopened window; returns ``{role: OrderSet row}`` of the
    order sets carried."""
    from pbem.engine.accept import orders_commitment, orders_purpose
    from pbem.engine.headers import format_time
    from pbem.store.models import OrderSet

    game, sealer = ctx.game, ctx.sealer
    held = repo.accepted_orders(ctx.session, game.id, undone.seq)
    rows = []
    for o in held:
        payload = sealer.open(game.id, o.role, orders_purpose(undone.seq, o.digest), 0, o.blob)
        text = json.loads(payload)["text"]
        rows.append({"game_id": game.id, "phase_seq": reopened.seq, "role": o.role,
                     "issued": o.issued, "nonce": o.nonce, "digest": o.digest,
                     "received_at": o.received_at, "message_id": o.message_id,
                     "status": "accepted", "wait": o.wait,
                     "blob": sealer.seal(game.id, o.role, orders_purpose(reopened.seq, o.digest),
                                         0, payload)})
        commit = orders_commitment(sealer, game.id, reopened.phase_id, o.role, text)[1]
        ctx.log("orders", now, phase=reopened.phase_id, role=o.role, commit=commit,
                issued=format_time(o.issued), carried=True)
    if rows:
        repo.insert_protected(ctx.session, OrderSet, rows)
    return {o.role: o for o in held}


def _notice_text(ctx, player, why, undone, reopened, window, carried, cancelled,
                 setup_withdrawn) -> str:
    """The notice of an undo to ``player``: what was undone and why, their orders in force,
    the new deadline (UTC and their zone, else the game's), the new dice commitment and the
    order template."""
    from pbem.engine.gamestate import game_schedule
    from pbem.engine.headers import format_time
    from pbem.engine.schedule import format_when
    from pbem.reports.context import order_header

    game, role = ctx.game, player.role
    zone = player.zone or game_schedule(game).zone
    what = ("The position is back to what it was before that window was resolved, and the "
            "window is open again for orders until its new deadline, even once everyone's "
            "orders are in, so that anyone can still replace theirs.")
    if cancelled is not None:
        what += (f" The window that had opened after it ({cancelled.phase_id}) is cancelled: "
                 "orders sent for it are void.")
    if setup_withdrawn:
        what += (" The hidden setup dealt in that window is withdrawn with it: it will be dealt "
                 "again, and committed again, when the window resolves.")
    mine = carried.get(role)
    if mine is not None:
        yours = (f"Your orders for this window (issued {format_time(mine.issued)}) stay in force "
                 "unless you send new ones. To change them, send a new order set with a later "
                 "'issued:' and a fresh nonce (`pbem sign` fills both).")
    elif role in window.owed:
        yours = "You have no orders in force for this window: please send them."
    elif role in window.optional:
        yours = "You have no orders in force for this window; you may send some."
    else:
        yours = "You owe no orders in this window."
    paragraphs = [
        (f"Game {game.id}: the referee has undone the resolution of turn {undone.turn} "
         f"{undone.name} (window {undone.phase_id})."),
        f"The referee's reason: {why}",
        what,
        yours,
        f"New deadline: {format_when(reopened.deadline_at, zone)}",
        ("The window's dice were revealed when it was resolved, so it gets new dice: the new "
         "dice commitment (sha256 of the new seed) is"),
        f"    {reopened.commit}",
        (f"The old commitment was {undone.commit}; the undone rolls stay in the public log and "
         "can still be checked (`pbem verify`). This action is recorded, with its reason, in "
         "the game's public log."),
    ]
    if mine is not None:
        paragraphs.append(
            "The nonce of your orders in force became public when the window resolved, before "
            "the new dice were committed. For the new dice to be keyed by a nonce nobody knew "
            "in advance, send your orders again: the same orders with a fresh nonce and a later "
            "'issued:' (`pbem sign` fills both).")
    if window.accepts(role):
        referee_fp = ctx.sealer.referee_signing_key(game.id).public_key().fingerprint
        paragraphs += [
            ("Order template for the reopened window (fill it in, sign it with `pbem sign` or "
             "`ssh-keygen -Y sign -n pbem-orders`, and mail it back):"),
            (order_header(game.id, window.turn, window.phase, role, referee_fp) + "\n"
             + ctx.ruleset.template(ctx.role_state(role), role).rstrip("\n"))]
    return "\n\n".join(paragraphs) + "\n"
