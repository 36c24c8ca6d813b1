"""The Escape from Atalix game state and its split by audience (dump/load, view).

Who sees what (issue 13: "each player's hand is that player's secret; the deck order is drawn on
the hidden stream"):

- ``public``: the board and everything on it (pawns, storm tokens, the alien and its damage,
  resource cubes, paths, equipment), the team's resources, the research, round and card cost
  tracks, the market's face-up row and how many cards its deck holds, the projects built, the
  scenario's chapter, the first player; for each player the cards face up in the play area
  (``played``), the active cards, the discard pile ("Players may look through their discard
  pile"), how many cards are in the hand and the deck, and the cards the player owns;
- ``secret[role]``: the player's hand, and what the player's draw deck holds, sorted (a
  player knows what is in the deck, not its order);
- ``referee``: the order of every draw deck, of the Upgrade deck and of the encounter deck
  (Scenarios 2 and 3; dealt on the hidden dice stream; revealed by the hidden stream's values
  at the end). A drawn encounter is public: ``encounters`` lists the discard pile, in the order
  drawn, and how many cards the deck holds.

A role state (pbem.engine.gamestate.role_state) lacks the other players' secret parts and the
referee part: their hands are then unknown (None) and no deck has an order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from pbem.boards.hexmap import HexMap
from pbem.cards import Market, PlayerCards
from pbem.engine.ruleset import Parts

STAGES = ("setup", "plan", "over")
"""``setup``: the starting cards chosen and the active card (rulebook, Player Setup);
``plan``: a set of turns, the Planning Phase of every player at once then the Action Phase in
first-player order; ``over``."""


@dataclass
class State:
    """The whole game (module docstring). ``players``: role -> :class:`pbem.cards.PlayerCards`
    (the hand and deck order only where this state knows them); ``world``: the End of Round's
    data (:class:`.events.EndState` as a dict: storm, alien, cubes, team resources, round
    track); ``market``: the Upgrade deck and its face-up row (:class:`pbem.cards.Market`, the
    deck's order only where known); ``meter``: the Card Cost Meter (JSON); ``encounters``:
    Scenarios 2 and 3's encounter cards, ``{"deck": ids top first (the order known only where
    the referee part is), "discard": ids drawn, in order}`` (:mod:`.encounters`; empty in
    Scenario 1)."""

    seats: list
    options: dict
    data: dict
    board: HexMap
    round: int = 0
    set: int = 0
    stage: str = "setup"
    first: int = 0
    pawns: dict = field(default_factory=dict)
    world: dict = field(default_factory=dict)
    research: int = 0
    meter: dict = field(default_factory=dict)
    market: Market | None = None
    projects: list = field(default_factory=list)
    paths: list = field(default_factory=list)
    equipment: dict = field(default_factory=dict)
    chapter: dict = field(default_factory=dict)
    encounters: dict = field(default_factory=dict)
    players: dict = field(default_factory=dict)
    outcome: dict | None = None
    unseen: dict = field(default_factory=dict)
    """Only in a role state: what the public part said of the cards this state cannot hold
    (another player's cards: role -> that player's public card entry; the Upgrade deck:
    ``"*market"`` -> its size), so that its views equal the whole state's. Not dumped."""

    def first_player(self) -> str:
        """The role holding the die ("the player with the die will complete their turn first
        during the Action Phase")."""
        return self.seats[self.first % len(self.seats)]

    def finish(self, won: bool, why: str) -> None:
        """The game is over: the whole team wins (every player scores 1) or loses (0), for
        the reason ``why`` (the scenario's win, or a Threat)."""
        self.outcome = {"scores": {r: int(won) for r in self.seats},
                        "winners": list(self.seats) if won else [], "reason": why}
        self.stage = "over"

    def order(self) -> list:
        """The roles in Action Phase order, from the first player round the table (left)."""
        i = self.first % len(self.seats)
        return self.seats[i:] + self.seats[:i]


UNKNOWN = "unknown"
"""A card of the encounter deck in a role state (its order is the referee's)."""

_PUBLIC = ("round", "set", "stage", "first", "pawns", "world", "research", "meter", "projects",
           "paths", "equipment", "chapter", "outcome")


def _copied(values: dict) -> dict:
    """A deep copy of JSON values (the public keys of a state), through orjson: a few times
    faster than ``copy.deepcopy`` on these small trees, and it refuses a value that is not
    JSON (``orjson.JSONEncodeError``), which the parts must never hold."""
    return orjson.loads(orjson.dumps(values))


