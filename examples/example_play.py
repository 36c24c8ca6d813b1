"""Play a worked example game through pbem and write its files: what every example's
``make_example.py`` shares (``examples/<game>/``).

An example is an :class:`Example`: its game, players and their letters (the shape of
``examples/atlantis/example_mails.py``: :class:`Letter`, :class:`Player`), when the referee
creates the game, and the seed of the referee's randomness. :func:`generate` plays the letters
through pbem's service layer exactly as a referee's installation plays it
(``pbem.engine.service.Referee``); :func:`replay` feeds the committed mails to a fresh home (the
entry point of the tests and of the conformance test's check 6). Nothing is random and nothing
reads the wall clock:

- the clock is fixed: the game is created at ``Example.start``; time moves only from mail
  arrival to mail arrival and cron tick to cron tick (``*/15``, :data:`CRON`);
- the referee's randomness (dice seeds, the hidden seed, the setup salt) comes from
  ``pbem.demo.SeededEntropy(Example.entropy_seed, Example.game)``;
- the keys are the committed TEST keys in ``examples/<game>/keys/`` (the referee's master key
  included); the nonces and times in the order headers are the players' own (the letters);
  Ed25519 signatures are deterministic (RFC 8032), and OpenSSH signatures are made by the real
  ``ssh-keygen -Y sign -n pbem-orders`` (required: the script stops if it is missing).

Outputs (every one rewritten, with no wall-clock time in it):

- ``mail/<phase>/<NN>-<role>-<client>.eml``: the incoming mails, one folder per window;
- ``reports/<role>/<seq>-<phase>.txt`` and ``.html`` per role and ``public`` (the report of
  role ``*``), ``<seq>`` the phase number (000 = the setup report);
- ``receipts/<NN>-<role>-<client>.txt``: the text of the judge's answer to each mail;
- ``<game>.jsonl``: the public log (``pbem verify`` checks it).

Every mail must be judged as its letter expects (``Letter.expect``, the words of the example
README's table); :func:`main` exits with status 1 if one is not.
"""

from __future__ import annotations

import argparse
import dataclasses
import email
import email.policy
import shutil
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
for _path in (HERE, HERE / "atlantis"):
    if str(_path) not in sys.path:
        sys.path.append(str(_path))

import client_forms  # noqa: E402  (examples/atlantis)

CRON = timedelta(minutes=15)
"""``*/15 * * * * pbem process --due``: cron runs the adjudication every quarter of an hour."""


class ExampleError(RuntimeError):
    """The example cannot be played as written (a mail judged otherwise than expected, a
    missing key or program, an arrival before its window opens)."""


@dataclasses.dataclass(frozen=True)
class Example:
    """One worked example: ``game`` (its id, ``atl-example``), ``ruleset``, the ``folder``
    under examples/ (for the key file names the setup report quotes), the seats ``players`` in
    the ruleset's order, the ``letters`` in the order written, the ``referee`` address, when
    the game is created (``start``, UTC), the referee's ``entropy_seed``, the game's
    ``options``, deadlines (seconds) and house rules (``house_rules``: the text of a
    ``--house-rules`` file, named ``house_rules_source``; None for none), and the width of the
    window column in the echo."""

    game: str
    ruleset: str
    folder: str
    players: tuple
    letters: tuple
    referee: str
    start: datetime
    entropy_seed: int
    options: dict = dataclasses.field(default_factory=dict)
    deadline_seconds: int = 72 * 3600
    short_deadline_seconds: int = 24 * 3600
    house_rules: str | None = None
    house_rules_source: str = ""
    window_width: int = 26

    def player(self, role: str):
        """The :class:`Player` of seat ``role``."""
        return next(p for p in self.players if p.role == role)


# -- the referee's installation ---------------------------------------------------------------

def player_specs(ex: Example, keys: Path):
    """The seats of ``pbem game new RULESET --id GAME --player ROLE=EMAIL:KEYFILE``."""
    from pbem.engine.creation import PlayerSpec

    return tuple(PlayerSpec(p.role, p.address, (keys / p.public_file).read_text(encoding="utf-8"),
                            f"examples/{ex.folder}/keys/{p.public_file}") for p in ex.players)


