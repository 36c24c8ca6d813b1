"""Issue 12's acceptance: ``pbem demo olympica --option scenario=...`` plays a whole game of each
scenario (with the optional rules in the advanced ones) through the mail path: keys, signed
orders in MIME mail, ingest, process, reports; the game ends and its public log verifies on
its own (pbem.verify), every roll and hidden value revealed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SCENARIOS = [
    {"scenario": "introductory"},
    {"scenario": "advanced", "umbrellas": "yes", "demolition": "yes"},
    {"scenario": "short-advanced", "substitutions": "yes"},
]


@pytest.mark.parametrize("options", SCENARIOS, ids=lambda o: o["scenario"])
def test_a_demo_of_each_scenario_ends_and_its_log_verifies(options, tmp_path):
    from pbem.demo import run_demo
    from pbem.verify import verify_file

    result = run_demo("olympica", out_dir=tmp_path, seed=12, options=options)
    assert result["status"] == "ended" and result["mails"] >= 6
    report = verify_file(result["log"])
    assert report.ok and report.rolls_pending == 0 and report.hidden_pending == 0
    lines = [json.loads(x) for x in Path(result["log"]).read_text().splitlines()]
    created = next(x for x in lines if x["type"] == "game-created")
    assert json.dumps(created).count(options["scenario"]) >= 1
