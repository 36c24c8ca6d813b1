#!/usr/bin/env python3
"""Write the af-example game: the players' mails, every report, the receipts and the public log.

Usage (from the repository root, with pbem installed)::

    python examples/attackforce/make_example.py            # rewrite examples/attackforce/
    python examples/attackforce/make_example.py --out DIR  # write the same files under DIR

The game is played through pbem's service layer exactly as a referee's installation plays it,
by :mod:`example_play` (``examples/example_play.py``), as the Atlantis and Altassar examples
are: a fixed clock, fixed referee randomness, the committed TEST keys in ``keys/``, the
players' own nonces and times (``attackforce_letters.py``); the Empire player's signatures are
made by the real ``ssh-keygen -Y sign -n pbem-orders``. The game is created with the house
rules in :data:`HOUSE_RULES` (a turn limit of 3, so that the example reaches the end of a game
and the reveal of the explosion's Hull Space).

Outputs: ``mail/<phase>/``, ``reports/<role>/``, ``receipts/`` and ``af-example.jsonl`` (see
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
from attackforce_letters import GAME, LETTERS, PLAYERS, REFEREE  # noqa: E402

START = datetime(2027, 3, 2, 18, 0, tzinfo=timezone.utc)
"""When the referee creates the game (``pbem game new``): Tuesday 2 March 2027, 18:00 UTC."""

ENTROPY_SEED = 20270302
"""Seed of the referee's deterministic randomness (``pbem.demo.SeededEntropy``)."""

HOUSE_RULES = """\
# af-example house rules: a short game, to show its end in a few mails.
[rules.turn_limit]
value = 3
"""
"""``pbem game new attackforce ... --house-rules house.toml``: the stand-in turn limit of 20
(data.toml ``rules.turn_limit``) cut to 3."""

EXAMPLE = example_play.Example(
    game=GAME, ruleset="attackforce", folder="attackforce", players=tuple(PLAYERS),
    letters=tuple(LETTERS), referee=REFEREE, start=START, entropy_seed=ENTROPY_SEED,
    house_rules=HOUSE_RULES, house_rules_source="house.toml", window_width=16)
"""The af-example game: default options (no optional rule), default deadlines (72 hours,
24 for a short window), the house rules above; played by :mod:`example_play`."""

ExampleError = example_play.ExampleError
report_path = example_play.report_path


replay, generate = example_play.entry_points(EXAMPLE, HERE)
"""The entry points the tests call (:func:`example_play.entry_points`)."""


if __name__ == "__main__":
    sys.exit(example_play.main(EXAMPLE, HERE, __doc__))
