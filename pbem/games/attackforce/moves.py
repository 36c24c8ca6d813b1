"""Carrying out a side's movement (How to Move, How to Attack): :class:`Run`.

A Run applies one role's orders to a state, one order at a time in the order written (How to
Move 1: "Once he starts moving a piece, he can't go back and move or attack with another,
previously moved piece"; How to Attack: "The order in which pieces move and attack is very
important"). With ``chance`` None it is *dry*: no die is rolled and every attack leaves its
target in place; checking.py runs the orders dry on the role's own state to find problems.
"""

from __future__ import annotations

from pbem.engine.ruleset import Event, Problem

from .attacks import RULE_RANGE, attack_piece, attack_range
from .state import ARCTURAN, EMPIRE


def space_of(s, word: str) -> str | None:
    """The space a word names: a space id (``54``, ``054``), ``hN`` (Hull Space N, printed
    numbering) or ``lN`` (Launcher N); None when it names none."""
    found = s.board.find(word)
    if found is not None:
        return found
    for prefix, group in (("h", "hull"), ("l", "launcher")):
        if word[:1] == prefix and word[1:].isdigit() and s.board.has_group(group):
            members = s.board.group(group)
            n = int(word[1:])
            if 1 <= n <= len(members):
                return members[n - 1]
    return None


def find(s, word: str, side: str) -> str | None:
    """The piece of ``side`` on the map that ``word`` names (its id, or the space it stands
    in: one piece of a side per space), or None."""
    rec = s.pieces.get(word)
    if rec is not None:
        return word if rec["side"] == side and rec["status"] == "map" else None
    sp = space_of(s, word)
    return s.at(sp, side) if sp is not None else None


def _why_not_on_map(s, word: str, side: str) -> str:
    """``": it was destroyed"`` and the like, for a piece id that names a piece of ``side``
    not on the map; "" otherwise."""
    rec = s.pieces.get(word)
    if rec is None or rec["side"] != side:
        return ""
    if rec["status"] == "destroyed":
        return f" ({word} was destroyed: Destroyed Pieces)"
    if rec["status"] == "off":
        return f" ({word} has not entered the map yet)"
    return ""