def new_referee(ex: Example, home: Path, keys: Path):
    """A fresh referee home at ``home`` holding the committed master key (copied with mode
    0600, which pbem requires), initialised, with the fixed clock and entropy. Returns
    ``(referee, clock)``; ``clock.now`` is ``ex.start``."""
    from pbem.demo import Clock, SeededEntropy
    from pbem.engine.home import Home
    from pbem.engine.service import Referee

    home.mkdir(parents=True, exist_ok=True)
    key = home / "referee.key"
    shutil.copyfile(keys / "referee.key", key)
    key.chmod(0o600)
    clock = Clock(ex.start)
    referee = Referee(Home(home), clock=clock, entropy=SeededEntropy(ex.entropy_seed, ex.game))
    referee.init()
    return referee, clock


def create_game(ex: Example, referee, keys: Path) -> dict:
    """``pbem game new RULESET --id GAME --player ROLE=... --from REFEREE`` with the example's
    options, deadlines and house rules."""
    from pbem.engine.creation import GameSpec

    return referee.new_game(GameSpec(ruleset=ex.ruleset, game_id=ex.game,
                                     players=player_specs(ex, keys), options=dict(ex.options),
                                     deadline_seconds=ex.deadline_seconds,
                                     short_deadline_seconds=ex.short_deadline_seconds,
                                     house_rules_text=ex.house_rules,
                                     house_rules_source=ex.house_rules_source,
                                     referee_address=ex.referee))


def arrival_of(raw: bytes) -> datetime:
    """When the referee's server received a message: the date after the ``;`` of its first
    ``Received`` header (RFC 5321 4.4), as aware UTC. Raises ExampleError without one."""
    msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    received = msg.get_all("Received") or []
    if not received:
        raise ExampleError("the message has no Received header: its arrival time is unknown")
    stamp = " ".join(received[0].split()).rpartition(";")[2].strip()
    return parsedate_to_datetime(stamp).astimezone(timezone.utc)


def next_tick(when: datetime) -> datetime:
    """The first cron run strictly after ``when`` (runs at :00, :15, :30 and :45)."""
    floor = when.replace(minute=when.minute - when.minute % 15, second=0, microsecond=0)
    return floor + CRON


def tick_at_or_after(when: datetime) -> datetime:
    """The first cron run at ``when`` or later."""
    floor = when.replace(minute=when.minute - when.minute % 15, second=0, microsecond=0)
    return floor if floor == when else floor + CRON


@dataclasses.dataclass
class Arrival:
    """A mail due to arrive: its window folder and file name, when, and how to get its bytes
    (``load(play) -> bytes``, called at the moment it arrives)."""

    window: str
    file: str
    at: datetime
    load: Callable[["Play"], bytes]


class Play:
    """The referee's server over the example's days: mails judged as they arrive, cron ticks
    resolving every window that is complete or past its deadline.

    ``verdicts[file]`` holds pbem's verdicts on each mail; ``resolved`` the phases resolved,
    in order, with the time of the tick that resolved them.
    """

    def __init__(self, ex: Example, referee, clock):
        self.ex, self.referee, self.clock = ex, referee, clock
        self.verdicts: dict[str, list] = {}
        self.raw: dict[str, bytes] = {}
        self.resolved: list[tuple[datetime, object]] = []
        self._dirty_since: datetime | None = None

    def _cron_until(self, limit: datetime | None) -> None:
        """Run every cron tick that could resolve something, before ``limit`` (None: until
        nothing more is due without new mail)."""
        while True:
            due = []
            if self._dirty_since is not None:
                due.append(next_tick(self._dirty_since))
            window = self.referee.status(self.ex.game)[0]["window"]
            if window is not None and limit is not None:
                deadline = datetime.strptime(window["deadline"], "%Y-%m-%dT%H:%M:%SZ")
                due.append(tick_at_or_after(deadline.replace(tzinfo=timezone.utc)))
            if not due:
                return
            tick = min(due)
            if limit is not None and tick >= limit:
                return
            self.clock.now = tick
            dirty, self._dirty_since = self._dirty_since, None
            done = self.referee.process(self.ex.game)
            self.resolved += [(tick, d) for d in done]
            if not done and dirty is None:
                raise ExampleError(f"{window['phase_id']} is past its deadline "
                                   f"({window['deadline']}) but was not resolved at {tick}")

    def run(self, arrivals: list[Arrival]) -> None:
        """Play the arrivals in time order, then the cron tick after the last one."""
        from pbem.mail.sources import Incoming

        for item in sorted(arrivals, key=lambda a: a.at):
            self._cron_until(item.at)
            self.clock.now = item.at
            raw = item.load(self)
            if arrival_of(raw) != item.at:
                raise ExampleError(f"{item.file}: its Received line says {arrival_of(raw)}, "
                                   f"expected {item.at}")
            self.raw[item.file] = raw
            origin = f"mail/{item.window}/{item.file}"
            self.verdicts[item.file] = self.referee.ingest([Incoming(raw, origin, False)])
            self._dirty_since = item.at
        self._cron_until(None)


