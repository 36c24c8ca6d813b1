"""The worked example ``examples/altassar/``: the committed mails replayed through a fresh home.

The replay (``make_example.replay``) creates game ``alt-example`` in a new referee home holding
the committed TEST master key, with the example's fixed clock and entropy, and feeds it the
committed mails at the times of their ``Received`` lines, cron resolving the windows.

Independent checks (computed here from the mails, the docs, the rulebook data and the
standards, never read back from pbem's answers): every mail judged as README.md's table says;
each receipt's ``orders-sha256`` recomputed from the raw mail (MIME by ``email``, format=flowed
undone by RFC 3676, canonical form by docs/signing.md section 5); the pbem signatures verify
with ``cryptography``'s Ed25519 and the Spikus SSH signatures with the real ``ssh-keygen -Y
verify``; the public log verifies with docs/dice.md's standalone verifier; no Spikus or public
report (text or HTML) names a Confederation unit, says "Evasion Rating" or "trades places" in
what happened, or ties a face-down marker to a race; the Flight of the story succeeds by the
Evasion Rating of data.toml (9.2) and only the Confederation reads the swap.

Regression checks (labelled as such; the expected bytes are pbem's own earlier output): the
regenerated reports, receipts and log equal the committed ones byte for byte, and the
generator writes the committed mails again. After a deliberate change, run
``python examples/altassar/make_example.py`` and read the diff.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import html
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "altassar"
MAIL = EXAMPLE / "mail"
KEYS = EXAMPLE / "keys"
GAME = "alt-example"
TEST_KEY_LINE = "# TEST KEY — published in pbem's examples, never use it for a real game"
SPIKUS_ID = "spike@example.net"
UNIT_NAME = re.compile(r"\b(terran|clkgo|silian|phatakian|badte|dummy)-\d+\b", re.I)
RACE = re.compile(r"\b(Terran|Clkgo|Silian|Phatakian|Badte|dummy)\b", re.I)


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


make_example = _load("alt_make_example", EXAMPLE / "make_example.py")
# the mail-reading helpers of the Atlantis example's test (RFC 3676, docs/signing.md 5, the
# pbem envelope, the .sig attachment), shared rather than copied
atl = _load("atl_example_test_helpers", ROOT / "tests" / "test_examples.py")
canonical_text, mail_parts, pbem_envelope = atl.canonical_text, atl.mail_parts, atl.pbem_envelope
ssh_signed, orders_of, header_field = atl.ssh_signed, atl.orders_of, atl.header_field
ed25519_verifies, pbem_public_key, docs_verifier = (atl.ed25519_verifies, atl.pbem_public_key,
                                                   atl.docs_verifier)
_JUDGED, _PROBLEM, _plain = atl._JUDGED, atl._PROBLEM, atl._plain

_ROW = re.compile(r"^\|\s*`(\d\d-[\w.-]+\.eml)`\s*\|(.*)\|\s*$")


def committed_mails() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(MAIL.glob("*/*.eml"))}


def readme_table() -> dict[str, tuple[str, list, str | None]]:
    """``{mail file: (status, [(line, rule)], replaced file)}`` from README.md's mail table."""
    rows = {}
    for line in (EXAMPLE / "README.md").read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line)
        if not m:
            continue
        judged = m.group(2).split("|")[-1].strip()
        j = _JUDGED.match(judged)
        assert j, f"README row for {m.group(1)}: cannot read the judged column {judged!r}"
        problems = []
        if j.group(2):
            for item in j.group(2).split("; "):
                p = _PROBLEM.match(item)
                assert p, f"README row for {m.group(1)}: cannot read the problem {item!r}"
                problems.append((int(p.group(1)) if p.group(1) else None, p.group(2)))
        rows[m.group(1)] = (j.group(1), problems, j.group(3))
    return rows


