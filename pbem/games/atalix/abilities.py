"""Escape from Atalix, the card abilities of the Action Phase: what a ``use CARD N [ARGS...]``
line (or a salvaged card) carries out on a :class:`~pbem.games.atalix.actions.Turn`.

Rulebook sections "Action Phase" ("Players may use any of their italicized action abilities"),
"Research Track", "Purchasing Cards and the Card Cost Meter", "Weapons Card", "Movement
Restrictions" and the Action Phase's Scavenge (salvage). The Terraform Tool and the Scanner
are :mod:`.tools`. Each ability is a function ``(turn, entry, args, salvage=False)``:
``entry`` the ability as :class:`~pbem.games.atalix.planning.Plan` lists it (``card``,
``index``, ``what``, ``amount`` and the data's keys), ``args`` the line's words after ``CARD
N``, ``salvage`` True for a card salvaged while scavenging (its abilities are not the player's
to mark used). A refusal raises :class:`Refused` before anything changes; the turn records it.

Readings (the rulebook leaves them open; tests/test_atalix_actions.py cites each):

- Move and climb abilities of ``amount`` N: up to N spaces, each step flat (Move) or one level up
  (Climb); they cost no basic action.
- Weapons: hit 1 turns the alien, hit 2 pushes it one space directly away (it stays at the map's
  edge; players there take 2 damage), further hits are only counted in ``world["alien_damage"]``.
- Research with the dice benefit reached: a public d6, rerolled while it equals the last
  resource roll (Event 1). The Active Card benefit is chosen in a later Planning Phase
  (:func:`.planning.choose_actives`).
- Salvage carries out the italic abilities that need no choice written in advance (+N actions,
  gain, collect, attack) within the research level, one of each OR (the first that can be); the
  rest are problems. The salvaged card goes to the bottom of the Upgrade deck (stand-in: the
  rulebook does not say).
"""

from __future__ import annotations

from typing import Callable

from . import damage
from .board import climb_problem, move_problem
from .events import EndState, place_resources
from .planning import card_type

__all__ = ["ABILITIES", "SALVAGED", "Refused", "damage_text", "deck_card", "listed", "salvage"]

ACTION, MOVEMENT, DAMAGE = "Action Phase", "Movement Restrictions", "Taking Damage"
WEAPONS, RESEARCH, SCAVENGE = "Weapons Card", "Research Track", "Scavenge"
PURCHASE = "Purchasing Cards and the Card Cost Meter"
SALVAGED = ("actions", "gain", "collect", "attack")
"""The abilities a salvaged card carries out (module docstring, Salvage)."""


class Refused(Exception):
    """A line that cannot be carried out: ``section`` (the rule) and ``why`` (what is wrong
    and what was expected)."""

    def __init__(self, section: str, why: str):
        super().__init__(why)
        self.section, self.why = section, why


def no_args(args: list[str]) -> None:
    """Refuse words after an ability that takes none."""
    if args:
        raise Refused(ACTION, f"unexpected {' '.join(args)!r}: this ability takes none")


def gain(turn, entry: dict, args: list[str], salvage: bool = False) -> None:
    """Gain Resource: ``amount`` of ``resource`` to the team."""
    no_args(args)
    turn._mark(entry, salvage)
    turn._team(entry["resource"], entry["amount"])
    turn.events.append(f"{turn.role}: {entry['card']} gains {entry['amount']} "
                       f"{entry['resource']}")


def actions(turn, entry: dict, args: list[str], salvage: bool = False) -> None:
    """+N Action: already in the plan's budget (a no-op), except for a salvaged card."""
    no_args(args)
    if salvage:
        turn.actions_left += entry["amount"]
    turn.events.append(f"{turn.role}: {entry['card']} +{entry['amount']} action(s)"
                       + ("" if salvage else " (already in the budget)")
                       + f": {turn.actions_left} left")


def collect(turn, entry: dict, args: list[str], salvage: bool = False) -> None:
    """Collect a resource cube: the cube of the pawn's space, without a basic action."""
    turn._check_cube(args)
    turn._mark(entry, salvage)
    turn._take_cube(f"{entry['card']} collects")


