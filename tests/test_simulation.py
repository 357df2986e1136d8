"""The simulation player: legal moves, reproducible with a seed whatever runs the
play-outs, the static value with no look-ahead, limits and progress."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from shared_paths import HAVE_SHARED, SHARED

from lexiko.analysis import position_at_turn
from lexiko.bots import make_player
from lexiko.bots.simulation import SimResult, SimulationBot, simulate
from lexiko.bots.static import endgame_leaves, static_choice
from lexiko.errors import LexikoError
from lexiko.game import Game
from lexiko.leaves import LeaveTable
from lexiko.lexicon import Lexicon
from lexiko.movegen import generate
from lexiko.rules import Rules

GAME = SHARED / "gcg" / "liwords__every_e.gcg"


@pytest.fixture(scope="module")
def midgame() -> Game:
    """Turn 10 of a real game: JD to play AEELPST, 49 tiles in the bag."""
    if not HAVE_SHARED:
        pytest.skip(f"needs the corpora in {SHARED} (set LEXIKO_SHARED_DIR to use another place)")
    return position_at_turn(GAME, 10)


@pytest.fixture(scope="module")
def late() -> Game:
    """Turn 22 of the same game: 6 tiles in the bag, 368 to 366."""
    if not HAVE_SHARED:
        pytest.skip(f"needs the corpora in {SHARED} (set LEXIKO_SHARED_DIR to use another place)")
    return position_at_turn(GAME, 22)


def legal_moves(game: Game, lex: Lexicon) -> set[object]:
    pos = game.position()
    return {c.move for c in generate(pos.board, pos.rack, lex, pos.rules, bag_count=pos.bag_count)}


def outcome(results: list[SimResult]) -> list[tuple[object, float, float, float, int]]:
    return [(r.candidate.move, r.mean, r.stdev, r.win_rate, r.iterations) for r in results]


def test_sim_bot_plays_only_legal_moves(twl06: Lexicon) -> None:
    """A few turns of sim against greedy from the start: every choice is legal."""
    from lexiko.bots import Player
    from lexiko.bots.greedy import GreedyBot

    game = Game(["sim", "greedy"], Rules(challenge_rule="void"), seed=5, lexicon=twl06, first_player=0)
    players: list[Player] = [SimulationBot(twl06, candidates=4, iterations=6, seed=1), GreedyBot(twl06)]
    for _ in range(6):
        p = game.player_on_turn
        move = players[p].choose(game)
        assert move in legal_moves(game, twl06)
        game.apply(move)  # raises on an illegal move
    assert not game.is_over


def test_results_are_ranked_and_sane(twl06: Lexicon, midgame: Game) -> None:
    bot = SimulationBot(twl06, candidates=5, iterations=12, seed=3)
    res = bot.evaluate(midgame)
    assert len(res) == 5
    assert [r.mean for r in res] == sorted((r.mean for r in res), reverse=True)
    assert all(r.iterations == 12 and r.stdev >= 0 and 0.0 <= r.win_rate <= 1.0 for r in res)
    static = generate(
        midgame.board,
        midgame.rack(),
        twl06,
        midgame.rules,
        bag_count=midgame.bag_count,
        best=5,
        leaves=LeaveTable.default(),
    )
    assert {r.candidate.move for r in res} == {c.move for c in static}
    assert bot.choose(midgame) in {r.candidate.move for r in res}


def test_deterministic_with_a_seed_whatever_runs_it(twl06: Lexicon, midgame: Game) -> None:
    first = outcome(SimulationBot(twl06, candidates=4, iterations=10, seed=42).evaluate(midgame))
    again = outcome(SimulationBot(twl06, candidates=4, iterations=10, seed=42).evaluate(midgame))
    assert first == again
    with ThreadPoolExecutor(2) as ex:
        threaded = outcome(SimulationBot(twl06, candidates=4, iterations=10, seed=42, executor=ex).evaluate(midgame))
    assert threaded == first
    with SimulationBot(twl06, candidates=4, iterations=10, seed=42, jobs=2) as pooled_bot:
        pooled = outcome(pooled_bot.evaluate(midgame))
    assert pooled == first
    other = outcome(SimulationBot(twl06, candidates=4, iterations=10, seed=43).evaluate(midgame))
    assert other != first


def test_no_look_ahead_is_the_static_equity(twl06: Lexicon, midgame: Game) -> None:
    """With no ply after the candidate a play-out is worth its score plus its leave:
    exactly the static equity, with no spread."""
    res = simulate(midgame.position(), twl06, candidates=6, iterations=5, plies=0, seed=1)
    for r in res:
        assert r.mean == pytest.approx(r.candidate.equity)
        assert r.stdev == pytest.approx(0.0)
    assert res[0].candidate.move == static_choice(midgame.position(), twl06)


def test_time_limit_and_progress(twl06: Lexicon, midgame: Game) -> None:
    seen: list[tuple[int, int]] = []
    res = simulate(
        midgame.position(),
        twl06,
        candidates=3,
        iterations=200,
        seed=1,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen[0] == (0, 200) and seen[-1] == (200, 200)
    assert all(r.iterations == 200 for r in res)
    res = simulate(midgame.position(), twl06, candidates=3, iterations=100_000, seed=1, time_limit=0.2)
    assert 0 < res[0].iterations < 100_000


def test_empty_bag_is_played_out_once(twl06: Lexicon, endgame_factory: Callable[..., Game]) -> None:
    """With the bag empty the opponent's rack is known: one play-out per candidate says
    it all; and the bot can hand the position to the endgame solver."""
    g = endgame_factory(["AEINRST", "DEGILOU"], words=("8D WINDY", "E7 A.OUT"), lexicon=twl06)
    res = SimulationBot(twl06, candidates=5, iterations=50, seed=1).evaluate(g)
    assert all(r.iterations == 1 for r in res)
    bot = SimulationBot(twl06, candidates=5, iterations=50, seed=1, endgame_time=0.3)
    assert bot.choose(g) in legal_moves(g, twl06)


def test_endgame_leaves() -> None:
    from lexiko.tiles import ENGLISH

    value = endgame_leaves(ENGLISH, ENGLISH.parse("QZ"))
    assert value(()) == 40.0 and value(ENGLISH.parse("AB")) == -8.0 - 10.0  # kept: twice AB and the penalty


def test_challenges_phonies_and_make_player(twl06: Lexicon, game_factory: Callable[..., Game]) -> None:
    g = game_factory(["QIAEEEE"], Rules(challenge_rule="double"), lexicon=twl06)
    g.play("8G QAI")  # no such word
    bot = make_player("sim", twl06, seed=1, iterations=5, candidates=3)
    assert isinstance(bot, SimulationBot) and bot.name == "sim"
    assert bot.wants_challenge(g)
    g2 = game_factory(["QIAEEEE"], Rules(challenge_rule="double"), lexicon=twl06)
    g2.play("8G QI")
    assert not bot.wants_challenge(g2)


def test_score_only_and_tiny_lexicon() -> None:
    lex = Lexicon.from_words(["QI", "QAT", "AT", "TA", "TAE", "EAT", "ETA", "TEA"])
    g = Game(["A", "B"], lexicon=lex, seed=2, first_player=0)
    g.set_rack(0, "QIATEEE")
    res = simulate(g.position(), lex, leaves=False, candidates=3, iterations=8, seed=5)
    assert len(res) == 3 and all(r.iterations == 8 for r in res)
    # a custom leave function works too (and is remembered per leave)
    calls: list[tuple[int, ...]] = []

    def leave_value(leave: tuple[int, ...]) -> float:
        calls.append(leave)
        return -float(len(leave))

    res2 = simulate(g.position(), lex, leaves=leave_value, candidates=3, iterations=4, seed=5, plies=0)
    assert all(r.mean == pytest.approx(r.candidate.equity) for r in res2)
    assert len(calls) == len(set(calls))


def test_ranked_by_win_rate_the_same_play_outs_in_another_order(twl06: Lexicon, late: Game) -> None:
    """rank="win" orders the same results by win rate, the mean value breaking ties; the
    stopping rule then measures the leader by win rate too."""
    pos = late.position()
    by_value = simulate(pos, twl06, candidates=6, iterations=12, seed=11)
    by_win = simulate(pos, twl06, candidates=6, iterations=12, seed=11, rank="win")
    assert sorted(outcome(by_win), key=repr) == sorted(outcome(by_value), key=repr)
    assert (by_value[0].candidate.notation(), by_win[0].candidate.notation()) == ("G10 B..GE", "7A GEM")
    assert [r.candidate.move for r in by_win] == [
        r.candidate.move for r in sorted(by_value, key=lambda r: (-r.win_rate, -r.mean))
    ]
    assert [r.mean for r in by_value] == sorted((r.mean for r in by_value), reverse=True)
    pruned = simulate(pos, twl06, candidates=6, iterations=64, seed=4, rank="win", prune=1.0)
    live = [r for r in pruned if r.iterations == max(x.iterations for x in pruned)]
    assert [r.win_rate for r in live] == sorted((r.win_rate for r in live), reverse=True)
    with pytest.raises(LexikoError, match=r"^rank 'wins': candidates are ranked by 'value' or 'win'$"):
        SimulationBot(twl06, rank="wins")  # type: ignore[arg-type]
    with SimulationBot(twl06, candidates=6, iterations=12, seed=9, rank="win") as bot:
        assert bot.choose(late) == bot.last_results[0].candidate.move
        assert bot.last_results[0].win_rate == max(r.win_rate for r in bot.last_results)


def test_near_the_end_play_outs_go_to_the_end_and_rank_by_wins(twl06: Lexicon, late: Game) -> None:
    """With ``finish`` at least the tiles in the bag, every play-out ends the game, so a
    candidate's win rate is the share of its play-outs won (a whole number of halves), and
    the candidates go by it: the simulation with plies to the end, ranked by win rate.
    With more tiles in the bag than ``finish``, the player's own plies and rank."""
    pos = late.position()
    with SimulationBot(twl06, candidates=6, iterations=12, seed=4, finish=6) as bot:
        near = bot.evaluate(late)
    assert all((r.win_rate * 24) == round(r.win_rate * 24) for r in near)
    assert [r.win_rate for r in near] == sorted((r.win_rate for r in near), reverse=True)
    assert len({r.win_rate for r in near}) > 1
    seed = SimulationBot(twl06, seed=4)._rng.getrandbits(48)  # the seed the bot's first evaluation takes
    assert outcome(near) == outcome(simulate(pos, twl06, candidates=6, iterations=12, plies=64, seed=seed, rank="win"))
    with SimulationBot(twl06, candidates=6, iterations=12, seed=4, finish=5) as bot:
        assert outcome(bot.evaluate(late)) == outcome(simulate(pos, twl06, candidates=6, iterations=12, seed=seed))
    with pytest.raises(LexikoError, match=r"^finish -1: give the most tiles in the bag for play-outs to the end"):
        SimulationBot(twl06, finish=-1)
    with pytest.raises(LexikoError, match=r"^finish 'abc': give the most tiles in the bag for play-outs to the end"):
        SimulationBot(twl06, finish="abc")  # type: ignore[arg-type]


