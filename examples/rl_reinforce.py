"""Train a small policy with numpy only (REINFORCE), then measure it against the random
computer player.

The policy is linear and soft: it scores each candidate move by a weighted sum of its
features (:data:`lexiko.rl.FEATURES`: score, leave value, equity, tiles used, ...) and
picks a move with probability proportional to exp(score / temperature), among the open
slots of the action mask. After each game every choice of the game is pushed towards
(or away from) what it chose by the result, less a running baseline:
``w += lr * (result - baseline) * (features[chosen] - expected features)``.

    python examples/rl_reinforce.py                  # about three minutes
    python examples/rl_reinforce.py --minutes 1 --games 200

Prints the weights learnt and the win rates against the random and the greedy players
with their 95% intervals, and, for scale, those of the untrained policy (weights 0: a
uniform choice among the candidates, which are already the best moves by equity, so it
beats the random player too; the greedy player tells the two apart).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from lexiko.rl import FEATURES, LexikoEnv
from lexiko.selfplay import wilson_interval


def choose(w: np.ndarray, obs: dict[str, np.ndarray], rng: np.random.Generator, temp: float) -> tuple[int, np.ndarray]:
    open_ = np.flatnonzero(obs["action_mask"])
    f = obs["candidates"][open_]
    z = f @ w / temp
    p = np.exp(z - z.max())
    p /= p.sum()
    i = int(rng.choice(len(open_), p=p))
    return int(open_[i]), f[i] - p @ f  # the move, and the gradient of its log-probability


def evaluate(w: np.ndarray, games: int, seed: int, temp: float, opponent: str) -> tuple[float, tuple[float, float]]:
    env = LexikoEnv(opponents=[opponent], alternate=True)
    rng = np.random.default_rng(seed)
    points = 0.0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done, reward = False, 0.0
        while not done:
            a, _ = choose(w, obs, rng, temp)
            obs, reward, done, _, _ = env.step(a)
        points += 1.0 if reward > 0 else 0.5 if reward == 0 else 0.0
    return points / games, wilson_interval(points, games)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=3.0, help="training time (default 3)")
    ap.add_argument("--games", type=int, default=300, help="games of the final measurement (default 300)")
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--temperature", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    env = LexikoEnv(opponents=["random"], alternate=True, reward="spread")
    rng = np.random.default_rng(args.seed)
    w = np.zeros(len(FEATURES))
    baseline, episodes = 0.0, 0
    stop = time.monotonic() + 60 * args.minutes
    while time.monotonic() < stop:
        obs, _ = env.reset(seed=args.seed * 1_000_003 + episodes)
        grads, done, reward = [], False, 0.0
        while not done:
            a, grad = choose(w, obs, rng, args.temperature)
            grads.append(grad)
            obs, reward, done, _, _ = env.step(a)
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        w += args.lr * advantage * np.sum(grads, axis=0) / max(1, len(grads))
        episodes += 1
    weights = ", ".join(f"{n} {x:+.2f}" for n, x in zip(FEATURES, w, strict=True))
    print(f"trained on {episodes} games; weights: {weights}")
    for opponent in ("random", "greedy"):
        for label, weights in (("trained", w), ("untrained", np.zeros(len(FEATURES)))):
            rate, (lo, hi) = evaluate(weights, args.games, 10_000, args.temperature, opponent)
            print(f"{label} policy vs {opponent}: {rate:.1%} of {args.games} games (95% interval {lo:.1%}-{hi:.1%})")


if __name__ == "__main__":
    main()
