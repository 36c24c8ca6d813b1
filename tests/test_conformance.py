"""The conformance test (issue 9, "The kit"): the same checks over every registered ruleset,
after OpenSpiel's ``random_sim_test``. Nothing here names a game: a ruleset registered in the
``pbem.rulesets`` entry-point group (pbem.engine.registry; the test toy ``hunt`` of
tests/toygame.py beside them) passes or fails it through the interface the engine uses
(pbem.engine.ruleset, pbem.engine.creation, pbem.engine.adjudicate, pbem.engine.publish).

Random games are played at two levels:

- **ruleset level** (:func:`simulate`, fast): the engine's own sequence of calls with its own
  dice (``pbem.dice.DiceStream``) and no database: ``validate_options``, ``load_data``,
  ``load_map``/``check_map``, ``setup``; then per window ``view`` -> ``bot_orders`` -> ``parse``
  -> ``check``, some owed roles missing (NMR), ``resolve``; and, as the engine does between two
  phases, the state is dumped to JSON (keys sorted) and loaded again before the next window.
- **engine level** (tests/gameplay.py): a whole game signed, ingested, processed and reported
  through the service layer, for what only the engine makes: the stored reports and the log.

The checks:

1. ``test_dump_load_round_trip``: at every window, the parts are JSON values,
   ``dump(load(parts)) == parts``, and the loaded state gives every reader the same view, the
   same window, outcome and order template.
2. ``test_bot_orders_raise_no_problems``: a role's bot orders, made from its view only, meet no
   problem in ``parse`` nor in ``check``. While ``resolve`` carries them out a problem may
   still arise (pbem.engine.ruleset.Resolution: "an order legal when sent may be illegal when
   its turn comes", after the dice of an earlier order), but it must go to the role that
   wrote the line it quotes.
3. ``test_random_games_end``: every random game (every number of players the ruleset takes,
   some players missing deadlines) reaches an outcome within :data:`MAX_WINDOWS` windows, after
   which ``window`` is None.
4. ``test_view_and_report_ignore_other_secrets``: see :func:`perturbed` (module below).
5. ``test_no_hidden_value_in_other_reports_or_log``: see :func:`hidden_tokens` and
   :func:`check_leaks`.
6. ``test_example_game_replays``: ``examples/<name>/make_example.py``'s ``replay`` feeds the
   committed mails to a fresh home and the public log it writes verifies and equals the
   committed ``examples/<name>/*.jsonl`` line for line.

Seeds: :data:`DEFAULT_SEEDS` by default; ``pytest --conformance-seeds N`` (tests/conftest.py)
or the environment variable ``PBEM_CONFORMANCE_SEEDS=N`` plays N seeds instead.

A check that fails for a current game is marked ``xfail(strict=True)`` in :data:`KNOWN` with the
finding; the game owners fix it and remove the entry (strict: an unexpected pass fails).
"""

from __future__ import annotations

import copy
import hashlib
import html as html_lib
import importlib.util
import json
import os
import random
import re
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbem.engine import registry
from pbem.engine.ruleset import PUBLIC, REFEREE, Chance, Parts

ROOT = Path(__file__).resolve().parent.parent
MAX_WINDOWS = 2000
"""A random game that has not ended after this many windows fails check 3."""
DEFAULT_SEEDS = 3
NMR_RATE = 0.1
FIRST_LINE = 9
"""The line number of an order body's first line (after the 7 header lines and a blank)."""
SNAPSHOTS_PER_GAME = 12
"""Check 4 perturbs at most this many states of each random game, evenly spread."""
NOW = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)

RULESETS = sorted(set(registry.available()) | {"hunt"})
"""Every registered ruleset, and the test toy (registered by tests/conftest.py's fixture)."""

KNOWN: dict = {
    # (check, ruleset): "the finding" — a current game's failure, marked xfail(strict=True).
}


