"""Whether a game's seed was chosen by its creator (then every player is shown it), and
the server's heartbeat (so that a restart knows how long the server was down and does
not charge that time to the players' clocks).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``games.seeded`` and the ``server_meta`` table."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seeded", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "server_meta",
        sa.Column("key", sa.String(32), primary_key=True),
        sa.Column("value", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("server_meta")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seeded")
