"""The addresses each seat's player connected from, as keyed hashes (``seat_addresses``),
so that every process compares the addresses all processes saw (two accounts that played
one game from one address are not rated); and the key of those hashes
(``server_keys``, made here once, at random), so that the database holds no address.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the two tables, and the key."""
    op.create_table(
        "seat_addresses",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("digest", sa.String(64), primary_key=True),
    )
    keys = op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.bulk_insert(keys, [{"name": "address", "value": secrets.token_hex(32)}])


def downgrade() -> None:
    """Drop them."""
    op.drop_table("server_keys")
    op.drop_table("seat_addresses")
