"""Inference of the opponent's kept tiles: the tiles a static opponent really kept always
explain its play, tiles that would have made it play otherwise do not, and the
simulation deals the inferred tiles the same way in the kernel and in Python."""

from __future__ import annotations

from collections import Counter

import pytest
from shared_paths import DATA

from lexiko.bots import StaticBot, playout, simulation
from lexiko.bots.inference import explains, infer
from lexiko.cli import main
from lexiko.game import Game
from lexiko.leaves import LeaveTable
from lexiko.lexicon import Lexicon
from lexiko.tiles import ENGLISH


@pytest.fixture(scope="module")
def twl06() -> Lexicon:
    return Lexicon.load("TWL06")


def test_what_a_static_opponent_kept_explains_its_play(twl06: Lexicon) -> None:
    table = LeaveTable.default()
    g = Game(["a", "b"], seed=3, lexicon=twl06, first_player=0)
    checked = ruled_out = 0
    while g.bag_count > 20:
        g.apply(StaticBot(twl06, table).choose(g))
        last = g.history[-1]
        if last.kind != "play":
            continue
        kept = list((Counter(last.rack) - Counter(last.move.rack_tiles())).elements())  # type: ignore[union-attr]
        if not kept:
            continue
        assert explains(g, twl06, kept, leaves=table, tolerance=0.0) is True
        checked += 1
        inf = infer(g, twl06, leaves=table, tolerance=0.0, samples=300, seed=checked)
        assert inf is not None and all(explains(g, twl06, k, leaves=table, tolerance=0.0) for k in set(inf.leaves))
        ruled_out += inf.tried > len(set(inf.leaves))
    assert checked >= 8 and ruled_out >= checked // 2  # most plays rule some kept tiles out


def test_nothing_is_inferred_without_a_play_by_the_opponent(twl06: Lexicon) -> None:
    g = Game(["a", "b"], seed=3, lexicon=twl06, first_player=0)
    assert infer(g, twl06) is None  # no move yet
    g.apply(StaticBot(twl06).choose(g))
    assert infer(Game(["a", "b", "c"], seed=3, lexicon=twl06), twl06) is None  # three players
    g.pass_turn()
    assert infer(g, twl06) is None and explains(g, twl06, ENGLISH.parse("E")) is None  # the last move a pass


def test_inferred_tiles_are_dealt_alike_in_the_kernel_and_in_python(
    twl06: Lexicon, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = LeaveTable.default()
    g = Game(["a", "b"], seed=21, lexicon=twl06, first_player=0)

    def kept_some() -> bool:  # the last move a play that kept tiles (a bingo keeps none)
        last = g.history[-1] if g.history else None
        return last is not None and last.kind == "play" and last.move.tile_count < 7  # type: ignore[union-attr]

    while g.bag_count > 70 or not kept_some():
        g.apply(StaticBot(twl06, table).choose(g))
    inf = infer(g, twl06, samples=200)
    assert inf is not None
    pos = g.position()
    calls: list[int] = []
    in_kernel = playout.simulate_iterations

    def counted(*a: object, **k: object) -> object:
        calls.append(1)
        return in_kernel(*a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(simulation, "simulate_iterations", counted)

    def run(known: object) -> list[tuple[str, float, float]]:
        res = simulation.simulate(pos, twl06, candidates=5, iterations=24, plies=2, seed=9, known=known)  # type: ignore[arg-type]
        return [(r.candidate.notation(), r.mean, r.win_rate) for r in res]

    kernel, plain = run(inf.leaves), run(None)
    assert calls and kernel != plain
    calls.clear()
    monkeypatch.setattr(simulation, "unsupported", lambda *a: "the Python play-outs, for the test")
    assert run(inf.leaves) == kernel and run(None) == plain and not calls


def test_the_command_simulates_with_inferred_racks(capsys: pytest.CaptureFixture[str]) -> None:
    record = str(DATA / "gcg" / "corpus" / "static_vs_greedy.gcg")
    common = ["analyze", record, "--turn", "7", "--sim", "--iterations", "8", "--top", "2", "--seed", "1", "--no-board"]

    def rows(extra: list[str]) -> list[list[str]]:
        assert main(common + extra) == 0
        out = capsys.readouterr().out
        return [ln.split() for ln in out.splitlines() if ln.strip()[:1].isdigit()]

    inferred, plain = rows(["--infer"]), rows([])
    assert len(inferred) == len(plain) == 2 and all(r[-1] == "8" for r in inferred)
    assert inferred != plain  # other racks dealt to the opponent, other values
    assert main(["analyze", record, "--turn", "7", "--infer"]) != 0
    assert "error: --infer deals the simulation's racks: give --sim too" in capsys.readouterr().out
