"""The ``atalix`` ruleset object: the engine contract (pbem.engine.ruleset) wired to this
package's modules. Design by mail: README.md. Rulebook: shared/seeds/002_171ec0f1db0daf85.txt,
cited by section."""

from __future__ import annotations

from pbem.engine.modular import PackageRuleset

from . import orders
from .data import HOUSE_RULES, OPTIONS, check_data
from .data import merge_house_rules as _merge


class AtalixRuleset(PackageRuleset):
    """Escape from Atalix, 1 to 4 players on one team (the pawns' colours as role names)."""

    name = "atalix"
    title = "Escape from Atalix"
    min_roles = 1
    max_roles = 4
    role_names = ("red", "green", "blue", "yellow")
    option_table = OPTIONS
    order_verbs = orders.ORDER_VERBS
    data_merge = HOUSE_RULES

    def rules_text(self, data: dict, options: dict | None = None) -> str:
        """The cards, projects, tracks and events (:func:`.tables.rules_tables`), then every
        value with its source."""
        from .tables import rules_tables
        head, _, rest = super().rules_text(data, options).partition("\n\n")
        return f"{head}\n\n{rules_tables(data)}\nEvery value with its source\n\n{rest}"

    check_data = staticmethod(check_data)

    def merge_house_rules(self, data: dict, house, path: str = "") -> None:
        """House rules merged as :func:`.data.merge_house_rules` does (a table by player count
        or difficulty keeps the values a house rule does not name)."""
        _merge(data, house)

    def load_map(self, text, source: str):
        """The stand-in ``map.toml`` (or a referee's ``--map``), checked by
        :class:`.board.Board` (a missing group is a MapError naming it)."""
        from .board import Board
        board = super().load_map(text, source)
        Board(board)
        return board


ruleset = AtalixRuleset()
