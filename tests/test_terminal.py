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
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=0)
    rack = game.rack(0)
    out, prompts = _play(game, twl06, ["8A ZZZZ", "H8 QQ", "exchange QQ", "frobnicate", "save", "quit"])
    assert "the first play must cover the centre square H8" in out
    assert "tiles QQ are not on your rack (ADEGHXY)" in out
    assert "'frobnicate' is not a move: write a play like 8D WORD, an exchange like -ABC, or -" in out
    assert "save needs a file name: save game.gcg" in out
    assert "Traceback" not in out
    assert game.rack(0) == rack and not game.history and len(prompts) == 6


def test_play_exchange_hint_undo_and_save(twl06: Lexicon, tmp_path: Path) -> None:
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=0)
    saved = tmp_path / "g.gcg"
    out, _ = _play(game, twl06, ["hint", "8D HEDGY", "exchange QU", f"save {saved}", "quit"])
    assert re.search(r"^ 8D HEDGY +34 +AX +[-+]\d+\.\d +\d+\.\d *$", out, re.MULTILINE)
    assert "You: 8D HEDGY +34 (34)   words: HEDGY" in out
    assert "tiles QU are not on your rack" in out
    first_reply = game.history[1]
    assert game.players[first_reply.player] == "computer" and first_reply.kind == "play"
    again = gcg.load(saved)
    assert again.scores == game.scores and again.board == game.board


def test_undo_takes_back_the_computers_reply_too(twl06: Lexicon) -> None:
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=0)
    _play(game, twl06, ["8D HEDGY", "undo", "quit"])
    assert game.history == [] and game.scores == [0, 0]


def test_a_phony_is_challenged_off_by_the_computer(twl06: Lexicon) -> None:
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=0)
    out, _ = _play(game, twl06, ["8D HAYED", "quit"])  # a word: the computer plays on
    assert [e.kind for e in game.history] == ["play", "play"]
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=0)
    out, _ = _play(game, twl06, ["8D HADGY", "quit"])
    assert "computer challenges!" in out
    assert game.history[1].kind == "withdrawn" and game.scores[0] == 0


def test_two_computers_play_a_whole_game(twl06: Lexicon) -> None:
    game = Game(["computer 1", "computer 2"], seed=5, lexicon=twl06)
    out, prompts = _play(game, twl06, [])
    assert game.is_over and prompts == []
    assert out.rstrip().splitlines()[-1].startswith("Game over (")


def test_save_then_load_goes_on_with_the_same_game(twl06: Lexicon, tmp_path: Path) -> None:
    saved = tmp_path / "g.gcg"
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=0)
    _play(game, twl06, ["8D HEDGY", f"save {saved}", "quit"])
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


def test_words_typed_in_lower_case_are_letters(twl06: Lexicon) -> None:
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=0)
    out, _ = _play(game, twl06, ["8d hedgy", "quit"])
    assert "You: 8D HEDGY +34 (34)" in out  # letters, not five blanks scoring nothing
    assert game.history[0].score == 34


def test_a_lower_case_word_after_a_capital_position_is_letters(twl06: Lexicon) -> None:
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=0)
    out, _ = _play(game, twl06, ["8D hedgy", "quit"])
    assert "You: 8D HEDGY +34 (34)" in out  # the position's capital D marks no blanks
    game = Game(["You", "computer"], seed=6, lexicon=twl06, first_player=0)
    game.set_rack(0, "FADY?EE")
    out, _ = _play(game, twl06, ["8d FAdDY", "quit"])
    assert "You: 8D FAdDY +30 (30)" in out  # capitals with a lower-case letter: a blank


def test_the_help_fits_80_columns_and_says_how_to_type_a_blank(twl06: Lexicon) -> None:
    from lexiko.terminal import DUPLICATE_HELP, HELP

    for text in (HELP, DUPLICATE_HELP):
        assert max(len(line) for line in text.splitlines()) <= 80
        assert "8D WINdY      a blank: the word in capitals, the blank's letter in lower" in text
    game = Game(["You", "computer"], seed=1, lexicon=twl06, first_player=0)
    console = Console(record=True, width=80, color_system=None)
    ask, _ = _script(["help", "quit"])
    TerminalGame(game, {}, twl06, console=console, ask=ask).run()  # type: ignore[arg-type]
    out = console.export_text()
    assert all(line in out.splitlines() for line in HELP.splitlines())  # no line wrapped


def test_names_are_text_never_markup(twl06: Lexicon) -> None:
    for name in ("[/x]", "[bold]Ann", "ann"):
        game = Game([name, "computer"], seed=1, lexicon=twl06, first_player=0)
        out, prompts = _play(game, twl06, ["pass", "quit"])
        assert prompts[0] == f"[{name}]> "
        assert f"{name}: pass" in out and "Traceback" not in out


def test_a_challenge_names_the_words_that_are_not_words(twl06: Lexicon) -> None:
    from lexiko.rules import TOURNAMENT

    game = Game(["You", "computer"], TOURNAMENT, seed=6, lexicon=twl06, first_player=0)
    out, _ = _play(game, twl06, ["8D HADGY", "quit"])
    assert "You: play withdrawn -34 (0): HADGY is not a word" in out


def test_the_whole_game_fits_an_80_by_24_terminal() -> None:
    import io

    from lexiko.terminal import render_game

    game = Game(["Ann", "Bob", "Cy", "computer (static)"], seed=1, lexicon=None, first_player=0)
    game.set_rack(0, "AEINRST")
    console = Console(record=True, width=80, height=24, color_system=None, file=io.StringIO())
    console.print(render_game(game, 0, width=80))
    lines = console.export_text().rstrip("\n").splitlines()
    assert len(lines) <= 24 - 3  # room for the last move's line and the prompt
    assert max(len(line) for line in lines) <= 80
    assert lines[0].split()[:15] == list("ABCDEFGHIJKLMNO")
    assert [line[:2].strip() for line in lines[1:16]] == [str(r) for r in range(1, 16)]
    text = "\n".join(lines)
    assert "rack of Ann:" in text and "A1 E1 I1 N1 R1 S1 T1" in text
    assert all(name in text for name in ("Ann", "Bob", "Cy", "computer (sta"))


def test_a_lower_case_name_keeps_its_prompt_on_a_real_console(twl06: Lexicon, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("builtins.input", lambda *a: "quit")
    console = Console(record=True, width=100, color_system=None)
    game = Game(["ann", "computer"], seed=1, lexicon=twl06, first_player=0)
    TerminalGame(game, {1: GreedyBot(twl06)}, twl06, console=console).run()  # type: ignore[dict-item]
    assert "[ann]> " in console.export_text()


def test_a_file_that_is_not_a_game_and_an_empty_exchange_are_one_short_line(twl06: Lexicon, tmp_path: Path) -> None:
    junk = tmp_path / "junk.gcg"
    junk.write_bytes(b"\x7fELF\x02\x01\x01" + b"\x00" * 20 + bytes(range(0x20, 0x7F)) * 2)
    game = Game(["You", "computer"], seed=1, lexicon=twl06, first_player=0)
    out, _ = _play(game, twl06, [f"load {junk}", "exchange", "quit"])
    lines = [line for line in out.splitlines() if line.startswith(f"cannot load {junk}: line 1: ")]
    assert len(lines) == 1 and lines[0].endswith("...") and len(lines[0]) <= len(f"cannot load {junk}: ") + 120
    assert "exchange needs the tiles to give back: exchange ABC (? for a blank)" in out
    assert not game.history
