"""CGP positions: the board, the racks, the scores and the run of scoreless turns in
one line, as crossword-game programs exchange them.

``<board> <rack1>/<rack2>... <score1>/<score2>... <zeros> [op args; ...]``

The board is rows joined by ``/`` with runs of empty squares as numbers and blanks in
lower case; the rack of the player on turn comes first; ``zeros`` counts consecutive
scoreless turns; operations such as ``lex TWL06;`` follow.

>>> pos = parse("15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15 ADEEGIL/ 0/32 1 lex TWL06;")
>>> pos.racks, pos.scores, pos.zeros, pos.ops
(('ADEEGIL', ''), (0, 32), 1, {'lex': 'TWL06'})
>>> print(pos.board.tile_at(7, 3) == pos.board.tiles.code("W"))
True
>>> dumps(pos) == "15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15 ADEEGIL/ 0/32 1 lex TWL06;"
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lexiko.board import Board
from lexiko.errors import NotationError
from lexiko.game import Game, WordJudge
from lexiko.layouts import LAYOUTS, Layout
from lexiko.rules import Rules
from lexiko.tiles import ENGLISH, TileSet

__all__ = ["CGP", "parse", "dumps", "from_game", "to_game"]


@dataclass(frozen=True)
class CGP:
    """A position as CGP holds it. ``racks[0]`` and ``scores[0]`` are the player on turn's."""

    board: Board
    racks: tuple[str, ...]
    scores: tuple[int, ...]
    zeros: int = 0
    ops: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return dumps(self)


def _layout_for(rows: int) -> Layout:
    for lay in LAYOUTS.values():
        if lay.size == rows:
            return lay
    sizes = ", ".join(str(n) for n in sorted({lay.size for lay in LAYOUTS.values()}))
    raise NotationError(f"the board has {rows} rows; boards have {sizes}")


def parse(text: str, tiles: TileSet = ENGLISH, layout: Layout | None = None) -> CGP:
    """Read a CGP line. The layout follows from the number of rows unless given.

    Raises :class:`NotationError` naming the field that is wrong.
    """
    parts = text.strip().split(None, 4)
    if len(parts) < 4:
        raise NotationError(
            f"a CGP position has a board, racks, scores and a scoreless-turn count; got {len(parts)} field(s)"
        )
    board_text, racks_text, scores_text, zeros_text = parts[:4]
    lay = layout if layout is not None else _layout_for(board_text.count("/") + 1)
    board = Board.from_string(board_text, lay, tiles)
    racks = tuple(racks_text.split("/"))
    for r in racks:
        try:
            tiles.parse(r)
        except NotationError as e:
            raise NotationError(f"rack {r!r}: {e}") from None
    try:
        scores = tuple(int(s) for s in scores_text.split("/"))
    except ValueError:
        raise NotationError(f"scores {scores_text!r} are not numbers separated by '/'") from None
    if len(scores) != len(racks):
        raise NotationError(f"{len(racks)} racks but {len(scores)} scores")
    if not zeros_text.isdigit():
        raise NotationError(f"the scoreless-turn count {zeros_text!r} is not a number")
    ops: dict[str, str] = {}
    if len(parts) == 5:
        for op in parts[4].split(";"):
            op = op.strip()
            if op:
                name, _, args = op.partition(" ")
                ops[name] = args.strip()
    return CGP(board, racks, scores, int(zeros_text), ops)


def dumps(pos: CGP) -> str:
    """Write a CGP line (operations sorted as given)."""
    out = f"{pos.board.to_string()} {'/'.join(pos.racks)} {'/'.join(map(str, pos.scores))} {pos.zeros}"
    if len(pos.racks) == 1:
        out = out.replace(f" {pos.racks[0]} ", f" {pos.racks[0]}/ ", 1)
    ops = " ".join(f"{k} {v};" if v else f"{k};" for k, v in pos.ops.items())
    return f"{out} {ops}" if ops else out


def from_game(game: Game, *, with_racks: bool = True) -> CGP:
    """The game's position from the player on turn's side (other racks hidden unless
    ``with_racks``)."""
    n = len(game.players)
    t = game.player_on_turn
    order = [(t + i) % n for i in range(n)]
    racks = tuple(
        game.tiles.format(game.tiles.rack_sort(game.rack(p))) if with_racks or p == t else "" for p in order
    )
    scores = tuple(game.scores[p] for p in order)
    return CGP(game.board, racks, scores, game.scoreless_turns, {"lex": game.rules.lexicon})


def to_game(
    pos: CGP,
    rules: Rules | None = None,
    *,
    players: list[str] | None = None,
    seed: int | None = None,
    lexicon: WordJudge | None | str = "auto",
) -> Game:
    """A game set up at the position, the player on turn first (empty racks are dealt).
    The ``lex`` operation sets the rules' lexicon."""
    base = rules if rules is not None else Rules()
    if "lex" in pos.ops and re.fullmatch(r"[\w.\-/]+", pos.ops["lex"]):
        base = base.replace(lexicon=pos.ops["lex"])
    racks = [pos.board.tiles.parse(r) for r in pos.racks]
    return Game.from_position(
        pos.board, racks, list(pos.scores), players=players, rules=base,
        scoreless_turns=pos.zeros, seed=seed, lexicon=lexicon,
    )
