"""Events run in the app (``events``: the library's event file, the app's part, a
version), and the event whose pairing a game is (``games.event_id``).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``events`` and ``games.event_id``."""
    op.create_table(
        "events",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("director_hash", sa.String(64), nullable=False),
        sa.Column("register_key", sa.String(64), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("web", sa.Text(), nullable=False),
    )
    op.create_index("ix_events_status", "events", ["status"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("event_id", sa.String(32), nullable=True))
        batch.create_index("ix_games_event_id", ["event_id"])


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_event_id")
        batch.drop_column("event_id")
    op.drop_index("ix_events_status", "events")
    op.drop_table("events")
