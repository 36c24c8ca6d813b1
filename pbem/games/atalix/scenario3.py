"""Escape from Atalix, Scenario 3: Mine for the Taking (hard), a STAND-IN built from the
rulebook's summary ("Scenarios": "Mission control has contacted a nearby space mining company.
With their advanced tech and abundant resources they could extract you from the planet
regardless of the conditions, if you can make it profitable for them. Collect resources for the
mining company and prepare a signal beacon for their arrival, while surviving the planet"), with
"Card Setup: Encounter Cards" (shuffled for scenarios 2 and 3).

State. ``state.equipment``: ``{"beacon": "card" | hex | "carried", "carried": {item: role},
"on": {item: active card}}``; the deliveries are the Mining Deliveries in ``state.projects``.

Readings (stand-ins; README.md "Scenarios 2 and 3"; tests/test_atalix_scenario3.py cites each):

- Setup: the encounter deck (:mod:`.encounters`), the beacon token on its project card. The
  projects: Mining Delivery and Signal Beacon (a 3 in the corners) and those of no number.
- Deliveries. "Collect resources for the mining company": a Mining Delivery is a project paid
  from the team's resources at Build Projects (fixed cost, completed more than once, like the
  Solar Array), up to ``[scenario3] deliveries`` by player count ("make it profitable").
- The beacon. "Prepare a signal beacon": the Signal Beacon project puts its token on the center
  when built; the team carries it (Scenario 1's transport: ``carry beacon``, ``drop beacon``,
  ``give beacon ROLE``) to high ground. It signals while it stands, not carried, on a space of
  ``[scenario3] beacon_elevation`` (3) bars or more with no storm token. A carrier sent back
  by damage or at the end of a round leaves it where it was (as Scenario 1: the goal is out
  there).
- The win (every player scores 1): at the end of a round's turns (before the pawns return),
  the deliveries made and the beacon signalling: the mining company lands. Deliveries and the
  beacon built at a round's Build Projects count from the next round's end of turns. The
  Threats are the rulebook's (turns.end_of_round).
"""

from __future__ import annotations

from . import encounters, scenario1

RULE = "Scenario 3: Mine for the Taking (stand-in)"
DELIVERY, BEACON = "mining-delivery", "signal-beacon"


def start(s, hidden) -> list:
    """Scenario 3's setup (module docstring); the texts."""
    s.equipment.update(beacon="card", carried={}, on={})
    return [encounters.start(s, hidden),
            (f"Scenario 3 (stand-in): {target(s)} Mining Deliveries and a Signal Beacon on "
             f"high ground (elevation {s.data['scenario3']['beacon_elevation']} or more)")]


def target(s) -> int:
    """Mining Deliveries needed (``[scenario3] deliveries`` by player count)."""
    return s.data["scenario3"]["deliveries"][str(len(s.seats))]


def delivered(s) -> int:
    """Mining Deliveries made (completed projects)."""
    return s.projects.count(DELIVERY)


def high_ground(s, board, hex_: str) -> bool:
    """True when the beacon would signal from ``hex_``: elevation ``beacon_elevation`` or more,
    no storm token."""
    return (board.info(hex_).elevation >= s.data["scenario3"]["beacon_elevation"]
            and not s.world.get("storm", {}).get(hex_))


def signalling(s, board) -> str | None:
    """The beacon's hex when it signals (module docstring, The beacon), else None."""
    at = s.equipment.get("beacon", "card")
    return at if at in board.hexmap and high_ground(s, board, at) else None


def transport(turn, line, verb: str, args: dict) -> bool:
    """A ``carry``/``drop``/``give`` line for the beacon in ``turn``: True when done, else a
    problem in ``turn.problems`` quoting it."""
    why = (None if args["item"] == "beacon" else
           f"{args['item']} is not equipment of Scenario 3: expected beacon")
    return scenario1.move_equipment(turn, line, verb, args, RULE, why)


def end_of_turns(s, board) -> list:
    """The end of a round's turns: a carried beacon left on its carrier's space; the win when
    the deliveries are made and the beacon signals (``s.outcome`` set, ``s.stage`` "over").
    Returns the texts."""
    out = []
    for role in s.seats:
        out += scenario1._leave(s, role, s.pawns[role], "the round ends")
    at = signalling(s, board)
    if at and delivered(s) >= target(s):
        why = (f"Scenario 3 (stand-in) completed: {delivered(s)} Mining Deliveries made and "
               f"the beacon signalling from {at} (elevation {board.info(at).elevation}): the "
               f"mining company extracts the crew")
        s.finish(True, why)
        out.append(why)
    return out


def after_projects(s, board, built: list, orders_by_role: dict,
                   problems: dict | None = None) -> list:
    """After Build Projects: the beacon token on the center once built; the deliveries
    counted. Returns the texts."""
    out = []
    if BEACON in built and s.equipment.get("beacon") == "card":
        s.equipment["beacon"] = board.center
        out.append(f"the signal beacon is placed on the center {board.center}: carry it to "
                   f"high ground")
    if DELIVERY in built:
        out.append(f"Mining Deliveries: {delivered(s)} of {target(s)}")
    return out


def project_refusal(s, pid: str) -> str | None:
    """Why ``pid`` cannot be built for Scenario 3's reason (enough deliveries), or None."""
    if pid == DELIVERY and delivered(s) >= target(s):
        return (f"the mining company has its {target(s)} Mining Deliveries: no more are "
                f"needed")
    return None
