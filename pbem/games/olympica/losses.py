"""What happens to a counter: turned face up (5.2), eliminated, DUSTed (12.5), avalanches
(7.4.3), retreats of two hexes (12.3, 12.4), and the Generator stacked with (4.1, 4.2, 19.3).

Every function works on a :class:`~.run.Run` (``run.s`` the state); dry runs change the state
as if nothing were rolled (no avalanche, every retreat the first legal one).
"""

from __future__ import annotations

import functools

from pbem.boards.levels import SURFACE, Place
from pbem.boards.retreat import choose, retreat_paths

from .state import UN, WEB, WEB_NAMES

UN_FRAGILE = ("un-lifter", "un-boar")
"""Destroyed, not avalanched, in cliff and incline hexes (7.4.3, 14.3, 17.1, 18.3)."""


def reveal(run, marker: str, why: str) -> None:
    """Turn a Web counter face up (5.2: it moved or fired, or was attacked); a public event
    names its kind from now on. Nothing happens to one already face up."""
    s = run.s
    r = s.web[marker]
    if r.get("face_up"):
        return
    r["face_up"] = True
    r["kind"] = s.kinds.get(marker, r.get("kind"))
    if r["kind"] is not None:
        run.event("reveal", f"{marker} is turned face up ({why}): {WEB_NAMES[r['kind']]}.",
                  marker=marker, kind=r["kind"])


def eliminate(run, side: str, uid: str, why: str, status: str = "eliminated") -> None:
    """Take a counter off the map (``status``: ``eliminated``; ``removed`` for a dummy, 20.0)."""
    s = run.s
    r = s.rec(side, uid)
    if side == WEB and not r.get("face_up"):
        reveal(run, uid, "it is removed")
    where = str(Place(r["hex"], r["level"]))
    r.update(status=status, dust=False)
    run.event("eliminated", f"{s.name(side, uid)} at {where} is {status} ({why}).",
              side=side, unit=uid, hex=where)


def dust(run, side: str, uid: str) -> None:
    """A DUST result (12.5): the defender may not move in its next Movement Phase and is halved.
    Strongpoints and units underground in Tunnel Mouths ignore it (12.5, 13.5.2)."""
    s = run.s
    r = s.rec(side, uid)
    if s.kind(side, uid) == "strongpoint":
        run.event("dust", f"{s.name(side, uid)} ignores DUST (12.5, 16.1).")
        return
    if r["level"] != SURFACE and s.tunnel_map().is_mouth(r["hex"]):
        run.event("dust", f"{s.name(side, uid)} under a Tunnel Mouth ignores DUST (12.5, "
                  f"13.5.2).")
        return
    if not r.get("dust"):
        r["dust"] = True
        run.event("dust", f"{s.name(side, uid)} gets a DUST marker (12.5).", side=side,
                  unit=uid)


def enters_hex(run, side: str, uid: str, h: str, how: str) -> bool:
    """A U.N. unit enters surface hex ``h`` by ``how`` (move, compulsion, retreat, drop): a
    Lifter or the BOAR in a cliff or incline hex is destroyed (7.4.3, 14.3, 17.1, 18.3;
    a moving Lifter only where it ends, the caller's business), another U.N. unit in a cliff
    hex rolls for an avalanche (6: eliminated, 7.4.3). True when the unit survives."""
    s = run.s
    if side != UN:
        return True
    terrain = s.board.terrain(h)
    kind = s.un[uid]["kind"]
    if kind in UN_FRAGILE and terrain in ("cliff", "incline") and not (
            kind == "un-lifter" and how == "move"):
        eliminate(run, UN, uid, f"{'a Lifter' if kind == 'un-lifter' else 'the BOAR'} in "
                  f"{'an' if terrain == 'incline' else 'a'} {terrain} hex (7.4.3, 14.3, 17.1, "
                  f"18.3)", "eliminated")
        return False
    if not s.rules.terrain[terrain]["avalanche"] or kind in UN_FRAGILE:
        return True
    die = run.roll(f"avalanche: {uid} enters the cliff hex {h}")
    if die is None:
        return True
    if die >= s.rules["avalanche_roll"]:
        eliminate(run, UN, uid, f"an avalanche: rolled {die} entering the cliff hex {h} "
                  f"(7.4.3)")
        return False
    run.event("avalanche", f"{s.name(UN, uid)} enters the cliff hex {h}: rolled {die}, no "
              f"avalanche (7.4.3).", unit=uid, die=die)
    return True


