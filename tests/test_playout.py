"""The static player's turns in the kernel (lexiko.bots.playout) play the game
lexiko.game.Game plays with StaticBot, move for move: same moves, scores, draws,
exchange shuffles and ending."""

from __future__ import annotations

import pytest

from lexiko import movegen
from lexiko.bots import StaticBot
from lexiko.bots.playout import play_out, static_games, static_turns, unsupported
from lexiko.game import Game
from lexiko.leaves import LeaveTable
from lexiko.lexicon import Lexicon
from lexiko.rules import EIGHT_TILE, LEXULOUS, TOURNAMENT, Rules
from lexiko.selfplay import game_seed, play_game
from lexiko.tiles import ENGLISH

pytestmark = pytest.mark.skipif(not movegen.kernel_available(), reason="lexiko._kernel is not built")


def _turns(g: Game) -> list[tuple[int, object, int]]:
    return [(e.player, e.move, e.score) for e in g.history if e.kind in ("play", "exchange", "pass")]


@pytest.mark.parametrize(
    ("rules", "seats", "games"),
    [(TOURNAMENT, 2, 24), (Rules(), 3, 6), (EIGHT_TILE, 2, 4), (LEXULOUS, 2, 4)],
    ids=["tournament", "three-players", "eight-tile", "lexulous"],
)
def test_play_out_is_the_static_players_game(twl06: Lexicon, rules: Rules, seats: int, games: int) -> None:
    tables = [LeaveTable.default(), LeaveTable.zeros(), LeaveTable.default()][:seats]
    exchanges = 0
    for i in range(games):
        seed = game_seed(5, i)
        bots = [StaticBot(twl06, t, f"p{j}") for j, t in enumerate(tables)]
        g = play_game(bots, rules, seed=seed, first_player=i % seats)
        start = Game([b.name for b in bots], rules, seed=seed, lexicon=None, first_player=i % seats)
        r = play_out(start, tables, twl06, log=True)
        assert [(t.player, t.move, t.score) for t in r.log] == _turns(g)
        assert (r.scores, r.end_reason, r.scores_before_end) == (
            tuple(g.scores),
            g.end_reason,
            tuple(g.scores_before_end or ()),
        )
        assert r.board == g.board and r.bag == () and r.racks == tuple(g.rack(p) for p in range(seats))
        bingos = [0] * seats
        for p, move, _ in _turns(g):
            bingos[p] += getattr(move, "tile_count", 0) >= rules.bingo_tiles
        assert list(r.bingos) == bingos and r.turns == len(r.log)
        assert start.history == [] and start.bag_count == len(start.draw_state().bag)  # the game is untouched
        exchanges += sum(r.exchanges)
    if rules is TOURNAMENT:
        assert exchanges > 0  # the bag was shuffled by the kernel as Python shuffles it


@pytest.mark.parametrize(
    ("rules", "seats", "games"),
    [(TOURNAMENT, 2, 60), (Rules(), 3, 12), (Rules(max_players=4), 4, 8), (EIGHT_TILE, 2, 8), (LEXULOUS, 2, 8)],
    ids=["tournament", "three-players", "four-players", "eight-tile", "lexulous"],
)
def test_whole_games_in_one_call_are_the_games_play_out_plays(
    twl06: Lexicon, rules: Rules, seats: int, games: int
) -> None:
    tables = [LeaveTable.default(), LeaveTable.zeros(), LeaveTable.default(), LeaveTable.zeros()][:seats]
    seeds = [game_seed(9, i) for i in range(games)] + [0, -1, 2**64 + 3, 2**128 - 1]
    firsts = [i % seats for i in range(len(seeds))]
    got = static_games(seeds, firsts, tables, twl06, rules)
    for seed, first, r in zip(seeds, firsts, got, strict=True):
        start = Game([f"p{j}" for j in range(seats)], rules, seed=seed, lexicon=None, first_player=first)
        want = play_out(start, tables, twl06)
        assert (r.scores, r.scores_before_end, r.bingos, r.turns, r.end_reason) == (
            want.scores,
            want.scores_before_end,
            want.bingos,
            want.turns,
            want.end_reason,
        )
    assert static_games([], [], tables, twl06, rules) == []
    with pytest.raises(ValueError, match="a first player who is not a seat"):
        static_games([1], [seats], tables, twl06, rules)
    with pytest.raises(ValueError, match="clocks"):
        static_games([1], [0], tables, twl06, Rules(time_minutes=25))


