"""A class's roster: ``classes`` gets ``roster``, who may take a new seat
(:mod:`~dekbovinoj_edu.classroom.roster`: names and ``group:NAME`` entries, one a line),
``NULL`` for a class anyone with its link joins. A seat taken before the roster was set stays.

The column is added in place (``ALTER TABLE``), never by copying the table (a copy would drop
``classes``, and its rows' seats and attempts with it: ``ON DELETE CASCADE``). SQLite's
``PRAGMA user_version`` becomes 5, so an older version refuses the file instead of letting a
student join a class whose roster it cannot read.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("classes", sa.Column("roster", sa.Text))
    if op.get_bind().dialect.name == "sqlite":
        op.execute("PRAGMA user_version = 5")


def downgrade() -> None:
    """Back to 0004: every class takes anyone again (the older version has no roster);
    every row stays."""
    op.drop_column("classes", "roster")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("PRAGMA user_version = 4")
