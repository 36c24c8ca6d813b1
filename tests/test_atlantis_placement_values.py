"""Values under people at placement (Atlantis rulebook, *Preparing to Play* 2; issue 9,
"Rulings to correct").

*Preparing to Play* 2: "In turn each player puts one person on the board. [...] after this
initial placement players cannot look at the numbers under their own people, except as they
move them." So while placing, each player knows the numbers of the people they put down and
chooses where each goes; afterwards nobody (the owner included) sees a value except while its
owner moves that person. *Contents*: each player's ten numbered people carry "1x3. 2x2, 3x2,
4,5,6".

Expected values here come from the rulebook's list and from the orders written in each test,
never from the program's own output.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

from gameplay import new_game, play
from test_atlantis_helpers import chance, orders

from pbem.engine.gamestate import GameContext
from pbem.games.atlantis import ruleset
from pbem.games.atlantis.bots import bot_orders
from pbem.games.atlantis.orders import parse
from pbem.games.atlantis.state import dump, view
from pbem.store import repo

RULEBOOK_VALUES = [1, 1, 1, 2, 2, 3, 3, 4, 5, 6]   # Contents: "1x3. 2x2, 3x2, 4,5,6"
VALUE_CLAUSE = re.compile(r"\b([a-z]+)(\d+)\b([^;.]*?)\bvalue (\d+)")


def new(seats=("red", "green")):
    data = ruleset.load_data()
    m = ruleset.load_map(None, "stand-in")
    s, _ = ruleset.setup(list(seats), {}, data, m, chance())
    return s


def ten(entries):
    """``entries`` padded with plain outer-ring hexes to ten people entries."""
    filler = ["0405", "0406", "0407", "0408", "0505", "0506", "0507", "0508", "0509", "0604"]
    return " ".join(list(entries) + filler[:10 - len(entries)])


# -- order syntax ---------------------------------------------------------------------------------

def test_people_entries_may_say_which_value_goes_where():
    """Preparing to Play 2: the owner places each numbered person knowing its number, so a
    ``people`` entry may carry the value (``HEX=VALUE``); a plain ``HEX`` leaves it open."""
    w = ruleset.window(new())
    got, problems = parse("red", w, "people 0707=6 0606 0608=1\npeople 0609=5", 1)
    assert problems == []
    assert [(o.args["hexes"], o.args["values"]) for o in got] == [
        (["0707", "0606", "0608"], [6, None, 1]), (["0609"], [5])]


def test_a_value_that_is_not_a_number_is_a_syntax_problem():
    w = ruleset.window(new())
    got, problems = parse("red", w, "people 0707=six", 1)
    assert got == [] and len(problems) == 1
    assert problems[0].rule == "Atlantis: Preparing to Play 2"
    assert "0707=6" in problems[0].why


def test_a_value_nobody_holds_is_reported_on_arrival():
    """Contents: the values are 1 to 6 only; 7 is no person's number."""
    s = new()
    red = orders("red", f"people {ten(['0707=7'])}\nship 0404\nmonster 0202", s)
    problems = ruleset.check(s, "red", red)
    assert [p.rule for p in problems] == ["Atlantis: Preparing to Play 2"]
    assert "no person of yours has the value 7" in problems[0].why


# -- resolution -----------------------------------------------------------------------------------

def test_each_chosen_value_goes_where_its_owner_said():
    """Preparing to Play 2: red puts the 6 on 0707 and the 5 on 0606; the people are numbered
    in placement order (README), so red1 is the 6 on 0707 and red2 the 5 on 0606. The other
    eight values are dealt to red3..red10 by the hidden shuffle (here a shuffle that keeps the
    order), i.e. the rulebook list without one 6 and one 5."""
    s = new()
    red = orders("red", f"people {ten(['0707=6', '0606=5'])}\nship 0404\nmonster 0202", s)
    green = orders("green", "people 0808=1 0808=2 0808=3\nship 1106\nmonster 1212", s)
    ruleset.resolve(s, {"red": red, "green": green}, chance())
    assert (s.people["red1"].hex, s.values["red1"]) == ("0707", 6)
    assert (s.people["red2"].hex, s.values["red2"]) == ("0606", 5)
    rest = list(RULEBOOK_VALUES)
    rest.remove(6)
    rest.remove(5)
    assert [s.values[f"red{i}"] for i in range(3, 11)] == rest
    assert [s.values[f"green{i}"] for i in (1, 2, 3)] == [1, 2, 3]
    for role in ("red", "green"):
        assert sorted(s.values[f"{role}{i}"] for i in range(1, 11)) == RULEBOOK_VALUES


