"""Fuzz what the kernel's best mode reads from the cache folder beside a lexicon
(``lexiko.kernel._disk_cached``: ``depths-*.bin``, ``anagrams-*.bin``, ``wordmap-*.bin``,
mapped as they are): generation of the best moves with one of the three replaced by
the input, the other two the lexicon's own.

Input: one byte picking which (``% 3``: depths, anagrams, word map), then its bytes."""

from __future__ import annotations

from _harness import instrumented, kernel_refuses, main

with instrumented():
    from lexiko import kernel
    from lexiko.board import Board
    from lexiko.lexicon import Lexicon
    from lexiko.move import Place
    from lexiko.movegen import _kernel_moves, _rack_counts
    from lexiko.rules import TOURNAMENT
    from lexiko.tiles import ENGLISH

WORDS = ["AA", "AT", "TA", "CAT", "CATS", "SCAT", "ACTS", "EAST", "SEAT", "TEAS", "SATE", "ETAS", "STAINED"]
LEX = Lexicon.from_words(WORDS)
EMPTY = Board.empty()
BOARD = EMPTY.place(Place(7, 5, False, (3, 1, 20, 19)))  # CATS at 8F
RACK = _rack_counts((1, 5, 9, 14, 19, 20, 0), ENGLISH)  # AEINST?
DEPTHS, ANAGRAMS = kernel.prune_data(LEX.kwg)
WORDMAP = kernel.wordmap_data(LEX.kwg)


def one_input(data: bytes) -> None:
    if not data:
        return
    blobs = [DEPTHS, ANAGRAMS, WORDMAP]
    blobs[data[0] % 3] = data[1:]
    kernel._prune_cache[id(LEX.kwg)] = (LEX.kwg, blobs[0], blobs[1])
    kernel._wordmap_cache[id(LEX.kwg)] = (LEX.kwg, blobs[2])
    for board in (EMPTY, BOARD):
        for best in (1, 5):
            with kernel_refuses():
                _kernel_moves(board, RACK, LEX, TOURNAMENT, best, None, False, kernel.PLACEMENTS_ONLY)


if __name__ == "__main__":
    main(one_input)
