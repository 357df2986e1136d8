"""The one door to the compiled kernel `lexiko._kernel`: nothing else imports it.

The extension's entries take their arguments by position (a play-out some 27 of them),
so this module gives each a real signature and gathers what stays the same over many
calls into values built once and kept: `LexiconData` (the automaton and what the search
prunes with), `LayoutData` (premium squares, start square), `PlayRules` (the rules the
kernel plays by, derived from a `Rules` and a tile set) and `Setting`, the three
together. A `Position` is what changes: board, racks, bag, scores, turn.

It also checks that the extension found is the one this code calls (`ABI`): a
stale build is not used, as if none were built (`available`).

What the kernel plays is one table, `RULE_FIELDS`: every field of ``Rules`` is
passed to the kernel (and how), not needed by it (and why), or not played by it unless
left at its default (and why); `unsupported_rules` reads it.

>>> from lexiko.rules import TOURNAMENT
>>> setting = Setting.of(Lexicon.from_words(["QI"]), TOURNAMENT)
>>> setting.layout.size, setting.layout.start, setting.rules.bonuses[7], setting.rules.end_double
(15, (7, 7), 50, True)
>>> unsupported_rules(TOURNAMENT) is None, unsupported_rules(TOURNAMENT.replace(time_minutes=25))
(True, 'clocks')
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import mmap
import os
from array import array
from collections.abc import Callable, Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, NamedTuple, NewType, Protocol, cast, overload

from lexiko import kwg as _kwg
from lexiko.board import Board
from lexiko.layouts import Layout
from lexiko.lexicon import Lexicon, arcs_digest, cache_folder, write_cache_file
from lexiko.rules import Rules
from lexiko.tiles import TileSet

if TYPE_CHECKING:
    from lexiko.move import Exchange, Pass, Place
    from lexiko.movegen import Candidate

__all__ = [
    "ABI",
    "MAX_SIZE",
    "MAX_RACK",
    "MAX_PLAYERS",
    "Blob",
    "RngState",
    "available",
    "build_kwg",
    "LexiconData",
    "LayoutData",
    "PlayRules",
    "Setting",
    "Position",
    "RuleUse",
    "RuleField",
    "RULE_FIELDS",
    "unsupported_rules",
    "prune_data",
    "wordmap_data",
    "register_classes",
    "COUNT",
    "ALL",
    "BEST",
    "PLACEMENTS_ONLY",
    "PASS_ONLY",
    "MoveList",
    "generate",
    "best_call",
    "BestCall",
    "forget_boards",
    "depths",
    "anagrams",
    "wordmap",
    "leave_table",
    "leave_values",
    "leave_map",
    "rack_leaves",
    "TurnRow",
    "PlayoutResult",
    "playout",
    "GameResultRow",
    "static_games",
    "rng_shuffle",
    "SimCandidate",
    "simulate",
    "MoveRow",
    "EndgameResult",
    "endgame",
    "RLCore",
    "RLInfo",
    "rl_new",
    "rl_deal",
    "rl_reset",
    "rl_step",
    "rl_static_turns",
    "rl_observe",
    "rl_info",
    "rl_log",
    "rl_candidates",
]

ABI: Final = 12
"""The calling convention of the extension this module calls; a build with another
``ABI`` is stale (rebuild with ``pip install .``) and is not used."""

MAX_SIZE: Final = 32
"""Largest board side the kernel handles (larger boards use the Python reference)."""

MAX_RACK: Final = 15
"""Most tiles on a rack in the kernel's play-outs."""

MAX_PLAYERS: Final = 8
"""Most seats in the kernel's play-outs."""

Blob = bytes | mmap.mmap
"""Data the kernel reads: bytes, or a read-only map of a cache file."""

RngState = tuple[int, int, int, int]
"""The random generator's state as the kernel takes and returns it: `lexiko.rng.Rng`'s
(`Rng.getstate`, four ints below 2**64, not all zero)."""

_MASK64 = (1 << 64) - 1  # seeds go to the kernel modulo 2**64, as lexiko.rng reads them

RLCore = NewType("RLCore", object)
"""A game held in the kernel for `lexiko.rl.core` (made by `rl_new`)."""

MoveRow = tuple[int, int, int, int, bytes, int]
"""A move as the kernel returns it: kind (0 play, 1 exchange, 2 pass), row, column,
down, tiles, score."""


# -- the extension ----------------------------------------------------------------------


class _Module(Protocol):
    """The extension's entries, positional as it parses them."""

    def setup(
        self, place: type[Place], candidate: type[Candidate], exchange: type[Exchange], pass_: type[Pass], /
    ) -> None: ...

    def generate(
        self,
        kwg: Sequence[int],
        cells: bytes,
        size: int,
        letter_mult: bytes,
        word_mult: bytes,
        values: bytes,
        rack: bytes,
        bingo_tiles: int,
        bingo_bonus: int,
        first_min: int,
        start_row: int,
        start_col: int,
        first_dirs: int,
        mode: int,
        best_n: int,
        leave_values: array[float] | None,
        depths: Blob | None,
        anagrams: Blob | None,
        floor: float,
        bonuses: array[int] | None,
        wordmap: Blob | None,
        others: int,
        leave_map: Blob | None,
        /,
    ) -> int | Sequence[Candidate]: ...

    def build_kwg(self, words: bytes, dawg_only: bool, /) -> bytes: ...

    def forget_boards(self) -> None: ...

    def depths(self, kwg: Sequence[int], /) -> bytes: ...

    def wordmap(self, kwg: Sequence[int], /) -> bytes: ...

    def anagrams(self, kwg: Sequence[int], /) -> bytes: ...

    def leave_table(self, counts: bytes, leaves: Callable[[tuple[int, ...]], float], /) -> bytes: ...

    def leave_map(
        self,
        keys: array[int],
        values: array[float],
        bits: int,
        offset: float,
        vowels: bytes,
        terms: array[float],
        balance: array[float],
        /,
    ) -> bytes: ...

    def leave_values(self, counts: bytes, packed: Blob, /) -> bytes: ...

    def rack_leaves(
        self, racks: bytes, sums: array[float], weights: array[float], counts: bytes, size: int, /
    ) -> tuple[bytes, bytes, bytes, bytes]: ...

    def playout(
        self,
        kwg: Sequence[int],
        depths: Blob,
        anagrams: Blob,
        size: int,
        cells: bytes,
        letter_mult: bytes,
        word_mult: bytes,
        values: bytes,
        bingo_tiles: int,
        bonuses: array[int],
        first_min: int,
        start_row: int,
        start_col: int,
        first_dirs: int,
        rules: tuple[int, int, int, int, int, int],
        racks: list[bytes],
        bag: bytes,
        scores: list[int],
        turn: int,
        scoreless_run: int,
        maps: list[Blob],
        rng_state: RngState,
        max_turns: int,
        log: list[TurnRow] | None,
        penalties: list[float] | None,
        wordmap: Blob | None,
        /,
    ) -> _PlayoutRow: ...

    def rng_shuffle(self, seed: bytes, items: bytes, /) -> tuple[bytes, RngState]: ...

    def static_games(
        self,
        kwg: Sequence[int],
        depths: Blob,
        anagrams: Blob,
        size: int,
        letter_mult: bytes,
        word_mult: bytes,
        values: bytes,
        bingo_tiles: int,
        bonuses: array[int],
        first_min: int,
        start_row: int,
        start_col: int,
        first_dirs: int,
        rules: tuple[int, int, int, int, int, int],
        bag: bytes,
        maps: list[Blob],
        seeds: bytes,
        first_players: bytes,
        penalties: list[float] | None,
        wordmap: Blob | None,
        /,
    ) -> list[GameResultRow]: ...

    def simulate(
        self,
        kwg: Sequence[int],
        depths: Blob,
        anagrams: Blob,
        size: int,
        cells: bytes,
        letter_mult: bytes,
        word_mult: bytes,
        values: bytes,
        bingo_tiles: int,
        bonuses: array[int],
        first_min: int,
        start_row: int,
        start_col: int,
        first_dirs: int,
        rules: tuple[int, int, int, int, int, int],
        leave_map: Blob,
        rack: bytes,
        unseen: bytes,
        opp_sizes: bytes,
        scores: list[int],
        scoreless_run: int,
        candidates: list[SimCandidate],
        plies: int,
        seed_base: bytes,
        start: int,
        stop: int,
        wordmap: Blob | None,
        known: list[bytes] | None,
        /,
    ) -> list[list[tuple[float, float]]]: ...

    def endgame(
        self,
        kwg: Sequence[int],
        depths: Blob,
        anagrams: Blob,
        size: int,
        cells: bytes,
        letter_mult: bytes,
        word_mult: bytes,
        values: bytes,
        bingo_tiles: int,
        bonuses: array[int],
        start_row: int,
        start_col: int,
        me: bytes,
        opp: bytes,
        scoreless_run: int,
        scoreless_limit: int,
        max_depth: int,
        time_limit: float,
        progress: Callable[[int, int, int, int, list[MoveRow]], None] | None,
        cut: bool,
        /,
    ) -> tuple[int, int, int, int, list[MoveRow]]: ...

    def rl_new(
        self,
        kwg: Sequence[int],
        depths: Blob,
        anagrams: Blob,
        size: int,
        letter_mult: bytes,
        word_mult: bytes,
        values: bytes,
        bingo_tiles: int,
        bonuses: array[int],
        first_min: int,
        start_row: int,
        start_col: int,
        first_dirs: int,
        rules: tuple[int, int, int, int, int, int],
        leave_map: Blob | None,
        k: int,
        premiums: bytes,
        letters: int,
        wordmap: Blob | None,
        /,
    ) -> RLCore: ...

    def rl_reset(
        self,
        core: RLCore,
        cells: bytes,
        racks: list[bytes],
        bag: bytes,
        scores: list[int],
        turn: int,
        scoreless_run: int,
        rng_state: RngState,
        /,
    ) -> None: ...

    def rl_deal(self, core: RLCore, seed: bytes, bag: bytes, players: int, draw_for_first: bool, /) -> int: ...

    def rl_step(self, core: RLCore, action: int, /) -> bool: ...

    def rl_static_turns(self, core: RLCore, seat: int, /) -> bool: ...

    def rl_observe(
        self,
        core: RLCore,
        seat: int,
        on_turn: bool,
        board: object,
        rack: object,
        unseen: object,
        scores: object,
        bag: object,
        candidates: object,
        mask: object,
        /,
    ) -> None: ...

    def rl_info(self, core: RLCore, /) -> RLInfo: ...

    def rl_log(self, core: RLCore, start: int, /) -> list[tuple[int, int, int, int, bytes, int, float]]: ...

    def rl_candidates(self, core: RLCore, /) -> list[tuple[tuple[int, int, int, int, bytes, int, float], bytes]]: ...


