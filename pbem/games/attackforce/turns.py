"""Setup, the windows of a turn and their resolution (How to Play; README.md, "The turn by
mail").

| stage | window | steps |
|---|---|---|
| ``deploy`` | ``0.deploy``, empire | How to Set Up 4 |
| ``arcturan`` | ``T.arcturan``, arcturan | step 5 of turn T-1 (T > 1), steps 1-2 of turn T |
| ``empire`` | ``T.empire``, empire | steps 3-4 (and step 6's check) |
| ``empire-move`` | ``T.empire-move``, empire | step 4 after ``launch wait`` |
| ``final`` | ``L.final``, arcturan | step 5 of the last turn of ``rules.turn_limit`` |

:func:`play` carries out one window's orders on a :class:`~.moves.Run` (dry for checking,
with dice for resolving); :func:`resolve` then moves the game on.
"""

from __future__ import annotations

from pbem.engine.ruleset import Event, Order, Resolution, Window

from . import steps
from .data import BATTERY_KINDS, FLIGHTS
from .moves import Run
from .state import ARCTURAN, EMPIRE, State, _rules, commitment, normalise

MOVE_VERBS = ("move", "attack", "fire", "tunnel")


# -- setup ---------------------------------------------------------------------------------------

def setup(roles: list, options: dict, data: dict, board, chance) -> tuple[State, list]:
    """``(state, events)``: the Flights off the map, the 14 Batteries drawn from the cup of 21
    and the Hull Space of the explosion drawn on the hidden stream with the salt of its
    commitment (How to Set Up 3-6; README "Who sees what")."""
    rules = _rules(data)
    s = State(seats=list(roles), options=dict(options), data=data, board=board, rules=rules)
    for colour in FLIGHTS:
        for i, kind in enumerate(rules.flight_pieces(colour), 1):
            s.pieces[f"{colour[0]}{i}"] = {"kind": kind, "side": ARCTURAN, "space": None,
                                           "status": "off", "flight": colour}
    cup = [k for k in BATTERY_KINDS for _ in range(rules.pieces[k].count)]
    cup = chance.hidden.shuffle(cup, "the Battery cup")
    drawn, seen = cup[:rules.battery_cup["drawn"]], {}
    for kind in drawn:
        seen[kind] = seen.get(kind, 0) + 1
        s.drawn[f"{kind}{seen[kind]}"] = kind
    s.aside = {k: cup[len(drawn):].count(k) for k in BATTERY_KINDS}
    hulls = board.group("hull")
    s.explosion = hulls[chance.hidden.roll(len(hulls), "the Hull Marker set aside") - 1]
    s.salt = "".join(f"{chance.hidden.roll(256, 'the salt of the commitment') - 1:02x}"
                     for _ in range(16))
    s.commitment = commitment(s.salt, s.explosion)
    s.hull = {h: "down" for h in hulls}
    s.cup = {"cobra": rules.pieces["cobra"].count, "korsen": rules.pieces["korsen"].count}
    events = [
        Event("setup", f"The Empire draws {len(drawn)} Batteries from the cup of {len(cup)} and "
                       f"sets {len(cup) - len(drawn)} aside; the Arcturan Player sets a Hull "
                       f"Marker aside and puts the explosion in its Hull Space. Commitment: "
                       f"sha256(\"pbem-attackforce/1\\n\" + salt + \"\\n\" + space) = "
                       f"{s.commitment}.", data={"commitment": s.commitment}),
        Event("drawn", f"Your Batteries drawn: {', '.join(s.drawn)}; set aside: "
                       + ", ".join(f"{n} {k}" for k, n in s.aside.items()) + ".", (EMPIRE,)),
        Event("explosion", f"The explosion is under Hull Space {s.hull_number(s.explosion)} "
                           f"(space {s.explosion}); the salt of the commitment is {s.salt}.",
              (ARCTURAN,)),
    ]
    return normalise(s), events


# -- windows -------------------------------------------------------------------------------------

