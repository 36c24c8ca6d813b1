"""Escape from Atalix, one player's Action Phase turn: the player's action lines carried out in
order after planning.

Rulebook sections "Action Phase" ("A turn involves completing all desired actions and card
abilities on the cards played during the Planning phase ... in any order they please"),
"Movement Restrictions", "Taking Damage" and the Action Phase's Scavenge. A :class:`Turn` works
on a :class:`~pbem.games.atalix.state.State` (``pawns``, ``world`` as :class:`.events.EndState`'s
dict, ``research`` the steps up the track, ``meter`` a :class:`pbem.cards.CostMeter`'s JSON,
``market``, ``paths``, ``equipment``, ``data`` data.toml's table) and a
:class:`~pbem.games.atalix.planning.Plan`. The basic actions (move, climb, collect, scavenge)
are here; the card abilities a ``use`` line carries out are :mod:`.abilities` (gain, research,
buy, attack, move and climb abilities, salvage) and :mod:`.tools` (the Terraform Tool and the
Scanner).

Every line that cannot be carried out is skipped and recorded in ``problems`` as ``(line,
section, why)``, ``why`` quoting the line; the others are carried out ("an action that became
impossible is skipped with the reason in the report"). Readings (the rulebook leaves them open;
tests cite them):

- Basic actions. The budget is ``plan.actions``; a ``use`` of an ``actions`` ability is a no-op
  (its +N is already in the budget). Each basic action spent uses up one of a played card's +N
  (play order, the active cards' last: "in the order they wish to execute them"); a card holding
  an unspent +N has an unused Action Phase ability, and losing it to damage loses that +N.
- Damage ("discard played cards containing unused Action Phase abilities"): the played cards
  with an unused ability go last played first. A pawn sent back to the center ends its move.
- Scavenge. Choices are tried in the order written (``scavenge repair scrap carbon``: repair,
  else scrap a carbon); with none possible the card is lost to the bottom of the deck and the
  action spent. Repair pays the meter's price but does not move the meter: "Each time a player
  purchases a card" is read as the purchase from the face-up upgrades (Purchasing Cards), and the
  Scavenge text says "repair", not purchase. A scrapped card goes to the bottom of the Upgrade
  deck (stand-in: the rulebook does not say); salvage is :func:`.abilities.salvage`. Scrap
  without a resource takes the first listed.
- A player out of cards ("unable to continue taking actions") is the caller's to skip.
"""

from __future__ import annotations

from typing import Callable

from pbem.cards import CostMeter

from . import abilities, damage, tools
from .abilities import (ACTION, DAMAGE, MOVEMENT, SCAVENGE, Refused, damage_text, deck_card,
                        listed)
from .board import Board, climb_problem, move_problem
from .planning import Plan, card_type

__all__ = ["Turn"]

