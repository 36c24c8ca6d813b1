"""Reading incoming mail from where mail programs leave it: Maildir, mbox, .eml, folders, stdin.

:func:`iter_messages` turns the paths given to ``pbem ingest`` into :class:`Incoming` items,
each holding one message's raw bytes exactly as delivered (they are archived before anything
is judged, DESIGN.md "Data flow") and a human-readable origin for logs and rejections.

What a path may be (checked in this order):

``-``
    Standard input: one message piped by procmail or a ``.forward`` ``|pbem ingest -`` line.
    A leading mbox ``From `` envelope line, which procmail and sendmail put before a piped
    message, is dropped. Input that does not look like mail is a bare orders file.
a Maildir (a folder with ``new/`` and ``cur/``; ``tmp/`` is never read)
    Every message file in ``new/`` and ``cur/`` (names starting with ``.`` are skipped, as the
    Maildir convention asks), in delivery order: sorted by the unique part of the file name,
    the part before ``:``, which starts with the delivery time. Messages are not moved from
    ``new/`` to ``cur/``: reading is idempotent and the caller recognises a message it has
    already archived by its bytes. A message that a mail reader moves from ``new/`` to
    ``cur/`` while we read is looked up in ``cur/``; one deleted meanwhile is skipped.
any other folder
    Every regular file in it (not in subfolders; hidden files skipped), sorted by name, each
    read as a file (below). So ``examples/atlantis/mail/`` can be ingested as a folder of .eml.
a file starting with ``From `` (an mbox, RFC 4155)
    Every message in it, read with :class:`mailbox.mbox`, without the ``From `` envelope line.
    ``>From `` quoting of body lines (mboxo/mboxrd) is left in the bytes; the signature layer
    undoes it when it needs to. Origins are ``path#1``, ``path#2``, ... (1-based).
a file named ``*.eml``, or one that starts with RFC 5322 header lines
    One message. "Starts with header lines" means: every line up to the first empty line is a
    header field (``Name: value``, or a folded continuation), and at least one of them is a
    header that mail always has (From, Date, Received, Message-ID, ...). An orders file also
    starts with ``game: ...`` lines, which is why a known mail header is required.
any other file
    A bare signed-orders file, not mail: ``Incoming(bare=True)``.

Empty files and empty input hold nothing and yield nothing.

Every read is bounded: at most :data:`KEEP_BYTES` of one message are held in memory (and so
archived); the rest is read through, counted and hashed, then dropped, so a 200 MB mail costs
no more memory than a 2 MiB one. ``Incoming.size`` and ``Incoming.digest`` describe the whole
message as received.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from dataclasses import dataclass
from typing import BinaryIO, Iterable, Iterator

from pbem.mail.errors import MailSourceError, MailSourceNotFoundError, MailSourceUnreadableError

__all__ = [
    "Incoming",
    "iter_messages",
    "looks_like_message",
    "MailSourceError",
    "MailSourceNotFoundError",
    "MailSourceUnreadableError",
]

STDIN = "-"
STDIN_ORIGIN = "stdin"
_MBOX_MARK = b"From "
_SNIFF_BYTES = 65536
KEEP_BYTES = 2 * 1024 * 1024
"""The most bytes of one message that are read into memory and archived (2 MiB); a longer
message is cut there (``Incoming.truncated``) and refused as too large."""
_READ_STEP = 1024 * 1024
_FIELD_NAME = re.compile(rb"([\x21-\x39\x3b-\x7e]+)[ \t]*:")  # RFC 5322 3.6.8 field-name
# Header fields that only mail has (RFC 5322 3.6, RFC 5321 4.4, RFC 2045, common MTA fields).
_MAIL_FIELDS = frozenset(
    b"from sender reply-to to cc bcc subject date message-id in-reply-to references received "
    b"return-path delivered-to x-original-to envelope-to mime-version content-type "
    b"dkim-signature arc-seal authentication-results".split()
)


@dataclass(frozen=True, slots=True)
class Incoming:
    """One incoming item: ``raw`` bytes exactly as read, ``origin`` where they came from.

    ``origin`` examples: ``/home/ref/mail.mbox#3`` (third message of an mbox),
    ``/home/ref/Maildir/new/1764447300.M1P2.host``, ``stdin``, ``/tmp/orders.txt``.
    ``bare`` is true when ``raw`` is a signed orders file rather than a mail message; pass it
    on to :func:`pbem.mail.extract.extract`. ``size`` is the length in bytes of the whole
    message as received and ``digest`` the hex SHA-256 of all those bytes (computed from
    ``raw`` when not given); ``raw`` holds at most :data:`KEEP_BYTES` of them.
    """

    raw: bytes
    origin: str
    bare: bool = False
    size: int = -1
    digest: str = ""

    def __post_init__(self) -> None:
        if self.size < 0:
            object.__setattr__(self, "size", len(self.raw))
        if not self.digest:
            object.__setattr__(self, "digest", hashlib.sha256(self.raw).hexdigest())

    @property
    def truncated(self) -> bool:
        """True when only the first :data:`KEEP_BYTES` of the message were kept."""
        return self.size > len(self.raw)

    @classmethod
    def bounded(cls, data: bytes, origin: str, *, bare: bool = False) -> "Incoming":
        """An item for ``data`` already in memory (an mbox message), cut to KEEP_BYTES."""
        if len(data) <= KEEP_BYTES:
            return cls(data, origin, bare)
        return cls(data[:KEEP_BYTES], origin, bare, len(data), hashlib.sha256(data).hexdigest())


def iter_messages(paths: Iterable[str], *, stdin: BinaryIO | None = None) -> Iterator[Incoming]:
    """Yield every message (or bare orders file) found at ``paths``, in the order given.

    ``paths``: file system paths, or ``"-"`` for standard input; what each may be is described
    in this module's docstring. ``stdin``: the binary stream read for ``"-"`` (default
    ``sys.stdin.buffer``).

    Raises :class:`~pbem.mail.errors.MailSourceNotFoundError` at once, before anything is
    yielded, if a path does not exist, and :class:`~pbem.mail.errors.MailSourceUnreadableError`
    (at once for a path that cannot be examined, or while iterating for one whose content or
    listing cannot be read); both name the path.
    """
    paths = list(paths)
    for path in paths:
        if path != STDIN:
            _check_exists(path)
    return _generate(paths, stdin)


def looks_like_message(data: bytes) -> bool:
    """True if ``data`` starts with an RFC 5322 header block that has a mail-only field.

    Every line before the first empty line (or the end of the first 64 KiB) must be a header
    field line (RFC 5322 section 2.2: field-name, optional blanks, ``:``) or a continuation
    line starting with a space or tab, and one of the field names must be one that mail
    always carries (From, Date, Received, Message-ID, MIME-Version, ...), so that an orders
    file's own ``game:``/``turn:`` header is not taken for mail.
    """
    known = False
    lines = data[:_SNIFF_BYTES].split(b"\n")
    if len(data) > _SNIFF_BYTES:
        lines.pop()  # cut off mid-line: judge only the whole lines
    for number, line in enumerate(lines):
        line = line.rstrip(b"\r")
        if not line:
            return known
        if line[0] in b" \t":
            if number == 0:
                return False
            continue
        match = _FIELD_NAME.match(line)
        if match is None:
            return False
        known = known or match.group(1).lower() in _MAIL_FIELDS
    return known


# -- implementation -----------------------------------------------------------------------


def _check_exists(path: str) -> None:
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        raise MailSourceNotFoundError(path) from None
    except OSError as exc:
        raise MailSourceUnreadableError(path, exc.strerror or str(exc)) from None


def _generate(paths: list[str], stdin: BinaryIO | None) -> Iterator[Incoming]:
    for path in paths:
        if path == STDIN:
            yield from _from_stdin(stdin if stdin is not None else sys.stdin.buffer)
        elif os.path.isdir(path):
            if _is_maildir(path):
                yield from _from_maildir(path)
            else:
                yield from _from_folder(path)
        else:
            yield from _from_file(path)


def _is_maildir(path: str) -> bool:
    """A Maildir has new/ and cur/ (maildir(5)); tmp/ is not required, as we never read it."""
    return os.path.isdir(os.path.join(path, "new")) and os.path.isdir(os.path.join(path, "cur"))


def _read_bounded(handle: BinaryIO, head: bytes = b"") -> tuple[bytes, int, str]:
    """Read ``handle`` to its end, keeping ``head`` plus what follows up to KEEP_BYTES in all;
    returns (kept bytes, size of everything read, hex SHA-256 of everything read)."""
    digest = hashlib.sha256(head)
    kept = [head]
    have = len(head)
    size = have
    while True:
        block = handle.read(_READ_STEP)
        if not block:
            break
        size += len(block)
        digest.update(block)
        if have < KEEP_BYTES:
            kept.append(block[:KEEP_BYTES - have])
            have += len(kept[-1])
    return b"".join(kept), size, digest.hexdigest()


def _from_stdin(stream: BinaryIO) -> Iterator[Incoming]:
    try:
        first = stream.readline(_SNIFF_BYTES) if hasattr(stream, "readline") else b""
        envelope = first.startswith(_MBOX_MARK) and first.endswith(b"\n")
        data, size, digest = _read_bounded(stream, b"" if envelope else first)
    except OSError as exc:
        raise MailSourceUnreadableError(STDIN, exc.strerror or str(exc)) from None
    if envelope:
        # procmail and sendmail's "|program" delivery put the mbox envelope line first.
        if looks_like_message(data):
            yield Incoming(data, STDIN_ORIGIN, False, size, digest)
            return
        data = first + data
        yield Incoming.bounded(data, STDIN_ORIGIN, bare=not looks_like_message(data))
        return
    if not size:
        return
    yield Incoming(data, STDIN_ORIGIN, not looks_like_message(data), size, digest)


def _from_file(path: str) -> Iterator[Incoming]:
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(_MBOX_MARK))
            if head == _MBOX_MARK:
                data = None
            else:
                data, size, digest = _read_bounded(handle, head)
    except OSError as exc:
        raise MailSourceUnreadableError(path, exc.strerror or str(exc)) from None
    if data is None:
        yield from _from_mbox(path)
        return
    if not size:
        return
    is_mail = path.lower().endswith(".eml") or looks_like_message(data)
    yield Incoming(data, path, not is_mail, size, digest)


def _from_mbox(path: str) -> Iterator[Incoming]:
    import mailbox  # only for mbox files (not for one message on stdin)

    try:
        box = mailbox.mbox(path, create=False)
    except (OSError, mailbox.Error) as exc:
        raise MailSourceUnreadableError(path, f"not a readable mbox ({exc})") from None
    try:
        try:
            keys = sorted(box.keys())  # keys are the messages' positions in the file
        except OSError as exc:
            raise MailSourceUnreadableError(path, exc.strerror or str(exc)) from None
        for number, key in enumerate(keys, start=1):
            try:
                raw = box.get_bytes(key)
            except OSError as exc:
                raise MailSourceUnreadableError(path, exc.strerror or str(exc)) from None
            yield Incoming.bounded(raw, f"{path}#{number}")
    finally:
        box.close()


def _list_files(folder: str) -> list[str]:
    """Names of the regular, non-hidden files directly in ``folder``. Symbolic links are not
    followed: a mail folder holds delivered messages, and a link could make the judge archive
    any file the referee's account can read."""
    try:
        with os.scandir(folder) as entries:
            return [e.name for e in entries
                    if not e.name.startswith(".") and e.is_file(follow_symlinks=False)]
    except OSError as exc:
        raise MailSourceUnreadableError(folder, exc.strerror or str(exc)) from None


