"""Play in the terminal: the board in colour, racks, scores, and a command loop.

Rendering is separate from the loop, so the loop can be driven by tests with a list of
input lines and a recording console.

>>> from lexiko.board import Board
>>> from rich.console import Console
>>> import io
>>> c = Console(record=True, width=80, color_system=None, file=io.StringIO())
>>> c.print(render_board(Board.empty()))
>>> c.export_text().splitlines()[1].rstrip()
' 1  TW  .  . DL  .  .  . TW  .  .  . DL  .  . TW'
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from lexiko import gcg
from lexiko.board import Board, column_name
from lexiko.duplicate import DuplicateGame, RoundResult, bot_move, dumps, master_sheet
from lexiko.errors import LexikoError
from lexiko.files import write_file
from lexiko.game import Event, Game
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Pass, Place
from lexiko.tiles import TileSet

if TYPE_CHECKING:
    from lexiko.bots.base import Player

__all__ = ["render_board", "render_game", "TerminalGame", "DuplicateTerminal"]

_PREMIUM = {
    "T": ("TW", "bold white on red"),
    "D": ("DW", "black on pink1"),
    "*": (" ★", "black on pink1"),
    "Q": ("QW", "bold white on dark_red"),
    "t": ("TL", "bold white on blue"),
    "d": ("DL", "black on sky_blue1"),
    "q": ("QL", "bold white on dark_blue"),
}


def render_board(board: Board, highlight: Sequence[tuple[int, int]] = ()) -> Text:
    """The board as coloured text: premium squares labelled, tiles bold, blanks in
    lower case, the squares of the last play highlighted."""
    n = board.size
    lit = set(highlight)
    out = Text()
    out.append("   " + "".join(f" {column_name(c):>2}" for c in range(n)) + "\n", style="dim")
    for r in range(n):
        out.append(f"{r + 1:>2} ", style="dim")
        for c in range(n):
            out.append(" ")
            face = board.face_at(r, c)
            if face:
                style = "bold black on yellow" if (r, c) in lit else "bold black on wheat1"
                if face.islower():
                    style += " italic"
                out.append(f"{face.upper():>2}" if len(face) == 1 else face[:2], style=style)
            else:
                label, style = _PREMIUM.get(board.layout.rows[r][c], (" .", "dim"))
                out.append(label, style=style)
        out.append("\n")
    return out


def _rack_text(game: Game, rack: Sequence[int]) -> Text:
    """The tiles with their values, ``A1 Q10 ?0``: four characters a tile or so."""
    return _rack_text_of(game.tiles, rack)


#: Below this width the score panel goes under the board instead of beside it.
SIDE_PANEL_WIDTH = 78


def render_game(
    game: Game, viewer: int | None, rack_order: Sequence[int] | None = None, *, width: int = 80
) -> Group | Table:
    """Board, score table and ``viewer``'s rack (None: show no rack). On a console of
    ``width`` 78 columns or more the scores, the bag and the rack stand beside the board,
    so the whole game fits an 80x24 terminal; narrower, they go under it."""
    last = next((e for e in reversed(game.history) if e.kind == "play"), None)
    lit: list[tuple[int, int]] = []
    if last is not None and isinstance(last.move, Place):
        lit = [(r, c) for r, c, _ in last.move.new_tiles()]
    scores = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    scores.add_column("")
    scores.add_column("player", overflow="ellipsis", max_width=14, no_wrap=True)
    scores.add_column("score", justify="right")
    clocks = [game.time_left(i) for i in range(len(game.players))]
    if any(c is not None for c in clocks):
        scores.add_column("time", justify="right")
    for i, name in enumerate(game.players):
        mark = "▶" if i == game.player_on_turn and not game.is_over else ""
        row: list[Text | str] = [mark, Text(name), str(game.scores[i])]
        left = clocks[i]
        if left is not None:
            row.append(f"{'-' if left < 0 else ''}{int(abs(left)) // 60}:{int(abs(left)) % 60:02d}")
        scores.add_row(*row)
    side: list[Text | Table] = [scores, Text(f"bag: {game.bag_count} tiles", style="dim")]
    if viewer is not None:
        unseen = game.tiles.format(game.tiles.rack_sort(game.unseen(viewer)))
        side.append(Text(f"unseen: {unseen}", style="dim", overflow="fold"))
        rack = list(rack_order) if rack_order is not None else list(game.rack(viewer))
        side.append(
            Text.assemble(Text(f"rack of {game.players[viewer]}:\n", overflow="ellipsis"), _rack_text(game, rack))
        )
    board = render_board(game.board, lit)
    board_width = 3 + 3 * game.board.size
    if width >= SIDE_PANEL_WIDTH and width - board_width >= 26:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column(width=width - board_width - 2)
        grid.add_row(board, Group(*side))
        return grid
    return Group(board, *side)


HELP = """\
Commands (letters in either case: "8d windy" is 8D WINDY):
  8D WORD       play WORD across from 8D (column first, D8, plays down)
  8D WINdY      a blank: the word in capitals, the blank's letter in lower
                case (here a blank is the D)
  H8 QU(I)CK    letters already on the board in parentheses (or as ".")
  exchange ABC  exchange tiles (also -ABC; ? for a blank)
  pass          pass your turn (also -)
  challenge     challenge the play just made
  hint          the best moves for your rack
  shuffle       shuffle your rack
  undo          take back your last turn (and the computer's reply)
  save FILE     save the game as GCG
  load FILE     go on with a game saved as GCG
  board         show the board again
  help          this help
  quit          leave the game"""


def describe(game: Game, ev: Event) -> str:
    """One line for a history event: ``Ann: 8D WINDY +32 (32)``."""
    name = game.players[ev.player]
    if ev.kind == "play" and isinstance(ev.move, Place):
        words = ", ".join(ev.words)
        return f"{name}: {ev.move.notation(game.tiles, game.board)} +{ev.score} ({ev.total})   words: {words}"
    if ev.kind == "exchange" and isinstance(ev.move, Exchange):
        n = len(ev.move.tiles)
        return f"{name}: exchange {n} tile{'s' if n > 1 else ''}"
    if ev.kind == "pass":
        return f"{name}: pass"
    if ev.kind == "withdrawn" and ev.invalid:
        bad = ", ".join(ev.invalid)
        verdict = "is not a word" if len(ev.invalid) == 1 else "are not words"
        return f"{name}: play withdrawn {ev.score:+d} ({ev.total}): {bad} {verdict}"
    what = "loses the turn (failed challenge)" if ev.kind == "lost-turn" else ev.kind.replace("-", " ")
    return f"{name}: {what} {ev.score:+d} ({ev.total})"


def as_typed(line: str) -> str:
    """A move as a person types it: a word all in lower case means the letters
    (``8d windy``, ``8D windy``); a word with any capital marks its lower-case letters
    as blanks, as in GCG (``8D WINdY``). Only the word counts, not the position.

    >>> as_typed("8d windy"), as_typed("8D windy"), as_typed("8D WINdY"), as_typed("exchange qu")
    ('8D WINDY', '8D WINDY', '8D WINdY', 'EXCHANGE QU')
    """
    head, _, rest = line.partition(" ")
    low = head.lower()
    is_move = _POSITION.fullmatch(low) is not None or low == "exchange" or low.startswith("-")
    word = rest if _POSITION.fullmatch(low) else line
    return line.upper() if is_move and not any(ch.isupper() for ch in word) else line


_POSITION = re.compile(r"\d{1,2}[a-z]{1,2}|[a-z]{1,2}\d{1,2}")


@dataclass
class TerminalGame:
    """The play loop. ``bots`` maps player index to a computer player; the others are
    people typing at this terminal."""

    game: Game
    bots: dict[int, Player]
    lexicon: Lexicon
    console: Console = field(default_factory=Console)
    ask: Callable[[str], str] | None = None
    rng: random.Random = field(default_factory=random.Random)
    _order: dict[int, list[int]] = field(default_factory=dict)
    _seen: int = 0

    def _input(self, prompt: str) -> str:
        if self.ask is not None:
            return self.ask(prompt)
        return self.console.input(Text(prompt))  # a name is text, never markup

    def run(self) -> None:
        """Play until the game ends or someone types ``quit``."""
        self.console.print("[bold]lexiko[/bold] — type [bold]help[/bold] for the commands; letters in any case.")
        self._show()
        while not self.game.is_over:  # "load" may replace the game
            self._report()
            p = self.game.player_on_turn
            if p in self.bots:
                self._bot_turn(p)
                continue
            if not self._human_turn(p):
                return
        self._report()
        self._show()
        self._final()

    # -- turns -------------------------------------------------------------------

    def _bot_turn(self, p: int) -> None:
        g = self.game
        bot = self.bots[p]
        if g.awaiting_challenge and bot.wants_challenge(g):
            self.console.print(Text(f"{g.players[p]} challenges!", style="bold"))
            self._challenge(p, "challenge")
            return
        if g.awaiting_final_challenge:
            g.accept(player=p)
            return
        move = bot.choose(g)
        g.apply(move, player=p)
        if isinstance(move, Place):
            self._show()

    def _human_turn(self, p: int) -> bool:
        """One command of a person; False to quit."""
        g = self.game
        name = g.players[p]
        hint = " (challenge or accept)" if g.awaiting_final_challenge else ""
        try:
            line = self._input(f"[{name}]{hint}> ").strip()
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return False
        if not line:
            return True
        cmd, _, arg = line.partition(" ")
        low = cmd.lower()
        try:
            if low in ("quit", "exit", "q"):
                return False
            if low in ("help", "?", "h"):
                self.console.print(HELP)
            elif low == "board":
                self._show()
            elif low == "hint":
                self._hint(p)
            elif low == "shuffle":
                order = list(g.rack(p))
                self.rng.shuffle(order)
                self._order[p] = order
                self._show()
            elif low == "undo":
                self._undo(p)
            elif low == "save":
                if not arg:
                    raise LexikoError("save needs a file name: save game.gcg")
                _save(arg, gcg.dumps(g))
                self.console.print(f"saved to {arg}", markup=False, highlight=False)
            elif low == "load":
                self._load(arg)
            elif low in ("challenge", "accept"):
                self._challenge(p, low)
            elif low == "exchange" and not arg.strip():
                raise LexikoError("exchange needs the tiles to give back: exchange ABC (? for a blank)")
            else:
                before = len(g.history)
                g.apply(as_typed(line), player=p)
                self._order.pop(p, None)
                if any(e.kind == "play" for e in g.history[before:]):
                    self._show()
        except LexikoError as e:
            self.console.print(Text(str(e), style="red"), soft_wrap=True)
        return True

    def _load(self, path: str) -> None:
        """Go on with a game saved as GCG (same number of players, same seats)."""
        if not path:
            raise LexikoError("load needs a file name: load game.gcg")
        try:
            loaded = gcg.load(Path(path), lexicon=self.lexicon)
        except LexikoError as e:
            reason = str(e)
            if len(reason) > 120:  # a binary file's first line is no help
                reason = reason[:117] + "..."
            raise LexikoError(f"cannot load {path}: {reason}") from None
        if len(loaded.players) != len(self.game.players):
            raise LexikoError(
                f"{path} is a game of {len(loaded.players)} players; this one has {len(self.game.players)}"
            )
        if loaded.is_over:
            raise LexikoError(f"{path} is a finished game: look at it with 'lexiko replay {path}'")
        self.game = loaded
        self._seen = len(loaded.history)
        self._order.clear()
        self.console.print(f"loaded {path}: {len(loaded.history)} turns played")
        self._show()

    def _challenge(self, p: int, action: str) -> None:
        """Challenge or accept the play just made; a failed challenge says which words
        were challenged and that they are valid (the events only say what it cost)."""
        g = self.game
        played = next((e for e in reversed(g.history) if e.kind == "play"), None)
        before = len(g.history)
        g.apply(action, player=p)
        new = g.history[before:]
        if action == "challenge" and played is not None and not any(e.kind == "withdrawn" for e in new):
            verdict = "is valid" if len(played.words) == 1 else "are valid"
            self.console.print(
                Text(f"{g.players[p]}'s challenge fails: {', '.join(played.words)} {verdict}"), soft_wrap=True
            )
        self._show()

    def _hint(self, p: int) -> None:
        from lexiko.leaves import LeaveTable
        from lexiko.movegen import generate

        pos = self.game.position(p)
        table = LeaveTable.default(self.game.tiles)
        out = Table(title="best moves (equity = score + leave value)", box=None)
        for name in ("move", "score", "leave", "value", "equity"):
            out.add_column(name, justify="left" if name in ("move", "leave") else "right")
        for cand in generate(
            pos.board, pos.rack, self.lexicon, pos.rules, bag_count=pos.bag_count, best=5, leaves=table
        ):
            m = cand.move
            if isinstance(m, Place):
                text = m.notation(self.game.tiles, pos.board)
            elif isinstance(m, Exchange):
                text = f"exchange {self.game.tiles.format(m.tiles)}"
            else:
                assert isinstance(m, Pass)
                text = "pass"
            out.add_row(
                text,
                str(cand.score),
                self.game.tiles.format(cand.leave),
                f"{cand.equity - cand.score:+.1f}",
                f"{cand.equity:.1f}",
            )
        self.console.print(out)

    def _undo(self, p: int) -> None:
        g = self.game
        if not any(e.player == p for e in g.history):  # checked first: the computer's moves stay
            raise LexikoError("nothing to undo: there is no turn of yours yet")
        # take back the computer's replies, then the person's own last action
        while g.history[-1].player != p:
            g.undo()
        g.undo()
        self._seen = min(self._seen, len(g.history))
        self._show()

    # -- output -------------------------------------------------------------------

    def _viewer(self) -> int | None:
        people = [i for i in range(len(self.game.players)) if i not in self.bots]
        if len(people) == 1:
            return people[0]
        p = self.game.player_on_turn
        return p if p in people else None

    def _show(self) -> None:
        v = self._viewer()
        order = self._order.get(v) if v is not None else None
        if order is not None and sorted(order) != sorted(self.game.rack(v)):
            order = None
        self.console.print(render_game(self.game, v, order, width=self.console.width))

    def _report(self) -> None:
        hist = self.game.history
        for ev in hist[self._seen :]:
            self.console.print(Text(describe(self.game, ev)), soft_wrap=True)
        self._seen = len(hist)

    def _final(self) -> None:
        g = self.game
        win = g.winners()
        names = " and ".join(g.players[i] for i in win)
        scores = ", ".join(f"{n} {s}" for n, s in zip(g.players, g.scores, strict=True))
        self.console.print(
            Text.assemble(
                ("Game over", "bold"), f" ({g.end_reason}): {scores}. {'Winner' if len(win) == 1 else 'Tied'}: {names}."
            ),
            soft_wrap=True,
        )


# -- duplicate ------------------------------------------------------------------------

DUPLICATE_HELP = """\
Duplicate: everyone plays the same rack on the same board; each scores their
own move, and the top move (the highest score) is placed. Type your move for
the shared rack:
  8D WORD       a play (letters in either case: "8d windy" is 8D WINDY)
  8D WINdY      a blank: the word in capitals, the blank's letter in lower
                case (here a blank is the D)
  pass          no move this round (0 points)
  sheet         the master score sheet so far
  save FILE     save the game in lexiko's duplicate record format
  help          this help
  quit          leave the game"""


@dataclass
class DuplicateTerminal:
    """Duplicate play at the terminal: the people type their moves in turn (each after
    the others have looked away), the computer players submit theirs, then the round's
    top, every move and the totals are shown."""

    game: DuplicateGame
    bots: dict[str, Player]
    console: Console = field(default_factory=Console)
    ask: Callable[[str], str] | None = None

    def _input(self, prompt: str) -> str:
        if self.ask is not None:
            return self.ask(prompt)
        return self.console.input(Text(prompt))

    def run(self) -> None:
        """Play rounds until the game ends or someone types ``quit``."""
        g = self.game
        self.console.print("[bold]lexiko duplicate[/bold] — type [bold]help[/bold] for the commands.")
        while not g.over:
            self._show()
            for name in g.players:
                if name in self.bots:
                    continue
                if not self._person(name):
                    return
            for name, bot in self.bots.items():
                try:
                    g.submit(name, bot_move(bot, g), elapsed=0)
                except LexikoError:
                    g.submit(name, "-", elapsed=0)
            self._result(g.close_round())
        self.console.print(Text(master_sheet(g)), soft_wrap=True)
        best = g.standings()[0]
        self.console.print(
            Text(
                f"Game over after {len(g.rounds)} rounds: {g.end_reason}. Best: {best[0]} with {best[1]} "
                f"({best[2]:.1f}% of the top {g.top_total}).",
                style="bold",
            ),
            soft_wrap=True,
        )

    def _show(self) -> None:
        g = self.game
        last = g.rounds[-1].top.move if g.rounds else None
        lit = [(r, c) for r, c, _ in last.new_tiles()] if isinstance(last, Place) else []
        self.console.print(render_board(g.board, lit))
        left = g.time_left()
        clock = "" if left is None else f", {int(left)} s to answer"
        self.console.print(
            Text.assemble(
                Text(f"round {g.round_number}, bag {g.bag_count}{clock}; rack: "), _rack_text_of(g.tiles, g.rack)
            )
        )

    def _person(self, name: str) -> bool:
        """Ask ``name`` until a move is accepted; False to quit."""
        g = self.game
        while True:
            try:
                line = self._input(f"[{name}]> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return False
            low = line.lower()
            try:
                if low in ("quit", "exit", "q"):
                    return False
                if low in ("help", "?", "h", ""):
                    self.console.print(DUPLICATE_HELP)
                elif low == "hint":
                    raise LexikoError(
                        "no hints in a duplicate game: each player finds their own move for the shared rack"
                    )
                elif low == "sheet":
                    self.console.print(Text(master_sheet(g)), soft_wrap=True)
                elif low.startswith("save"):
                    path = line[4:].strip()
                    if not path:
                        raise LexikoError("save needs a file name: save game.dup")
                    _save(path, dumps(g))
                    self.console.print(f"saved to {path}", markup=False, highlight=False)
                else:
                    left = g.time_left()
                    if left is not None and left < 0:
                        self.console.print(
                            Text(
                                f"too late: the round closed after {g.rules.duplicate_seconds:g} "
                                f"seconds; {name} scores 0 this round",
                                style="red",
                            ),
                            soft_wrap=True,
                        )
                        return True
                    head, _, word = low.partition(" ")
                    if low not in ("pass", "-") and (_POSITION.fullmatch(head) is None or len(word.split()) != 1):
                        raise LexikoError(
                            f"{line!r} is not a move: write a play like 8D WORD, or pass (a duplicate game has no "
                            "exchanges)"
                        )
                    sub = g.submit(name, "-" if low in ("pass", "-") else as_typed(line))
                    self.console.print(Text(f"{name}: {sub.notation} for {sub.score}, noted"), soft_wrap=True)
                    return True
            except LexikoError as e:
                self.console.print(Text(str(e), style="red"), soft_wrap=True)

    def _result(self, r: RoundResult) -> None:
        g = self.game
        self.console.print(Text(f"round {r.number}: top {r.top.notation} for {r.top.score}", style="bold"))
        for name in g.players:
            sub = r.submissions[name]
            what = "no move" if sub is None else sub.notation
            bonus = f" +{r.bonus[name]} solo" if name in r.bonus else ""
            self.console.print(
                Text(f"  {name}: {what} {r.scores[name]}{bonus}  total {g.totals[name]} ({g.percentage(name):.1f}%)"),
                soft_wrap=True,
            )


def _save(path: str, text: str) -> None:
    """Save a game's text for the ``save`` command: only over a file, whole or not at
    all; a failure is a `LexikoError` naming the file as typed and the reason."""
    try:
        write_file(path, text.encode("utf-8"))
    except OSError as e:
        raise LexikoError(f"cannot write {path}: {e.strerror or e}") from None


def _rack_text_of(tiles: TileSet, rack: Sequence[int]) -> Text:
    t = Text()
    for code in rack:
        t.append(tiles.face(code), style="bold black on wheat1")
        t.append(str(tiles.value(code)), style="black on wheat1")
        t.append(" ")
    return t
