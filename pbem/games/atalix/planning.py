"""Escape from Atalix, the Planning Phase of one player: a pure function over plain data.

Rulebook sections "Planning Phase", "Card Anatomy", "Setup: Active Card" and "Action Phase".
:func:`plan_turn` takes data.toml's ``[cards]`` table, the player's
:class:`pbem.cards.PlayerCards` (the caller has already drawn the hand of 4: "Every player should
start this phase by drawing 4 cards"), the player's order lines and the research level, and
returns a :class:`Plan` for the Action Phase. It changes only ``player``: cards played go to the
play area, Draw abilities draw from the deck, and the hand left over is discarded.

Readings (the rulebook leaves them open; a test cites each):

- Plays. "By default, players can play a single card on their turn ... they have 1 play": the
  budget starts at 1; each played card uses one, and its ``plays`` abilities add theirs once it
  is played. Active cards ("resolved every turn regardless of other cards played") are resolved
  first, in the order given, without using a play.
- Actions. The basic action budget starts at 0 and each italic ``+N Action`` ability played (or on
  an active card) adds N: the rulebook's actions come only from cards ("Actions grant players the
  ability to take basic actions on the board during the next phase"). ``Plan.actions`` is that
  sum; the ``actions`` abilities are also listed in ``Plan.abilities`` so that "Taking Damage"
  ("discard played cards containing unused Action Phase abilities") can tell which cards hold one.
- Choices. A line's chosen indexes are 0-based positions in the card's ``abilities`` list of
  data.toml; ``[]`` means every allowed ability: those of the team's research level or lower
  ("the team must reach that level or higher"), the first allowed of each ``or`` group ("unless
  there is an OR written between abilities"), and no draw that cannot be made in full. Chosen
  abilities are carried out in the card's order, whatever the order of the indexes.
- "If a player chooses to carry out an ability it must be carried out in full": a Draw N with
  fewer than N cards left in the deck cannot be chosen (nothing is drawn); by default it is
  passed over; chosen by index it makes the line illegal.
- An illegal line (the card not in the hand, no play left, an active card, an index that is not
  an ability of the card, above the research level, two of one OR, a draw not in full) is
  skipped with a problem quoting it; the other lines are carried out. A bad choice for an active
  card is reported and the card resolved with the default choice (it is resolved "regardless").
- A bold (planning) ability other than ``plays`` and ``draw`` would need more than the
  player's cards: it is passed on in ``Plan.deferred`` for the caller (data.toml has none: the
  Scanner's look at the Upgrade deck is read as an Action Phase ability, :mod:`.tools`).
- An additional active card (Research Track: "The Active Card Symbol indicates that players may
  choose an additional active card ... on any Planning Phase after this research level is
  reached by choosing a non-gray card from their hand ... This does not count as a Play or
  Action"): :func:`extra_actives`, the ``active CARD`` lines of a plan window, before the plays.
  One extra active card for each level with the symbol reached (``research.levels`` benefits
  ``active-card``), counting those already chosen (the first active card is Setup's); the card
  named (a card of the hand, or a card type: the first of the hand of that type) must not be
  gray ("Project Cards have a gray back": data.toml's ``project-card`` kind; the Terraform Tool
  and the Scanner are Upgrade cards). It becomes active at once, so it is resolved from this
  Planning Phase on ("resolved every turn"). Refused lines are problems.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pbem.cards import PlayerCards
from pbem.engine.ruleset import Problem

__all__ = ["Plan", "PlanError", "card_type", "choose_actives", "describe", "extra_actives",
           "named_type",
           "plan_turn"]

PLANNING = "Planning Phase"
ACTIVE = "Setup: Active Card"
RESEARCH = "Research Track"
GRAY = ("project-card",)
"""Card kinds with a gray back ("Project Cards have a gray back"): never active."""
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}
_INSTANCE = re.compile(r"^(?P<type>[a-z0-9]+(?:-[a-z0-9]+)*?)-(?P<n>[0-9]+)$")


class PlanError(ValueError):
    """Input the caller (not the player's orders) got wrong: a card id that is not
    ``<card-id>-<n>``, an active card the player does not hold, a malformed order line."""


@dataclass
class Plan:
    """What one player's Planning Phase gives the Action Phase.

    ``played``: the card instances played this turn, in order (the play area's new cards; active
    cards are not among them); ``actions``: basic actions available (0 plus each ``actions``
    ability); ``abilities``: the italic (action-phase) abilities still to use, active cards' first,
    then in play order, each ``{"card", "index", "what", "amount", "phase", ...}`` (the data's
    other keys, e.g. ``resource``, ``cost``, ``level``, ``or``, copied); ``problems``: ``(order
    line or None, rule section, why)`` for each refused line or choice (None: an active card);
    ``deferred``: bold abilities the caller carries out (see the module's readings), same shape;
    ``plays_left``: plays not used."""

    played: list[str]
    actions: int
    abilities: list[dict]
    problems: list[tuple[int | None, str, str]]
    deferred: list[dict] = field(default_factory=list)
    plays_left: int = 0


def card_type(instance: str) -> str:
    """The card id of a card instance: ``"oxygen-1"`` -> ``"oxygen"``, ``"gain-scrap-2"`` ->
    ``"gain-scrap"``. Raises :class:`PlanError` for anything but ``<card-id>-<n>`` (lower-case
    words joined by hyphens, then a hyphen and a number)."""
    m = _INSTANCE.match(instance) if isinstance(instance, str) else None
    if m is None:
        raise PlanError(f"card {instance!r}: expected a card instance '<card-id>-<n>', "
                        f"e.g. 'oxygen-1'")
    return m["type"]


def describe(ability: dict) -> str:
    """A short text for an ability, as printed: ``"III draw 1"``, ``"scan 1 (OR)"``."""
    level = ability.get("level", 0)
    text = f"{ability['what']} {ability.get('amount', 1)}"
    if ability.get("resource"):
        text += f" {ability['resource']}"
    if level:
        text = f"{ROMAN.get(level, level)} {text}"
    return text + (" (OR)" if ability.get("or") is not None else "")


def _default(abilities: list[dict], level: int, deck: int) -> list[int]:
    """Every allowed ability (module readings, "Choices"), in the card's order."""
    chosen: list[int] = []
    groups: set[Any] = set()
    for i, a in enumerate(abilities):
        group = a.get("or")
        if a.get("level", 0) > level or (group is not None and group in groups):
            continue
        if a["phase"] == "planning" and a["what"] == "draw":
            if a.get("amount", 1) > deck:
                continue
            deck -= a.get("amount", 1)
        if group is not None:
            groups.add(group)
        chosen.append(i)
    return chosen


def _check_choice(card: str, abilities: list[dict], chosen: list[int], level: int,
                  deck: int) -> str | None:
    """Why the explicit ``chosen`` indexes cannot be carried out, or None."""
    if len(set(chosen)) != len(chosen):
        return f"{card}: ability chosen twice in {chosen}: expected each at most once"
    groups: dict[Any, int] = {}
    for i in sorted(chosen):
        if not 0 <= i < len(abilities):
            return (f"{card}: no ability {i}: expected 0 to {len(abilities) - 1} "
                    f"({', '.join(describe(a) for a in abilities)})")
        a = abilities[i]
        if a.get("level", 0) > level:
            return (f"{card}: ability {i} ({describe(a)}) needs research level "
                    f"{ROMAN.get(a['level'], a['level'])}; the team is at "
                    f"{ROMAN.get(level, level)}")
        group = a.get("or")
        if group is not None and group in groups:
            return (f"{card}: abilities {groups[group]} and {i} are separated by an OR: "
                    f"expected one of them")
        groups[group] = i
        if a["phase"] == "planning" and a["what"] == "draw":
            if a.get("amount", 1) > deck:
                return (f"{card}: ability {i} ({describe(a)}) cannot be carried out in full: "
                        f"{deck} card(s) left in the deck")
            deck -= a.get("amount", 1)
    return None


class _Turn:
    """The running state of one Planning Phase."""

    def __init__(self, cards: dict, player: PlayerCards, level: int):
        self.cards, self.player, self.level = cards, player, level
        self.plays, self.actions = 1, 0
        self.played: list[str] = []
        self.abilities: list[dict] = []
        self.deferred: list[dict] = []
        self.problems: list[tuple[int | None, str, str]] = []

    def kind(self, card: str) -> dict | None:
        try:
            return self.cards.get(card_type(card))
        except PlanError:
            return None

    def select(self, card: str, chosen: list[int]) -> tuple[list[int], str | None]:
        """The abilities to carry out and None, or ([], why) for an illegal choice."""
        abilities = self.kind(card)["abilities"]
        deck = len(self.player.deck)
        if not chosen:
            return _default(abilities, self.level, deck), None
        why = _check_choice(card, abilities, chosen, self.level, deck)
        return ([], why) if why else (sorted(chosen), None)

    def resolve(self, card: str, indexes: list[int]) -> None:
        """Carry out the bold abilities at once; collect the italic ones."""
        for i in indexes:
            a = self.kind(card)["abilities"][i]
            entry = {"card": card, "index": i, "what": a["what"], "amount": a.get("amount", 1),
                     **{k: v for k, v in a.items() if k not in ("what", "amount")}}
            if a["phase"] == "action":
                self.abilities.append(entry)
                if a["what"] == "actions":
                    self.actions += entry["amount"]
            elif a["what"] == "plays":
                self.plays += entry["amount"]
            elif a["what"] == "draw":
                self.player.draw(entry["amount"])
            else:
                self.deferred.append(entry)

    def why_not_play(self, card: str) -> str | None:
        """Why the card cannot be played now (before its choice is looked at), or None."""
        if card in self.player.active:
            return (f"{card} is an active card: it is resolved every turn without a play; "
                    f"expected a card in the hand")
        if card in self.played:
            return f"{card} was already played this turn: expected a card in the hand"
        if card not in self.player.hand:
            return f"{card} is not in the hand: expected a card drawn this turn"
        if self.kind(card) is None:
            return f"{card} is not an Atalix card: expected '<card-id>-<n>' of data.toml"
        if self.plays < 1:
            return (f"{card}: no play left (plays come from 1 by default and +Play "
                    f"abilities): expected at most {len(self.played)} card(s) played")
        return None


def _check_lines(played: Any) -> list[tuple[int, str, list[int]]]:
    if not isinstance(played, (list, tuple)):
        raise PlanError(f"order lines {played!r}: expected a list of (line, card, [indexes])")
    for entry in played:
        ok = (isinstance(entry, (list, tuple)) and len(entry) == 3
              and isinstance(entry[0], int) and isinstance(entry[1], str)
              and isinstance(entry[2], (list, tuple))
              and all(isinstance(i, int) and not isinstance(i, bool) for i in entry[2]))
        if not ok:
            raise PlanError(f"order line {entry!r}: expected (line number, card instance, "
                            f"list of ability indexes)")
    return [(line, card, list(chosen)) for line, card, chosen in played]


def plan_turn(cards: dict, player: PlayerCards, played: list[tuple[int, str, list[int]]], *,
              research_level: int, active: list[str],
              active_choices: dict[str, list[int]] | None = None) -> Plan:
    """One player's Planning Phase (module docstring: the rules and their readings).

    ``cards``: data.toml's ``[cards]`` table (card id -> card dict with ``abilities``);
    ``player``: the player's cards, the hand already drawn; ``played``: the order lines, each
    ``(line number, card instance, chosen ability indexes or [] for all allowed)``;
    ``research_level``: the team's level (1 = I ... 3 = III); ``active``: the active cards
    resolved this turn (held in ``player.active``; a card carrying equipment is left out by the
    caller: Scenario 1 Chapter 4); ``active_choices``: optional chosen indexes per active card.

    Changes ``player`` (play area, draws, the hand discarded) and returns a :class:`Plan`.
    Raises :class:`PlanError` for an active card the player does not hold or that is not in
    ``cards``, or a malformed order line; the player's own mistakes are ``Plan.problems``."""
    lines = _check_lines(played)
    if not isinstance(research_level, int) or research_level < 0:
        raise PlanError(f"research level {research_level!r}: expected a whole number, 0 or more")
    turn = _Turn(cards, player, research_level)
    for card in active:
        if card not in player.active or turn.kind(card) is None:
            raise PlanError(f"active card {card!r}: expected one of the player's active cards, "
                            f"a card of data.toml")
        indexes, why = turn.select(card, list((active_choices or {}).get(card, [])))
        if why:
            turn.problems.append((None, ACTIVE, why + "; resolved with every allowed ability"))
            indexes, _ = turn.select(card, [])
        turn.resolve(card, indexes)
    for line, card, chosen in lines:
        why = turn.why_not_play(card)
        indexes: list[int] = []
        if why is None:
            indexes, why = turn.select(card, chosen)
        if why:
            turn.problems.append((line, PLANNING, why))
            continue
        turn.plays -= 1
        player.play(card)
        turn.played.append(card)
        turn.resolve(card, indexes)
    player.discard_hand()
    return Plan(played=turn.played, actions=turn.actions, abilities=turn.abilities,
                problems=turn.problems, deferred=turn.deferred, plays_left=turn.plays)


def extra_actives(cards: dict, levels: list, steps: int, player: PlayerCards,
                  wanted: list) -> tuple[list[str], list[tuple[int | None, str, str]]]:
    """Additional active cards chosen in a Planning Phase (module docstring, "An additional
    active card"). ``cards``: data.toml's ``[cards]``; ``levels``: its ``research.levels``
    (``{"level", "steps", "benefits"}``); ``steps``: the team's steps up the Research Track;
    ``player``: the player's cards, the hand drawn; ``wanted``: ``(line, card instance or card
    type)`` in the order written. Moves each card granted from the hand to ``player.active``;
    returns ``(texts, problems)``, each problem ``(line, "Research Track", why)``."""
    granted = [lv for lv in levels if lv["steps"] <= steps and "active-card" in lv["benefits"]]
    texts: list[str] = []
    problems: list[tuple[int | None, str, str]] = []
    for line, name in wanted:
        card = name if name in player.hand else next(
            (c for c in player.hand if _kind_of(c) == name), None)
        extra = len(player.active) - 1
        if card is None:
            why = (f"active {name}: not in your hand: expected one of "
                   f"{', '.join(player.hand) or 'no card (the hand is empty)'}")
        elif not granted:
            first = next((lv for lv in levels if "active-card" in lv["benefits"]), None)
            why = (f"active {name}: the team's research ({steps} steps) has reached no level "
                   f"with the Active Card symbol" + (
                       f": expected level {ROMAN.get(first['level'], first['level'])} "
                       f"({first['steps']} steps)" if first else ""))
        elif extra >= len(granted):
            why = (f"active {name}: {extra} additional active card(s) already, one for each "
                   f"level with the Active Card symbol reached ({len(granted)})")
        elif cards.get(_kind_of(card), {}).get("kind") in GRAY:
            why = f"active {card}: a gray card cannot be an active card: expected a non-gray card"
        else:
            player.set_active(card)
            texts.append(f"{card} becomes an additional active card (Research Track)")
            continue
        problems.append((line, RESEARCH, why))
    return texts, problems


def _kind_of(card: str) -> str | None:
    try:
        return card_type(card)
    except PlanError:
        return None


def named_type(word: str) -> str:
    """The card type a player's word names: a card instance's type (``action-3`` ->
    ``action``), else the word itself (``oxygen``, or anything unknown, for the caller to
    refuse)."""
    return _kind_of(word) or word


def choose_actives(s, role: str, orders: list, problems: dict) -> list[str]:
    """:func:`extra_actives` for ``role``'s ``active CARD`` orders (pbem.engine.ruleset.Order,
    ``args["card"]``) in a plan window of state ``s``: changes ``s.players[role]``; appends a
    :class:`~pbem.engine.ruleset.Problem` to ``problems[role]`` for each refused line; returns
    the texts of the cards made active."""
    wanted = [(o.line, o.args["card"]) for o in orders if o.verb == "active"]
    if not wanted:
        return []
    texts, refused = extra_actives(s.data["cards"], s.data["research"]["levels"], s.research,
                                   s.players[role], wanted)
    said = {o.line: o.text for o in orders}
    for line, rule, why in refused:
        problems.setdefault(role, []).append(Problem(line, said.get(line, ""), rule, why))
    return texts