def n_seeds(config) -> int:
    env = os.environ.get("PBEM_CONFORMANCE_SEEDS")
    opt = config.getoption("--conformance-seeds", default=None) if config else None
    return int(opt or env or DEFAULT_SEEDS)


def cases(check: str) -> list:
    out = []
    for name in RULESETS:
        why = KNOWN.get((check, name))
        marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out


def jsonify(value):
    """``value`` as the engine stores it: JSON with sorted keys, read back."""
    return json.loads(json.dumps(value, sort_keys=True))


def jparts(parts: Parts) -> Parts:
    return Parts(jsonify(parts.public), jsonify(parts.secret), jsonify(parts.referee))


def role_names(rs) -> tuple:
    """The role names a game of ``rs`` may use, in seat order (its ``role_spec()``)."""
    spec = getattr(rs, "role_spec", None)
    return tuple(spec().names if spec is not None else rs.role_names)


def main_roles(rs) -> tuple:
    """The roles of the games compared in checks 4 and 5: three players where the ruleset takes
    them (a reader, another role whose secret changes, and a third), else as many as it may."""
    n = min(rs.max_roles, max(rs.min_roles, 3))
    return role_names(rs)[:n]


# ---------------------------------------------------------------- ruleset-level random games

@dataclass
class Step:
    """One point of a random game: the state's parts (as stored) when ``window`` was open
    (None: the game had ended)."""

    index: int
    parts: Parts
    window: object
    over: bool


@dataclass
class Sim:
    name: str
    roles: tuple
    seed: int
    steps: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    late: list = field(default_factory=list)
    round_trip: list = field(default_factory=list)
    ended: bool = False


def _seed(*words) -> bytes:
    return hashlib.sha256("/".join(map(str, words)).encode()).digest()


def _fingerprint(rs, state, roles) -> dict:
    """What the engine reads from a state besides its dump: views, window, outcome, templates."""
    w, o = rs.window(state), rs.outcome(state)
    out = {"window": w.to_json() if w else None,
           "outcome": [o.scores, list(o.winners), o.reason] if o else None}
    for r in list(roles) + [PUBLIC]:
        out[f"view {r}"] = jsonify(rs.view(state, r))
        if w is not None and w.accepts(r):
            out[f"template {r}"] = rs.template(state, r)
    return out


def simulate(rs, roles, seed: int, nmr_rate: float = NMR_RATE) -> Sim:
    """Play one random game at the ruleset level (module docstring)."""
    from pbem.dice import DiceStream

    sim = Sim(rs.name, tuple(roles), seed)
    rng = random.Random(f"{rs.name}/{len(roles)}/{seed}")
    gid = f"conf-{rs.name}-{len(roles)}-{seed}"
    hidden_seed = _seed(gid, "hidden")
    options = rs.validate_options({})
    data = rs.load_data(None)
    hexmap = rs.load_map(None, "stand-in map")
    rs.check_map(hexmap, data)
    chance = Chance(DiceStream(_seed(gid, "0.create"), gid, "0.create", {}),
                    DiceStream(hidden_seed, gid, "0.create", {}, hidden=True))
    state, _events = rs.setup(list(roles), options, data, hexmap, chance)
    sent: dict = {}
    for i in range(MAX_WINDOWS + 1):
        parts = rs.dump(state)
        stored = jparts(parts)
        loaded = rs.load(copy.deepcopy(stored))
        again = jparts(rs.dump(loaded))
        if again != stored:
            sim.round_trip.append((i, "dump(load(parts)) != parts", _diff(stored, again)))
        before, after = _fingerprint(rs, state, roles), _fingerprint(rs, loaded, roles)
        for key in before:
            if before[key] != after[key]:
                sim.round_trip.append((i, f"{key} differs after dump/load", key))
        state = loaded  # the engine loads the state anew for every phase
        w = rs.window(state)
        sim.steps.append(Step(i, stored, w, w is None))
        if w is None:
            sim.ended = rs.outcome(state) is not None
            return sim
        orders = {}
        for role in list(w.owed) + [r for r in w.optional if rng.random() < 0.3]:
            if role in w.owed and rng.random() < nmr_rate:
                continue
            body = rs.bot_orders(rs.view(state, role), w, role, rng)
            parsed, found = rs.parse(role, w, body, FIRST_LINE)
            found = list(found) + list(rs.check(state, role, parsed))
            for p in found:
                sim.problems.append((w.phase_id, role, "parse/check", str(p), body))
            orders[role] = parsed
        nonces = {r: hashlib.sha256(f"{gid}/{i}/{r}".encode()).hexdigest()[:32] for r in orders}
        seed_bytes = _seed(gid, w.phase_id, i)
        chance = Chance(DiceStream(seed_bytes, gid, w.phase_id, nonces),
                        DiceStream(hidden_seed, gid, w.phase_id, nonces, hidden=True))
        for role, parsed in orders.items():
            sent.setdefault(role, set()).update(o.text for o in parsed)
        res = rs.resolve(state, orders, chance)
        for role, found in res.problems.items():
            for p in found:
                if p.text and p.text not in sent.get(role, ()):
                    sim.problems.append((w.phase_id, role, ("resolve, quoting a line the role "
                                                                "never sent"), str(p), None))
                else:
                    sim.late.append((w.phase_id, role, str(p)))
    return sim


