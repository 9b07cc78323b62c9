"""The LTI 1.3 tool's tables (issue 43, :mod:`dekbovinoj_edu.lti`): ``lti_keys`` (the tool's
RSA keys: ``kid``, the private key as PEM, made, retired), ``lti_platforms`` (each platform's
registration, by issuer and client id), ``lti_logins`` (the logins begun and not yet launched,
by state, until they expire) and ``lti_nonces`` (the nonces launches used, until they expire).

New tables only: no row of another table changes. The private keys are in the database the
school already keeps private (a SQLite file ``0600``, or its PostgreSQL server). SQLite's
``PRAGMA user_version`` becomes 6, so an older version refuses the file.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels = None
depends_on = None

REAL = sa.Float().with_variant(sa.REAL(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "lti_keys",
        sa.Column("kid", sa.Text, primary_key=True),
        sa.Column("private_pem", sa.Text, nullable=False),
        sa.Column("created", sa.Text, nullable=False),
        sa.Column("retired", sa.Text),
    )
    op.create_table(
        "lti_platforms",
        sa.Column("issuer", sa.Text, primary_key=True),
        sa.Column("client_id", sa.Text, primary_key=True),
        sa.Column("deployment_ids", sa.Text, nullable=False),
        sa.Column("auth_url", sa.Text, nullable=False),
        sa.Column("token_url", sa.Text, nullable=False),
        sa.Column("jwks_url", sa.Text, nullable=False),
        sa.Column("created", sa.Text, nullable=False),
    )
    op.create_table(
        "lti_logins",
        sa.Column("state", sa.Text, primary_key=True),
        sa.Column("nonce", sa.Text, nullable=False),
        sa.Column("issuer", sa.Text, nullable=False),
        sa.Column("client_id", sa.Text, nullable=False),
        sa.Column("expires", REAL, nullable=False),
    )
    op.create_index("lti_logins_by_expiry", "lti_logins", ["expires"])
    op.create_table(
        "lti_nonces",
        sa.Column("issuer", sa.Text, primary_key=True),
        sa.Column("nonce", sa.Text, primary_key=True),
        sa.Column("expires", REAL, nullable=False),
    )
    op.create_index("lti_nonces_by_expiry", "lti_nonces", ["expires"])
    if op.get_bind().dialect.name == "sqlite":
        op.execute("PRAGMA user_version = 6")


def downgrade() -> None:
    """Back to 0005: the LMS's registrations and the tool's keys are gone with their tables."""
    op.drop_table("lti_nonces")
    op.drop_table("lti_logins")
    op.drop_table("lti_platforms")
    op.drop_table("lti_keys")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("PRAGMA user_version = 5")
