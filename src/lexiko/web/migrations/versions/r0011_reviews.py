"""Reviews in their own table, ``reviews``, keyed by the game's id or, for a record
sent to be reviewed, by ``gcg-`` and the start of its SHA-256: the reviews by
simulation (`lexiko.review`) of finished games and of uploaded GCG files, each
computed once. ``games.review`` (the static review of before, in another shape) goes.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``reviews``; drop ``games.review``."""
    op.create_table(
        "reviews",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.Text(), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
    )
    with op.batch_alter_table("games") as batch:
        batch.drop_column("review")


def downgrade() -> None:
    """Put ``games.review`` back (empty: its reviews are computed again) and drop ``reviews``."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("review", sa.Text(), nullable=True))
    op.drop_table("reviews")
