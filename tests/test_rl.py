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
        cands = env._cands
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