def _public_cards(p: PlayerCards) -> dict:
    """What everyone sees of a player's cards: the play area, the active cards, the discard
    pile, the sizes of the hand and the deck, and ``owned``: every card the player holds,
    sorted (the starting deck is dealt in the open and upgrades are bought from the face-up
    row, so a player's collection is public; which of its cards are in the hand and which in
    the deck, and the deck's order, are not)."""
    return {"played": list(p.played), "active": list(p.active), "discard": list(p.discard),
            "hand_size": len(p.hand), "deck_size": len(p.deck),
            "owned": sorted(p.cards())}


def public_part(s: State) -> dict:
    """The public part (module docstring), JSON values."""
    pub = _copied({k: getattr(s, k) for k in _PUBLIC})
    pub.update(seats=list(s.seats), options=dict(s.options), data=s.data,
               board=s.board.to_dict(),
               market={"row": list(s.market.row), "extra": list(s.market.extra),
                       "size": s.market.size,
                       "deck_size": s.unseen.get("*market", len(s.market.deck))}
               if s.market else None,
               cards={r: _copied(s.unseen[r]) if r in s.unseen else _public_cards(p)
                      for r, p in s.players.items()},
               encounters={"discard": list(s.encounters["discard"]),
                           "deck_size": len(s.encounters["deck"])} if s.encounters else {})
    return pub


def secret_part(s: State, role: str) -> dict:
    """``role``'s secret part: its hand and its deck's contents, sorted (not its order)."""
    p = s.players[role]
    return {"hand": list(p.hand), "deck": sorted(p.deck)}


def referee_part(s: State) -> dict:
    """The referee part: every deck's order."""
    return {"decks": {r: list(p.deck) for r, p in s.players.items()},
            "market_deck": list(s.market.deck) if s.market else [],
            "encounter_deck": list(s.encounters.get("deck", []))}


def dump(s: State) -> Parts:
    """The state split by audience; ``load(dump(s))`` gives an equal state."""
    return Parts(public=public_part(s), secret={r: secret_part(s, r) for r in s.players},
                 referee=referee_part(s))


def build(public: dict, secrets: dict, referee: dict) -> State:
    """A state from the parts given: a missing secret part leaves that hand unknown (None), a
    missing referee part leaves every deck without an order (a known deck's contents, sorted,
    stand in for the role whose secret part is given)."""
    s = State(seats=list(public["seats"]), options=dict(public["options"]), data=public["data"],
              board=HexMap.from_dict(public["board"]))
    for k, v in _copied({k: public[k] for k in _PUBLIC}).items():
        setattr(s, k, v)
    decks = referee.get("decks", {})
    for role, pub in public["cards"].items():
        sec = secrets.get(role)
        deck = decks.get(role, sec["deck"] if sec is not None else [])
        hand = sec["hand"] if sec is not None else []
        s.players[role] = PlayerCards(deck=deck, hand=hand, played=pub["played"],
                                      discard=pub["discard"], active=pub["active"])
        if sec is None:
            s.unseen[role] = pub
    enc = public.get("encounters")
    if enc:  # Scenarios 2 and 3: a role state knows how many cards, not which
        s.encounters = {"deck": list(referee.get("encounter_deck",
                                                 [UNKNOWN] * enc["deck_size"])),
                        "discard": list(enc["discard"])}
    m = public.get("market")
    if m is not None:
        s.market = Market(referee.get("market_deck", []), m["size"], m["row"], m["extra"])
        if "market_deck" not in referee:
            s.unseen["*market"] = m["deck_size"]
    return s


def load(parts: Parts) -> State:
    """The state from :func:`dump`'s parts; other roles' secret parts and the referee part may
    be missing (a role state: docs/rulesets.md, "What a role is given")."""
    return build(parts.public, parts.secret, parts.referee)


def view(s: State, role: str) -> dict:
    """What ``role`` may know (``"*"``: the public view): the public part and, for a player,
    ``secret``: its own hand and deck contents."""
    v = public_part(s)
    v["role"] = role
    if role in s.players:
        v["secret"] = secret_part(s, role)
    return v


def from_view(v: dict) -> State:
    """The role state a :func:`view` was made from (for the bot)."""
    role = v.get("role", "*")
    return build(v, {role: v["secret"]} if "secret" in v else {}, {})
