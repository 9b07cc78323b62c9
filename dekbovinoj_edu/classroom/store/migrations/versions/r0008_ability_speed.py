"""Each student's own speed in class mode: ``abilities`` gets ``speed``
(:attr:`~dekbovinoj_edu.dealing.learner.Ability.speed`: ln of their typical time on a right
answer over a child's), 0 for every ability already kept (a child's typical speed), so a
slow but careful student's limit grows with them as on the practice tab.

The column is added in place (``ALTER TABLE``, never a copy: ``ON DELETE CASCADE``). SQLite's
``PRAGMA user_version`` becomes 8, so an older version refuses the file rather than write
abilities without the column's meaning.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

REAL = sa.Float().with_variant(sa.REAL(), "sqlite")

revision = "0008"
down_revision: str | None = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "abilities", sa.Column("speed", REAL, nullable=False, server_default=sa.text("0"))
    )
    if op.get_bind().dialect.name == "sqlite":
        op.execute("PRAGMA user_version = 8")


def downgrade() -> None:
    """Back to 0007: every student at a child's typical speed again; every row stays."""
    op.drop_column("abilities", "speed")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("PRAGMA user_version = 7")
