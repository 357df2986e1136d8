"""Alembic environment: migrations run on the connection the store hands over
(``config.attributes["connection"]``), or on ``sqlalchemy.url`` when run from the
``alembic`` command line with a config file."""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool
from sqlalchemy.engine import Connection

from lexiko.web.store import Base

target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations() -> None:
    """Run the migrations online (offline SQL scripts are not supported)."""
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = engine_from_config(
        config.get_section(config.config_ini_section) or {}, prefix="sqlalchemy.", poolclass=pool.NullPool
    )
    with engine.connect() as conn:
        _run(conn)


def _inside_alembic() -> bool:
    """False when this module is merely imported (doctest collection), not run by Alembic."""
    try:
        context.config  # noqa: B018 - outside a migration the proxy has no config
    except (NameError, AttributeError):
        return False
    return True


if _inside_alembic():
    run_migrations()