def test_a_play_out_is_worth_the_spread_plus_what_was_kept_less_what_the_opponent_kept(twl06: Lexicon) -> None:
    """After the candidate and one reply, the play-out's value is the candidate's score
    less the reply's, plus the value of the tiles the player kept, less the value of those
    the opponent kept (both still drawing from the bag), as MAGPIE values its play-outs."""
    import random

    from lexiko.bots.simulation import _Playout

    t = LeaveTable.default()
    g = Game(["a", "b"], seed=3, lexicon=twl06, first_player=0)
    g.set_rack(0, "AEIRSTZ")
    g.set_rack(1, "DEGNOOU")
    pos = g.position()
    cand = generate(pos.board, pos.rack, twl06, pos.rules, bag_count=pos.bag_count, best=1, leaves=t)[0]
    board = pos.board.place(cand.move)  # type: ignore[arg-type]
    bag = list(g.draw_state().bag)
    reply = generate(board, g.rack(1), twl06, pos.rules, bag_count=len(bag) - 7 + len(cand.leave), best=1, leaves=t)[0]
    value, _ = _Playout(twl06, pos.rules, t.lookup, 1).run(
        pos.board,
        [list(g.rack(0)), list(g.rack(1))],
        bag,
        (0, 0),
        0,
        cand.move,
        cand.score,
        cand.leave,
        random.Random(1),
    )
    assert value == pytest.approx(cand.score - reply.score + t.lookup(cand.leave) - t.lookup(reply.leave))
    assert t.lookup(reply.leave) != 0.0