def committed_arrivals(mail_dir: Path) -> list[Arrival]:
    """Every committed mail under ``mail_dir`` (``<window>/<file>.eml``), arriving at the date
    of its Received line: what a replay of the example feeds the referee."""
    out = []
    for path in sorted(mail_dir.glob("*/*.eml")):
        raw = path.read_bytes()
        out.append(Arrival(path.parent.name, path.name, arrival_of(raw),
                           lambda play, raw=raw: raw))
    return out


def replay(ex: Example, home: Path, mail_dir: Path, keys: Path) -> Play:
    """Replay the committed mails through a fresh referee home (test entry point)."""
    referee, clock = new_referee(ex, home, keys)
    create_game(ex, referee, keys)
    play = Play(ex, referee, clock)
    play.run(committed_arrivals(mail_dir))
    return play


# -- writing the letters as mail --------------------------------------------------------------

class Writer:
    """Signs each letter with its player's key and writes it as their mail program does
    (the forms of ``examples/atlantis/client_forms.py``)."""

    def __init__(self, ex: Example, keys: Path, workdir: Path, outbox: Path):
        from pbem.crypto.keys import load_private_key

        self.ex, self.keys, self.workdir, self.outbox = ex, keys, workdir, outbox
        self.private = {}
        for p in ex.players:
            if p.signs_with == "pbem":
                path = keys / p.key_file
                self.private[p.role] = load_private_key(path.read_text(encoding="utf-8"),
                                                        str(path))
        self.ssh_keys: dict[str, Path] = {}

    def _ssh_key(self, role: str) -> Path:
        if shutil.which("ssh-keygen") is None:
            raise ExampleError(f"ssh-keygen (OpenSSH) is needed to sign {role}'s orders")
        if role not in self.ssh_keys:
            # ssh-keygen refuses a private key that others may read; a git checkout is 0644.
            path = self.workdir / self.ex.player(role).key_file
            shutil.copyfile(self.keys / self.ex.player(role).key_file, path)
            path.chmod(0o600)
            self.ssh_keys[role] = path
        return self.ssh_keys[role]

    def signed(self, letter) -> str:
        """The letter's order file in a pbem envelope (what ``pbem sign`` prints)."""
        from pbem.crypto.canonical import canonical_text
        from pbem.crypto.envelope import sign_text

        text = letter.order_file()
        if canonical_text(text) + "\n" != text:
            raise ExampleError(f"{letter.file}: the order file is not in canonical form "
                               "(trailing spaces, or blank lines at the start or end)")
        return sign_text(text, self.private[letter.role])

    def ssh_signature(self, letter) -> bytes:
        """``ssh-keygen -Y sign -f KEY -n pbem-orders orders.txt``: the .sig file's bytes."""
        from pbem.demo import ssh_sign

        return ssh_sign(letter.order_file(), self._ssh_key(letter.role), self.workdir)

    def last_report_mail(self, play: Play, role: str):
        """The latest report mail sent to ``role`` (written out of the outbox)."""
        play.referee.outbox(self.outbox)
        best = None
        for path in sorted(self.outbox.glob("*.eml")):
            msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if msg["To"] == self.ex.player(role).address and " report for " in msg["Subject"]:
                best = msg
        if best is None:
            raise ExampleError(f"no report has been mailed to {role} yet")
        return best

    def mail(self, letter, play: Play) -> bytes:
        """The raw bytes of ``letter`` as its client sends it (see client_forms)."""
        kind = letter.client
        if kind == "thunderbird":
            return client_forms.thunderbird(letter, letter.before + self.signed(letter)
                                            + letter.after)
        if kind == "thunderbird-reply":
            report = self.last_report_mail(play, letter.role)
            sent = report["Date"].datetime.astimezone(letter.when.tzinfo)
            text = report.get_body(("plain",)).get_content().replace("\r\n", "\n")
            quoted = client_forms.quote(text)
            attribution = f"On {sent:%d/%m/%Y %H:%M}, {self.ex.referee} wrote:\n"
            letter = dataclasses.replace(letter, subject="Re: " + report["Subject"])
            body = (attribution + quoted + "\n\n" + letter.before + self.signed(letter)
                    + letter.after)
            return client_forms.thunderbird(letter, body, in_reply_to=report["Message-ID"])
        if kind == "apple":
            return client_forms.apple_mail(letter, letter.before, self.signed(letter),
                                           letter.after)
        if kind == "gmail":
            return client_forms.gmail(letter, letter.before + self.signed(letter) + letter.after)
        if kind == "outlook":
            return client_forms.outlook(letter, letter.before + self.signed(letter)
                                        + letter.after)
        if kind == "mutt":
            body = letter.before + letter.order_file() + letter.after
            return client_forms.mutt(letter, body,
                                     [("orders.txt.sig", self.ssh_signature(letter))])
        if kind == "mutt-attach":
            sig = self.ssh_signature(letter)
            return client_forms.mutt(letter, letter.before + letter.after,
                                     [("orders.txt", letter.order_file().encode("utf-8")),
                                      ("orders.txt.sig", sig)])
        raise ExampleError(f"{letter.file}: unknown client {kind!r}")


