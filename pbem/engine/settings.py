"""The referee's settings file, ``HOME/config.toml`` (TOML, read with :mod:`tomllib`).

Every table and key is optional and has the default below (docs/mail.md, "The settings
file")::

    [ingest]
    read_seconds = 10          # wall-clock seconds reading one message may take
    read_memory_mb = 512       # MiB of memory reading one message may use
    rejections_per_hour = 5    # rejections (and receipts sent again) to one address per hour

    [mail]
    from = "referee@example.org"   # the From address of new games and of replies to mail
                                   # that names no game (no default: see load_mail_settings)

    [smtp]                     # how `pbem send` delivers (no host: no SMTP)
    host = "smtp.example.org"
    port = 587                 # default by security: none 25, starttls 587, tls 465
    security = "starttls"      # "none" | "starttls" | "tls" (implicit TLS)
    user = "referee"           # log in as this user (optional) ...
    password_env = "PBEM_SMTP_PASSWORD"   # ... with the password in this environment variable
    timeout = 60               # seconds for connecting and for each reply
    cafile = "/etc/pbem/ca.pem"   # trust this CA (PEM) instead of the system's (optional)

    [reports]
    templates = "templates"    # the referee's template folder, relative to HOME (optional;
                               # `pbem --templates DIR` wins; docs/reports.md)

A file that is not valid TOML, an unknown table or key, or a value of the wrong type or range
raises :class:`SettingsError` naming the file, the line and what was expected. A password is
never read from this file (``password`` is refused, with the way to give it).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from pbem.engine.errors import SetupError

if TYPE_CHECKING:
    from pbem.engine.readpool import Budget

CONFIG_FILE = "config.toml"
TABLES = ("ingest", "mail", "smtp", "reports")
"""The tables the settings file may hold (a misspelt ``[injest]`` is an error, not ignored)."""


class SettingsError(SetupError):
    """The settings file cannot be read, or a value in it is not what is expected."""


# The settings are named tuples, immutable values as frozen dataclasses would be: a named tuple
# costs a quarter of a frozen dataclass to define, and every `pbem ingest` defines these at its
# start (issue 11, "Start-up").


class IngestSettings(NamedTuple):
    """The ``[ingest]`` settings: the budget of reading one message (``read_seconds`` > 0,
    ``read_memory_mb`` >= 1) and ``rejections_per_hour`` (>= 0) to one address; plus
    ``reply_from``, the ``[mail] from`` address (None when not set), used by the judge as the
    From of replies to mail that names no game."""

    read_seconds: float = 10.0
    read_memory_mb: int = 512
    rejections_per_hour: int = 5
    reply_from: str | None = None

    @property
    def budget(self) -> Budget:
        """The :class:`pbem.engine.readpool.Budget` of reading one message."""
        from pbem.engine.readpool import Budget

        return Budget(self.read_seconds, self.read_memory_mb)


class MailSettings(NamedTuple):
    """The ``[mail]`` settings: ``sender``, the referee's From address (``from`` in the file),
    None when not set. ``source`` names where it was read (for messages)."""

    sender: str | None = None
    source: str = ""


class SmtpSettings(NamedTuple):
    """The ``[smtp]`` settings (see the module doc): ``host`` (None: no SMTP configured),
    ``port`` (None: the default of ``security``), ``security`` ("none" | "starttls" | "tls"),
    ``user`` and ``password_env`` (the name of the environment variable holding the password,
    never the password), ``timeout`` in seconds, ``cafile`` (a PEM file of trusted CAs, or
    None for the system's)."""

    host: str | None = None
    port: int | None = None
    security: str = "starttls"
    user: str | None = None
    password_env: str | None = None
    timeout: float = 60.0
    cafile: str | None = None


class ReportsSettings(NamedTuple):
    """The ``[reports]`` settings: ``templates``, the referee's template folder (absolute;
    None when not set), and ``source`` naming where it was read (for messages)."""

    templates: Path | None = None
    source: str = ""


_RANGES = {"read_seconds": (0.001, 3600.0), "read_memory_mb": (1, 1_000_000),
           "rejections_per_hour": (0, 1_000_000)}
_INGEST_KEYS = ("read_seconds", "read_memory_mb", "rejections_per_hour")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _read(home: Path) -> tuple[Path, str, dict]:
    """(path, text, parsed TOML) of ``HOME/config.toml``; an empty dict when there is no file.
    Raises SettingsError for an unreadable file, bad TOML or an unknown table."""
    import tomllib

    path = Path(home) / CONFIG_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return path, "", {}
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
    for name in TABLES:
        if not isinstance(data.get(name, {}), dict):
            raise SettingsError(f"{path}: '{name}' must be a table ([{name}])")
    return path, text, data


def load_ingest_settings(home: Path) -> IngestSettings:
    """The ``[ingest]`` settings of ``HOME/config.toml`` (the defaults when there is no file),
    with ``reply_from`` from ``[mail] from``. Raises :class:`SettingsError`."""
    path, text, data = _read(home)
    table = data.get("ingest", {})
    known = list(_INGEST_KEYS)
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
    return IngestSettings(**values, reply_from=_mail(path, text, data).sender)


def load_mail_settings(home: Path) -> MailSettings:
    """The ``[mail]`` settings of ``HOME/config.toml`` (``sender`` None when there is no file
    or no ``from``). Raises :class:`SettingsError` for an unknown key or a ``from`` that is
    not one plain mail address."""
    path, text, data = _read(home)
    return _mail(path, text, data)


def _mail(path: Path, text: str, data: dict) -> MailSettings:
    sender = None
    for key, value in data.get("mail", {}).items():
        where = f"{path}, line {_line_of(text, 'mail', key)}: [mail] {key}"
        if key != "from":
            raise SettingsError(f"{where}: no such setting; expected from")
        if not isinstance(value, str) or not _is_address(value):
            raise SettingsError(f"{where} = {_toml(value)}: expected the referee's mail "
                                "address, such as \"referee@example.org\" or \"Referee "
                                "<referee@example.org>\"")
        sender = value.strip()
    return MailSettings(sender, f"[mail] from in {path}" if sender else "")


def _is_address(value: str) -> bool:
    from email.utils import parseaddr

    if "\r" in value or "\n" in value or not value.isascii():
        return False
    _, addr = parseaddr(value)
    local, at, domain = addr.rpartition("@")
    return bool(at and local and domain and "." in domain and " " not in addr)


_SMTP_KEYS = ("host", "port", "security", "user", "password_env", "timeout", "cafile")


def load_smtp_settings(home: Path) -> SmtpSettings:
    """The ``[smtp]`` settings of ``HOME/config.toml`` (the defaults, ``host`` None, when there
    is no file or no table). Raises :class:`SettingsError` for an unknown key (``password``
    among them: the password goes in an environment variable), a value of the wrong type or
    out of range, a ``security`` not in "none", "starttls", "tls", a ``password_env`` that is
    not a variable name, or a ``cafile`` that does not exist."""
    from pbem.mail.transports import SECURITY_MODES

    path, text, data = _read(home)
    values: dict = {}
    for key, value in data.get("smtp", {}).items():
        where = f"{path}, line {_line_of(text, 'smtp', key)}: [smtp] {key}"
        if key == "password":
            raise SettingsError(f"{where}: pbem never reads a password from this file; put it "
                                "in an environment variable and name that variable here with "
                                "password_env = \"PBEM_SMTP_PASSWORD\" (then remove the "
                                "password line)")
        if key not in _SMTP_KEYS:
            raise SettingsError(f"{where}: no such setting; expected one of "
                                f"{', '.join(_SMTP_KEYS)}")
        shown = f"{where} = {_toml(value)}"
        if key == "port":
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 65535:
                raise SettingsError(f"{shown}: expected a port number from 1 to 65,535")
        elif key == "timeout":
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not 1 <= value <= 3600):
                raise SettingsError(f"{shown}: expected a number of seconds from 1 to 3,600")
            value = float(value)
        elif not isinstance(value, str) or not value.strip():
            raise SettingsError(f"{shown}: expected a text in quotes")
        elif key == "security" and value not in SECURITY_MODES:
            raise SettingsError(f"{shown}: expected one of "
                                f"{', '.join(chr(34) + m + chr(34) for m in SECURITY_MODES)}")
        elif key == "password_env" and not _ENV_NAME.match(value):
            raise SettingsError(f"{shown}: expected the NAME of an environment variable (letters, "
                                "digits and _), such as \"PBEM_SMTP_PASSWORD\", not the "
                                "password itself")
        elif key == "cafile":
            value = str(Path(value).expanduser())
            if not Path(value).is_file():
                raise SettingsError(f"{shown}: no such file; expected a PEM file of the "
                                    "certificate authorities to trust")
        elif key == "host" and any(c.isspace() or c in "/@" for c in value):
            raise SettingsError(f"{shown}: expected a host name or address, such as "
                                "\"smtp.example.org\"")
        values[key] = value.strip() if isinstance(value, str) else value
    return SmtpSettings(**values)


def load_reports_settings(home: Path) -> ReportsSettings:
    """The ``[reports]`` settings of ``HOME/config.toml`` (``templates`` None when there is no
    file or no such key). ``templates`` is a folder, relative to HOME unless absolute (``~``
    expanded). Raises :class:`SettingsError` for an unknown key, a value that is not a text,
    or a folder that does not exist."""
    path, text, data = _read(home)
    templates, source = None, ""
    for key, value in data.get("reports", {}).items():
        where = f"{path}, line {_line_of(text, 'reports', key)}: [reports] {key}"
        if key != "templates":
            raise SettingsError(f"{where}: no such setting; expected templates")
        if not isinstance(value, str) or not value.strip():
            raise SettingsError(f"{where} = {_toml(value)}: expected a folder in quotes, such "
                                "as \"templates\" (relative to the home folder)")
        folder = Path(home).expanduser() / Path(value.strip()).expanduser()
        if not folder.is_dir():
            raise SettingsError(f"{where} = {_toml(value)}: no such folder {folder}; expected "
                                "the referee's folder of templates (docs/reports.md)")
        templates, source = folder, f"[reports] templates in {path}"
    return ReportsSettings(templates, source)


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
