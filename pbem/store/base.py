"""The storage layer's foundations: the metadata holding every table, the row classes'
base and their mapping onto the tables, the UTC time type, and :func:`built_once`.

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
  that selects one thing, and tuples otherwise (:meth:`pbem.store.orm.Session.exec`,
  SQLModel's shorthand).

The ORM is loaded when first needed, not when the tables are: importing ``sqlalchemy.orm``
and mapping the classes cost a fifth of ``pbem ingest -``, whose usual work (judging one
mail) needs no row objects (pbem.store.core; issue 11, "Start-up"). :func:`mapped` records
the class, and :func:`ensure_mapped` (:mod:`pbem.store.orm`) maps every recorded class at
once: when the first ORM session is made, when a row object is constructed, or when a
column attribute of a row class (``Game.id``) is first looked up.

Row objects compare and hash by identity, as ORM objects must for the session's identity map.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import MetaData, Table, types

metadata = MetaData()
"""Every pbem table (:mod:`pbem.store.models`), for the Alembic environment and the tests."""

_UNMAPPED: list = []
"""The row classes :func:`mapped` recorded and :func:`ensure_mapped` has not mapped yet."""
_MAPPING = False
"""True while :func:`ensure_mapped` maps (a class attribute looked up then is not a cue)."""


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


class _RowType(type):
    """The metaclass of :class:`Row`: using a row class that is not mapped yet in a query maps
    the row classes first (:func:`ensure_mapped`): looking up a column attribute (``Game.id``),
    or naming the class itself (``select(OrderSet)``, ``select_from(Outbox)``: SQLAlchemy asks
    the class for ``__clause_element__`` first, and finding none, inspects its mapping)."""

    def __getattr__(cls, name: str):
        table = cls.__dict__.get("__table__")
        cue = name == "__clause_element__" or (table is not None and name in table.columns)
        if table is None or _MAPPING or not cue or cls not in _UNMAPPED:
            raise AttributeError(f"type object {cls.__name__!r} has no attribute {name!r}")
        ensure_mapped()
        return getattr(cls, name)  # __clause_element__: AttributeError, the class now mapped


class Row(metaclass=_RowType):
    """The base of the row classes: ``Model(column=value, ...)``. ``__table__`` and
    ``__tablename__`` are set by :func:`mapped`."""

    __table__: Table
    __tablename__: str

    def __new__(cls, *args, **kwargs):
        if _UNMAPPED:  # a row object is an ORM object: the class must be mapped before
            ensure_mapped()
        return super().__new__(cls)

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
    """Class decorator: set the :class:`Row` subclass's ``__table__`` and ``__tablename__``,
    and record it to be mapped onto ``table`` (each column an attribute of the same name) by
    :func:`ensure_mapped`."""

    def decorate(cls):
        cls.__table__, cls.__tablename__ = table, table.name
        _UNMAPPED.append(cls)
        return cls

    return decorate


def ensure_mapped() -> None:
    """Import the ORM and map every row class recorded by :func:`mapped` (once; the module
    doc says when it is called). The ORM's own structures are built here too, with the
    cyclic garbage collector off, then frozen out of its reach (see
    pbem.cli._loading_modules); whatever else is alive at that moment is frozen with them (a
    command's objects so far, when the first game with work or the first receipt sent again
    maps the classes: once per process, and only reference cycles among them stay)."""
    global _MAPPING
    if _MAPPING:
        return
    import pbem.store.models  # noqa: F401  (every row class recorded)

    if not _UNMAPPED:
        return
    import gc

    enabled = gc.isenabled()
    gc.disable()
    _MAPPING = True
    try:
        from pbem.store import orm

        orm.map_rows(list(_UNMAPPED))
        _UNMAPPED.clear()
    finally:
        _MAPPING = False
        gc.freeze()
        if enabled:
            gc.enable()


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