def _from_folder(folder: str) -> Iterator[Incoming]:
    for name in sorted(_list_files(folder)):
        yield from _from_file(os.path.join(folder, name))


def _unique(name: str) -> str:
    """The unique part of a Maildir file name, without the ``:2,FLAGS`` info suffix."""
    return name.split(":", 1)[0]


def _from_maildir(maildir: str) -> Iterator[Incoming]:
    found = [
        (_unique(name), sub, name)
        for sub in ("new", "cur")
        for name in _list_files(os.path.join(maildir, sub))
    ]
    found.sort()
    for unique, sub, name in found:
        path = os.path.join(maildir, sub, name)
        try:
            with open(path, "rb") as handle:
                data, size, digest = _read_bounded(handle)
        except FileNotFoundError:
            moved = _find_in_cur(maildir, unique)
            if moved is None:
                continue  # deleted since we listed the folder: nothing left to ingest
            path, (data, size, digest) = moved
        except OSError as exc:
            raise MailSourceUnreadableError(path, exc.strerror or str(exc)) from None
        if size:
            yield Incoming(data, path, False, size, digest)


def _find_in_cur(maildir: str, unique: str) -> tuple[str, tuple[bytes, int, str]] | None:
    """A message moved from new/ to cur/ (with flags appended) after we listed new/."""
    cur = os.path.join(maildir, "cur")
    for name in _list_files(cur):
        if _unique(name) == unique:
            path = os.path.join(cur, name)
            try:
                with open(path, "rb") as handle:
                    return path, _read_bounded(handle)
            except FileNotFoundError:
                return None
            except OSError as exc:
                raise MailSourceUnreadableError(path, exc.strerror or str(exc)) from None
    return None
