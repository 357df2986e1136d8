"""Reinforcement learning on lexiko: a PettingZoo AEC environment for 2-4 agents and a
Gymnasium environment for one agent against lexiko's computer players (optional extra:
``pip install 'lexiko[rl]'``).

**Actions: a choice among generated moves.** A turn has thousands of legal moves, most of
them hopeless, and which moves exist changes every turn, so an action is an index into a
fixed-size list of candidates: the ``K`` best moves by equity (score plus the value of
the tiles kept) that the compiled move generator finds, with the pass always among them,
and an action mask marking the slots that hold a move. Each candidate is described by
features a policy can weigh: score, leave value, equity, tiles used, a full-rack bonus,
premium squares taken, exchange, pass. A policy learns which of the plausible moves to
prefer; the generator guarantees every action is legal.

**Observations** are arrays: board planes (one per letter, blanks, each kind of premium
square still free), the rack's and the unseen tiles' counts by letter, the scores (the
agent's first), the bag's size, the candidates' features and the action mask.

**Rewards** come at the end: +1 to the winners, -1 to the others (0 each in a draw),
or with ``reward="spread"`` the agent's final spread over the best other score, divided
by 100. Games are seeded: the same seed and actions give the same game.

>>> from lexiko.rl import LexikoAEC
>>> env = LexikoAEC(seed_lexicon_words=["QI", "QAT", "AT", "TA", "ATE", "EAT", "TEA"])
>>> env.reset(seed=3)
>>> obs, reward, term, trunc, info = env.last()
>>> obs["action_mask"].dtype.name, int(obs["action_mask"].sum()) >= 1
('int8', True)
"""

from __future__ import annotations

from lexiko.rl.env import FEATURES, LexikoAEC, LexikoEnv, Observer

__all__ = ["LexikoAEC", "LexikoEnv", "Observer", "FEATURES"]
