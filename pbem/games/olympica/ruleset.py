"""The ``olympica`` ruleset object: the engine contract (pbem.engine.ruleset) wired to this
package's modules. Design by mail: README.md. Rulebook: shared/seeds/001_746aff674b41fe2c.txt,
cited by rule number."""

from __future__ import annotations

from pbem.engine.modular import PackageRuleset
from pbem.engine.ruleset import RoleSpec

from . import orders, state, texts
from .data import HOUSE_RULES, OPTIONS, check_data, check_map


class OlympicaRuleset(PackageRuleset):
    """Olympica, two players: ``web`` (the Web of Celebrance, first in each Game-Turn) and
    ``un`` (the U.N. raiders), fixed roles."""

    name = "olympica"
    title = "Olympica"
    min_roles = 2
    max_roles = 2
    role_names = state.ROLES
    option_table = OPTIONS
    order_verbs = orders.ORDER_VERBS
    data_merge = HOUSE_RULES

    def role_spec(self) -> RoleSpec:
        """The two sides are fixed roles (1.0: the Web player and the U.N. player)."""
        return RoleSpec(self.role_names, fixed=True)

    def validate_options(self, raw: dict) -> dict:
        """Typed options (the defaults), refusing an optional rule with the Introductory
        Scenario (4.0): ``ValueError``."""
        from .data import check_options
        options = super().validate_options(raw)
        check_options(options)
        return options

    def rules_text(self, data: dict, options: dict | None = None) -> str:
        """The unit table, the CRT (unverified rows marked) and the Terrain Effects, then
        every value with its source."""
        head, _, rest = super().rules_text(data, options).partition("\n\n")
        return f"{head}\n\n{texts.rules_tables(data)}\nEvery value with its source\n\n{rest}"

    check_data = staticmethod(check_data)
    check_map = staticmethod(check_map)


ruleset = OlympicaRuleset()
