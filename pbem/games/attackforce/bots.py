"""The random bot's enumeration (``propose``): the order lines a role may write next.

Lines are offered in the order :func:`~.turns.play` carries them out (step 5 attacks, then the
Flight's entry, then movement; the Empire's step 3 choice, then movement), each judged legal by
replaying the lines written so far dry on the role's own state (a :class:`~.moves.Run`, as
checking.py does). To stay fast the bot offers, for the next two pieces that can do something,
a few purposeful lines each (a path toward a goal, that path ending in an attack, an attack
from where it stands, a Battery's fire or Tunnel move), not every legal line.
"""

from __future__ import annotations

from pbem.engine.randombot import Choices

from . import steps
from .moves import Run
from .orders import VERBS
from .state import ARCTURAN, EMPIRE, from_view

_CACHE: dict = {}


def _replay(view: dict, role: str, written: tuple):
    """``(run, done)``: the role's state with ``written`` carried out dry, reusing the last
    replay when ``written`` extends it by one line."""
    key = (id(view), role)
    hit = _CACHE.get(key)
    if hit and hit[0] is view and written and hit[1] == written[:-1]:
        run, done = hit[2], hit[3]
        _apply(run, done, written[-1])
    else:
        run, done = Run(from_view(view), role, None), set()
        for line in written:
            _apply(run, done, line)
    _CACHE.clear()
    _CACHE[key] = (view, written, run, done)
    return run, done


def _apply(run: Run, done: set, line: str) -> None:
    o = VERBS.read(line)
    if o.verb == "place":
        steps.place(run, o)
    elif o.verb == "torpedo":
        steps.torpedo(run, o, done)
    elif o.verb == "enter":
        steps.enter(run, o)
    elif o.verb == "look":
        done.add("step3")
    elif o.verb == "launch":
        steps.launch(run, o)
        done.add("wait" if o.args["wait"] else "step3")
    else:
        done.add("moving")
        run.carry_out(o)


def propose(view: dict, window, role: str, written: tuple) -> Choices:
    """The lines ``role`` may write next in ``window`` after ``written`` (module docstring)."""
    run, done = _replay(view, role, written)
    s = run.s
    if window.phase == "deploy":
        if not s.drawn:
            return Choices()
        kind = next(iter(s.drawn.values()))
        free = [sp for sp in s.board.group("battery") if s.at(sp, EMPIRE) is None]
        return Choices([f"place {kind} {sp}" for sp in free], may_stop=False)
    if role == ARCTURAN:
        return _arcturan(run, done, window)
    return _empire(run, done, window)


def _torpedoes(run: Run, done: set) -> list:
    s = run.s
    return [f"torpedo {p}" + ("" if what == "hull" else f" {what}")
            for p in s.on_map(ARCTURAN) if p not in done
            for what in ("hull", "launcher", "sensor-pod")
            if steps.torpedo_target(s, p, what)[0] is not None]


def _arcturan(run: Run, done: set, window) -> Choices:
    s = run.s
    lines = [] if "moving" in done or "entered" in done else _torpedoes(run, done)
    if window.phase == "final":
        return Choices(lines)
    if s.flight_due():
        return Choices(lines + _entries(s), may_stop=False)
    done.add("entered")
    return Choices(lines + _moves(run))


def _entries(s) -> list:
    flight = next(f for f in s.rules.flights if f not in s.flights_in())
    n = len([p for p, r in s.pieces.items() if r.get("flight") == flight])
    out = []
    for edge in s.board.edges():
        free = steps.free_edge(s, edge)
        if len(free) < n:
            continue
        mid = (len(free) - n) // 2
        for pick in {tuple(free[:n]), tuple(free[-n:]), tuple(free[mid:mid + n])}:
            out.append(f"enter {flight} {edge[5:]} {' '.join(pick)}")
    return sorted(out)


def _empire(run: Run, done: set, window) -> Choices:
    s = run.s
    if "wait" in done:
        return Choices()
    if window.phase == "empire" and not done & {"step3", "moving"} and (
            s.may_look() or s.may_launch()):
        out = []
        if s.may_look():
            want = min(s.rules["hull_looks"], len(s.face_down()))
            down = s.face_down()
            out += sorted({"look " + " ".join(down[:want]), "look " + " ".join(down[-want:])})
        if s.may_launch():
            out += ["launch", "launch return-korsen", "launch wait"]
        return Choices(out, may_stop=False)
    return Choices(_moves(run))


def _moves(run: Run, wanted: int = 2) -> list:
    s, out, found = run.s, [], 0
    for p in s.on_map(run.role):
        if p in run.used or p.startswith("launch-"):
            continue
        lines = _piece_lines(run, p)
        if lines:
            out += lines
            found += 1
            if found >= wanted:
                break
    return out


def _goal(run: Run, p: str) -> str | None:
    """Where piece ``p`` heads: the explosion (its owner knows it) or the nearest face-down
    Hull Marker for an Arcturan piece; the nearest Arcturan piece for an Empire Fighter."""
    s = run.s
    here = s.pieces[p]["space"]
    if run.role == ARCTURAN:
        if s.explosion and s.hull.get(s.explosion) != "blank":
            return s.explosion
        spots = [h for h in s.hull_spaces() if s.hull.get(h) in ("down", "explosion")]
    else:
        spots = [s.pieces[q]["space"] for q in s.on_map(ARCTURAN)]
    return min(spots, key=lambda x: (s.board.distance(here, x), x), default=None)


def _path(run: Run, p: str, goal: str) -> list:
    """Spaces (without the start) of a walk of at most the Movement Rating toward ``goal``,
    through no space of the piece's own side."""
    s = run.s
    here, mine = s.pieces[p]["space"], s.occupied(run.role)
    path = []
    for _ in range(s.ptype(p).movement):
        best = min((n for n in s.board.neighbours(here) if n not in mine),
                   key=lambda n: (s.board.distance(n, goal), n), default=None)
        if best is None or s.board.distance(best, goal) >= s.board.distance(here, goal):
            break
        path.append(best)
        here = best
    return path


def _target(run: Run, space: str, reach: int) -> str | None:
    s = run.s
    foes = [q for q in s.on_map(run.enemy)
            if (d := s.board.distance(space, s.pieces[q]["space"])) is not None and d <= reach]
    return foes[0] if foes else None


def _piece_lines(run: Run, p: str) -> list:
    s = run.s
    t, here = s.ptype(p), s.pieces[p]["space"]
    near = _target(run, here, t.range)
    if t.battery:
        lines = [f"fire {p} {near}"] if near else []
        lines += [f"tunnel {p} {sp}" for sp in s.board.neighbours(here, via="tunnel")
                  if s.at(sp, EMPIRE) is None]
        return lines
    lines = [f"attack {p} {near}"] if near else []
    goal = _goal(run, p)
    path = _path(run, p, goal) if goal else []
    if path:
        lines.append(f"move {p} {' '.join(path)}")
        end = _target(run, path[-1], t.range)
        if end:
            lines.append(f"move {p} {' '.join(path)} attack {end}")
    return lines
