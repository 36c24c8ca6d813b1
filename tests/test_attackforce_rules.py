"""Attack Force, rule by rule (rulebook shared/seeds/003_4e91702e1e56808e.txt, cited by section
name and step). Positions are built directly on the stand-in board (map.toml: a 12 x 14 grid
numbered row by row, space n next to n-1, n+1, n-12, n+12) and played through the ruleset's own
``parse``/``check``/``resolve`` with dice the test queues; a die nobody queued fails the test.
Expected numbers come from the rulebook's ATTACK TABLE, not from the code.
"""

from __future__ import annotations

import hashlib

import pytest

from pbem.engine.ruleset import Chance, Parts
from pbem.games.attackforce import ruleset as rs
from pbem.games.attackforce.data import FLIGHTS
from pbem.games.attackforce.state import ARCTURAN, EMPIRE

HULLS = ("54", "69", "76", "80", "90", "93", "100", "115")
"""The Hull Spaces 1 to 8 of the stand-in map (map.toml [groups] hull)."""
LAUNCHERS = ("52", "57", "112", "117")
WEST = tuple(str(1 + 12 * i) for i in range(14))
"""The west map edge: column 1."""


class Dice:
    """Queued dice: ``roll`` returns the next queued value (failing on an empty queue) and logs
    ``(sides, why, value)``; ``shuffle`` keeps the order."""

    def __init__(self, *values: int):
        self.queue, self.log = list(values), []

    def roll(self, sides: int, why: str) -> int:
        assert self.queue, f"unexpected roll of a d{sides}: {why!r}"
        v = self.queue.pop(0)
        assert 1 <= v <= sides
        self.log.append((sides, why, v))
        return v

    def shuffle(self, items, why: str) -> list:
        return list(items)


def new_game(explosion: int = 3, **options):
    """``(state, events)`` of a new game: with the order-keeping shuffle the Batteries drawn
    are the 7 Lasers and 7 Pompoms; the explosion is under Hull Space ``explosion``; the salt
    is 16 zero bytes."""
    data, board = rs.load_data(None), rs.load_map(None, "")
    hidden = Dice(explosion, *[1] * 16)
    s, events = rs.setup([ARCTURAN, EMPIRE], rs.validate_options(options), data, board, Chance(Dice(), hidden))
    assert not hidden.queue
    return s, events


KINDS = {"c": "cobra", "vk": "korsen", "laser": "laser", "pompom": "pompom", "blaster": "blaster"}


def position(s, stage: str, turn: int = 1, due: bool = False, **where: str):
    """Put pieces on spaces (``r1="37"``, ``c1="40"``, ``laser1="39"``); Empire pieces not in
    the state are made (Cobras, Vaj Korsen, Batteries); the drawn Batteries not named are
    dropped. Sets the stage and turn. Unless ``due``, the Flights of the turns played so far
    count as entered (those with no piece named are taken as destroyed), so no Flight is
    due in step 1."""
    s.stage, s.turn, s.drawn = stage, turn, {}
    for pid, space in where.items():
        if pid not in s.pieces:
            kind = KINDS["vk" if pid == "vk" else pid.rstrip("0123456789")]
            s.pieces[pid] = {"kind": kind, "side": EMPIRE, "space": None, "status": "map"}
            if kind == "cobra":
                s.cup["cobra"] -= 1
            if kind == "korsen":
                s.cup["korsen"] = 0
        s.pieces[pid].update(space=space, status="map")
    if not due:
        for f in FLIGHTS[:min(4, turn)]:
            mine = [r for r in s.pieces.values() if r.get("flight") == f]
            if all(r["status"] == "off" for r in mine):
                for r in mine:
                    r["status"] = "destroyed"
    s.pieces = dict(sorted(s.pieces.items()))
    return s


def role_state(s, role):
    parts = rs.dump(s)
    return rs.load(Parts(parts.public, {role: parts.secret[role]}, {}))


def play(s, role, text, public=(), hidden=(), first_line=1):
    """Send ``text`` from ``role`` for the current window: ``(check problems, resolution)``;
    every queued die must be used."""
    w = rs.window(s)
    orders, problems = rs.parse(role, w, text, first_line)
    assert not problems, [str(p) for p in problems]
    checked = rs.check(role_state(s, role), role, orders)
    pub, hid = Dice(*public), Dice(*hidden)
    res = rs.resolve(s, {role: orders}, Chance(pub, hid))
    assert not pub.queue and not hid.queue, (pub.queue, hid.queue)
    res.public_log, res.hidden_log = pub.log, hid.log
    return [str(p) for p in checked], res


def texts(res):
    return [e.text for e in res.events]


# -- How to Attack -------------------------------------------------------------------------------

