"""``lexiko tournament``: run an event from a file: create it, add players, pair rounds,
enter results, show the standings, write reports (`lexiko.tournament` does the rules;
this module reads and writes the event file, saved whole after every change)."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from lexiko.cli.argtypes import non_negative_int, positive_int
from lexiko.errors import LexikoError
from lexiko.tournament import METHODS, Division, Event, Player, Settings, pair, standings, team_standings
from lexiko.tournament.files import division_from_tsh, division_to_tsh, event_from_json, event_to_json
from lexiko.tournament.report import html_report, pairings_csv, scorecards_csv, standings_csv, wins_text

__all__ = ["add_parser", "run"]

DESCRIPTION = """\
Run a tournament from one event file (JSON, readable, saved whole after each change):
create the event, add players, pair each round, enter its results, then see the
standings or write a report. A director's evening:

  lexiko tournament new club.json --name "Club night" --method swiss --rounds 5
  lexiko tournament add club.json "Lee, Ann" --rating 1800
  lexiko tournament add club.json "Ng, Bo" --rating 1700        (and the others)
  lexiko tournament pair club.json                               pairs round 1, prints it
  lexiko tournament result club.json 1 "Lee, Ann" 420 "Ng, Bo" 380
  lexiko tournament standings club.json
  lexiko tournament report club.json --out report/               HTML page and CSV files

A duplicate festival (several duplicate games ranked by total and by percentage of the
top) is a file of its own:

  lexiko tournament festival summer.json --add game1.dup game2.dup
  lexiko tournament festival summer.json --by percent

