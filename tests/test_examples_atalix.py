"""The worked Escape from Atalix example (examples/atalix/): the committed mails replayed
through a fresh referee home judge as README.md's table says, the signatures verify (Ed25519
and ``ssh-keygen -Y verify``), the public log verifies, the house rule ends the game after two
rounds, the hands are drawn as the rulebook's Starting Deck and Planning Phase say and no
report shows a player's hand to the other, the team's resources, the moves, the End of Round
and Chapter 1 follow the rulebook (checked against its own numbers, computed here), and the
reports, receipts and log are byte for byte the committed ones (a REGRESSION CHECK: after a
deliberate change, run ``python examples/atalix/make_example.py`` and read the diff).

The mail-reading helpers come from the Atlantis example's test (shared, not copied).
"""

from __future__ import annotations

import email
import email.policy
import importlib.util
import itertools
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "atalix"
MAIL = EXAMPLE / "mail"
KEYS = EXAMPLE / "keys"
GAME = "atx-example"
BLUE_ID = "kai@example.net"
TEST_KEY_LINE = "# TEST KEY — published in pbem's examples, never use it for a real game"
GAME_DIR = ROOT / "pbem" / "games" / "atalix"
ROLES = ("red", "blue")
CENTER = "0505"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


make_example = _load("atx_make_example", EXAMPLE / "make_example.py")
atl = _load("atl_example_test_helpers", ROOT / "tests" / "test_examples.py")
mail_parts, pbem_envelope, ssh_signed = atl.mail_parts, atl.pbem_envelope, atl.ssh_signed
orders_of, header_field, _plain = atl.orders_of, atl.header_field, atl._plain
ed25519_verifies, pbem_public_key, docs_verifier = (atl.ed25519_verifies, atl.pbem_public_key,
                                                   atl.docs_verifier)
_JUDGED, _PROBLEM = atl._JUDGED, atl._PROBLEM
_ROW = re.compile(r"^\|\s*`(\d\d-[\w.-]+\.eml)`\s*\|(.*)\|\s*$")
_HAND = re.compile(r"^# your (?:hand|starting cards so far):(.*?)(?:;|\n# the types)",
                   re.MULTILINE | re.DOTALL)


def committed_mails() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(MAIL.glob("*/*.eml"))}


def readme_table() -> dict[str, tuple[str, list]]:
    """``{mail file: (status, [(line, rule)])}`` from README.md's mail table."""
    rows = {}
    for line in (EXAMPLE / "README.md").read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line)
        if m:
            j = _JUDGED.match(m.group(2).split("|")[-1].strip())
            problems = [(int(p.group(1)), p.group(2)) for p in
                        (_PROBLEM.match(x) for x in (j.group(2) or "").split("; ") if x)]
            rows[m.group(1)] = (j.group(1), problems)
    return rows


def log_records() -> list[dict]:
    text = (EXAMPLE / f"{GAME}.jsonl").read_text(encoding="utf-8")
    return [json.loads(x) for x in text.split("\n") if x]


def events(phase: str | None = None) -> list[dict]:
    return [r for r in log_records() if r["type"] == "event" and phase in (None, r["phase"])]


def report(role: str, name: str, ext: str = "txt") -> str:
    """The committed report ``reports/<role>/<name>.<ext>`` (``name``: ``002-1.set1``)."""
    return (EXAMPLE / "reports" / role / f"{name}.{ext}").read_text(encoding="utf-8")


def report_names() -> list[str]:
    return sorted(p.stem for p in (EXAMPLE / "reports" / "public").glob("*.txt"))


def hand(text: str) -> list[str] | None:
    """The card ids of a report's ``# your hand: ...;`` template line, or at setup its
    ``# your starting cards so far: ...`` line (either may wrap)."""
    m = _HAND.search(text)
    return None if m is None else m.group(1).replace("#", " ").split()


def axial(label: str) -> tuple[int, int]:
    """Axial coordinates of a space CCRR on the stand-in board (map.toml: ``offset =
    "even-low"``, even columns half a space lower), by the standard offset-to-axial
    conversion."""
    q, row = int(label[:2]) - 1, int(label[2:]) - 1
    return q, row - (q - (q & 1)) // 2


