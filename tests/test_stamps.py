"""Stamps: a warm start trusts a word list's digest and a cache file's check while both
files keep the stamps they had, and reads, checks and rebuilds again once either changes."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

import pytest

from lexiko import leaves, lexicon, stamps
from lexiko.lexicon import Lexicon
from lexiko.tiles import ENGLISH

OLD = (1_000_000_000_000_000_000, 1_000_000_000_000_000_000)  # 2001: settled files


def settle(*paths: Path) -> None:
    """Make files look long unmodified (`stamps.SETTLED_NS`), as a real cache's are."""
    for p in paths:
        os.utime(p, ns=OLD)


class Digests:
    """Counts the digests of cache files checked (`lexiko.lexicon._arcs_digest`)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = lexicon._arcs_digest

        def counted(arcs: bytes | memoryview) -> bytes:
            self.count += 1
            return real(arcs)

        monkeypatch.setattr(lexicon, "_arcs_digest", counted)


@pytest.fixture
def words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A word list whose lexicon is cached, both files settled and their stamps recorded."""
    monkeypatch.setenv("LEXIKO_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "w.txt"
    f.write_text("cat\ndog\n")
    Lexicon.load(f)  # built and written: too fresh to record
    (cached,) = (tmp_path / "cache").glob("w-*.kwg")
    assert list((tmp_path / "cache").glob("*.stamp")) == []
    settle(f, cached)
    Lexicon.load(f)  # checked, and recorded
    assert len(list((tmp_path / "cache").glob("w-*.stamp"))) == 1
    return f


def test_a_warm_load_checks_no_digest_and_reads_no_list(words: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    digests = Digests(monkeypatch)
    monkeypatch.setattr(hashlib, "sha256", None)  # the list's digest is not computed either
    lex = Lexicon.load(words)
    assert sorted(lex) == ["CAT", "DOG"] and lex.name == "w"
    assert digests.count == 0


def test_a_cache_file_changed_since_its_stamp_is_checked_and_rebuilt(
    words: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kwg = Lexicon.load(words).kwg
    (cached,) = words.parent.glob("cache/w-*.kwg")
    time.sleep(0.05)  # the status-change time moves on
    data = bytearray(cached.read_bytes())
    at = len(data) - 4 * len(kwg) + 4 * (kwg[0] & 0x3FFFFF)  # the first arc of the DAWG's root
    data[at : at + 4] = (kwg[kwg[0] & 0x3FFFFF] | 0x3FFFFF).to_bytes(4, "little")  # its child: out of range
    cached.write_bytes(bytes(data))
    settle(cached)  # same size, same modification time: only the status-change time tells
    digests = Digests(monkeypatch)
    lex = Lexicon.load(words)
    assert digests.count == 2  # checked and found damaged; the rebuilt file's digest written
    assert sorted(lex) == ["CAT", "DOG"] and lex.anagrams("TAC") == ["CAT"]


def test_a_word_list_changed_since_its_stamp_is_read_again(words: Path) -> None:
    time.sleep(0.05)
    words.write_text("cat\nemu\n")  # same size
    settle(words)
    assert sorted(Lexicon.load(words)) == ["CAT", "EMU"]


def test_a_record_of_another_tile_set_or_list_is_not_taken(words: Path, tmp_path: Path) -> None:
    other = tmp_path / "other" / "w.txt"  # same name, another folder
    other.parent.mkdir()
    other.write_text("emu\n")
    settle(other)
    assert sorted(Lexicon.load(other)) == ["EMU"]
    assert sorted(Lexicon.load(words)) == ["CAT", "DOG"]


def test_the_shipped_leave_table_is_hashed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEXIKO_CACHE_DIR", str(tmp_path))
    path = Path(leaves.__file__).parent / "data" / leaves.DATA_FILE
    key = hashlib.sha256(path.read_bytes()).hexdigest()[:24]
    if time.time_ns() - path.stat().st_mtime_ns < stamps.SETTLED_NS:  # a fresh checkout
        monkeypatch.setattr(stamps, "SETTLED_NS", 0)
    first = leaves._default_table.__wrapped__(ENGLISH)
    assert first._key == key  # type: ignore[attr-defined]
    monkeypatch.setattr(hashlib, "sha256", None)
    second = leaves._default_table.__wrapped__(ENGLISH)
    assert second._key == key  # type: ignore[attr-defined]
    assert second.value("AEINST?") == first.value("AEINST?") == LeavesDefault.value("AEINST?")


LeavesDefault = leaves.LeaveTable.default()


def test_stamps_recall_only_the_same_key_and_unchanged_files(tmp_path: Path) -> None:
    f = tmp_path / "f"
    f.write_bytes(b"abc")
    stamps.remember(str(tmp_path), "r", "key", [str(f)], "value")
    assert stamps.recall(str(tmp_path), "r", "key") is None  # too fresh: not recorded
    settle(f)
    stamps.remember(str(tmp_path), "r", "key", [str(f)], "value")
    assert stamps.recall(str(tmp_path), "r", "key") == ("value", {str(f): stamps.stamp(str(f))})
    assert stamps.recall(str(tmp_path), "r", "another key") is None
    assert stamps.recall(str(tmp_path), "s", "key") is None
    time.sleep(0.05)
    os.chmod(f, 0o600)  # the status-change time moves on
    assert stamps.recall(str(tmp_path), "r", "key") is None
    stamps.remember(str(tmp_path), "r", "key", [str(tmp_path / "missing")], "value")
    assert stamps.recall(str(tmp_path), "r", "key") is None  # unchanged: still the chmod'ed stamp
    (tmp_path / "r.stamp").write_bytes(b"\xff\xfe")
    assert stamps.recall(str(tmp_path), "r", "key") is None
