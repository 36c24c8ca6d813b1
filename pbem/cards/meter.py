"""A card cost meter: two tokens whose left one sets what each resource symbol of a card costs.

Source: the Escape from Atalix rulebook, "Purchasing Cards and the Card Cost Meter": "Each time
a player purchases a card, they must move the token on the right side of the Card Cost Meter
one space up. If the token reaches the top of the track and must move again, it is reset to the
bottom of the track and the token on the left side of the Meter is moved up one space ... Each
resource symbol present indicates a player must pay as many of that resource as is indicated by
the number underneath the token on the left side of the Card Cost Meter. If there is a +1 next
to the resource symbol they must add one to the cost of that resource."

The track's length (by player count) and the numbers under the left token are the game's data.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .piles import CardError, check_count

__all__ = ["CostMeter"]


def _check_values(values: Any) -> list[int]:
    if (isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple))
            or not values):
        raise CardError(f"left values {values!r}: expected a non-empty list of whole numbers")
    for v in values:
        check_count(v, "left value")
    return list(values)


class CostMeter:
    """The two tokens of a card cost meter.

    - ``top``: the highest space of the right token's track (the bottom is 0); the game gives
      it (the rulebook's track depends on the player count);
    - ``left_values``: the numbers under the left token's spaces, bottom first (``[1, 2, 3,
      4]``); ``left`` indexes them (0, the bottom, at the start);
    - ``right``: the right token's space, 0 (the bottom) to ``top``.

    Raises :class:`CardError` quoting a ``top`` below 1, a ``left_values`` that is not a
    non-empty list of whole numbers, or a token off its track."""

    def __init__(self, top: int, left_values: Sequence[int], right: int = 0, left: int = 0):
        if check_count(top, "top") < 1:
            raise CardError(f"top {top!r}: expected 1 or more")
        self.top = top
        self.left_values = _check_values(left_values)
        if check_count(right, "right token") > top:
            raise CardError(f"right token {right!r}: expected 0 to {top}")
        if check_count(left, "left token") >= len(self.left_values):
            raise CardError(f"left token {left!r}: expected 0 to {len(self.left_values) - 1}")
        self.right = right
        self.left = left

    @property
    def multiplier(self) -> int:
        """The number under the left token: what each resource symbol costs."""
        return self.left_values[self.left]

    def record_purchase(self) -> None:
        """A card was bought: the right token moves up one space; from the top it goes back to
        the bottom (0) and the left token moves up one. On the left track's last space the
        left token stays (stand-in: the rulebook does not say what happens there)."""
        if self.right < self.top:
            self.right += 1
            return
        self.right = 0
        self.left = min(self.left + 1, len(self.left_values) - 1)

    def cost(self, symbols: Mapping[str, int]) -> dict[str, int]:
        """What a card costs now: ``symbols`` maps each resource symbol on the card to the
        ``+N`` beside it (0 for none), and each resource costs ``multiplier + N``: with the
        left token on 1, ``{"scrap": 0, "carbon": 1}`` costs ``{"scrap": 1, "carbon": 2}``
        (the rulebook's Swap Gear). Raises :class:`CardError` for a resource that is not a
        non-empty string or a ``+N`` that is not a whole number 0 or more."""
        if not isinstance(symbols, Mapping):
            raise CardError(f"symbols {symbols!r}: expected a mapping of resource to +N")
        out = {}
        for resource, plus in symbols.items():
            if not isinstance(resource, str) or not resource:
                raise CardError(f"resource {resource!r}: expected a resource name")
            out[resource] = self.multiplier + check_count(plus, f"+N for {resource}")
        return out

    def to_json(self) -> dict[str, Any]:
        """``{"top": 3, "left_values": [1, 2, 3, 4], "right": 0, "left": 0}``."""
        return {"top": self.top, "left_values": list(self.left_values), "right": self.right,
                "left": self.left}

    @classmethod
    def from_json(cls, data: Any) -> "CostMeter":
        """The meter :meth:`to_json` wrote; :class:`CardError` for anything else."""
        keys = ("top", "left_values", "right", "left")
        if not isinstance(data, dict) or set(data) != set(keys):
            got = sorted(data) if isinstance(data, dict) else data
            raise CardError(f"cost meter {got!r}: expected a dict with the keys "
                            f"{', '.join(keys)}")
        return cls(data["top"], data["left_values"], data["right"], data["left"])
