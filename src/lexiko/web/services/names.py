"""Players' names: checked and normalised, and two names that would be taken for one
another refused."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from lexiko.web.errors import ActionError
from lexiko.web.identity import name_skeleton

__all__ = ["clean_name", "names_alike", "check_names"]

_NAME_OK = re.compile(r"^[^\x00-\x1f\x7f<>]{1,24}$")


def clean_name(name: object) -> str:
    """A player's name, checked and normalised (NFKC: full-width and other compatibility
    forms become the ordinary letters): 1 to 24 characters, no control characters, no
    invisible or direction-changing characters (they can make a name read as another),
    no angle brackets.

    >>> clean_name("  Ａｎｎ  ")
    'Ann'
    """
    if not isinstance(name, str):
        raise ActionError("give your name")
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not text:
        raise ActionError("give your name")
    if any(unicodedata.category(ch) == "Cf" for ch in text):
        raise ActionError("a name may not hold invisible or direction-changing characters")
    if not _NAME_OK.match(text):
        raise ActionError("a name has 1 to 24 characters, without < or >")
    return text


def names_alike(a: str, b: str) -> bool:
    """True when two names would be taken for one another: they have one skeleton
    (`lexiko.web.identity.name_skeleton`: case, accents, look-alike letters of other
    scripts by Unicode's confusables table), as two accounts' names may not.

    >>> names_alike("Ann", "ANN"), names_alike("Ann", "\u0410nn"), names_alike("Ann", "Bob")
    (True, True, False)
    """
    return name_skeleton(a) == name_skeleton(b)


def check_names(names: Sequence[str], new: int = 0) -> None:
    """Refuse two names that are the same or look alike; with ``new``, only the last
    ``new`` names are compared with the others (the rest were checked before: a
    join into a game of a thousand players costs a thousand comparisons, not half a
    million).

    >>> check_names(["Ann", "Bob", "ann"], new=1)
    Traceback (most recent call last):
    ...
    lexiko.web.errors.ActionError: two players have the same name: choose another
    """
    first = len(names) - new if new else 0
    for i, a in enumerate(names):
        for b in names[max(i + 1, first) :]:
            if a.casefold() == b.casefold():
                raise ActionError("two players have the same name: choose another")
            if names_alike(a, b):
                raise ActionError(f"two players' names look alike ({a}, {b}): choose another")