def note_generator(run) -> None:
    """Record that a U.N. unit stands on the same level as the Generator (13.3): the Web
    Major Victory is lost (4.1, 4.2)."""
    s = run.s
    gen = s.generator()
    if gen is None or s.web[gen]["status"] != "map" or s.stacked:
        return
    if s.counters_at(UN, s.place(WEB, gen)):
        s.stacked = True


# -- retreats (12.3, 12.4) ---------------------------------------------------------------------

def _chooser_key(s, side: str, uid: str, chooser: str):
    """The key the choosing player's standing order (``retreat away|toward HEX``) or the
    default puts on a retreat's end hex. The default uses public facts only (a choice made from
    the Generator's secret hex would show where it is): both players push the retreating unit
    away from the middle of the dotted area, where the Generator was set up (README,
    "Readings of the rules")."""
    order = s.standing.get(chooser, {}).get("retreat")
    if order:
        target, sign = Place.parse(order["hex"]).hex, (-1 if order["how"] == "away" else 1)
    else:
        sign, target = -1, dotted_middle(s.board)
    return lambda path: sign * s.board.distance(path.hexes[-1], target)


@functools.lru_cache(maxsize=8)
def dotted_middle(board) -> str:
    """The hex of the dotted area (5.2) whose farthest dotted hex is nearest (its middle), ties
    by label: what the default retreats push away from."""
    dotted = board.group("dotted")
    return min(dotted, key=lambda h: (max(board.distance(h, o) for o in dotted), h))


def retreat(run, side: str, uid: str, *, defender: bool = False) -> str:
    """Retreat ``side``'s unit two hexes (AR2/DR2), chosen by the opposing player (12.3,
    12.4): onto the ring at two hexes, not off the map, not onto a friendly unit, onto an
    enemy only when nothing else is possible (a Close Assault then completes the retreat), no
    cliff to cliff step (12.3.1). Strongpoints ignore retreats (12.3.2, 16.1); a unit
    underground stays unless its owner's standing order is ``underground retreat`` (12.3.2).
    ``defender``: a DR2 of Ranged Combat, which a unit underground never takes (12.4: "unless
    the defending unit is ... underground in a Tunnel Mouth or Deep Tunnel"); a Laser Tank under
    a Tunnel Mouth ignores every retreat (16.1). Returns ``"stayed"``, ``"retreated"``,
    ``"eliminated"`` or ``"assault"`` (the caller carries out the Close Assault at the unit's new
    hex)."""
    s = run.s
    r = s.rec(side, uid)
    if s.kind(side, uid) == "strongpoint":
        run.event("retreat", f"{s.name(side, uid)} ignores the retreat (12.3.2, 16.1).")
        return "stayed"
    under = r["level"] != SURFACE
    tank = s.kind(side, uid) == "un-laser-tank" and s.tunnel_map().is_mouth(r["hex"])
    if under and (defender or tank):
        run.event("retreat", f"{s.name(side, uid)} is underground and does not retreat "
                  f"({'12.4' if defender else '16.1'}).")
        return "stayed"
    if r["level"] != SURFACE and s.standing.get(side, {}).get("underground") != "retreat":
        run.event("retreat", f"{s.name(side, uid)} is underground and stays (12.3.2).")
        return "stayed"
    if r.get("dust"):
        r["dust"] = False  # 12.3.3
    enemy = s.other(side)
    board = s.board

    def friendly(h):
        return any(s.is_unit(side, u) for u in s.counters_at(side, Place(h)) if u != uid)

    def hostile(h):
        return bool(s.counters_at(enemy, Place(h)))

    def step_ok(a, b):
        return not (board.terrain(a) == "cliff" and board.terrain(b) == "cliff")

    paths = retreat_paths(board, r["hex"], s.rules["retreat_hexes"], step_ok=step_ok,
                          friendly=friendly, enemy=hostile)
    start = str(Place(r["hex"], r["level"]))
    if not paths:
        eliminate(run, side, uid, "no hex to retreat to (12.3)")
        return "eliminated"
    path = choose(paths, key=_chooser_key(s, side, uid, enemy))
    r.update(level=SURFACE)
    for h in path.hexes:
        r["hex"] = h
        if not enters_hex(run, side, uid, h, "retreat"):
            return "eliminated"
    run.event("retreat", f"{s.name(side, uid)} retreats {start} -> {'-'.join(path.hexes)} "
              f"(12.3).", side=side, unit=uid, path=[r_ for r_ in [start.rstrip('u')]
                                                      + list(path.hexes)])
    return "assault" if path.assault else "retreated"