@pytest.mark.parametrize("dice,destroyed", [((3, 3), True), ((3, 4), True), ((4, 4), False)])
def test_rulebook_example_cobra_attacks_eagle(dice, destroyed):
    """How to Attack, EXAMPLE: a Cobra (Attack A) attacks an Eagle (Target B) 2 spaces away:
    the A column, row B, is 7; a roll of 6 (and of 7) destroys the Eagle, an 8 does not."""
    s, _ = new_game()
    position(s, "empire-move", c1="40", r1="42")
    problems, res = play(s, EMPIRE, "attack c1 r1", public=dice)
    assert problems == [] and res.problems == {}
    assert res.public_log[0][1] == "Cobra c1 attacks Eagle r1 (needs 7)"
    assert [v for _, _, v in res.public_log] == list(dice)
    assert (s.pieces["r1"]["status"] == "destroyed") is destroyed
    if destroyed:
        assert s.pieces["r1"]["space"] is None  # removed from the game (Destroyed Pieces)


def test_range_exactly_allowed_one_more_refused():
    """How to Attack 1: spaces counted to the Target, its space included, the Attacker's not;
    a Cobra's Range is 3 (Playing Piece Reference): 3 spaces away may be attacked, 4 not."""
    s, _ = new_game()
    position(s, "empire-move", c1="37", r1="40", r2="41")  # 38, 39, 40: 3 spaces; 41: 4
    problems, res = play(s, EMPIRE, "attack c1 r1", public=(6, 6))
    assert problems == [] and res.problems == {}
    s, _ = new_game()
    position(s, "empire-move", c1="37", r2="41")
    problems, res = play(s, EMPIRE, "attack c1 r2")
    assert len(problems) == 1 and "beyond its Range of 3" in problems[0]
    assert "How to Attack 1" in str(res.problems[EMPIRE][0])
    assert s.pieces["r2"]["status"] == "map"


def test_a_piece_in_the_same_space_is_at_range_0():
    """README reading 5 (How to Move 6 'Each player can have only one piece'): an Arcturan
    and an Empire piece may share a space; the range is then 0 (How to Attack 1)."""
    s, _ = new_game()
    position(s, "arcturan", r1="38", c1="40")
    problems, _res = play(s, ARCTURAN, "move r1 39 40 attack c1", public=(1, 1))
    assert problems == [] and s.pieces["r1"]["space"] == "40"
    assert s.pieces["c1"]["status"] == "destroyed"  # Eagle A vs Cobra A: 8; rolled 2


# -- How to Move ---------------------------------------------------------------------------------

def test_path_through_a_friendly_piece_refused():
    """How to Move 6 and README reading 6: a piece may not pass through a space holding a
    piece of its own side; the path stops before it."""
    s, _ = new_game()
    position(s, "arcturan", r1="37", r2="38")
    problems, _res = play(s, ARCTURAN, "move r1 38 39")
    assert len(problems) == 1 and "How to Move 6" in problems[0]
    assert s.pieces["r1"]["space"] == "37"


def test_path_through_an_enemy_piece_allowed():
    """README reading 6: passing through enemy pieces is allowed (stacking is per player)."""
    s, _ = new_game()
    position(s, "arcturan", r1="37", c1="38")
    problems, res = play(s, ARCTURAN, "move r1 38 39")
    assert problems == [] and res.problems == {}
    assert s.pieces["r1"]["space"] == "39"
    assert texts(res) == ["Eagle r1 moves 37-38-39."]


def test_movement_allowance_exceeded_refused():
    """How to Move: 'Each piece can move a number of spaces equal to its Movement Rating'; an
    Eagle's is 5 (Playing Piece Reference): a sixth space is refused, the Eagle stops after 5."""
    s, _ = new_game()
    position(s, "arcturan", r1="37")
    problems, _res = play(s, ARCTURAN, "move r1 38 39 40 41 42 43")
    assert len(problems) == 1 and "Movement Rating of 5" in problems[0]
    assert s.pieces["r1"]["space"] == "42"


def test_falcon_moves_six():
    """Playing Piece Reference: a Falcon's Movement Rating is 6 (r5 is a Falcon: the red
    Flight is 4 Eagles then 3 Falcons, data.toml flights.red)."""
    s, _ = new_game()
    position(s, "arcturan", r5="37")
    problems, _res = play(s, ARCTURAN, "move r5 38 39 40 41 42 43")
    assert problems == [] and s.pieces["r5"]["space"] == "43"


def test_steps_must_be_next_to_each_other_and_on_the_map():
    """How to Move 1 (space by space) and 4 (pieces can't leave the map)."""
    s, _ = new_game()
    position(s, "arcturan", r1="1")
    problems, _ = play(s, ARCTURAN, "move r1 0")
    assert "pieces can't leave it" in problems[0]
    s, _ = new_game()
    position(s, "arcturan", r1="1")
    problems, _ = play(s, ARCTURAN, "move r1 3")
    assert "space by space" in problems[0]


