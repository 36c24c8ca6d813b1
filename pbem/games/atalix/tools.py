"""Escape from Atalix, the Terraform Tool and the Scanner: the abilities of the cards a project
gives (rulebook, "Card Elaborations": "Terraform Tool Card", "Scanner Card"; "Card Setup").

Each is carried out by a ``use CARD N ARGS...`` line of the Action Phase (N the ability's index
on the card, as :mod:`.abilities`), on a :class:`~pbem.games.atalix.actions.Turn`:

| line | ability |
|---|---|
| ``use terraform-tool-1 0 clear HEX`` | 1. remove a storm token from HEX |
| ``use terraform-tool-1 0 path HEX`` | 2. spend 1 scrap: a path between your space and HEX |
| ``use terraform-tool-1 0 lure [HEX]`` | 3. the alien one space toward you (HEX: its step) |
| ``use terraform-tool-1 0 carbon HEX`` | 4. a carbon cube from the supply on HEX |
| ``use scanner-1 0`` | scan for parts: a black disc placed by two d6 |
| ``use scanner-1 1 pick TYPE... [bottom TYPE...]`` | look at the top 5 of the Upgrade deck |

Readings (the rulebook leaves them open; tests/test_atalix_tools.py cites each):

- Terraform Tool. data.toml gives the card one ``terraform`` ability ("can be used for one of
  four abilities"): the word after N names which of the four, so a card played once does one
  of them once. "These abilities may be applied to a player's current board space or an
  adjacent board space": ``clear`` on either; ``path`` joins the current space and an adjacent
  one (ability 2's text), up to 2 elevation apart, a side with no path yet, paid with 1 scrap
  of the team's resources, recorded in ``state.paths`` as the two hexes sorted; ``carbon``
  only on an adjacent space (ability 4: "on an adjacent numbered space"), numbered and green
  (its heading: "on a green numbered space", i.e. carbon terrain), holding no cube (a space
  holds one cube: Setup, "place only one cube"; Event 1, "that does not currently have a
  resource on it"); the supply has no limit (as :mod:`.events`). A storm token cleared goes
  back to the supply ("Keep the storm tokens organized so your team can see how many are
  left"), so ``world["storm_supply"]`` grows by one.
- Lure. The alien is not on "a space" of the player's: the range rule does not bind it (a lure
  only within one space would only bring the alien onto the player). It moves one space along a
  shortest path from its space to the pawn's, ignoring elevation and storm (as Event 2);
  between equal paths "the acting player may choose": HEX names the first step, default the
  first in label order; a HEX that is not a first step of a shortest path refuses the line.
  Entering a space with players deals each of them 2 damage ("the alien enters the board space
  of a player"), the acting player included; entering the center is the alien reaching the ship
  (``world["alien_at_center"]``, Threats). No alien (defeated) or the alien on the pawn's space
  refuses the line.
- Scan for parts. Both rolls are public d6 (``dice.roll(6, why)``, the reasons naming the
  Scanner); the disc goes on :meth:`.board.Board.furthest` of the first roll over the whole map,
  then one :meth:`.board.Board.step` in the second roll's direction, staying where it is off the
  map's edge ("if this movement is not possible (due to the edge of the map) then leave it
  where it is"; any other space may be entered). The disc's hex is appended to
  ``state.equipment["parts"]`` (a list of hex labels: Scenario 2's rover parts).
- Look (``amount``: 5 cards). The Scanner's abilities are italic here, Action Phase abilities:
  the rulebook does not mark them bold, and in the Action Phase the players go one at a time in
  first-player order, so the top of the Upgrade deck a player looks at is well defined (the
  Planning Phase is simultaneous); the card picked may be bought in the same turn with a later
  ``use`` of an Upgrade card. By mail the player writes the choice before seeing the cards, as
  preference lists of card types: the first ``pick`` type found among the cards looked at (top
  first; ``any``: the top card) is added beside the face-up row (``market.extra``: "does not
  replace any of those already available", "does not get replaced" when bought); then each
  ``bottom`` type, in the order written, sends the first card of that type still among the
  others to the bottom of the deck, at most 2 ("up to 2 cards out of the 5"), in that order;
  the rest stay on top in the same order. Nothing found to pick is not a refusal (the player
  did look). A word that is not a card type of data.toml refuses the line. With the deck empty
  (or unknown to the judge's dry run of a receipt) nothing is looked at. Who sees what: the
  cards looked at and those sent to the bottom are an event for that player only
  (``turn.private``); everyone sees the card picked (it is face up) and how many went to the
  bottom.
"""

