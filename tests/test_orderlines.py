"""The kit's one order-line reader (issue 9, "The kit": one order-line reader, line splitting on
CR/LF only, quoted `> ` lines skipped, comments, true line numbers; a verb table with one syntax
error type). Expected line numbers are counted by hand in each body."""

import pytest

from pbem.engine.orderlines import (Line, OrderSyntaxError, Verb, VerbTable, order_lines,
                                    words_of)
from pbem.engine.ruleset import Window


def _hex(words):
    if len(words) != 1 or not (len(words[0]) == 4 and words[0].isdigit()):
        raise OrderSyntaxError(f"expected one four-digit hex, found {' '.join(words) or 'none'}")
    return {"hex": words[0]}


def _move(words):
    if len(words) < 2:
        raise OrderSyntaxError()
    return {"unit": words[0], "path": list(words[1:])}


TABLE = VerbTable([Verb("post", "post HEX", "Toy 1.1", _hex),
                   Verb("move", "move UNIT HEX...", "Toy 2.3", _move, aliases=("mv",)),
                   Verb("pass", "pass", "Toy 3", lambda w: {})],
                  rule="Toy: orders")
WINDOW = Window(turn=1, phase="move", owed=("red",), verbs={"red": ("move", "pass")},
                title="Movement")


def test_lines_split_at_lf_crlf_and_cr_only():
    body = "move a 0101\r\npass\rmove b\u2028 0202\x0c\nmove c 0303"
    got = [(ln.number, ln.text) for ln in order_lines(body, 10)]
    # lines 10, 11, 12 (U+2028 and form feed stay inside line 12), 13
    assert got == [(10, "move a 0101"), (11, "pass"), (12, "move b\u2028 0202\x0c".strip()),
                   (13, "move c 0303")]


def test_blank_comment_and_quoted_lines_are_skipped_with_true_numbers():
    body = "\n# a comment\n> post 0101\n>> move x 0101\nmove a 0101  # trailing\n,, ,\npass\n"
    assert list(order_lines(body, 7)) == [
        Line(11, "move a 0101", ("move", "a", "0101")),  # the 5th line of the body
        Line(13, "pass", ("pass",))]


def test_words_are_lower_case_split_at_spaces_tabs_no_break_spaces_and_commas():
    assert words_of("MOVE\ta,0101\u00a00102") == ("move", "a", "0101", "0102")


def test_the_table_reads_orders_and_names_each_problem_with_its_line_and_rule():
    body = "move red1 0101 0102\nmv red2 0103\npost 0101\nfly 0101\nmove red3\npass\n"
    orders, problems = TABLE.parse("red", WINDOW, body, 5)
    assert [(o.line, o.verb, o.args) for o in orders] == [
        (5, "move", {"unit": "red1", "path": ["0101", "0102"]}),
        (6, "move", {"unit": "red2", "path": ["0103"]}),
        (10, "pass", {})]
    assert [(p.line, p.rule) for p in problems] == [(7, "Toy 1.1"), (8, "Toy: orders"),
                                                    (9, "Toy 2.3")]
    assert problems[0].why == ("'post' is not an order red may give in this window (Movement); "
                               "expected one of move, pass")
    assert problems[1].why == "unknown order 'fly': expected one of move, pass"
    assert problems[2].why == "expected `move UNIT HEX...`" and problems[2].text == "move red3"


def test_a_syntax_error_says_why_then_the_syntax():
    window = Window(turn=1, phase="setup", owed=("red",), verbs={"red": ("post",)})
    _, problems = TABLE.parse("red", window, "post 12", 1)
    assert problems[0].why == "expected one four-digit hex, found 12; expected `post HEX`"


def test_a_role_that_owes_no_orders_gets_one_problem():
    orders, problems = TABLE.parse("blue", WINDOW, "pass", 3)
    assert orders == [] and [(p.line, p.why) for p in problems] == [
        (None, "blue sends no orders in this window (Movement)")]


def test_a_word_declared_twice_is_refused():
    with pytest.raises(ValueError, match="'mv' is declared twice"):
        VerbTable([Verb("move", "m", "r", _move, aliases=("mv",)),
                   Verb("mv", "m", "r", _move)], rule="r")


def test_any_text_is_read_without_raising():
    from hypothesis import given, strategies as st

    @given(st.text())
    def run(body):
        TABLE.parse("red", WINDOW, body, 1)

    run()
