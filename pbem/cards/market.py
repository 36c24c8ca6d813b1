"""A market: a face-up row of cards dealt from a face-down deck, bought from one at a time.

Sources: the Escape from Atalix rulebook, "Card Setup" ("Draw the top 5 cards and place them,
face up, surrounding the Upgrade deck"), "Purchasing Cards and the Card Cost Meter" (the
replacement and duplicate rules), "Scanner Card" (its second ability) and "Scavenge".

The row and the extra cards are public; the deck's order is the referee's (draw it with the
hidden stream and dump ``deck`` in the referee part). Card kinds are the game's: where the
duplicate rule needs them, a function ``kind_of(card_id) -> str`` is passed in.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from pbem.engine.values import Dice

from .piles import CardError, Pile, card_list, check_card, check_count

__all__ = ["Market"]

KindOf = Callable[[str], str]


class Market:
    """A row of up to ``size`` face-up cards (``row``, in slot order), cards added beside it
    that are never replaced (``extra``: the Scanner's) and the ``deck`` (:class:`Pile`) the
    row is filled from. Raises :class:`CardError` for a ``size`` below 1, a row longer than
    ``size`` or a card id held twice."""

    def __init__(self, deck: Iterable[str], size: int, row: Iterable[str] = (),
                 extra: Iterable[str] = ()):
        if check_count(size, "market size") < 1:
            raise CardError(f"market size {size!r}: expected 1 or more")
        self.size = size
        self.deck = Pile(deck)
        self.row = card_list(list(row), "market row")
        self.extra = card_list(list(extra), "market extra cards")
        if len(self.row) > size:
            raise CardError(f"market row {self.row!r}: expected at most {size} cards")
        card_list([*self.deck, *self.row, *self.extra], "market")

    @classmethod
    def deal(cls, deck: Iterable[str], size: int) -> "Market":
        """A market whose row is the top ``size`` cards of ``deck`` (fewer if the deck holds
        fewer), the rest staying the deck ("Card Setup": "Draw the top 5 cards and place them,
        face up")."""
        market = cls(deck, size)
        market.refill()
        return market

    def available(self) -> list[str]:
        """The cards that may be bought: the row, then the extra cards."""
        return [*self.row, *self.extra]

    def refill(self) -> list[str]:
        """Deal cards from the deck onto the row until it holds ``size`` cards or the deck is
        empty; returns the cards dealt."""
        dealt = self.deck.draw(self.size - len(self.row), partial=True)
        self.row.extend(dealt)
        return dealt

    def take(self, card: str) -> str:
        """Buy ``card`` and return it. From the row, it is replaced in its slot by the top card
        of the deck ("When you purchase a card, immediately replace it with a card from the
        deck"; the slot closes when the deck is empty); an extra card is not replaced ("Scanner
        Card": "When purchased this card does not get replaced"). Raises :class:`CardError`
        when the card is not available."""
        check_card(card)
        if card in self.extra:
            self.extra.remove(card)
        elif card in self.row:
            slot = self.row.index(card)
            new = self.deck.draw(1, partial=True)
            self.row[slot:slot + 1] = new
        else:
            raise CardError(f"take {card!r}: the card is not in the market: expected one of "
                            f"{self.available()}")
        return card

    def duplicates(self, kind_of: KindOf) -> list[str]:
        """The cards of the row whose kind (``kind_of(card)``) another card of the row shares,
        in row order ("Purchasing Cards": "Players may purchase cards from the 5 face up
        upgrades ... If there are duplicates"). Extra cards are not counted: the rule speaks
        of the face-up row."""
        kinds = [kind_of(card) for card in self.row]
        return [card for card, kind in zip(self.row, kinds) if kinds.count(kind) > 1]

    def replace_duplicate(self, card: str, dice: Dice, why: str, *, kind_of: KindOf) -> str:
        """Remove ``card``, a duplicate of the row (:meth:`duplicates`), replace it in its slot
        by the top card of the deck, then put it back into the deck at a random place
        ("Purchasing Cards": "players may choose to remove and replace one of the duplicates
        before purchasing a card. Place this removed card at a random place in the Upgrade
        deck"): ``dice.roll(len(deck) + 1, why)`` gives the place, 1 on top, ``len(deck) + 1``
        at the bottom (give the hidden stream: the deck's order is secret). Returns the
        replacement. Raises :class:`CardError` when the card is not a duplicate in the row or
        the deck is empty (nothing to replace it with)."""
        check_card(card)
        if card not in self.duplicates(kind_of):
            raise CardError(f"replace {card!r}: the card is not a duplicate in the market row: "
                            f"expected one of {self.duplicates(kind_of)}")
        if not len(self.deck):
            raise CardError(f"replace {card!r}: the deck is empty: expected a card to replace "
                            f"it with")
        slot = self.row.index(card)
        self.row[slot] = self.deck.draw(1)[0]
        place = dice.roll(len(self.deck) + 1, why)
        self.deck.insert(card, place - 1)
        return self.row[slot]

    def look(self, n: int) -> list[str]:
        """The top ``n`` cards of the deck, top first, left in place ("Scanner Card": "look at
        the top 5 cards of the Upgrade deck"); fewer when the deck holds fewer."""
        return self.deck.peek(n)

    def _check_looked(self, card: str, among: Sequence[str] | None, doing: str) -> str:
        check_card(card)
        if among is not None and card not in among:
            raise CardError(f"{doing} {card!r}: the card is not among the cards looked at: "
                            f"expected one of {list(among)}")
        if card not in self.deck:
            raise CardError(f"{doing} {card!r}: the card is not in the deck: expected a card "
                            f"of the deck")
        return card

    def scavenge(self) -> str:
        """Draw the top card of the deck ("Scavenge": "players draw the top card of the
        upgrade deck"); where it goes is the game's rule. Raises :class:`CardError` when the
        deck is empty."""
        if not len(self.deck):
            raise CardError("scavenge: the deck is empty: expected a card to draw")
        return self.deck.draw(1)[0]

    def keep_extra(self, card: str, among: Sequence[str] | None = None) -> None:
        """Take ``card`` out of the deck and add it beside the row ("Scanner Card": "pick one
        to add to the selection of available cards. This new card does not replace any of
        those already available"). ``among``: the cards :meth:`look` showed, which it must be
        one of. Raises :class:`CardError` when it is not in the deck (or not among them)."""
        self._check_looked(card, among, "keep")
        self.extra.append(self.deck.remove(card))

    def bottom(self, cards: Iterable[str], among: Sequence[str] | None = None,
               most: int = 2) -> None:
        """Move up to ``most`` ``cards`` of the deck to its bottom, in their order ("Scanner
        Card": "players may put up to 2 cards out of the 5 at the bottom of the deck").
        ``among``: the cards :meth:`look` showed, which each must be one of. Raises
        :class:`CardError` (nothing moved) for more than ``most`` cards or a card not in the
        deck (or not among them)."""
        cards = card_list(list(cards), "put at the bottom")
        if len(cards) > most:
            raise CardError(f"put at the bottom {cards!r}: expected at most {most} cards")
        for card in cards:
            self._check_looked(card, among, "put at the bottom")
        for card in cards:
            self.deck.remove(card)
        self.deck.put_bottom(cards)

    def to_json(self) -> dict[str, Any]:
        """``{"size": 5, "row": [...], "extra": [...], "deck": [...]}`` (the deck top first:
        the referee's; the rest public)."""
        return {"size": self.size, "row": list(self.row), "extra": list(self.extra),
                "deck": self.deck.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> "Market":
        """The market :meth:`to_json` wrote; :class:`CardError` for anything else."""
        keys = ("size", "row", "extra", "deck")
        if not isinstance(data, dict) or set(data) != set(keys):
            got = sorted(data) if isinstance(data, dict) else data
            raise CardError(f"market {got!r}: expected a dict with the keys {', '.join(keys)}")
        return cls(card_list(data["deck"], "market deck"), data["size"], data["row"],
                   data["extra"])
