"""``lexiko endgame``: solve the endgame of a position whose bag is empty
(`lexiko.bots.endgame.solve`) and show the best line."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from lexiko.cli.argtypes import positive_float, positive_int
from lexiko.cli.positions import add_position_options, game_from_args, lexicon_for, show_header, signed
from lexiko.errors import LexikoError

if TYPE_CHECKING:
    from lexiko.bots.endgame import EndgameResult

__all__ = ["add_parser", "run", "ENDGAME_SECONDS"]

ENDGAME_SECONDS = 30.0
"""Seconds ``lexiko endgame`` searches by default before answering with its best line."""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``endgame`` on the ``lexiko`` command's subparsers.

    >>> p = argparse.ArgumentParser(prog="lexiko"); _ = add_parser(p.add_subparsers())
    >>> a = p.parse_args(["endgame", "game.gcg", "--turn", "40"])
    >>> a.turn, a.time_limit, a.max_depth
    (40, 30.0, None)
    """
    e: argparse.ArgumentParser = subparsers.add_parser(
        "endgame",
        help="solve the endgame of a position whose bag is empty",
        description="Solve a two-player endgame exactly (both racks are known once the bag is empty): the best "
        "move, the final spread under best play and the principal variation.",
        epilog="examples:\n  lexiko endgame game.gcg --turn 40\n  lexiko endgame --cgp '<cgp line>' --time-limit 30",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_position_options(e)
    e.add_argument(
        "--time-limit",
        type=positive_float,
        metavar="S",
        default=ENDGAME_SECONDS,
        help=f"stop after about S seconds and give the best line found so far (default: "
        f"{ENDGAME_SECONDS:g}; a 7-tile endgame with a blank may need minutes to solve exactly)",
    )
    e.add_argument("--max-depth", type=positive_int, metavar="D", help="search at most D plies")
    e.set_defaults(func=run)
    return e


def run(args: argparse.Namespace, console: Console) -> int:
    """Solve the endgame and show the best line (also ``lexiko analyze --endgame``)."""
    from lexiko.bots.endgame import solve

    game = game_from_args(args)
    if game.is_over:
        raise LexikoError("the game is over: give --turn K for a position")
    if len(game.players) != 2:
        raise LexikoError("the endgame solver handles two-player games")
    if game.bag_count:
        raise LexikoError(f"the bag holds {game.bag_count} tiles: the endgame solver needs it empty")
    lexicon = lexicon_for(args, game, console)
    show_header(game, console, not args.no_board)
    limit = args.time_limit if args.time_limit is not None else ENDGAME_SECONDS
    p = game.player_on_turn
    names = [game.players[p], game.players[1 - p]]
    with console.status(f"solving the endgame (at most {limit:g} s)…") as status_line:

        def progress(r: EndgameResult) -> None:
            moves = r.notations()
            shown = " ".join(moves[:4]) + (" …" if len(moves) > 4 else "")
            status_line.update(
                Text(
                    f"depth {r.depth}: best {moves[0]} ({r.value:+d}), line {shown}; "
                    f"{r.nodes:,} nodes, {r.elapsed:.1f} s of {limit:g}"
                )
            )

        res = solve(game, max_depth=args.max_depth, time_limit=limit, lexicon=lexicon, progress=progress)
    line = "  ".join(f"{names[i % 2]}: {m}" for i, m in enumerate(res.notations()))
    if res.complete:
        status = "solved exactly"
    elif args.max_depth is not None and res.depth >= args.max_depth:
        status = f"best line to depth {res.depth}; not proven optimal"
    else:
        status = f"best found in {limit:g} s at depth {res.depth}; not proven optimal (--time-limit for longer)"
    console.print(f"best move: [bold]{res.notations()[0]}[/bold]", highlight=False)
    console.print(
        f"final spread for {names[0]}: {res.spread:+d} ({signed(res.value)} from here), {status}", highlight=False
    )
    console.print(f"line: {line}", highlight=False, soft_wrap=True)
    rate = res.nodes / res.elapsed if res.elapsed > 0 else 0.0
    console.print(f"{res.nodes:,} nodes in {res.elapsed:.2f} s ({rate:,.0f} nodes/s)", style="dim", highlight=False)
    return 0
