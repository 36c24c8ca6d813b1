"""The rules tables of ``pbem rules atalix``: the cards, the projects, the tracks and the events
as a referee reads them off the physical game, each with its source (stand-ins marked so by
their source), from a checked data table (:func:`.data.load_data`, house rules merged).

Rulebook sections: "Separate Cards", "Starting Deck", "Planning Phase" (bold and italic
abilities, OR, the research levels I-III), "Build Projects", "Research Track", "Purchasing
Cards and the Card Cost Meter", "Trackers", "Advance Round Tracker", "Threats", "Events".
"""

from __future__ import annotations

from .board import COMPASS
from .data import Rules
from .events import NAMES

ROMAN = {0: "", 1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}
PHASE = {"planning": "Planning", "action": "Action"}
WORDS = {"plays": "+{n} play", "draw": "draw {n}", "actions": "+{n} action",
         "move": "move up to {n}", "climb": "climb {n}", "collect": "collect {n}",
         "research": "research +{n}", "gain": "gain {n}", "buy": "buy {n}",
         "attack": "attack the alien {n}x"}
"""How each ``what`` of the effect vocabulary (data.toml's header) reads in the table; a
``what`` not listed reads as itself with its amount."""


def _amounts(cost: dict, meter: bool) -> str:
    """``{"scrap": 0, "carbon": 1}`` as ``scrap, carbon +1`` (a card's symbols, the meter's
    number to add) or, for a project's fixed cost, ``2 scrap, 1 minerals``."""
    if not cost:
        return "none"
    if meter:
        return ", ".join(f"{r} +{n}" if n else r for r, n in cost.items())
    return ", ".join(f"{n} {r}" for r, n in cost.items())


def ability_text(a: dict) -> str:
    """One ability of data.toml in words: ``"Planning: +1 play"``, ``"III Action: gain 1
    carbon (pay 1 minerals)"``."""
    n = a.get("amount", 1)
    what = WORDS.get(a["what"], a["what"] + (" {n}" if n != 1 else "")).format(n=n)
    if a.get("resource"):
        what += f" {a['resource']}"
    if a.get("cost"):
        what += f" (pay {_amounts(a['cost'], False)})"
    level = ROMAN.get(a.get("level", 0), str(a.get("level")))
    return f"{level + ' ' if level else ''}{PHASE.get(a['phase'], a['phase'])}: {what}"


def abilities_text(abilities: list) -> str:
    """A card's abilities in order, an OR group's members joined by ``OR`` ("An OR only
    applies to the abilities directly above and below it"), the others by ``;``."""
    out: list[str] = []
    last_group = None
    for a in abilities:
        text = ability_text(a)
        group = a.get("or")
        if out and group is not None and group == last_group:
            out[-1] += f" OR {text}"
        else:
            out.append(text)
        last_group = group
    return "; ".join(out)


def _cards(data: dict) -> list[str]:
    out = ["Cards (Separate Cards, Starting Deck; bold abilities are the Planning Phase's, "
           "italic the Action Phase's; I-III: the research level needed)"]
    for cid, c in data["cards"].items():
        cost = f", cost {_amounts(c['cost'], True)}" if c.get("cost") else ""
        given = f", given by {c['project']}" if c.get("project") else ""
        out.append(f"  {c['name']} ({cid}): {c['kind']}, {c['count']} copies{cost}{given}")
        out.append(f"      {abilities_text(c['abilities'])}")
        out.append(f"      ({c['source']})")
    deck = data["starting_deck"]
    parts = ", ".join(f"{n} {k}" for k, n in deck.items() if k not in ("chosen", "source"))
    out.append(f"  Starting deck: {parts}, then {deck['chosen']} chosen ({deck['source']})")
    return out


def _projects(data: dict) -> list[str]:
    out = ["Projects (Build Projects: fixed costs; scenario 0: any scenario)"]
    for pid, p in data["projects"].items():
        notes = [w for w, on in (("may be built more than once", p.get("repeatable")),
                                 (f"gives the {p.get('gives')} cards", p.get("gives")),
                                 ("long-term effect", p.get("long_term"))) if on]
        extra = f"; {'; '.join(notes)}" if notes else ""
        out.append(f"  {p['name']} ({pid}), scenario {p.get('scenario', 0)}: "
                   f"{_amounts(p['cost'], False)}{extra}")
        out.append(f"      ({p['source']})")
    return out


def _tracks(data: dict, rules: Rules) -> list[str]:
    out = ["Research Track (levels from the step named; benefits: dice = roll to distribute "
           "resources, active-card = one more Active Card)"]
    for lv in rules.research_levels:
        out.append(f"  {ROMAN.get(lv.level, lv.level)}: from step {lv.steps}"
                   f"{': ' + ', '.join(lv.benefits) if lv.benefits else ''}")
    out.append(f"  the team starts at level {ROMAN.get(rules.research_start)}   "
               f"({data['research']['source']})")
    out.append("Card Cost Meter (the number under the left token is paid per resource "
               "symbol; the right token's track ends at the top for the player count)")
    out.append(f"  left token: {', '.join(map(str, rules.meter_values))}; right track top: "
               + ", ".join(f"{p} player(s) {t}" for p, t in sorted(rules.meter_tops.items())))
    out.append(f"      ({data['cost_meter']['source']})")
    out.append("Round Tracker (start by difficulty, the losing space by player count; one storm "
               f"token on entering space {rules.green_circle}, one each round from space "
               f"{rules.turquoise_from})")
    counts = sorted(rules.round_losses)
    out.append("  rounds the team has, by stars (rows) and players (columns):")
    out.append("    stars  start" + "".join(f"{p:>4}" for p in counts))
    for stars, start in sorted(rules.round_starts.items()):
        out.append(f"    {stars:>5}  {start:>5}"
                   + "".join(f"{rules.round_losses[p] - start:>4}" for p in counts))
    out.append(f"      ({data['round_track']['source']})")
    res = ", ".join(f"{n} {r}" for r, n in data["resources"]["start"].items())
    per = " (scrap per player)" if data["resources"].get("scrap_per_player") else ""
    out.append(f"Storm tokens: {rules.storm_tokens} ({data['storm']['source']})")
    out.append(f"Team resources at setup: {res}{per} ({data['resources']['source']})")
    return out


def rules_tables(data: dict) -> str:
    """The tables (module docstring) as text, one block per table, sources under each row:
    put before the kit's list of every sourced value."""
    rules = Rules.from_data(data)
    out = _cards(data) + [""] + _projects(data) + [""] + _tracks(data, rules) + [""]
    out.append("Events (End of Round: every event numbered equal to or less than the die, "
               "from the highest down)")
    out += [f"  {n}: {name}" for n, name in sorted(NAMES.items())]
    out.append("Compass (d6 -> direction; stand-in for the board's compass, clockwise from "
               "1 = up): " + ", ".join(f"{k} {v}" for k, v in sorted(COMPASS.items())))
    return "\n".join(out) + "\n"
