"""Durations written by referees: ``72h``, ``3d``, ``90m``, ``1d12h``, ``3600s``."""

from __future__ import annotations

import re

_PART = re.compile(r"(\d+)\s*([dhms])")
_UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
MAX_SECONDS = 366 * 86400
"""The longest deadline a game may set (a year and a day)."""


def parse_duration(text: str) -> int:
    """Seconds in a duration such as ``72h`` or ``1d12h``; ValueError quoting the input otherwise."""
    s = text.strip().lower()
    pos, total, order = 0, 0, list(_UNITS)
    for m in _PART.finditer(s):
        if m.start() != pos and s[pos:m.start()].strip():
            break
        unit = m.group(2)
        if unit not in order:  # each unit once, largest first: '1h1h' is a typo, not 2h
            raise ValueError(f"expected a duration such as 72h, 3d, 90m or 1d12h (each unit "
                             f"once, largest first), found {text!r}")
        del order[:order.index(unit) + 1]
        total += int(m.group(1)) * _UNITS[unit]
        pos = m.end()
    if not s or s[pos:].strip() or total <= 0:
        raise ValueError(f"expected a duration such as 72h, 3d, 90m or 1d12h, found {text!r}")
    if total > MAX_SECONDS:
        raise ValueError(f"duration {text!r} is longer than a year; expected at most 366d")
    return total


def format_duration(seconds: int) -> str:
    """The shortest of ``3d``, ``72h``-style forms: ``1d12h``, ``90m``."""
    out = []
    for unit, size in _UNITS.items():
        if seconds >= size:
            n, seconds = divmod(seconds, size)
            out.append(f"{n}{unit}")
    return "".join(out) or "0s"
