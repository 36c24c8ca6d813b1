#!/usr/bin/env python3
"""Write the alt-example game: the players' mails, every report, the receipts and the public log.

Usage (from the repository root, with pbem installed)::

    python examples/altassar/make_example.py            # rewrite examples/altassar/
    python examples/altassar/make_example.py --out DIR  # write the same files under DIR

The game is played through pbem's service layer exactly as a referee's installation plays it
(``pbem.engine.service.Referee``), as in the Atlantis example (``examples/atlantis/``), whose
mail forms (``client_forms.py``) and letter shape (``example_mails.py``) it imports. Nothing is
random and nothing reads the wall clock:

- the clock is fixed: the game is created at :data:`START`; time moves only from mail arrival
  to mail arrival and cron tick to cron tick (``*/15``, :data:`CRON`);
- the referee's randomness (dice seeds, the hidden seed, the setup salt) comes from
  ``pbem.demo.SeededEntropy(ENTROPY_SEED, "alt-example")``;
- the keys are the committed TEST keys in ``keys/`` (the referee's master key included); the
  nonces and times in the order headers are the players' own (``altassar_letters.py``);
  Ed25519 signatures are deterministic (RFC 8032), and the Spikus player's are made by the
  real ``ssh-keygen -Y sign -n pbem-orders`` (required: the script stops if it is missing).

Outputs (every one rewritten, with no wall-clock time in it):

- ``mail/<phase>/<NN>-<role>-<client>.eml``: the incoming mails, one folder per window;
- ``reports/<role>/<seq>-<phase>.txt`` and ``.html`` for confederation, spikus and
  ``public`` (the report of role ``*``), ``<seq>`` the phase number (000 = the setup report);
- ``receipts/<NN>-<role>-<client>.txt``: the text of the judge's answer to each mail;
- ``alt-example.jsonl``: the public log (``pbem verify`` checks it).

The script checks that every mail is judged as its letter expects (``Letter.expect``, the
words of README.md's table) and exits with status 1 if one is not.
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
from altassar_letters import GAME, LETTERS, PLAYERS, REFEREE  # noqa: E402

START = datetime(2027, 2, 2, 18, 0, tzinfo=timezone.utc)
"""When the referee creates the game (``pbem game new``): Tuesday 2 February 2027, 18:00 UTC."""

ENTROPY_SEED = 20270202
"""Seed of the referee's deterministic randomness (``pbem.demo.SeededEntropy``)."""

DEADLINE_SECONDS = 72 * 3600
SHORT_DEADLINE_SECONDS = 24 * 3600
"""``pbem game new``'s defaults: ``--deadline 72h --short-deadline 24h`` (the evasion window
is a short one)."""

EXAMPLE = example_play.Example(
    game=GAME, ruleset="altassar", folder="altassar", players=tuple(PLAYERS),
    letters=tuple(LETTERS), referee=REFEREE, start=START, entropy_seed=ENTROPY_SEED,
    deadline_seconds=DEADLINE_SECONDS, short_deadline_seconds=SHORT_DEADLINE_SECONDS,
    window_width=26)
"""The alt-example game: default options (standard attrition, no escort) and deadlines; played
by :mod:`example_play`."""

ExampleError = example_play.ExampleError
report_path = example_play.report_path


replay, generate = example_play.entry_points(EXAMPLE, HERE)
"""The entry points the tests call (:func:`example_play.entry_points`)."""


if __name__ == "__main__":
    sys.exit(example_play.main(EXAMPLE, HERE, __doc__))
