"""Fuzz the GCG reader: parse any bytes, replay what parses, and write and read back
what replays (a record lexiko wrote must read again)."""

from __future__ import annotations

from _harness import instrumented, main

with instrumented():
    from lexiko import gcg


def one_input(data: bytes) -> None:
    record = gcg.parse(data)
    record.to_text()
    game = record.replay()
    text = gcg.dumps(game)
    gcg.parse(text).replay()


if __name__ == "__main__":
    main(one_input)
