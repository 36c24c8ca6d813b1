"""Escape from Atalix orders: the verb table and ``parse``.

Cards are named by their instance id as the player's report lists them (``oxygen-1``,
``jet-pack-3``; any case), card types by their id (``action``, ``gain-scrap``), spaces by hex
label (``0504``). Whether a card is in the hand or a move is legal is judged against the
position later: parse sees no state.

| verb | window | meaning (rulebook section) |
|---|---|---|
| `choose TYPE...` | setup | the starting cards wanted, in order (Starting Deck) |
| `active CARD` | setup, plan | the Active Card (Active Card; Research Track) |
| `play CARD [N...]` | plan | a card, with the indexes of its abilities used (Planning) |
| `move HEX [HEX]` | plan | the Move action (Action Phase) |
| `climb HEX` | plan | the Climb action |
| `collect` | plan | collect the cube of the pawn's space |
| `scavenge repair\\|salvage\\|scrap [RESOURCE]...` | plan | Scavenge: choices tried in order |
| `use CARD N [ARGS...]` | plan | an Action Phase ability of a played card (N: its index) |
| `use CARD N clear\\|path\\|carbon HEX` | plan | a Terraform Tool ability (Card Elaborations) |
| `use CARD N lure [HEX]` | plan | the Terraform Tool's lure (HEX: the alien's step) |
| `use CARD N pick TYPE... [bottom TYPE...]` | plan | the Scanner's look, written in advance |
| `build PROJECT` | plan | a proposal for the end of round's projects (Build Projects) |
| `alien HEX` | plan | a proposal for the alien's path when several are equal (event 2) |
| `carry ITEM [CARD]` | plan | pick up equipment onto an active card (`part-N`, `beacon` too) |
| `drop ITEM` / `give ITEM ROLE` | plan | leave it on your space / hand it to a player there |
| `place solar HEX` | plan | where a Solar Array built this round goes (Scenario 1, Chapter 1) |
| `path plan\\|alternative` | plan | Mission Control's plan or the alternative (Scenario 1) |
"""

from __future__ import annotations

from pbem.engine.orderlines import OrderSyntaxError, Verb, VerbTable


def _word(w: str, what: str) -> str:
    if not w.replace("-", "").isalnum():
        raise OrderSyntaxError(f"{w!r} is not {what}")
    return w.lower()


def _hex(w: str) -> str:
    if len(w) != 4 or not w.isdigit():
        raise OrderSyntaxError(f"{w!r} is not a hex label (four digits, e.g. 0504)")
    return w


def _choose(words: tuple) -> dict:
    if not words:
        raise OrderSyntaxError("expected the starting card types wanted, in order")
    return {"types": [_word(w, "a card type") for w in words]}


def _active(words: tuple) -> dict:
    if len(words) != 1:
        raise OrderSyntaxError("expected one card (or card type)")
    return {"card": _word(words[0], "a card")}


def _play(words: tuple) -> dict:
    if not words:
        raise OrderSyntaxError("expected a card of your hand, then optionally the numbers of "
                               "the abilities used")
    if not all(w.isdigit() for w in words[1:]):
        raise OrderSyntaxError("after the card: the numbers of the abilities used (0, 1...)")
    return {"card": _word(words[0], "a card"), "abilities": [int(w) for w in words[1:]]}


def _move(words: tuple) -> dict:
    if not 1 <= len(words) <= 2:
        raise OrderSyntaxError("expected one or two spaces (Move: up to 2 board spaces)")
    return {"path": [_hex(w) for w in words]}


def _climb(words: tuple) -> dict:
    if len(words) != 1:
        raise OrderSyntaxError("expected the one space climbed to")
    return {"to": _hex(words[0])}


def _none(words: tuple) -> dict:
    if words:
        raise OrderSyntaxError("expected nothing after the verb")
    return {}


_RESOURCES = ("scrap", "carbon", "minerals")


def _scavenge(words: tuple) -> dict:
    """``repair``, ``salvage`` and ``scrap [RESOURCE]`` in the order they are to be tried
    (Scavenge: the card drawn decides which can be carried out; ``scrap`` alone takes the
    first resource listed on the card)."""
    choices: list = []
    for w in (x.lower() for x in words):
        if w in ("repair", "salvage", "scrap") and not (
                w == "scrap" and choices and choices[-1] == ["scrap", None]):
            choices.append([w, None])
        elif w in _RESOURCES and choices and choices[-1] == ["scrap", None]:
            choices[-1][1] = w
        else:
            raise OrderSyntaxError(f"{w!r}: expected repair, salvage or scrap [RESOURCE] "
                                   f"(one or more, tried in the order written)")
    if not choices:
        raise OrderSyntaxError("expected repair, salvage or scrap [RESOURCE] (one or more, "
                               "tried in the order written)")
    return {"choices": choices}


_SPACE_MODES = {"clear": 1, "path": 1, "carbon": 1, "lure": 0}
"""The Terraform Tool's abilities (Card Elaborations) -> how many hexes they need at least (one
at most)."""