def test_a_few_turns_then_the_game_goes_on(twl06: Lexicon) -> None:
    t = LeaveTable.default()
    g = Game(["a", "b"], seed=11, lexicon=None, first_player=1)
    r = play_out(g, [t, t], twl06, max_turns=5, log=True)
    assert r.turns == 5 and r.end_reason is None
    for turn in r.log:  # the same moves through Game reach the same state
        assert StaticBot(twl06, t).choose(g) == turn.move
        g.apply(turn.move)
    d = g.draw_state()
    assert (r.board, r.bag, r.scores, r.turn, r.scoreless_run) == (g.board, d.bag, d.scores, d.turn, d.scoreless_run)
    assert r.racks == tuple(g.rack(p) for p in range(2)) and r.rng_state == d.rng_state
    rest = play_out(g, [t, t], twl06)
    assert rest.end_reason is not None and rest.turns > 10


@pytest.mark.parametrize("state", [(0, 0, 0, 0), (1, 2, 3), (1, 2, 3, 2**64), (1, 2, 3, -1), "abcd"])
def test_the_kernel_takes_only_a_generator_state(twl06: Lexicon, state: object) -> None:
    """The kernel takes lexiko.rng's state (four ints below 2**64, not all zero) and
    nothing else: no silent play from a generator stuck at zero."""
    from lexiko.bots.playout import static_turns

    t = LeaveTable.default()
    g = Game(["a", "b"], seed=11, lexicon=None, first_player=1)
    d = g.draw_state()
    with pytest.raises(
        ValueError, match=r"^playout: rng_state is lexiko.rng.Rng.getstate\(\), four ints below 2\*\*64"
    ):
        static_turns(g.board, d.racks, d.bag, d.scores, d.turn, 0, state, twl06, TOURNAMENT, [t, t])  # type: ignore[arg-type]


def test_what_the_kernel_does_not_play(twl06: Lexicon) -> None:
    t = LeaveTable.default()
    assert unsupported(TOURNAMENT, 2, [t, t]) is None
    assert unsupported(Rules(time_minutes=25), 2) == "clocks"
    assert unsupported(Rules(teams=True, max_players=4), 4) == "teams"
    assert unsupported(Rules(target_score=100), 2) == "a target score"
    assert unsupported(TOURNAMENT, 2, [LeaveTable(values={(5,) * 11: 1.0})]) == "a leave table the kernel cannot read"
    g = Game(["a", "b"], Rules(time_minutes=25), seed=1, lexicon=None)
    with pytest.raises(ValueError, match="cannot play out in the kernel: clocks"):
        play_out(g, [t, t], twl06)
    g = Game(["a", "b"], seed=1, lexicon=None)
    with pytest.raises(ValueError, match="cannot play out in the kernel: 1 leave tables for 2 players"):
        play_out(g, [t], twl06)
    g.set_rack(g.player_on_turn, "QXAEIOU")
    g.play("8G QX")  # a phony under the double challenge rule: the bot would challenge it
    with pytest.raises(ValueError, match="cannot play out in the kernel: a phony awaiting a challenge"):
        play_out(g, [t, t], twl06)


