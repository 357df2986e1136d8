"""Clabbers move generation: exact small cases, the compiled kernel against the
pure-Python reference (lexiko.clabbers) on 300+ positions of seeded Clabbers games,
and every generated move checked by the rules engine (legal, every word an anagram of
a word, the score)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import permutations

import pytest

from lexiko import clabbers, movegen
from lexiko.board import Board
from lexiko.game import Game
from lexiko.legality import check_placement
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Pass, Place, parse_move
from lexiko.movegen import Candidate, best_move, count_placements, generate, sort_key
from lexiko.rules import SUPER, Rules
from lexiko.scoring import score, words_formed
from lexiko.tiles import ENGLISH

needs_kernel = pytest.mark.skipif(not movegen.kernel_available(), reason="lexiko._kernel is not built")
BACKENDS = [pytest.param("c", marks=needs_kernel), "python"]

CLAB = Rules(name="clabbers", variant="clabbers", challenge_rule="void")
CLAB_SUPER = SUPER.replace(name="clabbers-super", variant="clabbers", challenge_rule="void")


@pytest.fixture(scope="module")
def small(twl06: Lexicon) -> Lexicon:
    """A seeded sample of TWL06: 60 words of 2 letters, 500 of 3, 1,500 longer. The
    Python reference lists every order of every multiset, which with TWL06 makes
    hundreds of thousands of plays per position."""
    words = list(twl06)
    rng = random.Random(5)
    sample = rng.sample([w for w in words if len(w) == 2], 60)
    sample += rng.sample([w for w in words if len(w) == 3], 500)
    sample += rng.sample([w for w in words if len(w) >= 4], 1500)
    return Lexicon.from_words(sample, name="small")


def _moves(board: Board, rack: str, lex: Lexicon, backend: movegen.Backend, **kw: object) -> list[tuple[str, int]]:
    found = generate(board, ENGLISH.parse(rack), lex, CLAB, placements_only=True, backend=backend, **kw)  # type: ignore[arg-type]
    return [(c.notation(ENGLISH, board), c.score) for c in found]


# -- exact small cases ------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_opening_lists_every_order(backend: movegen.Backend) -> None:
    lex = Lexicon.from_words(["CAT"])
    moves = _moves(Board.empty(), "TCA", lex, backend)
    # three lanes through H8, six orders each, all (3 + 1 + 1) * 2
    assert len(moves) == 18
    assert {s for _, s in moves} == {10}
    assert moves[:6] == [(f"8F {''.join(p)}", 10) for p in sorted(permutations("ACT"))]
    assert {m[:2] for m, _ in moves} == {"8F", "8G", "8H"}
    # the down plays are the mirror images, listed on request
    assert len(_moves(Board.empty(), "TCA", lex, backend, down_openings=True)) == 36
    # with the classic rules only CAT itself
    classic = generate(Board.empty(), ENGLISH.parse("TCA"), lex, placements_only=True, backend=backend)
    assert [c.notation() for c in classic] == ["8F CAT", "8G CAT", "8H CAT"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_blanks_are_distinct_moves(backend: movegen.Backend) -> None:
    lex = Lexicon.from_words(["AT"])
    moves = _moves(Board.empty(), "A?", lex, backend)
    # A and a blank standing for T (the blank scores 0), two orders, two lanes
    assert moves == [("8G At", 2), ("8G tA", 2), ("8H At", 2), ("8H tA", 2)]
    moves = _moves(Board.empty(), "AT?", lex, backend)
    # AT with real tiles, A with a blank T, T with a blank A: 3 multisets x 2 orders x 2 lanes
    assert len(moves) == 12
    assert moves[:4] == [("8G AT", 4), ("8G TA", 4), ("8H AT", 4), ("8H TA", 4)]
    assert {m for m, _ in moves[4:]} == {f"8{c} {w}" for c in "GH" for w in ("At", "tA", "aT", "Ta")}


@pytest.mark.parametrize("backend", BACKENDS)
def test_cross_words_are_anagrams(backend: movegen.Backend) -> None:
    # XI/IX: only XI is a word here, but Clabbers takes IX too
    lex = Lexicon.from_words(["XI", "OX"])
    board = Board.from_string("15/15/15/15/15/15/15/7I7/15/15/15/15/15/15/15")
    moves = _moves(board, "X", lex, backend)
    # X left of, right of, above and below the I: XI, IX across; XI, IX down
    assert moves == [("H7 X(I)", 9), ("8G X(I)", 9), ("8H (I)X", 9), ("H8 (I)X", 9)]
    # two tiles: OX across on row 7 with X over the I makes XI down (an anagram);
    # O over the I (OI) is no anagram of a word, so XO with its O on H7 is not listed
    moves2 = _moves(board, "OX", lex, backend)
    on_row7 = sorted((m, s) for m, s in moves2 if m.startswith("7"))
    # row 7, over the I: the tile on H7 makes a word down with it, and only XI (not OI)
    # is an anagram of a word. OX on G7 H7: O on a double letter, 2 + 8, plus XI 9;
    # XO on H7 I7: the same with the O on I7, also a double letter
    assert on_row7 == [("7G OX", 19), ("7H XO", 19)]
    # the same below the I, and down on either side: eight two-tile plays, then the four X's
    assert [m for m, _ in moves2] == [
        "7G OX",
        "G7 OX",
        "7H XO",
        "I7 OX",
        "G8 XO",
        "I8 XO",
        "9G OX",
        "9H XO",
        "H7 X(I)",
        "8G X(I)",
        "8H (I)X",
        "H8 (I)X",
    ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_tile_plays_counted_once(backend: movegen.Backend) -> None:
    lex = Lexicon.from_words(["AT"])
    board = Board.from_string("15/15/15/15/15/15/15/6AT7/6T8/15/15/15/15/15/15")
    moves = _moves(board, "A", lex, backend)
    corner = [(m, s) for m, s in moves if m in ("9G (T)A", "H8 (T)A", "H9 (T)A")]
    # an A on H9 forms TA down and TA across: one play, written across
    assert corner == [("9G (T)A", 4)]


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_leaves_equity_exchanges_and_best(backend: movegen.Backend, small: Lexicon) -> None:
    board = Board.empty()
    rack = ENGLISH.parse("AEQTZ?")

    def value(leave: tuple[int, ...]) -> float:
        return 10.0 * leave.count(0) - 2.5 * len(leave)

    moves = generate(board, rack, small, CLAB, leaves=value, backend=backend)
    assert moves == sorted(moves, key=sort_key)
    places = [c for c in moves if isinstance(c.move, Place)]
    assert places and [c for c in moves if isinstance(c.move, Exchange)]
    assert moves[-1] == Candidate(Pass(), 0, value(rack), rack) or isinstance(moves[-1].move, Exchange)
    for c in moves:
        assert c.equity == c.score + value(c.leave)
        spent = c.move.rack_tiles() if isinstance(c.move, Place) else getattr(c.move, "tiles", ())
        assert Counter(c.leave) + Counter(spent) == Counter(rack)
    for n in (1, 5, 40):
        assert generate(board, rack, small, CLAB, leaves=value, best=n, backend=backend) == moves[:n]
    assert best_move(board, rack, small, CLAB, leaves=value, backend=backend) == moves[0]
    assert count_placements(board, rack, small, CLAB, backend=backend) == len(places)


def test_bad_rack_is_refused(small: Lexicon) -> None:
    with pytest.raises(ValueError, match="rack code"):
        generate(Board.empty(), (1, 99), small, CLAB)


# -- seeded games: kernel against reference, every move checked ------------------------------


def _random_rack(rng: random.Random, board: Board, size: int) -> tuple[int, ...]:
    """A rack of letters not on the board with 0, 1 or 2 blanks (two blanks in five
    tiles: seven tiles with two blanks make too many plays for the reference)."""
    blanks = rng.choice((0, 1, 1, 2))
    if blanks == 2:
        size = min(size, 5)
    unseen = list((Counter(board.tiles.bag()) - Counter(board.played_tiles())).elements())
    letters = [t for t in unseen if t]
    rack = rng.sample(letters, min(size - blanks, len(letters))) + [0] * blanks
    return tuple(rack)


def _positions(lex: Lexicon, rules: Rules, seeds: range, turns: int) -> Iterator[tuple[Board, tuple[int, ...]]]:
    """Positions of seeded Clabbers games (void challenge: the rules engine refuses a
    phony) where each player plays one of the kernel's ten best placements."""
    for seed in seeds:
        g = Game(["a", "b"], rules, seed=seed, lexicon=lex)
        rng = random.Random(seed)
        for _ in range(turns):
            if g.is_over or g.bag_count == 0:
                break
            rack = g.rack()
            yield g.board, rack
            found = generate(g.board, rack, lex, rules, best=10, placements_only=True)
            if found:
                move = rng.choice(found).move
                assert isinstance(move, Place)
                g.play(move)
            else:
                g.pass_turn()


