"""Reading Atlantis order bodies (README, "Windows (phases) and what each player sends")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.engine.ruleset import Window
from pbem.games.atlantis import ruleset
from pbem.games.atlantis.windows import CREATURE_VERBS, PLACEMENT_VERBS, TURN_VERBS

TURN = Window(3, "red", ("red",), ("green",), {"red": list(TURN_VERBS), "green": ["standing"]},
              title="Turn 3: red's player-turn")
SETUP = Window(0, "setup", ("red", "green"), (),
               {"red": list(PLACEMENT_VERBS), "green": list(PLACEMENT_VERBS)}, simultaneous=True)
CREATURE = Window(3, "red-creature", ("red",), ("green",),
                  {"red": list(CREATURE_VERBS), "green": ["standing"]}, short=True)


def parse(body, role="red", window=TURN, first=7):
    return ruleset.parse(role, window, body, first)


def test_every_turn_verb_reads_its_arguments():
    """The People and/or Ships move, Part of the Island sinks and Dice orders of the README."""
    body = "\n".join([
        "play shark-dives shark2 0405",
        "play kill-shark shark1",
        "play kraken-killed kraken3",
        "walk red3 0607 0608 0609",
        "swim red3 0508",
        "swim red4 0508 with dolphin1",
        "board red3 0508",
        "ashore red3 0101",
        "sail ship2 0508 0509",
        "sink 0608",
        "if shark: shark2 0405 0406",
        "if monster-or-shark: monster1 0303",
        "if kraken: stay",
        "standing kill-shark on",
    ])
    orders, problems = parse(body)
    assert problems == []
    got = [(o.line, o.verb, o.args) for o in orders]
    assert got == [
        (7, "play", {"tile": "shark-dives", "creature": "shark2", "hex": "0405"}),
        (8, "play", {"tile": "kill-shark", "creature": "shark1", "hex": None}),
        (9, "play", {"tile": "kraken-killed", "creature": "kraken3", "hex": None}),
        (10, "walk", {"person": "red3", "path": ["0607", "0608", "0609"]}),
        (11, "swim", {"person": "red3", "path": ["0508"], "dolphin": None}),
        (12, "swim", {"person": "red4", "path": ["0508"], "dolphin": "dolphin1"}),
        (13, "board", {"person": "red3", "hex": "0508"}),
        (14, "ashore", {"person": "red3", "hex": "0101"}),
        (15, "sail", {"ship": "ship2", "path": ["0508", "0509"]}),
        (16, "sink", {"hex": "0608"}),
        (17, "if", {"cond": "shark", "creature": "shark2", "path": ["0405", "0406"]}),
        (18, "if", {"cond": "monster-or-shark", "creature": "monster1", "path": ["0303"]}),
        (19, "if", {"cond": "kraken", "creature": None, "path": []}),
        (20, "standing", {"tile": "kill-shark", "on": True}),
    ]


def test_blank_comment_and_quoted_lines_are_ignored_but_counted():
    """README 'Names in orders': blank lines, # comments and > quotes are ignored; line
    numbers count from first_line."""
    body = "\n# a comment\n> sink 0405 (quoted from the report)\n\nSINK 0608   # inline note\n"
    orders, problems = parse(body, first=10)
    assert problems == []
    assert [(o.line, o.verb, o.text) for o in orders] == [(14, "sink", "SINK 0608")]


def test_unknown_verb_and_verb_not_in_this_window():
    """README 'Windows': each window accepts its own verbs per role; one problem per line,
    citing the rule."""
    orders, problems = parse("fly red3 0101\nstanding kill-shark off\n", role="green")
    assert orders[0].verb == "standing"
    assert len(problems) == 1
    p = problems[0]
    assert p.line == 7 and p.text == "fly red3 0101" and "unknown order 'fly'" in p.why
    orders, problems = parse("walk red3 0607\n", role="green")
    assert orders == [] and problems[0].line == 7
    assert "'walk' is not an order green may give" in problems[0].why
    assert problems[0].rule == "Atlantis: Land Movement"


def test_bad_arguments_say_what_was_expected():
    """README order syntax: a line with bad arguments names what was expected."""
    cases = {
        "walk red3": "expected `walk PERSON HEX [HEX...]`",
        "walk red3 607": "'607' is not a hex",
        "swim 0607 0508": "'0607' is not a person",
        "swim red3 0508 with shark1": "'shark1' is not a dolphin",
        "sail red3 0508": "'red3' is not a ship",
        "sink 0608 0609": "expected `sink HEX`",
        "play shark-dives kraken1 0405": "'kraken1' is not a shark",
        "play kill-shark shark1 0405": "names the shark it removes",
        "play treasure shark1": "'treasure' is not a tile you can play",
        "if shark shark2 0405": "a colon must follow the condition",
        "if whale: shark2 0405": "'whale' is not a die face or creature kind",
        "standing kill-shark maybe": "expected on or off",
        "standing shark-dives on": "standing orders are for kill-shark and kraken-killed",
    }
    for line, why in cases.items():
        orders, problems = parse(line)
        assert orders == [], line
        assert len(problems) == 1 and why in problems[0].why, (line, problems)
        assert problems[0].text == line


def test_placement_and_creature_windows():
    """README: placement lists (Preparing to Play 2-4) and the creature window's orders
    (Dice)."""
    orders, problems = parse("people 0707 0707 0606\npeople 0608\nship 0404 0403\nmonster 0202",
                             window=SETUP)
    assert problems == []
    assert [o.args["hexes"] for o in orders] == [["0707", "0707", "0606"], ["0608"],
                                                 ["0404", "0403"], ["0202"]]
    orders, problems = parse("creature shark2 0405 0406\ncreature stay\nsink 0405",
                             window=CREATURE)
    assert [o.args for o in orders] == [{"creature": "shark2", "path": ["0405", "0406"]},
                                        {"creature": None, "path": []}]
    assert len(problems) == 1 and "'sink' is not an order red may give" in problems[0].why


def test_a_role_outside_the_window_is_told_so():
    """README 'Windows': a role that owes nothing and may send nothing is told so."""
    orders, problems = parse("sink 0405", role="blue")
    assert orders == [] and problems[0].line is None
    assert "blue sends no orders in this window" in problems[0].why


def test_aliases_and_case():
    """README 'Names in orders': any case; ships/monsters and the rulebook's 'Shark killed'
    are accepted."""
    orders, problems = parse("Ships 0404\nMONSTERS 0202", window=SETUP)
    assert problems == [] and [o.verb for o in orders] == ["ship", "monster"]
    orders, problems = parse("play Shark-Killed shark1\nif Monster-Or-Shark: STAY")
    assert problems == []
    assert orders[0].args["tile"] == "kill-shark"
    assert orders[1].args == {"cond": "monster-or-shark", "creature": None, "path": []}


def test_words_may_be_separated_by_tabs_and_no_break_spaces():
    """README 'Names in orders': words are separated by spaces - mail clients also send tabs
    and no-break spaces (U+00A0) between words; both count as spaces."""
    orders, problems = parse("sink\t0608\nwalk\u00a0red3  0607\t0608")
    assert problems == []
    assert [(o.verb, o.args) for o in orders] == [
        ("sink", {"hex": "0608"}), ("walk", {"person": "red3", "path": ["0607", "0608"]})]


def test_line_numbers_count_line_feeds_only():
    """DESIGN.md 'Signed orders' and pbem.engine.headers: the signed text's lines are split at
    LF (CRLF and CR made LF); a form feed or U+2028 inside a line does not start a new line, so
    the line numbers in problems are the ones the player sees."""
    orders, problems = parse("walk red3 0607\x0c\nsink 0608\u2028\nfly\n", first=1)
    assert [o.line for o in orders] == [1, 2]
    assert [p.line for p in problems] == [3]
    orders, _ = parse("sink 0608\r\nsink 0609\rsink 0610", first=1)
    assert [o.line for o in orders] == [1, 2, 3]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(
    st.sampled_from(["play", "walk", "swim", "board", "ashore", "sail", "sink", "if", "creature",
                     "standing", "people", "ship", "ships", "monster", "with", "stay", "on",
                     "off", ":", "#", ">", ",", "0405", "0000", "9999", "0607\n", "red1", "red",
                     "shark1", "dolphin1", "kill-shark", "shark-dives", "monster-or-shark",
                     "shark:", "if shark:", "\t", "\u00a0", "\u2028", "\x0c", "\r", "\n",
                     "\u0130", "\u0660\u0666\u0660\u0667"]),
    st.text(max_size=10)), max_size=40).map(" ".join),
    st.sampled_from(["red", "green", "blue"]),
    st.sampled_from([TURN, SETUP, CREATURE]), st.integers(1, 10 ** 6))
def test_parse_never_raises(body, role, window, first):
    """DESIGN.md: orders that break a rule are not fatal - whatever a player sends, parse returns
    orders and problems (each problem quoting its line and citing a rule) and never raises."""
    orders, problems = ruleset.parse(role, window, body, first)
    for o in orders:
        assert o.verb in window.verbs.get(role, ()) and o.line >= first
    for p in problems:
        assert p.rule.startswith("Atlantis: ") and p.why
