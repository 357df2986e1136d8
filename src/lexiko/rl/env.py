"""The environments of `lexiko.rl`: `LexikoAEC` (PettingZoo, 2-4 agents)
and `LexikoEnv` (Gymnasium, one agent against lexiko's computer players), over
one `Observer` that turns a game into arrays and candidate moves."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from lexiko.bots import make_player
from lexiko.bots.base import Player
from lexiko.bots.static import default_leaves
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Pass, Place
from lexiko.movegen import Backend, Candidate, generate, kernel_available
from lexiko.rl.core import PREMIUMS, Core, unsupported
from lexiko.rules import Rules, preset
from lexiko.tiles import BLANK, LETTER_MASK

__all__ = ["Observer", "LexikoAEC", "LexikoEnv", "FEATURES"]

FEATURES = ("score", "leave", "equity", "tiles", "full_rack", "premiums", "exchange", "pass")
"""What describes each candidate move, in the columns of ``obs["candidates"]`` (scores
and equities in hundreds of points, leave values in fifties, tiles as a share of the rack)."""


class Observer:
    """A game seen as arrays: the candidates of the player on turn and the observation
    of any player. ``k`` candidate slots (the best moves by equity, the pass always
    among them)."""

    def __init__(self, rules: Rules, lexicon: Lexicon, players: int, k: int = 32) -> None:
        self.rules, self.lexicon, self.players, self.k = rules, lexicon, players, k
        self.tiles = rules.tile_set
        self.letters = self.tiles.size
        lay = rules.board_layout
        self.n = lay.size
        self.leaves = default_leaves(self.tiles)
        flat = "".join(lay.rows)
        self.premium = np.array([[c == p for c in flat] for p in PREMIUMS], dtype=np.float32).reshape(
            len(PREMIUMS), self.n, self.n
        )
        self.premium_square = np.array([c in PREMIUMS for c in flat], dtype=bool)
        planes = self.letters + 1 + len(PREMIUMS)
        big = float(self.tiles.total)
        self.space = spaces.Dict(
            {
                "board": spaces.Box(0.0, 1.0, (planes, self.n, self.n), np.float32),
                "rack": spaces.Box(0.0, big, (self.letters + 1,), np.float32),
                "unseen": spaces.Box(0.0, big, (self.letters + 1,), np.float32),
                "scores": spaces.Box(-1e6, 1e6, (players,), np.float32),
                "bag": spaces.Box(0.0, big, (1,), np.float32),
                "candidates": spaces.Box(-1e6, 1e6, (k, len(FEATURES)), np.float32),
                "action_mask": spaces.Box(0, 1, (k,), np.int8),
            }
        )
        self._eye = np.eye(self.letters + 1, dtype=np.float32)
        self._shapes: list[tuple[str, tuple[int, ...], type[np.generic]]] = [
            ("board", (planes, self.n, self.n), np.float32),
            ("rack", (self.letters + 1,), np.float32),
            ("unseen", (self.letters + 1,), np.float32),
            ("scores", (players,), np.float32),
            ("bag", (1,), np.float32),
            ("candidates", (k, len(FEATURES)), np.float32),
            ("action_mask", (k,), np.int8),
        ]

    def empty(self) -> dict[str, np.ndarray]:
        """An observation's arrays, not filled in (for `Core`)."""
        return {name: np.empty(shape, dtype) for name, shape, dtype in self._shapes}

    def candidates(self, game: Game) -> list[Candidate]:
        """The moves the player on turn may choose: the best ``k`` by equity, the pass
        always among them (last, if it did not make the list)."""
        p = game.player_on_turn
        found = list(
            generate(
                game.board,
                game.rack(p),
                self.lexicon,
                self.rules,
                bag_count=game.bag_count,
                best=self.k,
                leaves=self.leaves if game.bag_count else None,
            )
        )
        if not any(isinstance(c.move, Pass) for c in found):
            rack = game.rack(p)
            passing = Candidate(Pass(), 0, self.leaves(rack) if self.leaves and game.bag_count else 0.0, rack)
            found = [*found[: self.k - 1], passing]
        return found

    def _counts(self, codes: Sequence[int]) -> np.ndarray:
        letters = np.frombuffer(bytes(codes), dtype=np.uint8) & LETTER_MASK
        return np.bincount(letters, minlength=self.letters + 1).astype(np.float32)

    def features(self, game: Game, cands: Sequence[Candidate]) -> tuple[np.ndarray, np.ndarray]:
        """The candidates' features and the action mask."""
        feats = np.zeros((self.k, len(FEATURES)), dtype=np.float32)
        mask = np.zeros(self.k, dtype=np.int8)
        size, full, n, prem = self.rules.rack_size, self.rules.bingo_tiles, self.n, self.premium_square
        rows = []
        for c in cands[: self.k]:
            m = c.move
            if isinstance(m, Place):
                tiles = m.tile_count
                premiums = sum(1 for r, col, _ in m.new_tiles() if prem[r * n + col])
            else:
                tiles = premiums = 0
            rows.append(
                (
                    c.score / 100,
                    (c.equity - c.score) / 50,
                    c.equity / 100,
                    tiles / size,
                    tiles >= full,
                    premiums / 4,
                    isinstance(m, Exchange),
                    isinstance(m, Pass),
                )
            )
        if rows:
            feats[: len(rows)] = np.array(rows, dtype=np.float32)
            mask[: len(rows)] = 1
        return feats, mask

    def observe(self, game: Game, seat: int, cands: Sequence[Candidate] | None) -> dict[str, np.ndarray]:
        """What ``seat`` sees; ``cands`` are its moves when it is on turn (else none)."""
        cells = np.frombuffer(game.board.cells, dtype=np.uint8)
        letters = (cells & LETTER_MASK).astype(np.intp)
        planes = self._eye[letters].T.reshape(self.letters + 1, self.n, self.n).copy()
        planes[0] = ((cells & BLANK) != 0).reshape(self.n, self.n)  # plane 0: blanks (empty squares are 0)
        free = (cells == 0).reshape(self.n, self.n)
        board = np.concatenate([planes, self.premium * free])
        scores = game.scores
        order = [(seat + i) % self.players for i in range(self.players)]
        if cands is None:
            feats = np.zeros((self.k, len(FEATURES)), dtype=np.float32)
            mask = np.zeros(self.k, dtype=np.int8)
        else:
            feats, mask = self.features(game, cands)
        return {
            "board": board.astype(np.float32, copy=False),
            "rack": self._counts(game.rack(seat)),
            "unseen": self._counts(game.unseen(seat)),
            "scores": np.array([scores[i] for i in order], dtype=np.float32),
            "bag": np.array([game.bag_count], dtype=np.float32),
            "candidates": feats,
            "action_mask": mask,
        }

    def outcome(self, game: Game, seat: int, reward: str) -> float:
        """The final reward of ``seat``: +1/-1/0 by the result, or the spread / 100."""
        return _reward(game.scores, game.winners(), seat, reward)

    def core_outcome(self, scores: Sequence[int], before: Sequence[int], seat: int, reward: str) -> float:
        """`outcome` of a game the `Core` played (the rules it
        plays have no teams and no forfeits: the best score wins, ties broken by the
        scores before the end's adjustments when ``rules.tiebreak`` says so)."""
        best = max(scores)
        top = [i for i, s in enumerate(scores) if s == best]
        if len(top) > 1 and self.rules.tiebreak == "before-adjustment":
            best_before = max(before[i] for i in top)
            top = [i for i in top if before[i] == best_before]
        return _reward(scores, top, seat, reward)