def test_a_full_tile_passes_the_value_to_the_next_entry_naming_it():
    """Land Movement / Preparing to Play 2: a tile holds 3 people. Red's three 1s fill 0707,
    so the entry 0707=6 is dropped as full and the next entry naming the 6 (0606=6) places it;
    an entry naming a value already placed (0608=6) is dropped too, like a full tile."""
    s = new()
    red = orders("red", "people 0707=1 0707=1 0707=1 0707=6 0606=6 0608=6 0609\n"
                        "ship 0404\nmonster 0202", s)
    ruleset.resolve(s, {"red": red}, chance())
    assert [s.people[f"red{i}"].hex for i in (1, 2, 3)] == ["0707"] * 3
    assert [s.values[f"red{i}"] for i in (1, 2, 3)] == [1, 1, 1]
    assert (s.people["red4"].hex, s.values["red4"]) == ("0606", 6)
    assert s.people["red5"].hex == "0609"              # 0608=6 was skipped: the 6 is placed
    assert s.values["red5"] != 6


def test_nmr_gets_the_hidden_deal_and_sees_it_in_the_placement_report():
    """README, "Defaults when orders are missing": a player who sends no placement orders has
    every piece placed by the public die and every value dealt by the hidden dice. With a
    shuffle that keeps the order, red1..red10 carry the rulebook list in order."""
    s = new()
    res = ruleset.resolve(s, {}, chance())
    assert [s.values[f"red{i}"] for i in range(1, 11)] == RULEBOOK_VALUES
    mine = [e for e in res.events if e.kind == "values" and "red" in e.audience]
    assert len(mine) == 1 and mine[0].audience == ("red",)
    shown = {f"{r}{n}": int(v) for r, n, _, v in VALUE_CLAUSE.findall(mine[0].text)}
    assert shown == {f"red{i}": v for i, v in enumerate(RULEBOOK_VALUES, start=1)}
    assert "dealt by the hidden dice" in mine[0].text


# -- who sees what --------------------------------------------------------------------------------

def test_placement_report_lines_are_the_owners_alone_and_the_state_forgets_them():
    """Preparing to Play 2: the owner knew the numbers while placing (a private line of their
    placement report, naming their own people only); "after this initial placement players
    cannot look at the numbers": the values are in the referee part, in no secret part and no
    view, and no public event or event data names one."""
    s = new()
    red = orders("red", f"people {ten(['0707=6'])}\nship 0404\nmonster 0202", s)
    res = ruleset.resolve(s, {"red": red}, chance())
    for e in res.events:
        if e.public:
            assert not VALUE_CLAUSE.search(e.text), e.text
            assert "values" not in e.data and "value" not in json.dumps(e.data)
        else:
            assert len(e.audience) == 1
            assert {r for r, *_ in VALUE_CLAUSE.findall(e.text)} <= set(e.audience)
    red_line = next(e for e in res.events if e.kind == "values" and e.audience == ("red",))
    assert "red1 on 0707 value 6" in red_line.text
    parts = dump(s)
    assert parts.referee["values"]["red1"] == 6
    assert all(sec["seen"] == {} for sec in parts.secret.values())
    assert "values" not in parts.public and parts.public["reveal"] is None
    assert all(set(d) == {"owner", "where", "hex", "ship"}
               for d in parts.public["people"].values())
    for role in ("red", "green", "*"):
        assert view(s, role)["known_values"] == {}


def _full_state(referee, game_id):
    with referee.db.read() as s:
        return GameContext.load(s, referee.sealer, repo.get_game(s, game_id)).state


