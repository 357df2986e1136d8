"""Self-play and leave tables: the same seed gives the same games (whatever the number
of jobs or the chunking), the statistics' arithmetic, leave tables' files, training, and
the ``autoplay`` and ``train-leaves`` commands."""

from __future__ import annotations

import argparse
import io
import math
import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from lexiko import gcg, leaves, training
from lexiko.bots import make_player
from lexiko.cli import autoplay as autoplay_command
from lexiko.cli import train_leaves
from lexiko.errors import LexikoError
from lexiko.leaves import LeaveTable
from lexiko.lexicon import Lexicon
from lexiko.rules import TOURNAMENT
from lexiko.selfplay import GameSummary, Stats, autoplay, game_seed, play_game, wilson_interval
from lexiko.tiles import ENGLISH
from lexiko.training import train

E = ENGLISH


# -- games -------------------------------------------------------------------------------


def test_same_seed_same_game(twl06: Lexicon) -> None:
    def record(seed: int) -> str:
        players = [make_player("random", twl06, seed=seed, name="r"), make_player("static", twl06, name="s")]
        return gcg.dumps(play_game(players, TOURNAMENT, seed=seed, first_player=1))

    a, b, c = record(4), record(4), record(5)
    assert a == b != c
    # the record replays through the rules engine with every score exact
    g = gcg.parse(a).replay(lexicon=twl06)
    assert g.is_over


def test_autoplay_independent_of_jobs_and_chunks(twl06: Lexicon, tmp_path: Path) -> None:
    one = autoplay(["greedy", "static"], 6, seed=3, lexicon=twl06, gcg_dir=tmp_path / "a", chunk_size=4)
    pool = autoplay(["greedy", "static"], 6, jobs=2, seed=3, lexicon="TWL06", gcg_dir=tmp_path / "b")
    with ThreadPoolExecutor(2) as ex:
        threads = autoplay(["greedy", "static"], 6, seed=3, executor=ex, lexicon=twl06, chunk_size=1)
    for s in (pool, threads):
        assert (s.games, s.wins, s.ties, s.score_total, s.bingos, s.turns) == (
            one.games,
            one.wins,
            one.ties,
            one.score_total,
            one.bingos,
            one.turns,
        )
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert files == [f"game-{i:06d}.gcg" for i in range(1, 7)]
    for name in files:
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
    # seats alternate who starts
    firsts = [gcg.read(tmp_path / "a" / n).events[0].nick for n in files]
    assert firsts == ["greedy", "static"] * 3


def test_static_self_play_in_the_kernel_plays_the_games_of_game(twl06: Lexicon, tmp_path: Path) -> None:
    """Static players only: autoplay plays each chunk in one kernel call; with records
    written every turn goes through Game. The same games either way."""
    for kinds in (["static", "static"], ["static", "static", "static"]):
        fast = autoplay(kinds, 8, seed=7, lexicon=twl06, chunk_size=3)
        slow = autoplay(kinds, 8, seed=7, lexicon=twl06, gcg_dir=tmp_path / str(len(kinds)))
        assert (fast.scores, fast.wins, fast.ties, fast.bingos, fast.turns) == (
            slow.scores,
            slow.wins,
            slow.ties,
            slow.bingos,
            slow.turns,
        )


def test_autoplay_progress_and_names(twl06: Lexicon) -> None:
    seen: list[tuple[str, int, int]] = []
    s = autoplay(["greedy", "greedy"], 3, seed=1, lexicon=twl06, progress=lambda *a: seen.append(a), chunk_size=2)
    assert s.players == ["greedy 1", "greedy 2"]
    assert seen == [("games", 0, 3), ("games", 2, 3), ("games", 3, 3)]
    assert s.seconds > 0 and s.cpu_seconds > 0 and s.games_per_second > 0


def test_game_seed() -> None:
    assert game_seed(1, 2) == game_seed(1, 2)
    assert len({game_seed(s, i) for s in range(5) for i in range(5)}) == 25
    assert 0 <= game_seed(0, 0) < 2**63


