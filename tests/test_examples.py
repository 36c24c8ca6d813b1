"""The worked example ``examples/atlantis/``: the committed mails replayed through a fresh home.

The replay (``make_example.replay``) creates the game in a new referee home holding the
committed master key, with the example's fixed clock and entropy, and feeds it the committed
mails at the times of their ``Received`` lines, cron resolving the windows as it goes.

Independent checks (values computed here from the mails, the docs and the standards, never
read back from pbem's own answers):

- every mail is judged as the table of examples/atlantis/README.md says;
- each receipt's ``orders-sha256`` is the SHA-256 of the orders' canonical form, computed
  here from the raw mail (MIME decoded with the standard ``email`` package, format=flowed
  undone by RFC 3676, canonical form by docs/signing.md section 5); every pbem signature
  and every receipt signature verifies with ``cryptography``'s Ed25519;
- blue's SSH-signed mails verify with the real ``ssh-keygen -Y verify``;
- the public log verifies with the standalone verifier printed in docs/dice.md;
- no report shows one role another role's values or privately seen tiles;
- a creature window opens exactly where the phasing player's ``if`` lines name no face or
  kind of the face the log's creature die shows (docs/orders-atlantis.md), and the story's
  two windows are those;
- the digest README.md quotes for blue's ``orders.txt`` is the SHA-256 of that attachment.

Regression checks (labelled as such; the expected bytes are pbem's own earlier output, so
they catch changes, not errors): the regenerated reports, receipts and log equal the
committed ones byte for byte, and the generator writes the committed mails again.
After a deliberate change, run ``python examples/atlantis/make_example.py`` and read the diff.
"""

from __future__ import annotations

import base64
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
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "atlantis"
MAIL = EXAMPLE / "mail"
KEYS = EXAMPLE / "keys"
GAME = "atl-example"
TEST_KEY_LINE = "# TEST KEY — published in pbem's examples, never use it for a real game"
ROLES = ("red", "green", "blue")


