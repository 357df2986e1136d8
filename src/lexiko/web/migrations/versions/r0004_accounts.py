"""Optional accounts: a name and a hashed password, sessions, Glicko-2 ratings; a seat
may belong to an account; a game between two accounts is rated once.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``accounts``, ``sessions``, ``seats.account_id`` and ``games.rated``."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("vol", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rated")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("account_id")
    op.drop_table("sessions")
    op.drop_table("accounts")