def step(turn, entry: dict, args: list[str], salvage: bool = False) -> None:
    """A move or climb ability of ``amount`` N: the 1 to N spaces entered, in order."""
    what, most = entry["what"], entry["amount"]
    if not 1 <= len(args) <= most:
        raise Refused(ACTION, f"{entry['card']} {what} {most}: expected 1 to {most} spaces")
    here, paths = turn.here, turn._paths()
    for there in args:
        why = (move_problem(turn.board, paths, here, [there]) if what == "move"
               else climb_problem(turn.board, paths, here, there))
        if why:
            raise Refused(MOVEMENT if MOVEMENT in why else ACTION, why)
        here = there
    turn._mark(entry, salvage)
    turn._walk(args, f"{entry['card']} {what}")


def research(turn, entry: dict, args: list[str], salvage: bool = False) -> None:
    """Research Track: pay the card's cost, advance ``amount`` steps; the benefits of each level
    reached at once."""
    no_args(args)
    cost = dict(entry.get("cost", {}))
    why = turn._short(cost)
    if why:
        raise Refused(RESEARCH, why)
    turn._mark(entry, salvage)
    turn._pay(cost)
    before = turn._level()
    turn.state.research += entry["amount"]
    after = turn._level()
    turn.events.append(f"{turn.role}: {entry['card']} pays {listed(cost) or 'nothing'}: "
                       f"research {turn.state.research} (level {after})")
    for lv in turn.state.data["research"]["levels"]:
        if before < lv["level"] <= after:
            _benefits(turn, lv)


def _benefits(turn, lv: dict) -> None:
    """A research level's benefits "as soon as the research level is achieved"."""
    if "dice" in lv["benefits"]:
        es = EndState.from_dict(turn.world)
        number = turn.dice.roll(6, f"research level {lv['level']}: resources")
        while number == es.last_resource_roll:
            number = turn.dice.roll(6, f"research level {lv['level']}: resources, reroll")
        given = place_resources(turn.board, es, number)
        for k in ("resources", "last_resource_roll", "distributed_this_round"):
            turn.world[k] = getattr(es, k)
        turn.events.append(f"research level {lv['level']}: d6 {number}: cubes on "
                           f"{', '.join(given) or 'no space without one'}")
    if "active-card" in lv["benefits"]:
        turn.events.append(f"research level {lv['level']}: an additional active card may "
                           f"be chosen from the next Planning Phase")


def buy(turn, entry: dict, args: list[str], salvage: bool = False) -> None:
    """Purchasing Cards: ``CARD`` or ``CARD replace DUPLICATE`` from the face-up upgrades (and
    the Scanner's extra cards), at the meter's price; the meter advances."""
    market = turn.state.market
    if len(args) not in (1, 3) or (len(args) == 3 and args[1] != "replace"):
        raise Refused(PURCHASE, "expected 'buy CARD' or 'buy CARD replace DUPLICATE'")
    card, dup = args[0], (args[2] if len(args) == 3 else None)
    if market is None or card not in market.available():
        raise Refused(PURCHASE, f"{card} is not among the face-up upgrades: expected one "
                                f"of {market.available() if market else []}")
    if dup is not None:
        dups = market.duplicates(card_type)
        if dup not in dups or dup == card or not len(market.deck):
            raise Refused(PURCHASE, f"{dup} cannot be replaced: expected a duplicate of the "
                                    f"row {dups}, other than {card}, with cards in the deck")
    meter = turn._meter()
    price = meter.cost(turn._cost(card))
    why = turn._short(price)
    if why:
        raise Refused(PURCHASE, why)
    turn._mark(entry, salvage)
    if dup is not None:
        new = market.replace_duplicate(dup, turn.hidden, "a replaced duplicate's place in "
                                       "the Upgrade deck", kind_of=card_type)
        turn.events.append(f"{turn.role}: replaces the duplicate {dup} by {new}")
    turn._pay(price)
    meter.record_purchase()
    turn.state.meter = meter.to_json()
    market.take(card)
    turn.player.gain(card)
    turn.events.append(f"{turn.role}: buys {card} for {listed(price)}")


