"""Abbreviations in Debian's spelling lists, by language, and the rules that find them.

The rules of every language leave abbreviations out, but the spelling lists hold many
in lower case (German ``usw``, ``qm``, ``km``; French ``cm``, ``kg``), and German ones
with a capital like a noun (``Nr``, ``Pkw``). `lexiko.wordlists` drops an entry when:

- **capitals**: it has more than one capital letter (``ONU``, ``AGs``);
- **no vowel**: its letters, as the tile set spells them, hold no vowel (A E I O U Y,
  the vowels with marks the tile set has: Ä Ö Ü, Ą Ę Ó, Æ Ø Å ..., and the Cyrillic and
  Greek vowels), unless it is one of the language's words without a vowel
  (interjections: German ``brr``, ``hm``; French ``brrr``, ``pfft``, ``pst``; Spanish
  ``pchs``; Polish ``brr``, ``hm``, ``pst``; Russian ``гм``, ``тсс``). Only languages
  listed in `NO_VOWEL_WORDS` use this rule. Czech and Slovak have many words without a
  vowel (``vlk``, ``krk``, ``prst``), whose syllable is carried by R or L: in them an
  entry goes only when no such letter stands inside it (`SYLLABIC`), so ``km`` and
  ``tzv`` go and ``vlk`` stays;
- **known**: it is in the language's list of abbreviations that have a vowel
  (German ``usw``, ``evtl``, ``inkl``; French ``déc``; Polish ``itd``), spelt as in
  the Debian list, so the French abbreviation ``dér`` goes and the word ``der`` stays.

The lists were made by reading every entry without a vowel and the short entries of each
Debian list (docs/variants.md has the counts); they are not complete.

>>> [abbreviation(w, w.upper(), "german") for w in ("qm", "usw", "Pkw", "Angst", "ONU")]
['no vowel', 'known', 'no vowel', None, 'capitals']
>>> [abbreviation(w, w.upper(), "french") for w in ("kg", "brrr", "lynx")]
['no vowel', None, None]
>>> [abbreviation(w, w.upper(), "czech") for w in ("km", "vlk", "prst", "xml", "hm")]
['no vowel', None, None, 'no vowel', None]
"""

from __future__ import annotations

__all__ = ["VOWELS", "SYLLABIC", "NO_VOWEL_WORDS", "KNOWN", "abbreviation"]

VOWELS = frozenset("AEIOUYÄÖÜĄĘÓÆØÅÁÉĚÍÚŮÝÔАЕЁИІЇЄОУЪЫЭЮЯΑΕΗΙΟΥΩ")
"""Letters that make an entry a word for the no-vowel rule (upper case, as tiles): the
Latin vowels with the marks tile sets keep, the Cyrillic ones (Bulgarian counts Ъ) and
the Greek ones."""

SYLLABIC: dict[str, frozenset[str]] = {
    "czech": frozenset("RL"),
    "slovak": frozenset("RLŔĹ"),
}
"""Tile set → consonants that carry a syllable between two other letters (Czech ``vlk``,
``krk``, ``čtvrt``; Slovak ``vĺn``, ``tŕň``). An entry without a vowel is a word in these
languages when one of them stands inside it, neither first nor last: ``km``, ``tzv``,
``xml`` and ``cfr`` go, ``vlk`` and ``prst`` stay."""

NO_VOWEL_WORDS: dict[str, frozenset[str]] = {
    "german": frozenset({"BRR", "HM", "HMM", "PST", "PSST", "SCH"}),  # Duden's; not in wngerman today
    "french": frozenset({"BRRR", "PFFT", "PST"}),
    "spanish": frozenset({"PCHS"}),
    "catalan": frozenset(),
    "italian": frozenset(),
    "portuguese": frozenset(),  # Portugal's and Brazil's lists: CM, DR, SR, XX go
    "romanian": frozenset({"HM"}),
    "dutch": frozenset("BRR HM MMM PF PST SST ST TSS".split()),
    "danish": frozenset({"HM", "PST"}),
    "norwegian": frozenset({"HM", "MHM", "PST"}),
    "swedish": frozenset({"HM", "PST"}),
    "czech": frozenset("BRR BRRR HM HMM HMMM PST PSST PŠT PŠŠT".split()),
    "slovak": frozenset("BRR BZZ BZZZ HM HMHM MHM PST PSST ŠŠ ŠŠŠ".split()),
    "bulgarian": frozenset({"ХМ"}),
    "ukrainian": frozenset(),
    "russian": frozenset({"ГМ", "ХМ", "ТСС", "ЛЬ"}),
    "greek": frozenset({"ΧΜ"}),
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
    "portuguese": frozenset("etc sra dra eng pág ii iii iv ix vii xii xiv xix xv xvi xx xxx".split()),
    "dutch": frozenset("abt adv alg anw apr aug bijl dec egt feb jul jun nov okt sep sept".split()),
    "danish": frozenset("atm atp efg etb".split()),
    "norwegian": frozenset("adj adm adr adv ang apr aug ca etc feb idk iht inkl jun nov okt osv pga sept vha".split()),
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
    if not entry.islower() and sum(ch.isupper() for ch in entry) > 1:
        return "capitals"
    if entry in KNOWN.get(language, ()):
        return "known"
    words = NO_VOWEL_WORDS.get(language)
    if words is not None and spelt not in words and not any(ch in VOWELS for ch in spelt):
        syllabic = SYLLABIC.get(language, frozenset())
        if not any(ch in syllabic for ch in spelt[1:-1]):
            return "no vowel"
    return None
