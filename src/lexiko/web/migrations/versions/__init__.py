"""Alembic revisions of the web app's schema, oldest first."""
