"""One link for a whole game: ``games.open_invite``, the key of a link that gives
whoever opens it the next open seat (a duplicate event's players need not each get
their own invitation).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``games.open_invite`` (games stored before have none)."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("open_invite", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("open_invite")
