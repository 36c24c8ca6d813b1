"""Setup, the windows of a Game-Turn and their resolution (6.0; README.md, "The turn by mail").

| stage | window | what it carries out |
|---|---|---|
| ``forces`` | ``0.forces``, both at once | 5.4's secret substitutions (optional rule) |
| ``web-setup`` | ``0.setup``, Web | 5.2 (and 4.3's tunnels) |
| ``un-drop`` | ``0.drop``, U.N. | 5.3's initial drops |
| ``compel`` | ``T.compel``, Web, short | 14.2: which drop the Web compels, when one may be |
| ``web`` | ``T.web``, Web | 6.0 I A-F: compulsion, tunnels, reinforcements, movement with
  close assaults, ranged combat, DUST removal |
| ``un`` | ``T.un``, U.N. | 6.0 II A-E: drops, movement, ranged combat, DUST removal, the
  second movement of Light Infantry |

Within a window the orders are carried out phase by phase in the order of 6.0, and within a
phase in the order written. When a U.N. drop lands within reach of the Generator the U.N.'s
other orders wait, sealed in its secret part, while the Web answers in a short ``compel``
window (14.2, 19.1); they are carried out when it resolves.
"""

from __future__ import annotations

from pbem.engine.ruleset import Event, Order, Resolution, Window

from . import drops, lifters, movement, ranged, setup as setup_mod, tunnels
from .run import Run
from .state import UN, WEB, State, normalise
from .victory import end_of_game, evacuated

STANDING = ("retreat", "underground")


def setup(roles: list, options: dict, data: dict, board, chance) -> tuple[State, list]:
    """``(state, events)`` (:func:`.setup.new_state`)."""
    return setup_mod.new_state(roles, options, data, board, chance)


def window(s: State) -> Window | None:
    """Who owes orders now (module docstring); None once the game is over."""
    st = list(STANDING) if s.advanced else ["retreat"]  # no tunnels in 4.1
    if s.stage == "over":
        return None
    if s.stage == "forces":
        return Window(0, "forces", (WEB, UN), verbs={WEB: ["substitute"], UN: ["substitute"]},
                      simultaneous=True, title="Setup: the secret substitutions (5.4)")
    if s.stage == "web-setup":
        verbs = ["place"] + (["tunnel"] if s.scenario.get("free_tunnels_when") == "setup"
                             else [])
        return Window(0, "setup", (WEB,), verbs={WEB: verbs + st},
                      title="Setup: the Web sets up (5.2)")
    if s.stage == "un-drop":
        return Window(0, "drop", (UN,), verbs={UN: ["drop"] + st},
                      title="Setup: the U.N. initial drops (5.3)")
    if s.stage == "compel":
        return Window(s.turn, "compel", (WEB,), verbs={WEB: ["compel-drop"] + st}, short=True,
                      title=f"{f'Game-Turn {s.turn}' if s.turn else 'Setup'}: the Web may "
                            f"compel one drop (14.2)")
    if s.stage == "web":
        verbs = ["compel"] + (["tunnel"] if s.advanced else []) + ["enter", "move"]
        verbs += (["reveal"] if s.option("umbrellas") else []) + ["fire"]
        verbs += ["demolish"] if s.option("demolition") else []
        return Window(s.turn, "web", (WEB,), verbs={WEB: verbs + st},
                      title=f"Game-Turn {s.turn}: the Web Player-Turn (6.0 I)")
    verbs = ["drop", "move"] + (["lift", "drill"] if s.advanced else []) + ["fire"]
    verbs += (["demolish"] if s.option("demolition") else []) + ["move2"]
    return Window(s.turn, "un", (UN,), verbs={UN: verbs + st},
                  title=f"Game-Turn {s.turn}: the U.N. Player-Turn (6.0 II)")


def _standing(run, orders: list) -> None:
    """``retreat away|toward HEX`` and ``underground stay|retreat``: kept in the role's secret
    part for every later resolution until changed (README, "Retreats")."""
    mine = run.s.standing.setdefault(run.role, {})
    for o in orders:
        if o.verb == "retreat":
            mine["retreat"] = {"how": o.args["how"], "hex": o.args["hex"]}
        elif o.verb == "underground":
            mine["underground"] = o.args["how"]


def of(orders: list, *verbs) -> list:
    """The orders with one of ``verbs``, in the order written."""
    return [o for o in orders if o.verb in verbs]


# -- the phases --------------------------------------------------------------------------------

def web_turn(run, orders: list) -> None:
    """6.0 I A-F (module docstring)."""
    s = run.s
    for o in of(orders, "compel"):  # the first that can be carried out counts (19.2)
        drops.compel(run, o)
    run.phase_reset()
    for o in of(orders, "tunnel"):
        tunnels.place_tunnel(run, o)
    entered: list = []
    for o in of(orders, "enter"):
        movement.enter(run, o, entered)
    for o in of(orders, "move", "reveal"):
        if o.verb == "move":
            movement.move(run, o)
            movement.end_check(run, o, WEB, o.args["unit"])
        else:
            movement.reveal_order(run, o)
    combat_and_dust(run, orders, s.web)


