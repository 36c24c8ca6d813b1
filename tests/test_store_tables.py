"""The tables of pbem.store.models (SQLAlchemy Core tables with plain classes mapped onto them,
pbem.store.base; issue 11, "Start-up") against the schema the Alembic migrations build."""


def test_the_tables_are_those_the_migrations_make(referee):
    """pbem's tables (SQLAlchemy Core, pbem.store.models) describe exactly the schema the Alembic
    migrations build: Alembic's own comparison finds no table, column, type, nullability,
    default, index or key that differs."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from pbem.store.base import metadata

    with referee.db.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True,
                                                         "compare_server_default": True})
        assert compare_metadata(context, metadata) == []
