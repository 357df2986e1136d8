"""Why a finished game between two accounts was not rated: ``games.rating_note``, so
that its state still says so after a restart. Games that ended before have none.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the column."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rating_note", sa.Text(), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rating_note")
