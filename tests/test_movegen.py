"""The move generator: exact placement counts and top plays of known positions, the
compiled kernel against the pure-Python reference on positions of seeded games, and
every generated move checked by the rules engine (legality, words, score)."""

from __future__ import annotations

import random
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from shared_paths import SHARED, needs_shared

from lexiko import cgp, kernel, movegen
from lexiko.board import Board
from lexiko.game import Game
from lexiko.layouts import Layout
from lexiko.legality import check_placement
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Pass, Place, parse_move
from lexiko.movegen import Candidate, best_move, count_placements, generate, sort_key
from lexiko.rules import EIGHT_TILE, LEXULOUS, MOBILE, NINE_TILE, SUPER, TOURNAMENT, Rules
from lexiko.scoring import score, words_formed
from lexiko.tiles import ENGLISH, SPANISH

POSITIONS = SHARED / "positions" / "movegen-twl06.tsv"
needs_kernel = pytest.mark.skipif(not movegen.kernel_available(), reason="lexiko._kernel is not built")


def _tsv() -> list[tuple[str, str, int, str, int]]:
    if not POSITIONS.is_file():  # pragma: no cover - the checkout sits beside ../shared
        return []
    rows = []
    for line in POSITIONS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, text, count, top, top_score = line.split("\t")
        rows.append((name, text, int(count), top, int(top_score)))
    return rows


TSV = _tsv()


def _position(text: str) -> tuple[Board, tuple[int, ...]]:
    pos = cgp.parse(text)
    return pos.board, pos.board.tiles.parse(pos.racks[0])


# -- known positions ----------------------------------------------------------------


@pytest.mark.slow
@needs_shared
@pytest.mark.parametrize("backend", [pytest.param("c", marks=needs_kernel), "python"])
@pytest.mark.parametrize(("name", "text", "count", "top", "top_score"), TSV, ids=[r[0] for r in TSV])
def test_known_positions(
    twl06: Lexicon, backend: movegen.Backend, name: str, text: str, count: int, top: str, top_score: int
) -> None:
    board, rack = _position(text)
    moves = generate(board, rack, twl06, placements_only=True, backend=backend)
    assert len(moves) == count
    assert len({c.move for c in moves}) == count
    assert count_placements(board, rack, twl06, backend=backend) == count
    assert moves[0].score == top_score
    best = [c for c in moves if c.score == top_score]
    expected = parse_move(top, ENGLISH, board)
    assert isinstance(expected, Place)
    assert check_placement(board, expected, TOURNAMENT) in [c.move for c in best]
    if len(best) == 1:
        assert best[0].notation(ENGLISH, board) == top


@needs_shared
def test_known_position_figures(twl06: Lexicon) -> None:
    assert [r[2] for r in TSV] == [1116, 3149, 40696, 631, 7692, 158705]
    board, rack = _position(TSV[0][1])
    top = [c for c in generate(board, rack, twl06, placements_only=True) if c.score == 66]
    # nine anagrams, six places each with a double letter under one of their letters
    assert len(top) == 54
    assert [c.notation() for c in top[:3]] == ["8B ANESTRI", "8B ANTSIER", "8B NASTIER"]
    assert {c.notation()[:2] for c in top} == {"8B", "8C", "8D", "8F", "8G", "8H"}


@pytest.mark.slow
@needs_shared
@needs_kernel
@pytest.mark.parametrize("n", [1, 2, 7, 50, 10_000])
def test_best_n_is_a_prefix(twl06: Lexicon, n: int) -> None:
    for _, text, *_ in TSV[:5]:
        board, rack = _position(text)
        full = generate(board, rack, twl06, backend="c")
        assert generate(board, rack, twl06, best=n, backend="c") == full[:n]
        assert generate(board, rack, twl06, best=n, backend="python") == full[:n]
        assert best_move(board, rack, twl06) == full[0]


# -- seeded games, kernel against reference, every move checked -------------------------


def _game_positions(lex: Lexicon, rules: Rules, seeds: range, turns: int) -> Iterator[tuple[Board, tuple[int, ...]]]:
    """Positions (board, rack of the player on turn) of seeded games where each player
    plays one of the generator's five best placements, chosen at random."""
    for seed in seeds:
        g = Game(["a", "b"], rules, seed=seed, lexicon=lex)
        rng = random.Random(seed)
        for _ in range(turns):
            if g.is_over or g.bag_count == 0:
                break
            rack = g.rack()
            yield g.board, rack
            found = generate(g.board, rack, lex, rules, best=5, placements_only=True)
            if found:
                move = rng.choice(found).move
                assert isinstance(move, Place)
                g.play(move)
            else:
                g.pass_turn()


