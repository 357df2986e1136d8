"""Stamps: what files were found to hold, remembered by their status, so a later process
trusts them without reading them again.

A *stamp* is what ``os.stat`` says of a file that changes whenever its bytes do: size,
modification and status-change times, inode and device. A *record* (a small file
``NAME.stamp`` in the cache folder) keeps a value (a digest of a word list, the fact that
a cache file's digest was checked) with the stamps of the files it was computed from;
`recall` gives the value back only while every file still has its stamp. A file rewritten
in place, replaced, or touched changes its stamp (the status-change time cannot be set
back), so the value is computed again; only damage below the file system (a disk's bit
rot) goes unseen, as it does for Python's own bytecode cache.

A file modified within `SETTLED_NS` of being stamped might keep its stamp (times are
coarse), so such a file is not recorded (`remember` leaves it for a later process).

>>> import os, tempfile
>>> d = tempfile.mkdtemp(); f = os.path.join(d, "words.txt")
>>> with open(f, "w") as out: _ = out.write("QI\\n")
>>> os.utime(f, ns=(0, 0))  # an old file, settled
>>> remember(d, "words", "key", [f], "abc123")
>>> recall(d, "words", "key")[0], recall(d, "words", "other key")
('abc123', None)
>>> with open(f, "a") as out: _ = out.write("ZA\\n")
>>> recall(d, "words", "key") is None
True
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

__all__ = ["SETTLED_NS", "stamp", "stamp_of", "recall", "remember"]

SETTLED_NS = 2_000_000_000
"""How long (ns) a file must have been left unmodified before its stamp is recorded."""

_SEP = "\0"  # no path holds it


def stamp_of(st: os.stat_result) -> str:
    """The stamp of a file's status.

    >>> stamp_of(os.stat(__file__)) == stamp(__file__)
    True
    """
    return f"{st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino} {st.st_dev}"


def stamp(path: str) -> str | None:
    """The stamp of the file ``path`` now, or None when it cannot be read.

    >>> stamp("/no/such/file") is None
    True
    """
    try:
        return stamp_of(os.stat(path))
    except (OSError, ValueError):
        return None


def recall(folder: str, name: str, key: str) -> tuple[str, dict[str, str]] | None:
    """The value recorded under ``name`` for ``key`` and the stamps of its files, or
    None when there is none, it was recorded for another key, or a file has changed.
    """
    try:
        with open(os.path.join(folder, name + ".stamp"), "rb") as f:
            fields = f.read().decode("utf-8").split(_SEP)
    except (OSError, ValueError):
        return None
    if len(fields) < 2 or len(fields) % 2 or fields[0] != key:
        return None
    stamps = dict(zip(fields[1:-1:2], fields[2:-1:2], strict=True))
    for path, recorded in stamps.items():
        if stamp(path) != recorded:
            return None
    return fields[-1], stamps


def remember(folder: str, name: str, key: str, paths: Sequence[str], value: str) -> None:
    """Record ``value`` for ``key`` under ``name``, with the stamps of ``paths`` now;
    nothing when a file is missing or was modified too recently (`SETTLED_NS`), or the
    folder cannot be written (the value is then computed again next time)."""
    fields = [key]
    now = time.time_ns()
    for path in paths:
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            return
        if now - st.st_mtime_ns < SETTLED_NS:
            return
        fields += [path, stamp_of(st)]
    fields.append(value)
    target = os.path.join(folder, name + ".stamp")
    tmp = f"{target}.tmp{os.getpid()}"
    try:
        os.makedirs(folder, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(_SEP.join(fields).encode("utf-8"))
        os.replace(tmp, target)
    except (OSError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass
