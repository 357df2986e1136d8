"""Which generator shuffles a game: ``games.generator``. Games stored before lexiko had
its own generator (`lexiko.rng`) shuffled with Python's and are rebuilt with it
(``python``); new games are ``lexiko``.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``games.generator``: ``python`` for every game stored before."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("generator", sa.String(16), nullable=False, server_default="python"))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("generator")
