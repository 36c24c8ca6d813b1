"""Attacks (How to Attack): range and the ATTACK TABLE roll.

Range is :meth:`GraphBoard.distance`: the spaces counted from the Attacker to the Target,
"including the space the Target is in but not the space the Attacker is in" (How to Attack 1),
so a target in the next space is at range 1 and one in the same space (README reading 5) at 0.
The roll is two six-sided dice on the phase's public stream (How to Attack 3: "If the number on
the dice is less than or the same as the number found in step 2, the Target is destroyed").
"""

from __future__ import annotations

from pbem.engine.ruleset import Event

RULE_RANGE = "How to Attack 1"
RULE_ROLL = "How to Attack 2-3"


def attack_range(s, attacker: str, target: str) -> int | None:
    """Spaces from ``attacker``'s space to ``target``'s (How to Attack 1); None if unreachable."""
    return s.board.distance(s.pieces[attacker]["space"], s.pieces[target]["space"])


def roll(s, chance, why: str) -> tuple[int, list]:
    """``(total, [die, ...])``: the dice of the ATTACK TABLE (data ``attack_dice``: 2d6) rolled
    on ``chance.public`` with the public reason ``why``."""
    table = s.rules.table
    dice = [chance.public.roll(table.sides, why) for _ in range(table.dice)]
    return sum(dice), dice


def resolve_roll(s, chance, attack: str, target: str, why: str) -> tuple[bool, str]:
    """Roll for an attack of Attack Rating ``attack`` on Target Rating ``target``: ``(hit,
    "needs N, rolls a+b = T")``. ``why`` names the attack (its needed number is added)."""
    needed = s.rules.table.needed(attack, target)
    total, dice = roll(s, chance, f"{why} (needs {needed})")
    hit = s.rules.table.destroys(attack, target, total)
    return hit, f"needs {needed}, rolls {'+'.join(map(str, dice))} = {total}"


def attack_piece(s, chance, attacker: str, target: str) -> Event:
    """Carry out one attack of ``attacker`` on the enemy piece ``target`` (in range: the caller
    checked), rolling on ``chance.public``; a destroyed target leaves the game (Destroyed
    Pieces). Returns the public event."""
    a, t = s.ptype(attacker), s.ptype(target)
    dist = attack_range(s, attacker, target)
    why = f"{s.name(attacker)} attacks {s.name(target)}"
    hit, said = resolve_roll(s, chance, a.attack, t.target, why)
    where = {"from": s.pieces[attacker]["space"], "to": s.pieces[target]["space"], "hit": hit}
    if hit:
        rec = s.pieces[target]
        rec["status"], rec["space"] = "destroyed", None
    text = (f"{why} at range {dist}: {said}: "
            f"{'destroyed' if hit else 'no effect'}.")
    return Event("attack", text, data={"attacker": attacker, "target": target, "hit": hit,
                                       "attack": where})
