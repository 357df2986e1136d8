"""Fuzz the packed leave map as the kernel reads it from the cache folder
(``leaves-<digest>.bin``, mapped by ``lexiko.leaves._cached_pack``): the kernel's check
of the map (``leave_values(bytes(64), map)``, what the cache reader calls), then the
values of every sub-rack of a rack, as ``lexiko.movegen`` asks for them.

Input: 7 bytes of rack (code = byte % 28; 27 leaves the slot empty), then the map."""

from __future__ import annotations

from _harness import instrumented, kernel_refuses, main

with instrumented():
    from lexiko import _kernel  # type: ignore[attr-defined]


def one_input(data: bytes) -> None:
    counts = bytearray(64)
    for b in data[:7]:
        if b % 28 < 27:
            counts[b % 28] += 1
    packed = data[7:]
    with kernel_refuses():
        _kernel.leave_values(bytes(64), packed)
        values = _kernel.leave_values(bytes(counts), packed)
        expected = 8
        for c in counts:
            expected *= c + 1
        if len(values) != expected:
            raise AssertionError(f"{len(values)} bytes of values for {expected // 8} sub-racks")


if __name__ == "__main__":
    main(one_input)
