"""Both games read orders through the kit's one reader and a verb table (issue 9, "The kit":
"One order-line reader (line splitting on CR/LF only, quoted `> ` lines skipped, comments, true
line numbers) and a verb table (syntax, rule reference, parser) with one syntax error type; bots
use the same parser"). Expected line numbers are counted by hand in each body."""

from __future__ import annotations

import pytest

from pbem.engine.orderlines import OrderSyntaxError, VerbTable
from pbem.engine.ruleset import Window
from pbem.games.altassar import orders as altassar
from pbem.games.altassar.state import CONFEDERATION, SPIKUS
from pbem.games.altassar.turns import VERBS as ALTASSAR_VERBS
from pbem.games.atlantis import bots as atlantis_bots
from pbem.games.atlantis import orders as atlantis
from pbem.games.atlantis.windows import TURN_VERBS

CONF_MOVES = Window(1, "confederation-movement", (CONFEDERATION,), (SPIKUS,),
                    {CONFEDERATION: list(ALTASSAR_VERBS["movement"][CONFEDERATION])},
                    title="Confederation Movement Phase")
POSTS = Window(0, "posts", (SPIKUS,), (CONFEDERATION,),
               {SPIKUS: list(ALTASSAR_VERBS["posts"][SPIKUS])}, title="Signal Posts (13.1)")
ATLANTIS_TURN = Window(3, "red", ("red",), ("green",),
                       {"red": list(TURN_VERBS), "green": ["standing"]},
                       title="Turn 3: red's player-turn")


def test_both_games_declare_a_verb_table():
    """Issue 9: each game's orders are a VerbTable (syntax, rule, parser)."""
    assert isinstance(atlantis.TABLE, VerbTable) and isinstance(altassar.TABLE, VerbTable)
    assert altassar.VERBS["move"] == "move UNIT [from HEX] [to] HEX [HEX ...] [off]"
    assert altassar.VERB_RULE["launch"] == "Altassar 14.2"
    assert atlantis.SYNTAX["sink"] == "sink HEX"
    assert atlantis.RULES["swim"] == "Atlantis: Swimming people"


def test_altassar_counts_lines_at_cr_lf_only_not_at_u2028():
    """Issue 9: Altassar used ``str.splitlines()``, so a U+2028 in a body (here inside a
    comment) made a line of its own: the text after it was read as an order (" policy") and
    every later problem named the wrong line. The body's 2nd line is ``fly 0101``."""
    body = "evasion flight   # standing\u2028 policy\nfly 0101\r\nmove terran-1 0101 0x02\n"
    orders, problems = altassar.parse(CONFEDERATION, CONF_MOVES, body, 1)
    assert [(o.line, o.verb, o.args) for o in orders] == [
        (1, "evasion", {"unit": None, "how": "flight"})]
    assert [(p.line, p.text) for p in problems] == [(2, "fly 0101"),
                                                    (3, "move terran-1 0101 0x02")]
    assert problems[0].why.startswith("unknown order 'fly'")
    assert problems[1].why.startswith("'0x02' is not a hex")


def test_altassar_skips_a_quoted_post_line():
    """Issue 9: Altassar rejected ``> post 0101`` (a reply quoting earlier orders) as an
    unknown order '>'; it is now skipped, and the next line keeps its true number."""
    body = "> post 0101\npost 0504\n"
    orders, problems = altassar.parse(SPIKUS, POSTS, body, 12)
    assert problems == []
    assert [(o.line, o.verb, o.args) for o in orders] == [(13, "post", {"hex": "0504"})]


