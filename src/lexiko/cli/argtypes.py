"""Argument types for the ``lexiko`` command's options: each turns bad input into one
clear argparse error ("argument --jobs: must be a whole number of at least 1, not -3").

>>> positive_int("3"), non_negative_int("0"), positive_float("2.5"), port("8000")
(3, 0, 2.5, 8000)
>>> positive_int("-3")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be a whole number of at least 1, not '-3'
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
from pathlib import Path
from typing import NoReturn

from lexiko.errors import LexikoError
from lexiko.files import not_a_file

__all__ = [
    "positive_int",
    "non_negative_int",
    "positive_float",
    "non_negative_float",
    "port",
    "clock_minutes",
    "Parser",
    "bounded_jobs",
    "output_file",
    "output_folder",
    "file_path",
]


def _int(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        value = least - 1
    if value < least:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least {least}, not {text!r}")
    return value


def _float(text: str, *, strict: bool) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0 or (strict and value == 0):
        what = "a number above 0" if strict else "a number of at least 0"
        raise argparse.ArgumentTypeError(f"must be {what}, not {text!r}")
    return value


def positive_int(text: str) -> int:
    """A whole number of at least 1."""
    return _int(text, 1)


def non_negative_int(text: str) -> int:
    """A whole number of at least 0."""
    return _int(text, 0)


def positive_float(text: str) -> float:
    """A finite number above 0 (minutes, seconds)."""
    return _float(text, strict=True)


def non_negative_float(text: str) -> float:
    """A finite number of at least 0."""
    return _float(text, strict=False)


def clock_minutes(text: str) -> float:
    """Minutes on a game clock: above 0 and at most a day (1440).

    >>> clock_minutes("25")
    25.0
    >>> clock_minutes("1e308")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be minutes above 0 and at most 1440 (a day), not '1e308'
    """
    value = _float(text, strict=True)
    if value > 1440:
        raise argparse.ArgumentTypeError(f"must be minutes above 0 and at most 1440 (a day), not {text!r}")
    return value


def port(text: str) -> int:
    """A TCP port, 1 to 65535."""
    value = _int(text, 1)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 1 to 65535, not {text!r}")
    return value


def file_path(text: str) -> Path:
    """A file's name, never empty (``Path("")`` would be the current folder).

    >>> file_path("game.gcg")
    PosixPath('game.gcg')
    >>> file_path("")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: the file name is empty
    """
    if not text.strip():
        raise argparse.ArgumentTypeError("the file name is empty")
    return Path(text)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on standard error, naming the
    command and where its help is, with exit status 2 (argparse's usage block is long).
    ``commands`` holds the parsers of the subcommands, when the program has them."""

    commands: dict[str, argparse.ArgumentParser] = {}  # set per instance by its builder, never changed

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {self.prog}: {message} (see '{self.prog} --help')\n")


def bounded_jobs(requested: int, force: bool = False) -> tuple[int, str | None]:
    """Worker processes for ``--jobs``: 0 means one per core; more than the cores is cut
    to the cores (each worker holds a lexicon and gains nothing) unless ``force``.
    Returns the number and a note to show when it was cut.

    >>> import os
    >>> bounded_jobs(0)[0] == (os.cpu_count() or 1), bounded_jobs(1)
    (True, (1, None))
    """
    cores = os.cpu_count() or 1
    if requested == 0:
        return cores, None
    if requested > cores and not force:
        return cores, f"--jobs {requested} is more than the {cores} cores here: using {cores} (--force-jobs to insist)"
    return requested, None


def output_file(text: str, option: str = "--out") -> Path:
    """Check, before any long work, that a file can be written at ``text``; raises
    `LexikoError` saying why not (a folder, a device or named pipe, a missing folder, no
    permission)."""
    if not text.strip():
        raise LexikoError(f"{option} needs a file name, such as leaves.tsv.gz")
    path = Path(text)
    if path.is_dir():
        raise LexikoError(f"{option} {text} is a folder: give a file name, such as {path / 'leaves.tsv.gz'}")
    what = not_a_file(path)
    if what is not None:
        raise LexikoError(f"{option} {text} is {what}, not a file: give a file name, such as leaves.tsv.gz")
    parent = path.parent
    if not parent.is_dir():
        raise LexikoError(f"{option} {text}: no such folder {parent}")
    if path.exists() and not os.access(path, os.W_OK):
        raise LexikoError(f"{option} {text}: the file cannot be written (permission denied)")
    try:
        with tempfile.NamedTemporaryFile(dir=parent, prefix=".lexiko-check-"):
            pass
    except OSError as e:
        raise LexikoError(f"{option} {text}: cannot write in {parent} ({e.strerror})") from None
    return path


def output_folder(text: str, option: str, pattern: str) -> Path:
    """Check (and create) a folder to write files into; refuse a file, an unwritable
    place, or a folder that already holds files matching ``pattern``."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise LexikoError(f"{option} {text} is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".lexiko-check-"):
            pass
    except OSError as e:
        raise LexikoError(f"{option} {text}: cannot write there ({e.strerror})") from None
    old = sorted(path.glob(pattern))
    if old:
        raise LexikoError(
            f"{option} {text} already holds {len(old)} such files ({old[0].name} ...): give an empty or new folder"
        )
    return path
