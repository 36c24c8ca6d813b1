"""The outbox folder: composed mail written as .eml files, for ``pbem outbox`` to send later.

Each message is one file named ``20261129T201500Z-<hint>-<hash>.eml``: the UTC time it was
queued (so names sort in queue order), a short readable hint (``red-report``), and the first
12 hex digits of the SHA-256 of its bytes. The same bytes queued in the same second get the
same name, so a re-run after a crash overwrites its own file instead of queueing a duplicate.

Files are written atomically: into a hidden temporary file in the same folder (``.`` names are
ignored by readers of the folder), flushed to disk, then renamed into place, and the folder
entry itself is flushed. A reader therefore sees either no file or the whole message, never
half of it, even if the process is killed. Files are created with mode 0600 (the reports hold
what only one player may see).
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from pbem.mail.errors import OutboxWriteError

__all__ = ["write_eml", "EML_SUFFIX"]

EML_SUFFIX = ".eml"
_HINT_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_HINT_MAX = 40
_HASH_DIGITS = 12


def write_eml(
    folder: Path | str, name_hint: str, data: bytes, *, now: datetime | None = None
) -> Path:
    """Write ``data`` (a complete message, e.g. from :func:`pbem.mail.compose.compose`) into
    ``folder`` as a new .eml file and return its path.

    ``folder`` is created (with parents) if missing. ``name_hint``: a few words for humans
    (``"atl-7 red report"``); characters other than ``A-Z a-z 0-9 . _ -`` become ``-``, it is cut
    to 40 characters, and an empty hint becomes ``mail``. ``now``: the queue time (UTC; naive
    is taken as UTC), default the current time.

    Returns ``folder / "YYYYMMDDTHHMMSSZ-<hint>-<12 hex>.eml"``.
    Raises :class:`~pbem.mail.errors.OutboxWriteError` (naming the folder and the reason) if
    the folder cannot be created or written, e.g. when it is a file or the disk is full.
    """
    folder = Path(folder)
    when = now or datetime.now(timezone.utc)
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    when = when.astimezone(timezone.utc)
    hint = _HINT_UNSAFE.sub("-", name_hint).strip("-.")[:_HINT_MAX].strip("-.") or "mail"
    digest = hashlib.sha256(data).hexdigest()[:_HASH_DIGITS]
    target = folder / f"{when:%Y%m%dT%H%M%SZ}-{hint}-{digest}{EML_SUFFIX}"

    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=".", suffix=".tmp")
    except OSError as exc:
        raise OutboxWriteError(str(folder), exc.strerror or str(exc)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
    except OSError as exc:
        try:
            os.unlink(tmp_name)
        except OSError:
            pass
        raise OutboxWriteError(str(folder), exc.strerror or str(exc)) from None
    _fsync_folder(folder)
    return target


def _fsync_folder(folder: Path) -> None:
    """Flush the renamed file's folder entry (POSIX; skipped if the folder cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
