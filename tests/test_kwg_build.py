"""The automaton built in C (`lexiko.kernel.build_kwg`) against the reference builder of
`lexiko.kwg`: the same array, arc for arc, on small lists, generated lists and TWL06;
and the wide layout (more than 2**22 arcs) read alike by every reader: Python's walks,
the kernel's move generator and indexes, and the cache files."""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexiko import kernel, movegen
from lexiko import kwg as K
from lexiko.board import Board
from lexiko.lexicon import Lexicon, _builtin_text, _split_words
from lexiko.move import Place, parse_move
from lexiko.tiles import ENGLISH

needs_kernel = pytest.mark.skipif(not kernel.available(), reason="lexiko._kernel is not built")

SMALL = [
    [],
    [(1, 2)],
    [(3, 1, 18, 5), (3, 1, 18)],
    [(1,), (1, 2), (1, 2), (2, 1)],  # a one-letter word left out, a duplicate collapsed
    [(63, 63), (1,) * 21, (1,) * 22, (2, 63, 1)],  # the highest code, the longest word, one too long
    [(1, 2), (64,), (0,), (0, 64) * 11],  # bad codes in words left out for their length
    [tuple(ENGLISH.parse(w)) for w in "CARE RACE ACRE CAR ARC ARCS CARES RACES SCARE QI ZA".split()],
]

words_strategy = st.lists(
    st.lists(st.integers(min_value=1, max_value=63), min_size=0, max_size=23).map(tuple), max_size=80
)


@needs_kernel
@pytest.mark.parametrize("words", SMALL, ids=range(len(SMALL)))
def test_the_kernel_builds_the_reference_automaton(words: list[tuple[int, ...]]) -> None:
    assert kernel.build_kwg(words) == K.build_kwg(words)
    assert kernel.build_kwg(words, dawg_only=True) == K.build_dawg(words)


@needs_kernel
@settings(max_examples=200, deadline=None)
@given(words_strategy)
def test_the_kernel_builds_the_reference_automaton_of_any_list(words: list[tuple[int, ...]]) -> None:
    assert kernel.build_kwg(words) == K.build_kwg(words)
    assert kernel.build_kwg(words, dawg_only=True) == K.build_dawg(words)


@needs_kernel
@settings(max_examples=50, deadline=None)
@given(st.lists(st.text(alphabet="ABCDEFGHIJKLMNOPRSTUWYZ", min_size=2, max_size=9), min_size=1, max_size=300))
def test_lists_of_many_related_words_too(words: list[str]) -> None:
    codes = [tuple(ENGLISH.parse(w)) for w in words]
    codes += [c[:-1] for c in codes] + [c + (19,) for c in codes]  # prefixes and plurals share nodes
    assert kernel.build_kwg(codes) == K.build_kwg(codes)


@needs_kernel
@pytest.mark.slow
def test_twl06_is_built_alike() -> None:
    words = [bytes(ENGLISH.parse(w)) for w in _split_words(_builtin_text("TWL06"), "TWL06")]
    built = kernel.build_kwg(words)
    assert len(built) == 830_481
    assert K.layout(built) == "narrow"
    assert built == K.build_kwg(words)