def _load() -> _Module | None:
    try:
        mod = importlib.import_module("lexiko._kernel")
    except ImportError:
        return None
    if getattr(mod, "ABI", None) != ABI:  # a stale build: rebuild with pip install .
        return None
    return cast(_Module, mod)


_k = _load()


def available() -> bool:
    """Whether the compiled kernel was built (``pip install .`` with a C compiler) with
    the calling convention this module speaks.

    >>> isinstance(available(), bool)
    True
    """
    return _k is not None


def _module() -> _Module:
    k = _k
    if k is None:
        raise RuntimeError("lexiko._kernel is not built: reinstall lexiko with a C compiler (pip install .)")
    return k


def register_classes(
    place: type[Place], candidate: type[Candidate], exchange: type[Exchange], pass_: type[Pass]
) -> None:
    """Tell the kernel the classes `generate` builds (`lexiko.movegen` does,
    once, when it is imported); nothing without the kernel.

    >>> from lexiko.move import Exchange, Pass, Place
    >>> from lexiko.movegen import Candidate
    >>> register_classes(Place, Candidate, Exchange, Pass)
    """
    if _k is not None:
        _k.setup(place, candidate, exchange, pass_)


# -- what stays the same over many calls -----------------------------------------------

_DISK_MIN_ARCS = 100_000  # smaller lexicons (word lists of tests and examples) are not kept on disk


def _disk_cached(kwg: Sequence[int], kind: str, build: Callable[[], bytes]) -> Blob:
    """``build()`` for a lexicon, kept in its cache folder (`lexiko.lexicon.cache_dir`)
    under a digest of the automaton and the kernel's version, and mapped read-only when
    found there: a new process (a worker of a pool, the next command) reads the word map
    in milliseconds instead of building it in a quarter of a second, and processes share
    its pages. A folder that cannot be written only costs the time to build."""
    try:
        raw = memoryview(kwg).cast("B")  # type: ignore[arg-type]
    except TypeError:
        return build()
    if len(raw) < 4 * _DISK_MIN_ARCS:
        return build()
    # the lexicon's digest, computed once (or read with its cache file), not once a kind
    if isinstance(kwg, array):
        key = arcs_digest(kwg).hex()
    else:
        import hashlib  # not at the top: a lexicon's digest comes with its cache file

        key = hashlib.blake2b(raw, digest_size=16).hexdigest()
    path = os.path.join(cache_folder(), f"{kind}-abi{ABI}-{key}.bin")
    try:
        with open(path, "rb") as f:
            return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        pass
    data = build()
    write_cache_file(path, data)
    return data


_prune_cache: dict[int, tuple[Sequence[int], Blob, Blob]] = {}


def prune_data(kwg: Sequence[int]) -> tuple[Blob, Blob]:
    """What the kernel's best mode prunes with, computed once per lexicon (tens of
    milliseconds; kept on disk for large lexicons, see `_disk_cached`): per arc of
    the automaton, the most letters left on a path to a word's end (`depths`), and
    a hash set of the words' letter multisets (`anagrams`: whether the whole rack
    and the board's letters in a lane spell any word).

    >>> d, a = prune_data(Lexicon.from_words(["QI"]).kwg)
    >>> prune_data(Lexicon.from_words(["QI"]).kwg)[0] == d
    True
    """
    hit = _prune_cache.get(id(kwg))
    if hit is None or hit[0] is not kwg:
        k = _module()
        hit = (
            kwg,
            _disk_cached(kwg, "depths", lambda: k.depths(kwg)),
            _disk_cached(kwg, "anagrams", lambda: k.anagrams(kwg)),
        )
        if len(_prune_cache) > 8:
            _prune_cache.clear()
        _prune_cache[id(kwg)] = hit
    return hit[1], hit[2]


_wordmap_cache: dict[int, tuple[Sequence[int], Blob]] = {}


def wordmap_data(kwg: Sequence[int]) -> Blob:
    """The word map of ``kwg``'s lexicon (`wordmap`), built once per lexicon (a
    quarter of a second and some 45 MB for a lexicon of 180,000 words) and kept on disk
    (`_disk_cached`).

    >>> kwg = Lexicon.from_words(["QI"]).kwg
    >>> wordmap_data(kwg) is wordmap_data(kwg)
    True
    """
    hit = _wordmap_cache.get(id(kwg))
    if hit is None or hit[0] is not kwg:
        k = _module()
        hit = (kwg, _disk_cached(kwg, "wordmap", lambda: k.wordmap(kwg)))
        if len(_wordmap_cache) > 4:
            _wordmap_cache.clear()
        _wordmap_cache[id(kwg)] = hit
    return hit[1]