class Replayed:
    """The committed example replayed: verdicts, the judge's answer to each mail, every
    report, and the public log."""

    def __init__(self, base: Path):
        self.play = make_example.replay(base / "home", MAIL, KEYS)
        referee = self.play.referee
        referee.outbox(base / "outbox")
        by_id = {}
        for name, raw in committed_mails().items():
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            by_id[str(msg["Message-ID"]).strip()] = name
        self.answers = {}
        for p in sorted((base / "outbox").glob("*.eml")):
            msg = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            replied = str(msg["In-Reply-To"] or "").strip()
            if replied in by_id:
                self.answers[by_id[replied]] = msg.get_body(("plain",)).get_content()
        self.reports = referee.all_reports(GAME)
        self.log_lines = referee.log_lines(GAME)

    def report_files(self) -> dict[str, bytes]:
        return {make_example.report_path(r["role"], r["seq"], r["phase"], r["fmt"]):
                r["body"].encode("utf-8") for r in self.reports}


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    return Replayed(tmp_path_factory.mktemp("alt-example"))


# -- the README's table -------------------------------------------------------------------------

def test_the_readme_lists_every_committed_mail():
    assert sorted(readme_table()) == sorted(committed_mails())
    assert len(committed_mails()) == 10


def test_every_mail_is_judged_as_the_readme_says(replayed):
    mails = committed_mails()
    for name, (status, problems, replaces) in readme_table().items():
        verdicts = replayed.play.verdicts[name]
        assert len(verdicts) == 1, f"{name}: {[v.summary() for v in verdicts]}"
        v = verdicts[0]
        assert v.status == status, f"{name}: {v.summary()}"
        assert [(p.line, p.rule) for p in v.problems] == problems, f"{name}: {v.problems}"
        receipt = replayed.answers[name]
        assert f"problems: {len(problems)}" in receipt
        for line, _ in problems:
            assert f"- line {line}: " in receipt
        if replaces:
            issued = header_field(orders_of(mails[replaces])[0], "issued")
            assert f"replaces: the orders issued {issued}" in receipt, name
        else:
            assert "replaces:" not in receipt, name


def test_the_problems_quote_the_lines_of_the_orders(replayed):
    quoted = 0
    for name, raw in committed_mails().items():
        lines = orders_of(raw)[0].split("\n")
        for p in replayed.play.verdicts[name][0].problems:
            assert lines[p.line - 1].strip() == p.text.strip(), (name, p)
            quoted += 1
    assert quoted == 5


# -- receipts, digests and signatures -----------------------------------------------------------

def test_receipt_digests_are_the_sha256_of_the_canonical_orders(replayed):
    logged = {}
    for line in replayed.log_lines:
        obj = json.loads(line)
        if obj["type"] == "orders":
            logged[(obj["phase"], obj["role"], obj["issued"])] = obj["commit"]
    assert len(logged) == len(committed_mails())
    for name, raw in committed_mails().items():
        orders, _ = orders_of(raw)
        digest = hashlib.sha256(orders.encode("utf-8")).hexdigest()
        receipt = replayed.answers[name]
        assert f"orders-sha256: {digest}" in receipt, name
        phase = f"{header_field(orders, 'turn')}.{header_field(orders, 'phase')}"
        key = (phase, header_field(orders, "role"), header_field(orders, "issued"))
        # docs/log.md, `orders`: the log holds SHA-256(salt || orders), the salt only in the
        # sender's receipt, so that the plain digest (which anyone could test guesses
        # against) appears nowhere in the public log
        salt = re.search(r"orders-salt: ([0-9a-f]{32})", receipt).group(1)
        assert logged[key] == hashlib.sha256(bytes.fromhex(salt) + orders.encode("utf-8")).hexdigest(), name
        assert not any(digest in line for line in replayed.log_lines), name


def test_confederation_signatures_verify_with_the_registered_key():
    registered = pbem_public_key(KEYS / "confederation.pub")
    checked = 0
    for name, raw in committed_mails().items():
        found = pbem_envelope(mail_parts(raw)[0])
        if found is None:
            continue
        orders, key, signature = found
        assert header_field(orders, "role") == "confederation"
        assert key == registered, name
        data = b"pbem-orders/1\n" + orders.encode("utf-8")
        assert ed25519_verifies(key, signature, data), name
        assert not ed25519_verifies(key, signature, data.replace(b"role: confederation", b"role: spikus", 1))
        checked += 1
    assert checked == 6