def _tool_args(words: tuple, args: list) -> list:
    """The words after ``use CARD N`` checked when they name a Terraform Tool ability or the
    Scanner's preferences (pbem.games.atalix.tools); other words are the ability's to judge."""
    quoted = repr(" ".join(("use", *words)))
    mode = args[0] if args else None
    if mode in _SPACE_MODES:
        least = _SPACE_MODES[mode]
        if not least <= len(args) - 1 <= 1:
            form = f"{mode} HEX" if least else f"{mode} [HEX]"
            raise OrderSyntaxError(f"{quoted}: expected `use CARD N {form}` (one hex label"
                                   + ("" if least else ", the alien's step, or none") + ")")
        return [mode, *(_hex(w) for w in args[1:])]
    if mode == "bottom" or (mode == "pick" and (len(args) < 2 or args[1] == "bottom"
                                                or args[-1] == "bottom"
                                                or args.count("bottom") > 1)):
        raise OrderSyntaxError(f"{quoted}: the Scanner's look takes the card types to pick, "
                               f"then optionally bottom and the types to put at the bottom "
                               f"(use CARD N pick TYPE... [bottom TYPE...])")
    if mode == "pick":
        return [_word(w, "a card type") for w in args]
    return args


def _use(words: tuple) -> dict:
    if len(words) < 2 or not words[1].isdigit():
        raise OrderSyntaxError("expected a played card, the number of its ability, then what "
                               "the ability needs")
    return {"card": _word(words[0], "a card"), "index": int(words[1]),
            "args": _tool_args(words, list(words[2:]))}


def _build(words: tuple) -> dict:
    if len(words) != 1:
        raise OrderSyntaxError("expected one project")
    return {"project": _word(words[0], "a project")}


def _alien(words: tuple) -> dict:
    if len(words) != 1:
        raise OrderSyntaxError("expected the space the alien should enter")
    return {"to": _hex(words[0])}


_ITEMS = ("solar-1", "solar-2", "solar-3", "solar-4", "ship", "roof", "beacon")
"""Scenario 1's equipment (pbem.games.atalix.scenario1.ITEMS) and Scenario 3's beacon; Scenario
2's rover parts are ``part-N`` (pbem.games.atalix.scenario2)."""


def _item(w: str, also: tuple = ()) -> str:
    low = w.lower()
    part = low.startswith("part-") and low[5:].isdigit() and int(low[5:]) >= 1
    if low not in (*_ITEMS, *also) and not part:
        raise OrderSyntaxError(f"{w!r} is not equipment: expected one of {', '.join(_ITEMS)} "
                               f"or a rover part part-1, part-2...")
    return low


def _carry(words: tuple) -> dict:
    if not 1 <= len(words) <= 2:
        raise OrderSyntaxError("expected the equipment, then optionally the active card")
    return {"item": _item(words[0]),
            "card": _word(words[1], "a card") if len(words) == 2 else None}


def _drop(words: tuple) -> dict:
    if len(words) != 1:
        raise OrderSyntaxError("expected the equipment dropped")
    return {"item": _item(words[0])}


def _give(words: tuple) -> dict:
    if len(words) != 2:
        raise OrderSyntaxError("expected the equipment, then the player given it")
    return {"item": _item(words[0]), "role": _word(words[1], "a player")}


def _place(words: tuple) -> dict:
    if len(words) != 2:
        raise OrderSyntaxError("expected solar, then the space adjacent to the center")
    return {"item": _item(words[0], ("solar",)), "hex": _hex(words[1])}


def _path(words: tuple) -> dict:
    if len(words) != 1 or words[0].lower() not in ("plan", "alternative"):
        raise OrderSyntaxError("expected plan (Mission Control's) or alternative")
    return {"path": words[0].lower()}


VERBS = VerbTable([
    Verb("choose", "choose TYPE [TYPE...]", "Starting Deck", _choose),
    Verb("active", "active CARD", "Active Card", _active),
    Verb("play", "play CARD [N...]", "Planning Phase", _play),
    Verb("move", "move HEX [HEX]", "Action Phase", _move),
    Verb("climb", "climb HEX", "Action Phase; Movement Restrictions", _climb),
    Verb("collect", "collect", "Action Phase", _none),
    Verb("scavenge", "scavenge repair|salvage|scrap [RESOURCE]...", "Action Phase", _scavenge),
    Verb("use", "use CARD N [ARGS...]", "Action Phase; Card Elaborations", _use),
    Verb("build", "build PROJECT", "Build Projects", _build),
    Verb("alien", "alien HEX", "Events (2)", _alien),
    Verb("carry", "carry ITEM [CARD]", "Scenario 1, Chapter 4 (transport)", _carry),
    Verb("drop", "drop ITEM", "Scenario 1, Chapter 4 (transport)", _drop),
    Verb("give", "give ITEM ROLE", "Scenario 1, Chapter 4 (transport)", _give),
    Verb("place", "place solar HEX", "Scenario 1, Chapter 1", _place),
    Verb("path", "path plan|alternative", "Scenario 1 (alternatives)", _path),
], rule="Turns and Rounds")
"""The orders of Escape from Atalix (module docstring)."""

ORDER_VERBS = tuple(VERBS.syntax())


def parse(role: str, window, body: str, first_line: int) -> tuple[list, list]:
    """``(orders, problems)`` from ``role``'s order ``body`` for ``window``; every unreadable
    line is a Problem quoting it with its line number (pbem.engine.orderlines)."""
    return VERBS.parse(role, window, body, first_line)