def test_fighter_stops_to_attack_then_finishes_moving():
    """How to Move 3: a Fighter may stop to attack and then finish moving."""
    s, _ = new_game()
    position(s, "arcturan", r1="37", c1="41")
    problems, res = play(s, ARCTURAN, "move r1 38 attack c1 39 40", public=(2, 3))
    assert problems == [] and res.problems == {}
    assert s.pieces["r1"]["space"] == "40" and s.pieces["c1"]["status"] == "destroyed"
    assert [e.kind for e in res.events] == ["move", "attack", "move"]


def test_one_attack_a_turn_for_an_ordinary_fighter():
    """How to Attack: 'use a piece he is moving to attack any one enemy piece'."""
    s, _ = new_game()
    position(s, "arcturan", r1="37", c1="39", c2="40")
    problems, _ = play(s, ARCTURAN, "move r1 attack c1 38 attack c2", public=(6, 6))
    assert len(problems) == 1 and "already made its 1 attack" in problems[0]


def test_an_attack_out_of_range_is_not_used_up():
    """How to Attack 1: 'If this number is greater than the Range ... the attack can't take
    place (the Attacker can keep moving, if his Movement Rating allows, or can attack another
    piece)'. An Eagle (Range 4) on 37 tries c1 on 42 (5 spaces), moves on one space and
    attacks c2 on 41 (3 spaces): that attack is still its one attack of the turn."""
    s, _ = new_game()
    position(s, "arcturan", r1="37", c1="42", c2="41")
    problems, res = play(s, ARCTURAN, "move r1 attack c1 38 attack c2", public=(1, 1))
    assert len(problems) == 1 and "beyond its Range of 4" in problems[0]
    assert s.pieces["c2"]["status"] == "destroyed"  # Eagle A vs Cobra A: 8; rolled 2


def test_a_battery_whose_fire_cannot_take_place_may_still_move():
    """How to Attack 1 and How to Move 5b: a Battery that did not attack (its target was out
    of range) has not attacked, so it may still move along a Tunnel that turn."""
    s, _ = new_game()
    position(s, "empire-move", pompom1="39", r1="45")  # 39 -> 45: 6 spaces, Pompom Range 3
    problems, res = play(s, EMPIRE, "fire pompom1 r1\ntunnel pompom1 41")
    assert len(problems) == 1 and "beyond its Range of 3" in problems[0]
    assert s.pieces["pompom1"]["space"] == "41"


def test_a_piece_moved_cannot_be_ordered_again():
    """How to Move 1: once a piece is moved the player can't go back to it."""
    s, _ = new_game()
    position(s, "arcturan", r1="37", c1="39")
    problems, _ = play(s, ARCTURAN, "move r1 38\nattack r1 c1")
    assert len(problems) == 1 and "How to Move 1" in problems[0]


def test_korsen_attacks_twice_same_or_different_targets():
    """Vaj Korsen: two attacks a Turn, the same Target twice or two different Targets. His
    Attack Rating C against an Eagle (B) needs 9 and against a Falcon (A) 10."""
    s, _ = new_game()
    position(s, "empire-move", vk="40", r1="41", r5="42")
    problems, res = play(s, EMPIRE, "attack vk r1 r5", public=(5, 5, 5, 5))
    assert problems == [] and res.problems == {}
    whys = [w for _, w, _ in res.public_log]
    assert whys[0].endswith("(needs 9)") and whys[2].endswith("(needs 10)")
    assert s.pieces["r1"]["status"] == "map" and s.pieces["r5"]["status"] == "destroyed"
    s, _ = new_game()
    position(s, "empire-move", vk="40", r1="43")
    problems, res = play(s, EMPIRE, "move vk 41 attack r1 42 attack r1", public=(6, 6, 1, 2))
    assert problems == [] and s.pieces["r1"]["status"] == "destroyed"
    s, _ = new_game()
    position(s, "empire-move", vk="40", r1="43")
    problems, _ = play(s, EMPIRE, "attack vk r1 r1", public=(6, 6, 4, 5))
    assert problems == [] and s.pieces["r1"]["status"] == "destroyed"
    s, _ = new_game()
    position(s, "empire-move", vk="40", r1="43")
    problems, _ = play(s, EMPIRE, "move vk attack r1 attack r1 attack r1", public=(6, 6) * 2)
    assert len(problems) == 1 and "already made its 2 attack" in problems[0]


# -- Batteries (How to Move 5, How to Attack) ---------------------------------------------------

