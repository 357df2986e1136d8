"""The pre-endgame: a two-player position with a few tiles left in the bag.

The tiles the player on turn cannot see are the opponent's rack and the bag; only how
they are split, and the order the bag gives them in, is unknown. Each candidate (the
best placements by static equity, and the pass) is played in every split: the player
draws, the static player (`StaticBot`) moves for whoever is on turn
while the bag still holds tiles, and once it is empty the endgame is solved
(`solve_position`: exactly within its time, else the best line
of its deepest search). A candidate's result is the share of the splits it wins (a draw
counts one half), weighted by how likely each split is, and its mean final spread.

With one tile in the bag every placement empties it: each split is then exact play to
the end, when the endgames are solved within their time. The splits are all of them when
there are at most ``scenarios`` (one tile in the bag: at most one per distinct tile),
else that many drawn at random (seeded). Exchanges are not candidates.

>>> from lexiko.board import Board
>>> from lexiko.lexicon import Lexicon
>>> from lexiko.move import Place
>>> from lexiko.tiles import ENGLISH
>>> lex = Lexicon.from_words(["AT", "TA", "QI", "QAT", "ZA"])
>>> board = Board.empty().place(Place(7, 7, False, ENGLISH.parse("AT")))
>>> res = solve_preendgame(board, ENGLISH.parse("QI"), ENGLISH.parse("AZ"), 1, lex)
>>> [(r.candidate.notation(), r.candidate.score, r.wins, r.spread) for r in res]
[('-', 0, 1.0, 28.5), ('G8 QI', 24, 1.0, 6.0), ('8G Q..', 12, 0.0, -8.0)]

QI for 24 now draws the last tile and lets the opponent go out with theirs; the pass
makes the opponent play first (their A or Z) and keeps QI to go out with: 28.5 points
of spread on average over the two splits (the bag holds the A, or the Z).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lexiko.board import Board
from lexiko.bots.endgame import solve_position
from lexiko.bots.static import LeavesArg, resolve_leaves
from lexiko.errors import GameStateError
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Pass, Place
from lexiko.movegen import Candidate, LeaveValue, generate, sort_key
from lexiko.rules import TOURNAMENT, Rules

__all__ = ["PreEndgameResult", "Scenario", "scenarios", "solve_preendgame", "preendgame", "rank"]


@dataclass(frozen=True)
class PreEndgameResult:
    """A candidate and what it gives over the splits: the share won (draws count 1/2),
    the mean final spread of the player on turn, the splits played and how many of
    their endgames were solved exactly (all, once the bag was empty)."""

    candidate: Candidate
    wins: float
    spread: float
    scenarios: int
    exact: int


@dataclass(frozen=True)
class Scenario:
    """One split of the unseen tiles: the opponent's rack and the bag (drawn from its
    end, as `Game` draws), with its probability."""

    weight: float
    opponent: tuple[int, ...]
    bag: tuple[int, ...]


def scenarios(unseen: Sequence[int], bag_count: int, limit: int = 64, seed: int = 0) -> list[Scenario]:
    """The splits of ``unseen`` into a bag of ``bag_count`` tiles (in drawing order) and
    the opponent's rack: every distinct one with its probability when there are at most
    ``limit``, else ``limit`` drawn at random (each of weight 1/limit). Only the order
    of the tiles drawn matters, so a bag is told apart by its sequence.

    >>> from lexiko.tiles import ENGLISH
    >>> [(s.weight, ENGLISH.format(s.bag)) for s in scenarios(ENGLISH.parse("AAB"), 1)]
    [(0.6666666666666666, 'A'), (0.3333333333333333, 'B')]
    >>> splits = scenarios(ENGLISH.parse("AABCDEEFG"), 2)
    >>> len(splits), round(sum(s.weight for s in splits), 12)
    (44, 1.0)
    """
    pool = tuple(sorted(unseen))
    if not 0 <= bag_count <= len(pool):
        raise ValueError(f"a bag of {bag_count} tiles from {len(pool)} unseen")
    counts = Counter(pool)
    total = len(pool)
    if _sequences(counts, bag_count, limit + 1) <= limit:
        out: list[Scenario] = []

        def walk(left: Counter[int], seq: list[int], p: float) -> None:
            if len(seq) == bag_count:
                opp = tuple(sorted(left.elements()))
                out.append(Scenario(p, opp, tuple(reversed(seq))))  # the first drawn is the last
                return
            n = total - len(seq)
            for t in sorted(left):
                if left[t]:
                    k = left[t]
                    left[t] -= 1
                    seq.append(t)
                    walk(left, seq, p * k / n)
                    seq.pop()
                    left[t] += 1

        walk(Counter(counts), [], 1.0)
        return out
    rng = random.Random(seed)
    drawn: list[Scenario] = []
    for _ in range(limit):
        tiles = list(pool)
        rng.shuffle(tiles)
        bag, opp = tiles[:bag_count], tiles[bag_count:]
        drawn.append(Scenario(1.0 / limit, tuple(sorted(opp)), tuple(bag)))
    return drawn


def _sequences(counts: Counter[int], k: int, cap: int) -> int:
    """Distinct sequences of k tiles drawn from ``counts`` (stops counting past ``cap``)."""
    if k == 0:
        return 1
    n = 0
    for t in counts:
        if counts[t]:
            counts[t] -= 1
            n += _sequences(counts, k - 1, cap - n)
            counts[t] += 1
            if n > cap:
                break
    return n


def solve_preendgame(
    board: Board,
    rack: Sequence[int],
    unseen: Sequence[int],
    bag_count: int,
    lexicon: Lexicon,
    rules: Rules = TOURNAMENT,
    *,
    scores: Sequence[int] = (0, 0),
    scoreless_turns: int = 0,
    candidates: int = 8,
    leaves: LeavesArg = None,
    endgame_time: float | None = 1.0,
    limit: int = 64,
    seed: int = 0,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[PreEndgameResult]:
    """The pre-endgame of the player holding ``rack``, who cannot see ``unseen`` (the
    opponent's rack and a bag of ``bag_count`` tiles); ``scores`` theirs first. The best
    ``candidates`` placements by static equity (``leaves`` as for
    `static_choice`) and the pass, best first (see `rank`).
    ``limit`` and ``seed``: the splits (see `scenarios`), the likeliest played first.
    ``endgame_time``: seconds for each endgame (None: no limit). ``time_limit``: about
    that many seconds in all: a first round gives every candidate every split, each
    endgame a share of half the time, the time saved by those solved sooner going to
    the rest; the second solves again, with the time left, the endgames not solved
    exactly of the three best candidates and the pass (each endgame at most
    ``endgame_time`` in both).
    Should the first round run out of time, it stops after the split being played
    (every candidate has then played the same splits). ``progress(done, total)`` after
    each split of the first round.
    """
    if not 1 <= bag_count <= len(unseen):
        raise GameStateError(f"the pre-endgame needs 1 to {len(unseen)} tiles in the bag, not {bag_count}")
    start = time.perf_counter()
    deadline = start + time_limit if time_limit is not None else None
    tiles = lexicon.tiles
    lv = resolve_leaves(leaves, tiles)
    found = generate(board, rack, lexicon, rules, bag_count=bag_count, best=candidates, leaves=lv, placements_only=True)
    own = tiles.rack_sort(rack)
    cands = [*found, Candidate(Pass(), 0, lv(own) if lv is not None else 0.0, own)]
    splits = sorted(scenarios(unseen, bag_count, limit, seed), key=lambda s: -s.weight)
    finals: list[list[int]] = [[] for _ in cands]
    exact: list[list[bool]] = [[] for _ in cands]

    def play(i: int, s: Scenario, seconds: float | None) -> tuple[int, bool]:
        return _play(board, cands[i], list(own), s, lexicon, rules, lv, tuple(scores), scoreless_turns, seconds, seed)

    def share(end: float, games: int) -> float | None:
        """Each of ``games`` endgames' seconds until ``end`` (None: no time limit)."""
        t = None if deadline is None else max(0.0, end - time.perf_counter()) / max(1, games)
        return endgame_time if t is None else t if endgame_time is None else min(endgame_time, t)

    first_end = start + (time_limit or 0.0) / 2
    games = len(cands) * len(splits)
    for j, s in enumerate(splits):
        for i in range(len(cands)):
            final, complete = play(i, s, share(first_end, games - j * len(cands) - i))
            finals[i].append(final)
            exact[i].append(complete)
        if progress is not None:
            progress(j + 1, len(splits))
        if deadline is not None and time.perf_counter() > deadline:
            break
    played = splits[: len(finals[0])]
    if deadline is not None:
        ranked = rank(_results(cands, played, finals, exact))
        best = [r.candidate for r in ranked[:3]] + [cands[-1]]
        todo = [(cands.index(c), j) for j in range(len(played)) for c in dict.fromkeys(best)]
        todo = [(i, j) for i, j in todo if not exact[i][j]]
        for k, (i, j) in enumerate(todo):
            t = share(deadline, len(todo) - k)
            if t is not None and t < _AGAIN_SECONDS:
                break
            finals[i][j], exact[i][j] = play(i, played[j], None if t is None else max(t, 0.0))
    return rank(_results(cands, played, finals, exact))


_AGAIN_SECONDS = 0.02
"""The least time worth giving an endgame solved again (the second round stops below)."""


def _results(
    cands: Sequence[Candidate],
    played: Sequence[Scenario],
    finals: Sequence[Sequence[int]],
    exact: Sequence[Sequence[bool]],
) -> list[PreEndgameResult]:
    """Each candidate's result over the splits played (weights renormalized)."""
    weight = sum(s.weight for s in played)
    out = []
    for i, c in enumerate(cands):
        pairs = list(zip(played, finals[i], strict=True))
        wins = sum(s.weight * (1.0 if f > 0 else 0.5 if f == 0 else 0.0) for s, f in pairs)
        spread = sum(s.weight * f for s, f in pairs)
        out.append(PreEndgameResult(c, wins / weight, spread / weight, len(played), sum(exact[i])))
    return out


def rank(results: Sequence[PreEndgameResult]) -> list[PreEndgameResult]:
    """``results`` best first: by share won, then mean spread; but a pass ranks above a
    placement only when both were solved exactly in every split. A value not exact is
    the estimate of a search cut short, which is no measure of a pass against a play:
    the pass goes below every placement it cannot be compared with.

    >>> from lexiko.move import Place
    >>> play = Candidate(Place(7, 7, False, (1,)), 2, 0.0, ())
    >>> passing = Candidate(Pass(), 0, 0.0, ())
    >>> r = [PreEndgameResult(passing, 1.0, 30.0, 6, 5), PreEndgameResult(play, 0.0, -5.0, 6, 6)]
    >>> [x.candidate.notation() for x in rank(r)]   # the pass not exact in one split
    ['8H A', '-']
    >>> r = [PreEndgameResult(passing, 1.0, 30.0, 6, 6), PreEndgameResult(play, 0.0, -5.0, 6, 6)]
    >>> [x.candidate.notation() for x in rank(r)]
    ['-', '8H A']
    """
    out = sorted(results, key=lambda r: (-r.wins, -r.spread, sort_key(r.candidate)))
    k = next((i for i, r in enumerate(out) if isinstance(r.candidate.move, Pass)), None)
    if k is None:
        return out
    p = out[k]
    below = [
        i
        for i in range(k + 1, len(out))
        if isinstance(out[i].candidate.move, Place) and not (_all_exact(p) and _all_exact(out[i]))
    ]
    if below:
        out.insert(below[-1], out.pop(k))
    return out


def _all_exact(r: PreEndgameResult) -> bool:
    return r.exact == r.scenarios


def _play(
    board: Board,
    c: Candidate,
    rack: list[int],
    s: Scenario,
    lexicon: Lexicon,
    rules: Rules,
    leaves: LeaveValue | None,
    scores: tuple[int, ...],
    scoreless: int,
    endgame_time: float | None,
    seed: int,
) -> tuple[int, bool]:
    """The final spread of the player on turn (seat 0) when candidate ``c`` is played in
    split ``s``, and whether the endgame reached was solved exactly."""
    tiles = lexicon.tiles
    racks = [list(rack), list(s.opponent)]
    bag = list(s.bag)
    pts = list(scores)
    rng = random.Random(seed)
    turn = 0
    move = c.move
    score = c.score
    while True:  # the bag holds tiles: make `move` (worth `score`) for `turn`, then draw
        r = racks[turn]
        if isinstance(move, Place):
            for t in move.rack_tiles():
                r.remove(t)
            board = board.place(move)
            pts[turn] += score
            draw = min(rules.rack_size - len(r), len(bag))
            if draw:
                r.extend(bag[-draw:])
                del bag[-draw:]
            scoreless = 0 if score > 0 or rules.scoreless_passes_only else scoreless + 1
            # nobody goes out here: the bag held a tile, so the rack is refilled
        elif isinstance(move, Exchange):
            for t in move.tiles:
                r.remove(t)
            r.extend(bag[-len(move.tiles) :])
            del bag[-len(move.tiles) :]
            bag.extend(tiles.rack_sort(move.tiles))  # as Game returns them, whatever the order named
            rng.shuffle(bag)
            scoreless = scoreless + 1 if rules.exchange_is_scoreless and not rules.scoreless_passes_only else 0
        else:
            scoreless += 1
        if rules.scoreless_turn_limit and scoreless >= rules.scoreless_turn_limit:
            for q in (0, 1):
                pts[q] -= tiles.rack_value(racks[q])
            return pts[0] - pts[1], True
        turn = 1 - turn
        if not bag:
            res = solve_position(
                board,
                (racks[turn], racks[1 - turn]),
                lexicon,
                rules,
                scores=(pts[turn], pts[1 - turn]),
                scoreless_turns=scoreless,
                time_limit=endgame_time,
            )
            return (res.spread if turn == 0 else -res.spread), res.complete
        found = generate(board, racks[turn], lexicon, rules, bag_count=len(bag), best=1, leaves=leaves)
        move, score = found[0].move, found[0].score


def preendgame(
    game: Game,
    lexicon: Lexicon | None = None,
    **options: object,
) -> list[PreEndgameResult]:
    """`solve_preendgame` for the player on turn of a two-player ``game`` with
    tiles in the bag (options as there). Raises
    `GameStateError` otherwise."""
    from lexiko.bots.endgame import game_lexicon

    if len(game.players) != 2:
        raise GameStateError("the pre-endgame handles two-player games")
    if game.is_over:
        raise GameStateError("the game is over")
    if not game.bag_count:
        raise GameStateError("the bag is empty: solve the endgame instead")
    lex = game_lexicon(game, lexicon)
    p = game.player_on_turn
    s = game.scores
    return solve_preendgame(
        game.board,
        game.rack(p),
        game.unseen(p),
        game.bag_count,
        lex,
        game.rules,
        scores=(s[p], s[1 - p]),
        scoreless_turns=game.scoreless_turns,
        **options,  # type: ignore[arg-type]
    )
