"""Victory (4.1-4.3, 18.4): who won, how much, and why; the reveal of every marker at the end.

- Introductory (4.1): the U.N. wins with a unit stacked with the Web Generator at the end of
  Game-Turn 4; the Web wins when no U.N. unit stacked with it at any time; otherwise a draw.
- Advanced and Short Advanced (4.2, 4.3): U.N. Major Victory, the Generator evacuated by a
  Lifter (18.4); U.N. Minor, a U.N. unit stacked with the Generator at the end of the game; Web
  Major, no U.N. unit stacked with it at any time; Web Minor, a U.N. victory avoided.

"Stacked with" means on the same hex and level (13.3). Scores: 2 for a major victory (and the
introductory win), 1 for a minor one, 0 to the loser; a draw scores 1 each.
"""

from __future__ import annotations

from pbem.engine.ruleset import Event

from .state import UN, WEB, WEB_NAMES, State


def evacuated(s: State) -> bool:
    """True once a Lifter has carried the Generator off the map (18.4)."""
    g = s.generator()
    return g is not None and s.web[g]["status"] == "evacuated"


def held(s: State) -> bool:
    """A U.N. unit stands on the Generator's place now (13.3)."""
    g = s.generator()
    if g is None or s.web[g]["status"] != "map":
        return False
    r = s.web[g]
    return any(u["status"] == "map" and u["hex"] == r["hex"] and u["level"] == r["level"]
               for u in s.un.values())


def outcome(s: State) -> dict:
    """The outcome at the end of the game (module docstring) as ``{"scores", "winners",
    "reason"}``."""
    def win(side, points, why):
        return {"scores": {side: points, (UN if side == WEB else WEB): 0}, "winners": [side],
                "reason": why}

    if s.options["scenario"] == "introductory":
        if held(s):
            return win(UN, 2, f"a U.N. unit is stacked with the Web Generator at the end of "
                              f"Game-Turn {s.turn} (4.1: U.N. Victory)")
        if s.stacked:
            return {"scores": {UN: 1, WEB: 1}, "winners": [],
                    "reason": "a U.N. unit stacked with the Web Generator, but none is there "
                              "at the end (4.1: Draw)"}
        return win(WEB, 2, "no U.N. unit stacked with the Web Generator (4.1: Web Victory)")
    if evacuated(s):
        return win(UN, 2, f"a U.N. Lifter evacuated the Web Generator on Game-Turn {s.turn} "
                          f"(4.2, 18.4: U.N. Major Victory)")
    if held(s):
        return win(UN, 1, "a U.N. unit is stacked with the Web Generator at the end of the "
                          "game (4.2: U.N. Minor Victory)")
    if not s.stacked:
        return win(WEB, 2, "no U.N. unit stacked with the Web Generator at any time (4.2: Web "
                           "Major Victory)")
    return win(WEB, 1, "a U.N. unit stacked with the Web Generator, but the U.N. victory was "
                       "avoided (4.2: Web Minor Victory)")


def end_of_game(s: State, events: list) -> None:
    """End the game: the outcome, and every marker's kind made public (the reveal)."""
    s.outcome = outcome(s)
    s.stage = "over"
    s.reveal = dict(s.kinds)
    events.append(Event("reveal", "The markers were: " + ", ".join(
        f"{m} {WEB_NAMES[k]}" for m, k in sorted(s.kinds.items())) + ".",
        data={"kinds": dict(s.kinds)}))
    events.append(Event("end", f"Game over: {s.outcome['reason']}.",
                        data={"winners": list(s.outcome["winners"])}))