def _ssh_verify(tmp_path: Path, orders: str, sig: bytes) -> subprocess.CompletedProcess:
    (tmp_path / "orders.txt.sig").write_bytes(sig)
    return subprocess.run(
        ["ssh-keygen", "-Y", "verify", "-f", str(KEYS / "allowed_signers"), "-I", SPIKUS_ID,
         "-n", "pbem-orders", "-s", str(tmp_path / "orders.txt.sig")],
        input=(orders + "\n").encode("utf-8"), capture_output=True, timeout=60)


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen (OpenSSH) not installed")
def test_spikus_ssh_signed_mails_verify_with_ssh_keygen(tmp_path):
    checked = 0
    for name, raw in committed_mails().items():
        found = ssh_signed(*mail_parts(raw))
        if found is None:
            continue
        orders, sig = found
        assert header_field(orders, "role") == "spikus"
        ok = _ssh_verify(tmp_path, orders, sig)
        assert ok.returncode == 0, (name, ok.stderr.decode())
        assert f'Good "pbem-orders" signature for {SPIKUS_ID}'.encode() in ok.stdout + ok.stderr
        bad = _ssh_verify(tmp_path, orders.replace("role: spikus", "role: confederation", 1), sig)
        assert bad.returncode != 0, name
        checked += 1
    assert checked == 4


