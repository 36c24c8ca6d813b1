"""The ``altassar`` ruleset object: the engine contract (pbem.engine.ruleset, DESIGN.md "The
ruleset interface") wired to this package's modules.

Game design by mail: README.md in this package. Rulebook: "Escape from Altassar"
(shared/seeds/000_6cf614529e45f503.txt), cited by rule number.
"""

from __future__ import annotations

from pbem.boards.hexmap import HexMap
from pbem.engine.ruleset import Chance, Outcome, RoleSpec, Ruleset

from . import bots, checking, maps, orders, state, texts, turns
from .data import HOUSE_RULES, OPTIONS
from .data import check_data as _check_data


class AltassarRuleset(Ruleset):
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

    stand_ins = staticmethod(texts.stand_ins)

    def setup(self, roles: list, options: dict, data: dict, hexmap: HexMap, chance: Chance):
        """``(state, events)``: the counters dealt under face-down markers on the hidden
        stream; the Breakout window opens (12.0, 19.0)."""
        return turns.setup(roles, self.validate_options(options), data, hexmap, chance)

    # -- play -------------------------------------------------------------------------------
    window = staticmethod(turns.window)

    parse = staticmethod(orders.parse)

    def check(self, s, role: str, order_list: list) -> list:
        """Problems with ``role``'s orders, judged only from what ``role`` knows (a partial
        state from the public part and its own secret part)."""
        parts = state.dump(s)
        known = state.partial(parts.public, role, parts.secret.get(role))
        return checking.check(known, role, order_list)

    resolve = staticmethod(turns.resolve)

    view = staticmethod(state.view)

    dump = staticmethod(state.dump)

    load = staticmethod(state.load)

    # -- texts ------------------------------------------------------------------------------
    template = staticmethod(texts.template)

    rules_text = staticmethod(texts.rules_text)

    def draw(self, v: dict):
        """How the view ``v`` looks on the mapsheet (a :class:`pbem.boards.drawing.Drawing`),
        for both the text map and the SVG map."""
        from .draw import draw

        return draw(v)

    bot_orders = staticmethod(bots.bot_orders)


ruleset = AltassarRuleset()
