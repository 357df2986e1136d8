"""Pictures from the command line: ``lexiko render`` (SVG and PNG boards of a record),
``lexiko autoplay --plot`` and ``lexiko analyze --review --plot`` (matplotlib), with
their errors as one-line messages. Structure is compared, never pixels."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from shared_paths import DATA

from lexiko import gcg, plots
from lexiko.cli import main
from lexiko.move import Place

GAME = DATA / "gcg" / "corpus" / "greedy_vs_static.gcg"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_render_draws_the_board_after_a_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = gcg.read(GAME)
    moves = [e for e in record.events if e.kind in ("play", "exchange", "pass")]
    out = tmp_path / "board.svg"
    assert main(["render", str(GAME), "--turn", "5", "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}\n"
    svg = out.read_text()
    game = gcg.load(GAME)
    # after the 5th move: the tiles its first five plays put down (this game has no phony)
    assert not any(ev.kind == "withdrawn" for ev in game.history)
    first_five = [ev for ev in game.history if ev.kind in ("play", "exchange", "pass")][:5]
    placed = [sq for ev in first_five if isinstance(ev.move, Place) for sq in ev.move.new_tiles()]
    assert len(re.findall(r'class="tile[ "]', svg)) == len(placed)
    fifth = first_five[-1]
    lit = len(list(fifth.move.new_tiles())) if isinstance(fifth.move, Place) else 0
    assert svg.count('class="tile lastmove"') + svg.count('class="tile blank lastmove"') == lit
    assert main(["render", str(GAME), "-o", str(out), "--no-coordinates"]) == 0  # the end of the record
    final = out.read_text()
    assert len(re.findall(r'class="tile[ "]', final)) == sum(1 for c in game.board.cells if c)
    assert not re.search(r">15<", final)  # no row numbers
    assert len(moves) > 5


@pytest.mark.slow
def test_render_to_png_at_a_size(tmp_path: Path) -> None:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):  # OSError: CairoSVG without the Cairo library
        pytest.skip(
            "PNG pictures need CairoSVG and the Cairo library (pip install 'lexiko[png]'; apt-get install libcairo2)"
        )
    out = tmp_path / "board.png"
    assert main(["render", str(GAME), "--turn", "0", "-o", str(out), "--size", "450"]) == 0
    assert png_size(out) == (450, 450)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--turn", "500", "-o", "x.svg"], "error: the record has 22 moves: --turn must be 0 to 22"),
        (["-o", "x.txt"], "error: cannot write x.txt: the picture must be a .svg or .png file"),
        (["-o", "no/such/dir/x.svg"], "error: cannot write no/such/dir/x.svg: No such file or directory"),
    ],
)
def test_render_errors_are_one_line(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["render", str(GAME), *args]) == 2
    assert capsys.readouterr().out == message + "\n"


@pytest.mark.slow
def test_autoplay_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib", reason="plots need matplotlib (pip install 'lexiko[plot]')")
    out = tmp_path / "auto.png"
    assert main(["autoplay", "--games", "6", "--players", "greedy,random", "--plot", str(out)]) == 0
    assert capsys.readouterr().out.endswith(f"plot written to {out}\n")
    assert png_size(out) == (1000, 400)
    assert main(["autoplay", "--games", "6", "--plot", str(tmp_path / "auto.txt")]) == 2
    assert (
        capsys.readouterr().out == f"error: cannot write {tmp_path / 'auto.txt'}: a plot is a .png, .svg or .pdf file\n"
    )


def test_the_autoplay_figure_shows_the_numbers_it_is_given() -> None:
    pytest.importorskip("matplotlib", reason="plots need matplotlib (pip install 'lexiko[plot]')")
    fig = plots.autoplay_figure(
        ["a", "b"], [[400, 420, 380, 500], [390, 410, 430, 300]], [0.75, 0.25], [(0.3, 0.95), (0.05, 0.7)]
    )
    hist, bars = fig.axes
    assert sum(p.get_height() for p in hist.patches) == 8  # every game of both players counted once
    assert [round(p.get_height(), 2) for p in bars.patches] == [0.75, 0.25]
    assert [t.get_text() for t in hist.get_legend().get_texts()] == ["a (mean 425.0)", "b (mean 382.5)"]


def test_review_plot_and_its_spread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib", reason="plots need matplotlib (pip install 'lexiko[plot]')")
    game = gcg.load(GAME)
    spreads = plots.review_series(game.history)
    assert len(spreads) == 22 and spreads[-1] == game.scores[0] - game.scores[1]
    out = tmp_path / "review.svg"
    assert main(["analyze", str(GAME), "--review", "--static", "--plot", str(out)]) == 0
    assert capsys.readouterr().out.endswith(f"plot written to {out}\n")
    assert out.read_text().startswith("<?xml")
    assert main(["analyze", str(GAME), "--plot", str(out)]) == 2
    assert capsys.readouterr().out == "error: --plot draws a game's review: add --review\n"
