"""Every fuzz target still runs: each one's first inputs of its kept corpus go through
its ``one_input`` as libFuzzer would hand them over, in the quick run.

The targets call private entries of lexiko (the kernel's move generation, the leave
tables' readers) to reach the code that parses bytes; a change of such an entry's
arguments used to break a target unseen until `.ci/kernel-checks` fuzzed it, where it
showed as a crash of the target itself (``_kernel_moves() missing 1 required
positional argument``)."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("atheris", reason="atheris (from PyPI) runs the fuzz targets; .ci/kernel-checks installs it")

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
TARGETS = sorted(p.stem.removeprefix("fuzz_") for p in FUZZ.glob("fuzz_*.py"))
FIRST_INPUTS = 3
"""Inputs of each corpus replayed here (the longest targets replay a whole game each)."""


def _one_input(target: str) -> Callable[[bytes], None]:
    # the harness points LEXIKO_CACHE_DIR at a scratch folder of its own: only for the target
    saved = os.environ.get("LEXIKO_CACHE_DIR")
    sys.path.insert(0, str(FUZZ))
    try:
        module = importlib.import_module(f"fuzz_{target}")
    finally:
        sys.path.remove(str(FUZZ))
        if saved is None:
            os.environ.pop("LEXIKO_CACHE_DIR", None)
        else:
            os.environ["LEXIKO_CACHE_DIR"] = saved
    one_input: Callable[[bytes], None] = module.one_input
    return one_input


def test_every_target_has_a_corpus() -> None:
    assert TARGETS and [t for t in TARGETS if not (FUZZ / "corpus" / t).is_dir()] == []


@pytest.mark.parametrize("target", TARGETS)
def test_a_target_runs_its_first_inputs(target: str) -> None:
    from lexiko.errors import LexikoError

    one_input = _one_input(target)
    inputs = sorted(p for p in (FUZZ / "corpus" / target).iterdir() if p.is_file())[:FIRST_INPUTS]
    assert inputs, f"fuzz/corpus/{target} is empty"
    for path in inputs:
        try:
            one_input(path.read_bytes())
        except LexikoError:
            pass  # a documented refusal is an answer, as for the fuzzer
