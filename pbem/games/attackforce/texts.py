"""Attack Force texts: the order template of each window and ``pbem rules attackforce``."""

from __future__ import annotations

from .data import ATTACK_RATINGS, Rules
from .orders import VERBS
from .state import ARCTURAN, EMPIRE
from .turns import window

_HELP = {
    "place": "How to Set Up 4: every Battery drawn, one per empty Battery Space",
    "enter": "How to Play 1: the Flight's pieces in id order, one per space of one edge",
    "move": "How to Move: space by space; one stop to attack (two for Vaj Korsen)",
    "attack": "How to Attack: attack without moving (a Fighter), or a Battery's fire",
    "fire": "How to Attack: a Battery that does not move this turn",
    "tunnel": "How to Move 5: a Battery to an empty Battery Space next along a Tunnel",
    "look": "How to Play 3a: three face-down Hull Markers (hN or the space)",
    "launch": "How to Play 3b: a piece from the cup on each free Launcher",
    "torpedo": "How to Win: step 5, an attack on the marker in the piece's space (E)",
}


def template(s, role: str) -> str:
    """The comment lines ``role`` edits into orders for the current window: each verb allowed
    with its syntax and rule, and the role's pieces (README.md, "Orders")."""
    w = window(s)
    if w is None or role not in w.owed:
        return "# no orders are owed from you now\n"
    out = [f"# Attack Force, turn {w.turn}: {w.title}",
           "# orders are carried out one at a time, in the order written"]
    syntax = VERBS.syntax()
    possible = {"look": s.may_look(), "launch": s.may_launch()} if w.phase == "empire" else {}
    for verb in w.verbs.get(role, ()):
        if possible.get(verb, True):
            out.append(f"#   {syntax[verb]}    ({_HELP[verb]})")
    if possible and not any(possible.values()):
        out.append("# step 3 is skipped this turn: no Hull Marker to look at, no piece to launch")
    if w.phase == "deploy":
        out.append(f"# Batteries to place: {' '.join(f'{b}={k}' for b, k in s.drawn.items())}")
        free = [sp for sp in s.board.group("battery") if s.at(sp, EMPIRE) is None]
        out.append(f"# Battery Spaces: {' '.join(free)}")
    mine = [f"{p}@{s.pieces[p]['space']}" for p in s.on_map(role)]
    if mine:
        out.append(f"# your pieces: {' '.join(mine)}")
    if role == ARCTURAN and s.flight_due():
        nxt = [f for f in s.rules.flights if f not in s.flights_in()]
        out.append(f"# a Flight must enter: one of {', '.join(nxt)}")
    if role == EMPIRE and w.phase == "empire":
        out.append("# face-down Hull Markers: "
                   + " ".join(f"h{s.hull_number(h)}={h}" for h in s.face_down()))
        out.append(f"# cup: {s.cup['cobra']} Cobras, {s.cup['korsen']} Vaj Korsen; free "
                   f"Launchers: {' '.join(s.free_launchers()) or 'none'}")
    return "\n".join(out) + "\n"


def attack_grid(data: dict) -> str:
    """The ATTACK TABLE as printed (How to Attack), one row per Target Rating with its source,
    and the pieces' printed values: put before the kit's list of every sourced value."""
    rules = Rules.from_data(data)
    out = ["ATTACK TABLE (How to Attack): roll 2 dice; at or under the number destroys",
           "  TARGET IS:  " + "  ".join(f"ATTACKER {a}" for a in ATTACK_RATINGS)]
    for target, row in rules.table.rows():
        out.append(f"  {target}           " + "  ".join(f"{n:>10}" for n in row)
                   + f"   ({rules.table.source(target)})")
    out += ["", "Pieces: Attack Rating, Range, Target Rating, Movement Rating, attacks, count"]
    for t in rules.pieces.values():
        out.append(f"  {t.name}: {t.attack}, {t.range}, {t.target}, {t.movement or '-'}, "
                   f"{t.attacks}, {t.count}")
    return "\n".join(out) + "\n"
