"""The terminal game, driven by scripted input and a recording console."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from rich.console import Console

from lexiko import gcg
from lexiko.bots import GreedyBot
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.terminal import TerminalGame


def _script(lines: list[str]) -> tuple[Iterator[str], list[str]]:
    prompts: list[str] = []
    it = iter(lines)

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return ask, prompts  # type: ignore[return-value]


def _play(game: Game, lexicon: Lexicon, lines: list[str]) -> tuple[str, list[str]]:
    console = Console(record=True, width=100, color_system=None)
    ask, prompts = _script(lines)
    bots = {i: GreedyBot(lexicon) for i, n in enumerate(game.players) if n.startswith("computer")}
    TerminalGame(game, bots, lexicon, console=console, ask=ask).run()  # type: ignore[arg-type]
    return console.export_text(), prompts


def test_bad_input_is_a_message_and_changes_nothing(twl06: Lexicon) -> None:
    game = Game(["You", "computer"], seed=1, lexicon=twl06, first_player=0)
    rack = game.rack(0)
    out, prompts = _play(game, twl06, ["8A ZZZZ", "H8 QQ", "exchange QQ", "frobnicate", "save", "quit"])
    assert "the first play must cover the centre square H8" in out
    assert "tiles QQ are not on your rack (ADDFORY)" in out
    assert "'frobnicate' is not a move: write a play like 8D WORD, an exchange like -ABC, or -" in out
    assert "save needs a file name: save game.gcg" in out
    assert "Traceback" not in out
    assert game.rack(0) == rack and not game.history and len(prompts) == 6


def test_play_exchange_hint_undo_and_save(twl06: Lexicon, tmp_path: Path) -> None:
    game = Game(["You", "computer"], seed=1, lexicon=twl06, first_player=0)
    saved = tmp_path / "g.gcg"
    out, _ = _play(game, twl06, ["hint", "8D FADDY", "exchange QU", f"save {saved}", "quit"])
    assert re.search(r"^ 8D FADDY +34 +OR +[-+]\d+\.\d +\d+\.\d *$", out, re.MULTILINE)
    assert "You: 8D FADDY +34 (34)   words: FADDY" in out
    assert "tiles QU are not on your rack" in out
    first_reply = game.history[1]
    assert game.players[first_reply.player] == "computer" and first_reply.kind == "play"
    again = gcg.load(saved)
    assert again.scores == game.scores and again.board == game.board


def test_undo_takes_back_the_computers_reply_too(twl06: Lexicon) -> None:
    game = Game(["You", "computer"], seed=1, lexicon=twl06, first_player=0)
    _play(game, twl06, ["8D FADDY", "undo", "quit"])
    assert game.history == [] and game.scores == [0, 0]


def test_a_phony_is_challenged_off_by_the_computer(twl06: Lexicon) -> None:
    game = Game(["You", "computer"], seed=1, lexicon=twl06, first_player=0)
    out, _ = _play(game, twl06, ["8D FORAY", "quit"])  # a word: the computer plays on
    assert [e.kind for e in game.history] == ["play", "play"]
    game = Game(["You", "computer"], seed=1, lexicon=twl06, first_player=0)
    out, _ = _play(game, twl06, ["8D FORDY", "quit"])
    assert "computer challenges!" in out
    assert game.history[1].kind == "withdrawn" and game.scores[0] == 0


def test_two_computers_play_a_whole_game(twl06: Lexicon) -> None:
    game = Game(["computer 1", "computer 2"], seed=5, lexicon=twl06)
    out, prompts = _play(game, twl06, [])
    assert game.is_over and prompts == []
    assert out.rstrip().splitlines()[-1].startswith("Game over (")


def test_save_then_load_goes_on_with_the_same_game(twl06: Lexicon, tmp_path: Path) -> None:
    saved = tmp_path / "g.gcg"
    game = Game(["You", "computer"], seed=1, lexicon=twl06, first_player=0)
    _play(game, twl06, ["8D FADDY", f"save {saved}", "quit"])
    fresh = Game(["You", "computer"], seed=2, lexicon=twl06, first_player=0)
    out, _ = _play(fresh, twl06, [f"load {tmp_path / 'none.gcg'}", "load", f"load {saved}", "quit"])
    assert f"cannot read {tmp_path / 'none.gcg'}: No such file or directory" in out
    assert "load needs a file name: load game.gcg" in out
    assert f"loaded {saved}: 2 turns played" in out
    assert "Traceback" not in out


def test_loading_a_game_of_other_players_count_is_refused(twl06: Lexicon, tmp_path: Path) -> None:
    saved = tmp_path / "three.gcg"
    three = Game(["A", "B", "C"], seed=1, lexicon=None, first_player=0)
    three.pass_turn()
    gcg.write(three, saved)
    game = Game(["You", "computer"], seed=1, lexicon=twl06, first_player=0)
    out, _ = _play(game, twl06, [f"load {saved}", "quit"])
    assert f"{saved} is a game of 3 players; this one has 2" in out
