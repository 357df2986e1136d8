"""Alembic migrations of the web app's database (run by :meth:`lexiko.web.store.Store.upgrade`)."""