@dataclass(frozen=True, eq=False, slots=True)
class LexiconData:
    """A lexicon as the kernel's searches read it: the automaton (`lexiko.kwg`), per
    arc the most letters left to a word's end, the words' letter multisets, and the
    word map (see `prune_data`, `wordmap_data`).

    >>> lex = Lexicon.from_words(["QI"])
    >>> data = LexiconData.of(lex)
    >>> data is LexiconData.of(lex), data.kwg is lex.kwg
    (True, True)
    """

    kwg: Sequence[int]
    depths: Blob
    anagrams: Blob
    wordmap: Blob

    @staticmethod
    def of(lexicon: Lexicon) -> LexiconData:
        """The data of ``lexicon``, built once per lexicon (kept while it lives)."""
        kwg = lexicon.kwg
        hit = _lexicon_cache.get(id(kwg))
        if hit is None or hit.kwg is not kwg:
            d, a = prune_data(kwg)
            hit = LexiconData(kwg, d, a, wordmap_data(kwg))
            if len(_lexicon_cache) > 4:
                _lexicon_cache.clear()
            _lexicon_cache[id(kwg)] = hit
        return hit


_lexicon_cache: dict[int, LexiconData] = {}


@dataclass(frozen=True, slots=True)
class LayoutData:
    """A layout as the kernel reads it: side, letter and word multipliers (a byte per
    square), start square, and ``first_dirs``: 1 when the layout is symmetric about its
    main diagonal (the down plays of an opening then mirror the across plays and are not
    listed), else 2.

    >>> from lexiko.layouts import STANDARD
    >>> d = LayoutData.of(STANDARD)
    >>> d.size, d.start, d.first_dirs, d.letter_mult[3], d is LayoutData.of(STANDARD)
    (15, (7, 7), 1, 2, True)
    """

    size: int
    letter_mult: bytes
    word_mult: bytes
    start: tuple[int, int]
    first_dirs: int

    @staticmethod
    def of(layout: Layout) -> LayoutData:
        """The data of ``layout``, built once per layout (kept while it lives)."""
        hit = _layout_cache.get(id(layout))
        if hit is None or hit[0] is not layout:
            n = layout.size
            symmetric = all(layout.rows[r][c] == layout.rows[c][r] for r in range(n) for c in range(r))
            data = LayoutData(
                n, bytes(layout.letter_mult), bytes(layout.word_mult), layout.start, 1 if symmetric else 2
            )
            if len(_layout_cache) > _CACHE_SIZE:
                _layout_cache.clear()
            hit = _layout_cache[id(layout)] = (layout, data)
        return hit[1]


_CACHE_SIZE = 64
_layout_cache: dict[int, tuple[Layout, LayoutData]] = {}


@dataclass(frozen=True, slots=True)
class PlayRules:
    """The rules the kernel plays by, derived from a `Rules` and the
    tile set on the board (see `RULE_FIELDS` for where each field of ``Rules`` goes):

    - ``values``: points of every board code 0..127 (blanks and unknown codes 0);
      ``bag``: a full bag (`bag`); ``letters``: the letters
      of the tile set;
    - ``bingo_tiles`` and ``bingo_bonus``; ``bonuses``: the bonus of a play of k tiles
      at index k, 0 to `MAX_SIZE` (what play-outs read); ``tier_bonuses``: the
      same up to the last tier when there are tiers, else None (what `generate`
      reads besides ``bingo_bonus``);
    - ``first_min``: tiles the first play needs; ``draw_for_first``;
    - ``play``: the play-outs' rules (rack size, least tiles in the bag to exchange,
      scoreless turns that end the game, whether only passes count, whether an exchange
      is scoreless, whether the end counts racks double), with each as a field too.

    >>> from lexiko.rules import LEXULOUS
    >>> r = PlayRules.of(LEXULOUS, LEXULOUS.tile_set)
    >>> list(r.bonuses[6:10]), list(r.tier_bonuses or ()), r.play
    ([0, 40, 50, 50], [0, 0, 0, 0, 0, 0, 0, 40, 50], (8, 7, 6, 0, 1, 0))
    """

    values: bytes
    bag: bytes
    letters: int
    bingo_tiles: int
    bingo_bonus: int
    bonuses: array[int]
    tier_bonuses: array[int] | None
    first_min: int
    draw_for_first: bool
    rack_size: int
    exchange_min_bag: int
    scoreless_turn_limit: int
    scoreless_passes_only: bool
    exchange_is_scoreless: bool
    end_double: bool
    play: tuple[int, int, int, int, int, int]

    @staticmethod
    def of(rules: Rules, tiles: TileSet) -> PlayRules:
        """The kernel's rules for ``rules`` with ``tiles`` on the board, built once per pair
        (kept while both live)."""
        key = (id(rules), id(tiles))
        hit = _rules_cache.get(key)
        if hit is None or hit[0] is not rules or hit[1] is not tiles:
            if len(_rules_cache) > _CACHE_SIZE:
                _rules_cache.clear()
            hit = _rules_cache[key] = (rules, tiles, PlayRules._build(rules, tiles))
        return hit[2]

    @staticmethod
    def _build(rules: Rules, tiles: TileSet) -> PlayRules:
        values = bytearray(128)
        for code in range(1, tiles.size + 1):
            values[code] = tiles.value(code)
        tiers = rules.bonus_tiers
        end_double = rules.end_rack_rule == "double"
        return PlayRules(
            values=bytes(values),
            bag=bytes(tiles.bag()),
            letters=tiles.size,
            bingo_tiles=rules.bingo_tiles,
            bingo_bonus=rules.bingo_bonus,
            bonuses=array("i", [rules.bonus(k) for k in range(MAX_SIZE + 1)]),
            tier_bonuses=array("i", [rules.bonus(k) for k in range(tiers[-1][0] + 1)]) if tiers else None,
            first_min=rules.first_play_min_tiles,
            draw_for_first=rules.draw_for_first,
            rack_size=rules.rack_size,
            exchange_min_bag=rules.exchange_min_bag,
            scoreless_turn_limit=rules.scoreless_turn_limit,
            scoreless_passes_only=rules.scoreless_passes_only,
            exchange_is_scoreless=rules.exchange_is_scoreless,
            end_double=end_double,
            play=(
                rules.rack_size,
                rules.exchange_min_bag,
                rules.scoreless_turn_limit,
                int(rules.scoreless_passes_only),
                int(rules.exchange_is_scoreless),
                int(end_double),
            ),
        )


_rules_cache: dict[tuple[int, int], tuple[Rules, TileSet, PlayRules]] = {}


@dataclass(frozen=True, slots=True)
class Setting:
    """What stays the same over a game the kernel plays: the lexicon, the layout and the
    rules, as the kernel reads them.

    >>> from lexiko.rules import TOURNAMENT
    >>> s = Setting.of(Lexicon.from_words(["QI"]), TOURNAMENT)
    >>> s.layout.size, s.rules.rack_size, s.rules.play
    (15, 7, (7, 7, 6, 0, 1, 1))
    """

    lexicon: LexiconData
    layout: LayoutData
    rules: PlayRules

    @staticmethod
    def of(lexicon: Lexicon, rules: Rules, layout: Layout | None = None, tiles: TileSet | None = None) -> Setting:
        """The setting of a game under ``rules`` with ``lexicon`` on ``layout`` with
        ``tiles`` (by default the rules' own), built once and kept while they live."""
        lay = rules.board_layout if layout is None else layout
        ts = rules.tile_set if tiles is None else tiles
        key = (id(lexicon.kwg), id(rules), id(lay), id(ts))
        hit = _setting_cache.get(key)
        if hit is None or hit[0] is not lexicon.kwg or hit[1] is not rules or hit[2] is not lay or hit[3] is not ts:
            lt = lexicon.tiles
            if lt is not ts and lt.letters != ts.letters:
                raise ValueError(f"the lexicon spells {lt.name} tiles, the board holds {ts.name} tiles")
            s = Setting(LexiconData.of(lexicon), LayoutData.of(lay), PlayRules.of(rules, ts))
            if len(_setting_cache) > _CACHE_SIZE:
                _setting_cache.clear()
            hit = _setting_cache[key] = (lexicon.kwg, rules, lay, ts, s)
        return hit[4]


