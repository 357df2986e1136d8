"""Fuzz the reading of a compiled lexicon (the ``.kwg`` files of the cache folder,
``Lexicon._read_cache``, in the format of ``lexiko.kwg``) and the kernel entries that read
an automaton: ``depths``, ``anagrams``, ``wordmap`` and ``generate``.

Input: a cache file. What the reader takes is looked up from Python (membership,
anagrams, patterns) and generated from by the kernel. The arcs are also handed to the
kernel directly, whatever the reader said of them, since the kernel promises to read
nothing out of bounds for any array."""

from __future__ import annotations

import sys
from array import array

from _harness import instrumented, kernel_refuses, main, scratch_file

with instrumented():
    from lexiko import kernel
    from lexiko.board import Board
    from lexiko.lexicon import _HEAD, Lexicon
    from lexiko.move import Place
    from lexiko.movegen import _kernel_moves, _rack_counts
    from lexiko.rules import TOURNAMENT
    from lexiko.tiles import ENGLISH

EMPTY = Board.empty()
BOARD = EMPTY.place(Place(7, 5, False, (3, 1, 20, 19)))  # CATS at 8F
RACK = _rack_counts((1, 5, 9, 14, 19, 20, 0), ENGLISH)  # AEINST?


def kernel_generates(lex: Lexicon) -> None:
    for board in (EMPTY, BOARD):
        for best in (None, 3):
            with kernel_refuses():
                _kernel_moves(board, RACK, lex, TOURNAMENT, best, None, False, kernel.PLACEMENTS_ONLY)
    kernel._prune_cache.clear()
    kernel._wordmap_cache.clear()


def one_input(data: bytes) -> None:
    path = scratch_file("fuzz.kwg", data)
    lex = Lexicon._read_cache(path, "fuzz", ENGLISH)
    if lex is not None:
        "CAT" in lex  # noqa: B015 - the look-up is the test
        lex.anagrams("AEINST?", partial=True)
        lex.pattern("C?T")
        lex.pattern("*S")
        kernel_generates(lex)
    raw = data[_HEAD:]  # the arcs after the file's head
    if len(raw) >= 8 and len(raw) % 4 == 0:
        arcs = array("I")
        arcs.frombytes(raw)
        if sys.byteorder == "big":
            arcs.byteswap()
        kernel_generates(Lexicon("raw", ENGLISH, arcs))


if __name__ == "__main__":
    main(one_input)
