"""Reports encrypted to the player's own key (issue 10, "Only the player can read it";
docs/mail.md, "Encrypted reports").

Mail crosses servers in the clear, and a report carries secrets. A player who registered an
``ssh-ed25519`` key may have their reports encrypted to it with age (the age-encryption.org/v1
format, through ``pyrage``): the seat's ``encrypt_reports`` setting (``pbem game new --encrypt
ROLE``, ``pbem game set GAME --encrypt ROLE=yes|no``). The report stays sealed in the database
(AES-256-GCM under the referee's master key) until ``pbem send`` composes its mail; only then is
it encrypted to the seat's key, so a seat whose setting changes gets its next mail (and any
report still queued) the new way.

Such a mail's body says only which game and phase the report is for and how to open it; it
carries two attachments:

- ``report.age``: the text report (UTF-8; what the body of a plain report mail is, the order
  template at its end), which ``age -d -i ~/.ssh/id_ed25519 report.age`` prints;
- ``report.html.age``: the HTML report with its map (what ``report.html`` is otherwise), which
  ``age -d -i ~/.ssh/id_ed25519 -o report.html report.html.age`` writes, to open in a browser.

Two files rather than one archive, so that each opens with the age command alone (no tar or
unzip on a phone or a Windows machine) and the text report reads in the terminal at once.

age encryption is randomised: composing the same queued report twice (after a crash) gives other
attachment bytes. Its Message-ID stays the same, and is not derived from the report (a hash of
the report in a header anyone on the way can read would let them test guesses of its content):
it hashes the mail's public parts (sender, recipient, subject, body) and the outbox row.

age encrypts to ``ssh-ed25519`` public keys only, and a player opens the file with the private
key of the key they registered: a seat whose key was registered as a pbem key (``pbem keygen``)
cannot ask for it, since age cannot read a pbem private key.
"""

from __future__ import annotations

from pbem.crypto.lines import split_lines
from pbem.engine.errors import GameError

SSH_KEY = "ssh-ed25519"
PBEM_KEY = "pbem-ed25519"
TEXT_ATTACHMENT = "report.age"
HTML_ATTACHMENT = "report.html.age"
AGE_MIME_TYPE = "application/octet-stream"
"""The MIME type of the attachments: age's binary format has no registered type (age itself
and mail clients treat the files as opaque bytes)."""


class NotEncryptable(GameError):
    """Encrypted reports asked for a seat whose key age cannot encrypt to (a pbem key), or whose
    key form pbem does not know (a seat registered before schema 0004)."""


def key_type(key_text: str) -> str | None:
    """The form of the public key in ``key_text`` (a key file already read by
    pbem.crypto.keys.load_public_key): ``ssh-ed25519``, ``pbem-ed25519``, or None."""
    for line in split_lines(key_text):
        s = line.strip()
        if s and not s.startswith("#"):
            kind = s.split(None, 1)[0]
            return kind if kind in (SSH_KEY, PBEM_KEY) else None
    return None


def check_encryptable(game_id: str, role: str, kind: str | None, fingerprint: str) -> None:
    """Raise :class:`NotEncryptable` unless a seat whose key (``fingerprint``) was registered
    in form ``kind`` (:func:`key_type`; None: not known) can have its reports encrypted."""
    if kind == SSH_KEY:
        return
    if kind == PBEM_KEY:
        raise NotEncryptable(
            f"player {role}: reports can be encrypted only to an ssh-ed25519 key (age encrypts "
            f"to SSH ed25519 keys), and {role}'s key {fingerprint} is a pbem key (pbem-ed25519, "
            f"made by `pbem keygen`): the player needs an ssh-ed25519 key (ssh-keygen -t "
            f"ed25519; the line of ~/.ssh/id_ed25519.pub), registered with `pbem game replace "
            f"{game_id} {role} EMAIL:PUBKEYFILE`")
    raise NotEncryptable(
        f"player {role}: pbem does not know whether {role}'s key {fingerprint} was registered "
        "as an ssh-ed25519 key (the seat was set up before pbem recorded it); reports can be "
        f"encrypted only to an ssh-ed25519 key: give its public key file with --key "
        f"{role}=PUBKEYFILE (the line of ~/.ssh/id_ed25519.pub)")


def encrypt(public_key_line: str, data: bytes) -> bytes:
    """``data`` encrypted with age to the OpenSSH ``ssh-ed25519`` public key line (binary
    age-encryption.org/v1 format)."""
    import pyrage

    fields = public_key_line.split()
    recipient = pyrage.ssh.Recipient.from_str(" ".join(fields[:2]))
    return pyrage.encrypt(bytes(data), [recipient])


def body(game, role: str, label: str, fingerprint: str) -> str:
    """The plain-text body of an encrypted report mail: which game and report it is and how
    to open it; nothing from the report itself. Lines of at most 72 characters."""
    import textwrap

    def para(text: str) -> str:
        return textwrap.fill(text, width=72, break_long_words=False, break_on_hyphens=False)

    return "\n\n".join([
        para(f"Your {label} for {role} in game {game.id} ({game.title}) is encrypted to your "
             f"ssh-ed25519 key {fingerprint}, as you asked: only its private key opens it."),
        para("Save the two attachments, then print the report (with the order template at "
             "its end, when orders are due) with"),
        f"    age -d -i ~/.ssh/id_ed25519 {TEXT_ATTACHMENT}",
        para("and write the report with its map, to open in a web browser, with"),
        f"    age -d -i ~/.ssh/id_ed25519 -o report.html {HTML_ATTACHMENT}",
        para("Give -i the private key of the public key you registered for this game, if it "
             "is not ~/.ssh/id_ed25519 (age asks for its passphrase, if it has one; rage "
             "works the same way). To receive your reports unencrypted again, ask the "
             "referee."),
    ]) + "\n"


def report_label(session, game_id: str, seq: int) -> str:
    """``setup report`` or ``turn 3 movement report``: what the body names."""
    from pbem.store import repo

    if seq == 0:
        return "setup report"
    phase = next((p for p in repo.phases(session, game_id) if p.seq == seq), None)
    return f"turn {phase.turn} {phase.name} report" if phase else f"report {seq}"


def compose_encrypted_report(session, game, row, player, text: str, html: str) -> bytes:
    """The mail of a queued report (Outbox ``row``) for ``player``, a seat whose reports are
    encrypted: a body naming the game and report and how to open it, and the text and HTML
    reports encrypted to the seat's key as ``report.age`` and ``report.html.age``. Raises
    NotEncryptable if the seat's key is not an ssh-ed25519 key (then nothing is sent)."""
    from pbem.engine.judge import mail_domain
    from pbem.mail.compose import compose

    check_encryptable(game.id, player.role, player.key_type, player.fingerprint)
    words = body(game, player.role, report_label(session, game.id, row.report_seq),
                 player.fingerprint)
    attachments = [
        (TEXT_ATTACHMENT, AGE_MIME_TYPE, encrypt(player.public_key, text.encode("utf-8"))),
        (HTML_ATTACHMENT, AGE_MIME_TYPE, encrypt(player.public_key, html.encode("utf-8"))),
    ]
    return compose(sender=game.referee_address, to=row.to_addr, subject=row.subject,
                   text=words, attachments=attachments, date=row.created_at,
                   message_id_domain=mail_domain(game.referee_address),
                   message_key=f"outbox/{row.id}",
                   identity=("age", TEXT_ATTACHMENT, HTML_ATTACHMENT))
