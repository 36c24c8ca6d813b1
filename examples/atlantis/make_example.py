#!/usr/bin/env python3
"""Write the atl-example game: the players' mails, every report, the receipts and the public log.

Usage (from the repository root, with pbem installed)::

    python examples/atlantis/make_example.py            # rewrite examples/atlantis/
    python examples/atlantis/make_example.py --out DIR  # write the same files under DIR

The game is played through pbem's service layer exactly as a referee's installation plays it
(``pbem.engine.service.Referee``): the game is created, each mail is ingested the moment the
referee's server receives it (the date of its ``Received`` line; docs/mail.md, "A pipe from
procmail"), and ``pbem process --due`` runs from cron every quarter of an hour. Nothing is
random and nothing reads the wall clock:

- the clock is fixed: the game is created at :data:`START` and time moves only from mail
  arrival to mail arrival and cron tick to cron tick;
- the referee's randomness (dice seeds, the hidden seed, the setup salt) comes from
  ``pbem.demo.SeededEntropy(ENTROPY_SEED, "atl-example")``;
- the keys are the committed test keys in ``keys/`` (the referee's master key included), the
  nonces and times in the order headers are the players' own, written down in
  ``example_mails.py``; Ed25519 signatures are deterministic (RFC 8032), and blue's are made by
  the real ``ssh-keygen -Y sign`` (required: the script stops if it is missing).

Outputs (every one is rewritten, sorted, with no wall-clock time in it):

- ``mail/<phase>/<NN>-<role>-<client>.eml``: the incoming mails, one folder per window;
- ``reports/<role>/<seq>-<phase>.txt`` and ``.html`` for red, green, blue and ``public``
  (the report of role ``*``), ``<seq>`` being the phase number (000 = the setup report);
- ``receipts/<NN>-<role>-<client>.txt``: the text of the judge's answer to each mail;
- ``atl-example.jsonl``: the public log (``pbem verify`` checks it).

The script checks that every mail is judged as its letter expects (``Letter.expect``, the
same words as README.md's table) and exits with status 1 if one is not.
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
from example_mails import GAME, LETTERS, PLAYERS, REFEREE  # noqa: E402

START = datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)
"""When the referee creates the game (``pbem game new``): Tuesday 1 December 2026, 18:00 UTC."""

ENTROPY_SEED = 20261201
"""Seed of the referee's deterministic randomness (``pbem.demo.SeededEntropy``)."""

DEADLINE_SECONDS = 72 * 3600
SHORT_DEADLINE_SECONDS = 24 * 3600
"""``pbem game new``'s defaults: ``--deadline 72h --short-deadline 24h``."""

EXAMPLE = example_play.Example(
    game=GAME, ruleset="atlantis", folder="atlantis", players=tuple(PLAYERS),
    letters=tuple(LETTERS), referee=REFEREE, start=START, entropy_seed=ENTROPY_SEED,
    deadline_seconds=DEADLINE_SECONDS, short_deadline_seconds=SHORT_DEADLINE_SECONDS,
    window_width=18)
"""The atl-example game: default options and deadlines; played by :mod:`example_play`."""

ExampleError = example_play.ExampleError
report_path = example_play.report_path


replay, generate = example_play.entry_points(EXAMPLE, HERE)
"""The entry points the tests call (:func:`example_play.entry_points`)."""


if __name__ == "__main__":
    sys.exit(example_play.main(EXAMPLE, HERE, __doc__))