def _check_moves(
    board: Board, rack: tuple[int, ...], lex: Lexicon, rules: Rules, moves: list[Candidate], rng: random.Random
) -> None:
    """A sample of the moves is legal, forms only anagrams of words, scores right and
    keeps the right tiles."""
    have = Counter(rack)
    for c in moves if len(moves) <= 60 else rng.sample(moves, 60):
        m = c.move
        assert isinstance(m, Place)
        assert check_placement(board, m, rules) == m
        words = words_formed(board, m)
        assert words and all(lex.has_anagram(w.codes) for w in words), m
        assert score(board, m, rules) == c.score, m
        used = Counter(m.rack_tiles())
        assert not used - have
        assert c.leave == board.tiles.rack_sort(list((have - used).elements()))


CASES = {
    "standard": (CLAB, range(0, 12), 14, 7),
    "super": (CLAB_SUPER, range(100, 103), 12, 7),
}


@pytest.mark.slow
@needs_kernel
@pytest.mark.parametrize("case", list(CASES))
def test_kernel_matches_reference_in_games(small: Lexicon, case: str) -> None:
    from lexiko.leaves import LeaveTable

    shipped = LeaveTable.default(small.tiles).lookup
    rules, seeds, turns, size = CASES[case]
    rng = random.Random(case)
    positions = 0
    for board, rack in _positions(small, rules, seeds, turns):
        racks = [rack, _random_rack(rng, board, size)]
        for r in racks:
            fast = generate(board, r, small, rules, placements_only=True, backend="c")
            ref = generate(board, r, small, rules, placements_only=True, backend="python")
            assert fast == ref  # same moves, scores, leaves and order
            assert len({c.move for c in fast}) == len(fast)
            assert count_placements(board, r, small, rules, backend="c") == len(fast)
            assert generate(board, r, small, rules, best=3, placements_only=True, backend="c") == fast[:3]
            # best-N with a leave table, exchanges and the pass (the kernel cuts spans and
            # tile multisets by bounds): the first N of the full list
            full = generate(board, r, small, rules, leaves=shipped, backend="c")
            for n in (1, 8):
                assert generate(board, r, small, rules, leaves=shipped, best=n, backend="c") == full[:n]
            _check_moves(board, r, small, rules, fast, rng)
            positions += 1
    assert positions >= {"standard": 300, "super": 60}[case]