# -- statistics ----------------------------------------------------------------------------


def test_wilson_interval_exact() -> None:
    lo, hi = wilson_interval(60, 100)
    # (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), z = 1.959964
    assert lo == pytest.approx(0.5020025867910618, abs=1e-12)
    assert hi == pytest.approx(0.6905987135675411, abs=1e-12)
    z = 1.959963984540054
    assert wilson_interval(0, 10) == pytest.approx((0.0, z * z / (10 + z * z)))
    assert wilson_interval(10, 10) == pytest.approx((10 / (10 + z * z), 1.0))
    assert wilson_interval(0, 0) == (0.0, 1.0)
    # with half wins for ties
    assert wilson_interval(50.5, 100)[0] < 0.505 < wilson_interval(50.5, 100)[1]


def test_stats_arithmetic() -> None:
    s = Stats(["a", "b"])
    s.add(GameSummary(0, (420, 380), (0,), (2, 0), 24, "out"))
    s.add(GameSummary(1, (350, 410), (1,), (1, 1), 26, "out"))
    s.add(GameSummary(2, (400, 400), (0, 1), (0, 3), 25, "scoreless"))
    s.add(GameSummary(3, (500, 300), (0,), (1, 0), 21, "out"))
    assert s.games == 4 and s.ties == 1 and s.wins == [2, 1] and s.turns == 96
    assert s.win_rate(0) == 2.5 / 4 and s.win_rate(1) == 1.5 / 4
    assert s.win_interval(0) == wilson_interval(2.5, 4)
    assert s.mean_score(0) == (420 + 350 + 400 + 500) / 4
    assert s.bingos_per_game(1) == 1.0
    s.seconds, s.cpu_seconds = 2.0, 4.0
    assert (s.games_per_second, s.games_per_cpu_second) == (2.0, 1.0)
    text = s.summary()
    assert "win rate  62.5%" in text and "4 games, 1 tied" in text
    assert math.isclose(sum(s.win_rate(i) for i in range(2)), 1.0)


def test_game_summary_counts_bingos(twl06: Lexicon) -> None:
    g = play_game([make_player("static", twl06, name="a"), make_player("static", twl06, name="b")], seed=11)
    sm = GameSummary.of(7, g)
    bingos = [0, 0]
    for e in g.history:
        if e.kind == "play" and e.move is not None and getattr(e.move, "tile_count", 0) == 7:
            bingos[e.player] += 1
    assert sm.index == 7 and list(sm.bingos) == bingos and list(sm.scores) == g.scores
    assert list(sm.winners) == g.winners()


# -- leave tables ----------------------------------------------------------------------------


def _table() -> LeaveTable:
    return LeaveTable(
        E,
        {(): 0.0, (19,): 8.25, (0,): 25.5, (5, 18, 19): 12.0, (17,): -7.0, (1, 0, 0): 33.0},
        tile_values={0: [24.0, 10.0], 19: [8.0, 1.5], 5: [1.0, -3.0, -6.0, -8.0]},
        balance={(1, 0): 0.5, (3, 0): -4.0},
        offset=-0.75,
        meta={"games": "12"},
    )


@pytest.mark.parametrize("name", ["t.tsv", "t.tsv.gz"])
def test_leave_table_round_trip(tmp_path: Path, name: str) -> None:
    t = _table()
    t.save(tmp_path / name)
    u = LeaveTable.load(tmp_path / name)
    assert dict(u.items()) == dict(t.items())
    assert (u.tile_values, u.balance, u.offset, u.meta["games"], u.tiles) == (
        t.tile_values,
        t.balance,
        t.offset,
        "12",
        E,
    )
    for leave in ["", "S", "?", "ERS", "EEEEE", "A??", "QU", "EES?"]:
        assert u.value(leave) == t.value(leave)
    assert LeaveTable.from_bytes(t.to_bytes()).dumps() == t.dumps()