from __future__ import annotations

from typing import Callable

from .abilities import Refused, deck_card, listed, no_args
from .board import path_problem
from .damage import ALIEN_DAMAGE
from .planning import card_type

__all__ = ["BOTTOM_MOST", "MODES", "TOOLS", "look", "scan", "terraform"]

TERRAFORM, SCANNER = "Terraform Tool Card", "Scanner Card"
MODES = ("clear", "path", "lure", "carbon")
"""The Terraform Tool's four abilities, in the rulebook's order (1 to 4)."""
PATH_COST = {"scrap": 1}
"""Ability 2: "Spend 1 scrap and place a white stick"."""
BOTTOM_MOST = 2
"""Scanner: "players may put up to 2 cards out of the 5 at the bottom of the deck"."""


def terraform(turn, entry: dict, args: list[str], salvage: bool = False) -> None:
    """One of the Terraform Tool's four abilities, named by ``args[0]`` (:data:`MODES`), on the
    hex that follows (module docstring). Raises :class:`Refused` (nothing changed) when it
    cannot be carried out in full."""
    if not args or args[0] not in MODES:
        got = f"{' '.join(args)!r}" if args else "nothing"
        raise Refused(TERRAFORM, f"{got} after {entry['card']} {entry['index']}: expected one "
                                 "of the four abilities: 'clear HEX', 'path HEX', 'lure [HEX]' "
                                 "or 'carbon HEX'")
    _MODE[args[0]](turn, entry, args[1:], salvage)


def _space(turn, words: list[str], mode: str) -> str:
    """The one hex of ``words``, on the board; Refused otherwise."""
    if len(words) != 1:
        raise Refused(TERRAFORM, f"{mode} {' '.join(words)!r}: expected one hex label "
                                 f"('{mode} HEX')")
    hexmap = turn.board.hexmap
    if words[0] in hexmap:
        return words[0]
    raise Refused(TERRAFORM, f"{words[0]!r} is not a space of the board: expected a hex label "
                             f"from 0101 to {hexmap.columns:02d}{hexmap.rows:02d}")


def _reach(turn, hex_: str, mode: str, adjacent_only: bool = False) -> None:
    here = turn.here
    if (hex_ == here and not adjacent_only) or turn.board.hexmap.adjacent(here, hex_):
        return
    where = "an adjacent space" if adjacent_only else "your space or an adjacent one"
    raise Refused(TERRAFORM, f"{mode} {hex_}: {hex_} is not {where} (your pawn is on {here}): "
                             f"expected one of {', '.join(_reachable(turn, adjacent_only))}")


def _reachable(turn, adjacent_only: bool) -> list[str]:
    near = list(turn.board.neighbours(turn.here))
    return sorted(near if adjacent_only else [turn.here, *near])


def _clear(turn, entry: dict, words: list[str], salvage: bool) -> None:
    """Ability 1: "Remove a green storm token from a current or adjacent space"."""
    hex_ = _space(turn, words, "clear")
    _reach(turn, hex_, "clear")
    storm = turn.world.setdefault("storm", {})
    if not storm.get(hex_):
        raise Refused(TERRAFORM, f"clear {hex_}: no storm token on {hex_}: expected a space "
                                 f"with one ({', '.join(sorted(storm)) or 'none on the board'})")
    turn._mark(entry, salvage)
    storm[hex_] -= 1
    if not storm[hex_]:
        del storm[hex_]
    turn.world["storm_supply"] = turn.world.get("storm_supply", 0) + 1
    turn.events.append(f"{turn.role}: {entry['card']} clears a storm token from {hex_} "
                       f"({storm.get(hex_, 0)} left there; back to the supply, "
                       f"{turn.world['storm_supply']} left)")


