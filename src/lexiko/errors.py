"""The errors lexiko raises. Every message names the problem in words a player reads.

>>> try:
...     raise IllegalMoveError("the first play must cover the centre square H8")
... except LexikoError as e:
...     print(e)
the first play must cover the centre square H8
"""

from __future__ import annotations

__all__ = [
    "LexikoError",
    "NotationError",
    "IllegalMoveError",
    "PhonyError",
    "GameStateError",
    "RecordError",
    "LexiconError",
    "RulesError",
]


class LexikoError(Exception):
    """Base of every error lexiko raises on purpose."""


class NotationError(LexikoError, ValueError):
    """Text that is not valid notation (a position, a rack, a move)."""


class IllegalMoveError(LexikoError, ValueError):
    """A move the rules forbid in this position; the game is left unchanged."""


class PhonyError(IllegalMoveError):
    """A play forming words that are not in the lexicon (refused in the void mode).

    ``words`` holds the invalid words as the board spells them.
    """

    def __init__(self, words: list[str]) -> None:
        self.words = list(words)
        plural = "s" if len(words) > 1 else ""
        verb = "are" if len(words) > 1 else "is"
        super().__init__(f"word{plural} {', '.join(words)} {verb} not in the lexicon")


class GameStateError(LexikoError):
    """An action that does not fit the state of the game (not your turn, game over,
    nothing to challenge)."""


class RecordError(LexikoError, ValueError):
    """A game record (GCG, CGP) that cannot be read; ``line`` is 1-based when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        self.reason = message
        super().__init__(f"line {line}: {message}" if line is not None else message)


class LexiconError(LexikoError):
    """A word list that cannot be found or read."""


class RulesError(LexikoError, ValueError):
    """Options that make no game: a value out of range, an unknown preset, tile set or
    board, a word list of another language than the tiles (`lexiko.rules.Rules` raises
    it; a ``ValueError`` too, for callers that catch that).

    >>> issubclass(RulesError, LexikoError), issubclass(RulesError, ValueError)
    (True, True)
    """