def _check_moves(
    board: Board, rack: tuple[int, ...], lex: Lexicon, rules: Rules, moves: list[Candidate], rng: random.Random
) -> None:
    """Every move (or a sample of 1,500) is legal in the rules engine, forms only
    words of the lexicon, scores what the generator says and keeps the right tiles."""
    sample = moves if len(moves) <= 1500 else rng.sample(moves, 1500)
    have = Counter(rack)
    for c in sample:
        m = c.move
        assert isinstance(m, Place)
        assert check_placement(board, m, rules) == m  # legal, and in canonical form
        words = words_formed(board, m)
        assert words and all(lex.contains_codes(w.codes) for w in words), m
        assert score(board, m, rules) == c.score, m
        used = Counter(m.rack_tiles())
        assert not used - have
        assert c.leave == board.tiles.rack_sort(list((have - used).elements()))


def _random_rack(rng: random.Random, board: Board, size: int) -> tuple[int, ...]:
    """A rack of tiles not on the board, with a blank."""
    unseen = list((Counter(board.tiles.bag()) - Counter(board.played_tiles())).elements())
    rack = rng.sample(unseen, min(size, len(unseen)))
    if rack and 0 not in rack:
        rack[0] = 0
    return tuple(rack)


CASES = {
    "tournament": (TOURNAMENT, range(1, 9), 14),
    "nine-tile": (NINE_TILE, range(20, 23), 12),
    "eight-tile": (EIGHT_TILE, range(30, 33), 12),
    "mobile": (MOBILE.replace(challenge_rule="double"), range(40, 43), 12),
    "super": (SUPER, range(50, 53), 12),
    # 8-tile racks on the Lexulous board, 40 points for 7 tiles and 50 for 8
    "lexulous": (LEXULOUS.replace(challenge_rule="double"), range(60, 63), 12),
}


@pytest.mark.slow
@needs_kernel
@pytest.mark.parametrize("case", list(CASES))
def test_kernel_matches_reference_in_games(twl06: Lexicon, case: str) -> None:
    rules, seeds, turns = CASES[case]
    rng = random.Random(case)
    positions = 0
    for board, rack in _game_positions(twl06, rules, seeds, turns):
        racks = [rack]
        if rng.random() < 0.3:
            racks.append(_random_rack(rng, board, rules.rack_size))
        for r in racks:
            fast = generate(board, r, twl06, rules, placements_only=True, backend="c")
            ref = generate(board, r, twl06, rules, placements_only=True, backend="python")
            assert fast == ref  # same moves, scores, leaves and order
            assert len({c.move for c in fast}) == len(fast)
            assert count_placements(board, r, twl06, rules, backend="c") == len(fast)
            _check_moves(board, r, twl06, rules, fast, rng)
            positions += 1
    assert positions >= 30


def test_reference_placements_and_moves_of_a_game_position(twl06: Lexicon) -> None:
    board = Board.from_string("15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15")
    rack = ENGLISH.parse("ADEEGIL")
    ref = movegen.reference_placements(board, rack, twl06)
    moves = generate(board, rack, twl06, placements_only=True, backend="python")
    assert sorted(ref, key=str) == sorted(((c.move, c.score) for c in moves), key=str)
    assert len(moves) == 445
    assert [(c.notation(ENGLISH, board), c.score) for c in moves[:3]] == [
        ("D8 (W)EDGIE", 22),
        ("D8 (W)EIGELA", 22),
        ("7G EAGLED", 20),
    ]


# -- leaves, exchanges, pass ------------------------------------------------------------


def _leave_value(leave: tuple[int, ...]) -> float:
    """A toy leave table: blanks and S are good, duplicates and Q bad."""
    v = 0.0
    for t, k in Counter(leave).items():
        v += {0: 25.5, 19: 8.25, 17: -7.0}.get(t, 0.5) - 3.125 * (k - 1)
    return v