class Run:
    """One role's orders carried out on ``s`` (module docstring). ``events`` and ``problems``
    collect what happened; ``used`` maps each piece that moved, attacked, fired or tunnelled
    this window to what it did."""

    def __init__(self, s, role: str, chance=None):
        self.s, self.role, self.chance = s, role, chance
        self.enemy = EMPIRE if role == ARCTURAN else ARCTURAN
        self.events: list = []
        self.problems: list = []
        self.used: dict = {}

    @property
    def dry(self) -> bool:
        """True when no die may be rolled (checking)."""
        return self.chance is None

    def problem(self, o, rule: str, why: str) -> None:
        """Record a problem with order ``o`` (None: the order set as a whole)."""
        if o is None:
            self.problems.append(Problem(None, "", rule, why))
        else:
            self.problems.append(Problem(o.line, o.text, rule, why))

    def event(self, kind: str, text: str, **data) -> None:
        """Record a public event."""
        self.events.append(Event(kind, text, data=data))

    def own(self, o, word: str) -> str | None:
        """Our piece named ``word`` that has not moved or attacked yet, or None with a problem."""
        p = find(self.s, word, self.role)
        if p is None:
            self.problem(o, "How to Move", f"{word!r} names none of your pieces on the map"
                         + _why_not_on_map(self.s, word, self.role))
            return None
        if p in self.used:
            self.problem(o, "How to Move 1", f"{self.s.label(p)} has already {self.used[p]} "
                         f"this turn: a piece moves and attacks once, and the player cannot go "
                         f"back to it")
            return None
        return p

    # -- attacks ----------------------------------------------------------------------------
    def attack(self, o, piece: str, word: str) -> bool:
        """``piece`` attacks the enemy piece ``word`` names, if in range (How to Attack 1).
        False, with a problem, when the attack cannot take place: it is then not used up (How
        to Attack 1: "the Attacker can keep moving ... or can attack another piece")."""
        target = find(self.s, word, self.enemy)
        if target is None:
            self.problem(o, "How to Attack", f"{word!r} names no enemy piece on the map"
                         + _why_not_on_map(self.s, word, self.enemy))
            return False
        dist = attack_range(self.s, piece, target)
        reach = self.s.ptype(piece).range
        if dist is None or dist > reach:
            self.problem(o, RULE_RANGE, f"{target} is {dist} spaces from {self.s.label(piece)} "
                         f"at {self.s.pieces[piece]['space']}, beyond its Range of {reach}")
            return False
        if not self.dry:
            self.events.append(attack_piece(self.s, self.chance, piece, target))
        return True

    # -- orders -----------------------------------------------------------------------------
    def move(self, o) -> None:
        """``move PIECE STEP...``: a Fighter space by space, stopping to attack (How to Move
        1-4, How to Attack; Vaj Korsen twice). The path stops before a step it may not take."""
        s = self.s
        p = self.own(o, o.args["piece"])
        if p is None:
            return
        t = s.ptype(p)
        if t.battery:
            self.problem(o, "How to Move 5a", f"{p} is a Battery: it moves only with `tunnel`")
            return
        path, steps, attacks = [s.pieces[p]["space"]], 0, 0
        for kind, word in o.args["steps"]:
            if kind == "attack":
                self._flush(p, path)
                path = [s.pieces[p]["space"]]
                if attacks >= t.attacks:
                    self.problem(o, "How to Attack", f"{s.label(p)} has already made its "
                                 f"{t.attacks} attack(s) this turn")
                    continue
                attacks += self.attack(o, p, word)
                continue
            why = self._step_problem(p, word, steps, t.movement)
            if why:
                self.problem(o, why[0], why[1])
                break
            steps += 1
            s.pieces[p]["space"] = space_of(s, word)
            path.append(s.pieces[p]["space"])
        self._flush(p, path)
        if steps or attacks:  # neither moved nor attacked: not started yet (How to Move 1)
            self.used[p] = "moved"

    def _step_problem(self, p: str, word: str, steps: int, allowance: int):
        s = self.s
        here = s.pieces[p]["space"]
        sp = space_of(s, word)
        if sp is None:
            return "How to Move 4", f"{word!r} is not a space of the map: pieces can't leave it"
        if steps >= allowance:
            return "How to Move", (f"{s.label(p)} has a Movement Rating of {allowance}: it "
                                   f"cannot move on to {sp}")
        if sp not in s.board.neighbours(here):
            return "How to Move 1", f"{sp} is not next to {here}: a Fighter moves space by space"
        if s.at(sp, self.role) is not None:
            return "How to Move 6", (f"{sp} holds your {s.at(sp, self.role)}: one piece of a "
                                     f"player in a space, even in passing")
        return None

    def _flush(self, p: str, path: list) -> None:
        if len(path) > 1:
            self.event("move", f"{self.s.name(p)} moves {'-'.join(path)}.", piece=p,
                       path=list(path))

    def strike(self, o) -> None:
        """``attack PIECE TARGET [TARGET]`` / ``fire BATTERY TARGET``: attacks without moving
        (How to Move 2: movement is voluntary; How to Attack for Batteries; Vaj Korsen)."""
        p = self.own(o, o.args["piece"])
        if p is None:
            return
        t = self.s.ptype(p)
        if o.verb == "fire" and not t.battery:
            self.problem(o, "How to Attack", f"{self.s.label(p)} is a Fighter: it attacks with "
                         f"`attack` or "
                         f"`move ... attack`")
            return
        targets = o.args["targets"]
        if len(targets) > t.attacks:
            self.problem(o, "How to Attack; Vaj Korsen", f"{self.s.label(p)} makes {t.attacks} "
                         f"attack(s) a "
                         f"turn, not {len(targets)}")
            return
        made = 0
        for word in targets:
            made += self.attack(o, p, word)
        if made:  # an attack that could not take place leaves the piece free (How to Attack 1)
            self.used[p] = "fired" if t.battery else "attacked"

    def tunnel(self, o) -> None:
        """``tunnel BATTERY SPACE``: one Tunnel link to an empty Battery Space; no attack that
        turn (How to Move 5a-b)."""
        s = self.s
        p = self.own(o, o.args["piece"])
        if p is None:
            return
        here = s.pieces[p]["space"]
        sp = space_of(s, o.args["space"])
        if not s.ptype(p).battery:
            self.problem(o, "How to Move 5a", f"{p} is not a Battery")
        elif sp is None or sp not in s.board.neighbours(here, via="tunnel"):
            self.problem(o, "How to Move 5a", f"{o.args['space']!r} is not a Battery Space "
                         f"joined to {here} by a Tunnel")
        elif s.at(sp, EMPIRE) is not None:
            self.problem(o, "How to Move 5a; How to Attack", f"{sp} holds {s.at(sp, EMPIRE)}: "
                         f"a Battery moves only into an empty Battery Space")
        else:
            self.used[p] = "tunnelled"
            s.pieces[p]["space"] = sp
            self.event("tunnel", f"{s.name(p)} moves through the Tunnel {here}-{sp}.", piece=p,
                       path=[here, sp])

    def carry_out(self, o) -> None:
        """Carry out one movement order (``move``, ``attack``, ``fire``, ``tunnel``)."""
        if o.verb == "move":
            self.move(o)
        elif o.verb in ("attack", "fire"):
            self.strike(o)
        elif o.verb == "tunnel":
            self.tunnel(o)
