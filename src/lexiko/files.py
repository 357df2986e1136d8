"""Writing a person's file: whole or not at all, and only where a file belongs.

`write_file` writes the bytes to a new file beside the target and renames it over
the target, so a failed write (a full disk) leaves the old file, or none, never half
of one. It writes only a regular file or a new name: a symbolic link is followed (the
link stays, the file it names gets the bytes); a folder, a device (``/dev/full``), a
named pipe or a socket is refused with a `LexikoError` naming what it is, and left as
it was (renaming over it would replace it with a plain file).

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> write_file(os.path.join(folder, "a.txt"), b"hello\\n").read_text()
'hello\\n'
>>> write_file(folder, b"x")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lexiko.errors.LexikoError: cannot write ...: it is a folder, not a file
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from lexiko.errors import LexikoError

if TYPE_CHECKING:  # pathlib is imported where a path is made: the playing start-up never needs it
    from pathlib import Path

__all__ = ["write_file", "not_a_file"]

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
)


def not_a_file(path: str | os.PathLike[str]) -> str | None:
    """What stands at ``path`` (links followed) when it is neither a regular file nor
    absent (``"a named pipe (FIFO)"``), else None.

    >>> not_a_file("/dev/null"), not_a_file("/no/such/file")
    ('a character device', None)
    """
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):  # absent, or a name no file can have (a NUL in it)
        return None
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


def write_file(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file renamed over it (see the
    module); returns the file written (the link's target for a link). Raises
    `LexikoError` for a place that is not a file, and `OSError` with the file's name
    when the writing fails."""
    if "\0" in os.fspath(path):
        raise LexikoError(f"cannot write {os.fspath(path)!r}: a file name holds no NUL character")
    what = not_a_file(path)
    if what is not None:
        raise LexikoError(f"cannot write {os.fspath(path)}: it is {what}, not a file")
    from pathlib import Path

    target = Path(os.path.realpath(path))
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    part, fd = _new_part(target)
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(part, target)
    except OSError as e:
        part.unlink(missing_ok=True)
        raise OSError(e.errno, e.strerror, os.fspath(path)) from None
    return target


def _new_part(target: Path) -> tuple[Path, int]:
    """A new file beside ``target``, made by this call alone (never one that was there,
    nor a link someone left under the name); permissions as the umask gives new files."""
    while True:
        part = target.with_name(f".{target.name}.{os.urandom(4).hex()}.part")
        try:
            return part, os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        except OSError as e:
            raise OSError(e.errno, e.strerror, os.fspath(target)) from None
