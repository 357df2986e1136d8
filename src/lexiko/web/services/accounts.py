"""Accounts (optional: invitation by link works without one) and their sessions.

Passwords are kept as Argon2id hashes, hashed and checked on a bounded pool of threads
off the event loop (`lexiko.web.hashing`); a password on the common lists or equal to
the name is refused (`lexiko.web.identity`); no two accounts have names that look alike
(the store keeps their skeletons unique); after five failed sign-ins an account's next
try waits, twice as long each time (up to 15 minutes).
"""

from __future__ import annotations

import math
import time
import unicodedata

from lexiko.web.errors import ActionError, RateLimited
from lexiko.web.hashing import Busy, PasswordHashing, SignInBackoff
from lexiko.web.identity import password_problem
from lexiko.web.services.core import Core
from lexiko.web.services.names import clean_name
from lexiko.web.store import Account, ConflictError, hash_token, new_token

__all__ = ["Accounts", "SESSION_DAYS"]

SESSION_DAYS = 30
"""How long a browser stays signed in."""

_DUMMY = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$0000000000000000000000000000000000000000000"
"""A hash no password matches: checked against when the name is unknown, so that an
unknown name takes the time of a wrong password."""


class Accounts:
    """Signing up, in and out, and the account of a session."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.hashing = PasswordHashing()
        self.backoff = SignInBackoff()

    def close(self) -> None:
        """Stop the hashing threads."""
        self.hashing.close()

    async def sign_up(self, name: object, password: object) -> tuple[Account, str]:
        """A new account, signed in: returns it and the session's secret key."""
        account_name = clean_name(name)
        if not isinstance(password, str):
            raise ActionError("give a password")
        problem = password_problem(password, account_name)
        if problem is not None:
            raise ActionError(problem)
        digest = await self._hashed(password)
        try:
            account = await self.core.db(self.core.store.create_account, account_name, account_name.casefold(), digest)
        except ConflictError:
            raise ActionError(
                f"the name {account_name} is taken, or looks like one that is: choose another, or sign in"
            ) from None
        return account, await self._new_session(account)

    async def sign_in(self, name: object, password: object) -> tuple[Account, str]:
        """Check a name and password; returns the account and a new session's key."""
        wrong = ActionError("wrong name or password")
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > 200:
            raise wrong
        key = " ".join(unicodedata.normalize("NFKC", name).split()).casefold()
        wait = self.backoff.wait(key)
        if wait > 0:
            raise RateLimited(f"too many wrong passwords for this name: try again in {math.ceil(wait)} s")
        found = await self.core.db(self.core.store.account_login, key)
        digest = found[1] if found is not None else _DUMMY
        try:
            ok = await self.hashing.verify(digest, password)
        except Busy as e:
            raise RateLimited(str(e)) from None
        if found is None or not ok:
            self.backoff.failed(key)
            raise wrong
        self.backoff.succeeded(key)
        account = found[0]
        if self.hashing.needs_rehash(digest):
            await self.core.db(self.core.store.set_password_hash, account.id, await self._hashed(password))
        return account, await self._new_session(account)

    async def _hashed(self, password: str) -> str:
        try:
            return await self.hashing.hash(password)
        except Busy as e:
            raise RateLimited(str(e)) from None

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