_setting_cache: dict[tuple[int, int, int, int], tuple[Sequence[int], Rules, Layout, TileSet, Setting]] = {}


@dataclass(frozen=True, slots=True)
class Position:
    """A position the kernel plays on from: the board, each seat's rack (tile codes), the
    bag (drawn from its end), the scores, the seat on turn and the run of scoreless turns.

    >>> p = Position(Board.empty(), (b"\\x01", b"\\x02"), b"", (0, 0), 0, 0)
    >>> p.turn, len(p.racks)
    (0, 2)
    """

    board: Board
    racks: tuple[bytes, ...]
    bag: bytes
    scores: tuple[int, ...]
    turn: int
    scoreless_run: int


# -- what the kernel plays: one table over the fields of Rules ---------------------------

RuleUse = Literal["passed", "not needed", "unsupported"]


@dataclass(frozen=True, slots=True)
class RuleField:
    """Where a field of `Rules` goes in the kernel: ``passed`` (the
    note says how), ``not needed`` (the note says why) or ``unsupported``: the kernel
    cannot play it unless it keeps its default (the note says why). ``refuse``, when
    given, says why the kernel cannot play a Rules (None when it can) for this field:
    every unsupported field has one, and a passed field has one for the values beyond
    the kernel's limits.

    >>> f = next(f for f in RULE_FIELDS if f.name == "teams")
    >>> f.use, f.refuse is not None and f.refuse(Rules(teams=True, max_players=4))
    ('unsupported', 'teams')
    """

    name: str
    use: RuleUse
    note: str
    refuse: Callable[[Rules], str | None] | None = None


_DEFAULTS: dict[str, object] = {f.name: f.default for f in dataclasses.fields(Rules)}


def _unless_default(name: str, why: str) -> Callable[[Rules], str | None]:
    default = _DEFAULTS[name]
    return lambda rules: why if getattr(rules, name) != default else None


def _passed(name: str, how: str, refuse: Callable[[Rules], str | None] | None = None) -> RuleField:
    return RuleField(name, "passed", how, refuse)


def _not_needed(name: str, why: str) -> RuleField:
    return RuleField(name, "not needed", why)


def _unsupported(name: str, why: str, message: str | Callable[[Rules], str | None]) -> RuleField:
    refuse = _unless_default(name, message) if isinstance(message, str) else message
    return RuleField(name, "unsupported", why, refuse)


_NO_CHALLENGE = (
    "the kernel's players play only words of the lexicon, so no play of theirs is challenged "
    "(lexiko.rl.core adds its own condition on challenge_rule)"
)
_CLOCK_ONLY = "only with a clock (time_minutes), which the kernel does not play"
_DUPLICATE_ONLY = "only in the duplicate variant, which the kernel does not play"

RULE_FIELDS: tuple[RuleField, ...] = (
    _not_needed("name", "a label: it changes no play"),
    _passed("tiles", "PlayRules.values (points by code), bag (a full bag, for games dealt in the kernel), letters"),
    _passed(
        "layout",
        "LayoutData: side, letter and word multipliers, start square, first_dirs",
        lambda r: "a board larger than the kernel's" if r.board_layout.size > MAX_SIZE else None,
    ),
    _passed(
        "rack_size",
        "PlayRules.rack_size (in play): racks are refilled to it",
        lambda r: f"racks of more than {MAX_RACK} tiles" if r.rack_size > MAX_RACK else None,
    ),
    _not_needed("lexicon", "a name: the kernel is given the Lexicon itself (LexiconData)"),
    _unsupported(
        "variant",
        "the kernel plays turns of classic games; Clabbers and duplicate games are played in Python "
        "(lexiko.movegen.generate does list Clabbers moves in the kernel)",
        lambda r: f"the {r.variant} variant" if r.variant != _DEFAULTS["variant"] else None,
    ),
    _not_needed("min_players", "the seats are the racks and leave tables given; callers check their number"),
    _not_needed("max_players", "the seats are the racks and leave tables given; callers check their number"),
    _unsupported("teams", "the kernel keeps a score and a turn per seat, none per team", "teams"),
    _passed("draw_for_first", "PlayRules.draw_for_first, for games dealt in the kernel (rl_deal)"),
    _passed("bingo_bonus", "PlayRules.bingo_bonus (generate) and bonuses (the bonus by tiles placed)"),
    _passed("bingo_tiles", "PlayRules.bingo_tiles (it also splits best mode's walks) and bonuses"),
    _passed("bonus_tiers", "PlayRules.bonuses and tier_bonuses (generate)"),
    _passed("first_play_min_tiles", "PlayRules.first_min"),
    _passed("exchange_min_bag", "PlayRules.exchange_min_bag (in play)"),
    _unsupported(
        "max_exchanges_per_player",
        "the kernel's players exchange whenever the bag allows; it counts no exchanges per player",
        "exchange limits",
    ),
    _unsupported(
        "exchange_min_same_letter",
        "the kernel's players exchange whenever the bag allows, whatever the rack's letters",
        "exchange limits",
    ),
    _passed("exchange_is_scoreless", "PlayRules.exchange_is_scoreless (in play)"),
    _passed("scoreless_turn_limit", "PlayRules.scoreless_turn_limit (in play; the endgame's limit)"),
    _passed("scoreless_passes_only", "PlayRules.scoreless_passes_only (in play)"),
    _passed("end_rack_rule", "PlayRules.end_double (in play; with two players, as Game applies it)"),
    _not_needed(
        "tiebreak",
        "the kernel returns the scores before the end's adjustments too, and callers decide a tie "
        "(simulations, in Python as in the kernel, count a tied spread as half a win)",
    ),
    _unsupported(
        "target_score", "the kernel plays a game on to its end (a rack out, or scoreless turns)", "a target score"
    ),
    _not_needed("challenge_rule", _NO_CHALLENGE),
    _not_needed("challenge_penalty_to", _NO_CHALLENGE),
    _not_needed("challenge_points", _NO_CHALLENGE),
    _unsupported("time_minutes", "the kernel keeps no clock", "clocks"),
    _not_needed("time_increment", _CLOCK_ONLY),
    _not_needed("max_overtime", _CLOCK_ONLY),
    _not_needed("overtime_penalty", _CLOCK_ONLY),
    _unsupported("match_minutes", "the kernel keeps no clock", "clocks"),
    _not_needed("duplicate_seconds", _DUPLICATE_ONLY),
    _not_needed("duplicate_min_vowels", _DUPLICATE_ONLY),
    _not_needed("duplicate_min_consonants", _DUPLICATE_ONLY),
    _not_needed("duplicate_rule_rounds", _DUPLICATE_ONLY),
    _not_needed("duplicate_solo_bonus", _DUPLICATE_ONLY),
)
"""Every field of `Rules`, in its order, and where it goes in the
kernel (`RuleField`); a test fails on a field of ``Rules`` left out."""