def _diff(a: Parts, b: Parts) -> str:
    for part in ("public", "secret", "referee"):
        x, y = getattr(a, part), getattr(b, part)
        if x != y:
            keys = sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))
            return f"{part}: {keys[:5]}"
    return ""


_SIMS: dict = {}


def sims(name: str, config) -> list:
    """The random games of ruleset ``name``, played once per test run: for each seed, one game
    of :func:`main_roles` and one of every other number of players the ruleset takes."""
    key = (name, n_seeds(config))
    if key not in _SIMS:
        rs = registry.get(name)
        out = []
        main = main_roles(rs)
        for seed in range(key[1]):
            out.append(simulate(rs, main, seed))
            n = rs.min_roles + seed % (rs.max_roles - rs.min_roles + 1)
            if n != len(main):
                out.append(simulate(rs, role_names(rs)[:n], seed))
        _SIMS[key] = out
    return _SIMS[key]


# ---------------------------------------------------------------- checks 1 to 3

@pytest.mark.database_free  # the rulesets alone: skipped on the PostgreSQL pass
@pytest.mark.parametrize("name", cases("round-trip"))
def test_dump_load_round_trip(name, request):
    found = [(s.roles, s.seed, r) for s in sims(name, request.config) for r in s.round_trip]
    assert not found, found[:5]


@pytest.mark.database_free  # the rulesets alone: skipped on the PostgreSQL pass
@pytest.mark.parametrize("name", cases("bot-problems"))
def test_bot_orders_raise_no_problems(name, request):
    found = [(s.roles, s.seed, p) for s in sims(name, request.config) for p in s.problems]
    assert not found, found[:5]


@pytest.mark.database_free  # the rulesets alone: skipped on the PostgreSQL pass
@pytest.mark.parametrize("name", cases("games-end"))
def test_random_games_end(name, request):
    games = sims(name, request.config)
    unended = [(s.roles, s.seed, len(s.steps)) for s in games if not s.ended]
    assert not unended, f"random games that did not end in {MAX_WINDOWS} windows: {unended}"
    rs = registry.get(name)
    counts = {len(s.roles) for s in games}
    assert rs.min_roles in counts or len(games) < 2


# ---------------------------------------------------------------- check 4