ALTASSAR_ARGS = {
    "move S1 from 0101 to 0202 0203": {"unit": "S01", "from": "0101", "path": ["0202", "0203"],
                                        "off": False},
    "move terran-1 to 0405": {"unit": "terran-1", "from": None, "path": ["0405"], "off": False},
    "move badte-02 off": {"unit": "badte-2", "from": None, "path": [], "off": True},
    "attack 0612 with S01 t2": {"target": "0612", "units": ["S01", "T2"]},
    "attack s3 with terran-1": {"target": "S03", "units": ["terran-1"]},
    "combat later": {},
    "post 0504": {"hex": "0504"},
    "launch N1 ne 3 start": {"net": "N1", "direction": "ne", "hexes": 3, "when": "start"},
    "launch n2 s": {"net": "N2", "direction": "s", "hexes": None, "when": "end"},
    "carry N1 S04": {"net": "N1", "soldier": "S04"},
    "attrition S05": {"unit": "S05"},
    "evade 0612 flight 0815": {"target": "0612", "how": "flight", "to": "0815"},
    "evade 0612 camouflage": {"target": "0612", "how": "camouflage", "to": None},
    "evasion dummy-3 ask": {"unit": "dummy-3", "how": "ask"},
    "evasion none": {"unit": None, "how": "none"},
    "retreat terran-1 0101 0102 0103": {"unit": "terran-1", "path": ["0101", "0102", "0103"]},
    "renewal S01 S02": {"units": ["S01", "S02"]},
    "losses terran-1": {"units": ["terran-1"]},
    "escape never": {"policy": "never"},
}


@pytest.mark.parametrize("line", list(ALTASSAR_ARGS))
def test_altassar_args_are_read_as_before(line):
    """Issue 9: rebuilt on the verb table, every Altassar order keeps the args the resolution
    code reads (docs/orders-altassar.md)."""
    order = altassar.TABLE.read(line)
    assert order.args == ALTASSAR_ARGS[line]


def test_altassar_problems_quote_the_line_with_its_comment_and_cite_the_verb_rule():
    """Issue 9: one syntax error type; a problem quotes the line as written (comment
    included, as the example receipts show), says why, then the verb's syntax."""
    body = "move terran-1 from   # where from?\nattack 0612 with S01 S1\n"
    _, problems = altassar.parse(SPIKUS, Window(1, "spikus-movement", (SPIKUS,), (),
                                                {SPIKUS: ["move", "attack"]}), body, 4)
    assert [(p.line, p.text, p.rule) for p in problems] == [
        (4, "move terran-1 from   # where from?", "Altassar 5.0"),
        (5, "attack 0612 with S01 S1", "Altassar 7.0")]
    assert problems[0].why == ("'from' needs a hex; "
                               "expected `move UNIT [from HEX] [to] HEX [HEX ...] [off]`")
    assert problems[1].why == ("a unit is named twice: each unit attacks once (7.13); "
                               "expected `attack HEX-or-UNIT with UNIT [UNIT ...]`")


def test_altassar_reads_commas_as_spaces_like_every_game():
    """Issue 9: the kit's reader splits words at commas too (Atlantis always did)."""
    orders, problems = altassar.parse(CONFEDERATION, CONF_MOVES,
                                      "attack 0612 with terran-1,badte-2\n", 1)
    assert problems == [] and orders[0].args == {"target": "0612",
                                                 "units": ["terran-1", "badte-2"]}


def test_the_table_reads_one_line_as_a_players_line_is_read():
    """Issue 9: bots use the same parser. ``VerbTable.read`` gives the args a player's line
    gets, and raises the one syntax error type with the problem's text."""
    for text in ("swim red4 0508 with dolphin1", "if monster-or-shark: monster1 0303",
                 "sail ship2 0508 0509", "play shark-dives shark2 0405"):
        (order,), problems = atlantis.parse("red", ATLANTIS_TURN, text, 1)
        assert problems == [] and atlantis.read(text).args == order.args
    with pytest.raises(OrderSyntaxError) as bad:
        atlantis.read("walk red3 607")
    _, (problem,) = atlantis.parse("red", ATLANTIS_TURN, "walk red3 607", 1)
    assert bad.value.why == problem.why
    with pytest.raises(OrderSyntaxError, match="unknown order 'fly'"):
        atlantis.read("fly red3 0101")


def test_the_atlantis_bot_reads_what_it_writes_through_the_table(monkeypatch):
    """Issue 9: the Atlantis bot had a third parser; it now reads each line through the verb
    table, so a line the table refuses is never tried nor sent."""
    seen = []
    real = atlantis_bots.read

    def spy(text):
        seen.append(text)
        return real(text)

    monkeypatch.setattr(atlantis_bots, "read", spy)
    assert atlantis_bots._reads("sink 0608") and not atlantis_bots._reads("sink 608")
    assert not atlantis_bots._try(None, None, "walk red3")  # refused before any table is used
    assert seen == ["sink 0608", "sink 608", "walk red3"]
