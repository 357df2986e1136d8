"""Word lists from GNU Aspell's dictionaries, for languages Debian ships no plain list of.

Debian has no ``w*`` word-list package for Czech, Slovak, Romanian, Greek or Russian, but
it has their Aspell dictionaries (``aspell-cs`` ...). A dictionary holds stems and
affix rules; the ``aspell`` program writes every word they make (``aspell dump master``
then ``aspell expand``), and `lexiko.wordlists` reads that like a Debian list.

>>> dictionary_path("cs").name
'cs.rws'
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lexiko.errors import LexiconError

if TYPE_CHECKING:  # pathlib is imported where a path is made: the playing start-up never needs it
    from pathlib import Path

__all__ = ["aspell_dir", "dictionary_path", "stems", "expand", "expanded_words"]


def aspell_dir() -> Path:
    """Where the dictionaries are: ``$LEXIKO_ASPELL_DIR``, else ``/usr/lib/aspell``."""
    from pathlib import Path

    return Path(os.environ.get("LEXIKO_ASPELL_DIR", "/usr/lib/aspell"))


def dictionary_path(code: str) -> Path:
    """The compiled dictionary of a language code (``cs``): ``cs.rws`` in `aspell_dir`."""
    return aspell_dir() / f"{code}.rws"


def _run(argv_tail: list[str], code: str, package: str, data: bytes | None = None) -> bytes:
    # imported here: the rules import this module (through lexiko.wordlists), so every
    # process would load these two, and few ever read an aspell list
    import shutil
    import subprocess

    exe = shutil.which("aspell")
    if exe is None:
        raise LexiconError(
            f"reading the {package} dictionary needs the aspell program: apt-get install aspell {package}"
        )
    options = [f"--lang={code}", "--encoding=utf-8", f"--dict-dir={aspell_dir()}"]
    done = subprocess.run([exe, *argv_tail, *options], input=data, capture_output=True, check=False)
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise LexiconError(f"aspell could not read the {package} dictionary: {said[-1] if said else done.returncode}")
    return done.stdout


def stems(code: str, package: str) -> list[str]:
    """The entries of the dictionary of ``code`` as stored: stems with their affix flags
    (``pes/H``), one a line of ``aspell dump master``. Raises as `expanded_words`."""
    return _run(["dump", "master"], code, package).decode("utf-8", "replace").splitlines()


def expand(entries: list[str], code: str, package: str) -> list[str]:
    """Every word the dictionary entries (as `stems` gives them) make."""
    data = ("\n".join(entries) + "\n").encode("utf-8")
    return _run(["expand"], code, package, data).decode("utf-8", "replace").split()


def expanded_words(code: str, package: str) -> list[str]:
    """Every word the dictionary of ``code`` makes, as the ``aspell`` program writes them.
    Raises `LexiconError` saying what to install when the program or dictionary is
    missing, or what the program said when it failed."""
    return expand(stems(code, package), code, package)