@needs_shared
@pytest.mark.parametrize("backend", [pytest.param("c", marks=needs_kernel), "python"])
def test_leaves_exchanges_and_pass(twl06: Lexicon, backend: movegen.Backend) -> None:
    board, rack = _position(TSV[3][1])  # vsmatt, rack AABDELT
    moves = generate(board, rack, twl06, leaves=_leave_value, backend=backend)
    places = [c for c in moves if isinstance(c.move, Place)]
    exchanges = [c for c in moves if isinstance(c.move, Exchange)]
    assert len(places) == 631
    assert len(exchanges) == 3 * 2**5 - 1  # every sub-multiset of AABDELT but the empty one
    assert [c for c in moves if isinstance(c.move, Pass)] == [Candidate(Pass(), 0, _leave_value(rack), rack)]
    assert moves == sorted(moves, key=sort_key)
    for c in moves:
        assert c.equity == c.score + _leave_value(c.leave)
        kept = Counter(c.leave)
        spent = Counter(c.move.rack_tiles() if isinstance(c.move, Place) else getattr(c.move, "tiles", ()))
        assert kept + spent == Counter(rack)
    assert generate(board, rack, twl06, leaves=_leave_value, best=10, backend=backend) == moves[:10]
    assert moves[0].move == parse_move("K9 TAEL", ENGLISH, board)
    # no exchange with fewer than 7 tiles in the bag; at most bag_count tiles otherwise
    assert not [c for c in generate(board, rack, twl06, bag_count=6, backend=backend) if isinstance(c.move, Exchange)]
    few = generate(board, rack, twl06, TOURNAMENT.replace(exchange_min_bag=1), bag_count=2, backend=backend)
    assert {len(c.move.tiles) for c in few if isinstance(c.move, Exchange)} == {1, 2}


def _halves(leave: tuple[int, ...]) -> float:
    """A leave table with many equal values: ties the kernel's pruning must keep in order."""
    return float(len(leave) % 2)


@pytest.mark.slow
@needs_kernel
@pytest.mark.parametrize("rules", [TOURNAMENT, NINE_TILE, LEXULOUS], ids=["tournament", "nine-tile", "lexulous"])
def test_best_n_is_exact_with_pruning(twl06: Lexicon, rules: Rules) -> None:
    """best=N (the kernel cuts anchors and branches that cannot make the list) gives the
    first N of the full list, with and without leave tables, exchanges and the pass."""
    from lexiko.leaves import LeaveTable

    shipped = LeaveTable.default(twl06.tiles).lookup
    rng = random.Random(rules.name)
    positions = list(_game_positions(twl06, rules, range(70, 73), 16))
    positions += [
        (Board.empty(rules.board_layout), _random_rack(rng, Board.empty(), rules.rack_size)) for _ in range(4)
    ]
    for board, rack in positions:
        for leaves in (None, shipped, _leave_value, _halves):
            for bag in (100, 3):
                full = generate(board, rack, twl06, rules, leaves=leaves, bag_count=bag, backend="c")
                for n in (1, 3, 25):
                    assert generate(board, rack, twl06, rules, leaves=leaves, bag_count=bag, best=n) == full[:n]
            places = generate(board, rack, twl06, rules, leaves=leaves, placements_only=True, backend="c")
            for n in (1, 4):
                got = generate(board, rack, twl06, rules, leaves=leaves, best=n, placements_only=True, backend="c")
                assert got == places[:n]
    # openings list both directions on request
    board = Board.empty()
    for rack in (ENGLISH.parse("AEINS??"), ENGLISH.parse("DEGORV?"), ENGLISH.parse("QIATEEE")):
        full = generate(board, rack, twl06, placements_only=True, down_openings=True, backend="c")
        got = generate(board, rack, twl06, best=10, placements_only=True, down_openings=True, backend="c")
        assert got == full[:10]


def _blank_rack(rng: random.Random, board: Board, size: int, blanks: int) -> tuple[int, ...]:
    """A rack of tiles not on the board but blanks, with ``blanks`` blanks."""
    unseen = [t for t in (Counter(board.tiles.bag()) - Counter(board.played_tiles())).elements() if t]
    return tuple([0] * blanks + rng.sample(unseen, min(size - blanks, len(unseen))))


