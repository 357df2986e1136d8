"""Account names that look alike: ``accounts.skeleton`` (`lexiko.web.identity.name_skeleton`),
unique, so that Cyrillic "Аdmin" cannot be signed up beside Latin "admin". Accounts made
before get their skeleton; where two of them already look alike, the later one keeps
none (it stays usable, and no new account can take either look).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from lexiko.web.identity import name_skeleton

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the column, fill it, then make it unique."""
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("skeleton", sa.String(64), nullable=True))
    accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("skeleton"))
    conn = op.get_bind()
    seen: set[str] = set()
    for account_id, name in conn.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id)):
        skeleton = name_skeleton(name)
        if skeleton in seen:
            continue
        seen.add(skeleton)
        conn.execute(sa.update(accounts).where(accounts.c.id == account_id).values(skeleton=skeleton))
    with op.batch_alter_table("accounts") as batch:
        batch.create_unique_constraint("uq_accounts_skeleton", ["skeleton"])


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_skeleton", type_="unique")
        batch.drop_column("skeleton")
