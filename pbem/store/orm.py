"""The ORM: the session class of :meth:`pbem.store.db.Database.read` and ``write``, and the
mapping of the row classes of :mod:`pbem.store.models` onto their tables.

Imported when first needed (:func:`pbem.store.base.ensure_mapped`), not with the tables: a
command whose work needs no row objects (``pbem ingest -`` judging one mail, through
:class:`pbem.store.core.CoreSession`) never pays for ``sqlalchemy.orm`` (issue 11,
"Start-up").
"""

from __future__ import annotations

from sqlalchemy.orm import Session as _OrmSession
from sqlalchemy.orm import configure_mappers
from sqlalchemy.orm import registry as _registry

from pbem.store.base import ensure_mapped, metadata

_mapper_registry = _registry(metadata=metadata)


class Session(_OrmSession):
    """A SQLAlchemy ORM session with SQLModel's ``exec`` (the queries of pbem.store use it).
    The row classes are mapped before the first one is made (pbem.store.base.ensure_mapped)."""

    def __init__(self, *args, **kwargs) -> None:
        ensure_mapped()
        super().__init__(*args, **kwargs)

    def exec(self, statement):
        """Execute ``statement``: for a ``select`` of a single entity or column, a ScalarResult
        (row objects, or values); for any other statement, its Result (rows as tuples)."""
        result = self.execute(statement)
        if len(getattr(statement, "column_descriptions", ())) == 1:
            return result.scalars()
        return result


def map_rows(classes: list) -> None:
    """Map each row class of ``classes`` onto its ``__table__`` (SQLAlchemy's imperative
    mapping), register the row-MAC events on the protected ones (pbem.store.integrity) and
    configure the mappers. Called by :func:`pbem.store.base.ensure_mapped`."""
    from pbem.store import integrity

    for cls in classes:
        _mapper_registry.map_imperatively(cls, cls.__table__)
    integrity.listen_orm_events()
    configure_mappers()  # else done by the first query, its objects left to the collector

