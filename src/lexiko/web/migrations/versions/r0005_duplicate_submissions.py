"""Duplicate submissions in their own table, one row per (game, round, seat), and the
round each duplicate game is in: a thousand players submitting at once, on any number of
processes, write different rows instead of competing for the next action number.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``submissions`` and ``games.duplicate_round``."""
    op.create_table(
        "submissions",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("text", sa.String(128), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False, server_default="1"),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("duplicate_round", sa.Integer(), nullable=False, server_default="1"))
    # games stored before: the round after the last one closed
    op.execute(
        "UPDATE games SET duplicate_round = 1 + (SELECT COUNT(*) FROM actions "
        "WHERE actions.game_id = games.id AND actions.text LIKE 'close %')"
    )


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("duplicate_round")
    op.drop_table("submissions")
