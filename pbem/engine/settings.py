"""The referee's settings file, ``HOME/config.toml`` (TOML, read with :mod:`tomllib`).

Only the ``[ingest]`` table is read here; every key is optional and has the default below
(docs/mail.md, "Settings")::

    [ingest]
    read_seconds = 10          # wall-clock seconds reading one message may take
    read_memory_mb = 512       # MiB of memory reading one message may use
    rejections_per_hour = 5    # rejections mailed to one address per hour at most

A file that is not valid TOML, an unknown key or a value of the wrong type or range raises
:class:`SettingsError` naming the file, the line where TOML gives one, and what was expected.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

from pbem.engine.errors import SetupError
from pbem.engine.readpool import Budget

CONFIG_FILE = "config.toml"


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


_RANGES = {"read_seconds": (0.001, 3600.0), "read_memory_mb": (1, 1 << 20),
           "rejections_per_hour": (0, 1 << 20)}


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
    table = data.get("ingest", {})
    if not isinstance(table, dict):
        raise SettingsError(f"{path}: 'ingest' must be a table ([ingest])")
    known = {f.name: f.type for f in fields(IngestSettings)}
    values = {}
    for key, value in table.items():
        if key not in known:
            raise SettingsError(f"{path}: [ingest] has no setting {key!r}; expected one of "
                                f"{', '.join(known)}")
        low, high = _RANGES[key]
        wants_int = key != "read_seconds"
        ok_type = isinstance(value, int) if wants_int else isinstance(value, (int, float))
        if isinstance(value, bool) or not ok_type or not low <= value <= high:
            kind = "a whole number" if wants_int else "a number of seconds"
            raise SettingsError(f"{path}: [ingest] {key} = {value!r}: expected {kind} from "
                                f"{low:g} to {high:g}")
        values[key] = float(value) if not wants_int else value
    return IngestSettings(**values)
