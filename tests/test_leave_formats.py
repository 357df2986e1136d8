"""Leave files of other engines: KLV2 and KLV (MAGPIE, wolges) and CSV, read by
LeaveTable.load and written by LeaveTable.save; a KLV2 file built by hand from the
format's description reads as it should."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from lexiko.errors import LexikoError
from lexiko.leave_formats import read_klv, write_klv2
from lexiko.leaves import LeaveTable
from lexiko.tiles import ENGLISH

ACCEPTS, END = 0x800000, 0x400000


def node(tile: int, arc: int = 0, accepts: bool = False, end: bool = False) -> int:
    return tile << 24 | arc | (ACCEPTS if accepts else 0) | (END if end else 0)


def hand_made(values: list[float], fmt: str) -> bytes:
    """Leaves ?, A, AB (blank = 0, A = 1, B = 2): node 0 points at the list at 2; node 1
    is the unused second graph; the list [? A] at 2-3; A's child list [B] at 4."""
    nodes = [
        node(0, 2, end=True),
        node(0, end=True),
        node(0, accepts=True),
        node(1, 4, accepts=True, end=True),
        node(2, accepts=True, end=True),
    ]
    return (
        struct.pack("<I", len(nodes))
        + struct.pack(f"<{len(nodes)}I", *nodes)
        + struct.pack("<I", 3)
        + struct.pack(f"<3{fmt}", *values)
    )


def test_a_hand_made_klv2_and_klv_read_as_described() -> None:
    assert read_klv(hand_made([25.0, 1.5, -2.0], "f")) == [((0,), 25.0), ((1,), 1.5), ((1, 2), -2.0)]
    # KLV: the values are 16-bit integers, in 256ths of a point
    assert read_klv(hand_made([6400, 384, -512], "h")) == [((0,), 25.0), ((1,), 1.5), ((1, 2), -2.0)]


def test_load_and_save_klv2_and_csv(tmp_path: Path) -> None:
    path = tmp_path / "t.klv2"
    path.write_bytes(hand_made([25.0, 1.5, -2.0], "f"))
    t = LeaveTable.load(path, ENGLISH)
    assert (t.value("?"), t.value("A"), t.value("BA"), t.value("Z")) == (25.0, 1.5, -2.0, 0.0)
    # the writer's graph reads back the same leaves (and is itself valid KLV2)
    table = LeaveTable(
        ENGLISH,
        {
            ENGLISH.rack_sort(ENGLISH.parse(k)): v
            for k, v in {"S": 8.0, "ERS": 12.5, "?S": 30.0, "QU": -4.0, "VV": -17.25}.items()
        },
    )
    out = tmp_path / "mine.klv2"
    table.save(out)
    again = LeaveTable.load(out, ENGLISH)
    assert {ENGLISH.format(k): v for k, v in again._values.items()} == {
        "S": 8.0,
        "ERS": 12.5,
        "S?": 30.0,
        "QU": -4.0,
        "VV": -17.25,
    }
    csv = tmp_path / "mine.csv"
    table.save(csv)
    assert csv.read_text().splitlines()[0] == "S,8"
    assert LeaveTable.load(csv, ENGLISH).value("RSE") == 12.5
    (tmp_path / "h.csv").write_text("leave,value\n?S,30\nVV,-17.25\n")
    assert LeaveTable.load(tmp_path / "h.csv", ENGLISH).value("S?") == 30.0


def test_broken_files_are_refused_with_the_reason(tmp_path: Path) -> None:
    bad = tmp_path / "bad.klv2"
    bad.write_bytes(hand_made([25.0, 1.5, -2.0], "f")[:-7])
    with pytest.raises(LexikoError, match=r"not a KLV2/KLV leave file \(3 values do not fit in the 5 bytes left\)"):
        LeaveTable.load(bad, ENGLISH)
    csv = tmp_path / "bad.csv"
    csv.write_text("S,8\nE;2\n")
    with pytest.raises(LexikoError, match=r"line 2: expected 'leave,value', got 'E;2'"):
        LeaveTable.load(csv, ENGLISH)
    # no leaves: the two empty graphs and no values (the empty leave is 0, not stored)
    assert write_klv2([((), 0.0)]) == struct.pack("<4I", 2, END, END, 0)


def test_values_a_leave_file_cannot_hold_are_refused_by_name(tmp_path: Path) -> None:
    """Found by fuzzing: a CSV value beyond 32-bit floats loaded, then saving it as KLV2
    raised a bare OverflowError; 'nan' and 'inf' loaded as leave values."""
    huge = tmp_path / "huge.csv"
    huge.write_text("ERC,1.5e50\nQU,-1.12\n")
    table = LeaveTable.load(huge, ENGLISH)
    assert table.value("CER") == 1.5e50
    with pytest.raises(LexikoError, match=r"leave CER is worth 1\.5e\+50, beyond the 32-bit floats of a KLV2 file"):
        table.save(tmp_path / "out.klv2")
    assert not (tmp_path / "out.klv2").exists()
    with pytest.raises(LexikoError, match=r"beyond the 32-bit floats of a KLV2 file"):
        write_klv2([((1,), -4e38)])
    assert read_klv(write_klv2([((1,), 3.4e38)]))[0][1] == pytest.approx(3.4e38, rel=1e-6)
    for word in ("nan", "inf", "-Infinity"):
        bad = tmp_path / "bad.csv"
        bad.write_text(f"S,8\nE,{word}\n")
        with pytest.raises(LexikoError, match=rf"line 2: the value {word!r} is not a finite number"):
            LeaveTable.load(bad, ENGLISH)
