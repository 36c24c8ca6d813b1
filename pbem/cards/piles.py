"""Piles of cards and a player's cards: draw deck, hand, play area, discard pile, active cards.

A card is a card id, a non-empty string naming one physical card (``"swap-gear-2"``); its kind
(``"swap-gear"``) is the game's business. Ids are unique: a pile, or a player's cards, holding
one id twice is an error. Everything is plain JSON data: :meth:`Pile.to_json` is a list of ids,
top first; :meth:`PlayerCards.to_json` a dict of such lists.

Audiences are the game's to apply when it dumps its state: a player's hand and deck are that
player's secret, a deck's order is the referee's. So that an error message cannot leak them, no
message here lists the cards of a pile: it quotes the input and says what was expected.

Sources: the Escape from Atalix rulebook ("Setup: Active Card", "Planning Phase", "Taking
Damage", "Shuffle Deck", "Research Track").
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from pbem.engine.values import Dice

__all__ = ["CardError", "Pile", "PlayerCards", "shuffled"]


class CardError(ValueError):
    """A card operation that cannot be carried out, or saved card data that cannot be read: a
    card id that is not a non-empty string, a card not where it was expected, too few cards to
    draw, an id held twice. The message quotes the input and says what was expected."""


def check_card(card: Any, what: str = "card") -> str:
    """``card`` if it is a card id (a non-empty string without surrounding spaces), else
    :class:`CardError` quoting it."""
    if not isinstance(card, str) or card == "" or card.strip() != card:
        raise CardError(f"{what} {card!r}: expected a card id, a non-empty string without "
                        f"surrounding spaces")
    return card


def check_count(n: Any, what: str = "count") -> int:
    """``n`` if it is a whole number 0 or more, else :class:`CardError` quoting it."""
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise CardError(f"{what} {n!r}: expected a whole number, 0 or more")
    return n


def card_list(cards: Any, what: str) -> list[str]:
    """``cards`` as a new list of card ids, checked: a list (or tuple) of ids, none twice;
    else :class:`CardError` naming ``what`` and quoting the first bad entry."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        raise CardError(f"{what} {cards!r}: expected a list of card ids")
    seen: set[str] = set()
    for card in cards:
        check_card(card, f"{what}: card")
        if card in seen:
            raise CardError(f"{what}: card {card!r} is given twice: expected each card once")
        seen.add(card)
    return list(cards)


class Pile:
    """An ordered pile of cards, top first: index 0 is the top card, the last the bottom one.

    ``Pile(["a", "b"])`` has ``"a"`` on top. Raises :class:`CardError` for an entry that is
    not a card id or an id given twice. ``len(pile)``, ``iter(pile)`` (top to bottom) and
    ``card in pile`` work as for a list; two piles are equal when they hold the same cards in
    the same order."""

    def __init__(self, cards: Iterable[str] = ()):
        self._cards = card_list(list(cards), "pile")

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._cards))

    def __contains__(self, card: object) -> bool:
        return card in self._cards

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pile) and other._cards == self._cards

    def __repr__(self) -> str:
        return f"Pile({self._cards!r})"

    def peek(self, n: int) -> list[str]:
        """The top ``n`` cards (fewer when the pile holds fewer), top first, left in place."""
        return self._cards[:check_count(n)]

    def draw(self, n: int = 1, partial: bool = False) -> list[str]:
        """Take the top ``n`` cards off the pile: a list, the top card first. With fewer than
        ``n`` cards, raises :class:`CardError` (nothing taken) unless ``partial``, which takes
        what there is (possibly nothing)."""
        check_count(n)
        if n > len(self._cards) and not partial:
            raise CardError(f"draw {n}: the pile holds {len(self._cards)} cards: expected "
                            f"{len(self._cards)} or fewer")
        taken, self._cards = self._cards[:n], self._cards[n:]
        return taken

    def _check_new(self, cards: Iterable[str], what: str) -> list[str]:
        new = card_list(list(cards), what)
        for card in new:
            if card in self._cards:
                raise CardError(f"{what}: card {card!r} is already in the pile: expected a "
                                f"card from elsewhere")
        return new

    def put_top(self, cards: Iterable[str]) -> None:
        """Put ``cards`` on top, in their order: ``cards[0]`` becomes the top card. Raises
        :class:`CardError` for a card already in the pile or given twice."""
        self._cards = self._check_new(cards, "put on top") + self._cards

    def put_bottom(self, cards: Iterable[str]) -> None:
        """Put ``cards`` at the bottom, in their order: the last of them becomes the bottom
        card. Raises :class:`CardError` for a card already in the pile or given twice."""
        self._cards = self._cards + self._check_new(cards, "put at the bottom")

    def insert(self, card: str, index: int) -> None:
        """Put ``card`` at ``index``: 0 on top, ``len(pile)`` at the bottom. Raises
        :class:`CardError` for an index outside 0..len(pile) or a card already in the pile."""
        self._check_new([card], "insert")
        if check_count(index, "insert at index") > len(self._cards):
            raise CardError(f"insert at index {index}: expected 0 (top) to {len(self._cards)} "
                            f"(bottom)")
        self._cards.insert(index, card)

    def remove(self, card: str) -> str:
        """Take ``card`` out of the pile wherever it is and return it; :class:`CardError` when
        it is not in the pile."""
        check_card(card)
        if card not in self._cards:
            raise CardError(f"card {card!r} is not in the pile: expected one of its cards")
        self._cards.remove(card)
        return card

    def to_json(self) -> list[str]:
        """The ids, top first (a new list)."""
        return list(self._cards)

    @classmethod
    def from_json(cls, data: Any) -> "Pile":
        """The pile :meth:`to_json` wrote; :class:`CardError` for anything but a list of
        distinct card ids."""
        return cls(card_list(data, "pile"))


