"""Random Olympica games over every scenario and optional rule (4.0-4.3, 5.4, 13.6, 16.2), at
the ruleset level with the engine's own dice (pbem.dice.DiceStream), the state dumped to JSON
and loaded again between windows as the engine does.

Each game must end with an outcome, the bot's orders must meet no problem, and (5.2) no
face-down Web counter's kind may reach the U.N. or the public before the rules turn it face
up: not in the U.N.'s or the public view, not in an event they are shown (its text or data),
not in the reason of a die (logged in clear). Seeds: 2 per combination by default, more with
``--conformance-seeds N``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re

import pytest

from pbem.dice import DiceStream
from pbem.engine import registry
from pbem.engine.ruleset import PUBLIC, Chance, Parts
from pbem.games.olympica.draw import SHORT
from pbem.games.olympica.state import WEB_NAMES

COMBOS = [
    {"scenario": "introductory"},
    {"scenario": "advanced"},
    {"scenario": "short-advanced"},
    {"scenario": "advanced", "substitutions": "yes", "demolition": "yes", "umbrellas": "yes"},
    {"scenario": "short-advanced", "substitutions": "yes", "umbrellas": "yes"},
]


class Recording:
    """A dice stream that keeps every roll's reason."""

    def __init__(self, stream, whys):
        self.stream, self.whys = stream, whys

    def roll(self, sides, why):
        self.whys.append(why)
        return self.stream.roll(sides, why)

    def shuffle(self, items, why):
        self.whys.append(why)
        return self.stream.shuffle(items, why)


def _seed(*words) -> bytes:
    return hashlib.sha256("/".join(map(str, words)).encode()).digest()


def _json(parts: Parts) -> Parts:
    return Parts(*(json.loads(json.dumps(getattr(parts, k), sort_keys=True))
                   for k in ("public", "secret", "referee")))


def _leaks(text: str, face_down: dict) -> list:
    """``"Strongpoint W07"``-like mentions of a face-down marker's own kind."""
    out = []
    for m, kind in face_down.items():
        names = {WEB_NAMES[kind], kind}
        for name in names:
            if re.search(rf"\b{re.escape(name)}\s+{m}\b", text) or re.search(
                    rf"\b{m}\b[^.;]*\({re.escape(name)}\)", text):
                out.append(f"{m} named as {name}: {text!r}")
    return out


def play(options: dict, seed: int) -> dict:
    rs = registry.get("olympica")
    rng = random.Random(f"oly/{json.dumps(options, sort_keys=True)}/{seed}")
    gid = f"oly-{seed}"
    opts = rs.validate_options(options)
    data = rs.load_data(None)
    board = rs.load_map(None, "stand-in map")
    rs.check_map(board, data)
    hidden = _seed(gid, "hidden")
    chance = Chance(DiceStream(_seed(gid, 0), gid, "0.create", {}),
                    DiceStream(hidden, gid, "0.create", {}, hidden=True))
    state, _ = rs.setup(["web", "un"], opts, data, board, chance)
    found = {"problems": [], "leaks": [], "windows": 0}
    for i in range(400):
        state = rs.load(copy.deepcopy(_json(rs.dump(state))))
        w = rs.window(state)
        if w is None:
            found["outcome"] = rs.outcome(state)
            return found
        found["windows"] += 1
        orders = {}
        for role in w.owed:
            if rng.random() < 0.05:
                continue  # NMR
            body = rs.bot_orders(rs.view(state, role), w, role, rng)
            parsed, problems = rs.parse(role, w, body, 9)
            problems = list(problems) + list(rs.check(state, role, parsed))
            found["problems"] += [f"{w.phase_id} {role}: {p}" for p in problems]
            orders[role] = parsed
        whys: list = []
        stream = DiceStream(_seed(gid, i), gid, w.phase_id, {})
        chance = Chance(Recording(stream, whys),
                        Recording(DiceStream(hidden, gid, w.phase_id, {}, hidden=True), []))
        res = rs.resolve(state, orders, chance)
        pub = rs.dump(state).public
        face_down = {m: state.kinds[m] for m, r in pub["web"].items()
                     if not r.get("face_up") and r["status"] == "map"}
        for m in face_down:
            for who in ("un", PUBLIC):
                if rs.view(state, who)["web"][m].get("kind") is not None:
                    found["leaks"].append(f"{w.phase_id}: {m}'s kind in the {who} view")
        if "kinds" in json.dumps(rs.view(state, "un").get("secret", {})):
            found["leaks"].append("kinds in the U.N.'s secret part")
        for e in res.events:
            if state.outcome and e.kind in ("reveal", "end"):
                continue  # the end of the game makes every marker public
            if PUBLIC in e.audience or "un" in e.audience:
                found["leaks"] += _leaks(e.text, face_down)
                data = json.dumps(e.data)
                found["leaks"] += [f"{m} with its kind in event data {data}"
                                   for m, k in face_down.items()
                                   if f'"{m}"' in data and f'"{k}"' in data]
        for why in whys:
            found["leaks"] += _leaks(why, face_down)
        if i % 3 == 0 and not state.outcome:
            found["leaks"] += _report_leaks(rs, state, face_down)
    return found


def _report_leaks(rs, state, face_down: dict) -> list:
    """The U.N.'s and the public's rendered reports (text with its map and notes, HTML with its
    SVG map: tests/test_conformance.py's ``rendered``) name no face-down marker's kind: no
    ``W07=SP`` in the notes, no kind in the marker's SVG counter."""
    from test_conformance import rendered

    out = []
    for who in ("un", PUBLIC):
        r = rendered(rs, state, who)
        for m, kind in face_down.items():
            if re.search(rf"\b{m}=", r["text report"]):
                out.append(f"{who} text report gives {m} a kind")
            g = re.search(rf'<g [^>]*data-piece="{m}".*?</g>', r["html report"], re.S)
            if g and re.search(rf"\b({re.escape(WEB_NAMES[kind])}|{SHORT[kind]})\b", g.group(0)):
                out.append(f"{who} SVG counter of {m} shows its kind: {g.group(0)}")
    return out


@pytest.fixture(scope="module")
def seeds(request):
    n = request.config.getoption("--conformance-seeds", default=None)
    return range(int(n) if n else 2)


@pytest.mark.parametrize("options", COMBOS, ids=lambda o: ",".join(f"{k}={v}"
                                                                   for k, v in o.items()))
def test_random_games_end_with_no_problem_and_no_early_reveal(options, seeds):
    for seed in seeds:
        found = play(options, seed)
        assert "outcome" in found and found["outcome"] is not None, (options, seed)
        assert found["problems"] == [], found["problems"][:5]
        assert found["leaks"] == [], found["leaks"][:5]
