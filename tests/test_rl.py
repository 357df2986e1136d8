"""lexiko.rl: the PettingZoo environment passes PettingZoo's API test, masks open only
legal moves, games are reproducible, tiles are conserved in what an agent sees, and the
rewards are the results; the Gymnasium environment plays against computer players."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="lexiko.rl needs pettingzoo (pip install 'lexiko[rl]')")

from pettingzoo.test import api_test  # noqa: E402

from lexiko.lexicon import Lexicon  # noqa: E402
from lexiko.move import Pass  # noqa: E402
from lexiko.rl import FEATURES, LexikoAEC, LexikoEnv  # noqa: E402


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("TWL06")


def play(env: LexikoAEC, seed: int, pick: int = 0) -> list[tuple[str, int, list[int]]]:
    """A whole game, always taking slot ``pick`` (or the last open one); the trajectory."""
    env.reset(seed=seed)
    out = []
    while env.agents:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        open_ = np.flatnonzero(obs["action_mask"])
        a = int(open_[min(pick, len(open_) - 1)])
        env.step(a)
        assert env.game is not None
        out.append((env.agent_selection, a, list(env.game.scores)))
    return out


def test_pettingzoo_api_test_passes(lex: Lexicon) -> None:
    api_test(LexikoAEC(lexicon=lex), num_cycles=300)
    api_test(LexikoAEC(players=3, lexicon=lex, candidates=8), num_cycles=100)


def test_the_mask_opens_exactly_the_candidates_and_each_is_legal(lex: Lexicon) -> None:
    env = LexikoAEC(lexicon=lex, candidates=16)
    env.reset(seed=4)
    for _ in range(12):
        obs, _, term, _, _ = env.last()
        if term:
            break
        assert env.game is not None
        cands = env.candidates()
        assert obs["action_mask"].tolist() == [1] * len(cands) + [0] * (16 - len(cands))
        assert any(isinstance(c.move, Pass) for c in cands)  # passing is always possible
        for i, c in enumerate(cands):  # each candidate applies to the game as it is
            g = env.game.copy()
            g.apply(c.move, player=g.player_on_turn)
            f = obs["candidates"][i]
            assert f[FEATURES.index("score")] == pytest.approx(c.score / 100)
            assert f[FEATURES.index("pass")] == float(isinstance(c.move, Pass))
        # the agents not on turn see no open slot
        others = [a for a in env.agents if a != env.agent_selection]
        assert all(env.observe(a)["action_mask"].sum() == 0 for a in others)
        env.step(0)


def test_the_same_seed_and_actions_give_the_same_game(lex: Lexicon) -> None:
    a, b = LexikoAEC(lexicon=lex), LexikoAEC(lexicon=lex)
    assert play(a, 11, pick=1) == play(b, 11, pick=1)
    assert play(a, 11, pick=1) != play(a, 12, pick=1)


def test_tiles_are_conserved_in_what_an_agent_sees(lex: Lexicon) -> None:
    """Rack + unseen + board = the whole bag, letter by letter, at every step."""
    env = LexikoAEC(lexicon=lex)
    env.reset(seed=8)
    assert env.game is not None
    full = np.bincount(list(env.game.tiles.bag()), minlength=27)
    for _ in range(20):
        obs, _, term, _, _ = env.last()
        if term:
            break
        board = obs["board"]
        blanks = board[0]  # plane 0: blanks; planes 1-26: the letter on each square (a blank's too)
        letters = board[1:27].sum(axis=(1, 2)) - (board[1:27] * blanks).sum(axis=(1, 2))
        seen = obs["rack"] + obs["unseen"]
        seen[0] += blanks.sum()
        seen[1:27] += letters
        assert seen.tolist() == full.tolist()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_rewards_are_the_results(lex: Lexicon) -> None:
    env = LexikoAEC(lexicon=lex)
    play(env, 3)
    assert env.game is not None
    g = env.game
    assert g.is_over
    winner = g.winners()
    expected = {f"player_{i}": (0.0 if len(winner) == 2 else 1.0 if i in winner else -1.0) for i in range(2)}
    spread_env = LexikoAEC(lexicon=lex, reward="spread")
    rewards: dict[str, float] = {}
    spread_env.reset(seed=3)
    while spread_env.agents:
        obs, r, term, _, _ = spread_env.last()
        if term:
            rewards[spread_env.agent_selection] = r
            spread_env.step(None)
            continue
        spread_env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    s = spread_env.game.scores if spread_env.game is not None else [0, 0]
    assert rewards == {"player_0": (s[0] - s[1]) / 100, "player_1": (s[1] - s[0]) / 100}
    assert expected["player_0"] == -expected["player_1"] or expected["player_0"] == 0


def test_the_gymnasium_environment_plays_against_computer_players(lex: Lexicon) -> None:
    env = LexikoEnv(opponents=["greedy"], lexicon=lex, alternate=True)
    seats = []
    for episode in range(2):
        obs, info = env.reset(seed=episode)
        seats.append(info["seat"])
        assert env.observation_space.contains(obs)
        done, reward, steps = False, 0.0, 0
        while not done:
            obs, reward, done, truncated, info = env.step(0)  # the best move by equity
            steps += 1
        assert reward in (1.0, -1.0, 0.0) and steps > 5 and not truncated
    assert seats == [0, 1]
    with pytest.raises(ValueError, match="masked out"):
        env.reset(seed=5)
        env.step(31 if int(env._obs()["action_mask"].sum()) < 32 else 999)


def both_ways(lex: Lexicon, seeds: range, **kw: object) -> int:
    """Play the same games through Game and through the compiled core, with the same random
    actions: every agent's observation, every reward and the final game are the same.
    The number of steps compared."""
    py, c = LexikoAEC(lexicon=lex, backend="python", **kw), LexikoAEC(lexicon=lex, backend="c", **kw)  # type: ignore[arg-type]
    assert py._core is None and c._core is not None
    rng = np.random.default_rng(5)
    steps = 0
    for seed in seeds:
        py.reset(seed=seed)
        c.reset(seed=seed)
        while py.agents:
            assert c.agents == py.agents and c.agent_selection == py.agent_selection
            for agent in py.agents:
                a, b = py.observe(agent), c.observe(agent)
                assert all(np.array_equal(a[k], b[k]) and a[k].dtype == b[k].dtype for k in a), (seed, steps, agent)
            _, r, term, trunc, _ = py.last()
            assert c.last()[1:4] == (r, term, trunc)
            assert c.candidates() == py.candidates()
            if term or trunc:
                py.step(None)
                c.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(py.observe(py.agent_selection)["action_mask"])))
            py.step(action)
            c.step(action)
            steps += 1
        assert not c.agents and c.rewards == py.rewards
        assert py.game is not None and c.game is not None
        assert c.game.scores == py.game.scores and c.game.board == py.game.board and c.game.is_over
        assert [e.move for e in c.game.history] == [e.move for e in py.game.history]
    return steps


def test_the_compiled_core_steps_the_same_games_as_the_game(lex: Lexicon) -> None:
    assert both_ways(lex, range(6)) > 150
    assert both_ways(lex, range(2), players=3, candidates=8, reward="spread") > 50
    assert both_ways(lex, range(1), players=4, candidates=2) > 20


def test_the_core_refuses_a_masked_action_and_changes_nothing(lex: Lexicon) -> None:
    env = LexikoAEC(lexicon=lex, candidates=300, backend="c")
    env.reset(seed=3)  # AENOOSU: 266 moves
    before = env.observe(env.agent_selection)
    assert int(before["action_mask"].sum()) == 266
    with pytest.raises(ValueError, match="^action 299 is masked out: 266 moves are open$"):
        env.step(299)
    after = env.observe(env.agent_selection)
    assert all(np.array_equal(before[k], after[k]) for k in before)
    assert env.game is not None and env.game.history == []


def test_rules_the_core_does_not_play_step_a_game(lex: Lexicon) -> None:
    with pytest.raises(ValueError, match="^backend 'c' cannot step these rules: challenges$"):
        LexikoAEC(lexicon=lex, rules="tournament", backend="c")
    env = LexikoAEC(lexicon=lex, rules="tournament")
    assert env._core is None
    env.reset(seed=1)
    assert int(env.last()[0]["action_mask"].sum()) > 1


def test_against_the_static_player_the_core_plays_the_same_episodes(lex: Lexicon) -> None:
    py = LexikoEnv(lexicon=lex, alternate=True, backend="python")
    c = LexikoEnv(lexicon=lex, alternate=True, backend="c")
    rng = np.random.default_rng(9)
    steps = 0
    for episode in range(4):
        a, info_a = py.reset(seed=episode)
        b, info_b = c.reset(seed=episode)
        assert info_a == info_b
        done = False
        while not done:
            assert all(np.array_equal(a[k], b[k]) for k in a) and c.candidates() == py.candidates()
            action = int(rng.choice(np.flatnonzero(a["action_mask"])))
            a, reward, done, _, info_a = py.step(action)
            b, reward_c, done_c, _, info_b = c.step(action)
            assert (reward_c, done_c, info_b) == (reward, done, info_a)
            steps += 1
        assert all(np.array_equal(a[k], b[k]) for k in a)
        assert py.game is not None and c.game is not None
        assert [e.move for e in c.game.history] == [e.move for e in py.game.history]
    assert steps > 40
    with pytest.raises(RuntimeError, match="^the game is over: call reset\\(\\)$"):
        c.step(0)
    with pytest.raises(ValueError, match="^backend 'c' plays only against the static player"):
        LexikoEnv(opponents=["greedy"], lexicon=lex, backend="c")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_core_deals_as_a_game_of_the_same_seed_does(lex: Lexicon, players: int) -> None:
    from lexiko.game import Game
    from lexiko.rl.core import Core

    env = LexikoAEC(players=players, lexicon=lex, candidates=8)
    dealt, made = (
        Core(env.rules, lex, env.observer.leaves, players, 8),
        Core(env.rules, lex, env.observer.leaves, players, 8),
    )
    for seed in [*range(40), -12345, 2**63 - 1, 2**100 + 7]:
        game = Game(env.possible_agents, env.rules, seed=seed, lexicon=lex)
        made.reset(game)
        assert dealt.deal(seed) == game.player_on_turn
        for _ in range(6):  # the same racks and bag: the same candidates and draws
            assert dealt.info() == made.info() and dealt.candidates() == made.candidates()
            if dealt.info()[1] or dealt.step(0) != made.step(0):
                break
    # seeds are read modulo 2**64: 2**128 + 5 deals the game of seed 5
    made.reset(Game(env.possible_agents, env.rules, seed=5, lexicon=lex))
    assert dealt.deal(2**128 + 5) == Game(env.possible_agents, env.rules, seed=5, lexicon=lex).player_on_turn
    assert dealt.info() == made.info() and dealt.candidates() == made.candidates()


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"alternate": True},
        {"alternate": True, "opponents": ["greedy", "static"]},
        {"reward": "spread", "backend": "python"},
        {"opponents": ["greedy"], "alternate": True, "candidates": 8},
    ],
    ids=["static", "alternate", "alternate-3", "spread-python", "greedy-alternate"],
)
def test_gymnasiums_environment_checker_passes_every_setting(lex: Lexicon, kw: dict[str, object]) -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(LexikoEnv(lexicon=lex, **kw), skip_render_check=True)  # type: ignore[arg-type]


def test_a_seeded_reset_replays_its_episode_and_seat(lex: Lexicon) -> None:
    """With alternate=True a seeded reset takes seat seed mod players, each reset without a
    seed the next seat: reset(seed=s) always starts the same episode."""
    env = LexikoEnv(opponents=["greedy"], lexicon=lex, alternate=True)
    first = env.reset(seed=3)
    seats = [env.reset()[1]["seat"] for _ in range(3)]
    again = env.reset(seed=3)
    assert first[1]["seat"] == again[1]["seat"] == 1 and seats == [0, 1, 0]
    assert all(np.array_equal(first[0][k], again[0][k]) for k in first[0])