def window(s: State) -> Window | None:
    """Who owes orders now (module docstring); None once the game is over."""
    if s.stage == "over":
        return None
    if s.stage == "deploy":
        return Window(0, "deploy", (EMPIRE,), verbs={EMPIRE: ["place"]},
                      title="How to Set Up 4: the Empire places its Batteries")
    if s.stage == "arcturan":
        verbs = (["torpedo"] if s.turn > 1 else []) + ["enter", "move", "attack"]
        title = ("step 5 of the last turn, then steps 1-2" if s.turn > 1 else "steps 1-2")
        return Window(s.turn, "arcturan", (ARCTURAN,), verbs={ARCTURAN: verbs},
                      title=f"Arcturan: {title}")
    if s.stage == "empire":
        # look and launch are always read, so that one not possible now is answered with why
        # (How to Play 3, in step3) rather than as an unknown order; the template offers only
        # the possible ones
        return Window(s.turn, "empire", (EMPIRE,),
                      verbs={EMPIRE: ["look", "launch"] + list(MOVE_VERBS)},
                      title="Empire: steps 3-4")
    if s.stage == "empire-move":
        return Window(s.turn, "empire-move", (EMPIRE,), verbs={EMPIRE: list(MOVE_VERBS)},
                      title="Empire: step 4")
    return Window(s.turn, "final", (ARCTURAN,), verbs={ARCTURAN: ["torpedo"]},
                  title="Arcturan: step 5 of the last turn")


# -- carrying out a window ---------------------------------------------------------------------

def play(run: Run, orders: list | None) -> bool:
    """Carry out ``orders`` (None: the role sent nothing, NMR) of the current window on
    ``run``; True when the Empire chose ``launch wait``."""
    s, sent = run.s, orders is not None
    orders = orders or []
    if s.stage == "deploy":
        for o in orders:
            steps.place(run, o)
        steps.place_rest(run, sent)
    elif s.stage in ("arcturan", "final"):
        done: set = set()
        for o in (o for o in orders if o.verb == "torpedo"):
            steps.torpedo(run, o, done)
            if s.outcome:
                return False
        if s.stage == "arcturan":
            for o in (o for o in orders if o.verb == "enter"):
                steps.enter(run, o)
            steps.auto_enter(run, sent)
            for o in orders:
                run.carry_out(o)
    else:
        wait = s.stage == "empire" and step3(run, orders, sent)
        for o in orders:
            if wait and o.verb in MOVE_VERBS:
                run.problem(o, "How to Play 4", "after `launch wait` the step 4 orders go in "
                            "the next window (empire-move)")
            elif not wait:
                run.carry_out(o)
        return wait
    return False


def step3(run: Run, orders: list, sent: bool) -> bool:
    """How to Play 3: look or launch, never both; skipped when neither is possible; the one
    possible is taken; NMR or no choice: look at the lowest-numbered face-down markers when
    the Empire may, else launch (README "NMR", readings 7-8). True after ``launch wait``."""
    s, rule = run.s, "How to Play 3"
    chosen = [o for o in orders if o.verb in ("look", "launch")]
    for extra in chosen[1:]:
        run.problem(extra, rule, f"step 3 takes one order, look or launch, never both: the "
                    f"first, line {chosen[0].line}, is the one that counts")
    o = chosen[0] if chosen else None
    can = {"look": s.may_look(), "launch": s.may_launch()}
    if not any(can.values()):
        if o is not None:
            run.problem(o, rule, "step 3 is skipped: no Hull Marker to look at and no piece "
                        "to place on a Launcher")
        return False
    if o is not None and not can[o.verb]:
        run.problem(o, rule, f"you may not {o.verb} now: " + _why_not(s, o.verb))
        o = None
    if o is None:
        if sent:
            run.problem(None, rule, "step 3 is a must: "
                        + ("looking at the lowest-numbered face-down Hull Markers"
                           if can["look"] else "launching"))
        verb = "look" if can["look"] else "launch"
        hulls = s.face_down()[:s.rules["hull_looks"]]
        o = Order(0, "", verb, {"hulls": hulls} if verb == "look" else {})
    if o.verb == "look":
        steps.look(run, o)
        return False
    steps.launch(run, o)
    return bool(o.args.get("wait"))