@needs_kernel
@pytest.mark.parametrize(
    ("words", "message"),
    [
        ([(1, 2), (1, 0, 2)], r"^letter codes are 1\.\.63, not \(1, 0, 2\)$"),
        ([(1, 64)], r"^letter codes are 1\.\.63, not \(1, 64\)$"),
        ([(300, 1)], r"^letter codes are 1\.\.63, not \(300, 1\)$"),
    ],
)
def test_a_code_outside_1_to_63_is_refused_as_the_reference_does(words: list[tuple[int, ...]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        kernel.build_kwg(words)
    with pytest.raises(ValueError, match=r"^letter codes are 1\.\.63"):
        K.build_kwg(words)


def test_the_limit_is_named_in_the_message() -> None:
    assert str(K.too_big(16_777_300)) == (
        "the word list needs at least 16,777,300 arcs; the automaton format addresses at most 16,777,216 "
        "(24-bit indexes)"
    )


# -- the wide layout -------------------------------------------------------------------


def relocated(kwg: array[int], pad: int) -> array[int]:
    """The same automaton with ``pad`` unused arcs after the two pointer arcs: every node
    moves ``pad`` places up, past 2**22 for a pad that large (the wide layout)."""
    out = array("I", [0, 0]) + array("I", [K.END]) * pad + kwg[2:]

    def moved(a: int) -> int:
        child = K.arc_child(a)
        return (a & ~(K.CHILD_MASK | 0xC0000000)) | K.child_bits(child + pad if child else 0)

    out[0], out[1] = moved(kwg[0]), moved(kwg[1])
    for i in range(2 + pad, len(out)):
        out[i] = moved(out[i])
    return out


WORDS = (
    "AA AB AD AE AG AH AI AL AM AN AR AS AT AW AX AY BA BE BI BO BY DE DO ED EF EH EL EM EN ER ES "
    "EX FA GO HA HE HI HM HO ID IF IN IS IT JO KA LA LI LO MA ME MI MO MU MY NA NE NO NU OD OE OF OH "
    "OI OM ON OP OR OS OW OX OY PA PE PI RE SH SI SO TA TI TO UH UM UN UP US UT WE WO XI XU YA YE YO "
    "QI ZA CARE RACE ACRE CAR ARC ARCS CARES RACES SCARE TAX TAXI RETAIN RETINA RATINE STAINER "
    "RETAINS RETINAS NASTIER ANESTRI TRAINS STRAIN SATIRE STAIR RAIN TRAIN QUIET QUITE QUOTA"
).split()


@pytest.fixture(scope="module")
def narrow_and_wide() -> tuple[Lexicon, Lexicon]:
    narrow = Lexicon.from_words(WORDS, name="narrow")
    wide = Lexicon("wide", ENGLISH, relocated(narrow.kwg, K.NARROW_ARCS))
    return narrow, wide


def test_a_relocated_automaton_is_wide_and_uses_the_high_bits(narrow_and_wide: tuple[Lexicon, Lexicon]) -> None:
    narrow, wide = narrow_and_wide
    assert (narrow.layout, wide.layout) == ("narrow", "wide")
    assert len(wide.kwg) == len(narrow.kwg) + K.NARROW_ARCS
    assert any(a >> 30 for a in wide.kwg[:2])
    assert K.dawg_root(wide.kwg) == K.dawg_root(narrow.kwg) + K.NARROW_ARCS


def test_python_walks_read_the_wide_layout(narrow_and_wide: tuple[Lexicon, Lexicon]) -> None:
    narrow, wide = narrow_and_wide
    assert list(wide) == list(narrow) == sorted(WORDS, key=ENGLISH.parse)
    assert len(wide) == len(WORDS)
    assert ["RETAINS" in wide, "RETAINZ" in wide, "QI" in wide] == [True, False, True]
    assert (
        wide.anagrams("AEINRST")
        == narrow.anagrams("AEINRST")
        == ["ANESTRI", "NASTIER", "RETAINS", "RETINAS", "STAINER"]
    )
    assert wide.anagrams("CRA?", partial=True) == narrow.anagrams("CRA?", partial=True)
    assert wide.pattern("?AR*") == narrow.pattern("?AR*") == ["CAR", "CARE", "CARES"]
    for word in ("CARE", "STRAIN"):
        for path in K.gaddag_paths(ENGLISH.parse(word)):
            assert K.accepts(wide.kwg, K.gaddag_root(wide.kwg), path)


BOARDS = ["", "8D RETAIN", "8D RETAIN|E5 CARE"]


@needs_kernel
@pytest.mark.parametrize("moves", BOARDS)
@pytest.mark.parametrize("rack", ["AEINRST", "CAR?SEX", "QUIT?ZA"])
def test_the_kernel_generates_alike_on_both_layouts(
    narrow_and_wide: tuple[Lexicon, Lexicon], moves: str, rack: str
) -> None:
    narrow, wide = narrow_and_wide
    board = Board.empty()
    for text in filter(None, moves.split("|")):
        move = parse_move(text, ENGLISH, board)
        assert isinstance(move, Place)
        board = board.place(move)
    tiles = ENGLISH.parse(rack)
    counts = {
        (lex.name, backend): movegen.count_placements(board, tiles, lex, backend=backend)
        for lex in (narrow, wide)
        for backend in ("c", "python")
    }
    assert len(set(counts.values())) == 1, counts
    assert counts[("narrow", "c")] > 0
    best = [[(c.move, c.score) for c in movegen.generate(board, tiles, lex, best=20)] for lex in (narrow, wide)]
    assert best[0] == best[1]


@needs_kernel
def test_the_kernel_indexes_read_the_wide_layout(narrow_and_wide: tuple[Lexicon, Lexicon]) -> None:
    narrow, wide = narrow_and_wide
    pad = K.NARROW_ARCS
    assert kernel.depths(wide.kwg)[pad + 2 :] == kernel.depths(narrow.kwg)[2:]
    assert kernel.anagrams(wide.kwg) == kernel.anagrams(narrow.kwg)
    assert kernel.wordmap(wide.kwg) == kernel.wordmap(narrow.kwg)


def test_a_wide_automaton_is_cached_with_its_own_magic(
    narrow_and_wide: tuple[Lexicon, Lexicon], tmp_path: Path
) -> None:
    narrow, wide = narrow_and_wide
    for lex in (narrow, wide):
        path = tmp_path / f"{lex.name}.kwg"
        lex._write_cache(path)
        assert path.read_bytes()[:8] == (b"LXKWG024" if lex is wide else b"LXKWG002")
        back = Lexicon._read_cache(path, lex.name, ENGLISH)
        assert back is not None and back.kwg == lex.kwg and back.layout == lex.layout
    # a wide array under the narrow magic (as an older version would take it): rebuilt
    data = (tmp_path / "wide.kwg").read_bytes()
    (tmp_path / "mislabelled.kwg").write_bytes(b"LXKWG002" + data[8:])
    assert Lexicon._read_cache(tmp_path / "mislabelled.kwg", "x", ENGLISH) is None


def test_the_reference_builder_is_kept_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the kernel, a lexicon is compiled by the reference: the same array."""
    monkeypatch.setattr(kernel, "available", lambda: False)
    assert Lexicon.from_words(WORDS).kwg == K.build_kwg([ENGLISH.parse(w) for w in WORDS])
