"""A strength match: a lexiko computer player against MAGPIE's static player (or its simulation).

Every game is played in lexiko's ``Game`` (tournament rules, TWL06, the bag seeded):
lexiko's rules check and score MAGPIE's moves as they check any player's. On MAGPIE's
turn the position (board, both racks, scores, scoreless turns) goes to a MAGPIE
process as a CGP line and MAGPIE's best move by static equity comes back; it is read
into a lexiko move and applied the normal, checked way. A move lexiko refuses, one
that forms a word not in the lexicon, one MAGPIE scores differently, or an answer
that cannot be read stops the run with the game, the turn and the position sent (a bug
in one engine or the other).

MAGPIE is a C engine the user builds from its public source (GPL); nothing of it is
part of lexiko: this script only starts the program and talks to it over its
interactive console. Give the folder of a built checkout (``bin/magpie`` and
``data/``, with ``data/lexica/TWL06.kwg`` and ``TWL06.klv2``; the word map
``TWL06.wmp`` is used when it is there).

How MAGPIE is played. One process per worker, started once and kept on pipes for the
whole run, in a private folder that links MAGPIE's ``data/`` (so no ``settings.txt``
of another run is read, and none is written). It starts with ``set -lex TWL06 -r1
best -r2 best ...``: its defaults for the lexicon (its TWL06.klv2 leaves, its own
equity adjustments), keeping only the best move, as its autoplay's static player
does. Each of its turns is then three commands written at once and one read::

    cgp <board> <its rack>/<lexiko's rack> <scores> <scoreless turns>
    generate
    version

``generate`` prints the top move (``1:  D8 (W)EDGIE AL 22 22.92``: move, leave,
score, equity; ``(exch ABC)`` and ``pass`` for the others); ``version`` prints a known
line that marks the end of the answer. Both racks are sent so that MAGPIE counts the
bag right; its static evaluation reads the opponent's rack only once the bag is empty,
when the unseen tiles are that rack anyway.

MAGPIE's simulation (``--opponent sim``) is asked the same way, with ``gsimulate`` for
``generate`` and its own rack alone (it draws the other from the tiles it cannot see, as
lexiko's simulation does), the options of its simulation set when it starts (hard's
size unless ``--magpie-set KEY=VALUE`` says otherwise: :data:`SIM_DEFAULTS`); the first
line of its results is its choice (``1:  8G QI AERST 22 - 70.94 ...``: move, leave,
score, a mark, win percentage and more figures).

Games are paired: each deal (seed) is played twice, lexiko starting one game and
MAGPIE the other, so ``--games N`` plays N/2 deals. The figures: lexiko's win rate
(ties count half) with its 95% Wilson interval, the mean scores, the win rate by who
started, exchanges and bingos a game for each side, games per second, and each side's
time a turn (lexiko's in processor seconds too). ``--set KEY=VALUE`` passes options to
lexiko's player (``lexiko.bots.make_player``): the simulation's candidates,
iterations, plies, prune, infer, rank, time_limit.
While the games run, a bar shows how many are done; when standard error is not a
terminal (``nohup``, a log), a line a minute says it instead.

    python benchmarks/strength.py --magpie ~/src/MAGPIE --games 200
    python benchmarks/strength.py --magpie ~/src/MAGPIE --games 2000 --jobs 2 --seed 1
    python benchmarks/strength.py --magpie ~/src/MAGPIE --games 2000 --players static:leaves.tsv.gz
    python benchmarks/strength.py --magpie ~/src/MAGPIE --games 2000 \\
        --players static:$HOME/src/MAGPIE/data/lexica/TWL06.klv2   # MAGPIE's own leave values
    python benchmarks/strength.py --magpie ~/src/MAGPIE --games 200 --players hard --set rank=win

The late game alone: with ``--late K`` lexiko's static player moves until the bag holds K
tiles or fewer, so two runs of the same seed are the same games up to there; ``--save``
keeps a run's results and ``--against`` compares a later run with it game by game::

    python benchmarks/strength.py --magpie ~/src/MAGPIE --games 800 --jobs 2 --seed 11 --late 7 \\
        --players hard --set finish=0 --save before.json
    python benchmarks/strength.py --magpie ~/src/MAGPIE --games 800 --jobs 2 --seed 11 --late 7 \\
        --players hard --against before.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing.util import Finalize
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from lexiko import cgp
from lexiko.board import Board
from lexiko.bots import StaticBot, make_player
from lexiko.bots.base import last_play_is_phony
from lexiko.cli.argtypes import non_negative_int, positive_int
from lexiko.cli.progress import WorkProgress
from lexiko.errors import LexikoError, NotationError
from lexiko.game import Accept, Game
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Move, Pass, Place, parse_move, parse_tiles
from lexiko.rules import TOURNAMENT, Rules
from lexiko.selfplay import GameSummary, Stats, game_seed, wilson_interval

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peers import child_cpu, magpie_cgp  # noqa: E402

LEXIKO, MAGPIE = 0, 1
"""The seats: lexiko's player sits first, MAGPIE second; who starts alternates."""


