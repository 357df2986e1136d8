"""Abbreviations in Debian's spelling lists, by language, and the rules that find them.

The rules of every language leave abbreviations out, but the spelling lists hold many
in lower case (German ``usw``, ``qm``, ``km``; French ``cm``, ``kg``), and German ones
with a capital like a noun (``Nr``, ``Pkw``). `lexiko.wordlists` drops an entry when:

- **capitals**: it has more than one capital letter (``ONU``, ``AGs``);
- **no vowel**: its letters, as the tile set spells them, hold no vowel (A E I O U Y,
  and the vowels with marks the tile set has: Ä Ö Ü, Ą Ę Ó), unless it is one of the
  language's words without a vowel (interjections: German ``brr``, ``hm``; French
  ``brrr``, ``pfft``, ``pst``; Spanish ``pchs``; Polish ``brr``, ``hm``, ``pst``).
  Only languages listed in `NO_VOWEL_WORDS` use this rule: Czech and Slovak, say, have
  many words without a vowel (``vlk``, ``krk``, ``prst``) and would need their own
  list first;
- **known**: it is in the language's list of abbreviations that have a vowel
  (German ``usw``, ``evtl``, ``inkl``; French ``déc``; Polish ``itd``), spelt as in
  the Debian list, so the French abbreviation ``dér`` goes and the word ``der`` stays.

The lists were made by reading every entry without a vowel and the short entries of each
Debian list (docs/variants.md has the counts); they are not complete.

>>> [abbreviation(w, w.upper(), "german") for w in ("qm", "usw", "Pkw", "Angst", "ONU")]
['no vowel', 'known', 'no vowel', None, 'capitals']
>>> [abbreviation(w, w.upper(), "french") for w in ("kg", "brrr", "lynx")]
['no vowel', None, None]
"""

from __future__ import annotations

__all__ = ["VOWELS", "NO_VOWEL_WORDS", "KNOWN", "abbreviation"]

VOWELS = frozenset("AEIOUYÄÖÜĄĘÓ")
"""Letters that make an entry a word for the no-vowel rule (upper case, as tiles)."""

NO_VOWEL_WORDS: dict[str, frozenset[str]] = {
    "german": frozenset({"BRR", "HM", "HMM", "PST", "PSST", "SCH"}),  # Duden's; not in wngerman today
    "french": frozenset({"BRRR", "PFFT", "PST"}),
    "spanish": frozenset({"PCHS"}),
    "catalan": frozenset(),
    "polish": frozenset(
        "BRR BZZ BZZZ CHRR ĆŚŚ ĆŚŚŚ DRR FFF FRR FRRR GRR HM HMM HMMM MHM MMM PFF PRR PSS PSSS PSST PST ŚŚ "
        "TRR TRRR TSS TSSS WRR".split()
    ),
}
"""Tile set → the entries without a vowel that are words of the language (upper case, as
the tile set spells them). A tile set listed here uses the no-vowel rule."""

KNOWN: dict[str, frozenset[str]] = {
    "german": frozenset(
        "abzgl allg betr bes bez ca div dpi dto einschl elektr engl entspr etc evtl ext galv geb gem "
        "incl inkl insbes max med min msec nsec phil resp sek usw vergl vorl zus "
        "Abb Abk Abs Anm Anz Aug Bde Dez Dipl Fa Feb Ing Jan Jul Mio Nov Okt Pers Sept Tel".split()
    ),
    "french": frozenset("déc déf dég dép dér éc él enc fco hyp inc int ème".split()),
    "spanish": frozenset({"cía"}),
    "catalan": frozenset(),
    "polish": frozenset("ang doc dyr egz gim godz inż itd itp mies oprac poz prof tys uzup wyd zob".split()),
}
"""Tile set → abbreviations with a vowel, spelt as in the Debian list."""


def abbreviation(entry: str, spelt: str, language: str) -> str | None:
    """Which rule finds ``entry`` (an entry of a spelling list, ``spelt`` in upper case
    as the tile set ``language`` spells it) to be an abbreviation: ``"capitals"``,
    ``"no vowel"`` or ``"known"``; None for a word.

    >>> abbreviation("km", "KM", "czech-like") is None  # a language without the vowel rule
    True
    """
    if sum(ch.isupper() for ch in entry) > 1:
        return "capitals"
    if entry in KNOWN.get(language, ()):
        return "known"
    words = NO_VOWEL_WORDS.get(language)
    if words is not None and spelt not in words and not any(ch in VOWELS for ch in spelt):
        return "no vowel"
    return None