def _load_make_example():
    spec = importlib.util.spec_from_file_location("atl_make_example", EXAMPLE / "make_example.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


make_example = _load_make_example()


# -- reading the committed mail, independently of pbem ----------------------------------------

def canonical_text(text: str) -> str:
    """docs/signing.md section 5, as printed there."""
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = unicodedata.normalize("NFC", text).replace("\u00a0", " ")
    lines = [line.rstrip(" \t") for line in text.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def unflow(text: str, delsp: bool) -> str:
    """RFC 3676 section 4: join soft-broken lines (a line ending in a space, not the
    signature separator), remove space-stuffing, only between lines of the same quote depth."""
    out: list[tuple[int, str]] = []
    joining = False
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        if body.startswith(" "):
            body = body[1:]
        flowed = body.endswith(" ") and body != "-- "
        if flowed and delsp:
            body = body[:-1]
        if joining and out and out[-1][0] == depth:
            out[-1] = (depth, out[-1][1] + body)
        else:
            out.append((depth, body))
        joining = flowed
    return "\n".join((">" * d + (" " if d else "") + b) if d else b for d, b in out)


def mail_parts(raw: bytes) -> tuple[list[tuple[str, str]], dict[str, bytes]]:
    """(texts, signatures): every text/plain part as (name, decoded text), the body parts named
    "body"; and the .sig attachments by file name."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    texts, sigs = [], {}
    for part in msg.walk():
        if part.is_multipart():
            continue
        name = part.get_filename()
        if name and name.endswith(".sig"):
            sigs[name] = part.get_payload(decode=True)
        elif part.get_content_type() == "text/plain":
            text = part.get_content().replace("\r\n", "\n")
            if part.get_param("format", "").lower() == "flowed":
                text = unflow(text, part.get_param("delsp", "no").lower() == "yes")
            texts.append((name or "body", text))
    return texts, sigs


def unquoted(text: str) -> list[str]:
    return [line for line in text.split("\n") if not line.lstrip().startswith(">")]


def pbem_envelope(texts) -> tuple[str, bytes, bytes] | None:
    """(canonical orders, public key, signature) of the pbem envelope in the texts."""
    for _, text in texts:
        lines = unquoted(text)
        if "-----BEGIN PBEM ORDERS-----" not in lines:
            continue
        begin = lines.index("-----BEGIN PBEM ORDERS-----")
        sig = lines.index("-----BEGIN PBEM SIGNATURE-----", begin)
        end = lines.index("-----END PBEM SIGNATURE-----", sig)
        body = canonical_text("\n".join(lines[begin + 1:sig]))
        key_word, key_b64 = lines[sig + 1].split()
        assert key_word == "ed25519"
        signature = base64.b64decode("".join(lines[sig + 2:end]))
        return body, base64.b64decode(key_b64), signature
    return None


def ssh_signed(texts, sigs) -> tuple[str, bytes] | None:
    """(canonical orders, armored signature) of a mail with an orders.txt.sig attachment: the
    orders are the orders.txt attachment, else the body from its 'game:' line to '-- '."""
    if "orders.txt.sig" not in sigs:
        return None
    named = dict(texts)
    if "orders.txt" in named:
        return canonical_text(named["orders.txt"]), sigs["orders.txt.sig"]
    body = named["body"]
    start = re.search(r"^game:", body, re.M).start()
    kept = []
    for line in body[start:].split("\n"):
        if line == "-- ":
            break
        kept.append(line)
    return canonical_text("\n".join(kept)), sigs["orders.txt.sig"]


def orders_of(raw: bytes) -> tuple[str, str]:
    """(canonical orders, method) of a committed mail."""
    texts, sigs = mail_parts(raw)
    found = pbem_envelope(texts)
    if found:
        return found[0], "pbem"
    found = ssh_signed(texts, sigs)
    assert found, "no signed orders found in the mail"
    return found[0], "ssh"


def header_field(orders: str, name: str) -> str:
    return re.search(rf"^{name}:[ \t]*(.*)$", orders, re.M).group(1).strip()


def committed_mails() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(MAIL.glob("*/*.eml"))}


def pbem_public_key(path: Path) -> bytes:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("pbem-ed25519 "):
            return base64.b64decode(line.split()[1])
    raise AssertionError(f"{path}: no pbem-ed25519 line")


def ssh_public_key(line: str) -> bytes:
    """The 32 raw bytes of an ``ssh-ed25519 AAAA...`` line (RFC 8709: the blob ends with the
    key, a 4-byte length 32 before it)."""
    blob = base64.b64decode(line.split()[1])
    assert blob[-36:-32] == (32).to_bytes(4, "big")
    return blob[-32:]


def ed25519_verifies(public: bytes, signature: bytes, data: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, data)
        return True
    except InvalidSignature:
        return False


# -- the replay ---------------------------------------------------------------------------------

class Replayed:
    """The committed example replayed: verdicts per mail file, the judge's answer to each
    mail, every report, and the public log."""

    def __init__(self, base: Path):
        self.play = make_example.replay(base / "home", MAIL, KEYS)
        referee = self.play.referee
        referee.outbox(base / "outbox")
        self.outgoing = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
                         for p in sorted((base / "outbox").glob("*.eml"))]
        by_id = {}
        for name, raw in committed_mails().items():
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            by_id[str(msg["Message-ID"]).strip()] = name
        self.answers = {}
        for msg in self.outgoing:
            replied = str(msg["In-Reply-To"] or "").strip()
            if replied in by_id:
                self.answers[by_id[replied]] = msg.get_body(("plain",)).get_content()
        self.reports = referee.all_reports(GAME)
        self.log_lines = referee.log_lines(GAME)

    def report_files(self) -> dict[str, bytes]:
        out = {}
        for r in self.reports:
            folder = r["role"] if r["role"] != "*" else "public"
            ext = "txt" if r["fmt"] == "text" else "html"
            out[f"{folder}/{r['seq']:03d}-{r['phase']}.{ext}"] = r["body"].encode("utf-8")
        return out


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    return Replayed(tmp_path_factory.mktemp("atl-example"))


# -- the README's table -------------------------------------------------------------------------

_ROW = re.compile(r"^\|\s*`(\d\d-[\w.-]+\.eml)`\s*\|(.*)\|\s*$")
_JUDGED = re.compile(r"^(accepted|rejected|duplicate)(?:, problems: (.+?))?"
                     r"(?:, replaces `?([\w.-]+)`?)?$")
_PROBLEM = re.compile(r"^(?:line (\d+)|no line) \((.+)\)$")


def readme_table() -> dict[str, tuple[str, list, str | None]]:
    """``{mail file: (status, [(line, rule)], replaced file)}`` from README.md's mail table
    (its last column, "judged")."""
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


def test_the_readme_lists_every_committed_mail():
    assert sorted(readme_table()) == sorted(committed_mails())
    assert len(committed_mails()) >= 10


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
            old_orders, _ = orders_of(mails[replaces])
            issued = header_field(old_orders, "issued")
            assert f"replaces: the orders issued {issued}" in receipt, name
        else:
            assert "replaces:" not in receipt, name


def test_the_problems_quote_the_lines_of_the_orders(replayed):
    """Each problem names a line of the orders as signed (header included) and quotes it,
    without its ``#`` comment (docs/orders-atlantis.md: comments are ignored)."""
    quoted = 0
    for name, raw in committed_mails().items():
        orders, _ = orders_of(raw)
        lines = orders.split("\n")
        for p in replayed.play.verdicts[name][0].problems:
            if p.line is not None:
                assert lines[p.line - 1].split("#")[0].strip() == p.text.strip(), (name, p)
                quoted += 1
    assert quoted >= 4


# -- receipts and digests -----------------------------------------------------------------------

def test_receipt_digests_are_the_sha256_of_the_canonical_orders(replayed):
    logged = {}
    for line in replayed.log_lines:
        if '"type":"orders"' in line:
            obj = json.loads(line)
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


def test_pbem_signatures_verify_with_the_players_registered_keys():
    registered = {"red": pbem_public_key(KEYS / "red.pub"),
                  "green": pbem_public_key(KEYS / "green.pub")}
    checked = 0
    for name, raw in committed_mails().items():
        found = pbem_envelope(mail_parts(raw)[0])
        if found is None:
            continue
        orders, key, signature = found
        role = header_field(orders, "role")
        assert key == registered[role], name
        assert ed25519_verifies(key, signature, b"pbem-orders/1\n" + orders.encode("utf-8")), name
        tampered = orders.replace("sink", "sank", 1) if "sink" in orders else orders + " "
        assert not ed25519_verifies(key, signature, b"pbem-orders/1\n" + tampered.encode())
        checked += 1
    assert checked >= 8


def test_receipts_are_signed_with_the_games_published_referee_key(replayed):
    created = json.loads(replayed.log_lines[0])
    assert created["type"] == "game-created"
    referee = ssh_public_key(created["referee_key"])
    for name, text in replayed.answers.items():
        lines = text.replace("\r\n", "\n").split("\n")
        begin = lines.index("-----BEGIN PBEM RECEIPT-----")
        sig = lines.index("-----BEGIN PBEM SIGNATURE-----", begin)
        end = lines.index("-----END PBEM SIGNATURE-----", sig)
        body = canonical_text("\n".join(lines[begin + 1:sig]))
        assert base64.b64decode(lines[sig + 1].split()[1]) == referee, name
        signature = base64.b64decode("".join(lines[sig + 2:end]))
        assert ed25519_verifies(referee, signature, b"pbem-receipt/1\n" + body.encode()), name


# -- SSH signatures ------------------------------------------------------------------------------

def _ssh_verify(tmp_path: Path, orders: str, sig: bytes) -> subprocess.CompletedProcess:
    (tmp_path / "orders.txt.sig").write_bytes(sig)
    return subprocess.run(
        ["ssh-keygen", "-Y", "verify", "-f", str(KEYS / "allowed_signers"),
         "-I", "bjorn@example.net", "-n", "pbem-orders", "-s", str(tmp_path / "orders.txt.sig")],
        input=(orders + "\n").encode("utf-8"), capture_output=True, timeout=60)


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen (OpenSSH) not installed")
def test_blues_ssh_signed_mails_verify_with_ssh_keygen(tmp_path):
    checked = 0
    for name, raw in committed_mails().items():
        texts, sigs = mail_parts(raw)
        found = ssh_signed(texts, sigs)
        if found is None:
            continue
        orders, sig = found
        assert header_field(orders, "role") == "blue"
        ok = _ssh_verify(tmp_path, orders, sig)
        assert ok.returncode == 0, (name, ok.stderr.decode())
        assert b'Good "pbem-orders" signature for bjorn@example.net' in ok.stdout + ok.stderr
        bad = _ssh_verify(tmp_path, orders.replace("blue", "green", 1), sig)
        assert bad.returncode != 0, name
        checked += 1
    assert checked >= 4


# -- the public log --------------------------------------------------------------------------

def docs_verifier(tmp_path: Path) -> Path:
    """The standalone verifier printed in docs/dice.md ("A verifier you can copy")."""
    text = (ROOT / "docs" / "dice.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(# check_log\.py.*?)```", text, re.S)
    assert len(blocks) == 1
    path = tmp_path / "check_log.py"
    path.write_text(blocks[0], encoding="utf-8")
    return path


def test_the_public_log_verifies_with_the_standalone_verifier(tmp_path):
    log = EXAMPLE / f"{GAME}.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines()
    objs = [json.loads(line) for line in lines]
    revealed = {o["phase"] for o in objs if o["type"] == "dice-reveal"}
    rolls = sum(1 for o in objs if o["type"] == "roll" and "value" in o and o["phase"] in revealed)
    hidden = sum(1 for o in objs if o["type"] == "roll" and o.get("stream") == "hidden")
    assert rolls > 0 and hidden > 0
    verifier = docs_verifier(tmp_path)
    result = subprocess.run([sys.executable, "-I", str(verifier), str(log)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    # the game is not over: the hidden rolls wait for the hidden seed's reveal
    assert result.stdout.startswith(f"OK: {len(lines)} lines; {rolls} rolls and 0 hidden rolls")
    forged = tmp_path / "forged.jsonl"
    i = next(n for n, o in enumerate(objs) if o["type"] == "roll" and "value" in o
             and o["sides"] == 6)
    objs[i]["value"] = objs[i]["value"] % 6 + 1
    lines[i] = json.dumps(objs[i], sort_keys=True, separators=(",", ":"))
    forged.write_text("\n".join(lines) + "\n", encoding="utf-8")
    bad = subprocess.run([sys.executable, "-I", str(verifier), str(forged)],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0


# -- who sees what --------------------------------------------------------------------------

_VALUE = re.compile(r"\b(red|green|blue)\d+\b([^;.]*?)\bvalue (\d+)")
_UNDER = re.compile(r"Under the (\w+) tile at (\d{4}) is ([^.]+)\.")


def _plain(body: str, fmt: str) -> str:
    if fmt == "html":
        body = html.unescape(re.sub(r"<[^>]+>", " ", body))
    return " ".join(body.split())


def test_no_report_shows_another_roles_values_or_hidden_tiles(replayed):
    """Values under people: only their owner sees them (README, "Who sees what"); the symbol
    under a kept tile: only the player who sank it. Checked on the words of every report,
    text and HTML."""
    by = {}
    for r in replayed.reports:
        by.setdefault(r["seq"], {})[(r["role"], r["fmt"])] = _plain(r["body"], r["fmt"])
    seen_values = {role: 0 for role in ROLES}
    private_tiles = []
    for seq, reports in by.items():
        public_under = set(_UNDER.findall(reports[("*", "text")]))
        for (role, fmt), text in reports.items():
            for m in _VALUE.finditer(text):
                assert role != "*", f"public report {seq} shows a value: {m.group(0)!r}"
                assert m.group(1) == role, f"{role}'s report {seq} shows {m.group(0)!r}"
                seen_values[role] += 1
            if fmt == "text":
                private_tiles += [(role, seq, u) for u in _UNDER.findall(text)
                                  if u not in public_under]
        for owner, _, (kind, hexes, symbol) in [t for t in private_tiles if t[1] == seq]:
            for (role, fmt), text in reports.items():
                if role != owner:
                    assert f"at {hexes} is {symbol}" not in text, (seq, role, fmt)
                    assert f"{hexes} {symbol}" not in text, (seq, role, fmt)
    assert all(seen_values.values()), seen_values
    assert [(o, u[1], u[2]) for o, _, u in private_tiles] == [("blue", "0804", "Kill a shark")]


def test_a_standing_order_shows_only_in_its_senders_report(replayed):
    sent = "Your standing order for kill-shark is now on."
    holders = {(r["role"], r["phase"]) for r in replayed.reports
               if r["fmt"] == "text" and sent in r["body"]}
    assert holders == {("blue", "2.red")}


# -- creature windows ------------------------------------------------------------------------

FACES = {1: {"dolphin", "kraken"}, 2: {"shark"}, 3: {"monster"}, 4: {"monster", "shark"},
         5: {"dolphin"}, 6: {"kraken"}}
"""The creature die's faces and the kinds each allows (docs/orders-atlantis.md: "Die faces: 1
dolphin or kraken, 2 shark, 3 monster, 4 monster or shark, 5 dolphin, 6 kraken")."""

_IF = re.compile(r"^\s*if\s+([A-Za-z-]+)\s*:", re.M)


def names_face(condition: str, face: int) -> bool:
    """Whether an ``if CONDITION:`` line applies to ``face`` (pbem/games/atlantis/README.md, "A
    player-turn" 4): a condition with ``-or-`` is a face name and applies to that face only
    (its kinds in any order, a kind named twice counting once); a single kind applies to every
    face that allows it."""
    kinds = condition.lower().split("-or-")
    if len(kinds) == 1:
        return kinds[0] in FACES[face]
    return set(kinds) == FACES[face]


def test_creature_windows_open_where_no_line_names_the_face_rolled():
    """For every creature die in the public log, the orders in force for that player-turn (the
    phasing role's latest-issued order set among the committed mails) decide the window: a
    line naming the face means no window; no such line means a window, unless no creature of
    the face's kinds is on the board (the public report then says so)."""
    log = [json.loads(line) for line in
           (EXAMPLE / f"{GAME}.jsonl").read_text(encoding="utf-8").splitlines()]
    opened = [o["phase"] for o in log if o["type"] == "phase-open"]
    rolled = [(o["phase"], o["value"]) for o in log
              if o["type"] == "roll" and o["sides"] == 6 and "creature die" in o["why"]]
    in_force: dict[tuple[str, str], tuple[str, str]] = {}
    for raw in committed_mails().values():
        orders, _ = orders_of(raw)
        key = (f"{header_field(orders, 'turn')}.{header_field(orders, 'phase')}",
               header_field(orders, "role"))
        issued = header_field(orders, "issued")
        if key not in in_force or issued > in_force[key][0]:
            in_force[key] = (issued, orders)
    windows = []
    for phase, face in rolled:
        role = phase.split(".", 1)[1]
        body = "\n".join(line.split("#")[0] for line in in_force[(phase, role)][1].split("\n"))
        named = [c for c in _IF.findall(body) if names_face(c, face)]
        if named:
            assert f"{phase}-creature" not in opened, (phase, face, named)
        elif f"{phase}-creature" in opened:
            windows.append(phase)
        else:
            texts = [o["text"] for o in log if o["type"] == "event" and o["phase"] == phase]
            assert any("on the board: no creature moves" in t for t in texts), (phase, face)
    assert len(rolled) == 6
    # the story (README.md): red's kraken and green's dolphin, each window answered by a mail
    assert windows == ["2.red", "2.green"]
    assert [p for p in opened if p.endswith("-creature")] == ["2.red-creature",
                                                              "2.green-creature"]
    answered = {p.parent.name for p in MAIL.glob("*/*.eml")}
    assert {"2.red-creature", "2.green-creature"} <= answered


def test_names_face_follows_the_docs():
    assert names_face("shark", 2) and names_face("shark", 4) and not names_face("shark", 3)
    assert names_face("shark-or-monster", 4) and not names_face("monster-or-shark", 3)
    assert names_face("dolphin-or-kraken", 1) and not names_face("dolphin-or-kraken", 5)
    assert names_face("shark-or-shark", 2) and not names_face("shark-or-shark", 4)


def test_the_readme_digest_is_that_of_blues_attached_orders():
    """README.md, "Checking it yourself": ``head -c -1 orders.txt | sha256sum`` of the
    ``orders.txt`` attached to 07-blue-mutt-attach.eml, and the receipt's orders-sha256."""
    readme = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    stated = re.search(r"`head -c -1 orders\.txt \| sha256sum` gives\s+`([0-9a-f]{64})`",
                       readme).group(1)
    texts, _ = mail_parts((MAIL / "1.blue" / "07-blue-mutt-attach.eml").read_bytes())
    attached = dict(texts)["orders.txt"]
    assert attached.endswith("\n") and canonical_text(attached) + "\n" == attached
    assert hashlib.sha256(attached[:-1].encode("utf-8")).hexdigest() == stated
    receipt = (EXAMPLE / "receipts" / "07-blue-mutt-attach.txt").read_text(encoding="utf-8")
    assert f"orders-sha256: {stated}" in receipt


# -- the keys and the forms of mail ----------------------------------------------------------

def test_the_keys_are_marked_as_test_keys_and_load():
    from pbem.crypto.keys import load_master_key, load_private_key, load_public_key

    for name in ("referee.key", "red.key", "red.pub", "green.key", "green.pub",
                 "blue_ed25519.pub", "allowed_signers"):
        assert (KEYS / name).read_text(encoding="utf-8").split("\n")[0] == TEST_KEY_LINE, name
    assert "TEST KEY" in (KEYS / "README.md").read_text(encoding="utf-8").split("\n")[0]
    for name in ("red.key", "green.key", "blue_ed25519"):
        key = load_private_key((KEYS / name).read_text(encoding="utf-8"), name)
        public = (KEYS / (name.replace(".key", ".pub") if name.endswith(".key")
                          else name + ".pub")).read_text(encoding="utf-8")
        assert key.public_key().raw == load_public_key(public, name).raw
    assert len(load_master_key(KEYS / "referee.key", check_permissions=False)) == 32


def test_the_mails_come_in_the_forms_real_clients_send(replayed):
    mails = {name: email.message_from_bytes(raw, policy=email.policy.default)
             for name, raw in committed_mails().items()}
    raws = committed_mails()
    agents = " ".join(str(m.get("User-Agent", "")) + str(m.get("X-Mailer", "")) for m in
                      mails.values())
    for client in ("Thunderbird", "Apple Mail", "Mutt"):
        assert client in agents
    flowed = [n for n, m in mails.items() if m.get_param("format") == "flowed"]
    assert any(re.search(rb"[^ ] \n[^\n]", raws[n].split(b"\n\n", 1)[1]) for n in flowed)
    qp = [n for n, raw in raws.items() if b"quoted-printable" in raw and b"=C2=A0" in raw]
    assert any("gmail.com" in str(mails[n]["Message-ID"]) for n in qp)
    assert any("outlook.com" in str(mails[n]["Message-ID"]) for n in qp)
    apple = [n for n, m in mails.items() if "Apple Mail" in str(m.get("X-Mailer", ""))]
    assert apple and all("orders.txt" in dict(mail_parts(raws[n])[0]) for n in apple)
    assert sum("orders.txt.sig" in mail_parts(raw)[1] for raw in raws.values()) >= 4
    reports = {str(m["Message-ID"]).strip(): m for m in replayed.outgoing
               if " report for " in str(m["Subject"])}
    replies = [n for n, m in mails.items() if str(m.get("In-Reply-To", "")).strip() in reports]
    assert len(replies) == 1
    body = mail_parts(raws[replies[0]])[0][0][1]
    quoted = [line for line in body.split("\n") if line.startswith(">")]
    assert len(quoted) > 30 and any("== Your orders ==" in line for line in quoted)


# -- regression: pbem's own earlier output ---------------------------------------------------

def test_regression_reports_receipts_and_log_equal_the_committed_ones(replayed):
    """REGRESSION CHECK: the reports, receipts and log of the replay are byte for byte the
    committed ones (which pbem wrote): a change here is a change of pbem's behaviour or texts.
    If it is meant, regenerate with ``python examples/atlantis/make_example.py``."""
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
    """REGRESSION CHECK: make_example.py, run again, writes the committed mails byte for byte
    (the letters in example_mails.py and the mails under mail/ are the same)."""
    mismatches = make_example.generate(tmp_path / "out", echo=lambda *_: None)
    assert mismatches == []
    again = {p.name: p.read_bytes() for p in sorted((tmp_path / "out" / "mail").glob("*/*.eml"))}
    assert again == committed_mails()