def rendered(rs, state, role: str) -> dict:
    """What a report of ``role`` made from ``state`` holds apart from the phase's events, dice
    and problems (pbem.engine.publish.publish_phase, with those left empty and fixed log,
    deadline and key values): the view, its text map, the order template, the text and HTML
    report with its SVG map."""
    from pbem.reports.context import format_deadline, order_header, report_context
    from pbem.reports.render import render_html, render_text
    from pbem.reports.svgmap import map_for

    view = rs.view(state, role)
    w = rs.window(state)
    outcome = rs.outcome(state)
    next_ctx = template = None
    if w is not None:
        next_ctx = {"turn": w.turn, "phase": w.phase, "phase_id": w.phase_id, "title": w.title,
                    "owed": list(w.owed), "optional": list(w.optional),
                    "you_owe": role in w.owed, "you_may": role in w.optional,
                    "deadline": format_deadline(NOW, None), "closes": None,
                    "close_early": False, "commit": "0" * 64}
        if w.accepts(role):
            template = (order_header("conf", w.turn, w.phase, role, "SHA256:" + "A" * 43) + "\n"
                        + rs.template(state, role).rstrip("\n") + "\n")
    board = rs.text_map(view)
    ctx = report_context(
        game={"id": "conf", "title": rs.title, "ruleset": rs.name}, role=role, zone=None,
        view=view, board=board, log={"lines": 1, "head": "0" * 64}, events=[], rolls=[],
        reveal=None, problems=[], reported=None, next_window=next_ctx, template=template,
        outcome=None if outcome is None else {"scores": outcome.scores,
                                              "winners": list(outcome.winners),
                                              "reason": outcome.reason},
        setup=None, now=NOW)
    return {"view": jsonify(view), "text map": board, "template": template,
            "text report": render_text(rs.name, ctx),
            "html report": render_html(rs.name, dict(ctx, svg=map_for(rs.name, view)))}


def perturbed(rs, step: Step, owner: str, donors: list):
    """``step``'s state with ``owner``'s part (a role's secret part, or the referee part)
    replaced by a different one, or None when no donor fits.

    How, generically and soundly: the replacement is never invented. It is ``owner``'s part of
    another state actually reached by a random game of the same ruleset with the same roles:
    first a state at the same window (same turn and phase) of a game with another seed, then
    one at the same phase name, then any; the first one that differs from the current part and
    that the ruleset's own ``load`` accepts (and dumps back unchanged) is used. Every other
    part (the public part, the reader's own secret part) is left exactly as it was. The
    contract being tested is the kit's (issue 9): a role is given only the public part and its
    own secret part, so ``view(state, role)`` and everything a report draws from the state must
    be a function of those two parts alone; a donor part changes nothing in them, whatever it
    holds, so any difference it makes is a real dependency on the other owner's part, and no
    game-specific knowledge of what a consistent secret looks like is needed.
    A state whose game is over is not perturbed: at the end every secret is revealed."""
    mine = step.parts.referee if owner == REFEREE else step.parts.secret.get(owner)
    here = step.window

    def rank(d):
        w = d.window
        return (0 if w.phase_id == here.phase_id else 1 if w.phase == here.phase else 2)

    for d in sorted(donors, key=rank):
        theirs = d.parts.referee if owner == REFEREE else d.parts.secret.get(owner)
        if theirs is None or theirs == mine:
            continue
        parts = copy.deepcopy(step.parts)
        if owner == REFEREE:
            parts.referee = copy.deepcopy(theirs)
        else:
            parts.secret[owner] = copy.deepcopy(theirs)
        try:
            state = rs.load(copy.deepcopy(parts))
            if jparts(rs.dump(state)) != parts:
                continue
        # the ruleset's load refuses this mixture: try another donor
        except Exception:  # noqa: BLE001, S112
            continue
        return state
    return None


