"""Reading and writing a pbem database behind pbem's back (tests/conftest.py re-exports
:func:`raw_connect`): no key, no MAC, as someone who has the database file or a login to the
PostgreSQL database but not the master key (the attacks of tests/test_store_integrity.py)."""

from __future__ import annotations


class RawConnection:
    """A plain DB-API connection to the database at a pbem URL, as someone with the database
    but not the master key has it: the sqlite3 module on a SQLite file, psycopg on
    PostgreSQL (the URL's ``search_path`` kept). ``execute(sql, params)`` takes ``?``
    placeholders on both and returns the cursor; ``commit()``, ``close()``; as a context
    manager it commits on leaving the block and closes."""

    def __init__(self, url: str):
        from sqlalchemy.engine import make_url

        u = make_url(url)
        self.postgres = u.get_backend_name() == "postgresql"
        if self.postgres:
            import psycopg

            kw = {"host": u.query.get("host") or u.host, "port": u.query.get("port") or u.port,
                  "user": u.username, "password": u.password, "dbname": u.database,
                  "options": u.query.get("options")}
            self.con = psycopg.connect(**{k: v for k, v in kw.items() if v})
        else:
            import sqlite3

            self.con = sqlite3.connect(u.database)

    def execute(self, sql: str, params=()):
        if self.postgres:
            sql = sql.replace("%", "%%").replace("?", "%s")
        return self.con.execute(sql, tuple(params))

    def tables(self) -> list[str]:
        """The names of the database's tables (those of the URL's schema on PostgreSQL)."""
        sql = ("SELECT table_name FROM information_schema.tables WHERE table_schema = "
               "current_schema() AND table_type = 'BASE TABLE' ORDER BY 1" if self.postgres
               else "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")
        return [name for (name,) in self.execute(sql)]

    def commit(self):
        self.con.commit()

    def close(self):
        self.con.close()

    def __enter__(self):
        return self

    def __exit__(self, kind, *_):
        try:
            if kind is None:
                self.commit()
        finally:
            self.close()


def raw_connect(url: str) -> RawConnection:
    """:class:`RawConnection` to the database at ``url`` (a home's ``home.url``)."""
    return RawConnection(url)
