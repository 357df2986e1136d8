"""What every fuzz target shares: the libFuzzer loop (atheris), the rule for what is a
crash, and scratch files.

A target is ``fuzz/fuzz_<name>.py``: it imports lexiko under :func:`instrumented` (so
that atheris sees which branches of lexiko's Python code an input reaches; the compiled
kernel is seen too when it was built with ``-fsanitize=fuzzer-no-link``, as ``fuzz/run``
builds it), defines ``one_input(data: bytes) -> None`` and ends with ``main(one_input)``.

An input may be refused with :class:`lexiko.errors.LexikoError` (the errors lexiko
documents for bad input: ``NotationError``, ``RecordError``, ``LexiconError``...): that is
the expected answer, not a crash. Anything else is a crash: any other exception
(``IndexError``, ``KeyError``, ``zlib.error``, ``RecursionError``...), a signal, a sanitizer
report, or an input that runs past libFuzzer's ``-timeout``. The compiled kernel's own
``ValueError`` for a buffer it refuses is its documented answer too, but only where a
target calls the kernel directly (:func:`kernel_refuses`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import atheris

ROOT = Path(__file__).resolve().parent.parent

# A cache folder of the fuzzer's own: the targets must never read or fill the user's.
_SCRATCH = Path(tempfile.mkdtemp(prefix="lexiko-fuzz-"))
os.environ["LEXIKO_CACHE_DIR"] = str(_SCRATCH / "cache")


def instrumented() -> contextlib.AbstractContextManager[None]:
    """Import lexiko inside this block so that its Python code reports coverage."""
    return atheris.instrument_imports(include=["lexiko"])  # type: ignore[no-any-return]


def scratch_file(name: str, data: bytes) -> Path:
    """``data`` written to a file called ``name`` in the target's scratch folder."""
    path = _SCRATCH / name
    path.write_bytes(data)
    return path


def text_of(data: bytes) -> str:
    """The input as text, as a reader of a UTF-8 file with errors replaced sees it."""
    return data.decode("utf-8", "replace")


@contextlib.contextmanager
def kernel_refuses() -> Iterator[None]:
    """Around a direct call of the compiled kernel: its ValueError (a buffer it checked
    and refused) is an answer, not a crash."""
    try:
        yield
    except ValueError as e:
        if type(e) is not ValueError:  # a subclass comes from somewhere else
            raise


def main(one_input: Callable[[bytes], None]) -> None:
    """Run libFuzzer over ``one_input`` with the arguments of the command line; lexiko's
    documented errors are answers, everything else stops the run as a crash."""
    from lexiko.errors import LexikoError

    def guarded(data: bytes) -> None:
        try:
            one_input(data)
        except LexikoError:
            pass

    atheris.Setup(sys.argv, guarded)
    atheris.Fuzz()