def attack(turn, entry: dict, args: list[str], salvage: bool = False) -> None:
    """Weapons Card: hit the alien on an adjacent space (module docstring)."""
    no_args(args)
    alien = turn.world.get("alien")
    if alien is None or not turn.board.hexmap.adjacent(turn.here, alien):
        raise Refused(WEAPONS, f"the alien ({alien}) is not adjacent to {turn.here}: "
                               f"\"you must be in an adjacent square\"")
    turn._mark(entry, salvage)
    hits = turn.world["alien_damage"] = turn.world.get("alien_damage", 0) + 1
    text = f"{turn.role}: {entry['card']} hits the alien on {alien} (hit {hits})"
    to = None
    if hits == 1:
        text += ": turned on its side"
    elif hits == 2:
        hexmap = turn.board.hexmap
        to = hexmap.step(alien, hexmap.line_direction(turn.here, alien))
        text += (f": stood up and pushed to {to}" if to else ": stood up (the map's edge "
                 "behind it: it stays)")
    turn.events.append(text)
    if to:
        turn._push(to)


def deck_card(card: str) -> str:
    """How a card of the Upgrade deck is named while it is (or goes back) in the deck: by its
    type (``exosuit``), not its instance id (``exosuit-2``). Copies of a type are alike, and
    which copy lies where in the deck is the referee's (the deck's order), so a report says
    what the rulebook's players see: an Exosuit."""
    return card_type(card)


def salvage(turn, card: str) -> str | None:
    """Scavenge's salvage of ``card`` (module docstring): None when done (the card to the
    bottom of the Upgrade deck), else why nothing could be carried out."""
    level, done, seen = turn._level(), [], set()
    for i, a in enumerate(turn.cards[card_type(card)]["abilities"]):
        text = f"{a['what']} {a.get('amount', 1)}"
        if a.get("level", 0) > level or (a.get("or") is not None and a["or"] in seen):
            continue
        if a["phase"] != "action" or a["what"] not in SALVAGED:
            turn._problem(SCAVENGE, f"salvaged {deck_card(card)}: {text} not carried out (salvage "
                          f"carries out {', '.join(SALVAGED)})", "scavenge", ["salvage"])
            continue
        entry = {"card": card, "index": i, "amount": a.get("amount", 1), **a}
        try:
            ABILITIES[a["what"]](turn, entry, [], salvage=True)
        except Refused as r:
            turn._problem(r.section, f"salvaged {deck_card(card)}: {r.why}", "scavenge",
                          ["salvage"])
            continue
        seen.add(a.get("or"))
        done.append(text)
    if not done:
        return f"no ability of the {deck_card(card)} could be carried out"
    turn.state.market.deck.put_bottom([card])
    turn.events.append(f"{turn.role}: salvages the {deck_card(card)}: {', '.join(done)}; "
                       f"it goes to the bottom of the Upgrade deck")
    return None


def listed(amounts: dict) -> str:
    """``{"scrap": 1, "carbon": 2}`` -> ``"1 scrap, 2 carbon"`` (zeros left out)."""
    return ", ".join(f"{n} {k}" for k, n in amounts.items() if n)


def damage_text(role: str, n: int, where: str, d: damage.Damage) -> str:
    """The event text of ``n`` damage taken on ``where`` (Taking Damage)."""
    parts = [f"{len(d.from_deck)} from the deck"]
    if d.from_play:
        parts.append(f"played {', '.join(d.from_play)}")
    if d.to_center:
        parts.append("nothing left to discard: back to the center")
    return f"{role}: {n} damage on {where}: {'; '.join(parts)}"


ABILITIES: dict[str, Callable] = {
    "gain": gain, "actions": actions, "collect": collect, "move": step, "climb": step,
    "research": research, "buy": buy, "attack": attack}
"""``what`` -> the function carrying out that ability (the Terraform Tool's and the Scanner's
are :data:`.tools.TOOLS`)."""
