"""``pbem demo``: a complete game by mail, played by random-legal-order players.

Everything goes through the real path: a referee home is initialised, each player gets a key
pair (the last one an OpenSSH key used through the real ``ssh-keygen -Y sign`` when that program
is installed), every window's orders are chosen from the player's own view by the ruleset's
random legal player, signed, wrapped in MIME mail the way clients send it (plain,
quoted-printable, format=flowed, an attachment, an SSH signature attachment), written as .eml
files, ingested, and processed. At the end the folder holds every player's reports (text and
HTML), the outgoing mail, the incoming mail and the public log, verified.

With ``seed`` the game is reproducible: the referee's dice seeds, the players' keys, nonces and
choices all derive from it.
"""

from __future__ import annotations

import hashlib
import random
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pbem.mail.clients import FORMS, order_mail

SSH_KEYGEN = "ssh-keygen"


class SeededEntropy:
    """Deterministic bytes from a seed (sha256 in counter mode): the demo's stand-in for the
    operating system's randomness when a reproducible game is asked for. Never used otherwise."""

    def __init__(self, seed: int, label: str = "referee"):
        self.prefix = f"pbem-demo/{label}/{seed}/".encode()
        self.counter = 0

    def __call__(self, n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += hashlib.sha256(self.prefix + str(self.counter).encode()).digest()
            self.counter += 1
        return out[:n]


class Clock:
    """A clock the demo moves forward by hand (UTC)."""

    def __init__(self, start: datetime):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += timedelta(hours=hours)


def _ssh_player_key(folder: Path, role: str, entropy) -> tuple[Path, str] | None:
    """An OpenSSH ed25519 key file for ``role`` (from ``entropy``), if ssh-keygen is here."""
    if shutil.which(SSH_KEYGEN) is None:
        return None
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.from_private_bytes(entropy(32))
    path = folder / f"{role}_ed25519"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                       serialization.PrivateFormat.OpenSSH,
                                       serialization.NoEncryption()))
    path.chmod(0o600)
    public = key.public_key().public_bytes(serialization.Encoding.OpenSSH,
                                           serialization.PublicFormat.OpenSSH).decode()
    pub_path = folder / f"{role}_ed25519.pub"
    pub_path.write_text(f"{public} {role}@demo\n")
    return path, public


def ssh_sign(text: str, key_path: Path, workdir: Path) -> bytes:
    """Sign ``text`` (written with LF line ends and a final newline) with the real
    ``ssh-keygen -Y sign -n pbem-orders``; returns the armored signature file's bytes."""
    target = workdir / "orders.txt"
    target.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
    sig = workdir / "orders.txt.sig"
    sig.unlink(missing_ok=True)
    subprocess.run([SSH_KEYGEN, "-q", "-Y", "sign", "-f", str(key_path), "-n", "pbem-orders",
                    str(target)], check=True, capture_output=True)
    return sig.read_bytes()


def template_referee(report: str) -> str | None:
    """The fingerprint on the ``referee:`` line of a report's order template (``SHA256:...``;
    docs/signing.md, section 10), or None if the report has none."""
    import re

    m = re.search(r"^referee: (SHA256:\S+)$", report, re.M)
    return m.group(1) if m else None


@contextmanager
def _new_database(db_url: str | None):
    """With a database given (``--db``): a refusal (another demo's game or key there) says
    what the demo needs."""
    from pbem.engine.errors import PbemError, SetupError

    try:
        yield
    except PbemError as e:
        if db_url is None:
            raise
        raise SetupError(f"{e} (pbem demo --db needs a new, empty database)") from None