_REFUSALS = tuple(f.refuse for f in RULE_FIELDS if f.refuse is not None)


def unsupported_rules(rules: Rules) -> str | None:
    """Why the kernel cannot play games under ``rules`` (None when it can), by
    `RULE_FIELDS` in the order of the fields: the first refusal.

    >>> unsupported_rules(Rules()) is None, unsupported_rules(Rules(variant="clabbers"))
    (True, 'the clabbers variant')
    """
    for refuse in _REFUSALS:
        why = refuse(rules)
        if why is not None:
            return why
    return None


# -- move generation -------------------------------------------------------------------

COUNT: Final = 0
"""`generate` counts the placements."""
ALL: Final = 1
"""`generate` lists every placement."""
BEST: Final = 2
"""`generate` lists the best ``best_n`` placements."""
PLACEMENTS_ONLY: Final = -2
"""`generate` lists placements alone."""
PASS_ONLY: Final = -1
"""`generate` lists the pass besides the placements (no exchange is allowed)."""

MoveList: type | None = getattr(_k, "MoveList", None)
"""The type of `generate`'s lists (None without the kernel): a mutable sequence, as
``isinstance`` and the standard library (``random.sample``) see it."""
if MoveList is not None:
    MutableSequence.register(MoveList)
_CLABBERS = 4  # a flag on the mode: words are anagrams (the kwg is the alphagram automaton)


@overload
def generate(
    kwg: Sequence[int],
    board: Board,
    layout: LayoutData,
    rules: PlayRules,
    rack: bytes,
    *,
    mode: Literal[0],
    directions: int,
    best_n: int = 0,
    leave_values: Sequence[float] | None = None,
    floor: float = math.nan,
    prune: tuple[Blob, Blob] | None = None,
    wordmap: Blob | None = None,
    clabbers: bool = False,
    others: int = PLACEMENTS_ONLY,
    leave_map: Blob | None = None,
) -> int: ...


@overload
def generate(
    kwg: Sequence[int],
    board: Board,
    layout: LayoutData,
    rules: PlayRules,
    rack: bytes,
    *,
    mode: Literal[1, 2],
    directions: int,
    best_n: int = 0,
    leave_values: Sequence[float] | None = None,
    floor: float = math.nan,
    prune: tuple[Blob, Blob] | None = None,
    wordmap: Blob | None = None,
    clabbers: bool = False,
    others: int = PLACEMENTS_ONLY,
    leave_map: Blob | None = None,
) -> Sequence[Candidate]: ...


def generate(
    kwg: Sequence[int],
    board: Board,
    layout: LayoutData,
    rules: PlayRules,
    rack: bytes,
    *,
    mode: Literal[0, 1, 2],
    directions: int,
    best_n: int = 0,
    leave_values: Sequence[float] | None = None,
    floor: float = math.nan,
    prune: tuple[Blob, Blob] | None = None,
    wordmap: Blob | None = None,
    clabbers: bool = False,
    others: int = PLACEMENTS_ONLY,
    leave_map: Blob | None = None,
) -> int | Sequence[Candidate]:
    """The placements of ``rack`` (64 bytes: the number of tiles of each code, blanks at
    0) on ``board`` (its ``layout``) under ``rules`` with the automaton ``kwg``: their
    number (`COUNT`), every one (`ALL`) or the best ``best_n`` (`BEST`)
    as `Candidate` objects, best first, in a `MoveList` (a read-only sequence that makes
    each object when it is first read, equal to the list of them); ``others``: the
    moves listed besides the placements, `PLACEMENTS_ONLY`, `PASS_ONLY`, or a number
    k >= 0 for the pass and the exchanges of at most k tiles (ranked as
    `lexiko.movegen.sort_key` ranks them; with ``best_n``, the best ``best_n`` of them
    all). ``directions``: 1 to list
    only the across plays of an opening, else 2. ``leave_values``: the value of every
    sub-rack by mixed-radix index (see `lexiko.movegen`), or None: then ``leave_map``,
    a packed leave table (`lexiko.leaves.LeaveTable.packed`) the kernel reads them from,
    or None (equity is the score). ``floor`` (best mode): NaN, or an equity the caller has other moves at;
    plays below it may be left out (with ``others`` and NaN, the kernel works it out).
    ``prune`` (best mode): `prune_data`;
    ``wordmap`` (best mode, and every move of an opening): `wordmap_data`, searched
    instead of the walk;
    ``clabbers``: ``kwg`` is the alphagram automaton and words need only be anagrams.
    What `lexiko.movegen.generate` calls; see it for the whole story.

    >>> from lexiko.layouts import STANDARD
    >>> from lexiko.tiles import ENGLISH
    >>> counts = bytearray(64)
    >>> for code in ENGLISH.parse("QI"):
    ...     counts[code] += 1
    >>> lex = Lexicon.from_words(["QI"])
    >>> from lexiko.rules import TOURNAMENT
    >>> rules = PlayRules.of(TOURNAMENT, ENGLISH)
    >>> generate(lex.kwg, Board.empty(), LayoutData.of(STANDARD), rules, bytes(counts), mode=COUNT, directions=1)
    2
    """
    k = _k
    if k is None:
        raise RuntimeError("lexiko._kernel is not built")
    depths, anagrams = (None, None) if prune is None else prune
    start = layout.start
    return k.generate(
        kwg,
        board.cells,
        layout.size,
        layout.letter_mult,
        layout.word_mult,
        rules.values,
        rack,
        rules.bingo_tiles,
        rules.bingo_bonus,
        rules.first_min if board.is_empty else 1,
        start[0],
        start[1],
        directions,
        mode | _CLABBERS if clabbers else mode,
        best_n,
        None if leave_values is None else leave_values if isinstance(leave_values, array) else array("d", leave_values),
        depths,
        anagrams,
        floor,
        rules.tier_bonuses,
        wordmap,
        others,
        leave_map,
    )


BestCall = Callable[[bytes, bool, bytes, bool, int, int, "tuple[Blob, Blob]", "Blob | None"], "Sequence[Candidate]"]
"""``call(cells, empty, rack, down_openings, best_n, others, prune, wordmap)``: what
`best_call` returns."""


def best_call(kwg: Sequence[int], layout: LayoutData, rules: PlayRules, leave_map: Blob | None) -> BestCall:
    """`generate` in best mode with the automaton, layout, rules and packed leave table
    fixed: ``call(cells, empty, rack, down_openings, best_n, others, prune, wordmap)``
    (``cells`` the board's, ``empty`` whether it is empty, ``down_openings`` whether an
    opening's down plays are listed too, the rest as `generate` takes them) returns what
    ``generate(kwg, board, layout, rules, rack, mode=BEST, ...)`` does, its
    ``directions`` 2 but on an empty board (``layout.first_dirs``) without
    ``down_openings``. What `lexiko.movegen` keeps for the best move of many racks and boards, so
    that a call from Python adds little to the kernel's search.

    >>> from lexiko.layouts import STANDARD
    >>> from lexiko.rules import TOURNAMENT
    >>> from lexiko.tiles import ENGLISH
    >>> lex = Lexicon.from_words(["QI"])
    >>> counts = bytearray(64)
    >>> for code in ENGLISH.parse("QI"):
    ...     counts[code] += 1
    >>> call = best_call(lex.kwg, LayoutData.of(STANDARD), PlayRules.of(TOURNAMENT, ENGLISH), None)
    >>> call(Board.empty().cells, True, bytes(counts), False, 1, PLACEMENTS_ONLY, prune_data(lex.kwg), None)[0].score
    22
    """
    gen = _module().generate
    size, letter_mult, word_mult = layout.size, layout.letter_mult, layout.word_mult
    start_row, start_col = layout.start
    values, bingo_tiles, bingo_bonus, first_min = rules.values, rules.bingo_tiles, rules.bingo_bonus, rules.first_min
    tiers, nan, first_dirs = rules.tier_bonuses, math.nan, layout.first_dirs

    def call(
        cells: bytes,
        empty: bool,
        rack: bytes,
        down_openings: bool,
        best_n: int,
        others: int,
        prune: tuple[Blob, Blob],
        wordmap: Blob | None,
    ) -> Sequence[Candidate]:
        return gen(  # type: ignore[return-value]
            kwg,
            cells,
            size,
            letter_mult,
            word_mult,
            values,
            rack,
            bingo_tiles,
            bingo_bonus,
            first_min if empty else 1,
            start_row,
            start_col,
            first_dirs if empty and not down_openings else 2,
            BEST,
            best_n,
            None,
            prune[0],
            prune[1],
            nan,
            tiers,
            wordmap,
            others,
            leave_map,
        )

    return call