@pytest.mark.parametrize(("plies", "bag_left"), [(2, 60), (4, 3), (3, 0), (64, 5)])
def test_simulation_in_the_kernel_gives_the_same_results(
    twl06: Lexicon, monkeypatch: pytest.MonkeyPatch, plies: int, bag_left: int
) -> None:
    """The simulation runs its play-outs in the kernel when it can, a chunk of iterations
    in one call (simulate_iterations): the values of the Python play-outs, iteration for
    iteration (here mid-game, near the end with exchanges impossible, with the bag
    empty, and played out to the end of the game), whatever the seed (the kernel reads
    seeds modulo 2**64, as lexiko.rng does)."""
    from lexiko.bots import simulation

    t = LeaveTable.default()
    g = Game(["a", "b"], seed=21, lexicon=None, first_player=0)
    while g.bag_count > bag_left:
        g.apply(StaticBot(twl06, t).choose(g))
    pos = g.position()
    calls = []
    in_kernel = simulation.simulate_iterations

    def counted(*a: object, **k: object) -> object:
        calls.append(1)
        return in_kernel(*a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(simulation, "simulate_iterations", counted)

    def run(seed: int) -> list[tuple[str, float, float, float]]:
        res = simulation.simulate(pos, twl06, candidates=6, iterations=30, plies=plies, seed=seed)
        return [(r.candidate.notation(), r.mean, r.stdev, r.win_rate) for r in res]

    chunked, big, negative = run(9), run(2**50 + 3), run(-9)  # big: a seed base above 2**64
    assert len(calls) >= 3
    calls.clear()
    monkeypatch.setattr(simulation, "unsupported", lambda *a: "the Python play-outs, for the test")
    assert run(9) == chunked and run(2**50 + 3) == big and run(-9) == negative and not calls
    assert len(chunked) == 6 and (chunked != negative or bag_left == 0)  # other seeds, other deals


@pytest.mark.parametrize("seats", [3, 4])
def test_simulation_in_the_kernel_with_more_seats_and_no_placement_candidates(
    twl06: Lexicon, monkeypatch: pytest.MonkeyPatch, seats: int
) -> None:
    """With several candidates the kernel finds each opponent's best placements on the
    position once per iteration and, in a play-out, searches only the lines the moves
    before touched (a pass or an exchange touches none): the values of the Python
    play-outs still, with every opponent moving on a board changed by one move or more."""
    from lexiko.bots import simulation
    from lexiko.move import Exchange, Pass

    t = LeaveTable.default()
    g = Game([f"p{k}" for k in range(seats)], seed=30 + seats, lexicon=None, first_player=0)
    for _ in range(2 * seats):
        g.apply(StaticBot(twl06, t).choose(g))
    pos = g.position()
    found = movegen.generate(pos.board, pos.rack, twl06, pos.rules, bag_count=pos.bag_count, leaves=t.value)
    places = [c for c in found if not isinstance(c.move, (Exchange, Pass))][:5]
    others = [
        next(c for c in found if isinstance(c.move, Exchange)),
        next(c for c in found if isinstance(c.move, Pass)),
    ]
    cands = places + others

    def run() -> list[tuple[str, float, float, float, int]]:
        res = simulation.simulate(pos, twl06, candidates=cands, iterations=6, plies=seats, seed=5)
        return [(r.candidate.notation(), r.mean, r.stdev, r.win_rate, r.iterations) for r in res]

    in_kernel = run()
    monkeypatch.setattr(simulation, "unsupported", lambda *a: "the Python play-outs, for the test")
    assert run() == in_kernel and len(in_kernel) == 7


def test_training_in_the_kernel_learns_the_same_table(twl06: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """train() plays its games in the kernel when it can; the observations, and so the
    table, are those of the games played turn by turn through Game."""
    from lexiko.bots import playout
    from lexiko.training import train

    first = train(6, rounds=2, lexicon=twl06, seed=3)
    monkeypatch.setattr(playout, "unsupported", lambda *a: "the Python games, for the test")
    second = train(6, rounds=2, lexicon=twl06, seed=3)

    def table(t: LeaveTable) -> list[str]:  # the values and how they were made, not how long it took
        return [ln for ln in t.dumps().splitlines() if not ln.startswith(("#@seconds", "#@cpu-seconds"))]

    assert table(first) == table(second) and len(first) > 10


def test_the_static_player_passes_only_when_it_has_nothing_else_while_tiles_are_drawn(twl06: Lexicon) -> None:
    """A table that values every tile kept at 10 points makes keeping the whole rack (a
    pass, 70) worth more than any play or exchange; still the static player plays, in
    Python and in the kernel alike, as MAGPIE's does: the pass keeps a rack no table is
    trained on."""
    from lexiko.move import Pass

    greedy_keeper = LeaveTable(ENGLISH, tile_values={c: [10.0] for c in range(27)})
    g = Game(["a", "b"], seed=5, lexicon=None, first_player=0)
    best = movegen.generate(g.board, g.rack(), twl06, best=1, leaves=greedy_keeper)[0]
    assert isinstance(best.move, Pass) and best.equity == 70.0  # the best by equity
    move = StaticBot(twl06, greedy_keeper).choose(g)
    assert not isinstance(move, Pass)
    turn = play_out(g, [greedy_keeper, greedy_keeper], twl06, max_turns=1, log=True).log[0]
    assert turn.move == move


def test_the_log_says_what_each_player_kept(twl06: Lexicon) -> None:
    t = LeaveTable.default()
    g = Game(["a", "b"], seed=8, lexicon=None, first_player=0)
    r = play_out(g, [t, t], twl06, log=True)
    for turn in r.log:
        rack = g.rack(turn.player)
        g.apply(turn.move)
        kept = list(rack)
        for tile in turn.move.rack_tiles() if hasattr(turn.move, "rack_tiles") else getattr(turn.move, "tiles", ()):
            kept.remove(tile)
        assert (turn.kept, turn.bag) == (tuple(kept), g.bag_count)
        if g.awaiting_final_challenge:
            g.apply("accept")
    assert g.is_over and tuple(g.scores) == r.scores


def test_the_kernel_refuses_board_codes_it_has_no_value_for(twl06: Lexicon) -> None:
    from lexiko.board import Board
    from lexiko.bots.endgame import solve_position
    from lexiko.tiles import ENGLISH

    bad = Board(bytes([200]) + bytes(224))
    with pytest.raises(ValueError, match="a board cell holds a code of 128 or more"):
        movegen.generate(bad, ENGLISH.parse("AB"), twl06)
    with pytest.raises(ValueError, match="a board cell holds a code of 128 or more"):
        solve_position(bad, (ENGLISH.parse("AB"), ENGLISH.parse("C")), twl06, backend="c")
    t = LeaveTable.default()
    from lexiko.bots.playout import static_turns

    with pytest.raises(ValueError, match="a board cell holds a code of 128 or more"):
        static_turns(
            bad,
            [ENGLISH.parse("AB"), ENGLISH.parse("C")],
            [],
            [0, 0],
            0,
            0,
            Game(["a", "b"], seed=1, lexicon=None).draw_state().rng_state,
            twl06,
            TOURNAMENT,
            [t, t],
        )


def test_the_stopping_rule_drops_what_is_clearly_behind(twl06: Lexicon) -> None:
    """simulate(prune=Z) drops, between batches of 16 iterations, the candidates the
    leader beats by more than Z standard errors on the same play-outs, and stops when one
    is left: the same choice as the full simulation here for a fraction of the play-outs,
    whatever the number of workers."""
    from concurrent.futures import ThreadPoolExecutor

    from lexiko.bots import simulation

    t = LeaveTable.default()
    g = Game(["a", "b"], seed=22, lexicon=None, first_player=0)
    while g.bag_count > 60:
        g.apply(StaticBot(twl06, t).choose(g))
    pos = g.position()
    full = simulation.simulate(pos, twl06, candidates=8, iterations=400, plies=2, seed=4)
    pruned = simulation.simulate(pos, twl06, candidates=8, iterations=400, plies=2, seed=4, prune=3.0)
    assert pruned[0].candidate == full[0].candidate
    counts = [r.iterations for r in pruned]
    assert sum(counts) < sum(r.iterations for r in full) // 2
    assert all(c % 16 == 0 or c == 400 for c in counts) and min(counts) >= 16
    survivors = [r for r in pruned if r.iterations == counts[0]]
    assert all(r.iterations < counts[0] for r in pruned[len(survivors) :])  # the dropped, listed after
    # a candidate's play-outs are those of the full run: the first dropped has the mean a
    # simulation of that many iterations gives it
    m = min(counts)
    short = {r.candidate: r.mean for r in simulation.simulate(pos, twl06, candidates=8, iterations=m, plies=2, seed=4)}
    assert all(r.mean == short[r.candidate] for r in pruned if r.iterations == m)
    with ThreadPoolExecutor(3) as ex:
        spread = simulation.simulate(
            pos, twl06, candidates=8, iterations=400, plies=2, seed=4, prune=3.0, executor=ex, jobs=3
        )
    assert [(r.candidate, r.mean, r.iterations) for r in spread] == [
        (r.candidate, r.mean, r.iterations) for r in pruned
    ]
    # a z no candidate can pass keeps them all to the end, with the full run's values
    patient = simulation.simulate(pos, twl06, candidates=8, iterations=64, plies=2, seed=4, prune=1e9)
    whole = simulation.simulate(pos, twl06, candidates=8, iterations=64, plies=2, seed=4)
    assert [(r.candidate, r.mean, r.iterations) for r in patient] == [
        (r.candidate, r.mean, r.iterations) for r in whole
    ]


def test_a_generators_candidate_is_applied_as_its_move(twl06: Lexicon) -> None:
    """Game.apply trusts a Candidate (no second legality check or scoring): the game is
    the same as with its move, event for event; tiles not on the rack are still refused
    and change nothing."""
    from lexiko.errors import IllegalMoveError
    from lexiko.move import Place
    from lexiko.movegen import Candidate, generate

    t = LeaveTable.default()
    a = Game(["a", "b"], seed=3, lexicon=twl06, first_player=0)
    b = Game(["a", "b"], seed=3, lexicon=twl06, first_player=0)
    while not a.is_over:
        if a.awaiting_final_challenge:
            a.apply("accept")
            b.apply("accept")
            continue
        cand = StaticBot(twl06, t).candidate(a)
        a.apply(cand)
        b.apply(cand.move)
    assert a.history == b.history and a.scores == b.scores and a.board == b.board
    g = Game(["a", "b"], seed=3, lexicon=twl06, first_player=0)
    g.set_rack(0, "QIAAEEE")
    qi = generate(g.board, g.rack(), twl06, best=1)[0]
    g.set_rack(0, "XYAAEEE")
    before = g.draw_state()
    with pytest.raises(IllegalMoveError, match="tiles IQ are not on your rack"):
        g.apply(qi)
    assert g.draw_state() == before and g.history == []
    assert isinstance(qi.move, Place) and isinstance(qi, Candidate)


def test_an_endgame_penalty_only_changes_play_with_the_bag_empty(twl06: Lexicon) -> None:
    t = LeaveTable.default()
    changed = 0
    for seed in range(20):
        g = Game(["a", "b"], seed=seed, lexicon=None, first_player=0)
        d = g.draw_state()
        args = (g.board, d.racks, d.bag, d.scores, d.turn, d.scoreless_run, d.rng_state, twl06, g.rules, [t, t])
        plain = static_turns(*args, log=True)
        harsh = static_turns(*args, log=True, penalties=[25.0, 0.0])
        bag_empty = next(k for k, turn in enumerate(plain.log) if turn.bag == 0)
        assert harsh.log[: bag_empty + 1] == plain.log[: bag_empty + 1]  # the same game while tiles are drawn
        changed += harsh.log != plain.log
    assert changed > 0