def test_leave_table_lookup_and_fallback() -> None:
    t = _table()
    assert t((19,)) == t.lookup((19,)) == t.value("S") == 8.25
    assert t.value("?A?") == 33.0  # any order in value(); rack order in lookups
    # fallback: offset + copies (the last entry repeats) + balance
    assert t.value("EEEEE") == -0.75 + 1 - 3 - 6 - 8 - 8
    assert t.value("E") == -0.75 + 1 + 0.5
    assert t.value("SS") == -0.75 + 8 + 1.5
    assert t.value("E??") == -0.75 + 1 + 24 + 10 + 0.5
    assert t.value("Z") == -0.75
    assert len(t) == 6 and (19,) in t and (20,) not in t


def test_leave_table_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("hello\n")
    with pytest.raises(LexikoError, match="line 1: not a lexiko leave table"):
        LeaveTable.load(bad)
    bad.write_text("# lexiko leave table 1\n#@tiles\tenglish\n=offset\t1\nAB\t1.0\nA1\t2\n")
    with pytest.raises(LexikoError, match="line 5: 'A1' is not a leave"):
        LeaveTable.load(bad)
    bad.write_text("# lexiko leave table 1\n#@tiles\tgerman\nAB\t1.0\n")
    with pytest.raises(LexikoError, match="for german tiles, not english"):
        LeaveTable.load(bad, E)
    with pytest.raises(LexikoError, match="cannot read leave table"):
        LeaveTable.load(tmp_path / "missing.tsv")


def test_a_damaged_compressed_leave_table_is_refused_by_name(tmp_path: Path) -> None:
    # found by fuzzing: a gzip stream whose deflate data is broken raised zlib.error
    damaged = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"\xff" * 8
    bad = tmp_path / "bad.tsv.gz"
    bad.write_bytes(damaged)
    with pytest.raises(LexikoError) as info:
        LeaveTable.load(bad)
    assert str(info.value) == f"{bad}: not a leave table (Error -3 while decompressing data: invalid block type)"
    with pytest.raises(LexikoError) as info:
        LeaveTable.from_bytes(damaged)
    assert str(info.value) == "<bytes>: not a leave table (Error -3 while decompressing data: invalid block type)"
    with pytest.raises(LexikoError) as info:
        LeaveTable.from_bytes(b"\x1f\x8b")
    assert str(info.value) == (
        "<bytes>: not a leave table (Compressed file ended before the end-of-stream marker was reached)"
    )


def test_default_table_is_sensible() -> None:
    t = LeaveTable.default()
    assert t.meta["tiles"] == "english" and int(t.meta["games"]) >= 10_000
    v = t.value
    assert v("") == 0.0
    assert v("?") > v("S") > v("E") > v("Q")
    assert v("??") > v("?")
    assert v("ERS") > v("UUV")
    assert v("EE") < 2 * v("E") and v("II") < v("I")
    assert v("QU") > v("Q") + v("U") - 5  # Q needs its U
    assert v("IIUUVV") < v("IUV") < v("AEINST") < 40


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.lists(st.integers(0, 26), min_size=7, max_size=7), st.integers(-20, 90), st.integers(1, 5)),
        min_size=1,
        max_size=12,
    )
)
def test_the_kernel_values_leaves_from_racks_as_the_reference_does(rows: list[tuple[list[int], int, int]]) -> None:
    """lexiko.training.rack_leaves (Python) and the kernel's rack_leaves give every
    leave of every rack the same weighted equity, weight and moves."""
    from lexiko import kernel

    if not kernel.available():
        pytest.skip("the compiled kernel is not built")
    compiled = kernel.rack_leaves
    from array import array

    racks: dict[bytes, list[float]] = {}
    for tiles, equity, n in rows:
        s = racks.setdefault(bytes(sorted(tiles)), [0.0, 0.0])
        s[0] += equity * n
        s[1] += n
    counts = [ENGLISH.count(c) if c <= ENGLISH.size else 0 for c in range(64)]
    ref = training.rack_leaves(racks, counts, 7)
    keys, weighted, weights, seen = compiled(
        b"".join(racks),
        array("d", (v[0] for v in racks.values())),
        array("d", (v[1] for v in racks.values())),
        bytes(counts),
        7,
    )
    got = {}
    for key, a, b, n in zip(array("Q", keys), array("d", weighted), array("d", weights), array("d", seen), strict=True):
        codes = []
        while key > 1:
            codes.append(key & 63)
            key >>= 6
        got[tuple(reversed(codes))] = (a, b, n)
    assert got.keys() == ref.keys()
    for leave, (a, b, n) in ref.items():
        assert got[leave][1:] == (b, n) and math.isclose(got[leave][0], a, rel_tol=1e-12, abs_tol=1e-9)