def distance(a: str, b: str) -> int:
    (q1, r1), (q2, r2) = axial(a), axial(b)
    return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2


def elevation(label: str) -> int:
    """map.toml's bars of elevation ("D. Elevation"): 0 where no ``elevation-N`` group names
    the space."""
    groups = tomllib.loads((GAME_DIR / "map.toml").read_text(encoding="utf-8"))["groups"]
    return next((n for n in range(1, 5) if label in groups.get(f"elevation-{n}", [])), 0)


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    """The committed mails replayed: ``(play, answers by mail file, reports, log lines)``."""
    base = tmp_path_factory.mktemp(GAME)
    play = make_example.replay(base / "home", MAIL, KEYS)
    play.referee.outbox(base / "outbox")
    by_id = {str(email.message_from_bytes(raw, policy=email.policy.default)["Message-ID"]).strip():
             name for name, raw in committed_mails().items()}
    answers = {}
    for p in sorted((base / "outbox").glob("*.eml")):
        msg = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        replied = str(msg["In-Reply-To"] or "").strip()
        if replied in by_id:
            answers[by_id[replied]] = msg.get_body(("plain",)).get_content()
    return play, answers, play.referee.all_reports(GAME), play.referee.log_lines(GAME)


def test_every_committed_mail_is_judged_as_the_readme_says(replayed):
    play, answers, _, _ = replayed
    table = readme_table()
    assert sorted(table) == sorted(committed_mails()) and len(table) == 10
    for name, (status, problems) in table.items():
        (v,) = play.verdicts[name]
        assert v.status == status, f"{name}: {v.summary()}"
        assert [(p.line, p.rule) for p in v.problems] == problems, name
        lines = orders_of(committed_mails()[name])[0].split("\n")
        for p in v.problems:  # each problem quotes its line of the signed orders
            assert lines[p.line - 1].strip() == p.text.strip(), (name, p)
        assert f"problems: {len(problems)}" in answers[name]


def test_red_signatures_verify_with_the_registered_key():
    registered = pbem_public_key(KEYS / "red.pub")
    checked = 0
    for name, raw in committed_mails().items():
        found = pbem_envelope(mail_parts(raw)[0])
        if found is None:
            continue
        orders, key, signature = found
        assert header_field(orders, "role") == "red" and key == registered, name
        assert ed25519_verifies(key, signature, b"pbem-orders/1\n" + orders.encode("utf-8"))
        checked += 1
    assert checked == 5


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="no ssh-keygen (OpenSSH)")
def test_blue_ssh_signed_mails_verify_with_ssh_keygen(tmp_path):
    checked = 0
    for name, raw in committed_mails().items():
        found = ssh_signed(*mail_parts(raw))
        if found is None:
            continue
        orders, sig = found
        (tmp_path / "orders.txt.sig").write_bytes(sig)
        ok = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", str(KEYS / "allowed_signers"),
                             "-I", BLUE_ID, "-n", "pbem-orders", "-s",
                             str(tmp_path / "orders.txt.sig")],
                            input=(orders + "\n").encode("utf-8"), capture_output=True, timeout=60,
                            check=False)
        assert ok.returncode == 0, (name, ok.stderr.decode())
        assert header_field(orders, "role") == "blue", name
        checked += 1
    assert checked == 5


