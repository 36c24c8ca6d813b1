"""Escape from Atalix, the encounter deck of Scenarios 2 and 3 (a STAND-IN: the rulebook names
the cards but prints none of them).

Rulebook: "Separate Cards" ("Encounter cards have a red back with a picture of a planet"),
"Card Setup: Encounter Cards" ("If you are doing scenario 2 or 3, shuffle the encounter cards
and place them in a single pile"), "Taking Damage" ("Specific encounters will also cause damage
to players"), "Weapons Card" ("useful for defending yourself against the alien and for
completing encounters") and "Action Phase" ("Actions are sometimes used to complete scenario
specific tasks"). The cards are data.toml's ``[encounters.<id>]`` rows (``name``, ``count``,
``scenario``, ``need``, ``done``, ``fail``; the effect vocabulary is listed above them there);
one instance per copy, ``<id>-<n>`` (``rockslide-2``).

Readings (stand-ins; README.md "Scenarios 2 and 3"; tests/test_atalix_encounters.py cites each):

- The deck. At setup the cards of scenario 0 and of the scenario played are shuffled on the
  hidden stream: the order is the referee's (``state.encounters["deck"]``, top first); a drawn
  card goes face up on the discard pile (public, in the order drawn). An empty deck is the
  discard pile shuffled again on the hidden stream (the rulebook does not say).
- When. The rulebook does not say when an encounter is met. A player draws the top card at the
  end of each Action Phase turn that ends on a space other than the base (the center; the
  cave after Scenario 1's alternative, which has no encounters) and other than the space where
  the turn began: an encounter is met on the trail, not at the ship nor standing still. A pawn
  sent back to the center by damage meets none.
- Completing it. A card with a ``need`` is completed at once when the player has it left in
  that turn (the ability or action would be discarded unused anyway): ``weapons`` uses the
  attack of a Weapons card played (or active) not yet used nor lost (the first of the turn's
  abilities: active cards first, then in play order), ``action`` one basic action not spent.
  Then its ``done`` effects; else its ``fail`` effects. A card with no need has only ``done``
  effects, always carried out.
- Effects, on the drawing player (``amount`` N, default 1): ``damage`` N (Taking Damage: cards
  from the draw deck, then played cards with unused abilities, else back to the center);
  ``gain`` / ``lose`` N of a resource to / from the team (never below 0); ``storm`` N tokens
  from the supply on the player's space (never the center; none left: the storm is exhausted,
  lost at the end of the round as Threats says); ``alien`` N spaces toward the player along a
  shortest path that does not cross the center (the first in label order, as Event 2's
  default; the encounter is not the alien's attack on the ship), entering a space with players
  deals each of them 2 damage; ``part`` N rover parts on the player's space (Scenario 2:
  :func:`.scenario2.find_part`).
"""

from __future__ import annotations

from collections.abc import Callable

from . import damage
from .planning import card_type

RULE = "Encounter Cards (stand-in)"


def cards(data: dict, scenario: int) -> list:
    """The encounter card instances of ``scenario`` (2 or 3): each row of scenario 0 or
    ``scenario``, ``count`` times (``<id>-1`` ..), in data order."""
    return [f"{eid}-{n}" for eid, e in data["encounters"].items()
            if e["scenario"] in (0, scenario) for n in range(1, e["count"] + 1)]


def start(s, hidden) -> str:
    """Card Setup: the deck of :func:`cards` shuffled on the ``hidden`` stream into
    ``s.encounters`` (``{"deck": [...], "discard": []}``). Returns the setup text."""
    deck = hidden.shuffle(cards(s.data, s.options["scenario"]), "the encounter deck")
    s.encounters = {"deck": list(deck), "discard": []}
    return f"the {len(deck)} encounter cards are shuffled into a face-down pile"


def due(turn, base: str) -> bool:
    """True when ``turn`` (an Action Phase turn, its ``began`` the pawn's space when it began)
    ends with an encounter (module docstring, When)."""
    here = turn.here
    return here != getattr(turn, "began", here) and turn.board.hexmap.distance(here, base) >= 2


def draw(s, hidden) -> str:
    """The top encounter card, put face up on the discard pile; an empty deck is the discard
    pile shuffled again on ``hidden`` first. Raises ``ValueError`` when there is no encounter
    deck (Scenario 1)."""
    enc = s.encounters
    if not enc:
        raise ValueError("no encounter deck: encounters are met in scenarios 2 and 3")
    if not enc["deck"]:
        enc["deck"] = list(hidden.shuffle(enc["discard"], "the encounter deck, reshuffled"))
        enc["discard"] = []
    card = enc["deck"].pop(0)
    enc["discard"].append(card)
    return card


