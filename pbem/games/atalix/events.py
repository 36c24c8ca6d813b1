"""Escape from Atalix, End of Round: the six events of the event die and the round tracker.

Rulebook sections "End of Round" ("Roll and Resolve Event Dice", "Advance Round Tracker"),
"Events" (1 to 6) and "Threats". Everything here works on an :class:`EndState` (plain JSON-able
data, :meth:`EndState.to_dict`) over a :class:`pbem.games.atalix.board.Board`, and rolls a d6
only through ``dice.roll(6, why)`` (``pbem.engine.values.Dice``; ``why`` names no hidden fact).

Readings (the rulebook leaves them open; a test cites each):

- The die. One die serves the event roll and the events. Events 4 and 3 ("If the die has already
  been rolled for a previous event, maintain the same number") reuse the d6 rolled for an earlier
  event of this End of Round (event 5, or 4 for 3), never the event roll itself. Event 1 ("If you
  have already distributed resources this round, roll the die again. If not, maintain the
  previous roll") keeps the die's last roll, the event roll included (an event roll of 2 puts
  cubes on the spaces numbered 2), unless resources were distributed this round: by event 5 or
  during the round (the research track's dice benefit: the caller sets
  ``distributed_this_round``). Either way a number equal to the previous resource roll
  (``last_resource_roll``, kept from round to round) is rolled again until it differs.
- The storm supply. "If you run out of storm tokens you lose" is read as: a token must be added
  and none is left. The token is not placed, ``storm_exhausted`` is set, and no further event is
  resolved (the game is lost); nothing is raised.
- The alien goes one step along a shortest path to the center, ignoring elevation and storm (the
  rulebook gives it no restriction). "Players may choose" between equal paths: ``alien_choice``
  when it is a first step of a shortest path, else the first such step in label order (a stand-in
  for the team's choice by mail). Reaching the center sets ``alien_at_center``; whether that
  destroys the ship depends on the scenario (the caller's).
- Resource cubes come from unlimited piles (the rulebook gives no count); a numbered space whose
  terrain yields no resource gets none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field

NAMES = {1: "Disperse resources according to d6", 2: "Alien moves toward ship",
         3: "Storm moves in d6 direction", 4: "Storm expands in d6 direction",
         5: "Disperse resources according to d6", 6: "Storm token placed on origin space"}
"""The event list at the bottom of the board, as the rulebook's "Events" section names them."""

RESOURCES = ("scrap", "carbon", "minerals")


