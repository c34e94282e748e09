"""Alembic's environment: the connection the ladder opened (see
:func:`tajmahal.arena.ladder.database.upgrade`)."""

from alembic import context

from tajmahal.arena.ladder.schema import METADATA


def run_migrations() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=METADATA)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # run by Alembic, not merely imported
    run_migrations()
