"""The SSH wire encoding used by OpenSSH keys and signatures (RFC 4251 section 5).

Only the two types pbem needs: ``uint32`` (4 bytes, big-endian) and ``string`` (a ``uint32``
length followed by that many bytes). Used for key fingerprints and OpenSSH public key lines
(:mod:`pbem.crypto.keys`), the ``openssh-key-v1`` private key container (OpenSSH PROTOCOL.key)
and SSH signatures (:mod:`pbem.crypto.sshsig`, OpenSSH PROTOCOL.sshsig).
"""

from __future__ import annotations

import struct

__all__ = ["ssh_string", "WireReader"]

_UINT32 = struct.Struct(">I")


def ssh_string(data: bytes) -> bytes:
    """Encode ``data`` as an SSH ``string``: 4-byte big-endian length, then the bytes (RFC 4251 s.5)."""
    return _UINT32.pack(len(data)) + data


class WireReader:
    """Sequential reader of SSH wire data that raises ``error`` with a clear message on any fault.

    ``data`` is the whole encoded blob; ``what`` names it in messages ("SSH signature",
    "OpenSSH private key in keys/red"); ``error`` is the exception class to raise (a subclass of
    :class:`pbem.crypto.errors.CryptoError`). Offsets in messages are byte offsets into ``data``.
    """

    __slots__ = ("_data", "_pos", "_what", "_error")

    def __init__(self, data: bytes, what: str, error: type[Exception]) -> None:
        self._data = data
        self._pos = 0
        self._what = what
        self._error = error

    def fail(self, message: str) -> Exception:
        """Return (for the caller to raise) ``error`` with ``message`` prefixed by the blob's name."""
        return self._error(f"{self._what}: {message}")

    def raw(self, n: int, field: str) -> bytes:
        """Read exactly ``n`` bytes for ``field``; raise if fewer remain."""
        end = self._pos + n
        if end > len(self._data):
            raise self.fail(
                f"truncated at byte {self._pos}: {field} needs {n} bytes, "
                f"only {len(self._data) - self._pos} left"
            )
        out = self._data[self._pos:end]
        self._pos = end
        return out

    def uint32(self, field: str) -> int:
        """Read a ``uint32`` (4 bytes, big-endian) for ``field``."""
        return _UINT32.unpack(self.raw(4, field))[0]

    def string(self, field: str) -> bytes:
        """Read an SSH ``string`` (length-prefixed bytes) for ``field``."""
        return self.raw(self.uint32(f"length of {field}"), field)

    @property
    def remaining(self) -> int:
        """Number of bytes not read yet."""
        return len(self._data) - self._pos

    def rest(self) -> bytes:
        """Read and return every remaining byte (possibly none)."""
        out = self._data[self._pos:]
        self._pos = len(self._data)
        return out

    def expect_end(self) -> None:
        """Raise if any byte is left unread (trailing data is a format error)."""
        if self._pos != len(self._data):
            raise self.fail(
                f"{len(self._data) - self._pos} unexpected trailing bytes at byte {self._pos}"
            )
