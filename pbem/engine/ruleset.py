"""The ruleset interface: what the engine asks of a game (the :class:`Ruleset` base class).

A ruleset is an instance of a subclass of :class:`Ruleset`, exported by a package (the built-in
ones under ``pbem/games/``) and registered as an entry point in the group ``pbem.rulesets``
(DESIGN.md, "The ruleset interface"; the guide is docs/rulesets.md). It knows nothing of mail,
SQL or templates: it receives plain values, returns plain values, and draws all chance from the
:class:`Chance` it is given (OpenSpiel's "chance as explicit events").

The value types a ruleset and the engine exchange (:class:`Problem`, :class:`Order`,
:class:`Event`, :class:`Window`, :class:`Parts`, :class:`Chance`, :class:`OptionSpec`...) live in
:mod:`pbem.engine.values` and are re-exported here, so ``from pbem.engine.ruleset import Event``
keeps working; so are the data kit's :class:`DataError`, ``HOUSE_SOURCE``, ``PLAIN``,
``MergeRules`` and ``Schema`` (:mod:`pbem.engine.sourced`).
"""

from __future__ import annotations

import abc
import random
import sys
from typing import TYPE_CHECKING, Any, ClassVar, Mapping

from pbem.engine import sourced
from pbem.engine.sourced import (HOUSE_SOURCE, PLAIN, DataError,  # noqa: F401 (re-exported)
                                 MergeRules, Schema)
from pbem.engine.values import (PUBLIC, REFEREE, ROLE_NAME,  # noqa: F401 (re-exported)
                                Chance, Dice, Event, Order, OptionSpec, Outcome, Parts, Problem,
                                Resolution, RoleSpec, Window, check_options, visible)

if TYPE_CHECKING:  # only for the annotations: the engine imports no drawing code
    from pbem.boards.drawing import Drawing
    from pbem.engine.randombot import Choices