def test_through_the_engine_only_the_owner_ever_sees_a_value_before_the_end(referee, clock):
    """A whole game by mail (bots choose where their values go). Preparing to Play 2:
    - the owner's placement report lists each of their people with the value the referee holds;
    - no other player's report and no public report ever ties someone else's person to a
      value, and the public log names no value, until the game ends;
    - after placement an owner's report shows a value only for a person the owner has moved
      (README, "Who sees what");
    - the public log's setup reveal at the end holds exactly the values placed."""
    roles = ("red", "green", "blue")
    players = new_game(referee, "atlantis", roles, "pv")
    placed = {}
    moved: dict = {r: set() for r in roles}

    def after(resolved):
        state = _full_state(referee, "pv")
        over = state.stage == "over"
        if resolved.phase == "0.setup":
            placed.update(state.values)
        for reader in roles + ("*",):
            for fmt in ("text", "html"):
                body = referee.report("pv", reader, fmt, phase=resolved.phase)
                body = " ".join(re.sub(r"<[^>]+>", " ", body).split())
                for role, n, _, v in VALUE_CLAUSE.findall(body):
                    pid = f"{role}{n}"
                    if pid not in state.people or over:
                        continue
                    assert reader == role, (reader, resolved.phase, pid)
                    assert int(v) == placed[pid]
                    if resolved.phase != "0.setup":
                        assert pid in moved[role], (resolved.phase, pid)
                if resolved.phase == "0.setup" and reader != "*" and fmt == "text":
                    shown = {f"{r}{n}": int(v) for r, n, _, v in VALUE_CLAUSE.findall(body)
                             if r == reader}
                    assert shown == {pid: v for pid, v in placed.items()
                                     if pid.startswith(reader) and pid[len(reader):].isdigit()}
        if not over:
            for line in referee.log_lines("pv"):
                obj = json.loads(line)
                if obj["type"] == "event":
                    assert not VALUE_CLAUSE.search(obj["text"]), obj["text"]
                    assert "values" not in obj.get("data", {})

    bot_rng = random.Random(7)

    def orders_for(role, window):
        """The bot's orders, noting every person the owner moves (before the phase resolves,
        so a value shown in the next report can be matched against the moves sent)."""
        v, w = referee.view_and_window("pv", role)
        body = ruleset.bot_orders(v, w, role, bot_rng)
        for m in re.finditer(r"^(?:walk|swim|board|ashore) ([a-z]+\d+)", body, re.MULTILINE):
            moved[role].add(m.group(1))
        return body

    play(referee, clock, players, "pv", random.Random(5), orders_for=orders_for,
         after_phase=after)
    lines = [json.loads(x) for x in referee.log_lines("pv")]
    reveal = next(o for o in lines if o["type"] == "setup-reveal")
    assert reveal["hidden"]["values"] == placed
    for role in roles:
        assert sorted(v for pid, v in placed.items()
                      if re.fullmatch(rf"{role}\d+", pid)) == RULEBOOK_VALUES


# -- the bot --------------------------------------------------------------------------------------

def test_the_bot_places_every_value_once_highest_nearest_a_safe_island():
    """The bot knows its numbers while placing (Preparing to Play 2) and names a value for
    each of its ten entries: the rulebook's ten values once each, the higher values on tiles
    no farther from a safe island than the lower ones."""
    s = new()
    w = ruleset.window(s)
    body = bot_orders(view(s, "red"), w, "red", random.Random(3))
    got, problems = parse("red", w, body, 1)
    assert problems == []
    people = [o for o in got if o.verb == "people"]
    entries = [(h, v) for o in people for h, v in zip(o.args["hexes"], o.args["values"])]
    assert Counter(v for _, v in entries) == Counter(RULEBOOK_VALUES)
    hm = s.hexmap

    def to_safe(h):
        return min(hm.distance(h, x) for x in ("0101", "1301", "0113", "1313"))

    for h1, v1 in entries:
        for h2, v2 in entries:
            if v1 > v2:
                assert to_safe(h1) <= to_safe(h2), (h1, v1, h2, v2)