def test_battery_tunnel_move_one_space_to_an_empty_battery_space():
    """How to Move 5a: one Tunnel link to an empty Battery Space, not through one into
    another (39-41-44 is the outer ring of Tunnels of map.toml)."""
    s, _ = new_game()
    position(s, "empire-move", laser1="39")
    problems, _ = play(s, EMPIRE, "tunnel laser1 41")
    assert problems == [] and s.pieces["laser1"]["space"] == "41"
    s, _ = new_game()
    position(s, "empire-move", laser1="39")
    problems, _ = play(s, EMPIRE, "tunnel laser1 44")
    assert "not a Battery Space joined to 39 by a Tunnel" in problems[0]
    s, _ = new_game()
    position(s, "empire-move", laser1="39")
    problems, _ = play(s, EMPIRE, "move laser1 40")
    assert "How to Move 5a" in problems[0]


def test_battery_moves_or_attacks_not_both():
    """How to Move 5b: a Battery can't attack in a Turn in which it moves, and (How to Attack)
    only Batteries that don't move can attack."""
    s, _ = new_game()
    position(s, "empire-move", laser1="39", r1="42")
    problems, _ = play(s, EMPIRE, "tunnel laser1 41\nfire laser1 r1")
    assert len(problems) == 1 and "already tunnelled" in problems[0]
    s, _ = new_game()
    position(s, "empire-move", laser1="39", r1="42")
    problems, _ = play(s, EMPIRE, "fire laser1 r1\ntunnel laser1 41", public=(6, 6))
    assert len(problems) == 1 and "already fired" in problems[0]
    assert s.pieces["laser1"]["space"] == "39"


def test_battery_that_fired_blocks_the_tunnel():
    """How to Attack, last paragraph: 'A Battery may be unable to move into a space if the
    Battery in that space has attacked and, so, can't move to make room'. The order matters."""
    s, _ = new_game()
    position(s, "empire-move", laser1="41", laser2="39", r1="43")
    problems, _ = play(s, EMPIRE, "tunnel laser1 44\ntunnel laser2 41")
    assert problems == [] and s.pieces["laser2"]["space"] == "41"
    s, _ = new_game()
    position(s, "empire-move", laser1="41", laser2="39", r1="43")
    problems, res = play(s, EMPIRE, "fire laser1 r1\ntunnel laser2 41", public=(6, 6))
    assert len(problems) == 1 and "41 holds laser1" in problems[0]
    assert s.pieces["laser2"]["space"] == "39" and res.problems[EMPIRE]


def test_batteries_attack_at_any_time_during_the_move():
    """How to Attack: 'at any time during his movement, a player may decide to attack with
    one or more Batteries' (a Laser: Attack B, Range 6, data.toml stand-in)."""
    s, _ = new_game()
    position(s, "empire-move", laser1="39", c1="45", c2="48", r1="42", r2="47")
    problems, res = play(s, EMPIRE, "move c1 46\nfire laser1 r1\nattack c2 r2",
                         public=(1, 1, 1, 1))
    assert problems == [] and [e.kind for e in res.events] == ["move", "attack", "attack"]


# -- Flights (How to Play 1, Federation Flights) ------------------------------------------------

def test_flight_enters_seven_pieces_one_edge_one_per_space():
    """How to Play 1 and Federation Flights: all 7 pieces of one Flight on spaces of one map
    edge, one piece per space."""
    s, _ = new_game()
    position(s, "arcturan", 1, due=True)
    problems, res = play(s, ARCTURAN, "enter blue west " + " ".join(WEST[:7]))
    assert problems == [] and res.problems == {}
    assert [s.pieces[f"b{i}"]["space"] for i in range(1, 8)] == list(WEST[:7])


@pytest.mark.parametrize("spaces,why", [
    (WEST[:6], "expected 7 different spaces"),
    (WEST[:6] + ("2",), "not a space of the west edge"),
    (WEST[:6] + (WEST[0],), "expected 7 different spaces"),
])
def test_flight_entry_refused(spaces, why):
    """Federation Flights: 'placing all 7 pieces ... in any map-edge space of the same
    map-edge'; one piece per space (How to Play 1)."""
    s, _ = new_game()
    position(s, "arcturan", 1, due=True)
    problems, _ = play(s, ARCTURAN, "enter blue west " + " ".join(spaces),
                       public=(1,), )  # the refused entry is replaced by the NMR entry
    assert any(why in p for p in problems), problems


def test_flight_entry_space_with_an_arcturan_piece_refused():
    """Federation Flights: a map-edge space 'that doesn't have another Arcturan Starfighter'."""
    s, _ = new_game()
    position(s, "arcturan", 2, due=True, r1="1")
    problems, _ = play(s, ARCTURAN, "enter blue west " + " ".join(WEST[:7]), public=(1,))
    assert any("without an Arcturan Starfighter" in p for p in problems)


