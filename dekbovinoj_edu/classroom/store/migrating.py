"""Migrating a class database with Alembic (its scripts in :mod:`.migrations`, inside the
package, so an installed wheel migrates too): the revision a database is at, and moving it up
(or down) to a revision.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .failures import describe
from .sqlite_file import REVISIONS, newer
from .tables import HEAD_REVISION

if TYPE_CHECKING:
    from .database import Database

__all__ = ["MIGRATIONS", "migrate", "revision_of"]

MIGRATIONS = Path(__file__).with_name("migrations")
"""Alembic's script folder, inside the package (so an installed wheel migrates too)."""


def revision_of(database: Database) -> str | None:
    """The revision the database is at (``None``: no tables yet)."""
    with database.engine.connect() as connection:
        return _current(connection)


def _current(connection: Connection) -> str | None:
    from alembic.migration import MigrationContext

    revision = MigrationContext.configure(connection).get_current_revision()
    if revision is not None:
        return revision
    tables = set(sa.inspect(connection).get_table_names())
    return "0001" if {"classes", "attempts"} <= tables else None


def migrate(connection: Connection, target: str = HEAD_REVISION) -> None:
    """Bring the database of ``connection`` (in a transaction) up to ``target`` (the newest
    revision): a first-version file is stamped ``0001`` first; then every missing revision
    runs. A ``target`` older than the database's revision (from ``0002`` on) migrates it back
    down, as far as that."""
    from alembic import command
    from alembic.config import Config
    from alembic.migration import MigrationContext
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    config.set_main_option("path_separator", "os")
    config.attributes["connection"] = connection
    context = MigrationContext.configure(connection)
    revision = context.get_current_revision()
    if revision is None and _current(connection) == "0001":
        context.stamp(ScriptDirectory.from_config(config), "0001")
        revision = "0001"
    if revision is not None and revision not in REVISIONS:
        raise newer(describe(str(connection.engine.url)), revision)
    if revision is not None and REVISIONS.index(revision) > REVISIONS.index(target):
        command.downgrade(config, target)
    elif revision != target:
        command.upgrade(config, target)


# -------------------------------------------------------------------------- opening
