"""Fixtures for the Escape from Altassar rulebook tests (tests/test_altassar_rules.py).

Positions are built by hand on the ruleset's real state: a game is set up with fixed dice, every
counter starts off the map ("box"), and a test places the units it needs, sets the stage, turn
and phasing player, and drives the game through the ruleset's own ``parse``/``check``/``resolve``.

- :class:`FixedDice`: a die whose rolls are queued by the test; every roll is recorded with its
  reason, and a roll nobody queued fails the test (so a test also proves which dice were used).
- :func:`small_map`: an all-Clear map (12 columns x 10 rows, ``even-low``) with a two-hex prison
  at 0105/0106 on the west edge and the exit group on the east edge (column 12), plus any terrain
  the test asks for.
- :class:`Game`: one game, with ``place``/``put`` to position units and ``play`` to send orders.

Rulebook: shared/seeds/000_6cf614529e45f503.txt ("Escape from Altassar").
"""

from __future__ import annotations


from pbem.boards.hexmap import load_map
from pbem.engine.ruleset import Chance
from pbem.games.altassar import ruleset as rs

CONF, SPIKUS = "confederation", "spikus"

PRISON = ("0105", "0106")
"""The prison hexes of :func:`small_map` (12.1, 18.4)."""

EXIT = tuple(f"12{r:02d}" for r in range(1, 11))
"""The exit edge of :func:`small_map`: the east edge, opposite the prison (20.0)."""


class UnexpectedRoll(AssertionError):
    """A die was rolled that the test did not queue; the message quotes the roll's reason."""


class FixedDice:
    """Dice whose values are queued by the test.

    ``roll(sides, why) -> int`` returns the next queued value (raising :class:`UnexpectedRoll`
    naming ``why`` when the queue is empty) and records ``(sides, why, value)`` in ``log``;
    ``shuffle(items, why) -> list`` returns ``list(items)`` unchanged (the Confederation counters
    are dealt to markers in name order)."""

    def __init__(self, *values: int):
        self.queue = list(values)
        self.log: list = []

    def push(self, *values: int) -> None:
        """Queue more rolls."""
        self.queue.extend(values)

    def roll(self, sides: int, why: str) -> int:
        if not self.queue:
            raise UnexpectedRoll(f"unexpected roll of a d{sides}: {why!r}")
        value = self.queue.pop(0)
        assert 1 <= value <= sides, f"queued value {value} does not fit a d{sides} ({why!r})"
        self.log.append((sides, why, value))
        return value

    def shuffle(self, items, why: str) -> list:
        return list(items)

    @property
    def whys(self) -> list:
        """The reasons of the rolls made so far."""
        return [w for _, w, _ in self.log]


def small_map(**terrain: str):
    """An all-Clear 12 x 10 ``even-low`` map with prison 0105/0106 and the exit on column 12;
    ``terrain`` maps a hex to its terrain (``small_map(h0605="cascades")``: keys are ``h`` +
    the hex label, so they are valid Python names)."""
    by_type: dict = {"prison": list(PRISON)}
    for key, t in terrain.items():
        by_type.setdefault(t.replace("_", "-"), []).append(key.lstrip("h"))
    lines = ['[map]', 'name = "test map"', 'source = "tests/altassar_helpers.py"',
             'columns = 12', 'rows = 10', 'offset = "even-low"', 'default = "clear"', '',
             '[terrain]']
    for t, hexes in by_type.items():
        lines.append(f'{t} = [{", ".join(repr(h).replace(chr(39), chr(34)) for h in hexes)}]')
    lines += ['', '[groups]',
              f'prison = [{", ".join(chr(34) + h + chr(34) for h in PRISON)}]',
              f'exit = [{", ".join(chr(34) + h + chr(34) for h in EXIT)}]']
    return load_map("\n".join(lines) + "\n", "tests/altassar_helpers.py small_map")


class Game:
    """One Altassar game for a test: ``s`` (the ruleset state), ``dice`` (a :class:`FixedDice`
    used as both the public and the hidden stream), ``data`` and ``hm`` (the map).

    ``options``: the game options (``attrition``, ``escort``); ``hexmap``: a map from
    :func:`small_map` (default: an all-Clear one)."""

    def __init__(self, hexmap=None, options: dict | None = None, data: dict | None = None):
        self.data = data if data is not None else rs.load_data()
        self.hm = hexmap if hexmap is not None else small_map()
        self.dice = FixedDice()
        self.chance = Chance(self.dice, self.dice)
        self.s, _ = rs.setup([CONF, SPIKUS], rs.validate_options(options), self.data, self.hm,
                             self.chance)
        self.s.standing[CONF]["evasion"] = "none"

    # -- position ---------------------------------------------------------------------------
    def at(self, stage: str, turn: int, phasing: str) -> "Game":
        """Set the stage ("movement", "combat"), Game Turn and phasing player."""
        self.s.stage, self.s.turn, self.s.phasing = stage, turn, phasing
        return self

    def put(self, uid: str, h: str) -> str:
        """Place Spikus unit ``uid`` (``S01``, ``T1``, ``D1``, ``W1``, ``N1``, ``P1``) at ``h``."""
        self.s.spikus[uid].update(hex=h, where="map")
        return uid

    def place(self, name: str, h: str) -> str:
        """Place Confederation unit ``name`` (``terran-1``, ``dummy-3``) face down at ``h``;
        return its marker."""
        m = self.s.units[name]["marker"]
        self.s.markers[m].update(hex=h, where="map")
        return m

    def marker(self, name: str) -> str:
        return self.s.units[name]["marker"]

    def rec(self, name: str) -> dict:
        """The marker record of Confederation unit ``name`` (where it is now)."""
        return self.s.markers[self.s.units[name]["marker"]]

    def value(self, kind: str, what: str) -> int:
        """A unit value from the data file (``value("terran", "attack")``)."""
        return self.data["units"][kind][what]

    # -- orders -----------------------------------------------------------------------------
    def orders(self, role: str, body: str) -> list:
        """Parse ``body`` for ``role`` in the current window; fails the test on a parse problem."""
        orders, problems = rs.parse(role, rs.window(self.s), body, 1)
        assert not problems, problems
        return orders

    def check(self, role: str, body: str) -> list:
        """The problems ``check`` finds with ``role``'s orders ``body`` (parse must succeed)."""
        return rs.check(self.s, role, self.orders(role, body))

    def play(self, role: str, body: str, *dice: int, checked: bool = True):
        """Queue ``dice``, send ``role``'s ``body`` and resolve the window. With ``checked``
        the orders must pass ``check`` first. Returns the Resolution; every queued die must have
        been used."""
        orders = self.orders(role, body)
        if checked:
            problems = rs.check(self.s, role, orders)
            assert not problems, problems
        self.dice.push(*dice)
        res = rs.resolve(self.s, {role: orders} if body is not None else {}, self.chance)
        assert not self.dice.queue, f"dice left unused: {self.dice.queue}; rolled {self.dice.log}"
        return res

    def nmr(self, *dice: int):
        """Resolve the current window with nobody's orders (NMR)."""
        self.dice.push(*dice)
        res = rs.resolve(self.s, {}, self.chance)
        assert not self.dice.queue, f"dice left unused: {self.dice.queue}"
        return res


def events_of(res, kind: str) -> list:
    """The events of type ``kind`` in a Resolution."""
    return [e for e in res.events if e.kind == kind]
