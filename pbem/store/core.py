"""A write transaction without the ORM until something asks for it: the session of
``Database.write(orm=False)``, which the judge uses (``pbem ingest``).

Judging a mail reads a game, its players, its open phase and its order sets, and writes order
sets, mail, verdicts and log lines: all of it is done with Core statements on one connection
(pbem.store.repo gives :class:`Record` objects for the rows then, their MACs checked as the
ORM's load event checks them). Importing ``sqlalchemy.orm`` and mapping the row classes cost
a fifth of a ``pbem ingest -`` that judges one mail (issue 11, "Start-up"), so a
:class:`CoreSession` loads the ORM only for what needs row objects (a receipt sent again, a
message judged again): then an ORM session joins the same connection and transaction
(:attr:`CoreSession.orm`), and whatever the ORM is asked (``get``, ``add``, an ORM
``select``) goes to it. Both see each other's writes: the ORM session is flushed before
every Core statement and at commit.
"""

from __future__ import annotations

from typing import Mapping


class Record:
    """A row read with a Core statement: its column values as attributes (``game.log_head``),
    which may be changed in memory; the table's name is :attr:`table_name`. What the judge
    holds where the ORM would give a row object (pbem.store.repo)."""

    def __init__(self, table_name: str, values: Mapping) -> None:
        self.__dict__.update(values)
        self.__dict__["table_name"] = table_name

    def values(self) -> dict:
        """The column values, as a new dict."""
        out = dict(self.__dict__)
        del out["table_name"]
        return out

    def __repr__(self) -> str:
        return f"Record({self.table_name}, id={self.__dict__.get('id')!r})"


class CoreSession:
    """One transaction on one connection (``conn``, begun), used like a
    :class:`pbem.store.orm.Session` by pbem.store's queries: ``execute``, ``exec``, ``info``
    (the row key: pbem.store.integrity), ``get_bind``, ``connection``; any other attribute
    (``get``, ``add``, ``merge``, ``flush``) is the ORM session's (:attr:`orm`)."""

    def __init__(self, conn, info: dict) -> None:
        self._conn = conn
        self.info = dict(info)
        self._orm = None

    @property
    def orm(self):
        """The ORM session in this transaction, made (and the ORM loaded) when first asked."""
        if self._orm is None:
            from pbem.store.orm import Session

            session = Session(bind=self._conn, expire_on_commit=False,
                              join_transaction_mode="rollback_only")
            session.info.update(self.info)
            self.info = session.info  # one dict: a tampered row seen by either stops the commit
            self._orm = session
        return self._orm

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.orm, name)

    def execute(self, statement, params=None):
        """Execute ``statement``: an ORM statement (a select of row classes) in the ORM
        session, any other on the connection, after the ORM session's changes are flushed."""
        if _is_orm(statement):
            return self.orm.execute(statement, params)
        if self._orm is not None:
            self._orm.flush()
        return self._conn.execute(statement, params)

    def exec(self, statement):
        """As :meth:`pbem.store.orm.Session.exec`: single values for a select of one column,
        else the Result."""
        result = self.execute(statement)
        if len(getattr(statement, "column_descriptions", ())) == 1:
            return result.scalars()
        return result

    def get_bind(self):
        return self._conn.engine

    def connection(self):
        return self._conn

    def commit(self) -> None:
        """Flush the ORM session, if any, and commit; a tampered row read in this transaction
        (``info["pbem_tampered"]``) raises it instead (pbem.store.integrity)."""
        if self._orm is not None:
            self._orm.commit()  # flushes; its before_commit event checks for tampered rows
        tampered = self.info.get("pbem_tampered")
        if tampered:
            raise tampered[0]
        self._conn.commit()

    def close(self) -> None:
        if self._orm is not None:
            self._orm.close()
        self._conn.close()


def _is_orm(statement) -> bool:
    """Whether ``statement`` needs the ORM (it names row classes, not tables)."""
    attrs = getattr(statement, "_propagate_attrs", None)
    return bool(attrs) and attrs.get("compile_state_plugin") == "orm"