class MatchError(Exception):
    """The match cannot go on: MAGPIE failed, or a move of its was refused or unreadable."""


# -- MAGPIE's answers ----------------------------------------------------------------------

_MOVE_LINE = re.compile(
    r"^\s*1:\s+(?P<move>pass|\(exch (?P<exch>[^)\s]+)\)|(?P<square>[0-9A-Za-z]+) (?P<word>\S+))"
    r"\s+(?:(?P<leave>[A-Za-z?]+)\s+)?(?P<score>-?\d+)\s+"
    r"(?:(?P<equity>-?\d+\.\d+)|\S\s+(?P<win>-?\d+\.\d+)(?:\s+-?\d+\.?\d*)+)\s*$"
)


@dataclass(frozen=True)
class MagpieMove:
    """MAGPIE's top move as it wrote it, read into a lexiko move: with its static
    equity (``generate``), or the win percentage its simulation gave it (``gsimulate``)."""

    text: str
    move: Move
    leave: str
    score: int
    equity: float | None
    win: float | None = None


def parse_magpie_move(line: str, board: Board) -> MagpieMove:
    """Read the first line of MAGPIE's move list (``generate`` with ``-hr false``): the
    move (``8D WORD`` or ``D8 WORD``, blanks in lower case, letters played through in
    parentheses; ``(exch ABC?)``; ``pass``), the leave (nothing when empty), the score
    and the equity; or of its simulation's results (``gsimulate``): the move, leave and
    score, a one-letter column, the win percentage and the rest of the simulation's
    figures. ``board`` is the position's, to place the move on. Raises
    :class:`~lexiko.errors.NotationError` when the line is not such a line.

    >>> from lexiko.board import Board
    >>> mm = parse_magpie_move("1:  8G QI     AERST  22 - 70.94 2.2464 74.63 5.8389 51.05 10 18.20", Board.empty())
    >>> mm.move.notation(), mm.leave, mm.score, mm.equity, mm.win
    ('8G QI', 'AERST', 22, None, 70.94)
    """
    m = _MOVE_LINE.match(line)
    if m is None:
        raise NotationError(f"not a line of MAGPIE's move list: {line.strip()!r}")
    tiles = board.tiles
    move: Move
    if m["move"] == "pass":
        move = Pass()
    elif m["exch"] is not None:
        move = Exchange(parse_tiles(m["exch"], tiles))
    else:
        move = parse_move(f"{m['square']} {m['word']}", tiles, board)
    equity = None if m["equity"] is None else float(m["equity"])
    win = None if m["win"] is None else float(m["win"])
    return MagpieMove(m["move"], move, m["leave"] or "", int(m["score"]), equity, win)


# -- the MAGPIE process --------------------------------------------------------------------


SIM_DEFAULTS = {
    "plies": "2", "numplays": "10", "iterations": "1000", "minplayiterations": "100", "scondition": "99",
    "tlim": "60", "sinfer": "false",
}  # fmt: skip
"""MAGPIE's simulation as ``--opponent sim`` plays it unless ``--magpie-set`` says
otherwise: hard's size (its 10 best plays, 2 plies, 100 play-outs each: ``iterations``
caps a move's play-outs in all, ``minplayiterations`` is a floor for each play, 500 by
MAGPIE's default), its stopping rule at 99%, no inference."""


def magpie_settings(root: Path, lexicon: str, sim: dict[str, str] | None = None) -> list[str]:
    """The options MAGPIE starts with: the lexicon (its leaves follow, by its defaults),
    its word map when the file is there, one thread, commands run in turn, plain
    output, no settings saved; for its static player only the best move kept
    (``-r1/-r2 best``, ranked by equity), for its simulation (``sim``: options as
    ``-KEY VALUE``, over :data:`SIM_DEFAULTS`) every move, the best ``numplays`` simulated.

    >>> magpie_settings(Path("/nowhere"), "TWL06", {"tlim": "1"})[:6]
    ['-lex', 'TWL06', '-wmp', 'false', '-r1', 'all']
    >>> " ".join(magpie_settings(Path("/nowhere"), "TWL06", {"tlim": "1"})[-14:])
    '-plies 2 -numplays 10 -iterations 1000 -minplayiterations 100 -scondition 99 -tlim 1 -sinfer false'
    """
    wmp = (root / "data" / "lexica" / f"{lexicon}.wmp").exists()
    kept = "best" if sim is None else "all"
    extra = [] if sim is None else [x for k, v in {**SIM_DEFAULTS, **sim}.items() for x in (f"-{k}", v)]
    return [
        "-lex", lexicon, "-wmp", "true" if wmp else "false",
        "-r1", kept, "-r2", kept, "-s1", "equity", "-s2", "equity",
        "-threads", "1", "-mode", "sync", "-hr", "false", "-shwithmoves", "false",
        "-shprompt", "false", "-savesettings", "false", *extra,
    ]  # fmt: skip


