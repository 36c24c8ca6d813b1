"""Long public logs (issue 11: "`pbem verify` of a 1,000,000-roll log" and "the phase that ends a
game with a 200,000-line log"): the verifier keeps only a few bytes per line yet names the line a
broken ``prev`` points back to; the end of a game reads only the log lines its reveal needs
(pbem.store.loglines) and the log still verifies; exports and ``pbem verify GAME`` stream it.

Independent checks: the line a ``prev`` points back to is found here with a dict of every line's
SHA-256; the end-of-game reveal is checked by the verifier, which re-derives every hidden roll
from the revealed seed and each phase's nonces; sizes and counts are computed here.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from click.testing import CliRunner
from conftest import incoming
from gameplay import new_game

from pbem.dice import DiceStream, commitment
from pbem.ledger import (Ledger, dice_commit_line, dice_reveal_line, line_hash, roll_line,
                         utc_stamp)
from pbem.verify import verify_log


def seed_of(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


def long_phases(game: str, count: int, roles, rolls=20, hidden=3) -> list[dict]:
    """``count`` phases of a long game: dice-commit, public d6 rolls, hidden rolls, dice-reveal
    with the real seed and nonces (dicts without ``prev``)."""
    out = []
    for p in range(count):
        phase = f"long-{p}"
        seed, nonces = seed_of(f"seed {p}"), {r: f"{r}-{p}" for r in roles}
        out.append(dice_commit_line(game, phase, commitment(seed)))
        dice = DiceStream(seed, game, phase, nonces)
        for i in range(rolls):
            dice.roll(6, f"attack {i}")
        out += [roll_line(game, phase, r) for r in dice.rolls]
        cup = DiceStream(seed_of(f"any {p}"), game, phase, nonces, hidden=True)
        for i in range(hidden):
            cup.roll(8, f"cup {i}")
        out += [roll_line(game, phase, r, hidden=True) for r in cup.rolls]
        out.append(dice_reveal_line(game, phase, seed, nonces))
    return out


def chained(objs: list[dict]) -> list[str]:
    ledger = Ledger()
    return [ledger.append(dict(o, at="2026-11-29T20:15:00Z")) for o in objs]


# --- the verifier on long and broken logs ----------------------------------------------------

def pointed_back(lines: list[str]) -> list[tuple[int, int | None]]:
    """(line number, the first earlier line whose hash its ``prev`` is, or None) for each line
    whose ``prev`` is not the hash of the line before it: computed here, from every hash."""
    first: dict[str, int] = {}
    out, last = [], None
    for n, line in enumerate(lines, 1):
        prev = json.loads(line)["prev"]
        if n > 1 and prev != last:
            out.append((n, first.get(prev)))
        last = line_hash(line)
        first.setdefault(last, n)
    return out


@pytest.mark.parametrize("swaps", [3, 150])  # a few breaks, and more than the verifier scans
def test_a_broken_prev_names_the_line_it_points_back_to(swaps):
    lines = chained(long_phases("g", 60, ("red", "blue")))
    rng = random.Random(swaps)
    for _ in range(swaps):  # move lines about, and copy some further down
        i, j = sorted(rng.sample(range(1, len(lines)), 2))
        lines[i], lines[j] = lines[j], lines[i]
        if rng.random() < 0.3:
            lines.insert(j, lines[i])
    expected = pointed_back(lines)
    assert len(expected) >= swaps
    errors = [e for e in verify_log(lines).errors if "chain broken" in e]
    assert [int(e.split(":")[1]) for e in errors] == [n for n, _ in expected]
    for e, (n, earlier) in zip(errors, expected):
        if earlier is not None:
            assert f"that is the hash of line {earlier}:" in e, e
        else:
            assert "that is the hash of line" not in e, e


def test_a_long_log_verifies_and_drops_each_phase_s_rolls_once_revealed():
    import tracemalloc

    objs = long_phases("g", 400, ("red", "blue"), rolls=100, hidden=0)
    lines = chained(objs)
    tracemalloc.start()
    try:
        report = verify_log(iter(lines))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.ok and report.rolls_verified == 400 * 100 and report.lines == len(lines)
    # a phase's rolls are kept until its reveal, a line's hash in 12 bytes: a dict of every
    # line's hex hash alone would take about 200 bytes a line
    assert peak < 64 * len(lines), (peak, len(lines))


def spaced(objs: list[dict]) -> list[str]:
    """The same log written with spaces after ``:`` and ``,`` (valid JSON, chained the same
    way, but not pbem's canonical form): the verifier reads it with its JSON parser only."""
    out, prev = [], "0" * 64
    for obj in objs:
        line = json.dumps(dict(obj, at="2026-11-29T20:15:00Z", prev=prev), sort_keys=True,
                          ensure_ascii=False)
        out.append(line)
        prev = line_hash(line)
    return out


def test_roll_lines_read_without_the_json_parser_are_judged_as_with_it():
    objs = long_phases("g", 6, ("red", "blue"), rolls=12, hidden=1)
    rolls = [i for i, o in enumerate(objs) if o["type"] == "roll" and "stream" not in o]
    objs[rolls[3]]["value"] = objs[rolls[3]]["value"] % 6 + 1         # not what the seed gives
    objs[rolls[5]]["value"] = 7                                        # more than the die has
    objs[rolls[8]]["index"] += 1                                       # a gap
    objs[rolls[20]]["sides"] = 300                                     # no such die
    objs.insert(rolls[30], dict(objs[rolls[30]], phase="nowhere"))     # no dice-commit before
    objs.append(dict(objs[rolls[40]], index=99))                       # after its phase's reveal
    objs.insert(rolls[50], dict(objs[rolls[50]], why="caf\u00e9 \u2028 \"quoted\""))
    fast, slow = verify_log(chained(objs), "log"), verify_log(spaced(objs), "log")
    assert len(fast.errors) >= 6 and not slow.ok
    assert (fast.errors, fast.warnings, fast.rolls_verified, fast.phases_verified) == \
        (slow.errors, slow.warnings, slow.rolls_verified, slow.phases_verified)
    assert fast.lines == slow.lines == len(objs)


# --- the end of a game with a long log --------------------------------------------------------

def append_long(referee, game_id: str, objs: list[dict], when) -> None:
    """Append ``objs`` to the game's log through pbem.store, chained from its head."""
    from pbem.store import repo

    with referee.db.write() as s:
        game = repo.get_game(s, game_id)
        ledger = Ledger(game.log_head)
        lines = [ledger.append(dict(o, at=utc_stamp(when))) for o in objs]
        repo.append_log(s, game, lines, ledger.last)


def test_a_game_with_a_long_log_ends_with_every_hidden_roll_revealed(referee, clock, tmp_path):
    players = new_game(referee, "hunt", ("red", "blue"), "h1", options={"turns": 1})
    bulk = long_phases("h1", 120, ("blue", "red"), rolls=30, hidden=4)
    append_long(referee, "h1", bulk, clock())
    for role in ("red", "blue"):
        text = players[role].signed("h1", 1, "dig", "dig 3", issued=clock())
        assert [v.status for v in referee.ingest([incoming(text)])] == ["accepted"]
    clock.advance(hours=1)
    (done,) = referee.process("h1")
    assert done.ended
    lines = referee.log_lines("h1")
    report = verify_log(lines, "h1")
    assert report.ok, report.summary()
    hidden = sum(1 for o in map(json.loads, lines) if o.get("stream") == "hidden")
    assert hidden == 120 * 4 + 1  # the long phases' and the treasure's
    assert report.hidden_verified == hidden and report.hidden_pending == 0
    (reveal,) = [o for o in map(json.loads, lines) if o["type"] == "hidden-reveal"]
    assert len(reveal["values"]) == hidden
    assert referee.outcome("h1")["reason"]
    # streamed: the export and `pbem verify GAME` read it in batches, the same lines
    path = referee.export_log("h1", tmp_path / "h1.jsonl")
    assert path.read_text(encoding="utf-8") == "".join(line + "\n" for line in lines)
    assert list(referee.iter_log_lines("h1")) == lines


def test_lines_are_read_in_batches_and_found_by_their_text(referee, clock):
    from pbem.store import loglines

    new_game(referee, "hunt", ("red", "blue"), "h1")
    tricky = [{"type": "event", "game": "h1", "phase": "x", "kind": "note",
               "text": 'the text "type":"dice-reveal" inside a string, 100% and a_b'},
              {"type": "event", "game": "h1", "phase": "x", "kind": "note",
               "data": {"type": "dice-reveal"}, "text": "nested"}]
    append_long(referee, "h1", long_phases("h1", 3, ("red", "blue"), rolls=2, hidden=1) + tricky,
                clock())
    lines = referee.log_lines("h1")
    with referee.db.read() as s:
        for batch in (1, 7, len(lines), 10_000):
            assert list(loglines.iter_lines(s, "h1", batch)) == lines
        found = loglines.matching(s, "h1", loglines.REVEAL_NEEDLES, pending=["{}", lines[0]])
        literal = loglines.matching(s, "h1", ["100%", "a_b"])
    # a needle is found where it stands as written: a top-level field, or a nested object's;
    # inside a string its quotes are escaped
    want = [line for line in lines if json.loads(line)["type"] in ("dice-commit", "dice-reveal")
            or json.loads(line).get("stream") == "hidden"
            or json.loads(line).get("data") == {"type": "dice-reveal"}]
    assert found == want + ([lines[0]] if lines[0] in want else [])
    assert literal == [line for line in lines if "100%" in line]


def test_pbem_verify_of_a_game_id_streams_its_log(referee, clock):
    from pbem.cli import main

    new_game(referee, "hunt", ("red", "blue"), "h1")
    append_long(referee, "h1", long_phases("h1", 30, ("red", "blue")), clock())
    lines = referee.log_lines("h1")
    public = sum(1 for o in map(json.loads, lines) if o["type"] == "roll" and "stream" not in o)
    r = CliRunner().invoke(main, ["--home", str(referee.home.path), "verify", "h1"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith(f"h1: OK: {len(lines)} lines;")
    assert f"; {public} rolls verified, 0 pending;" in r.output
