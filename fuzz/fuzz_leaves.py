"""Fuzz the reader of lexiko's own leave tables (``LeaveTable.load``: text, or gzip of
it): load any file, then value leaves with what loads, write it out and read it back, and
pack it for the compiled kernel."""

from __future__ import annotations

from _harness import instrumented, main, scratch_file

with instrumented():
    from lexiko.errors import NotationError
    from lexiko.leaves import LeaveTable
    from lexiko.movegen import _Rack
    from lexiko.tiles import ENGLISH


def one_input(data: bytes) -> None:
    table = LeaveTable.load(scratch_file("table.tsv.gz", data))
    tiles = table.tiles
    for leave in ("", "?", "E", "EE", "AEINST?"):
        try:
            codes = tiles.parse(leave)
        except NotationError:
            continue  # a tile set without these letters
        table.value(codes)
    again = LeaveTable.loads(table.dumps(), tiles)
    if len(again) != len(table):
        raise AssertionError(f"{len(table)} leaves read back as {len(again)}")
    if tiles.letters == ENGLISH.letters and table.packed() is not None:
        _Rack((1, 5, 9, 14, 19, 20, 0), tiles).table(table)


if __name__ == "__main__":
    main(one_input)