def build_kwg(words: Iterable[Sequence[int]], *, dawg_only: bool = False) -> array[int]:
    """The automaton of ``words`` (sequences of letter codes 1..63), built in C: the same
    array as `lexiko.kwg.build_kwg` (with ``dawg_only``, `lexiko.kwg.build_dawg`), the
    readable reference, in seconds where that takes minutes (Polish: 3.3 million words).
    Words shorter than 2 or longer than 21 letters are left out, duplicates collapse.
    Raises ValueError for a code outside 1..63 and `LexiconError` when the automaton
    would not fit the wide layout's 24-bit indexes.

    >>> from lexiko import kwg
    >>> build_kwg([(3, 1, 18, 5), (3, 1, 18)]) == kwg.build_kwg([(3, 1, 18, 5), (3, 1, 18)])
    True
    """
    k = _module()
    coded = [w if isinstance(w, bytes) else _codes_bytes(w) for w in words if _kwg.MIN_WORD <= len(w) <= _kwg.MAX_WORD]
    buf = b"\0".join(coded) + b"\0" if coded else b""
    if buf.count(0) != len(coded):  # a code 0 inside a word
        bad = next(w for w in coded if 0 in w)
        raise ValueError(f"letter codes are 1..63, not {tuple(bad)}")
    try:
        raw = k.build_kwg(buf, dawg_only)
    except OverflowError as e:
        raise _kwg.too_big(int(str(e))) from None
    except ValueError:
        bad = next(w for w in coded if max(w, default=1) > 63)
        raise ValueError(f"letter codes are 1..63, not {tuple(bad)}") from None
    arcs = array("I")
    arcs.frombytes(raw)
    return arcs


def _codes_bytes(word: Sequence[int]) -> bytes:
    try:
        return bytes(word)
    except ValueError:  # a code above 255
        raise ValueError(f"letter codes are 1..63, not {tuple(word)}") from None


def forget_boards() -> None:
    """Drop the boards `generate` keeps between calls: the cross-checks and anchors of
    the last few boards it searched, by automaton, board, multipliers and letter values,
    so that asking about the same board again (or about one a move on: it then updates
    the squares the new tiles change, as play-outs do) skips working them out. The
    automaton is taken to stay as it is (as the other caches here take it): after
    changing one in place (a test of a malformed automaton), forget the boards. Tests
    also compare a search from scratch with one from a kept board.

    >>> forget_boards()
    """
    _module().forget_boards()


def depths(kwg: Sequence[int]) -> bytes:
    """Per arc of the automaton, the most letters left on a path to a word's end (best
    mode prunes with it; `prune_data` keeps it).

    >>> len(depths(Lexicon.from_words(["QI"]).kwg)) == len(Lexicon.from_words(["QI"]).kwg)
    True
    """
    return _module().depths(kwg)


def anagrams(kwg: Sequence[int]) -> bytes:
    """A hash set of the words' letter multisets (best mode prunes with it; kept by
    `prune_data`).

    >>> len(anagrams(Lexicon.from_words(["QI"]).kwg)) % 8
    0
    """
    return _module().anagrams(kwg)


def wordmap(kwg: Sequence[int]) -> bytes:
    """The lexicon's words by letter multiset, and the letters a blank may complete (best
    mode searches it; `wordmap_data` keeps it).

    >>> len(wordmap(Lexicon.from_words(["QI"]).kwg)) > 0
    True
    """
    return _module().wordmap(kwg)


# -- leaves ----------------------------------------------------------------------------


def leave_table(counts: bytes, leaves: Callable[[tuple[int, ...]], float]) -> bytes:
    """``float(leaves(t))`` of every sub-rack ``t`` (rack order) of the rack with
    ``counts[c]`` tiles of code ``c`` (64 bytes), as doubles by mixed-radix index.

    >>> from array import array
    >>> counts = bytearray(64); counts[1] = 1
    >>> list(array("d", leave_table(bytes(counts), len)))
    [0.0, 1.0]
    """
    return _module().leave_table(counts, leaves)


def leave_values(counts: bytes, packed: Blob) -> bytes:
    """What `leave_table` gives for the table packed in ``packed``
    (`lexiko.leaves.LeaveTable.packed`), computed in the kernel; also checks the
    map's head and size (ValueError).

    >>> from lexiko.leaves import LeaveTable
    >>> len(leave_values(bytes(64), LeaveTable.zeros().packed() or b""))
    8
    """
    return _module().leave_values(counts, packed)


def leave_map(
    keys: array[int],
    values: array[float],
    *,
    bits: int,
    offset: float,
    vowels: bytes,
    terms: array[float],
    balance: array[float],
) -> bytes:
    """A packed leave table (what `lexiko.leaves.LeaveTable.packed` builds): leaves
    as keys (uint64: 1 then 6 bits per code, codes in increasing order) and their values,
    ``2**bits`` slots, and the model of leaves not stored: ``offset``, ``vowels`` (64
    bytes, 1 for a vowel's code), ``terms`` (what k copies of a code add) and
    ``balance`` (by vowels then consonants).

    >>> from lexiko.leaves import LeaveTable
    >>> LeaveTable.zeros().packed() is not None
    True
    """
    return _module().leave_map(keys, values, bits, offset, vowels, terms, balance)


def rack_leaves(
    racks: bytes, sums: array[float], weights: array[float], counts: bytes, size: int
) -> tuple[bytes, bytes, bytes, bytes]:
    """Leaves valued by the racks they come from (what `lexiko.training` fits):
    ``racks`` the racks' codes, ``size`` bytes each, in increasing order; per rack the
    sum of its equities and their weight; ``counts`` the tiles of each code in a full
    bag. Returns the leaves' keys (uint64) and, per leave, its weighted sum, weight and
    racks seen (doubles), as bytes.

    >>> keys, *_ = rack_leaves(b"", array("d"), array("d"), bytes(64), 2)
    >>> isinstance(keys, bytes)
    True
    """
    return _module().rack_leaves(racks, sums, weights, counts, size)


# -- play-outs ---------------------------------------------------------------------------

TurnRow = tuple[int, int, int, int, int, bytes, int, bytes, int]
"""A turn of `playout`'s log: player, kind (0 play, 1 exchange, 2 pass), row,
column, down, tiles, score, the tiles kept (rack order), the tiles then in the bag."""

_PlayoutRow = tuple[
    bytes,
    list[bytes],
    bytes,
    list[int],
    int,
    int,
    "str | None",
    RngState,
    int,
    list[int],
    list[int],
    list[int],
    "list[tuple[bytes | None, int]]",
]