def _reward(scores: Sequence[int], winners: Sequence[int], seat: int, reward: str) -> float:
    if reward == "spread":
        return (scores[seat] - max(s for i, s in enumerate(scores) if i != seat)) / 100
    if len(winners) == len(scores):
        return 0.0
    return 1.0 if seat in winners else -1.0


def _setup(
    rules: Rules | str, lexicon: Lexicon | str, words: Sequence[str] | None, players: int
) -> tuple[Rules, Lexicon]:
    r = preset(rules, players=players) if isinstance(rules, str) else rules
    if words is not None:
        return r, Lexicon.from_words(list(words), r.tile_set)
    lex = lexicon if isinstance(lexicon, Lexicon) else Lexicon.load(lexicon or r.lexicon, r.tile_set)
    return r, lex


class _Stepped(Protocol):
    """What the two environments share for their game: see `_new_game`."""

    rules: Rules
    lexicon: Lexicon
    _core: Core | None
    _game: Game | None
    _seed: int
    _started: bool


def _new_game(env: _Stepped, names: Sequence[str], seed: int) -> int:
    """Start the environment's game of ``seed``; the first player. The core deals it
    itself (the Game is made only when asked for, by `_synced_game`); else a Game
    is made now."""
    env._seed, env._started, env._game = seed, True, None
    if env._core is not None:
        return env._core.deal(seed)
    env._game = Game(list(names), env.rules, seed=seed, lexicon=env.lexicon)
    return env._game.player_on_turn


