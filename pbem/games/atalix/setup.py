"""Setting up Escape from Atalix (rulebook, "SETUP": Separate Cards, Player Setup, Select
Difficulty, Board Setup, Card Setup).

:func:`new_game` does everything the rulebook does before anyone chooses: the card instances
(``action-1`` .. ``action-12``: one id per physical card), each player's fixed starting cards
with a Gain Resource card "selected at random" (hidden dice), the first player by the lowest
roll (public dice, ties rolled again), the board (pawns on the center, a cube on every
numbered space, the alien, the first storm token), the team's resources, the trackers and the
Upgrade deck with its five face-up cards (shuffled on the hidden dice). :func:`choose` carries
out the one choice the players make: "players should take turns selecting 2 additional cards
from the remaining starting cards" (by mail: each player lists the card types wanted, the judge
deals in seat order from the first player, each player's first wish still left; a player with
no wish left gets a card at random) and the Active Card (default: the Oxygen card, "It is
recommended for beginning players to use the Oxygen card as their active card").
"""

from __future__ import annotations

from pbem.cards import Market, PlayerCards, shuffled

from .board import Board
from .data import Rules
from .planning import card_type
from .state import State

MARKET_SIZE = 5
"""Card Setup: "Draw the top 5 cards and place them, face up, surrounding the Upgrade deck"."""


def instances(cards: dict, kind: str) -> list:
    """Every physical card of ``kind`` (``starting``, ``upgrade``): ``<type>-<n>`` for n = 1 to
    its count, in data order."""
    return [f"{cid}-{n}" for cid, c in cards.items() if c["kind"] == kind
            for n in range(1, c["count"] + 1)]


def _first_player(n: int, dice) -> int:
    """"Each player should roll the dice, the player with the lowest roll is the first
    player": the seat index; tied lowest players roll again."""
    tied = list(range(n))
    while len(tied) > 1:
        rolls = {i: dice.roll(6, f"first player: seat {i + 1} rolls") for i in tied}
        low = min(rolls.values())
        tied = [i for i in tied if rolls[i] == low]
    return tied[0]


def new_game(roles: list, options: dict, data: dict, hexmap, chance) -> State:
    """The game before the players' choices (module docstring)."""
    board = Board(hexmap)
    s = State(seats=list(roles), options=dict(options), data=data, board=hexmap, stage="setup")
    cards = data["cards"]
    pool = instances(cards, "starting")
    deck = data["starting_deck"]
    gains = chance.hidden.shuffle([c for c in pool if cards[card_type(c)].get("gain_resource")],
                                  "the Gain Resource cards dealt at random")
    for role in s.seats:
        mine = []
        for ctype in ("action", "oxygen", "research", "upgrade"):
            for _ in range(deck[ctype]):
                card = next(c for c in pool if card_type(c) == ctype)
                pool.remove(card)
                mine.append(card)
        gain = gains.pop(0)
        pool.remove(gain)
        mine.append(gain)
        s.players[role] = PlayerCards(hand=mine)  # held until the choices are made
    s.equipment["starting_pool"] = pool
    s.first = _first_player(len(s.seats), chance.public)
    s.pawns = {role: board.center for role in s.seats}
    players = len(s.seats)
    start = data["resources"]["start"]
    team = {k: v * (players if k == "scrap" and data["resources"]["scrap_per_player"] else 1)
            for k, v in start.items()}
    cubes = {h: board.info(h).resource for h in board.spaces()
             if board.info(h).numbers and board.info(h).resource}
    s.world = {"storm": {board.storm_origin: 1}, "storm_supply": data["storm"]["tokens"] - 1,
               "alien": board.alien_start, "alien_damage": 0, "resources": cubes, "team": team,
               "round_pos": data["round_track"]["start"][str(options["difficulty"])],
               "last_resource_roll": None, "distributed_this_round": False,
               "storm_exhausted": False, "alien_at_center": False}
    s.research = 0
    s.meter = Rules.from_data(data).cost_meter(len(s.seats)).to_json()
    # Card Setup: "separate the upgrade cards called Scanner and Terraform Tool ... and keep them
    # with the Project Cards": the Upgrade deck holds the others
    upgrades = shuffled([c for c in instances(cards, "upgrade")
                         if not cards[card_type(c)].get("project")], chance.hidden,
                        "the Upgrade deck")
    s.market = Market.deal(list(upgrades), MARKET_SIZE)
    return s


def choose(s: State, wishes: dict, actives: dict, chance) -> list:
    """The players' choices (module docstring): ``wishes`` role -> card types in order of
    preference, ``actives`` role -> the card type chosen as Active Card. Deals the 2 chosen
    cards in seat order from the first player, takes out the active card and shuffles each
    player's other cards into a draw deck (hidden dice). Returns the problems as ``(role,
    why)`` (a wish not among the starting cards, an active card the player does not hold);
    the judge's defaults stand in for them."""
    problems = []
    pool = s.equipment.pop("starting_pool")
    chosen = s.data["starting_deck"]["chosen"]
    for _ in range(chosen):
        for role in s.order():
            wanted = [w for w in wishes.get(role, []) if any(card_type(c) == w for c in pool)]
            if wanted:
                card = next(c for c in pool if card_type(c) == wanted[0])
                wishes[role] = wishes[role][wishes[role].index(wanted[0]) + 1:]
            else:
                card = pool[chance.hidden.roll(len(pool), "a starting card chosen at random")
                            - 1]
            pool.remove(card)
            s.players[role].hand.append(card)
    for role in s.seats:
        held = s.players[role].hand
        want = actives.get(role, "oxygen")
        active = next((c for c in held if card_type(c) == want), None)
        if active is None:
            problems.append((role, f"no {want!r} card among your starting cards: the Oxygen "
                                   f"card is your Active Card"))
            active = next(c for c in held if card_type(c) == "oxygen")
        s.players[role] = PlayerCards.start(held, [active], chance.hidden,
                                            f"the draw deck of {role}")
    s.stage = "plan"
    s.round = 1
    return problems