def shuffled(cards: Iterable[str], dice: Dice, why: str) -> Pile:
    """A new :class:`Pile` of ``cards`` in the order ``dice.shuffle(cards, why)`` gives. Give
    ``chance.hidden`` for an order no player may know (a draw deck), ``chance.public`` for one
    everyone may; ``why`` is logged in clear and must name no hidden fact."""
    return Pile(dice.shuffle(card_list(list(cards), "shuffle"), why))


ZONES = ("deck", "hand", "played", "discard", "active")
"""The keys of :meth:`PlayerCards.to_json`, each a list of card ids."""


class PlayerCards:
    """One player's cards (Atalix rulebook, "Setup: Active Card", "Planning Phase", "Shuffle
    Deck"): ``deck`` (:class:`Pile`, face down, top first), ``hand`` (list), ``played`` (the
    play area, in the order played), ``discard`` (:class:`Pile`, the last card put there on
    top) and ``active`` (list: active cards stay out of the deck and are never reshuffled).

    Raises :class:`CardError` when a card id is held twice across the zones."""

    def __init__(self, deck: Iterable[str] = (), hand: Iterable[str] = (),
                 played: Iterable[str] = (), discard: Iterable[str] = (),
                 active: Iterable[str] = ()):
        self.deck = Pile(deck)
        self.hand = card_list(list(hand), "hand")
        self.played = card_list(list(played), "play area")
        self.discard = Pile(discard)
        self.active = card_list(list(active), "active cards")
        card_list(self.cards(), "player's cards")

    @classmethod
    def start(cls, cards: Iterable[str], active: Iterable[str], dice: Dice,
              why: str) -> "PlayerCards":
        """A starting position (Atalix "Setup: Active Card": "Players may pick any non-gray
        card to be their Active Card ... Players should then shuffle their remaining deck"):
        ``active`` taken out of ``cards``, the rest shuffled into the deck with ``dice``.
        Raises :class:`CardError` for an active card that is not among ``cards``."""
        cards = card_list(list(cards), "starting cards")
        active = card_list(list(active), "active cards")
        for card in active:
            if card not in cards:
                raise CardError(f"active card {card!r} is not among the starting cards: "
                                f"expected one of them")
        rest = [c for c in cards if c not in active]
        return cls(deck=shuffled(rest, dice, why), active=active)

    def cards(self) -> list[str]:
        """Every card the player owns: deck, hand, play area, discard pile, active cards."""
        return [*self.deck, *self.hand, *self.played, *self.discard, *self.active]

    def __contains__(self, card: object) -> bool:
        return card in self.cards()

    def sizes(self) -> dict[str, int]:
        """How many cards each zone holds (``{"deck": 5, "hand": 4, ...}``): what a player
        may know of another's cards when the zones themselves are secret."""
        return {zone: len(cards) for zone, cards in self._zones().items()}

    def _zones(self) -> dict[str, list[str]]:
        return {"deck": self.deck.to_json(), "hand": list(self.hand),
                "played": list(self.played), "discard": self.discard.to_json(),
                "active": list(self.active)}

    def _take_from_hand(self, card: str, doing: str) -> str:
        check_card(card)
        if card not in self.hand:
            raise CardError(f"{doing} {card!r}: the card is not in the hand: expected a card "
                            f"in the hand")
        self.hand.remove(card)
        return card

    def draw(self, n: int) -> list[str]:
        """Draw up to ``n`` cards from the deck into the hand ("Planning Phase": "start this
        phase by drawing 4 cards"); fewer when the deck runs out (a player out of cards takes
        no more turns). Returns the cards drawn, in order."""
        drawn = self.deck.draw(n, partial=True)
        self.hand.extend(drawn)
        return drawn

    def play(self, card: str) -> None:
        """Move ``card`` from the hand to the end of the play area ("Planning Phase": "play
        cards ... into their play area in the order they wish to execute them"). Raises
        :class:`CardError` when it is not in the hand."""
        self.played.append(self._take_from_hand(card, "play"))

    def discard_hand(self) -> list[str]:
        """Discard every card left in the hand ("Planning Phase": "Any cards remaining in a
        player's hand are discarded into a discard pile"); returns them."""
        left, self.hand = self.hand, []
        self.discard.put_top(reversed(left))
        return left

    def discard_from_deck(self, n: int) -> list[str]:
        """Damage ("Taking Damage": "For each damage you sustain, you must discard a card from
        your draw deck"): the top ``n`` cards of the deck to the discard pile, fewer when the
        deck runs out. Returns the cards discarded; the game deals with the rest of the damage
        (:meth:`discard_played`, then the pawn to the center)."""
        gone = self.deck.draw(n, partial=True)
        self.discard.put_top(reversed(gone))
        return gone

    def discard_played(self, card: str) -> None:
        """Move ``card`` from the play area to the discard pile (damage with an empty deck:
        "discard played cards containing unused Action Phase abilities"). Raises
        :class:`CardError` when it is not in the play area."""
        check_card(card)
        if card not in self.played:
            raise CardError(f"discard played card {card!r}: the card is not in the play area: "
                            f"expected a played card")
        self.played.remove(card)
        self.discard.put_top([card])

    def refresh(self, dice: Dice, why: str) -> Pile:
        """The end-of-round shuffle ("Shuffle Deck": "shuffle their discard pile and place it
        back ... as a new draw deck. Do not remove or shuffle your Active Card(s)"): the
        discard pile and the play area (and any card still in the hand or deck, which at the
        end of a round are empty) shuffled with ``dice`` into a new deck, in the order
        ``dice.shuffle(discard + played + hand + deck, why)`` gives. Active cards stay.
        Returns the new deck."""
        pool = [*self.discard, *self.played, *self.hand, *self.deck]
        self.deck = shuffled(pool, dice, why)
        self.hand, self.played, self.discard = [], [], Pile()
        return self.deck

    def gain(self, card: str) -> None:
        """A new card onto the discard pile (the Atalix market and "Scavenge": "add it to
        their discard"). Raises :class:`CardError` when the player already has it."""
        check_card(card)
        if card in self.cards():
            raise CardError(f"gain {card!r}: the player already has this card: expected a new "
                            f"card")
        self.discard.put_top([card])

    def set_active(self, card: str) -> None:
        """Move ``card`` from the hand to the active cards ("Research Track": "choosing a
        non-gray card from their hand to be a new active card, and placing it next to their
        original active card"). Which cards may be active is the game's rule. Raises
        :class:`CardError` when it is not in the hand."""
        self.active.append(self._take_from_hand(card, "set active"))

    def to_json(self) -> dict[str, list[str]]:
        """``{"deck": [...], "hand": [...], "played": [...], "discard": [...], "active":
        [...]}``, each a new list of ids (deck and discard top first)."""
        return self._zones()

    @classmethod
    def from_json(cls, data: Any) -> "PlayerCards":
        """The cards :meth:`to_json` wrote. Raises :class:`CardError` for anything but a dict
        with exactly the keys of :data:`ZONES`, each a list of card ids, no id twice."""
        if not isinstance(data, dict) or set(data) != set(ZONES):
            got = sorted(data) if isinstance(data, dict) else data
            raise CardError(f"player's cards {got!r}: expected a dict with the keys "
                            f"{', '.join(ZONES)}")
        return cls(**{zone: card_list(data[zone], zone) for zone in ZONES})
