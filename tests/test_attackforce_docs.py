"""docs/orders-attackforce.md stays true: every order its examples show is read by the Attack
Force parser without a problem, and every verb of the game is in its table."""

import re
from pathlib import Path

from pbem.engine.ruleset import Window
from pbem.games.attackforce import orders
from pbem.games.attackforce.state import ARCTURAN, EMPIRE

DOC = Path(__file__).resolve().parent.parent / "docs" / "orders-attackforce.md"


def _examples():
    return re.findall(r"```\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_examples_parse_without_problems():
    blocks = _examples()
    assert len(blocks) == 2
    for role, body in zip((ARCTURAN, EMPIRE), blocks):
        w = Window(2, "x", (role,), verbs={role: list(orders.ORDER_VERBS)})
        parsed, problems = orders.parse(role, w, body, 1)
        assert problems == [], [str(p) for p in problems]
        assert len(parsed) == len(body.strip().splitlines())


def test_every_verb_is_in_the_table():
    text = DOC.read_text(encoding="utf-8")
    for verb, syntax in orders.VERBS.syntax().items():
        assert f"| `{verb} " in text or f"| `{verb}`" in text, verb
