"""Whether a game is listed in the lobby (open to anyone, watched by anyone) or private
(invitation by link only, the default).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``games.listed``."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("listed", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index("ix_games_listed", "games", ["listed"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_games_listed", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("listed")