def _why_not(s: State, verb: str) -> str:
    """Why step 3's ``verb`` (``look``, ``launch``) is not possible now (How to Play 3;
    Attacking the Sensor Pod)."""
    if verb == "look":
        if not s.face_down():
            return "no Hull Marker is face down"
        return "the Sensor Pod is wrecked (Attacking the Sensor Pod)"
    if not s.free_launchers():
        return "every Launcher holds an Empire piece or a Wreck Marker"
    return "the cup is empty"


def resolve(s: State, orders_by_role: dict, chance) -> Resolution:
    """Carry out the current window with ``chance`` and move the game on (module docstring).
    A role missing from ``orders_by_role`` sent nothing (NMR)."""
    w = window(s)
    role = w.owed[0]
    run = Run(s, role, chance)
    wait = play(run, orders_by_role.get(role))
    if s.outcome:
        finish(s, run.events)
    elif s.stage == "deploy":
        s.stage, s.turn = "arcturan", 1
    elif s.stage == "arcturan":
        s.stage = "empire"
    elif s.stage == "empire" and wait:
        s.stage = "empire-move"
    elif s.stage in ("empire", "empire-move"):
        end_turn(s, run.events)
    else:
        s.outcome = {"scores": {ARCTURAN: 0, EMPIRE: 1}, "winners": [EMPIRE],
                     "reason": f"the Novaship still stands after turn {s.turn}, the turn limit "
                               f"(How to Win; rules.turn_limit)"}
        finish(s, run.events)
    normalise(s)
    return Resolution(run.events, {role: run.problems} if run.problems else {})


def torpedo_possible(s: State) -> bool:
    """Some Arcturan piece could attack something in step 5."""
    return any(steps.torpedo_target(s, p, what)[0] is not None for p in s.on_map(ARCTURAN)
               for what in ("hull", "launcher", "sensor-pod"))


def end_turn(s: State, events: list) -> None:
    """Step 6 after the Empire's step 4: all Arcturan pieces destroyed -> Empire win (How to
    Win); the turn limit -> the last step 5 or an Empire win; else the next turn."""
    total = sum(1 for r in s.pieces.values() if r["side"] == ARCTURAN)
    limit = s.rules["turn_limit"]
    if s.destroyed(ARCTURAN) == total:
        s.outcome = {"scores": {ARCTURAN: 0, EMPIRE: 1}, "winners": [EMPIRE],
                     "reason": f"all {total} Arcturan Starfighters are destroyed (How to Win)"}
    elif limit and s.turn >= limit and not torpedo_possible(s):
        s.outcome = {"scores": {ARCTURAN: 0, EMPIRE: 1}, "winners": [EMPIRE],
                     "reason": f"the Novaship still stands after turn {s.turn}, the turn limit, "
                               f"and no Starfighter can attack it (How to Win; "
                               f"rules.turn_limit)"}
    elif limit and s.turn >= limit:
        s.stage = "final"
        return
    else:
        s.turn, s.stage = s.turn + 1, "arcturan"
        return
    finish(s, events)


def finish(s: State, events: list) -> None:
    """End the game: the reveal of the explosion's space and salt goes public, so the Empire
    can check the commitment published at setup."""
    s.stage = "over"
    s.reveal = {"space": s.explosion, "salt": s.salt,
                "hull": s.hull_number(s.explosion) if s.explosion else None}
    events.append(Event("reveal", f"The explosion was under Hull Space {s.reveal['hull']} "
                                  f"(space {s.explosion}); the salt was {s.salt}; "
                                  f"sha256(\"pbem-attackforce/1\\n\" + salt + \"\\n\" + space) = "
                                  f"{commitment(s.salt or '', s.explosion or '')}.",
                        data=dict(s.reveal)))
    events.append(Event("end", f"Game over: {s.outcome['reason']}.",
                        data={"winners": list(s.outcome["winners"])}))
