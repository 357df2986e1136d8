"""Fuzz the readers of other engines' leave files: KLV2, KLV and CSV
(``lexiko.leave_formats``, through ``LeaveTable.load``). The first byte picks the suffix
of the file; what loads is valued, written as KLV2 and read back."""

from __future__ import annotations

from _harness import instrumented, main, scratch_file

with instrumented():
    from lexiko.leave_formats import read_klv, write_klv2
    from lexiko.leaves import LeaveTable

SUFFIXES = (".klv2", ".klv", ".csv")


def one_input(data: bytes) -> None:
    if not data:
        return
    suffix = SUFFIXES[data[0] % len(SUFFIXES)]
    table = LeaveTable.load(scratch_file("leaves" + suffix, data[1:]))
    table.value("AEINST?")
    stored = [(k, v) for k, v in table.items() if k]
    back = read_klv(write_klv2(stored))
    if len(back) != len(stored):
        raise AssertionError(f"{len(stored)} leaves read back as {len(back)}")
    if table.packed() is not None:
        from lexiko.movegen import _Rack

        _Rack((1, 5, 9, 14, 19, 20, 0), table.tiles).table(table)


if __name__ == "__main__":
    main(one_input)