class PlayoutResult(NamedTuple):
    """Where `playout` stopped: the cells, racks, bag and scores (after the end's
    adjustments when the game ended), the seat on turn, the scoreless run, why the game
    ended (None: it goes on), the generator's state, turns played, per seat the bingos
    and exchanges made, the scores before the end's adjustments, per seat the tiles kept
    on its last move and the tiles then in the bag ((None, -1): no move), and the turns
    as (player, kind, row, col, down, tiles, score, kept, bag) when asked for."""

    cells: bytes
    racks: list[bytes]
    bag: bytes
    scores: list[int]
    turn: int
    scoreless_run: int
    end_reason: str | None
    rng: RngState
    turns: int
    bingos: list[int]
    exchanges: list[int]
    scores_before_end: list[int]
    kept: list[tuple[bytes | None, int]]
    log: list[TurnRow] | None


def playout(
    setting: Setting,
    position: Position,
    maps: Sequence[Blob],
    rng: RngState,
    *,
    max_turns: int | None = None,
    log: bool = False,
    penalties: Sequence[float] | None = None,
    wordmap: bool = True,
) -> PlayoutResult:
    """The static player's turns from ``position``, each seat valuing leaves by its packed
    leave table in ``maps``, drawing as a game does with the generator in state ``rng``;
    to the end of the game or for ``max_turns`` turns. ``penalties``: per seat, points
    taken off every play that does not go out once the bag is empty (None: the static
    player's). ``wordmap``: best moves by the word map (else the walk). What
    `lexiko.bots.playout.static_turns` calls.

    >>> from lexiko.leaves import LeaveTable
    >>> from lexiko.rng import Rng
    >>> from lexiko.tiles import ENGLISH
    >>> from lexiko.rules import TOURNAMENT
    >>> setting = Setting.of(Lexicon.from_words(["QI", "AA"]), TOURNAMENT)
    >>> start = Position(Board.empty(), (bytes(ENGLISH.parse("QI")), b""), b"", (0, 0), 0, 0)
    >>> maps = [LeaveTable.zeros().packed() or b""] * 2
    >>> r = playout(setting, start, maps, Rng(1).getstate())
    >>> r.end_reason, r.scores
    ('out', [22, 0])
    """
    lex, lay, rules = setting.lexicon, setting.layout, setting.rules
    board = position.board
    entries: list[TurnRow] | None = [] if log else None
    out = _module().playout(
        lex.kwg,
        lex.depths,
        lex.anagrams,
        lay.size,
        board.cells,
        lay.letter_mult,
        lay.word_mult,
        rules.values,
        rules.bingo_tiles,
        rules.bonuses,
        rules.first_min,
        lay.start[0],
        lay.start[1],
        lay.first_dirs if board.is_empty else 2,
        rules.play,
        list(position.racks),
        position.bag,
        list(position.scores),
        position.turn,
        position.scoreless_run,
        list(maps),
        rng,
        -1 if max_turns is None else max_turns,
        entries,
        None if penalties is None else [float(x) for x in penalties],
        lex.wordmap if wordmap else None,
    )
    cells, racks, bag, scores, turn, run, reason, state, turns, bingos, exchanges, before, kept = out
    return PlayoutResult(
        cells, racks, bag, scores, turn, run, reason, state, turns, bingos, exchanges, before, kept, entries
    )


GameResultRow = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, "str | None"]
"""A game `static_games` played: final scores, scores before the end's
adjustments, bingos by seat, turns, why it ended."""


def rng_shuffle(seed: int, items: bytes) -> tuple[bytes, RngState]:
    """``items`` shuffled by the kernel's `lexiko.rng.Rng(seed)` (the seed modulo 2**64),
    and the generator's state after: for the tests that check the kernel's generator is
    `lexiko.rng`'s.

    >>> rng_shuffle(1, bytes(range(10)))[0] == bytes([7, 9, 2, 4, 3, 0, 1, 5, 6, 8])
    True
    """
    return _module().rng_shuffle((seed & _MASK64).to_bytes(8, "little"), items)


def static_games(
    setting: Setting,
    maps: Sequence[Blob],
    seeds: Sequence[int],
    first_players: Sequence[int],
    *,
    penalties: Sequence[float] | None = None,
    wordmap: bool = True,
) -> list[GameResultRow]:
    """Whole games of the static player from an empty board, one per seed (any int,
    read modulo 2**64 as `lexiko.rng.Rng` does), seat ``first_players[i]`` first in game ``i``, dealt from the setting's
    full bag as `Game` deals it; each seat values leaves by its map
    in ``maps``. What `lexiko.bots.playout.static_games` calls.

    >>> from lexiko.leaves import LeaveTable
    >>> from lexiko.rules import TOURNAMENT
    >>> setting = Setting.of(Lexicon.from_words(["QI", "AA"]), TOURNAMENT)
    >>> maps = [LeaveTable.zeros().packed() or b""] * 2
    >>> [row[4] for row in static_games(setting, maps, [1, 2], [0, 1])]
    ['scoreless', 'scoreless']
    """
    lex, lay, rules = setting.lexicon, setting.layout, setting.rules
    return _module().static_games(
        lex.kwg,
        lex.depths,
        lex.anagrams,
        lay.size,
        lay.letter_mult,
        lay.word_mult,
        rules.values,
        rules.bingo_tiles,
        rules.bonuses,
        rules.first_min,
        lay.start[0],
        lay.start[1],
        lay.first_dirs,
        rules.play,
        rules.bag,
        list(maps),
        b"".join((s & _MASK64).to_bytes(8, "little") for s in seeds),
        bytes(first_players),
        None if penalties is None else [float(x) for x in penalties],
        lex.wordmap if wordmap else None,
    )


SimCandidate = tuple[int, int, int, int, bytes, int, int]
"""A candidate of `simulate`: kind (0 play, 1 exchange, 2 pass), row, column,
down, tiles, score, and its number (the seed of its shuffles)."""


def simulate(
    setting: Setting,
    board: Board,
    leave_map: Blob,
    candidates: Sequence[SimCandidate],
    *,
    rack: bytes,
    unseen: bytes,
    opp_sizes: bytes,
    scores: Sequence[int],
    scoreless_run: int,
    plies: int,
    seed_base: int,
    iterations: range,
    known: Sequence[bytes] | None = None,
    wordmap: bool = True,
) -> list[list[tuple[float, float]]]:
    """The simulation's play-outs of `lexiko.bots.simulation` for ``iterations``: per
    iteration, per candidate, (value, win estimate). Iteration ``i`` shuffles ``unseen``
    by the seed ``seed_base + i`` (any int, modulo 2**64), deals the opponents' racks
    (``opp_sizes``) and leaves the rest as the bag; candidate ``j`` shuffles by the seed
    ``seed_base + i + 7919 * (number + 1)``; then ``plies`` static turns follow, every
    seat valuing leaves by ``leave_map``. ``scores``: the player's first. ``known``: per
    iteration, tiles the first opponent holds for sure. What
    `lexiko.bots.playout.simulate_iterations` calls.

    >>> from lexiko.leaves import LeaveTable
    >>> from lexiko.tiles import ENGLISH
    >>> from lexiko.rules import TOURNAMENT
    >>> setting = Setting.of(Lexicon.from_words(["QI", "AA"]), TOURNAMENT)
    >>> pas = (2, 0, 0, 0, b"", 0, 0)
    >>> rows = simulate(setting, Board.empty(), LeaveTable.zeros().packed() or b"", [pas],
    ...     rack=bytes(ENGLISH.parse("QI")), unseen=bytes(ENGLISH.parse("AA")), opp_sizes=b"\\x02",
    ...     scores=[0, 0], scoreless_run=0, plies=2, seed_base=0, iterations=range(3))
    >>> len(rows), len(rows[0])
    (3, 1)
    """
    lex, lay, rules = setting.lexicon, setting.layout, setting.rules
    return _module().simulate(
        lex.kwg,
        lex.depths,
        lex.anagrams,
        lay.size,
        board.cells,
        lay.letter_mult,
        lay.word_mult,
        rules.values,
        rules.bingo_tiles,
        rules.bonuses,
        rules.first_min,
        lay.start[0],
        lay.start[1],
        lay.first_dirs if board.is_empty else 2,
        rules.play,
        leave_map,
        rack,
        unseen,
        opp_sizes,
        list(scores),
        scoreless_run,
        list(candidates),
        plies,
        (seed_base & _MASK64).to_bytes(8, "little"),
        iterations.start,
        iterations.stop,
        lex.wordmap if wordmap else None,
        None if known is None else list(known),
    )