@dataclass
class EndState:
    """What the End of Round reads and changes (JSON-able through :meth:`to_dict`).

    ``storm``: storm tokens on the board, {hex: count >= 1}; ``storm_supply``: tokens left off the
    board; ``alien``: its hex (None once defeated) and ``alien_damage`` (hits this round);
    ``resources``: cubes on spaces, {hex: "scrap"|"carbon"|"minerals"}; ``team``: the team's
    supply {resource: count} (no event changes it); ``round_pos``: the round tracker's space
    (0-based); ``last_resource_roll``: the number of the previous resource dispersal (None before
    the first); ``distributed_this_round``: resources already dispersed this round (events 5
    and 1 set it; the caller clears it when a round begins);
    ``storm_exhausted`` / ``alien_at_center``: the losses signalled by the events."""

    storm: dict = field(default_factory=dict)
    storm_supply: int = 0
    alien: str | None = None
    alien_damage: int = 0
    resources: dict = field(default_factory=dict)
    team: dict = field(default_factory=dict)
    round_pos: int = 0
    last_resource_roll: int | None = None
    distributed_this_round: bool = False
    storm_exhausted: bool = False
    alien_at_center: bool = False

    def to_dict(self) -> dict:
        """A JSON-able copy: ``{"storm": {...}, "storm_supply": n, ...}`` (the field names)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping) -> EndState:
        """The state :meth:`to_dict` wrote. Raises ``ValueError`` naming a field that is
        unknown or of the wrong shape (counts must be ints >= 0, resources one of RESOURCES)."""
        unknown = set(d) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown End of Round field(s) {sorted(unknown)}: expected "
                             f"{', '.join(cls.__dataclass_fields__)}")
        s = cls(**{k: v for k, v in d.items()})
        s.storm, s.resources, s.team = dict(s.storm), dict(s.resources), dict(s.team)
        for name, table in (("storm", s.storm), ("team", s.team)):
            for key, n in table.items():
                if n.__class__ is not int or n < 0:
                    raise ValueError(f"{name}[{key!r}] = {n!r}: expected a count, an int >= 0")
        for hex_, kind in s.resources.items():
            if kind not in RESOURCES:
                raise ValueError(f"resources[{hex_!r}] = {kind!r}: expected one of {RESOURCES}")
        for name in ("storm_supply", "alien_damage", "round_pos"):
            if getattr(s, name).__class__ is not int or getattr(s, name) < 0:
                raise ValueError(f"{name} = {getattr(s, name)!r}: expected an int >= 0")
        if s.last_resource_roll not in (None, 1, 2, 3, 4, 5, 6):
            raise ValueError(f"last_resource_roll = {s.last_resource_roll!r}: expected 1-6 "
                             "or None")
        return s


class _Die:
    """The one die of the End of Round: its face, and whether an event has rolled it."""

    def __init__(self, dice, rolled: int):
        self.dice, self.face, self.for_event = dice, rolled, False

    def roll(self, why: str) -> int:
        value = self.dice.roll(6, why)
        if value.__class__ is not int or not 1 <= value <= 6:
            raise ValueError(f"dice.roll(6, ...) gave {value!r}: expected an int 1-6")
        self.face, self.for_event = value, True
        return value

    def direction(self, event: int) -> int:
        """Events 3 and 4: the d6 rolled for an earlier event, else a new roll."""
        return self.face if self.for_event else self.roll(f"event {event}: storm direction")


def _add_storm(state: EndState, hex_: str) -> bool:
    """One token from the supply onto ``hex_``; False (and ``storm_exhausted``) if none is left."""
    if state.storm_supply <= 0:
        state.storm_exhausted = True
        return False
    state.storm_supply -= 1
    state.storm[hex_] = state.storm.get(hex_, 0) + 1
    return True


def _placed(state: EndState, hex_: str, why: str) -> str:
    if _add_storm(state, hex_):
        return f"a storm token on {hex_}{why} ({state.storm_supply} left)"
    return "no storm token left to place: the team loses (Threats)"


def place_on_origin(board, state: EndState, count: int) -> list[str]:
    """Add ``count`` storm tokens to the storm origin (event 6; the round tracker's green circle
    and turquoise portion, "add an additional storm token to the starred space"). Changes
    ``state`` in place; returns one text per token. Stops at the first token the supply lacks,
    setting ``state.storm_exhausted``."""
    out = []
    for _ in range(count):
        out.append(_placed(state, board.storm_origin, " (the origin)"))
        if state.storm_exhausted:
            break
    return out


def _expand(board, state: EndState, d6: int) -> str:
    """Event 4: next to the token furthest in the direction; that token's own space when the
    next space is off the map or the center; the origin when the storm is gone."""
    if not state.storm:
        return f"d6 {d6}: the storm is gone, " + _placed(state, board.storm_origin, " (origin)")
    front = board.furthest(d6, among=tuple(sorted(state.storm)))
    target = board.step(front, d6)
    if target is None or target == board.center:
        why = " (off the map there)" if target is None else " (the center is next)"
        return f"d6 {d6}: " + _placed(state, front, why)
    return f"d6 {d6}: " + _placed(state, target, f" (next to {front})")


def _move(board, state: EndState, d6: int) -> str:
    """Event 3: every token one space in the direction, the furthest first; a token at the edge
    or against the center stays, and the tokens behind it may join it."""
    left, order = set(state.storm), []
    while left:
        order.append(board.furthest(d6, among=tuple(sorted(left))))
        left.discard(order[-1])
    moved: dict[str, int] = {}
    parts = []
    for hex_ in order:
        n, target = state.storm[hex_], board.step(hex_, d6)
        if target is None or target == board.center:
            target = hex_
            parts.append(f"{hex_} stays ({'edge' if board.step(hex_, d6) is None else 'center'})")
        else:
            parts.append(f"{hex_}->{target}")
        moved[target] = moved.get(target, 0) + n
    state.storm = dict(sorted(moved.items()))
    return f"d6 {d6}: " + (", ".join(parts) if parts else "no storm token on the board")


def _alien(board, state: EndState, choice: str | None) -> str:
    """Event 2: reset the alien's damage; one step along a shortest path to the center."""
    state.alien_damage = 0
    if state.alien is None:
        return "no alien on the board"
    if state.alien != board.center:
        firsts = sorted({p[0] for p in board.shortest_paths(state.alien, board.center)})
        if not firsts:
            return f"the alien on {state.alien} has no way to the center"
        step = choice if choice in firsts else firsts[0]
        how = ("the team's choice" if step == choice else
               "first in label order" if len(firsts) > 1 else "the only shortest path")
        if choice and step != choice:
            how += f"; the proposal {choice} is not a first step"
        text = f"damage reset; the alien moves {state.alien}->{step} ({how} of {firsts})"
        state.alien = step
    else:
        text = f"damage reset; the alien is on the center {state.alien}"
    state.alien_at_center = state.alien == board.center
    return text + (": it reaches the center" if state.alien_at_center else "")