def test_one_flight_a_turn_none_after_four():
    """Federation Flights: 'He can never add more than one Flight in a Turn'; after 4 Turns no
    more pieces enter (How to Play 1: 'If all 4 Flights are on the map, this step is skipped')."""
    s, _ = new_game()
    position(s, "arcturan", 1, due=True)
    body = ("enter blue west " + " ".join(WEST[:7]) + "\nenter red north "
            + " ".join(str(i) for i in range(2, 9)))
    problems, _ = play(s, ARCTURAN, body)
    assert len(problems) == 1 and "no new Flight may enter this turn" in problems[0]
    assert s.pieces["r1"]["status"] == "off"
    s, _ = new_game()
    position(s, "arcturan", 5, r1="37", b1="38", g1="39", y1="40")
    assert not s.flight_due()
    problems, _ = play(s, ARCTURAN, "enter red west " + " ".join(WEST[:6]))
    assert problems == [] or "Federation Flights" in problems[0]
    assert s.flights_in() == ["red", "blue", "green", "yellow"]


def test_nmr_enters_the_next_flight_on_drawn_edge_and_spaces():
    """How to Play 1 is a must: without orders the next Flight (red first) enters on an edge
    drawn on the public stream (README "NMR"); the queued shuffle keeps the edge's order."""
    s, _ = new_game()
    position(s, "arcturan", 1, due=True)
    res = rs.resolve(s, {}, Chance(Dice(4), Dice()))  # edges sorted: north east south west
    assert [s.pieces[f"r{i}"]["space"] for i in range(1, 8)] == list(WEST[:7])
    assert res.problems == {}


# -- Step 3 (How to Play 3, Discovering Hull Markers, Vaj Korsen) --------------------------------

def test_look_turns_three_markers_face_up():
    """How to Play 3a and Discovering Hull Markers: the Empire looks at 3 Hull Markers; they
    stay face up for both players."""
    s, _ = new_game(explosion=2)
    position(s, "empire", 1)
    problems, res = play(s, EMPIRE, "look h1 h3 100")
    assert problems == []
    assert (s.hull["54"], s.hull["76"], s.hull["100"]) == ("blank", "blank", "blank")
    assert s.hull["69"] == "down" and len(texts(res)) == 3


def test_empire_looking_at_the_explosion_does_not_end_the_game():
    """Discovering Hull Markers: 'If the Hull Marker with the explosion is turned face-up by the
    Empire Player during step 3, the game continues'; it may still be attacked (README
    reading 8) and a hit then wins (How to Win)."""
    s, _ = new_game(explosion=2)
    position(s, "empire", 1, r1="69")
    problems, _ = play(s, EMPIRE, "look h1 h2 h3")
    assert problems == []
    assert s.hull["69"] == "explosion" and rs.outcome(s) is None and s.stage == "arcturan"
    _problems, _res = play(s, ARCTURAN, "torpedo r1\nenter blue west " + " ".join(WEST[:7]),
                         public=(1, 2))
    assert rs.outcome(s).winners == (ARCTURAN,)


def test_look_or_launch_never_both():
    """How to Play 3: 'He can't do both in the same Turn'."""
    s, _ = new_game()
    position(s, "empire", 1)
    problems, _res = play(s, EMPIRE, "look h1 h2 h3\nlaunch")
    assert len(problems) == 1 and "never both" in problems[0] and "line 1" in problems[0]
    assert s.cup == {"cobra": 20, "korsen": 1}


def test_look_needs_three_face_down_markers():
    """How to Play 3a: 'Turn over 3 Hull Markers'; a face-up one cannot be looked at again."""
    s, _ = new_game()
    position(s, "empire", 1)
    s.hull["54"] = "blank"
    problems, _ = play(s, EMPIRE, "look h1 h2 h3")
    assert "not a face-down Hull Marker" in problems[0]
    s, _ = new_game()
    position(s, "empire", 1)
    problems, _ = play(s, EMPIRE, "look h1 h2")
    assert "expected 3 different face-down" in problems[0]


def test_launch_draws_on_the_hidden_stream_for_each_free_launcher():
    """How to Play 3b: 1 piece from the cup for each Launcher without a Wreck Marker or a Cobra;
    the cup is drawn on the hidden stream (README "Who sees what")."""
    s, _ = new_game()
    position(s, "empire", 1, c1="52")
    s.wrecks.append("57")
    problems, res = play(s, EMPIRE, "launch", hidden=(1, 1))  # 19 Cobras + Korsen: draw 1
    assert problems == []
    assert s.at("112", EMPIRE) == "c2" and s.at("117", EMPIRE) == "c3"
    assert s.at("57", EMPIRE) is None and s.cup == {"cobra": 17, "korsen": 1}
    assert [w for _, w, _ in res.hidden_log] == ["a draw from the fighter cup for Launcher 3",
                                                 "a draw from the fighter cup for Launcher 4"]