class Ruleset(abc.ABC):
    """What a game package exports as ``ruleset``: the whole contract between a game and the
    engine (the reports, ``pbem demo``, the CLI and bench/ call nothing else).

    A game subclasses this, sets the class attributes, writes the abstract methods and
    overrides a default only where the game differs. docs/rulesets.md is the guide; every
    method below says its shapes, units and errors.

    Class attributes:

    - ``name``: registry name (``atlantis``), the entry point's name; ``title``: the game's title.
    - ``min_roles``/``max_roles``: how many players; ``role_names``: role names in seat order
      (suggestions, or the only names when :meth:`role_spec` says ``fixed``).
    - ``option_table``: name -> :class:`OptionSpec`, the options a game may set at creation.
    - ``order_verbs``: the words orders start with; a role may not be named after one.
    - ``data_file`` and ``map_file``: files of the ruleset's package (``package``, by default
      the package of the module defining the class) read by :meth:`load_data` and
      :meth:`load_map`; ``None`` for a game without data or without a board.
    - ``data_schema``: the shape of the data (a :mod:`pbem.engine.sourced` schema) the default
      :meth:`check_data` checks, or None; ``data_merge``: what house rules may do beyond the
      common merge (:class:`pbem.engine.sourced.MergeRules`).

    Errors: the creation methods raise ``ValueError`` (:class:`DataError`,
    ``pbem.boards.hexmap.MapError``...) with a message for the referee; the play methods
    report what is wrong with orders as :class:`Problem` values and raise only for a bug.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_roles: ClassVar[int]
    max_roles: ClassVar[int]
    role_names: ClassVar[tuple[str, ...]]
    option_table: ClassVar[Mapping[str, OptionSpec]] = {}
    order_verbs: ClassVar[tuple[str, ...]] = ()
    data_file: ClassVar[str | None] = "data.toml"
    data_schema: ClassVar[Schema | None] = None
    data_merge: ClassVar[MergeRules] = PLAIN
    map_file: ClassVar[str | None] = "map.toml"
    package: ClassVar[str | None] = None

    # -- roles and options ------------------------------------------------------------------
    def role_spec(self) -> RoleSpec:
        """Which role names a game may be created with. Default: ``role_names`` as suggestions,
        any name matching :data:`ROLE_NAME` taken. A ruleset whose windows owe orders from
        fixed roles must return ``RoleSpec(names, fixed=True)``, or a game created with other
        names waits for orders nobody can send."""
        return RoleSpec(tuple(self.role_names))

    def reserved_words(self) -> tuple[str, ...]:
        """Words no role may be named (a role name that is also an order word would make order
        lines ambiguous). Default: ``order_verbs``."""
        return tuple(self.order_verbs)

    def options(self) -> dict[str, OptionSpec]:
        """The options a game may set at creation (``--option K=V``), name -> :class:`OptionSpec`
        in the order ``pbem rules`` lists them. Default: a copy of ``option_table``."""
        return dict(self.option_table)

    def validate_options(self, raw: Mapping[str, Any] | None) -> dict:
        """Typed option values (``raw``: ``--option`` strings or typed values) with every
        default filled in. Raises ``ValueError`` quoting an unknown key or a value not among
        the choices. Default: :func:`check_options` over :meth:`options`."""
        return check_options(self.options(), dict(raw or {}), self.name)

    # -- data and board ---------------------------------------------------------------------
    def package_name(self) -> str:
        """The dotted name of the package holding the ruleset's files: ``package`` when set,
        else the package of the module that defines the class."""
        if self.package:
            return self.package
        module = sys.modules.get(type(self).__module__)
        return (getattr(module, "__package__", None) or type(self).__module__)

    def package_file(self, name: str) -> str:
        """The UTF-8 text of file ``name`` shipped in the ruleset's package (read with
        :func:`pbem.resources.package_text`, so it works from a wheel). Raises ``OSError``."""
        from pbem.resources import package_text

        return package_text(self.package_name(), name)

    def load_data(self, house_rules: Mapping | None = None) -> dict:
        """The data table: ``data_file`` (TOML; every value an entry ``{value = ..., source =
        "..."}`` or a table of columns with a ``source``) checked by :meth:`check_data` (origin
        ``"data.toml"``), then with ``house_rules`` (a parsed ``--house-rules`` TOML table of
        the same shape, or None) merged over a copy by :meth:`merge_house_rules` and checked
        again (origin ``"house rules"``): :func:`pbem.engine.sourced.load_sourced`. Raises
        :class:`DataError` (a ``ValueError``). Default with ``data_file`` None: an empty table
        (house rules then name unknown keys)."""
        text = self.package_file(self.data_file) if self.data_file else ""
        return sourced.load_sourced(
            text, house_rules, self.check_data, name=self.data_file or "data.toml",
            merge=lambda data, house: self.merge_house_rules(data, house, ""))

    def merge_house_rules(self, data: dict, house: Any, path: str = "") -> None:
        """Merge the house-rules table ``house`` into ``data`` in place (``path``: the dotted key
        of ``data`` within the whole table, "" at the top). A bare value replaces an entry's
        ``value``; a table replaces the columns it names; an entry changed without its own
        ``source`` gets the source ``"house rules"``; ``data_merge`` adds what the game allows
        more. Raises :class:`DataError` for an unknown key or a value that cannot replace what
        is there. Default: :func:`pbem.engine.sourced.merge_house_rules`."""
        sourced.merge_house_rules(data, house, self.data_merge, path)

    def check_data(self, data: dict, origin: str) -> None:
        """Raise :class:`DataError` naming ``origin`` (``"data.toml"``, ``"house rules"``), the
        key path, the value found and what was expected unless ``data`` fits the game. Default:
        :func:`pbem.engine.sourced.check` against ``data_schema``; anything when it is None."""
        if self.data_schema is not None:
            sourced.check(data, self.data_schema, origin)

    def load_map(self, text: str | None, source: str) -> Any:
        """The board the game stands on (a :class:`pbem.boards.board.Board`): the map in
        ``text`` (a referee's ``--map`` file, named ``source`` in messages), or the stand-in
        ``map_file`` of the package when ``text`` is None. Default: a
        :class:`pbem.boards.hexmap.HexMap` read from that TOML (docs/maps.md), or
        :data:`pbem.boards.board.NO_BOARD` when ``map_file`` is None (a game without a board);
        a game on another kind of board overrides this. Raises
        ``pbem.boards.hexmap.MapError`` (a ``ValueError``), or ``ValueError`` for a map given
        to a game without a board. The engine publishes the board's ``name`` and ``digest`` and
        passes it to :meth:`check_map`, :meth:`stand_ins` and :meth:`setup`."""
        if self.map_file is None:
            from pbem.boards.board import NO_BOARD

            if text is not None:
                raise ValueError(f"{source}: {self.title} is played without a map")
            return NO_BOARD
        from pbem.boards.hexmap import load_map

        if text is None:
            stand_in = f"{self.package_name().replace('.', '/')}/{self.map_file} (stand-in)"
            return load_map(self.package_file(self.map_file), source or stand_in)
        return load_map(text, source)

    def check_map(self, board: Any, data: dict) -> None:
        """Raise ``MapError`` (naming the map and what was expected) unless ``board`` can carry
        the game described by ``data``. Default: accept any board."""

    def stand_ins(self, data: dict, options: dict, board: Any) -> list[str]:
        """One line per stand-in, gap treatment or house rule in force, for the setup report and
        the log's ``game-created`` entry. Default: the stand-in map, the options whose source
        starts with ``stand-in``, and every data entry whose source says ``stand-in`` or is
        ``house rules`` (``path: column = value (source)``)."""
        out = []
        if getattr(board, "stand_in", False):
            where = getattr(board, "map_source", "")
            out.append(f"Map: {board.name}: {where}" if where else f"Map: {board.name}")
        for key, spec in self.options().items():
            if spec.source.startswith("stand-in"):
                out.append(f"Option {key}={options.get(key, spec.default)} ({spec.source}).")
        out.extend(sourced.show_entry(e) for e in sourced.walk_sources(data)
                   if sourced.in_force(e.source))
        return out

    # -- play -------------------------------------------------------------------------------
    @abc.abstractmethod
    def setup(self, roles: list[str], options: dict, data: dict, board: Any,
              chance: Chance) -> tuple[Any, list[Event]]:
        """``(state, events)``: the initial position for ``roles`` (seat order) with the typed
        ``options``, the ``data`` table and the ``board``, and the events of the setup report.
        Every random choice comes from ``chance`` (hidden facts from ``chance.hidden``). The
        state is any object :meth:`dump` can split. Raises ``ValueError`` for a game that
        cannot be set up."""

    @abc.abstractmethod
    def window(self, state: Any) -> Window | None:
        """Who owes orders now, for which turn and phase, with which verbs (a
        :class:`Window`); None once the game has ended."""

    @abc.abstractmethod
    def parse(self, role: str, window: Window, body: str,
              first_line: int) -> tuple[list[Order], list[Problem]]:
        """``(orders, problems)`` read from an order ``body`` (the signed text with its header
        removed) sent by ``role`` for ``window``. Line numbers count from ``first_line`` (the
        body's first line in the signed text). Never raises for bad input: each unreadable line
        is a :class:`Problem`."""

    @abc.abstractmethod
    def check(self, state: Any, role: str, orders: list[Order]) -> list[Problem]:
        """Problems with ``role``'s parsed ``orders`` against the current position, sent back
        with the receipt. Does not change ``state``.

        ``state`` is ``role``'s *role state*, not the whole state: the engine passes
        ``load(Parts(public, {role: secret[role]}, referee={}))``
        (:func:`pbem.engine.gamestate.role_state`), so the problems are judged only from what
        ``role`` may know and cannot reveal another role's secret or the referee part. :meth:`load`
        must therefore accept parts with the other roles' secret parts and the referee part
        missing, reading them as unknown (docs/rulesets.md, "What a role is given")."""

    @abc.abstractmethod
    def resolve(self, state: Any, orders_by_role: dict[str, list[Order]],
                chance: Chance) -> Resolution:
        """Carry out the current window, mutating ``state``: events in order and the problems
        found per role while carrying the orders out. A role missing from ``orders_by_role``
        sent nothing (NMR). All chance from ``chance``."""

    @abc.abstractmethod
    def view(self, state: Any, role: str) -> dict:
        """Exactly what ``role`` may know now, as JSON values (``"*"``, :data:`PUBLIC`: what
        everyone may know). The reports, the bots and ``pbem view`` see nothing else.

        ``state`` is ``role``'s *role state* (as for :meth:`check`): loaded from the public part
        and ``role``'s own secret part only, with an empty referee part; for ``"*"`` from the
        public part only. A view that reads another role's secret finds it missing (and should
        fail loudly, not guess); what the end of the game reveals must be in the public part.
        Does not change ``state``."""

    def outcome(self, state: Any) -> Outcome | None:
        """Scores, winners and the reason once the game is over; None while it runs. Default:
        the state's ``outcome`` attribute, ``{"scores", "winners", "reason"}`` (JSON values) or
        None while the game runs (:meth:`Outcome.from_json`)."""
        return Outcome.from_json(getattr(state, "outcome", None))

    @abc.abstractmethod
    def dump(self, state: Any) -> Parts:
        """The state split by audience (:class:`Parts`: public, secret per role, referee), each
        part JSON values. ``load(dump(s))`` must give back an equal state."""

    @abc.abstractmethod
    def load(self, parts: Parts) -> Any:
        """The state from :meth:`dump`'s parts (exact round trip). Also the state a role may
        see: the engine loads ``Parts(public, {role: its secret}, referee={})`` for ``view``,
        ``check``, ``template`` and the bots (pbem.engine.gamestate.role_state), so a missing
        role's secret or an empty referee part must load, as "unknown to this reader"
        (docs/rulesets.md, "What a role is given")."""

    # -- texts ------------------------------------------------------------------------------
    @abc.abstractmethod
    def template(self, state: Any, role: str) -> str:
        """The order lines ``role`` fills in for the current window (comments to edit), put
        under the order header in the report."""

    def rules_text(self, data: dict, options: dict | None = None) -> str:
        """Every table with its source, and the options, for ``pbem rules NAME`` (``options``:
        typed values in force; defaults when None). Default: one line per sourced data entry,
        then the options."""
        out = [f"{self.title}: the rules tables", ""]
        out.extend(sourced.show_entry(e) for e in sourced.walk_sources(data))
        specs = self.options()
        if specs:
            out += ["", "Options (chosen when the game is created: --option KEY=VALUE)"]
            for key, spec in specs.items():
                value = (options or {}).get(key, spec.default)
                choices = "|".join(str(c) for c in spec.choices) if spec.choices else "any"
                out.append(f"  {key} = {value}  ({choices}; default {spec.default}): {spec.help}")
                out.append(f"      source: {spec.source}")
        return "\n".join(out) + "\n"

    def text_map(self, view: dict) -> str:
        """The board as the ``view`` shows it, as monospaced text for the text report (its
        ``board``), every line ending in a newline. Default: the plain-text form of
        :meth:`draw` (:func:`pbem.boards.drawing.text_map`), or "" when :meth:`draw` gives
        None."""
        drawing = self.draw(view)
        if drawing is None:
            return ""
        from pbem.boards.drawing import text_map

        return text_map(drawing)

    def draw(self, view: dict) -> "Drawing | None":
        """How the pieces of ``view`` look on the board: a :class:`pbem.boards.drawing.Drawing`
        (spaces, pieces, terrain fills), the one picture both a text map and the SVG map of the
        HTML report are made from. Default: None (no map drawn)."""
        return None

    def propose(self, view: dict, window: Window, role: str,
                written: tuple[str, ...]) -> "Choices":
        """The order lines ``role`` may write next in ``window``, given the lines ``written``
        so far (each line as it would stand in the order body, without its line break), judged
        from ``view`` (the role's own view) only: a :class:`pbem.engine.randombot.Choices`
        (``lines``, and ``may_stop``: whether the orders may end here). Every line offered must
        meet no problem in :meth:`parse` nor :meth:`check` after ``written``. The generic
        random bot (:meth:`bot_orders`' default) is built on it, as boardgame.io's random bot
        is on ``ai.enumerate``. Default: raises ``NotImplementedError`` (no enumeration)."""
        raise NotImplementedError(f"{self.name}: this ruleset enumerates no orders (propose)")

    def bot_orders(self, view: dict, window: Window, role: str, rng: random.Random) -> str:
        """An order body (header excluded) for ``role`` in ``window``, chosen from ``view``
        only with ``rng``: the orders of ``pbem demo``, the random-game tests and bench/. It
        should raise no problems. ``view`` is :meth:`view` of ``role``'s role state (the engine
        makes it: ``Referee.view_and_window``, :func:`pbem.engine.gamestate.role_view`), so a
        bot knows only what its role may know. Default: the generic random-legal bot
        (:func:`pbem.engine.randombot.random_orders`) over :meth:`propose`; raises
        ``NotImplementedError`` when the ruleset writes neither."""
        if type(self).propose is Ruleset.propose:
            raise NotImplementedError(f"{self.name}: this ruleset has no bot (write propose "
                                      f"or bot_orders)")
        from pbem.engine.randombot import random_orders

        return random_orders(self.propose, view, window, role, rng)

