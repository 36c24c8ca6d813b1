"""Carrying out orders on a state: :class:`Run`, shared by every phase of a Player-Turn.

A Run applies one window's orders to a state, one order at a time in the order of 6.0 and,
within a phase, in the order written. With ``chance`` None it is *dry*: no die is rolled, and
checking.py runs the orders dry on the role's own state to find problems before the phase
resolves (an order legal when sent may fail when its turn comes: Resolution problems).

Events are public unless said otherwise, and name counters only by what everyone may know
(:meth:`~.state.State.name`); the dice's reasons never name a face-down counter's kind.
"""

from __future__ import annotations

from pbem.engine.ruleset import PUBLIC, Event, Problem

from .state import UN, WEB


class Run:
    """One window's orders carried out on ``s`` (module docstring). ``role`` is the side
    whose orders these are; ``events`` and ``problems`` collect what happened; ``moved``,
    ``assaulted``, ``fired`` and ``attacked`` record what each unit did this phase: ``moved[uid]``
    lists ``"move"`` (it moved itself, 7.1), ``"lift"`` (a Lifter carried it, 18.1) in order,
    ``"compelled"`` (19.2), ``"dropped"``; a unit may move before OR after being carried, not
    both (18.1)."""

    def __init__(self, s, role: str, chance=None):
        self.s, self.role, self.chance = s, role, chance
        self.enemy = UN if role == WEB else WEB
        self.events: list = []
        self.problems: list = []
        self.moved: dict = {}  # unit -> ["move", "lift", ...] this phase, in order
        self.assaulted: set = set()  # (side, unit) close-assaulted this Movement Phase (11.0)
        self.fired: set = set()    # units that attacked this Ranged Combat Phase (10.3)
        self.attacked: set = set()  # (side, unit) attacked this Ranged Combat Phase (16.2)

    @property
    def dry(self) -> bool:
        """True when no die may be rolled (checking)."""
        return self.chance is None

    def problem(self, o, rule: str, why: str) -> None:
        """Record a problem with order ``o`` (None: the order set as a whole)."""
        suffix = f"({rule})"
        if why.endswith(suffix):  # the rule is cited once, after the text
            why = why[:-len(suffix)].rstrip()
        if o is None:
            self.problems.append(Problem(None, "", rule, why))
        else:
            self.problems.append(Problem(o.line, o.text, rule, why))

    def event(self, event_kind: str, text: str, audience=(PUBLIC,), **data) -> None:
        """Record an event for ``audience`` (public by default); ``data`` its JSON values."""
        self.events.append(Event(event_kind, text, tuple(audience), data))

    def roll(self, why: str) -> int | None:
        """One die on the phase's public stream (None when dry). ``why`` is logged in clear:
        it must name only what everyone may know."""
        if self.dry:
            return None
        return self.chance.public.roll(6, why)

    def did(self, uid: str, what: str) -> None:
        """Record that ``uid`` did ``what`` this phase (``moved``)."""
        self.moved.setdefault(uid, []).append(what)

    def phase_reset(self) -> None:
        """Start a new phase: what units did in the last one is forgotten."""
        self.moved.clear()
        self.assaulted.clear()
        self.fired.clear()
        self.attacked.clear()

    # -- naming --------------------------------------------------------------------------------
    def find(self, side: str, uid: str, o=None, rule: str = "6.0") -> str | None:
        """``uid`` when it names a counter of ``side`` on the map, else None with a problem
        (when ``o`` is given) saying why."""
        table = self.s.un if side == UN else self.s.web
        r = table.get(uid)
        if r is not None and r["status"] == "map":
            return uid
        if o is not None:
            if r is None:
                why = (f"{uid!r} names none of your counters" if side == self.role
                       else f"{uid!r} names no enemy counter")
            elif r["status"] == "reserve":
                why = f"{uid} has not dropped yet (14.0)"
            else:
                why = f"{uid} is no longer on the map ({r['status']})"
            self.problem(o, rule, why)
        return None
