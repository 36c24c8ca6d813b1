"""The ``attackforce`` ruleset object: the engine contract (pbem.engine.ruleset) wired to this
package's modules. Design by mail: README.md. Rulebook: shared/seeds/003_4e91702e1e56808e.txt,
cited by section name and step."""

from __future__ import annotations

from pbem.engine.modular import PackageRuleset
from pbem.engine.ruleset import RoleSpec

from . import orders, state, texts
from .data import OPTIONS, check_board, check_data, load_board


class AttackForceRuleset(PackageRuleset):
    """Attack Force, two players: ``arcturan`` and ``empire`` (fixed roles)."""

    name = "attackforce"
    title = "Attack Force"
    min_roles = 2
    max_roles = 2
    role_names = state.ROLES
    option_table = OPTIONS
    order_verbs = orders.ORDER_VERBS

    def role_spec(self) -> RoleSpec:
        """The two sides are fixed roles (Introduction: the Arcturan and the Empire Player)."""
        return RoleSpec(self.role_names, fixed=True)

    def check_data(self, data: dict, origin: str) -> None:
        """Raise DataError unless ``data`` fits (:func:`.data.check_data`)."""
        check_data(data, origin)

    def load_map(self, text, source: str):
        """The GraphBoard: the stand-in ``map.toml`` or a referee's ``--map``."""
        return load_board(text, source)

    def check_map(self, board, data: dict) -> None:
        """Raise MapError unless the board carries the game (:func:`.data.check_board`)."""
        check_board(board, data)

    def rules_text(self, data: dict, options: dict | None = None) -> str:
        """The ATTACK TABLE as a grid and the pieces, then every value with its source."""
        return (f"{self.title}: the rules tables\n\n" + texts.attack_grid(data) + "\n"
                + super().rules_text(data, options))


ruleset = AttackForceRuleset()
