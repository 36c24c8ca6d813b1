#!/usr/bin/env python3
"""Write the atx-example game: the players' mails, every report, the receipts and the public log.

Usage (from the repository root, with pbem installed)::

    python examples/atalix/make_example.py            # rewrite examples/atalix/
    python examples/atalix/make_example.py --out DIR  # write the same files under DIR

The game is played through pbem's service layer exactly as a referee's installation plays it,
by :mod:`example_play` (``examples/example_play.py``), as the Atlantis, Altassar, Attack Force
and Olympica examples are: a fixed clock, fixed referee randomness, the committed TEST keys in
``keys/``, the players' own nonces and times (``atalix_letters.py``); the blue player's
signatures are made by the real ``ssh-keygen -Y sign -n pbem-orders``. The game is Scenario 1,
Cave Fever, at three stars (``--option scenario=1 --option difficulty=3``), created with the
house rules in :data:`HOUSE_RULES` (the round track's loss space for 2 players moved down, so
that the example reaches the end of a game in two rounds).

Outputs: ``mail/<phase>/``, ``reports/<role>/``, ``receipts/`` and ``atx-example.jsonl`` (see
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
from atalix_letters import GAME, LETTERS, PLAYERS, REFEREE  # noqa: E402

START = datetime(2027, 5, 3, 18, 0, tzinfo=timezone.utc)
"""When the referee creates the game (``pbem game new``): Monday 3 May 2027, 18:00 UTC."""

ENTROPY_SEED = 20270503
"""Seed of the referee's deterministic randomness (``pbem.demo.SeededEntropy``)."""

OPTIONS = {"scenario": 1, "difficulty": 3}
"""``pbem game new atalix --option scenario=1 --option difficulty=3``: Cave Fever (rulebook,
Scenarios) at three stars (Select Difficulty: the round tracker starts furthest on)."""

HOUSE_RULES = """\
# atx-example house rules: a short game, to show its end in a few mails.
[round_track]
loss = { 2 = 4 }
"""
"""``pbem game new atalix ... --house-rules house.toml``: the round track's loss space for 2
players (data.toml ``round_track.loss``, a stand-in: 10) moved to 4, so that a crew starting on
space 2 (three stars) runs out of time at the end of its second round; the other player
counts keep data.toml's numbers (``data.merge_house_rules``)."""

EXAMPLE = example_play.Example(
    game=GAME, ruleset="atalix", folder="atalix", players=tuple(PLAYERS),
    letters=tuple(LETTERS), referee=REFEREE, start=START, entropy_seed=ENTROPY_SEED,
    options=dict(OPTIONS), house_rules=HOUSE_RULES, house_rules_source="house.toml",
    window_width=8)
"""The atx-example game: Scenario 1 at three stars, default deadlines (72 hours), the house
rules above; played by :mod:`example_play`."""

ExampleError = example_play.ExampleError
report_path = example_play.report_path


replay, generate = example_play.entry_points(EXAMPLE, HERE)
"""The entry points the tests call (:func:`example_play.entry_points`)."""


if __name__ == "__main__":
    sys.exit(example_play.main(EXAMPLE, HERE, __doc__))
