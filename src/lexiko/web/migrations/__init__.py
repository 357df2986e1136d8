"""Alembic migrations of the web app's database (run by `lexiko.web.store.Store.upgrade`)."""
