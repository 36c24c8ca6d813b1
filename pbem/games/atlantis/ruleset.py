"""The ``atlantis`` ruleset object: the engine contract (pbem.engine.ruleset, DESIGN.md "The
ruleset interface") wired to this package's modules.

Game design by mail: README.md in this package. Rulebook: A. J. Merritt, "Escape from Atlantis
using many rules from Survive" (shared/seeds/004_f1afad92cc456acf.txt), cited by section name.
"""

from __future__ import annotations

from pbem.engine.modular import PackageRuleset
from pbem.engine.ruleset import Chance, Resolution, RoleSpec

from . import maps, placement, state, windows
from .data import HOUSE_RULES, OPTIONS
from .data import check_data as _check_data


class AtlantisRuleset(PackageRuleset):
    """Escape from Atlantis (Survive variant), 2 to 4 players. See the package README for the
    windows, the order syntax and who sees what.

    From the :class:`~pbem.engine.ruleset.Ruleset` defaults: ``options``/``validate_options``
    (from ``OPTIONS``), ``load_data`` (``data.toml`` with ``data_merge`` and
    :meth:`check_data`), ``load_map`` (the stand-in ``map.toml``), ``reserved_words`` (none)."""

    name = "atlantis"
    title = "Escape from Atlantis (Survive variant)"
    min_roles = 2
    max_roles = 4
    role_names = ("red", "green", "blue", "yellow")
    option_table = OPTIONS
    modules = {"setup": "windows", "window": "windows"}  # the rest: modular.LAYOUT

    # -- creation ---------------------------------------------------------------------------
    def role_spec(self) -> RoleSpec:
        """Any role names (the colours are suggestions), of lower-case letters only: people are
        named by role and number (``red3``), so a digit in a role name would be ambiguous
        (:func:`~pbem.games.atlantis.windows.setup`)."""
        return RoleSpec(self.role_names, fixed=False, pattern=r"^[a-z]+$",
                        pattern_help="lower-case letters only")

    # data: the Ruleset defaults (``data.toml`` read, house rules merged, checked) with this
    # game's merge rules (may add manifest rows) and checks: pbem.engine.sourced.
    data_merge = HOUSE_RULES

    check_data = staticmethod(_check_data)  # the schema and the cross-checks

    check_map = staticmethod(maps.check_map)  # 37 island hexes, 7 centre...

    # -- play -------------------------------------------------------------------------------
    def check(self, s, role: str, order_list: list) -> list:
        """Problems with ``role``'s orders against the current position, judged only from what
        ``role`` may know (a partial state built from the public part and its own secret).

        The placement check reads only public fields (the map, the tiles, the pieces, the
        rules and options) and changes nothing, so it is given ``s`` itself: the partial
        state's public fields are those of ``s`` (an exact round trip), and rebuilding it
        cost most of a check (issue 11, batch ingest). The other checks change the state
        they work on, and get a partial state built afresh."""
        if s.stage == "placement":
            return placement.check_placement(s, role, order_list)
        parts = state.dump(s)
        known = state.partial(parts.public, role, parts.secret.get(role))
        if known.stage == "placement":
            return placement.check_placement(known, role, order_list)
        if known.stage == "turn":
            return windows.check_turn(known, role, order_list)
        if known.stage == "creature":
            return windows.check_creature(known, role, order_list)
        return []

    def resolve(self, s, orders_by_role: dict, chance: Chance) -> Resolution:
        """Carry out the current window (mutates ``s``); roles missing from ``orders_by_role``
        sent nothing (NMR)."""
        if s.stage == "placement":
            return placement.resolve_placement(s, orders_by_role, chance)
        if s.stage == "turn":
            return windows.resolve_turn(s, orders_by_role, chance)
        if s.stage == "creature":
            return windows.resolve_creature(s, orders_by_role, chance)
        return Resolution([], {})


ruleset = AtlantisRuleset()
