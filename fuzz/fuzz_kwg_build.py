"""Fuzz the kernel's builder of the lexicon automaton (``lexiko.kernel.build_kwg``, the C
of ``kwg_build.c``) against the reference builder of ``lexiko.kwg``: for any words, the
same array, or the same refusal (a code outside 1..63 in a word kept).

Input: one byte whose low bit asks for the DAWG alone (``build_dawg``), then the words
as letter codes, each ended by a 0 byte (a last word without one is ended for it)."""

from __future__ import annotations

from _harness import instrumented, main

with instrumented():
    from lexiko import kernel
    from lexiko import kwg as K


def one_input(data: bytes) -> None:
    if not data:
        return
    dawg_only = bool(data[0] & 1)
    words = data[1:].split(b"\0")
    if words and not words[-1]:
        words.pop()
    try:
        built = kernel.build_kwg(words, dawg_only=dawg_only)
    except ValueError as e:
        message = str(e)
        built = None
    try:
        reference = K.build_dawg(words) if dawg_only else K.build_kwg(words)
    except ValueError as e:
        assert built is None and str(e) == message, (built is None, e)
        return
    assert built == reference, "the kernel and the reference built different automata"
    if len(built) > 2 and K.dawg_root(built):
        kept = {w for w in words if K.MIN_WORD <= len(w) <= K.MAX_WORD}
        assert {bytes(w) for w in K.iter_words(built, K.dawg_root(built))} == kept


if __name__ == "__main__":
    main(one_input)
