"""The referee's settings file, ``HOME/config.toml`` (TOML, read with :mod:`tomllib`).

Only the ``[ingest]`` table exists so far; every key is optional and has the default below
(docs/mail.md, "Settings")::

    [ingest]
    read_seconds = 10          # wall-clock seconds reading one message may take
    read_memory_mb = 512       # MiB of memory reading one message may use
    rejections_per_hour = 5    # rejections mailed to one address per hour at most

A file that is not valid TOML, an unknown table or key, or a value of the wrong type or range
raises :class:`SettingsError` naming the file, the line and what was expected.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

from pbem.engine.errors import SetupError
from pbem.engine.readpool import Budget

CONFIG_FILE = "config.toml"
TABLES = ("ingest",)
"""The tables the settings file may hold (a misspelt ``[injest]`` is an error, not ignored)."""


class SettingsError(SetupError):
    """The settings file cannot be read, or a value in it is not what is expected."""


@dataclass(frozen=True)
class IngestSettings:
    """The ``[ingest]`` settings: the budget of reading one message (``read_seconds`` > 0,
    ``read_memory_mb`` >= 1) and ``rejections_per_hour`` (>= 0) to one address."""

    read_seconds: float = 10.0
    read_memory_mb: int = 512
    rejections_per_hour: int = 5

    @property
    def budget(self) -> Budget:
        return Budget(self.read_seconds, self.read_memory_mb)


_RANGES = {"read_seconds": (0.001, 3600.0), "read_memory_mb": (1, 1_000_000),
           "rejections_per_hour": (0, 1_000_000)}


def load_ingest_settings(home: Path) -> IngestSettings:
    """The ``[ingest]`` settings of ``HOME/config.toml`` (the defaults when there is no file).
    Raises :class:`SettingsError`."""
    import tomllib

    path = Path(home) / CONFIG_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return IngestSettings()
    except (OSError, UnicodeDecodeError) as e:
        raise SettingsError(f"{path}: cannot be read ({e})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SettingsError(f"{path}: not valid TOML: {e}") from None
    for name in data:
        if name not in TABLES:
            raise SettingsError(f"{path}, line {_line_of(text, None, name)}: no settings table "
                                f"[{name}]; expected one of {', '.join(f'[{t}]' for t in TABLES)}")
    table = data.get("ingest", {})
    if not isinstance(table, dict):
        raise SettingsError(f"{path}: 'ingest' must be a table ([ingest])")
    known = [f.name for f in fields(IngestSettings)]
    values = {}
    for key, value in table.items():
        where = f"{path}, line {_line_of(text, 'ingest', key)}: [ingest] {key}"
        if key not in known:
            raise SettingsError(f"{where}: no such setting; expected one of {', '.join(known)}")
        low, high = _RANGES[key]
        wants_int = key != "read_seconds"
        ok_type = isinstance(value, int) if wants_int else isinstance(value, (int, float))
        if isinstance(value, bool) or not ok_type or not low <= value <= high:
            kind = "a whole number" if wants_int else "a number of seconds"
            raise SettingsError(f"{where} = {_toml(value)}: expected {kind} from {low:,} to "
                                f"{high:,}")
        values[key] = float(value) if not wants_int else value
    return IngestSettings(**values)


def _toml(value) -> str:
    """``value`` as TOML writes it (``true``, ``"ten"``, ``1.5``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    return str(value)


def _line_of(text: str, table: str | None, key: str) -> int | str:
    """The 1-based line of ``key = ...`` in ``[table]`` (or of the header ``[key]`` when
    ``table`` is None) in the TOML ``text``; ``"?"`` when it cannot be found (a dotted or
    inline form)."""
    current = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("[") and not stripped.startswith("[["):
            current = stripped.strip("[]").strip()
            if table is None and current == key:
                return number
            continue
        name = stripped.split("=", 1)[0].strip().strip('"')
        if table is not None and current == table and "=" in stripped and name == key:
            return number
        if table is None and current is None and name == key:
            return number
    return "?"