def combat_and_dust(run, orders: list, own: dict) -> None:
    """The Ranged Combat Phase (10.0; 13.6's demolitions, by units that did not move: the
    Movement Phase's record is kept) and the DUST Removal Phase of the side whose counters are
    ``own`` (6.0 I E-F, II C-D)."""
    run.fired.clear()
    ranged.start_phase(run)
    for o in of(orders, "fire", "demolish"):
        if o.verb == "fire":
            ranged.fire(run, o)
        else:
            tunnels.demolish(run, o)
    for r in own.values():
        r["dust"] = False


def un_movement(run, orders: list) -> None:
    """6.0 II B-E: movement, ranged combat, DUST removal, second movement (15.0)."""
    s = run.s
    run.phase_reset()
    for o in of(orders, "move", "lift", "drill"):
        if o.verb == "move":
            movement.move(run, o)
            movement.end_check(run, o, UN, o.args["unit"])
        elif o.verb == "lift":
            lifters.lift(run, o)
        else:
            tunnels.drill(run, o)
        if evacuated(s):
            return
    combat_and_dust(run, orders, s.un)
    run.phase_reset()
    for o in of(orders, "move2"):
        movement.move(run, o, second=True)
        movement.end_check(run, o, UN, o.args["unit"])


def play(run, orders: list | None) -> None:
    """Carry out ``orders`` (None: NMR) of the current window on ``run`` (dry for checking):
    everything up to the next window. Moves ``s.stage`` on."""
    s = run.s
    sent = orders is not None
    orders = list(orders or [])
    _standing(run, orders)
    if s.stage == "forces":
        setup_mod.substitute(run, orders)
    elif s.stage == "web-setup":
        for o in of(orders, "tunnel"):
            tunnels.place_tunnel(run, o)
        for o in of(orders, "place"):
            setup_mod.place(run, o)
        setup_mod.place_rest(run, sent)
        if not run.dry:
            setup_mod.setup_done(run)
    elif s.stage in ("un-drop", "un"):
        drops.declare(run, of(orders, "drop"))
        if not run.dry and may_compel(s):
            s.pending = [o.to_json() for o in orders if o.verb not in ("drop",) + STANDING]
            s.stage = "compel"
            return
        drops.land(run)
        if s.turn > 0:
            un_movement(run, orders)
    elif s.stage == "compel":
        for o in of(orders, "compel-drop"):  # the first that can be carried out counts
            drops.compel_drop(run, o)
        drops.land(run)
    elif s.stage == "web":
        web_turn(run, orders)


def may_compel(s: State) -> bool:
    """Whether the Web gets a ``compel`` window after this Drop Phase: whenever the U.N.
    declared a drop and the Web of Compulsion is not broken (19.3), whether or not a drop is
    within reach of the Generator, so that the window itself tells the U.N. nothing of where
    the Generator is (README, "Drop compulsion")."""
    return bool(s.drops) and not s.broken


def advance(s: State, run) -> None:
    """Move the game on after a resolution (module docstring)."""
    if s.outcome:
        return
    if s.stage == "forces":
        s.stage = "web-setup"
    elif s.stage == "web-setup":
        s.stage = "un-drop"
    elif s.stage == "compel" and s.turn == 0 or s.stage == "un-drop":
        drops.break_web(run)
        _new_turn(s, run, 1)
    elif s.stage == "web":
        s.stage = "un"
    elif s.stage in ("un", "compel"):
        drops.break_web(run)
        if evacuated(s) or s.turn >= s.last_turn:
            end_of_game(s, run.events)
        else:
            _new_turn(s, run, s.turn + 1)


def _new_turn(s: State, run, turn: int) -> None:
    s.turn, s.stage = turn, "web"
    s.evacuation = lifters.evacuation_ready(s) if s.advanced else []
    run.event("turn", f"Game-Turn {turn} of {s.last_turn} begins (6.0).", turn=turn)


def resolve(s: State, orders_by_role: dict, chance) -> Resolution:
    """Carry out the current window with ``chance`` and move the game on (module docstring).
    A role missing from ``orders_by_role`` sent nothing (NMR)."""
    w = window(s)
    problems: dict = {}
    events: list = []
    if w.phase == "forces":
        for role in w.owed:
            run = Run(s, role, chance)
            play(run, orders_by_role.get(role))
            events += run.events
            if run.problems:
                problems[role] = run.problems
        s.stage = "web-setup"
        return Resolution(events, problems)
    role = w.owed[0]
    run = Run(s, role, chance)
    stage = s.stage
    play(run, orders_by_role.get(role))
    events = run.events
    if run.problems:
        problems[role] = run.problems
    if stage == "compel" and s.turn > 0 and not s.outcome:
        urun = Run(s, UN, chance)  # the U.N.'s orders that waited for the Web's answer
        pending = [Order(**p) for p in (s.pending or [])]
        un_movement(urun, pending)
        events += urun.events
        if urun.problems:
            problems[UN] = urun.problems
        run.events = events
    s.pending = None if s.stage != "compel" else s.pending
    if s.stage == "compel" and stage != "compel":
        run.event("compel-window", "The U.N. drops are declared: the Web may compel one drop "
                  "within two hexes of the Web Generator (14.2); the U.N.'s other orders wait.")
    else:
        advance(s, run)
    normalise(s)
    return Resolution(run.events, problems)


__all__ = ["Event", "play", "resolve", "setup", "window"]
