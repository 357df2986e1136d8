"""The endgame solver: with the bag empty both racks are known (the opponent holds every
tile the player on turn cannot see), so the rest of a two-player game is a game of
perfect information, solved by negamax with alpha-beta pruning.

Moves are every placement (`lexiko.movegen.generate` with ``placements_only``)
and the pass, tried in the order: the best move of an earlier search of the same
position (a transposition table keyed by board, racks and the run of scoreless turns),
plays that go out, then by score. The value of a position is the spread the player
on turn gains from here to the end of the game under best play: the points of every
play, the rack adjustment when a player goes out (the out-player gains twice the
other rack in spread under both ``end_rack_rule`` conventions) and, when the run of
scoreless turns reaches ``rules.scoreless_turn_limit``, each player losing their own
rack. Search deepens one ply at a time (iterative deepening) until the result is
exact, ``max_depth`` plies are searched or ``time_limit`` seconds are spent; below the
depth limit a position is valued by a greedy play-out (each side plays its
highest-scoring placement until the game ends).

>>> from lexiko.board import Board
>>> from lexiko.lexicon import Lexicon
>>> from lexiko.move import parse_move
>>> from lexiko.tiles import ENGLISH
>>> lex = Lexicon.from_words(["AT", "TA", "CAT", "ACT", "TO", "OAT"])
>>> board = Board.empty().place(parse_move("8G CAT"))
>>> res = solve_position(board, (ENGLISH.parse("O"), ENGLISH.parse("Z")), lex)
>>> res.complete, res.value, res.notations()   # TO, O on a double letter: 3, plus twice Z
(True, 23, ['I8 (T)O'])
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lexiko import kernel, movegen
from lexiko.board import Board
from lexiko.bots.base import last_play_is_phony
from lexiko.errors import GameStateError
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Move, Pass, Place
from lexiko.movegen import Candidate, LeaveValue, generate
from lexiko.rules import TOURNAMENT, Rules
from lexiko.tiles import BLANK

__all__ = ["EndgameResult", "EndgameBot", "solve", "solve_position", "game_lexicon"]

_INF = 10**9
_EXACT, _LOWER, _UPPER = 0, 1, 2
_TT_LIMIT = 1_000_000  # entries kept before the table is cleared
_GEN_LIMIT = 600_000  # candidates kept in the move-list cache before it is cleared
_CHECK_EVERY = 8  # nodes and play-out steps between looks at the clock


class _Timeout(Exception):
    pass


@dataclass(frozen=True)
class EndgameResult:
    """The outcome of a search.

    ``best_move`` is the move to play; ``value`` the spread the player on turn gains
    from here to the end under best play by both (exact when ``complete``, else the
    estimate of the deepest search finished); ``spread`` the final spread of the
    player on turn (their score minus the opponent's, now, plus ``value``); ``line``
    the principal variation, starting with ``best_move`` (alternating players);
    ``nodes`` the positions searched, ``depth`` the deepest search finished, in plies.
    """

    best_move: Move
    spread: int
    line: tuple[Move, ...]
    nodes: int
    value: int = 0
    depth: int = 0
    complete: bool = False
    elapsed: float = 0.0
    board: Board | None = field(default=None, repr=False, compare=False)

    def notations(self) -> list[str]:
        """The principal variation in GCG notation (letters played through in brackets).

        >>> EndgameResult(Pass(), 0, (Pass(),), 1).notations()
        ['-']
        """
        board = self.board
        out: list[str] = []
        for m in self.line:
            if board is None:
                out.append(m.notation())
                continue
            out.append(m.notation(board.tiles, board))
            if isinstance(m, Place):
                board = board.place(m)
        return out


def _remove(rack: tuple[int, ...], tiles: Sequence[int]) -> tuple[int, ...]:
    """``rack`` (sorted) without ``tiles`` (rack codes); order kept."""
    out = list(rack)
    for t in tiles:
        out.remove(t)
    return tuple(out)


class _Solver:
    """Negamax with alpha-beta, a transposition table and iterative deepening."""

    def __init__(self, lexicon: Lexicon, rules: Rules, deadline: float | None) -> None:
        self.lexicon = lexicon
        self.rules = rules
        self.deadline = deadline
        self.limit = rules.scoreless_turn_limit if rules.scoreless_turn_limit > 0 else 2
        self.penalties = rules.scoreless_turn_limit > 0
        self.nodes = 0
        self.tt: dict[tuple[bytes, tuple[int, ...], tuple[int, ...], int], tuple[int, int, int, tuple[Move, ...]]] = {}
        self.gen: dict[tuple[bytes, tuple[int, ...]], list[Candidate]] = {}
        self.gen_size = 0
        self.best: dict[tuple[bytes, tuple[int, ...]], Candidate | None] = {}
        self.values: dict[tuple[int, ...], int] = {}
        self.playouts: dict[tuple[bytes, tuple[int, ...], int], int] = {}
        self.steps = 0

    # -- helpers ---------------------------------------------------------------

    def rack_value(self, rack: tuple[int, ...]) -> int:
        v = self.values.get(rack)
        if v is None:
            v = self.values[rack] = self.lexicon.tiles.rack_value(rack)
        return v

    def scoreless_end(self, own: tuple[int, ...], opp: tuple[int, ...]) -> int:
        """Spread the player who just made the last scoreless turn gains at the end."""
        if not self.penalties:
            return 0
        return self.rack_value(opp) - self.rack_value(own)

    def moves(self, board: Board, rack: tuple[int, ...]) -> list[Candidate]:
        key = (board.cells, rack)
        found = self.gen.get(key)
        if found is None:
            found = list(generate(board, rack, self.lexicon, self.rules, bag_count=0, placements_only=True))
            outs = [c for c in found if not c.leave]  # plays going out first
            if outs:
                found = outs + [c for c in found if c.leave]
            self.gen_size += len(found) + 1
            if self.gen_size > _GEN_LIMIT:
                self.gen.clear()
                self.gen_size = len(found) + 1
            self.gen[key] = found
        return found

    def greedy(self, board: Board, rack: tuple[int, ...]) -> Candidate | None:
        """The highest-scoring placement (None when there is none)."""
        key = (board.cells, rack)
        if key in self.best:
            return self.best[key]
        found: Sequence[Candidate] | None = self.gen.get(key)
        if found is None:
            found = generate(board, rack, self.lexicon, self.rules, bag_count=0, best=1, placements_only=True)
        c = max(found, key=lambda d: d.score) if found else None
        if len(self.best) > _GEN_LIMIT:
            self.best.clear()
        self.best[key] = c
        return c

    def tick(self) -> None:
        self.steps += 1
        if self.deadline is not None and self.steps % _CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise _Timeout

    def step(
        self, me: tuple[int, ...], opp: tuple[int, ...], scoreless: int, c: Candidate | None
    ) -> tuple[Move, int, tuple[int, ...], int, int | None]:
        """Candidate ``c`` (None: the pass) for the side holding ``me``: the move, its
        points, the rack left, the run of scoreless turns after it and, when the game
        ends there, the spread it gains (else None)."""
        if c is None:
            s2 = scoreless + 1
            return Pass(), 0, me, s2, self.scoreless_end(me, opp) if s2 >= self.limit else None
        move = c.move
        assert isinstance(move, Place)
        rest = _remove(me, move.rack_tiles())
        s2 = 0 if c.score > 0 else scoreless + 1
        if not rest:
            return move, c.score, rest, s2, c.score + 2 * self.rack_value(opp)
        if s2 >= self.limit:
            return move, c.score, rest, s2, c.score + self.scoreless_end(rest, opp)
        return move, c.score, rest, s2, None

    # -- evaluation below the depth limit --------------------------------------

    def playout(self, board: Board, me: tuple[int, ...], opp: tuple[int, ...], scoreless: int) -> int:
        """Each side plays its highest-scoring placement (passing when it has none)
        until the game ends; the spread the side on turn gains."""
        sign, total = 1, 0
        while True:
            self.tick()
            c = self.greedy(board, me)
            if c is not None:
                move = c.move
                assert isinstance(move, Place)
                rest = _remove(me, move.rack_tiles())
                total += sign * c.score
                if not rest:
                    return total + sign * 2 * self.rack_value(opp)
                scoreless = 0 if c.score > 0 else scoreless + 1
                board = board.place(move)
            else:
                rest = me
                scoreless += 1
            if scoreless >= self.limit:
                return total + sign * self.scoreless_end(rest, opp)
            me, opp = opp, rest
            sign = -sign

    # -- the search -------------------------------------------------------------

    def search(
        self,
        board: Board,
        me: tuple[int, ...],
        opp: tuple[int, ...],
        scoreless: int,
        depth: int,
        alpha: int,
        beta: int,
        root: bool = False,
    ) -> tuple[int, bool, tuple[Move, ...]]:
        """(value for the side on turn, whether it is exact whatever the depth, line).
        At the ``root`` the pass is tried last whatever the table says: a play worth as
        much is kept (passing when the opponent is stuck gains nothing and stalls)."""
        self.nodes += 1
        self.tick()
        key = (board.cells, me, opp, scoreless)
        entry = self.tt.get(key)
        tt_move: Move | None = None
        if entry is not None:
            edepth, flag, val, line = entry
            if edepth >= depth:
                complete = edepth >= _INF
                if flag == _EXACT:
                    return val, complete, line
                if flag == _LOWER and val >= beta:
                    return val, complete, line
                if flag == _UPPER and val <= alpha:
                    return val, complete, line
            if line:
                tt_move = line[0]
        if depth <= 0:
            pkey = (board.cells, me, scoreless)
            v = self.playouts.get(pkey)
            if v is None:
                v = self.playout(board, me, opp, scoreless)
                if len(self.playouts) > _TT_LIMIT:
                    self.playouts.clear()
                self.playouts[pkey] = v
            return v, False, ()
        alpha0 = alpha
        best = -_INF
        best_line: tuple[Move, ...] = ()
        complete = True
        cands = self.moves(board, me)
        order: list[Candidate | None] = list(cands)
        order.append(None)  # the pass
        if tt_move is not None and not (root and tt_move == Pass()):
            for i, c in enumerate(order):
                if (c.move if c is not None else Pass()) == tt_move:
                    if i:
                        order.insert(0, order.pop(i))
                    break
        child_line: tuple[Move, ...]
        first = True
        for c in order:
            move, sc, rest, s2, end = self.step(me, opp, scoreless, c)
            if end is not None:
                v, child_complete, child_line = end, True, ()
            else:
                after = board.place(move) if isinstance(move, Place) else board
                if first or beta - alpha <= 1:
                    cv, child_complete, child_line = self.search(after, opp, rest, s2, depth - 1, sc - beta, sc - alpha)
                    v = sc - cv
                else:  # principal variation search: prove the move no better, on a null window
                    cv, child_complete, child_line = self.search(
                        after, opp, rest, s2, depth - 1, sc - alpha - 1, sc - alpha
                    )
                    v = sc - cv
                    if alpha < v < beta:
                        cv, child_complete, child_line = self.search(
                            after, opp, rest, s2, depth - 1, sc - beta, sc - alpha
                        )
                        v = sc - cv
            first = False
            complete = complete and child_complete
            if v > best:
                best = v
                best_line = (move, *child_line)
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
        if len(self.tt) > _TT_LIMIT:
            self.tt.clear()
        self.tt[key] = (_INF if complete else depth, flag, best, best_line)
        return best, complete, best_line


def solve_position(
    board: Board,
    racks: tuple[Sequence[int], Sequence[int]],
    lexicon: Lexicon,
    rules: Rules = TOURNAMENT,
    *,
    scores: Sequence[int] = (0, 0),
    scoreless_turns: int = 0,
    max_depth: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[EndgameResult], None] | None = None,
    backend: movegen.Backend = "auto",
) -> EndgameResult:
    """Solve the endgame of a two-player position with the bag empty: ``racks[0]`` is
    the rack of the player on turn, ``racks[1]`` the opponent's; ``scores`` in the
    same order. ``max_depth`` limits the search to that many plies (moves by either
    side), ``time_limit`` to about that many seconds: the answer is then the best of
    the deepest search finished, with ``complete`` False, or, when the clock stops the
    first ply, the best move valued so far (else the first in the search's order,
    valued at its score) with ``depth`` 0.
    ``progress`` is called with the result so far after each depth is finished.
    ``backend``: ``"c"`` the compiled search (the same values when
    complete; it deepens four plies one at a time, within 200,000 nodes (20,000 with a blank on a rack), then
    searches every line to its end, or to ``max_depth``, at once, its ``depth`` then the most moves of a line it
    searched; and it prunes more), ``"python"`` this module's, ``"auto"`` the compiled
    one when built.

    >>> from lexiko.lexicon import Lexicon
    >>> from lexiko.tiles import ENGLISH
    >>> lex = Lexicon.from_words(["AT", "TA"])
    >>> b = Board.empty().place(Place(7, 7, False, ENGLISH.parse("AT")))
    >>> solve_position(b, ((), ENGLISH.parse("Q")), lex).best_move
    Pass()
    """
    start = time.perf_counter()
    deadline = start + time_limit if time_limit is not None else None
    tiles = lexicon.tiles
    me = tiles.rack_sort([0 if t & BLANK else t for t in racks[0]])
    opp = tiles.rack_sort([0 if t & BLANK else t for t in racks[1]])
    spread_now = int(scores[0]) - int(scores[1])
    solver = _Solver(lexicon, rules, None)
    if not me:  # nothing to play: the player on turn went out (the play not yet accepted)
        gain = 2 * solver.rack_value(opp)
        return EndgameResult(Pass(), spread_now + gain, (Pass(),), 0, gain, 0, True, 0.0, board)
    if not opp:  # the opponent went out
        loss = -2 * solver.rack_value(me)
        return EndgameResult(Pass(), spread_now + loss, (Pass(),), 0, loss, 0, True, 0.0, board)
    if backend != "python" and kernel.available() and rules.variant != "clabbers":
        return _solve_in_kernel(
            board, me, opp, lexicon, rules, spread_now, scoreless_turns, max_depth, time_limit, start, progress
        )
    if backend == "c":
        raise ValueError("the kernel solves no endgame here: it is not built, or the rules are Clabbers")
    limit = max_depth if max_depth is not None else _INF
    result: tuple[int, bool, tuple[Move, ...]] | None = None
    depth_done = 0
    depth = 1

    def answer() -> EndgameResult:
        assert result is not None
        value, complete, line = result
        if not line:
            line = (Pass(),)
        return EndgameResult(
            best_move=line[0],
            spread=spread_now + value,
            line=line,
            nodes=solver.nodes,
            value=value,
            depth=depth_done,
            complete=complete,
            elapsed=time.perf_counter() - start,
            board=board,
        )

    while depth <= limit:
        solver.deadline = deadline if result is not None else None
        finished = True
        try:
            if result is None and deadline is not None:
                value, exact, line, finished = _first_ply(solver, board, me, opp, scoreless_turns, deadline)
                found = (value, exact, line)
            else:
                found = solver.search(board, me, opp, scoreless_turns, depth, -_INF, _INF, root=True)
        except _Timeout:
            break
        result = found
        if not finished:  # the first ply stopped by the clock: no depth finished
            break
        depth_done = depth
        if progress is not None:
            progress(answer())
        if found[1]:
            break
        depth += 1
    return answer()


def _solve_in_kernel(
    board: Board,
    me: tuple[int, ...],
    opp: tuple[int, ...],
    lexicon: Lexicon,
    rules: Rules,
    spread_now: int,
    scoreless_turns: int,
    max_depth: int | None,
    time_limit: float | None,
    start: float,
    progress: Callable[[EndgameResult], None] | None,
) -> EndgameResult:
    """`solve_position` by the kernel's search."""

    def result(found: kernel.EndgameResult) -> EndgameResult:
        line = tuple(
            Place(row, col, bool(down), tuple(tiles)) if kind == 0 else Pass()
            for kind, row, col, down, tiles, _ in found.line
        ) or (Pass(),)
        return EndgameResult(
            best_move=line[0],
            spread=spread_now + found.value,
            line=line,
            nodes=found.nodes,
            value=found.value,
            depth=found.depth,
            complete=found.complete,
            elapsed=time.perf_counter() - start,
            board=board,
        )

    def report(found: kernel.EndgameResult) -> None:
        assert progress is not None
        progress(result(found))

    return result(
        kernel.endgame(
            kernel.Setting.of(lexicon, rules, board.layout, board.tiles),
            board,
            bytes(me),
            bytes(opp),
            scoreless_run=scoreless_turns,
            max_depth=max_depth,
            time_limit=time_limit,
            progress=None if progress is None else report,
        )
    )


def _first_ply(
    solver: _Solver, board: Board, me: tuple[int, ...], opp: tuple[int, ...], scoreless: int, deadline: float
) -> tuple[int, bool, tuple[Move, ...], bool]:
    """The one-ply search under a deadline, move by move in the search's order (going
    out, then by score, the pass last): (value, exact, line, finished). Stopped by the
    clock, the best move valued so far, else the first in that order valued at its
    score, with ``finished`` False."""
    solver.deadline = deadline
    best: tuple[int, bool, tuple[Move, ...]] | None = None
    complete = True
    line: tuple[Move, ...]
    order: list[Candidate | None] = [*solver.moves(board, me), None]
    try:
        for c in order:
            move, sc, rest, s2, end = solver.step(me, opp, scoreless, c)
            if end is not None:
                v, exact, line = end, True, ()
            else:
                after = board.place(move) if isinstance(move, Place) else board
                cv, exact, line = solver.search(after, opp, rest, s2, 0, -_INF, _INF)
                v = sc - cv
            complete = complete and exact
            if best is None or v > best[0]:
                best = (v, False, (move, *line))
    except _Timeout:
        if best is None:
            first = order[0]
            best = (first.score, False, (first.move,)) if first is not None else (0, False, (Pass(),))
        return (*best, False)
    assert best is not None
    return best[0], complete, best[2], True


def game_lexicon(game: Game, lexicon: Lexicon | None = None) -> Lexicon:
    """The lexicon to search with: ``lexicon``, the game's own if it is a
    `Lexicon`, or the rules' lexicon loaded (from the disk cache)."""
    if lexicon is not None:
        return lexicon
    judge = game.lexicon
    if isinstance(judge, Lexicon):
        return judge
    return Lexicon.load(game.rules.lexicon, game.rules.tile_set)


def solve(
    game: Game,
    max_depth: int | None = None,
    time_limit: float | None = None,
    *,
    lexicon: Lexicon | None = None,
    progress: Callable[[EndgameResult], None] | None = None,
) -> EndgameResult:
    """Solve the endgame of a two-player game whose bag is empty, for the player on
    turn (whose opponent holds exactly the tiles they cannot see).

    Raises `GameStateError` when the game is over, the bag is
    not empty or there are not two players.

    >>> from lexiko.lexicon import Lexicon
    >>> g = Game(["A", "B"], lexicon=None, seed=1)
    >>> solve(g, lexicon=Lexicon.from_words(["AT"]))
    Traceback (most recent call last):
    ...
    lexiko.errors.GameStateError: the bag is not empty (86 tiles): the endgame solver needs both racks known
    """
    if len(game.players) != 2:
        raise GameStateError("the endgame solver handles two-player games")
    if game.is_over:
        raise GameStateError("the game is over")
    if game.awaiting_final_challenge:
        raise GameStateError("the last play would end the game: challenge it or accept it")
    if game.bag_count:
        raise GameStateError(
            f"the bag is not empty ({game.bag_count} tiles): the endgame solver needs both racks known"
        )
    lex = game_lexicon(game, lexicon)
    p = game.player_on_turn
    scores = game.scores
    return solve_position(
        game.board,
        (game.rack(p), game.unseen(p)),
        lex,
        game.rules,
        scores=(scores[p], scores[1 - p]),
        scoreless_turns=game.scoreless_turns,
        max_depth=max_depth,
        time_limit=time_limit,
        progress=progress,
    )


class EndgameBot:
    """Solves the endgame once the bag is empty (two players); before that plays the
    static choice (score plus leave value, see
    `lexiko.bots.static.static_choice`). Challenges every phony.

    ``time_limit`` (seconds) and ``max_depth`` (plies) bound each search; the best
    move of the deepest search finished is played.

    >>> from lexiko.lexicon import Lexicon
    >>> EndgameBot(Lexicon.from_words(["AT"]), time_limit=1.0).name
    'endgame'
    """

    def __init__(
        self,
        lexicon: Lexicon,
        *,
        leaves: LeaveValue | None = None,
        time_limit: float | None = 5.0,
        max_depth: int | None = None,
        name: str = "endgame",
    ) -> None:
        self.lexicon = lexicon
        self.leaves = leaves
        self.time_limit = time_limit
        self.max_depth = max_depth
        self.name = name
        self.last_result: EndgameResult | None = None

    def choose(self, game: Game) -> Move:
        if game.bag_count == 0 and len(game.players) == 2 and not (game.is_over or game.awaiting_final_challenge):
            res = solve(game, self.max_depth, self.time_limit, lexicon=self.lexicon)
            self.last_result = res
            return res.best_move
        from lexiko.bots.static import static_choice

        return static_choice(game.position(), self.lexicon, self.leaves)

    def wants_challenge(self, game: Game) -> bool:
        return last_play_is_phony(game, self.lexicon)
