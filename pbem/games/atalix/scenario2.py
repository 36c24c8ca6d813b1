"""Escape from Atalix, Scenario 2: Rover, Rover (medium), a STAND-IN built from the rulebook's
summary ("Scenarios": "Among the cargo of the ship was an all-terrain capable human transport
rover. The rover could protect your crew as you traverse safely out of the area. However ...
vital pieces of the rover were broken apart and strewn about the landscape. Mission control
believes if you could find the parts, the high tech tools on the ship would allow you to repair
the rover"), with "Card Setup" (the Scanner cards under the Scanner Array "If you are doing
scenario 2"; the encounter deck) and the "Scanner Card" (scan for parts: a black disc).

State. ``state.equipment``: ``{"parts": [locations], "carried": {item: role}, "on": {item:
active card}, "rover": "card" | hex}``, a part's location a hex, ``"carried"`` or ``"rover"``
(installed). The items are ``part-1``, ``part-2``.. in the order the discs were placed.

Readings (stand-ins; README.md "Scenarios 2 and 3"; tests/test_atalix_scenario2.py cites each):

- Setup: the encounter deck (:mod:`.encounters`, with this scenario's Rover Debris), the rover
  on its project card, no part on the board. The projects: the Scanner Array and the Rover
  Repair (a 2 in the corners) and those of no number.
- Parts. A part is a black disc placed by the Scanner's scan for parts (:mod:`.tools`, which
  appends its hex to ``equipment["parts"]``) or by the Rover Debris encounter (on the player's
  space, picked up at once onto an active card carrying nothing, if any). There are
  ``[scenario2] discs`` discs (4): no part is placed once they are all out.
- Transport is Scenario 1's (:mod:`.scenario1`: ``carry``, ``drop``, ``give``, no action, the
  carrying card's abilities lost) for ``part-N``. "If a player is forced to return to base by a
  round ending or by damage, they can choose to leave the equipment where it was": here the
  judge chooses for the team what serves it, so a carrier sent back (by damage, or at the end
  of the round) takes the part along to the ship, where it is unloaded at the round's end.
- The ship is the center: a part there, not carried, is at the ship. The Rover Repair is a
  project (Build Projects, fixed cost) completed only with ``[scenario2] parts`` parts (by
  player count) at the ship; they are installed ("rover"), and the rover stands on the center.
- The win (every player scores 1): "traverse safely out of the area" is read as the crew
  boarding the repaired rover: at the end of a later round's turns (before the pawns return),
  every pawn on the rover's space. The Threats are the rulebook's (turns.end_of_round).
"""

from __future__ import annotations

from . import encounters, scenario1
from .actions import Turn
from .tools import discs_left

RULE = "Scenario 2: Rover, Rover (stand-in)"
PROJECT = "rover-repair"


def start(s, hidden) -> list:
    """Scenario 2's setup (module docstring); the texts."""
    s.equipment.update(parts=[], carried={}, on={}, rover="card")
    return [encounters.start(s, hidden),
            f"Scenario 2 (stand-in): {needed(s)} rover parts to find and bring to the ship"]


def needed(s) -> int:
    """Parts the Rover Repair needs at the ship (``[scenario2] parts`` by player count)."""
    return s.data["scenario2"]["parts"][str(len(s.seats))]


def at_ship(s, center: str) -> list:
    """The parts on the center, not carried nor installed (``part-N`` ids, in order)."""
    return [f"part-{i + 1}" for i, loc in enumerate(s.equipment.get("parts", []))
            if loc == center]


def place_part(s, hex_: str) -> bool:
    """A black disc on ``hex_`` when one is left (``[scenario2] discs``): True when placed."""
    if discs_left(s) <= 0:
        return False
    s.equipment.setdefault("parts", []).append(hex_)
    return True