def test_korsen_drawn_put_back_for_a_cobra():
    """Vaj Korsen: drawn for a Launcher he may be put back and a Cobra taken instead, while
    Cobras remain (README reading 10); without return-korsen he is placed."""
    s, _ = new_game()
    position(s, "empire", 1, c1="57", c2="112", c3="117")  # one free Launcher: 52
    _problems, _ = play(s, EMPIRE, "launch return-korsen", hidden=(18,))  # 17 Cobras, vk 18th
    assert s.at("52", EMPIRE) == "c4" and s.cup == {"cobra": 16, "korsen": 1}
    s, _ = new_game()
    position(s, "empire", 1, c1="57", c2="112", c3="117")
    play(s, EMPIRE, "launch", hidden=(18,))
    assert s.at("52", EMPIRE) == "vk" and s.cup["korsen"] == 0


def test_launch_wait_opens_a_step_4_window():
    """README "The turn by mail": `launch wait` shows the pieces drawn before step 4."""
    s, _ = new_game()
    position(s, "empire", 1)
    _problems, _ = play(s, EMPIRE, "launch wait", hidden=(1, 1, 1, 1))
    assert s.stage == "empire-move" and rs.window(s).phase == "empire-move"


def test_step_3_skipped_when_neither_is_possible():
    """How to Play 3: 'If all the Hull Markers that can be turned face-up are face-up or if all
    Starfighters that can be placed on Launchers have been placed, skip this step' (README
    reading 7: skipped when neither choice is possible)."""
    s, _ = new_game()
    position(s, "empire", 1, c1="52", c2="57", c3="112", c4="117")
    s.hull = {h: "blank" for h in HULLS}
    template = rs.template(s, EMPIRE)
    assert "look HULL" not in template and "launch [" not in template
    assert "step 3 is skipped" in template
    problems, res = play(s, EMPIRE, "")
    assert problems == [] and res.events == []
    s, _ = new_game()
    position(s, "empire", 1, c1="52", c2="57", c3="112", c4="117")
    s.hull = {h: "blank" for h in HULLS}
    problems, res = play(s, EMPIRE, "look h1 h2 h3")  # answered with why, not as unknown
    assert "step 3 is skipped" in problems[0]


def test_empire_nmr_looks_at_the_lowest_numbered_markers():
    """README "NMR": an Empire that sends nothing looks at the lowest-numbered face-down Hull
    Markers (step 3 is a must)."""
    s, _ = new_game(explosion=8)
    position(s, "empire", 1)
    rs.resolve(s, {}, Chance(Dice(), Dice()))
    assert [s.hull[h] for h in HULLS] == ["blank"] * 3 + ["down"] * 5


# -- Step 5 and the end (How to Win) ------------------------------------------------------------

def test_torpedo_hit_on_the_explosion_wins():
    """How to Win: a hit on the explosion's Hull Marker in step 5 destroys the Novaship. Hull
    Markers have Target Rating E; an Eagle attacks as A: 4 or less (ATTACK TABLE)."""
    s, _ = new_game(explosion=1)
    position(s, "arcturan", 2, r1="54", b1="38")
    problems, res = play(s, ARCTURAN, "torpedo r1\nmove b1 39", public=(2, 2))
    assert problems == [] and res.public_log[0][1].endswith("(needs 4)")
    out = rs.outcome(s)
    assert out.winners == (ARCTURAN,) and rs.window(s) is None
    assert s.pieces["b1"]["space"] == "38"  # the rest of the orders are void


def test_torpedo_hit_on_a_blank_turns_it_face_up_for_good():
    """How to Win: a hit blank Hull Marker is turned over and may not be attacked again."""
    s, _ = new_game(explosion=1)
    position(s, "arcturan", 2, r1="69", r2="1")
    problems, _res = play(s, ARCTURAN, "torpedo r1", public=(1, 3))
    assert s.hull["69"] == "blank" and rs.outcome(s) is None
    position(s, "arcturan", 3, r1="69", r2="1")
    problems, _ = play(s, ARCTURAN, "torpedo r1")
    assert "a face-up blank may not" in problems[0]


def test_torpedo_miss_leaves_the_marker_face_down():
    """How to Win: 'Hull Markers that are attacked, but not hit, are left face-down and can be
    attacked again' (5 is more than the 4 needed)."""
    s, _ = new_game(explosion=1)
    position(s, "arcturan", 2, r1="54", r2="1")
    play(s, ARCTURAN, "torpedo r1", public=(2, 3))
    assert s.hull["54"] == "down" and rs.outcome(s) is None