def _path(turn, entry: dict, words: list[str], salvage: bool) -> None:
    """Ability 2: 1 scrap, a path between the pawn's space and an adjacent one up to 2
    elevation apart (:func:`.board.path_problem`)."""
    hex_ = _space(turn, words, "path")
    here = turn.here
    why = path_problem(turn.board, here, hex_)
    if why:
        raise Refused(TERRAFORM, f"path {hex_}: {why}")
    if frozenset((here, hex_)) in turn._paths():
        raise Refused(TERRAFORM, f"path {hex_}: a path already joins {here} and {hex_}: "
                                 f"expected a side without one")
    why = turn._short(PATH_COST)
    if why:
        raise Refused(TERRAFORM, f"path {hex_}: {why} (\"Spend 1 scrap to build a path\")")
    turn._mark(entry, salvage)
    turn._pay(PATH_COST)
    turn.state.paths.append(sorted((here, hex_)))
    turn.events.append(f"{turn.role}: {entry['card']} spends {listed(PATH_COST)}: a path "
                       f"between {here} and {hex_}")


def _lure(turn, entry: dict, words: list[str], salvage: bool) -> None:
    """Ability 3: the alien one space along a shortest path toward the pawn."""
    if len(words) > 1:
        raise Refused(TERRAFORM, f"lure {' '.join(words)!r}: expected 'lure' or 'lure HEX' "
                                 f"(HEX: the alien's step when paths are equal)")
    choice = _space(turn, words, "lure") if words else None
    alien, here = turn.world.get("alien"), turn.here
    if alien is None:
        raise Refused(TERRAFORM, "lure: there is no alien on the board")
    if alien == here:
        raise Refused(TERRAFORM, f"lure: the alien is already on your space {here}")
    firsts = sorted({p[0] for p in turn.board.shortest_paths(alien, here)})
    if not firsts:
        raise Refused(TERRAFORM, f"lure: no path from the alien on {alien} to {here}")
    if choice is not None and choice not in firsts:
        raise Refused(TERRAFORM, f"lure {choice}: {choice} is not the first step of a shortest "
                                 f"path from the alien on {alien} to {here}: expected one of "
                                 f"{', '.join(firsts)}")
    step = choice or firsts[0]
    how = ("your choice" if choice else "first in label order" if len(firsts) > 1
           else "the only shortest path")
    turn._mark(entry, salvage)
    turn.events.append(f"{turn.role}: {entry['card']} lures the alien {alien}->{step} ({how} "
                       f"of {', '.join(firsts)})")
    turn._push(step)
    if turn.here == step:
        turn._hurt(ALIEN_DAMAGE, step)


def _carbon(turn, entry: dict, words: list[str], salvage: bool) -> None:
    """Ability 4: a carbon cube from the supply on an adjacent green numbered space."""
    hex_ = _space(turn, words, "carbon")
    _reach(turn, hex_, "carbon", adjacent_only=True)
    info = turn.board.info(hex_)
    if not info.numbers:
        raise Refused(TERRAFORM, f"carbon {hex_}: {hex_} has no number: expected \"an "
                                 f"adjacent numbered space\"")
    if info.terrain != "carbon":
        raise Refused(TERRAFORM, f"carbon {hex_}: {hex_} is a {info.terrain} space: expected "
                                 f"\"a green numbered space\"")
    resources = turn.world.setdefault("resources", {})
    if hex_ in resources:
        raise Refused(TERRAFORM, f"carbon {hex_}: {hex_} already holds a {resources[hex_]} "
                                 f"cube: expected a space without one")
    turn._mark(entry, salvage)
    resources[hex_] = "carbon"
    turn.events.append(f"{turn.role}: {entry['card']} places a carbon cube from the supply "
                       f"on {hex_}")


_MODE: dict[str, Callable] = {"clear": _clear, "path": _path, "lure": _lure,
                              "carbon": _carbon}


def discs_left(s) -> int:
    """Black discs not yet placed as rover parts (``[scenario2] discs`` less those out:
    Scenario 2, stand-in)."""
    return s.data["scenario2"]["discs"] - len(s.equipment.get("parts", []))