def place_resources(board, state: EndState, number: int) -> list[str]:
    """The placing step of events 1 and 5: the terrain's cube on every space printed with
    ``number`` that holds none; returns the hexes given a cube, in label order. Records the
    roll (``last_resource_roll``, ``distributed_this_round``)."""
    given = []
    for hex_ in sorted(board.numbered(number)):
        kind = board.info(hex_).resource
        if kind is not None and hex_ not in state.resources:
            state.resources[hex_] = kind
            given.append(hex_)
    state.last_resource_roll, state.distributed_this_round = number, True
    return given


def _disperse(board, state: EndState, die: _Die, event: int) -> str:
    """Events 5 and 1: the number (rolled, kept or rerolled as the module docstring reads)."""
    if event == 5 or state.distributed_this_round:
        number, how = die.roll(f"event {event}: resources"), "rolled"
    else:
        number, how = die.face, "previous roll kept"
    while number == state.last_resource_roll:
        number, how = die.roll(f"event {event}: resources, reroll (same as previous)"), "rerolled"
    given = place_resources(board, state, number)
    cubes = ", ".join(f"{state.resources[h]} on {h}" for h in given) or "no space without a cube"
    return f"d6 {number} ({how}): {cubes}"


def resolve_events(board, state: EndState, rolled: int, dice, *,
                   alien_choice: str | None = None) -> list[str]:
    """Resolve "all events numbered equal or less than the number rolled on the die ... start
    with the highest and work their way down" (End of Round, Events): ``rolled`` 1-6 is the
    event die. Changes ``state`` in place and returns one text per event resolved, in order
    (``"4 - Storm expands in d6 direction: ..."``). Stops after an event that exhausts the storm
    supply (``state.storm_exhausted``). Raises ``ValueError`` for a roll outside 1-6 or a state
    naming a hex off the board."""
    if rolled.__class__ is not int or not 1 <= rolled <= 6:
        raise ValueError(f"event die {rolled!r}: expected an int 1-6")
    for hex_ in [*state.storm, *state.resources, *([state.alien] if state.alien else [])]:
        if hex_ not in board.hexmap:
            raise ValueError(f"hex {hex_!r} of the End of Round state is off the board")
    die, out = _Die(dice, rolled), []
    for event in range(rolled, 0, -1):
        if event == 6:
            text = _placed(state, board.storm_origin, " (the origin)")
        elif event in (5, 1):
            text = _disperse(board, state, die, event)
        elif event == 4:
            text = _expand(board, state, die.direction(4))
        elif event == 3:
            text = _move(board, state, die.direction(3))
        else:
            text = _alien(board, state, alien_choice)
        out.append(f"{event} - {NAMES[event]}: {text}")
        if state.storm_exhausted:
            break
    return out


def advance_round(track_pos: int, track: Mapping, players: int) -> tuple[int, int, bool]:
    """Advance Round Tracker: one space right. Returns ``(pos, storm_tokens_to_add, lost)``:
    one token for entering the ``green_circle`` space, one for every move into the turquoise
    portion (``turquoise_from`` on), both when they meet; ``lost`` when the tracker reaches the
    ``loss`` space of ``players`` (Threats). ``track`` is data.toml's ``[round_track]``
    (``loss`` keyed by player count, str or int). Raises ``ValueError`` naming a missing key,
    an unknown player count or a negative position. The caller adds the tokens with
    :func:`place_on_origin`."""
    try:
        green, turquoise, loss = track["green_circle"], track["turquoise_from"], track["loss"]
    except KeyError as err:
        raise ValueError(f"round track without {err}: expected green_circle, turquoise_from "
                         "and loss (by player count)") from None
    end = loss.get(str(players), loss.get(players)) if isinstance(players, int) else None
    if end is None:
        raise ValueError(f"players {players!r}: the round track has a loss space for "
                         f"{', '.join(map(str, loss))} players")
    if track_pos.__class__ is not int or track_pos < 0:
        raise ValueError(f"round tracker at {track_pos!r}: expected a space number >= 0")
    pos = track_pos + 1
    tokens = (pos == green) + (pos >= turquoise)
    return pos, tokens, pos >= end