def test_a_leave_is_worth_its_racks_mean_equity_less_a_random_racks() -> None:
    """Two racks seen: AAAAAAB at 10 points a move, AAAAAAC at 30. Keeping six As, B
    and C are drawn alike (2 and 2 copies left), so AAAAAA is worth their mean, 20,
    less a random rack's (each rack as likely: 84 * 2 ways of drawing it), also 20."""
    r = training._Racks({})
    r.add((1, 1, 1, 1, 1, 1, 2), 10.0)
    r.add((1, 1, 1, 1, 1, 1, 3), 30.0)
    r.add((1, 1, 1, 1, 1, 1, 3), 30.0)
    values, base = training._leave_values(r, ENGLISH, 7)
    assert base == 20.0 and r.moves == 3
    assert values[(1, 1, 1, 1, 1, 1)] == (0.0, 3.0)
    assert values[(1, 1, 1, 1, 1, 2)] == (-10.0, 1.0) and values[(1, 3)] == (10.0, 2.0)


@pytest.mark.slow
def test_the_shipped_table_reads_its_leaves_only_when_needed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, twl06: Lexicon
) -> None:
    """The shipped table reads its model at once, its 370,000 leaves on the first look-up
    from Python, and its packed form from the cache folder when a process built it
    before: the same values and the same packed bytes as a table read whole."""
    import mmap
    import pickle
    from importlib import resources

    monkeypatch.setenv("LEXIKO_CACHE_DIR", str(tmp_path))
    data = (resources.files("lexiko") / "data" / leaves.DATA_FILE).read_bytes()
    whole = LeaveTable.from_bytes(data)
    if whole.packed() is None:
        pytest.skip("lexiko._kernel is not built")
    first = leaves._Shipped(data, ENGLISH, "shipped", "k1")
    assert "_values" not in vars(first) and first.offset == whole.offset and first.tile_values == whole.tile_values
    built = first.packed()  # nothing cached yet: built from the leaves, and kept
    assert "_values" in vars(first) and isinstance(built, bytes) and built == whole.packed()
    assert (tmp_path / "leaves-k1.bin").read_bytes() == built
    second = leaves._Shipped(data, ENGLISH, "shipped", "k1")
    mapped = second.packed()
    assert isinstance(mapped, mmap.mmap) and bytes(mapped) == built and "_values" not in vars(second)
    # the static player's moves and the simulation's leave function go through the packed
    # form: a game against the computer does not wait for the leaves to be parsed
    from lexiko.bots import StaticBot
    from lexiko.bots.static import _fast
    from lexiko.game import Game

    game = Game(["a", "b"], seed=3, lexicon=None)
    for _ in range(3):
        game.apply(StaticBot(twl06, second).choose(game))
    assert _fast(second) is second and "_values" not in vars(second)
    assert second.value("ERS") == whole.value("ERS") and second.lookup((5, 18, 19)) == whole.lookup((5, 18, 19))
    assert dict(second.items()) == dict(whole.items()) and len(second) == len(whole) > 100_000
    with pytest.raises(AttributeError):
        second.no_such_thing  # noqa: B018
    for damaged in (b"not a leave map", built[: len(built) // 2]):  # a damaged cache file is built again
        (tmp_path / "leaves-k1.bin").write_bytes(damaged)
        assert leaves._Shipped(data, ENGLISH, "shipped", "k1").packed() == built
    shipped = LeaveTable.default()
    assert pickle.loads(pickle.dumps(shipped)) is shipped  # another process gets its own shipped table


def test_training_is_deterministic(twl06: Lexicon) -> None:
    a = train(4, rounds=1, lexicon=twl06, seed=3, chunk_size=2)
    b = train(4, rounds=1, lexicon="TWL06", seed=3, jobs=1)
    assert dict(a.items()) == dict(b.items()) and a.tile_values == b.tile_values and a.offset == b.offset
    assert len(a) > 1 and a.value("") == 0.0
    assert any(v != 0.0 for _, v in a.items())  # values moved from zero
    c = train(4, rounds=1, lexicon=twl06, seed=4)
    assert dict(c.items()) != dict(a.items())
    # a second round starts from the first round's table
    seen: list[str] = []
    train(2, rounds=2, lexicon=twl06, seed=3, initial=a, progress=lambda p, d, n: seen.append(p))
    assert seen[0] == "round 1/2" and "fitting" in seen and "round 2/2" in seen


# -- the commands ------------------------------------------------------------------------------


def _run(argv: list[str]) -> tuple[int, str]:
    parser = argparse.ArgumentParser(prog="lexiko")
    sub = parser.add_subparsers(dest="command")
    autoplay_command.add_parser(sub)
    train_leaves.add_parser(sub)
    args = parser.parse_args(argv)
    out = io.StringIO()
    status: int = args.func(args, Console(file=out, width=120))
    return status, out.getvalue()


def test_autoplay_command(tmp_path: Path) -> None:
    status, out = _run(["autoplay", "--games", "4", "--players", "static,greedy", "--gcg-dir", str(tmp_path)])
    assert status == 0
    assert "win rate (95% CI)" in out and "static" in out and "games/s" in out
    assert len(list(tmp_path.glob("*.gcg"))) == 4
    for argv, message in [
        (["autoplay", "--players", "static"], "at least two"),
        (["autoplay", "--players", "static,wizard"], "unknown kind of player 'wizard'"),
        (["autoplay", "--players", "static:nope.tsv,greedy"], "no such leave table"),
        (["autoplay", "--rules", "chess"], "unknown rules preset"),
        (["autoplay", "--lexicon", "NOPE"], "unknown lexicon"),
    ]:
        with pytest.raises(LexikoError, match=message):
            _run(argv)


def test_autoplay_into_a_log_says_how_far_it_is(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not on a terminal (a log, nohup), rich draws no bar: a plain line on standard
    error says how many games are done (every minute; here at every update)."""
    import lexiko.cli.progress

    monkeypatch.setattr(lexiko.cli.progress, "LOG_EVERY", 0.0)
    status, out = _run(["autoplay", "--games", "4", "--players", "static,greedy", "--jobs", "1"])
    assert status == 0 and "win rate (95% CI)" in out
    lines = capsys.readouterr().err.splitlines()
    assert lines and re.fullmatch(r"games: 4/4 \(100%\), \d+:\d\d elapsed", lines[-1]), lines


def test_autoplay_reads_a_leave_table_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--players static:FILE,static:FILE`` reads FILE once per process, not once per
    player and game (a full table takes seconds to read); a changed file is read again."""
    path = tmp_path / "t.tsv"
    LeaveTable(E, {(19,): 9.0}).save(path)
    calls: list[str] = []
    real_load = LeaveTable.load

    def counting_load(p: str, tiles: object = None) -> LeaveTable:
        calls.append(str(p))
        return real_load(p, tiles)  # type: ignore[arg-type]

    monkeypatch.setattr(LeaveTable, "load", staticmethod(counting_load))
    status, out = _run(["autoplay", "--games", "3", "--players", f"static:{path},static:{path}"])
    assert status == 0 and "static:t 1" in out
    assert len(calls) == 1
    path.write_text(LeaveTable(E, {(19,): 5.0}).dumps())
    os.utime(path, ns=(1, 1))  # a different modification time whatever the clock's resolution
    assert make_player(f"static:{path}", Lexicon.from_words(["QI"])).table.value("S") == 5.0
    assert len(calls) == 2


def test_train_leaves_command(tmp_path: Path) -> None:
    out_file = tmp_path / "t.tsv.gz"
    status, out = _run(["train-leaves", "--games", "3", "--rounds", "1", "--out", str(out_file)])
    assert status == 0 and "saved" in out
    assert LeaveTable.load(out_file).meta["games"] == "3"
    with pytest.raises(LexikoError, match="no such folder"):
        _run(["train-leaves", "--games", "3", "--out", str(tmp_path / "no" / "t.tsv")])


# -- output paths are checked before the long work ---------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["train-leaves", "--games", "5", "--out", "{tmp}"],
            "error: --out {tmp} is a folder: give a file name, such as {tmp}/leaves.tsv.gz",
        ),
        (
            ["train-leaves", "--games", "5", "--out", "{tmp}/no/t.tsv"],
            "error: --out {tmp}/no/t.tsv: no such folder {tmp}/no",
        ),
        (
            ["train-leaves", "--games", "5", "--out", "/proc/lexiko.tsv"],
            "error: --out /proc/lexiko.tsv: cannot write in /proc (",
        ),
        (
            ["autoplay", "--games", "2", "--gcg-dir", "{tmp}/f.txt"],
            "error: --gcg-dir {tmp}/f.txt is a file, not a folder",
        ),
        (
            ["autoplay", "--games", "2", "--gcg-dir", "{tmp}/old"],
            "error: --gcg-dir {tmp}/old already holds 1 such files (game-000001.gcg ...): give an empty or new folder",
        ),
    ],
)
def test_output_paths_are_checked_first(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from lexiko import training
    from lexiko.cli import main

    (tmp_path / "f.txt").write_text("x")
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "game-000001.gcg").write_text("")
    monkeypatch.setattr(training, "train", lambda *a, **k: pytest.fail("trained before checking --out"))
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith(message.replace("{tmp}", str(tmp_path)))


