"""Clabbers move generation: the alphagram automaton and the pure-Python reference.

In Clabbers (rules.md section 8) a play is valid when every word it forms is an
*anagram* of a word of the lexicon: some order of its letters spells a word. Only a
word's multiset of letters counts, so the lexicon reduces to its *alphagrams* (each
word's letters sorted by code).

What a placement is
-------------------
As in normal generation, a placement is a set of tiles put on squares; every distinct
arrangement of tiles on squares is a distinct move, so the same letters put down in
another order on the same squares are other moves (they form other strings, and may
score differently), and a blank designated as another letter is another move, as is a
blank standing for a letter the rack also holds as a real tile. A placement is listed
once, in the form of `lexiko.move.Place.normalized` (whole main word; a one-tile
play across when it forms a word across), and an opening on a layout symmetric about
its diagonal lists only the across plays (see `lexiko.movegen`).

The counts grow fast: a rack of seven distinct letters that anagram to a word has 5,040
arrangements on each lane it fits.

How the two generators work
---------------------------
The compiled kernel (``lexiko._kernel``, selected by `lexiko.movegen.generate`
for ``rules.variant == "clabbers"``) walks the *alphagram automaton*
(`alphagram_kwg`: a DAWG of the sorted words, in the arc format of
`lexiko.kwg`). For every span of a line that a play can cover (a run of squares
bounded by empty squares or the edge, touching a tile or the start square), it
enumerates the multisets of rack tiles that, with the board's letters in the span,
form an alphagram: one walk in letter order, the board's letters consumed as they come
and rack tiles (letters, then blanks) for the rest. Each such multiset is then laid out
in every order the cross-checks allow (a letter may go on a square when the cross word
it makes is an anagram of a word: again a walk of the automaton). For the best N moves
(bots, hints) it walks the spans best bound first and skips the multisets and spans
whose bound (the highest tile values on the squares that count most, plus the best
leave) cannot enter the N best: the result is that of the full list.

The reference here (`reference_placements`) shares no code with it: it tests
every alphagram of the right length against the span's board letters and the rack,
with Python sets and counters, and checks cross words against a set of alphagrams.

>>> from lexiko.board import Board
>>> from lexiko.lexicon import Lexicon
>>> from lexiko.tiles import ENGLISH
>>> lex = Lexicon.from_words(["CAT"])
>>> plays = reference_placements(Board.empty(), ENGLISH.parse("TCA"), lex, directions=1)
>>> len(plays), sorted({s for _, _, _, _, s, _ in plays})
(18, [10])
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterator, Sequence

from lexiko import kernel
from lexiko import kwg as _kwg
from lexiko.board import Board
from lexiko.lexicon import Lexicon
from lexiko.rules import TOURNAMENT, Rules
from lexiko.tiles import BLANK, LETTER_MASK

__all__ = ["alphagram_kwg", "alphagrams", "reference_placements", "RawPlacement"]

RawPlacement = tuple[int, int, bool, tuple[int, ...], int, int]
"""row, column, down, tiles (whole main word, 0 played through), score, leave index
(as in `lexiko.movegen`)."""

_CACHE_SIZE = 8
_kwg_cache: dict[int, tuple[object, array[int]]] = {}
_set_cache: dict[int, tuple[object, frozenset[bytes]]] = {}
_len_cache: dict[int, tuple[object, dict[int, list[tuple[bytes, Counter[int]]]]]] = {}


def _alphagram_keys(lexicon: Lexicon) -> Iterator[bytes]:
    kwg = lexicon.kwg
    for w in _kwg.iter_words(kwg, _kwg.dawg_root(kwg)):
        yield bytes(sorted(w))


def _alphagram_dawg(keys: list[bytes]) -> array[int]:
    return kernel.build_kwg(keys, dawg_only=True) if kernel.available() else _kwg.build_dawg(keys)


def alphagram_kwg(lexicon: Lexicon) -> array[int]:
    """The alphagram automaton of a lexicon: a DAWG (no GADDAG) of every word with its
    letters sorted by code, in the format of `lexiko.kwg`. Built once per lexicon
    and kept while the lexicon's automaton lives (about half a second for TWL06).

    >>> from lexiko.tiles import ENGLISH
    >>> k = alphagram_kwg(Lexicon.from_words(["CAT", "ACT", "TAX"]))
    >>> root = _kwg.dawg_root(k)
    >>> _kwg.accepts(k, root, ENGLISH.parse("ACT")), _kwg.accepts(k, root, ENGLISH.parse("CAT"))
    (True, False)
    """
    src = lexicon.kwg
    hit = _kwg_cache.get(id(src))
    if hit is None or hit[0] is not src:
        hit = (src, _alphagram_dawg(list(_alphagram_keys(lexicon))))
        if len(_kwg_cache) >= _CACHE_SIZE:
            _kwg_cache.clear()
        _kwg_cache[id(src)] = hit
    return hit[1]


def alphagrams(lexicon: Lexicon) -> frozenset[bytes]:
    """Every word of the lexicon with its letters sorted by code (what the reference
    checks words against).

    >>> from lexiko.tiles import ENGLISH
    >>> bytes(ENGLISH.parse("ACT")) in alphagrams(Lexicon.from_words(["CAT"]))
    True
    """
    src = lexicon.kwg
    hit = _set_cache.get(id(src))
    if hit is None or hit[0] is not src:
        hit = (src, frozenset(_alphagram_keys(lexicon)))
        if len(_set_cache) >= _CACHE_SIZE:
            _set_cache.clear()
        _set_cache[id(src)] = hit
    return hit[1]


def _by_length(lexicon: Lexicon) -> dict[int, list[tuple[bytes, Counter[int]]]]:
    """The alphagrams grouped by length, each with its letter counts."""
    src = lexicon.kwg
    hit = _len_cache.get(id(src))
    if hit is None or hit[0] is not src:
        groups: dict[int, list[tuple[bytes, Counter[int]]]] = {}
        for w in sorted(alphagrams(lexicon)):
            groups.setdefault(len(w), []).append((w, Counter(w)))
        hit = (src, groups)
        if len(_len_cache) >= _CACHE_SIZE:
            _len_cache.clear()
        _len_cache[id(src)] = hit
    return hit[1]


def reference_placements(
    board: Board,
    rack: Sequence[int],
    lexicon: Lexicon,
    rules: Rules = TOURNAMENT,
    *,
    directions: int = 2,
) -> list[RawPlacement]:
    """Every legal Clabbers placement of ``rack`` (codes, 0 a blank) on ``board``,
    with its score and leave index, unsorted. ``directions`` 1 lists only the across
    plays of an opening (the caller decides when the down plays mirror them; on a board
    with tiles both directions are always listed).
    """
    return _Reference(board, rack, lexicon, rules, directions).run()


class _Reference:
    def __init__(self, board: Board, rack: Sequence[int], lexicon: Lexicon, rules: Rules, directions: int) -> None:
        self.board = board
        self.n = board.size
        self.cells = board.cells
        tiles = board.tiles
        self.vals = [0] * 128
        for code in range(1, tiles.size + 1):
            self.vals[code] = tiles.value(code)
        self.words = alphagrams(lexicon)
        self.groups = _by_length(lexicon)
        self.by_len: dict[int, list[tuple[int, bytes, Counter[int]]]] = {}
        counts = [0] * 64
        for t in rack:
            counts[t] += 1
        self.counts = counts
        self.rack_size = len(rack)
        codes = [c for c in range(64) if counts[c]]
        radix = [0] * 64
        size = 1
        for c in codes:
            radix[c] = size
            size *= counts[c] + 1
        self.radix, self.full = radix, size - 1
        self.empty = board.is_empty
        self.min_tiles = rules.first_play_min_tiles if self.empty else 1
        self.bonus = rules.bonus
        self.directions = directions if self.empty else 2
        self._fits: dict[tuple[bytes, int], list[tuple[int, ...]]] = {}
        self._cross: dict[bytes, frozenset[int]] = {}
        self.out: list[RawPlacement] = []

    # -- words ------------------------------------------------------------------

    def candidates(self, length: int) -> list[tuple[int, bytes, Counter[int]]]:
        """Alphagrams of a length with their letter counts, by how many of their letters
        the rack's letters (not its blanks) leave uncovered (the board's letters and the
        blanks must cover those), fewest first."""
        hit = self.by_len.get(length)
        if hit is None:
            counts = self.counts
            hit = [(sum(max(0, v - counts[c]) for c, v in wc.items()), w, wc) for w, wc in self.groups.get(length, ())]
            hit.sort(key=lambda x: x[0])
            self.by_len[length] = hit
        return hit

    def fits(self, board_letters: bytes, k: int) -> list[tuple[int, ...]]:
        """The multisets of k rack tiles (codes, blanks as letter | BLANK, sorted) that
        with ``board_letters`` form an alphagram of the lexicon."""
        key = (board_letters, k)
        hit = self._fits.get(key)
        if hit is not None:
            return hit
        out: list[tuple[int, ...]] = []
        have = Counter(board_letters)
        counts, blanks = self.counts, self.counts[0]
        limit = len(board_letters) + blanks
        for uncovered, _, wc in self.candidates(len(board_letters) + k):
            if uncovered > limit:
                break
            if any(wc[c] < v for c, v in have.items()):
                continue  # the word lacks a board letter
            need = [(c, v - have[c]) for c, v in sorted(wc.items()) if v > have[c]]
            if sum(max(0, v - counts[c]) for c, v in need) > blanks:
                continue
            out.extend(self._splits(need, 0, blanks, []))
        self._fits[key] = out
        return out

    def _splits(self, need: list[tuple[int, int]], i: int, blanks: int, acc: list[int]) -> Iterator[tuple[int, ...]]:
        """Every way to take the letters ``need[i:]`` from the rack: j real tiles and the
        rest blanks standing for the letter."""
        if i == len(need):
            yield tuple(sorted(acc))
            return
        c, v = need[i]
        for real in range(min(v, self.counts[c]), -1, -1):
            b = v - real
            if b > blanks:
                break
            yield from self._splits(need, i + 1, blanks - b, acc + [c] * real + [c | BLANK] * b)

    def allowed(self, cross_letters: list[int]) -> frozenset[int]:
        """Letters that make the cross word of these letters an anagram of a word."""
        key = bytes(sorted(cross_letters))
        hit = self._cross.get(key)
        if hit is None:
            words = self.words
            hit = frozenset(t for t in range(1, 64) if bytes(sorted(cross_letters + [t])) in words)
            self._cross[key] = hit
        return hit

    # -- the board ------------------------------------------------------------------

    def cross(self, idx: int, d: int) -> tuple[frozenset[int] | None, int]:
        """Letters allowed on square idx by the word crossing the play (stride d along
        it) and the points of its other tiles; (None, -1) when there is none."""
        n, cells = self.n, self.cells
        row = idx // n
        letters: list[int] = []
        points = 0
        for step in (-d, d):
            j = idx + step
            while 0 <= j < n * n and (d == n or j // n == row) and cells[j]:
                letters.append(cells[j] & LETTER_MASK)
                points += self.vals[cells[j]]
                j += step
        if not letters:
            return None, -1
        return self.allowed(letters), points

    def near(self, s: int) -> bool:
        n, cells = self.n, self.cells
        r, c = divmod(s, n)
        return bool(
            (r > 0 and cells[s - n])
            or (r < n - 1 and cells[s + n])
            or (c > 0 and cells[s - 1])
            or (c < n - 1 and cells[s + 1])
        )

    def run(self) -> list[RawPlacement]:
        n, cells, lay = self.n, self.cells, self.board.layout
        if not self.rack_size:
            return self.out
        for down in (False, True)[: self.directions]:
            along, between = (n, 1) if down else (1, n)
            cross_stride = 1 if down else n
            for line in range(n):
                squares = [line * between + p * along for p in range(n)]
                lc = [cells[s] for s in squares]
                anchor = [
                    (divmod(s, n) == lay.start) if self.empty else (not lc[p] and self.near(s))
                    for p, s in enumerate(squares)
                ]
                xs = [
                    self.cross(s, cross_stride) if anchor[p] and not self.empty else (None, -1)
                    for p, s in enumerate(squares)
                ]
                for s in range(n):
                    if s and lc[s - 1]:
                        continue
                    empties: list[int] = []
                    letters: list[int] = []
                    connected = False
                    for e in range(s, n):
                        if lc[e]:
                            letters.append(lc[e] & LETTER_MASK)
                            connected = True
                        else:
                            if len(empties) == self.rack_size:
                                break
                            empties.append(e)
                            connected = connected or anchor[e]
                        if e + 1 < n and lc[e + 1]:
                            continue
                        if e == s or not empties or not connected or len(empties) < self.min_tiles:
                            continue
                        if down and len(empties) == 1 and xs[empties[0]][1] >= 0:
                            continue  # a one-tile play forming a word across is listed across
                        for tiles in self.fits(bytes(sorted(letters)), len(empties)):
                            self.lay_out(down, squares, lc, xs, s, e, empties, tiles)
        return self.out

    def lay_out(
        self,
        down: bool,
        squares: list[int],
        lc: list[int],
        xs: list[tuple[frozenset[int] | None, int]],
        s: int,
        e: int,
        empties: list[int],
        tiles: tuple[int, ...],
    ) -> None:
        """Record every distinct order of ``tiles`` on the empty squares of s..e that the
        cross words allow."""
        li = self.full - sum(self.radix[0 if t & BLANK else t] for t in tiles)
        remaining = Counter(tiles)
        word = [0] * (e - s + 1)

        def place(i: int) -> None:
            if i == len(empties):
                self.record(down, squares, lc, xs, s, word, li)
                return
            p = empties[i]
            allowed = xs[p][0]
            for t in sorted(remaining):
                if not remaining[t] or (allowed is not None and t & LETTER_MASK not in allowed):
                    continue
                remaining[t] -= 1
                word[p - s] = t
                place(i + 1)
                remaining[t] += 1
            word[p - s] = 0

        place(0)

    def record(
        self,
        down: bool,
        squares: list[int],
        lc: list[int],
        xs: list[tuple[frozenset[int] | None, int]],
        s: int,
        word: list[int],
        li: int,
    ) -> None:
        lay, vals = self.board.layout, self.vals
        main, mult, extra, placed = 0, 1, 0, 0
        for k, code in enumerate(word):
            p = s + k
            sq = squares[p]
            if code:
                placed += 1
                v = vals[code] * lay.letter_mult[sq]
                main += v
                mult *= lay.word_mult[sq]
                if xs[p][1] >= 0:
                    extra += (xs[p][1] + v) * lay.word_mult[sq]
            else:
                main += vals[lc[p]]
        score = main * mult + extra
        score += self.bonus(placed)
        first = squares[s]
        self.out.append((first // self.n, first % self.n, down, tuple(word), score, li))
