"""Fuzz the reading of word-list files (``Lexicon.load`` of a file, one word a line, and
``lexiko.wordlists.game_words`` for the spelling lists of other languages), then the
lexicon compiled from what reads: membership and anagrams.

Input: one byte picking the tile set, then the file."""

from __future__ import annotations

import itertools

from _harness import instrumented, main, scratch_file, text_of

with instrumented():
    from lexiko.lexicon import Lexicon
    from lexiko.tiles import CATALAN, ENGLISH, GERMAN, POLISH, SPANISH
    from lexiko.wordlists import game_words

TILE_SETS = (ENGLISH, SPANISH, CATALAN, GERMAN, POLISH)


def one_input(data: bytes) -> None:
    if not data:
        return
    tiles = TILE_SETS[data[0] % len(TILE_SETS)]
    body = data[1:]
    game_words(text_of(body).splitlines(), tiles)
    lex = Lexicon.load(scratch_file("words.txt", body), tiles, cache=False)
    for word in itertools.islice(lex, 3):
        if word not in lex:
            raise AssertionError(f"{word!r} is listed but not found")
        lex.anagrams(word)


if __name__ == "__main__":
    main(one_input)