def test_the_public_log_verifies_with_the_standalone_verifier(tmp_path):
    log = EXAMPLE / f"{GAME}.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines()
    objs = [json.loads(line) for line in lines]
    revealed = {o["phase"] for o in objs if o["type"] == "dice-reveal"}
    rolls = sum(1 for o in objs if o["type"] == "roll" and "value" in o and o["phase"] in revealed)
    assert rolls > 0
    verifier = docs_verifier(tmp_path)
    result = subprocess.run([sys.executable, "-I", str(verifier), str(log)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"OK: {len(lines)} lines; {rolls} rolls")
    i = next(n for n, o in enumerate(objs) if o["type"] == "roll" and "value" in o)
    objs[i]["value"] = objs[i]["value"] % objs[i]["sides"] + 1
    lines[i] = json.dumps(objs[i], sort_keys=True, separators=(",", ":"))
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join(lines) + "\n", encoding="utf-8")
    bad = subprocess.run([sys.executable, "-I", str(verifier), str(forged)],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0


# -- who sees what ------------------------------------------------------------------------------

def _events(text: str) -> str:
    """The part of a report that tells what happened and the dice (the setup report's list of
    stand-ins quotes the rulebook's counter sheet, "Evasion Rating" included, for everyone)."""
    start = text.find("== What happened ==")
    end = text.find("== The board ==")
    return text[start:end if end > start else None]


def test_no_spikus_or_public_report_shows_what_the_confederation_hides(replayed):
    checked = 0
    for r in replayed.reports:
        if r["role"] == "confederation":
            continue
        where = (r["role"], r["phase"], r["fmt"])
        words = _plain(r["body"], r["fmt"])  # tags gone, line wraps joined
        assert not UNIT_NAME.search(words), (where, UNIT_NAME.search(words).group(0))
        assert "trades places" not in words, where
        assert "Evasion Rating" not in _events(words), where
        lines = (html.unescape(re.sub(r"<[^>]+>", "\n", r["body"])) if r["fmt"] == "html"
                 else r["body"])
        for line in lines.splitlines():
            if "face down" in line:
                assert not RACE.search(line), (where, line)
        checked += 1
    assert checked == 2 * 2 * 9  # spikus and public, text and HTML, setup and 8 phases


def test_the_public_log_names_no_confederation_unit():
    text = (EXAMPLE / f"{GAME}.jsonl").read_text(encoding="utf-8")
    assert not UNIT_NAME.search(text)
    assert "trades places" not in text


def test_the_flight_succeeds_by_the_rulebook_rating_and_only_the_confederation_reads_it():
    """Turn 1's evasion (README, "Who sees what"): silian-1 at 1406, Rain Forest, declares
    Flight; data.toml gives the Silian an Evasion Rating of 5, in full in Rain Forest (9.0), so
    the logged Flight die must be 5 or less (9.2). The Confederation's report of that phase
    tells of the trade with dummy-5; the Spikus report shows the same markers where they were."""
    data = tomllib.loads((ROOT / "pbem/games/altassar/data.toml").read_text(encoding="utf-8"))
    rating = data["units"]["silian"]["evasion"]
    assert data["terrain"]["rain-forest"]["evasion_full"] is True
    log = [json.loads(line) for line in
           (EXAMPLE / f"{GAME}.jsonl").read_text(encoding="utf-8").splitlines()]
    flights = [o for o in log if o["type"] == "roll" and o["phase"] == "1.evasion"
               and "Flight" in o["why"] and "1406" in o["why"]]
    assert len(flights) == 1 and flights[0]["value"] <= rating
    confed = _plain((EXAMPLE / "reports/confederation/005-1.evasion.txt")
                    .read_text(encoding="utf-8"), "text")
    spikus = _plain((EXAMPLE / "reports/spikus/005-1.evasion.txt")
                    .read_text(encoding="utf-8"), "text")
    assert "trades places with dummy-5 at 1506" in confed
    assert "The Confederation declares Flight for counter u15 at 1406" in spikus
    for marker in ("u15: map at 1406", "u07: map at 1506"):
        assert marker in spikus and marker in confed


# -- the keys -----------------------------------------------------------------------------------

def test_the_keys_are_marked_as_test_keys_and_load():
    from pbem.crypto.keys import load_master_key, load_private_key, load_public_key

    for name in ("referee.key", "confederation.key", "confederation.pub",
                 "spikus_ed25519.pub", "allowed_signers"):
        assert (KEYS / name).read_text(encoding="utf-8").split("\n")[0] == TEST_KEY_LINE, name
    assert "TEST KEY" in (KEYS / "README.md").read_text(encoding="utf-8").split("\n")[0]
    for private, public in (("confederation.key", "confederation.pub"),
                            ("spikus_ed25519", "spikus_ed25519.pub")):
        key = load_private_key((KEYS / private).read_text(encoding="utf-8"), private)
        assert key.public_key().raw == load_public_key(
            (KEYS / public).read_text(encoding="utf-8"), public).raw
    assert len(load_master_key(KEYS / "referee.key", check_permissions=False)) == 32


# -- regression: pbem's own earlier output ---------------------------------------------------

def test_regression_reports_receipts_and_log_equal_the_committed_ones(replayed):
    """REGRESSION CHECK: the replay's reports, receipts and log are byte for byte the committed
    ones (which pbem wrote). If a change is meant, regenerate with
    ``python examples/altassar/make_example.py`` and check README.md's story still holds."""
    committed = {str(p.relative_to(EXAMPLE / "reports")): p.read_bytes()
                 for p in sorted((EXAMPLE / "reports").rglob("*")) if p.is_file()}
    produced = replayed.report_files()
    assert sorted(produced) == sorted(committed)
    changed = [name for name in produced if produced[name] != committed[name]]
    assert not changed, f"reports differ from the committed ones: {changed[:5]}"
    receipts = {p.stem + ".eml": p.read_bytes() for p in (EXAMPLE / "receipts").glob("*.txt")}
    assert {k: v.encode() for k, v in replayed.answers.items()} == receipts
    log = "".join(line + "\n" for line in replayed.log_lines).encode()
    assert log == (EXAMPLE / f"{GAME}.jsonl").read_bytes()


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen (OpenSSH) not installed")
def test_regression_the_generator_writes_the_committed_mails_again(tmp_path):
    """REGRESSION CHECK: make_example.py, run again, writes the committed mails byte for byte."""
    mismatches = make_example.generate(tmp_path / "out", echo=lambda *_: None)
    assert mismatches == []
    again = {p.name: p.read_bytes() for p in sorted((tmp_path / "out" / "mail").glob("*/*.eml"))}
    assert again == committed_mails()