@pytest.mark.slow
def test_a_full_disk_at_the_end_does_not_lose_the_training(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from rich.console import Console

    from lexiko import leaves

    real_save = leaves.LeaveTable.save
    target = tmp_path / "t.tsv"

    def save(self: leaves.LeaveTable, path: object) -> None:
        if Path(str(path)) == target:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_save(self, path)  # type: ignore[arg-type]

    monkeypatch.setattr(leaves.LeaveTable, "save", save)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "rescue"))
    (tmp_path / "rescue").mkdir()
    table = leaves.LeaveTable.default(ENGLISH)
    console = Console(record=True, width=200)
    where = train_leaves._save_or_rescue(table, target, console)
    assert where.parent == tmp_path / "rescue" and where.exists() and not target.exists()
    assert f"cannot write {target} (No space left on device); the table is saved in {where}" in console.export_text()
    assert len(leaves.LeaveTable.load(where, ENGLISH)) == len(table)


def test_jobs_beyond_the_cores_are_cut_unless_forced() -> None:
    import os

    from lexiko.cli.argtypes import bounded_jobs

    cores = os.cpu_count() or 1
    assert bounded_jobs(1000) == (
        cores,
        f"--jobs 1000 is more than the {cores} cores here: using {cores} (--force-jobs to insist)",
    )
    assert bounded_jobs(1000, force=True) == (1000, None)


def test_the_note_on_jobs_cut_to_the_cores_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    import os

    from lexiko.cli import main

    cores = os.cpu_count() or 1
    assert main(["autoplay", "--jobs", "1000", "--games", "1", "--players", "greedy,random"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"note: --jobs 1000 is more than the {cores} cores here: using {cores} (--force-jobs to insist)"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rules", "teams"], "error: teams rules need exactly 4 players, not 2\n"),
        (["--players", "greedy,greedy,greedy,greedy,greedy"], "error: tournament rules need 2 to 4 players, not 5\n"),
    ],
)
def test_a_wrong_number_of_players_says_how_many(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from lexiko.cli import main

    assert main(["autoplay", "--games", "1", *argv]) == 2
    assert capsys.readouterr().out == message
