"""A tiny ruleset for testing the engine apart from any real game's rules.

"Treasure hunt": the referee hides a treasure in one of 20 holes (a hidden draw at setup, the
referee part). Each turn every player orders ``dig N``; a public d6 per turn is the weather
(1: rain, nobody digs). A digger learns privately whether the treasure is higher or lower
(their secret part). Whoever digs the treasure's hole wins; after 5 turns nobody does.
Missing orders (NMR): no dig.
"""

from __future__ import annotations

import copy
import random

from pbem.engine.ruleset import (Event, OptionSpec, Order, Outcome, Parts, Problem,
                                 Resolution, Ruleset, Window)

HOLES = 20
TURNS = 5
RULE = "Hunt 1"


class Hunt(Ruleset):
    """The treasure hunt: a Ruleset with no board and no data file, whose ``turns`` option is
    checked by hand (1 to 50) instead of by the default from ``option_table``."""

    name = "hunt"
    title = "Treasure Hunt (test game)"
    min_roles = 2
    max_roles = 4
    role_names = ("red", "blue", "green", "white")
    option_table = {"turns": OptionSpec(TURNS, None, "number of turns", "Hunt 2", int)}
    order_verbs = ("dig",)
    data_file = None
    map_file = None

    def validate_options(self, raw):
        out = {"turns": TURNS}
        for k, v in raw.items():
            if k != "turns":
                raise ValueError(f"unknown option {k!r}; options: turns")
            if not str(v).isdigit() or not 1 <= int(v) <= 50:
                raise ValueError(f"turns: expected 1 to 50, found {v!r}")
            out[k] = int(v)
        return out

    def load_data(self, house):
        data = {"holes": {"value": HOLES, "source": "rulebook Hunt 1"}}
        for k, v in (house or {}).items():
            if k not in data:
                raise ValueError(f"unknown key {k!r}")
            data[k] = v
        return data

    def stand_ins(self, data, options, board):
        return ["the weather die: stand-in: not in the rulebook"]

    def setup(self, roles, options, data, hexmap, chance):
        treasure = chance.hidden.roll(HOLES, "where the treasure lies")
        first = chance.public.roll(len(roles), "who digs first")
        state = {"roles": list(roles), "turn": 1, "turns": options["turns"], "dug": [],
                 "winner": None, "first": roles[first - 1],
                 "hints": {r: [] for r in roles}, "treasure": treasure}
        return state, [Event("setup", f"The treasure is hidden; {roles[first - 1]} is named first.")]

    def window(self, state):
        if self.outcome(state):
            return None
        return Window(state["turn"], "dig", tuple(state["roles"]), (), {r: ["dig"] for r in state["roles"]},
                      simultaneous=True, title="digging")

    def parse(self, role, window, body, first_line):
        orders, problems = [], []
        for i, line in enumerate(body.split("\n"), start=first_line):
            s = line.strip()
            if not s or s.startswith(("#", ">")):
                continue
            words = s.split()
            if words[0] == "dig" and len(words) == 2 and words[1].isdigit():
                orders.append(Order(i, s, "dig", {"hole": int(words[1])}))
            else:
                problems.append(Problem(i, s, RULE, "expected `dig N` with N a hole number"))
        return orders, problems

    def check(self, state, role, orders):
        return [Problem(o.line, o.text, RULE, f"holes are numbered 1 to {HOLES}")
                for o in orders if not 1 <= o.args["hole"] <= HOLES]

    def resolve(self, state, orders_by_role, chance):
        events, problems = [], {}
        weather = chance.public.roll(6, f"weather, turn {state['turn']}")
        if weather == 1:
            events.append(Event("rain", "It rains: nobody digs."))
        else:
            for role in state["roles"]:
                for o in orders_by_role.get(role, [])[:1]:
                    hole = o.args["hole"]
                    if not 1 <= hole <= HOLES:
                        problems.setdefault(role, []).append(
                            Problem(o.line, o.text, RULE, f"holes are numbered 1 to {HOLES}"))
                        continue
                    state["dug"].append(hole)
                    events.append(Event("dig", f"{role} digs hole {hole}."))
                    if hole == state["treasure"]:
                        state["winner"] = role
                        events.append(Event("found", f"{role} finds the treasure!"))
                    else:
                        hint = "higher" if state["treasure"] > hole else "lower"
                        state["hints"][role].append(f"{hole}:{hint}")
                        events.append(Event("hint", f"The treasure lies {hint} than hole {hole}.",
                                            (role,)))
        state["turn"] += 1
        return Resolution(events, problems)

    def view(self, state, role):
        v = {"turn": state["turn"], "dug": list(state["dug"]), "winner": state["winner"]}
        if role in state["roles"]:
            v["hints"] = list(state["hints"][role])
            v["forces"] = [f"hint {h}" for h in state["hints"][role]]
        if self.outcome(state):
            v["treasure"] = state["treasure"]
        return v

    def outcome(self, state):
        if state["winner"]:
            return Outcome({r: int(r == state["winner"]) for r in state["roles"]},
                           (state["winner"],), f"{state['winner']} found the treasure")
        if state["turn"] > state["turns"]:
            return Outcome({r: 0 for r in state["roles"]}, tuple(state["roles"]),
                           "nobody found the treasure")
        return None

    def dump(self, state):
        public = {k: copy.deepcopy(v) for k, v in state.items() if k not in ("hints", "treasure")}
        if self.outcome(state):
            public["revealed"] = state["treasure"]  # where the treasure lay, shown at the end
        return Parts(public, {r: {"hints": list(state["hints"][r])} for r in state["roles"]},
                     {"treasure": state["treasure"]})

    def load(self, parts):
        """A missing part is unknown to the reader (pbem.engine.gamestate.role_state): only the
        roles whose secret part is given have ``hints`` (reading another's raises KeyError), and
        without the referee part the treasure is None until the end reveals it."""
        state = copy.deepcopy(parts.public)
        revealed = state.pop("revealed", None)
        state["hints"] = {r: list(sec.get("hints", [])) for r, sec in parts.secret.items()}
        state["treasure"] = parts.referee["treasure"] if parts.referee else revealed
        return state

    def template(self, state, role):
        return "# dig a hole: dig N (1-20)\ndig \n"

    def rules_text(self, data, options):
        return f"holes: {HOLES} (rulebook Hunt 1)\n"

    def text_map(self, view):
        return "dug: " + (" ".join(map(str, view["dug"])) or "none")

    def bot_orders(self, view, window, role, rng: random.Random):
        return f"dig {rng.randint(1, HOLES)}\n"


ruleset = Hunt()
