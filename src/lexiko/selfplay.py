"""Self-play: computer players against each other, many games, in parallel.

`play_game` plays one game between `Player` objects;
`autoplay` plays many between kinds of player (``"static"``, ``"greedy"`` ...),
alternating who starts, on a `concurrent.futures.Executor` (a process pool of
``jobs`` workers by default, each loading the lexicon once), and returns
`Stats`: win rates with 95% confidence intervals, mean scores, bingos, speed.
Every game depends only on the seed and its number, never on ``jobs`` or chunking.

>>> from lexiko.lexicon import Lexicon
>>> stats = autoplay(["greedy", "random"], 2, lexicon=Lexicon.from_words(["AB", "BA", "AA"]), seed=1)
>>> stats.games, stats.players
(2, ['greedy', 'random'])
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeAlias, TypeVar

from lexiko.errors import GameStateError
from lexiko.game import Accept, Challenge, Event, Game
from lexiko.lexicon import BUILTIN, Lexicon
from lexiko.move import Move, Place
from lexiko.progress import Progress as _Progress
from lexiko.rules import TOURNAMENT, Rules
from lexiko.tiles import TileSet, tile_set

if TYPE_CHECKING:
    from lexiko.bots.base import Player
    from lexiko.bots.playout import Playout
    from lexiko.duplicate import DuplicateGame
    from lexiko.leaves import LeaveTable

__all__ = [
    "play_game",
    "autoplay",
    "autoplay_duplicate",
    "DuplicateStats",
    "Stats",
    "GameSummary",
    "Observer",
    "Progress",
    "wilson_interval",
    "game_seed",
]

Progress = _Progress
"""``progress(phase, done, total)`` (`lexiko.progress.Progress`); `autoplay`
reports phase ``"games"``."""

LexiconSpec: TypeAlias = Lexicon | tuple[str, str]
"""What a worker needs to get the lexicon: the object, or (name, tile set) to load."""

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

_T = TypeVar("_T")
_R = TypeVar("_R")


class Observer(Protocol):
    """Called by `play_game` after each move: the game (after the move), the
    player, their rack before it, the move and the event recorded."""

    def __call__(self, game: Game, player: int, rack: tuple[int, ...], move: Move, event: Event | None) -> None: ...


# -- one game --------------------------------------------------------------------------


def play_game(
    players: Sequence[Player],
    rules: Rules = TOURNAMENT,
    lexicon: Lexicon | None = None,
    seed: int | None = None,
    *,
    first_player: int = 0,
    observer: Observer | None = None,
    max_turns: int = 2000,
) -> Game:
    """Play a whole game between computer players (in seat order; ``first_player``
    starts) and return it.

    ``lexicon`` judges the words: with None (the default, and fastest) every word
    stands and nobody is asked to challenge, which is right for players that play only
    words of their own lexicon; with a lexicon, each player on turn is asked
    ``wants_challenge`` after a play (under a rule with challenges) and phonies are
    refused (under the void rule). A play that ends the game is accepted unless
    challenged.

    >>> from lexiko.bots import GreedyBot
    >>> lex = Lexicon.from_words(["AB", "BA", "AA"])
    >>> g = play_game([GreedyBot(lex, "one"), GreedyBot(lex, "two")], seed=3)
    >>> g.is_over, g.players
    (True, ['one', 'two'])
    """
    from lexiko.bots.static import StaticBot

    names = _unique([p.name for p in players])
    game = Game(names, rules, seed=seed, lexicon=lexicon, first_player=first_player)
    turns = 0
    while not game.is_over:
        if game.awaiting_challenge:
            challenger = game.player_on_turn
            if lexicon is not None and players[challenger].wants_challenge(game):
                game.apply(Challenge(), player=challenger)
                continue
            if game.awaiting_final_challenge:
                game.apply(Accept(), player=challenger)
                continue
        p = game.player_on_turn
        rack = game.rack(p) if observer is not None else ()
        player = players[p]
        if type(player) is StaticBot:  # the generator's candidate: Game trusts it (a subclass may choose otherwise)
            cand = player.candidate(game)
            move = cand.move
            event = game.apply(cand, player=p)
        else:
            move = player.choose(game)
            event = game.apply(move, player=p)
        if observer is not None:
            observer(game, p, rack, move, event)
        turns += 1
        if turns > max_turns:
            raise GameStateError(f"the game did not end after {max_turns} turns")
    return game


def _unique(names: Sequence[str]) -> list[str]:
    """Names made distinct by numbering the repeated ones: greedy 1, greedy 2."""
    out = []
    for i, n in enumerate(names):
        out.append(f"{n} {i + 1}" if names.count(n) > 1 else n)
    return out


def game_seed(seed: int, index: int, salt: str = "") -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (a hash of both, so that
    runs with nearby seeds share no game).

    >>> game_seed(1, 0) == game_seed(1, 0) != game_seed(0, 1)
    True
    """
    return random.Random(f"lexiko/{salt}/{seed}/{index}").getrandbits(63)