Players are named by their number (as 'pair' prints it) or their name. An event with
several divisions takes --division on every action. Bad input (a result for a game that
is not paired, entered twice, a round paired before the last is complete) is refused
with a message and the file is left as it was."""

METHOD_HELP = (
    "how rounds are paired: round-robin, double-round-robin, swiss (by wins then spread, no repeats "
    "while avoidable), king-of-the-hill (1 v 2, 3 v 4), initial-fontes (first rounds in rating groups, "
    "then swiss), factor, elimination, team-round-robin, manual (default: swiss)"
)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``tournament`` and its actions on the ``lexiko`` command's subparsers.

    >>> p = argparse.ArgumentParser(prog="lexiko"); _ = add_parser(p.add_subparsers())
    >>> a = p.parse_args(["tournament", "result", "e.json", "2", "Ann", "420", "7", "380"])
    >>> a.action, a.round, a.player, a.score, a.opponent, a.opponent_score
    ('result', 2, 'Ann', 420, '7', 380)
    """
    t: argparse.ArgumentParser = subparsers.add_parser(
        "tournament",
        help="run a tournament: players, pairings, results, standings",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'lexiko tournament ACTION --help' for the options of an action. See docs/tournaments.md.",
    )
    t.set_defaults(func=_no_action, parser=t)
    actions = t.add_subparsers(dest="action", metavar="ACTION")

    def action(name: str, help: str, description: str) -> argparse.ArgumentParser:
        a: argparse.ArgumentParser = actions.add_parser(
            name, help=help, description=description, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        a.add_argument("event", metavar="EVENT.json", help="the event file")
        if name != "new":
            a.add_argument("--division", "-d", help="the division (needed when the event has several)")
        a.set_defaults(func=run)
        return a

    new = action(
        "new",
        "create an event file",
        "Create an event file with one division (give --division again to add more: "
        "each takes the same settings), or import a TSH division file with --from-tsh.",
    )
    new.add_argument("--name", help="the event's name (default: the file's name)")
    new.add_argument("--division", "-d", action="append", help="a division's name (default: A); repeat for more")
    new.add_argument("--method", "-m", default="swiss", choices=METHODS, metavar="METHOD", help=METHOD_HELP)
    new.add_argument("--rounds", type=non_negative_int, default=0, help="rounds planned (default 0: not fixed)")
    new.add_argument("--bye-spread", type=int, default=50, help="the spread a bye counts for (default 50: a win)")
    new.add_argument(
        "--missed-spread", type=int, default=-50, help="the spread of each round a late entry missed (default -50)"
    )
    new.add_argument(
        "--gibson", action="store_true", help="pair a player who has clinched first against players out of the prizes"
    )
    new.add_argument("--prizes", type=positive_int, default=1, help="places with a prize, for --gibson (default 1)")
    new.add_argument(
        "--fontes", type=positive_int, default=3, help="rounds of initial fontes in rating groups (odd, default 3)"
    )
    new.add_argument("--factor", type=positive_int, default=2, help="the factor of factor pairing (default 2)")
    new.add_argument("--from-tsh", metavar="FILE.t", help="read the division's players and rounds from a TSH file")
    new.add_argument("--force", action="store_true", help="replace an existing event file")

    add = action("add", "add a player (a late entry once rounds are paired)", "Add a player to a division.")
    add.add_argument("name", help='the player\'s name ("Lee, Ann")')
    add.add_argument("--rating", type=non_negative_int, default=0, help="rating before the event (0: unrated)")
    add.add_argument("--team", default="", help="the player's team (team events)")

    wd = action(
        "withdraw",
        "withdraw a player (or --back to reinstate)",
        "Withdraw a player: their results stay, later rounds leave them out. A game of the "
        "current round without a result must be entered (or forfeited) first.",
    )
    wd.add_argument("player", help="number or name")
    wd.add_argument("--back", action="store_true", help="reinstate the player from the next round")

    pr = action(
        "pair",
        "pair the next round and print it",
        "Pair the next round (the last one must be complete) and print it; the first named goes first.",
    )
    pr.add_argument(
        "--method", "-m", choices=METHODS, metavar="METHOD", help="this round's method (default: the division's)"
    )
    pr.add_argument(
        "--manual",
        nargs="+",
        metavar="A-B",
        help="manual pairings as FIRST-SECOND numbers, and N-0 for a bye (with --method manual)",
    )
    pr.add_argument("--again", action="store_true", help="remove the last round (no results yet) and pair it again")

    res = action(
        "result",
        "enter the result of a game",
        "Enter a game's result: the round, each player (number or name) and their score, in either order.\n\n"
        "  lexiko tournament result club.json 3 7 412 12 388\n"
        "  lexiko tournament result club.json 3 7 0 12 0 --forfeit     player 7 forfeits",
    )
    res.add_argument("round", type=positive_int, help="the round")
    res.add_argument("player", help="a player (number or name)")
    res.add_argument("score", type=int, help="their score")
    res.add_argument("opponent", help="their opponent (number or name)")
    res.add_argument("opponent_score", type=int, help="the opponent's score")
    res.add_argument("--spread", type=int, help="the spread on the scorecard: refused if the scores do not add up")
    res.add_argument("--correct", action="store_true", help="replace a result entered before")
    res.add_argument("--forfeit", action="store_true", help="the first player forfeits (the scores are ignored)")

    st = action(
        "standings",
        "print the standings",
        "Print the standings (of every division without --division): wins (draws half), then spread, then "
        "points scored, rating, number.",
    )
    st.add_argument("--ratings", choices=("elo", "glicko2"), help="add rating estimates after the event")
    st.add_argument("--teams", action="store_true", help="also the team standings (players' wins and spread summed)")

    rp = action(
        "report",
        "write the standings, pairings and scorecards (HTML and CSV)",
        "Write index.html (standings, rounds, scorecards), standings.csv, pairings.csv and "
        "scorecards.csv into a folder (files of an earlier report are replaced), and with "
        "--tsh each division as a TSH .t file.",
    )
    rp.add_argument("--out", "-o", required=True, metavar="FOLDER", help="the folder to write into")
    rp.add_argument("--tsh", action="store_true", help="also write each division as DIVISION.t")

    fe: argparse.ArgumentParser = actions.add_parser(
        "festival",
        help="a duplicate festival: add games, rank by total and by percentage of the top",
        description="A duplicate festival in its own file (created when it does not exist): add finished "
        "duplicate games from their records (lexiko's duplicate record, as the web app downloads it) or by "
        "hand, and print the ranking by total score or by percentage of the top (a missed game counts 0 "
        "in the total and is left out of the percentage).\n\n"
        "  lexiko tournament festival summer.json --add game1.dup game2.dup\n"
        "  lexiko tournament festival summer.json --game 1000 Ann=950 Bo=900 --by percent",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    fe.add_argument("festival", metavar="FESTIVAL.json", help="the festival file")
    fe.add_argument("--name", help="the festival's name when the file is created (default: the file's name)")
    fe.add_argument("--add", nargs="+", default=[], metavar="RECORD.dup", help="finished duplicate games to add")
    fe.add_argument(
        "--game", nargs="+", metavar="TOP NAME=SCORE", help="a game by hand: its top, then each player's score"
    )
    fe.add_argument("--by", choices=("total", "percent"), default="total", help="how to rank (default: total)")
    fe.set_defaults(func=_festival)
    return t


def _no_action(args: argparse.Namespace, console: Console) -> int:
    args.parser.print_help()
    return 0


def _load(path: str) -> Event:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise LexikoError(f"{path} is not an event file (not text)") from None
    except IsADirectoryError:
        raise LexikoError(f"{path} is a folder, not an event file") from None
    try:
        return event_from_json(text)
    except LexikoError as e:
        raise LexikoError(f"{path}: {e}") from None


def _write(path: Path, text: str) -> None:
    """Write ``text`` whole or not at all (a temporary file renamed over the old one)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _pairing_lines(division: Division, number: int) -> list[str]:
    rnd = division.rounds[number - 1]
    lines = []
    for p, r in zip(rnd.pairings, rnd.results, strict=True):
        a = f"{p.first:>3} {division.players[p.first - 1].name}"
        if p.second is None:
            lines.append(f"{a}: bye ({r.first:+d})" if r else f"{a}: bye")
        else:
            lines.append(f"{a}  v  {p.second} {division.players[p.second - 1].name}")
    return lines


def run(args: argparse.Namespace, console: Console) -> int:
    """Do the action on the event file; the file changes only when the action succeeds."""
    path = Path(args.event)
    if args.action == "new":
        return _new(args, path, console)
    event = _load(args.event)
    if args.action in ("standings", "report") and args.division is None:
        divisions = event.divisions  # every division
    else:
        divisions = [event.division(args.division)]
    division = divisions[0] if divisions else event.division(None)
    if args.action == "add":
        number = division.add_player(Player(args.name, args.rating, args.team))
        late = f" (late entry: {len(division.rounds)} missed rounds)" if division.rounds else ""
        _write(path, event_to_json(event))
        print(f"added player {number}: {args.name}{late}")
    elif args.action == "withdraw":
        n = division.find(args.player)
        if args.back:
            division.reinstate(n)
        else:
            division.withdraw(n)
        _write(path, event_to_json(event))
        print(f"{division.label(n)} {'is back' if args.back else 'has withdrawn'}")
    elif args.action == "pair":
        return _pair(args, event, division, path)
    elif args.action == "result":
        a, b = division.find(args.player), division.find(args.opponent)
        if args.forfeit:
            division.forfeit(args.round, a, b, correct=args.correct)
        elif args.spread is not None:
            division.record_spread(args.round, a, b, args.score, args.opponent_score, args.spread, correct=args.correct)
        else:
            division.record(args.round, a, args.score, b, args.opponent_score, correct=args.correct)
        _write(path, event_to_json(event))
        rnd = division.rounds[args.round - 1]
        left = sum(r is None for r in rnd.results)
        print(f"round {args.round}: result entered ({left} to go)" if left else f"round {args.round} is complete")
    elif args.action == "standings":
        for d in divisions:
            _standings(args, d, console)
    elif args.action == "report":
        folder = Path(args.out)
        if folder.exists() and not folder.is_dir():
            raise LexikoError(f"--out {args.out} is a file, not a folder")
        folder.mkdir(parents=True, exist_ok=True)
        written = {
            "index.html": html_report(event),
            "standings.csv": standings_csv(event),
            "pairings.csv": pairings_csv(event),
            "scorecards.csv": scorecards_csv(event),
        }
        if args.tsh:
            written |= {f"{d.name}.t": division_to_tsh(d) for d in event.divisions}
        for name, text in written.items():
            _write(folder / name, text)
        print(f"wrote {', '.join(written)} in {folder}")
    return 0


def _new(args: argparse.Namespace, path: Path, console: Console) -> int:
    if path.exists() and not args.force:
        raise LexikoError(f"{path} already exists (--force replaces it)")
    if not path.parent.is_dir():
        raise LexikoError(f"no such folder {path.parent}")
    settings = Settings(
        method=args.method,
        rounds=args.rounds,
        bye_spread=args.bye_spread,
        missed_spread=args.missed_spread,
        gibson=args.gibson,
        prizes=args.prizes,
        fontes=args.fontes,
        factor=args.factor,
    )
    event = Event(args.name or path.stem)
    names = args.division or ["A"]
    if args.from_tsh:
        if len(names) > 1:
            raise LexikoError("--from-tsh reads one division: give one --division")
        text = Path(args.from_tsh).read_text(encoding="utf-8")
        try:
            event.add_division(division_from_tsh(text, names[0], settings))
        except LexikoError as e:
            raise LexikoError(f"{args.from_tsh}: {e}") from None
    else:
        for name in names:
            event.add_division(Division(name, settings))
    _write(path, event_to_json(event))
    d = event.divisions
    print(f"created {path}: {event.name}, division{'s' if len(d) > 1 else ''} {', '.join(x.name for x in d)}")
    return 0


def _pair(args: argparse.Namespace, event: Event, division: Division, path: Path) -> int:
    from lexiko.tournament import Pairing

    if args.again:
        division.unpair()
    manual = []
    for text in args.manual or ():
        first, sep, second = text.partition("-")
        if not sep or not first.strip().isdigit() or not second.strip().isdigit():
            raise LexikoError(f"--manual takes pairings as FIRST-SECOND numbers (N-0 for a bye), not {text!r}")
        manual.append(Pairing(int(first), int(second) or None))
    method = args.method or ("manual" if manual else None)
    rnd = pair(division, method, manual)
    _write(path, event_to_json(event))
    number = len(division.rounds)
    print(f"round {number} of division {division.name}:")
    print("\n".join(_pairing_lines(division, number)))
    assert rnd is division.rounds[-1]
    return 0


def _duplicate_game(path: str, lexicons: dict[tuple[str, str], Any]) -> Any:
    """The finished duplicate game of a record file, replayed with its word list."""
    from lexiko import duplicate
    from lexiko.lexicon import Lexicon
    from lexiko.rules import DUPLICATE

    text = Path(path).read_text(encoding="utf-8")
    rules = DUPLICATE
    for line in text.splitlines()[1:]:
        if not line.startswith("#"):
            break
        key, _, value = line[1:].partition(" ")
        if key == "lexicon":
            rules = rules.replace(lexicon=value.strip())
        elif key == "tile-distribution":
            rules = rules.replace(tiles=value.strip())
    which = (rules.lexicon, rules.tile_set.name)
    if which not in lexicons:
        lexicons[which] = Lexicon.load(rules.lexicon, rules.tile_set)
    try:
        game = duplicate.loads(text, lexicons[which])
    except LexikoError as e:
        raise LexikoError(f"{path}: {e}") from None
    if not game.over:
        raise LexikoError(f"{path}: the game is not over (its record stops after round {len(game.rounds)})")
    return game


def _festival(args: argparse.Namespace, console: Console) -> int:
    """Add games to a festival file (created when missing) and print its ranking."""
    from lexiko.tournament.festival import Festival, festival_from_json, festival_to_json

    path = Path(args.festival)
    if path.exists():
        try:
            festival = festival_from_json(path.read_text(encoding="utf-8"))
        except (LexikoError, UnicodeDecodeError) as e:
            raise LexikoError(f"{path}: {e}") from None
    elif not path.parent.is_dir():
        raise LexikoError(f"no such folder {path.parent}")
    else:
        festival = Festival(args.name or path.stem)
    lexicons: dict[tuple[str, str], Any] = {}
    for record in args.add:
        festival.add_duplicate(_duplicate_game(record, lexicons))
    if args.game:
        top, *entries = args.game
        if not top.isdigit():
            raise LexikoError(f"--game starts with the game's top (a whole number), not {top!r}")
        scores: dict[str, int] = {}
        for entry in entries:
            name, sep, score = entry.rpartition("=")
            if not sep or not name.strip() or not score.strip().lstrip("-").isdigit():
                raise LexikoError(f"--game takes each player's score as NAME=SCORE, not {entry!r}")
            scores[name.strip()] = int(score)
        festival.add_game(int(top), scores)
    if args.add or args.game or not path.exists():
        _write(path, festival_to_json(festival))
    lines = festival.by_total() if args.by == "total" else festival.by_percent()
    table = Table(title=f"{festival.name}, {len(festival.tops)} games, by {args.by}")
    for head in ("#", "Player", "Total", "Top", "%", "Games"):
        table.add_column(head, justify="left" if head == "Player" else "right")
    for x in lines:
        table.add_row(str(x.rank), x.name, str(x.total), str(x.top), f"{x.percent:.2f}", str(x.games))
    console.print(table)
    return 0


def _standings(args: argparse.Namespace, division: Division, console: Console) -> None:
    table = Table(title=f"Division {division.name}, after {sum(r.complete for r in division.rounds)} rounds")
    for head in ("#", "Player", "Rating", "Wins", "Losses", "Spread"):
        table.add_column(head, justify="left" if head == "Player" else "right")
    estimates: dict[int, int] = {}
    if args.ratings:
        from lexiko.tournament import ratings

        found = ratings.elo(division) if args.ratings == "elo" else ratings.glicko2(division)
        estimates = {e.number: e.after for e in found}
        table.add_column("New rating", justify="right")
    for s in standings(division):
        row = [
            str(s.rank),
            f"{s.name} ({s.number})" + (" withdrawn" if s.withdrawn else ""),
            str(s.rating),
            wins_text(s.wins),
            wins_text(s.losses),
            f"{s.spread:+d}",
        ]
        if estimates:
            row.append(str(estimates[s.number]))
        table.add_row(*row)
    console.print(table)
    if args.teams:
        teams = Table(title=f"Teams of division {division.name}")
        for head in ("#", "Team", "Players", "Wins", "Losses", "Spread"):
            teams.add_column(head, justify="left" if head == "Team" else "right")
        for t in team_standings(division):
            teams.add_row(
                str(t.rank),
                t.team or "(none)",
                str(t.players),
                wins_text(t.wins),
                wins_text(t.losses),
                f"{t.spread:+d}",
            )
        console.print(teams)