class Magpie:
    """One MAGPIE process on pipes, asked for its move position after position: its best
    by static equity, or with ``sim`` (its options, :func:`magpie_settings`) the one its
    simulation ranks first."""

    def __init__(self, root: Path, lexicon: str = "TWL06", sim: dict[str, str] | None = None) -> None:
        self.root = root.resolve()
        self.lexicon = lexicon
        self.sim = None if sim is None else {**SIM_DEFAULTS, **sim}  # the options it simulates with, all of them
        self.settings = magpie_settings(self.root, lexicon, sim)
        self.folder = tempfile.mkdtemp(prefix="lexiko-magpie-")
        os.symlink(self.root / "data", Path(self.folder) / "data")
        self.proc = subprocess.Popen(
            [str(self.root / "bin" / "magpie"), "set", *self.settings], cwd=self.folder, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        try:
            self._write("version\n")
            first = self._line([])
        except MatchError as e:
            self.close()
            raise MatchError(f"MAGPIE did not start: {e}") from None
        if first.startswith("(error"):
            self.close()
            raise MatchError(f"MAGPIE did not start: {first.strip()}")
        self.version = first

    def _write(self, text: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(text)
            self.proc.stdin.flush()
        except BrokenPipeError:
            assert self.proc.stdout is not None
            said = self.proc.stdout.read().strip()[-400:]
            stopped = f"MAGPIE has stopped (exit status {self.proc.wait()})"
            raise MatchError(f"{stopped}: {said}" if said else stopped) from None

    def _line(self, seen: list[str]) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            said = "".join(seen + [self.proc.stdout.read()]).strip()
            raise MatchError(f"MAGPIE has stopped (exit status {self.proc.wait()}): {said[-400:]}")
        return line

    def ask(self, commands: Sequence[str]) -> list[str]:
        """Run the commands and return the lines they printed (``version`` after them
        marks the end)."""
        self._write("".join(f"{c}\n" for c in commands) + "version\n")
        lines: list[str] = []
        while (line := self._line(lines)) != self.version:
            lines.append(line)
        return lines

    def best(self, position: str) -> str:
        """MAGPIE's top move for a CGP position (board, racks, scores, zeros): the first
        line of its move list (``generate``), or of its simulation's (``gsimulate``)."""
        lines = self.ask([f"cgp {position}", "generate" if self.sim is None else "gsimulate"])
        errors = [x.strip() for x in lines if x.startswith("(error")]
        if errors:
            raise MatchError(f"MAGPIE refused the position: {'; '.join(errors)}")
        for x in lines:
            if re.match(r"\s*1:", x):
                return x.strip()
        raise MatchError(f"MAGPIE listed no move: {''.join(lines).strip()!r}")

    def describe(self) -> str:
        wmp = "word map" if "-wmp true" in " ".join(self.settings) else "KWG (no word map)"
        if self.sim is None:
            how = "'cgp <position, both racks>' + 'generate' keeping the best move (-r1 best -r2 best, as its autoplay)"
        else:
            opts = " ".join(f"-{k} {v}" for k, v in self.sim.items())
            how = f"'cgp <position, its rack only>' + 'gsimulate' ({opts}), its first play taken"
        player = "static player" if self.sim is None else "simulation"
        return (
            f"MAGPIE {self.version.strip()} ({self.root}): its {player}, its defaults for {self.lexicon} "
            f"({self.lexicon}.klv2 leaves, {wmp}); one process per worker on pipes; each turn {how}"
        )

    def close(self) -> None:
        """End the process (end of input makes MAGPIE quit) and remove its folder."""
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        shutil.rmtree(self.folder, ignore_errors=True)


# -- games ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """What the figures need of one game (by seat: lexiko 0, MAGPIE 1)."""

    summary: GameSummary
    first_player: int
    exchanges: tuple[int, int]
    turns: tuple[int, int]
    seconds: tuple[float, float]
    cpu: float  # lexiko's turns, processor seconds of its process


@dataclass
class Match:
    """What a worker holds: its MAGPIE (its static player, or its simulation: ``opponent``),
    the lexicon, lexiko's kind of player, the rules."""

    magpie: Magpie
    lexicon: Lexicon
    kind: str
    rules: Rules
    seed: int
    options: dict[str, object] = field(default_factory=dict)  # keyword arguments of lexiko's player
    late: int | None = None  # lexiko's static player moves while the bag holds more tiles than this
    opponent: str = "static"  # MAGPIE's player: "static", or "sim" (sent its own rack only)


_match: Match | None = None


def _start(
    root: Path,
    kind: str,
    rules: Rules,
    seed: int,
    options: dict[str, object],
    late: int | None = None,
    sim: dict[str, str] | None = None,
) -> Match:
    global _match
    lexicon = Lexicon.load(rules.lexicon, rules.tile_set)
    opponent = "static" if sim is None else "sim"
    _match = Match(Magpie(root, rules.lexicon, sim), lexicon, kind, rules, seed, options, late, opponent)
    return _match


def _start_worker(
    root: Path,
    kind: str,
    rules: Rules,
    seed: int,
    options: dict[str, object],
    late: int | None = None,
    sim: dict[str, str] | None = None,
) -> None:
    """A worker's start: its own MAGPIE, ended when the worker ends."""
    m = _start(root, kind, rules, seed, options, late, sim)
    Finalize(None, m.magpie.close, exitpriority=10)


def magpie_turn(game: Game, m: Match, where: str) -> None:
    """Ask MAGPIE for its move and apply it in ``game`` the checked way; raise
    :class:`MatchError` naming ``where`` if it cannot be read, is refused, forms a word
    not in the lexicon, or scores otherwise by lexiko's rules. MAGPIE's static player is
    sent both racks (it counts the bag from them, and reads the other rack only once the
    bag is empty); its simulation only its own, as it would draw the other from the unseen tiles."""
    position = magpie_cgp(cgp.dumps(cgp.from_game(game)), m.opponent == "static")
    try:
        line = m.magpie.best(position)
    except MatchError as e:
        raise MatchError(f"{where}: {e}\n  position sent: cgp {position}") from None

    def fail(why: str) -> MatchError:
        return MatchError(f"{where}: MAGPIE's move {line!r} {why}\n  position sent: cgp {position}")

    try:
        mm = parse_magpie_move(line, game.board)
    except LexikoError as e:
        raise fail(f"cannot be read: {e}") from None
    rack = game.rack()
    try:
        event = game.apply(mm.move)
    except LexikoError as e:
        raise fail(f"is refused by lexiko's rules: {e}") from None
    assert event is not None  # a move records its event
    if isinstance(mm.move, Place) and last_play_is_phony(game, m.lexicon):
        raise fail(f"forms a word not in {m.rules.lexicon}: {', '.join(event.words)}")
    if event.score != mm.score:
        raise fail(f"scores {event.score} by lexiko's rules, {mm.score} by MAGPIE's")
    kept = Counter(rack)
    if isinstance(mm.move, Place):
        kept -= Counter(mm.move.rack_tiles())
    elif isinstance(mm.move, Exchange):
        kept -= Counter(mm.move.tiles)
    if kept != Counter(parse_tiles(mm.leave, game.tiles)):
        raise fail(f"leaves {game.tiles.format(game.tiles.rack_sort(tuple(kept.elements())))} by lexiko's count")


def play(m: Match, index: int) -> GameRecord:
    """Game ``index``: deal ``index // 2``, lexiko starting the even games, MAGPIE the odd."""
    deal, first = divmod(index, 2)
    names = [f"lexiko {m.kind}", f"MAGPIE {m.opponent}"]
    game = Game(names, m.rules, seed=game_seed(m.seed, deal), lexicon=m.lexicon, first_player=first)
    bot = make_player(m.kind, m.lexicon, seed=game_seed(m.seed, index, "player"), name=names[LEXIKO], **m.options)
    early = StaticBot(m.lexicon) if m.late is not None else None  # lexiko's moves before the late game
    turns, seconds, cpu = [0, 0], [0.0, 0.0], 0.0
    while not game.is_over:
        if game.awaiting_final_challenge:  # a play that went out: no challenge (MAGPIE's words are checked)
            game.apply(Accept())
            continue
        p = game.player_on_turn
        t = time.perf_counter()
        if p == LEXIKO:
            c = time.process_time()
            if early is not None and m.late is not None and game.bag_count > m.late:
                game.apply(early.candidate(game))
            else:
                game.apply(bot.candidate(game) if type(bot) is StaticBot else bot.choose(game))
            cpu += time.process_time() - c
        else:
            where = f"game {index + 1} (deal {deal + 1}, {names[first]} started), turn {sum(turns) + 1}"
            magpie_turn(game, m, where)
        seconds[p] += time.perf_counter() - t
        turns[p] += 1
    exchanges = [0, 0]
    for ev in game.history:
        if ev.kind == "exchange":
            exchanges[ev.player] += 1
    close = getattr(bot, "close", None)
    if close is not None:
        close()
    return GameRecord(
        GameSummary.of(index, game),
        first,
        (exchanges[0], exchanges[1]),
        (turns[0], turns[1]),
        (seconds[0], seconds[1]),
        cpu,
    )


def play_games(indices: Sequence[int]) -> list[GameRecord]:
    """Games of this worker's match (started by :func:`_start_worker` or :func:`_start`)."""
    if _match is None:
        raise RuntimeError("the worker was not started")
    return [play(_match, i) for i in indices]


def run(
    root: Path,
    kind: str,
    games: int,
    jobs: int,
    seed: int,
    rules: Rules,
    options: dict[str, object] | None = None,
    late: int | None = None,
    sim: dict[str, str] | None = None,
) -> Iterator[list[GameRecord]]:
    """The games' records, a chunk at a time as they finish: in this process with
    ``jobs`` 1, else on ``jobs`` worker processes, each with its own MAGPIE.
    ``options``: keyword arguments of lexiko's player (:func:`lexiko.bots.make_player`);
    ``late``: lexiko's static player moves until the bag holds that many tiles or fewer;
    ``sim``: MAGPIE plays its simulation with these options (:func:`magpie_settings`)."""
    options = dict(options or {})
    size = max(2, min(40, games // (jobs * 10)) // 2 * 2)  # whole deals
    chunks = [list(range(lo, min(games, lo + size))) for lo in range(0, games, size)]
    if jobs <= 1:
        m = _start(root, kind, rules, seed, options, late, sim)
        try:
            for c in chunks:
                yield play_games(c)
        finally:
            m.magpie.close()
        return
    init = (root, kind, rules, seed, options, late, sim)
    with ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=init) as pool:
        futures: list[Future[list[GameRecord]]] = [pool.submit(play_games, c) for c in chunks]
        try:
            for f in as_completed(futures):
                yield f.result()
        finally:
            for f in futures:
                f.cancel()


def describe_magpie(root: Path, lexicon: str, sim: dict[str, str] | None = None) -> str:
    """The one line on how MAGPIE was played (from a process started for the purpose)."""
    magpie = Magpie(root, lexicon, sim)
    try:
        return magpie.describe()
    finally:
        magpie.close()


# -- figures -------------------------------------------------------------------------------


FIXED_BY_DRIVER = ("lex", "wmp", "r1", "r2", "s1", "s2", "threads", "mode", "hr", "shwithmoves", "shprompt",
                   "savesettings")  # fmt: skip
"""MAGPIE's options the match sets itself (:func:`magpie_settings`), not ``--magpie-set``'s to change."""


def magpie_option(text: str) -> tuple[str, str]:
    """``--magpie-set KEY=VALUE``: an option of MAGPIE's simulation, given to it as
    ``-KEY VALUE`` (MAGPIE says what it does not know when it starts).

    >>> magpie_option("tlim=1"), magpie_option("iterations = 100000")
    (('tlim', '1'), ('iterations', '100000'))
    """
    key, eq, value = (x.strip() for x in text.partition("="))
    if not eq or not re.fullmatch(r"[a-z][a-z0-9]*", key) or not value or any(c.isspace() for c in value):
        raise argparse.ArgumentTypeError(f"{text!r}: give KEY=VALUE as MAGPIE names its options, e.g. tlim=1")
    if key in FIXED_BY_DRIVER:
        raise argparse.ArgumentTypeError(f"{text!r}: the match sets -{key} itself")
    return key, value


def player_option(text: str) -> tuple[str, object]:
    """``--set KEY=VALUE``: a keyword argument of lexiko's player, its value read as a
    number, true, false or none where it is one, else as text.

    >>> player_option("time_limit=1"), player_option("infer=true"), player_option("prune=2.5")
    (('time_limit', 1), ('infer', True), ('prune', 2.5))
    """
    key, eq, value = text.partition("=")
    key = key.strip()
    if not eq or not key.isidentifier():
        raise argparse.ArgumentTypeError(f"{text!r}: give KEY=VALUE, e.g. time_limit=1")
    words: dict[str, object] = {"true": True, "false": False, "none": None}
    v = value.strip()
    if v.lower() in words:
        return key, words[v.lower()]
    for read in (int, float):
        try:
            return key, read(v)
        except ValueError:
            pass
    return key, v


def report(
    records: Sequence[GameRecord],
    kind: str,
    rules: Rules,
    seconds: float,
    cpu: float,
    jobs: int,
    how: str,
    opponent: str = "static",
) -> list[str]:
    """The figures as lines of text (``opponent``: MAGPIE's player, static or sim)."""
    n = len(records)
    stats = Stats([f"lexiko {kind}", f"MAGPIE {opponent}"])
    for r in records:
        stats.add(r.summary)
    lo, hi = stats.win_interval(LEXIKO)
    losses = stats.wins[MAGPIE]
    by_first = []
    for first, who in ((LEXIKO, "lexiko"), (MAGPIE, "MAGPIE")):
        rs = [r for r in records if r.first_player == first]
        pts = sum(1 / len(r.summary.winners) for r in rs if LEXIKO in r.summary.winners)
        a, b = wilson_interval(pts, len(rs))
        games = f"{len(rs)} game{'s' if len(rs) != 1 else ''}"
        by_first.append(f"{who} started {pts / max(1, len(rs)):.1%} ({a:.1%}-{b:.1%}, {games})")
    per_game = [
        f"{name} {sum(r.exchanges[s] for r in records) / n:.2f} exchanges, {stats.bingos_per_game(s):.2f} bingos"
        for s, name in ((LEXIKO, "lexiko"), (MAGPIE, "MAGPIE"))
    ]
    ms = [1000 * sum(r.seconds[s] for r in records) / max(1, sum(r.turns[s] for r in records)) for s in (0, 1)]
    lexiko_cpu = 1000 * sum(r.cpu for r in records) / max(1, sum(r.turns[LEXIKO] for r in records))
    deals = f"{n // 2} deal{'s' if n // 2 != 1 else ''}"
    return [
        f"lexiko {kind} against MAGPIE {opponent}: {n} games ({deals}, each played twice, the starter swapped), "
        f"{rules.name} rules, {rules.lexicon}",
        how,
        f"lexiko win rate {stats.win_rate(LEXIKO):.1%} (95% CI {lo:.1%}-{hi:.1%}): {stats.wins[LEXIKO]} won, "
        f"{losses} lost, {stats.ties} tied",
        f"mean score: lexiko {stats.mean_score(LEXIKO):.1f}, MAGPIE {stats.mean_score(MAGPIE):.1f} "
        f"(spread {stats.mean_score(LEXIKO) - stats.mean_score(MAGPIE):+.1f})",
        f"lexiko win rate when {by_first[0]}; when {by_first[1]}",
        f"a game: {'; '.join(per_game)}",
        f"{n} games in {seconds:.1f} s on {jobs} job{'s' if jobs != 1 else ''}: {n / seconds:.1f} games/s, "
        f"{n / cpu:.1f} games per CPU-second (every process, MAGPIE's too)",
        f"a turn: lexiko {ms[0]:.2f} ms ({lexiko_cpu:.2f} ms of processor time), MAGPIE {ms[1]:.2f} ms (the pipes "
        f"and lexiko's checks included); MAGPIE's "
        f"{sum(r.turns[MAGPIE] for r in records):,} moves all passed lexiko's checks (placement, rack, exchange, "
        f"words, score, leave)",
    ]


def save(records: Sequence[GameRecord], path: Path, what: dict[str, object]) -> None:
    """Write the run (``what``: its seed, late and player) and each game's final scores,
    lexiko's first, as JSON, for a later run's ``--against``."""
    games = {str(r.summary.index): list(r.summary.scores) for r in records}
    path.write_text(json.dumps({**what, "games": games}, indent=0, sort_keys=True))


def load_run(path: Path, what: dict[str, object]) -> dict[str, Any]:
    """The run saved in ``path`` by :func:`save`, checked to be of the same seed, late
    game and MAGPIE player as this one (``what``); a :class:`ValueError` saying what is
    wrong otherwise."""
    try:
        before = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: not a run saved with --save ({e})") from None
    if not isinstance(before, dict) or not isinstance(before.get("games"), dict):
        raise ValueError(f"{path}: not a run saved with --save (no games in it)")
    # runs saved before --opponent were against MAGPIE's static player
    for key, default in (("seed", None), ("late", None), ("opponent", "static")):
        if before.get(key, default) != what.get(key, default):
            raise ValueError(
                f"{path} was saved with {key} {before.get(key, default)}, this run has {what.get(key, default)}"
            )
    return before


def paired(records: Sequence[GameRecord], path: Path, what: dict[str, object]) -> list[str]:
    """The run against an earlier one saved in ``path`` of the same seed and late game,
    game by game: the difference in lexiko's win rate (a tie counts half) with its 95%
    interval from the per-game differences, the games whose result differs, and the
    difference in spread. Raises :class:`ValueError` if the runs are not alike.

    >>> from lexiko.selfplay import GameSummary
    >>> rec = lambda i, a, b: GameRecord(GameSummary(i, (a, b), (0,) if a > b else (1,), (0, 0), 20, "out"),
    ...                                  0, (0, 0), (10, 10), (0.0, 0.0), 0.0)
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "before.json"
    >>> save([rec(0, 400, 390), rec(1, 380, 400), rec(2, 350, 360)], path, {"seed": 1, "late": 7, "players": "a"})
    >>> for line in paired([rec(0, 400, 390), rec(1, 410, 400), rec(2, 350, 362)], path, {"seed": 1, "late": 7}):
    ...     print(line)
    against before.json's a (seed 1, late 7), game by game over 3 games: win rate +33.3% (95% CI -32.0% to +98.7%)
    1 of 3 games end otherwise (1 won that was lost, 0 lost that was won); spread +9.3 a game
    """
    before = load_run(path, what)
    diffs, spreads = [], []
    for r in records:
        old = before["games"].get(str(r.summary.index))
        if old is None:
            continue
        new = r.summary.scores
        result = (new[0] > new[1]) - (new[0] < new[1])
        result_before = (old[0] > old[1]) - (old[0] < old[1])
        diffs.append((result - result_before) / 2)
        spreads.append((new[0] - new[1]) - (old[0] - old[1]))
    n = len(diffs)
    if n < 2:
        raise ValueError(f"{path} shares {n} game(s) with this run: play the same games (--seed, --games)")
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n)
    gained, lost = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
    return [
        f"against {path.name}'s {before.get('players')} (seed {what.get('seed')}, late {what.get('late')}), game by "
        f"game over {n} games: win rate {mean:+.1%} (95% CI {mean - half:+.1%} to {mean + half:+.1%})",
        f"{gained + lost} of {n} games end otherwise ({gained} won that was lost, {lost} lost that was won); "
        f"spread {statistics.fmean(spreads):+.1f} a game",
    ]


DESCRIPTION = """\
Play a lexiko computer player against MAGPIE's static player (or its simulation) and
print lexiko's win rate. Every game is played in lexiko's Game (tournament rules,
TWL06, a seeded bag); on MAGPIE's turns the position goes to a MAGPIE process (one per
worker, kept on pipes) and its top move comes back, to be checked and scored by lexiko's
rules like any player's move. A move lexiko refuses, a word not in the lexicon, or a
score that differs stops the run, naming the game, the turn and the position. Each
deal is played twice, each player starting once, so that neither is dealt better.
"""

EPILOG = """\
MAGPIE is played with its defaults for TWL06 (its TWL06.klv2 leaves, its own equity
adjustments, its word map when data/lexica/TWL06.wmp is there) and, on each of its turns:
  cgp <board> <its rack>/<lexiko's rack> <scores> <scoreless turns>
  generate    its best move only (-r1 best -r2 best), as its autoplay's static player
  version     a known line that ends the answer
With --opponent sim it is sent its own rack only and asked 'gsimulate' instead: its
simulation of its 10 best plays, 2 plies, 100 play-outs each, stopping at 99%, no
inference (-plies 2 -numplays 10 -iterations 1000 -minplayiterations 100 -scondition 99
-sinfer false -tlim 60); --magpie-set KEY=VALUE changes one (-KEY VALUE).

figures:
  win rate     lexiko's share of the games (a tie counts half) and its 95% Wilson interval
  by starter   lexiko's win rate in the games lexiko started and in those MAGPIE started
  a game       exchanges and bingos (plays of all 7 tiles) a game for each side
  games/s      wall-clock, and per CPU-second of every process (lexiko's and MAGPIE's);
               a turn's time is each side's, MAGPIE's with the pipes and lexiko's
               reading and checking of its move

examples:
  python benchmarks/strength.py --magpie ~/src/MAGPIE --games 200
  python benchmarks/strength.py --magpie ~/src/MAGPIE --games 2000 --jobs 2
  python benchmarks/strength.py --magpie ~/src/MAGPIE --games 2000 --players static:MAGPIE/data/lexica/TWL06.klv2
  python benchmarks/strength.py --magpie ~/src/MAGPIE --games 200 --jobs 2 --players hard \\
      --set candidates=20 --set iterations=500 --set rank=win    # the simulation player, longer
  python benchmarks/strength.py --magpie ~/src/MAGPIE --games 800 --late 7 --players hard \\
      --set finish=0 --save before.json                          # the late game alone, saved
  python benchmarks/strength.py --magpie ~/src/MAGPIE --games 800 --late 7 --players hard \\
      --against before.json                                      # compared game by game
  python benchmarks/strength.py --magpie ~/src/MAGPIE --games 200 --jobs 2 --players hard \\
      --opponent sim                                             # simulation against simulation, one size
  python benchmarks/strength.py --magpie ~/src/MAGPIE --games 200 --jobs 2 --players hard \\
      --set iterations=5000 --set time_limit=1 --opponent sim \\
      --magpie-set iterations=1000000 --magpie-set tlim=1      # both at 1 s a move
"""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--magpie",
        type=Path,
        required=True,
        metavar="DIR",
        help="a built MAGPIE checkout: bin/magpie and data/ (data/lexica/TWL06.kwg, TWL06.klv2)",
    )
    p.add_argument(
        "--games",
        type=positive_int,
        default=200,
        help="games, an even number: N/2 deals played twice (default: %(default)s)",
    )
    p.add_argument(
        "--players",
        default="static",
        metavar="KIND",
        help="lexiko's player, as 'lexiko autoplay --players' names kinds: static, static:FILE (a leave "
        "table: lexiko's .tsv.gz, or .klv2/.klv/.csv), sim or hard (default: %(default)s)",
    )
    p.add_argument(
        "--set",
        type=player_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        dest="options",
        help="an option of lexiko's player (repeat for more), e.g. for sim or hard: --set time_limit=1 "
        "--set candidates=20 --set iterations=2000 --set prune=2 --set infer=true",
    )
    p.add_argument(
        "--jobs",
        type=non_negative_int,
        default=1,
        help="worker processes, each with its own MAGPIE; 0 for one per core (default: %(default)s)",
    )
    p.add_argument("--seed", type=int, default=0, help="the deals' seed: the same seed, the same games (default: 0)")
    p.add_argument(
        "--late",
        type=non_negative_int,
        metavar="K",
        help="lexiko's static player moves until the bag holds K tiles or fewer on lexiko's turn, then "
        "the player named: the games up to there are the same whatever the player, so two runs with "
        "the same seed differ only in the late game (compare them with --save and --against)",
    )
    p.add_argument(
        "--opponent",
        choices=("static", "sim"),
        default="static",
        help="MAGPIE's player: its static player, or its simulation (default: %(default)s)",
    )
    p.add_argument(
        "--magpie-set",
        type=magpie_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        dest="magpie_options",
        help="an option of MAGPIE's simulation (with --opponent sim; repeat for more), given to MAGPIE "
        "as -KEY VALUE, e.g. --magpie-set tlim=1 --magpie-set iterations=1000000",
    )
    p.add_argument("--save", type=Path, metavar="FILE", help="write each game's final scores to FILE (JSON)")
    p.add_argument(
        "--against",
        type=Path,
        metavar="FILE",
        help="a run saved with --save (the same seed, --late and --opponent): compare the two game by game",
    )
    args = p.parse_args(argv)  # fmt: skip
    if args.games % 2:
        p.error(f"--games must be even (each deal is played twice), not {args.games}")
    if not (args.magpie / "bin" / "magpie").exists() or not (args.magpie / "data").is_dir():
        p.error(f"{args.magpie}: no bin/magpie or data/ there: build MAGPIE first (make magpie BUILD=release)")
    if "," in args.players:
        p.error("--players names lexiko's one player (MAGPIE is the other)")
    if args.magpie_options and args.opponent != "sim":
        p.error("--magpie-set sets MAGPIE's simulation: give --opponent sim with it")
    sim = dict(args.magpie_options) if args.opponent == "sim" else None
    what: dict[str, object] = {"seed": args.seed, "late": args.late, "players": args.players, "opponent": args.opponent}
    if args.against is not None:
        try:
            load_run(args.against, what)  # refused now rather than after the games
        except ValueError as e:
            p.error(f"--against: {e}")
    if args.save is not None and (args.save.is_dir() or not args.save.parent.is_dir()):
        p.error(f"--save: {args.save} is not a file in a folder that exists")
    rules = TOURNAMENT
    jobs = args.jobs or (os.cpu_count() or 1)
    try:
        lexicon = Lexicon.load(rules.lexicon, rules.tile_set)  # compiled once, before the workers start
        options = dict(args.options)
        close = getattr(make_player(args.players, lexicon, **options), "close", None)  # a bad kind, table or option
        if close is not None:
            close()
        how = describe_magpie(args.magpie, rules.lexicon, sim)
    except (LexikoError, MatchError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except TypeError as e:  # an option the player does not take
        print(f"error: --set: {e}", file=sys.stderr)
        return 2

    records: list[GameRecord] = []
    started, cpu = time.perf_counter(), time.process_time() + child_cpu()
    try:
        with WorkProgress(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        ) as bar:
            task = bar.add_task("games", total=args.games)
            for chunk in run(args.magpie, args.players, args.games, jobs, args.seed, rules, options, args.late, sim):
                records.extend(chunk)
                bar.update(task, completed=len(records))
    except MatchError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    seconds, cpu = time.perf_counter() - started, time.process_time() + child_cpu() - cpu
    records.sort(key=lambda r: r.summary.index)
    kind = args.players + "".join(f" {k}={v}" for k, v in options.items())
    if args.late is not None:
        kind += f" (lexiko static until the bag holds {args.late} tiles or fewer)"
    print("\n".join(report(records, kind, rules, seconds, cpu, jobs, how, args.opponent)))
    status = 0
    if args.against is not None:  # before --save, which may name the same file
        try:
            print("\n".join(paired(records, args.against, what)))
        except ValueError as e:
            print(f"error: --against: {e}", file=sys.stderr)
            status = 1
    if args.save is not None:
        try:
            save(records, args.save, {**what, "players": kind})
        except OSError as e:
            print(f"error: --save: {args.save}: {e.strerror or e}", file=sys.stderr)
            return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
