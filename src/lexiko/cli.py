"""The ``lexiko`` command.

>>> main(["judge", "--lexicon", "TWL06", "QI", "QX"])
QI: valid
QX: not valid
1
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from lexiko.argtypes import Parser, clock_minutes, non_negative_int, positive_int
from lexiko.errors import LexikoError
from lexiko.lexicon import BUILTIN
from lexiko.loading import load_lexicon
from lexiko.rules import PRESETS, Rules, preset
from lexiko.tiles import TileSet

EPILOG_PLAY = """\
examples:
  lexiko play                          you against the computer (static player)
  lexiko play --players You,hard       against the simulation player
  lexiko play --players Ann,Bob        two people at one terminal
  lexiko play --players Ann,greedy,random --rules family
  lexiko play --lexicon SOWPODS --challenge five-point --seed 7
  lexiko play --rules duplicate --players You,static,greedy,random

Computer players are named by kind or strength level: random (beginner), greedy
(easy), static (medium), sim (hard). Any other name is a person at this terminal.

In the game, type a play as position and word ("8D WINDY" across from 8D, "D8 WINDY"
down; letters in either case), "exchange ABC", "pass", "challenge", "hint", "undo",
"save FILE", "load FILE", or "help". For a blank, type the word in capitals and the
blank's letter in lower case: "8D WINdY" plays a blank as the D.
"""


def _computer_kind(name: str) -> str | None:
    """The kind of computer player a --players name asks for, or None for a person."""
    from lexiko.bots import KINDS, LEVELS

    key = name.lower()
    if key in ("computer", "bot"):
        return "static"
    if key in KINDS:
        return key
    return LEVELS.get(key)


def _rules(args: argparse.Namespace, players: int) -> Rules:
    try:
        rules = preset(args.rules, players=players)
    except ValueError as e:
        raise LexikoError(str(e)) from None
    changes: dict[str, object] = {}
    if args.lexicon:
        changes["lexicon"] = args.lexicon
    if getattr(args, "challenge", None):
        if rules.variant == "duplicate" and args.challenge != rules.challenge_rule:
            # rules.md section 8: each player's move is private and checked when it is made
            raise LexikoError(
                f"duplicate games have no challenges (every move is checked when it is made): leave out "
                f"--challenge {args.challenge}"
            )
        changes["challenge_rule"] = args.challenge
    if getattr(args, "minutes", None) is not None:
        changes["time_minutes"] = args.minutes
    return rules.replace(**changes) if changes else rules


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    from lexiko.bots import Player, make_player
    from lexiko.game import Game
    from lexiko.terminal import TerminalGame

    names = [n.strip() for n in args.players.split(",")]
    if names == [""]:
        raise LexikoError("--players needs at least one name")
    if "" in names:
        raise LexikoError(f"--players {args.players!r} has an empty name: give every player a name between the commas")
    if len(names) == 1:
        names.append("static")
    rules = _rules(args, len(names))
    lexicon = load_lexicon(rules.lexicon, rules.tile_set, console)
    # computer players are named by their kind; numbered if two share a name
    display: list[str] = []
    bots: dict[int, Player] = {}
    for i, n in enumerate(names):
        kind = _computer_kind(n)
        if kind is None:
            display.append(n)
            continue
        label = f"computer ({kind})"
        if sum(_computer_kind(x) == kind for x in names) > 1:
            label = f"computer {i + 1} ({kind})"
        seed = None if args.seed is None else args.seed + i
        bots[i] = make_player(kind, lexicon, seed=seed, name=label)
        display.append(label)
    if len(set(display)) != len(display):
        raise LexikoError("two players have the same name")
    if rules.variant == "duplicate":
        from lexiko.duplicate import DuplicateGame
        from lexiko.terminal import DuplicateTerminal

        dup = DuplicateGame(display, rules, seed=args.seed, lexicon=lexicon)
        DuplicateTerminal(dup, {display[i]: bot for i, bot in bots.items()}, console=console).run()
        return 0
    game = Game(display, rules, seed=args.seed, lexicon=lexicon)
    TerminalGame(game, bots, lexicon, console=console).run()
    return 0


def cmd_judge(args: argparse.Namespace, console: Console) -> int:
    lexicon = load_lexicon(args.lexicon, _tiles(args), console)
    bad = 0
    for w in args.words:
        ok = w in lexicon
        bad += not ok
        print(f"{w.upper()}: {'valid' if ok else 'not valid'}")
    return 1 if bad else 0


def _tiles(args: argparse.Namespace) -> TileSet:
    from lexiko.tiles import tile_set

    try:
        return tile_set(args.tiles)
    except (KeyError, ValueError) as e:
        raise LexikoError(str(e).strip("'\"")) from None


def cmd_find(args: argparse.Namespace, console: Console) -> int:
    lexicon = load_lexicon(args.lexicon, _tiles(args), console)
    if args.pattern:
        words = lexicon.pattern(args.letters)
    else:
        words = lexicon.anagrams(args.letters, partial=not args.exact, min_length=args.min)
        words.sort(key=lambda w: (-len(w), w))
    if not words:
        console.print("no words found")
        return 1
    shown = words[: args.limit] if args.limit else words
    console.print(" ".join(shown), soft_wrap=True)
    if len(shown) < len(words):
        console.print(f"… and {len(words) - len(shown)} more (--limit 0 shows all)", style="dim")
    return 0


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
    from lexiko import gcg
    from lexiko.terminal import describe, render_game

    game = gcg.load(args.file)
    for ev in game.history:
        console.print(describe(game, ev))
    console.print(render_game(game, None))
    status = f"game over ({game.end_reason})" if game.is_over else "game not finished"
    console.print(f"{args.file}: every score and total agrees; {status}.", soft_wrap=True, highlight=False)
    return 0


def cmd_render(args: argparse.Namespace, console: Console) -> int:
    from lexiko import svg

    svg.render_file(args.file, args.turn, args.output, size=args.size, coordinates=not args.no_coordinates)
    console.print(f"wrote {args.output}", highlight=False, soft_wrap=True)
    return 0


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("lexiko")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return "unknown"


def build_parser() -> Parser:
    parser = Parser(
        prog="lexiko",
        description="lexiko: the crossword-game system. Play against the computer, check "
        "words, find anagrams, check game records.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'lexiko COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"lexiko {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    lex_help = f"lexicon: {', '.join(BUILTIN)} or a word-list file (default: the rules' lexicon, TWL06)"

    p = sub.add_parser(
        "play",
        help="play a game in the terminal",
        epilog=EPILOG_PLAY,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play a game in the terminal against the computer or other people.",
    )
    p.add_argument(
        "--players",
        default="You,static",
        help="comma-separated names; random, greedy, static, sim (or beginner, easy, medium, "
        "hard) are computer players (default: You,static)",
    )
    p.add_argument(
        "--rules",
        default="casual",
        help=f"rules preset: {', '.join(sorted(PRESETS))} (finish-line-beginner and finish-line-expert "
        "too; default: casual, where a word not in the lexicon is refused, not challenged off; "
        "tournament for double challenge)",
    )
    p.add_argument("--lexicon", help=lex_help)
    p.add_argument(
        "--challenge",
        choices=["void", "single", "double", "five-point", "ten-point"],
        help="challenge rule (default: the preset's)",
    )
    p.add_argument("--minutes", type=clock_minutes, help="minutes on each player's clock (default: no clock)")
    p.add_argument("--seed", type=int, help="seed for the bag, to replay the same game")
    p.set_defaults(func=cmd_play)

    j = sub.add_parser(
        "judge",
        help="say whether words are valid",
        description="Say whether each word is in the lexicon (exit status 1 if any is not).",
    )
    j.add_argument("words", nargs="+", metavar="WORD")
    j.add_argument("--lexicon", default="TWL06", help=lex_help)
    j.add_argument("--tiles", default="english", help="tile set of the lexicon (default: english)")
    j.set_defaults(func=cmd_judge)

    f = sub.add_parser(
        "find",
        help="find words from letters or a pattern",
        description="Find the words that can be made from LETTERS (? for a blank), longest first, "
        "or with --pattern the words matching a pattern (? one letter, * any letters).",
        epilog="examples:\n  lexiko find AEINRST\n  lexiko find 'QI?' --exact\n  lexiko find 'Q?I*' --pattern",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    f.add_argument("letters", metavar="LETTERS")
    f.add_argument("--pattern", action="store_true", help="treat LETTERS as a pattern")
    f.add_argument("--exact", action="store_true", help="use every letter")
    f.add_argument("--min", type=positive_int, default=2, help="shortest word to list (default: 2)")
    f.add_argument("--limit", type=non_negative_int, default=100, help="most words to list, 0 for all (default: 100)")
    f.add_argument("--lexicon", default="TWL06", help=lex_help)
    f.add_argument("--tiles", default="english", help="tile set of the lexicon (default: english)")
    f.set_defaults(func=cmd_find)

    r = sub.add_parser(
        "replay",
        help="check a GCG game record and show the game",
        description="Replay a GCG file through the rules engine, checking every score "
        "and running total, and show the moves and the final board.",
    )
    r.add_argument("file", type=Path, metavar="FILE.gcg")
    r.set_defaults(func=cmd_replay)

    d = sub.add_parser(
        "render",
        help="draw the board of a GCG record as SVG or PNG",
        description="Draw the board of a GCG record after a move as a picture: premium squares, tiles "
        "with their values, blanks in another colour, the move's tiles highlighted. A .svg file is "
        "written by lexiko itself; a .png file needs CairoSVG (pip install 'lexiko[png]').",
        epilog="examples:\n  lexiko render game.gcg -o board.svg            # the final position\n"
        "  lexiko render game.gcg --turn 12 -o turn12.png  # after the 12th move\n\n"
        "--turn N is the board AFTER move N (moves: plays, exchanges and passes, counted from 1;\n"
        "0 is the empty board); 'lexiko analyze --turn K' looks at the position BEFORE move K.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    d.add_argument("file", type=Path, metavar="FILE.gcg")
    d.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="FILE",
        help="the picture to write: .svg, or .png with CairoSVG",
    )
    d.add_argument(
        "--turn",
        type=non_negative_int,
        default=None,
        metavar="N",
        help="draw the board after move N (default: the end of the record)",
    )
    d.add_argument(
        "--size",
        type=positive_int,
        default=None,
        metavar="PIXELS",
        help="width of the picture in pixels (default: the drawing's own size)",
    )
    d.add_argument("--no-coordinates", action="store_true", help="leave out the row numbers and column letters")
    d.set_defaults(func=cmd_render)

    from lexiko import analysis, selfplay, training
    from lexiko.web import add_serve_parser

    selfplay.add_parsers(sub)
    training.add_parsers(sub)
    analysis.add_parsers(sub)
    add_serve_parser(sub)
    parser.commands = dict(sub.choices)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (errors are messages, never tracebacks)."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # say so with the command's own help, not the top level's
        parser.commands.get(args.command or "", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command is None:
        parser.print_help()
        return 0
    console = Console()
    try:
        status: int = args.func(args, console)
        return status
    except LexikoError as e:
        console.print(f"[red]error:[/red] {escape(str(e))}", highlight=False, soft_wrap=True, emoji=False)
        return 2
    except FileNotFoundError as e:
        console.print(
            f"[red]error:[/red] no such file: {escape(str(e.filename))}", highlight=False, soft_wrap=True, emoji=False
        )
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