def find_part(turn, n: int) -> None:
    """The Rover Debris encounter: ``n`` parts on the player's space, each picked up at once
    onto an active card carrying nothing (module docstring, Parts). Texts to ``turn.events``."""
    s, role = turn.state, turn.role
    for _ in range(n):
        if not place_part(s, turn.here):
            turn.events.append(f"no black disc left: all {s.data['scenario2']['discs']} "
                               f"parts are out")
            return
        item = f"part-{len(s.equipment['parts'])}"
        free = [c for c in s.players[role].active if c not in scenario1._cards_of(s, role)]
        if not free:
            turn.events.append(f"a rover part, {item}, lies on {turn.here}")
            continue
        scenario1._put(s, item, "carried")
        s.equipment["carried"][item], s.equipment["on"][item] = role, free[0]
        scenario1._block(turn, free[0])
        turn.events.append(f"a rover part, {item}: {role} picks it up on {turn.here}, on "
                           f"{free[0]} (its abilities unusable)")


class PartsTurn(scenario1.EquipmentTurn):
    """An Action Phase turn of Scenario 2: the carrying cards lose their abilities (as
    Scenario 1), but a carrier sent back to the center keeps its parts (module docstring)."""

    def _hurt(self, n: int, where_: str) -> bool:
        return Turn._hurt(self, n, where_)

    def _push(self, to: str) -> None:
        Turn._push(self, to)


def transport(turn, line, verb: str, args: dict) -> bool:
    """A ``carry``/``drop``/``give`` line for a rover part in ``turn``: True when done, else a
    problem in ``turn.problems`` quoting it."""
    s, item = turn.state, args["item"]
    parts = s.equipment.get("parts", [])
    n = int(item[5:]) if item.startswith("part-") else 0
    why = (f"{item} is not equipment of Scenario 2: expected a rover part "
           f"({', '.join(f'part-{i}' for i in range(1, len(parts) + 1)) or 'none found yet'})"
           if not 1 <= n <= len(parts) else
           f"{item} is installed in the rover" if parts[n - 1] == "rover" else None)
    return scenario1.move_equipment(turn, line, verb, args, RULE, why)


def end_of_turns(s, board) -> list:
    """The end of a round's turns: the carried parts taken along to the ship (the center) and
    unloaded; the win when the rover is repaired and every pawn is on its space (``s.outcome``
    set, ``s.stage`` "over"). Returns the texts."""
    eq, out = s.equipment, []
    for item, role in list(eq["carried"].items()):
        scenario1._leave_one(s, item, board.center)
        out.append(f"{role} brings {item} back to the ship on {board.center}")
    rover = eq.get("rover", "card")
    if rover != "card" and all(s.pawns[r] == rover for r in s.seats):
        why = (f"Scenario 2 (stand-in) completed: the rover repaired, every player aboard on "
               f"{rover}: the crew traverses safely out of the area")
        s.finish(True, why)
        out.append(why)
    return out


def after_projects(s, board, built: list, orders_by_role: dict,
                   problems: dict | None = None) -> list:
    """After Build Projects: the Rover Repair just built installs the parts at the ship and
    puts the rover on the center. Returns the texts."""
    if PROJECT not in built:
        return []
    used = at_ship(s, board.center)[:needed(s)]
    for item in used:
        scenario1._put(s, item, "rover")
    s.equipment["rover"] = board.center
    return [(f"the rover is repaired with {', '.join(used)} and stands on {board.center}: "
             f"every player aboard it at the end of a round's turns escapes")]


def project_refusal(s, pid: str) -> str | None:
    """Why ``pid`` cannot be built for Scenario 2's reason (the parts), or None."""
    if pid != PROJECT:
        return None
    center = s.board.group("center")[0]
    have = at_ship(s, center)
    if len(have) < needed(s):
        return (f"the Rover Repair needs {needed(s)} rover parts at the ship (on the center "
                f"{center}, not carried): {len(have)} there ({', '.join(have) or 'none'})")
    return None