def scan(turn, entry: dict, args: list[str], salvage: bool = False) -> None:
    """Scanner, scan for parts: a d6 for the direction, the disc on the space furthest that way
    from the center, a d6 for its one-space move (module docstring)."""
    no_args(args)
    if discs_left(turn.state) <= 0:
        raise Refused(SCANNER, f"no black disc left: all {turn.state.data['scenario2']['discs']} "
                               f"rover parts are out (data.toml [scenario2] discs)")
    turn._mark(entry, salvage)
    board = turn.board
    first = turn.dice.roll(6, "Scanner: scan for parts, the direction from the center")
    disc = board.furthest(first)
    second = turn.dice.roll(6, "Scanner: scan for parts, the disc's move")
    to = board.step(disc, second)
    turn.state.equipment.setdefault("parts", []).append(to or disc)
    moved = (f"moved to {to}" if to else "it stays (the map's edge)")
    turn.events.append(f"{turn.role}: {entry['card']} scans for parts: d6 {first}, a black "
                       f"disc on {disc} (furthest from the center); d6 {second}: {moved}")


def preferences(args: list[str]) -> tuple[list[str], list[str]]:
    """``pick TYPE... [bottom TYPE...]`` -> ``(pick types, bottom types)``; raises
    :class:`Refused` for another shape."""
    if not args or args[0] != "pick":
        raise Refused(SCANNER, f"{' '.join(args)!r}: expected 'pick TYPE... [bottom TYPE...]'")
    words = args[1:]
    cut = words.index("bottom") if "bottom" in words else len(words)
    picks, bottoms = words[:cut], words[cut + 1:]
    if not picks or (cut < len(words) and not bottoms) or "bottom" in bottoms:
        raise Refused(SCANNER, f"{' '.join(args)!r}: expected one or more card types after "
                               f"pick (or any), and after bottom if it is written")
    return picks, bottoms


def look(turn, entry: dict, args: list[str], salvage: bool = False) -> None:
    """Scanner, look at the top ``amount`` (5) cards of the Upgrade deck: pick one for the
    market's extra cards, up to 2 to the bottom (module docstring)."""
    picks, bottoms = preferences(args)
    known = turn.cards
    for word, listed_for in [*((w, "pick") for w in picks), *((w, "bottom") for w in bottoms)]:
        if word not in known and (word, listed_for) != ("any", "pick"):
            raise Refused(SCANNER, f"{word!r} is not a card type: expected one of "
                                   f"{', '.join(sorted(known))} (or any, to pick)")
    market = turn.state.market
    turn._mark(entry, salvage)
    seen = market.look(entry["amount"]) if market is not None else []
    if not seen:
        turn.events.append(f"{turn.role}: {entry['card']} looks at the Upgrade deck: it is "
                           f"empty, nothing to look at")
        return
    picked = next((c for w in picks for c in seen if w in ("any", card_type(c))), None)
    rest = [c for c in seen if c != picked]
    down: list[str] = []
    for word in bottoms:
        card = next((c for c in rest if card_type(c) == word and c not in down), None)
        if card is not None and len(down) < BOTTOM_MOST:
            down.append(card)
    if picked is not None:
        market.keep_extra(picked, seen)
    if down:
        market.bottom(down, seen, BOTTOM_MOST)
    took = (f"picks {picked} (beside the face-up row, not replaced when bought)" if picked
            else "nothing picked")
    turn.events.append(f"{turn.role}: {entry['card']} looks at the top {len(seen)} cards of "
                       f"the Upgrade deck: {took}; {len(down)} put at the bottom of the deck")
    turn.private.append(f"{entry['card']}: the top {len(seen)} cards of the Upgrade deck were "
                        f"{', '.join(map(deck_card, seen))} (top first); "
                        + ("" if picked else f"none of {', '.join(picks)} among them; ")
                        + (f"{', '.join(map(deck_card, down))} to the bottom; " if down else "")
                        + "the rest back on top in the same order")


TOOLS: dict[str, Callable] = {"terraform": terraform, "scan": scan, "look": look}
"""``what`` -> the function carrying out the ability (data.toml's vocabulary)."""
