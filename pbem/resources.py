"""Where the project's data folders are: ``templates/`` and ``migrations/``.

In a source checkout (and an editable install) they sit beside the ``pbem`` package; a wheel
carries them inside it as ``pbem/_templates`` and ``pbem/_migrations`` (pyproject.toml,
``force-include``). Both layouts are found here, so nothing else guesses paths.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _find(name: str) -> Path:
    for candidate in (_PACKAGE / f"_{name}", _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"pbem's {name}/ folder is missing: looked in {_PACKAGE / ('_' + name)} and "
        f"{_PACKAGE.parent / name}; reinstall the package")


def templates_dir() -> Path:
    """The folder of Jinja templates (``templates/`` of the repository)."""
    return _find("templates")


def package_text(package: str, name: str) -> str:
    """The UTF-8 text of file ``name`` shipped inside ``package`` (a game's ``data.toml`` or
    stand-in ``map.toml``), read with importlib.resources so it works from a wheel too."""
    from importlib import resources

    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def migrations_dir() -> Path:
    """The Alembic environment (``migrations/`` of the repository)."""
    return _find("migrations")