def test_each_piece_attacks_once_in_step_5():
    """How to Win: 'Each piece may attack once'."""
    s, _ = new_game(explosion=1)
    position(s, "arcturan", 2, r1="54", r2="1")
    problems, _ = play(s, ARCTURAN, "torpedo r1\ntorpedo r1", public=(6, 6))
    assert len(problems) == 1 and "already attacked in step 5" in problems[0]


def test_a_refused_step_5_attack_keeps_the_pieces_one_attack():
    """How to Win: 'Each piece may attack once': an attack refused (here on a Launcher without
    the optional rule) is no attack, so the same piece may then attack its Hull Marker. Found
    by a player's trial: a typo cost the shot at the tube."""
    s, _ = new_game(explosion=1)
    position(s, "arcturan", 2, r1="54", r2="1")
    problems, res = play(s, ARCTURAN, "torpedo r1 launcher\ntorpedo r1", public=(1, 2))
    assert len(problems) == 1 and "launchers=yes" in problems[0]
    assert rs.outcome(s).winners == (ARCTURAN,)  # 3 is at most 4: the explosion is hit


def test_a_move_refused_at_its_first_step_leaves_the_piece_free():
    """How to Move 1: the player 'can't go back' to a piece once he starts moving it; a move
    whose first step is refused never started, so a later order for the piece stands."""
    s, _ = new_game()
    position(s, "arcturan", r1="37")
    problems, res = play(s, ARCTURAN, "move r1 999\nmove r1 38 39")
    assert len(problems) == 1 and "not a space of the map" in problems[0]
    assert s.pieces["r1"]["space"] == "39"


def test_all_28_destroyed_ends_with_an_empire_win():
    """How to Win: 'If all 28 Arcturan pieces have been destroyed ... at the end of a Turn ...
    The Empire Player wins.'"""
    s, _ = new_game()
    position(s, "empire-move", 4, c1="40", r1="42")
    for p, r in s.pieces.items():
        if r["side"] == ARCTURAN and p != "r1":
            r.update(status="destroyed", space=None)
    play(s, EMPIRE, "attack c1 r1", public=(1, 1))
    assert rs.outcome(s).winners == (EMPIRE,) and "28" in rs.outcome(s).reason


def test_pieces_not_yet_entered_keep_the_game_going():
    """How to Win counts all 28 pieces: with Flights still to enter the game goes on."""
    s, _ = new_game()
    position(s, "empire-move", 1, c1="40", r1="42")
    play(s, EMPIRE, "attack c1 r1", public=(1, 1))
    assert rs.outcome(s) is None and s.stage == "arcturan" and s.turn == 2


def test_turn_limit_gives_the_empire_the_win():
    """data.toml rules.turn_limit (stand-in, 20): after turn 20's step 5 the Empire wins
    ('If he doesn't, the Empire Player wins'); the last step 5 is its own window."""
    s, _ = new_game()
    position(s, "empire-move", 20, r1="54")
    play(s, EMPIRE, "")
    assert s.stage == "final" and rs.window(s).phase_id == "20.final"
    play(s, ARCTURAN, "torpedo r1", public=(6, 6))
    assert rs.outcome(s).winners == (EMPIRE,) and "turn limit" in rs.outcome(s).reason
    s, _ = new_game()
    position(s, "empire-move", 20, r1="37")
    play(s, EMPIRE, "")
    assert rs.outcome(s).winners == (EMPIRE,)


# -- Optional rules ------------------------------------------------------------------------------

def test_attacking_launchers_optional():
    """Attacking Launchers (optional): in step 5, Target Rating E; a hit places a Wreck Marker
    and the Launcher takes no more Cobras. Off unless chosen."""
    s, _ = new_game(launchers="yes")
    position(s, "arcturan", 2, r1="52")
    problems, _ = play(s, ARCTURAN, "torpedo r1 launcher", public=(1, 3))
    assert problems == [] and "52" in s.wrecks and "52" not in s.free_launchers()
    s, _ = new_game()
    position(s, "arcturan", 2, r1="52")
    problems, _ = play(s, ARCTURAN, "torpedo r1 launcher")
    assert "launchers=yes is not in force" in problems[0]


def test_attacking_the_sensor_pod_optional():
    """Attacking the Sensor Pod (optional): a hit wrecks it and the Empire may no longer look
    at Hull Markers (it must launch). Without the rule the space is a blank Hull Space: no
    marker, nothing to attack."""
    s, _ = new_game(sensor_pod="yes")
    position(s, "arcturan", 2, r1="79")
    play(s, ARCTURAN, "torpedo r1 sensor-pod", public=(2, 2))
    assert "79" in s.wrecks and not s.may_look()
    assert "look HULL" not in rs.template(s, EMPIRE)
    orders, _ = rs.parse(EMPIRE, rs.window(s), "look h1 h2 h3", 1)
    problems = rs.check(role_state(s, EMPIRE), EMPIRE, orders)
    assert "you may not look now: the Sensor Pod is wrecked" in str(problems[0])
    rs.resolve(s, {}, Chance(Dice(), Dice(1, 1, 1, 1)))  # NMR: must launch
    assert s.cup["cobra"] == 16 and all(s.hull[h] == "down" for h in HULLS)
    s, _ = new_game()
    position(s, "arcturan", 2, r1="79")
    problems, _ = play(s, ARCTURAN, "torpedo r1 sensor-pod")
    assert "sensor_pod=yes is not in force" in problems[0]
    assert "79" not in s.hull


