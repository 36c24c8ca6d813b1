"""The ORM's foundations: the metadata holding every table, the mapping of the row classes of
:mod:`pbem.store.models` onto them, the UTC time type and the session class every
:class:`pbem.store.db.Database` hands out.

The tables are SQLAlchemy Core :class:`~sqlalchemy.Table` objects, and each row class is a plain
class mapped onto its table (SQLAlchemy's imperative mapping, :func:`mapped`). The models were
SQLModel classes, whose pydantic machinery cost every command about 0.15 s to import and to
build, and SQLAlchemy's declarative classes still take twice as long to build as tables and
plain mappings (issue 11, "Start-up"; bench/bench_start.py). What pbem used of SQLModel is
kept:

- a row is constructed with keyword arguments (:class:`Row`); a column left out takes its
  ``default`` (or None) at once, on the object, as well as in the INSERT;
- times are zone-aware ``datetime`` values in UTC (:class:`UTCDateTime`, as SQLModel's):
  stored as UTC, read back with ``tzinfo=timezone.utc`` even from SQLite, which keeps no zone;
  a naive time is refused;
- ``Session.exec(select(...))`` gives the rows' objects (or single values) for a statement
  that selects one thing, and tuples otherwise (:meth:`Session.exec`, SQLModel's shorthand).

Row objects compare and hash by identity, as ORM objects must for the session's identity map.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import MetaData, Table, types
from sqlalchemy.orm import Session as _OrmSession
from sqlalchemy.orm import registry as _registry

metadata = MetaData()
"""Every pbem table (:mod:`pbem.store.models`), for the Alembic environment and the tests."""

_mapper_registry = _registry(metadata=metadata)


class UTCDateTime(types.TypeDecorator):
    """A ``DateTime(timezone=True)`` column holding aware UTC times: a value is converted to
    UTC when stored (ValueError for a naive one, which could be in any zone) and comes back
    aware in UTC (SQLite returns naive times; they were stored as UTC)."""

    impl = types.DateTime
    cache_ok = True

    def __init__(self) -> None:
        super().__init__(timezone=True)

    def __repr__(self) -> str:
        return "UTCDateTime()"

    def process_bind_param(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:
            raise ValueError(f"expected a time with a zone (UTC), found the naive time {value}")
        return value.astimezone(timezone.utc)

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:
            return value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc)


class Row:
    """The base of the row classes: ``Model(column=value, ...)``. ``__table__`` and
    ``__tablename__`` are set by :func:`mapped`."""

    __table__: Table
    __tablename__: str

    def __init__(self, **values) -> None:
        """Set the given columns, and every other column to its scalar ``default`` (None if it
        has none). Raises TypeError for a name that is not a column of the table."""
        columns = self.__table__.columns
        unknown = [name for name in values if name not in columns]
        if unknown:
            raise TypeError(f"{type(self).__name__} has no column {', '.join(unknown)} (columns: "
                            f"{', '.join(columns.keys())})")
        for column in columns:
            if column.key in values:
                setattr(self, column.key, values[column.key])
            else:
                default = column.default
                setattr(self, column.key,
                        default.arg if default is not None and default.is_scalar else None)

    def __repr__(self) -> str:
        key = ", ".join(f"{c.key}={getattr(self, c.key, None)!r}"
                        for c in self.__table__.primary_key.columns)
        return f"{type(self).__name__}({key})"


def mapped(table: Table):
    """Class decorator: map a :class:`Row` subclass onto ``table`` (each column an attribute
    of the same name) and set its ``__table__`` and ``__tablename__``."""

    def decorate(cls):
        cls.__table__, cls.__tablename__ = table, table.name
        _mapper_registry.map_imperatively(cls, table)
        return cls

    return decorate


class Session(_OrmSession):
    """A SQLAlchemy ORM session with SQLModel's ``exec`` (the queries of pbem.store use it)."""

    def exec(self, statement):
        """Execute ``statement``: for a ``select`` of a single entity or column, a ScalarResult
        (row objects, or values); for any other statement, its Result (rows as tuples)."""
        result = self.execute(statement)
        if len(getattr(statement, "column_descriptions", ())) == 1:
            return result.scalars()
        return result


def built_once(build):
    """``statement(name)``: the statement ``name`` of ``build()`` (``{name: statement}``),
    which is called at the first lookup only: a query module's statements, built once with
    bound parameters, since building a statement and its cache key costs more than SQLite's
    own work on an indexed lookup (issue 11; pbem.store.repo, pbem.store.reports). KeyError
    for a name ``build`` does not give."""
    built: dict = {}

    def statement(name: str):
        if not built:
            built.update(build())
        return built[name]

    return statement
