"""Alembic's environment for the progress store: migrate the connection the store hands over.

:func:`~dekbovinoj_edu.classroom.store.migrating.migrate` passes an open connection,
already in its transaction, as ``config.attributes["connection"]``; every
revision runs in that transaction, so a database is migrated whole or not at
all. Imported outside Alembic (a doctest run, say), this file does nothing.
"""

from __future__ import annotations

from alembic import context

from dekbovinoj_edu.classroom.store.tables import metadata


def run_migrations() -> None:
    """Run the revisions up to the target on the connection the store handed over."""
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # loaded by Alembic, not imported
    run_migrations()