def meet(turn, hidden, base: str, find_part: Callable | None = None) -> list:
    """The encounter ending ``turn`` when one is :func:`due`: drawn (:func:`draw`) and resolved
    (:func:`resolve`). Returns the texts (also added to ``turn.events``)."""
    if not turn.state.encounters or not due(turn, base):
        return []
    return resolve(turn, draw(turn.state, hidden), find_part)


def resolve(turn, card: str, find_part: Callable | None = None) -> list:
    """Carry out encounter ``card`` (an instance id) for ``turn``'s player (module docstring:
    completing it, effects). ``find_part(turn, n)`` places rover parts (Scenario 2; None: the
    effect does nothing). Returns the texts, also added to ``turn.events``."""
    row = turn.state.data["encounters"][card_type(card)]
    head = f"encounter on {turn.here}: {row['name']} ({card})"
    need = row.get("need")
    if need is None:
        effects, how = row["done"], ""
    else:
        used = _complete(turn, need)
        effects = row["done"] if used else row.get("fail", [])
        how = (f": completed with {used}" if used else
               f": not completed (no {'Weapons attack' if need == 'weapons' else 'action'} "
               f"left)")
    start = len(turn.events)
    turn.events.append(head + how)
    for e in effects:
        _EFFECT[e["what"]](turn, e.get("amount", 1), e.get("resource"), find_part)
    return turn.events[start:]


def _complete(turn, need: str) -> str | None:
    """Spend what completes the encounter; the text naming it, or None when nothing is left."""
    if need == "action":
        if turn.actions_left < 1:
            return None
        turn._spend()
        return "an unused action"
    for a in turn.plan.abilities:
        key = (a["card"], a["index"])
        if (a["what"] == "attack" and key not in turn.used and a["card"] not in turn.lost
                and (a["card"] in turn.player.played or a["card"] in turn.player.active)):
            turn.used.add(key)
            return f"{a['card']}'s attack"
    return None


# Each effect adds its texts to ``turn.events`` (damage: Turn._hurt's own text).
def _damage(turn, n: int, _resource, _find) -> None:
    turn._hurt(n, turn.here)


def _gain(turn, n: int, resource: str, _find) -> None:
    turn._team(resource, n)
    turn.events.append(f"{n} {resource} to the team")


def _lose(turn, n: int, resource: str, _find) -> None:
    team = turn.world["team"]
    lost = min(n, team.get(resource, 0))
    team[resource] = team.get(resource, 0) - lost
    turn.events.append(f"the team loses {lost} {resource}")


def _storm(turn, n: int, _resource, _find) -> None:
    here, world = turn.here, turn.world
    if here == turn.board.center:
        turn.events.append("no storm token on the center (\"A storm token cannot enter the "
                           "center board space\")")
        return
    for _ in range(n):
        if world.get("storm_supply", 0) < 1:
            world["storm_exhausted"] = True
            turn.events.append("no storm token left to place: the storm tokens ran out "
                               "(Threats)")
            return
        world["storm_supply"] -= 1
        world.setdefault("storm", {})[here] = world["storm"].get(here, 0) + 1
        turn.events.append(f"a storm token from the supply on {here} "
                           f"({world['storm_supply']} left)")


def _alien(turn, n: int, _resource, _find) -> None:
    board, world = turn.board, turn.world
    for _ in range(n):
        alien, here = world.get("alien"), turn.here
        if alien is None or alien == here or here == board.center:
            turn.events.append("the alien does not move" if alien is None or alien == here
                               else "the player is back at the center: the alien stays")
            return
        paths = board.shortest_paths(alien, here, lambda h: h != board.center)
        if not paths:
            turn.events.append("the alien finds no way around the ship: it stays")
            return
        to = paths[0][0]
        turn.events.append(f"the alien moves {alien}->{to}, toward {turn.role}")
        turn._push(to)  # the other players there take 2 damage
        if to == here:
            turn._hurt(damage.ALIEN_DAMAGE, to)


def _part(turn, n: int, _resource, find: Callable | None) -> None:
    if find is None:
        turn.events.append("no rover part outside Scenario 2")
    else:
        find(turn, n)


_EFFECT: dict[str, Callable] = {"damage": _damage, "gain": _gain, "lose": _lose,
                                "storm": _storm, "alien": _alien, "part": _part}
