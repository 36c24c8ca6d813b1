"""Victory in Escape from Altassar (20.0): points of both sides, and the end of the game with
everything hidden made public."""

from __future__ import annotations

from pbem.engine.ruleset import PUBLIC, Event

from .state import CONFEDERATION, SPIKUS, State, prisoner


def scores(s: State) -> dict:
    """Victory points (20.0) of both sides from the full state, with the counts behind them."""
    v = s.rules.victory
    conf = {"soldiers": 0, "other": 0, "exited": 0}
    for r in s.spikus.values():
        if r["where"] == "eliminated":
            conf["soldiers" if r["kind"] == "soldier" else "other"] += 1
    sp = {"on_map": 0, "eliminated": 0, "returned": 0}
    for name, u in s.units.items():
        if not prisoner(u["kind"]):
            continue
        where = s.markers[u["marker"]]["where"]
        if where == "exited":
            conf["exited"] += 1
        elif where in ("map", "captive"):
            sp["on_map"] += 1
        elif where == "eliminated":
            sp["eliminated"] += 1
        elif where == "returned":
            sp["returned"] += 1
    return {
        CONFEDERATION: conf["soldiers"] * v["soldier"] + conf["other"] * v["spikus_unit"]
        + conf["exited"] * v["exited"],
        SPIKUS: sp["on_map"] * v["on_map"] + sp["eliminated"] * v["prisoner_eliminated"]
        + sp["returned"] * v["returned"],
        "counts": {CONFEDERATION: conf, SPIKUS: sp},
    }


def finish(s: State, events: list, reason: str) -> None:
    """End the game: victory points (20.0; equal totals go to the Spikus) and everything
    hidden made public."""
    sc = scores(s)
    c, p = sc[CONFEDERATION], sc[SPIKUS]
    winner = CONFEDERATION if c > p else SPIKUS
    s.outcome = {"scores": {CONFEDERATION: c, SPIKUS: p}, "winners": [winner],
                 "reason": reason + (" — equal points go to the Spikus (20.0)" if c == p else "")}
    s.reveal = {"units": {n: dict(u) for n, u in s.units.items()}, "dealt": dict(s.dealt),
                "counts": sc["counts"]}
    s.stage = "over"
    events.append(Event("game-over", f"The game is over: {reason}. Victory points (20.0): "
                        f"Confederation {c}, Spikus {p}; the {winner.title()} player wins.",
                        (PUBLIC,), {"scores": s.outcome["scores"], "winner": winner,
                                    "counts": sc["counts"]}))