# -- endgames ----------------------------------------------------------------------------


class EndgameResult(NamedTuple):
    """What `endgame` found: the value of the position (spread gained from here, for
    the player on turn), whether the search was complete, its depth, the nodes searched,
    and the principal variation."""

    value: int
    complete: bool
    depth: int
    nodes: int
    line: list[MoveRow]


def endgame(
    setting: Setting,
    board: Board,
    me: bytes,
    opp: bytes,
    *,
    scoreless_run: int,
    max_depth: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[EndgameResult], None] | None = None,
    cut: bool = True,
) -> EndgameResult:
    """A two-player endgame (empty bag) solved in the kernel: ``me`` the rack of the
    player on turn, ``opp`` the other's (tile codes), ``scoreless_run`` the scoreless
    turns so far; ``max_depth`` plies at most (None: no limit), ``time_limit`` seconds
    (None: none; the clock, read every few nodes from the first ply on, stops it with
    the best move valued so far, depth 0, when no depth is finished; the lexicon's cut
    gets a quarter of it). ``progress`` is called with the result of each depth.
    ``cut``: search a lexicon cut to the words the racks can make (the same result,
    faster). What `lexiko.bots.endgame.solve_position` calls.

    >>> from lexiko.tiles import ENGLISH
    >>> from lexiko.move import Place
    >>> from lexiko.rules import TOURNAMENT
    >>> setting = Setting.of(Lexicon.from_words(["QI", "AT", "TA"]), TOURNAMENT)
    >>> board = Board.empty().place(Place(7, 7, False, ENGLISH.parse("AT")))
    >>> r = endgame(setting, board, bytes(ENGLISH.parse("Q")), bytes(ENGLISH.parse("I")), scoreless_run=0)
    >>> r.complete, r.line[0][0]
    (True, 2)
    """
    lex, lay, rules = setting.lexicon, setting.layout, setting.rules

    def report(value: int, complete: int, depth: int, nodes: int, line: list[MoveRow]) -> None:
        assert progress is not None
        progress(EndgameResult(value, bool(complete), depth, nodes, line))

    value, complete, depth, nodes, line = _module().endgame(
        lex.kwg,
        lex.depths,
        lex.anagrams,
        lay.size,
        board.cells,
        lay.letter_mult,
        lay.word_mult,
        rules.values,
        rules.bingo_tiles,
        rules.bonuses,
        lay.start[0],
        lay.start[1],
        me,
        opp,
        scoreless_run,
        rules.scoreless_turn_limit,
        -1 if max_depth is None else max_depth,
        0.0 if time_limit is None else max(time_limit, 1e-6),
        None if progress is None else report,
        cut,
    )
    return EndgameResult(value, bool(complete), depth, nodes, line)


# -- the core of lexiko.rl's environments --------------------------------------------------

RLInfo = tuple[int, bool, tuple[int, ...], tuple[int, ...], int, "str | None", int]
"""(player on turn, over, scores, scores before the end's adjustments, tiles in the bag,
why the game ended, candidates open)."""

RLMove = tuple[int, int, int, int, bytes, int, float]
"""A move of `rl_log` and `rl_candidates`: a `MoveRow` and its equity."""

_OBSERVED = ("board", "rack", "unseen", "scores", "bag", "candidates", "action_mask")


def rl_new(
    setting: Setting,
    leave_map: Blob | None,
    *,
    slots: int,
    premiums: bytes,
    wordmap: bool = True,
) -> RLCore:
    """A game held in the kernel under ``setting``: ``slots`` candidate slots, equity by
    ``leave_map`` (None: the score), ``premiums`` a byte per square (1-6 the premium
    plane of `lexiko.rl.core.PREMIUMS`, 0 none). Start it with `rl_deal` or
    `rl_reset`.

    >>> from lexiko.rules import TOURNAMENT
    >>> setting = Setting.of(Lexicon.from_words(["QI", "AA"]), TOURNAMENT)
    >>> core = rl_new(setting, None, slots=4, premiums=bytes(225))
    >>> rl_deal(core, 1, setting.rules.bag, 2, draw_for_first=False)
    0
    """
    lex, lay, rules = setting.lexicon, setting.layout, setting.rules
    return _module().rl_new(
        lex.kwg,
        lex.depths,
        lex.anagrams,
        lay.size,
        lay.letter_mult,
        lay.word_mult,
        rules.values,
        rules.bingo_tiles,
        rules.bonuses,
        rules.first_min,
        lay.start[0],
        lay.start[1],
        lay.first_dirs,
        rules.play,
        leave_map,
        slots,
        premiums,
        rules.letters,
        lex.wordmap if wordmap else None,
    )


def rl_deal(core: RLCore, seed: int, bag: bytes, players: int, *, draw_for_first: bool) -> int:
    """Start a new game as ``Game(players, seed=seed)`` deals it from the full ``bag``
    (any int, modulo 2**64); the first player. See `lexiko.rl.core.Core.deal`."""
    return _module().rl_deal(core, (seed & _MASK64).to_bytes(8, "little"), bag, players, draw_for_first)


def rl_reset(core: RLCore, position: Position, rng: RngState) -> None:
    """Start from ``position``, the generator in state ``rng``."""
    _module().rl_reset(
        core,
        position.board.cells,
        list(position.racks),
        position.bag,
        list(position.scores),
        position.turn,
        position.scoreless_run,
        rng,
    )


def rl_step(core: RLCore, action: int) -> bool:
    """Make candidate ``action`` of the player on turn; whether the game is over."""
    return _module().rl_step(core, action)


def rl_static_turns(core: RLCore, seat: int) -> bool:
    """The other seats play as the static player until ``seat`` is on turn; whether the
    game is over."""
    return _module().rl_static_turns(core, seat)


def rl_observe(core: RLCore, seat: int, on_turn: bool, out: Mapping[str, object]) -> None:
    """Fill the arrays of ``out`` (``board``, ``rack``, ``unseen``, ``scores``, ``bag``,
    ``candidates``, ``action_mask``, shaped as `lexiko.rl.Observer`'s space) with
    what ``seat`` sees; the candidates and mask only when ``on_turn``."""
    k = _module()
    k.rl_observe(core, seat, on_turn, *(out[name] for name in _OBSERVED))


def rl_info(core: RLCore) -> RLInfo:
    """See `RLInfo`."""
    return _module().rl_info(core)


def rl_log(core: RLCore, start: int) -> list[RLMove]:
    """The moves made from move ``start`` on."""
    return _module().rl_log(core, start)


def rl_candidates(core: RLCore) -> list[tuple[RLMove, bytes]]:
    """The candidates of the player on turn, each with the tiles it keeps."""
    return _module().rl_candidates(core)
