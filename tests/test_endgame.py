"""The endgame solver: exact values against a brute-force minimax, hand-checked lines,
the end-of-game rules, limits, and the endgame player in real games."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from lexiko import kernel, movegen
from lexiko.board import Board
from lexiko.bots.endgame import EndgameBot, EndgameResult, solve, solve_position
from lexiko.bots.greedy import GreedyBot
from lexiko.errors import GameStateError
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Pass, Place, parse_move
from lexiko.movegen import generate
from lexiko.rules import Rules
from lexiko.tiles import BLANK, ENGLISH

WORDS = [
    "AT",
    "TA",
    "AS",
    "AH",
    "HA",
    "SH",
    "IS",
    "SI",
    "IT",
    "TI",
    "XI",
    "AX",
    "EX",
    "OX",
    "QI",
    "CAT",
    "ACT",
    "SAT",
    "TAS",
    "HAS",
    "ASH",
    "HAT",
    "SIT",
    "ITS",
    "TIS",
    "HIT",
    "SHE",
    "THE",
    "CATS",
    "SCAT",
    "ACTS",
    "HATS",
    "HITS",
    "CHAT",
    "TACH",
    "CHATS",
    "TACHS",
    "SHAT",
]


@pytest.fixture(scope="module")
def small() -> Lexicon:
    return Lexicon.from_words(WORDS)


def rack_value(rack: Sequence[int]) -> int:
    return ENGLISH.rack_value(rack)


def without(rack: tuple[int, ...], tiles: Sequence[int]) -> tuple[int, ...]:
    out = list(rack)
    for t in tiles:
        out.remove(t)
    return tuple(out)


def brute_force(
    board: Board,
    me: tuple[int, ...],
    opp: tuple[int, ...],
    scoreless: int,
    lex: Lexicon,
    rules: Rules,
    memo: dict[tuple[bytes, tuple[int, ...], tuple[int, ...], int], int] | None = None,
) -> int:
    """Plain minimax (no pruning; positions met again are remembered) over every
    placement and the pass: the spread the side on turn gains."""
    if memo is None:
        memo = {}
    key = (board.cells, me, opp, scoreless)
    if key in memo:
        return memo[key]
    limit = rules.scoreless_turn_limit
    best = -(10**9)
    for c in generate(board, me, lex, rules, bag_count=0, placements_only=True):
        assert isinstance(c.move, Place)
        rest = without(me, c.move.rack_tiles())
        if not rest:
            v = c.score + 2 * rack_value(opp)
        else:
            s2 = 0 if c.score else scoreless + 1
            if s2 >= limit:
                v = c.score + rack_value(opp) - rack_value(rest)
            else:
                v = c.score - brute_force(board.place(c.move), opp, rest, s2, lex, rules, memo)
        best = max(best, v)
    s2 = scoreless + 1
    v = rack_value(opp) - rack_value(me) if s2 >= limit else -brute_force(board, opp, me, s2, lex, rules, memo)
    memo[key] = max(best, v)
    return memo[key]


def test_going_out_in_two_beats_greedy(endgame_factory: Callable[..., Game]) -> None:
    """Board: CAT at 8F (A on G8, over the double letter G9). Ann holds HS, Bob QV, which
    no word takes (he can only pass). Ann is 30 behind.

    Greedy: G8 (A)H on the double letter, 9 points, strands the S (no word takes it
    after AH): Ann passes, the scoreless turns end the game, Ann loses S (1) and Bob
    QV (14): 9 + 13 = +22, a loss by 8. Going out at once, G8 (A)SH: 7 + 2 x 14 = +35.
    Best: G8 (A)S (3, S on the double letter), Bob passes, G8 (AS)H (6) going out,
    + 2 x 14: +37, a win by 7.
    """
    lex = Lexicon.from_words(["CAT", "AH", "AS", "ASH"])
    rules = Rules(challenge_rule="void", end_rack_rule="double")
    g = endgame_factory(["HS", "QV"], words=("8F CAT",), scores=(300, 330), lexicon=lex, rules=rules)
    greedy = GreedyBot(lex).choose(g)
    assert greedy.notation(ENGLISH, g.board) == "G8 (A)H"
    res = solve(g)
    assert res.complete
    assert res.value == 37 and res.spread == 7
    assert res.notations() == ["G8 (A)S", "-", "G8 (AS)H"]
    # the greedy line loses by 8
    after = g.copy()
    after.apply(greedy)
    follow = solve(after)
    assert follow.complete and -follow.spread == -8
    # the solver's line, played through the game, gives exactly the predicted result
    bot = EndgameBot(lex)
    while not g.is_over:
        g.apply(bot.choose(g))
    assert g.scores[0] - g.scores[1] == 7
    assert g.scores == [300 + 3 + 6 + 28, 330]


@pytest.mark.slow
@pytest.mark.parametrize("end_rule", ["single", "double"])
def test_solver_matches_brute_force(small: Lexicon, endgame_factory: Callable[..., Game], end_rule: str) -> None:
    rng = random.Random(11 if end_rule == "single" else 12)
    letters = "AACHIISSTTXEO"
    boards = [("8F CAT",), ("8G HAT", "G8 .S"), ("8F CHAT",)]
    rules = Rules(challenge_rule="void", end_rack_rule=end_rule)  # type: ignore[arg-type]
    checked = 0
    for _ in range(24):
        words = rng.choice(boards)
        me = "".join(rng.sample(letters, rng.randint(1, 3)))
        opp = "".join(rng.sample(letters, rng.randint(1, 3)))
        try:
            g = endgame_factory([me, opp], words=words, lexicon=small, rules=rules, scores=(100, 90))
        except AssertionError:  # more tiles than the set holds
            continue
        want = brute_force(g.board, g.rack(0), g.rack(1), 0, small, rules)
        res = solve(g, lexicon=small)
        assert res.complete
        assert res.value == want, (words, me, opp)
        assert res.spread == 10 + want
        # the first move of the line is worth the value: replay the line by brute force
        first = res.line[0]
        if isinstance(first, Place):
            rest = without(g.rack(0), first.rack_tiles())
            cand = next(c for c in generate(g.board, g.rack(0), small, rules, bag_count=0) if c.move == first)
            if rest:
                s2 = 0 if cand.score else 1
                assert cand.score - brute_force(g.board.place(first), g.rack(1), rest, s2, small, rules) == want
        checked += 1
    assert checked >= 20


def test_endgame_played_out_gives_the_solved_spread(small: Lexicon, endgame_factory: Callable[..., Game]) -> None:
    """Both sides play the solver's moves through Game (its own end-of-game accounting,
    with a challenge rule: the out-play is accepted): the final spread is the solved one."""
    for rules in (Rules(end_rack_rule="single"), Rules(end_rack_rule="double")):
        g = endgame_factory(["ACHT", "SIX"], words=("8F CAT",), lexicon=small, rules=rules, scores=(50, 60))
        res = solve(g)
        bots = [EndgameBot(small), EndgameBot(small)]
        while not g.is_over:
            if g.awaiting_final_challenge:
                g.accept()
                continue
            g.apply(bots[g.player_on_turn].choose(g))
        assert g.scores[0] - g.scores[1] == res.spread


def test_scoreless_end_penalties(small: Lexicon) -> None:
    """Nobody can play: passing until the scoreless limit costs each their own rack."""
    move = parse_move("8F CAT")
    assert isinstance(move, Place)
    board = Board.empty().place(move)
    rules = Rules(scoreless_turn_limit=6)
    res = solve_position(board, (ENGLISH.parse("QV"), ENGLISH.parse("Z")), small, rules, scoreless_turns=0)
    assert res.complete and res.value == 10 - 14 and isinstance(res.best_move, Pass)
    assert len(res.line) == 6
    res = solve_position(board, (ENGLISH.parse("QV"), ENGLISH.parse("Z")), small, rules, scoreless_turns=5)
    assert res.value == -4 and res.line == (Pass(),)


def test_blocking_play(endgame_factory: Callable[..., Game]) -> None:
    """Board: CAT at 8G (A on H8) and OE at 8L. Ann holds TX and trails 100-110; Bob
    holds Z, whose only spot is H7: ZA down (11 points), going out.

    Greedy: M8 (E)X down, X on the double letter M9, 17 points; Bob goes out with ZA:
    11 + 2 x T = 13. Ann nets +4 and loses by 6. Best: block with H7 T(A) (2 points):
    the Z has no spot left, Bob passes, and Ann goes out with (E)X: 17 + 2 x Z = 37.
    Ann nets +39 and wins by 29.
    """
    lex = Lexicon.from_words(["CAT", "ZA", "TA", "OE", "EX", "OX"])
    rules = Rules(challenge_rule="void")
    g = endgame_factory(["TX", "Z"], words=("8G CAT", "8L OE"), lexicon=lex, rules=rules, scores=(100, 110))
    greedy = GreedyBot(lex).choose(g)
    assert greedy.notation(ENGLISH, g.board) == "M8 (E)X"
    after = g.copy()
    after.apply(greedy)
    reply = solve(after)  # Bob's view
    assert reply.notations() == ["H7 Z(A)"] and reply.spread == 6
    res = solve(g)
    assert res.complete and res.value == 39 and res.spread == 29
    assert res.notations() == ["H7 T(A)", "-", "M8 (E)X"]
    assert res.value == brute_force(g.board, g.rack(0), g.rack(1), 0, lex, rules)


def test_depth_and_time_limits(twl06: Lexicon, endgame_factory: Callable[..., Game]) -> None:
    g = endgame_factory(["AEINRST", "DEGILOU"], words=("8D WINDY", "E7 A.OUT"), lexicon=twl06)
    res = solve(g, max_depth=1)
    assert res.depth == 1 and not res.complete and isinstance(res.best_move, Place)
    legal = {c.move for c in generate(g.board, g.rack(0), twl06, g.rules, bag_count=0)}
    assert res.best_move in legal
    res = solve(g, time_limit=0.5)
    assert res.best_move in legal and res.elapsed < 5
    assert res.nodes > 0


def test_solve_refuses_open_bag(small: Lexicon, game_factory: Callable[..., Game]) -> None:
    g = game_factory(lexicon=small)
    with pytest.raises(GameStateError, match="bag is not empty"):
        solve(g, lexicon=small)


def test_endgame_bot_falls_back_before_the_end(small: Lexicon, game_factory: Callable[..., Game]) -> None:
    g = game_factory(["CATSHIX"], lexicon=small)
    bot = EndgameBot(small)
    m = bot.choose(g)
    assert isinstance(m, Place | Exchange | Pass)
    g.apply(m)
    assert bot.wants_challenge(g) is False


def test_empty_rack_is_a_pass(small: Lexicon) -> None:
    res = solve_position(Board.empty(), ((), ENGLISH.parse("Q")), small)
    assert res.best_move == Pass() and res.complete


#: A 7-tile endgame with a blank on each side of the board, found by seeded self-play: it
#: takes far longer than a second to solve exactly.
HARD = (
    "15/15/11XU2/7GODWIT2/4R2R6Z/4ACCORDS2MA/HA2M2K2T2OY/UP1JIVES2I2BI/EH2F5L3N/1O1AY2LEALTIES/"
    "ON1R6E4/PIlOTAGE1VROUW1/TA1U11/ES1N1FONT6/D2DIENE7 ABEGLNR/AEEIIQ? 383/310 0 lex TWL06;"
)


def test_an_endgame_stopped_by_the_clock_gives_its_best_line_so_far(twl06: Lexicon) -> None:
    from lexiko import cgp

    g = cgp.to_game(cgp.parse(HARD), lexicon=twl06, seed=0)
    seen: list[tuple[int, int]] = []
    res = solve(g, time_limit=1.0, lexicon=twl06, progress=lambda r: seen.append((r.depth, r.nodes)))
    # the exact answer takes minutes: an incomplete one shows the limit stopped the search
    # (the work is bounded by the result, not by the wall time of a loaded machine: on a
    # busy one the clock may stop even the first ply, depth 0, with the best play so far)
    assert not res.complete
    assert [d for d, _ in seen] == list(range(1, len(seen) + 1))  # one report per depth finished
    assert res.depth == (seen[-1][0] if seen else 0)
    legal = {c.move for c in generate(g.board, g.rack(0), twl06, g.rules, bag_count=0)}
    assert res.best_move in legal and res.line[0] == res.best_move


def test_the_endgame_command_has_a_default_limit_and_says_when_it_is_not_exact(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from lexiko.cli import main

    with pytest.raises(SystemExit):
        main(["endgame", "--help"])
    assert "(default: 30;" in " ".join(capsys.readouterr().out.split())
    assert main(["endgame", "--cgp", HARD, "--time-limit", "1", "--no-board"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "best found in 1 s at depth" in out and "not proven optimal" in out


@pytest.mark.slow
@pytest.mark.skipif(not movegen.kernel_available(), reason="lexiko._kernel is not built")
def test_the_kernels_solver_gives_the_python_solvers_values(twl06: Lexicon) -> None:
    """The compiled search and the Python one solve the same endgames (static self-play
    games at the first turn with the bag empty) to the same exact value. The compiled
    search prunes more (it skips plays going out worse than the best one, and more) and
    searches to the end after four plies, so depths and nodes differ."""
    from lexiko.bots import StaticBot
    from lexiko.bots.endgame import solve_position
    from lexiko.leaves import LeaveTable

    bot = StaticBot(twl06, LeaveTable.default())
    solved = 0
    for seed in (2, 10, 17, 25, 26, 32):  # endgames the Python search solves in a second
        g = Game(["a", "b"], seed=seed, lexicon=None, first_player=0)
        while g.bag_count:
            g.apply(bot.choose(g))
            if g.awaiting_final_challenge:
                g.apply("accept")
        p = g.player_on_turn
        args = (g.board, (g.rack(p), g.unseen(p)), twl06, g.rules)
        kw = {"scores": (g.scores[p], g.scores[1 - p]), "scoreless_turns": g.scoreless_turns}
        c = solve_position(*args, backend="c", **kw)  # type: ignore[arg-type]
        py = solve_position(*args, backend="python", **kw)  # type: ignore[arg-type]
        assert c.complete and py.complete
        assert (c.value, c.spread) == (py.value, py.spread)
        # the compiled line is legal and reaches the value it claims
        line = Game.from_position(g.board, [g.rack(p), g.unseen(p)], [0, 0], lexicon=twl06, seed=0)
        for move in c.line:
            line.apply(move)
            if line.awaiting_final_challenge:
                line.apply("accept")
        if line.is_over:
            assert line.scores[0] - line.scores[1] == c.value
        solved += 1
    assert solved == 6


@pytest.mark.slow
@pytest.mark.skipif(not movegen.kernel_available(), reason="lexiko._kernel is not built")
def test_the_kernels_solver_on_small_racks_of_a_real_board(twl06: Lexicon) -> None:
    """Racks of 1-4 tiles drawn from the unseen tiles of a real board, with runs of
    scoreless turns: the compiled search (its one-tile look at the anchors, its plays
    going out checked on a sibling's board, its Gen made and unmade along the line)
    gives the Python solver's exact value, and every move of its line is a legal play
    (or a pass) of the player on turn."""
    from lexiko import cgp

    g = cgp.to_game(cgp.parse(HARD), lexicon=twl06, seed=0)
    pool = list(g.rack(0)) + list(g.unseen(0))
    rng = random.Random(5)
    for _ in range(60):
        tiles = rng.sample(pool, rng.randint(2, 7))
        k = rng.randint(1, min(4, len(tiles) - 1))
        me, opp = tuple(sorted(tiles[:k])), tuple(sorted(tiles[k:]))
        scoreless = rng.choice([0, 0, 0, 3, 5])
        c = _solved_alike(g.board, me, opp, twl06, g.rules, scoreless)
        board, racks = g.board, [me, opp]
        for i, move in enumerate(c.line):
            rack = racks[i % 2]
            if isinstance(move, Pass):
                continue
            assert isinstance(move, Place)
            assert move in {d.move for d in generate(board, rack, twl06, g.rules, bag_count=0)}
            racks[i % 2] = without(rack, move.rack_tiles())
            board = board.place(move)
            if not racks[i % 2]:
                break


@pytest.mark.slow
@pytest.mark.skipif(not movegen.kernel_available(), reason="lexiko._kernel is not built")
def test_the_kernels_solver_with_a_blank_on_a_rack_and_none_on_the_board(twl06: Lexicon) -> None:
    """With no blank on the board a blank on a rack makes no scoreless play, so the
    compiled search takes runs of scoreless turns short of the last two as equal: the
    Python solver's exact values, runs of scoreless turns included."""
    from lexiko import cgp

    g = cgp.to_game(cgp.parse(HARD), lexicon=twl06, seed=0)
    board = Board(bytes(t & ~BLANK for t in g.board.cells), g.board.layout, g.board.tiles)  # PIlOTAGE: PILOTAGE
    pool = [t for t in list(g.rack(0)) + list(g.unseen(0)) if t]
    rng = random.Random(11)
    for _ in range(25):
        tiles = rng.sample(pool, rng.randint(2, 5))
        k = rng.randint(1, min(3, len(tiles)))
        me, opp = tuple(sorted([0, *tiles[:k]])), tuple(sorted(tiles[k:]))
        if rng.random() < 0.5:
            me, opp = opp, me
        scoreless = rng.choice([0, 1, 2, 3, 4, 5])
        c = _solved_alike(board, me, opp, twl06, g.rules, scoreless)
        # a line ending in passes shows every pass the run of scoreless turns still takes
        if all(isinstance(m, Pass) for m in c.line) and c.value == ENGLISH.rack_value(opp) - ENGLISH.rack_value(me):
            assert len(c.line) == max(1, g.rules.scoreless_turn_limit - scoreless)


def _solved_alike(
    board: Board, me: tuple[int, ...], opp: tuple[int, ...], lex: Lexicon, rules: Rules, scoreless: int
) -> EndgameResult:
    """The compiled search's answer for a position, after checking that it and the Python
    one both finish and find the same value."""
    kw = {"scoreless_turns": scoreless}
    c = solve_position(board, (me, opp), lex, rules, backend="c", **kw)  # type: ignore[arg-type]
    py = solve_position(board, (me, opp), lex, rules, backend="python", **kw)  # type: ignore[arg-type]
    assert c.complete and py.complete
    assert c.value == py.value, (ENGLISH.format(me), ENGLISH.format(opp), scoreless)
    return c


def _kernel_endgame(
    board: Board, me: tuple[int, ...], opp: tuple[int, ...], lexicon: Lexicon, rules: Rules, scoreless: int, cut: bool
) -> kernel.EndgameResult:
    """The kernel's endgame() itself, with its lexicon cut to the endgame's words or not."""
    setting = kernel.Setting.of(lexicon, rules, board.layout, board.tiles)
    return kernel.endgame(setting, board, bytes(me), bytes(opp), scoreless_run=scoreless, cut=cut)


@pytest.mark.slow
@pytest.mark.skipif(not movegen.kernel_available(), reason="lexiko._kernel is not built")
def test_the_kernels_solver_searches_the_same_tree_with_the_lexicon_cut_to_the_endgame(twl06: Lexicon) -> None:
    """The kernel cuts the lexicon to the words whose letters one line of the board and
    the two racks can supply (blanks for any letter) before it searches. The cut lexicon
    makes the same plays and cross-checks, so the search is the same tree: the same
    value, nodes and line as with the whole lexicon, on racks with and without blanks,
    and the Python solver's value."""
    from lexiko import cgp

    g = cgp.to_game(cgp.parse(HARD), lexicon=twl06, seed=0)
    pool = [t for t in list(g.rack(0)) + list(g.unseen(0)) if t]
    rng = random.Random(23)
    blanks = 0
    for i in range(16):
        tiles = rng.sample(pool, rng.randint(3, 6))
        k = rng.randint(1, len(tiles) - 1)
        me, opp = tuple(sorted(tiles[:k])), tuple(sorted(tiles[k:]))
        if i % 3 == 0:  # a blank on one rack: its words are any letter's
            me = tuple(sorted((0, *me)))
            blanks += 1
        scoreless = rng.choice([0, 0, 3])
        full = _kernel_endgame(g.board, me, opp, twl06, g.rules, scoreless, cut=False)
        cut = _kernel_endgame(g.board, me, opp, twl06, g.rules, scoreless, cut=True)
        assert cut == full, (ENGLISH.format(me), ENGLISH.format(opp))
        assert full[1]  # complete
        if len(me) + len(opp) <= 5:
            kw = {"scoreless_turns": scoreless}
            py = solve_position(g.board, (me, opp), twl06, g.rules, backend="python", **kw)  # type: ignore[arg-type]
            assert py.complete and py.value == cut[0], (ENGLISH.format(me), ENGLISH.format(opp))
    assert blanks == 6


@pytest.mark.slow
@pytest.mark.skipif(not movegen.kernel_available(), reason="lexiko._kernel is not built")
def test_the_kernels_solver_against_one_tile(twl06: Lexicon) -> None:
    """The opponent holding one tile, the compiled search values each play by an upper
    bound (its score, less twice the tiles left, less the opponent's tile on a square
    the play does not change; holding two, its score plus twice the opponent's tile plus
    the other tile's best after it) and searches no play whose bound is at most alpha.
    Racks of two to four tiles against one, on a real board with tiles that stick (Q, Z
    among them) and with runs of scoreless turns: the Python solver's exact values."""
    from lexiko import cgp

    g = cgp.to_game(cgp.parse(HARD), lexicon=twl06, seed=0)
    pool = [t for t in list(g.rack(0)) + list(g.unseen(0)) if t]
    letters = ENGLISH.parse("QZVWKJ")
    rng = random.Random(7)
    for i in range(40):
        me = tuple(sorted(rng.sample(pool, rng.randint(2, 4))))
        opp: tuple[int, ...] = (letters[i % len(letters)],) if i % 2 else (rng.choice(pool),)
        if rng.random() < 0.5:
            me, opp = opp, me  # the side on turn holding the one tile, the other the rack
        scoreless = rng.choice([0, 0, 0, 2, 4])
        _solved_alike(g.board, me, opp, twl06, g.rules, scoreless)


#: HARD with PIlOTAGE's blank on the opponent's rack (PILOTAGE on the board; the Q, one
#: of its tiles, on the side on turn): against two blanks every play's play-out generates
#: thousands of plays a turn, and the first ply alone took 1.6 s, the lexicon cut to the
#: endgame 0.4 s more, whatever the time limit.
BLANKS = HARD.replace("PIlOTAGE", "PILOTAGE").replace("ABEGLNR/AEEIIQ?", "ABEGNQR/AEEII??")


@pytest.mark.parametrize("backend", ["c", "python"])
def test_a_time_limit_stops_the_first_ply_with_a_move(twl06: Lexicon, backend: movegen.Backend) -> None:
    from lexiko import cgp

    if backend == "c" and not movegen.kernel_available():
        pytest.skip("lexiko._kernel is not built")
    g = cgp.to_game(cgp.parse(BLANKS), lexicon=twl06, seed=0)
    assert ENGLISH.format(g.unseen(0)) == "AEEII??"
    res = solve_position(g.board, (g.rack(0), g.unseen(0)), twl06, g.rules, time_limit=1e-6, backend=backend)
    # the clock is read every 8 nodes or play-out steps: a limit long past stops the
    # search there, with the best move valued so far (or the first in the order)
    assert not res.complete and res.depth == 0 and res.nodes < 16
    legal = {c.move for c in generate(g.board, g.rack(0), twl06, g.rules, bag_count=0)}
    assert isinstance(res.best_move, Place) and res.best_move in legal and res.line[0] == res.best_move


@pytest.mark.skipif(not movegen.kernel_available(), reason="lexiko._kernel is not built")
def test_the_kernels_time_limit_holds_against_two_blanks(twl06: Lexicon) -> None:
    """The lexicon's cut gets a quarter of the time, the first ply stops with the clock:
    0.01 s given, 1.9 CPU-s taken before. A generous bound (25 times the limit) on the
    process's CPU time, not on the wall clock of a loaded machine."""
    import time

    from lexiko import cgp

    g = cgp.to_game(cgp.parse(BLANKS), lexicon=twl06, seed=0)
    t = time.process_time()
    res = solve_position(g.board, (g.rack(0), g.unseen(0)), twl06, g.rules, time_limit=0.01, backend="c")
    assert time.process_time() - t < 0.25
    assert not res.complete and res.depth == 0 and isinstance(res.best_move, Place)


@pytest.mark.parametrize("backend", ["c", "python"])
def test_a_pass_worth_no_more_than_a_play_is_not_chosen(small: Lexicon, backend: movegen.Backend) -> None:
    """The opponent's Q is stuck: passing first gives up nothing (the plays can all be
    made later), but reads as stalling; the play is kept, the pass only when strictly
    better. The kernel tried the pass first (no bound against a stuck tile) and kept it."""
    if backend == "c" and not movegen.kernel_available():
        pytest.skip("lexiko._kernel is not built")
    cat = parse_move("8G CAT")
    assert isinstance(cat, Place)
    board = Board.empty().place(cat)
    me, opp = ENGLISH.parse("ST"), ENGLISH.parse("Q")
    res = solve_position(board, (me, opp), small, backend=backend)
    after_pass = solve_position(board, (opp, me), small, scoreless_turns=1, backend=backend)
    assert res.complete and res.value == 28 and -after_pass.value == 28  # the pass is worth as much
    assert res.notations() == ["8F S(CAT)", "-", "H7 T(A)"]