@pytest.mark.slow
@needs_kernel
def test_kernel_matches_reference_with_twl06(twl06: Lexicon) -> None:
    """A few TWL06 positions, racks cut to four tiles (the full racks have up to
    hundreds of thousands of plays, too many for the reference in a test)."""
    rng = random.Random(6)
    positions = 0
    for board, rack in _positions(twl06, CLAB, range(200, 202), 6):
        r = rack[:4] if positions % 2 else rack[:3] + (0,)
        fast = generate(board, r, twl06, CLAB, placements_only=True, backend="c")
        ref = generate(board, r, twl06, CLAB, placements_only=True, backend="python")
        assert fast == ref
        _check_moves(board, r, twl06, CLAB, fast, rng)
        positions += 1
    assert positions == 12


@needs_kernel
def test_best_n_is_exact_with_twl06(twl06: Lexicon) -> None:
    """best=N (the kernel skips the multisets no order of which can make the list) is
    the first N of the full list, with and without a leave table and exchanges."""
    from lexiko.leaves import LeaveTable

    shipped = LeaveTable.default(twl06.tiles).lookup
    positions = list(_positions(twl06, CLAB, range(300, 302), 8))
    assert len(positions) == 16
    for board, rack in positions[::2]:
        for leaves in (None, shipped):
            full = generate(board, rack, twl06, CLAB, leaves=leaves, backend="c")
            for n in (1, 10, 200):
                assert generate(board, rack, twl06, CLAB, leaves=leaves, best=n, backend="c") == full[:n]