# -- results ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSummary:
    """What `Stats` keeps of a game, by seat (the order of the kinds)."""

    index: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    bingos: tuple[int, ...]
    turns: int
    end_reason: str | None

    @classmethod
    def of(cls, index: int, game: Game) -> GameSummary:
        n = len(game.players)
        bingos = [0] * n
        bingo_tiles = game.rules.bingo_tiles
        turns = 0
        for ev in game.history:
            if ev.kind in ("play", "exchange", "pass"):
                turns += 1
            if isinstance(ev.move, Place) and ev.move.tile_count >= bingo_tiles:
                if ev.kind == "play":
                    bingos[ev.player] += 1
                elif ev.kind == "withdrawn":
                    bingos[ev.player] -= 1
        winners = tuple(game.winners()) if not game.rules.teams else ()
        return cls(index, tuple(game.scores), winners, tuple(bingos), turns, game.end_reason)

    @classmethod
    def of_playout(cls, index: int, r: Playout, rules: Rules) -> GameSummary:
        """The summary of a game played in the kernel (`lexiko.bots.playout.play_out`)."""
        return cls(index, r.scores, _winners(r.scores, r.scores_before_end, rules), r.bingos, r.turns, r.end_reason)


def _winners(scores: Sequence[int], before: Sequence[int], rules: Rules) -> tuple[int, ...]:
    """`Game.winners` of a game without teams or forfeits, from its final scores
    and those before the end's adjustments."""
    best = max(scores)
    top = [p for p, x in enumerate(scores) if x == best]
    if len(top) > 1 and rules.tiebreak == "before-adjustment" and before:
        best_before = max(before[p] for p in top)
        top = [p for p in top if before[p] == best_before]
    return tuple(top)


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``successes`` may count ties as halves).

    >>> lo, hi = wilson_interval(60, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.502, 0.6906)
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n)))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Stats:
    """Results of `autoplay`, by seat (the order the kinds were given).

    A win counts 1, a shared first place ``1/k`` to each of the ``k`` players sharing
    it; `win_rate` is that total over the games, `win_interval` its 95%
    Wilson interval.

    >>> s = Stats(["a", "b"])
    >>> s.add(GameSummary(0, (400, 350), (0,), (2, 1), 24, "out"))
    >>> s.add(GameSummary(1, (380, 380), (0, 1), (1, 0), 25, "out"))
    >>> s.win_rate(0), s.ties, s.mean_score(1), s.bingos_per_game(0)
    (0.75, 1, 365.0, 1.5)
    """

    players: list[str]
    games: int = 0
    ties: int = 0
    wins: list[int] = field(default_factory=list)
    points: list[float] = field(default_factory=list)
    score_total: list[int] = field(default_factory=list)
    bingos: list[int] = field(default_factory=list)
    #: Every game's final score, by seat (for distributions).
    scores: list[list[int]] = field(default_factory=list)
    turns: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    jobs: int = 1

    def __post_init__(self) -> None:
        n = len(self.players)
        for name in ("wins", "points", "score_total", "bingos"):
            if not getattr(self, name):
                setattr(self, name, [0] * n if name != "points" else [0.0] * n)
        if not self.scores:
            self.scores = [[] for _ in range(n)]

    def add(self, g: GameSummary) -> None:
        """Count one game."""
        self.games += 1
        self.turns += g.turns
        if len(g.winners) == 1:
            self.wins[g.winners[0]] += 1
        elif g.winners:
            self.ties += 1
        for w in g.winners:
            self.points[w] += 1 / len(g.winners)
        for i, (s, b) in enumerate(zip(g.scores, g.bingos, strict=True)):
            self.score_total[i] += s
            self.bingos[i] += b
            self.scores[i].append(s)

    def win_rate(self, seat: int) -> float:
        """Share of the games won (ties shared)."""
        return self.points[seat] / self.games if self.games else 0.0

    def win_interval(self, seat: int, z: float = Z95) -> tuple[float, float]:
        """95% Wilson confidence interval of `win_rate`."""
        return wilson_interval(self.points[seat], self.games, z)

    def mean_score(self, seat: int) -> float:
        return self.score_total[seat] / self.games if self.games else 0.0

    def bingos_per_game(self, seat: int) -> float:
        return self.bingos[seat] / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        """Games per second of wall-clock time, all jobs together."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def games_per_cpu_second(self) -> float:
        """Games per second of processor time (one core's rate, whatever the load)."""
        return self.games / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    def summary(self) -> str:
        """The figures as lines of text."""
        lines = []
        w = max(len(p) for p in self.players)
        for i, p in enumerate(self.players):
            lo, hi = self.win_interval(i)
            lines.append(
                f"{p:<{w}}  wins {self.wins[i]:>5}  win rate {self.win_rate(i):6.1%} (95% CI {lo:.1%}-{hi:.1%})  "
                f"mean score {self.mean_score(i):6.1f}  bingos/game {self.bingos_per_game(i):.2f}"
            )
        lines.append(
            f"{self.games} games, {self.ties} tied, {self.turns / max(1, self.games):.1f} turns a game; "
            f"{self.seconds:.1f} s on {self.jobs} job{'s' if self.jobs != 1 else ''}: "
            f"{self.games_per_second:.1f} games/s, {self.games_per_cpu_second:.1f} games per CPU-second"
        )
        return "\n".join(lines)


# -- workers -------------------------------------------------------------------------------

_worker_lexicons: dict[tuple[str, str], Lexicon] = {}
_worker_default: Lexicon | None = None


def lexicon_spec(lexicon: Lexicon | str, tiles: TileSet) -> LexiconSpec:
    """What workers need to get the lexicon: a built-in lexicon or a file travels by
    name (each worker loads the compiled cache), any other travels whole."""
    if isinstance(lexicon, str):
        return (lexicon, tiles.name)
    if lexicon.name.upper() in BUILTIN:
        return (lexicon.name, lexicon.tiles.name)
    return lexicon


def worker_lexicon(spec: LexiconSpec | None) -> Lexicon:
    """The lexicon of a spec, loaded once per process (None: the pool's initializer's)."""
    if spec is None:
        if _worker_default is None:
            raise RuntimeError("no lexicon: the worker was not initialised")
        return _worker_default
    if isinstance(spec, Lexicon):
        return spec
    lex = _worker_lexicons.get(spec)
    if lex is None:
        lex = _worker_lexicons[spec] = Lexicon.load(spec[0], tile_set(spec[1]))
    return lex


def _init_worker(spec: LexiconSpec) -> None:
    global _worker_default
    _worker_default = worker_lexicon(spec)


def run_chunks(
    fn: Callable[[_T], _R], tasks: Sequence[_T], *, jobs: int, executor: Executor | None, spec: LexiconSpec
) -> Iterator[_R]:
    """Results of ``fn`` over ``tasks`` as they finish: on ``executor``, on a process
    pool of ``jobs`` workers that load the lexicon of ``spec`` once, or in this process."""
    if executor is None and jobs <= 1:
        for t in tasks:
            yield fn(t)
        return
    own = executor is None
    ex = executor if executor is not None else ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(spec,))
    futures: list[Future[_R]] = []
    try:
        futures = [ex.submit(fn, t) for t in tasks]
        for f in as_completed(futures):
            yield f.result()
    finally:
        for f in futures:
            f.cancel()
        if own:
            ex.shutdown(wait=True, cancel_futures=True)


