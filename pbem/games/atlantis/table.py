"""What happens on its own: creatures acting, tiles sinking, vortexes, the end of the game.

A :class:`Table` wraps a :class:`~pbem.games.atlantis.state.State`, changes it by the rules
and collects the :class:`~pbem.engine.ruleset.Event` s, each with its audience. The order
handlers (:mod:`pbem.games.atlantis.moves`) and the window resolvers
(:mod:`pbem.games.atlantis.windows`) call it. With ``simulate=True`` (checking orders against
what a role knows) it never looks at a hidden symbol or value.

Rules (rulebook sections): *Sharks*, *Kraken*, *Sea Monsters*, *Dolphins*, *Part of the Island
sinks*, *End of game*, *Game Objective*; the order of settling a hex is the README's
("What happens on its own").
"""

from __future__ import annotations

from pbem.boards.hexgrid import label_key
from pbem.engine.ruleset import PUBLIC, Event

from .data import DIVES, KEPT_SYMBOLS, KILLS, PLACED_SYMBOLS, SYMBOL_NAMES
from .state import Person, State, id_key, piece_kind


def names(items) -> str:
    """English list: ``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if not items:
        return "nobody"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def path_text(path) -> str:
    """``0405``, ``0405 and 0406``, ``0405, 0406 and 0407`` for a list of hexes entered."""
    return names(list(path))


def is_are(n: int) -> str:
    """``is`` for one, ``are`` for more."""
    return "is" if n == 1 else "are"


class GameOver(Exception):
    """Raised inside a window's resolution when the game has just ended, to stop carrying out
    the rest of the orders (End of game: 'the game ends immediately')."""


class Table:
    """The rules that act on their own, applied to ``state`` (see the module docstring)."""

    def __init__(self, state: State, simulate: bool = False):
        self.s = state
        self.simulate = simulate
        self.events: list[Event] = []

    # -- events -----------------------------------------------------------------------------
    def say(self, kind: str, text: str, audience=None, /, **data) -> None:
        """Record an event; ``audience`` is a tuple of roles (default: everyone)."""
        self.events.append(Event(kind, text, tuple(audience) if audience else (PUBLIC,), data))

    def say_at(self, index: int, kind: str, text: str, audience=None, /, **data) -> None:
        """Record an event at position ``index`` of the events so far: a move is told before
        what it caused (a ship sails, then the monster eats it)."""
        self.events.insert(index, Event(kind, text, tuple(audience) if audience else (PUBLIC,),
                                        data))

    def reveal_value(self, person: Person) -> None:
        """Show the owner the value under a person they move (Preparing to Play 2: players
        cannot look at the numbers 'except as they move them'); remembered in their secret."""
        if self.simulate:
            return
        value = self.s.values.get(person.id)
        if value is None:
            return
        self.s.seen.setdefault(person.owner, {})[person.id] = value
        self.say("value", f"{person.id} has value {value}.", (person.owner,),
                 person=person.id, value=value)

    # -- people and pieces ------------------------------------------------------------------
    def kill(self, person: Person) -> None:
        """The person dies (eaten, destroyed in a vortex): out of the game."""
        person.where, person.hex, person.ship = "dead", None, None

    def place_piece(self, kind: str, h: str) -> str | None:
        """Take a ``kind`` piece (``ship`` or a creature) from the box and put it in ``h``;
        returns its id, or None when none is left (the rulebook's box holds 12 ships and 6 of
        each creature: Contents)."""
        s = self.s
        if s.supply(kind) <= 0:
            self.say("no-piece", f"No {kind} piece is left in the box: nothing is placed at {h}.",
                     kind=kind, hex=h)
            return None
        pid = s.next_id(kind)
        s.placed[kind] = s.placed.get(kind, 0) + 1
        if kind == "ship":
            s.ships[pid] = h
            s.ships = {k: s.ships[k] for k in sorted(s.ships, key=id_key)}
        else:
            s.creatures[pid] = h
            s.creatures = {k: s.creatures[k] for k in sorted(s.creatures, key=id_key)}
        return pid

    # -- creatures act ----------------------------------------------------------------------
    def settle(self) -> None:
        """Let every creature act in its hex, in label order, in the README's order:
        1. a sea monster destroys every ship there and eats its passengers (Sea Monsters: 'They
           eat any ships (manned or unmanned) and swimmers'; Ship Movement: 'Sea monsters destroy
           ships and eat the passengers');
        2. a kraken sinks a manned ship there, its crew swim (Kraken);
        3. a shark or sea monster eats every swimmer there unless a dolphin is there too
           (Sharks, Sea Monsters, Dolphins)."""
        s = self.s
        if not s.creatures:
            return
        by_hex: dict[str, list[str]] = {}
        for cid, h in s.creatures.items():
            by_hex.setdefault(h, []).append(cid)
        for h in sorted(by_hex, key=label_key):
            first: dict[str, str] = {}
            for cid in sorted(by_hex[h], key=id_key):
                first.setdefault(piece_kind(cid), cid)
            if "monster" in first:
                sid = s.ship_at(h)
                if sid is not None:
                    crew = s.passengers(sid)
                    del s.ships[sid]
                    for p in crew:
                        self.kill(p)
                    aboard = f" and eats {names([p.id for p in crew])} aboard" if crew else ""
                    self.say("ship-destroyed", f"{first['monster']} destroys {sid} at {h}{aboard}.",
                             creature=first["monster"], ship=sid, hex=h,
                             people=[p.id for p in crew],
                             attack={"from": h, "to": h, "result": "destroyed"})
            if "kraken" in first:
                sid = s.ship_at(h)
                if sid is not None:
                    crew = s.passengers(sid)
                    if crew:
                        del s.ships[sid]
                        for p in crew:
                            p.where, p.hex, p.ship = "sea", h, None
                        ids = [p.id for p in crew]
                        self.say("ship-sunk", f"{first['kraken']} sinks {sid} at {h}; "
                                 f"{names(ids)} {is_are(len(ids))} now swimming there.",
                                 creature=first["kraken"], ship=sid, hex=h, people=ids,
                                 attack={"from": h, "to": h, "result": "sunk"})
            eater = first.get("shark") or first.get("monster")
            if eater and "dolphin" not in first:
                swimmers = s.swimmers_at(h)
                if swimmers:
                    for p in swimmers:
                        self.kill(p)
                    ids = [p.id for p in swimmers]
                    self.say("eaten", f"{eater} eats {names(ids)} at {h}.", creature=eater,
                             hex=h, people=ids,
                             attack={"from": h, "to": h, "result": f"{len(ids)} eaten"})

    def move_creature(self, mover: str, cid: str, path: list, how: str) -> None:
        """Move creature ``cid`` along ``path`` (hexes entered) for ``mover``; it acts where its
        move ends (README). A shark or kraken moved by the creature die may first meet another
        player's standing Kill a shark / Kraken killed order (Part of the Island sinks)."""
        s = self.s
        start = s.creatures[cid]
        s.creatures[cid] = path[-1]
        self.say("creature-move", f"{mover} moves {cid} from {start} to {path_text(path)}"
                 f"{how}.", role=mover, creature=cid, path=[start] + list(path))
        if not self.standing_fires(mover, cid):
            self.settle()

    def stays(self, mover: str) -> None:
        """The creature move of ``mover`` moves nothing (``stay``)."""
        self.say("creature-stay", f"{mover} moves no creature.", role=mover)

    def standing_fires(self, mover: str, cid: str) -> bool:
        """Play another player's standing kill order against ``cid`` if it now threatens them:
        a shark in a hex with that player's swimmers and no dolphin, a kraken in a hex with a
        manned ship carrying that player's people. Holders are tried in seat order after the
        mover; the first plays (README, "Standing orders"). Returns True when it fired."""
        s = self.s
        kind = piece_kind(cid)
        tile = {"shark": "kill-shark", "kraken": "kraken-killed"}.get(kind)
        if tile is None or self.simulate:
            return False
        h = s.creatures[cid]
        i = s.seats.index(mover)
        order = s.seats[i + 1:] + s.seats[:i]
        for holder in order:
            if not s.standing.get(holder, {}).get(tile) or tile not in s.kept.get(holder, []):
                continue
            if kind == "shark":
                if any(piece_kind(c) == "dolphin" for c in s.creatures_at(h)):
                    continue
                hurt = [p.id for p in s.swimmers_at(h) if p.owner == holder]
            else:
                sid = s.ship_at(h)
                hurt = [p.id for p in s.passengers(sid) if p.owner == holder] if sid else []
            if not hurt:
                continue
            s.kept[holder].remove(tile)
            s.kept_count[holder] = s.kept_count.get(holder, 0) - 1
            del s.creatures[cid]
            self.say("standing-played",
                     f"{holder} plays {SYMBOL_NAMES[tile]} (standing order): {cid} is removed "
                     f"from the board before it can attack {names(hurt)}.",
                     role=holder, tile=tile, creature=cid, hex=h)
            return True
        return False

    # -- sinking ----------------------------------------------------------------------------
    def sink(self, role: str, h: str, how: str = "") -> None:
        """Sink the tile at ``h`` for ``role`` (Part of the Island sinks): people on it become
        swimmers there; the symbol under it is shown to ``role`` alone and acts. With
        ``simulate`` the symbol is not looked at. May raise :class:`GameOver`."""
        s = self.s
        kind = s.tiles.pop(h)
        ids = []
        for p in s.on_tile(h):
            p.where = "sea"
            ids.append(p.id)
        record = {"hex": h, "kind": kind, "by": role, "turn": s.turn, "symbol": None}
        s.sunk.append(record)
        label = "city" if h == s.city else f"{kind} tile"
        text = f"{role} sinks the {label} at {h}{how}."
        if ids:
            text += f" {names(ids)} {is_are(len(ids))} now swimming there."
        self.say("sink", text, role=role, hex=h, kind=kind, people=ids)
        symbol = s.symbols.pop(h, None)
        if self.simulate or symbol is None:
            return
        s.sank.setdefault(role, {})[h] = symbol
        name = SYMBOL_NAMES[symbol]
        if symbol in KEPT_SYMBOLS:
            s.kept.setdefault(role, []).append(symbol)
            s.kept_count[role] = s.kept_count.get(role, 0) + 1
            use = ("play it at the start of one of your turns" if symbol in DIVES else
                   "play it at the start of one of your turns, or by a standing order when "
                   "someone else moves a " + KILLS[symbol] + " against you")
            self.say("symbol", f"Under the {label} at {h} is {name}. You keep it face down: "
                     f"{use}.", (role,), hex=h, symbol=symbol)
            self.say("kept", f"{role} keeps the tile face down ({role} now holds "
                     f"{s.kept_count[role]} kept tile{'s' if s.kept_count[role] != 1 else ''}).",
                     role=role, hex=h, count=s.kept_count[role])
            return
        record["symbol"] = symbol
        self.say("symbol", f"Under the {label} at {h} is {name}.", hex=h, symbol=symbol)
        if symbol in PLACED_SYMBOLS:
            piece = self.place_piece(PLACED_SYMBOLS[symbol], h)
            if piece is not None:
                self.say("placed", f"{piece} is placed at {h}.", piece=piece, hex=h)
                self.settle()
        elif symbol == "vortex":
            self.vortex(h)
        elif symbol == "game-ends":
            self.end_game("the Game Ends tile was sunk")
        elif symbol == "volcano":
            effect = s.options.get("volcano", "ends")
            if effect == "ends":
                self.end_game("the Volcano tile was sunk (option volcano=ends)")
            elif effect == "vortex":
                self.say("volcano", "The volcano acts as a vortex (option volcano=vortex).")
                self.vortex(h)
            else:
                self.say("volcano", "The volcano has no effect (option volcano=none).")

    def vortex(self, h: str) -> None:
        """Destroy every person, creature and ship in ``h`` and in the neighbouring hexes that
        are sea (Part of the Island sinks: 'all people, creatures, boats in that space and the
        neighbouring 6 spaces (if sea spaces) are destroyed and removed from the game')."""
        s = self.s
        area = [h] + [n for n in s.hexmap.neighbours(h) if s.is_sea(n)]
        zone = set(area)
        gone_ships = sorted((sid for sid, w in s.ships.items() if w in zone), key=id_key)
        gone_creatures = sorted((c for c, w in s.creatures.items() if w in zone), key=id_key)
        gone_people = [p for p in s.people.values()
                       if (p.where == "sea" and p.hex in zone)
                       or (p.where == "ship" and p.ship in gone_ships)]
        for p in gone_people:
            self.kill(p)
        for sid in gone_ships:
            del s.ships[sid]
        for c in gone_creatures:
            del s.creatures[c]
        lost = gone_ships + gone_creatures + [p.id for p in gone_people]
        what = names(lost) if lost else "nothing"
        self.say("vortex", f"The vortex at {h} destroys {what} (in {h} and the sea hexes next "
                 f"to it: {', '.join(a for a in area if a != h) or 'none'}).", hex=h,
                 area=area, destroyed=lost)

    # -- the end ----------------------------------------------------------------------------
    def check_end(self) -> None:
        """End the game if its end condition holds (End of game; option ``end``):
        ``all``: every living person is safe; ``first``: some player has at least one person
        safe and every surviving person of theirs safe (Game Objective); and, as a guard, no
        tile is left to sink. Raises :class:`GameOver` when it ends."""
        s = self.s
        if s.stage in ("over", "placement"):
            return
        people = s.people.values()
        if s.options.get("end", "all") == "first":
            for role in s.seats:
                mine = [p for p in people if p.owner == role]
                if any(p.where == "safe" for p in mine) and not any(p.alive for p in mine):
                    self.end_game(f"{role} has every surviving person safe (option end=first)")
        if not any(p.alive for p in people):
            self.end_game("every living person is safe")
        if not s.tiles:
            self.end_game("no tile of the island is left")

    def end_game(self, reason: str) -> None:
        """End the game now: score the safe people (End of game: 'adding the values on the
        bases of the people who made it to safe islands'); the highest score wins, equal highest
        share. Every hidden fact becomes public. Raises :class:`GameOver`."""
        s = self.s
        s.stage = "over"
        s.pending = None
        if self.simulate:
            raise GameOver(reason)
        self.say("game-end", f"The game ends: {reason}.", reason=reason)
        scores = {}
        for role in s.seats:
            safe = [p for p in s.people.values() if p.owner == role and p.where == "safe"]
            scores[role] = sum(s.values.get(p.id) or 0 for p in safe)
            vals = ", ".join(f"{p.id} {s.values.get(p.id)}"
                             for p in sorted(s.people.values(), key=lambda q: id_key(q.id))
                             if p.owner == role)
            self.say("values", f"Values under {role}'s people: {vals}.", role=role,
                     values={p.id: s.values.get(p.id) for p in s.people.values()
                             if p.owner == role})
        best = max(scores.values())
        winners = [r for r in s.seats if scores[r] == best]
        s.outcome = {"scores": scores, "winners": winners, "reason": reason}
        table = ", ".join(f"{r} {scores[r]}" for r in s.seats)
        if len(winners) == 1:
            result = f"{winners[0]} wins with {best}."
        else:
            result = f"{names(winners)} share the win with {best} each."
        self.say("score", f"Scores (values of the people safe): {table}. {result}",
                 scores=scores, winners=winners)
        raise GameOver(reason)
