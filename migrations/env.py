"""Alembic environment for pbem.

``pbem init`` and ``pbem upgrade`` run this with a live connection in
``config.attributes["connection"]`` (pbem.store.db.Database.migrate). Run by hand it reads the
URL from ``PBEM_DB``: ``PBEM_DB=sqlite:///pbem.db alembic -c migrations/alembic.ini upgrade head``.
"""

import os

from alembic import context
from sqlalchemy import create_engine

import pbem.store.models  # noqa: F401  (defines the tables on pbem.store.base.metadata)
from pbem.store.base import metadata

target_metadata = metadata
config = context.config


def run_migrations_offline() -> None:
    context.configure(url=os.environ.get("PBEM_DB", "sqlite:///pbem.db"),
                      target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        engine = create_engine(os.environ.get("PBEM_DB", "sqlite:///pbem.db"))
        with engine.begin() as connection:
            _run(connection)
    else:
        _run(connection)


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