@pytest.mark.database_free  # the rulesets alone: skipped on the PostgreSQL pass
@pytest.mark.parametrize("name", cases("secret-independence"))
def test_view_and_report_ignore_other_secrets(name, request):
    """A role's view, text map, order template and rendered report are unchanged when another
    role's secret part, or the referee part, is replaced (:func:`perturbed`)."""
    rs = registry.get(name)
    games = [s for s in sims(name, request.config) if s.roles == main_roles(rs)]
    pool = [st for s in games for st in s.steps if not st.over]
    found, compared = [], 0
    for g in games:
        live = [st for st in g.steps if not st.over]
        stride = max(1, len(live) // SNAPSHOTS_PER_GAME)
        donors_all = [st for other in games if other is not g for st in other.steps
                      if not st.over] or pool
        for st in live[::stride]:
            state = rs.load(copy.deepcopy(st.parts))
            base = {r: rendered(rs, state, r) for r in list(g.roles) + [PUBLIC]}
            for owner in list(g.roles) + [REFEREE]:
                other = perturbed(rs, st, owner, donors_all + [d for d in live if d is not st])
                if other is None:
                    continue
                for reader in list(g.roles) + [PUBLIC]:
                    if reader == owner:
                        continue
                    now = rendered(rs, other, reader)
                    compared += 1
                    for what in base[reader]:
                        if now[what] != base[reader][what]:
                            found.append(f"seed {g.seed}, window {st.window.phase_id}: "
                                         f"{reader}'s {what} changes with {owner}'s part")
    assert not found, sorted(set(found))[:10]
    assert compared > 0, "no state of these random games could be perturbed"


# ---------------------------------------------------------------- check 5

ID_LIKE = re.compile(r"^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9][A-Za-z0-9_.:-]{2,}$")
"""A distinctive string: letters and digits mixed, no spaces (``terran-1``, ``u07``)."""
LONG_TEXT = 24
"""A string of a part this long (a sentence, a salted digest) is distinctive too."""


def _strings(value, out: set) -> set:
    """Every dict key and string leaf of a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)
    elif isinstance(value, str):
        out.add(value)
    return out


def hidden_tokens(parts: Parts, reader: str) -> dict:
    """{token: owner}: the distinctive strings of the parts ``reader`` may not see.

    Generic: the keys and string leaves of every other role's secret part and of the referee
    part, less every string that is also a key or leaf of the public part or of the reader's
    own secret part (what the reader knows anyway: a revealed secret moves to the public part).
    To keep clear of false positives, numbers are never tokens (a hidden 3 is
    indistinguishable from a printed 3) and neither are plain words ("standing", "shark": a
    table or a sentence prints them); a token is a string mixing letters and digits without
    spaces, such as a piece's hidden name (``terran-1``), which no text prints by chance, or a
    string of :data:`LONG_TEXT` characters or more. A game whose secrets are only numbers and
    words gets no token from its parts: its secret facts are the private events' sentences,
    which :func:`check_leaks` follows, and its views are covered by check 4."""
    known = _strings(parts.public, set())
    if reader in parts.secret:
        _strings(parts.secret[reader], known)
    out = {}
    owners = [(r, p) for r, p in parts.secret.items() if r != reader] + [(REFEREE, parts.referee)]
    for owner, part in owners:
        for s in _strings(part, set()):
            if s in known:
                continue
            if ID_LIKE.match(s) or len(s) >= LONG_TEXT:
                out.setdefault(s, owner)
    return out


def _flat(text: str) -> str:
    return " ".join(text.split())


def _html_text(body: str) -> str:
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", body))


def find_tokens(text: str, tokens: dict) -> list:
    found = []
    for tok, owner in tokens.items():
        if tok in text and re.search(r"(?<![A-Za-z0-9_-])" + re.escape(tok)
                                     + r"(?![A-Za-z0-9_]|-[A-Za-z0-9])", text):
            found.append((tok, owner))
    return found


def private_sentences(events: list, reader: str) -> list:
    """The texts of ``events`` that ``reader`` may not see and that are not also the text of a
    private event told to ``reader`` (two roles told the same sentence privately each know
    it). A private sentence repeated in a public event is a leak: it is still looked for."""
    seen = {_flat(e.text) for e in events if reader in e.audience and not e.public}
    return [(_flat(e.text), ",".join(e.audience)) for e in events
            if not e.visible_to(reader) and len(_flat(e.text)) >= 20
            and _flat(e.text) not in seen]


def check_leaks(text: str, parts: Parts, events: list, reader: str) -> list:
    """The hidden tokens of ``reader`` (:func:`hidden_tokens`) and the private sentences of
    other roles (:func:`private_sentences`) that ``text`` holds."""
    found = [f"{owner}'s {tok!r}" for tok, owner in find_tokens(text, hidden_tokens(parts, reader))]
    flat = _flat(text)
    found += [f"the event for {aud} {s!r}" for s, aud in private_sentences(events, reader)
              if s in flat]
    return found


class Recorder:
    """Wraps a registered ruleset's ``setup`` and ``resolve`` to keep, per phase sequence
    number (0: setup), the events produced and the parts of the state they left (the state the
    phase's reports were made from)."""

    def __init__(self, rs, monkeypatch):
        self.phases: list = []
        real_setup, real_resolve = rs.setup, rs.resolve

        def setup(*a, **kw):
            state, events = real_setup(*a, **kw)
            self.phases.append((list(events), jparts(rs.dump(state))))
            return state, events

        def resolve(state, orders, chance):
            res = real_resolve(state, orders, chance)
            self.phases.append((list(res.events), jparts(rs.dump(state))))
            return res

        monkeypatch.setattr(rs, "setup", setup, raising=False)
        monkeypatch.setattr(rs, "resolve", resolve, raising=False)


ENGINE_REVEALS = ("hidden-reveal", "setup-reveal")
"""Log lines in which the engine reveals the hidden dice and setup at the end (DESIGN.md,
"The public log"): they hold the referee part by design."""


@pytest.mark.parametrize("name", cases("no-leak"))
def test_no_hidden_value_in_other_reports_or_log(name, referee, clock, monkeypatch, request):
    """A game through the engine; every stored report (text and HTML) of each reader, and every
    public log line, is searched for what the reader may not know at that phase: the
    distinctive strings of the other parts (:func:`hidden_tokens`) and the sentences of events
    meant for other roles (:func:`private_sentences`). The public report and the log are read
    as the role ``*``, which owns no secret part."""
    from gameplay import new_game, play

    rs = registry.get(name)
    rec = Recorder(rs, monkeypatch)
    roles = main_roles(rs)
    found, checked = [], {"reports": 0, "lines": 0, "tokens": 0, "sentences": 0}
    for seed in range(max(1, n_seeds(request.config) // 3)):
        gid = f"conf{seed}"
        start = len(rec.phases)
        players = new_game(referee, name, roles, gid)
        play(referee, clock, players, gid, random.Random(seed), nmr_rate=NMR_RATE)
        phases = rec.phases[start:]
        names = {}
        for r in referee.all_reports(gid):
            events, parts = phases[r["seq"]]
            body = r["body"] if r["fmt"] == "text" else _html_text(r["body"])
            checked["reports"] += 1
            checked["tokens"] += len(hidden_tokens(parts, r["role"]))
            checked["sentences"] += len(private_sentences(events, r["role"]))
            for leak in check_leaks(body, parts, events, r["role"]):
                found.append(f"{gid} report of {r['role']} on {r['phase']} ({r['fmt']}): {leak}")
            names[r["phase"]] = r["seq"]
        seq = 0
        for line in referee.log_lines(gid):
            obj = json.loads(line)
            if obj.get("type") in ENGINE_REVEALS:
                continue
            if obj.get("type") == "phase-resolved":
                seq = names.get(obj["phase"], seq)
            events, parts = phases[min(seq, len(phases) - 1)]
            if obj.get("type") == "event":  # written before its phase-resolved line
                events, parts = phases[min(names.get(obj["phase"], seq), len(phases) - 1)]
            text = " . ".join([line, obj.get("text", ""), obj.get("why", "")])
            checked["lines"] += 1
            for leak in check_leaks(text, parts, events, PUBLIC):
                found.append(f"{gid} log line {obj.get('type')} {obj.get('phase', '')}: {leak}")
    assert not found, sorted(set(found))[:10]
    assert checked["reports"] and checked["lines"], checked


@pytest.mark.database_free
def test_the_leak_finder_can_fail():
    """Check 5 finds a hidden name and a private sentence, and not a public one nor a number."""
    from pbem.engine.ruleset import Event

    parts = Parts(public={"markers": {"u07": {"hex": "0609"}}, "turn": 3},
                  secret={"a": {"units": {"terran-1": {"marker": "u07", "value": 3}}},
                          "b": {"hints": ["5:higher"]}},
                  referee={"dealt": {"u08": "dummy-2"}})
    events = [Event("flight", "Flight for u07: die 2 is within its Evasion Rating.", ("a",)),
              Event("move", "Counter u07 moves to 0609 on turn 3.")]
    assert check_leaks("terran-1 is under u07", parts, events, "b") == ["a's 'terran-1'"]
    assert sorted(check_leaks("u08 is dummy-2", parts, events, PUBLIC)) == [
        "referee's 'dummy-2'", "referee's 'u08'"]
    assert check_leaks("Flight for u07: die 2 is within\n  its Evasion Rating.", parts, events,
                       "b")
    assert not check_leaks("terran-1 is under u07; Flight for u07: die 2 is within its "
                           "Evasion Rating.", parts, events, "a")
    assert not check_leaks("Counter u07 moves to 0609 on turn 3. terran-12 3", parts, events, "b")
    assert hidden_tokens(parts, "a") == {"5:higher": "b", "dummy-2": "referee", "u08": "referee"}


# ---------------------------------------------------------------- check 6

def _story(lines) -> list:
    """The course of a game as its log tells it, without digests, seeds or times: each window
    opened (who owed orders), whose orders were used, who missed a deadline, the public events
    by kind, and the result."""
    out = []
    for line in lines:
        o = json.loads(line)
        t = o.get("type")
        if t == "phase-open":
            out.append((t, o["phase"], tuple(o.get("owed", ()))))
        elif t == "orders-used":
            out.append((t, o["phase"], o["role"]))
        elif t == "phase-resolved":
            out.append((t, o["phase"], tuple(o.get("nmr", ()))))
        elif t == "event":
            out.append((t, o["phase"], o.get("kind")))
        elif t == "game-end":
            out.append((t, tuple(o.get("winners", ())), o.get("reason")))
    return out


@pytest.mark.parametrize("name", cases("example-replays"))
def test_example_game_replays(name, tmp_path):
    """``examples/<name>/``: ``make_example.replay(home, mail_dir, keys)`` (the entry point
    every example provides) replays the committed mails through a fresh referee home; the log
    it writes verifies, and tells the committed ``<game>.jsonl``'s story (:func:`_story`: the
    same windows, orders used, NMRs, public events and result). Byte equality of the log, the
    reports and the receipts is the examples' own regression test (tests/test_examples*.py);
    here a change of wording or of a data table's digest is not a failure to replay."""
    from pbem.verify import verify_log

    if name == "hunt":
        pytest.skip("the test toy has no worked example")
    folder = ROOT / "examples" / name
    assert (folder / "make_example.py").is_file(), f"{name}: no examples/{name}/make_example.py"
    (committed,) = folder.glob("*.jsonl")
    spec = importlib.util.spec_from_file_location(f"conformance_example_{name}",
                                                  folder / "make_example.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        play = module.replay(tmp_path / "home", folder / "mail", folder / "keys")
    finally:
        sys.modules.pop(spec.name, None)
    lines = play.referee.log_lines(committed.stem)
    report = verify_log(lines)
    assert report.ok, report.errors
    text = committed.read_text(encoding="utf-8")
    expected = [x for x in text.split("\n") if x]  # not splitlines: a line may hold U+2028
    assert _story(lines) == _story(expected), \
        f"the replay does not tell the story of {committed.relative_to(ROOT)}"
