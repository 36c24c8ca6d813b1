"""The generic random-legal bot (pbem.engine.randombot; issue 9, "The kit")."""

import random

import pytest

from pbem.engine.randombot import BotStuck, Choices, random_orders
from pbem.engine.ruleset import Window

W = Window(3, "move", ("red",))


def test_bot_writes_only_offered_lines_and_asks_again_after_each():
    asked = []

    def propose(view, window, role, written):
        asked.append(written)
        if len(written) == 3:
            return Choices()
        return Choices([f"step {len(written) + 1} a", f"step {len(written) + 1} b"],
                       may_stop=False)

    body = random_orders(propose, {}, W, "red", random.Random(1))
    lines = body.splitlines()
    assert [line.split()[1] for line in lines] == ["1", "2", "3"]
    assert body.endswith("\n")
    assert asked == [(), tuple(lines[:1]), tuple(lines[:2]), tuple(lines)]


def test_bot_stops_by_chance_only_where_allowed():
    def propose(view, window, role, written):
        return Choices(["x"], may_stop=len(written) >= 2) if len(written) < 50 else Choices()

    lengths = {len(random_orders(propose, {}, W, "red", random.Random(s), stop=0.5).splitlines())
               for s in range(40)}
    assert min(lengths) == 2 and max(lengths) > 2


def test_nothing_offered_and_nothing_written_is_an_empty_body():
    assert random_orders(lambda *a: Choices(), {}, W, "red", random.Random(0)) == ""


def test_a_ruleset_that_forbids_stopping_but_offers_nothing_is_named():
    with pytest.raises(BotStuck, match=r"red in 3\.move: propose offers no line"):
        random_orders(lambda *a: Choices((), may_stop=False), {}, W, "red", random.Random(0))


def test_a_ruleset_that_offers_lines_forever_is_stopped():
    with pytest.raises(BotStuck, match="still offers lines after 10"):
        random_orders(lambda *a: Choices(["x"], may_stop=False), {}, W, "red",
                      random.Random(0), max_lines=10)


def test_keep_legal_keeps_each_line_the_whole_set_allows_up_to_most():
    import random as _random

    from pbem.engine.randombot import keep_legal
    legal = lambda lines: "bad" not in lines and len(set(lines)) == len(lines)  # noqa: E731
    kept = keep_legal(["a", "bad", "b", "a", "c"], legal, _random.Random(1), written=["w"])
    assert kept[0] == "w" and "bad" not in kept and sorted(kept[1:]) == ["a", "b", "c"]
    assert len(keep_legal(list("abcdef"), lambda ls: True, _random.Random(2), most=3)) == 3