class Turn:
    """One player's Action Phase turn over ``state`` (module docstring for the rules).

    ``role``: the player; ``plan``: the player's :class:`Plan`; ``dice``: the public stream
    (``roll(sides, why)``); ``hidden``: the hidden stream (a duplicate's random place in the
    Upgrade deck); ``board``: the :class:`Board` of ``state.board``; ``others``: role -> the
    played cards of other players still holding unused Action Phase abilities, in the order they
    lose them (for an alien entering their space; missing: none). ``events``: texts of what
    happened, for everyone; ``private``: texts for this player only (the Scanner's look at the
    Upgrade deck); ``problems``: ``(line, section, why)``. Changes ``state`` (and ``others``)."""

    def __init__(self, state, role: str, plan: Plan, dice, hidden, board: Board, *,
                 others: dict | None = None):
        self.state, self.role, self.plan, self.dice, self.hidden = state, role, plan, dice, hidden
        self.board, self.others = board, others if others is not None else {}
        self.player = state.players[role]
        self.cards = state.data["cards"]
        self.actions_left = plan.actions
        self.used: set[tuple[str, int]] = set()
        self.lost: set[str] = set()
        active = [a for a in plan.abilities if a["card"] in self.player.active]
        self.funds = {(a["card"], a["index"]): a["amount"] for a in
                      [*(a for a in plan.abilities if a not in active), *active]
                      if a["what"] == "actions"}
        self.events: list[str] = []
        self.private: list[str] = []
        self.problems: list[tuple[int | None, str, str]] = []
        self._line: int | None = None
        self.world = state.world
        self.world.setdefault("team", {})

    # -- the lines ----------------------------------------------------------------------------
    def carry_out(self, line_no: int | None, verb: str, args: list[str]) -> bool:
        """Carry out one line (``move HEX [HEX]``, ``climb HEX``, ``collect``, ``scavenge
        CHOICE...``, ``use CARD INDEX [ARGS...]``): True when carried out, False when skipped
        with a problem quoting it."""
        self._line, args = line_no, [str(a) for a in args]
        handler = _VERBS.get(verb)
        try:
            if handler is None:
                raise Refused(ACTION, f"unknown action {verb!r}: expected one of "
                                      f"{', '.join(_VERBS)}")
            handler(self, args)
        except Refused as r:
            self._problem(r.section, r.why, verb, args)
            return False
        return True

    def _problem(self, section: str, why: str, verb: str, args: list[str]) -> None:
        said = f"{' '.join([verb, *args])!r}: " if self._line is None else ""  # else the
        self.problems.append((self._line, section, said + why))  # Problem quotes its line

    @property
    def here(self) -> str:
        """The hex of this player's pawn."""
        return self.state.pawns[self.role]

    def _need_action(self) -> None:
        if self.actions_left < 1:
            raise Refused(ACTION, "no basic action left (\"any basic actions gained during the "
                                  f"planning phase\": {self.plan.actions} this turn)")

    def _spend(self) -> None:
        self.actions_left -= 1
        for key, left in self.funds.items():
            if left > 0:
                self.funds[key] = left - 1
                break

    def _paths(self) -> set:
        return {frozenset(p) for p in self.state.paths}

    def _move(self, args: list[str]) -> None:
        self._need_action()
        why = move_problem(self.board, self._paths(), self.here, args)
        if why:
            raise Refused(MOVEMENT if MOVEMENT in why else ACTION, why)
        self._spend()
        self._walk(args, "move (1 action)")

    def _climb(self, args: list[str]) -> None:
        self._need_action()
        if len(args) != 1:
            raise Refused(ACTION, "a Climb moves 1 board space: expected 'climb HEX'")
        why = climb_problem(self.board, self._paths(), self.here, args[0])
        if why:
            raise Refused(ACTION, why)
        self._spend()
        self._walk(args, "climb (1 action)")

    def _collect(self, args: list[str]) -> None:
        self._need_action()
        self._check_cube(args)
        self._spend()
        self._take_cube("collect (1 action)")

    def _check_cube(self, args: list[str]) -> None:
        if args:
            raise Refused(ACTION, "collect takes no argument: the cube on the pawn's space")
        if self.here not in self.world.get("resources", {}):
            raise Refused(ACTION, f"no resource cube on {self.here}: \"Pick up a resource cube "
                                  f"on their current board space\"")

    def _take_cube(self, how: str) -> None:
        kind = self.world["resources"].pop(self.here)
        self._team(kind, 1)
        self.events.append(f"{self.role}: {how}: a {kind} cube from {self.here} to the team")

    def _team(self, resource: str, n: int) -> None:
        team = self.world["team"]
        team[resource] = team.get(resource, 0) + n

    # -- moving and damage --------------------------------------------------------------------
    def _walk(self, route: list[str], how: str) -> None:
        """Enter each space of ``route`` in turn, taking its damage; stop at the center when
        damage sends the pawn there."""
        start = self.here
        for i, hex_ in enumerate(route):
            self.state.pawns[self.role] = hex_
            n = damage.entering(self.world.get("storm", {}), self.world.get("alien"), hex_)
            if n and self._hurt(n, hex_):
                route = route[:i + 1] + [self.board.center]
                break
        self.events.append(f"{self.role}: {how} {'->'.join([start, *route])}")

    def unused_cards(self) -> list[str]:
        """The played cards still holding an unused Action Phase ability, last played first
        (what damage discards when the deck is empty)."""
        def unused(a: dict) -> bool:
            key = (a["card"], a["index"])
            return self.funds.get(key, 0) > 0 if a["what"] == "actions" else key not in self.used
        return [c for c in reversed(self.plan.played)
                if c in self.player.played and c not in self.lost
                and any(a["card"] == c and unused(a) for a in self.plan.abilities)]

    def _hurt(self, n: int, where: str) -> bool:
        """``n`` damage to this player (Taking Damage); True when the pawn went to the center."""
        d = damage.take(self.player, n, self.unused_cards())
        for card in d.from_play:
            self.lost.add(card)
            for key in self.funds:
                if key[0] == card:
                    self.actions_left = max(0, self.actions_left - self.funds[key])
                    self.funds[key] = 0
        self.events.append(damage_text(self.role, n, where, d))
        if d.to_center:
            self.state.pawns[self.role] = self.board.center
        return d.to_center

    def _push(self, to: str) -> None:
        """The alien enters ``to`` (pushed by a Weapons hit, lured by a Terraform Tool): "the
        alien enters the board space of a player, that player receives two damage" for every
        other player there (this player's own damage is the caller's); on the center it has
        reached the ship (``world["alien_at_center"]``, Threats)."""
        self.world["alien"] = to
        if to == self.board.center:
            self.world["alien_at_center"] = True
        for role, hex_ in self.state.pawns.items():
            if hex_ == to and role != self.role:
                d = damage.take(self.state.players[role], damage.ALIEN_DAMAGE,
                                self.others.setdefault(role, []))
                if d.to_center:
                    self.state.pawns[role] = self.board.center
                self.events.append(damage_text(role, damage.ALIEN_DAMAGE, to, d))

    # -- scavenge -----------------------------------------------------------------------------
    def _scavenge(self, args: list[str]) -> None:
        choices = _choices(args)
        self.may_scavenge()
        market = self.state.market
        if market is None or not len(market.deck):
            raise Refused(SCAVENGE, "the Upgrade deck is empty: no card to draw")
        self._spend()
        card = market.scavenge()
        self.events.append(f"{self.role}: scavenge on {self.here} (1 action): draws "
                           f"{deck_card(card)} from the Upgrade deck")
        whys = []
        for choice, resource in choices:
            why = getattr(self, f"_{choice}")(card, resource)
            if why is None:
                return
            whys.append(f"{choice}: {why}")
        market.deck.put_bottom([card])
        self._problem(SCAVENGE, "; ".join(whys) + f"; the {deck_card(card)} goes to the "
                      f"bottom of the Upgrade deck", "scavenge", args)

    def may_scavenge(self) -> None:
        """Raises :class:`Refused` unless the player has a basic action left and stands on a
        starred space (Action Phase, Scavenge)."""
        self._need_action()
        if self.board.info(self.here).shape != "star":
            raise Refused(SCAVENGE, f"{self.here} is not a starred space: expected a star "
                                    f"(\"Scavenge for crashed equipment on a starred board "
                                    f"space\")")

    def _repair(self, card: str, _resource) -> str | None:
        price = self._meter().cost(self._cost(card))
        why = self._short(price)
        if why:
            return why
        self._pay(price)
        self.player.gain(card)
        self.events.append(f"{self.role}: repairs {card} for {listed(price)}: to the discard")
        return None

    def _scrap(self, card: str, resource: str | None) -> str | None:
        choices = list(self._cost(card))
        resource = resource or (choices[0] if choices else None)
        if resource not in choices:
            return (f"{resource} is not listed on the {deck_card(card)}: expected one of "
                    f"{choices}")
        self._team(resource, 1)
        self.state.market.deck.put_bottom([card])
        self.events.append(f"{self.role}: scraps the {deck_card(card)}: 1 {resource} to the "
                           f"team; it goes to the bottom of the Upgrade deck")
        return None

    def _salvage(self, card: str, _resource) -> str | None:
        return abilities.salvage(self, card)

    # -- card abilities -----------------------------------------------------------------------
    def _use(self, args: list[str]) -> None:
        if len(args) < 2 or not args[1].isdigit():
            raise Refused(ACTION, "expected 'use CARD INDEX [ARGS...]', INDEX the ability's "
                                  "0-based position on the card")
        card, index = args[0], int(args[1])
        entry = next((a for a in self.plan.abilities
                      if a["card"] == card and a["index"] == index), None)
        if entry is None:
            raise Refused(ACTION, f"{card} has no Action Phase ability {index} played this turn:"
                                  f" expected one of {_offered(self.plan.abilities)}")
        if card in self.lost:
            raise Refused(DAMAGE, f"{card} was discarded by damage: its abilities are gone")
        if (card, index) in self.used:
            raise Refused(ACTION, f"{card} ability {index} ({entry['what']}) was already used: "
                                  f"each ability once")
        handler = _ABILITIES.get(entry["what"])
        if handler is None:
            raise Refused(ACTION, f"{entry['what']} abilities are not carried out by the Action "
                                  f"Phase lines: expected one of {', '.join(_ABILITIES)}")
        handler(self, entry, args[2:])

    def _mark(self, entry: dict, salvage: bool) -> None:
        """The ability is used (a salvaged card's are not the player's: nothing to mark)."""
        if not salvage:
            self.used.add((entry["card"], entry["index"]))

    # -- resources ----------------------------------------------------------------------------
    def _cost(self, card: str) -> dict:
        return dict(self.cards[card_type(card)].get("cost", {}))

    def _meter(self) -> CostMeter:
        return CostMeter.from_json(self.state.meter)

    def _short(self, price: dict) -> str | None:
        team = self.world["team"]
        short = {k: n - team.get(k, 0) for k, n in price.items() if team.get(k, 0) < n}
        if short:
            return (f"the team cannot pay {listed(price)}: it has {listed(team) or 'nothing'}, "
                    f"{listed(short)} short")
        return None

    def _pay(self, price: dict) -> None:
        for k, n in price.items():
            self.world["team"][k] -= n

    def _level(self) -> int:
        return max(lv["level"] for lv in self.state.data["research"]["levels"]
                   if lv["steps"] <= self.state.research)


def _choices(args: list[str]) -> list[tuple[str, str | None]]:
    """``scavenge`` arguments as ``[(choice, resource or None), ...]``."""
    out: list[tuple[str, str | None]] = []
    for word in args:
        if word in ("repair", "salvage", "scrap"):
            out.append((word, None))
        elif out and out[-1] == ("scrap", None) and word in ("scrap", "carbon", "minerals"):
            out[-1] = ("scrap", word)
        else:
            raise Refused(SCAVENGE, f"{word!r}: expected repair, salvage or scrap [RESOURCE]")
    if not out:
        raise Refused(SCAVENGE, "expected a choice: repair, salvage or scrap [RESOURCE]")
    return out


def _offered(entries: list[dict]) -> str:
    return ", ".join(f"{a['card']} {a['index']} ({a['what']})" for a in entries) or "none"


_VERBS: dict[str, Callable] = {"move": Turn._move, "climb": Turn._climb,
                               "collect": Turn._collect, "scavenge": Turn._scavenge,
                               "use": Turn._use}
_ABILITIES: dict[str, Callable] = {**abilities.ABILITIES, **tools.TOOLS}
"""``what`` -> the function carrying out a card ability (:mod:`.abilities`, :mod:`.tools`)."""
