"""The terminal game's answers to inputs that went wrong: each a message naming the
problem, the game left as it was."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from fifo_harness import named_pipe
from rich.console import Console

from lexiko.bots import GreedyBot
from lexiko.duplicate import DuplicateGame
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.rules import preset
from lexiko.terminal import DuplicateTerminal, TerminalGame


def _ask(lines: list[str]) -> Callable[[str], str]:
    it = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return ask


def _play(game: Game, lexicon: Lexicon, lines: list[str]) -> str:
    console = Console(record=True, width=100, color_system=None)
    bots = {i: GreedyBot(lexicon) for i, n in enumerate(game.players) if n.startswith("computer")}
    TerminalGame(game, bots, lexicon, console=console, ask=_ask(lines)).run()  # type: ignore[arg-type]
    return console.export_text()


def _duplicate(lexicon: Lexicon, lines: list[str]) -> tuple[DuplicateGame, str]:
    game = DuplicateGame(["You", "computer"], preset("duplicate", players=2), seed=1, lexicon=lexicon)
    console = Console(record=True, width=100, color_system=None)
    DuplicateTerminal(game, {"computer": GreedyBot(lexicon)}, console=console, ask=_ask(lines)).run()
    return game, console.export_text()


def _messages(out: str) -> list[str]:
    """The lines of the output that are not the board or the prompt's picture."""
    return [line.rstrip() for line in out.splitlines() if line.startswith(("cannot", "saved", "nothing", "'", "no "))]


def test_save_refuses_a_named_pipe_and_names_the_file(twl06: Lexicon, tmp_path: Path) -> None:
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=0)
    with named_pipe(tmp_path / "game.gcg") as fifo:
        out = _play(game, twl06, [f"save {fifo}", "quit"])
    assert _messages(out) == [f"cannot write {fifo}: it is a named pipe (FIFO), not a file"]
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and game.history == []


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_save_refuses_a_device(twl06: Lexicon, tmp_path: Path) -> None:
    dev = tmp_path / "full"
    os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 7))  # what /dev/full is
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=0)
    assert _messages(_play(game, twl06, [f"save {dev}", "quit"])) == [
        f"cannot write {dev}: it is a character device, not a file"
    ]
    assert stat.S_ISCHR(dev.lstat().st_mode)


def test_a_full_disk_names_the_file_as_typed(twl06: Lexicon, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    monkeypatch.chdir(tmp_path)
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=0)
    assert _messages(_play(game, twl06, ["save g.gcg", "quit"])) == ["cannot write g.gcg: No space left on device"]
    assert list(tmp_path.iterdir()) == []


def test_duplicate_save_refuses_a_named_pipe(twl06: Lexicon, tmp_path: Path) -> None:
    with named_pipe(tmp_path / "game.dup") as fifo:
        game, out = _duplicate(twl06, [f"save {fifo}", "quit"])
    assert _messages(out) == [f"cannot write {fifo}: it is a named pipe (FIFO), not a file"]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def _lines(out: str, *starts: str) -> list[str]:
    return [line.rstrip() for line in out.splitlines() if line.startswith(starts)]


def test_a_failed_challenge_names_the_words_and_says_they_are_valid(twl06: Lexicon) -> None:
    game = Game(["You", "Bob"], preset("tournament"), seed=6, lexicon=twl06, first_player=0)
    out = _play(game, twl06, ["8D HEDGY", "challenge", "quit"])
    assert _lines(out, "You:", "Bob") == [
        "You: 8D HEDGY +34 (34)   words: HEDGY",
        "Bob's challenge fails: HEDGY is valid",
        "Bob: loses the turn (failed challenge) +0 (0)",
    ]
    assert [e.kind for e in game.history] == ["play", "lost-turn"]


def test_a_failed_challenge_of_several_words_names_each(twl06: Lexicon) -> None:
    rules = preset("tournament").replace(challenge_rule="five-point")
    game = Game(["You", "Bob"], rules, seed=6, lexicon=twl06, first_player=0)
    game.apply("8D HEDGY", player=0)
    game.apply("pass", player=1)
    game.set_rack(0, "AXEEEEE")
    game.apply("9D AX", player=0)
    out = _play(game, twl06, ["challenge", "quit"])
    assert _lines(out, "Bob's", "You: challenge") == [
        "Bob's challenge fails: AX, HA, EX are valid",
        "You: challenge bonus +5 (62)",
    ]


def test_letters_outside_the_tile_set_are_named_as_such(twl06: Lexicon) -> None:
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=0)
    out = _play(game, twl06, ["H8 日本", "H8 ÇA", "quit"])
    assert _lines(out, "'") == [
        "'日' is not a letter of the english tile set",
        "'Ç' is not a letter of the english tile set",
    ]
    assert game.history == []
    _, out = _duplicate(twl06, ["H8 日本", "quit"])
    assert _lines(out, "'") == ["'日' is not a letter of the english tile set"]


def test_duplicate_has_no_hints_and_says_so_without_exchanges(twl06: Lexicon) -> None:
    game, out = _duplicate(twl06, ["hint", "-ADL", "frobnicate", "8D", "H8 QI extra", "quit"])
    assert _lines(out, "no hints", "'") == [
        "no hints in a duplicate game: each player finds their own move for the shared rack",
        "'-ADL' is not a move: write a play like 8D WORD, or pass (a duplicate game has no exchanges)",
        "'frobnicate' is not a move: write a play like 8D WORD, or pass (a duplicate game has no exchanges)",
        "'8D' is not a move: write a play like 8D WORD, or pass (a duplicate game has no exchanges)",
        "'H8 QI extra' is not a move: write a play like 8D WORD, or pass (a duplicate game has no exchanges)",
    ]
    assert game.rounds == [] and game.round_number == 1


def test_undo_with_nothing_of_yours_to_undo_changes_nothing(twl06: Lexicon) -> None:
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=1)
    out = _play(game, twl06, ["undo", "quit"])
    assert _lines(out, "computer:", "nothing") == [
        "computer: 8D HEXAD +40 (40)   words: HEXAD",
        "nothing to undo: there is no turn of yours yet",
    ]
    assert [e.kind for e in game.history] == ["play"]


def test_a_file_name_with_a_nul_is_refused_by_save_and_load(twl06: Lexicon) -> None:
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=0)
    out = _play(game, twl06, ["save a\x00b", "load a\x00b", "quit"])
    assert _lines(out, "cannot") == [
        "cannot write 'a\\x00b': a file name holds no NUL character",
        "cannot load a\x00b: cannot read 'a\\x00b': a file name holds no NUL character",
    ]
