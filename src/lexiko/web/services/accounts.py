"""Accounts (optional: invitation by link works without one) and their sessions.
Passwords are kept as Argon2id hashes (argon2-cffi), never as they were typed; hashing
and checking run in a thread, off the event loop.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
from typing import Any

from lexiko.web.errors import ActionError
from lexiko.web.services.core import Core
from lexiko.web.services.names import clean_name
from lexiko.web.store import Account, ConflictError, hash_token, new_token

__all__ = ["Accounts", "SESSION_DAYS"]

SESSION_DAYS = 30
"""How long a browser stays signed in."""


def _make_hasher() -> Any:
    from argon2 import PasswordHasher

    return PasswordHasher()


_HASHER = _make_hasher()
"""Passwords are kept as Argon2id hashes (argon2-cffi), never as they were typed."""


def _password(password: object) -> str:
    if not isinstance(password, str) or not 8 <= len(password) <= 200:
        raise ActionError("a password has 8 to 200 characters")
    return password


class Accounts:
    """Signing up, in and out, and the account of a session."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def sign_up(self, name: object, password: object) -> tuple[Account, str]:
        """A new account, signed in: returns it and the session's secret key."""
        account_name = clean_name(name)
        secret = _password(password)
        digest = await asyncio.to_thread(_HASHER.hash, secret)
        try:
            account = await self.core.db(self.core.store.create_account, account_name, account_name.casefold(), digest)
        except ConflictError:
            raise ActionError(f"the name {account_name} is taken: choose another, or sign in") from None
        return account, await self._new_session(account)

    async def sign_in(self, name: object, password: object) -> tuple[Account, str]:
        """Check a name and password; returns the account and a new session's key."""
        from argon2.exceptions import VerificationError

        wrong = ActionError("wrong name or password")
        if not isinstance(name, str) or not isinstance(password, str):
            raise wrong
        key = " ".join(unicodedata.normalize("NFKC", name).split()).casefold()
        found = await self.core.db(self.core.store.account_login, key)
        if found is None:
            await asyncio.to_thread(_HASHER.hash, "x" * 12)  # the same time as a wrong password
            raise wrong
        account, digest = found
        try:
            await asyncio.to_thread(_HASHER.verify, digest, password)
        except VerificationError:
            raise wrong from None
        if _HASHER.check_needs_rehash(digest):
            rehashed = await asyncio.to_thread(_HASHER.hash, password)
            await self.core.db(self.core.store.set_password_hash, account.id, rehashed)
        return account, await self._new_session(account)

    async def _new_session(self, account: Account) -> str:
        key = new_token()
        await self.core.db(
            self.core.store.create_session, hash_token(key), account.id, time.time() + SESSION_DAYS * 86400
        )
        return key

    async def account_for(self, session: str | None) -> Account | None:
        """The account of a browser's session key (None: not signed in)."""
        if not session:
            return None
        return await self.core.db(self.core.store.session_account, hash_token(session), time.time())

    async def sign_out(self, session: str) -> None:
        """End a browser's session."""
        await self.core.db(self.core.store.delete_session, hash_token(session))