def test_the_public_log_verifies_with_the_standalone_verifier(tmp_path):
    log = EXAMPLE / f"{GAME}.jsonl"
    result = subprocess.run([sys.executable, "-I", str(docs_verifier(tmp_path)), str(log)],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("OK: ")


def test_the_house_rule_ends_the_game_after_two_rounds():
    """Select Difficulty: three stars start the round tracker on data.toml's space for 3; the
    house rule moves the loss space for 2 players to 4 and keeps the other counts (the setup
    report lists the table in force, marked ``(house rules)``); the tracker advances once per
    round (Advance Round Tracker), so the game has 4 - start rounds of two sets each (a deck of
    7 drawn 4 at a time), then Threats: "You lose when the tracker reaches the space with your
    player count"."""
    data = tomllib.loads((GAME_DIR / "data.toml").read_text(encoding="utf-8"))["round_track"]
    start = data["start"]["3"]
    setup = _plain(report("public", "000-setup"), "text")
    assert "Options: difficulty=3, scenario=1" in setup
    loss = {**data["loss"], "2": 4}
    listed = ", ".join(f"'{k}': {v}" for k, v in loss.items())
    assert f"loss = {{{listed}}} (house rules)" in setup
    rounds = loss["2"] - start
    opened = [r["phase"] for r in log_records() if r["type"] == "phase-open"]
    assert opened == ["0.setup"] + [f"{r}.set{s}" for r in range(1, rounds + 1) for s in (1, 2)]
    end = next(r for r in log_records() if r["type"] == "game-end")
    assert end["winners"] == [] and end["reason"].startswith("time ran out")
    last = _plain(report("public", "005-2.set2"), "text")
    assert re.search(r"Round tracker: space (\d+)", last).group(1) == str(loss["2"])


def test_hands_are_drawn_four_at_a_time_from_decks_of_seven():
    """Starting Deck: 2 Action, 1 Oxygen, 1 Research, 1 Upgrade, 1 Gain Resource and 2 more
    chosen: 8 cards, the Active Card set apart (Setup: Active Card), so a draw deck of 7;
    Planning Phase: 4 drawn a turn, so hands of 4 and 3 each round. Blue bought Swap Gear in
    round 1: it joins his deck at the shuffle (Shuffle Deck), a deck of 8 in round 2. Each
    hand is read from its owner's report that opened the window."""
    sizes = {role: [len(hand(report(role, name))) for name in report_names()[1:-1]]
             for role in ROLES}
    assert sizes == {"red": [4, 3, 4, 3], "blue": [4, 3, 4, 4]}
    round2 = hand(report("blue", "003-1.set2")) + hand(report("blue", "004-2.set1"))
    assert "swap-gear-1" in round2
    # the two cards chosen at setup, dealt in turn from the first player (Starting Deck)
    first = hand(report("red", "001-0.setup")), hand(report("blue", "001-0.setup"))
    assert {"gain-scrap-2", "action-5"} <= set(first[0])
    assert {"upgrade-3", "research-3"} <= set(first[1])


def test_an_order_set_without_active_line_keeps_the_oxygen():
    """Setup, Active Card: blue's setup orders name no Active Card; the default is the Oxygen
    ("It is recommended for beginning players to use the Oxygen card"), so his report of the
    first set shows an Oxygen active, as red's does after ``active oxygen``."""
    for role, file in (("red", "01-red-thunderbird.eml"), ("blue", "02-blue-mutt-sig.eml")):
        lines = [x for x in orders_of(committed_mails()[file])[0].split("\n")
                 if x and not x.startswith("#")]
        assert any(x.startswith("active ") for x in lines) == (role == "red"), file
        active = re.search(r"active: (\S+)", report(role, "001-0.setup")).group(1)
        assert active.startswith("oxygen-"), role


def test_no_report_shows_a_players_hand_to_the_other(replayed):
    """Each card id of a player's ``# your hand:`` line appears in the other player's report
    of that phase (text and HTML) and in the public one only inside a public event of the log
    (a card played in the open in an earlier set, back in the hand after the shuffle)."""
    _, _, reports, _ = replayed
    by_name = {(r["role"], make_example.report_path(r["role"], r["seq"], r["phase"],
                                                    r["fmt"])): r for r in reports}
    checked = 0
    for name in report_names():
        phase = name.split("-", 1)[1]
        said = [" ".join(e["text"].split()) for e in events("0.create" if phase == "setup"
                                                           else phase)]
        for role in ROLES:
            cards = hand(report(role, name))
            if not cards:
                continue
            for reader in [r for r in ROLES if r != role] + ["*"]:
                for fmt, ext in (("text", "txt"), ("html", "html")):
                    folder = "public" if reader == "*" else reader
                    body = by_name[(reader, f"{folder}/{name}.{ext}")]["body"]
                    seen = _plain(body, fmt)
                    for text in said:
                        seen = seen.replace(text, "")
                    for card in cards:
                        assert not re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", seen), \
                            (role, card, reader, name, ext)
                    checked += 1
    assert checked == 5 * 2 * 2 * 2


def _amounts(text: str) -> dict:
    return {k: int(n) for n, k in re.findall(r"(\d+) (scrap|carbon|minerals)", text)}


def test_the_team_resources_follow_every_gain_and_payment():
    """Resources: "one scrap per player, and two each of carbon and minerals"; then every
    public event that gives or takes the team's resources (Action Phase collect, Gain
    Resource, Scavenge's scrap, Research, Purchasing Cards, Build Projects) summed here
    gives the "Team resources" line of each public report."""
    team = {"scrap": len(ROLES), "carbon": 2, "minerals": 2}
    for name in report_names()[1:]:
        for e in events(name.split("-", 1)[1]):
            text = e["text"]
            if m := re.search(r"a (\w+) cube from \d{4} to the team", text):
                team[m.group(1)] += 1
            elif m := re.search(r"(?:gains|scraps [^:]+:) (\d+) (\w+)", text):
                team[m.group(2)] += int(m.group(1))
            elif m := re.search(r"(?:buys \S+ for|pays|completes .+ for) (.+?)(?::|$)", text):
                for k, n in _amounts(m.group(1)).items():
                    team[k] -= n
        line = re.search(r"Team resources: (.+)\.", report("public", name)).group(1)
        assert _amounts(line) == team, name
    assert team == {"scrap": 4, "carbon": 2, "minerals": 2}


def test_every_purchase_costs_the_meters_number_plus_each_symbols_plus():
    """Purchasing Cards and the Card Cost Meter: each resource symbol of a card costs the
    number under the left token, plus its ``+N``; Trackers: the left token starts "on the
    bottom zero", and it moves only when the right token has passed the top of its track
    (three purchases for two players do not), so every purchase here pays only the ``+N``s.
    The Swap Gear's symbols are the rulebook's ("scrap, and carbon +1"); the others are
    data.toml's stand-ins."""
    cards = tomllib.loads((GAME_DIR / "data.toml").read_text(encoding="utf-8"))["cards"]
    assert cards["swap-gear"]["cost"] == {"scrap": 0, "carbon": 1}
    bought = [re.search(r"buys (\S+) for (.+)$", e["text"]).groups() for e in events()
              if " buys " in e["text"]]
    assert [card for card, _ in bought] == ["swap-gear-1", "exosuit-3", "jet-pack-2"]
    for card, paid in bought:
        symbols = cards[card.rsplit("-", 1)[0]]["cost"]
        assert _amounts(paid) == {k: 0 + n for k, n in symbols.items() if 0 + n}, card


def test_every_move_and_climb_keeps_the_movement_restrictions():
    """Action Phase: a move goes up to 2 spaces, never to a higher one (Movement
    Restrictions); a climb goes 1 space and 1 level up. Blue's refused ``move 0605 0705`` of
    1.set1 went from elevation 0 to 1, so it is in no event."""
    seen = 0
    for e in events():
        m = re.search(r": (move|climb) \(1 action\) ([\d>-]+)$", e["text"])
        if not m:
            continue
        path = m.group(2).split("->")
        for a, b in itertools.pairwise(path):
            assert distance(a, b) <= (2 if m.group(1) == "move" else 1), e["text"]
            if m.group(1) == "move":
                assert elevation(b) <= elevation(a), e["text"]
            else:
                assert elevation(b) == elevation(a) + 1, e["text"]
        seen += 1
    assert seen == 8
    assert (elevation("0605"), elevation("0705")) == (0, 1)
    assert not [e for e in events("1.set1") if "0705" in e["text"]]


def test_the_end_of_round_resolves_events_from_the_rolled_number_down():
    """Roll and Resolve Event Dice: every event numbered up to the die, the highest first.
    Event 2: the alien one space closer to the center along a shortest path (0902 in the cave,
    Board Setup: "adjacent to the space numbered 3"). Advance Round Tracker: entering the green
    circle (data.toml: 4) adds a storm token on the origin."""
    ends = {}
    for phase, die in (("1.set2", 2), ("2.set2", 1)):
        (ends[phase],) = [e["text"] for e in events(phase) if e["kind"] == "events"]
        assert f"the event die shows {die}" in ends[phase]
        assert [int(n) for n in re.findall(r"(\d) - [A-Z]", ends[phase])] == \
            list(range(die, 0, -1))
    (moved,) = re.findall(r"the alien moves (\d{4})->(\d{4})", ends["1.set2"])
    assert moved[0] == "0902" and distance(moved[1], CENTER) == distance("0902", CENTER) - 1
    (storm,) = [e["text"] for e in events("2.set2") if e["kind"] == "storm"]
    assert storm.startswith("Advance Round Tracker (space 4)")
    assert storm.endswith("a storm token on 0805 (the origin) (16 left)")
    assert not [e for e in events("1.set2") if e["kind"] == "storm"]


def test_the_solar_array_completes_chapter_1():
    """Build Projects: the first player's proposal counts (red's; blue proposed the Ship
    Phaser); the Solar Array's disc on 0504, adjacent to the center (Scenario 1, Chapter 1:
    "place one of the black discs on any space adjacent to the center board space")."""
    texts = [e["text"] for e in events("1.set2") if e["kind"] == "projects"]
    assert texts[0] == "the proposals of red count (solar-array)"
    (placed,) = re.findall(r"disc solar-1 placed on (\d{4})", " ".join(texts))
    assert distance(placed, CENTER) == 1
    assert texts[-1].startswith("Chapter 1 completed")
    assert "ship-phaser" not in " ".join(e["text"] for e in events())


def test_an_action_made_impossible_by_the_first_player_is_skipped_with_its_reason(replayed):
    """2.set1: red's Research step was legal when she sent it (her receipt finds no problem);
    blue, the first player since the die passed left (Pass Die To Next Player), spent the
    team's only mineral first, so red's report names the step skipped and why."""
    _, answers, _, _ = replayed
    assert "problems: 0" in answers["08-red-apple.eml"]
    assert "Round 2 begins; blue has the die." in [e["text"] for e in events("1.set2")]
    red = _plain(report("red", "004-2.set1"), "text")
    assert "'use research-1 0': the team cannot pay 1 minerals" in red
    assert "research-1 pays" not in " ".join(e["text"] for e in events("2.set1"))


def test_the_keys_are_marked_as_test_keys_and_load():
    from pbem.crypto.keys import load_master_key, load_private_key, load_public_key

    for name in ("referee.key", "red.key", "red.pub", "blue_ed25519.pub", "allowed_signers"):
        assert (KEYS / name).read_text(encoding="utf-8").split("\n")[0] == TEST_KEY_LINE, name
    for private, public in (("red.key", "red.pub"), ("blue_ed25519", "blue_ed25519.pub")):
        key = load_private_key((KEYS / private).read_text(encoding="utf-8"), private)
        assert key.public_key().raw == load_public_key(
            (KEYS / public).read_text(encoding="utf-8"), public).raw
    assert len(load_master_key(KEYS / "referee.key", check_permissions=False)) == 32


def test_regression_reports_receipts_and_log_equal_the_committed_ones(replayed):
    """REGRESSION CHECK: the replay writes the committed reports, receipts and log byte for
    byte (pbem wrote them). If a change is meant, regenerate and check README.md's story."""
    _, answers, reports, log_lines = replayed
    committed = {str(p.relative_to(EXAMPLE / "reports")): p.read_bytes()
                 for p in sorted((EXAMPLE / "reports").rglob("*")) if p.is_file()}
    produced = {make_example.report_path(r["role"], r["seq"], r["phase"], r["fmt"]):
                r["body"].encode("utf-8") for r in reports}
    assert sorted(produced) == sorted(committed)
    changed = [name for name in produced if produced[name] != committed[name]]
    assert not changed, f"reports differ from the committed ones: {changed[:5]}"
    receipts = {p.stem + ".eml": p.read_bytes() for p in (EXAMPLE / "receipts").glob("*.txt")}
    assert {k: v.encode() for k, v in answers.items()} == receipts
    assert "".join(line + "\n" for line in log_lines).encode() == \
        (EXAMPLE / f"{GAME}.jsonl").read_bytes()


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="no ssh-keygen (OpenSSH)")
def test_regression_the_generator_writes_the_committed_mails_again(tmp_path):
    """REGRESSION CHECK: make_example.py, run again, writes the committed mails byte for byte."""
    assert make_example.generate(tmp_path / "out", echo=lambda *_: None) == []
    again = {p.name: p.read_bytes() for p in sorted((tmp_path / "out" / "mail").glob("*/*.eml"))}
    assert again == committed_mails()
