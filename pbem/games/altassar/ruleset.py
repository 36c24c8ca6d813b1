"""The ``altassar`` ruleset object: the engine contract (pbem.engine.ruleset, DESIGN.md "The
ruleset interface") wired to this package's modules.

Game design by mail: README.md in this package. Rulebook: "Escape from Altassar"
(shared/seeds/000_6cf614529e45f503.txt), cited by rule number.
"""

from __future__ import annotations

from pbem.engine.modular import PackageRuleset
from pbem.engine.ruleset import RoleSpec

from . import checking, maps, state
from .data import HOUSE_RULES, OPTIONS
from .data import check_data as _check_data


class AltassarRuleset(PackageRuleset):
    """Escape from Altassar, two players: the Confederation (the escaping prisoners) and the
    Spikus. See the package README for the windows, the order syntax and who sees what.

    From the :class:`~pbem.engine.ruleset.Ruleset` defaults: ``options``/``validate_options``
    (from ``OPTIONS``), ``load_data`` (``data.toml`` with ``data_merge`` and
    :meth:`check_data`), ``load_map`` (the stand-in ``map.toml``), ``reserved_words`` (none)."""

    name = "altassar"
    title = "Escape from Altassar"
    min_roles = 2
    max_roles = 2
    role_names = (state.CONFEDERATION, state.SPIKUS)
    option_table = OPTIONS

    # -- creation ---------------------------------------------------------------------------
    def role_spec(self) -> RoleSpec:
        """The two sides are fixed roles: every window owes orders from ``confederation`` or
        ``spikus``, so a game must be created with exactly these two (in either seat order)."""
        return RoleSpec(self.role_names, fixed=True)

    # data: the Ruleset defaults (``data.toml`` read, house rules merged, checked) with this
    # game's merge rules (CRT rows merged by die, counter values marked in their row's
    # ``sources``) and checks: pbem.engine.sourced.
    data_merge = HOUSE_RULES

    check_data = staticmethod(_check_data)  # the schema and the cross-checks

    check_map = staticmethod(maps.check_map)  # terrains, prison, exit edge

    # -- play -------------------------------------------------------------------------------
    def check(self, s, role: str, order_list: list) -> list:
        """Problems with ``role``'s orders, judged only from what ``role`` knows (a partial
        state from the public part and its own secret part)."""
        parts = state.dump(s)
        known = state.partial(parts.public, role, parts.secret.get(role))
        return checking.check(known, role, order_list)

    # the rest from this package's modules (pbem.engine.modular.LAYOUT): turns.window and
    # resolve, orders.parse, state.view/dump/load, texts.template/rules_text/stand_ins,
    # bots.bot_orders, draw.draw


ruleset = AltassarRuleset()
