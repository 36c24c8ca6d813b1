"""The engine end to end on the test-only ruleset (tests/toygame.py): creation, ingest,
receipts, adjudication, NMR, reports per audience and the public log."""

import json

from conftest import incoming

from pbem.engine.creation import GameSpec


def new_hunt(referee, players, roles=("red", "blue"), game_id="h1"):
    spec = GameSpec(ruleset="hunt", game_id=game_id,
                    players=tuple(players[r].spec() for r in roles), options={})
    return referee.new_game(spec)


def test_creation_publishes_commitments_and_opens_the_first_window(referee, players):
    r = new_hunt(referee, players)
    assert r["phase"] == "1.dig"
    lines = [json.loads(x) for x in referee.log_lines("h1")]
    types = [o["type"] for o in lines]
    assert types[:3] == ["game-created", "hidden-commit", "dice-commit"]
    # this ruleset deals its hidden setup at creation, so it is committed at creation
    assert types.index("setup-commit") < types.index("phase-open")
    assert types[-2:] == ["phase-open", "dice-commit"]
    # the hidden roll is logged without its value, the public one with it
    rolls = [o for o in lines if o["type"] == "roll"]
    assert [o.get("stream") for o in rolls] == [None, "hidden"]
    assert "value" not in rolls[1] and rolls[0]["value"] in (1, 2)
    text = open(r["report_path"]).read()
    assert "Hidden dice seed commitment" in text
    assert lines[-1]["commit"] in text  # the first phase's commitment is in the setup report


def test_orders_in_then_phase_resolved_with_nonces_in_the_dice(referee, players, clock):
    new_hunt(referee, players)
    v = referee.ingest([incoming(players["red"].signed("h1", 1, "dig", "dig 5", issued=clock()))])
    assert [x.status for x in v] == ["accepted"]
    assert referee.process() == []  # blue still owes orders, deadline ahead
    v = referee.ingest([incoming(players["blue"].signed("h1", 1, "dig", "dig 9", issued=clock()))])
    assert v[0].status == "accepted"
    done = referee.process()
    assert [d.phase for d in done] == ["1.dig"] and done[0].nmr == []
    reveal = [json.loads(x) for x in referee.log_lines("h1")
              if json.loads(x)["type"] == "dice-reveal"][-1]
    assert set(reveal["nonces"]) == {"red", "blue"}
    from pbem.verify import verify_log

    assert verify_log(referee.log_lines("h1")).ok


def test_missing_orders_after_the_deadline_are_nmr(referee, players, clock):
    new_hunt(referee, players)
    referee.ingest([incoming(players["red"].signed("h1", 1, "dig", "dig 5", issued=clock()))])
    clock.advance(hours=71)
    assert referee.process() == []
    clock.advance(hours=1)
    done = referee.process()
    assert done[0].nmr == ["blue"]


def test_private_hint_reaches_only_its_reader(referee, players, clock):
    new_hunt(referee, players)
    for r, hole in (("red", 3), ("blue", 17)):
        referee.ingest([incoming(players[r].signed("h1", 1, "dig", f"dig {hole}", issued=clock()))])
    referee.process()
    red = referee.report("h1", "red")
    blue = referee.report("h1", "blue")
    public = referee.report("h1", "*")
    if "It rains" not in red:
        assert "than hole 3" in red and "than hole 3" not in blue and "than hole 3" not in public
        assert "than hole 17" in blue and "than hole 17" not in red
    log = "\n".join(referee.log_lines("h1"))
    assert "than hole" not in log


def test_reports_and_receipts_quote_the_log_head_so_a_rewritten_log_is_caught(referee, players, clock, tmp_path):
    """docs/log.md: the last line is covered by no 'prev'; reports and receipts quote the head."""
    import re

    from pbem.ledger import line_hash

    new_hunt(referee, players)
    for r, hole in (("red", 3), ("blue", 17)):
        referee.ingest([incoming(players[r].signed("h1", 1, "dig", f"dig {hole}", issued=clock()))])
    referee.process()
    text = referee.report("h1", "red")
    m = re.search(r"Public log: (\d+) lines so far; the last one has sha256\s+([0-9a-f]{64})", text)
    assert m
    n, head = int(m.group(1)), m.group(2)
    log = referee.log_lines("h1")
    assert line_hash(log[n - 1]) == head
    receipts = [f.read_text() for f in referee.outbox(tmp_path / "o") if "receipt" in f.name]
    heads = [re.search(r"log-head: ([0-9a-f]{64})", r.replace("=\n", "")) for r in receipts]
    assert all(heads) and {h.group(1) for h in heads} <= {line_hash(x) for x in log}
