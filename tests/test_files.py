"""Writing a person's file (`lexiko.files.write_file`): whole or not at all, and only
over a regular file: a link is written through, a device, named pipe or folder is
refused by name and left as it was."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from fifo_harness import named_pipe

from lexiko.errors import LexikoError
from lexiko.files import write_file
from lexiko.leaves import LeaveTable


def test_a_new_file_and_a_file_replaced_whole_keeping_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    assert write_file(path, b"one\n") == path
    assert path.read_bytes() == b"one\n"
    path.chmod(0o640)
    write_file(path, b"two\n")
    assert path.read_bytes() == b"two\n" and stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.txt"]  # no part left behind


def test_a_link_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    (tmp_path / "real.tsv").write_text("old\n")
    link = tmp_path / "link.tsv"
    link.symlink_to("real.tsv")
    assert write_file(link, b"new\n") == tmp_path / "real.tsv"
    assert link.is_symlink() and os.readlink(link) == "real.tsv"
    assert (tmp_path / "real.tsv").read_text() == "new\n"


def test_a_named_pipe_a_folder_and_a_device_are_refused(tmp_path: Path) -> None:
    with named_pipe(tmp_path / "pipe") as fifo:
        with pytest.raises(LexikoError, match=rf"^cannot write {fifo}: it is a named pipe \(FIFO\), not a file$"):
            write_file(fifo, b"x")
        assert stat.S_ISFIFO(fifo.lstat().st_mode) and os.read(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK), 9) == b""
        with pytest.raises(LexikoError, match=rf"^cannot write {tmp_path}: it is a folder, not a file$"):
            write_file(tmp_path, b"x")
        link = tmp_path / "to-pipe"
        link.symlink_to(fifo)
        with pytest.raises(LexikoError, match=rf"^cannot write {link}: it is a named pipe \(FIFO\), not a file$"):
            write_file(link, b"x")
        assert link.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == ["pipe", "to-pipe"]


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_is_refused_and_stays_a_device(tmp_path: Path) -> None:
    dev = tmp_path / "full"
    os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 7))  # what /dev/full is
    with pytest.raises(LexikoError, match=rf"^cannot write {dev}: it is a character device, not a file$"):
        write_file(dev, b"x")
    assert stat.S_ISCHR(dev.lstat().st_mode)


def test_a_leave_table_is_saved_only_over_a_file(tmp_path: Path) -> None:
    table = LeaveTable(values={(19,): 9.0})
    with named_pipe(tmp_path / "leaves.tsv") as fifo:
        with pytest.raises(LexikoError, match=r"it is a named pipe \(FIFO\), not a file$"):
            table.save(fifo)
        assert stat.S_ISFIFO(fifo.lstat().st_mode)
    link = tmp_path / "link.tsv.gz"
    link.symlink_to(tmp_path / "real.tsv.gz")  # a link to a file not made yet
    table.save(link)
    assert link.is_symlink() and LeaveTable.load(link).value("S") == 9.0


def test_a_failed_write_names_the_file_and_leaves_the_old_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.txt"
    path.write_text("old\n")

    def full(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError) as e:
        write_file(path, b"new\n")
    assert (e.value.strerror, e.value.filename) == ("No space left on device", str(path))
    monkeypatch.undo()
    assert path.read_text() == "old\n" and sorted(p.name for p in tmp_path.iterdir()) == ["t.txt"]


def test_a_leave_table_larger_than_one_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lexiko import leaves

    path = tmp_path / "t.tsv"
    LeaveTable(values={(19,): 9.0}).save(path)
    monkeypatch.setattr(leaves, "MAX_TABLE_BYTES", path.stat().st_size - 1)
    with pytest.raises(LexikoError, match=rf"^{path} holds more than a leave table: a table has at most [\d,]+ bytes$"):
        LeaveTable.load(path)
    monkeypatch.setattr(leaves, "MAX_TABLE_BYTES", path.stat().st_size)
    assert LeaveTable.load(path).value("S") == 9.0


def test_a_leave_table_name_with_a_nul_is_a_message() -> None:
    with pytest.raises(LexikoError, match=r"^cannot read leave table 'a\\x00b': a file name holds no NUL character$"):
        LeaveTable.load("a\x00b")