def run_demo(ruleset_name: str = "atlantis", *, players: int | None = None, out_dir: Path | None = None,
             seed: int | None = None, echo=None, db_url: str | None = None,
             options: dict | None = None) -> dict:
    """Play one game to the end (see module docstring). Returns ``{"out", "game", "phases",
    "mails", "winners", "log", "verified", "status", "index", "db"}`` (``index``: the path of
    ``out/index.html``, linking every report; :func:`write_index`; ``db``: the database URL
    used). ``db_url``: the referee's database (a SQLAlchemy URL, e.g. a new PostgreSQL
    database) instead of ``out/home/pbem.db``; it must not hold a game of the demo's id.
    ``options``: the game's options (``{"scenario": "advanced"}``), as ``pbem game new
    --option`` takes them; the ruleset's defaults when None."""
    import secrets

    from pbem.crypto.envelope import sign_text
    from pbem.crypto.keys import PrivateKey
    from pbem.engine import registry
    from pbem.engine.creation import GameSpec, PlayerSpec
    from pbem.engine.headers import fill_header, format_time
    from pbem.engine.home import Home
    from pbem.engine.service import Referee
    from pbem.mail.sources import iter_messages
    from pbem.verify import verify_log

    say = echo or (lambda *_: None)
    rs = registry.get(ruleset_name)
    if players is None:
        players = min(3, rs.max_roles)
    if not rs.min_roles <= players <= rs.max_roles:
        raise ValueError(f"{rs.title} takes {rs.min_roles} players" if rs.min_roles == rs.max_roles
                         else f"{rs.title} takes {rs.min_roles} to {rs.max_roles} players")
    out = Path(out_dir) if out_dir else Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    for sub in ("keys", "mail-in", "mail-out", "reports", "work"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    entropy = SeededEntropy(seed) if seed is not None else secrets.token_bytes
    player_entropy = SeededEntropy(seed, "players") if seed is not None else secrets.token_bytes
    rng = random.Random(seed)
    clock = Clock(datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc) if seed is not None
                  else datetime.now(timezone.utc).replace(microsecond=0))
    referee = Referee(Home(out / "home", db_url), clock=clock, entropy=entropy)
    if seed is not None:  # a reproducible demo needs a reproducible referee key too
        from pbem.crypto.keys import create_master_key

        (out / "home").mkdir(parents=True, exist_ok=True)
        if not referee.home.master_key_path.exists():
            create_master_key(referee.home.master_key_path, SeededEntropy(seed, "master")(32))
    with _new_database(db_url):
        referee.init()

    roles = list(rs.role_names[:players])
    keys, seats = {}, []
    ssh_role = roles[-1]
    for role in roles:
        ssh = _ssh_player_key(out / "keys", role, player_entropy) if role == ssh_role else None
        if ssh is not None:
            keys[role] = ("ssh", ssh[0])
            seats.append(PlayerSpec(role, f"{role}@players.example", ssh[1], str(ssh[0]) + ".pub"))
            continue
        key = PrivateKey(player_entropy(32), role)
        public = key.public_key().pbem_line() + "\n"
        (out / "keys" / f"{role}.key").write_text(key.pbem_text())
        (out / "keys" / f"{role}.key").chmod(0o600)
        (out / "keys" / f"{role}.pub").write_text(public)
        keys[role] = ("pbem", key)
        seats.append(PlayerSpec(role, f"{role}@players.example", public, f"{role}.pub"))
    game_id = f"{ruleset_name[:3]}-demo"
    with _new_database(db_url):
        created = referee.new_game(GameSpec(ruleset=ruleset_name, game_id=game_id,
                                            players=tuple(seats), options=dict(options or {}),
                                            referee_address="referee@judge.example"))
    say(f"game {game_id} created ({rs.title}, players {', '.join(roles)}); "
        f"setup report {created['report_path']}")

    mails = phases = 0
    form_cycle = 0
    for _ in range(10_000):
        status = referee.status(game_id)[0]
        window = status["window"]
        if window is None:
            break
        senders = list(window["owed"])
        senders += [r for r in window["optional"] if rng.random() < 0.15]
        new_files = []
        for role in senders:
            view, win = referee.view_and_window(game_id, role)
            body = rs.bot_orders(view, win, role, rng)
            # the player copies the referee line from the order template of their last report
            judge = template_referee(referee.report(game_id, role))
            header = (f"game: {game_id}\nturn: {win.turn}\nphase: {win.phase}\nrole: {role}\n"
                      + (f"referee: {judge}\n" if judge else "")
                      + f"nonce: {player_entropy(16).hex()}\nissued: {format_time(clock())}\n")
            text = fill_header(header + "\n" + body, clock())
            kind, key = keys[role]
            form = FORMS[form_cycle % len(FORMS)]
            form_cycle += 1
            if kind == "ssh":
                sig = ssh_sign(text, key, out / "work")
                raw = order_mail(form if form != "attachment" else "plain",
                                 sender=f"{role}@players.example", to="referee@judge.example",
                                 subject=f"{game_id} turn {win.turn} {win.phase}",
                                 signed=text, sig=sig, date=clock())
            else:
                raw = order_mail(form, sender=f"{role}@players.example",
                                 to="referee@judge.example",
                                 subject=f"{game_id} turn {win.turn} {win.phase}",
                                 signed=sign_text(text, key), date=clock())
            mails += 1
            path = out / "mail-in" / f"{mails:05d}-{role}-{win.turn}-{win.phase}.eml"
            path.write_bytes(raw)
            new_files.append(str(path))
        clock.advance(2)
        for v in referee.ingest(iter_messages(new_files)):
            if v.status != "accepted":
                raise RuntimeError(f"demo orders were not accepted: {v.summary()}")
        done = referee.process(game_id)
        phases += len(done)
        for d in done:
            say(f"  {d.phase} resolved" + (" — game over" if d.ended else ""))
        if not done:
            raise RuntimeError(f"demo stalled in window {window['phase_id']}")
        clock.advance(1)

    referee.outbox(out / "mail-out")
    written = []
    for item in referee.all_reports(game_id):
        folder = out / "reports" / (item["role"] if item["role"] != "*" else "public")
        folder.mkdir(parents=True, exist_ok=True)
        ext = "txt" if item["fmt"] == "text" else "html"
        path = folder / f"{item['seq']:03d}-{item['phase']}.{ext}"
        path.write_text(item["body"], encoding="utf-8")
        written.append((item, path))
    log_path = referee.export_log(game_id, out / f"{game_id}.jsonl")
    with log_path.open(encoding="utf-8") as f:
        check = verify_log(f, source=str(log_path))
    say(check.summary())
    status = referee.status(game_id)[0]["status"]
    outcome = referee.outcome(game_id)
    index = write_index(out, f"{rs.title}: game {game_id}", roles, written, log_path,
                        outcome["winners"] if outcome else [])
    return {"out": str(out), "game": game_id, "phases": phases, "mails": mails,
            "winners": list(outcome["winners"]) if outcome else [], "log": str(log_path),
            "verified": check.ok, "status": status, "index": str(index),
            "db": referee.home.url}


