"""Attack Force hidden information (README.md, "Who sees what"; How to Set Up 4-6): the
explosion's Hull Space is the Arcturan Player's alone until the end, the Batteries drawn are the
Empire's until placed, and the bot, the drawing and the rules text work from a role's view."""

from __future__ import annotations

import random

from test_attackforce_rules import Dice, new_game, position, role_state

from pbem.engine.ruleset import Chance, Parts
from pbem.games.attackforce import ruleset as rs
from pbem.games.attackforce.state import ARCTURAN, EMPIRE


def _empire_sees(s, body: str):
    st = role_state(s, EMPIRE)
    w = rs.window(st)
    orders, problems = rs.parse(EMPIRE, w, body, 1)
    view = rs.view(st, EMPIRE)
    return view, rs.template(st, EMPIRE), [str(p) for p in problems + rs.check(st, EMPIRE, orders)]


def test_empire_view_template_and_problems_ignore_the_explosion_space():
    """How to Set Up 6: 'The Empire Player should never see which space has the explosion'.
    Two games alike but for the explosion's Hull Space (and so its commitment): the Empire's
    view (its commitment aside), template and problems, for a `look` at the explosion's space
    and a bad `look`, are the same."""
    seen = []
    for explosion in (1, 5):
        s, _ = new_game(explosion=explosion)
        position(s, "empire", 1, c1="40")
        view, template, problems = _empire_sees(s, "look h1 h5 h5\nlook h1 h2 h5")
        view.pop("commitment")
        seen.append((view, template, problems))
    assert seen[0] == seen[1]
    assert seen[0][2]  # the bad look and the second choice are reported, alike


def test_empire_view_same_public_part_other_arcturan_secret():
    """The engine gives the Empire the public part and its own part only: with the same public
    part and a different Arcturan secret the Empire's view is unchanged."""
    s, _ = new_game(explosion=1)
    position(s, "empire", 1)
    parts = rs.dump(s)
    views = []
    for space in ("54", "115"):
        secret = dict(parts.secret, arcturan={"explosion": space, "salt": "ab" * 16})
        views.append(rs.view(rs.load(Parts(parts.public, secret, {})), EMPIRE))
    assert views[0] == views[1]


def test_explosion_only_in_the_arcturan_part_and_event():
    """README "Who sees what": the explosion and the salt are the Arcturan's secret part and a
    private event; the public part holds only the commitment."""
    s, events = new_game(explosion=4)
    parts = rs.dump(s)
    assert parts.secret[ARCTURAN] == {"explosion": "80", "salt": "00" * 16}
    assert "explosion" not in parts.public["hull"].values()
    assert parts.public["reveal"] is None
    private = [e for e in events if not e.public]
    assert {e.audience for e in private} == {(ARCTURAN,), (EMPIRE,)}
    assert all("00" * 16 not in e.text for e in events if e.public)


def test_batteries_drawn_are_the_empires_until_placed():
    """How to Set Up 4: the Empire 'draws 14 Battery pieces from the cup and looks at them';
    they are public once placed, the 7 set aside stay his."""
    s, _ = new_game()
    parts = rs.dump(s)
    assert len(parts.secret[EMPIRE]["drawn"]) == 14
    assert not any(r["kind"] in ("laser", "pompom", "blaster")
                   for r in parts.public["pieces"].values())
    w = rs.window(s)
    orders, _ = rs.parse(EMPIRE, w, "place laser 39 41\nplace pompom 44", 1)
    res = rs.resolve(s, {EMPIRE: orders}, Chance(Dice(), Dice()))
    assert res.problems[EMPIRE][0].rule == "How to Set Up 4"  # the other 11 placed by default
    parts = rs.dump(s)
    assert parts.public["pieces"]["laser1"]["space"] == "39"
    assert parts.secret[EMPIRE]["drawn"] == {}
    assert sum(parts.secret[EMPIRE]["aside"].values()) == 7


def test_bot_orders_meet_no_problem_in_a_random_game():
    """The bot (propose) writes orders that parse and check clean, from the role's view."""
    from pbem.dice import DiceStream

    s, _ = new_game()
    rng = random.Random(3)
    for i in range(40):
        w = rs.window(s)
        if w is None:
            break
        role = w.owed[0]
        st = role_state(s, role)
        body = rs.bot_orders(rs.view(st, role), w, role, rng)
        orders, problems = rs.parse(role, w, body, 1)
        problems += rs.check(st, role, orders)
        assert problems == [], (w.phase_id, body, [str(p) for p in problems])
        seed = bytes([i]) * 32
        rs.resolve(s, {role: orders}, Chance(DiceStream(seed, "g", w.phase_id, {}),
                                             DiceStream(seed, "g", w.phase_id, {}, hidden=True)))


def test_drawing_marks_the_explosion_only_for_the_arcturan():
    """The text map: face-down Hull Markers are `H?` for the Empire, the explosion `H!` in
    the Arcturan Player's own map (his secret)."""
    s, _ = new_game(explosion=1)
    position(s, "arcturan", 1, r1="37")
    arc = rs.text_map(rs.view(role_state(s, ARCTURAN), ARCTURAN))
    emp = rs.text_map(rs.view(role_state(s, EMPIRE), EMPIRE))
    arc_map, emp_map = arc.split("\n\n")[0], emp.split("\n\n")[0]
    assert arc_map.count("H!") == 1 and arc_map.count("H?") == 7
    assert "H!" not in emp_map and emp_map.count("H?") == 8
    assert " 37  r1 " in emp_map and "arcturan: r1@37" in emp


def test_rules_text_prints_the_attack_table():
    """How to Attack, ATTACK TABLE: row B reads 7 8 9."""
    text = rs.rules_text(rs.load_data(None))
    row = next(line for line in text.splitlines() if line.strip().startswith("B "))
    assert row.split()[:4] == ["B", "7", "8", "9"]
