"""``lexiko play``: a game in the terminal against the computer or other people."""

from __future__ import annotations

import argparse
import math
from typing import Any

from rich.console import Console

from lexiko.cli.argtypes import clock_minutes
from lexiko.cli.loading import load_lexicon
from lexiko.cli.options import LEXICON_HELP
from lexiko.errors import LexikoError
from lexiko.rules import PRESETS, Rules, preset

__all__ = ["add_parser", "run"]

EPILOG = """\
examples:
  lexiko play                          you against the computer (static player)
  lexiko play --players You,hard       against the simulation player
  lexiko play --players Ann,Bob        two people at one terminal
  lexiko play --players Ann,greedy,random --rules family
  lexiko play --lexicon SOWPODS --challenge five-point --seed 7
  lexiko play --rules duplicate --players You,static,greedy,random
  lexiko play --rules duplicate --round-seconds 60

Computer players are named by kind or strength level: random (beginner), greedy
(easy), static (medium), sim (hard). Any other name is a person at this terminal.

In the game, type a play as position and word ("8D WINDY" across from 8D, "D8 WINDY"
down; letters in either case), "exchange ABC", "pass", "challenge", "hint", "undo",
"save FILE", "load FILE", or "help". For a blank, type the word in capitals and the
blank's letter in lower case: "8D WINdY" plays a blank as the D.
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``play`` on the ``lexiko`` command's subparsers.

    >>> p = argparse.ArgumentParser(prog="lexiko"); _ = add_parser(p.add_subparsers())
    >>> p.parse_args(["play"]).players
    'You,static'
    """
    p: argparse.ArgumentParser = subparsers.add_parser(
        "play",
        help="play a game in the terminal",
        epilog=EPILOG,
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
    p.add_argument("--lexicon", help=LEXICON_HELP)
    p.add_argument(
        "--challenge",
        choices=["void", "single", "double", "five-point", "ten-point"],
        help="challenge rule (default: the preset's)",
    )
    p.add_argument(
        "--minutes",
        type=clock_minutes,
        help="minutes on each player's clock (default: no clock; duplicate has a time per round instead: "
        "--round-seconds)",
    )
    p.add_argument(
        "--round-seconds",
        type=round_seconds,
        metavar="SECONDS",
        help="duplicate: seconds to submit a move each round (default: 180; 0: no limit)",
    )
    p.add_argument("--seed", type=int, help="seed for the bag, to replay the same game")
    p.set_defaults(func=run)
    return p


def round_seconds(text: str) -> float:
    """Seconds per duplicate round: 0 (no limit) to a day.

    >>> round_seconds("45.5"), round_seconds("0")
    (45.5, 0.0)
    >>> round_seconds("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be seconds from 0 (no limit) to 86400 (a day), not '-1'
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 86400:  # NaN fails too
        raise argparse.ArgumentTypeError(f"must be seconds from 0 (no limit) to 86400 (a day), not {text!r}")
    return value


def _computer_kind(name: str) -> str | None:
    """The kind of computer player a --players name asks for, or None for a person.

    >>> _computer_kind("Hard"), _computer_kind("bot"), _computer_kind("Ann")
    ('sim', 'static', None)
    """
    from lexiko.bots import KINDS, LEVELS

    key = name.lower()
    if key in ("computer", "bot"):
        return "static"
    if key in KINDS:
        return key
    return LEVELS.get(key)


def _rules(args: argparse.Namespace, players: int) -> Rules:
    rules = preset(args.rules, players=players)
    changes: dict[str, object] = {}
    if args.lexicon is not None:
        changes["lexicon"] = args.lexicon
    if getattr(args, "challenge", None):
        if rules.variant == "duplicate" and args.challenge != rules.challenge_rule:
            # rules.md section 8: each player's move is private and checked when it is made
            raise LexikoError(
                f"duplicate games have no challenges (every move is checked when it is made): leave out "
                f"--challenge {args.challenge}"
            )
        changes["challenge_rule"] = args.challenge
    minutes = getattr(args, "minutes", None)
    seconds = getattr(args, "round_seconds", None)
    if rules.variant == "duplicate":
        if minutes is not None:  # rules.md section 8: one time limit per round, the same for everybody
            default = f"{rules.duplicate_seconds:g}" if rules.duplicate_seconds is not None else "no limit"
            raise LexikoError(
                f"duplicate games have no clock per player: give the time per round with --round-seconds "
                f"(default {default}), e.g. --round-seconds {minutes * 60:g} for {minutes:g} minutes"
            )
        if seconds is not None:
            changes["duplicate_seconds"] = seconds or None  # 0: no limit
    elif seconds is not None:
        raise LexikoError(
            f"--round-seconds is the time per round of duplicate games (--rules duplicate); "
            f"{rules.name} games have a clock per player: --minutes"
        )
    if minutes is not None:
        changes["time_minutes"] = minutes
    return rules.replace(**changes) if changes else rules


def run(args: argparse.Namespace, console: Console) -> int:
    """Play the game until it ends or the players leave."""
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