# -- Setup (How to Set Up 4-6) and the commitment -----------------------------------------------

def test_setup_draws_14_batteries_and_sets_7_aside():
    """How to Set Up 4: 14 of the 21 Batteries drawn, the other 7 set aside; the deploy window
    places them, one per Battery Space, 2 left empty."""
    s, _events = new_game()
    assert len(s.drawn) == 14 and sum(s.aside.values()) == 7
    assert rs.window(s).phase_id == "0.deploy"
    rs.resolve(s, {}, Chance(Dice(), Dice()))  # NMR: in board order
    placed = [s.at(sp, EMPIRE) for sp in s.board.group("battery")]
    assert sum(p is not None for p in placed) == 14 and placed[-2:] == [None, None]


def test_commitment_verifies_with_the_revealed_salt_and_space():
    """How to Set Up 5: the Arcturan Player 'keeps this piece until the end of the game when he
    shows it to the Empire Player to verify the location': the setup report publishes
    sha256("pbem-attackforce/1\\n" + salt + "\\n" + space) and the end reveals salt and space."""
    s, events = new_game(explosion=3)
    published = events[0].data["commitment"]
    assert published in events[0].text and events[0].public
    position(s, "arcturan", 2, r1="76", r2="1")
    res = rs.resolve(s, {ARCTURAN: rs.parse(ARCTURAN, rs.window(s), "torpedo r1", 1)[0]},
                     Chance(Dice(1, 1), Dice()))
    reveal = rs.dump(s).public["reveal"]
    assert reveal["space"] == "76" and reveal["salt"] == "00" * 16
    digest = hashlib.sha256(("pbem-attackforce/1\n" + reveal["salt"] + "\n"
                             + reveal["space"]).encode()).hexdigest()
    assert digest == published
    assert any(e.kind == "reveal" and e.public and reveal["salt"] in e.text for e in res.events)


def test_parse_errors_quote_the_line_and_its_number():
    """Every unreadable line is a problem naming its line number and quoting it."""
    s, _ = new_game()
    position(s, "arcturan", 1)
    body = "move r1\n# a comment\nfly r1 38\nenter purple west 1 13"
    orders, problems = rs.parse(ARCTURAN, rs.window(s), body, 10)
    said = [str(p) for p in problems]
    assert said[0].startswith("line 10: 'move r1': ")
    assert said[1].startswith("line 12: 'fly r1 38': unknown order 'fly'")
    assert said[2].startswith("line 13: 'enter purple west 1 13': 'purple' is not a Flight")
    assert orders == []


def test_the_same_map_read_under_two_names_round_trips_as_itself():
    """A bug found by the conformance test: the board is stored whole in the public part; a
    game on the stand-in map read under another source name (a referee's ``--map`` copy of
    map.toml) has the same digest but another ``to_dict``, and must load as itself."""
    from pbem.games.attackforce.data import board_text

    data = rs.load_data(None)
    for board in (rs.load_map(board_text(), "copy.toml"), rs.load_map(None, "")):
        s, _ = rs.setup([ARCTURAN, EMPIRE], {}, data, board,
                        Chance(Dice(), Dice(1, *[1] * 16)))
        parts = rs.dump(s)
        assert rs.dump(rs.load(parts)).public["board"] == parts.public["board"]


def test_messages_name_pieces_as_the_player_does():
    """Found by a player's trial: a check after `launch` named a placeholder (`launch-52`), and
    orders for a destroyed piece said only that it was not on the map. The piece on a Launcher
    is named by its Launcher; a destroyed piece is said to be destroyed (Destroyed Pieces)."""
    s, _ = new_game()
    position(s, "empire", 1, r1="45", laser1="39")
    s.pieces["r2"].update(status="destroyed")
    orders, _ = rs.parse(EMPIRE, rs.window(s), "launch\nmove 52 53 attack r1\nfire 39 r2", 1)
    problems = [str(p) for p in rs.check(role_state(s, EMPIRE), EMPIRE, orders)]
    # 53 to 45: 4 columns and 1 row; judged with Vaj Korsen's Range of 4 (README, As built)
    assert "r1 is 5 spaces from the piece on Launcher 1 (52) at 53" in problems[0]
    assert "r2 was destroyed" in problems[1], problems