@pytest.mark.slow
@needs_kernel
def test_wordmap_matches_gaddag(twl06: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """Best mode searches by the word map (movegen.WORDMAP) or by the pruned GADDAG walk:
    the same moves, in the same order, as the RL environment asks (best 32 with the
    shipped leaves, 1 without), on the shared positions and on a few hundred positions
    of seeded games, with their racks and with one and two blanks."""
    from lexiko.bots.static import default_leaves

    leaves = default_leaves(twl06.tiles)
    used = []
    build = kernel.wordmap_data
    monkeypatch.setattr(kernel, "wordmap_data", lambda kwg: used.append(1) or build(kwg))
    rng = random.Random("wordmap")
    positions = [_position(row[1]) for row in TSV]
    for board, rack in _game_positions(twl06, TOURNAMENT, range(100, 118), 14):
        positions.append((board, rack))
        if rng.random() < 0.5:
            positions.append((board, _blank_rack(rng, board, 7, rng.choice((1, 2)))))
    blanks = Counter(min(2, sum(1 for t in rack if t == 0)) for _, rack in positions)
    assert len(positions) >= 300 and blanks[1] >= 40 and blanks[2] >= 40, blanks
    for board, rack in positions:
        for n, table, bag in ((32, leaves, 50), (1, leaves, 50), (32, None, 0), (1, None, 100)):
            got = []
            for flag in (False, True):
                monkeypatch.setattr(movegen, "WORDMAP", flag)
                got.append(generate(board, rack, twl06, best=n, leaves=table, bag_count=bag, backend="c"))
            assert got[1] == got[0], (board, rack, n, bag)
    assert used  # the word map was searched


@needs_kernel
def test_kernel_leave_table_matches_python(monkeypatch: pytest.MonkeyPatch) -> None:
    racks = [ENGLISH.parse(r) for r in ("AEINRST", "AEINS??", "EEEQ", "?", "", "SSSSTT?", "ZZ??")]
    seen: list[tuple[int, ...]] = []

    def value(leave: tuple[int, ...]) -> float:
        seen.append(leave)
        return _leave_value(leave)

    fast = [list(movegen._Rack(r, ENGLISH).table(value)) for r in racks]
    fast_seen = list(seen)
    seen.clear()
    monkeypatch.setattr(kernel, "_k", None)
    slow = [list(movegen._Rack(r, ENGLISH).table(value)) for r in racks]
    assert fast == slow and fast_seen == seen  # the same values, asked in the same order
    assert movegen._Rack(ENGLISH.parse("AB"), ENGLISH).table(lambda leave: len(leave)) == [0.0, 1.0, 1.0, 2.0]


@needs_kernel
def test_packed_leave_table_gives_the_tables_values() -> None:
    """The kernel reads a LeaveTable packed (no Python call per sub-rack): stored values
    and the fallback model give the same doubles as the table's lookup."""
    from array import array

    from lexiko.leaves import LeaveTable

    model = LeaveTable(
        ENGLISH,
        {(): 0.0, (19,): 8.25, (0,): 25.5, (5, 18, 19): 12.0, (1, 0, 0): 33.0, (5,) * 10: 1.0},
        tile_values={0: [24.0, 10.0], 19: [8.0, 1.5], 5: [1.0, -3.0, -6.0, -8.0]},
        balance={(1, 0): 0.5, (3, 0): -4.0, (0, 9): -30.0},
        offset=-0.75,
    )
    rng = random.Random(7)
    racks = [ENGLISH.parse(r) for r in ("AEINRST", "AEINS??", "EEEEEEEEEEEE", "?", "", "SSSSTT?", "ZZ??")]
    racks += [[rng.randrange(27) for _ in range(rng.randrange(12))] for _ in range(300)]
    for table in (model, LeaveTable.default(), LeaveTable.zeros()):
        packed = table.packed()
        assert packed is not None and table.packed() is packed  # built once
        for rack in racks:
            counts = bytes(movegen._Rack(rack, ENGLISH).counts)
            want, got = array("d"), array("d")
            want.frombytes(kernel.leave_table(counts, table.lookup))
            got.frombytes(kernel.leave_values(counts, packed))
            assert got == want, ENGLISH.format(rack)
    # what the format cannot hold is left to the Python look-up
    assert LeaveTable(ENGLISH, {(5,) * 11: 1.0}).packed() is None
    with pytest.raises(ValueError, match="not a packed leave map"):
        kernel.leave_values(bytes(64), b"x" * 100)
    assert LeaveTable.of(model.lookup) is model and LeaveTable.of(_leave_value) is None


def _in_a_child(code: str) -> str:
    """What ``code`` prints, run in a fresh interpreter that must finish within a minute:
    a hang fails the test instead of stopping the whole run."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@needs_kernel
def test_a_leave_map_with_every_slot_taken_is_read_without_hanging() -> None:
    """Maps come from the cache folder (lexiko.leaves._cached_pack) as they are on disk:
    a map none of whose slots is empty must not make the kernel probe for ever (seen
    while writing the fuzz target of leave maps)."""
    out = _in_a_child(
        """
import struct
from array import array
from lexiko import _kernel
terms, balance = bytes(8 * 64 * 33 * 2), bytes(8 * 33 * 33)
m = bytearray(_kernel.leave_map(array("Q", [1 << 6 | 19]), array("d", [8.0]), 1, -0.5, bytes(64), terms, balance))
slots = len(m) - 32  # two slots: S, and an empty one that now gets ZZ, which no rack below asks for
struct.pack_into("<Qd", m, slots if not struct.unpack_from("<Q", m, slots)[0] else slots + 16, 1 << 12 | 26 << 6 | 26, 3.0)
m = bytes(m)
counts = bytearray(64)
counts[19], counts[0] = 2, 1  # SS?: six sub-racks, looked up at once
print(list(array("d", _kernel.leave_values(bytes(counts), m))))
counts = bytearray(64)
counts[1:10] = bytes([1] * 9)  # A to I: 512 sub-racks, looked up one at a time
values = array("d", _kernel.leave_values(bytes(counts), m))
print(len(values), sorted(set(values)))
"""
    )
    assert out == "[-0.5, -0.5, 8.0, -0.5, -0.5, -0.5]\n512 [-0.5]\n"


@needs_kernel
def test_an_anagram_set_with_every_slot_taken_is_read_without_hanging() -> None:
    """The anagram set of best mode comes from the cache folder too
    (lexiko.kernel._disk_cached): one whose slots are all taken must not make the kernel
    probe for ever; a multiset it does not hold is taken as spelling no word."""
    out = _in_a_child(
        """
import struct
from lexiko import movegen
from lexiko.board import Board
from lexiko.lexicon import Lexicon
from lexiko.tiles import ENGLISH
movegen.WORDMAP = False  # the GADDAG walk, which asks the anagram set about whole racks
lex = Lexicon.from_words(["AT", "TA", "CAT", "ACT", "CATS", "SCAT", "ACTS", "CAST"])
rack = ENGLISH.parse("ACST")
print([str(c.move) for c in movegen.generate(Board.empty(), rack, lex, best=2)])
from lexiko import kernel
depths, _ = kernel.prune_data(lex.kwg)
kernel._prune_cache[id(lex.kwg)] = (lex.kwg, depths, struct.pack("<QQ", ~1 & (2**64 - 1), 12345))  # one slot
print([str(c.move) for c in movegen.generate(Board.empty(), rack, lex, best=2)])
"""
    )
    # the set denies that the whole rack spells a word: the four-tile plays are cut
    assert out == "['8E ACTS', '8E CAST']\n['8F ACT', '8F CAT']\n"


@needs_kernel
def test_an_arc_with_the_wide_high_bits_in_a_narrow_automaton_is_read_safely() -> None:
    """Found by fuzzing the kernel with malformed automata as a tile code above 63
    (UndefinedBehaviorSanitizer: a shift by the tile code), when the tile had 8 bits. Now
    the tile has 6 and the byte's top two bits are the child's bits 22-23 (the wide
    layout, `lexiko.kwg`): a byte of 65 is A with a child 2**22 arcs further, which a
    narrow automaton such as this one never has. Its walk reads arcs as before the wide
    layout (a tile of 65 is no letter: no play goes through T-A, here 8G A. and H7 A.),
    the cross-checks read A with a child past the end, taken as none; neither reads
    outside the array."""
    from lexiko import kernel
    from lexiko import kwg as _kwg

    lex = Lexicon.from_words(["AT", "AA"])
    board = Board.empty().place(Place(7, 7, False, (20,)))  # a T on H8
    moves = sorted(str(c.move) for c in generate(board, ENGLISH.parse("AA"), lex, placements_only=True, backend="c"))
    assert moves == ["7G AA", "7H AA", "8G A.", "G7 AA", "G8 AA", "H7 A."]
    arcs = lex.kwg
    after_t = _kwg.arc_child(arcs[_kwg.find_arc(arcs, _kwg.gaddag_root(arcs), 20)])
    a = _kwg.find_arc(arcs, after_t, 1)
    assert _kwg.arc_child(arcs[a]) == 0
    arcs[a] = arcs[a] & 0xFFFFFF | 65 << 24  # the A of T-A, its child now 2**22
    assert (_kwg.arc_tile(arcs[a]), _kwg.arc_child(arcs[a])) == (1, 1 << 22)
    kernel._prune_cache.clear()
    kernel._wordmap_cache.clear()
    kernel.forget_boards()  # the cross-checks of the board, kept from the search above
    after = sorted(str(c.move) for c in generate(board, ENGLISH.parse("AA"), lex, placements_only=True, backend="c"))
    assert after == ["7G AA", "7H AA", "G7 AA", "G8 AA"]


@pytest.mark.slow
@needs_shared
@needs_kernel
def test_leave_table_agrees_between_backends(twl06: Lexicon) -> None:
    for _, text, *_ in TSV[:5]:
        board, rack = _position(text)
        c = generate(board, rack, twl06, leaves=_leave_value, backend="c")
        assert c == generate(board, rack, twl06, leaves=_leave_value, backend="python")
        assert generate(board, rack, twl06, leaves=_leave_value, best=3, backend="c") == c[:3]


# -- rules and edge cases -------------------------------------------------------------


@pytest.mark.parametrize("backend", [pytest.param("c", marks=needs_kernel), "python"])
def test_first_play_rules(twl06: Lexicon, backend: movegen.Backend) -> None:
    rack = ENGLISH.parse("QI")
    board = Board.empty()
    moves = generate(board, rack, twl06, placements_only=True, backend=backend)
    assert [c.notation() for c in moves] == ["8G QI", "8H QI"]
    assert [c.score for c in moves] == [22, 22]
    assert (
        generate(board, rack, twl06, TOURNAMENT.replace(first_play_min_tiles=3), placements_only=True, backend=backend)
        == []
    )
    both = generate(board, rack, twl06, placements_only=True, down_openings=True, backend=backend)
    assert [c.notation() for c in both] == ["H7 QI", "8G QI", "8H QI", "H8 QI"]
    assert count_placements(board, ENGLISH.parse("AEINRST"), twl06, backend=backend, down_openings=True) == 2 * 1116
    # a layout not symmetric about its diagonal: the down plays differ and are listed
    rows = list(board.layout.rows)
    rows[7] = "..T" + rows[7][3:]
    lopsided = Board.empty(Layout("lopsided", tuple(rows)))
    moves = generate(lopsided, ENGLISH.parse("AEINRST"), twl06, placements_only=True, backend=backend)
    assert len(moves) == 2 * 1116
    assert (moves[0].notation(), moves[0].score) == ("8B ANESTRI", 98)  # triple word on C8
    last = moves[-1].move
    assert isinstance(last, Place) and last.down


@pytest.mark.parametrize("backend", [pytest.param("c", marks=needs_kernel), "python"])
def test_one_tile_plays_counted_once(twl06: Lexicon, backend: movegen.Backend) -> None:
    board = Board.from_string("15/15/15/15/15/15/15/7A7/15/15/15/15/15/15/15")
    moves = generate(board, ENGLISH.parse("A"), twl06, placements_only=True, backend=backend)
    # AA four ways: across left/right of the A, down above/below it
    assert sorted(c.notation(ENGLISH, board) for c in moves) == ["8G A(A)", "8H (A)A", "H7 A(A)", "H8 (A)A"]
    board = Board.from_string("15/15/15/15/15/15/15/6AT7/6T8/15/15/15/15/15/15")
    moves = generate(board, ENGLISH.parse("A"), twl06, placements_only=True, backend=backend)
    corner = [c for c in moves if (c.move.row, c.move.col) in ((8, 6), (8, 7))]  # type: ignore[union-attr]
    # A at H9 forms TA down and TA across: one play, written across
    assert [(c.notation(ENGLISH, board), c.score) for c in corner] == [("9G (T)A", 4)]


@needs_shared
@pytest.mark.parametrize("backend", [pytest.param("c", marks=needs_kernel), "python"])
def test_empty_rack_and_blocked_positions(twl06: Lexicon, backend: movegen.Backend) -> None:
    board, _ = _position(TSV[3][1])
    assert generate(board, (), twl06, backend=backend) == [Candidate(Pass(), 0, 0.0, ())]
    assert count_placements(board, (), twl06, backend=backend) == 0
    assert generate(board, ENGLISH.parse("QQ"), twl06, best=0, backend=backend) == []
    only_q = generate(board, ENGLISH.parse("Q"), twl06, bag_count=0, backend=backend)
    assert [c.notation(ENGLISH, board) for c in only_q][-1] == "-"
    with pytest.raises(ValueError, match="no legal move"):
        best_move(Board.empty(), ENGLISH.parse("Q"), twl06, placements_only=True, backend=backend)


def test_bad_arguments(twl06: Lexicon) -> None:
    with pytest.raises(ValueError, match="rack code"):
        generate(Board.empty(), (1, 99), twl06)
    with pytest.raises(ValueError, match="backend"):
        generate(Board.empty(), (1,), twl06, backend="fortran")  # type: ignore[arg-type]
    # Clabbers is generated (tests/test_clabbers.py), not refused
    assert generate(Board.empty(), ENGLISH.parse("QI"), twl06, Rules(variant="clabbers"), placements_only=True)
    spanish = Board.empty(tiles=SPANISH)
    with pytest.raises(ValueError, match="tiles"):
        generate(spanish, (1,), twl06)


def test_fallback_warns_once(twl06: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel, "_k", None)
    monkeypatch.setattr(movegen, "_warned", False)
    rack = ENGLISH.parse("QI")
    with pytest.warns(RuntimeWarning, match="pure-Python"):
        assert count_placements(Board.empty(), rack, twl06) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert count_placements(Board.empty(), rack, twl06) == 2
    with pytest.raises(RuntimeError, match="not built"):
        count_placements(Board.empty(), rack, twl06, backend="c")


@pytest.mark.slow
@needs_kernel
def test_kernel_and_reference_agree_on_lexulous_bonus_tiers(twl06: Lexicon) -> None:
    """8-tile racks on the Lexulous board, with racks that spell 8-letter words so that
    both tiers (40 points for 7 tiles, 50 for 8) are earned: kernel, reference and the
    scoring of the rules engine agree, and best=N is the head of the full list."""
    rules = LEXULOUS
    rng = random.Random("lexulous tiers")
    eights = twl06.pattern("????????")
    seen: Counter[int] = Counter()
    positions = 0
    for board, rack in _game_positions(twl06, rules, range(64, 67), 8):
        racks = [rack]
        for _ in range(2):
            spelled = list(board.tiles.parse(rng.choice(eights)))
            if rng.random() < 0.5:
                spelled[rng.randrange(len(spelled))] = 0
            racks.append(tuple(spelled))
        for r in racks:
            fast = generate(board, r, twl06, rules, placements_only=True, backend="c")
            ref = generate(board, r, twl06, rules, placements_only=True, backend="python")
            assert fast == ref
            for c in fast:
                assert isinstance(c.move, Place)
                assert score(board, c.move, rules) == c.score
                seen[c.move.tile_count] += 1
            assert generate(board, r, twl06, rules, best=3, placements_only=True, backend="c") == fast[:3]
            positions += 1
    assert positions >= 40
    assert seen[7] > 20 and seen[8] > 20, seen


@pytest.mark.slow
def test_a_large_lexicons_word_map_is_kept_on_disk_and_mapped_back(
    twl06: Lexicon, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mmap

    if not movegen.kernel_available():
        pytest.skip("the compiled kernel is not built")
    monkeypatch.setenv("LEXIKO_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(kernel, "_wordmap_cache", {})
    monkeypatch.setattr(kernel, "_prune_cache", {})
    built = kernel.wordmap_data(twl06.kwg)
    depths, anagrams = kernel.prune_data(twl06.kwg)
    assert isinstance(built, bytes) and isinstance(depths, bytes)
    names = sorted(p.name.split("-")[0] for p in (tmp_path / "cache").iterdir())
    assert names == ["anagrams", "depths", "wordmap"]
    monkeypatch.setattr(kernel, "_wordmap_cache", {})
    monkeypatch.setattr(kernel, "_prune_cache", {})
    mapped = kernel.wordmap_data(twl06.kwg)
    assert isinstance(mapped, mmap.mmap) and mapped[:] == built
    assert kernel.prune_data(twl06.kwg)[0][:] == depths
    board = Board.empty().place(parse_move("8D WINDY"))
    rack = ENGLISH.parse("AEINST?")
    assert generate(board, rack, twl06, best=20) == generate(board, rack, twl06, best=20, backend="c")
    # a folder that cannot be written only costs the time to build; small word lists stay in memory
    monkeypatch.setenv("LEXIKO_CACHE_DIR", "/proc/nowhere")
    monkeypatch.setattr(kernel, "_wordmap_cache", {})
    assert kernel.wordmap_data(twl06.kwg) == built
    small = Lexicon.from_words(["QI", "ZA"])
    monkeypatch.setenv("LEXIKO_CACHE_DIR", str(tmp_path / "small"))
    assert isinstance(kernel.wordmap_data(small.kwg), bytes) and not (tmp_path / "small").exists()


# -- openings by the word map (hypothesis) ---------------------------------------------

from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_BAG = ENGLISH.bag()


@pytest.mark.slow
@needs_kernel
@settings(max_examples=60, deadline=None)
@given(
    picks=st.lists(st.integers(0, len(_BAG) - 1), min_size=1, max_size=7, unique=True),
    blanks=st.integers(0, 3),
    with_leaves=st.booleans(),
    down_openings=st.booleans(),
)
@example(picks=[2, 19, 38, 55, 72, 78, 82], blanks=0, with_leaves=True, down_openings=False)  # AEINRST
@example(picks=[15, 19, 33, 61, 72, 92], blanks=1, with_leaves=True, down_openings=False)  # DEGORV?
@example(picks=[2, 19, 38, 55, 78], blanks=2, with_leaves=True, down_openings=True)  # AEINS??
def test_every_opening_by_the_word_map_is_the_walks_and_the_references(
    twl06: Lexicon, picks: list[int], blanks: int, with_leaves: bool, down_openings: bool
) -> None:
    """Every move of an opening (the word map lists its plays: the words of the rack's
    sub-racks at every first square through the start square) is the GADDAG walk's and
    the reference's: the same candidates, scores, equities, leaves and order, blanks
    included (three take the walk)."""
    from lexiko.leaves import LeaveTable

    rack = tuple([0] * blanks + [_BAG[i] for i in picks if _BAG[i]])[:7]
    leaves = LeaveTable.default() if with_leaves else None
    board = Board.empty()
    got = []
    try:
        for flag in (True, False):
            movegen.WORDMAP = flag
            got.append(list(generate(board, rack, twl06, leaves=leaves, down_openings=down_openings, backend="c")))
    finally:
        movegen.WORDMAP = True
    assert got[0] == got[1], (ENGLISH.format(rack), len(got[0]), len(got[1]))
    if rack.count(0) < 2:  # the reference takes seconds for the 40,000 plays of two blanks
        ref = generate(board, rack, twl06, leaves=leaves, down_openings=down_openings, backend="python")
        assert got[0] == ref


@needs_kernel
def test_every_move_of_an_opening_asks_the_word_map(twl06: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """Listing every move asks for the word map on an empty board only (it lists an
    opening's plays), and not at all with movegen.WORDMAP off."""
    used: list[int] = []
    build = kernel.wordmap_data

    def counted(kwg: Sequence[int]) -> kernel.Blob:
        used.append(1)
        return build(kwg)

    monkeypatch.setattr(kernel, "wordmap_data", counted)
    rack = ENGLISH.parse("AEINRST")
    assert len(generate(Board.empty(), rack, twl06, placements_only=True)) == 1116
    assert used == [1]
    board = Board.empty().place(Place.parse("8G RETAINS"))
    generate(board, rack, twl06)
    assert used == [1]
    monkeypatch.setattr(movegen, "WORDMAP", False)
    assert len(generate(Board.empty(), rack, twl06, placements_only=True)) == 1116
    assert used == [1]


def test_a_rack_changed_in_place_is_read_again() -> None:
    """The last rack asked about is kept by its tiles: a list changed in place between
    two calls gives the new rack's moves."""
    lex = Lexicon.from_words(["QI", "XI"])
    rack = list(ENGLISH.parse("QI"))
    assert [c.notation() for c in generate(Board.empty(), rack, lex, best=1)] == ["8G QI"]
    rack[0] = ENGLISH.parse("X")[0]
    assert [c.notation() for c in generate(Board.empty(), rack, lex, best=1)] == ["8G XI"]
    assert [c.notation() for c in generate(Board.empty(), rack, lex, best=1, backend="python")] == ["8G XI"]