@needs_kernel
def test_twl06_opening_counts(twl06: Lexicon) -> None:
    """Placement counts of Clabbers openings under TWL06 (across only, as movegen
    counts openings); the reference agrees on those it can list in a test's time."""
    counts = {r: count_placements(Board.empty(), ENGLISH.parse(r), twl06, CLAB) for r in OPENINGS}
    assert counts == OPENINGS
    for r in ("AEINRST", "ZAX", "QI"):
        assert count_placements(Board.empty(), ENGLISH.parse(r), twl06, CLAB, backend="python") == OPENINGS[r]
    # every order of AEINRST on each of the seven lanes through H8: 5,040 x 7 bingos
    bingos = [c for c in generate(Board.empty(), ENGLISH.parse("AEINRST"), twl06, CLAB) if c.score > 50]
    assert len(bingos) == 5040 * 7
    assert (bingos[0].notation(), bingos[0].score) == ("8B AEINRST", 66)
    assert best_move(Board.empty(), ENGLISH.parse("AEINRST"), twl06, CLAB) == bingos[0]


OPENINGS = {"AEINRST": 79546, "QI": 4, "ZAX": 26, "AEINRS?": 1166880}


def test_reference_placements_api(small: Lexicon) -> None:
    rack = ENGLISH.parse("ZA")
    raw = clabbers.reference_placements(Board.empty(), rack, small, CLAB, directions=1)
    assert sorted((r[0], r[1], r[2], r[3], r[4]) for r in raw) == [
        (7, 6, False, (1, 26), 22),
        (7, 6, False, (26, 1), 22),
        (7, 7, False, (1, 26), 22),
        (7, 7, False, (26, 1), 22),
    ]
    pairs = movegen.reference_placements(Board.empty(), rack, small, CLAB)
    assert sorted(str(p) for p, _ in pairs) == sorted(str(Place(r[0], r[1], r[2], r[3])) for r in raw)
    assert parse_move("8G AZ", ENGLISH) in {p for p, _ in pairs}


def test_bots_do_not_challenge_valid_clabbers_plays(twl06: Lexicon) -> None:
    from lexiko.bots.base import last_play_is_phony
    from lexiko.rules import CLABBERS

    g = Game(["a", "b"], CLABBERS, seed=1, lexicon=twl06, first_player=0)
    g.set_rack(0, "AEFNSTX")
    g.play("8D TSAFNE")  # an anagram of FASTEN
    assert g.awaiting_challenge
    assert not last_play_is_phony(g, twl06)
    g.challenge()  # the play stands: valid as an anagram
    assert g.history[-1].kind == "lost-turn"
    g2 = Game(["a", "b"], CLABBERS, seed=1, lexicon=twl06, first_player=0)
    g2.set_rack(0, "AEFNSTX")
    g2.play("8E XFNE")  # no word has these letters
    assert last_play_is_phony(g2, twl06)
