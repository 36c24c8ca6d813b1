"""``pbem migrate-db FROM TO``: move a referee's database to another one (docs/operations.md,
"Moving a home from SQLite to PostgreSQL").

FROM and TO are database URLs (``postgresql+psycopg://...``, ``sqlite:///...``) or paths of
SQLite files (a folder means its ``pbem.db``, as in a home). The copy and its checks are
:func:`pbem.store.copy.copy_database`; this module resolves the locations and the master key
(the home's ``referee.key``, which must be the key that sealed FROM).
"""

from __future__ import annotations

from pathlib import Path

from pbem.engine.errors import SetupError
from pbem.engine.home import DB_FILE, Home


def database_url(where: str) -> str:
    """The SQLAlchemy URL of ``where``: a URL as given, else the SQLite file at that path (a
    folder: its ``pbem.db``). SetupError for a path whose folder does not exist."""
    from pbem.store.db import sqlite_url

    if "://" in where:
        return where
    path = Path(where).expanduser()
    if path.is_dir():
        path = path / DB_FILE
    if not path.parent.is_dir():
        raise SetupError(f"{where}: expected a database URL or the path of a SQLite file, and "
                         f"the folder {path.parent} does not exist")
    return sqlite_url(path)


def shown_url(url: str) -> str:
    """``url`` as it may be printed: a password in it replaced by ``***``."""
    if "://" not in url or "@" not in url.split("://", 1)[1].split("/", 1)[0]:
        return url
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    return url if parsed.password is None else parsed.render_as_string(hide_password=True)


def migrate_db(home: Home, source: str, target: str):
    """Copy every row of the database at ``source`` into the one at ``target`` (see the module
    doc) with the master key of ``home``. Returns pbem.store.copy.CopySummary. Raises
    SetupError (no source database, the same database twice, the key missing or unsafe) or
    pbem.store.copy.CopyRefused (TO not empty, schemas that differ, another key, a check that
    failed after the copy)."""
    from pbem.engine.service import _load_sealer
    from pbem.store.copy import copy_database
    from pbem.store.db import Database, DatabaseError
    from pbem.store.integrity import ROW_MAC_LABEL

    src_url, dst_url = database_url(source), database_url(target)
    if src_url == dst_url:
        raise SetupError(f"FROM and TO are the same database ({src_url})")
    src = Database(src_url)
    try:
        src.check()
    except DatabaseError as e:
        raise SetupError(f"FROM: {e}") from None
    sealer = _load_sealer(Home(home.path, src_url), src)  # the key FROM was sealed with
    dst = Database(dst_url)
    try:
        return copy_database(src, dst, sealer.mac_key(ROW_MAC_LABEL))
    finally:
        src.dispose()
        dst.dispose()