def _synced_game(env: _Stepped, names: Sequence[str]) -> Game | None:
    if env._core is not None and env._started:
        if env._game is None:  # the same seed deals the same game
            env._game = Game(list(names), env.rules, seed=env._seed, lexicon=env.lexicon)
        env._core.sync(env._game)
    return env._game


def _core(observer: Observer, backend: Backend) -> Core | None:
    """The compiled core for these rules, or None (the environment steps a Game)."""
    if backend == "python":
        return None
    why = (
        "the compiled kernel is not built"
        if not kernel_available()
        else unsupported(observer.rules, observer.players, observer.leaves)
    )
    if why is None:
        return Core(observer.rules, observer.lexicon, observer.leaves, observer.players, observer.k)
    if backend == "c":
        raise ValueError(f"backend 'c' cannot step these rules: {why}")
    return None


class LexikoAEC(AECEnv):  # type: ignore[misc]
    """The game for 2-4 agents (``player_0``, ...), one move at a time (PettingZoo AEC).

    ``rules``: a preset name or `Rules` (``casual`` by default: a
    word not in the lexicon is refused, so no challenges); ``candidates``: the number of
    action slots; ``reward``: ``"win"`` or ``"spread"``. ``seed_lexicon_words`` builds a
    small lexicon from words (for examples and tests). ``backend``: ``"c"`` steps the game
    in the compiled core (`lexiko.rl.core`: the same candidates, observations and
    rewards, about twice as fast), ``"python"`` through `Game`,
    ``"auto"`` the core when it plays the rules (`lexiko.rl.core.unsupported`).
    """

    metadata = {"name": "lexiko_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        players: int = 2,
        *,
        rules: Rules | str = "casual",
        lexicon: Lexicon | str = "",
        candidates: int = 32,
        reward: str = "win",
        render_mode: str | None = None,
        seed_lexicon_words: Sequence[str] | None = None,
        backend: Backend = "auto",
    ) -> None:
        super().__init__()
        if not 2 <= players <= 4:
            raise ValueError(f"lexiko's environment has 2 to 4 agents, not {players}")
        if reward not in ("win", "spread"):
            raise ValueError(f"reward is 'win' or 'spread', not {reward!r}")
        self.rules, self.lexicon = _setup(rules, lexicon, seed_lexicon_words, players)
        self.observer = Observer(self.rules, self.lexicon, players, candidates)
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.observation_spaces = {a: self.observer.space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(candidates) for a in self.possible_agents}
        self._game: Game | None = None
        self._seed = 0
        self._started = False
        self._cands: list[Candidate] = []
        self._core = _core(self.observer, backend)

    @property
    def game(self) -> Game | None:
        """The game being played (None before `reset`). With the compiled core it is
        made (the same deal: the same seed) and brought up to date when asked for: ask
        only when you need it."""
        return _synced_game(self, self.possible_agents)

    def candidates(self) -> list[Candidate]:
        """The moves of the open action slots, in order (none once the game is over)."""
        if self._core is not None:
            return self._core.candidates() if self.agents and not self.terminations[self.agent_selection] else []
        return list(self._cands)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = seed if seed is not None else random.randrange(2**63)
        first = _new_game(self, self.possible_agents, seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[first]
        if self._core is None:
            assert self._game is not None
            self._cands = self.observer.candidates(self._game)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self._started, "call reset() first"
        seat = self.possible_agents.index(agent)
        on_turn = agent == self.agent_selection and not self.terminations.get(agent, False)
        if self._core is not None:
            out = self.observer.empty()
            self._core.observe(seat, on_turn, out)
            return out
        assert self._game is not None
        return self.observer.observe(self._game, seat, self._cands if on_turn else None)

    def step(self, action: int | None) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        if self._core is not None:
            self._core_step(action)
            return
        g = self._game
        assert g is not None and action is not None
        agent = self.agent_selection
        if not 0 <= int(action) < len(self._cands):
            raise ValueError(f"action {action} is masked out: {len(self._cands)} moves are open")
        seat = self.possible_agents.index(agent)
        g.apply(self._cands[int(action)], player=seat)  # a generator's candidate: trusted
        self._cumulative_rewards[agent] = 0.0
        if g.is_over:
            for i, a in enumerate(self.agents):
                self.rewards[a] = self.observer.outcome(g, i, self.reward_kind)
                self.terminations[a] = True
            self._cands = []
        else:
            self.agent_selection = self.possible_agents[g.player_on_turn]
            self._cands = self.observer.candidates(g)
        self._accumulate_rewards()

    def _core_step(self, action: int | None) -> None:
        core = self._core
        assert core is not None and self._started and action is not None
        agent = self.agent_selection
        over = core.step(int(action))
        self._cumulative_rewards[agent] = 0.0
        turn, _, scores, before, *_ = core.info()
        if over:
            for i, a in enumerate(self.agents):
                self.rewards[a] = self.observer.core_outcome(scores, before, i, self.reward_kind)
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[turn]
        self._accumulate_rewards()

    def render(self) -> str | None:
        game = self.game
        if self.render_mode != "ansi" or game is None:
            return None
        return repr(game) + "\n" + str(game.board)

    def close(self) -> None:
        pass


class LexikoEnv(gymnasium.Env):
    """One agent against lexiko's computer players (``opponents``: kinds such as
    ``static``, ``greedy``, ``random``). The agent takes seat 0, or turns about with
    ``alternate=True``: a seeded reset takes seat ``seed`` mod players, each reset
    without a seed the next seat, so ``reset(seed=s)`` always replays the same episode.
    Same observations, actions and rewards as `LexikoAEC`. ``backend`` as there: against ``static`` opponents
    only, the compiled core also plays their turns (as `StaticBot`).

    >>> env = LexikoEnv(opponents=["greedy"], seed_lexicon_words=["QI", "AT", "TA", "EAT", "TEA", "ATE"])
    >>> obs, info = env.reset(seed=1)
    >>> sorted(obs)
    ['action_mask', 'bag', 'board', 'candidates', 'rack', 'scores', 'unseen']
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        opponents: Sequence[str] = ("static",),
        *,
        rules: Rules | str = "casual",
        lexicon: Lexicon | str = "",
        candidates: int = 32,
        reward: str = "win",
        alternate: bool = False,
        seed_lexicon_words: Sequence[str] | None = None,
        backend: Backend = "auto",
    ) -> None:
        players = 1 + len(opponents)
        self.rules, self.lexicon = _setup(rules, lexicon, seed_lexicon_words, players)
        self.observer = Observer(self.rules, self.lexicon, players, candidates)
        statics = all(k == "static" for k in opponents) and self.observer.leaves is not None
        if backend == "c" and not statics:
            raise ValueError("backend 'c' plays only against the static player ('static' opponents)")
        self._core = _core(self.observer, backend if statics else "python")
        self.kinds = list(opponents)
        self.reward_kind = reward
        self.alternate = alternate
        self.observation_space = self.observer.space
        self.action_space = spaces.Discrete(candidates)
        self.episodes = 0
        self._next_seat = 0
        self._game: Game | None = None
        self._seed = 0
        self._started = False
        self.seat = 0
        self._bots: dict[int, Player] = {}
        self._cands: list[Candidate] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**63))
        players = len(self.kinds) + 1
        if seed is not None:  # a seeded reset replays its episode, seat included
            self._next_seat = seed % players
        self.seat = self._next_seat if self.alternate else 0
        self._next_seat = (self._next_seat + 1) % players
        self.episodes += 1
        names = [f"player_{i}" for i in range(players)]
        _new_game(self, names, game_seed)
        if self._core is not None:
            self._core.static_turns(self.seat)
            return self._obs(), {"seat": self.seat}
        others = [i for i in range(players) if i != self.seat]
        self._bots = {
            i: make_player(k, self.lexicon, seed=game_seed + i) for i, k in zip(others, self.kinds, strict=True)
        }
        self._advance()
        return self._obs(), {"seat": self.seat}

    @property
    def game(self) -> Game | None:
        """The game being played (None before `reset`); see `LexikoAEC.game`."""
        return _synced_game(self, [f"player_{i}" for i in range(len(self.kinds) + 1)])

    def candidates(self) -> list[Candidate]:
        """The moves of the open action slots, in order (none once the game is over)."""
        if self._core is not None:
            return [] if self._core.info()[1] else self._core.candidates()
        return list(self._cands)

    def _advance(self) -> None:
        g = self._game
        assert g is not None
        while not g.is_over and g.player_on_turn != self.seat:
            p = g.player_on_turn
            g.apply(self._bots[p].choose(g), player=p)
        self._cands = [] if g.is_over else self.observer.candidates(g)

    def _obs(self) -> dict[str, np.ndarray]:
        assert self._started
        if self._core is not None:
            out = self.observer.empty()
            self._core.observe(self.seat, not self._core.info()[1], out)
            return out
        assert self._game is not None
        return self.observer.observe(self._game, self.seat, self._cands or None)

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._core is not None:
            return self._core_step(action)
        g = self._game
        assert g is not None, "call reset() first"
        if g.is_over:
            raise RuntimeError("the game is over: call reset()")
        if not 0 <= int(action) < len(self._cands):
            raise ValueError(f"action {action} is masked out: {len(self._cands)} moves are open")
        g.apply(self._cands[int(action)], player=self.seat)
        self._advance()
        done = g.is_over
        reward = self.observer.outcome(g, self.seat, self.reward_kind) if done else 0.0
        return self._obs(), reward, done, False, {"scores": list(g.scores)}

    def _core_step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        core = self._core
        assert core is not None
        if not self._started:
            raise RuntimeError("call reset() first")
        if core.info()[1]:
            raise RuntimeError("the game is over: call reset()")
        done = core.step(int(action)) or core.static_turns(self.seat)
        _, _, scores, before, *_ = core.info()
        reward = self.observer.core_outcome(scores, before, self.seat, self.reward_kind) if done else 0.0
        return self._obs(), reward, done, False, {"scores": list(scores)}

    def render(self) -> str | None:
        game = self.game
        return None if game is None else str(game.board)