@dataclass(frozen=True)
class _PlayTask:
    spec: LexiconSpec | None
    kinds: tuple[str, ...]
    names: tuple[str, ...]
    rules: Rules
    seed: int
    games: tuple[int, ...]
    gcg_dir: str | None


@dataclass(frozen=True)
class _PlayResult:
    games: list[GameSummary]
    cpu: float


def _kernel_tables(players: Sequence[Player], lexicon: Lexicon, rules: Rules) -> list[LeaveTable] | None:
    """The leave tables of the seats when every seat is a plain static player of
    ``lexicon`` and the kernel plays these rules (`lexiko.bots.playout`), else None."""
    from lexiko.bots import StaticBot
    from lexiko.bots.playout import unsupported

    if not all(type(p) is StaticBot and p.lexicon is lexicon for p in players):
        return None
    tables = [p.table for p in players if isinstance(p, StaticBot)]
    return tables if unsupported(rules, len(players), tables) is None else None


def _play_chunk(task: _PlayTask) -> _PlayResult:
    from lexiko import gcg
    from lexiko.bots import make_player
    from lexiko.bots.playout import play_out

    t0 = time.process_time()
    lexicon = worker_lexicon(task.spec)
    n = len(task.kinds)
    out = []
    if task.gcg_dir is None and task.games:
        # static players only: the whole chunk in one call to the kernel (a static
        # player's seed plays no part, so the first game's players stand for all)
        first = [make_player(k, lexicon, name=name) for k, name in zip(task.kinds, task.names, strict=True)]
        tables = _kernel_tables(first, lexicon, task.rules)
        names_ok = len(set(_unique([p.name for p in first]))) == n  # else Game says why not
        if tables is not None and names_ok and task.rules.min_players <= n <= task.rules.max_players:
            from lexiko.bots.playout import static_games

            seeds = [game_seed(task.seed, i) for i in task.games]
            results = static_games(seeds, [i % n for i in task.games], tables, lexicon, task.rules)
            for i, r in zip(task.games, results, strict=True):
                out.append(
                    GameSummary(
                        i,
                        r.scores,
                        _winners(r.scores, r.scores_before_end, task.rules),
                        r.bingos,
                        r.turns,
                        r.end_reason,
                    )
                )
            return _PlayResult(out, time.process_time() - t0)
    for i in task.games:
        players = [
            make_player(k, lexicon, seed=game_seed(task.seed, i, f"player-{j}"), name=name)
            for j, (k, name) in enumerate(zip(task.kinds, task.names, strict=True))
        ]
        tables = _kernel_tables(players, lexicon, task.rules) if task.gcg_dir is None else None
        if tables is not None:  # the same game, played in the kernel
            start = Game(
                _unique([p.name for p in players]),
                task.rules,
                seed=game_seed(task.seed, i),
                lexicon=None,
                first_player=i % n,
            )
            out.append(GameSummary.of_playout(i, play_out(start, tables, lexicon), task.rules))
            continue
        game = play_game(players, task.rules, seed=game_seed(task.seed, i), first_player=i % n)
        out.append(GameSummary.of(i, game))
        if task.gcg_dir is not None:
            gcg.write(game, Path(task.gcg_dir) / f"game-{i + 1:06d}.gcg")
    return _PlayResult(out, time.process_time() - t0)