def write_index(out: Path, title: str, roles: list, reports: list, log_path: Path,
                winners) -> Path:
    """Write ``out/index.html``: a table with a row per phase reported on (in the order they
    were played; ``setup`` first) and a column per role and one for the public report, each
    cell linking that report in HTML and text, by relative links (the folder can be moved or
    served as it is); then the public log and the mail folders. ``reports`` are
    ``(all_reports item, path written)``. Every text is HTML-escaped and every link
    percent-encoded. Returns the path."""
    from html import escape
    from urllib.parse import quote

    def link(path: Path, text: str) -> str:
        rel = path.relative_to(out).as_posix()
        return f'<a href="{escape(quote(rel), quote=True)}">{escape(text)}</a>'

    columns = list(roles) + ["*"]
    phases: dict = {}
    for item, path in reports:
        cell = phases.setdefault((item["seq"], item["phase"]), {}).setdefault(item["role"], {})
        cell[item["fmt"]] = path
    head = "".join(f"<th>{escape(r if r != '*' else 'public')}</th>" for r in columns)
    rows = []
    for (seq, phase), cells in sorted(phases.items()):
        tds = []
        for role in columns:
            got = cells.get(role, {})
            parts = [link(got[f], label) for f, label in (("html", "html"), ("text", "text"))
                     if f in got]
            tds.append(f"<td>{' · '.join(parts) or '&ndash;'}</td>")
        rows.append(f"<tr><th>{escape(phase)}</th>{''.join(tds)}</tr>")
    won = ", ".join(winners) or "nobody"
    extras = [link(log_path, "the public log") + f" ({escape(log_path.name)}; check it with "
              f"<code>pbem verify {escape(log_path.name)}</code>)"]
    for sub, what in (("mail-out", "mail sent to the players"),
                      ("mail-in", "order mail the players sent"), ("keys", "the players' keys")):
        if (out / sub).is_dir():
            extras.append(f'<a href="{escape(quote(sub))}/">{escape(sub)}/</a>: {escape(what)}')
    text = (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{escape(title)}</title>\n<style>body{{font-family:sans-serif;margin:2em}}"
        "table{border-collapse:collapse}th,td{border:1px solid #aaa;padding:.2em .6em;"
        "text-align:left}</style></head>\n<body>\n"
        f"<h1>{escape(title)}</h1>\n<p>Winner(s): {escape(won)}. Every report, by phase (the phase id the reports name, as <code>pbem report --phase</code> "
        "takes it) and by role.</p>\n"
        f"<table>\n<tr><th>phase</th>{head}</tr>\n" + "\n".join(rows) + "\n</table>\n<ul>\n"
        + "".join(f"<li>{x}</li>\n" for x in extras) + "</ul>\n</body></html>\n")
    path = out / "index.html"
    path.write_text(text, encoding="utf-8")
    return path
