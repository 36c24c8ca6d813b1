"""Close Assaults (11.0): a unit that enters a place holding enemy counters stops there (7.3);
a dummy is removed (20.0), a Generator alone is captured (11.0), and a unit is assaulted by the
die-passing interchange on the 4-1 column (:func:`pbem.combat.assault.close_assault`), the
defender rolling first.

Results: DE eliminates, EX eliminates both (12.6), DR2/AR2 retreat two hexes chosen by the
opposing player (:func:`.losses.retreat`); a unit underground and a Strongpoint may stay
(11.0, 12.3.2, 13.5.4), which passes the die. A retreat that ends on an enemy unit is another
Close Assault (12.3), carried out here too.
"""

from __future__ import annotations

from pbem.boards.levels import SURFACE
from pbem.combat.assault import ASSAULTING, DEFENDING, close_assault

from . import losses
from .state import UN, WEB

RULE = "11.0"


def enemies_at(s, side: str, place) -> list:
    """The counters of ``side``'s enemy at ``place`` (same hex and level: 13.3)."""
    return s.counters_at(s.other(side), place)


def _may_stay(s, side: str, uid: str) -> bool:
    r = s.rec(side, uid)
    if s.kind(side, uid) == "strongpoint":
        return True
    return r["level"] != SURFACE and s.standing.get(side, {}).get("underground") != "retreat"


def enter_enemy(run, side: str, uid: str, depth: int = 0) -> None:
    """``side``'s unit ``uid`` has entered a place holding enemy counters (its movement ends
    there, 7.3, 11.0): dummies are removed, a Generator alone captured, a unit assaulted."""
    s = run.s
    place = s.place(side, uid)
    foes = enemies_at(s, side, place)
    if not foes:
        return
    enemy = s.other(side)
    units = [f for f in foes if s.is_unit(enemy, f) is not False]
    if run.dry:
        run.assaulted.update((enemy, f) for f in units)
        return
    units = [f for f in foes if s.is_unit(enemy, f)]
    if units:
        assault(run, side, uid, enemy, units[0], depth)
        r = s.rec(side, uid)
        if r["status"] != "map" or s.place(side, uid) != place:
            return
    _markers(run, side, uid, place)
    losses.note_generator(run)


def _markers(run, side: str, uid: str, place) -> None:
    """``uid`` holds ``place`` with no enemy unit left in it: the Web's other counters there
    are met as 11.0 says, a dummy removed (20.0), the Generator captured (turned face up:
    "If the only Web unit in the hex is the Web Generator, it is considered captured")."""
    s = run.s
    if side != UN:
        return
    for f in s.counters_at(WEB, place):
        kind = s.kinds.get(f)
        if kind == "dummy":
            losses.reveal(run, f, "close assaulted")
            losses.eliminate(run, WEB, f, "a dummy, removed when attacked (20.0)", "removed")
        elif kind == "generator" and not s.web[f].get("face_up"):
            losses.reveal(run, f, "captured")
            run.event("captured", f"{s.name(side, uid)} captures the Web Generator at "
                      f"{place} (11.0).", unit=uid, hex=str(place))


def assault(run, side: str, uid: str, enemy: str, defender: str, depth: int = 0) -> None:
    """The interchange of 11.0 between ``side``'s assaulting ``uid`` and ``enemy``'s
    ``defender`` at the same place, then its results."""
    s = run.s
    run.assaulted.add((enemy, defender))
    for who, u in ((side, uid), (enemy, defender)):
        if who == WEB:
            losses.reveal(run, u, "close assaulted" if u == defender else "it moved")
    names = {ASSAULTING: (side, uid), DEFENDING: (enemy, defender)}
    column = s.rules["assault_column"]

    def roll(why: str) -> int:
        return run.roll(f"{why} (at {s.place(side, uid)})")

    ex = close_assault(s.rules.crt, column, roll,
                       may_stay={ASSAULTING: _may_stay(s, side, uid),
                                 DEFENDING: _may_stay(s, enemy, defender)})
    said = ", ".join(f"{'defender' if r.roller == DEFENDING else 'assaulter'} rolls {r.die}: "
                     f"{r.result} ({r.effect})" for r in ex.rolls)
    run.event("assault", f"{s.name(side, uid)} close assaults {s.name(enemy, defender)} at "
              f"{s.place(side, uid)} on the {column} column: {said} (11.0).",
              attack={"from": s.place(side, uid).hex, "to": s.place(enemy, defender).hex,
                      "result": "/".join(r.result for r in ex.rolls)})
    for key in (DEFENDING, ASSAULTING):
        who, u = names[key]
        if key in ex.eliminated:
            losses.eliminate(run, who, u, "close assault (11.0)")
    for key in (DEFENDING, ASSAULTING):
        who, u = names[key]
        if key in ex.retreats and key not in ex.eliminated:
            if losses.retreat(run, who, u) == "assault" and depth < 8:
                enter_enemy(run, who, u, depth + 1)
