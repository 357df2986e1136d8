"""What ``lexiko analyze`` and ``lexiko endgame`` share: the options that name a
position (a GCG record and a turn, a CGP line, or a board and a rack), the game they
set up, the lexicon and leave table asked for, and the header shown above the answer.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_position_options(p)
>>> game = game_from_args(p.parse_args(["--cgp", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0"]))
>>> game.rack_text(game.player_on_turn), game.bag_count
('AEINRST', 86)
"""

from __future__ import annotations

import argparse

from rich.console import Console

from lexiko.analysis import position_at_turn
from lexiko.bots.static import LeavesArg
from lexiko.cli.argtypes import file_path
from lexiko.cli.loading import load_lexicon
from lexiko.errors import LexikoError
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.tiles import TileSet

__all__ = ["add_position_options", "game_from_args", "lexicon_for", "leaves_from_args", "show_header", "signed"]


def signed(x: float) -> str:
    """A value with its sign and one decimal, ``0.0`` for nothing.

    >>> signed(2.25), signed(-1), signed(0)
    ('+2.2', '-1.0', '0.0')
    """
    return f"{x:+.1f}" if x else "0.0"


def add_position_options(p: argparse.ArgumentParser) -> None:
    """The options that name a position, and ``--lexicon`` and ``--no-board``."""
    p.add_argument("file", nargs="?", type=file_path, metavar="FILE.gcg", help="a game record (GCG)")
    p.add_argument("--turn", type=int, metavar="K", help="the position before the record's K-th move (from 1)")
    p.add_argument("--cgp", metavar="CGP", help="a position in CGP (the rack of the player on turn first)")
    p.add_argument("--board-gcg", type=file_path, metavar="FILE", help="take the board from this GCG (with --rack)")
    p.add_argument("--rack", help="the rack of the player on turn (? for a blank)")
    p.add_argument("--lexicon", help="lexicon: TWL06, SOWPODS or a word-list file (default: the position's)")
    p.add_argument("--no-board", action="store_true", help="do not show the board")


def game_from_args(args: argparse.Namespace) -> Game:
    """The game the position options set up, with the rack of the player on turn."""
    from lexiko import cgp

    sources = [x for x in (args.file, args.cgp, args.board_gcg) if x is not None]
    if len(sources) != 1:
        raise LexikoError("give one position: FILE.gcg, --cgp LINE or --board-gcg FILE --rack RACK")
    if args.cgp is not None:
        if args.turn is not None:
            raise LexikoError("--turn goes with a GCG file, not --cgp")
        pos = cgp.parse(args.cgp)
        if not pos.racks[0] and not args.rack:
            raise LexikoError(
                "the position has no rack for the player on turn: write it first in the racks field "
                "(e.g. 'AEINRST/') or give --rack"
            )
        game = cgp.to_game(pos, lexicon=None, seed=0)
        if args.rack:
            game.set_rack(game.player_on_turn, game.tiles.parse(args.rack.upper()))
        return game
    path = args.file if args.file is not None else args.board_gcg
    if args.board_gcg is not None and not args.rack:
        raise LexikoError("--board-gcg needs --rack")
    return position_at_turn(path, args.turn, args.rack.upper() if args.rack else None)


def lexicon_for(args: argparse.Namespace, game: Game, console: Console) -> Lexicon:
    """The lexicon asked for (``--lexicon``), else the record's; warns when a free list
    stands in for the licensed one the record names."""
    from lexiko.lexicon import stand_in_warning

    if args.lexicon is not None:
        warning = stand_in_warning(game.rules.lexicon, args.lexicon)
        if warning:
            console.print(f"warning: {warning}", style="yellow", markup=False, highlight=False, soft_wrap=True)
    return load_lexicon(game.rules.lexicon if args.lexicon is None else args.lexicon, game.tiles, console)


def leaves_from_args(args: argparse.Namespace, tiles: TileSet) -> LeavesArg:
    """``--leaves``: None for the package's table, False for ``none``, else the file's table."""
    if not getattr(args, "leaves", None):
        return None
    if args.leaves.lower() == "none":
        return False
    from lexiko.leaves import LeaveTable

    return LeaveTable.load(args.leaves, tiles)


def show_header(game: Game, console: Console, show_board: bool) -> None:
    """The board (unless not wanted), who is to play with what, the scores and the unseen tiles."""
    from lexiko.terminal import render_board

    p = game.player_on_turn
    if show_board:
        console.print(render_board(game.board))
    scores = ", ".join(f"{name} {s}" for name, s in zip(game.players, game.scores, strict=True))
    console.print(
        f"{game.players[p]} to play with [bold]{game.rack_text(p)}[/bold]; scores {scores}; "
        f"bag {game.bag_count}, unseen {game.tiles.format(game.unseen(p))}",
        highlight=False,
        soft_wrap=True,
    )