def autoplay(
    kinds: Sequence[str],
    games: int,
    jobs: int = 1,
    seed: int = 0,
    executor: Executor | None = None,
    progress: Progress | None = None,
    *,
    lexicon: Lexicon | str | None = None,
    rules: Rules = TOURNAMENT,
    gcg_dir: str | os.PathLike[str] | None = None,
    chunk_size: int | None = None,
) -> Stats:
    """Play ``games`` games between players of ``kinds`` (see
    `lexiko.bots.make_player`; seat order, game ``i`` started by seat ``i % n``)
    and return the `Stats`.

    ``lexicon`` defaults to the rules' lexicon (by name). Games run in chunks on
    ``executor``, else on a process pool of ``jobs`` workers, else here (``jobs=1``).
    ``gcg_dir``: write every game there as ``game-000001.gcg`` ... ``progress(phase,
    done, total)`` is called as chunks finish.
    """
    if games < 0:
        raise ValueError("games must be 0 or more")
    if not kinds:
        raise ValueError("name the kinds of player")
    tiles = rules.tile_set
    lex = lexicon if lexicon is not None else rules.lexicon
    spec = lexicon_spec(lex, tiles)
    names = tuple(_unique([_display(k) for k in kinds]))
    if gcg_dir is not None:
        Path(gcg_dir).mkdir(parents=True, exist_ok=True)
    workers = 1 if executor is None and jobs <= 1 else max(1, jobs)
    size = chunk_size or max(1, min(100, games // (workers * 8) or 1))
    pooled = executor is None and jobs > 1
    tasks = [
        _PlayTask(
            None if pooled else spec,
            tuple(kinds),
            names,
            rules,
            seed,
            tuple(range(lo, min(games, lo + size))),
            str(gcg_dir) if gcg_dir is not None else None,
        )
        for lo in range(0, games, size)
    ]
    stats = Stats(list(names), jobs=workers)
    started = time.perf_counter()
    if progress:
        progress("games", 0, games)
    for res in run_chunks(_play_chunk, tasks, jobs=jobs, executor=executor, spec=spec):
        for g in res.games:
            stats.add(g)
        stats.cpu_seconds += res.cpu
        if progress:
            progress("games", stats.games, games)
    stats.seconds = time.perf_counter() - started
    return stats


@dataclass
class DuplicateStats:
    """Figures of duplicate games between computer players: each player's totals and
    percentages of the top, games won (the best total; a shared best shares the win)."""

    players: list[str]
    games: int = 0
    totals: list[list[int]] = field(default_factory=list)
    tops: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, game: DuplicateGame) -> None:
        if not self.totals:
            self.totals = [[] for _ in self.players]
            self.wins = [0.0] * len(self.players)
        scores = [game.totals[p] for p in game.players]
        for i, t in enumerate(scores):
            self.totals[i].append(t)
        best = max(scores)
        winners = [i for i, t in enumerate(scores) if t == best]
        for i in winners:
            self.wins[i] += 1 / len(winners)
        self.tops.append(game.top_total)
        self.rounds.append(len(game.rounds))
        self.games += 1

    def mean_total(self, i: int) -> float:
        return sum(self.totals[i]) / max(1, self.games)

    def percentage(self, i: int) -> float:
        """The player's points over all games as a percentage of the tops'."""
        return 100.0 * sum(self.totals[i]) / max(1, sum(self.tops))


def autoplay_duplicate(
    kinds: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    lexicon: Lexicon,
    rules: Rules,
    record_dir: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
) -> DuplicateStats:
    """Play ``games`` duplicate games between computer players of ``kinds`` (game ``i``
    seeded by ``game_seed(seed, i)``). ``record_dir``: write each game's duplicate
    record (``game-000001.dup``) and its tops as GCG (``game-000001.gcg``)."""
    from lexiko import duplicate
    from lexiko.bots import make_player

    names = _unique([_display(k) for k in kinds])
    stats = DuplicateStats(list(names))
    started = time.perf_counter()
    for i in range(games):
        s = game_seed(seed, i, "duplicate")
        bots = {
            name: make_player(kind, lexicon, seed=s + j)
            for j, (name, kind) in enumerate(zip(names, kinds, strict=True))
        }
        game = duplicate.autoplay(bots, rules.replace(duplicate_seconds=None), seed=s, lexicon=lexicon)
        stats.add(game)
        if record_dir is not None:
            base = Path(record_dir) / f"game-{i + 1:06d}"
            base.with_suffix(".dup").write_text(duplicate.dumps(game), encoding="utf-8")
            base.with_suffix(".gcg").write_text(duplicate.top_gcg(game), encoding="utf-8")
        if progress:
            progress("games", i + 1, games)
    stats.seconds = time.perf_counter() - started
    return stats


def _display(kind: str) -> str:
    """A player's name from its kind: ``static:path/to/t.tsv.gz`` becomes ``static:t``."""
    base, _, arg = kind.partition(":")
    if not arg:
        return kind
    stem = Path(arg).name
    for suffix in (".gz", ".tsv"):
        stem = stem.removesuffix(suffix)
    return f"{base}:{stem}"
