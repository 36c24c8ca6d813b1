"""Cards for card games: piles, a player's cards, a market and a card cost meter (docs/rulesets.md,
"Cards, decks and a market").

- :mod:`pbem.cards.piles`: :class:`Pile` (ordered card ids, top first), :func:`shuffled`,
  :class:`PlayerCards` (draw deck, hand, play area, discard pile, active cards) and
  :class:`CardError`.
- :mod:`pbem.cards.market`: :class:`Market` (a face-up row dealt from a deck, replaced when
  bought, the duplicate rule, extra cards).
- :mod:`pbem.cards.meter`: :class:`CostMeter` (two tokens; what each resource symbol costs).

Everything is plain JSON data (``to_json`` / ``from_json``) so a game can dump it by audience;
every shuffle and roll comes from the :class:`~pbem.engine.values.Dice` given. Nothing here
knows a particular game; the rules are those of the Escape from Atalix rulebook, cited by
section in each docstring.
"""

from .market import Market
from .meter import CostMeter
from .piles import CardError, Pile, PlayerCards, shuffled

__all__ = ["CardError", "CostMeter", "Market", "Pile", "PlayerCards", "shuffled"]
