"""The refusals of the web app: each an exception whose message is for the person, and
the HTTP status it is answered with (`status_of`).

>>> status_of(NotFoundError("no such game")), status_of(ActionError("the game is over"))
(404, 400)
"""

from __future__ import annotations

__all__ = ["ActionError", "NotFoundError", "RateLimited", "Forbidden", "Unauthorized", "status_of"]


class ActionError(Exception):
    """A request the server refuses; the message is for the client."""


class NotFoundError(ActionError):
    """No game with that id."""


class RateLimited(ActionError):
    """Too many requests of one kind from one address."""


class Forbidden(ActionError):
    """A request the server will not take from where it came."""


class Unauthorized(ActionError):
    """Needs a signed-in account."""


_STATUS: tuple[tuple[type[ActionError], int], ...] = (
    (NotFoundError, 404),
    (RateLimited, 429),
    (Forbidden, 403),
    (Unauthorized, 401),
)


def status_of(error: ActionError) -> int:
    """The HTTP status a refusal is answered with (400 when nothing more is known).

    >>> status_of(RateLimited("wait a minute"))
    429
    """
    return next((status for kind, status in _STATUS if isinstance(error, kind)), 400)
