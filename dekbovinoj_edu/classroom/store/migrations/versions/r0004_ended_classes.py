"""A class the teacher ended: ``classes`` gets ``ended``, the time (UTC, ISO) the teacher
ended it on the dashboard, ``NULL`` while it is open. An ended class takes no join and no
answer; its board, its report and every row stay.

The column is added in place (``ALTER TABLE``), never by copying the table (a copy would drop
``classes``, and its rows' seats and attempts with it: ``ON DELETE CASCADE``). SQLite's
``PRAGMA user_version`` becomes 4, so an older version refuses the file instead of writing
into a class that ended.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("classes", sa.Column("ended", sa.Text))
    if op.get_bind().dialect.name == "sqlite":
        op.execute("PRAGMA user_version = 4")


def downgrade() -> None:
    """Back to 0003: every class is open again (the older version has no ended class);
    every row stays."""
    op.drop_column("classes", "ended")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("PRAGMA user_version = 3")
