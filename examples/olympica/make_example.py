#!/usr/bin/env python3
"""Write the oly-example game: the players' mails, every report, the receipts and the public log.

Usage (from the repository root, with pbem installed)::

    python examples/olympica/make_example.py            # rewrite examples/olympica/
    python examples/olympica/make_example.py --out DIR  # write the same files under DIR

The game is played through pbem's service layer exactly as a referee's installation plays it,
by :mod:`example_play` (``examples/example_play.py``), as the Atlantis, Altassar and Attack
Force examples are: a fixed clock, fixed referee randomness, the committed TEST keys in
``keys/``, the players' own nonces and times (``olympica_letters.py``); the U.N. player's
signatures are made by the real ``ssh-keygen -Y sign -n pbem-orders``. The game is the Short
Advanced Scenario (``--option scenario=short-advanced``, rule 4.3) created with the house rules
in :data:`HOUSE_RULES` (2 Game-Turns instead of 6, so that the example reaches the end of a
game, the reveal of every marker and the victory level).

Outputs: ``mail/<phase>/``, ``reports/<role>/``, ``receipts/`` and ``oly-example.jsonl`` (see
:mod:`example_play`). The script checks that every mail is judged as its letter expects
(``Letter.expect``, the words of README.md's table) and exits with status 1 if one is not.
"""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
for _path in (HERE, HERE.parent):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import example_play  # noqa: E402  (examples/example_play.py: what every example shares)
from olympica_letters import GAME, LETTERS, PLAYERS, REFEREE  # noqa: E402

START = datetime(2027, 4, 5, 18, 0, tzinfo=timezone.utc)
"""When the referee creates the game (``pbem game new``): Monday 5 April 2027, 18:00 UTC."""

ENTROPY_SEED = 20270405
"""Seed of the referee's deterministic randomness (``pbem.demo.SeededEntropy``)."""

OPTIONS = {"scenario": "short-advanced"}
"""``pbem game new olympica --option scenario=short-advanced``: rule 4.3 (the Web sets up face
up and places its four free tunnels at setup; the U.N. has its Lifters and the BOAR)."""

HOUSE_RULES = """\
# oly-example house rules: a short game, to show its end in a few mails.
[scenarios.short-advanced]
turns = 2
"""
"""``pbem game new olympica ... --house-rules house.toml``: the Short Advanced Scenario's 6
Game-Turns (4.3, data.toml ``scenarios.short-advanced.turns``) cut to 2; the rest of the
scenario's row (its forces, tunnels, face-up setup) stays as data.toml has it."""

EXAMPLE = example_play.Example(
    game=GAME, ruleset="olympica", folder="olympica", players=tuple(PLAYERS),
    letters=tuple(LETTERS), referee=REFEREE, start=START, entropy_seed=ENTROPY_SEED,
    options=dict(OPTIONS), house_rules=HOUSE_RULES, house_rules_source="house.toml",
    window_width=10)
"""The oly-example game: the Short Advanced Scenario, no optional rule, default deadlines (72
hours, 24 for the short ``compel`` windows), the house rules above; played by
:mod:`example_play`."""

ExampleError = example_play.ExampleError
report_path = example_play.report_path


replay, generate = example_play.entry_points(EXAMPLE, HERE)
"""The entry points the tests call (:func:`example_play.entry_points`)."""


if __name__ == "__main__":
    sys.exit(example_play.main(EXAMPLE, HERE, __doc__))
