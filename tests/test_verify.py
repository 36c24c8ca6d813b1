"""Tests of pbem.verify on synthetic game logs built with pbem.dice and pbem.ledger.

Each forged log is re-chained with a fresh Ledger, as a dishonest referee would write it, so the
checks under test are the dice and commitment checks, not the hash chain. The expected values in
messages are recomputed here from DESIGN.md's construction (``ref_rolls`` below).
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pbem.dice import DiceStream, Roll, commitment
from pbem.ledger import (
    Ledger,
    dice_commit_line,
    dice_reveal_line,
    game_created_line,
    hidden_commit_line,
    hidden_reveal_line,
    orders_line,
    roll_line,
    setup_commit_line,
    setup_commitment,
    setup_reveal_line,
)
from pbem.verify import VerifyReport, verify_file, verify_log

GAME = "atl-7"
ROLES = ("blue", "green", "red")
AT = "2026-11-29T20:15:00Z"
DOCS = Path(__file__).resolve().parent.parent / "docs" / "dice.md"


def seed_of(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


@dataclass
class Game:
    """A synthetic game log as dicts (no prev yet) and what the test knows about it."""

    objs: list[dict] = field(default_factory=list)
    public_rolls: int = 0
    hidden_rolls: int = 0
    phases: list[str] = field(default_factory=list)
    hidden_values: list[int] = field(default_factory=list)
    nonces: dict[str, dict[str, str]] = field(default_factory=dict)  # phase -> revealed nonces

    def add(self, obj: dict) -> int:
        obj["at"] = AT
        self.objs.append(obj)
        return len(self.objs)  # its 1-based line number

    def lines(self) -> list[str]:
        return chain(self.objs)

    def find(self, **match) -> list[int]:
        """0-based positions of the dicts whose fields equal ``match``."""
        return [i for i, o in enumerate(self.objs) if all(o.get(k) == v for k, v in match.items())]


def chain(objs: list[dict]) -> list[str]:
    ledger = Ledger()
    return [ledger.append(dict(obj)) for obj in objs]


def nonces_of(phase: str, roles=ROLES) -> dict[str, str]:
    return {role: hashlib.md5(f"{role} {phase}".encode()).hexdigest() for role in roles}


def build_game(turns: int = 3, finished: bool = True) -> Game:
    """A three-player game, written as the engine writes it (docs/dice.md, docs/log.md):

    - creation, phase ``0.create``: hidden-commit, a public roll and a hidden roll with no nonces
      (no orders exist yet), dice-reveal with ``{}``;
    - the first window, ``0.setup``: orders, the hidden setup dealt from the hidden stream keyed
      with the window's nonces (a 12-tile shuffle), dice-reveal, then the setup-commit;
    - per turn a committed phase with orders, public rolls (d6s, a d20, a shuffle) and hidden cup
      draws keyed with the turn's nonces (green sends nothing on turn 2);
    - the end-of-game reveals.
    """
    g = Game()
    hidden_seed, salt = seed_of("hidden"), seed_of("salt")[:16]
    g.add(game_created_line(GAME, "atlantis", list(ROLES), {"end": "all"},
                            "pbem-ed25519 AAAA referee", None))
    g.add(hidden_commit_line(GAME, commitment(hidden_seed)))

    def phase(name: str, seed: bytes, nonces: dict, draw) -> DiceStream:
        g.add(dice_commit_line(GAME, name, commitment(seed)))
        g.add({"type": "phase-open", "game": GAME, "phase": name})
        for role in sorted(nonces):
            g.add(orders_line(GAME, name, role, "ab" * 32, AT))
        public = DiceStream(seed, GAME, name, nonces)
        hidden = DiceStream(hidden_seed, GAME, name, nonces, hidden=True)
        draw(public, hidden)
        for roll in public.rolls:
            g.add(roll_line(GAME, name, roll))
        for roll in hidden.rolls:
            g.add(roll_line(GAME, name, roll, hidden=True))
        g.add({"type": "event", "game": GAME, "phase": name, "kind": "sink", "text": "0507 sinks"})
        g.add(dice_reveal_line(GAME, name, seed, nonces))
        g.add({"type": "phase-resolved", "game": GAME, "phase": name})
        g.phases.append(name)
        g.nonces[name] = nonces
        g.public_rolls += len(public.rolls)
        g.hidden_rolls += len(hidden.rolls)
        g.hidden_values += [r.value for r in hidden.rolls]
        return hidden

    def create(public: DiceStream, hidden: DiceStream) -> None:
        public.roll(6, "first player")
        hidden.roll(4, "spare tile")

    phase("0.create", seed_of("create"), {}, create)
    tiles: list[str] = []
    phase("0.setup", seed_of("setup"), nonces_of("0.setup"),
          lambda public, hidden: tiles.extend(hidden.shuffle([f"tile-{i}" for i in range(12)],
                                                             "island tiles")))
    hidden_setup = {"tiles": tiles, "people": {"red": [1, 1, 2, 3, 4, 5, 6]}}
    g.add(setup_commit_line(GAME, setup_commitment(salt, hidden_setup)))  # once dealt

    for turn in range(1, turns + 1):
        def play(public: DiceStream, hidden: DiceStream, turn: int = turn) -> None:
            for i in range(5 + turn):
                public.roll(6, f"shark attack {i}")
            public.roll(20, "storm")
            public.shuffle(["whale", "shark", "boat", "kraken"], "creature die faces")
            hidden.roll(8, "cup draw")
            hidden.roll(8, "cup draw")

        roles = [r for r in ROLES if not (turn == 2 and r == "green")]  # green sends nothing
        phase(f"{turn}.movement", seed_of(f"phase {turn}"), nonces_of(f"{turn}.movement", roles), play)
    if finished:
        g.add({"type": "game-end", "game": GAME, "winners": ["red"]})
        g.add(hidden_reveal_line(GAME, hidden_seed, g.hidden_values))
        g.add(setup_reveal_line(GAME, salt, hidden_setup))
    return g


# --- an independent re-derivation, from DESIGN.md's text --------------------------------------

def ref_rolls(seed: bytes, game: str, phase: str, nonces: dict, sides: list[int],
              hidden: bool = False) -> list[int]:
    prefix = "pbem-dice/1/hidden\n" if hidden else "pbem-dice/1\n"
    msg = prefix + game + "\n" + phase + "\n" + "\n".join(f"{r}={nonces[r]}" for r in sorted(nonces))
    key = hmac.new(seed, msg.encode(), hashlib.sha256).digest()
    data = b"".join(hmac.new(key, c.to_bytes(8, "big"), hashlib.sha256).digest() for c in range(40))
    out, pos = [], 0
    for n in sides:
        while data[pos] >= 256 - 256 % n:
            pos += 1
        out.append(data[pos] % n + 1)
        pos += 1
    return out


def errors_at(report: VerifyReport, line: int) -> list[str]:
    return [e for e in report.errors if e.startswith(f"log:{line}: ")]


# --- a correct log ----------------------------------------------------------------------------

def test_synthetic_game_verifies():
    g = build_game()
    report = verify_log(g.lines())
    assert report.ok, report.summary()
    assert report.warnings == []
    assert report.lines == len(g.objs)
    # 0.create, 0.setup and three turns.
    assert report.phases_verified == 5 and report.phases_pending == 0
    assert report.rolls_verified == g.public_rolls == 1 + (6 + 7 + 8) + 3 * (1 + 3)
    assert report.rolls_pending == 0
    assert report.hidden_verified == g.hidden_rolls == 1 + 11 + 3 * 2
    assert report.hidden_pending == 0
    assert report.setups_verified == 1
    assert "OK" in report.summary() and "5 phases verified" in report.summary()


def test_logged_values_match_an_independent_derivation():
    # The log our code writes holds the values DESIGN.md's construction gives.
    g = build_game(turns=1)
    rolls = [o for o in g.objs if o["type"] == "roll" and o.get("stream") is None
             and o["phase"] == "1.movement"]
    reveal = g.objs[g.find(type="dice-reveal", phase="1.movement")[0]]
    expected = ref_rolls(bytes.fromhex(reveal["seed"]), GAME, "1.movement", reveal["nonces"],
                         [r["sides"] for r in rolls])
    assert [r["value"] for r in rolls] == expected


def test_verify_accepts_bytes_files_and_crlf(tmp_path):
    lines = build_game().lines()
    path = tmp_path / "game.log"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8", newline="\n")
    report = verify_file(str(path))
    assert report.ok and report.source == str(path) and report.rolls_verified > 0
    crlf = [line.encode() + b"\r\n" for line in lines]
    assert verify_log(crlf).ok
    assert verify_log(line + "\n" for line in lines).ok


def test_non_ascii_text_in_lines():
    g = build_game(turns=1)
    g.objs.insert(5, {"type": "event", "game": GAME, "text": "Der Wal frisst 2 Leute\u2028Überlebende: 3",
                      "at": AT})
    report = verify_log(g.lines())
    assert report.ok, report.summary()


# --- what the verifier must catch ------------------------------------------------------------------

def test_wrong_roll_value_is_reported_with_the_true_value():
    g = build_game()
    pos = g.find(type="roll", phase="2.movement", index=3)[0]
    roll = g.objs[pos]
    reveal = g.objs[g.find(type="dice-reveal", phase="2.movement")[0]]
    true = ref_rolls(bytes.fromhex(reveal["seed"]), GAME, "2.movement", reveal["nonces"], [6] * 4)[3]
    assert roll["value"] == true
    roll["value"] = true % 6 + 1
    report = verify_log(g.lines())
    assert not report.ok
    assert len(report.errors) == 1
    assert errors_at(report, pos + 1) == [
        f"log:{pos + 1}: roll of phase '2.movement' (d6): expected {true} from the seed revealed at "
        f"line {g.find(type='dice-reveal', phase='2.movement')[0] + 1}, found {true % 6 + 1}"]
    assert report.phases_verified == 4 and report.rolls_verified == g.public_rolls - 1


def test_wrong_seed_is_reported():
    g = build_game()
    pos = g.find(type="dice-reveal", phase="1.movement")[0]
    wrong = seed_of("another seed")
    g.objs[pos]["seed"] = wrong.hex()
    report = verify_log(g.lines())
    [error] = report.errors
    assert error.startswith(f"log:{pos + 1}: dice-reveal for phase '1.movement': expected a seed whose "
                            f"sha256 is the commit {commitment(seed_of('phase 1'))}")
    assert f"found sha256(seed) = {hashlib.sha256(wrong).hexdigest()}" in error


def test_changed_nonces_are_caught_by_the_values():
    g = build_game()
    pos = g.find(type="dice-reveal", phase="3.movement")[0]
    g.objs[pos]["nonces"]["red"] = "0" * 32
    report = verify_log(g.lines())
    assert not report.ok
    assert all("roll of phase '3.movement'" in e for e in report.errors)


def test_nonces_left_out_give_a_warning():
    g = build_game()
    pos = g.find(type="dice-reveal", phase="1.movement")[0]
    del g.objs[pos]["nonces"]["green"]  # the referee drops a player's nonce to steer the dice
    report = verify_log(g.lines())
    assert any(w.startswith(f"log:{pos + 1}: dice-reveal for phase '1.movement': expected nonces of "
                            "the roles whose orders were accepted ['blue', 'green', 'red'], found "
                            "nonces of ['blue', 'red']") for w in report.warnings)
    assert not report.ok  # and the rolls no longer match


def test_missing_reveal_is_pending_not_an_error():
    g = build_game(finished=False)
    pos = g.find(type="dice-reveal", phase="3.movement")[0]
    del g.objs[pos]
    del g.objs[pos:]  # the log stops while phase 3 resolves
    report = verify_log(g.lines())
    assert report.ok, report.summary()
    assert report.phases_verified == 4 and report.phases_pending == 1
    assert report.rolls_pending == 8 + 1 + 3
    assert report.rolls_verified == g.public_rolls - 12
    assert report.hidden_pending == g.hidden_rolls and report.hidden_verified == 0
    assert report.setups_pending == 1
    assert report.warnings == []


def test_truncated_log_at_every_line_is_never_an_error():
    lines = build_game(turns=2).lines()
    for cut in range(len(lines) + 1):
        report = verify_log(lines[:cut])
        assert report.ok, (cut, report.summary())


def test_unrevealed_after_game_end_is_warned():
    g = build_game()
    del g.objs[g.find(type="hidden-reveal")[0]]
    report = verify_log(g.lines())
    assert report.ok and report.hidden_pending == g.hidden_rolls
    end = g.find(type="game-end")[0] + 1
    assert [w for w in report.warnings if w.startswith(f"log:{end}: game 'atl-7' ended but its hidden seed")]


def test_wrong_hidden_value_is_reported_at_its_roll_line():
    g = build_game()
    reveal = g.objs[g.find(type="hidden-reveal")[0]]
    hidden_lines = g.find(type="roll", stream="hidden")
    k = 14  # the first hidden roll of turn 2: 1 creation, 11 setup and 2 turn-1 draws come first
    true = reveal["values"][k]
    reveal["values"][k] = true % 8 + 1
    report = verify_log(g.lines())
    assert len(report.errors) == 1
    assert report.errors[0].startswith(f"log:{hidden_lines[k] + 1}: hidden roll of phase '2.movement' (d8): "
                                       f"expected {true} from the seed revealed at line")
    assert report.hidden_verified == g.hidden_rolls - 1


def test_hidden_values_match_an_independent_derivation():
    g = build_game(turns=1)
    reveal = g.objs[g.find(type="hidden-reveal")[0]]
    seed = bytes.fromhex(reveal["seed"])
    setup_sides = [r["sides"] for r in g.objs if r.get("stream") == "hidden" and r["phase"] == "0.setup"]
    assert setup_sides == list(range(12, 1, -1))
    # Each phase's hidden stream is keyed with the nonces of that phase's dice-reveal ({} at creation).
    revealed = {o["phase"]: o["nonces"] for o in g.objs if o["type"] == "dice-reveal"}
    assert revealed["0.create"] == {} and sorted(revealed["0.setup"]) == list(ROLES)
    expected = (ref_rolls(seed, GAME, "0.create", {}, [4], hidden=True)
                + ref_rolls(seed, GAME, "0.setup", revealed["0.setup"], setup_sides, hidden=True)
                + ref_rolls(seed, GAME, "1.movement", revealed["1.movement"], [8, 8], hidden=True))
    assert reveal["values"] == expected
    # Not the values the old rule (no nonces) gives.
    assert expected[1:12] != ref_rolls(seed, GAME, "0.setup", {}, setup_sides, hidden=True)


def test_wrong_hidden_value_count_is_reported():
    g = build_game()
    pos = g.find(type="hidden-reveal")[0]
    g.objs[pos]["values"].pop()
    report = verify_log(g.lines())
    assert errors_at(report, pos + 1) == [
        f"log:{pos + 1}: hidden-reveal: expected {g.hidden_rolls} values (one per hidden roll line), "
        f"found {g.hidden_rolls - 1}"]


def test_wrong_hidden_seed_is_reported():
    g = build_game()
    pos = g.find(type="hidden-reveal")[0]
    g.objs[pos]["seed"] = seed_of("phase 1").hex()
    report = verify_log(g.lines())
    [error] = report.errors
    assert error.startswith(f"log:{pos + 1}: hidden-reveal: expected a seed whose sha256 is the commit")


def test_wrong_setup_salt_is_reported():
    g = build_game()
    pos = g.find(type="setup-reveal")[0]
    salt = bytes.fromhex(g.objs[pos]["salt"])
    g.objs[pos]["salt"] = bytes([salt[0] ^ 1]).hex() + salt[1:].hex()
    report = verify_log(g.lines())
    [error] = report.errors
    assert error.startswith(f"log:{pos + 1}: setup-reveal: expected sha256(salt + canonical JSON of "
                            "'hidden') to be the commit")
    assert report.setups_verified == 0


def test_changed_hidden_setup_is_reported():
    g = build_game()
    pos = g.find(type="setup-reveal")[0]
    g.objs[pos]["hidden"]["people"]["red"][0] = 6
    report = verify_log(g.lines())
    assert len(errors_at(report, pos + 1)) == 1 and not report.ok


def test_setup_commitment_is_recomputed_independently():
    g = build_game()
    commit = g.objs[g.find(type="setup-commit")[0]]["commit"]
    reveal = g.objs[g.find(type="setup-reveal")[0]]
    text = json.dumps(reveal["hidden"], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert hashlib.sha256(bytes.fromhex(reveal["salt"]) + text.encode()).hexdigest() == commit


# --- hidden streams keyed with the nonces of their phase -----------------------------------------

def test_wrong_nonce_in_a_dice_reveal_fails_the_hidden_values():
    # 0.setup has no public rolls: only its hidden stream depends on the nonces revealed for it.
    g = build_game()
    pos = g.find(type="dice-reveal", phase="0.setup")[0]
    wrong = dict(g.nonces["0.setup"], green="0" * 32)
    g.objs[pos]["nonces"] = wrong
    reveal_pos = g.find(type="hidden-reveal")[0]
    reveal = g.objs[reveal_pos]
    setup_lines = g.find(type="roll", stream="hidden", phase="0.setup")
    logged = reveal["values"][1:12]  # after the creation draw
    derived = ref_rolls(bytes.fromhex(reveal["seed"]), GAME, "0.setup", wrong, list(range(12, 1, -1)),
                        hidden=True)
    bad = [(line, want, found) for line, want, found in zip(setup_lines, derived, logged) if want != found]
    assert len(bad) >= 5  # a fixed game: most of the 11 draws differ under another key
    report = verify_log(g.lines())
    assert not report.ok
    assert report.errors == [
        f"log:{line + 1}: hidden roll of phase '0.setup' (d{g.objs[line]['sides']}): expected {want} from "
        f"the seed revealed at line {reveal_pos + 1}, found {found} in its 'values'"
        for line, want, found in bad]
    assert report.hidden_verified == g.hidden_rolls - len(bad)
    assert report.phases_verified == 5  # the public side of 0.setup still checks out


def test_wrong_nonce_of_a_turn_fails_its_public_and_hidden_values():
    g = build_game()
    pos = g.find(type="dice-reveal", phase="2.movement")[0]
    g.objs[pos]["nonces"]["red"] = "f" * 32
    report = verify_log(g.lines())
    assert any(e.startswith("log:") and "roll of phase '2.movement' (d6)" in e for e in report.errors)
    hidden = [e for e in report.errors if "hidden roll of phase" in e]
    assert hidden and all("hidden roll of phase '2.movement' (d8)" in e for e in hidden)


def test_hidden_stream_with_the_old_rule_is_refused():
    # A referee who keys the hidden stream without nonces (the old rule) is caught.
    g = build_game(turns=1)
    hidden_seed = seed_of("hidden")
    pos = g.find(type="hidden-reveal")[0]
    old = [DiceStream(hidden_seed, GAME, phase, {}, hidden=True) for phase in ("0.create", "0.setup",
                                                                              "1.movement")]
    sides = [o["sides"] for o in g.objs if o.get("stream") == "hidden"]
    old_values = ([old[0].draw(sides[0])] + [old[1].draw(n) for n in sides[1:12]]
                  + [old[2].draw(n) for n in sides[12:]])
    assert old_values[0] == g.hidden_values[0]  # 0.create has no nonces under either rule
    g.objs[pos]["values"] = old_values
    report = verify_log(g.lines())
    assert not report.ok
    assert all("hidden roll of phase '0.setup'" in e or "hidden roll of phase '1.movement'" in e
               for e in report.errors)


@pytest.mark.parametrize("where", ["removed", "after the hidden-reveal"])
def test_hidden_rolls_need_their_phase_dice_reveal_first(where):
    g = build_game()
    pos = g.find(type="dice-reveal", phase="0.setup")[0]
    moved = g.objs.pop(pos)
    if where != "removed":
        g.objs.append(moved)
    first = g.find(type="roll", stream="hidden", phase="0.setup")[0] + 1
    reveal = g.find(type="hidden-reveal")[0] + 1
    report = verify_log(g.lines())
    assert report.errors == [
        f"log:{reveal}: hidden-reveal: the hidden rolls of phase '0.setup' (the first at line {first}) "
        "are not re-derived: expected the phase's dice-reveal before this line (its nonces key the "
        "phase's hidden stream), found none"]
    assert report.hidden_verified == g.hidden_rolls - 11  # the other phases are still checked


@pytest.mark.parametrize("nonces, dice_error, hidden_error", [
    (["blue", "red"], "dice-reveal line: expected 'nonces' as an object of role: nonce strings",
     "has no valid 'nonces' to key its hidden stream"),
    ({"blue=red": "00"}, "dice-reveal for phase '0.setup': role 'blue=red' holds '='",
     "cannot key a stream: role 'blue=red' holds '='"),
])
def test_unusable_nonces_in_a_dice_reveal(nonces, dice_error, hidden_error):
    g = build_game()
    pos = g.find(type="dice-reveal", phase="0.setup")[0]
    g.objs[pos]["nonces"] = nonces
    first = g.find(type="roll", stream="hidden", phase="0.setup")[0] + 1
    reveal = g.find(type="hidden-reveal")[0] + 1
    report = verify_log(g.lines())
    assert len(report.errors) == 2
    assert report.errors[0].startswith(f"log:{pos + 1}: {dice_error}")
    assert report.errors[1].startswith(
        f"log:{reveal}: hidden-reveal: the hidden rolls of phase '0.setup' (the first at line {first}) "
        f"are not re-derived: ")
    assert hidden_error in report.errors[1] and f"(line {pos + 1})" in report.errors[1]


# --- when the setup-commit comes -------------------------------------------------------------------

@pytest.mark.parametrize("where", ["creation", "after 0.setup", "after turn 2", "after game-end"])
def test_setup_commit_anywhere_before_its_reveal(where):
    # Written by pbem at the end of the window that dealt the setup; accepted anywhere before the
    # setup-reveal (docs/log.md, "setup-commit").
    g = build_game()
    commit = g.objs.pop(g.find(type="setup-commit")[0])
    if where == "creation":
        at = g.find(type="hidden-commit")[0] + 1
    elif where == "after 0.setup":
        at = g.find(type="phase-resolved", phase="0.setup")[0] + 1
    elif where == "after turn 2":
        at = g.find(type="phase-resolved", phase="2.movement")[0] + 1
    else:
        at = g.find(type="hidden-reveal")[0]
    g.objs.insert(at, commit)
    report = verify_log(g.lines())
    assert report.ok and report.warnings == [], report.summary()
    assert report.setups_verified == 1


def test_setup_commit_after_its_reveal_is_reported():
    g = build_game()
    commit = g.objs.pop(g.find(type="setup-commit")[0])
    g.objs.append(commit)
    reveal = g.find(type="setup-reveal")[0] + 1
    report = verify_log(g.lines())
    assert report.errors == [f"log:{reveal}: setup-reveal: expected a setup-commit before it, found none"]


def test_second_setup_commit_is_reported():
    g = build_game()
    first = g.find(type="setup-commit")[0]
    g.objs.insert(g.find(type="phase-resolved", phase="1.movement")[0] + 1, copy.deepcopy(g.objs[first]))
    second = g.find(type="setup-commit")[1]
    report = verify_log(g.lines())
    assert report.errors == [f"log:{second + 1}: setup-commit: expected one per game, found a second "
                             f"(the first is line {first + 1})"]


def test_roll_before_its_commit():
    g = build_game()
    commit_pos = g.find(type="dice-commit", phase="2.movement")[0]
    commit = g.objs.pop(commit_pos)
    first_roll = g.find(type="roll", phase="2.movement", index=0)[0]
    g.objs.insert(first_roll + 1, commit)  # committed after the first roll
    report = verify_log(g.lines())
    assert errors_at(report, first_roll + 1) == [
        f"log:{first_roll + 1}: roll of phase '2.movement': expected a dice-commit for the phase "
        "before its rolls, found none"]
    assert errors_at(report, first_roll + 2)[0].startswith(
        f"log:{first_roll + 2}: dice-commit for phase '2.movement': expected before the phase's rolls")


def test_index_gap_is_reported():
    g = build_game()
    pos = g.find(type="roll", phase="1.movement", index=2)[0]
    del g.objs[pos]
    report = verify_log(g.lines())
    assert errors_at(report, pos + 1) == [
        f"log:{pos + 1}: public roll of phase '1.movement': expected index 2, found 3 (indices count "
        "from 0 without gaps)"]
    assert any("its 9 rolls are not re-derived" in e for e in report.errors)
    assert report.phases_verified == 4


def test_hidden_index_gap_is_reported():
    g = build_game()
    pos = g.find(type="roll", stream="hidden", phase="0.setup", index=0)[0]
    g.objs[pos]["index"] = 1
    report = verify_log(g.lines())
    assert errors_at(report, pos + 1)[0] == (
        f"log:{pos + 1}: hidden roll of phase '0.setup': expected index 0, found 1 (indices count "
        "from 0 without gaps)")


def test_roll_after_reveal_is_reported():
    g = build_game()
    reveal = g.find(type="dice-reveal", phase="1.movement")[0]
    g.objs.insert(reveal + 1, roll_line(GAME, "1.movement", Roll(10, 6, 3, "late")))
    report = verify_log(g.lines())
    assert errors_at(report, reveal + 2) == [
        f"log:{reveal + 2}: roll of phase '1.movement': expected none after the phase's dice-reveal "
        f"(line {reveal + 1}), found one"]


def test_hidden_roll_with_a_value_is_reported():
    g = build_game()
    pos = g.find(type="roll", stream="hidden")[0]
    g.objs[pos]["value"] = 3
    report = verify_log(g.lines())
    assert errors_at(report, pos + 1) == [
        f"log:{pos + 1}: hidden roll: expected no 'value' while the game runs, found 3"]


def test_second_commit_and_second_reveal_are_reported():
    g = build_game()
    commit = g.find(type="dice-commit", phase="1.movement")[0]
    g.objs.insert(commit + 1, dice_commit_line(GAME, "1.movement", "0" * 64))
    reveal = g.find(type="dice-reveal", phase="1.movement")[0]
    g.objs.insert(reveal + 1, copy.deepcopy(g.objs[reveal]))
    report = verify_log(g.lines())
    assert errors_at(report, commit + 2)[0].startswith(
        f"log:{commit + 2}: dice-commit for phase '1.movement': expected one per phase, found a second "
        f"(the first is line {commit + 1})")
    assert errors_at(report, reveal + 2)[0].startswith(
        f"log:{reveal + 2}: dice-reveal for phase '1.movement': expected one, found a second")


@pytest.mark.parametrize("field_name, value, needle", [
    ("index", -1, "expected 'index' as an integer >= 0, found -1"),
    ("index", "3", "expected 'index' as an integer >= 0, found '3'"),
    ("sides", 1, "expected 'sides' as an integer from 2 to 256, found 1"),
    ("sides", 6.0, "expected 'sides' as an integer from 2 to 256, found 6.0"),
    ("value", 7, "expected 'value' as an integer from 1 to 6, found 7"),
    ("value", True, "expected 'value' as an integer from 1 to 6, found True"),
    ("phase", None, "expected a string 'phase', found None"),
    ("stream", "secret", "expected no 'stream' (public) or \"hidden\", found 'secret'"),
])
def test_malformed_roll_fields(field_name, value, needle):
    g = build_game()
    pos = g.find(type="roll", phase="1.movement", index=0)[0]
    g.objs[pos][field_name] = value
    report = verify_log(g.lines())
    assert any(e.startswith(f"log:{pos + 1}: roll line: {needle}") for e in report.errors), report.errors


@pytest.mark.parametrize("line, needle", [
    ("not json", "expected one JSON object, found text that is not JSON"),
    ("[1, 2]", "expected one JSON object, found list"),
    ("", "expected one JSON object, found an empty line"),
])
def test_lines_that_are_not_objects(line, needle):
    lines = build_game(turns=1).lines()
    lines.insert(4, line)
    report = verify_log(lines)
    assert errors_at(report, 5)[0].startswith(f"log:5: {needle}")


def test_odd_objects_do_not_crash_the_verifier():
    lines = build_game(turns=1).lines()
    ledger = Ledger.after(lines)
    lines.append(ledger.append({"type": "event", "at": AT}).replace('"type":"event"', '"type":["roll"]'))
    lines.append("[" * 100_000 + "]" * 100_000)
    report = verify_log(lines)
    n = len(lines)
    assert report.lines == n
    assert [w for w in report.warnings if w.startswith(f"log:{n - 1}: expected a string 'type', found ['roll']")]
    assert errors_at(report, n)[0].startswith(f"log:{n}: expected one JSON object, found text that is not JSON")


def test_late_commit_still_checks_the_values():
    g = build_game()
    commit = g.objs.pop(g.find(type="dice-commit", phase="1.movement")[0])
    g.objs.insert(g.find(type="roll", phase="1.movement", index=3)[0], commit)
    report = verify_log(g.lines())
    assert len(report.errors) == 2  # the first roll without a commit, and the late commit
    assert report.rolls_verified == g.public_rolls


def test_invalid_utf8_is_reported():
    lines = [line.encode() for line in build_game(turns=1).lines()]
    lines[2] = lines[2].replace(b"atl-7", b"atl-\xff")
    report = verify_log(lines, source="g.log")
    assert report.errors[0].startswith("g.log:3: expected UTF-8, found byte b'\\xff'")


def test_source_names_the_file_in_every_message():
    g = build_game()
    g.objs[g.find(type="roll", index=0)[0]]["value"] = 99
    report = verify_log(g.lines(), source="atl-7.log")
    assert report.errors and all(e.startswith("atl-7.log:") for e in report.errors)
    assert "atl-7.log: FAILED" in report.summary()


# --- the verifier players can copy from docs/dice.md --------------------------------------------

def docs_verifier(tmp_path: Path) -> Path:
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(# check_log\.py.*?)```", text, re.S)
    assert len(blocks) == 1, "docs/dice.md must hold one ```python block starting '# check_log.py'"
    path = tmp_path / "check_log.py"
    path.write_text(blocks[0], encoding="utf-8")
    return path


def run_docs_verifier(tmp_path: Path, lines: list[str]) -> subprocess.CompletedProcess:
    log = tmp_path / "game.log"
    log.write_text("".join(line + "\n" for line in lines), encoding="utf-8", newline="\n")
    return subprocess.run([sys.executable, "-I", str(docs_verifier(tmp_path)), str(log)],
                          capture_output=True, text=True, timeout=60)


def test_docs_verifier_is_short_and_standard_library_only(tmp_path):
    source = docs_verifier(tmp_path).read_text()
    assert len(source.splitlines()) <= 60
    imports = re.findall(r"^import (.*)$|^from (\S+) import", source, re.M)
    modules = {m.strip() for a, b in imports for m in (a or b).split(",")}
    assert modules <= {"hashlib", "hmac", "json", "sys"}


def test_docs_verifier_accepts_our_log(tmp_path):
    g = build_game()
    result = run_docs_verifier(tmp_path, g.lines())
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"OK: {len(g.objs)} lines")
    assert f"{g.public_rolls} rolls and {g.hidden_rolls} hidden rolls checked" in result.stdout


def test_docs_verifier_accepts_an_unfinished_log(tmp_path):
    lines = build_game(finished=False).lines()
    result = run_docs_verifier(tmp_path, lines[:-3])
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("forge", ["value", "seed", "hidden", "nonce", "no reveal", "salt", "chain"])
def test_docs_verifier_rejects_forgeries(tmp_path, forge):
    g = build_game()
    if forge == "value":
        pos = g.find(type="roll", phase="2.movement", index=1)[0]
        g.objs[pos]["value"] = g.objs[pos]["value"] % 6 + 1
    elif forge == "seed":
        pos = g.find(type="dice-reveal", phase="2.movement")[0]
        g.objs[pos]["seed"] = seed_of("other").hex()
    elif forge == "hidden":
        pos = g.find(type="hidden-reveal")[0]
        g.objs[pos]["values"][0] = g.objs[pos]["values"][0] % 12 + 1
        pos = g.find(type="roll", stream="hidden")[0]
    elif forge == "nonce":  # 0.setup has no public rolls: only its hidden values show the change
        reveal = g.objs[g.find(type="dice-reveal", phase="0.setup")[0]]
        reveal["nonces"] = dict(reveal["nonces"], blue="0" * 32)
        pos = g.find(type="roll", stream="hidden", phase="0.setup")[0]  # the d12 differs
        values = g.objs[g.find(type="hidden-reveal")[0]]["values"]
        assert ref_rolls(seed_of("hidden"), GAME, "0.setup", reveal["nonces"], [12], hidden=True) != values[1:2]
    elif forge == "no reveal":
        del g.objs[g.find(type="dice-reveal", phase="0.setup")[0]]
        pos = g.find(type="hidden-reveal")[0]
    elif forge == "salt":
        pos = g.find(type="setup-reveal")[0]
        g.objs[pos]["salt"] = "00" * 16
    lines = g.lines()
    if forge == "chain":
        pos = next(i for i, line in enumerate(lines) if "island tiles" in line) + 1
        lines[pos - 1] = lines[pos - 1].replace("island tiles", "island tiIes")  # the chain breaks at the next
    result = run_docs_verifier(tmp_path, lines)
    assert result.returncode != 0
    assert result.stderr.startswith(f"line {pos + 1}: ")
    assert verify_log(lines).ok is False  # and pbem verify agrees


# --- the example log of docs/log.md -----------------------------------------------------------------

def docs_log_example() -> list[str]:
    text = (DOCS.parent / "log.md").read_text(encoding="utf-8")
    [block] = re.findall(r"```jsonl\n(.*?)```", text, re.S)
    return block.splitlines()  # safe here: the example holds no U+2028 and the like


def test_docs_log_example_verifies():
    lines = docs_log_example()
    # The chain and the dice, recomputed here without pbem.
    prev = "0" * 64
    for line in lines:
        assert json.loads(line)["prev"] == prev
        assert line == json.dumps(json.loads(line), sort_keys=True, separators=(",", ":"),
                                   ensure_ascii=False)
        prev = hashlib.sha256(line.encode()).hexdigest()
    objs = [json.loads(line) for line in lines]
    types = [o["type"] for o in objs]
    reveals = {o["phase"]: o for o in objs if o["type"] == "dice-reveal"}
    reveal = reveals["3.movement"]
    public = [o for o in objs if o["type"] == "roll" and "stream" not in o]
    assert [o["value"] for o in public] == ref_rolls(bytes.fromhex(reveal["seed"]), "atl-7", "3.movement",
                                                     reveal["nonces"], [6, 6])
    # The hidden roll of 0.setup is keyed with the nonces of 0.setup's dice-reveal, and the
    # setup-commit follows that dice-reveal (the window that dealt the hidden setup).
    hidden = [o for o in objs if o.get("stream") == "hidden"]
    hidden_reveal = objs[types.index("hidden-reveal")]
    assert hidden_reveal["values"] == ref_rolls(
        bytes.fromhex(hidden_reveal["seed"]), "atl-7", "0.setup", reveals["0.setup"]["nonces"],
        [o["sides"] for o in hidden], hidden=True)
    assert reveals["0.setup"]["nonces"] != {} and all(o["phase"] == "0.setup" for o in hidden)
    next_phase = next(i for i, o in enumerate(objs) if o.get("phase") == "3.movement")
    assert objs.index(reveals["0.setup"]) < types.index("setup-commit") < next_phase
    report = verify_log(lines, source="log.md")
    assert report.ok and report.warnings == [], report.summary()
    assert (report.phases_verified, report.rolls_verified, report.hidden_verified,
            report.setups_verified) == (2, 2, 1, 1)
    assert report.head == prev


def test_docs_verifier_accepts_the_docs_example(tmp_path):
    result = run_docs_verifier(tmp_path, docs_log_example())
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("OK: 18 lines; 2 rolls and 1 hidden rolls checked")


@pytest.mark.parametrize("change,needle", [
    (lambda o: o.update(sha256=o.pop("commit")), "carries 'sha256', a plain digest"),
    (lambda o: o.update(commit="xyz"), "expected 'commit' as 64 lowercase hex digits"),
])
def test_an_orders_line_must_carry_only_a_salted_commit(change, needle):
    """docs/log.md, orders: a plain SHA-256 of a secret order set lets anyone test guesses of
    it, so the verifier refuses one."""
    g = build_game()
    pos = g.find(type="orders")[0]
    change(g.objs[pos])
    report = verify_log(g.lines())
    assert not report.ok
    assert any(needle in e for e in errors_at(report, pos + 1)), report.errors
