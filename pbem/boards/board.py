"""What the engine and the reports ask of any board: the :class:`Board` protocol.

A game stands on a hex map (:class:`pbem.boards.hexmap.HexMap`), on a board of spaces joined by
explicit links (:class:`pbem.boards.graph.GraphBoard`), or on no board at all
(:data:`NO_BOARD`, for a card game). The engine never looks further than this protocol: at game
creation it publishes the board's ``name`` and ``digest`` (the sha256 of the map file's text)
in the public log, and lists the board among the stand-ins when ``stand_in`` is true. Generic
code (a text legend, a random bot, the conformance test) may also walk ``spaces()``, name them
with ``label()`` and step along ``neighbours()``. Everything else (terrain, groups, range,
straight lines, tunnels) belongs to the concrete board type, and only the game that chose the
type asks for it.
"""

from __future__ import annotations

import hashlib
from typing import Protocol, runtime_checkable

__all__ = ["EMPTY_DIGEST", "NO_BOARD", "Board", "NoBoard"]

EMPTY_DIGEST = hashlib.sha256(b"").hexdigest()
"""The digest of an empty map text: what a game without a board publishes as its map's sha256."""


@runtime_checkable
class Board(Protocol):
    """The questions every board answers (``isinstance(x, Board)`` checks that the names
    exist, not their types).

    - ``name``: the board's name, shown in reports and the game-created log entry.
    - ``digest``: hex sha256 (64 lower-case hex digits) of the map file's UTF-8 text, published
      at game creation so every player can check which map is used.
    - ``map_source``: where the drawing comes from (the file's own ``source`` text).
    - ``stand_in``: True when that source starts with ``stand-in``: the setup report lists it.
    """

    @property
    def name(self) -> str: ...

    @property
    def digest(self) -> str: ...

    @property
    def map_source(self) -> str: ...

    @property
    def stand_in(self) -> bool: ...

    def spaces(self) -> tuple[str, ...]:
        """Every space (hex, numbered space...) of the board, in the board's own order."""
        ...

    def label(self, space: str) -> str:
        """The text a report shows for ``space`` and a player writes back in orders. Raises
        ``KeyError`` for a space not on the board."""
        ...

    def __contains__(self, space: object) -> bool: ...

    def neighbours(self, space: str) -> tuple[str, ...]:
        """The spaces one ordinary step from ``space``. Raises ``KeyError`` for a space not on
        the board."""
        ...

    def to_dict(self) -> dict:
        """A JSON-able description from which the board's class rebuilds an equal board
        (``from_dict``): what a game state dumps in its public part."""
        ...


class NoBoard:
    """The board of a game played without one (a card game such as Escape from Atalix): no
    spaces, name ``"no board"``, the digest of an empty text (:data:`EMPTY_DIGEST`). It
    satisfies :class:`Board`; every question about a space raises ``KeyError``."""

    __slots__ = ()
    name = "no board"
    digest = EMPTY_DIGEST
    map_source = "the game has no board"
    stand_in = False

    def spaces(self) -> tuple[str, ...]:
        """No spaces: ``()``."""
        return ()

    def label(self, space: str) -> str:
        """Always raises ``KeyError``: there is no space to name."""
        raise KeyError(f"space {space!r}: the game has no board")

    def __contains__(self, space: object) -> bool:
        return False

    def neighbours(self, space: str) -> tuple[str, ...]:
        """Always raises ``KeyError``: there is no space to step from."""
        raise KeyError(f"space {space!r}: the game has no board")

    def to_dict(self) -> dict:
        """``{"board": "none"}``; :meth:`from_dict` gives :data:`NO_BOARD` back."""
        return {"board": "none"}

    @classmethod
    def from_dict(cls, d: dict) -> NoBoard:
        """:data:`NO_BOARD` (``d`` is :meth:`to_dict`'s output)."""
        return NO_BOARD

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NoBoard)

    def __hash__(self) -> int:
        return hash(EMPTY_DIGEST)

    def __repr__(self) -> str:
        return "NO_BOARD"


NO_BOARD = NoBoard()
"""The one board of a game with no board."""
