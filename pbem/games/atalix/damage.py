"""Taking damage (rulebook, "Taking Damage"): storm tokens, the alien, encounters.

"Any time you enter a board space containing a green storm token, you take one damage per token
present on that space. If a player enters the board space with the alien or the alien enters
the board space of a player, that player receives two damage. ... For each damage you sustain,
you must discard a card from your draw deck. If you take damage and have no cards in your deck,
you must discard played cards containing unused Action Phase abilities. If you have no viable
cards left to discard, then you must return your player pawn to the center board space."
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.cards import PlayerCards

ALIEN_DAMAGE = 2
"""Damage from the alien ("that player receives two damage")."""


@dataclass(frozen=True)
class Damage:
    """What ``take`` did: the cards discarded from the deck, the played cards discarded (those
    with unused Action Phase abilities), and whether the pawn went back to the center."""

    from_deck: tuple[str, ...]
    from_play: tuple[str, ...]
    to_center: bool


def entering(storm: dict, alien: str | None, hex_: str) -> int:
    """The damage of entering ``hex_``: one per storm token there, two if the alien is there."""
    return storm.get(hex_, 0) + (ALIEN_DAMAGE if alien == hex_ else 0)


def take(player: PlayerCards, n: int, unused: list) -> Damage:
    """``n`` damage to ``player``: a card from the draw deck for each; with the deck empty, a
    played card of ``unused`` (the played cards whose Action Phase abilities are not used yet,
    in the order the caller prefers to lose them) for each; with none left, the pawn goes back
    to the center (the caller moves it: ``to_center``). ``unused`` loses the cards discarded.
    Raises ``ValueError`` for a negative ``n``."""
    if n < 0:
        raise ValueError(f"damage {n!r}: expected 0 or more")
    from_deck = player.discard_from_deck(n)
    left = n - len(from_deck)
    from_play = []
    while left and unused:
        card = unused.pop(0)
        player.discard_played(card)
        from_play.append(card)
        left -= 1
    return Damage(tuple(from_deck), tuple(from_play), left > 0)
