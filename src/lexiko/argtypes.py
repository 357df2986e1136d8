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
from typing import NoReturn

__all__ = ["positive_int", "non_negative_int", "positive_float", "non_negative_float", "port", "Parser"]


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


def port(text: str) -> int:
    """A TCP port, 1 to 65535."""
    value = _int(text, 1)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 1 to 65535, not {text!r}")
    return value


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on standard error, naming the
    command and where its help is, with exit status 2 (argparse's usage block is long)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {self.prog}: {message} (see '{self.prog} --help')\n")
