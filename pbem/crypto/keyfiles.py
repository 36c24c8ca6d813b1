"""Writing key files safely, and the referee's master key file (docs/signing.md, "Key files").

Key files are created, never replaced: ``O_CREAT | O_EXCL`` refuses an existing file or symlink,
so running ``pbem keygen`` twice cannot destroy a key. The master key file
``referee.key`` holds a ``#`` header line and the base64 (RFC 4648 section 4) of 32 random
bytes; it is the root of every sealing key (:mod:`pbem.crypto.seal`). These functions are also
importable from :mod:`pbem.crypto.keys`.
"""

from __future__ import annotations

import base64
import binascii
import os
import secrets

from pbem.crypto.errors import KeyExistsError, KeyFormatError, KeyPermissionError
from pbem.crypto.lines import split_lines

__all__ = [
    "write_secret_file",
    "write_public_file",
    "MASTER_KEY_FILE",
    "MASTER_KEY_HEADER",
    "create_master_key",
    "load_master_key",
]

MASTER_KEY_FILE = "referee.key"
"""Default file name of the referee's master key (the root of every sealing key)."""

MASTER_KEY_HEADER = (
    "# pbem referee master key: base64 of 32 random bytes. Keep it secret (mode 0600) and "
    "back it up: without it no sealed secret of any game can be read."
)


def _write_new_file(path: str | os.PathLike[str], text: str, mode: int) -> None:
    data = text.encode("utf-8")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, mode)
    except FileExistsError:
        raise KeyExistsError(
            f"{os.fspath(path)}: already exists; pbem never overwrites a key file "
            "(move the old one away first if you really mean to replace it)"
        ) from None
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)  # exactly ``mode``, whatever the umask
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(path)
        raise
    os.close(fd)


def write_secret_file(path: str | os.PathLike[str], text: str) -> None:
    """Create ``path`` holding ``text`` (UTF-8) with mode 0600, never replacing an existing file.

    The file is created with ``O_CREAT | O_EXCL`` (so an existing file or symlink is never
    followed or overwritten, even in a race), written, fsynced, and removed again if writing
    fails. Raises :class:`KeyExistsError` naming ``path`` if it exists; other ``OSError`` as is.
    """
    _write_new_file(path, text, 0o600)


def write_public_file(path: str | os.PathLike[str], text: str) -> None:
    """As :func:`write_secret_file`, with mode 0644 (a public key may be read by anyone)."""
    _write_new_file(path, text, 0o644)


def create_master_key(path: str | os.PathLike[str], key: bytes | None = None) -> bytes:
    """Create the referee master key file at ``path`` (conventionally :data:`MASTER_KEY_FILE`).

    Draws 32 bytes from ``secrets.token_bytes`` (or takes ``key``, 32 bytes, for a
    reproducible demo or test), writes a ``#`` header line and their base64 on
    the next line with mode 0600 (:func:`write_secret_file`), and returns the 32 bytes. Raises
    :class:`KeyExistsError` if the file exists: replacing a master key would make every sealed
    secret unreadable.
    """
    if key is None:
        key = secrets.token_bytes(32)
    if len(key) != 32:
        raise ValueError(f"a master key is 32 bytes, not {len(key)}")
    write_secret_file(path, f"{MASTER_KEY_HEADER}\n{base64.b64encode(key).decode('ascii')}\n")
    return key


def load_master_key(path: str | os.PathLike[str], *, check_permissions: bool = True) -> bytes:
    """Read the 32-byte referee master key from the file at ``path``.

    The file holds ``#`` comment lines, blank lines, and one line of standard base64 that decodes
    to exactly 32 bytes. On POSIX, when ``check_permissions`` is true, a file readable or
    writable by group or others raises :class:`KeyPermissionError` (with the ``chmod 600``
    command that fixes it) before the key is read; pass ``check_permissions=False`` to read it
    anyway (e.g. on a filesystem without Unix modes). Raises :class:`KeyFormatError`
    (``PATH:LINE: ...``) for bad base64, a wrong length, extra lines or no key, and
    ``FileNotFoundError`` / ``OSError`` as the operating system reports them.
    """
    name = os.fspath(path)
    with open(path, "rb") as f:
        if check_permissions and os.name == "posix":
            mode = os.fstat(f.fileno()).st_mode & 0o777
            if mode & 0o077:
                raise KeyPermissionError(
                    f"{name}: mode {mode:04o} lets other users read or change the referee master "
                    f"key; expected 0600: run `chmod 600 {name}`"
                )
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise KeyFormatError(f"{name}: not UTF-8 text; expected a '#' line and a base64 line") from None
    key: bytes | None = None
    for lineno, line in enumerate(split_lines(text), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if key is not None:
            raise KeyFormatError(
                f"{name}:{lineno}: a second key line (not shown: it may be secret); "
                "expected one base64 line"
            )
        try:
            key = base64.b64decode(s.encode('ascii'), validate=True)
        except (binascii.Error, UnicodeEncodeError):
            raise KeyFormatError(
                f"{name}:{lineno}: not valid base64; expected the base64 of 32 bytes"
            ) from None
        if len(key) != 32:
            raise KeyFormatError(
                f"{name}:{lineno}: decodes to {len(key)} bytes; a master key is 32 bytes"
            )
    if key is None:
        raise KeyFormatError(f"{name}: no key line found; expected a base64 line of 32 bytes")
    return key