# -- what the judge made of each mail ---------------------------------------------------------

def judged(ex: Example, file: str, verdicts: list, receipts: dict[str, str]) -> str:
    """A mail's verdict in the words of the example README's table: ``accepted``, ``accepted,
    problems: line 11 (RULE); ...``, ``accepted, replaces FILE``, or ``rejected: CAUSE``."""
    if len(verdicts) != 1:
        return f"{len(verdicts)} verdicts"
    v = verdicts[0]
    if v.status != "accepted":
        return f"{v.status}: {v.cause}"
    out = "accepted"
    if v.problems:
        out += ", problems: " + "; ".join(
            (f"line {p.line}" if p.line is not None else "no line") + f" ({p.rule})"
            for p in v.problems)
    for line in receipts.get(file, "").splitlines():
        if line.startswith("replaces: the orders issued "):
            issued = line.rsplit(" ", 1)[1]
            old = [x.file for x in ex.letters if x.issued == issued and x.role == v.role]
            out += ", replaces " + (old[0] if old else issued)
    return out


def answers(ex: Example, outbox: Path) -> dict[str, str]:
    """The judge's answer (receipt or rejection) to each incoming mail, by the mail's file
    name: the text part of the outgoing message whose In-Reply-To is that mail's Message-ID."""
    by_id = {letter.message_id: letter.file for letter in ex.letters if letter.message_id}
    out = {}
    for path in sorted(outbox.glob("*.eml")):
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        replied = str(msg["In-Reply-To"] or "").strip()
        if replied in by_id:
            out[by_id[replied]] = msg.get_body(("plain",)).get_content()
    return out


# -- the outputs --------------------------------------------------------------------------------

def report_path(role: str, seq: int, phase: str, fmt: str) -> str:
    """``<folder>/<seq>-<phase>.<ext>`` of a report under ``reports/``: the folder is the
    role (``public`` for ``*``), the extension ``txt`` or ``html``."""
    folder = role if role != "*" else "public"
    return f"{folder}/{seq:03d}-{phase}.{'txt' if fmt == 'text' else 'html'}"


