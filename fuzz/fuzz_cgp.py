"""Fuzz the CGP reader: parse any line, set a game up at what parses, and read back the
line lexiko writes for it."""

from __future__ import annotations

from _harness import instrumented, main, text_of

with instrumented():
    from lexiko import cgp


def one_input(data: bytes) -> None:
    pos = cgp.parse(text_of(data))
    again = cgp.parse(cgp.dumps(pos))
    if cgp.dumps(again) != cgp.dumps(pos):
        raise AssertionError(f"{cgp.dumps(pos)!r} reads back as {cgp.dumps(again)!r}")
    cgp.to_game(pos, lexicon=None, seed=1)


if __name__ == "__main__":
    main(one_input)
