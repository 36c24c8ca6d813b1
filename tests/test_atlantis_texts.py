"""Texts for players: the order template, the text map, the rules text (README; docs/maps.md)."""

from __future__ import annotations

from pbem.games.atlantis import ruleset
from test_atlantis_helpers import position, run


def test_template_for_the_phasing_player_lists_what_matters():
    """README 'A player-turn': the template lists people, kept tiles, legal sinks and
    creatures as comments."""
    s = position(people={"red1": "sea:0304"}, creatures={"shark1": "0303"},
                 kept={"red": ["kill-shark"]})
    text = ruleset.template(s, "red")
    assert text.startswith("# Turn 1: red's player-turn\n")
    assert "#   red1 swimming in 0304" in text
    assert "# play kill-shark sharkN" in text
    assert "# Tiles you may sink now: " + " ".join(s.sinkable()) in text
    assert "#   shark (max 2): shark1 in 0303" in text
    assert all(line.startswith("#") for line in text.splitlines())
    # a template returned unchanged is an empty order set, not an error
    orders, problems = ruleset.parse("red", ruleset.window(s), text, 1)
    assert orders == [] and problems == []


def test_template_for_the_others_offers_standing_orders():
    """README 'Standing orders': the other players' template offers them."""
    s = position(standing={"green": {"kill-shark": True}})
    text = ruleset.template(s, "green")
    assert "# standing kill-shark off" in text and "# standing kraken-killed on" in text


def test_template_after_the_end():
    """End of game: no more orders."""
    s = position(symbols={"0405": "game-ends"})
    run(s, "sink 0405")
    assert ruleset.template(s, "red") == "# The game is over: no orders.\n"


def test_text_map_draws_tiles_people_ships_and_creatures():
    """docs/maps.md drawing conventions; README 'Who sees what' (own values only)."""
    s = position(people={"red1": "sea:0304", "green1": "ship:ship1", "red2": "safe:0101"},
                 ships={"ship1": "0303"}, creatures={"shark1": "0304", "dolphin1": "0304"})
    s.seen["red"] = {"red1": 4}
    board = ruleset.text_map(ruleset.view(s, "red"))
    assert board.isascii()
    lines = board.splitlines()
    assert lines[0].split() == [f"{c:02d}" for c in range(1, 14)]
    # row 01, first line: 0101 is the safe island with one person safe
    assert lines[1].startswith("01  #1")
    # row 03, first line (column 3 is an upper column): ship1 with green's person aboard
    assert lines[5][4 + 2 * 5:4 + 2 * 5 + 4].rstrip() == "=g"
    # row 04, first line: dolphin1 and shark1 (creatures by kind and number), then red's swimmer
    assert lines[7][4 + 2 * 5:4 + 2 * 5 + 4].rstrip() == "D^r"
    assert "Creatures: dolphin1 0304; shark1 0304" in board
    assert "red1 in 0304 value 4" in board
    assert "value 4" not in ruleset.text_map(ruleset.view(s, "green"))
    assert all(len(line) <= 78 for line in board.splitlines())


def test_the_worked_turn_in_docs_orders_atlantis():
    """docs/orders-atlantis.md's worked turn, on a position that fits its comments: only the
    `board` line is refused (Swimming people: board a ship shared at the beginning of the turn)."""
    import pathlib

    doc = (pathlib.Path(__file__).parent.parent / "docs" / "orders-atlantis.md").read_text()
    body = doc.split("### A worked turn")[1].split("```")[1].strip("\n")
    s = position(people={"red4": "sea:0404", "red1": "ship:ship1", "red3": "ship:ship1",
                         "green1": "ship:ship1", "red2": "sea:0102"},
                 ships={"ship1": "0303"},
                 creatures={"shark1": "0403", "kraken1": "0204", "dolphin2": "0203"},
                 kept={"red": ["kill-shark"]})
    parsed, problems = ruleset.parse("red", ruleset.window(s), body, 1)
    assert problems == []
    assert [p.line for p in ruleset.check(s, "red", parsed)] == [4]
    res = ruleset.resolve(s, {"red": parsed}, __import__("test_atlantis_helpers").chance([6]))
    assert [p.line for p in res.problems["red"]] == [4]
    assert s.people["red4"].where == "sea" and s.people["red2"].where == "safe"
    assert s.ships["ship1"] == "0304" and "shark1" not in s.creatures
    assert s.creatures["kraken1"] == "0307"


def test_creature_window_template_marks_a_held_dolphin():
    """The Safe Islands: a dolphin left on the nearly safe space 'may be moved away only on the
    next turn' - the creature window's template says so."""
    s = position(people={"red1": "sea:0102"}, creatures={"dolphin1": "0102", "kraken1": "0304"})
    run(s, "ashore red1 0101\nsink 0804", rolls=[1])
    text = ruleset.template(s, "red")
    assert "#   dolphin (max 2): dolphin1 in 0102 (held there until the next turn)" in text
    assert "#   kraken (max 3): kraken1 in 0304\n" in text


def test_text_map_tells_a_swimmer_from_a_crew():
    """A swimmer beside an unmanned ship is not drawn as its crew: a comma ends the crew."""
    s = position(people={"red1": "sea:0303", "green1": "ship:ship2", "red2": "sea:0304"},
                 ships={"ship1": "0303", "ship2": "0304"})
    lines = ruleset.text_map(ruleset.view(s, "red")).splitlines()
    assert lines[5][4 + 2 * 5:4 + 2 * 5 + 4].rstrip() == "=,r"   # 0303: empty ship, red swimmer
    assert lines[7][4 + 2 * 5:4 + 2 * 5 + 4].rstrip() == "=g,r"  # 0304: green aboard, red swimming