def write_outputs(ex: Example, play: Play, out: Path, outbox: Path) -> dict[str, str]:
    """Write the mails, reports, receipts and log under ``out``; returns the answers."""
    referee = play.referee
    for sub in ("mail", "reports", "receipts"):
        shutil.rmtree(out / sub, ignore_errors=True)
    for letter in ex.letters:
        if letter.file in play.raw:
            folder = out / "mail" / letter.window
            folder.mkdir(parents=True, exist_ok=True)
            (folder / letter.file).write_bytes(play.raw[letter.file])
    for item in referee.all_reports(ex.game):
        path = out / "reports" / report_path(item["role"], item["seq"], item["phase"],
                                             item["fmt"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(item["body"].encode("utf-8"))
    referee.outbox(outbox)
    replies = answers(ex, outbox)
    (out / "receipts").mkdir(parents=True, exist_ok=True)
    for file, text in sorted(replies.items()):
        (out / "receipts" / (Path(file).stem + ".txt")).write_bytes(text.encode("utf-8"))
    referee.export_log(ex.game, out / f"{ex.game}.jsonl")
    return replies


def check_letters(letters) -> None:
    """Raise ExampleError unless every letter has its own file name, nonce and Message-ID
    (a nonce used twice would let two order sets feed the dice alike; docs/dice.md)."""
    for name in ("file", "nonce", "message_id"):
        seen = set()
        for letter in letters:
            value = getattr(letter, name)
            if value in seen:
                raise ExampleError(f"{letter.file}: {name} {value!r} is used by an earlier letter")
            seen.add(value)


def generate(ex: Example, out: Path, keys: Path, home: Path | None = None,
             echo=print) -> list[str]:
    """Play the letters and write everything under ``out``; the referee's home (database and
    master key) is ``home`` if given (it must not hold a game yet), else a temporary folder.
    Returns the mismatches between how each mail was judged and how its letter expects it
    (empty when all is well). Raises ExampleError (see :func:`check_letters`)."""
    check_letters(ex.letters)
    with tempfile.TemporaryDirectory(prefix=f"{ex.game}-") as tmp:
        tmp = Path(tmp)
        referee, clock = new_referee(ex, home or tmp / "home", keys)
        create_game(ex, referee, keys)
        (tmp / "work").mkdir()
        (tmp / "outbox").mkdir()
        writer = Writer(ex, keys, tmp / "work", tmp / "outbox")
        arrivals = [Arrival(x.window, x.file, x.arrival,
                            lambda play, x=x: writer.mail(x, play)) for x in ex.letters]
        play = Play(ex, referee, clock)
        play.run(arrivals)
        replies = write_outputs(ex, play, out, tmp / "outbox")
        mismatches = []
        for when, done in play.resolved:
            echo(f"{when:%Y-%m-%dT%H:%MZ} {done.phase} resolved"
                 + (f" (NMR: {', '.join(done.nmr)})" if done.nmr else "")
                 + (f"; next {done.next_phase}" if done.next_phase else "; game over"))
        for letter in ex.letters:
            got = judged(ex, letter.file, play.verdicts.get(letter.file, []), replies)
            echo(f"{letter.arrival:%Y-%m-%dT%H:%M:%SZ} {letter.window:<{ex.window_width}} "
                 f"{letter.file}: {got}")
            if got != letter.expect:
                mismatches.append(f"{letter.file}: judged '{got}', expected '{letter.expect}'")
        return mismatches


def main(ex: Example, folder: Path, doc: str, argv: list[str] | None = None) -> int:
    """The command line of ``examples/<game>/make_example.py`` (``doc``: its docstring; the
    default ``--out`` is ``folder``, the keys are ``folder/keys``)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=folder,
                        help="where to write mail/, reports/, receipts/ and the log "
                             "[default: this script's folder]")
    parser.add_argument("--home", type=Path,
                        help="keep the referee's home here (a new folder), to look at the game "
                             "with `pbem --home DIR status`, `report`, `log` [default: a "
                             "temporary folder, removed at the end]")
    args = parser.parse_args(argv)
    if args.home is not None and args.home.exists() and any(args.home.iterdir()):
        parser.error(f"--home {args.home}: the folder exists and is not empty")
    mismatches = generate(ex, args.out, folder / "keys", home=args.home)
    for m in mismatches:
        print(f"MISMATCH {m}", file=sys.stderr)
    return 1 if mismatches else 0


def entry_points(ex: Example, folder: Path):
    """``(replay, generate)`` of an example's ``make_example.py``, the names the tests call:
    ``replay(home, mail_dir, keys) -> Play`` (:func:`replay`) and ``generate(out, keys=folder /
    "keys", home=None, echo=print) -> mismatches`` (:func:`generate`)."""

    def replay_it(home: Path, mail_dir: Path, keys: Path) -> Play:
        """Replay the committed mails through a fresh referee home (test entry point)."""
        return replay(ex, home, mail_dir, keys)

    def generate_it(out: Path, keys: Path = folder / "keys", home: Path | None = None,
                    echo=print) -> list[str]:
        """Play the letters and write everything under ``out`` (:func:`generate`)."""
        return generate(ex, out, keys, home=home, echo=echo)

    return replay_it, generate_it


def letter_class(game: str, referee_key: str, players) -> type:
    """A letter class for an example game other than the Atlantis one: the Atlantis example's
    ``Letter`` (``examples/atlantis/example_mails.py``: the same fields, client forms and
    derived ids) whose order header names ``game`` and the referee key ``referee_key`` (the
    fingerprint the setup report prints), and whose player is looked up in ``players``."""
    from example_mails import Letter

    seats = {p.role: p for p in players}

    @dataclasses.dataclass(frozen=True)
    class GameLetter(Letter):
        @property
        def player(self):
            return seats[self.role]

        def header(self) -> str:
            """The order file's header lines (DESIGN.md, "Signed orders"), ending with the
            blank line before the orders."""
            return (f"game: {game}\nturn: {self.turn}\nphase: {self.phase}\nrole: {self.role}\n"
                    f"referee: {referee_key}\nnonce: {self.nonce}\nissued: {self.issued}\n\n")

    GameLetter.__doc__ = f"A letter of game {game} (example_play.letter_class)."
    return GameLetter
